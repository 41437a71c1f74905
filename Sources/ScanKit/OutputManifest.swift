import Crypto
import Foundation
import ScanExport
import ScanModel

/// What a folder run (`--output-dir`) has finished: `.scanextract-manifest.jsonl` in the output
/// folder, one JSON line per output written, appended and flushed to disk (fsync) before the
/// output is renamed into place. A line says which input (its path and SHA-256) under which
/// options (``OutputManifest/optionsKey(_:format:)``) gave which output file, and that file's
/// SHA-256. An output counts as finished only when the file in the folder has that hash, so a
/// line written just before a crash (the rename never happened) finishes nothing, and a torn
/// last line is ignored.
public final class OutputManifest {
    public static let fileName = ".scanextract-manifest.jsonl"

    public struct Entry: Codable, Sendable, Equatable {
        /// The input's path as the run was given it (the document's `source`).
        public var source: String
        /// SHA-256 (hex) of the input's content.
        public var input: String
        /// ``OutputManifest/optionsKey(_:format:)`` of the run.
        public var options: String
        /// The output's file name in the folder.
        public var output: String
        /// SHA-256 (hex) of the output's content.
        public var outputHash: String
        public var written: Date

        public init(source: String, input: String, options: String, output: String, outputHash: String, written: Date = Date()) {
            self.source = source
            self.input = input
            self.options = options
            self.output = output
            self.outputHash = outputHash
            self.written = written
        }
    }

    public let directory: URL
    public private(set) var entries: [Entry] = []
    private let handle: FileHandle

    /// Opens (or starts) the manifest in `directory`. Lines that don't parse (the last one, torn
    /// by a crash) are left out.
    public init(directory: String) throws {
        self.directory = URL(fileURLWithPath: directory)
        let url = self.directory.appendingPathComponent(Self.fileName)
        let path = url.path
        if let data = FileManager.default.contents(atPath: path) {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            for line in data.split(separator: UInt8(ascii: "\n")) {
                if let entry = try? decoder.decode(Entry.self, from: Data(line)) { entries.append(entry) }
            }
            // A torn line must not glue itself to the next one appended.
            if let last = data.last, last != UInt8(ascii: "\n"), let h = FileHandle(forWritingAtPath: path) {
                h.seekToEndOfFile()
                h.write(Data("\n".utf8))
                try? h.close()
            }
        } else if !FileManager.default.createFile(atPath: path, contents: nil) {
            throw ScanError(.output, file: path, "the manifest cannot be created")
        }
        guard let handle = FileHandle(forWritingAtPath: path) else {
            throw ScanError(.output, file: path, "the manifest cannot be opened for writing")
        }
        self.handle = handle
        handle.seekToEndOfFile()
    }

    deinit { try? handle.close() }

    /// Appends `entry` and waits until it is on disk.
    public func append(_ entry: Entry) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var line = try encoder.encode(entry)
        line.append(UInt8(ascii: "\n"))
        do {
            try handle.write(contentsOf: line)
            try handle.synchronize()
        } catch {
            throw ScanError(.output, file: directory.appendingPathComponent(Self.fileName).path,
                            "the manifest cannot be written (\((error as NSError).localizedDescription))")
        }
        entries.append(entry)
    }

    /// SHA-256 (hex) of a file's content, read a piece at a time; nil when it cannot be read.
    public static func hash(file path: String) -> String? {
        guard let h = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? h.close() }
        var hasher = SHA256()
        while true {
            // nil (Linux) or empty at the end; a read error throws.
            let chunk: Data?
            do { chunk = try h.read(upToCount: 1 << 20) } catch { return nil }
            guard let chunk, !chunk.isEmpty else { break }
            hasher.update(data: chunk)
        }
        return hex(hasher.finalize())
    }

    public static func hash(_ data: Data) -> String { hex(SHA256.hash(data: data)) }

    private static func hex(_ digest: some Sequence<UInt8>) -> String {
        digest.map { String(format: "%02x", $0) }.joined()
    }

    /// Everything that changes an output: the configuration (the engine `auto` chose, languages,
    /// custom words, country, type...; not the thread count), the output format and the schema
    /// version.
    public static func optionsKey(_ configuration: ScanConfiguration, format: OutputFormat) throws -> String {
        var config = configuration
        config.engineThreads = 1
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var data = try encoder.encode(config)
        data.append(Data("\n\(format.rawValue)\n\(Document.currentSchemaVersion)".utf8))
        return hash(data)
    }
}

/// The outputs of a folder run: which inputs are finished already (same content, same options,
/// output still there as written), which file each of the others goes to, and writing them so
/// that the folder never holds half a file, two outputs of one input, or a file that was there
/// before and is not ours replaced.
public final class FolderOutputs {
    public struct Finished: Sendable { public var input: String; public var output: String }

