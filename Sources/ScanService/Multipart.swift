import Foundation

/// `multipart/form-data` (RFC 7578) after the body is on disk: the part named `field` is
/// copied to its own file. The body is read through a memory map, never loaded whole.
enum Multipart {
    struct Part { var url: URL; var size: Int; var head: [UInt8]; var filename: String? }

    enum Failure: Error { case malformed(String), missing }

    /// The boundary of a `multipart/form-data; boundary=...` Content-Type.
    static func boundary(contentType: String) -> String? {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if pair.count == 2, pair[0].lowercased() == "boundary" {
                let value = pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                return value.isEmpty || value.count > 70 ? nil : value
            }
        }
        return nil
    }

    static func extract(field: String, boundary: String, from body: URL, to destination: URL) throws -> Part {
        let data = try Data(contentsOf: body, options: .alwaysMapped)
        let delimiter = Data("--\(boundary)".utf8)
        let crlf = Data("\r\n".utf8)
        guard var cursor = data.range(of: delimiter)?.upperBound else { throw Failure.malformed("no boundary in the body") }
        while true {
            // "--" after a delimiter ends the body.
            if data.count >= cursor + 2, data[cursor] == 0x2D, data[cursor + 1] == 0x2D { throw Failure.missing }
            guard let lineEnd = data.range(of: crlf, in: cursor..<data.count),
                  let headersEnd = data.range(of: Data("\r\n\r\n".utf8), in: lineEnd.lowerBound..<data.count) else {
                throw Failure.malformed("a part without headers")
            }
            let headers = String(decoding: data[lineEnd.upperBound..<headersEnd.lowerBound], as: UTF8.self)
            let contentStart = headersEnd.upperBound
            guard let next = data.range(of: crlf + delimiter, in: contentStart..<data.count) else {
                throw Failure.malformed("a part that does not end")
            }
            let disposition = headers.components(separatedBy: "\r\n")
                .first { $0.lowercased().hasPrefix("content-disposition:") } ?? ""
            if parameter("name", in: disposition) == field {
                let content = data[contentStart..<next.lowerBound]
                guard FileManager.default.createFile(atPath: destination.path, contents: nil),
                      let handle = FileHandle(forWritingAtPath: destination.path) else {
                    throw Failure.malformed("the part could not be stored")
                }
                defer { try? handle.close() }
                try handle.write(contentsOf: content)
                return Part(url: destination, size: content.count, head: Array(content.prefix(1024)),
                            filename: parameter("filename", in: disposition))
            }
            cursor = next.upperBound
        }
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
