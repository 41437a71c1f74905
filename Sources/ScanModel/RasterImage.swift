/// An 8-bit raster in memory, row-major, top-left origin, tightly packed.
/// `channels` is 1 (gray) or 3 (RGB). This is the currency between decoding,
/// preprocessing and recognition, so no stage depends on another's C types.
public struct RasterImage: Sendable, Hashable {
    public let width: Int
    public let height: Int
    public let channels: Int
    public var pixels: [UInt8]

    public init(width: Int, height: Int, channels: Int, pixels: [UInt8]) {
        precondition(channels == 1 || channels == 3, "channels must be 1 or 3")
        precondition(pixels.count == width * height * channels, "pixel buffer size mismatch")
        self.width = width
        self.height = height
        self.channels = channels
        self.pixels = pixels
    }

    /// A blank image filled with `value`.
    public init(width: Int, height: Int, channels: Int, filledWith value: UInt8 = 255) {
        self.init(width: width, height: height, channels: channels,
                  pixels: [UInt8](repeating: value, count: width * height * channels))
    }

    public var bytesPerRow: Int { width * channels }

    /// A gray version (luma, ITU-R BT.601 weights); itself when already gray.
    public func grayscale() -> RasterImage {
        if channels == 1 { return self }
        var out = [UInt8](repeating: 0, count: width * height)
        pixels.withUnsafeBufferPointer { src in
            for i in 0..<(width * height) {
                let r = Int(src[3 * i]), g = Int(src[3 * i + 1]), b = Int(src[3 * i + 2])
                out[i] = UInt8((299 * r + 587 * g + 114 * b + 500) / 1000)
            }
        }
        return RasterImage(width: width, height: height, channels: 1, pixels: out)
    }

    /// The luma of the pixel at index `i` (row-major), the value `grayscale()` gives it.
    @inline(__always)
    public func luma(at i: Int) -> UInt8 {
        if channels == 1 { return pixels[i] }
        let o = 3 * i
        let r: Int = 299 * Int(pixels[o]), g: Int = 587 * Int(pixels[o + 1]), b: Int = 114 * Int(pixels[o + 2])
        return UInt8((r + g + b + 500) / 1000)
    }

    /// Every value v turned into 255 − v: light ink on a dark ground becomes dark on light.
    public func inverted() -> RasterImage {
        RasterImage(width: width, height: height, channels: channels, pixels: pixels.map { 255 &- $0 })
    }

    /// The pixels inside `rect` (clamped to the image), or nil when nothing is left.
    public func cropped(x: Int, y: Int, width w: Int, height h: Int) -> RasterImage? {
        let x0 = max(0, x), y0 = max(0, y)
        let x1 = min(width, x + w), y1 = min(height, y + h)
        guard x1 > x0, y1 > y0 else { return nil }
        let cw = x1 - x0, ch = y1 - y0
        var out = [UInt8](repeating: 0, count: cw * ch * channels)
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for row in 0..<ch {
                    let s = ((y0 + row) * width + x0) * channels
                    let d = row * cw * channels
                    for k in 0..<(cw * channels) { dst[d + k] = src[s + k] }
                }
            }
        }
        return RasterImage(width: cw, height: ch, channels: channels, pixels: out)
    }
}
