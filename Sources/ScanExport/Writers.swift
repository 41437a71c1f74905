import Foundation
#if canImport(Glibc)
import Glibc
#endif
import ScanModel

/// Output formats of the main command.
public enum OutputFormat: String, Sendable, CaseIterable {
    /// One pretty-printed JSON document per input.
    case json
    /// One compact JSON document per line.
    case jsonl
    /// The recognized text in reading order.
    case text
    /// Receipts: one row per line item; business cards: one row per contact (see CSVWriter).
    case csv
    /// Business cards as vCard 4.0.
    case vcard

    public var fileExtension: String {
        switch self {
        case .json, .jsonl: return "json"
        case .text: return "txt"
        case .csv: return "csv"
        case .vcard: return "vcf"
        }
    }
}

/// Serializes documents. Pure: bytes in memory, no files.
public enum DocumentWriter {
    /// The document as `JSONEncoder` writes it with sorted keys (`JSONText`: the same bytes, faster).
    public static func json(_ doc: Document, pretty: Bool) throws -> Data {
        var data = try JSONText.encode(doc, pretty: pretty)
        data.append(0x0A)
        return data
    }

    /// The text of every page in the reading order of its layout (blocks separated by a
    /// blank line); pages separated by a form feed.
    public static func text(_ doc: Document) -> Data {
        let pages = doc.pages.map { ReadingOrder.text(of: $0) }
        return Data((pages.joined(separator: "\n\u{0C}\n") + "\n").utf8)
    }

    public static func encode(_ doc: Document, as format: OutputFormat, pretty: Bool = true) throws -> Data {
        switch format {
        case .json: return try json(doc, pretty: pretty)
        case .jsonl: return try json(doc, pretty: false)
        case .text: return text(doc)
        case .csv: return CSVWriter.csv(doc)
        case .vcard: return VCardWriter.vcard(doc)
        }
    }
}

/// A page's text in reading order. The page's stored layout decides the order, as it
/// did for the parsers; a page without one (a document made elsewhere) falls back to
/// observations ordered top to bottom and left to right.
public enum ReadingOrder {
    /// Blocks separated by a blank line; within a line, words far apart (a label and its
    /// amount at the far right) are separated by three spaces, others by one.
    public static func text(of page: Page) -> String {
        guard let layout = page.layout else { return lines(of: page).joined(separator: "\n") }
        return layout.blocks.map { block in
            block.lines.map { line(of: $0, on: page) }.joined(separator: "\n")
        }.joined(separator: "\n\n")
    }

    static func line(of line: PageLayout.Line, on page: Page) -> String {
        let words = line.words.compactMap { page.word($0) }
        guard words.count == line.words.count, !words.isEmpty else { return line.text }
        // Gaps are measured on the upright page, where the line runs left to right.
        let toUpright = page.upright?.transform ?? .identity
        let boxes = words.map { $0.boundingBox.mapped(by: toUpright) }
        let heights = boxes.map(\.height).sorted()
        let height = max(1, heights[heights.count / 2])
        var out = words[0].text
        for k in 1..<words.count {
            out += boxes[k].minX - boxes[k - 1].maxX > 2 * height ? "   " : " "
            out += words[k].text
        }
        return out
    }

    /// Observations ordered top to bottom, and left to right within a visual line (two
    /// observations whose vertical extents mostly overlap).
    public static func lines(of page: Page) -> [String] {
        let obs = page.observations.sorted { $0.boundingBox.midY < $1.boundingBox.midY }
        var rows: [[TextObservation]] = []
        for o in obs {
            if var last = rows.last, let ref = last.first {
                let overlap =
                    min(ref.boundingBox.maxY, o.boundingBox.maxY) - max(ref.boundingBox.minY, o.boundingBox.minY)
                if overlap > 0.5 * min(ref.boundingBox.height, o.boundingBox.height) {
                    last.append(o)
                    rows[rows.count - 1] = last
                    continue
                }
            }
            rows.append([o])
        }
        return rows.map { $0.sorted { $0.boundingBox.minX < $1.boundingBox.minX }.map(\.text).joined(separator: "   ") }
    }
}

