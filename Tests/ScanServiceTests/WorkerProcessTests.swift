import Foundation
import XCTest
@testable import ScanService

/// The pipes between the server and a worker process.
final class WorkerProcessTests: XCTestCase {
    /// A worker that dies while a process it started still holds its stdout open (Swift's crash reporter did so, and
    /// hung): the server's read of its reply ends soon after the worker is gone, rather than when that process ends.
    func testAReadEndsWhenTheWorkerIsGoneThoughItsPipeIsHeld() async throws {
        let worker = try WorkerProcess(command: ["/bin/sh", "-c", "sleep 60 & exit 3"], environment: nil)
        let started = Date()
        let reply = await withTaskGroup(of: Bool?.self) { group in
            group.addTask { await worker.receive() == nil }
            group.addTask { try? await Task.sleep(for: .seconds(20)); return nil }
            let first = await group.next()!
            group.cancelAll()
            return first
        }
        XCTAssertEqual(reply, true, "the read still waited after 20 s")
        XCTAssertLessThan(Date().timeIntervalSince(started), 20)
        worker.stop(grace: 0)
    }
}
