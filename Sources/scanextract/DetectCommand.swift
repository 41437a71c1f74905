import ArgumentParser
import Foundation
import ScanKit
import ScanDetectors
import ScanModel

/// `scanextract detect`: finds entities in text given as an argument, on stdin, or as
/// JSON Lines (`--jsonl`), and prints `{"entities": [...]}`.
struct DetectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "detect",
        abstract: "Find phone numbers, e-mails, URLs, dates, amounts and more in text.",
        discussion: """
        Reads TEXT, or stdin when TEXT is absent, and prints {"entities": [...]}. \
        With --jsonl, each input line is a JSON object {"text": ..., "region": ...} or a JSON \
        string, and each output line is {"entities": [...]} for it, in the same order. A blank \
        line gives {"entities": []}. A line that cannot be read gives {"entities": []} and an \
        error on stderr; the exit status is then 1 at the end. Ranges are in Unicode scalars.
        """)

    // One value an option (`--types date,phone` or `--types date --types phone`), so the text after it stays the text.
    @Option(
        name: .long, parsing: .singleValue,
        help:
            "Entity types to report (comma separated; may be repeated): \(EntityType.allCases.map(\.rawValue).joined(separator: ", "))."
    )
    var types: [String] = []

    @Option(name: .long, help: "Default region, ISO 3166-1 alpha-2 (e.g. US, GB, DE).")
    var region: String?

    @Option(
        name: .customLong("reference-date"), help: "Reference date yyyy-mm-dd for two-digit years (default: today).")
    var referenceDate: String?

    @Flag(name: .long, help: "Read JSON Lines on stdin and write one JSON line per input line.")
    var jsonl = false

    @Argument(help: "The text to scan (default: stdin).")
    var text: String?

    func validate() throws {
        if let r = region, !DataDetector.isValidRegion(r) {
            throw ValidationError("invalid --region '\(r)': expected a two-letter ISO 3166-1 code such as US, GB or DE")
        }
        if let d = referenceDate, CalendarDay(iso: d) == nil {
            throw ValidationError("invalid --reference-date '\(d)': expected yyyy-mm-dd")
        }
        _ = try parsedTypes()
    }

    private func parsedTypes() throws -> Set<EntityType> {
        let names = types.flatMap { $0.split(whereSeparator: { $0 == "," || $0 == " " }) }.map(String.init)
        if names.isEmpty { return Set(EntityType.allCases) }
        var out = Set<EntityType>()
        for n in names {
            guard let t = EntityType(rawValue: n) else {
                throw ValidationError(
                    "unknown type '\(n)'; known: \(EntityType.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            out.insert(t)
        }
        return out
    }

    private struct Output: Encodable { var entities: [Entity] }

    /// Writes to standard output; one that cannot take it (a full disk) ends the command with status 73.
    private func standardOutput(_ data: Data) throws {
        do {
            try StandardOutput.write(data)
        } catch {
            printError("\(error)")
            throw ExitCode(ExitStatus.cannotWrite)
        }
    }

    func run() throws {
        let typeSet = try parsedTypes()
        let ref = referenceDate.flatMap(CalendarDay.init(iso:))
        let base = try DataDetector(types: typeSet, region: region, referenceDate: ref)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        if !jsonl {
            var input = text ?? ""
            if text == nil {
                do {
                    input = String(decoding: try BoundedInput.whole(STDIN_FILENO), as: UTF8.self)
                } catch {
                    printError("stdin: \(error)")
                    throw ExitCode(ExitStatus.allFailed)
                }
            }
            let data = try encoder.encode(Output(entities: base.detect(in: input)))
            try standardOutput(data + Data([0x0A]))
            return
        }
        var failed = 0
        var lineNo = 0
        var out = Data()
        var detectors: [String: DataDetector] = [:]
        // A blank line is the empty text: its line of output keeps the lines paired with the input's.
        func found(in line: String) throws -> [Entity] {
            if line.allSatisfy(\.isWhitespace) { return [] }
            let (txt, reg) = try Self.parseLine(line)
            guard let r = reg, !r.isEmpty else { return base.detect(in: txt) }
            guard DataDetector.isValidRegion(r) else {
                throw DetectorError(code: "invalid-region", message: "invalid region '\(r)'")
            }
            if detectors[r.uppercased()] == nil {
                detectors[r.uppercased()] = try DataDetector(
                    types: typeSet, region: r, referenceDate: base.referenceDate)
            }
            return detectors[r.uppercased()]!.detect(in: txt)
        }
        for line in BoundedInput.Lines(STDIN_FILENO) {
            lineNo += 1
            var entities: [Entity] = []
            do {
                var text = String(decoding: try line.get(), as: UTF8.self)
                if text.hasSuffix("\r") { text.removeLast() }
                entities = try found(in: text)
            } catch {
                failed += 1
                FileHandle.standardError.write(Data("scanextract detect: line \(lineNo): \(error)\n".utf8))
            }
            out.append(try encoder.encode(Output(entities: entities)))
            out.append(0x0A)
            if out.count > 1 << 16 { try standardOutput(out); out.removeAll(keepingCapacity: true) }
        }
        try standardOutput(out)
        if failed > 0 { throw ExitCode(ExitStatus.someFailed) }
    }

    private struct LineError: Error, CustomStringConvertible {
        var description: String
    }

    /// A JSON object with "text" (and optional "region"), or a JSON string.
    static func parseLine(_ line: String) throws -> (String, String?) {
        let obj: Any
        do {
            obj = try JSONSerialization.jsonObject(with: Data(line.utf8), options: [.fragmentsAllowed])
        } catch {
            throw LineError(description: "not valid JSON")
        }
        if let s = obj as? String { return (s, nil) }
        guard let d = obj as? [String: Any], let t = d["text"] as? String else {
            throw LineError(description: "expected a JSON string or an object with a \"text\" string")
        }
        if let r = d["region"], !(r is NSNull) {
            guard let rs = r as? String else { throw LineError(description: "\"region\" must be a string") }
            return (t, rs)
        }
        return (t, nil)
    }
}
