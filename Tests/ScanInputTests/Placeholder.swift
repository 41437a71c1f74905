import XCTest
@testable import ScanInput

final class ScanInputTestsPlaceholder: XCTestCase {
    func testBuilds() {}
}
