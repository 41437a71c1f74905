import Foundation
import ScanModel
#if canImport(Glibc)
import Glibc
#endif

/// What the text commands (`ink`, `detect`) read, with a ceiling: `cat /dev/zero | scanextract ink` ends with an
/// error naming the limit instead of taking the machine's memory. Files are checked before they are read, and
/// JSON Lines are read one line at a time, so a long stream of small lines needs no more memory than one line.
enum BoundedInput {
    /// Why an input was not read; `description` is the reason shown after the input's name.
    enum Failure: Error, CustomStringConvertible {
        case missing
        case notAFile(String)
        case tooLarge(limit: Int)
        case unreadable(Int32)

        var description: String {
            switch self {
            case .missing: return "no such file"
            case .notAFile(let kind): return "is \(kind), not a file"
            case .tooLarge(let limit): return "larger than the limit of \(BoundedInput.megabytes(limit))"
            case .unreadable(let code): return "cannot be read (\(String(cString: strerror(code))))"
            }
        }

        /// The error a command reports: `too-large` for the size, `unreadable` for the rest.
        var scanError: ScanError {
            if case .tooLarge = self { return ScanError(.tooLarge, description) }
            return ScanError(.unreadable, description)
        }

        /// Why `open(2)` failed with `code`.
        static func opening(_ code: Int32) -> Failure { code == ENOENT ? .missing : .unreadable(code) }
    }

    /// One ink or one text: 64 MiB, a thousand times the largest ink a tablet gives in a minute.
    static let documentLimit = 64 << 20
    /// One line of JSON Lines: 8 MiB.
    static let lineLimit = 8 << 20

    static func megabytes(_ bytes: Int) -> String { "\(bytes >> 20) MiB" }

    /// The whole regular file at `path`, refused before reading when it is larger than `limit`.
    static func file(_ path: String, limit: Int = documentLimit) throws -> Data {
        let (fd, size) = try openFile(path)
        defer { close(fd) }
        if let size, size > limit { throw Failure.tooLarge(limit: limit) }
        return try whole(fd, limit: limit)
    }

    /// A descriptor open for reading on the file or pipe at `path`, with the file's size (nil for a pipe, read up
    /// to the limit like stdin). A folder or a device is refused, saying which it is.
    static func openFile(_ path: String) throws -> (fd: Int32, size: Int?) {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw Failure.opening(errno) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            close(fd)
            throw Failure.unreadable(code)
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return (fd, Int(info.st_size))
        case S_IFIFO: return (fd, nil)
        case let kind:
            close(fd)
            throw Failure.notAFile(kind == S_IFDIR ? "a folder" : "a device or socket")
        }
    }

    /// Everything `fd` gives until its end, refused as soon as it passes `limit`.
    static func whole(_ fd: Int32, limit: Int = documentLimit) throws -> Data {
        var out = Data()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { throw Failure.unreadable(errno) }
            if n == 0 { return out }
            guard out.count + n <= limit else { throw Failure.tooLarge(limit: limit) }
            out.append(contentsOf: chunk[0..<n])
        }
    }

    /// The lines of `fd` without their `\n`, each either its bytes or, past `limit`, the failure (the rest of such a
    /// line is skipped unread into memory). A last line without `\n` is a line too.
    struct Lines: Sequence, IteratorProtocol {
        let fd: Int32
        let limit: Int
        private var buffer: [UInt8] = []
        /// Where the current line starts in `buffer`, and how far it is known to hold no `\n`.
        private var start = 0, searched = 0
        private var ended = false

        init(_ fd: Int32, limit: Int = lineLimit) {
            self.fd = fd
            self.limit = limit
        }

        mutating func next() -> Result<Data, Failure>? {
            var tooLong = false
            while true {
                if let newline = buffer[searched...].firstIndex(of: 0x0A) {
                    let line = Data(buffer[start..<newline])
                    start = newline + 1
                    searched = start
                    return tooLong || line.count > limit ? .failure(.tooLarge(limit: limit)) : .success(line)
                }
                searched = buffer.count
                if buffer.count - start > limit {
                    // Too long already: what was read of it is dropped, and its end looked for.
                    tooLong = true
                    buffer.removeAll(keepingCapacity: true)
                    (start, searched) = (0, 0)
                }
                if ended {
                    guard start < buffer.count || tooLong else { return nil }
                    let line = Data(buffer[start...])
                    buffer.removeAll()
                    (start, searched) = (0, 0)
                    return tooLong ? .failure(.tooLarge(limit: limit)) : .success(line)
                }
                if start > 0 {
                    buffer.removeFirst(start)
                    (start, searched) = (0, searched - start)
                }
                var chunk = [UInt8](repeating: 0, count: 1 << 16)
                let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
                if n < 0 && errno == EINTR { continue }
                if n < 0 {
                    let code = errno
                    ended = true
                    buffer.removeAll()
                    (start, searched) = (0, 0)
                    return .failure(.unreadable(code))
                }
                if n == 0 { ended = true } else { buffer.append(contentsOf: chunk[0..<n]) }
            }
        }
    }
}
