import Foundation
import Logging
import PostgresNIO
import ScanJobsPostgres
import XCTest

/// The PostgreSQL server the tests run against: `SCANEXTRACT_TEST_POSTGRES_URL`, which
/// `make test` (scripts/with-postgres.sh) sets to a throwaway cluster. Without it a test
/// fails under CI (CI=true) and is skipped elsewhere, saying how to run it.
public enum TestPostgres {
    public static let environmentKey = "SCANEXTRACT_TEST_POSTGRES_URL"

    public static func serverURL() throws -> PostgresURL {
        let env = ProcessInfo.processInfo.environment
        guard let url = env[environmentKey], !url.isEmpty else {
            let message = "\(environmentKey) is not set: run `make test`, or the tests under scripts/with-postgres.sh"
            if env["CI"] == "true" {
                XCTFail(message)
                throw MissingServer(description: message)
            }
            throw XCTSkip(message)
        }
        return try PostgresURL(url)
    }

    /// A new, empty database on the test server, dropped by `drop()`.
    public struct Database: Sendable {
        public let name: String
        public let url: String
        let server: PostgresURL

        public func drop() async {
            try? await TestPostgres.admin(server, "DROP DATABASE IF EXISTS \"\(name)\" WITH (FORCE)")
        }
    }

    public static func makeDatabase() async throws -> Database {
        let server = try serverURL()
        let unique = UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16)
        let name = "scanextract_test_" + unique
        try await admin(server, "CREATE DATABASE \"\(name)\"")
        return Database(name: String(name), url: server.urlString(database: String(name)), server: server)
    }

    /// Runs one statement on the server's own database.
    public static func admin(_ server: PostgresURL, _ sql: String) async throws {
        let logger = Logger(label: "scanextract.tests.postgres")
        let connection = try await PostgresConnection.connect(configuration: try server.connectionConfiguration, id: 0,
                                                              logger: logger)
        do {
            try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger)
        } catch {
            try? await connection.close()
            throw error
        }
        try? await connection.close()
    }

    public struct MissingServer: Error, CustomStringConvertible {
        public let description: String
    }
}
