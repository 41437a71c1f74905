import ScanModel

/// Reads a BMP as far as its data goes: uncompressed, or run-length coded (RLE8, RLE4), which Leptonica does not
/// read at all. Leptonica also refuses a BMP whose pixel data is shorter than its header promises; viewers show the
/// rows that arrived. BMP stores rows bottom up, so a file cut short loses the top of the picture.
enum BMPReader {
    /// A BMP's colour table, as red, green, blue; an index past its end is black.
    struct Palette {
        var colors: [(UInt8, UInt8, UInt8)] = []
        subscript(_ index: Int) -> (UInt8, UInt8, UInt8) { index < colors.count ? colors[index] : (0, 0, 0) }
        var isGray: Bool { !colors.isEmpty && colors.allSatisfy { $0.0 == $0.1 && $0.1 == $0.2 } }
    }

    /// The picture being filled, white until a pixel is set: one gray channel, or three.
    struct Canvas {
        let width: Int, height: Int, channels: Int
        var pixels: [UInt8]
        /// One channel for a gray palette, three for a coloured one or none.
        init(width: Int, height: Int, palette: Palette) {
            (self.width, self.height, channels) = (width, height, palette.isGray ? 1 : 3)
            pixels = [UInt8](repeating: 255, count: width * height * channels)
        }
        mutating func set(_ x: Int, _ y: Int, _ rgb: (UInt8, UInt8, UInt8)) {
            let o = (y * width + x) * channels
            pixels[o] = rgb.0
            if channels == 3 { pixels[o + 1] = rgb.1; pixels[o + 2] = rgb.2 }
        }
        var image: RasterImage { RasterImage(width: width, height: height, channels: channels, pixels: pixels) }
    }

    static func decode(_ d: [UInt8], maxPixels: Int) -> TolerantDecoder.Partial? {
        let le = ImageHeader.le
        guard let dataOffset = le(d, 10, 4), let header = le(d, 14, 4), header == 12 || header >= 40 else { return nil }
        let core = header == 12
        let width: Int, rawHeight: Int, bits: Int, compression: Int
        if core {
            guard let w = le(d, 18, 2), let h = le(d, 20, 2), let b = le(d, 24, 2) else { return nil }
            (width, rawHeight, bits, compression) = (w, h, b, 0)
        } else {
            guard let w = le(d, 18, 4), let h = le(d, 22, 4), let b = le(d, 28, 2), let c = le(d, 30, 4) else {
                return nil
            }
            (width, rawHeight, bits, compression) = (
                Int(Int32(truncatingIfNeeded: w)), Int(Int32(truncatingIfNeeded: h)), b, c
            )
        }
        let height = abs(rawHeight), topDown = rawHeight < 0
        // 0: BI_RGB; 1 and 2: BI_RLE8 and BI_RLE4 (8 and 4 bits, bottom up: a top-down one is no valid BMP, and its
        // runs read as raw rows would be noise); 3: BI_BITFIELDS (16 and 32 bits).
        let runLength = (compression == 1 && bits == 8) || (compression == 2 && bits == 4)
        guard width > 0, height > 0, width <= maxPixels / height, [1, 4, 8, 16, 24, 32].contains(bits),
            !(runLength && topDown),
            compression == 0 || runLength || (compression == 3 && (bits == 16 || bits == 32))
        else { return nil }

        // Colour masks: given after a 40-byte header (or inside a longer one), else the defaults.
        var masks: [Int] = bits == 16 ? [0x7C00, 0x03E0, 0x001F] : [0xFF0000, 0x00FF00, 0x0000FF]
        if compression == 3 {
            guard let r = le(d, 54, 4), let g = le(d, 58, 4), let b = le(d, 62, 4) else { return nil }
            masks = [r, g, b]
        }
        // The palette follows the header (and the masks, for a 40-byte header with bitfields).
        var palette = Palette()
        if bits <= 8 {
            let entry = core ? 3 : 4
            let start = 14 + header + (compression == 3 && header == 40 ? 12 : 0)
            let used = core ? 0 : (le(d, 46, 4) ?? 0)
            let count = used > 0 && used <= 1 << bits ? used : 1 << bits
            for k in 0..<count {
                let o = start + k * entry
                guard o + 3 <= d.count else { break }
                palette.colors.append((d[o + 2], d[o + 1], d[o]))
            }
            guard !palette.colors.isEmpty else { return nil }
        }
        if runLength {
            guard dataOffset < d.count else { return nil }
            return decodeRuns(d[dataOffset...], width: width, height: height, bits: bits, palette: palette)
        }
        let rowBytes = (width * bits + 31) / 32 * 4
        guard dataOffset < d.count else { return nil }
        let rowsPresent = min(height, (d.count - dataOffset) / rowBytes)
        guard rowsPresent > 0 else { return nil }

        func channel(_ v: Int, _ mask: Int) -> UInt8 {
            guard mask != 0 else { return 0 }
            let shift = mask.trailingZeroBitCount, top = (mask >> shift)
            return UInt8(truncatingIfNeeded: ((v & mask) >> shift) * 255 / top)
        }
        var canvas = Canvas(width: width, height: height, palette: palette)
        for r in 0..<rowsPresent {
            let y = topDown ? r : height - 1 - r
            let row = dataOffset + r * rowBytes
            for x in 0..<width {
                let rgb: (UInt8, UInt8, UInt8)
                switch bits {
                case 24: rgb = (d[row + 3 * x + 2], d[row + 3 * x + 1], d[row + 3 * x])
                case 32, 16:
                    let v = le(d, row + x * bits / 8, bits / 8) ?? 0
                    rgb = (channel(v, masks[0]), channel(v, masks[1]), channel(v, masks[2]))
                default:
                    let bit = x * bits
                    let index = Int(d[row + bit / 8] >> UInt8(8 - bits - bit % 8)) & ((1 << bits) - 1)
                    rgb = palette[index]
                }
                canvas.set(x, y, rgb)
            }
        }
        let image = canvas.image
        guard rowsPresent < height else { return .init(image: image, problem: nil) }
        let lost = topDown ? "bottom" : "top"
        return .init(image: image, problem: "the BMP data ends after \(rowsPresent) of \(height) rows; "
                     + "the rest (the picture's \(lost), as this BMP stores its rows) is blank")
    }

