import Foundation
import TestSupport
import XCTest

/// Resumable folder runs: `--output-dir` keeps `.scanextract-manifest.jsonl`, and a re-run
/// skips what an earlier run finished (same input content, same options, output as written).
final class ResumeTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = Drawing.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    var binary: String {
        if let p = ProcessInfo.processInfo.environment["SCANEXTRACT_BIN"] { return p }
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        if url.lastPathComponent.hasSuffix(".xctest") { url = url.deletingLastPathComponent() }
        return url.appendingPathComponent("scanextract").path
    }

    struct Run { var status: Int32; var stderr: String }

    func run(_ args: [String]) throws -> Run {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: binary)
        p.arguments = args
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return Run(status: p.terminationStatus, stderr: String(decoding: e, as: UTF8.self))
    }

    func manifest(_ out: String) -> [[String: Any]] {
        let text = (try? String(contentsOfFile: out + "/.scanextract-manifest.jsonl", encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    func listing(_ out: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: out).sorted()
    }

    func skippedInputs(_ stderr: String) -> Set<String> {
        Set(stderr.split(separator: "\n").compactMap { line -> String? in
            guard let range = line.range(of: ": already done (") else { return nil }
            return String(line[line.index(line.startIndex, offsetBy: "scanextract: ".count)..<range.lowerBound])
        })
    }

    func testARunKilledWithSIGKILLResumesWithoutRedoingOrDuplicating() throws {
        // Scanned pages need OCR, so each input takes long enough to kill the run between two.
        let inputs = dir + "/in"
        try FileManager.default.createDirectory(atPath: inputs, withIntermediateDirectories: true)
        let count = 4
        for i in 0..<count {
            Drawing.writePDF([[DrawnLine("Scanned page number \(i) with some words", x: 72, y: 100, size: 14)]],
                             asImage: true, to: inputs + "/scan\(i).pdf")
        }
        let out = dir + "/out"
        let p = Process()
        p.executableURL = URL(fileURLWithPath: binary)
        p.arguments = ["-q", "-j", "1", "--output-dir", out, inputs]
        p.standardError = FileHandle.nullDevice
        try p.run()
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline && p.isRunning
                && ((try? listing(out)) ?? []).filter({ $0.hasSuffix(".json") }).count < 2 {
            usleep(10_000)
        }
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationReason, .uncaughtSignal, "killed, not finished")
        let before = try listing(out).filter { $0.hasSuffix(".json") }
        XCTAssertGreaterThanOrEqual(before.count, 2)
        XCTAssertLessThan(before.count, count, "killed partway")
        var written: [String: (Date, Data)] = [:]
        for name in before {
            let path = out + "/" + name
            let modified = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date)
            written[name] = (modified, try Data(contentsOf: URL(fileURLWithPath: path)))
        }

        let again = try run(["-j", "1", "--verbose", "--output-dir", out, inputs])
        XCTAssertEqual(again.status, 0, again.stderr)
        // Every output there before the kill is a finished one: skipped, and said so.
        XCTAssertEqual(
            skippedInputs(again.stderr),
            Set(before.map { inputs + "/" + $0.replacingOccurrences(of: ".json", with: ".pdf") }),
            again.stderr)
        XCTAssertTrue(again.stderr.contains("\(before.count) input(s) skipped"), again.stderr)
        let after = try listing(out)
        XCTAssertEqual(after, [".scanextract-manifest.jsonl"] + (0..<count).map { "scan\($0).json" }.sorted(),
                       "one output per input, none duplicated, no temporary file")
        for name in after where name.hasSuffix(".json") {
            let doc = try XCTUnwrap(
                JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/" + name)))
                    as? [String: Any], name)
            XCTAssertEqual(
                doc["source"] as? String, inputs + "/" + name.replacingOccurrences(of: ".json", with: ".pdf"))
        }
        for (name, (modified, data)) in written {
            let path = out + "/" + name
            XCTAssertEqual(
                try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date, modified,
                "\(name) not redone")
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), data)
        }
        // Every input has its line in the manifest.
        var latest: [String: [String: Any]] = [:]
        for entry in manifest(out) { latest[entry["source"] as? String ?? ""] = entry }
        XCTAssertEqual(latest.count, count)

        // Changed options, changed inputs and --no-resume: in the next test, on quick inputs.
    }

    /// Imported JSON documents: no OCR, so these runs are quick.
    func testChangedInputsOptionsNoResumeAndFilesThatAreNotOurs() throws {
        let inputs = dir + "/in"
        let out = dir + "/out"
        for folder in [inputs, out] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        func document(_ lines: [String]) throws -> Data {
            let observations = lines.enumerated().map { i, text -> [String: Any] in
                [
                    "text": text, "confidence": 0.99,
                    "boundingBox": ["x": 40, "y": 40 + i * 30, "width": 300, "height": 20]
                ]
            }
            return try JSONSerialization.data(withJSONObject: [
                "pages": [["width": 600, "height": 800, "observations": observations]]
            ])
        }
        try document(["CORNER SHOP", "Milk 1.20", "TOTAL 1.20"]).write(to: URL(fileURLWithPath: inputs + "/a.json"))
        try document(["Dr. Ada Byron", "ada@example.com"]).write(to: URL(fileURLWithPath: inputs + "/b.json"))
        // A file of the user's where a's output would go: kept, and a's output named around it.
        let mine = Data("my own notes\n".utf8)
        try mine.write(to: URL(fileURLWithPath: out + "/a.json"))

        let first = try run(["-q", "--output-dir", out, inputs])
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertTrue(first.stderr.contains("a-2.json"), "the user is told where a's output went: \(first.stderr)")
        XCTAssertEqual(try listing(out), [".scanextract-manifest.jsonl", "a-2.json", "a.json", "b.json"])
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: out + "/a.json")), mine)

        let second = try run(["--verbose", "--output-dir", out, inputs])
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertEqual(skippedInputs(second.stderr), [inputs + "/a.json", inputs + "/b.json"], second.stderr)

        // A changed input is redone, into its own file; the other stays skipped.
        try document(["Dr. Ada Lovelace", "ada@example.com"]).write(to: URL(fileURLWithPath: inputs + "/b.json"))
        let third = try run(["--verbose", "--output-dir", out, inputs])
        XCTAssertEqual(third.status, 0, third.stderr)
        XCTAssertEqual(skippedInputs(third.stderr), [inputs + "/a.json"], third.stderr)
        XCTAssertTrue(try String(contentsOfFile: out + "/b.json", encoding: .utf8).contains("Lovelace"))

        // Another option or format: redone. --no-resume: redone.
        let typed = try run(["--verbose", "--type", "receipt", "--output-dir", out, inputs])
        XCTAssertTrue(skippedInputs(typed.stderr).isEmpty, typed.stderr)
        let text = try run(["--verbose", "--format", "text", "--type", "receipt", "--output-dir", out, inputs])
        XCTAssertTrue(skippedInputs(text.stderr).isEmpty, text.stderr)
        XCTAssertEqual(
            skippedInputs(try run(["--verbose", "--type", "receipt", "--output-dir", out, inputs]).stderr).count, 2)
        let forced = try run(["--verbose", "--no-resume", "--type", "receipt", "--output-dir", out, inputs])
        XCTAssertEqual(forced.status, 0, forced.stderr)
        XCTAssertTrue(skippedInputs(forced.stderr).isEmpty, forced.stderr)

        XCTAssertEqual(
            try listing(out), [".scanextract-manifest.jsonl", "a-2.json", "a.json", "a.txt", "b.json", "b.txt"])
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: out + "/a.json")), mine, "never overwritten")

        // A torn last line (a crash while appending) is ignored, and the next line starts fresh.
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: out + "/.scanextract-manifest.jsonl"))
        handle.seekToEndOfFile()
        handle.write(Data("{\"source\": \"x".utf8))
        try handle.close()
        _ = FileManager.default.createFile(
            atPath: out + "/.b.json.8C7A2A0E-3F9B-4C65-9E43-2D5B1F0C9A11.tmp", contents: Data("{\"half".utf8))
        let afterCrash = try run(["--verbose", "--type", "receipt", "--output-dir", out, inputs])
        XCTAssertEqual(afterCrash.status, 0, afterCrash.stderr)
        XCTAssertEqual(skippedInputs(afterCrash.stderr).count, 2, afterCrash.stderr)
        XCTAssertTrue(afterCrash.stderr.contains("removed 1 temporary file"), afterCrash.stderr)
        XCTAssertFalse(try listing(out).contains { $0.hasSuffix(".tmp") })
    }
}
