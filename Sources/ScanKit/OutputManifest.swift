import Crypto
import Foundation
import ScanExport
import ScanModel

/// What a folder run (`--output-dir`) has finished: `.scanextract-manifest.jsonl` in the output
/// folder, one JSON line per output written (or per input read with nothing to write in the run's
/// format: `--format vcard` and no business card), appended and flushed to disk (fsync) before the
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
        /// The output's file name in the folder; empty when the input gave nothing to write (``isNothing``).
        public var output: String
        /// SHA-256 (hex) of the output's content; empty with no output.
        public var outputHash: String
        public var written: Date

        public init(
            source: String, input: String, options: String, output: String, outputHash: String, written: Date = Date()
        ) {
            self.source = source
            self.input = input
            self.options = options
            self.output = output
            self.outputHash = outputHash
            self.written = written
        }

        /// The input was read and gave nothing to write under these options (no business card for a vCard).
        public var isNothing: Bool { output.isEmpty }
    }

    /// The lines read when the manifest was opened (a torn last line left out).
    public let entries: [Entry]
    private let path: String
    private let handle: FileHandle

    /// Opens (or starts) the manifest in `directory`. Lines that don't parse (the last one, torn
    /// by a crash) are left out.
    public init(directory: String) throws {
        path = URL(fileURLWithPath: directory).appendingPathComponent(Self.fileName).path
        if !FileManager.default.fileExists(atPath: path) && !FileManager.default.createFile(atPath: path, contents: nil)
        {
            throw ScanError(.output, file: path, "the manifest cannot be created")
        }
        guard let handle = FileHandle(forUpdatingAtPath: path) else {
            throw ScanError(.output, file: path, "the manifest cannot be opened for writing")
        }
        self.handle = handle
        do {
            let data = try handle.readToEnd() ?? Data()
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            entries = data.split(separator: UInt8(ascii: "\n")).compactMap {
                try? decoder.decode(Entry.self, from: Data($0))
            }
            // The handle is at the end now. A torn line must not glue itself to the next one appended.
            if let last = data.last, last != UInt8(ascii: "\n") { try handle.write(contentsOf: Data("\n".utf8)) }
        } catch {
            throw ScanError(
                .output, file: path, "the manifest cannot be read (\((error as NSError).localizedDescription))")
        }
    }

    deinit { try? handle.close() }

    /// Appends `entries` in one write and waits until they are on disk.
    public func append(_ entries: [Entry]) throws {
        guard !entries.isEmpty else { return }
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var lines = Data()
        for entry in entries {
            lines.append(try encoder.encode(entry))
            lines.append(UInt8(ascii: "\n"))
        }
        do {
            try handle.write(contentsOf: lines)
            try handle.synchronize()
        } catch {
            throw ScanError(
                .output, file: path, "the manifest cannot be written (\((error as NSError).localizedDescription))")
        }
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
        return hasher.finalize().hexadecimal
    }

    public static func hash(_ data: Data) -> String { SHA256.hash(data: data).hexadecimal }

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
///
/// Writing is a group commit. ``stage(_:for:)`` (any thread, in parallel) writes an output into
/// a temporary file beside its place and waits until it is on disk. ``commit(_:)`` (one thread)
/// queues it, and ``flush()`` finishes the queue together: the manifest lines in one write and
/// one sync, then the renames, then one sync of the folder. A crash before the flush leaves only
/// temporary files, which the next run removes and redoes.
public final class FolderOutputs: @unchecked Sendable {
    /// `output` is nil for an input an earlier run read and found nothing to write for.
    public struct Finished: Sendable { public var input: String; public var output: String? }

    /// An output on disk under a temporary name, waiting for ``FolderOutputs/flush()``.
    public struct Staged: Sendable {
        public let input: String
        fileprivate let temporary: String
        fileprivate let path: String
        fileprivate let entry: OutputManifest.Entry?
    }

    /// Inputs to process, in the order given.
    public let pending: [String]
    /// Inputs whose output from an earlier run is still there: skipped.
    public let finished: [Finished]
    /// What the caller should tell the user: files named around, leftovers removed.
    public let notes: [String]
    /// How many outputs ``commit(_:)`` queues before it runs ``flush()`` itself.
    public var batchLimit = 64

    private let directory: String
    private let manifest: OutputManifest
    private let optionsKey: String
    private let outputPath: [String: String]
    /// Hashes taken while planning (inputs with an earlier output); the others are hashed when staged.
    private let knownInputHash: [String: String]
    private var queue: [Staged] = []

