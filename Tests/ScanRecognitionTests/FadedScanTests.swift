import Foundation
import ScanInput
import TestSupport
import XCTest
@testable import ScanModel
@testable import ScanRecognition

/// A pale thermal receipt that Tesseract can't read as it is reads after contrast normalization.
final class FadedScanTests: XCTestCase {
    let receipt = Drawing.raster(Drawing.receiptLines(scale: 1.5), width: 840, height: 570)

    func words(_ lines: [TextObservation]) -> Set<String> {
        Set(lines.flatMap(\.words).map(\.text))
    }

    func testTesseractReadsAFadedReceiptOnlyAfterNormalization() throws {
        let faded = Drawing.faded(receipt, contrast: 36, paper: 184...234, blotches: 14)
        let pre = Preprocessor()
        XCTAssertTrue(pre.needsContrastNormalization(faded), "\(Preprocessor.levels(faded))")
        XCTAssertFalse(pre.needsContrastNormalization(receipt), "a clean page is left alone")
        let flatFaded = Drawing.faded(receipt, contrast: 36, paper: 220...220)
        XCTAssertFalse(
            pre.needsContrastNormalization(flatFaded), "pale ink on flat paper: \(Preprocessor.levels(flatFaded))")
        let engine = try TesseractRecognizer(options: RecognitionOptions())
        let expected: Set<String> = [
            "CORNER", "BAKERY", "Croissant", "3.50", "Coffee", "2.75", "TOTAL", "6.25", "Market"
        ]
        let before = words(try engine.recognize(faded)).intersection(expected)
        let normalized = pre.contrastNormalized(faded)
        XCTAssertFalse(pre.needsContrastNormalization(normalized), "\(Preprocessor.levels(normalized))")
        let after = words(try engine.recognize(normalized)).intersection(expected)
        XCTAssertGreaterThanOrEqual(after.count, 8, "read after normalization: \(after.sorted())")
        XCTAssertLessThanOrEqual(before.count, 2, "read before: \(before.sorted())")
    }

    func testTheCheckIgnoresBlankAndDarkPagesAndSparseBlackText() {
        let pre = Preprocessor()
        XCTAssertFalse(pre.needsContrastNormalization(RasterImage(width: 300, height: 300, channels: 1,
                                                                  pixels: [UInt8](repeating: 230, count: 90_000))))
        XCTAssertFalse(pre.needsContrastNormalization(RasterImage(width: 300, height: 300, channels: 1,
                                                                  pixels: [UInt8](repeating: 40, count: 90_000))))
        let sparse = Drawing.raster([DrawnLine("Total 12.50", x: 40, y: 400, size: 24)], width: 900, height: 900)
        XCTAssertFalse(pre.needsContrastNormalization(sparse), "\(Preprocessor.levels(sparse))")
    }
}
