import ScanModel
import TestSupport
import XCTest
@testable import ScanRecognition

/// The page's character height read from its pixels (`GlyphHeight`), and the detector input
/// sized by it, on drawn pages whose characters' height is known.
final class GlyphHeightTests: XCTestCase {
    /// A gray page with rows of letter-like marks `glyph` pixels high: rings (an `o`), bars
    /// (an `l`, as tall as the ring) and pairs of dots below the ring's height (a `:`), on paper
    /// that darkens from left to right like a photo's uneven light, with a little noise.
    private func page(width: Int, height: Int, glyph: Int, seed: UInt64 = 1) -> RasterImage {
        var rng = SeededRandom(seed: seed)
        var px = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let paper = 235 - 70 * x / width
                px[y * width + x] = UInt8(max(0, min(255, paper + Int(rng.next() % 9) - 4)))
            }
        }
        func dark(_ x: Int, _ y: Int) {
            guard x >= 0, y >= 0, x < width, y < height else { return }
            px[y * width + x] = UInt8(Int(px[y * width + x]) / 4)
        }
        let stroke = max(1, glyph / 7)
        let pitch = glyph * 3 / 4 + stroke * 2, lineStep = glyph * 2
        var y = glyph
        while y + glyph < height - glyph {
            var x = glyph
            var k = 0
            while x + pitch < width - glyph {
                switch k % 5 {
                case 0, 1, 2:  // ring
                    let w = glyph * 3 / 5
                    for dy in 0..<glyph {
                        for dx in 0..<w
                        where dy < stroke || dy >= glyph - stroke || dx < stroke || dx >= w - stroke {
                            dark(x + dx, y + dy)
                        }
                    }
                case 3:  // bar
                    for dy in 0..<glyph { for dx in 0..<stroke + 1 { dark(x + dx, y + dy) } }
                default:  // two dots
                    for dy in 0..<stroke + 1 { for dx in 0..<stroke + 1 {
                        dark(x + dx, y + glyph / 3 + dy); dark(x + dx, y + glyph - 1 - dy) } }
                }
                x += pitch
                k += 1
            }
            y += lineStep
        }
        // A frame round the page and a rule under the first line: not characters.
        for x in 2..<width - 2 { dark(x, 2); dark(x, height - 3); dark(x, glyph * 2 + glyph / 2) }
        for y in 2..<height - 2 { dark(2, y); dark(width - 3, y) }
        return RasterImage(width: width, height: height, channels: 1, pixels: px)
    }

    func testTheEstimateIsTheCharactersHeight() throws {
        for (glyph, w, h) in [(9, 500, 700), (20, 800, 1200), (44, 1400, 2400), (30, 3300, 2000)] {
            let estimate = try XCTUnwrap(
                GlyphHeight.estimate(page(width: w, height: h, glyph: glyph)), "glyph \(glyph)")
            // Pages over 1600 px are reduced by a whole factor first, so they are read in its steps.
            let step = Double((max(w, h) + 1599) / 1600)
            XCTAssertEqual(
                estimate.height, Double(glyph), accuracy: max(step, Double(glyph) * 0.12),
                "glyph \(glyph) on \(w) x \(h)")
            XCTAssertGreaterThan(estimate.count, 100)
        }
    }

    func testNoEstimateWithoutCharacters() {
        let blank = RasterImage(width: 600, height: 800, channels: 1, filledWith: 240)
        XCTAssertNil(GlyphHeight.estimate(blank))
        var ruled = blank
        for y in stride(from: 40, to: 800, by: 40) { for x in 10..<590 { ruled.pixels[y * 600 + x] = 20 } }
        XCTAssertNil(GlyphHeight.estimate(ruled), "rules are not characters")
    }

    func testColourPagesAreReadByTheirLuma() throws {
        let gray = page(width: 600, height: 900, glyph: 16)
        var rgb = [UInt8](repeating: 0, count: gray.pixels.count * 3)
        for (i, v) in gray.pixels.enumerated() { rgb[3 * i] = v; rgb[3 * i + 1] = v; rgb[3 * i + 2] = v }
        let colour = RasterImage(width: 600, height: 900, channels: 3, pixels: rgb)
        XCTAssertEqual(GlyphHeight.estimate(colour), GlyphHeight.estimate(gray))
    }

    func testBlobsJoinAcrossDiagonalsOnly() {
        // Two 2x2 squares touching at a corner are one blob (8-connectivity); a third one column
        // apart is its own.
        let w = 10, h = 6
        var ink = [Bool](repeating: false, count: w * h)
        for (x, y) in [(0, 0), (1, 0), (0, 1), (1, 1), (2, 2), (3, 2), (2, 3), (3, 3), (5, 2), (6, 2), (5, 3), (6, 3)] {
            ink[y * w + x] = true
        }
        let boxes = GlyphHeight.blobBoxes(ink, width: w, height: h).sorted { $0.minX < $1.minX }
        XCTAssertEqual(boxes.count, 2)
        XCTAssertEqual(boxes.first.map { [$0.minX, $0.minY, $0.maxX, $0.maxY] }, [0, 0, 3, 3])
        XCTAssertEqual(boxes.last.map { [$0.minX, $0.minY, $0.maxX, $0.maxY] }, [5, 2, 6, 3])
    }

    func testStretchesOneColumnApartAcrossRowsAreTwoBlobs() {
        // Row 0: columns 0-1, row 1: columns 3-4, row 2: columns 6-7. Each stretch is one
        // empty column away from the one above it, on the diagonal: three blobs.
        let w = 9, h = 3
        var ink = [Bool](repeating: false, count: w * h)
        for (x, y) in [(0, 0), (1, 0), (3, 1), (4, 1), (6, 2), (7, 2)] { ink[y * w + x] = true }
        XCTAssertEqual(GlyphHeight.blobBoxes(ink, width: w, height: h).count, 3)
        // Row 2 at columns 5-6 instead touches row 1's column 4 at a corner: one blob with it.
        var corner = [Bool](repeating: false, count: w * h)
        for (x, y) in [(0, 0), (1, 0), (3, 1), (4, 1), (5, 2), (6, 2)] { corner[y * w + x] = true }
        let boxes = GlyphHeight.blobBoxes(corner, width: w, height: h).sorted { $0.minX < $1.minX }
        XCTAssertEqual(boxes.count, 2)
        XCTAssertEqual(boxes.last.map { [$0.minX, $0.minY, $0.maxX, $0.maxY] }, [3, 1, 6, 2])
        // A stretch below that ends one column left of one above (anti-diagonal) joins it too.
        var left = [Bool](repeating: false, count: w * h)
        for (x, y) in [(4, 0), (5, 0), (2, 1), (3, 1)] { left[y * w + x] = true }
        XCTAssertEqual(GlyphHeight.blobBoxes(left, width: w, height: h).count, 1)
    }

    func testColourIsReducedToItsLuma() {
        // Pure red, green and blue pixels: 0.299, 0.587 and 0.114 of 255.
        let rgb = RasterImage(width: 3, height: 1, channels: 3, pixels: [255, 0, 0, 0, 255, 0, 0, 0, 255])
        XCTAssertEqual(GlyphHeight.reducedGray(rgb, factor: 1).pixels, [76, 149, 29])
        // Averaged over 2 x 2 blocks.
        let gray = RasterImage(width: 4, height: 2, channels: 1, pixels: [0, 100, 200, 200, 40, 60, 200, 0])
        XCTAssertEqual(GlyphHeight.reducedGray(gray, factor: 2).pixels, [50, 150])
    }

    func testBlobsShapedLikeAUOrAVAreOneBlob() {
        // A U: two columns joined only at the bottom row, met from the top as two runs.
        let w = 7, h = 5
        var ink = [Bool](repeating: false, count: w * h)
        for y in 0..<h { ink[y * w + 1] = true; ink[y * w + 5] = true }
        for x in 1...5 { ink[(h - 1) * w + x] = true }
        XCTAssertEqual(GlyphHeight.blobBoxes(ink, width: w, height: h).count, 1)
    }

    func testDetectionIsSizedDownToTheTextAndNeverUp() {
        let standard = (width: 736, height: 1600)
        // Characters 24 px high, 12 wanted: half the page's own size, 460 x 1000 -> 448 x 992.
        let down = PPOCRRecognizer.textSizedDetection(
            width: 920, height: 2000, glyphHeight: 24, target: 12, standard: standard)
        XCTAssertEqual(down.width, 448)
        XCTAssertEqual(down.height, 992)
        // Characters 6 px high would need the page doubled: the standard size stays.
        let up = PPOCRRecognizer.textSizedDetection(
            width: 920, height: 2000, glyphHeight: 6, target: 12, standard: standard)
        XCTAssertEqual(up.width, 736)
        XCTAssertEqual(up.height, 1600)
        // A tiny page never goes under 32.
        let tiny = PPOCRRecognizer.textSizedDetection(
            width: 40, height: 40, glyphHeight: 40, target: 4, standard: (64, 64))
        XCTAssertEqual(tiny.width, 32)
    }
}
