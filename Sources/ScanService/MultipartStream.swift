import Foundation
import Hummingbird
import NIOCore

#if canImport(Glibc)
import Glibc
#endif

/// `multipart/form-data` (RFC 7578) read as it arrives: every part named `field` is written
/// to its own file while the body streams in, and the limits (bytes a file, bytes in all,
/// number of files) are checked on the bytes received so far, so an upload over a limit is
/// refused before the rest of it is read. Other parts (form fields) are read and dropped.
/// Only the few bytes that may hold a boundary are kept in memory.
struct MultipartStream {
    struct Limits {
        /// Bytes one file part may hold.
        var perFile: Int
        /// Bytes the whole body may hold (delimiters and headers included).
        var total: Int
        /// File parts the body may hold.
        var files: Int
    }

    struct File {
        var url: URL
        var size: Int
        var head: [UInt8]
        /// The `filename` the form gave (its last path component), if any.
        var filename: String?
    }

    enum Failure: Error {
        case malformed(String)
        /// File number `index` (from 0), named `filename`, is over `Limits.perFile`.
        case fileTooLarge(index: Int, filename: String?)
        case totalTooLarge
        case tooManyFiles
    }

    let field: String
    let limits: Limits
    let newFileURL: () -> URL

    /// Reads the whole body; the files written, in order. On any error, every file written is removed.
    func receive<Body: AsyncSequence>(_ body: Body, boundary: String) async throws -> [File]
    where Body.Element == ByteBuffer {
        var parser = Parser(boundary: boundary, field: field, limits: limits, newFileURL: newFileURL)
        do {
            var received = 0
            for try await buffer in body {
                received += buffer.readableBytes
                if received > limits.total { throw Failure.totalTooLarge }
                try parser.feed(buffer.readableBytesView)
            }
            try parser.finish()
        } catch {
            parser.discardAll()
            throw error
        }
        return parser.files
    }

    /// The state machine over the bytes; `pending[start...]` holds what is not read yet. Read bytes
    /// are dropped from the front once for each chunk fed, not once for each part, so a chunk of
    /// many small parts is not copied again for every part.
    struct Parser {
        enum State { case preamble, afterDelimiter, headers, content, epilogue }

        let field: String
        let limits: Limits
        let newFileURL: () -> URL
        /// `--boundary`, and `CRLF--boundary` (what ends a part's content).
        let delimiter: [UInt8]
        let closing: [UInt8]
        var state = State.preamble
        var pending: [UInt8] = []
        var start = 0
        var files: [File] = []
        /// The file part being written (nil while reading a part to drop).
        var current: (handle: FileHandle, file: File)?
        var partSize = 0

        init(boundary: String, field: String, limits: Limits, newFileURL: @escaping () -> URL) {
            self.field = field
            self.limits = limits
            self.newFileURL = newFileURL
            delimiter = Array("--\(boundary)".utf8)
            closing = Array("\r\n--\(boundary)".utf8)
        }

        mutating func feed<Bytes: Collection>(_ bytes: Bytes) throws where Bytes.Element == UInt8 {
            if start > 0 {
                pending.removeFirst(start)
                start = 0
            }
            pending.append(contentsOf: bytes)
            while try step() {}
        }

        /// The blank line that ends a part's headers.
        static let headersEnd = Array("\r\n\r\n".utf8)

        /// Bytes not read yet.
        var unread: Int { pending.count - start }
        /// The unread byte `i` places on.
        func byte(_ i: Int) -> UInt8 { pending[start + i] }
        /// Marks `count` more bytes as read.
        mutating func consume(_ count: Int) { start += count }
        /// Where `needle` first occurs in the unread bytes.
        func findUnread(_ needle: [UInt8]) -> Int? { Self.find(needle, in: pending, from: start).map { $0 - start } }

