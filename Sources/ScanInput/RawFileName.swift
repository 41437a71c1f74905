import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Files whose names are not valid UTF-8 (a Latin-1 `café.png` from an old archive). Swift and Foundation show such a
/// name with U+FFFD where the bytes were, and cannot open the file by that name. The raw name is found again by
/// listing each folder on the way with `readdir` and taking the one entry that reads the same.
enum RawFileName {
    enum Failure: Error {
        /// No entry of a folder on the way reads as the path's name there, or the file does not open.
        case notFound
        /// Several entries read the same; the name cannot say which.
        case ambiguous
        /// The file opened, but reading it failed (`errno`).
        case readFailed(Int32)
    }

    /// The bytes of the path whose names read as `path` does, U+FFFD standing for any bytes that are not UTF-8.
    static func resolve(_ path: String) throws -> [UInt8] {
        var raw: [UInt8] = path.hasPrefix("/") ? [0x2F] : []
        let components = path.split(separator: "/", omittingEmptySubsequences: true)
        for (n, component) in components.enumerated() {
            let part: [UInt8]
            if component.contains("\u{FFFD}") {
                let folder = raw.isEmpty ? Array(".".utf8) : (raw == [0x2F] ? raw : Array(raw.dropLast()))
                part = try entry(in: folder, readingAs: String(component))
            } else {
                part = Array(component.utf8)
            }
            raw += part
            if n < components.count - 1 { raw.append(0x2F) }
        }
        return raw
    }

    /// The one entry of the folder `folder` (raw bytes) whose name, decoded with U+FFFD for bad bytes, is `name`.
    private static func entry(in folder: [UInt8], readingAs name: String) throws -> [UInt8] {
        guard let dir = (folder + [0]).withUnsafeBufferPointer({ buf in
            buf.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buf.count) { opendir($0) }
        }) else { throw Failure.notFound }
        defer { closedir(dir) }
        var found: [[UInt8]] = []
        while let e = readdir(dir) {
            let bytes: [UInt8] = withUnsafeBytes(of: e.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            if String(decoding: bytes, as: UTF8.self) == name { found.append(bytes) }
        }
        guard let first = found.first else { throw Failure.notFound }
        guard found.count == 1 else { throw Failure.ambiguous }
        return first
    }

    /// The whole file at the raw path, refused past `maxBytes`; nil when it is not a regular file.
    static func read(_ raw: [UInt8], maxBytes: Int) throws -> [UInt8]? {
        let fd = (raw + [0]).withUnsafeBufferPointer { buf in
            buf.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buf.count) { open($0, O_RDONLY) }
        }
        guard fd >= 0 else { throw Failure.notFound }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        guard Int(info.st_size) <= maxBytes else { throw InputLimitExceeded(size: Int(info.st_size)) }
        var out = [UInt8](repeating: 0, count: Int(info.st_size))
        var done = 0
        while done < out.count {
            let n = out.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress! + done, $0.count - done) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { throw Failure.readFailed(errno) }
            if n == 0 { break } // the file shrank while it was read: what is there
            done += n
        }
        return Array(out.prefix(done))
    }

    struct InputLimitExceeded: Error { var size: Int }
}

/// `read(2)`, named apart from `RawFileName.read`.
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.read(fd, buffer, count)
    #else
    Darwin.read(fd, buffer, count)
    #endif
}