    /// Plans the run. `resume: false` redoes every input (the manifest is still kept).
    public init(directory: String, fileExtension: String, optionsKey: String, inputs: [String], resume: Bool = true)
        throws
    {
        self.directory = directory
        self.optionsKey = optionsKey
        let fm = FileManager.default
        manifest = try OutputManifest(directory: directory)
        let folder = URL(fileURLWithPath: directory)
        var notes: [String] = []

        // Temporary files left by a run killed between writing an output and renaming it.
        let leftovers = ((try? fm.contentsOfDirectory(atPath: directory)) ?? []).filter(AtomicFile.isTemporary)
        for name in leftovers { try? fm.removeItem(at: folder.appendingPathComponent(name)) }
        if !leftovers.isEmpty {
            notes.append("removed \(leftovers.count) temporary file(s) left in \(directory) by an interrupted run")
        }

        var hashesByName: [String: Set<String>] = [:]
        // The latest output of each input in this format, which keeps its name; and the latest line of each input
        // that can finish it (that output, or nothing to write under these very options).
        var namedBySource: [String: OutputManifest.Entry] = [:]
        var latestBySource: [String: OutputManifest.Entry] = [:]
        for entry in manifest.entries {
            // A line naming anything but a file in this folder (`../victim.json`, `a/b.json`) was not written by us:
            // it is ignored, so that no run writes outside the folder.
            guard entry.isNothing || Self.isPlainName(entry.output) else { continue }
            if entry.isNothing {
                if entry.options == optionsKey { latestBySource[entry.source] = entry }
                continue
            }
            hashesByName[entry.output, default: []].insert(entry.outputHash)
            // One output per input and format: a text run doesn't take over the JSON run's file.
            if entry.output.hasSuffix("." + fileExtension) {
                namedBySource[entry.source] = entry
                latestBySource[entry.source] = entry
            }
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
        var outputPath: [String: String] = [:]
        // First, each input keeps the name an earlier run gave it, so that names stay put when
        // inputs are added or the options change.
        for input in inputs {
            guard let entry = namedBySource[input], outputPath[input] == nil,
                  namer.isFree(entry.output), ours(entry.output) else { continue }
            namer.reserve(entry.output)
            outputPath[input] = folder.appendingPathComponent(entry.output).standardizedFileURL.path
        }
        // The output each earlier input still has on disk: another input does not take it over (`x/receipt.png`'s
        // `receipt.json` stays when `y/receipt.png` is read into the same folder). The same file reached by another
        // path (a link, a folder renamed) is the same input. Looked at only for the names an input would take.
        var byOutput: [String: [OutputManifest.Entry]] = [:]
        for entry in namedBySource.values { byOutput[entry.output, default: []].append(entry) }
        var inputHash: [String: String?] = [:]
        func heldBy(_ name: String) -> OutputManifest.Entry? {
            guard let entries = byOutput[name], let current = contentHash(name) else { return nil }
            return entries.first { $0.outputHash == current }
        }
        func takenFrom(_ input: String, _ name: String) -> Bool {
            guard let entry = heldBy(name), entry.source != input else { return false }
            if inputHash[input] == nil { inputHash[input] = .some(OutputManifest.hash(file: input)) }
            return inputHash[input]! != entry.input
        }
        // Then new names, going around files that are not ours and outputs of other inputs.
        for input in inputs where outputPath[input] == nil {
            let path = namer.path(for: input) {
                let name = URL(fileURLWithPath: $0).lastPathComponent
                return !ours(name) || takenFrom(input, name)
            }
            let plain = URL(fileURLWithPath: namer.directory)
                .appendingPathComponent(
                    URL(fileURLWithPath: input).deletingPathExtension().lastPathComponent + "." + fileExtension
                )
                .standardizedFileURL.path
            let plainName = URL(fileURLWithPath: plain).lastPathComponent
            if path != plain && !ours(plainName) {
                notes.append("\(plain) was not written by scanextract for this input and is kept; "
                             + "\(input) goes to \(URL(fileURLWithPath: path).lastPathComponent)")
            } else if path != plain, let other = heldBy(plainName)?.source, other != input {
                notes.append("\(plain) holds the output of \(other) and is kept; "
                             + "\(input) goes to \(URL(fileURLWithPath: path).lastPathComponent)")
            }
            outputPath[input] = path
        }
        // Only an input an earlier run wrote under these options can be finished; only it is
        // hashed now (the rest are hashed by the workers that stage their outputs).
        var knownInputHash: [String: String] = [:]
        var pending: [String] = [], finished: [Finished] = []
        for input in inputs {
            let name = URL(fileURLWithPath: outputPath[input]!).lastPathComponent
            if resume, let entry = latestBySource[input], entry.options == optionsKey,
               entry.isNothing || entry.output == name, let digest = OutputManifest.hash(file: input) {
                knownInputHash[input] = digest
                if entry.input == digest, entry.isNothing || contentHash(name) == entry.outputHash {
                    finished.append(Finished(input: input, output: entry.isNothing ? nil : outputPath[input]!))
                    continue
                }
            }
            pending.append(input)
        }
        self.outputPath = outputPath
        self.knownInputHash = knownInputHash
        self.pending = pending
        self.finished = finished
        self.notes = notes
    }

    /// A file name of this folder: no folder part, not `.` or `..`.
    static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.contains("/") && !name.contains("\0")
    }

