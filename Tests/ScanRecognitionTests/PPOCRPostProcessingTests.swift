import ScanModel
import XCTest
@testable import ScanRecognition

/// Golden tests of the PP-OCR engine's pure pre- and post-processing, on small
/// synthetic inputs whose right answers are worked out by hand in the comments.
final class PPOCRPostProcessingTests: XCTestCase {
    // MARK: DB map -> boxes

    /// A `width` x `height` map with `value` inside each (x0, y0, x1, y1) pixel range (inclusive).
    private func map(width: Int, height: Int, _ rects: [(Int, Int, Int, Int, Float)]) -> [Float] {
        var m = [Float](repeating: 0, count: width * height)
        for (x0, y0, x1, y1, v) in rects {
            for y in y0...y1 { for x in x0...x1 { m[y * width + x] = v } }
        }
        return m
    }

    func testDBMapToBoxGolden() {
        // One 40x10 block of 0.9 at x 10...49, y 10...19 in a 128x64 map; the page is twice the map.
        // Dilation (2x2) adds column 50 and row 20, so pixel centres span 10...50 x 10...20:
        // a 40 x 10 rectangle centred at (30, 15). Its score is the mean over the 41 x 11
        // pixels inside: 400 * 0.9 / 451 = 0.798. Unclip: d = 400 * 1.6 / 100 = 6.4, so
        // 52.8 x 22.8 with corners (3.6, 3.6) ... (56.4, 26.4); doubled and rounded:
        // (7, 7) (113, 7) (113, 53) (7, 53).
        let m = map(width: 128, height: 64, [(10, 10, 49, 19, 0.9)])
        let found = m.withUnsafeBufferPointer {
            DBPostProcessor().detect(map: $0, width: 128, height: 64, pageWidth: 256, pageHeight: 128)
        }
        XCTAssertEqual(found.count, 1)
        guard let d = found.first else { return }
        XCTAssertEqual(d.score, 360.0 / 451.0, accuracy: 1e-6)
        XCTAssertEqual(d.quad.points, [Point2D(7, 7), Point2D(113, 7), Point2D(113, 53), Point2D(7, 53)])
    }

    func testDBDropsWeakAndTinyRegionsAndKeepsReadingOrder() {
        // Three lines: two side by side at the top (the right one starts 4 px higher),
        // one lower. A faint region (0.35: above the pixel threshold, below the box
        // threshold) and a 2x2 speck must be dropped.
        let m = map(width: 200, height: 100, [
            (120, 6, 180, 15, 0.95),   // top right, higher
            (10, 10, 90, 19, 0.95),    // top left
            (10, 50, 150, 61, 0.9),    // second line
            (10, 80, 60, 90, 0.35),    // faint
            (180, 85, 181, 86, 1.0),   // speck
        ])
        let found = m.withUnsafeBufferPointer {
            DBPostProcessor().detect(map: $0, width: 200, height: 100, pageWidth: 200, pageHeight: 100)
        }
        XCTAssertEqual(found.count, 3)
        // Tops within 10 px are one line, read left to right.
        XCTAssertEqual(found.map { $0.quad.topLeft.x < 100 }, [true, false, true])
        XCTAssertLessThan(found[1].quad.topLeft.y, found[0].quad.topLeft.y)
        XCTAssertGreaterThan(found[2].quad.topLeft.y, 40)
    }

    func testDBFindsALineJoinedToFainterInkAboveIt() {
        // A printed line (0.9) whose right end touches a fainter scribble (0.4) rising above it:
        // at the pixel threshold (0.3) they are one region, and the rectangle around both,
        // 106 x 46, is mostly background (mean about 0.24), so the region fails the box
        // threshold. Cut again at 0.5, only the line is left, and it is kept.
        let m = map(width: 160, height: 80, [
            (20, 50, 119, 59, 0.9),   // the line
            (110, 10, 125, 49, 0.4),  // the scribble, touching it
        ])
        let found = m.withUnsafeBufferPointer {
            DBPostProcessor().detect(map: $0, width: 160, height: 80, pageWidth: 160, pageHeight: 80)
        }
        XCTAssertEqual(found.count, 1)
        guard let q = found.first?.quad else { return }
        // 100 x 10 (+1 for the dilation) unclipped by d = 1111 * 1.6 / 222 = 8.0.
        XCTAssertEqual(q.topLeft.x, 12, accuracy: 1.5)
        XCTAssertEqual(q.topRight.x, 128, accuracy: 1.5)
        XCTAssertEqual(q.topLeft.y, 42, accuracy: 1.5)
        XCTAssertEqual(q.bottomLeft.y, 68, accuracy: 1.5)

        // Without the second cut the line is lost with the scribble.
        var plain = DBPostProcessor()
        plain.rescueLevels = []
        let lost = m.withUnsafeBufferPointer {
            plain.detect(map: $0, width: 160, height: 80, pageWidth: 160, pageHeight: 80)
        }
        XCTAssertEqual(lost.count, 0)
    }