    public let directory: String
    public let manifest: OutputManifest
    /// Inputs to process, in the order given.
    public private(set) var pending: [String] = []
    /// Inputs whose output from an earlier run is still there: skipped.
    public private(set) var finished: [Finished] = []
    /// What the caller should tell the user: files named around, leftovers removed.
    public private(set) var notes: [String] = []

    private let optionsKey: String
    private var outputPath: [String: String] = [:]
    private var inputHash: [String: String] = [:]

    /// Plans the run. `resume: false` redoes every input (the manifest is still kept).
    public init(directory: String, fileExtension: String, optionsKey: String, inputs: [String], resume: Bool = true) throws {
        self.directory = directory
        self.optionsKey = optionsKey
        let fm = FileManager.default
        manifest = try OutputManifest(directory: directory)
        let folder = URL(fileURLWithPath: directory)

        // Temporary files left by a run killed between writing an output and renaming it.
        let leftovers = ((try? fm.contentsOfDirectory(atPath: directory)) ?? []).filter(AtomicFile.isTemporary)
        for name in leftovers { try? fm.removeItem(at: folder.appendingPathComponent(name)) }
        if !leftovers.isEmpty {
            notes.append("removed \(leftovers.count) temporary file(s) left in \(directory) by an interrupted run")
        }

        var hashesByName: [String: Set<String>] = [:]
        var latestBySource: [String: OutputManifest.Entry] = [:]
        for entry in manifest.entries {
            hashesByName[entry.output, default: []].insert(entry.outputHash)
            // One output per input and format: a text run doesn't take over the JSON run's file.
            if entry.output.hasSuffix("." + fileExtension) { latestBySource[entry.source] = entry }
        }
        // What each file in the folder holds, hashed once.
        var onDisk: [String: String?] = [:]
        func contentHash(_ name: String) -> String? {
            if let known = onDisk[name] { return known }
            let path = folder.appendingPathComponent(name).path
            let value = fm.fileExists(atPath: path) ? OutputManifest.hash(file: path) ?? "unreadable" : nil
            onDisk[name] = .some(value)
            return value
        }
        // A name may be written when nothing is there, or what is there is an output this manifest recorded.
        func ours(_ name: String) -> Bool {
            guard let current = contentHash(name) else { return true }
            return hashesByName[name]?.contains(current) ?? false
        }

        var namer = OutputNamer(directory: directory, fileExtension: fileExtension, inputs: inputs)
        for input in inputs { inputHash[input] = OutputManifest.hash(file: input) }
        // First, each input keeps the name an earlier run gave it, so that names stay put when
        // inputs are added or the options change.
        for input in inputs {
            guard let entry = latestBySource[input], outputPath[input] == nil,
                  namer.isFree(entry.output), ours(entry.output) else { continue }
            namer.reserve(entry.output)
            outputPath[input] = folder.appendingPathComponent(entry.output).standardizedFileURL.path
        }
        // Then new names, going around files that are not ours.
        for input in inputs where outputPath[input] == nil {
            let path = namer.path(for: input) { !ours(URL(fileURLWithPath: $0).lastPathComponent) }
            let plain = URL(fileURLWithPath: namer.directory)
                .appendingPathComponent(URL(fileURLWithPath: input).deletingPathExtension().lastPathComponent + "." + fileExtension)
                .standardizedFileURL.path
            if path != plain && !ours(URL(fileURLWithPath: plain).lastPathComponent) {
                notes.append("\(plain) was not written by scanextract for this input and is kept; "
                             + "\(input) goes to \(URL(fileURLWithPath: path).lastPathComponent)")
            }
            outputPath[input] = path
        }
        for input in inputs {
            let name = URL(fileURLWithPath: outputPath[input]!).lastPathComponent
            if resume, let digest = inputHash[input], let entry = latestBySource[input], entry.input == digest,
               entry.options == optionsKey, entry.output == name, contentHash(name) == entry.outputHash {
                finished.append(Finished(input: input, output: outputPath[input]!))
            } else {
                pending.append(input)
            }
        }
    }

    /// The output file for `input` (one of the inputs given).
    public func path(for input: String) -> String { outputPath[input]! }

    /// Writes `input`'s output: its line goes into the manifest (on disk), then the content into
    /// a temporary file in the folder, renamed over the output. Returns the output's path.
    @discardableResult
    public func write(_ data: Data, for input: String) throws -> String {
        let path = outputPath[input]!
        // An input that could not be hashed before (gone, unreadable) is not recorded as finished.
        if let digest = inputHash[input] {
            try manifest.append(OutputManifest.Entry(
                source: input, input: digest, options: optionsKey,
                output: URL(fileURLWithPath: path).lastPathComponent, outputHash: OutputManifest.hash(data)))
        }
        try AtomicFile.write(data, to: path)
        return path
    }
}
