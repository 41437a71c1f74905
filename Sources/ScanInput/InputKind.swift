/// What a file is, decided from its first bytes, never from its name.
public enum InputKind: String, Sendable, CaseIterable {
    case png, jpeg, tiff, webp, bmp, gif
    /// HEIF: a HEIC photo (phones' default) or an AVIF image.
    case heif
    case pdf
    /// A scanextract JSON document (already recognized).
    case json

    /// The name a message gives the format: "PNG", "WebP".
    public var displayName: String { self == .webp ? "WebP" : rawValue.uppercased() }

    public var isImage: Bool {
        switch self {
        case .pdf, .json: return false
        default: return true
        }
    }

    /// Sniffs the content. Returns nil when it is none of the supported kinds.
    public static func sniff<C: Collection>(_ bytes: C) -> InputKind? where C.Element == UInt8 {
        let head = Array(bytes.prefix(1024))
        func starts(_ sig: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + sig.count && Array(head[offset..<(offset + sig.count)]) == sig
        }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return .tiff }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return .webp }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return .gif }
        if starts([0x42, 0x4D]) && head.count >= 26 { return .bmp }
        if isHEIF(head) { return .heif }
        // PDF readers accept the header anywhere in the first KiB.
        let pdfSig = Array("%PDF-".utf8)
        if head.count >= pdfSig.count {
            for i in 0...(head.count - pdfSig.count) where head[i] == 0x25 {
                if Array(head[i..<(i + pdfSig.count)]) == pdfSig { return .pdf }
            }
        }
        // JSON: an object after optional BOM and white space.
        var i = 0
        if starts([0xEF, 0xBB, 0xBF]) { i = 3 }
        while i < head.count, [0x20, 0x09, 0x0A, 0x0D].contains(head[i]) { i += 1 }
        if i < head.count, head[i] == UInt8(ascii: "{") { return .json }
        return nil
    }
}

extension InputKind {
    /// The brands of an ISO media file's `ftyp` box that name a HEIF still image: HEVC-coded (`heic`, `heix`,
    /// and their sequences), AV1-coded (`avif`, `avis`), or the image file format itself (`mif1`, `msf1`).
    static let heifBrands: Set<String> = [
        "heic", "heix", "hevc", "hevx", "heim", "heis", "avif", "avis", "mif1", "msf1"
    ]

    /// Whether `head` opens with an `ftyp` box whose major brand or one of whose compatible brands is a HEIF one.
    static func isHEIF(_ head: [UInt8]) -> Bool {
        guard head.count >= 12, Array(head[4..<8]) == Array("ftyp".utf8) else { return false }
        let boxSize = Int(head[0]) << 24 | Int(head[1]) << 16 | Int(head[2]) << 8 | Int(head[3])
        let end = min(head.count, max(12, boxSize))
        // The major brand at 8, the minor version at 12, then compatible brands to the box's end.
        let offsets = [8] + Array(stride(from: 16, to: end - 3, by: 4))
        return offsets.contains { o in heifBrands.contains(String(decoding: head[o..<(o + 4)], as: UTF8.self)) }
    }

    /// File-name extensions that promise an input scanextract reads, lower-cased.
    public static let knownExtensions: Set<String> = [
        "png", "jpg", "jpeg", "tif", "tiff", "webp", "bmp", "gif", "heic", "heif", "hif", "avif", "pdf", "json"
    ]

    /// What a file named with `fileExtension` should hold ("an image", "a PDF", ...),
    /// or nil when the extension promises nothing we read.
    public static func promise(ofExtension fileExtension: String) -> String? {
        switch fileExtension.lowercased() {
        case "pdf": return "a PDF"
        case "json": return "a scanextract JSON document"
        case let e where knownExtensions.contains(e): return "an image"
        default: return nil
        }
    }

    /// A cheap guess at what unsupported content is, for error messages:
    /// "empty", "text", "HTML", "a ZIP archive"... Nil when it can't be told.
    public static func describeContent<C: Collection>(_ bytes: C) -> String? where C.Element == UInt8 {
        let head = Array(bytes.prefix(1024))
        guard !head.isEmpty else { return "nothing (the file is empty)" }
        func starts(_ sig: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + sig.count && Array(head[offset..<(offset + sig.count)]) == sig
        }
        if starts([0x50, 0x4B, 0x03, 0x04]) || starts([0x50, 0x4B, 0x05, 0x06]) { return "a ZIP archive" }
        if starts([0x1F, 0x8B]) { return "gzip-compressed data" }
        if starts(Array("ftyp".utf8), at: 4) {
            return "a video or ISO media file"
        }
        if starts([0x00, 0x00, 0x00, 0x0C, 0x6A, 0x50]) || starts([0xFF, 0x4F, 0xFF, 0x51]) {
            return "a JPEG 2000 image, which is not supported"
        }
        // Text: valid UTF-8 (the cut at 1 KiB may split a character) without control bytes.
        let textual = head.allSatisfy { $0 >= 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 == 0x0C }
        let decoded = String(decoding: head, as: UTF8.self)
        let replacements = decoded.unicodeScalars.filter { $0 == "\u{FFFD}" }.count
        guard textual, replacements <= 1 else { return "binary data of an unknown kind" }
        let start = decoded.drop { $0.isWhitespace || $0 == "\u{FEFF}" }.prefix(64).lowercased()
        if start.hasPrefix("<!doctype html") || start.hasPrefix("<html") { return "HTML" }
        if start.hasPrefix("<svg") || (start.hasPrefix("<?xml") && decoded.contains("<svg")) {
            return "an SVG drawing, which is not supported"
        }
        if start.hasPrefix("<?xml") { return "XML" }
        if start.hasPrefix("[") { return "JSON, but not a scanextract document" }
        return "text"
    }
}