    func testDBFindsARotatedLine() {
        // A band of text pixels along a 20° slope: the quad must follow the slope.
        let w = 200, h = 120
        var m = [Float](repeating: 0, count: w * h)
        let angle = 20.0 * Double.pi / 180
        for y in 0..<h {
            for x in 0..<w {
                let dx = Double(x) - 100, dy = Double(y) - 60
                let along = dx * cos(angle) + dy * sin(angle), across = -dx * sin(angle) + dy * cos(angle)
                if abs(along) <= 60 && abs(across) <= 6 { m[y * w + x] = 0.9 }
            }
        }
        let found = m.withUnsafeBufferPointer {
            DBPostProcessor().detect(map: $0, width: w, height: h, pageWidth: w, pageHeight: h)
        }
        XCTAssertEqual(found.count, 1)
        guard let q = found.first?.quad else { return }
        let slope = atan2(q.topRight.y - q.topLeft.y, q.topRight.x - q.topLeft.x) * 180 / Double.pi
        XCTAssertEqual(slope, 20, accuracy: 1.5)
        // 120 x 12 unclipped by d = 1440 * 1.6 / 264 = 8.7 -> about 137 x 30.
        XCTAssertEqual(q.topLeft.distance(to: q.topRight), 138, accuracy: 3)
        XCTAssertEqual(q.topLeft.distance(to: q.bottomLeft), 31, accuracy: 3)
    }

    // MARK: geometry

    func testUnclipGrowsEverySideByAreaTimesRatioOverPerimeter() {
        // 100 x 20, ratio 1.5: d = 2000 * 1.5 / 240 = 12.5 -> 125 x 45, same centre and axis.
        let axis = Point2D(cos(0.3), sin(0.3))
        let r = RotatedRect(center: Point2D(50, 40), axis: axis, width: 100, height: 20).unclipped(ratio: 1.5)
        XCTAssertEqual(r.width, 125, accuracy: 1e-9)
        XCTAssertEqual(r.height, 45, accuracy: 1e-9)
        XCTAssertEqual(r.center, Point2D(50, 40))
        let c = r.corners
        XCTAssertEqual(c[0].distance(to: c[1]), 125, accuracy: 1e-9)
        XCTAssertEqual(c[1].distance(to: c[2]), 45, accuracy: 1e-9)
    }

    func testMinimumAreaRectangleOfARotatedRectangle() {
        let truth = RotatedRect(center: Point2D(50, 50), axis: Point2D(cos(0.5), sin(0.5)), width: 40, height: 10)
        var pts = truth.corners
        pts.append(Point2D(50, 50))  // an interior point changes nothing
        let r = Geometry2D.minimumAreaRectangle(pts)!
        XCTAssertEqual(r.area, 400, accuracy: 1e-6)
        XCTAssertEqual(r.shortSide, 10, accuracy: 1e-6)
        XCTAssertEqual(r.center.x, 50, accuracy: 1e-6)
        XCTAssertEqual(r.center.y, 50, accuracy: 1e-6)
    }

    func testCornerOrder() {
        let q = Geometry2D.orderCorners([Point2D(10, 9), Point2D(0, 1), Point2D(11, 0), Point2D(1, 10)])
        XCTAssertEqual(q.points, [Point2D(0, 1), Point2D(11, 0), Point2D(10, 9), Point2D(1, 10)])
    }

