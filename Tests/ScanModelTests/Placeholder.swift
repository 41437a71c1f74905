import XCTest
@testable import ScanModel

final class ScanModelTestsPlaceholder: XCTestCase {
    func testBuilds() {}
}
