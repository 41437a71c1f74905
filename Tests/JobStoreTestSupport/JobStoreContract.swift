import Foundation
import ScanJobs
import XCTest

/// What every ``JobStore`` must do, written once and run against each store
/// (`SQLiteJobStoreTests`, `PostgresJobStoreTests`). `open` opens another store on the same
/// backing database (as another server process would).
public struct JobStoreContract: Sendable {
    public let open: @Sendable () async throws -> any JobStore

    public init(open: @escaping @Sendable () async throws -> any JobStore) { self.open = open }

    /// Adds a job whose input is `bytes`.
    @discardableResult
    public static func add(_ store: any JobStore, owner: String = "o", key: String? = nil, maxAttempts: Int = 3,
                    bytes: Data = Data("abc".utf8), now: Date = Date()) async throws -> Job {
        let file = store.temporaryUploadURL()
        try bytes.write(to: file)
        let new = NewJob(owner: owner, configuration: Data("{}".utf8), inputName: "in.png", inputSize: bytes.count,
                         idempotencyKey: key, maxAttempts: maxAttempts)
        let job = try await store.enqueue(new, input: file, now: now).job
        XCTAssertFalse(FileManager.default.fileExists(atPath: file.path), "the store takes the upload over")
        return job
    }

    public static func inputBytes(_ store: any JobStore, _ job: Job) async throws -> Data {
        let input = try await store.input(of: job)
        defer { input.discard() }
        return (try? Data(contentsOf: input.url)) ?? Data()
    }

    public func aJobGoesFromQueuedToSucceededWithItsResult() async throws {
        let store = try await open()
        let job = try await Self.add(store)
        XCTAssertEqual(job.status, .queued)
        XCTAssertEqual(job.attempts, 0)
        let claimed = try await store.claim(by: "a", lease: 30)
        XCTAssertEqual(claimed?.id, job.id)
        XCTAssertEqual(claimed?.status, .running)
        XCTAssertEqual(claimed?.attempts, 1)
        XCTAssertEqual(claimed?.leaseOwner, "a")
        XCTAssertNotNil(claimed?.startedAt)
        let input = try await Self.inputBytes(store, job)
        XCTAssertEqual(input, Data("abc".utf8), "the worker reads the upload")
        let second = try await store.claim(by: "b", lease: 30)
        XCTAssertNil(second, "one job, one claimer")
        let byOther = try await store.succeed(id: job.id, by: "b", document: Data("{}".utf8))
        XCTAssertFalse(byOther, "only the lease holder finishes it")
        let byHolder = try await store.succeed(id: job.id, by: "a", document: Data("{\"x\":1}".utf8))
        XCTAssertTrue(byHolder)
        let done = try await store.job(id: job.id)
        XCTAssertEqual(done?.status, .succeeded)
        XCTAssertNotNil(done?.finishedAt)
        XCTAssertNil(done?.leaseOwner)
        let result = try await store.result(id: job.id)
        XCTAssertEqual(result, Data("{\"x\":1}".utf8))
        let inputAfter = try await Self.inputBytes(store, job)
        XCTAssertTrue(inputAfter.isEmpty, "the input goes once the job is done")
        await store.close()
    }

    public func anInputOfSeveralMegabytesComesBackWhole() async throws {
        let store = try await open()
        // Not a repeating pattern (a piece out of order would show), and quick to make.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let bytes = Data((0..<(3 * 1024 * 1024 + 12345)).map { _ -> UInt8 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        })
        let job = try await Self.add(store, bytes: bytes)
        _ = try await store.claim(by: "a", lease: 30)
        let input = try await Self.inputBytes(store, job)
        XCTAssertEqual(input.count, bytes.count)
        XCTAssertTrue(input == bytes, "the same bytes, in order")
        await store.close()
    }

    public func aJobIsOnlyVisibleToItsOwner() async throws {
        let store = try await open()
        let job = try await Self.add(store, owner: "alice")
        let mine = try await store.job(id: job.id, owner: "alice")
        let theirs = try await store.job(id: job.id, owner: "bob")
        XCTAssertNotNil(mine)
        XCTAssertNil(theirs)
        let bobCancels = try await store.cancel(id: job.id, owner: "bob")
        XCTAssertFalse(bobCancels)
        let aliceCancels = try await store.cancel(id: job.id, owner: "alice")
        XCTAssertTrue(aliceCancels)
        let missing = try await store.cancel(id: "no-such-job", owner: nil)
        XCTAssertFalse(missing)
        let canceled = try await store.job(id: job.id)
        XCTAssertEqual(canceled?.status, .canceled)
        XCTAssertNotNil(canceled?.finishedAt)
        let claimed = try await store.claim(by: "a", lease: 30)
        XCTAssertNil(claimed, "a canceled job is never run")
        await store.close()
    }