    func testDetectionSizeFollowsTheModelLimits() {
        // A 463 x 1013 receipt: short side up to 736 (x1.5896 -> 736 x 1610.3), multiples of 32.
        XCTAssertTrue(
            PPOCRRecognizer.detectionSize(width: 463, height: 1013, shortSide: 736, maxLongSide: 2000) == (736, 1600))
        // A 3000 x 4000 photo: long side down to 2000 (1500 x 2000; 62.5 rounds to even: 1984);
        // the short side is already >= 736.
        XCTAssertTrue(
            PPOCRRecognizer.detectionSize(width: 3000, height: 4000, shortSide: 736, maxLongSide: 2000) == (1504, 1984))
    }

    func testOwnDetectionSizeOnlyForPagesTheDefaultEnlarges() {
        // The 463 x 1013 receipt: 448 x 1024 at its own size, against 736 x 1600 enlarged.
        XCTAssertTrue(
            PPOCRRecognizer.ownDetectionSize(width: 463, height: 1013, shortSide: 736, maxLongSide: 2000)! == (
                448, 1024
            ))
        // A 750 x 1000 photo is not enlarged (736 x 992 either way), nor a 3000 x 4000 one (only capped).
        XCTAssertNil(PPOCRRecognizer.ownDetectionSize(width: 750, height: 1000, shortSide: 736, maxLongSide: 2000))
        XCTAssertNil(PPOCRRecognizer.ownDetectionSize(width: 3000, height: 4000, shortSide: 736, maxLongSide: 2000))
        // 700 x 1000 is enlarged by only 11% of its pixels (736 x 1056 against 704 x 992): not worth a second look.
        XCTAssertNil(PPOCRRecognizer.ownDetectionSize(width: 700, height: 1000, shortSide: 736, maxLongSide: 2000))
    }

    func testOwnSizeDetectionIsKeptOnlyForTallEnoughText() {
        func line(height: Double, width: Double = 200, down: Bool = false) -> DBPostProcessor.Detection {
            let (w, h) = down ? (height, width) : (width, height)
            return DBPostProcessor.Detection(quad: Quad([Point2D(10, 10), Point2D(10 + w, 10), Point2D(10 + w, 10 + h),
                                                          Point2D(10, 10 + h)]), score: 0.9)
        }
        // Median of 12, 20, 30 (one running down) is 20 page pixels.
        let lines = [line(height: 12), line(height: 30, down: true), line(height: 20)]
        XCTAssertEqual(PPOCRRecognizer.medianLineHeight(lines), 20)
        XCTAssertNil(PPOCRRecognizer.medianLineHeight([]))
        // Seen by the detector at the page's scale: 20 >= 16.
        XCTAssertTrue(PPOCRRecognizer.textIsTallEnough(lines, detectorWidth: 448, pageWidth: 448, minLineHeight: 16))
        // The same page detected at half its width: 10 < 16.
        XCTAssertFalse(PPOCRRecognizer.textIsTallEnough(lines, detectorWidth: 224, pageWidth: 448, minLineHeight: 16))
        // Nothing found at the page's own size: look again, enlarged.
        XCTAssertFalse(PPOCRRecognizer.textIsTallEnough([], detectorWidth: 448, pageWidth: 448, minLineHeight: 16))
    }

    func testClassifierLooksAtTheWidestLinesFirst() {
        // Widths 50, 400, 120, 300, 90 (height 20); a sample of 2 takes lines 1 and 3 (the widest),
        // each group sorted by aspect ratio.
        let sizes = [(50, 20), (400, 20), (120, 20), (300, 20), (90, 20)].map { (width: $0.0, height: $0.1) }
        let order = PPOCRRecognizer.classifierOrder(sizes, sample: 2)
        XCTAssertEqual(order, [[3, 1], [0, 4, 2]])
        // No sample, or no more lines than the sample: everything at once.
        XCTAssertEqual(PPOCRRecognizer.classifierOrder(sizes, sample: 0), [[0, 4, 2, 3, 1], []])
        XCTAssertEqual(PPOCRRecognizer.classifierOrder(Array(sizes.prefix(2)), sample: 2), [[0, 1], []])
    }

