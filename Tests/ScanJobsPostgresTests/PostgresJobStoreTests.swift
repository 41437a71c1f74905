import Foundation
import JobStoreTestSupport
import ScanJobs
import ScanJobsPostgres
import XCTest

/// The JobStore contract on a real PostgreSQL server (a fresh database per test), plus what
/// only PostgreSQL has: signals across stores (LISTEN/NOTIFY) and concurrent migrations.
final class PostgresJobStoreTests: XCTestCase {
    var database: TestPostgres.Database!
    var scratch: URL!
    var contract: JobStoreContract!

    override func setUp() async throws {
        database = try await TestPostgres.makeDatabase()
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("scanjobs-pg-" + UUID().uuidString)
        self.scratch = scratch
        let url = database.url
        contract = JobStoreContract {
            try await PostgresJobStore.connect(url: url, scratchDirectory: scratch)
        }
    }

    override func tearDown() async throws {
        await database?.drop()
        if let scratch { try? FileManager.default.removeItem(at: scratch) }
    }

    func testAJobGoesFromQueuedToSucceededWithItsResult() async throws {
        try await contract.aJobGoesFromQueuedToSucceededWithItsResult()
    }
    func testABatchIsAddedWholeAndItsIdempotencyKeyGivesItBack() async throws {
        try await contract.aBatchIsAddedWholeAndItsIdempotencyKeyGivesItBack()
    }
    func testABatchKeepsItsJobsInUploadOrderForItsOwnerOnly() async throws {
        try await contract.aBatchKeepsItsJobsInUploadOrderForItsOwnerOnly()
    }
    func testCallbacksAreDueWhenTheirSubjectEndsAndHeldByOneClaimer() async throws {
        try await contract.callbacksAreDueWhenTheirSubjectEndsAndHeldByOneClaimer()
    }
    func testAnInputOfSeveralMegabytesComesBackWhole() async throws {
        try await contract.anInputOfSeveralMegabytesComesBackWhole()
    }
    func testAJobIsOnlyVisibleToItsOwner() async throws { try await contract.aJobIsOnlyVisibleToItsOwner() }
    func testCancelingARunningJobTakesItFromItsClaimer() async throws {
        try await contract.cancelingARunningJobTakesItFromItsClaimer()
    }
    func testAnIdempotencyKeyGivesBackTheSameJobPerOwner() async throws {
        try await contract.anIdempotencyKeyGivesBackTheSameJobPerOwner()
    }
    func testConcurrentUploadsWithOneKeyMakeOneJob() async throws {
        try await contract.concurrentUploadsWithOneKeyMakeOneJob()
    }
    func testCountsByStatusNameEveryState() async throws { try await contract.countsByStatusNameEveryState() }
    func testAFailedAttemptIsRetriedAfterItsBackoffUntilAttemptsRunOut() async throws {
        try await contract.aFailedAttemptIsRetriedAfterItsBackoffUntilAttemptsRunOut()
    }
    func testAFailureNotToRetryEndsTheJobAtOnce() async throws {
        try await contract.aFailureNotToRetryEndsTheJobAtOnce()
    }
    func testAnExpiredLeasePutsTheJobBackAndTheOldHolderLosesIt() async throws {
        try await contract.anExpiredLeasePutsTheJobBackAndTheOldHolderLosesIt()
    }
    func testAHandedBackJobKeepsItsAttempts() async throws { try await contract.aHandedBackJobKeepsItsAttempts() }
    func testJobsSurviveReopeningTheStoreAndRunOldestFirst() async throws {
        try await contract.jobsSurviveReopeningTheStoreAndRunOldestFirst()
    }
    func testRetentionRemovesFinishedJobsOnly() async throws { try await contract.retentionRemovesFinishedJobsOnly() }
    func testEachJobIsClaimedExactlyOnceUnderConcurrency() async throws {
        try await contract.eachJobIsClaimedExactlyOnceUnderConcurrency()
    }
    func testSignalsAnnounceWorkAndFinishedJobs() async throws {
        try await contract.signalsAnnounceWorkAndFinishedJobs()
    }

