import Foundation
import TestSupport
import XCTest

/// `.ci/run`'s closing line and exit status, on captured test logs.
final class CIScriptTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = Drawing.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(".ci/run").path

    /// XCTest's own lines, as `swift test` printed them with the PP-OCR models missing.
    let xctestSkips = """
        Test Case 'PPOCRRecognizerTests.testBlankPageHasNoLines' started at 2026-11-22 23:10:00.000
        /src/Tests/ScanRecognitionTests/ONNXTestSupport.swift:28: PPOCRRecognizerTests.testBlankPageHasNoLines : \
        Test skipped - ONNX Runtime / PP-OCR models not installed; run scripts/install-onnx.sh
        Test Case 'PPOCRRecognizerTests.testBlankPageHasNoLines' skipped (0.005 seconds)
        Test Case 'PPOCRRecognizerTests.testCandidatesAndCustomWords' skipped (0.0 seconds)
        \t Executed 6 tests, with 2 tests skipped and 0 failures (0 unexpected) in 0.007 (0.007) seconds
        Test Suite 'SniffingTests' passed at 2026-11-22 23:10:00.000
        \t Executed 7 tests, with 2 tests skipped and 0 failures (0 unexpected) in 0.007 (0.007) seconds
        ◇ Test run started.
        ✔ Test run with 0 tests in 0 suites passed after 0.002 seconds.

        """

    struct Outcome { var status: Int32; var output: String }

    func run(log: String? = nil, command: String? = nil, ci: Bool, allowed: String? = nil) throws -> Outcome {
        var args = [script]
        if let log {
            let path = dir + "/test.log"
            try log.write(toFile: path, atomically: true, encoding: .utf8)
            args += ["--from-log", path]
        }
        var env = ProcessInfo.processInfo.environment
        env["CI"] = ci ? "true" : nil
        env["CI_ALLOWED_SKIPS"] = dir + "/allowed"
        try (allowed ?? "").write(toFile: dir + "/allowed", atomically: true, encoding: .utf8)
        if let command { env["CI_TEST_COMMAND"] = command }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/bash")
        p.arguments = args
        p.environment = env
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return Outcome(status: p.terminationStatus, output: String(decoding: data, as: UTF8.self))
    }

    func testSkippedTestsAreCountedAndFailCIUnlessAllowedWithAReason() throws {
        let local = try run(log: xctestSkips, ci: false)
        XCTAssertTrue(local.output.contains("tests: 5 passed, 0 failed, 2 skipped\n"), local.output)
        XCTAssertEqual(local.status, 0, "a developer's run only reports them")

        let ci = try run(log: xctestSkips, ci: true)
        XCTAssertEqual(ci.status, 1, ci.output)
        XCTAssertTrue(ci.output.contains("  PPOCRRecognizerTests.testCandidatesAndCustomWords\n"), ci.output)

        let oneAllowed = "# comment\nPPOCRRecognizerTests.testBlankPageHasNoLines | blank pages need no model\n"
        let partly = try run(log: xctestSkips, ci: true, allowed: oneAllowed)
        XCTAssertEqual(partly.status, 1)
        XCTAssertFalse(partly.output.contains("  PPOCRRecognizerTests.testBlankPageHasNoLines\n"), partly.output)

        let noReason = oneAllowed + "PPOCRRecognizerTests.testCandidatesAndCustomWords |  \n"
        XCTAssertEqual(try run(log: xctestSkips, ci: true, allowed: noReason).status, 1, "an allowance needs a reason")
        let both = oneAllowed + "PPOCRRecognizerTests.testCandidatesAndCustomWords | models too large for CI\n"
        XCTAssertEqual(try run(log: xctestSkips, ci: true, allowed: both).status, 0)
    }

    func testFailuresAndSwiftTestingAreCounted() throws {
        let log = """
            \t Executed 20 tests, with 4 failures (0 unexpected) in 0.29 (0.29) seconds
            ➜ Test modelLoads() skipped: "no model"
            ✘ Test run with 5 tests in 2 suites failed after 0.1 seconds with 1 issue.

            """
        let r = try run(log: log, ci: false)
        XCTAssertTrue(r.output.contains("tests: 19 passed, 5 failed, 1 skipped\n"), r.output)
        XCTAssertEqual(r.status, 1)
    }

    func testAFailingTestCommandFailsTheRunAfterTheSummary() throws {
        let r = try run(command: "echo 'Executed 3 tests, with 0 failures (0 unexpected)'; exit 3", ci: true)
        XCTAssertEqual(r.status, 3, r.output)
        XCTAssertTrue(r.output.contains("tests: 3 passed, 0 failed, 0 skipped\n"), r.output)
        XCTAssertTrue(r.output.contains("make test failed (status 3)"), r.output)
    }
}