    public func cancelingARunningJobTakesItFromItsClaimer() async throws {
        let store = try await open()
        let job = try await Self.add(store)
        _ = try await store.claim(by: "a", lease: 30)
        let canceled = try await store.cancel(id: job.id, owner: nil)
        XCTAssertTrue(canceled)
        let renewed = try await store.renew(id: job.id, by: "a", lease: 30)
        XCTAssertFalse(renewed, "the claimer learns at its next renewal and stops")
        let succeeded = try await store.succeed(id: job.id, by: "a", document: Data("{}".utf8))
        XCTAssertFalse(succeeded)
        let result = try await store.result(id: job.id)
        XCTAssertNil(result)
        let after = try await store.job(id: job.id)
        XCTAssertEqual(after?.status, .canceled)
        await store.close()
    }

    public func anIdempotencyKeyGivesBackTheSameJobPerOwner() async throws {
        let store = try await open()
        let first = try await Self.add(store, owner: "alice", key: "k1")
        let again = try await Self.add(store, owner: "alice", key: "k1", bytes: Data("other".utf8))
        let bobs = try await Self.add(store, owner: "bob", key: "k1")
        XCTAssertEqual(first.id, again.id)
        XCTAssertNotEqual(first.id, bobs.id)
        let pending = try await store.pendingCount()
        XCTAssertEqual(pending, 2)
        _ = try await store.claim(by: "a", lease: 30)
        let input = try await Self.inputBytes(store, first)
        XCTAssertEqual(input, Data("abc".utf8), "the first upload stands")
        await store.close()
    }

