import XCTest
@testable import TestSupport

final class CLITestsPlaceholder: XCTestCase {
    func testBuilds() {}
}