        /// Advances as far as the bytes pending allow; false when more bytes are needed.
        mutating func step() throws -> Bool {
            switch state {
            case .preamble:
                guard let at = findUnread(delimiter) else {
                    // Text before the first delimiter is ignored (RFC 2046); keep what may start one.
                    if unread > delimiter.count { consume(unread - delimiter.count) }
                    return false
                }
                consume(at + delimiter.count)
                state = .afterDelimiter
                return true
            case .afterDelimiter:
                guard unread >= 2 else { return false }
                if byte(0) == UInt8(ascii: "-") && byte(1) == UInt8(ascii: "-") {
                    state = .epilogue
                    consume(unread)
                    return false
                }
                // Transport padding (spaces, tabs) may follow a delimiter before its CRLF.
                var skip = 0
                while skip < unread, byte(skip) == UInt8(ascii: " ") || byte(skip) == UInt8(ascii: "\t") {
                    skip += 1
                }
                guard unread >= skip + 2 else { return false }
                guard byte(skip) == UInt8(ascii: "\r") && byte(skip + 1) == UInt8(ascii: "\n") else {
                    throw Failure.malformed("a boundary is not followed by a line break")
                }
                consume(skip + 2)
                state = .headers
                return true
            case .headers:
                let end: (at: Int, length: Int)
                if unread >= 2 && byte(0) == UInt8(ascii: "\r") && byte(1) == UInt8(ascii: "\n") {
                    end = (0, 2)  // a part without headers
                } else if let at = findUnread(Self.headersEnd) {
                    end = (at, 4)
                } else {
                    if unread > 16 * 1024 { throw Failure.malformed("a part's headers are longer than 16 KB") }
                    return false
                }
                let headers = String(decoding: pending[start..<(start + end.at)], as: UTF8.self)
                consume(end.at + end.length)
                try begin(headers: headers)
                state = .content
                return true
            case .content:
                if let at = findUnread(closing) {
                    try write(count: at)
                    consume(closing.count)
                    try endPart()
                    state = .afterDelimiter
                    return true
                }
                // Everything but a tail that could begin the closing delimiter is content.
                let safe = unread - (closing.count - 1)
                if safe > 0 { try write(count: safe) }
                return false
            case .epilogue:
                consume(unread)
                return false
            }
        }

        mutating func begin(headers: String) throws {
            partSize = 0
            let disposition = headers.components(separatedBy: "\r\n")
                .first { $0.lowercased().hasPrefix("content-disposition:") } ?? ""
            guard Multipart.parameter("name", in: disposition) == field else { return }
            guard files.count < limits.files else { throw Failure.tooManyFiles }
            let url = newFileURL()
            guard FileManager.default.createFile(atPath: url.path, contents: nil),
                  let handle = FileHandle(forWritingAtPath: url.path) else {
                throw Failure.malformed("the part could not be stored")
            }
            let filename = Multipart.filename(in: disposition)
            current = (handle, File(url: url, size: 0, head: [], filename: filename))
        }

        /// Moves the next `count` unread bytes to the current file (or drops them).
        mutating func write(count: Int) throws {
            partSize += count
            if var part = current {
                if partSize > limits.perFile {
                    throw Failure.fileTooLarge(index: files.count, filename: part.file.filename)
                }
                if part.file.head.count < 1024 {
                    part.file.head += pending[start..<(start + min(count, 1024 - part.file.head.count))]
                }
                try pending.withUnsafeBytes {
                    try part.handle.write(contentsOf: UnsafeRawBufferPointer(rebasing: $0[start..<(start + count)]))
                }
                part.file.size = partSize
                current = part
            }
            consume(count)
        }

        mutating func endPart() throws {
            guard let part = current else { return }
            try part.handle.close()
            files.append(part.file)
            current = nil
        }

        func finish() throws {
            switch state {
            case .epilogue: return
            case .preamble: throw Failure.malformed("no boundary in the body")
            default: throw Failure.malformed("the body ends inside a part (no closing boundary)")
            }
        }

        mutating func discardAll() {
            if let part = current {
                try? part.handle.close()
                try? FileManager.default.removeItem(at: part.file.url)
                current = nil
            }
            for file in files { try? FileManager.default.removeItem(at: file.url) }
            files = []
        }

        /// Where `needle` first occurs in `haystack` at or after `from`: memchr to each candidate
        /// first byte, then memcmp.
        static func find(_ needle: [UInt8], in haystack: [UInt8], from: Int = 0) -> Int? {
            guard let first = needle.first, haystack.count - from >= needle.count else { return nil }
            return haystack.withUnsafeBytes { hay -> Int? in
                needle.withUnsafeBytes { pin -> Int? in
                    guard let base = hay.baseAddress, let wanted = pin.baseAddress else { return nil }
                    let last = hay.count - needle.count
                    var start = from
                    while start <= last {
                        guard let hit = memchr(base + start, Int32(first), last - start + 1) else { return nil }
                        let at = base.distance(to: UnsafeRawPointer(hit))
                        if memcmp(base + at, wanted, needle.count) == 0 { return at }
                        start = at + 1
                    }
                    return nil
                }
            }
        }
    }
}