    func testNonCJKRecognizerUnlessALanguageNeedsEastAsianScripts() {
        let full = PPOCRModels(detector: "d.onnx", recognizer: "r.onnx", nonCJKRecognizer: "r.noncjk.onnx",
                               classifier: nil, runtimeLibrary: "lib.so")
        XCTAssertEqual(
            PPOCRRecognizer.recognizerPath(models: full, languages: ["eng"], allowNonCJK: true), "r.noncjk.onnx")
        XCTAssertEqual(
            PPOCRRecognizer.recognizerPath(models: full, languages: ["eng", "deu", "rus"], allowNonCJK: true),
            "r.noncjk.onnx")
        XCTAssertEqual(
            PPOCRRecognizer.recognizerPath(models: full, languages: ["eng", "chi_sim"], allowNonCJK: true), "r.onnx")
        XCTAssertEqual(PPOCRRecognizer.recognizerPath(models: full, languages: ["JPN"], allowNonCJK: true), "r.onnx")
        XCTAssertEqual(PPOCRRecognizer.recognizerPath(models: full, languages: ["eng"], allowNonCJK: false), "r.onnx")
        var missing = full
        missing.nonCJKRecognizer = nil
        XCTAssertEqual(PPOCRRecognizer.recognizerPath(models: missing, languages: ["eng"], allowNonCJK: true), "r.onnx")
    }

    // MARK: pixels

    func testPerspectiveCropOfAnAxisAlignedQuadIsAPlainCrop() {
        var img = RasterImage(width: 20, height: 10, channels: 3, filledWith: 0)
        for y in 0..<10 {
            for x in 0..<20 {
                img.pixels[(y * 20 + x) * 3] = UInt8(x * 10); img.pixels[(y * 20 + x) * 3 + 1] = UInt8(y * 20)
            }
        }
        let quad = Quad([Point2D(5, 2), Point2D(15, 2), Point2D(15, 8), Point2D(5, 8)])
        XCTAssertTrue(ImageOps.cropSize(of: quad) == (10, 6))
        let crop = ImageOps.perspectiveCrop(img, quad: quad, width: 10, height: 6)
        for y in 0..<6 {
            for x in 0..<10 {
                XCTAssertEqual(crop.pixels[(y * 10 + x) * 3], UInt8((5 + x) * 10))
                XCTAssertEqual(crop.pixels[(y * 10 + x) * 3 + 1], UInt8((2 + y) * 20))
            }
        }
    }

    func testRotations() {
        // [1 2 3] turned 90° counter-clockwise: the right edge on top -> a column 3, 2, 1.
        let row = RasterImage(width: 3, height: 1, channels: 1, pixels: [1, 2, 3])
        XCTAssertEqual(ImageOps.rotated90CounterClockwise(row).pixels, [3, 2, 1])
        XCTAssertEqual(ImageOps.rotated90CounterClockwise(row).width, 1)
        let square = RasterImage(width: 2, height: 2, channels: 1, pixels: [1, 2, 3, 4])
        XCTAssertEqual(ImageOps.rotated90CounterClockwise(square).pixels, [2, 4, 1, 3])
        XCTAssertEqual(ImageOps.rotated180(square).pixels, [4, 3, 2, 1])
    }

    func testNormalizedTensorIsBGRInMinusOneToOne() {
        // One RGB pixel (255, 0, 51) at size 1x1: B plane first.
        let img = RasterImage(width: 1, height: 1, channels: 3, pixels: [255, 0, 51])
        var t = [Float](repeating: 9, count: 3 * 2)  // stride 2: the padding column stays untouched
        ImageOps.writeNormalized(img, width: 1, height: 1, stride: 2, into: &t, offset: 0)
        XCTAssertEqual(t[0], 51 / 127.5 - 1, accuracy: 1e-6)   // B
        XCTAssertEqual(t[2], -1, accuracy: 1e-6)               // G
        XCTAssertEqual(t[4], 1, accuracy: 1e-6)                // R
        XCTAssertEqual(t[1], 9)
    }

    // MARK: CTC

    /// Classes: 0 blank, 1 "a", 2 "b", 3 "c", 4 space.
    private let abc = CTCDecoder(dictionary: ["a", "b", "c"])

