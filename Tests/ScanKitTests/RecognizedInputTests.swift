import Foundation
import ScanKit
import TestSupport
import XCTest

/// A document built in code is checked as JSON bytes are before it is processed again: a number that is no number
/// would make an output that is no JSON, and a country without a numbering plan would lose every phone's E.164.
final class RecognizedInputTests: XCTestCase {
    func testADocumentBuiltInCodeIsCheckedAsItsJSONWouldBe() throws {
        func document(confidence: Double, x: Double) -> Document {
            let line = TextObservation(
                text: "TOTAL 5.30", confidence: confidence, boundingBox: BoundingBox(x: x, y: 10, width: 90, height: 12))
            return Document(source: "built", engine: EngineInfo(name: "mine", version: "1"),
                            pages: [Page(index: 0, width: 200, height: 100, textSource: .ocr, observations: [line])])
        }
        let processor = try DocumentProcessor(configuration: ScanConfiguration())
        XCTAssertNoThrow(try processor.process(.document(document(confidence: 0.9, x: 5), name: "fine")))
        for (confidence, x) in [(Double.nan, 5.0), (0.9, .nan), (0.9, 1e308)] {
            XCTAssertThrowsError(try processor.process(.document(document(confidence: confidence, x: x), name: "bad"))) {
                XCTAssertEqual(($0 as? ScanError)?.code, .corrupt, "\($0)")
                XCTAssertEqual(($0 as? ScanError)?.file, "bad")
            }
        }
        // No page, a page of no size, a schema from a newer major version, or more observations than a document holds.
        var empty = document(confidence: 0.9, x: 5)
        empty.pages = []
        var flat = document(confidence: 0.9, x: 5)
        flat.pages[0].width = -200
        // A size not given (0, as another engine's output may leave it) is the extent of the boxes.
        var unsized = document(confidence: 0.9, x: 5)
        (unsized.pages[0].width, unsized.pages[0].height) = (0, 0)
        let sized = try processor.process(.document(unsized, name: "unsized")).pages[0]
        XCTAssertEqual([sized.width, sized.height], [95, 22])
        var newer = document(confidence: 0.9, x: 5)
        newer.schemaVersion = "99.0.0"
        var crowded = document(confidence: 0.9, x: 5)
        let many = Array(repeating: crowded.pages[0].observations[0], count: 17_000)
        crowded.pages = (0..<6).map {
            Page(index: $0, width: 200, height: 100, textSource: .ocr, observations: many)
        }
        for (doc, code, words) in [
            (empty, ScanError.Code.emptyPage, "no pages"), (flat, .corrupt, "size"),
            (newer, .unsupportedType, "schema 99.0.0"), (crowded, .tooLarge, "102000 observations"),
        ] {
            XCTAssertThrowsError(try processor.process(.document(doc, name: "odd"))) {
                XCTAssertEqual(($0 as? ScanError)?.code, code, "\($0)")
                XCTAssertTrue("\($0)".contains(words), "\($0)")
            }
        }
        var configuration = ScanConfiguration()
        configuration.country = "UK"
        XCTAssertThrowsError(try DocumentProcessor(configuration: configuration)) {
            XCTAssertEqual(($0 as? ScanError)?.code, .invalidOption)
        }
    }
}

/// A Swift task's cancellation reaches the pipeline, as the token's does.
final class TaskCancellationTests: XCTestCase {
    func testACancelledTaskStopsItsDocumentAndLeavesTheTokenAlone() async throws {
        let dir = Drawing.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/page.pdf"
        Drawing.writePDF([[DrawnLine("Call 555 0100", x: 72, y: 100)]], to: path)
        let token = CancellationToken()
        func attempt(cancelled: Bool) async -> String {
            await Task.detached { () -> String in
                if cancelled { withUnsafeCurrentTask { $0?.cancel() } }
                do {
                    let document = try DocumentProcessor(configuration: ScanConfiguration(), cancellation: token)
                        .process(path: path)
                    return document.pages.isEmpty ? "no pages" : "read"
                } catch let e as ScanError {
                    return "\(e.code.rawValue) \(e.file ?? "no file")"
                } catch {
                    return "\(error)"
                }
            }.value
        }
        let stopped = await attempt(cancelled: true)
        XCTAssertEqual(stopped, "cancelled \(path)")
        XCTAssertFalse(token.isCancelled)
        let read = await attempt(cancelled: false)
        XCTAssertEqual(read, "read")
    }
}
