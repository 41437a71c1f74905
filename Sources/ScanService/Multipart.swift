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
    /// would cut the name short where it is stored) and at most 255 bytes. Nil when nothing is left. An RFC 8187
    /// `filename*` (`UTF-8''na%C3%AFve.png`, the way to send a name that is not ASCII in a header) wins over
    /// `filename`, as RFC 6266 asks; one that cannot be decoded is passed over.
    static func filename(in disposition: String) -> String? {
        let parameters = parameters(in: disposition)
        let extended = parameters["filename*"].flatMap(extendedValue).flatMap { $0.isEmpty ? nil : $0 }
        guard var name = extended ?? parameters["filename"] else { return nil }
        name = String(name.unicodeScalars.filter { !CharacterSet.controlCharacters.contains($0) })
        name = String(name.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last ?? "").trimmingCharacters(
            in: .whitespaces)
        while name.utf8.count > 255 { name.removeFirst() }
        return name.isEmpty || name == "." || name == ".." ? nil : name
    }

    /// `name="value"` (or unquoted) in a header's parameters.
    static func parameter(_ name: String, in header: String) -> String? {
        parameters(in: header)[name.lowercased()]
    }

    /// A header's parameters after its first value (`form-data; name="file"; filename="a;b.png"`), names lower-cased,
    /// the first of each name kept. A quoted value may hold `;` and `=`, and `\"` or `\\` inside it stands for the
    /// character; any other backslash is kept as it is, since browsers send a Windows path's backslashes unescaped.
    static func parameters(in header: String) -> [String: String] {
        var found: [String: String] = [:]
        var rest = Substring(header)
        // The first value (`form-data`, `attachment`, a media type) ends at the first `;`.
        guard let start = rest.firstIndex(of: ";") else { return found }
        rest = rest[rest.index(after: start)...]
        while !rest.isEmpty {
            rest = rest.drop { $0 == " " || $0 == "\t" || $0 == ";" }
            let nameEnd = rest.firstIndex { $0 == "=" || $0 == ";" } ?? rest.endIndex
            let name = rest[..<nameEnd].trimmingCharacters(in: .whitespaces).lowercased()
            rest = rest[nameEnd...]
            guard rest.first == "=" else { continue }  // a name without a value
            rest = rest.dropFirst().drop { $0 == " " || $0 == "\t" }
            var value = ""
            if rest.first == "\"" {
                rest = rest.dropFirst()
                while let c = rest.first {
                    rest = rest.dropFirst()
                    if c == "\"" { break }
                    if c == "\\", let next = rest.first, next == "\"" || next == "\\" {
                        value.append(next)
                        rest = rest.dropFirst()
                    } else {
                        value.append(c)
                    }
                }
                rest = rest.drop { $0 != ";" }
            } else {
                let end = rest.firstIndex(of: ";") ?? rest.endIndex
                value = rest[..<end].trimmingCharacters(in: .whitespaces)
                rest = rest[end...]
            }
            if !name.isEmpty, found[name] == nil { found[name] = value }
        }
        return found
    }

    /// An RFC 8187 extended value, `charset'language'percent-encoded`, decoded; nil when its charset is neither UTF-8
    /// nor ISO-8859-1, or its bytes are not what the charset says.
    static func extendedValue(_ value: String) -> String? {
        let parts = value.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        var bytes: [UInt8] = []
        var utf8 = parts[2].utf8[...]
        while let byte = utf8.first {
            utf8 = utf8.dropFirst()
            guard byte == UInt8(ascii: "%") else { bytes.append(byte); continue }
            let hex = utf8.prefix(2)
            guard hex.count == 2, hex.allSatisfy({ Character(Unicode.Scalar($0)).isHexDigit }),
                  let decoded = UInt8(String(decoding: hex, as: UTF8.self), radix: 16)
            else { return nil }
            bytes.append(decoded)
            utf8 = utf8.dropFirst(2)
        }
        switch parts[0].lowercased() {
        case "utf-8": return String(validating: bytes, as: UTF8.self)
        case "iso-8859-1": return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
        default: return nil
        }
    }
}
