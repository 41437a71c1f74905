import Foundation
import TestSupport
import XCTest
@testable import ScanModel
@testable import ScanRecognition

final class TesseractRecognizerTests: XCTestCase {
    func testReadsRenderedLinesWithWordBoxes() throws {
        let engine = try TesseractRecognizer(options: RecognitionOptions(), segmentation: .auto)
        XCTAssertEqual(engine.info.name, "tesseract")
        XCTAssertFalse(engine.info.version.isEmpty)
        let image = Drawing.raster(Drawing.receiptLines(), width: 560, height: 380)
        let lines = try engine.recognize(image)
        let text = lines.map(\.text).joined(separator: "\n")
        XCTAssertTrue(text.contains("CORNER BAKERY"), text)
        XCTAssertTrue(text.contains("Croissant"), text)
        XCTAssertTrue(text.contains("6.25"), text)
        // The word "TOTAL" sits where it was drawn: x = 60, baseline y = 320, 28 px bold.
        let total = try XCTUnwrap(lines.flatMap(\.words).first { $0.text == "TOTAL" })
        XCTAssertEqual(total.boundingBox.x, 60, accuracy: 4)
        XCTAssertEqual(total.boundingBox.maxY, 320, accuracy: 4)
        XCTAssertEqual(total.boundingBox.height, 20, accuracy: 5)
        XCTAssertGreaterThan(total.confidence, 0.8)
        for l in lines {
            XCTAssertTrue((0...1).contains(l.confidence))
            XCTAssertEqual(l.text, l.words.map(\.text).joined(separator: " "))
            for w in l.words { XCTAssertNotNil(l.boundingBox.intersection(w.boundingBox)) }
        }
    }

    func testCandidatesStartWithTheBestReading() throws {
        let engine = try TesseractRecognizer(options: RecognitionOptions(candidateCount: 3))
        let image = Drawing.raster([DrawnLine("Total 12.50", x: 20, y: 50, size: 30)], width: 400, height: 80)
        let lines = try engine.recognize(image)
        let line = try XCTUnwrap(lines.first)
        XCTAssertFalse(line.candidates.isEmpty)
        XCTAssertEqual(line.candidates.first?.text, line.text)
        XCTAssertLessThanOrEqual(line.candidates.count, 3)
        XCTAssertEqual(Set(line.candidates.map(\.text)).count, line.candidates.count, "no duplicate readings")
    }

    func testBlankImageGivesNoLines() throws {
        let engine = try TesseractRecognizer(options: RecognitionOptions())
        XCTAssertEqual(try engine.recognize(RasterImage(width: 300, height: 200, channels: 1)).count, 0)
    }

    func testMissingLanguageIsAnEngineError() {
        XCTAssertThrowsError(try TesseractRecognizer(options: RecognitionOptions(languages: ["xx_nonexistent"]))) { e in
            XCTAssertEqual((e as? ScanError)?.code, .engine)
        }
    }

    func testOrientationOfAnUpsideDownPage() throws {
        let engine = OrientationDetector()
        let lines = (0..<14).map {
            DrawnLine(
                "Orientation detection needs a page of ordinary text \($0)", x: 30, y: Double(50 + 36 * $0), size: 24)
        }
        let upright = Drawing.raster(lines, width: 900, height: 600)
        let upsideDown = Drawing.raster(lines, width: 900, height: 600, rotation: 180)
        let o = try XCTUnwrap(engine.detect(upsideDown))
        XCTAssertEqual(o.quarterTurns, 2)
        XCTAssertEqual(engine.detect(upright)?.quarterTurns, 0)
    }

    func testCancelledRecognitionThrows() throws {
        let engine = try TesseractRecognizer(options: RecognitionOptions())
        let token = CancellationToken()
        token.cancel()
        engine.cancellation = token
        XCTAssertThrowsError(try engine.recognize(Drawing.raster(Drawing.receiptLines(), width: 560, height: 380))) {
            e in
            XCTAssertEqual((e as? ScanError)?.code, .cancelled)
        }
    }
}

final class LineCandidatesTests: XCTestCase {
    func testBeamOrdersByPenalty() {
        // "1O" where O might be 0 (close) or Q (far).
        let words: [[[(String, Double)]]] = [[[("1", 95)], [("O", 60), ("0", 58), ("Q", 10)]]]
        let c = LineCandidates.nBest(words: words, count: 3, lineConfidence: 0.8, fallback: "1O")
        XCTAssertEqual(c.map(\.text), ["1O", "10", "1Q"])
        XCTAssertGreaterThan(c[1].confidence, c[2].confidence)
        XCTAssertEqual(LineCandidates.nBest(words: words, count: 0, lineConfidence: 1, fallback: "x"), [])
    }

    func testWordsAreSeparatedBySpaces() {
        let words: [[[(String, Double)]]] = [[[("a", 90)]], [[("b", 90), ("h", 80)]]]
        let c = LineCandidates.nBest(words: words, count: 2, lineConfidence: 0.9, fallback: "a b")
        XCTAssertEqual(c.map(\.text), ["a b", "a h"])
    }
}
