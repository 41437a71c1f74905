import ScanModel

/// Reads the first picture of a GIF as far as its data goes, on its logical screen (the screen's size, the
/// picture where its descriptor puts it, the rest and the transparent colour white), as viewers show it. Every GIF
/// is read here: Leptonica (through giflib's `DGifSlurp`) refuses a GIF cut short and drops the transparent colour.
enum GIFReader {
    static func decode(_ d: [UInt8], maxPixels: Int) -> TolerantDecoder.Partial? {
        let le = ImageHeader.le
        guard let screenWidth = le(d, 6, 2), let screenHeight = le(d, 8, 2), d.count > 13,
              screenWidth > 0, screenHeight > 0, screenWidth <= maxPixels / screenHeight else { return nil }
        var o = 13
        var palette = d[10] & 0x80 != 0 ? colours(d, at: o, count: 2 << Int(d[10] & 7)) : []
        if d[10] & 0x80 != 0 { o += 3 * (2 << Int(d[10] & 7)) }
        var transparent: Int?
        // Extensions up to the first image descriptor; the transparent index comes from a graphic control block.
        while o < d.count, d[o] == 0x21 {
            guard o + 2 < d.count else { return nil }
            if d[o + 1] == 0xF9, o + 6 < d.count, d[o + 3] & 1 != 0 { transparent = Int(d[o + 6]) }
            o += 2
            while o < d.count, d[o] != 0 { o += Int(d[o]) + 1 }
            o += 1
        }
        guard o + 10 <= d.count, d[o] == 0x2C, let left = le(d, o + 1, 2), let top = le(d, o + 3, 2),
              let width = le(d, o + 5, 2), let height = le(d, o + 7, 2), width > 0, height > 0,
              width <= maxPixels / height else { return nil }
        let flags = d[o + 9]
        o += 10
        if flags & 0x80 != 0 {
            palette = colours(d, at: o, count: 2 << Int(flags & 7))
            o += 3 * (2 << Int(flags & 7))
        }
        guard !palette.isEmpty, o < d.count else { return nil }
        let minCodeSize = Int(d[o])
        guard (2...8).contains(minCodeSize) else { return nil }
        o += 1
        // The sub-blocks that arrived, joined.
        var data: [UInt8] = []
        var ended = false
        while o < d.count {
            let n = Int(d[o])
            if n == 0 { ended = true; break }
            data.append(contentsOf: d[(o + 1)..<min(d.count, o + 1 + n)])
            o += n + 1
        }
        let indices = lzw(data, minCodeSize: minCodeSize, limit: width * height)
        let rowsDone = indices.count / width
        guard rowsDone > 0 else { return nil }

        let gray = palette.allSatisfy { $0.0 == $0.1 && $0.1 == $0.2 }
        let channels = gray ? 1 : 3
        var pixels = [UInt8](repeating: 255, count: screenWidth * screenHeight * channels)
        let rowOrder = flags & 0x40 != 0 ? interlacedRows(height) : Array(0..<height)
        for k in 0..<rowsDone {
            let y = top + rowOrder[k]
            guard y < screenHeight else { continue }
            for x in 0..<width where left + x < screenWidth {
                let index = Int(indices[k * width + x])
                guard index != transparent, index < palette.count else { continue }
                let c = palette[index], p = (y * screenWidth + left + x) * channels
                if gray { pixels[p] = c.0 } else { pixels[p] = c.0; pixels[p + 1] = c.1; pixels[p + 2] = c.2 }
            }
        }
        let image = RasterImage(width: screenWidth, height: screenHeight, channels: channels, pixels: pixels)
        guard rowsDone < height else {
            return .init(
                image: image, problem: ended ? nil : "the GIF file ends after its picture; the picture is whole")
        }
        let which = flags & 0x40 != 0 ? " (interlaced: the picture may be coarse, the rows of later passes are blank)"
                                       : "; the rest is blank"
        return .init(
            image: image,
            problem: "the GIF data \(ended ? "is corrupt" : "ends") after \(rowsDone) of \(height) rows\(which)")
    }

    private static func colours(_ d: [UInt8], at o: Int, count: Int) -> [(UInt8, UInt8, UInt8)] {
        (0..<count).compactMap { k in o + 3 * k + 2 < d.count ? (d[o + 3 * k], d[o + 3 * k + 1], d[o + 3 * k + 2]) : nil
        }
    }

    /// Interlaced rows arrive in four passes: every 8th from 0, every 8th from 4, every 4th from 2, every 2nd from 1.
    static func interlacedRows(_ height: Int) -> [Int] {
        Array(stride(from: 0, to: height, by: 8)) + Array(stride(from: 4, to: height, by: 8))
            + Array(stride(from: 2, to: height, by: 4)) + Array(stride(from: 1, to: height, by: 2))
    }

    /// Variable-length LZW, least significant bit first, as GIF codes it. Stops at the end code, at the end of the
    /// data, at a code that cannot be, or after `limit` indices.
    static func lzw(_ data: [UInt8], minCodeSize: Int, limit: Int) -> [UInt8] {
        let clear = 1 << minCodeSize, end = clear + 1
        var prefix = [Int](repeating: -1, count: 4096), suffix = [UInt8](repeating: 0, count: 4096)
        var first = [UInt8](repeating: 0, count: 4096)
        for k in 0..<clear { suffix[k] = UInt8(truncatingIfNeeded: k); first[k] = UInt8(truncatingIfNeeded: k) }
        var next = clear + 2, size = minCodeSize + 1, previous = -1
        var out: [UInt8] = []
        out.reserveCapacity(limit)
        var stack: [UInt8] = []
        var bitBuffer = 0, bitCount = 0, position = 0
        while out.count < limit {
            while bitCount < size, position < data.count {
                bitBuffer |= Int(data[position]) << bitCount
                bitCount += 8
                position += 1
            }
            guard bitCount >= size else { break }
            let code = bitBuffer & ((1 << size) - 1)
            bitBuffer >>= size
            bitCount -= size
            if code == clear {
                next = clear + 2; size = minCodeSize + 1; previous = -1
                continue
            }
            if code == end { break }
            if previous < 0 {
                guard code < clear else { break }
                out.append(UInt8(truncatingIfNeeded: code))
                previous = code
                continue
            }
            guard code <= next else { break }
            // The new entry is the previous string plus the first index of this one (or of itself, when it is new).
            let head = code < next ? first[code] : first[previous]
            if next < 4096 {
                prefix[next] = previous; suffix[next] = head; first[next] = first[previous]
                next += 1
                if next == 1 << size, size < 12 { size += 1 }
            }
            var c = code
            stack.removeAll(keepingCapacity: true)
            while c >= 0 {
                stack.append(suffix[c])
                c = prefix[c]
            }
            out.append(contentsOf: stack.reversed().prefix(limit - out.count))
            previous = code
        }
        return out
    }
}