    /// Many requests with one key at once (a client retrying on several connections): one job.
    public func concurrentUploadsWithOneKeyMakeOneJob() async throws {
        let store = try await open()
        let ids = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<8 { group.addTask { try await Self.add(store, owner: "alice", key: "same").id } }
            var ids = Set<String>()
            for try await id in group { ids.insert(id) }
            return ids
        }
        XCTAssertEqual(ids.count, 1)
        let pending = try await store.pendingCount()
        XCTAssertEqual(pending, 1)
        await store.close()
    }

    public func countsByStatusNameEveryState() async throws {
        let store = try await open()
        let empty = try await store.countsByStatus()
        XCTAssertEqual(empty, [.queued: 0, .running: 0, .succeeded: 0, .failed: 0, .canceled: 0])
        let done = try await Self.add(store)
        try await Self.add(store)
        let canceled = try await Self.add(store)
        _ = try await store.cancel(id: canceled.id, owner: nil)
        let claimed = try await store.claim(by: "a", lease: 30)
        XCTAssertEqual(claimed?.id, done.id)
        _ = try await store.succeed(id: done.id, by: "a", document: Data("{}".utf8))
        let counts = try await store.countsByStatus()
        XCTAssertEqual(counts, [.queued: 1, .running: 0, .succeeded: 1, .failed: 0, .canceled: 1])
        await store.close()
    }

    public func aFailedAttemptIsRetriedAfterItsBackoffUntilAttemptsRunOut() async throws {
        let store = try await open()
        let t0 = Date()
        let job = try await Self.add(store, maxAttempts: 2, now: t0)
        _ = try await store.claim(by: "a", lease: 30, now: t0)
        let first = try await store.fail(id: job.id, by: "a", code: "worker-crashed", message: "died", retry: true,
                                         backoff: 10, now: t0)
        XCTAssertEqual(first, .queued)
        let early = try await store.claim(by: "a", lease: 30, now: t0.addingTimeInterval(5))
        XCTAssertNil(early, "still backing off")
        let second = try await store.claim(by: "a", lease: 30, now: t0.addingTimeInterval(11))
        XCTAssertEqual(second?.attempts, 2)
        XCTAssertEqual(second?.errorCode, "worker-crashed", "the last error stays visible while retrying")
        let last = try await store.fail(id: job.id, by: "a", code: "timeout", message: "too slow", retry: true,
                                        backoff: 10, now: t0.addingTimeInterval(12))
        XCTAssertEqual(last, .failed, "no attempts left")
        let failed = try await store.job(id: job.id)
        XCTAssertEqual(failed?.status, .failed)
        XCTAssertEqual(failed?.errorCode, "timeout")
        XCTAssertEqual(failed?.errorMessage, "too slow")
        XCTAssertNotNil(failed?.finishedAt)
        let notHeld = try await store.fail(id: job.id, by: "a", code: "x", message: "x", retry: true, backoff: 0,
                                           now: t0.addingTimeInterval(13))
        XCTAssertNil(notHeld, "a finished job is nobody's to fail")
        await store.close()
    }

    public func aFailureNotToRetryEndsTheJobAtOnce() async throws {
        let store = try await open()
        let job = try await Self.add(store, maxAttempts: 3)
        _ = try await store.claim(by: "a", lease: 30)
        let status = try await store.fail(id: job.id, by: "a", code: "corrupt", message: "unreadable", retry: false,
                                          backoff: 10)
        XCTAssertEqual(status, .failed)
        let failed = try await store.job(id: job.id)
        XCTAssertEqual(failed?.attempts, 1)
        XCTAssertEqual(failed?.errorCode, "corrupt")
        await store.close()
    }

    public func anExpiredLeasePutsTheJobBackAndTheOldHolderLosesIt() async throws {
        let store = try await open()
        let t0 = Date()
        let job = try await Self.add(store, maxAttempts: 2, now: t0)
        _ = try await store.claim(by: "dead", lease: 10, now: t0)
        let renewed = try await store.renew(id: job.id, by: "dead", lease: 10, now: t0.addingTimeInterval(5))
        XCTAssertTrue(renewed)
        let tooEarly = try await store.claim(by: "live", lease: 10, now: t0.addingTimeInterval(14))
        XCTAssertNil(tooEarly, "renewed until t0+15")
        let taken = try await store.claim(by: "live", lease: 10, now: t0.addingTimeInterval(16))
        XCTAssertEqual(taken?.id, job.id)
        XCTAssertEqual(taken?.attempts, 2)
        let lateRenewal = try await store.renew(id: job.id, by: "dead", lease: 10, now: t0.addingTimeInterval(16))
        XCTAssertFalse(lateRenewal)
        let lateSuccess = try await store.succeed(id: job.id, by: "dead", document: Data())
        XCTAssertFalse(lateSuccess)
        // Its last attempt's lease expires too: it ends failed rather than running forever.
        let nothing = try await store.claim(by: "other", lease: 10, now: t0.addingTimeInterval(40))
        XCTAssertNil(nothing)
        let failed = try await store.job(id: job.id)
        XCTAssertEqual(failed?.status, .failed)
        XCTAssertEqual(failed?.errorCode, "lease-expired")
        XCTAssertNotNil(failed?.finishedAt)
        await store.close()
    }

    public func aHandedBackJobKeepsItsAttempts() async throws {
        let store = try await open()
        let job = try await Self.add(store)
        _ = try await store.claim(by: "a", lease: 30)
        try await store.release(id: job.id, by: "b")
        let stillHeld = try await store.job(id: job.id)
        XCTAssertEqual(stillHeld?.status, .running, "only the holder hands it back")
        try await store.release(id: job.id, by: "a")
        let again = try await store.claim(by: "b", lease: 30)
        XCTAssertEqual(again?.id, job.id)
        XCTAssertEqual(again?.attempts, 1)
        await store.close()
    }

    public func jobsSurviveReopeningTheStoreAndRunOldestFirst() async throws {
        var ids: [String] = []
        let t0 = Date()
        let first = try await open()
        for i in 0..<3 { ids.append(try await Self.add(first, now: t0.addingTimeInterval(Double(i))).id) }
        await first.close()
        let reopened = try await open()
        var claimed: [String] = []
        while let job = try await reopened.claim(by: "a", lease: 30, now: t0.addingTimeInterval(10)) {
            claimed.append(job.id)
        }
        XCTAssertEqual(claimed, ids, "oldest first")
        await reopened.close()
    }

    public func retentionRemovesFinishedJobsOnly() async throws {
        let store = try await open()
        let done = try await Self.add(store)
        let waiting = try await Self.add(store)
        _ = try await store.claim(by: "a", lease: 30)
        let longAgo = Date().addingTimeInterval(-8 * 86400)
        _ = try await store.succeed(id: done.id, by: "a", document: Data("{}".utf8), now: longAgo)
        let purged = try await store.purge(finishedBefore: Date().addingTimeInterval(-7 * 86400))
        XCTAssertEqual(purged, 1)
        let gone = try await store.job(id: done.id)
        XCTAssertNil(gone)
        let result = try await store.result(id: done.id)
        XCTAssertNil(result)
        let kept = try await store.job(id: waiting.id)
        XCTAssertEqual(kept?.status, .queued)
        let again = try await store.purge(finishedBefore: Date().addingTimeInterval(-7 * 86400))
        XCTAssertEqual(again, 0)
        await store.close()
    }

    /// Two stores on one database (as two server processes would be), claiming at once from
    /// several tasks each: every job is claimed exactly once.
    public func eachJobIsClaimedExactlyOnceUnderConcurrency() async throws {
        let first = try await open()
        let second = try await open()
        let count = 100
        var ids = Set<String>()
        for _ in 0..<count { ids.insert(try await Self.add(first).id) }
        let claims = try await withThrowingTaskGroup(of: [String].self) { group in
            for worker in 0..<6 {
                let store = worker % 2 == 0 ? first : second
                group.addTask {
                    var mine: [String] = []
                    while let job = try await store.claim(by: "claimer-\(worker)", lease: 60) { mine.append(job.id) }
                    return mine
                }
            }
            var all: [String] = []
            for try await some in group { all += some }
            return all
        }
        XCTAssertEqual(claims.count, count, "no job claimed twice, none missed")
        XCTAssertEqual(Set(claims), ids)
        await first.close()
        await second.close()
    }

    /// A batch keeps its owner and its refused files, its jobs come back in upload order (not in
    /// the order they were added), and retention takes the batch once its jobs are gone.
    public func aBatchKeepsItsJobsInUploadOrderForItsOwnerOnly() async throws {
        let store = try await open()
        let made = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 8 * 86400).rounded())
        let refused = Batch.Rejection(index: 1, name: "notes.txt", code: "unsupported-type", message: "it holds text")
        let batch = Batch(owner: "o", createdAt: made, rejected: [refused])
        var files: [(new: NewJob, input: URL)] = []
        for index in [3, 0, 2] {
            let file = store.temporaryUploadURL()
            try Data("file \(index)".utf8).write(to: file)
            files.append((NewJob(owner: "o", configuration: Data("{}".utf8), inputName: "f\(index).png", inputSize: 6,
                                 batchId: batch.id, batchIndex: index), file))
        }
        let (_, created) = try await store.createBatch(batch, jobs: files)
        XCTAssertTrue(created)
        let added = files.map(\.new.id)
        let loose = try await Self.add(store)
        let stored = try await store.batch(id: batch.id, owner: "o")
        XCTAssertEqual(stored, batch, "owner, creation time and the refused file come back as stored")
        let byOther = try await store.batch(id: batch.id, owner: "someone else")
        XCTAssertNil(byOther, "another key's batch is not found")
        let jobs = try await store.jobs(inBatch: batch.id)
        XCTAssertEqual(jobs.map(\.batchIndex), [0, 2, 3], "upload order")
        XCTAssertEqual(jobs.map(\.inputName), ["f0.png", "f2.png", "f3.png"])
        XCTAssertTrue(jobs.allSatisfy { $0.batchId == batch.id })
        XCTAssertFalse(jobs.map(\.id).contains(loose.id), "a job outside the batch is not in it")
        let looseJob = try await store.job(id: loose.id)
        XCTAssertNil(looseJob?.batchId)
        // The batch's jobs end; retention removes them, then the batch with none left.
        for id in added { _ = try await store.cancel(id: id, owner: "o", now: made) }
        let purged = try await store.purge(finishedBefore: Date().addingTimeInterval(-7 * 86400))
        XCTAssertEqual(purged, 3)
        let gone = try await store.batch(id: batch.id, owner: nil)
        XCTAssertNil(gone, "a batch without jobs goes with retention")
        await store.close()
    }

    /// A batch is added whole or not at all, and an idempotency key an owner already used for
    /// a batch gives back that batch (its jobs unchanged, the retry's inputs dropped).
    public func aBatchIsAddedWholeAndItsIdempotencyKeyGivesItBack() async throws {
        let store = try await open()
        func files(_ names: [String], batch: Batch) throws -> [(new: NewJob, input: URL)] {
            try names.enumerated().map { index, name in
                let file = store.temporaryUploadURL()
                try Data(name.utf8).write(to: file)
                return (
                    NewJob(
                        owner: batch.owner, configuration: Data("{}".utf8), inputName: name, inputSize: name.utf8.count,
                        batchId: batch.id, batchIndex: index), file
                )
            }
        }
        let first = Batch(owner: "o", idempotencyKey: "upload-1")
        let firstFiles = try files(["a.png", "b.png"], batch: first)
        let made = try await store.createBatch(first, jobs: firstFiles)
        XCTAssertTrue(made.created)
        XCTAssertEqual(made.batch.id, first.id)
        // The client retries the same upload with the same key.
        let retry = Batch(owner: "o", idempotencyKey: "upload-1")
        let retryFiles = try files(["a.png", "b.png"], batch: retry)
        let again = try await store.createBatch(retry, jobs: retryFiles)
        XCTAssertFalse(again.created)
        XCTAssertEqual(again.batch.id, first.id, "the first batch stands")
        XCTAssertEqual(again.batch.idempotencyKey, "upload-1")
        let retried = try await store.batch(id: retry.id, owner: nil)
        XCTAssertNil(retried, "no second batch")
        let retriedJobs = try await store.jobs(inBatch: retry.id)
        XCTAssertEqual(retriedJobs, [])
        let firstJobs = try await store.jobs(inBatch: first.id)
        XCTAssertEqual(firstJobs.map(\.inputName), ["a.png", "b.png"])
        for file in retryFiles {
            XCTAssertFalse(FileManager.default.fileExists(atPath: file.input.path), "the retry's input goes")
        }
        let pendingAfterRetry = try await store.pendingCount()
        XCTAssertEqual(pendingAfterRetry, 2)
        // The same key from another owner is another batch.
        let other = Batch(owner: "p", idempotencyKey: "upload-1")
        let otherMade = try await store.createBatch(other, jobs: try files(["c.png"], batch: other))
        XCTAssertTrue(otherMade.created)
        // One input missing: neither the batch nor any of its jobs is added.
        let broken = Batch(owner: "o")
        var brokenFiles = try files(["d.png", "e.png"], batch: broken)
        try FileManager.default.removeItem(at: brokenFiles[1].input)
        brokenFiles[1].input = store.temporaryUploadURL()
        do {
            _ = try await store.createBatch(broken, jobs: brokenFiles)
            XCTFail("a batch with a missing input was added")
        } catch {}
        let brokenBatch = try await store.batch(id: broken.id, owner: nil)
        XCTAssertNil(brokenBatch)
        let brokenJobs = try await store.jobs(inBatch: broken.id)
        XCTAssertEqual(brokenJobs, [])
        let pendingAfterBroken = try await store.pendingCount()
        XCTAssertEqual(pendingAfterBroken, 3, "nothing of the broken batch is queued")
        await store.close()
    }

    /// A callback is handed out once its job (or every job of its batch) has ended, to one
    /// claimer at a time; a claim that is never recorded is handed out again after its lease;
    /// retries wait for their time; delivered and failed callbacks are done.
    public func callbacksAreDueWhenTheirSubjectEndsAndHeldByOneClaimer() async throws {
        let store = try await open()
        let job = try await Self.add(store)
        try await store.addCallback(Callback(kind: .job, subjectId: job.id, owner: "o", url: "http://example.com/hook"))
        var due = try await store.claimCallbacks(limit: 10, lease: 30, now: Date())
        XCTAssertEqual(due, [], "not before the job ends")
        _ = try await store.claim(by: "a", lease: 30)
        _ = try await store.succeed(id: job.id, by: "a", document: Data("{}".utf8))
        due = try await store.claimCallbacks(limit: 10, lease: 30, now: Date())
        XCTAssertEqual(due.map(\.subjectId), [job.id])
        XCTAssertEqual(due.first?.url, "http://example.com/hook")
        let callbackID = try XCTUnwrap(due.first?.id)
        due = try await store.claimCallbacks(limit: 10, lease: 30, now: Date())
        XCTAssertEqual(due, [], "held by its claimer")
        // The claimer died: after the lease, another gets it.
        due = try await store.claimCallbacks(limit: 10, lease: 30, now: Date().addingTimeInterval(31))
        XCTAssertEqual(due.map(\.id), [callbackID])
        try await store.recordCallback(id: callbackID, outcome: .retry(error: "the receiver answered 500",
                                                                        at: Date().addingTimeInterval(60)), now: Date())
        due = try await store.claimCallbacks(limit: 10, lease: 30, now: Date())
        XCTAssertEqual(due, [], "a retry waits for its time")
        due = try await store.claimCallbacks(limit: 10, lease: 30, now: Date().addingTimeInterval(61))
        XCTAssertEqual(due.first?.attempts, 1)
        XCTAssertEqual(due.first?.lastError, "the receiver answered 500")
        try await store.recordCallback(id: callbackID, outcome: .delivered, now: Date())
        let delivered = try await store.callback(kind: .job, subjectId: job.id)
        XCTAssertEqual(delivered?.state, .delivered)
        XCTAssertEqual(delivered?.attempts, 2)
        XCTAssertNotNil(delivered?.deliveredAt)
        due = try await store.claimCallbacks(limit: 10, lease: 30, now: Date().addingTimeInterval(3600))
        XCTAssertEqual(due, [], "delivered is done")

        // A batch's callback waits for all of its jobs.
        let batch = Batch(owner: "o")
        var files: [(new: NewJob, input: URL)] = []
        for index in 0..<2 {
            let file = store.temporaryUploadURL()
            try Data("x".utf8).write(to: file)
            files.append((NewJob(owner: "o", configuration: Data("{}".utf8), inputName: "b\(index).png",
                                 inputSize: 1, batchId: batch.id, batchIndex: index), file))
        }
        _ = try await store.createBatch(batch, jobs: files)
        let ids = files.map(\.new.id)
        try await store.addCallback(
            Callback(kind: .batch, subjectId: batch.id, owner: "o", url: "https://example.com/b"))
        _ = try await store.cancel(id: ids[0], owner: "o")
        due = try await store.claimCallbacks(limit: 10, lease: 30, now: Date())
        XCTAssertEqual(due, [], "one job of the batch is still queued")
        _ = try await store.cancel(id: ids[1], owner: "o")
        due = try await store.claimCallbacks(limit: 10, lease: 30, now: Date())
        XCTAssertEqual(due.map(\.kind), [.batch])
        try await store.recordCallback(id: due[0].id, outcome: .failed(error: "refused"), now: Date())
        let failed = try await store.callback(kind: .batch, subjectId: batch.id)
        XCTAssertEqual(failed?.state, .failed)
        XCTAssertEqual(failed?.lastError, "refused")
        await store.close()
    }

    /// The store's own signals: a queued job wakes a work observer, a finished job its waiter.
    public func signalsAnnounceWorkAndFinishedJobs() async throws {
        let store = try await open()
        let woken = Counter()
        let token = store.signals.observeWork { woken.add() }
        defer { store.signals.removeObserver(token) }
        let job = try await Self.add(store)
        try await eventually { woken.value > 0 }
        let interest = store.signals.interest(inFinishOf: job.id)
        _ = try await store.claim(by: "a", lease: 30)
        _ = try await store.succeed(id: job.id, by: "a", document: Data("{}".utf8))
        let started = ContinuousClock.now
        let signalled = await store.signals.wait(interest, timeout: .seconds(10))
        XCTAssertTrue(signalled, "the finish was announced")
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(5))
        await store.close()
    }
}

public final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    public init() {}
    public func add() { lock.lock(); count += 1; lock.unlock() }
    public var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}

/// Waits until `condition` holds, at most `seconds`; fails the test when it never does.
public func eventually(seconds: Double = 10, _ message: String = "condition never held", file: StaticString = #filePath,
                line: UInt = #line, _ condition: () async throws -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while ContinuousClock.now < deadline {
        if try await condition() { return }
        try await Task.sleep(for: .milliseconds(20))
    }
    XCTFail(message, file: file, line: line)
}
