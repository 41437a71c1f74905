import ArgumentParser
import Dispatch
import Foundation
import ScanCamera
import ScanExport
import ScanKit
import ScanModel
import ScanRecognition

/// `scanextract [options] <files or folders>...`
struct ScanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Recognize images and PDFs and write one JSON document per input.",
        discussion: ExitStatus.documentation)

    @Argument(
        help: "Image (PNG, JPEG, TIFF, WebP, BMP, GIF, HEIC, AVIF), PDF or scanextract JSON files, or folders to walk.")
    var inputs: [String]

    @Option(
        help:
            "OCR engine: auto (ppocr when installed, else tesseract), \(EngineKind.allCases.map(\.rawValue).joined(separator: ", "))."
    )
    var engine: String = "auto"

    @Option(help: "Languages to recognize, e.g. eng or eng,deu.")
    var languages: String = "eng"

    @Option(help: "fast or accurate.")
    var level: String = RecognitionLevel.accurate.rawValue

    @Option(name: .customLong("custom-words"), help: "A file of words (one per line) the engine should prefer.")
    var customWords: String?

    @Option(
        name: .customLong("min-text-height"),
        help: "Ignore text lower than this fraction of the page height (e.g. 0.01).")
    var minTextHeight: Double = 0

    @Option(help: "Region of interest x,y,w,h: fractions of the page when all are ≤ 1, else page pixels.")
    var region: String?

    @Option(help: "Alternative readings to give per line.")
    var candidates: Int = 0

    @Option(help: "Default country for phone numbers and dates (ISO 3166-1 alpha-2, e.g. US, GB, MY).")
    var country: String?

    @Option(name: .customLong("reference-date"), help: "yyyy-mm-dd that anchors two-digit years (default: today).")
    var referenceDate: String?

    @Flag(name: .customLong("no-entities"), help: "Don't run the data detectors.")
    var noEntities = false

    @Flag(name: .customLong("force-ocr"), help: "Recognize every PDF page, even those with a text layer.")
    var forceOCR = false

    @Flag(
        name: .customLong("no-embedded-invoice"),
        help: "Read a PDF's text even where it embeds a structured invoice (Factur-X, ZUGFeRD, XRechnung).")
    var noEmbeddedInvoice = false

    @Option(
        help:
            "Document camera on photos: auto (flatten a page that stands out from its background), on (whenever a page is found) or off."
    )
    var camera: CameraMode = .auto

    @Flag(name: .customLong("no-light"), help: "Don't even the light of a flattened photo.")
    var noLight = false

    @Flag(name: .customLong("no-orientation"), help: "Don't detect 90/180/270° page rotation (Tesseract's check; PP-OCR still reads turned lines upright).")
    var noOrientation = false

    @Flag(name: .customLong("no-deskew"), help: "Don't straighten slightly rotated pages.")
    var noDeskew = false

    @Option(
        name: .customLong("psm"),
        help: "Tesseract page segmentation: 3 (automatic layout), 4 (one column: receipts) or 11 (sparse text).")
    var psm: Int32 = TesseractRecognizer.Segmentation.singleColumn.rawValue

    @Option(help: "Resolution for rendering PDF pages that have no text layer.")
    var dpi: Double = 300

    @Option(name: .customLong("max-pixels"), help: "Refuse pages larger than this many pixels.")
    var maxPixels: Int = 150_000_000
    @Option(name: .customLong("max-pages"), help: "Refuse documents with more pages than this.")
    var maxPages: Int = 1000

    @Option(help: "Output format: json, jsonl, text, csv (receipt items, card contacts) or vcard (business cards).")
    var format: String = OutputFormat.json.rawValue

    @Option(
        name: .customLong("type"),
        help: "Parse every input as receipt, businessCard or other instead of classifying it.")
    var documentType: String?

    @Option(
        name: .customLong("handwriting"),
        help:
            "Which lines to decode as handwriting with the word list of --handwriting-language (PP-OCR only): auto (those a learned judge finds handwritten), on (all; `--handwriting` alone), off."
    )
    var handwriting: HandwritingMode = .standard

    @Option(
        name: .customLong("handwriting-language"),
        help: "The word list's language for --handwriting (BCP-47; see `scanextract models list`).")
    var handwritingLanguage = "en-US"

    @Option(
        name: .customLong("word-lists"),
        help:
            "Word lists PP-OCR reads its doubtful printed words against (`Subtotai` -> `Subtotal`): auto (English and Indonesian from /usr/share, with the receipt words of the locale files), off, or files (one word a line, or Hunspell .dic) separated by commas."
    )
    var wordLists = "auto"

    @Option(
        name: [.short, .customLong("output-dir")],
        help: "Write <name>.json (.txt, .csv or .vcf by --format) files into this folder instead of stdout.")
    var outputDir: String?

    @Flag(
        name: .customLong("no-resume"),
        help: "With --output-dir, redo every input, even those an earlier run finished (see the folder's manifest).")
    var noResume = false

    // ArgumentParser prints the default itself (the cores of the machine it runs on).
    @Option(name: .shortAndLong, help: "Documents processed in parallel (all cores unless given).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Flag(name: .shortAndLong, help: "No progress bar and no notes; errors and lost or damaged pages are still said.")
    var quiet = false

    /// Warnings of a document that lost part of itself: printed on stderr as well as written in its JSON.
    static let damageCodes: Set<String> = ["page-damaged", "page-failed", "pages-missing"]

    @Flag(
        name: .shortAndLong,
        help:
            "List every file skipped (in folders: not an image, PDF or JSON document; with --output-dir: finished by an earlier run), one a line on stderr."
    )
    var verbose = false

    /// The options that shape the configuration, in the form the service shares.
    var options: ScanOptions {
        var o = ScanOptions()
        o.engine = engine
        o.languages = languages
        o.level = level
        o.customWords = customWords
        o.minTextHeight = minTextHeight
        o.region = region
        o.candidates = candidates
        o.country = country
        o.referenceDate = referenceDate
        o.noEntities = noEntities
        o.forceOCR = forceOCR
        o.noEmbeddedInvoice = noEmbeddedInvoice
        o.camera = camera
        o.noLight = noLight
        o.noOrientation = noOrientation
        o.noDeskew = noDeskew
        o.psm = psm
        o.dpi = dpi
        o.maxPixels = maxPixels
        o.maxPages = maxPages
        o.documentType = documentType
        o.handwriting = handwriting
        o.handwritingLanguage = handwritingLanguage
        o.wordLists = wordLists
        return o
    }

    func validate() throws {
        do {
            try options.validate()
        } catch let e as ScanError {
            throw ValidationError(e.reason)
        }
        guard OutputFormat(rawValue: format) != nil else {
            throw ValidationError("--format must be json, jsonl, text, csv or vcard")
        }
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
    }

    func makeConfiguration() throws -> ScanConfiguration {
        // Documents run in parallel; each engine gets the cores left over.
        try options.makeConfiguration(engineThreads: ProcessInfo.processInfo.activeProcessorCount / max(1, jobs))
    }

    func run() throws {
        var config = try makeConfiguration()
        // `auto` without PP-OCR reads with Tesseract, which reads receipts and photos much less well: said once.
        if !quiet, engine == "auto", config.engine == .tesseract, case .failure(let missing) = PPOCRModels.locate() {
            printError("note: reading with Tesseract, because PP-OCR is not installed: \(missing.reason)")
        }
        let fmt = OutputFormat(rawValue: format)!
        if let outputDir {
            do {
                try FileManager.default.createDirectory(atPath: outputDir, withIntermediateDirectories: true)
            } catch {
                var isFolder: ObjCBool = false
                let why =
                    FileManager.default.fileExists(atPath: outputDir, isDirectory: &isFolder) && !isFolder.boolValue
                    ? "a file of that name exists (it is left as it is)" : (error as NSError).localizedDescription
                printError("\(outputDir): cannot create the output folder: \(why)")
                throw ExitCode(ExitStatus.cannotWrite)
            }
        }
        let expansion = InputExpansion.expand(inputs, excluding: outputDir)
        // A folder that cannot be read is an input that failed: its files are not silently left out.
        for error in expansion.unreadable { printError(error.description) }
        let unreadableFolders = expansion.unreadable.count
        if verbose {
            for (path, reason) in expansion.notWalked { printError("\(path): skipped, \(reason)") }
            for file in expansion.skipped { printError("\(file): skipped, not an image, PDF or JSON document") }
        } else if !expansion.skipped.isEmpty {
            printError(
                "skipped \(expansion.skipped.count) file(s) in folders that are not images, PDFs or JSON documents (first: \(expansion.skipped[0]))"
            )
        }
        var files = expansion.files
        guard !files.isEmpty else {
            // An input folder that is the output folder (or inside it) is not read: its files are outputs.
            let out = outputDir.map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().standardizedFileURL.path }
            let insideOutput = inputs.filter { input in
                let p = URL(fileURLWithPath: input).resolvingSymlinksInPath().standardizedFileURL.path
                return out.map { p == $0 || p.hasPrefix($0 + "/") } ?? false
            }
            if !insideOutput.isEmpty {
                printError(
                    "no input files found: \(insideOutput.joined(separator: ", ")) is the output folder, whose files are not read"
                )
                throw ExitCode(ExitStatus.allFailed)
            }
            if unreadableFolders == 0 {
                let skipped = expansion.skipped.isEmpty ? "" : ", only files that are not documents"
                printError("no input files found in \(inputs.joined(separator: ", "))\(skipped)")
            }
            throw ExitCode(ExitStatus.allFailed)
        }
        // With an output folder, the inputs an earlier run finished (same content, same options,
        // output still as written) are skipped; the others get their file names now.
        var outputs: FolderOutputs?
        if let outputDir {
            do {
                let plan = try FolderOutputs(
                    directory: outputDir, fileExtension: fmt.fileExtension,
                    optionsKey: OutputManifest.optionsKey(config, format: fmt),
                    inputs: files, resume: !noResume)
                for note in plan.notes { printError(note) }
                if verbose {
                    for done in plan.finished {
                        printError("\(done.input): already done (\(done.output ?? "nothing to write")), skipped")
                    }
                }
                files = plan.pending
                outputs = plan
            } catch let e as ScanError {
                printError(e.description)
                throw ExitCode(ExitStatus.cannotWrite)
            }
        }
        let skipped = outputs?.finished.count ?? 0
        // Fewer files than workers: the cores left idle go to each engine instead.
        config.engineThreads = max(1, ProcessInfo.processInfo.activeProcessorCount / max(1, min(jobs, files.count)))

        let cancellation = CancellationToken()
        let signals = InterruptHandler(cancellation: cancellation)
        defer { signals.stop() }

        let progress = ProgressBar(total: files.count, enabled: !quiet && isatty(STDERR_FILENO) != 0)
        let toStdoutAsLines = outputDir == nil && files.count > 1
        var csv = CSVStream()
        var failed = 0, written = 0, cancelled = 0
        // Read, but with nothing to write in the format asked for (`--format vcard` and no business card).
        var nothingToWrite = 0
        // Written, but with pages refused, missing or damaged.
        var lostPages = 0
        var engineMissing = false, writeFailed = false

        let runner: BatchRunner
        do {
            runner = try BatchRunner(configuration: config, jobs: jobs, cancellation: cancellation)
        } catch let e as ScanError {
            throw ValidationError(e.reason)
        }
        // Encoding an output and writing it to disk happen on the worker that made the document;
        // the delivering thread only puts finished files in place, many at a time.
        let encodeAs: OutputFormat = outputs == nil && toStdoutAsLines && fmt == .json ? .jsonl : fmt
        let encodesOnWorker = !(outputs == nil && fmt == .csv && toStdoutAsLines)
        let banner = outputs == nil && toStdoutAsLines && fmt == .text
        let finish: @Sendable (String, Document) throws -> Finished = { [outputs] file, doc in
            guard encodesOnWorker else { return Finished(document: doc) }
            // A vCard is a card's: no empty file or output for another document (the delivery says why). In a folder,
            // the manifest records that the input gave nothing, so that a resumed run does not read it again.
            if encodeAs == .vcard && doc.businessCard == nil {
                return Finished(document: doc, noVCard: true, staged: outputs?.stageNothing(for: file))
            }
            var data = Data()
            if banner { data.append(Data("==> \(file) <==\n".utf8)) }
            do {
                data.append(try DocumentWriter.encode(doc, as: encodeAs))
            } catch {
                throw ScanError(.output, file: file, "its \(encodeAs.rawValue) output cannot be made (\(error))")
            }
            guard let outputs else { return Finished(document: doc, encoded: data) }
            return Finished(document: doc, staged: try outputs.stage(data, for: file))
        }
        // Standard output that cannot take more (a full disk, a closed file) ends the run: what is still to come
        // could go nowhere.
        var outputLost = false
        func toStandardOutput(_ data: Data) -> Bool {
            guard !outputLost else { return false }
            do {
                try StandardOutput.write(data)
                return true
            } catch {
                outputLost = true
                progress.clear()
                printError("\(error)")
                cancellation.cancel()
                return false
            }
        }
        func placed(_ flushed: FolderOutputs.FlushResult) {
            written += flushed.written.count
            for failure in flushed.failures {
                writeFailed = true
                failed += 1
                progress.clear()
                printError(failure.description)
            }
        }
        runner.run(
            files, finish: finish,
            deliver: { index, file, result in
                if outputLost { return }
                progress.update(done: index + 1, current: file)
                switch result {
                case .success(let finished):
                    // Pages lost or damaged inside a document that was read: said on stderr too, naming file and page,
                    // even with --quiet, and the run's status says that not everything was read.
                    let damage = finished.document.warnings.filter { Self.damageCodes.contains($0.code) }
                    if !damage.isEmpty { lostPages += 1 }
                    for w in damage {
                        progress.clear()
                        printError("\(file)\(w.page.map { " (page \($0 + 1))" } ?? ""): \(w.message) [\(w.code)]")
                    }
                    // A document without any text is likely a wrong file or an empty scan: a note, not a failure.
                    if !quiet, !finished.document.pages.isEmpty,
                        finished.document.pages.allSatisfy({ $0.observations.isEmpty })
                    {
                        progress.clear()
                        printError("\(file): no text was found on any page [no-text]")
                    }
                    if finished.noVCard {
                        let label = finished.document.documentType?.label.rawValue ?? "a document"
                        if !quiet { printError("\(file): read as \(label), not a business card; no vCard") }
                        nothingToWrite += 1
                        if let staged = finished.staged { placed(outputs!.commit(staged)) }
                    } else if let staged = finished.staged {
                        placed(outputs!.commit(staged))
                    } else if let data = finished.encoded {
                        progress.clear()
                        guard toStandardOutput(data) else { return }
                        written += 1
                    } else {
                        // One CSV for the whole run: one header, then every document's rows.
                        let outcome = csv.append(finished.document)
                        switch outcome {
                        case .rows(let data, _):
                            progress.clear()
                            guard toStandardOutput(data) else { return }
                        case .nothing:
                            if !quiet { printError("\(file): \(outcome.whyNoRows ?? ""); no CSV rows") }
                        case .otherTable:
                            printError("\(file): \(outcome.whyNoRows ?? ""); left out")
                        }
                        written += 1
                    }
                case .failure(let e):
                    if e.code == .cancelled { cancelled += 1; return }
                    failed += 1
                    if e.code == .engine { engineMissing = true }
                    if e.code == .output { writeFailed = true }
                    progress.clear()
                    printError(e.description)
                }
            },
            waiting: {
                if let outputs { placed(outputs.flush()) }
            })
        progress.finish()
        // A run's CSV on stdout where no document gave rows is still a CSV: the receipts header, as one such file and
        // the service's batch give (an empty file is no table to a spreadsheet or pandas).
        if !encodesOnWorker, csv.table == nil, !outputLost, !cancellation.isCancelled {
            _ = toStandardOutput(Data((CSVWriter.receiptColumns.joined(separator: ",") + "\r\n").utf8))
        }

        if outputLost { throw ExitCode(ExitStatus.cannotWrite) }
        if cancellation.isCancelled {
            let earlier = skipped > 0 ? ", \(skipped) finished earlier" : ""
            printError("interrupted: \(written) document(s) written, \(cancelled) not finished\(earlier)")
            throw ExitCode(ExitStatus.interrupted)
        }
        failed += unreadableFolders
        if failed > 0 && !quiet {
            let folders = unreadableFolders > 0 ? " (\(unreadableFolders) of them folders that cannot be read)" : ""
            printError(
                "\(written + nothingToWrite) of \(files.count + unreadableFolders) input(s) processed, \(failed) failed"
                    + folders)
        }
        if skipped > 0 && !quiet {
            printError(
                "\(skipped) input(s) skipped, finished by an earlier run into \(outputDir ?? "")"
                    + " (--no-resume redoes them); \(written) written now"
                    + (nothingToWrite > 0 ? ", \(nothingToWrite) read again with nothing to write" : ""))
        }
        if written + nothingToWrite + skipped == 0 {
            throw ExitCode(
                engineMissing
                    ? ExitStatus.engineUnavailable : writeFailed ? ExitStatus.cannotWrite : ExitStatus.allFailed)
        }
        if lostPages > 0 && !quiet {
            printError("\(lostPages) input(s) written with pages refused, missing or damaged (see above)")
        }
        if failed > 0 { throw ExitCode(writeFailed ? ExitStatus.cannotWrite : ExitStatus.someFailed) }
        if lostPages > 0 { throw ExitCode(ExitStatus.someFailed) }
    }
}

