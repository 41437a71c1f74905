import ArgumentParser
import Foundation
import ScanInk
import ScanModel

/// `scanextract ink`: handwriting given as digital ink (strokes) -> ranked text candidates.
struct InkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ink",
        abstract: "Recognize handwriting given as digital ink (strokes): ranked text candidates.",
        discussion: """
        Each FILE (or stdin when there is none) is an Ink JSON document (Schemas/ink.schema.json):
        {"strokes": [{"points": [{"x": .., "y": .., "t": ..}, ...]}], "writingArea": {...},
        "preContext": "...", "language": "en-US", "charset": "0123456789"}. The output is one line
        {"candidates": [{"text": .., "score": ..}, ...], "language": .., "model": {..}} per ink,
        best first (Schemas/ink-result.schema.json). With --jsonl, each input line is an Ink and
        each output line its result, in the same order; a line that cannot be read gives
        {"error": {...}} on its line and a message naming the line on stderr, and the exit status
        is then 1. --render writes the image the recognizer reads.
        """)

    @Option(name: .long, help: "Language of the word list (en-US, en-GB, fr-FR, de-DE, es-ES, it-IT); the ink's own `language` wins.")
    var language: String = "en-US"

    @Option(name: .long, help: "Number of candidates to return.")
    var candidates: Int = 5

    @Option(name: .long, help: "Restrict candidates to these characters (e.g. 0123456789+-/).")
    var charset: String?

    @Flag(name: .long, help: "Read JSON Lines: one Ink a line, one result a line.")
    var jsonl = false

    @Flag(name: .long, help: "Classify the ink as a shape (line, arrow, rectangle, ellipse, triangle, star, check mark, or not a shape) instead of reading text.")
    var shapes = false

    @Flag(name: .long, help: "Write the rendered ink as PNG (to -o) instead of recognizing it.")
    var render = false

    @Option(name: [.short, .customLong("output")], help: "Output PNG path for --render.")
    var output: String?

    @Argument(help: "Ink JSON files (default: stdin).")
    var files: [String] = []

    func validate() throws {
        guard candidates >= 1 && candidates <= 100 else { throw ValidationError("--candidates must be between 1 and 100") }
        if render && output == nil { throw ValidationError("--render needs -o FILE.png") }
        if let c = charset, c.isEmpty { throw ValidationError("--charset needs at least one character") }
        do { _ = try InkModel.forLanguage(language) } catch let e as ScanError { throw ValidationError(e.reason) }
    }

    struct ErrorLine: Encodable {
        struct Body: Encodable { var code: String; var message: String; var line: Int? }
        var error: Body
    }

    struct ShapesLine: Encodable {
        var schemaVersion = "2.0.0"
        var shapes: [ShapeCandidate]
    }

    func run() throws {
        var options = InkRecognizer.Options()
        options.candidateCount = candidates
        var recognizer: InkRecognizer?
        if !shapes {
            do {
                recognizer = try InkRecognizer(language: language, options: options)
            } catch let e as ScanError {
                FileHandle.standardError.write("scanextract: \(e.reason)\n".data(using: .utf8)!)
                throw ExitCode(ExitStatus.engineUnavailable)
            }
        }
        let shapeRecognizer = shapes ? ShapeRecognizer() : nil
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let decoder = JSONDecoder()
        var failures = 0, total = 0
        let context = InkContext(charset: charset)

        func fail(_ where_: String, line: Int?, _ error: Error) {
            failures += 1
            let (code, reason): (String, String)
            switch error {
            case let e as ScanError: (code, reason) = (e.code.rawValue, e.reason)
            case let e as DecodingError: (code, reason) = ("corrupt", Self.describe(e))
            default: (code, reason) = ("corrupt", "\(error)")
            }
            FileHandle.standardError.write("scanextract: \(where_): \(reason) [\(code)]\n".data(using: .utf8)!)
            if jsonl, let data = try? encoder.encode(ErrorLine(error: .init(code: code, message: reason, line: line))) {
                print(String(decoding: data, as: UTF8.self))
            }
        }

        func handle(_ data: Data, where_: String, line: Int?) {
            total += 1
            do {
                let ink = try decoder.decode(Ink.self, from: data)
                if let shapeRecognizer {
                    try ink.validate()
                    let found = Array(shapeRecognizer.recognize(ink).prefix(candidates))
                    print(String(decoding: try encoder.encode(ShapesLine(shapes: found)), as: UTF8.self))
                    return
                }
                guard let recognizer else { return }
                if render {
                    try ink.validate()
                    let png = PNGWriter.encode(recognizer.render(ink))
                    try Data(png).write(to: URL(fileURLWithPath: output!), options: .atomic)
                    return
                }
                let result = try recognizer.recognize(ink: ink, context: context)
                print(String(decoding: try encoder.encode(result), as: UTF8.self))
            } catch {
                fail(where_, line: line, error)
            }
        }

        let sources: [(String, Data?)] = files.isEmpty
            ? [("<stdin>", FileHandle.standardInput.readDataToEndOfFile())]
            : files.map { ($0, FileManager.default.contents(atPath: $0)) }
        for (name, data) in sources {
            guard let data else { total += 1; fail(name, line: nil, ScanError(.unreadable, "cannot read the file")); continue }
            if jsonl {
                let text = String(decoding: data, as: UTF8.self)
                var lineNumber = 0
                for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                    lineNumber += 1
                    guard !line.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
                    handle(Data(line.utf8), where_: "\(name) line \(lineNumber)", line: lineNumber)
                }
            } else {
                handle(data, where_: name, line: nil)
            }
        }
        if failures > 0 { throw ExitCode(failures == total ? ExitStatus.allFailed : ExitStatus.someFailed) }
    }

    static func typeName(_ t: Any.Type) -> String {
        switch t {
        case is Double.Type, is Int.Type: return "a number"
        case is String.Type: return "a string"
        case is [Any].Type: return "an array"
        default: return "an object"
        }
    }

    /// A decoding error in words: which field, and what was wrong.
    static func describe(_ e: DecodingError) -> String {
        func path(_ c: [CodingKey]) -> String {
            c.isEmpty ? "the document" : c.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
                .trimmingCharacters(in: CharacterSet(charactersIn: "."))
        }
        switch e {
        case .dataCorrupted(let c): return "not valid JSON (\(c.debugDescription))"
        case .keyNotFound(let k, let c): return "\(path(c.codingPath + [k])) is missing"
        case .typeMismatch(let t, let c): return "\(path(c.codingPath)) should be \(Self.typeName(t))"
        case .valueNotFound(let t, let c): return "\(path(c.codingPath)) should be \(Self.typeName(t)), not null"
        @unknown default: return "\(e)"
        }
    }
}
