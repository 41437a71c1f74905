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

        /// Written to stderr; also to stdout as an error line where the output pairs lines with inputs: a line of
        /// `--jsonl`, or a segment of a UNIPEN or InkML file (`source` names it).
        func fail(_ where_: String, line: Int?, source: InkSource? = nil, _ error: Error) {
            failures += 1
            let (code, reason): (String, String)
            switch error {
            case let e as ScanError: (code, reason) = (e.code.rawValue, e.reason)
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

        let sources: [(String, Data?)] = files.isEmpty
            ? [("<stdin>", FileHandle.standardInput.readDataToEndOfFile())]
            : files.map { ($0, FileManager.default.contents(atPath: $0)) }
        for (name, data) in sources {
            guard let data else {
                total += 1; fail(name, line: nil, ScanError(.unreadable, "cannot read the file")); continue
            }
            if jsonl {
                let text = String(decoding: data, as: UTF8.self)
                var lineNumber = 0
                var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
                if lines.last?.isEmpty == true { lines.removeLast() }  // the end of the last line
                for line in lines {
                    lineNumber += 1
                    // A blank line gets its error line too, so that the output's lines stay paired with the input's.
                    guard !line.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                        total += 1
                        fail("\(name) line \(lineNumber)", line: lineNumber, ScanError(.empty, "a blank line, no ink"))
                        continue
                    }
                    handle(Data(line.utf8), where_: "\(name) line \(lineNumber)", line: lineNumber, file: nil)
                }
            } else {
                handle(data, where_: name, line: nil, file: files.isEmpty ? nil : name)
            }
        }
        if failures > 0 { throw ExitCode(failures == total ? ExitStatus.allFailed : ExitStatus.someFailed) }
    }
}