    /// Run-length coded pixel data (`BI_RLE8`, `BI_RLE4`): pairs of a count and a palette index (two alternating
    /// indices in RLE4), or after a zero count an escape: 0 ends a row, 1 ends the picture, 2 moves right and up, and
    /// 3 or more copies that many indices as they stand, padded to two bytes. Pixels no run reaches stay white.
    static func decodeRuns(_ d: ArraySlice<UInt8>, width: Int, height: Int, bits: Int,
                           palette: Palette) -> TolerantDecoder.Partial? {
        var canvas = Canvas(width: width, height: height, palette: palette)
        var x = 0, row = 0, i = d.startIndex
        var finished = false
        func put(_ index: Int) {
            guard x < width, row < height else { x += 1; return }
            canvas.set(x, height - 1 - row, palette[index])
            x += 1
        }
        /// The `k`th index packed in `byte`: the byte itself, or its high then low half.
        func index(_ byte: UInt8, _ k: Int) -> Int { bits == 8 ? Int(byte) : Int(k % 2 == 0 ? byte >> 4 : byte & 0x0F) }
        decoding: while i + 1 < d.endIndex, row < height {
            let count = Int(d[i]), value = d[i + 1]
            i += 2
            if count > 0 {
                for k in 0..<count { put(index(value, k)) }
                continue
            }
            switch value {
            case 0: x = 0; row += 1
            case 1: finished = true; break decoding
            case 2:
                guard i + 1 < d.endIndex else { break decoding }
                x += Int(d[i]); row += Int(d[i + 1])
                i += 2
            default:
                let n = Int(value), bytes = bits == 8 ? n : (n + 1) / 2
                guard i + bytes <= d.endIndex else { break decoding }
                for k in 0..<n { put(index(d[i + (bits == 8 ? k : k / 2)], k)) }
                i += bytes + bytes % 2
            }
        }
        // A row counts as arrived once a later one began, or the picture's end was reached.
        let rows = finished ? height : min(height, row)
        guard rows > 0 || x > 0 else { return nil }
        let image = canvas.image
        guard !finished, rows < height else { return .init(image: image, problem: nil) }
        return .init(image: image, problem: "the run-length coded BMP data ends in row \(rows + 1) of \(height); "
                     + "the rest (the picture's top, as BMP stores its rows) is blank")
    }
}
