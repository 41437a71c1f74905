import Foundation
import Logging
import PostgresNIO
import ScanJobs
@testable import ScanJobsPostgres
import TestSupport
import XCTest

/// A database that goes away under a running store: the pool keeps trying to connect and would hold each request
/// for a minute; the store gives up on a lease after its deadline, with an error that says so.
final class UnreachableDatabaseTests: XCTestCase {
    func testAnOperationFailsWhenNoConnectionComesWithinTheDeadline() async throws {
        let port = try freeLoopbackPort()  // nothing listens: every connection attempt is refused
        let url = try PostgresURL("postgres://scanextract@127.0.0.1:\(port)/scanextract")
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let client = PostgresClient(configuration: try url.clientConfiguration, backgroundLogger: logger)
        let running = Task { await client.run() }
        defer { running.cancel() }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("pg-gone-" + UUID().uuidString)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let store = PostgresJobStore(url: url, client: client, scratchDirectory: scratch, logger: logger,
                                     leaseDeadline: .milliseconds(300))
        for attempt in 1...2 {
            do {
                _ = try await store.job(id: "j", owner: nil)
                XCTFail("attempt \(attempt): a job was read from a database that is not there")
            } catch let error as PostgresStoreError {
                XCTAssertEqual(error.description, "the database gave no connection within 0.3 seconds")
                // What a worker's retried write asks: this passes with time, a refused value would not.
                XCTAssertTrue(store.isUnreachable(error))
                XCTAssertFalse(store.isUnreachable(PostgresStoreError(description: "the job was neither added nor found")))
            }
        }
        do {
            _ = try await store.claim(by: "node", lease: 30, now: Date())
            XCTFail("a job was claimed from a database that is not there")
        } catch let error as PostgresStoreError {
            XCTAssertTrue(error.description.hasPrefix("the database gave no connection"), error.description)
        }
    }
}