    /// Rows of probabilities from (winning class, its probability); the rest is spread evenly.
    private func probs(_ rows: [[Int: Float]], classes: Int) -> [Float] {
        var out: [Float] = []
        for r in rows {
            let rest = (1 - r.values.reduce(0, +)) / Float(classes - r.count)
            out += (0..<classes).map { r[$0] ?? rest }
        }
        return out
    }

    func testGreedyCollapsesRepeatsAndDropsBlanks() {
        // best path: a a _ a b ␠ c -> "aab c"
        let p = probs([[1: 0.9], [1: 0.8], [0: 0.7], [1: 0.6], [2: 0.9], [4: 0.95], [3: 0.5]], classes: 5)
        let r = p.withUnsafeBufferPointer { abc.greedy($0, steps: 7) }
        XCTAssertEqual(r.text, "aab c")
        XCTAssertEqual(r.tokens.map(\.classIndex), [1, 1, 2, 4, 3])
        XCTAssertEqual(r.tokens.map(\.firstStep), [0, 3, 4, 5, 6])
        XCTAssertEqual(r.tokens[0].lastStep, 1)
        // mean of each token's first-step probability: (0.9 + 0.6 + 0.9 + 0.95 + 0.5) / 5
        XCTAssertEqual(r.confidence, 3.85 / 5, accuracy: 1e-6)
    }

    /// A word corrector sees every word with its weakest character; only the word it changes gets new
    /// tokens, spread over that word's steps, and every other word keeps its own.
    func testOnlyTheWordTheCorrectorChangesGetsNewTokens() {
        struct Spy: WordCorrector {
            func doubts(_ text: String, weakest: Double) -> Bool { text == "ab" && weakest < 0.9 }
            func corrected(_ text: String, probabilities: LineProbabilities, span: Range<Int>) -> String? {
                XCTAssertEqual(span, 0..<3, "the word's steps, half-way to the next word")
                return "cc"
            }
        }
        // "ab c" from tokens a(0-1) b(2, p 0.5) ␠(3) c(4-5); 6 steps of 5 classes.
        let tokens = [CTCDecoder.Token(classIndex: 1, firstStep: 0, lastStep: 1, probability: 0.95),
                      CTCDecoder.Token(classIndex: 2, firstStep: 2, lastStep: 2, probability: 0.5),
                      CTCDecoder.Token(classIndex: 4, firstStep: 3, lastStep: 3, probability: 0.9),
                      CTCDecoder.Token(classIndex: 3, firstStep: 4, lastStep: 5, probability: 0.97)]
        let reading = CTCDecoder.Reading(text: "ab c", tokens: tokens, confidence: 0.8, logProbability: -1)
        let p = [Float](repeating: 0.2, count: 6 * 5)
        let out = p.withUnsafeBufferPointer {
            PPOCRRecognizer.corrected(
                reading, probabilities: $0, steps: 6, decoder: abc, classIndex: ["a": 1, "b": 2, "c": 3],
                with: Spy())
        }
        XCTAssertEqual(out.text, "cc c")
        XCTAssertEqual(Array(out.tokens.suffix(2)), Array(tokens.suffix(2)), "the space and `c` keep their tokens")
        XCTAssertEqual(out.tokens.prefix(2).map(\.classIndex), [3, 3])
        XCTAssertEqual(out.tokens.prefix(2).map(\.firstStep), [0, 1])
        XCTAssertEqual(out.tokens.prefix(2).map(\.lastStep), [0, 2])
        // Nothing doubtful: the reading stands as it was.
        let sure = CTCDecoder.Reading(text: "ab c", tokens: tokens.map { var t = $0; t.probability = 0.99; return t },
                                      confidence: 0.99, logProbability: -0.1)
        let same = p.withUnsafeBufferPointer {
            PPOCRRecognizer.corrected(sure, probabilities: $0, steps: 6, decoder: abc, classIndex: [:], with: Spy())
        }
        XCTAssertEqual(same.tokens, sure.tokens)
    }

