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
}
