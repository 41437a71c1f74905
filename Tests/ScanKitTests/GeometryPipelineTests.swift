import Foundation
import ScanExport
import ScanInput
import TestSupport
import XCTest
@testable import ScanKit
@testable import ScanModel

/// Boxes come back in the pixels of the file the user gave, whatever the stages did to
/// the pixels on the way (crop, quarter turns, deskew, enlargement).
final class GeometryPipelineTests: PipelineTestCase {

    /// A page of twelve item lines and a total: enough text for orientation and skew to be measured.
    static let pageLines: [DrawnLine] = {
        let items = ["Croissant", "Coffee", "Orange juice", "Bagel", "Muffin", "Tea", "Scone", "Waffle", "Pancakes",
                     "Yoghurt", "Porridge", "Omelette"]
        var lines = [DrawnLine("CORNER BAKERY", x: 40, y: 50, size: 30, bold: true)]
        for (k, item) in items.enumerated() {
            lines.append(DrawnLine(item, x: 40, y: Double(95 + 36 * k), size: 22))
            lines.append(
                DrawnLine(
                    String(format: "%d.%02d", 2 + k % 5, (k * 37) % 100), x: 420, y: Double(95 + 36 * k), size: 22))
        }
        lines.append(DrawnLine("TOTAL", x: 40, y: 560, size: 26, bold: true))
        lines.append(DrawnLine("41.17", x: 420, y: 560, size: 26, bold: true))
        return lines
    }()

    func word(_ text: String, in doc: Document) throws -> RecognizedWord {
        try XCTUnwrap(
            doc.pages[0].observations.flatMap(\.words).first { $0.text == text }, "no '\(text)' in \(doc.pages[0].text)"
        )
    }

    func assertSameBox(
        _ a: BoundingBox, _ b: BoundingBox, tolerance: Double, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertEqual(a.midX, b.midX, accuracy: tolerance, file: file, line: line)
        XCTAssertEqual(a.midY, b.midY, accuracy: tolerance, file: file, line: line)
        XCTAssertEqual(a.width, b.width, accuracy: 2 * tolerance, file: file, line: line)
        XCTAssertEqual(a.height, b.height, accuracy: 2 * tolerance, file: file, line: line)
    }

    /// A region of an upside-down page gives the same boxes as the whole page: the crop
    /// and the half turn are both undone.
    func testCropOfATurnedPageGivesTheSameBoxesAsTheWholePage() throws {
        let path = dir + "/flipped.png"
        Drawing.writePNG(Self.pageLines, width: 560, height: 600, rotation: 180, to: path)
        let whole = try processor().process(path: path)
        XCTAssertEqual(whole.pages[0].rotation, 180)
        XCTAssertEqual(whole.pages[0].width, 560)
        XCTAssertEqual(whole.pages[0].height, 600)
        let total = try word("TOTAL", in: whole)
        // Drawn near the bottom left, so after the half turn it sits near the top right.
        XCTAssertGreaterThan(total.boundingBox.minX, 380)
        XCTAssertLessThan(total.boundingBox.maxY, 80)

        // The top half of the file holds the receipt's lower half.
        let half = try processor { $0.regionOfInterest = RegionOfInterest(x: 0, y: 0, width: 1, height: 0.5) }.process(
            path: path)
        XCTAssertEqual(half.pages[0].width, 560, "the page keeps the file's size")
        let cropped = try word("TOTAL", in: half)
        assertSameBox(cropped.boundingBox, total.boundingBox, tolerance: 3)
        XCTAssertFalse(half.pages[0].text.contains("CORNER"), half.pages[0].text)

        // On a page that needs no turn, a crop at its top-left corner moves nothing, and the page still keeps the
        // file's size; `upright` gives the smaller page that was read.
        // (Text large enough that the page is read as it is, not enlarged.)
        let upright = dir + "/upright.png"
        let large = (0..<6).map { DrawnLine("CORNER SHOP \($0) 12.50", x: 20, y: Double(50 + 90 * $0), size: 40) }
        Drawing.writePNG(large, width: 560, height: 600, to: upright)
        let top = try processor { $0.regionOfInterest = RegionOfInterest(x: 0, y: 0, width: 0.5, height: 0.5) }
            .process(path: upright)
        XCTAssertEqual([top.pages[0].width, top.pages[0].height], [560, 600])
        XCTAssertEqual(top.pages[0].upright.map { [$0.width, $0.height] }, [280, 300])
    }

