import CImageCodecs
import ScanModel

/// Decodes JPEG and PNG files (libjpeg, libpng through `CImageCodecs`), damaged ones as far as they go,
/// keeping every row that arrived; rows that never arrived are white. A PNG's transparency is laid on white.
/// HEIF (libheif) decodes whole or not at all.
/// `BMPReader`, `GIFReader` and `WebPReader` do the same for their kinds.
enum TolerantDecoder {
    struct Partial {
        var image: RasterImage
        /// What is wrong, for a `page-damaged` finding; nil when the picture came out whole.
        var problem: String?
    }

    /// What our decoding made of a file.
    enum Outcome {
        case decoded(Partial)
        /// Nothing usable: the reason, with the library's complaint.
        case unreadable(String)
        /// A whole file of a kind this decoder leaves to Leptonica (a CMYK JPEG).
        case unsupported
    }

    static func decode(_ data: [UInt8], kind: InputKind, maxPixels: Int) -> Outcome {
        var out = sx_image()
        let status: Int32 = data.withUnsafeBufferPointer { buf in
            switch kind {
            case .jpeg: return sx_decode_jpeg(buf.baseAddress, buf.count, maxPixels, &out)
            case .png: return sx_decode_png(buf.baseAddress, buf.count, maxPixels, &out)
            case .heif: return sx_decode_heif(buf.baseAddress, buf.count, maxPixels, &out)
            default: return -1
            }
        }
        defer { sx_image_free(&out) }
        let complaint = withUnsafeBytes(of: out.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        let name = kind.displayName, why = complaint.isEmpty ? "" : " (\(complaint.lowercasedFirst))"
        if out.unsupported != 0 { return .unsupported }
        guard status == 0, let pixels = out.pixels, out.width > 0, out.height > 0 else {
            return .unreadable("the \(name) data cannot be decoded\(why)")
        }
        // A baseline JPEG cut before its first row holds nothing but its header.
        if kind == .jpeg, out.progressive == 0, out.truncated != 0 || out.stopped != 0, out.rows_complete == 0 {
            return .unreadable(
                "the \(name) data \(out.truncated != 0 ? "ends" : "is corrupt") before its first row\(why)")
        }
        let count = Int(out.width) * Int(out.height) * Int(out.channels)
        let image = RasterImage(width: Int(out.width), height: Int(out.height), channels: Int(out.channels),
                                pixels: [UInt8](UnsafeBufferPointer(start: pixels, count: count)))
        let problem = kind == .jpeg ? jpegProblem(out, complaint: complaint, image: image, file: data)
                    : kind == .png ? pngProblem(out, complaint: complaint) : nil
        // Rows that never arrived (or came after the data broke off) are already white.
        return .decoded(Partial(image: image, problem: problem))
    }

    /// A HEIF file's displayed size from its container (libheif reads the boxes, decodes nothing), or libheif's
    /// complaint about the container (an item's data past the end of a file cut short, a box that is not whole).
    static func heifSize(_ data: [UInt8]) -> Result<(width: Int, height: Int), HEIFContainerError> {
        var w: Int32 = 0, h: Int32 = 0
        var message = [CChar](repeating: 0, count: 200)
        let status = data.withUnsafeBufferPointer {
            sx_heif_size($0.baseAddress, $0.count, &w, &h, &message, message.count)
        }
        guard status == 0 else {
            return .failure(
                HEIFContainerError(
                    complaint: String(decoding: message.prefix { $0 != 0 }.map(UInt8.init), as: UTF8.self)))
        }
        return .success((Int(w), Int(h)))
    }

    struct HEIFContainerError: Error {
        var complaint: String
    }

    /// Rows are counted as the file stores the picture; a picture shown turned by its EXIF orientation has them as
    /// columns, so the message then also says which side of the picture as shown is lost.
    private static func jpegProblem(_ out: sx_image, complaint: String, image: RasterImage, file: [UInt8]) -> String? {
        guard out.damaged != 0 else { return nil }
        let shown = ExifOrientation.of(jpeg: file) ?? .normal
        let rows = Int(out.rows_complete), height = image.height
        let why = complaint.isEmpty ? "" : " (\(complaint.lowercasedFirst))"
        let stored = shown.quarterTurns == 0 ? "" : " as stored"
        let side = shown.quarterTurns == 0 ? "" : " (the \(shown.sideShowingTheStoredBottom) of the picture as shown)"
        if out.progressive != 0 {
            // A progressive JPEG holds the whole picture at growing quality: keep it all.
            return "the progressive JPEG data is \(out.truncated != 0 ? "cut short" : "corrupt")\(why); "
                    + "the picture may be blurred or partly gray"
        }
        if out.truncated != 0 {
            // After the end of the data libjpeg only repeats flat gray; the C side made it white.
            return "the JPEG data ends after row \(rows) of \(height)\(stored)\(why); the rest is blank\(side)"
        }
        if out.stopped != 0, rows < height {
            // A marker inside the data: later blocks decode as flat gray, made white too.
            return "the JPEG data is corrupt after row \(rows) of \(height)\(stored)\(why); the rest is blank\(side)"
        }
        if rows >= height {
            return "the JPEG data is corrupt after its last row\(why); the picture is whole"
        }
        return "the JPEG data is corrupt from row \(rows) of \(height)\(stored)\(why); the rest may be garbled\(side)"
    }

    private static func pngProblem(_ out: sx_image, complaint: String) -> String? {
        let rows = Int(out.rows_complete), height = Int(out.height)
        guard rows < height else { return nil }
        let what = out.truncated != 0 ? "ends" : "is corrupt"
        let why = complaint.isEmpty ? "" : " (\(complaint.lowercasedFirst))"
        if out.progressive != 0 {
            return "the interlaced PNG data \(what) in pass \(Int(out.passes_complete) + 1) of 7\(why); "
                    + "the picture is incomplete"
        }
        return "the PNG data \(what) after row \(rows) of \(height)\(why); the rest is blank"
    }
}

private extension String {
    var lowercasedFirst: String { prefix(1).lowercased() + dropFirst() }
}
