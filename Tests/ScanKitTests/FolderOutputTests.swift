import Foundation
import ScanExport
import ScanModel
import TestSupport
import XCTest
@testable import ScanKit

/// Group commit of a folder run's outputs, and the batch runner's worker-side finishing.
final class FolderOutputTests: PipelineTestCase {
    func makeInputs(_ names: [String]) throws -> [String] {
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
        return try names.map { name in
            let path = dir + "/in/" + name
            try Data("content of \(name)".utf8).write(to: URL(fileURLWithPath: path))
            return path
        }
    }

    func listing(_ folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    }

    func manifestLines(_ folder: String) throws -> Int {
        try String(contentsOfFile: folder + "/" + OutputManifest.fileName, encoding: .utf8)
            .split(separator: "\n").count
    }

    func testStagedOutputsAppearOnlyWhenFlushedWithTheirManifestLines() throws {
        let inputs = try makeInputs(["a.png", "b.png", "c.png"])
        let out = dir + "/out"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let outputs = try FolderOutputs(directory: out, fileExtension: "json", optionsKey: "k", inputs: inputs)
        XCTAssertEqual(outputs.pending, inputs)

        for input in inputs {
            XCTAssertTrue(outputs.commit(try outputs.stage(Data("{}".utf8), for: input)).written.isEmpty)
        }
        // Staged: on disk under temporary names only, and nothing in the manifest yet.
        let staged = try listing(out)
        XCTAssertEqual(staged.filter(AtomicFile.isTemporary).count, 3, "\(staged)")
        XCTAssertFalse(staged.contains("a.json"))
        XCTAssertEqual(try manifestLines(out), 0)

        let flushed = outputs.flush()
        XCTAssertEqual(flushed.written, ["a", "b", "c"].map { out + "/\($0).json" })
        XCTAssertTrue(flushed.failures.isEmpty)
        XCTAssertEqual(try listing(out), [OutputManifest.fileName, "a.json", "b.json", "c.json"])
        XCTAssertEqual(try manifestLines(out), 3)
        XCTAssertTrue(outputs.flush().written.isEmpty, "a second flush has nothing to do")

        // The next run finds all three finished.
        let again = try FolderOutputs(directory: out, fileExtension: "json", optionsKey: "k", inputs: inputs)
        XCTAssertEqual(again.finished.map(\.input), inputs)
        XCTAssertTrue(again.pending.isEmpty)
    }

    /// An input of the same name from another folder goes around the output an earlier input still has.
    func testAnotherInputsOutputIsKept() throws {
        let out = dir + "/out"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let first = try makeInputs(["receipt.png"])
        let outputs = try FolderOutputs(directory: out, fileExtension: "json", optionsKey: "k", inputs: first)
        outputs.commit(try outputs.stage(Data("{\"x\": 1}".utf8), for: first[0]))
        _ = outputs.flush()
        try FileManager.default.createDirectory(atPath: dir + "/other", withIntermediateDirectories: true)
        let second = dir + "/other/receipt.png"
        try Data("another receipt".utf8).write(to: URL(fileURLWithPath: second))
        let next = try FolderOutputs(directory: out, fileExtension: "json", optionsKey: "k", inputs: [second])
        next.commit(try next.stage(Data("{\"y\": 1}".utf8), for: second))
        XCTAssertEqual(next.flush().written, [out + "/receipt-2.json"])
        XCTAssertTrue(next.notes.contains { $0.contains("holds the output of \(first[0])") }, "\(next.notes)")
        XCTAssertEqual(try String(contentsOfFile: out + "/receipt.json", encoding: .utf8), "{\"x\": 1}")
        // The first input read again keeps its own name.
        let again = try FolderOutputs(directory: out, fileExtension: "json", optionsKey: "k2", inputs: first)
        again.commit(try again.stage(Data("{\"x\": 2}".utf8), for: first[0]))
        XCTAssertEqual(again.flush().written, [out + "/receipt.json"])
        // The same file reached through a link is the same input: it keeps its name.
        try FileManager.default.createSymbolicLink(atPath: dir + "/linked", withDestinationPath: dir + "/in")
        let linked = try FolderOutputs(
            directory: out, fileExtension: "json", optionsKey: "k3", inputs: [dir + "/linked/receipt.png"])
        linked.commit(try linked.stage(Data("{\"x\": 3}".utf8), for: dir + "/linked/receipt.png"))
        XCTAssertEqual(linked.flush().written, [out + "/receipt.json"])
    }

