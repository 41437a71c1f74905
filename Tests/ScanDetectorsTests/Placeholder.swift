import XCTest
@testable import ScanDetectors

final class ScanDetectorsTestsPlaceholder: XCTestCase {
    func testBuilds() {}
}
