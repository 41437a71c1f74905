import Foundation
import ScanModel

/// Judges which recognized lines of a page are handwriting, so that `--handwriting auto`
/// decodes only those with the word list.
///
/// It looks at what the recognizer said about each line (its confidence and its words'
/// confidences, the shape and tilt of its box against the page's other lines, the spacing of
/// its words, what kind of characters it holds) and at the line's ink: how much the stroke
/// width varies, how the tops and bottoms of the letters wander, how often the ink breaks
/// between letters, how the slant varies along the line. The page's mean of each figure is
/// context for every line. A logistic regression over those features gives each line a
/// probability; a line at or above `threshold` is handwriting. The weights and the threshold
/// were learned (`Tools/train-handwriting`) on generated handwriting against printed pages
/// and ship as `Resources/HandwritingDetector.json`. Pure: no engine.
public struct HandwritingDetector: Sendable {
    public struct Weights: Codable, Sendable, Hashable {
        /// Feature names, in the order of `lineFeatures`; a file for other features is refused.
        public var features: [String]
        /// Standardization: each feature minus its mean, over its scale.
        public var mean: [Double]
        public var scale: [Double]
        public var coefficients: [Double]
        public var intercept: Double
        /// A line is handwriting at this probability or above.
        public var threshold: Double
        /// How the weights were made (documentation only).
        public var trainedOn: String?
    }

    public let weights: Weights

    public init(weights: Weights) throws {
        guard weights.features == Self.featureNames, weights.mean.count == weights.features.count,
              weights.scale.count == weights.features.count, weights.coefficients.count == weights.features.count else {
            throw ScanError(
                .engine, "the handwriting detector's weights do not match its features \(Self.featureNames)")
        }
        self.weights = weights
    }

    /// The detector with the weights shipped in the package.
    public static func shipped() throws -> HandwritingDetector {
        guard let url = Bundle.module.url(forResource: "HandwritingDetector", withExtension: "json") else {
            throw ScanError(.engine, "HandwritingDetector.json is missing from ScanInk's resources")
        }
        return try HandwritingDetector(weights: JSONDecoder().decode(Weights.self, from: Data(contentsOf: url)))
    }

    /// The judgement on one page.
    public struct Judgement: Sendable, Hashable {
        /// Each line's probability of being handwriting, in the order given.
        public var probabilities: [Double]
        /// The indices of the lines judged handwritten.
        public var lines: [Int]
        /// The mean probability over the page's characters (0 for no text).
        public var confidence: Double
    }

    /// `image` is the page the lines' boxes are in (any channels; light-on-dark works too).
    public func judge(_ lines: [TextObservation], image: RasterImage) -> Judgement {
        let features = Self.lineFeatures(lines, image: image)
        let probabilities = features.map(probability)
        let handwritten = probabilities.indices.filter { probabilities[$0] >= weights.threshold }
        let chars = lines.map { Double(max(1, $0.text.count)) }
        let total = chars.reduce(0, +)
        let confidence = total > 0 ? zip(probabilities, chars).reduce(0.0) { $0 + $1.0 * $1.1 } / total : 0
        return Judgement(probabilities: probabilities, lines: handwritten, confidence: confidence)
    }

    func probability(_ x: [Double]) -> Double {
        var z = weights.intercept
        for k in x.indices {
            let s = weights.scale[k] == 0 ? 1 : weights.scale[k]
            z += weights.coefficients[k] * (x[k] - weights.mean[k]) / s
        }
        return 1 / (1 + exp(-z))
    }

    // MARK: - Features

    public static let lineNames = [
        "confidence", "wordConfidenceMin", "wordConfidenceSpread", "doubtfulWords", "widthPerCharacter",
        "relativeHeight", "tiltFromPage", "edgeDisagreement", "uppercase", "digits", "punctuation",
        "words", "meanWordLength", "gapVariation",
        "ink", "strokeWidth", "strokeWidthVariation", "breaksPerCharacter", "topWobble", "bottomWobble",
        "slantSpread", "strokeHeight",
    ]
    /// The model's inputs. The page's line count is not one of them: it tells the generated
    /// notes (1 to 10 lines) from receipts (30 to 80), not handwriting from print.
    public static let featureNames = lineNames + lineNames.map { "page." + $0 } + ["page.heightVariation"]