    /// Writes `input`'s output under a temporary name beside its place, on disk. Safe to call
    /// from several threads at once.
    public func stage(_ data: Data, for input: String) throws -> Staged {
        let path = outputPath[input]!
        let temporary = try AtomicFile.writeTemporary(data, beside: path)
        let entry = manifestEntry(
            for: input, output: URL(fileURLWithPath: path).lastPathComponent, outputHash: OutputManifest.hash(data))
        return Staged(input: input, temporary: temporary, path: path, entry: entry)
    }

    /// The manifest line of `input` under this run's options; nil when the input cannot be hashed (gone, unreadable):
    /// it is then not recorded as finished.
    private func manifestEntry(for input: String, output: String, outputHash: String) -> OutputManifest.Entry? {
        (knownInputHash[input] ?? OutputManifest.hash(file: input)).map {
            OutputManifest.Entry(source: input, input: $0, options: optionsKey, output: output, outputHash: outputHash)
        }
    }

    /// Records that `input` was read and gives nothing to write in this run's format, so that a resumed run skips it
    /// while its content and the options stay the same. Commit it as an output: its manifest line is written with the
    /// next flush, and no file is.
    public func stageNothing(for input: String) -> Staged {
        Staged(input: input, temporary: "", path: "", entry: manifestEntry(for: input, output: "", outputHash: ""))
    }

    /// Queues a staged output for the next ``flush()`` (which it runs itself once ``batchLimit``
    /// outputs wait). Call from one thread. Returns what that flush put in place.
    @discardableResult
    public func commit(_ staged: Staged) -> FlushResult {
        queue.append(staged)
        return queue.count >= batchLimit ? flush() : FlushResult()
    }

    /// What a flush put in place, and the outputs it could not.
    public struct FlushResult: Sendable {
        /// Output paths now in place, in the order committed.
        public var written: [String] = []
        public var failures: [ScanError] = []
    }

    /// Puts every queued output in place: their manifest lines on disk first, then the renames,
    /// then the folder's names on disk. Call from the thread that commits.
    public func flush() -> FlushResult {
        let batch = queue
        queue = []
        var result = FlushResult()
        guard !batch.isEmpty else { return result }
        do {
            try manifest.append(batch.compactMap(\.entry))
        } catch let e as ScanError {
            for staged in batch where !staged.path.isEmpty {
                unlink(staged.temporary)
                result.failures.append(ScanError(e.code, file: staged.path, "not written: \(e.description)"))
            }
            return result
        } catch {
            for staged in batch where !staged.path.isEmpty { unlink(staged.temporary) }
            result.failures.append(ScanError(.output, file: directory, "\(error)"))
            return result
        }
        for staged in batch where !staged.path.isEmpty {
            do {
                try AtomicFile.rename(staged.temporary, to: staged.path)
                result.written.append(staged.path)
            } catch let e as ScanError {
                result.failures.append(e)
            } catch {
                result.failures.append(ScanError(.output, file: staged.path, "\(error)"))
            }
        }
        AtomicFile.syncFolder(directory)
        return result
    }

    /// Writes one output at once (stage, commit, flush). Returns the output's path.
    @discardableResult
    public func write(_ data: Data, for input: String) throws -> String {
        let staged = try stage(data, for: input)
        commit(staged)
        if let failure = flush().failures.first(where: { $0.file == staged.path || $0.file == directory }) {
            throw failure
        }
        return staged.path
    }
}
