import ArgumentParser
import Foundation
import ScanExport
import ScanInk
import ScanInput
import ScanModel

/// `scanextract ink`: handwriting given as digital ink (strokes) -> ranked text candidates.
struct InkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ink",
        abstract: "Recognize handwriting given as digital ink (strokes): ranked text candidates.",
        discussion: """
        Each FILE (or stdin when there is none) is an Ink JSON document (Schemas/ink.schema.json), \
        a UNIPEN file or an InkML file; these give one result line per labelled segment (UNIPEN \
        .SEGMENT, InkML traceGroup with a truth annotation), or one for all their strokes. An Ink \
        JSON document is \
        {"strokes": [{"points": [{"x": .., "y": .., "t": ..}, ...]}], "writingArea": {...}, \
        "preContext": "...", "language": "en-US", "charset": "0123456789"}. The output is one line \
        {"candidates": [{"text": .., "score": ..}, ...], "language": .., "model": {..}} per ink, \
        best first (Schemas/ink-result.schema.json). With --jsonl, each input line is an Ink and \
        each output line its result, in the same order; a line that cannot be read (or a blank \
        one) gives {"error": {...}} on its line and a message naming the line on stderr, and the exit status \
        is then 1. --render writes the image the recognizer reads.
        """)

    @Option(
        name: .long,
        help: "Language of the word list (en-US, en-GB, fr-FR, de-DE, es-ES, it-IT); the ink's own `language` wins.")
    var language: String = "en-US"

    @Option(name: .long, help: "Number of candidates to return.")
    var candidates: Int = 5

    @Option(name: .long, help: "Restrict candidates to these characters (e.g. 0123456789+-/).")
    var charset: String?

    @Flag(name: .long, help: "Read JSON Lines: one Ink a line, one result a line.")
    var jsonl = false

    @Flag(
        name: .long,
        help:
            "Classify the ink as a shape (line, arrow, rectangle, ellipse, triangle, star, check mark, or not a shape) instead of reading text."
    )
    var shapes = false

    @Flag(name: .long, help: "Write the rendered ink as PNG (to -o) instead of recognizing it.")
    var render = false

    @Option(name: [.short, .customLong("output")], help: "Output PNG path for --render.")
    var output: String?

    @Flag(name: .customLong("force"), help: "With --render, replace the PNG when it exists (never an input).")
    var force = false

    @Argument(help: "Ink JSON, UNIPEN or InkML files (default: stdin).")
    var files: [String] = []

    /// The options as the library takes them; the service's `POST /v1/ink` checks the same ones.
    var options: InkOptions {
        var options = InkOptions()
        options.language = language
        options.candidates = candidates
        options.charset = charset
        options.shapes = shapes
        return options
    }

    func validate() throws {
        if render && output == nil { throw ValidationError("--render needs -o FILE.png") }
        // Only a rendering writes to `-o` (recognition and `--shapes` write to stdout).
        if let output, render, !shapes {
            try OutputFileRule.check(output, inputs: files, force: force) { input in
                "\(output) is the input \(input) itself; give another file to write the PNG to"
            }
            if files.count > 1 { throw ValidationError("--render draws one ink file; \(files.count) were given") }
        }
        do { try options.validate() } catch let e as ScanError { throw ValidationError(e.reason) }
    }

    struct ErrorLine: Encodable {
        struct Body: Encodable { var code: String; var message: String; var line: Int? }
        var error: Body
        var source: InkSource?
    }

    func run() throws {
        let options = self.options
        let reader = InkReader()
        // The engine is loaded before any input is read: a missing one is exit 69, not a failed input.
        if !shapes {
            do {
                _ = try reader.recognizer(for: options)
            } catch let e as ScanError {
                FileHandle.standardError.write("scanextract: \(e.reason)\n".data(using: .utf8)!)
                throw ExitCode(ExitStatus.forCode(e.code))
            }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var failures = 0, total = 0
        // A word list or model that is not installed (an ink's own language): status 69 when nothing was read.
        var engineMissing = false

        /// Written to stderr; also to stdout as an error line where the output pairs lines with inputs: a line of
        /// `--jsonl`, or a segment of a UNIPEN or InkML file (`source` names it).
        func fail(_ where_: String, line: Int?, source: InkSource? = nil, _ error: Error) {
            failures += 1
            let (code, reason): (String, String)
            switch error {
            case let e as ScanError:
                (code, reason) = (e.code.rawValue, e.reason)
                if e.code == .engine { engineMissing = true }
            case let e as DecodingError: (code, reason) = ("corrupt", InkJSON.describe(e))
            default: (code, reason) = ("corrupt", "\(error)")
            }
            FileHandle.standardError.write("scanextract: \(where_): \(reason) [\(code)]\n".data(using: .utf8)!)
            let body = ErrorLine.Body(code: code, message: reason, line: line)
            if jsonl || source?.segment != nil, let data = try? encoder.encode(ErrorLine(error: body, source: source)) {
                print(String(decoding: data, as: UTF8.self))
            }
        }

        /// `file`: the name of the file the data is (nil for stdin and for a line of `--jsonl`), for the results'
        /// `source`.
        func handle(_ data: Data, where_: String, line: Int?, file: String?) {
            total += 1
            do {
                // A UNIPEN or InkML file: one result per labelled segment, each failing alone.
                let imported = jsonl ? nil : InkImport.format(of: data).flatMap { $0 == .json ? nil : $0 }
                let items = try imported.map { try InkImport.items(data, format: $0) }
                if let items, !(render && !shapes) {
                    total += items.count - 1
                    for (n, item) in items.enumerated() {
                        let source = InkSource(file: file ?? where_, segment: n + 1, label: item.label)
                        do {
                            if let problem = item.problem { throw problem }
                            let answer = try reader.answer(ink: item.ink, options: options, source: source)
                            print(String(decoding: answer, as: UTF8.self))
                        } catch {
                            fail("\(where_) segment \(n + 1)\(item.label.map { " (\($0))" } ?? "")", line: nil,
                                 source: source, error)
                        }
                    }
                    return
                }
                if render && !shapes {
                    let inks = try items.map { $0.map(\.ink) } ?? [InkJSON.decode(data)]
                    guard inks.count == 1, let ink = inks.first else {
                        throw ScanError(.invalidOption, "--render draws one ink, and this file holds \(inks.count)")
                    }
                    try ink.validate()
                    guard let png = encodePNG(try reader.recognizer(for: options).render(ink, charset: charset)) else {
                        throw ScanError(.output, "could not encode the rendering as PNG")
                    }
                    try AtomicFile.write(Data(png), to: output!)
                    return
                }
                let answer = try reader.answer(data, options: options, source: file.map { InkSource(file: $0) })
                print(String(decoding: answer, as: UTF8.self))
            } catch {
                fail(where_, line: line, error)
            }
        }

        // Each input is read with a ceiling (`BoundedInput`); JSON Lines one line at a time.
        for name in files.isEmpty ? ["<stdin>"] : files {
            if jsonl {
                let fd: Int32
                do {
                    fd = files.isEmpty ? STDIN_FILENO : try BoundedInput.openFile(name).fd
                } catch let why as BoundedInput.Failure {
                    total += 1
                    fail(name, line: nil, why.scanError)
                    continue
                }
                defer { if fd != STDIN_FILENO { close(fd) } }
                var lineNumber = 0
                for line in BoundedInput.Lines(fd) {
                    lineNumber += 1
                    let where_ = "\(name) line \(lineNumber)"
                    switch line {
                    case .failure(let why):
                        total += 1
                        fail(where_, line: lineNumber, why.scanError)
                    // A blank line gets its error line too, so that the output's lines stay paired with the input's.
                    case .success(let data) where String(decoding: data, as: UTF8.self)
                        .trimmingCharacters(in: .whitespacesAndNewlines).isEmpty:
                        total += 1
                        fail(where_, line: lineNumber, ScanError(.empty, "a blank line, no ink"))
                    case .success(let data):
                        handle(data, where_: where_, line: lineNumber, file: nil)
                    }
                }
            } else {
                let data: Data
                do {
                    data = try files.isEmpty ? BoundedInput.whole(STDIN_FILENO) : BoundedInput.file(name)
                } catch let why as BoundedInput.Failure {
                    total += 1
                    fail(name, line: nil, why.scanError)
                    continue
                }
                handle(data, where_: name, line: nil, file: files.isEmpty ? nil : name)
            }
        }
        if failures > 0 && failures == total {
            throw ExitCode(engineMissing ? ExitStatus.engineUnavailable : ExitStatus.allFailed)
        }
        if failures > 0 { throw ExitCode(ExitStatus.someFailed) }
    }
}