    func testFullWidthPunctuationInLatinTextBecomesASCII() {
        let chars = ["P", "h", ":", "(", ")", "5", "：", "（", "）", "电", "话", "。", "."]
        let dec = CTCDecoder(dictionary: chars)
        func read(_ s: [String]) -> String {
            let tokens = s.enumerated().map { i, c in
                CTCDecoder.Token(classIndex: c == " " ? dec.spaceClass : chars.firstIndex(of: c)! + 1,
                                 firstStep: i, lastStep: i, probability: 1)
            }
            return dec.text(of: dec.latinForms(tokens))
        }
        XCTAssertEqual(read(["P", "h", "：", "（", "5", "5", "）"]), "Ph:(55)")
        XCTAssertEqual(read(["（", "5", "）", " ", "5", "。"]), "(5) 5.")
        // Between Chinese characters the marks stay as read.
        XCTAssertEqual(read(["电", "话", "：", "5"]), "电话：5")
        XCTAssertEqual(read(["5", "（", "电", "话", "）"]), "5（电话）")
        // Through greedy decoding too: blank, then each class once.
        let classes = dec.classCount
        var p: [Float] = []
        for c in [1, 2, 7] { p += (0..<classes).map { $0 == c ? 1 : 0 } }
        XCTAssertEqual(p.withUnsafeBufferPointer { dec.greedy($0, steps: 3) }.text, "Ph:")
    }

    /// On a line with two kana or more, a simplified Chinese character takes the Japanese one that was read close
    /// behind it (`酱油` is `醤油`); without kana, or without a Japanese alternative, it stays.
    func testJapaneseLinesTakeJapaneseFormsOfTheirKanji() {
        let chars = ["酱", "醤", "油", "の", "单", "ン"]
        let dec = CTCDecoder(dictionary: chars)
        let classes = dec.classCount
        func index(_ c: String) -> Int { chars.firstIndex(of: c)! + 1 }
        /// One step a character: the winner at 0.6, and its runner-up at 0.3.
        func read(_ path: [(String, String?)]) -> String {
            var p: [Float] = []
            for (win, second) in path {
                let runnerUp = second.map(index) ?? -1
                p += (0..<classes).map { k -> Float in k == index(win) ? 0.6 : k == runnerUp ? 0.3 : 0 }
            }
            return p.withUnsafeBufferPointer { dec.greedy($0, steps: path.count) }.text
        }
        XCTAssertEqual(read([("酱", "醤"), ("油", nil), ("の", nil), ("ン", nil)]), "醤油のン")
        XCTAssertEqual(read([("酱", "醤"), ("油", nil)]), "酱油", "no kana: Chinese stays Chinese")
        XCTAssertEqual(read([("酱", "醤"), ("油", nil), ("の", nil)]), "酱油の", "one kana may be a misread look-alike")
        XCTAssertEqual(read([("单", nil), ("の", nil), ("ン", nil)]), "单のン", "no Japanese alternative")
        XCTAssertTrue(dec.notJapanese[index("酱")] && !dec.notJapanese[index("醤")] && !dec.notJapanese[index("の")])
    }

