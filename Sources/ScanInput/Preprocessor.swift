import ScanModel

/// Preparation of a page raster for OCR: deskew, and upscaling of small text.
/// Orientation (quarter turns) is decided by the recognition stage, which has
/// the engine that can tell; `rotated(_:quarterTurns:)` applies its answer.
/// The pipeline (ScanKit) decides the order.
public struct Preprocessor: Sendable {
    public struct Options: Sendable, Hashable, Codable {
        public var deskew: Bool
        /// Upscale until the median glyph height reaches this many pixels (0: never).
        /// 32 read best on low-resolution receipt scans (tried 22 to 40).
        public var targetGlyphHeight: Double
        /// Never scale by more than this.
        public var maxUpscale: Double
        /// Never produce more pixels than this.
        public var maxPixels: Int

        public init(deskew: Bool = true, targetGlyphHeight: Double = 32, maxUpscale: Double = 4,
                    maxPixels: Int = 40_000_000) {
            self.deskew = deskew
            self.targetGlyphHeight = targetGlyphHeight
            self.maxUpscale = maxUpscale
            self.maxPixels = maxPixels
        }
    }

    public var options: Options

    public init(options: Options = Options()) {
        self.options = options
    }

    /// The factor by which to enlarge `image` so its glyphs reach the target height (1: leave it).
    public func upscaleFactor(for image: RasterImage) -> Double {
        guard options.targetGlyphHeight > 0, let h = Self.medianGlyphHeight(image), h < options.targetGlyphHeight else {
            return 1
        }
        var scale = min(options.maxUpscale, options.targetGlyphHeight / h)
        let pixels = Double(image.width * image.height) * scale * scale
        if pixels > Double(options.maxPixels) {
            scale = (Double(options.maxPixels) / Double(image.width * image.height)).squareRoot()
        }
        return scale > 1.15 ? scale : 1
    }

    /// Enlarges by `factor`; returns the image and the exact factor achieved.
    public func upscaled(_ image: RasterImage, by factor: Double) -> (RasterImage, Double) {
        guard factor > 1, let s = ImageOps.scale(image, by: factor) else { return (image, 1) }
        return (s, Double(s.width) / Double(image.width))
    }

    /// Levels slightly rotated text. Returns the image and the corrected angle in degrees, if any.
    public func deskewed(_ image: RasterImage) -> (RasterImage, Double?) {
        guard options.deskew, let (angle, conf) = ImageOps.skew(image), conf >= 3, abs(angle) >= 0.15, abs(angle) <= 20,
              let r = ImageOps.rotate(image, degrees: angle) else {
            return (image, nil)
        }
        return (r, (angle * 100).rounded() / 100)
    }

    /// Flattens uneven lighting; the image unchanged when that fails.
    public func backgroundNormalized(_ image: RasterImage) -> RasterImage {
        ImageOps.normalizeBackground(image) ?? image
    }

    // MARK: - Faded, low-contrast pages

    /// Gray levels of a page, sampled: the background (median), the ink (the darkest
    /// 0.5 %; printed text covers a few percent of a page), and how much the paper's
    /// own level varies across the page.
    public struct Levels: Sendable, Hashable {
        public var background: Int
        public var ink: Int
        /// The spread of the paper's level over an 8×8 grid of tiles (each tile's 75th
        /// percentile; the 90th minus the 10th percentile of those): 0 on a flat scan,
        /// tens of levels on a yellowed, blotchy or unevenly lit one.
        public var unevenness: Int
        /// Background minus ink: about 200 on a good scan, under 100 on a faded one.
        public var contrast: Int { background - ink }
    }

    /// Measures `image`'s levels from a sample of about 250k pixels (cheap on any size).
    public static func levels(_ image: RasterImage) -> Levels {
        let pixelCount = image.width * image.height
        guard pixelCount > 0 else { return Levels(background: 255, ink: 255, unevenness: 0) }
        let grid = 8
        var histogram = [Int](repeating: 0, count: 256)
        var tiles = [[Int]](repeating: [Int](repeating: 0, count: 256), count: grid * grid)
        let step = max(1, Int((Double(pixelCount) / 250_000).squareRoot()))
        let c = image.channels
        image.pixels.withUnsafeBufferPointer { px in
            for y in stride(from: 0, to: image.height, by: step) {
                let row = y * image.width
                let tileRow = min(grid - 1, y * grid / image.height) * grid
                for x in stride(from: y % 2 == 0 ? 0 : step / 2, to: image.width, by: step) {
                    let o = (row + x) * c
                    // Rec. 601 luma, as RasterImage.grayscale computes it.
                    let v =
                        c == 1
                        ? Int(px[o]) : (299 * Int(px[o]) + 587 * Int(px[o + 1]) + 114 * Int(px[o + 2]) + 500) / 1000
                    histogram[v] += 1
                    tiles[tileRow + min(grid - 1, x * grid / image.width)][v] += 1
                }
            }
        }
        func percentile(_ histogram: [Int], _ q: Double) -> Int? {
            let total = histogram.reduce(0, +)
            guard total > 0 else { return nil }
            let target = max(1, Int((Double(total) * q).rounded(.up)))
            var seen = 0
            for (v, n) in histogram.enumerated() {
                seen += n
                if seen >= target { return v }
            }
            return 255
        }
        let paper = tiles.compactMap { percentile($0, 0.75) }.sorted()
        let unevenness = paper.isEmpty ? 0 : paper[paper.count * 9 / 10] - paper[paper.count / 10]
        return Levels(background: percentile(histogram, 0.5) ?? 255, ink: percentile(histogram, 0.005) ?? 255,
                      unevenness: unevenness)
    }

