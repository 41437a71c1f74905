import XCTest
@testable import ScanKit

final class ScanKitTestsPlaceholder: XCTestCase {
    func testBuilds() {}
}