    func testADroppedSpaceIsPutBackWhereTheSpaceClassRoseAndTheGapIsWide() {
        // Dictionary "a", ",", "1", "@": blank 0, a 1, "," 2, "1" 3, "@" 4, space 5.
        let dec = CTCDecoder(dictionary: ["a", ",", "1", "@"])
        /// Each character takes one step, then one blank step (two after the characters in `wide`);
        /// `space` gives the space class's probability on the blank steps after a character.
        func read(_ path: [Int], space: [Int: Float] = [:], wide: Set<Int> = [], threshold: Float = 0.05) -> String {
            var rows: [[Int: Float]] = []
            for (k, c) in path.enumerated() {
                rows.append([c: 0.9])
                for _ in 0..<(wide.contains(k) ? 2 : 1) {
                    rows.append(space[k].map { [0: 0.9 - $0, 5: $0] } ?? [0: 0.95])
                }
            }
            let p = probs(rows, classes: 6)
            return p.withUnsafeBufferPointer {
                dec.withDroppedSpaces(dec.greedy($0, steps: rows.count), probabilities: $0, steps: rows.count,
                                      threshold: threshold, pitchRatio: 1.25)
            }.text
        }
        // "aa,aa": the space class rose to 0.3 after the comma, and the next "a" starts late.
        XCTAssertEqual(read([1, 1, 2, 1, 1], space: [2: 0.3], wide: [2]), "aa, aa")
        // Either sign alone is not enough, and a threshold of 0 turns it off.
        XCTAssertEqual(read([1, 1, 2, 1, 1], space: [2: 0.02], wide: [2]), "aa,aa")
        XCTAssertEqual(read([1, 1, 2, 1, 1], space: [2: 0.3]), "aa,aa")
        XCTAssertEqual(read([1, 1, 2, 1, 1], space: [2: 0.3], wide: [2], threshold: 0), "aa,aa")
        // Never inside a number or next to "@".
        XCTAssertEqual(read([3, 3, 2, 3, 3], space: [1: 0.4, 2: 0.4], wide: [1, 2]), "11,11")
        XCTAssertEqual(read([1, 1, 4, 1, 1], space: [1: 0.4, 2: 0.4], wide: [1, 2]), "aa@aa")
        // A space the best path read stays single.
        let p = probs(
            [[1: 0.9], [0: 0.9], [1: 0.9], [0: 0.9], [1: 0.9], [5: 0.8], [0: 0.9], [1: 0.9], [0: 0.9], [1: 0.9]],
            classes: 6)
        let r = p.withUnsafeBufferPointer {
            dec.withDroppedSpaces(
                dec.greedy($0, steps: 10), probabilities: $0, steps: 10, threshold: 0.05, pitchRatio: 1.25)
        }
        XCTAssertEqual(r.text, "aaa aa")
        XCTAssertEqual(r.tokens.count, 6)
    }

    func testRecoveredSpacesKeepAmountsEmailsURLsAndBracketsTight() {
        for (a, b) in [
            ("5", "0"), (".", "3"), (",", "5"), ("5", "."), ("5", ","), ("x", "@"), ("@", "x"), ("/", "x"), ("x", "/"),
            ("(", "A"), ("A", ")"), ("[", "A"), ("A", "]"), ("A", "."), ("A", ",")
        ] {
            XCTAssertFalse(CTCDecoder.spaceMayJoin(a, b), "\(a)\(b)")
        }
        for (a, b) in [(",", "K"), (".", "S"), ("A", "B"), ("0", "A"), ("M", "5"), (":", "0"), (")", "A"), ("A", "(")] {
            XCTAssertTrue(CTCDecoder.spaceMayJoin(a, b), "\(a)\(b)")
        }
    }

    func testBeamFindsTheReadingGreedyMisses() {
        // Two steps of blank 0.6 / "a" 0.4 (dictionary ["a"]: blank, a, space).
        // Greedy: "" (0.36). Beam: P("a") = 0.4*0.6 + 0.6*0.4 + 0.4*0.4 = 0.64.
        let dec = CTCDecoder(dictionary: ["a"])
        let p: [Float] = [0.6, 0.4, 0, 0.6, 0.4, 0]
        let g = p.withUnsafeBufferPointer { dec.greedy($0, steps: 2) }
        XCTAssertEqual(g.text, "")
        let b = p.withUnsafeBufferPointer { dec.beam($0, steps: 2, width: 4, count: 3) }
        XCTAssertEqual(b.map(\.text), ["a", ""])
        XCTAssertEqual(b[0].confidence, 0.64, accuracy: 1e-6)
        XCTAssertEqual(b[1].confidence, 0.36, accuracy: 1e-6)
        XCTAssertEqual(b[0].logProbability, log(0.64), accuracy: 1e-6)
    }

    func testLexiconBonusPrefersACustomWord() {
        // C A (R 0.6 | T 0.35): "CAR" unless the lexicon holds "cat".
        let dec = CTCDecoder(dictionary: ["C", "A", "T", "R"])  // blank, C, A, T, R, space
        let p = probs([[1: 0.95], [0: 0.9], [2: 0.95], [0: 0.9], [4: 0.6, 3: 0.35], [0: 0.95]], classes: 6)
        let plain = p.withUnsafeBufferPointer { dec.beam($0, steps: 6, width: 8, count: 2) }
        XCTAssertEqual(plain.first?.text, "CAR")
        XCTAssertEqual(plain.map(\.text), ["CAR", "CAT"])
        let biased = p.withUnsafeBufferPointer {
            dec.beam($0, steps: 6, width: 8, count: 2, lexicon: CTCDecoder.Lexicon(["cat"], bonus: 3))
        }
        XCTAssertEqual(biased.first?.text, "CAT")
        XCTAssertGreaterThan(biased[0].confidence, biased[1].confidence)
    }