    /// LISTEN/NOTIFY: what one store (one node) does wakes another's observers and waiters.
    func testANotificationFromOneNodeWakesAnother() async throws {
        let node1 = try await contract.open()
        let node2 = try await contract.open()
        let woken = Counter()
        node2.signals.observeWork { woken.add() }
        // The listener (re)connecting posts work once; wait for that, then count from there.
        try await eventually("node 2 never listened") { woken.value > 0 }
        try await Task.sleep(for: .milliseconds(200))
        let before = woken.value
        let job = try await JobStoreContract.add(node1)
        try await eventually("node 2 was not woken by node 1's job") { woken.value > before }
        let interest = node2.signals.interest(inFinishOf: job.id)
        _ = try await node1.claim(by: "node1", lease: 30)
        _ = try await node1.succeed(id: job.id, by: "node1", document: Data("{}".utf8))
        let signalled = await node2.signals.wait(interest, timeout: .seconds(10))
        XCTAssertTrue(signalled, "node 2 heard that node 1 finished the job")
        await node1.close()
        await node2.close()
    }

    /// Several servers starting at once on an empty database: one creates the schema, the
    /// others wait for it (advisory lock) and find it done.
    func testServersStartingTogetherMigrateOnce() async throws {
        let url: String = database.url
        let scratch: URL = self.scratch
        let stores = try await withThrowingTaskGroup(of: PostgresJobStore.self) { group in
            for _ in 0..<4 {
                group.addTask { try await PostgresJobStore.connect(url: url, scratchDirectory: scratch) }
            }
            var stores: [PostgresJobStore] = []
            for try await store in group { stores.append(store) }
            return stores
        }
        let versions = try await stores[0].schemaVersions()
        XCTAssertEqual(versions, JobSchema.migrations.map(\.version))
        for store in stores { await store.close() }
    }

    /// A database left at version 1 by an earlier build gets the later steps, and only them.
    func testADatabaseAtAnEarlierVersionIsBroughtUpToDate() async throws {
        let url = try PostgresURL(database.url)
        try await TestPostgres.admin(url, JobSchema.versionTablePostgres)
        for statement in JobSchema.migrations[0].postgres { try await TestPostgres.admin(url, statement) }
        try await TestPostgres.admin(
            url, "INSERT INTO schema_version (version, name) VALUES (1, 'jobs, results and inputs')")
        let store = try await PostgresJobStore.connect(url: database.url, scratchDirectory: scratch)
        let versions = try await store.schemaVersions()
        XCTAssertEqual(versions, JobSchema.migrations.map(\.version))
        await store.close()
        try await TestPostgres.admin(url, "INSERT INTO schema_version (version, name) VALUES (999, 'from the future')")
        do {
            _ = try await PostgresJobStore.connect(url: database.url, scratchDirectory: scratch)
            XCTFail("a schema newer than this build was written to")
        } catch {
            XCTAssertTrue("\(error)".contains("newer"), "\(error)")
        }
    }

    func testAnUnreachableServerIsAnErrorAtOnce() async throws {
        let started = ContinuousClock.now
        do {
            _ = try await PostgresJobStore.connect(url: "postgres://nobody@127.0.0.1:1/none", scratchDirectory: scratch)
            XCTFail("connected to nothing")
        } catch {
            XCTAssertLessThan(ContinuousClock.now - started, .seconds(15))
        }
    }

    func testURLsAreReadAsLibpqReadsThem() throws {
        let full = try PostgresURL("postgresql://ann:s%40cret@db.example:6543/jobs?sslmode=require")
        XCTAssertEqual(full.username, "ann")
        XCTAssertEqual(full.password, "s@cret")
        XCTAssertEqual(full.host, "db.example")
        XCTAssertEqual(full.port, 6543)
        XCTAssertEqual(full.database, "jobs")
        XCTAssertEqual(full.sslMode, "require")
        XCTAssertFalse(full.description.contains("cret"), "no password in messages")
        let short = try PostgresURL("postgres://bob@localhost")
        XCTAssertEqual(short.port, 5432)
        XCTAssertEqual(short.database, "bob")
        XCTAssertThrowsError(try PostgresURL("mysql://x@y/z"))
        XCTAssertThrowsError(try PostgresURL("postgres://x@y/z?sslmode=verify-full"))
    }
}