    /// Whether `image` looks like a faded scan that Tesseract reads better after
    /// `contrastNormalized(_:)`: pale ink (less than 100 gray levels darker than the
    /// paper, yet some ink: not a blank page) on light paper whose level varies across
    /// the page by at least half that gap, so that one global threshold can't separate
    /// ink from paper everywhere. Pale ink on flat paper is left alone: Tesseract reads
    /// it as it is (on sroie-dev, normalizing such pages cost 0.71 -> 0.66 char-F1).
    /// Cheap: one sampled pass over the pixels.
    public func needsContrastNormalization(_ image: RasterImage) -> Bool {
        let levels = Self.levels(image)
        return levels.background >= 128 && levels.contrast >= 12 && levels.contrast < 100
            && levels.unevenness * 2 >= levels.contrast
    }

    /// A gray copy of `image` with its background flattened (uneven fading, yellowing,
    /// shadows) and its contrast stretched so that ink is near black and paper white.
    /// For Tesseract, whose global threshold loses pale text; PP-OCR reads such pages as
    /// they are. Returns the image unchanged (as gray) when Leptonica fails.
    public func contrastNormalized(_ image: RasterImage) -> RasterImage {
        let gray = image.channels == 1 ? image : image.grayscale()
        guard let flat = ImageOps.normalizeBackgroundGray(gray) else { return gray }
        let levels = Self.levels(flat)
        guard levels.contrast >= 8 else { return flat }
        // Ink to black, paper to white. Clipping more of the paper's grain to white read
        // the generated receipt as well but cost Tesseract on real low-resolution scans.
        return ImageOps.stretch(flat, black: levels.ink, white: levels.background) ?? flat
    }

    /// The median height of glyph-like connected components, or nil when the page
    /// has too few of them to tell.
    public static func medianGlyphHeight(_ image: RasterImage) -> Double? {
        let packed = ImageOps.componentHeights(image)
        let maxH = max(8, image.height / 8)
        var heights: [Int] = []
        heights.reserveCapacity(packed.count)
        for p in packed {
            let h = p >> 16, w = p & 0xFFFF
            // Glyph-like: not specks, not rules or pictures.
            if h >= 4 && h <= maxH && w <= 3 * h && w >= 1 { heights.append(h) }
        }
        guard heights.count >= 10 else { return nil }
        heights.sort()
        return Double(heights[heights.count / 2])
    }

    /// The image turned clockwise by `quarterTurns` × 90°.
    public static func rotated(_ image: RasterImage, quarterTurns: Int) -> RasterImage {
        let q = ((quarterTurns % 4) + 4) % 4
        guard q != 0 else { return image }
        let w = image.width, h = image.height, c = image.channels
        let (ow, oh) = q == 2 ? (w, h) : (h, w)
        var out = [UInt8](repeating: 0, count: image.pixels.count)
        image.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<h {
                    for x in 0..<w {
                        let (nx, ny): (Int, Int)
                        switch q {
                        case 1: (nx, ny) = (h - 1 - y, x)
                        case 2: (nx, ny) = (w - 1 - x, h - 1 - y)
                        default: (nx, ny) = (y, w - 1 - x)
                        }
                        let s = (y * w + x) * c, d = (ny * ow + nx) * c
                        for k in 0..<c { dst[d + k] = src[s + k] }
                    }
                }
            }
        }
        return RasterImage(width: ow, height: oh, channels: c, pixels: out)
    }

    /// Whether the page is light ink on a dark ground (a dark-mode screenshot or drawing, a
    /// blackboard), which OCR engines trained on dark print read poorly. The ground must be
    /// dark and the light pixels thin strokes: a white receipt lying on a dark table is
    /// light too, but its light pixels are a solid sheet, most of them with light all around.
    /// Judged on a copy of about 600 px, in one pass.
    public static func isLightOnDark(_ image: RasterImage) -> Bool {
        // Luma read at the sampled pixels only, not over the whole page.
        let step = max(1, max(image.width, image.height) / 600)
        let w = image.width / step, h = image.height / step
        guard w >= 16, h >= 16 else { return false }
        var small = [UInt8](repeating: 0, count: w * h)
        var histogram = [Int](repeating: 0, count: 256)
        for y in 0..<h {
            for x in 0..<w {
                let v = image.luma(at: (y * step) * image.width + x * step)
                small[y * w + x] = v
                histogram[Int(v)] += 1
            }
        }
        func percentile(_ q: Double) -> Int {
            let target = Int(Double(w * h) * q)
            var seen = 0
            for (v, n) in histogram.enumerated() {
                seen += n
                if seen > target { return v }
            }
            return 255
        }
        let ground = percentile(0.5), bright = percentile(0.97)
        guard ground < 110, bright - ground >= 80 else { return false }
        let cut = UInt8((ground + bright) / 2)
        // Light pixels with light at a few pixels' distance on all four sides: a sheet, not a stroke.
        let r = max(3, min(w, h) / 100)
        var light = 0, interior = 0
        for y in r..<(h - r) {
            for x in r..<(w - r) where small[y * w + x] >= cut {
                light += 1
                if small[y * w + x - r] >= cut && small[y * w + x + r] >= cut
                    && small[(y - r) * w + x] >= cut && small[(y + r) * w + x] >= cut { interior += 1 }
            }
        }
        let share = Double(light) / Double(w * h)
        return light > 0 && share < 0.35 && Double(interior) < 0.35 * Double(light)
    }
}
