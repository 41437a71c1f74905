import Foundation
import JobStoreTestSupport
import TestSupport
import XCTest

/// `scanextract serve --database postgres://...`: real servers sharing one real PostgreSQL
/// database (a fresh one per test on the server `make test` starts), each with its own data
/// folder, as servers on different machines would be.
final class PostgresServiceTests: XCTestCase {
    var dir = ""
    var database: TestPostgres.Database!

    override func setUp() async throws {
        dir = Drawing.temporaryDirectory()
        database = try await TestPostgres.makeDatabase()
    }

    override func tearDown() async throws {
        await database?.drop()
        try? FileManager.default.removeItem(atPath: dir)
    }

    func node(_ name: String, _ arguments: [String]) throws -> ServerProcess {
        try ServerProcess(dataDir: dir + "/" + name, arguments: ["--database", database.url] + arguments)
    }

    /// The sum of a Prometheus sample over its lines (no labels here).
    func metric(_ server: ServerProcess, _ name: String) throws -> Double {
        let text = try server.request("GET", "/metrics").text
        return text.split(separator: "\n").filter { $0.hasPrefix(name + " ") }
            .compactMap { Double($0.split(separator: " ")[1]) }.reduce(0, +)
    }

    /// Two servers on one queue with room for four: of sixteen uploads racing on both, four are taken.
    func testTwoServersKeepOneQueueLimitWhenUploadsRace() throws {
        let a = try node("a", ["--workers", "0", "--max-queued", "4"])
        let b = try node("b", ["--workers", "0", "--max-queued", "4"])
        let statuses = LockedData(), ports = [a.port, b.port]
        DispatchQueue.concurrentPerform(iterations: 16) { i in
            let r = try? HTTP.send(
                port: ports[i % 2], "POST", "/v1/extractions?async=true", body: Inputs.document(["racer \(i)"]))
            statuses.append(Data("\(r?.status ?? 0)\n".utf8))
        }
        let all = statuses.string.split(separator: "\n").map(String.init)
        XCTAssertEqual(all.filter { $0 == "202" }.count, 4, all.joined(separator: " "))
        XCTAssertEqual(all.filter { $0 == "429" }.count, 12, all.joined(separator: " "))
    }

    func testTwoServersOnOneDatabaseRunEachOf100JobsExactlyOnce() throws {
        let a = try node("a", ["--workers", "1"])
        let b = try node("b", ["--workers", "1"])
        var ids: [String] = []
        for i in 0..<100 {
            let server = i % 2 == 0 ? a : b
            let r = try server.request("POST", "/v1/extractions?async=true",
                                       body: Inputs.document(["Job \(i)", "TOTAL \(i).00"]))
            XCTAssertEqual(r.status, 202, r.text)
            ids.append(try XCTUnwrap(r.json["id"] as? String))
        }
        for (i, id) in ids.enumerated() {
            // Asked of the other server than the one that took the upload: the queue is shared.
            let job = try (i % 2 == 0 ? b : a).waitFinished(id, seconds: 300)
            XCTAssertEqual(job["status"] as? String, "succeeded", "\(job)")
            XCTAssertEqual(job["attempts"] as? Int, 1, "claimed once: \(job)")
        }
        let result = try b.request("GET", "/v1/jobs/\(ids[0])/result", headers: ["Accept": "text/plain"])
        XCTAssertTrue(result.text.filter { $0 != " " }.hasPrefix("Job0"), result.text)
        // Every job ran in exactly one worker: the two servers' answered attempts add up to 100.
        let ranOnA = try metric(a, "scanextract_job_duration_seconds_count")
        let ranOnB = try metric(b, "scanextract_job_duration_seconds_count")
        XCTAssertEqual(ranOnA + ranOnB, 100, "a: \(ranOnA), b: \(ranOnB)")
        XCTAssertGreaterThan(ranOnA, 0, "both servers took jobs")
        XCTAssertGreaterThan(ranOnB, 0, "both servers took jobs")
        XCTAssertEqual(try metric(a, "scanextract_jobs{state=\"succeeded\"}"), 100, "both see the whole queue")
        XCTAssertEqual(a.stop(), 0, a.log)
        XCTAssertEqual(b.stop(), 0, b.log)
    }

    /// Jobs queued on one node survive its stop; another node, with another data folder (so
    /// the inputs must come from the database), runs them, and the first sees the results.
    func testQueuedJobsRunAfterARestartOnAnotherNode() throws {
        let first = try node("first", ["--workers", "0"])
        var ids: [String] = []
        for i in 0..<3 {
            let r = try first.request("POST", "/v1/extractions?async=true", headers: ["Idempotency-Key": "k\(i)"],
                                      body: Inputs.document(["Job \(i)"]))
            XCTAssertEqual(r.status, 202, r.text)
            ids.append(try XCTUnwrap(r.json["id"] as? String))
        }
        XCTAssertEqual(first.stop(), 0, first.log)
        let second = try node("second", ["--workers", "1"])
        for id in ids {
            XCTAssertEqual(try second.waitFinished(id)["status"] as? String, "succeeded")
        }
        // An upload retried at another node with the same key is the same job.
        let retried = try second.request("POST", "/v1/extractions?async=true", headers: ["Idempotency-Key": "k0"],
                                         body: Inputs.document(["Job 0"]))
        XCTAssertEqual(retried.json["id"] as? String, ids[0], retried.text)
        let restarted = try node("first", ["--workers", "0"])
        for (i, id) in ids.enumerated() {
            let result = try restarted.request("GET", "/v1/jobs/\(id)/result", headers: ["Accept": "text/plain"])
            XCTAssertEqual(result.status, 200, result.text)
            XCTAssertTrue(result.text.filter { $0 != " " }.hasPrefix("Job\(i)"), result.text)
        }
        XCTAssertEqual(try restarted.request("DELETE", "/v1/jobs/\(ids[0])").status, 204)
        XCTAssertEqual(try second.request("GET", "/v1/jobs/\(ids[0])").json["status"] as? String, "canceled")
    }

