import Foundation
import XCTest
@testable import ScanModel

final class BoundingBoxTests: XCTestCase {
    func testUnionAndIntersection() {
        let a = BoundingBox(x: 0, y: 0, width: 10, height: 10)
        let b = BoundingBox(x: 5, y: 5, width: 10, height: 10)
        XCTAssertEqual(a.union(b), BoundingBox(x: 0, y: 0, width: 15, height: 15))
        XCTAssertEqual(a.intersection(b), BoundingBox(x: 5, y: 5, width: 5, height: 5))
        XCTAssertNil(a.intersection(BoundingBox(x: 20, y: 20, width: 1, height: 1)))
        XCTAssertNil(BoundingBox.enclosing([BoundingBox]()))
    }

    func testScaleOffsetAndRounding() {
        let b = BoundingBox(x: 10, y: 20, width: 30, height: 40).scaled(by: 0.5).offsetBy(dx: 1, dy: 2)
        XCTAssertEqual(b, BoundingBox(x: 6, y: 12, width: 15, height: 20))
        XCTAssertEqual(BoundingBox(x: 1.234, y: 2.25, width: 3.04, height: 4.96).rounded(),
                       BoundingBox(x: 1.2, y: 2.3, width: 3.0, height: 5.0))
    }
}

final class DocumentCodingTests: XCTestCase {
    func testRoundTripKeepsEverything() throws {
        let word = RecognizedWord(
            text: "TOTAL", confidence: 0.9, boundingBox: BoundingBox(x: 1, y: 2, width: 3, height: 4))
        let obs = TextObservation(text: "TOTAL", confidence: 0.9, boundingBox: word.boundingBox, words: [word],
                                  candidates: [TextCandidate(text: "TOTAL", confidence: 0.9)])
        let doc = Document(
            source: "a.png", engine: EngineInfo(name: "tesseract", version: "5"),
            pages: [
                Page(index: 0, width: 100, height: 200, rotation: 90, skew: 1.5, textSource: .ocr, observations: [obs])
            ],
            warnings: [Finding(code: "no-text", message: "m", page: 0)])
        let data = try JSONEncoder().encode(doc)
        XCTAssertEqual(try JSONDecoder().decode(Document.self, from: data), doc)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        XCTAssertEqual(json["schemaVersion"] as? String, Document.currentSchemaVersion)
    }

    /// Another engine's output with only the essentials still imports.
    func testLenientImport() throws {
        let json = #"{"pages":[{"observations":[{"text":"Hello","boundingBox":{"x":1,"y":2,"width":3,"height":4}}]}]}"#
        let doc = try JSONDecoder().decode(Document.self, from: Data(json.utf8))
        XCTAssertEqual(doc.pages[0].observations[0].text, "Hello")
        XCTAssertEqual(doc.pages[0].textSource, .imported)
        XCTAssertEqual(doc.pages[0].observations[0].confidence, 1)
    }

    func testErrorDescriptionNamesFileAndPage() {
        let e = ScanError(.corrupt, file: "x.pdf", page: 2, "bad")
        XCTAssertEqual(e.description, "x.pdf (page 3): bad [corrupt]")
    }

    func testRasterCropAndGray() {
        let img = RasterImage(width: 4, height: 2, channels: 3, pixels: (0..<24).map { UInt8($0 * 10) })
        let c = img.cropped(x: 1, y: 1, width: 10, height: 10)!
        XCTAssertEqual(c.width, 3)
        XCTAssertEqual(c.height, 1)
        XCTAssertEqual(Array(c.pixels.prefix(3)), [150, 160, 170])
        XCTAssertNil(img.cropped(x: 5, y: 0, width: 2, height: 2))
        XCTAssertEqual(img.grayscale().channels, 1)
    }
}
