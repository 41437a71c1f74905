import CLeptonica
import Foundation
import ScanModel

/// Owns one Leptonica `PIX`. Internal: the rest of the project sees `RasterImage`.
final class Pix {
    private(set) var handle: UnsafeMutablePointer<PIX>

    init(taking handle: UnsafeMutablePointer<PIX>) {
        self.handle = handle
    }

    deinit {
        var p: UnsafeMutablePointer<PIX>? = handle
        pixDestroy(&p)
    }

    /// Leptonica prints its errors to stderr, and other complaints through its stderr handler ("Bad file: amount too
    /// big" from its TIFF reader), without the file's name; so does libtiff under it. All are turned off (libtiff's
    /// through the library already loaded with Leptonica, no libtiff headers needed): our errors and `page-damaged`
    /// findings name the file.
    static let quietOnce: Void = {
        _ = setMsgSeverity(Int32(L_SEVERITY_NONE))
        leptSetStderrHandler { _ in }
        typealias SetHandler = @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer?
        for name in ["TIFFSetWarningHandler", "TIFFSetErrorHandler"] {
            if let symbol = dlsym(nil, name) { _ = unsafeBitCast(symbol, to: SetHandler.self)(nil) }
        }
    }()

    var width: Int { Int(pixGetWidth(handle)) }
    var height: Int { Int(pixGetHeight(handle)) }
    var depth: Int { Int(pixGetDepth(handle)) }

    /// Wraps the result of a Leptonica call that returns a new PIX, or nil on failure.
    static func wrap(_ p: UnsafeMutablePointer<PIX>?) -> Pix? {
        p.map(Pix.init(taking:))
    }

    /// Copies a `RasterImage` into a new 8 bpp (gray) or 32 bpp (RGB) PIX.
    convenience init?(_ image: RasterImage) {
        _ = Pix.quietOnce
        let d: Int32 = image.channels == 1 ? 8 : 32
        guard let p = pixCreate(Int32(image.width), Int32(image.height), d) else { return nil }
        self.init(taking: p)
        let wpl = Int(pixGetWpl(handle))
        guard let data = pixGetData(handle) else { return nil }
        let w = image.width
        image.pixels.withUnsafeBufferPointer { src in
            for y in 0..<image.height {
                let line = data + y * wpl
                if image.channels == 1 {
                    // Leptonica packs bytes big-endian within each 32-bit word.
                    var x = 0
                    let row = y * w
                    while x < w {
                        var word: UInt32 = 0
                        for k in 0..<4 {
                            let v: UInt32 = x + k < w ? UInt32(src[row + x + k]) : 0
                            word |= v << UInt32(24 - 8 * k)
                        }
                        line[x >> 2] = word
                        x += 4
                    }
                } else {
                    let row = y * w * 3
                    for x in 0..<w {
                        let r = UInt32(src[row + 3 * x]), g = UInt32(src[row + 3 * x + 1]),
                            b = UInt32(src[row + 3 * x + 2])
                        line[x] = (r << 24) | (g << 16) | (b << 8) | 0xFF
                    }
                }
            }
        }
    }

    /// Whether a 32-bit picture's alpha sample is above 0 somewhere: all 0 is a fourth sample no writer filled in
    /// (an RGB TIFF's unspecified extra sample), which viewers leave out, and so does `rasterImage`.
    var hasAlpha: Bool {
        guard let data = pixGetData(handle) else { return false }
        let wpl = Int(pixGetWpl(handle))
        for y in 0..<height {
            let line = data + y * wpl
            for x in 0..<width where line[x] & 0xFF != 0 { return true }
        }
        return false
    }

    /// Copies the pixels out as gray (1 channel) or RGB (3 channels).
    /// Colormapped and low-depth images are converted first.
    func rasterImage() -> RasterImage? {
        var pix = self
        if pixGetColormap(handle) != nil {
            guard let p = Pix.wrap(pixRemoveColormap(handle, Int32(REMOVE_CMAP_BASED_ON_SRC))) else { return nil }
            pix = p
        }
        // A picture with alpha (WebP, TIFF) is laid on white, as viewers show it: transparent pixels often hold
        // black, which would hide dark text. (libtiff gives associated alpha as it is, so a half-transparent
        // pixel of such a TIFF comes out a little darker than a viewer shows it.)
        if pix.depth == 32, pixGetSpp(pix.handle) == 4, pix.hasAlpha {
            guard let p = Pix.wrap(pixAlphaBlendUniform(pix.handle, 0xFFFF_FF00)) else { return nil }
            pix = p
        }
        if pix.depth != 8 && pix.depth != 32 {
            guard let p = Pix.wrap(pixConvertTo8(pix.handle, 0)) else { return nil }
            pix = p
        }
        let w = pix.width, h = pix.height
        let wpl = Int(pixGetWpl(pix.handle))
        guard w > 0, h > 0, let data = pixGetData(pix.handle) else { return nil }
        if pix.depth == 8 {
            var out = [UInt8](repeating: 0, count: w * h)
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<h {
                    let line = data + y * wpl
                    for x in 0..<w {
                        dst[y * w + x] = UInt8(truncatingIfNeeded: line[x >> 2] >> UInt32(24 - 8 * (x & 3)))
                    }
                }
            }
            return RasterImage(width: w, height: h, channels: 1, pixels: out)
        }
        var out = [UInt8](repeating: 0, count: w * h * 3)
        out.withUnsafeMutableBufferPointer { dst in
            for y in 0..<h {
                let line = data + y * wpl
                for x in 0..<w {
                    let v = line[x]
                    let o = (y * w + x) * 3
                    dst[o] = UInt8(truncatingIfNeeded: v >> 24)
                    dst[o + 1] = UInt8(truncatingIfNeeded: v >> 16)
                    dst[o + 2] = UInt8(truncatingIfNeeded: v >> 8)
                }
            }
        }
        return RasterImage(width: w, height: h, channels: 3, pixels: out)
    }
}