    /// One row per line: the line's own features, then the page's mean of each, then the
    /// variation of its line heights. Every length is in line heights, so the page's scale
    /// does not matter.
    public static func lineFeatures(_ lines: [TextObservation], image: RasterImage) -> [[Double]] {
        guard !lines.isEmpty else { return [] }
        let tilts = lines.map(tilt)
        let pageTilt = median(tilts.compactMap { $0 })
        let heights = lines.map(lineHeight)
        let medianHeight = max(1, median(heights))
        let own = lines.indices.map { i in
            ownFeatures(lines[i], tilt: tilts[i], pageTilt: pageTilt, height: heights[i], medianHeight: medianHeight)
                + InkFeatures.measure(
                    image, box: lines[i].boundingBox, glyphs: lines[i].text.filter { !$0.isWhitespace }.count)
        }
        var pageMean = [Double](repeating: 0, count: lineNames.count)
        for row in own { for k in row.indices { pageMean[k] += row[k] / Double(own.count) } }
        let (meanHeight, spread) = InkFeatures.meanStd(heights)
        let page = pageMean + [spread / max(1, meanHeight)]
        return own.map { $0 + page }
    }

    static func ownFeatures(_ line: TextObservation, tilt: Double?, pageTilt: Double, height: Double,
                            medianHeight: Double) -> [Double] {
        let words = line.words
        let wordConf = words.map(\.confidence)
        let minConf = wordConf.min() ?? line.confidence
        let spread = (wordConf.max() ?? line.confidence) - minConf
        let doubtful = words.isEmpty ? 0 : Double(wordConf.filter { $0 < 0.8 }.count) / Double(words.count)
        let glyphs = line.text.filter { !$0.isWhitespace }
        let n = Double(max(1, glyphs.count))
        let width = lineWidth(line)
        let upper = Double(glyphs.filter(\.isUppercase).count) / n
        let digits = Double(glyphs.filter(\.isNumber).count) / n
        let punctuation = Double(glyphs.filter { !$0.isLetter && !$0.isNumber }.count) / n
        let tokens = line.text.split(separator: " ")
        let meanWordLength = Double(glyphs.count) / Double(max(1, tokens.count))
        let edge: Double
        if let q = line.quad {
            edge = abs(angle(q.topLeft, q.topRight) - angle(q.bottomLeft, q.bottomRight))
        } else {
            edge = 0
        }
        return [
            line.confidence, minConf, spread, doubtful, log(max(0.05, width / (max(1, height) * n))),
            log(max(1, height) / medianHeight), tilt.map { abs($0 - pageTilt) } ?? 0, edge, upper, digits, punctuation,
            log(Double(max(1, words.count))), log(meanWordLength + 1), gapVariation(words, height: height),
        ]
    }

    /// The spread of the gaps between consecutive words, in line heights.
    static func gapVariation(_ words: [RecognizedWord], height: Double) -> Double {
        guard words.count >= 3 else { return 0 }
        let sorted = words.sorted { $0.boundingBox.x < $1.boundingBox.x }
        let gaps = zip(sorted, sorted.dropFirst()).map { a, b in
            (b.boundingBox.x - (a.boundingBox.x + a.boundingBox.width)) / max(1, height)
        }
        return InkFeatures.meanStd(gaps).std
    }

    /// The line's height across its text (the quad's, when it has one).
    static func lineHeight(_ line: TextObservation) -> Double {
        line.quad?.meanSides.height ?? line.boundingBox.height
    }

    static func lineWidth(_ line: TextObservation) -> Double {
        line.quad?.meanSides.width ?? line.boundingBox.width
    }

    /// The tilt of the line's baseline in degrees, when its quad says it.
    static func tilt(_ line: TextObservation) -> Double? {
        line.quad.map { angle($0.bottomLeft, $0.bottomRight) }
    }

    static func angle(_ a: Point, _ b: Point) -> Double {
        atan2(b.y - a.y, max(1e-6, b.x - a.x)) * 180 / .pi
    }

    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let s = values.sorted()
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }
}

/// Figures of a line's ink in its box: stroke width and its variation, breaks in the ink, how
/// the tops and bottoms of the letters wander about a straight line, and the spread of the
/// slant along the line. Lengths are in line heights.
enum InkFeatures {
    static let neutral: [Double] = [0, 0, 0, 0, 0, 0, 0, 0]