    /// A manifest line that names a file outside the folder is not followed.
    func testAManifestLineOutsideTheFolderIsIgnored() throws {
        let inputs = try makeInputs(["receipt.png"])
        let out = dir + "/out"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let victim = dir + "/victim.json"
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: victim))
        let line = #"{"input":"x","options":"k","output":"../victim.json","outputHash":""#
            + OutputManifest.hash(Data("keep me".utf8)) + #"","source":""# + inputs[0]
            + #"","written":"2024-01-01T00:00:00Z"}"#
        try Data((line + "\n").utf8).write(to: URL(fileURLWithPath: out + "/" + OutputManifest.fileName))
        let outputs = try FolderOutputs(directory: out, fileExtension: "json", optionsKey: "k", inputs: inputs)
        XCTAssertEqual(outputs.pending, inputs)
        outputs.commit(try outputs.stage(Data("{}".utf8), for: inputs[0]))
        XCTAssertEqual(outputs.flush().written, [out + "/receipt.json"])
        XCTAssertEqual(try String(contentsOfFile: victim, encoding: .utf8), "keep me")
    }

    func testARunThatStopsBeforeItsFlushLeavesOnlyTemporaryFilesAndIsRedone() throws {
        let inputs = try makeInputs(["a.png", "b.png"])
        let out = dir + "/out"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        do {
            let outputs = try FolderOutputs(directory: out, fileExtension: "json", optionsKey: "k", inputs: inputs)
            outputs.commit(try outputs.stage(Data("{\"a\": 1}".utf8), for: inputs[0]))
            _ = outputs.flush()
            // Staged, never flushed: as if the process died here.
            outputs.commit(try outputs.stage(Data("{\"b\": 1}".utf8), for: inputs[1]))
        }
        XCTAssertEqual(try listing(out).filter(AtomicFile.isTemporary).count, 1)
        let again = try FolderOutputs(directory: out, fileExtension: "json", optionsKey: "k", inputs: inputs)
        XCTAssertEqual(again.finished.map(\.input), [inputs[0]])
        XCTAssertEqual(again.pending, [inputs[1]])
        XCTAssertTrue(again.notes.contains { $0.contains("removed 1 temporary file") }, "\(again.notes)")
        XCTAssertEqual(try listing(out), [OutputManifest.fileName, "a.json"])
    }

    func testOneOutputThatCannotBePutInPlaceDoesNotStopTheOthers() throws {
        let inputs = try makeInputs(["a.png", "b.png"])
        let out = dir + "/out"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let outputs = try FolderOutputs(directory: out, fileExtension: "json", optionsKey: "k", inputs: inputs)
        let a = try outputs.stage(Data("{}".utf8), for: inputs[0])
        let b = try outputs.stage(Data("{}".utf8), for: inputs[1])
        // A non-empty folder where a's output goes: rename(2) over it fails.
        try FileManager.default.createDirectory(atPath: out + "/a.json/x", withIntermediateDirectories: true)
        outputs.commit(a)
        outputs.commit(b)
        let flushed = outputs.flush()
        XCTAssertEqual(flushed.written, [out + "/b.json"])
        XCTAssertEqual(flushed.failures.map(\.file), [out + "/a.json"])
        XCTAssertEqual(flushed.failures.first?.code, .output)
        XCTAssertFalse(
            try listing(out).contains(where: AtomicFile.isTemporary), "the failed output's temporary file is removed")
    }

    func testCommitFlushesByItselfAtTheBatchLimit() throws {
        let inputs = try makeInputs(["a.png", "b.png", "c.png"])
        let out = dir + "/out"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let outputs = try FolderOutputs(directory: out, fileExtension: "json", optionsKey: "k", inputs: inputs)
        outputs.batchLimit = 2
        XCTAssertTrue(outputs.commit(try outputs.stage(Data("{}".utf8), for: inputs[0])).written.isEmpty)
        XCTAssertEqual(outputs.commit(try outputs.stage(Data("{}".utf8), for: inputs[1])).written.count, 2)
        XCTAssertTrue(outputs.commit(try outputs.stage(Data("{}".utf8), for: inputs[2])).written.isEmpty)
        XCTAssertEqual(outputs.flush().written, [out + "/c.json"])
    }

    func testFinishRunsOnTheWorkersAndItsErrorIsThatFilesFailure() throws {
        var files: [String] = []
        for i in 0..<6 {
            let p = dir + "/p\(i).pdf"
            Drawing.writePDF([[DrawnLine("Page \(i) text", x: 72, y: 100)]], to: p)
            files.append(p)
        }
        let mainThread = pthread_self()
        let onMain = Locked(false)
        var delivered: [Result<Int, ScanError>] = []
        var waits = 0
        try BatchRunner(configuration: ScanConfiguration(), jobs: 2).run(files, finish: { file, doc in
            if pthread_equal(pthread_self(), mainThread) != 0 { onMain.set(true) }
            if file.hasSuffix("p3.pdf") { throw ScanError(.output, file: file + ".json", "cannot be written (test)") }
            return doc.pages.count
        }, deliver: { _, _, r in delivered.append(r) }, waiting: { waits += 1 })
        XCTAssertFalse(onMain.get(), "finish runs on the workers")
        XCTAssertEqual(delivered.count, 6)
        XCTAssertEqual(delivered.compactMap { try? $0.get() }, [1, 1, 1, 1, 1])
        guard case .failure(let e) = delivered[3] else { return XCTFail("p3 should fail") }
        XCTAssertEqual(e.code, .output)
        XCTAssertGreaterThanOrEqual(waits, 1, "called at least once, at the end")
    }

    func testWorkersStayAFewFilesAheadOfASlowConsumer() throws {
        let p = dir + "/a.pdf"
        Drawing.writePDF([[DrawnLine("x", x: 72, y: 100)]], to: p)
        let files = Array(repeating: p, count: 30)
        let started = Locked(0)
        var mostAhead = 0
        try BatchRunner(configuration: ScanConfiguration(), jobs: 2).run(files, finish: { _, _ in
            started.update { $0 += 1 }
        }, deliver: { i, _, _ in
            usleep(20_000)
            mostAhead = max(mostAhead, started.get() - (i + 1))
        })
        XCTAssertLessThanOrEqual(mostAhead, 2 * 4, "at most the window of files finished ahead of delivery")
        XCTAssertGreaterThan(mostAhead, 0, "the workers do run ahead")
    }
}

/// A value shared with worker threads.
final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()
    init(_ value: Value) { self.value = value }
    func get() -> Value { lock.lock(); defer { lock.unlock() }; return value }
    func set(_ v: Value) { lock.lock(); value = v; lock.unlock() }
    func update(_ f: (inout Value) -> Void) { lock.lock(); f(&value); lock.unlock() }
}
