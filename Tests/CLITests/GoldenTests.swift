import Foundation
import TestSupport
import XCTest

/// Runs every file in `Samples/` through `scanextract` and compares each document with
/// its golden file in `Golden/` beside this file: text exactly, boxes within ±2 px,
/// confidences within ±0.03 (ONNX float noise), volatile fields (the engine's version)
/// left out. `SCANEXTRACT_RECORD_GOLDEN=1` re-records the files, and that run fails,
/// so that a recording is never committed by accident.
final class GoldenTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let goldenDir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    /// The binary sits beside the test bundle in the build folder.
    var binary: String {
        if let p = ProcessInfo.processInfo.environment["SCANEXTRACT_BIN"] { return p }
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        if url.lastPathComponent.hasSuffix(".xctest") { url = url.deletingLastPathComponent() }
        return url.appendingPathComponent("scanextract").path
    }

    func testSamplesMatchTheirGoldenFiles() throws {
        let out = Drawing.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: out) }
        // Relative paths, so that each document's `source` is "Samples/<file>" on any machine;
        // a fixed reference date, so that two-digit years don't move with the calendar.
        let p = Process()
        p.executableURL = URL(fileURLWithPath: binary)
        p.currentDirectoryURL = Self.root
        p.arguments = ["--quiet", "--jobs", "1", "--reference-date", "2024-06-01", "--output-dir", out, "Samples/"]
        let err = Pipe()
        p.standardError = err
        try p.run()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, stderr)

        let fm = FileManager.default
        let produced = try fm.contentsOfDirectory(atPath: out).filter { $0.hasSuffix(".json") }.sorted()
        let samples = try fm.contentsOfDirectory(atPath: Self.root.appendingPathComponent("Samples").path)
            .filter { !$0.hasPrefix(".") && $0 != "README.md" }
        XCTAssertEqual(produced.count, samples.count, "one document per sample: \(produced) for \(samples)")

        if ProcessInfo.processInfo.environment["SCANEXTRACT_RECORD_GOLDEN"] == "1" {
            try? fm.removeItem(at: Self.goldenDir)
            try fm.createDirectory(at: Self.goldenDir, withIntermediateDirectories: true)
            for name in produced {
                let doc = try Self.stable(Self.load(URL(fileURLWithPath: out).appendingPathComponent(name)))
                try Self.encode(doc).write(to: Self.goldenDir.appendingPathComponent(name))
            }
            XCTFail("re-recorded \(produced.count) golden files in \(Self.goldenDir.path); "
                    + "review them with git diff, then run again without SCANEXTRACT_RECORD_GOLDEN")
            return
        }

        let golden =
            (try? fm.contentsOfDirectory(atPath: Self.goldenDir.path))?.filter { $0.hasSuffix(".json") }.sorted() ?? []
        XCTAssertEqual(produced, golden, "every sample has a golden file and every golden file a sample; "
                       + "record them with SCANEXTRACT_RECORD_GOLDEN=1")
        for name in produced where golden.contains(name) {
            let expected = try Self.load(Self.goldenDir.appendingPathComponent(name))
            let actual = try Self.stable(Self.load(URL(fileURLWithPath: out).appendingPathComponent(name)))
            var differences: [String] = []
            Self.compare(expected, actual, path: "", context: .exact, into: &differences)
            XCTAssertTrue(differences.isEmpty, "\(name) differs from its golden file "
                          + "(SCANEXTRACT_RECORD_GOLDEN=1 re-records when the change is meant):\n"
                          + differences.prefix(25).joined(separator: "\n")
                          + (differences.count > 25 ? "\n... and \(differences.count - 25) more" : ""))
        }
    }

    func testComparisonToleratesFloatNoiseButNotOtherChanges() throws {
        func differences(_ expected: String, _ actual: String) throws -> [String] {
            let e = try JSONDecoder().decode(JSON.self, from: Data(expected.utf8))
            let a = try JSONDecoder().decode(JSON.self, from: Data(actual.utf8))
            var out: [String] = []
            Self.compare(e, a, path: "", context: .exact, into: &out)
            return out
        }
        let base = #"{"text": "TOTAL", "confidence": 0.91, "page": 0, "boundingBox": {"x": 10, "y": 20.5}, "ok": true}"#
        XCTAssertEqual(
            try differences(
                base,
                #"{"text": "TOTAL", "confidence": 0.93, "page": 0, "boundingBox": {"x": 11.9, "y": 19}, "ok": true}"#),
            [])
        XCTAssertEqual(
            try differences(
                base,
                #"{"text": "TOTAL", "confidence": 0.95, "page": 0, "boundingBox": {"x": 12.5, "y": 20.5}, "ok": true}"#),
            [".boundingBox.x: 12.5 instead of 10.0", ".confidence: 0.95 instead of 0.91"])
        XCTAssertEqual(
            try differences(
                base, #"{"text": "T0TAL", "confidence": 0.91, "page": 1, "boundingBox": {"x": 10, "y": 20.5}, "ok": 1}"#
            ),
            [#".ok: 1 instead of true"#, ".page: 1.0 instead of 0.0", #".text: "T0TAL" instead of "TOTAL""#])
        XCTAssertEqual(try differences("[1, 2]", "[1]"), [": 1 elements instead of 2"])
        let engine = try JSONDecoder().decode(
            JSON.self, from: Data(#"{"engine": {"name": "ppocr", "version": "1.2"}}"#.utf8))
        XCTAssertEqual(Self.stable(engine), .object(["engine": .object(["name": .string("ppocr")])]))
    }

    /// A JSON value, so that numbers, booleans and strings stay apart.
    enum JSON: Codable, Equatable {
        case null, bool(Bool), number(Double), string(String), array([JSON]), object([String: JSON])

        init(from decoder: Decoder) throws {
            let c = try decoder.singleValueContainer()
            if c.decodeNil() { self = .null }
            else if let b = try? c.decode(Bool.self) { self = .bool(b) }
            else if let n = try? c.decode(Double.self) { self = .number(n) }
            else if let s = try? c.decode(String.self) { self = .string(s) }
            else if let a = try? c.decode([JSON].self) { self = .array(a) }
            else { self = .object(try c.decode([String: JSON].self)) }
        }

        func encode(to encoder: Encoder) throws {
            var c = encoder.singleValueContainer()
            switch self {
            case .null: try c.encodeNil()
            case .bool(let b): try c.encode(b)
            case .number(let n): try c.encode(n)
            case .string(let s): try c.encode(s)
            case .array(let a): try c.encode(a)
            case .object(let o): try c.encode(o)
            }
        }
    }

    static func load(_ url: URL) throws -> JSON {
        try JSONDecoder().decode(JSON.self, from: Data(contentsOf: url))
    }

    static func encode(_ doc: JSON) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(doc) + [0x0A]
    }

    /// The document without what changes from machine to machine: the engine's version.
    static func stable(_ doc: JSON) -> JSON {
        guard case .object(var object) = doc else { return doc }
        if case .object(var engine)? = object["engine"] {
            engine["version"] = nil
            object["engine"] = .object(engine)
        }
        return .object(object)
    }

    enum Tolerance {
        case exact, pixels, confidence
        var allowed: Double {
            switch self {
            case .exact: return 1e-9
            case .pixels: return 2
            case .confidence: return 0.03
            }
        }
    }

    /// Walks both trees; numbers under a box (`boundingBox`, `quad`, `corners`) may move
    /// by 2 px, a `confidence` by 0.03; everything else must be equal.
    static func compare(_ expected: JSON, _ actual: JSON, path: String, context: Tolerance, into out: inout [String]) {
        switch (expected, actual) {
        case (.object(let e), .object(let a)):
            for key in Set(e.keys).union(a.keys).sorted() {
                let sub = path + "." + key
                guard let ev = e[key] else { out.append("\(sub): unexpected \(short(a[key]!))"); continue }
                guard let av = a[key] else { out.append("\(sub): missing (was \(short(ev)))"); continue }
                let tolerance: Tolerance = ["boundingBox", "quad", "corners"].contains(key) ? .pixels
                    : key == "confidence" ? .confidence : context
                compare(ev, av, path: sub, context: tolerance, into: &out)
            }
        case (.array(let e), .array(let a)):
            if e.count != a.count { out.append("\(path): \(a.count) elements instead of \(e.count)") }
            for (i, (ev, av)) in zip(e, a).enumerated() {
                compare(ev, av, path: "\(path)[\(i)]", context: context, into: &out)
            }
        case (.number(let e), .number(let a)):
            if abs(e - a) > context.allowed { out.append("\(path): \(a) instead of \(e)") }
        default:
            if expected != actual { out.append("\(path): \(short(actual)) instead of \(short(expected))") }
        }
    }

    static func short(_ value: JSON) -> String {
        let s = String(decoding: (try? JSONEncoder().encode(value)) ?? Data(), as: UTF8.self)
        return s.count > 80 ? String(s.prefix(77)) + "..." : s
    }
}
