import Foundation
import ScanJobs
import XCTest

final class JobStoreTests: XCTestCase {
    var dir: URL!
    override func setUp() {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("scanjobs-" + UUID().uuidString)
    }
    override func tearDown() { try? FileManager.default.removeItem(at: dir) }

    func add(_ store: JobStore, owner: String = "o", key: String? = nil, maxAttempts: Int = 3, now: Date = Date()) throws -> Job {
        let new = NewJob(owner: owner, configuration: Data("{}".utf8), inputName: "in.png", inputSize: 3,
                         idempotencyKey: key, maxAttempts: maxAttempts)
        try Data("abc".utf8).write(to: store.uploadURL(id: new.id))
        return try store.enqueue(new, now: now).job
    }

    func testAJobGoesFromQueuedToSucceededWithItsResult() throws {
        let store = try JobStore(directory: dir)
        let job = try add(store)
        XCTAssertEqual(job.status, .queued)
        let claimed = try XCTUnwrap(store.claim(by: "a", lease: 30))
        XCTAssertEqual(claimed.id, job.id)
        XCTAssertEqual(claimed.status, .running)
        XCTAssertEqual(claimed.attempts, 1)
        XCTAssertNotNil(claimed.startedAt)
        XCTAssertNil(try store.claim(by: "b", lease: 30), "one job, one claimer")
        XCTAssertFalse(try store.succeed(id: job.id, by: "b", document: Data("{}".utf8)), "only the lease holder finishes it")
        XCTAssertTrue(try store.succeed(id: job.id, by: "a", document: Data("{\"x\":1}".utf8)))
        XCTAssertEqual(try store.job(id: job.id)?.status, .succeeded)
        XCTAssertEqual(try store.result(id: job.id), Data("{\"x\":1}".utf8))
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.uploadURL(id: job.id).path), "the upload goes once done")
    }

    func testAJobIsOnlyVisibleToItsOwner() throws {
        let store = try JobStore(directory: dir)
        let job = try add(store, owner: "alice")
        XCTAssertNotNil(try store.job(id: job.id, owner: "alice"))
        XCTAssertNil(try store.job(id: job.id, owner: "bob"))
        XCTAssertFalse(try store.cancel(id: job.id, owner: "bob"))
        XCTAssertTrue(try store.cancel(id: job.id, owner: "alice"))
        XCTAssertEqual(try store.job(id: job.id)?.status, .canceled)
        XCTAssertNil(try store.claim(by: "a", lease: 30), "a canceled job is never run")
    }

    func testAnIdempotencyKeyGivesBackTheSameJobPerOwner() throws {
        let store = try JobStore(directory: dir)
        let first = try add(store, owner: "alice", key: "k1")
        let again = try add(store, owner: "alice", key: "k1")
        let bobs = try add(store, owner: "bob", key: "k1")
        XCTAssertEqual(first.id, again.id)
        XCTAssertNotEqual(first.id, bobs.id)
        XCTAssertEqual(try store.pendingCount(), 2)
    }

    func testCountsByStatusNameEveryState() throws {
        let store = try JobStore(directory: dir)
        XCTAssertEqual(try store.countsByStatus(), [.queued: 0, .running: 0, .succeeded: 0, .failed: 0, .canceled: 0])
        let done = try add(store)
        _ = try add(store)
        let canceled = try add(store)
        XCTAssertTrue(try store.cancel(id: canceled.id))
        XCTAssertEqual(try store.claim(by: "a", lease: 30)?.id, done.id)
        XCTAssertTrue(try store.succeed(id: done.id, by: "a", document: Data("{}".utf8)))
        XCTAssertEqual(try store.countsByStatus(), [.queued: 1, .running: 0, .succeeded: 1, .failed: 0, .canceled: 1])
    }

    func testAFailedAttemptIsRetriedAfterItsBackoffUntilAttemptsRunOut() throws {
        let store = try JobStore(directory: dir)
        let t0 = Date()
        let job = try add(store, maxAttempts: 2, now: t0)
        _ = try XCTUnwrap(store.claim(by: "a", lease: 30, now: t0))
        XCTAssertEqual(try store.fail(id: job.id, by: "a", code: "worker-crashed", message: "died", retry: true, backoff: 10, now: t0), .queued)
        XCTAssertNil(try store.claim(by: "a", lease: 30, now: t0.addingTimeInterval(5)), "still backing off")
        let second = try XCTUnwrap(store.claim(by: "a", lease: 30, now: t0.addingTimeInterval(11)))
        XCTAssertEqual(second.attempts, 2)
        XCTAssertEqual(second.errorCode, "worker-crashed", "the last error stays visible while retrying")
        XCTAssertEqual(try store.fail(id: job.id, by: "a", code: "timeout", message: "too slow", retry: true, backoff: 10,
                                      now: t0.addingTimeInterval(12)), .failed)
        let failed = try XCTUnwrap(store.job(id: job.id))
        XCTAssertEqual(failed.status, .failed)
        XCTAssertEqual(failed.errorCode, "timeout")
        XCTAssertNotNil(failed.finishedAt)
    }

    func testAnExpiredLeasePutsTheJobBackAndTheOldHolderLosesIt() throws {
        let store = try JobStore(directory: dir)
        let t0 = Date()
        let job = try add(store, maxAttempts: 2, now: t0)
        _ = try XCTUnwrap(store.claim(by: "dead", lease: 10, now: t0))
        XCTAssertTrue(try store.renew(id: job.id, by: "dead", lease: 10, now: t0.addingTimeInterval(5)))
        XCTAssertNil(try store.claim(by: "live", lease: 10, now: t0.addingTimeInterval(14)), "renewed until t0+15")
        let taken = try XCTUnwrap(store.claim(by: "live", lease: 10, now: t0.addingTimeInterval(16)))
        XCTAssertEqual(taken.attempts, 2)
        XCTAssertFalse(try store.renew(id: job.id, by: "dead", lease: 10, now: t0.addingTimeInterval(16)))
        XCTAssertFalse(try store.succeed(id: job.id, by: "dead", document: Data()))
        // Its last attempt's lease expires too: it ends failed rather than running forever.
        XCTAssertNil(try store.claim(by: "other", lease: 10, now: t0.addingTimeInterval(40)))
        XCTAssertEqual(try store.job(id: job.id)?.status, .failed)
        XCTAssertEqual(try store.job(id: job.id)?.errorCode, "lease-expired")
    }

    func testAHandedBackJobKeepsItsAttempts() throws {
        let store = try JobStore(directory: dir)
        let job = try add(store)
        _ = try store.claim(by: "a", lease: 30)
        try store.release(id: job.id, by: "a")
        let again = try XCTUnwrap(store.claim(by: "b", lease: 30))
        XCTAssertEqual(again.attempts, 1)
    }

    func testJobsSurviveReopeningTheStore() throws {
        var ids: [String] = []
        do {
            let store = try JobStore(directory: dir)
            for _ in 0..<3 { ids.append(try add(store).id) }
        }
        let reopened = try JobStore(directory: dir)
        var claimed: [String] = []
        while let job = try reopened.claim(by: "a", lease: 30) { claimed.append(job.id) }
        XCTAssertEqual(claimed, ids, "oldest first")
    }

    func testRetentionRemovesFinishedJobsOnly() throws {
        let store = try JobStore(directory: dir)
        let done = try add(store)
        let waiting = try add(store)
        _ = try store.claim(by: "a", lease: 30)
        try store.succeed(id: done.id, by: "a", document: Data("{}".utf8), now: Date().addingTimeInterval(-8 * 86400))
        XCTAssertEqual(try store.purge(finishedBefore: Date().addingTimeInterval(-7 * 86400)), 1)
        XCTAssertNil(try store.job(id: done.id))
        XCTAssertNil(try store.result(id: done.id))
        XCTAssertEqual(try store.job(id: waiting.id)?.status, .queued)
    }

    /// Two stores on one database (as two server processes would be), claiming at once from
    /// several threads each: every job is claimed exactly once.
    func testEachJobIsClaimedExactlyOnceUnderConcurrency() throws {
        let first = try JobStore(directory: dir)
        let second = try JobStore(directory: dir)
        let count = 200
        var ids = Set<String>()
        for _ in 0..<count { ids.insert(try add(first).id) }
        final class Tally: @unchecked Sendable {
            let lock = NSLock()
            var claims: [String] = []
            var errors: [String] = []
        }
        let tally = Tally()
        DispatchQueue.concurrentPerform(iterations: 6) { worker in
            let store = worker % 2 == 0 ? first : second
            while true {
                do {
                    guard let job = try store.claim(by: "claimer-\(worker)", lease: 60) else { return }
                    tally.lock.lock(); tally.claims.append(job.id); tally.lock.unlock()
                } catch {
                    tally.lock.lock(); tally.errors.append("\(error)"); tally.lock.unlock()
                    return
                }
            }
        }
        XCTAssertTrue(tally.errors.isEmpty, "\(tally.errors)")
        XCTAssertEqual(tally.claims.count, count, "no job claimed twice, none missed")
        XCTAssertEqual(Set(tally.claims), ids)
    }
}