/// Writes files so that a reader never sees half of one: into a temporary file
/// in the same folder, then renamed over the target.
public enum AtomicFile {
    /// Whether `fileName` is one of the temporary files `write` makes (`.<name>.<UUID>.tmp`):
    /// one left in a folder is from a process killed between writing and renaming.
    public static func isTemporary(_ fileName: String) -> Bool {
        guard fileName.hasPrefix("."), fileName.hasSuffix(".tmp") else { return false }
        let middle = fileName.dropFirst().dropLast(4)
        guard let dot = middle.lastIndex(of: ".") else { return false }
        return UUID(uuidString: String(middle[middle.index(after: dot)...])) != nil
    }

    /// Writes `data` to `path` at once: into a temporary file beside it, on disk, then renamed
    /// over it.
    public static func write(_ data: Data, to path: String) throws {
        let temporary = try writeTemporary(data, beside: path)
        try rename(temporary, to: path)
    }

    /// Writes `data` into a new temporary file in `path`'s folder and waits until it is on disk,
    /// so that a name pointed at it later never shows an empty or half-written file after a
    /// crash. Returns the temporary file's path; ``rename(_:to:)`` puts it in place.
    public static func writeTemporary(_ data: Data, beside path: String) throws -> String {
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp").path
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw failure(path) }
        var failed = false
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { failed = true; return }
                offset += n
            }
        }
        if !failed && fdatasync(fd) != 0 { failed = true }
        let error = failed ? failure(path) : nil
        close(fd)
        if let error {
            unlink(temporary)
            throw error
        }
        return temporary
    }

    /// Renames a file from ``writeTemporary(_:beside:)`` over `path` (rename(2): a reader sees
    /// the old file or the new one, never a mix). The temporary file is removed when that fails.
    public static func rename(_ temporary: String, to path: String) throws {
        guard Glibc.rename(temporary, path) == 0 else {
            let error = failure(path)
            unlink(temporary)
            throw error
        }
    }

    /// Waits until the names in `folder` (files renamed into it) are on disk. Best effort: a
    /// folder that cannot be opened or synced only loses the wait.
    public static func syncFolder(_ folder: String) {
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }

    private static func failure(_ path: String) -> ScanError {
        ScanError(.output, file: path, "cannot be written (\(String(cString: strerror(errno))))")
    }
}

/// Chooses output file names in a folder: `<base name>.<ext>`, made unique when two
/// inputs share a base name, and never the path of an input.
public struct OutputNamer {
    private var used = Set<String>()
    private let protected: Set<String>
    public let directory: String
    public let fileExtension: String

    public init(directory: String, fileExtension: String, inputs: [String]) {
        self.directory = directory
        self.fileExtension = fileExtension
        self.protected = Set(inputs.map { URL(fileURLWithPath: $0).standardizedFileURL.path })
    }

    /// Whether `name` (a file name in the folder) may be given to an input: not given to another
    /// already and not an input's own path.
    public func isFree(_ name: String) -> Bool {
        let full = URL(fileURLWithPath: directory).appendingPathComponent(name).standardizedFileURL.path
        return !used.contains(full) && !protected.contains(full)
    }

    /// Gives `name` to an input chosen by the caller (an earlier run's name for it), so that no
    /// later ``path(for:avoiding:)`` hands it out again.
    public mutating func reserve(_ name: String) {
        used.insert(URL(fileURLWithPath: directory).appendingPathComponent(name).standardizedFileURL.path)
    }

    /// The next free name for `input`; `avoiding` may refuse more paths (a file already there
    /// that must not be replaced).
    public mutating func path(for input: String, avoiding: (String) -> Bool = { _ in false }) -> String {
        let base = URL(fileURLWithPath: input).deletingPathExtension().lastPathComponent
        var n = 1
        while true {
            let name = n == 1 ? "\(base).\(fileExtension)" : "\(base)-\(n).\(fileExtension)"
            let full = URL(fileURLWithPath: directory).appendingPathComponent(name).standardizedFileURL.path
            if !used.contains(full) && !protected.contains(full) && !avoiding(full) {
                used.insert(full)
                return full
            }
            n += 1
        }
    }
}
