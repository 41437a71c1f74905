import CLeptonica
import ScanModel

/// Decodes PNG, JPEG, TIFF (every page), WebP, BMP and GIF through Leptonica.
enum ImageDecoder {
    /// Reads width and height from the header, without decoding pixels.
    static func dimensions(of data: [UInt8]) -> (width: Int, height: Int)? {
        _ = Pix.quietOnce
        var format: Int32 = 0, w: Int32 = 0, h: Int32 = 0, bps: Int32 = 0, spp: Int32 = 0, cmap: Int32 = 0
        let ok = data.withUnsafeBufferPointer { buf in
            pixReadHeaderMem(buf.baseAddress, buf.count, &format, &w, &h, &bps, &spp, &cmap)
        }
        guard ok == 0, w > 0, h > 0 else { return nil }
        return (Int(w), Int(h))
    }

    /// Number of pages: 1 except for multi-page TIFF.
    static func pageCount(of data: [UInt8], kind: InputKind) -> Int {
        guard kind == .tiff else { return 1 }
        // Leptonica has no in-memory page counter; walk the IFD chain ourselves.
        return TIFFDirectoryCounter.count(data) ?? 1
    }

    /// Whether a TIFF's chain of pages points past the end of the file: a file cut short, whose later pages are lost.
    static func pagesCutShort(_ data: [UInt8], kind: InputKind) -> Bool {
        kind == .tiff && TIFFDirectoryCounter.walk(data).cutShort
    }

    /// Decodes one page. A JPEG or PNG that Leptonica refuses is decoded again as far
    /// as it goes, as image viewers show it, and comes with a `page-damaged` finding.
    /// Throws `corrupt` when nothing usable decodes.
    static func decode(_ data: [UInt8], kind: InputKind, page: Int,
                       maxPixels: Int = .max) throws -> (image: RasterImage, findings: [Finding]) {
        _ = Pix.quietOnce
        func damaged(_ partial: TolerantDecoder.Partial) -> (RasterImage, [Finding]) {
            (partial.image, partial.problem.map { [Finding(code: "page-damaged", message: $0, page: page)] } ?? [])
        }
        // JPEG: the same libjpeg decoding as Leptonica's, without its messages on stderr;
        // Leptonica is the fallback for what ours doesn't read (CMYK).
        if kind == .jpeg, let partial = TolerantDecoder.decode(data, kind: kind, maxPixels: maxPixels) {
            return damaged(partial)
        }
        let pix: Pix? = data.withUnsafeBufferPointer { buf in
            if kind == .tiff {
                return Pix.wrap(pixReadMemTiff(buf.baseAddress, buf.count, Int32(page)))
            }
            return Pix.wrap(pixReadMem(buf.baseAddress, buf.count))
        }
        guard let pix else {
            // PNG: Leptonica's reader refuses a file cut short; ours keeps the rows that arrived.
            if kind == .png, let partial = TolerantDecoder.decode(data, kind: kind, maxPixels: maxPixels) {
                return damaged(partial)
            }
            throw ScanError(.corrupt, page: page, "the \(kind.rawValue.uppercased()) data could not be decoded")
        }
        guard pix.width > 0, pix.height > 0, let image = pix.rasterImage() else {
            throw ScanError(.emptyPage, page: page, "the image has no pixels")
        }
        return (image, [])
    }
}

/// Counts the image file directories of a TIFF (classic and BigTIFF).
enum TIFFDirectoryCounter {
    static func count(_ d: [UInt8]) -> Int? {
        let n = walk(d).pages
        return n > 0 ? n : nil
    }

    /// The pages whose directories are in the file, and whether the chain goes on past its end.
    static func walk(_ d: [UInt8]) -> (pages: Int, cutShort: Bool) {
        guard d.count >= 8 else { return (0, false) }
        let little = d[0] == 0x49
        func u16(_ o: Int) -> Int? {
            guard o >= 0, o + 2 <= d.count else { return nil }
            return little ? Int(d[o]) | Int(d[o + 1]) << 8 : Int(d[o]) << 8 | Int(d[o + 1])
        }
        func u(_ o: Int, _ n: Int) -> Int? {
            guard o >= 0, o + n <= d.count else { return nil }
            var v = 0
            for k in 0..<n { v |= Int(d[o + (little ? k : n - 1 - k)]) << (8 * k) }
            return v
        }
        guard let magic = u16(2) else { return (0, false) }
        let big = magic == 43
        var offset = big ? u(8, 8) : u(4, 4)
        var n = 0
        var seen = Set<Int>()
        while let o = offset, o != 0, !seen.contains(o), n < 10_000 {
            seen.insert(o)
            guard let entries = big ? u(o, 8) : u16(o) else { return (n, o >= d.count) }
            n += 1
            offset = big ? u(o + 8 + entries * 20, 8) : u(o + 2 + entries * 12, 4)
            if offset == nil { return (n, true) }
        }
        return (n, false)
    }
}
