import Foundation
import Synchronization
import XCTest
@testable import ScanService

/// The pipes between the server and a worker process.
final class WorkerProcessTests: XCTestCase {
    /// A worker that dies while a process it started still holds its stdout open (Swift's crash reporter did so, and
    /// hung): the server's read of its reply ends soon after the worker is gone, rather than when that process ends.
    func testAReadEndsWhenTheWorkerIsGoneThoughItsPipeIsHeld() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("worker-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let holder = folder.appendingPathComponent("holder.pid").path
        defer {
            // The process left behind goes too.
            if let pid = (try? String(contentsOfFile: holder, encoding: .utf8)).flatMap({
                Int32($0.trimmingCharacters(in: .whitespacesAndNewlines))
            }) {
                kill(pid, SIGKILL)
            }
            try? FileManager.default.removeItem(at: folder)
        }
        let worker = try WorkerProcess(
            command: ["/bin/sh", "-c", "sleep 60 & echo $! > '\(holder)'; exit 3"], environment: nil)
        let ended = Mutex(false)
        Task {
            _ = await worker.receive()
            ended.withLock { $0 = true }
        }
        let started = Date()
        while !ended.withLock({ $0 }), Date().timeIntervalSince(started) < 20 {
            try await Task.sleep(for: .milliseconds(100))
        }
        XCTAssertTrue(ended.withLock { $0 }, "the read still waited after 20 s")
        worker.stop(grace: 0)
    }
}
