import Foundation
import TestSupport
import XCTest
@testable import ScanKit

/// A temporary folder per test, and processors with a fixed reference date (two-digit
/// years must not move with the calendar).
class PipelineTestCase: XCTestCase {
    var dir = ""
    override func setUp() { dir = Drawing.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func processor(_ edit: (inout ScanConfiguration) -> Void = { _ in }) throws -> DocumentProcessor {
        var c = ScanConfiguration()
        c.referenceDate = "2024-06-01"
        edit(&c)
        return try DocumentProcessor(configuration: c)
    }
}
