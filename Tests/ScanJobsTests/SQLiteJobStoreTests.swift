import Foundation
import GRDB
import JobStoreTestSupport
import ScanJobs
import XCTest

/// The JobStore contract on the embedded store, plus what only SQLite has (files, GRDB's old
/// migration table).
final class SQLiteJobStoreTests: XCTestCase {
    var dir: URL!
    var contract: JobStoreContract!

    override func setUp() {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("scanjobs-" + UUID().uuidString)
        self.dir = dir
        contract = JobStoreContract { try SQLiteJobStore(directory: dir) }
    }
    override func tearDown() { try? FileManager.default.removeItem(at: dir) }

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

    func testTheSchemaIsVersionedAndOpeningAgainChangesNothing() throws {
        _ = try SQLiteJobStore(directory: dir)
        let again = try SQLiteJobStore(directory: dir)
        XCTAssertEqual(try again.schemaVersions(), JobSchema.migrations.map(\.version))
    }

    /// A store made before schema_version (GRDB's migrator, one step) is adopted, not re-created.
    func testAStoreFromBeforeSchemaVersionIsAdoptedWithItsJobs() async throws {
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let queue = try DatabaseQueue(path: dir.appendingPathComponent("jobs.sqlite").path)
        try await queue.write { db in
            try db.execute(sql: "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
            try db.execute(sql: "INSERT INTO grdb_migrations VALUES ('v1: jobs and results')")
            for statement in JobSchema.migrations[0].sqlite { try db.execute(sql: statement) }
            try db.execute(
                sql: """
                    INSERT INTO job (id, owner, status, created_at, max_attempts, configuration, input_name, input_size, available_at)
                    VALUES ('old', '', 'queued', 1, 3, X'7B7D', 'in.png', 3, 1)
                    """)
        }
        try queue.close()
        let store = try SQLiteJobStore(directory: dir)
        XCTAssertEqual(
            try store.schemaVersions(), JobSchema.migrations.map(\.version),
            "version 1 recorded as it was, the later steps run")
        let old = try await store.job(id: "old")
        XCTAssertEqual(old?.status, .queued)
    }

    func testADatabaseNewerThanThisBuildIsRefused() throws {
        _ = try SQLiteJobStore(directory: dir)
        let queue = try DatabaseQueue(path: dir.appendingPathComponent("jobs.sqlite").path)
        try queue.write { db in
            try db.execute(sql: "INSERT INTO schema_version (version, name, applied_at) VALUES (999, 'future', 0)")
        }
        try queue.close()
        XCTAssertThrowsError(try SQLiteJobStore(directory: dir)) { error in
            XCTAssertTrue("\(error)".contains("newer"), "\(error)")
        }
    }
}
