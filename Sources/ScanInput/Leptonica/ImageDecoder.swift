import CLeptonica
import ScanModel

/// Decodes PNG, JPEG, TIFF (every page), WebP, BMP, GIF and HEIF: JPEG, PNG, GIF and HEIF by our own decoding
/// (`TolerantDecoder`, `GIFReader`), the others through Leptonica, with our readers for the damaged files it refuses.
enum ImageDecoder {
    /// Reads width and height from the header, without decoding pixels: our own reading for every kind but TIFF
    /// and HEIF, so a file cut short after its header still has a size and no library prints about it. HEIF's
    /// boxes are read by libheif, which needs the items' data in the file.
    static func dimensions(of data: [UInt8], kind: InputKind) -> (width: Int, height: Int)? {
        if kind == .heif { return try? TolerantDecoder.heifSize(data).get() }
        if kind != .tiff { return ImageHeader.dimensions(data, kind: kind) }
        _ = Pix.quietOnce
        var format: Int32 = 0, w: Int32 = 0, h: Int32 = 0, bps: Int32 = 0, spp: Int32 = 0, cmap: Int32 = 0
        let ok = data.withUnsafeBufferPointer { buf in
            pixReadHeaderMem(buf.baseAddress, buf.count, &format, &w, &h, &bps, &spp, &cmap)
        }
        guard ok == 0, w > 0, h > 0 else { return nil }
        return (Int(w), Int(h))
    }

    /// The rows of a TIFF page from `row` on, which never arrived, made white like the other decoders' missing
    /// rows (libtiff fills them with rows it decoded before). Returns `row`, or nil when it is past the bottom.
    static func blankLostRows(_ image: inout RasterImage, from row: Int) -> Int? {
        guard row >= 0, row < image.height else { return nil }
        let start = row * image.width * image.channels
        image.pixels.withUnsafeMutableBufferPointer { p in
            for i in start..<p.count { p[i] = 255 }
        }
        return row
    }

    /// Decodes one page. A damaged file is decoded as far as it goes, as image viewers show it, and comes with a
    /// `page-damaged` finding: JPEG and PNG always through our libjpeg and libpng decoding (Leptonica's is the
    /// same, but prints to stderr and gives up on damage); a BMP or WebP that Leptonica refuses through our
    /// readers; every GIF through ours. Transparent pixels are laid on white, as viewers show them.
    /// Throws `corrupt`, with the reason, when nothing usable decodes. A JPEG is turned and mirrored as its EXIF
    /// orientation says (`ExifOrientation`), so a phone's portrait photo comes out upright, as viewers show it.
    static func decode(_ data: [UInt8], kind: InputKind, page: Int,
                       maxPixels: Int = .max) throws -> (image: RasterImage, findings: [Finding]) {
        let (image, findings) = try decodeStored(data, kind: kind, page: page, maxPixels: maxPixels)
        guard kind == .jpeg, let orientation = ExifOrientation.of(jpeg: data) else { return (image, findings) }
        return (orientation.displayed(image), findings)
    }

    /// The picture as its file stores it.
    private static func decodeStored(_ data: [UInt8], kind: InputKind, page: Int,
                                     maxPixels: Int) throws -> (image: RasterImage, findings: [Finding]) {
        _ = Pix.quietOnce
        func damaged(_ partial: TolerantDecoder.Partial) -> (RasterImage, [Finding]) {
            (partial.image, partial.problem.map { [Finding(code: "page-damaged", message: $0, page: page)] } ?? [])
        }
        func ours() throws -> (RasterImage, [Finding])? {
            switch TolerantDecoder.decode(data, kind: kind, maxPixels: maxPixels) {
            case .decoded(let partial): return damaged(partial)
            case .unreadable(let reason): throw ScanError(.corrupt, page: page, reason)
            case .unsupported: return nil
            }
        }
        // Leptonica is the fallback for the JPEGs ours doesn't read (CMYK).
        if kind == .jpeg || kind == .png || kind == .heif, let result = try ours() { return result }
        // Leptonica's GIF reading drops the transparent colour, which often holds black: ours lays it on white.
        if kind == .gif, let partial = GIFReader.decode(data, maxPixels: maxPixels) { return damaged(partial) }
        let pix: Pix? = data.withUnsafeBufferPointer { buf in
            if kind == .tiff {
                return Pix.wrap(pixReadMemTiff(buf.baseAddress, buf.count, Int32(page)))
            }
            return Pix.wrap(pixReadMem(buf.baseAddress, buf.count))
        }
        guard let pix else {
            let partial: TolerantDecoder.Partial?
            switch kind {
            case .bmp: partial = BMPReader.decode(data, maxPixels: maxPixels)
            case .webp: partial = WebPReader.decode(data, maxPixels: maxPixels)
            default: partial = nil
            }
            if let partial { return damaged(partial) }
            let reason = kind == .tiff || kind == .jpeg ? "" : " (damaged, or cut short before its first row)"
            throw ScanError(.corrupt, page: page, "the \(kind.displayName) data could not be decoded\(reason)")
        }
        guard pix.width > 0, pix.height > 0, let image = pix.rasterImage() else {
            throw ScanError(.emptyPage, page: page, "the image has no pixels")
        }
        return (image, [])
    }
}