/// What a worker hands back for one document: the document, and its output encoded (for stdout)
/// or already written under a temporary name (for an output folder).
struct Finished: Sendable {
    var document: Document
    var encoded: Data?
    /// `--format vcard` and the document is no business card: nothing is written for it.
    var noVCard = false
    var staged: FolderOutputs.Staged?
}

/// Standard output, written so that a full disk or a closed file is an error that says so, not a crash.
enum StandardOutput {
    static func write(_ data: Data) throws {
        do {
            try FileHandle.standardOutput.write(contentsOf: data)
        } catch {
            throw ScanError(.output, file: "standard output", "cannot be written: \(ScanError.systemReason(error))")
        }
    }
}

func printError(_ message: String) {
    FileHandle.standardError.write(Data("scanextract: \(message)\n".utf8))
}

/// Turns the first Ctrl-C (or SIGTERM) into a clean cancellation; a second one exits at once.
final class InterruptHandler: @unchecked Sendable {
    private var sources: [DispatchSourceSignal] = []
    private var count = 0

    init(cancellation: CancellationToken) {
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let s = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            s.setEventHandler { [weak self] in
                guard let self else { return }
                self.count += 1
                if self.count > 1 { _exit(ExitStatus.interrupted) }
                FileHandle.standardError.write(
                    Data("\nscanextract: stopping after the current pages (Ctrl-C again to quit now)\n".utf8))
                cancellation.cancel()
            }
            s.resume()
            sources.append(s)
        }
    }

    func stop() {
        sources.forEach { $0.cancel() }
    }
}

/// A one-line progress bar on stderr, drawn only on a terminal.
final class ProgressBar {
    let total: Int
    let enabled: Bool
    private var drawn = false
    private let start = Date()

    init(total: Int, enabled: Bool) {
        self.total = total
        self.enabled = enabled
    }

    func update(done: Int, current: String) {
        guard enabled else { return }
        let width = 30
        let filled = total > 0 ? width * done / total : width
        let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
        let elapsed = Date().timeIntervalSince(start)
        let eta = done > 0 ? elapsed / Double(done) * Double(total - done) : 0
        let name = URL(fileURLWithPath: current).lastPathComponent
        let line = "\r\u{1B}[K\(bar) \(done)/\(total)  eta \(Int(eta))s  \(name.prefix(40))"
        FileHandle.standardError.write(Data(line.utf8))
        drawn = true
    }

    func clear() {
        guard enabled, drawn else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
        drawn = false
    }

    func finish() { clear() }
}
