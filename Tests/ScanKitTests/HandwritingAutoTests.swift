import Foundation
import ScanInk
import ScanModel
import TestSupport
import XCTest
@testable import ScanKit

/// `--handwriting auto`: the learned judge decodes generated handwriting with the word list and
/// leaves a rendered printed page as PP-OCR read it. The engine must be installed (`make deps`):
/// a missing engine fails these tests.
final class HandwritingAutoTests: PipelineTestCase {
    func ppocr(_ mode: HandwritingMode) throws -> DocumentProcessor {
        try processor { c in
            c.engine = .ppocr
            c.handwriting = mode
        }
    }

    /// A page of generated handwriting (a seed and writers the judge was not trained on).
    func handwrittenPage(seed: UInt64, font: String) throws -> RasterImage {
        var rng = SeededGenerator(seed: seed)
        let lines = ["Remember to water the garden plants", "Bring a warm jacket and an umbrella",
                     "Meet me near the station at 6", "The library closes early on Sunday"]
        return HandwrittenPage.make(lines, synthesizer: InkSynthesizer(font: try HersheyFont(named: font)),
                                    style: InkSynthesizer.messyStyle(&rng, level: 1.2), rng: &rng, capHeight: 30)
    }

    func testGeneratedHandwritingIsJudgedHandwrittenAndDecoded() throws {
        let auto = try ppocr(.auto), off = try ppocr(.off)
        for (seed, font) in [(71 as UInt64, "cursive"), (72, "scripts")] {
            let png = Data(Drawing.pngBytes(try handwrittenPage(seed: seed, font: font)))
            let doc = try auto.process(data: png, name: "note.png")
            let page = doc.pages[0]
            let h = try XCTUnwrap(page.handwriting, "\(font): not judged handwritten: \(page.text)")
            XCTAssertEqual(h.decision, "auto")
            XCTAssertGreaterThanOrEqual(h.lines, 3, "\(font): \(h)")
            XCTAssertGreaterThan(h.confidence, 0.5)
            XCTAssertEqual(page.observations.filter { $0.handwritten == true }.count, h.lines)
            // The decoded lines keep the boxes of the first reading.
            let plain = try off.process(data: png, name: "note.png").pages[0]
            XCTAssertNil(plain.handwriting)
            XCTAssertEqual(page.observations.map(\.boundingBox), plain.observations.map(\.boundingBox))
        }
    }

    func testRenderedPrintIsNotJudgedHandwritten() throws {
        let auto = try ppocr(.auto), off = try ppocr(.off)
        let pages: [RasterImage] = [
            Drawing.raster(Drawing.receiptLines(), width: 560, height: 380),
            Drawing.raster((0..<6).map { DrawnLine("Please call the office before noon on day \($0)", x: 30,
                                                   y: Double(50 + 40 * $0), size: 22) }, width: 720, height: 300),
        ]
        for image in pages {
            let png = Data(Drawing.pngBytes(image))
            let page = try auto.process(data: png, name: "print.png").pages[0]
            XCTAssertNil(page.handwriting, page.text)
            XCTAssertTrue(page.observations.allSatisfy { $0.handwritten == nil })
            XCTAssertEqual(page.text, try off.process(data: png, name: "print.png").pages[0].text)
        }
    }

    func testOnMarksEveryLine() throws {
        let png = Data(Drawing.pngBytes(try handwrittenPage(seed: 73, font: "cursive")))
        let page = try ppocr(.on).process(data: png, name: "note.png").pages[0]
        XCTAssertEqual(page.handwriting?.decision, "on")
        XCTAssertEqual(page.handwriting?.lines, page.observations.count)
        XCTAssertTrue(page.observations.allSatisfy { $0.handwritten == true })
    }

    // MARK: - Pure parts

    func testOnlyTheJudgedLinesTakeTheDecodedReading() {
        func line(_ text: String, y: Double) -> TextObservation {
            TextObservation(text: text, confidence: 0.9, boundingBox: BoundingBox(x: 10, y: y, width: 200, height: 30))
        }
        let first = [line("TOTAL 12.00", y: 10), line("Thnak you", y: 50), line("see you", y: 90)]
        let merged = HandwritingStage.merged(first, with: [line("Thank you", y: 50)], at: [1])
        XCTAssertEqual(merged.replaced, 1)
        XCTAssertEqual(merged.lines.map(\.text), ["TOTAL 12.00", "Thank you", "see you"])
        XCTAssertEqual(merged.lines.map(\.handwritten), [nil, true, nil])
        // A line the second reading lost keeps its first reading; an index past the lines is ignored.
        let lost = HandwritingStage.merged(first, with: [nil, line("x", y: 0)], at: [0, 7])
        XCTAssertEqual(lost.replaced, 0)
        XCTAssertEqual(lost.lines.map(\.text), first.map(\.text))
    }

    func testJudgedLinesWithoutAWordListSayWhy() throws {
        let png = Data(Drawing.pngBytes(try handwrittenPage(seed: 74, font: "cursive")))
        // No word list can be loaded for Hebrew: the stage's own reason reaches the warning.
        let hebrew = try processor { c in
            c.engine = .ppocr
            c.handwriting = .auto
            c.handwritingLanguage = "he-IL"
        }
        let doc = try hebrew.process(data: png, name: "note.png")
        XCTAssertEqual(doc.pages[0].handwriting?.lines, 0)
        let warning = try XCTUnwrap(doc.warnings.first { $0.code == "handwriting-not-decoded" }, "\(doc.warnings)")
        XCTAssertEqual(warning.page, 0)
        XCTAssertTrue(warning.message.contains("no Hebrew recognizer"), warning.message)
        // With the installed English list the lines are decoded and nothing is said.
        let english = try ppocr(.auto).process(data: png, name: "note.png")
        XCTAssertGreaterThan(english.pages[0].handwriting?.lines ?? 0, 0)
        XCTAssertFalse(english.warnings.contains { $0.code == "handwriting-not-decoded" }, "\(english.warnings)")
    }

    func testHandwritingOptionTakesAModeOrAFlag() throws {
        XCTAssertEqual(ScanOptions().handwriting, .auto)
        XCTAssertEqual(try ScanOptions(query: [("handwriting", "")]).handwriting, .on)
        XCTAssertEqual(try ScanOptions(query: [("handwriting", "true")]).handwriting, .on)
        XCTAssertEqual(try ScanOptions(query: [("handwriting", "false")]).handwriting, .off)
        XCTAssertEqual(try ScanOptions(query: [("handwriting", "auto")]).handwriting, .auto)
        XCTAssertThrowsError(try ScanOptions(query: [("handwriting", "maybe")]))
        // One spelling for the command line, the query and nothing else.
        XCTAssertEqual(HandwritingMode(spelling: "OFF"), .off)
        XCTAssertEqual(HandwritingMode(spelling: "yes"), .on)
        XCTAssertNil(HandwritingMode(spelling: "maybe"))
        var o = ScanOptions()
        o.engine = "tesseract"
        // Auto with Tesseract does nothing; on is refused.
        XCTAssertNoThrow(try o.validate())
        o.handwriting = .on
        XCTAssertThrowsError(try o.validate())
        // A stored configuration from before the mode existed said "on" by its language.
        let old = try JSONDecoder().decode(
            ScanConfiguration.self,
            from: Data(
                #"{"recognition": {"languages": ["eng"], "level": "accurate", "customWords": [], "candidateCount": 0, "handwriting": "en-US"}}"#
                    .utf8))
        XCTAssertEqual(old.handwriting, .on)
        XCTAssertEqual(old.handwritingLanguage, "en-US")
    }
}