    /// A page scanned a few degrees askew is straightened for Tesseract; its words come back
    /// where they are in the askew file, with their four corners.
    func testDeskewedWordsLandOnTheAskewPixels() throws {
        let straightPath = dir + "/straight.png", askewPath = dir + "/askew.png"
        // Full lines of running text: skew is measured from the lines' profiles.
        let lines = (0..<12).map { k in
            DrawnLine(
                k == 5
                    ? "Croissant and coffee at the corner bakery" : "The quick brown fox jumps over the lazy dog \(k)",
                x: 40, y: Double(60 + 40 * k), size: 22)
        }
        Drawing.writePNG(lines, width: 900, height: 560, to: straightPath)
        Drawing.writePNG(lines, width: 900, height: 560, rotation: 3, to: askewPath)
        let straight = try processor().process(path: straightPath)
        let askew = try processor().process(path: askewPath)
        let skew = try XCTUnwrap(askew.pages[0].skew)
        XCTAssertEqual(abs(skew), 3, accuracy: 0.6)
        XCTAssertNotNil(askew.pages[0].upright)
        let drawn = try word("Croissant", in: straight).boundingBox
        // Where the drawing's rotation (clockwise about the centre) put that word.
        let turn = Homography.rotation(degrees: 3, about: Point(x: 450, y: 280))
        let expected = turn.apply(Point(x: drawn.midX, y: drawn.midY))
        let found = try word("Croissant", in: askew)
        let quad = try XCTUnwrap(found.quad, "a word on a straightened page keeps its corners")
        let centre = Point(x: (quad.topLeft.x + quad.bottomRight.x) / 2, y: (quad.topLeft.y + quad.bottomRight.y) / 2)
        XCTAssertEqual(centre.x, expected.x, accuracy: 4)
        XCTAssertEqual(centre.y, expected.y, accuracy: 4)
        // The top edge rises with the page: its slope is the drawing's angle.
        let slope = atan2(quad.topRight.y - quad.topLeft.y, quad.topRight.x - quad.topLeft.x) * 180 / Double.pi
        XCTAssertEqual(slope, 3, accuracy: 1.5)
    }

    /// Layout is computed once and stored; the text output reads it, and a document read
    /// back in keeps its boxes.
    func testStoredLayoutDrivesTextAndSurvivesReimport() throws {
        let path = dir + "/flipped.png"
        Drawing.writePNG(Drawing.receiptLines(), width: 560, height: 380, rotation: 180, to: path)
        let doc = try processor().process(path: path)
        let layout = try XCTUnwrap(doc.pages[0].layout)
        let lines = layout.lines.map(\.text)
        XCTAssertEqual(lines.first, "CORNER BAKERY")
        XCTAssertTrue(lines.contains("TOTAL 6.25"), "\(lines)")
        let text = String(decoding: DocumentWriter.text(doc), as: UTF8.self)
        XCTAssertTrue(text.contains("TOTAL   6.25"), text)
        XCTAssertLessThan(
            try XCTUnwrap(text.range(of: "CORNER")).lowerBound, try XCTUnwrap(text.range(of: "TOTAL")).lowerBound)

        let json = try JSONEncoder().encode(doc)
        let again = try processor().process(
            .document(try JSONDecoder().decode(Document.self, from: json), name: "again.json"))
        XCTAssertEqual(again.pages[0].rotation, 180)
        XCTAssertEqual(again.pages[0].layout?.lines.map(\.text), lines)
        for (a, b) in zip(again.pages[0].observations, doc.pages[0].observations) {
            XCTAssertEqual(a.text, b.text)
            assertSameBox(a.boundingBox, b.boundingBox, tolerance: 0.2)
        }
        XCTAssertEqual(again.receipt?.total, doc.receipt?.total)
    }

    /// An upload is processed from memory exactly as the same file on disk; its name stands
    /// for it in `source` and in errors.
    func testBytesInMemoryReadAsTheFileDoes() throws {
        let path = dir + "/receipt.png"
        Drawing.writePNG(Drawing.receiptLines(), width: 560, height: 380, to: path)
        let fromFile = try processor().process(path: path)
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let fromBytes = try processor().process(data: data, name: "upload-1")
        XCTAssertEqual(fromBytes.source, "upload-1")
        XCTAssertEqual(fromBytes.pages, fromFile.pages)
        XCTAssertEqual(fromBytes.receipt?.total, "6.25")
        XCTAssertThrowsError(try processor().process(data: Data("%!PS-Adobe-3.0".utf8), name: "upload-2")) { e in
            XCTAssertEqual((e as? ScanError)?.code, .unsupportedType)
            XCTAssertEqual((e as? ScanError)?.file, "upload-2")
        }
    }

    /// A JPEG cut short still gives its page, read as far as it goes, with a warning.
    func testTruncatedJPEGIsReadAsFarAsItGoesWithAWarning() throws {
        let image = Drawing.raster(Self.pageLines, width: 560, height: 600)
        let jpeg = Drawing.jpegBytes(image)
        let doc = try processor().process(data: Data(jpeg.prefix(jpeg.count * 7 / 10)), name: "cut.jpg")
        XCTAssertEqual(doc.warnings.first?.code, "page-damaged", "\(doc.warnings)")
        XCTAssertTrue(doc.pages[0].text.contains("CORNER BAKERY"), doc.pages[0].text)
        XCTAssertFalse(doc.pages[0].text.contains("TOTAL"), "the end of the page did not arrive")
    }

    func testConfigurationDecodesWithDefaultsForMissingKeys() throws {
        let c = try JSONDecoder().decode(
            ScanConfiguration.self, from: Data(#"{"country": "GB", "forceOCR": true}"#.utf8))
        XCTAssertEqual(c.country, "GB")
        XCTAssertTrue(c.forceOCR)
        XCTAssertEqual(c.limits, InputLimits())
        XCTAssertTrue(c.detectOrientation)
        var full = ScanConfiguration()
        full.regionOfInterest = RegionOfInterest(x: 0.1, y: 0.1, width: 0.5, height: 0.5)
        full.tesseract.segmentation = .sparse
        full.documentTypeOverride = .receipt
        XCTAssertEqual(try JSONDecoder().decode(ScanConfiguration.self, from: try JSONEncoder().encode(full)), full)
    }
}
