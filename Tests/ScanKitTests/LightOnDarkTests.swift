import Foundation
import ScanInput
import ScanModel
import TestSupport
import XCTest
@testable import ScanKit

/// Light ink on a dark ground (dark mode, a blackboard) is inverted before recognition;
/// a white sheet lying on a dark table is not.
final class LightOnDarkTests: PipelineTestCase {
    /// White-ish text on a near-black ground, as a dark-mode screenshot.
    func darkMode(_ lines: [DrawnLine], width: Int, height: Int) -> RasterImage {
        let page = Drawing.raster(lines, width: width, height: height)
        // Black ink (0) becomes 225, white paper (255) becomes 30.
        return RasterImage(width: page.width, height: page.height, channels: page.channels,
                           pixels: page.pixels.map { UInt8(225 - Int($0) * 195 / 255) })
    }

    func testDarkModePageIsInvertedAndRead() throws {
        let lines = (0..<8).map {
            DrawnLine("Meeting notes for the quarterly review \($0)", x: 30, y: Double(50 + 40 * $0), size: 22)
        }
        let image = darkMode(lines, width: 760, height: 380)
        XCTAssertTrue(Preprocessor.isLightOnDark(image))
        let doc = try processor().process(data: Data(Drawing.pngBytes(image)), name: "dark.png")
        XCTAssertEqual(doc.pages[0].inverted, true)
        XCTAssertTrue(doc.pages[0].text.contains("quarterly review"), doc.pages[0].text)
    }

    func testPrintOnWhiteAndAWhiteSheetOnADarkTableAreLeftAlone() {
        let page = Drawing.raster(Drawing.receiptLines(), width: 560, height: 380)
        XCTAssertFalse(Preprocessor.isLightOnDark(page))
        // The receipt pasted onto a dark table three times its size.
        var table = RasterImage(width: 1200, height: 900, channels: 3, filledWith: 40)
        table.pixels.withUnsafeMutableBufferPointer { dst in
            for y in 0..<page.height {
                for x in 0..<page.width {
                    for c in 0..<3 {
                        dst[((y + 260) * 1200 + x + 320) * 3 + c] = page.pixels[(y * page.width + x) * 3 + c]
                    }
                }
            }
        }
        XCTAssertFalse(Preprocessor.isLightOnDark(table), "a sheet of paper is light all over, not in strokes")
    }
}
