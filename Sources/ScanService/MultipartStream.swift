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

    /// The state machine over the bytes; `pending` holds what could still be part of a delimiter.
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
            pending.append(contentsOf: bytes)
            while try step() {}
        }

        /// Advances as far as the bytes pending allow; false when more bytes are needed.
        mutating func step() throws -> Bool {
            switch state {
            case .preamble:
                guard let at = Self.find(delimiter, in: pending) else {
                    // Text before the first delimiter is ignored (RFC 2046); keep what may start one.
                    if pending.count > delimiter.count { pending.removeFirst(pending.count - delimiter.count) }
                    return false
                }
                pending.removeFirst(at + delimiter.count)
                state = .afterDelimiter
                return true
            case .afterDelimiter:
                guard pending.count >= 2 else { return false }
                if pending[0] == UInt8(ascii: "-") && pending[1] == UInt8(ascii: "-") {
                    state = .epilogue
                    pending.removeAll()
                    return false
                }
                // Transport padding (spaces, tabs) may follow a delimiter before its CRLF.
                var skip = 0
                while skip < pending.count, pending[skip] == UInt8(ascii: " ") || pending[skip] == UInt8(ascii: "\t") {
                    skip += 1
                }
                guard pending.count >= skip + 2 else { return false }
                guard pending[skip] == UInt8(ascii: "\r") && pending[skip + 1] == UInt8(ascii: "\n") else {
                    throw Failure.malformed("a boundary is not followed by a line break")
                }
                pending.removeFirst(skip + 2)
                state = .headers
                return true
            case .headers:
                let end: (at: Int, length: Int)
                if pending.starts(with: Array("\r\n".utf8)) {
                    end = (0, 2)  // a part without headers
                } else if let at = Self.find(Array("\r\n\r\n".utf8), in: pending) {
                    end = (at, 4)
                } else {
                    if pending.count > 16 * 1024 { throw Failure.malformed("a part's headers are longer than 16 KB") }
                    return false
                }
                let headers = String(decoding: pending[0..<end.at], as: UTF8.self)
                pending.removeFirst(end.at + end.length)
                try begin(headers: headers)
                state = .content
                return true
            case .content:
                if let at = Self.find(closing, in: pending) {
                    try write(count: at)
                    pending.removeFirst(closing.count)
                    try endPart()
                    state = .afterDelimiter
                    return true
                }
                // Everything but a tail that could begin the closing delimiter is content.
                let safe = pending.count - (closing.count - 1)
                if safe > 0 { try write(count: safe) }
                return false
            case .epilogue:
                pending.removeAll()
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
            let filename = Multipart.parameter("filename", in: disposition)
                .map { ($0 as NSString).lastPathComponent }.flatMap { $0.isEmpty ? nil : $0 }
            current = (handle, File(url: url, size: 0, head: [], filename: filename))
        }

        /// Moves `count` bytes of `pending` to the current file (or drops them).
        mutating func write(count: Int) throws {
            partSize += count
            if var part = current {
                if partSize > limits.perFile { throw Failure.fileTooLarge(index: files.count, filename: part.file.filename) }
                if part.file.head.count < 1024 { part.file.head += pending.prefix(min(count, 1024 - part.file.head.count)) }
                try pending.withUnsafeBytes { try part.handle.write(contentsOf: UnsafeRawBufferPointer(rebasing: $0.prefix(count))) }
                part.file.size = partSize
                current = part
            }
            pending.removeFirst(count)
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

        /// Where `needle` first occurs in `haystack`: memchr to each candidate first byte, then memcmp.
        static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
            guard let first = needle.first, haystack.count >= needle.count else { return nil }
            return haystack.withUnsafeBytes { hay -> Int? in
                needle.withUnsafeBytes { pin -> Int? in
                    guard let base = hay.baseAddress, let wanted = pin.baseAddress else { return nil }
                    let last = hay.count - needle.count
                    var start = 0
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