/// Counts the image file directories of a TIFF (classic and BigTIFF).
enum TIFFDirectoryCounter {
    /// The pages whose directories are in the file, whether the chain goes on past its end, the pages
    /// whose strips or tiles reach past it (libtiff leaves those parts black or fails, and Leptonica says
    /// nothing), each with the first row lost when the page is in strips, and each page's width times height as its
    /// directory says (checked against the pixel limit before the page is decoded: only the first page's header is
    /// read before).
    static func walk(_ d: [UInt8]) -> (pages: Int, cutShort: Bool, pagesWithDataCut: [Int: Int?], pixels: [Int: Int]) {
        guard d.count >= 8 else { return (0, false, [:], [:]) }
        let little = d[0] == 0x49
        func u(_ o: Int, _ n: Int) -> Int? { little ? ImageHeader.le(d, o, n) : ImageHeader.be(d, o, n) }
        guard let magic = u(2, 2) else { return (0, false, [:], [:]) }
        let big = magic == 43
        let countSize = big ? 8 : 2, entrySize = big ? 20 : 12, valueSize = big ? 8 : 4
        var offset = big ? u(8, 8) : u(4, 4)
        var n = 0
        var seen = Set<Int>(), cut: [Int: Int?] = [:], pixels: [Int: Int] = [:]
        while let o = offset, o != 0, !seen.contains(o), n < 10_000 {
            seen.insert(o)
            guard let entries = u(o, countSize) else { return (n, o >= d.count, cut, pixels) }
            // The values of one entry: inline when they fit, else at the offset the entry holds.
            func values(_ entry: Int) -> [Int]? {
                guard let type = u(entry + 2, 2), let count = u(entry + 4, big ? 8 : 4), count < 1 << 24 else {
                    return nil
                }
                let size: Int
                switch type {
                case 3: size = 2
                case 4: size = 4
                case 16: size = 8
                default: return nil
                }
                let start =
                    count * size <= valueSize ? entry + 4 + (big ? 8 : 4) : u(entry + 4 + (big ? 8 : 4), valueSize)
                guard let start else { return nil }
                var out: [Int] = []
                for k in 0..<count {
                    guard let v = u(start + k * size, size) else { return nil }
                    out.append(v)
                }
                return out
            }
            var starts: [Int]?, lengths: [Int]?, lost = false, strips = false, rowsPerStrip = Int.max
            var width = 0, height = 0, bits = 0, samples = 1, compression = 1, planar = 1
            for k in 0..<min(entries, 4096) {
                let entry = o + countSize + k * entrySize
                guard let tag = u(entry, 2) else { lost = true; break }
                switch tag {
                case 273, 324: starts = values(entry); strips = tag == 273; if starts == nil { lost = true }
                case 278: rowsPerStrip = values(entry)?.first ?? rowsPerStrip
                case 256: width = values(entry)?.first ?? 0
                case 257: height = values(entry)?.first ?? 0
                case 258: bits = values(entry)?.first ?? 0
                case 259: compression = values(entry)?.first ?? 0
                case 277: samples = values(entry)?.first ?? 1
                case 284: planar = values(entry)?.first ?? 1
                case 279, 325: lengths = values(entry); if lengths == nil { lost = true }
                default: break
                }
            }
            var firstLostRow: Int?
            if let starts, let lengths,
                let k = starts.indices.first(where: { k in k >= lengths.count || starts[k] + lengths[k] > d.count })
            {
                lost = true
                // One plane of strips: strip k holds rows k × rowsPerStrip and on. Of an uncompressed strip the
                // whole rows that arrived are read; a compressed one is lost whole. (libtiff fills what is lost
                // with rows it decoded before.)
                let (row, overflow) = k.multipliedReportingOverflow(by: rowsPerStrip)
                if strips, planar == 1, starts.count == lengths.count, !overflow, rowsPerStrip > 0 {
                    let rowBytes = (width * samples * bits + 7) / 8
                    let arrived = compression == 1 && rowBytes > 0 ? max(0, d.count - starts[k]) / rowBytes : 0
                    firstLostRow = row + min(arrived, rowsPerStrip)
                }
            }
            if lost { cut[n] = firstLostRow }
            let (area, overflow) = width.multipliedReportingOverflow(by: height)
            pixels[n] = overflow ? .max : area
            n += 1
            offset = u(o + countSize + entries * entrySize, valueSize)
            if offset == nil { return (n, true, cut, pixels) }
        }
        return (n, false, cut, pixels)
    }
}
