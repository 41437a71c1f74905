import XCTest
@testable import ScanExport

final class ScanExportTestsPlaceholder: XCTestCase {
    func testBuilds() {}
}