    /// `image` is the page, gray or colour: its luma is read where the box is, and nowhere else.
    static func measure(_ image: RasterImage, box: BoundingBox, glyphs: Int) -> [Double] {
        let x0 = max(0, Int(box.x.rounded(.down))), y0 = max(0, Int(box.y.rounded(.down)))
        let x1 = min(image.width, Int((box.x + box.width).rounded(.up)))
        let y1 = min(image.height, Int((box.y + box.height).rounded(.up)))
        let w = x1 - x0, h = y1 - y0
        guard w >= 8, h >= 6 else { return neutral }
        // The box's luma, read once (a colour page converts every pixel it reads).
        var luma = [UInt8](repeating: 0, count: w * h)
        var histogram = [Int](repeating: 0, count: 256)
        for y in 0..<h {
            for x in 0..<w {
                let v = image.luma(at: (y + y0) * image.width + x + x0)
                luma[y * w + x] = v
                histogram[Int(v)] += 1
            }
        }
        let threshold = GrayHistogram.otsu(histogram)
        let darker = histogram[0...threshold].reduce(0, +)
        // Ink is the smaller side of the threshold, so light ink on a dark ground is ink too.
        let inkIsDark = darker * 2 <= w * h
        var ink = [Bool](repeating: false, count: w * h)
        var count = 0
        for i in 0..<(w * h) {
            let on = inkIsDark ? Int(luma[i]) <= threshold : Int(luma[i]) > threshold
            ink[i] = on
            if on { count += 1 }
        }
        guard count >= 8 else { return neutral }
        let hd = Double(h)
        // Horizontal runs of ink: a stroke's width where it is crossed.
        var runs: [Double] = []
        for y in 0..<h {
            var run = 0
            for x in 0...w {
                if x < w && ink[y * w + x] { run += 1 } else if run > 0 { runs.append(Double(run)); run = 0 }
            }
        }
        let (runMean, runStd) = meanStd(runs)
        // Vertical runs: the height of strokes (tall in print's stems, long in loops and flourishes).
        var vruns: [Double] = []
        for x in 0..<w {
            var run = 0
            for y in 0...h {
                if y < h && ink[y * w + x] { run += 1 } else if run > 0 { vruns.append(Double(run)); run = 0 }
            }
        }
        let vrunMean = meanStd(vruns).mean
        // Columns with ink; breaks are the starts of ink after a gap.
        var tops: [(Double, Double)] = [], bottoms: [(Double, Double)] = []
        var breaks = 0
        var wasInk = false
        for x in 0..<w {
            var top = -1, bottom = -1
            for y in 0..<h where ink[y * w + x] {
                if top < 0 { top = y }
                bottom = y
            }
            if top >= 0 {
                if !wasInk { breaks += 1 }
                tops.append((Double(x), Double(top)))
                bottoms.append((Double(x), Double(bottom)))
            }
            wasInk = top >= 0
        }
        // Slant of each stretch one line-height wide: the shear of its ink (cov(x, y) / var(y)).
        var slants: [Double] = []
        var start = 0
        while start < w {
            let end = min(w, start + h)
            var n = 0.0, sx = 0.0, sy = 0.0, sxy = 0.0, syy = 0.0
            for y in 0..<h {
                for x in start..<end where ink[y * w + x] {
                    let fx = Double(x), fy = Double(y)
                    n += 1; sx += fx; sy += fy; sxy += fx * fy; syy += fy * fy
                }
            }
            if n >= Double(h) {
                let vy = syy / n - (sy / n) * (sy / n)
                if vy > 1 { slants.append((sxy / n - (sx / n) * (sy / n)) / vy) }
            }
            start = end
        }
        return [
            Double(count) / Double(w * h),
            runMean / hd,
            runMean > 0 ? runStd / runMean : 0,
            Double(breaks) / Double(max(1, glyphs)),
            residual(tops) / hd,
            residual(bottoms) / hd,
            slants.count >= 2 ? meanStd(slants).std : 0,
            vrunMean / hd,
        ]
    }

    /// The spread of points about their least-squares line.
    static func residual(_ points: [(Double, Double)]) -> Double {
        guard points.count >= 3 else { return 0 }
        let n = Double(points.count)
        let mx = points.reduce(0) { $0 + $1.0 } / n, my = points.reduce(0) { $0 + $1.1 } / n
        var sxx = 0.0, sxy = 0.0
        for p in points { sxx += (p.0 - mx) * (p.0 - mx); sxy += (p.0 - mx) * (p.1 - my) }
        let slope = sxx > 0 ? sxy / sxx : 0
        var ss = 0.0
        for p in points { let r = p.1 - my - slope * (p.0 - mx); ss += r * r }
        return (ss / n).squareRoot()
    }

    static func meanStd(_ values: [Double]) -> (mean: Double, std: Double) {
        guard !values.isEmpty else { return (0, 0) }
        let mean = values.reduce(0, +) / Double(values.count)
        let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count)
        return (mean, variance.squareRoot())
    }
}
