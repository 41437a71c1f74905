import Foundation

/// `multipart/form-data` (RFC 7578) headers: the boundary and a header's parameters. The body
/// itself is read by ``MultipartStream`` as it arrives.
enum Multipart {
    /// The boundary of a `multipart/form-data; boundary=...` Content-Type (as sent: boundaries are case-sensitive).
    static func boundary(contentType: String) -> String? {
        guard let value = parameter("boundary", in: contentType), !value.isEmpty, value.count <= 70 else { return nil }
        return value
    }

    /// The file name a `Content-Disposition` gives (a form part's or a whole upload's), as the service names the input:
    /// its last path component (`C:\scans\a.png` and `../a.png` are `a.png`), without control characters (a NUL
    /// would cut the name short where it is stored) and at most 255 bytes. Nil when nothing is left.
    static func filename(in disposition: String) -> String? {
        guard var name = parameter("filename", in: disposition) else { return nil }
        name = String(name.unicodeScalars.filter { !CharacterSet.controlCharacters.contains($0) })
        name = String(name.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last ?? "").trimmingCharacters(
            in: .whitespaces)
        while name.utf8.count > 255 { name.removeFirst() }
        return name.isEmpty || name == "." || name == ".." ? nil : name
    }

    /// `name="value"` (or unquoted) in a header's parameters.
    static func parameter(_ name: String, in header: String) -> String? {
        for piece in header.split(separator: ";").dropFirst() {
            let pair = piece.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if pair.count == 2, pair[0].lowercased() == name {
                return pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            }
        }
        return nil
    }
}