    // MARK: words from time steps

    func testWordBoxesComeFromTimeSteps() {
        // Tokens "ab" at steps 0-1 and 2, a space at 4, "c" at 6, 10 steps over the
        // full line: u = step / 10. Word 1 spans u 0 (line start) ... (2 + 1.5)/10 = 0.35;
        // word 2 spans (6 - 0.5)/10 = 0.55 ... 1 (line end). On a 100 x 20 line at (10, 5):
        let tokens = [CTCDecoder.Token(classIndex: 1, firstStep: 0, lastStep: 1, probability: 0.9),
                      CTCDecoder.Token(classIndex: 2, firstStep: 2, lastStep: 2, probability: 0.7),
                      CTCDecoder.Token(classIndex: 4, firstStep: 4, lastStep: 4, probability: 0.99),
                      CTCDecoder.Token(classIndex: 3, firstStep: 6, lastStep: 6, probability: 0.5)]
        let quad = Quad([Point2D(10, 5), Point2D(110, 5), Point2D(110, 25), Point2D(10, 25)])
        var line = PPOCRRecognizer.LineCrop(quad: quad, image: RasterImage(width: 1, height: 1, channels: 3),
                                            turned90: false, turned180: false)
        var words = PPOCRRecognizer.words(tokens: tokens, decoder: abc, line: line, stepToU: { $0 / 10 })
        XCTAssertEqual(words.map(\.text), ["ab", "c"])
        XCTAssertEqual(words[0].boundingBox.rounded(), BoundingBox(x: 10, y: 5, width: 35, height: 20))
        XCTAssertEqual(words[1].boundingBox.rounded(), BoundingBox(x: 65, y: 5, width: 45, height: 20))
        XCTAssertEqual(words[0].confidence, 0.8, accuracy: 1e-6)

        // The same reading from a line that was turned 180° before recognition lies mirrored.
        line.turned180 = true
        words = PPOCRRecognizer.words(tokens: tokens, decoder: abc, line: line, stepToU: { $0 / 10 })
        XCTAssertEqual(words[0].boundingBox.rounded(), BoundingBox(x: 75, y: 5, width: 35, height: 20))
        XCTAssertEqual(words[1].boundingBox.rounded(), BoundingBox(x: 10, y: 5, width: 45, height: 20))
    }

    /// A line turned before reading keeps its corners, each labelled as the text's own: read after a quarter turn
    /// counter-clockwise (text running down the page), the crop's top-right corner is where the text starts.
    func testTheQuadOfALineTurnedBeforeReading() {
        // A tall crop: the text runs down from (110, 5) to (110, 105).
        let corners = [Point2D(100, 5), Point2D(120, 5), Point2D(120, 105), Point2D(100, 105)]
        func quad(_ turned90: Bool, _ turned180: Bool) -> ScanModel.Quad? {
            let line = PPOCRRecognizer.LineCrop(
                quad: Quad(corners), image: RasterImage(width: 1, height: 1, channels: 3),
                turned90: turned90, turned180: turned180)
            return PPOCRRecognizer.textQuad(corners, line: line)
        }
        XCTAssertEqual(quad(false, false)?.topLeft, Point(x: 100, y: 5))
        let down = quad(true, false)
        XCTAssertEqual(down?.topLeft, Point(x: 120, y: 5))
        XCTAssertEqual(down?.topRight, Point(x: 120, y: 105))
        XCTAssertEqual(down?.bottomLeft, Point(x: 100, y: 5))
        // Turned once more, upside down: the text runs up the page from the bottom-left corner.
        XCTAssertEqual(quad(true, true)?.topLeft, Point(x: 100, y: 105))
        XCTAssertEqual(quad(false, true)?.topLeft, Point(x: 120, y: 105))
    }
}
