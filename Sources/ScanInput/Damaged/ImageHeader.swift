/// Reads an image's size from its header, without decoding pixels and without any library, so a file cut
/// short after its header still has a size (for the pixel limit) and no library prints to stderr about it.
/// TIFF is left to libtiff, whose directories can sit anywhere in the file.
enum ImageHeader {
    static func dimensions(_ d: [UInt8], kind: InputKind) -> (width: Int, height: Int)? {
        let size: (Int, Int)?
        switch kind {
        case .png: size = png(d)
        case .jpeg: size = jpeg(d)
        case .gif: size = gif(d)
        case .bmp: size = bmp(d)
        case .webp: size = webp(d)
        default: size = nil
        }
        guard let (w, h) = size, w > 0, h > 0 else { return nil }
        return (w, h)
    }

    static func le(_ d: [UInt8], _ o: Int, _ n: Int) -> Int? {
        guard o >= 0, n <= d.count, o <= d.count - n else { return nil }   // (no overflow for a hostile offset)
        var v = 0
        for k in 0..<n { v |= Int(d[o + k]) << (8 * k) }
        return v
    }

    static func be(_ d: [UInt8], _ o: Int, _ n: Int) -> Int? {
        guard o >= 0, n <= d.count, o <= d.count - n else { return nil }   // (no overflow for a hostile offset)
        var v = 0
        for k in 0..<n { v = v << 8 | Int(d[o + k]) }
        return v
    }

    /// The first chunk must be IHDR: width and height, 4 bytes each, big-endian.
    private static func png(_ d: [UInt8]) -> (Int, Int)? {
        guard d.count >= 24, Array(d[12..<16]) == Array("IHDR".utf8), let w = be(d, 16, 4), let h = be(d, 20, 4) else {
            return nil
        }
        return (w, h)
    }

    /// Walks the markers up to the first start-of-frame (SOF0–SOF15 but DHT, JPG and DAC).
    private static func jpeg(_ d: [UInt8]) -> (Int, Int)? {
        var o = 2
        while o + 1 < d.count {
            guard d[o] == 0xFF else { return nil }
            let marker = d[o + 1]
            if marker == 0xFF { o += 1; continue }                       // fill byte
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { o += 2; continue }  // no length
            guard marker != 0xDA, marker != 0xD9, let length = be(d, o + 2, 2), length >= 2 else { return nil }
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                guard let h = be(d, o + 5, 2), let w = be(d, o + 7, 2) else { return nil }
                return (w, h)
            }
            o += 2 + length
        }
        return nil
    }

    /// The logical screen.
    private static func gif(_ d: [UInt8]) -> (Int, Int)? {
        guard let w = le(d, 6, 2), let h = le(d, 8, 2) else { return nil }
        return (w, h)
    }

    /// BITMAPCOREHEADER (12 bytes, 16-bit sizes) or a later info header (signed 32-bit; a negative height is top-down).
    private static func bmp(_ d: [UInt8]) -> (Int, Int)? {
        guard let header = le(d, 14, 4) else { return nil }
        if header == 12 {
            guard let w = le(d, 18, 2), let h = le(d, 20, 2) else { return nil }
            return (w, h)
        }
        guard header >= 40, let w = le(d, 18, 4), let h = le(d, 22, 4) else { return nil }
        return (Int(Int32(truncatingIfNeeded: w)), abs(Int(Int32(truncatingIfNeeded: h))))
    }

    /// VP8 (lossy), VP8L (lossless) or VP8X (extended: the canvas).
    private static func webp(_ d: [UInt8]) -> (Int, Int)? {
        guard d.count >= 30 else { return nil }
        switch String(decoding: d[12..<16], as: UTF8.self) {
        case "VP8 ":
            guard d[23] == 0x9D, d[24] == 0x01, d[25] == 0x2A, let w = le(d, 26, 2), let h = le(d, 28, 2) else {
                return nil
            }
            return (w & 0x3FFF, h & 0x3FFF)
        case "VP8L":
            guard d[20] == 0x2F, let bits = le(d, 21, 4) else { return nil }
            return ((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
        case "VP8X":
            guard let w = le(d, 24, 3), let h = le(d, 27, 3) else { return nil }
            return (w + 1, h + 1)
        default:
            return nil
        }
    }
}
