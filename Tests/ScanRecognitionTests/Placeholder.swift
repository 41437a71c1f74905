import XCTest
@testable import ScanRecognition

final class ScanRecognitionTestsPlaceholder: XCTestCase {
    func testBuilds() {}
}
