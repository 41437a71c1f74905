/// What a file is, decided from its first bytes, never from its name.
public enum InputKind: String, Sendable, CaseIterable {
    case png, jpeg, tiff, webp, bmp, gif, pdf
    /// A scanextract JSON document (already recognized).
    case json

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