    /// An idle node polls only every two minutes here: a job queued at another node reaches it
    /// within seconds only through NOTIFY. A synchronous request at the node without workers
    /// is answered when the other node finishes (its wait is woken the same way).
    func testAnIdleNodeIsWokenByNotify() throws {
        let worker = try node("worker", ["--workers", "1", "--poll-interval", "120"])
        let front = try node("front", ["--workers", "0", "--poll-interval", "120"])
        // Let the worker's slot make its first look at the empty queue and settle into its idle wait.
        Thread.sleep(forTimeInterval: 2)
        var started = Date()
        let r = try front.request("POST", "/v1/extractions?async=true", body: Inputs.document(["Wake up"]))
        XCTAssertEqual(r.status, 202, r.text)
        let id = try XCTUnwrap(r.json["id"] as? String)
        let job = try front.waitFinished(id, seconds: 60)
        XCTAssertEqual(job["status"] as? String, "succeeded", "\(job)\n\(worker.log)")
        XCTAssertLessThan(Date().timeIntervalSince(started), 30, "woken by NOTIFY, not by the 120 s poll")

        Thread.sleep(forTimeInterval: 1)
        started = Date()
        let sync = try front.request("POST", "/v1/extractions", body: Inputs.document(["Answered", "TOTAL 2.00"]))
        XCTAssertEqual(sync.status, 200, sync.text)
        XCTAssertEqual((sync.json["pages"] as? [[String: Any]])?.count, 1, sync.text)
        XCTAssertLessThan(Date().timeIntervalSince(started), 30)
        XCTAssertEqual(try metric(front, "scanextract_job_duration_seconds_count"), 0, "the front node ran nothing")
    }

    func testAnUnreachableDatabaseIsAClearErrorAtStart() throws {
        let result = try runCommand(["serve", "--port", "0", "--data-dir", dir + "/x", "--database",
                                     "postgres://nobody:secret@127.0.0.1:1/none"])
        XCTAssertEqual(result.status, 73, result.err)
        XCTAssertTrue(result.err.contains("cannot open the job store"), result.err)
        XCTAssertFalse(result.err.contains("secret"), "no password in messages: \(result.err)")
        let bad = try runCommand(["serve", "--database", "mysql://x@y/z"])
        XCTAssertNotEqual(bad.status, 0)
        XCTAssertTrue(bad.err.contains("postgres://"), bad.err)
    }

    func testReadyzAnswersFromTheDatabase() async throws {
        let server = try node("ready", ["--workers", "0"])
        XCTAssertEqual(try server.request("GET", "/readyz").status, 200)
        await database.drop()
        let gone = try server.request("GET", "/readyz")
        XCTAssertEqual(gone.status, 503, gone.text)
        XCTAssertEqual(gone.json["code"] as? String, "not-ready")
        XCTAssertEqual(try server.request("GET", "/healthz").status, 200, "alive all the same")
    }

    /// A node killed (kill -9) in the middle of a job: another node takes the job over when
    /// the lease the dead one can no longer renew expires, and the job still succeeds.
    func testAJobOfADeadNodeIsTakenOverWhenItsLeaseExpires() throws {
        let hold = dir + "/hold"
        FileManager.default.createFile(atPath: hold, contents: nil)
        let doomed = try ServerProcess(dataDir: dir + "/doomed",
                                       arguments: ["--database", database.url, "--workers", "1", "--lease", "3"],
                                       environment: ["SCANEXTRACT_WORKER_HOLD": hold])
        let r = try doomed.request("POST", "/v1/extractions?async=true", body: Inputs.document(["Outlives its node"]))
        let id = try XCTUnwrap(r.json["id"] as? String)
        XCTAssertTrue(try doomed.waitStatus(id, "running"))
        var workers: [Int32] = []
        for _ in 0..<500 where workers.isEmpty { workers = doomed.workerPIDs; usleep(20_000) }
        kill(doomed.process.processIdentifier, SIGKILL)
        doomed.process.waitUntilExit()
        for pid in workers { kill(pid, SIGKILL) }
        let survivor = try node("survivor", ["--workers", "1", "--lease", "3", "--poll-interval", "0.5"])
        let job = try survivor.waitFinished(id, seconds: 60)
        XCTAssertEqual(job["status"] as? String, "succeeded", "\(job)\n\(survivor.log)")
        XCTAssertEqual(job["attempts"] as? Int, 2, "the dead node's attempt counts")
    }
}
