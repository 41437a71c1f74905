import Foundation
import TestSupport
import XCTest
@testable import ScanExport
@testable import ScanModel

final class ExportTests: XCTestCase {
    func obs(_ t: String, _ x: Double, _ y: Double) -> TextObservation {
        TextObservation(text: t, confidence: 1, boundingBox: BoundingBox(x: x, y: y, width: 50, height: 20))
    }

    func testReadingOrderJoinsSplitLabelAndAmount() {
        let page = Page(index: 0, width: 500, height: 500, textSource: .ocr,
                        observations: [obs("9.00", 300, 102), obs("Header", 10, 10), obs("TOTAL", 10, 100)])
        XCTAssertEqual(ReadingOrder.lines(of: page), ["Header", "TOTAL   9.00"])
    }

    func testJSONHasSchemaVersionAndIsStable() throws {
        let doc = Document(source: "a.png", engine: EngineInfo(name: "t", version: "1"), pages: [])
        let a = try DocumentWriter.json(doc, pretty: false)
        XCTAssertEqual(a, try DocumentWriter.json(doc, pretty: false))
        let s = String(decoding: a, as: UTF8.self)
        XCTAssertTrue(s.contains("\"schemaVersion\":\"\(Document.currentSchemaVersion)\""))
        XCTAssertEqual(s.filter { $0 == "\n" }.count, 1, "JSON Lines: one line per document")
    }

    func testNamerNeverReusesANameOrAnInputPath() {
        let dir = "/tmp/out"
        var n = OutputNamer(directory: dir, fileExtension: "json", inputs: ["/tmp/out/c.json"])
        XCTAssertEqual(n.path(for: "a/x.png"), "/tmp/out/x.json")
        XCTAssertEqual(n.path(for: "b/x.pdf"), "/tmp/out/x-2.json")
        XCTAssertEqual(n.path(for: "/tmp/out/c.json"), "/tmp/out/c-2.json", "an input is never overwritten")
    }

    func testAtomicWriteLeavesNoTemporaryFiles() throws {
        let dir = Drawing.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try AtomicFile.write(Data("one".utf8), to: dir + "/f.json")
        try AtomicFile.write(Data("two".utf8), to: dir + "/f.json")
        XCTAssertEqual(try String(contentsOfFile: dir + "/f.json", encoding: .utf8), "two")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), ["f.json"])
        XCTAssertThrowsError(try AtomicFile.write(Data(), to: dir + "/missing/f.json")) { e in
            XCTAssertEqual((e as? ScanError)?.code, .output)
        }
    }
}
