import Foundation
import GRDB

/// Where a job is in its life.
public enum JobStatus: String, Sendable, Codable, CaseIterable {
    case queued, running, succeeded, failed, canceled

    public var isFinished: Bool { self == .succeeded || self == .failed || self == .canceled }
}

/// One extraction to run: its input (a file under the store's uploads folder), the
/// configuration to run it with (JSON, opaque here), and where it stands.
public struct Job: Sendable, Hashable, Codable {
    public var id: String
    /// Who may see the job: a hash of the API key that created it ("" without keys).
    public var owner: String
    public var status: JobStatus
    public var createdAt: Date
    public var startedAt: Date?
    public var finishedAt: Date?
    /// How many times a worker has been given the job.
    public var attempts: Int
    public var maxAttempts: Int
    public var errorCode: String?
    public var errorMessage: String?
    /// The configuration, as JSON; the store never reads it.
    public var configuration: Data
    /// The input's name as the client gave it (for messages and the document's `source`).
    public var inputName: String
    public var inputSize: Int
    public var idempotencyKey: String?
    /// Not before this time (a retry's backoff).
    public var availableAt: Date
    /// While running: the claimer holding it, and until when.
    public var leaseOwner: String?
    public var leasedUntil: Date?

    init(row: Row) {
        id = row["id"]
        owner = row["owner"]
        status = JobStatus(rawValue: row["status"]) ?? .failed
        createdAt = Date(timeIntervalSince1970: row["created_at"])
        startedAt = (row["started_at"] as Double?).map(Date.init(timeIntervalSince1970:))
        finishedAt = (row["finished_at"] as Double?).map(Date.init(timeIntervalSince1970:))
        attempts = row["attempts"]
        maxAttempts = row["max_attempts"]
        errorCode = row["error_code"]
        errorMessage = row["error_message"]
        configuration = row["configuration"]
        inputName = row["input_name"]
        inputSize = row["input_size"]
        idempotencyKey = row["idempotency_key"]
        availableAt = Date(timeIntervalSince1970: row["available_at"])
        leaseOwner = row["lease_owner"]
        leasedUntil = (row["leased_until"] as Double?).map(Date.init(timeIntervalSince1970:))
    }
}

/// A job to add to the queue.
public struct NewJob: Sendable {
    public var id: String
    public var owner: String
    public var configuration: Data
    public var inputName: String
    public var inputSize: Int
    public var idempotencyKey: String?
    public var maxAttempts: Int

    public init(id: String = UUID().uuidString.lowercased(), owner: String, configuration: Data, inputName: String,
                inputSize: Int, idempotencyKey: String? = nil, maxAttempts: Int = 3) {
        self.id = id
        self.owner = owner
        self.configuration = configuration
        self.inputName = inputName
        self.inputSize = inputSize
        self.idempotencyKey = idempotencyKey
        self.maxAttempts = maxAttempts
    }
}

/// The durable job queue: jobs and results in one SQLite database (WAL, through GRDB),
/// uploads as files beside it. Every state change is one transaction, so a crash or a
/// restart at any point leaves each job queued, running under a lease that will expire,
/// or finished. Several stores (threads or processes) may share one folder: claims are
/// single `UPDATE ... RETURNING` statements, so a job goes to exactly one claimer.
public final class JobStore: Sendable {
    public let directory: URL
    public let uploadsDirectory: URL
    private let pool: DatabasePool

    /// Opens (or creates) the store in `directory` and brings its schema up to date.
    public init(directory: URL) throws {
        self.directory = directory
        uploadsDirectory = directory.appendingPathComponent("uploads", isDirectory: true)
        try FileManager.default.createDirectory(at: uploadsDirectory, withIntermediateDirectories: true)
        var config = Configuration()
        // Another process (a second server, a test's claimer) may hold the write lock briefly.
        config.busyMode = .timeout(10)
        config.foreignKeysEnabled = true
        pool = try DatabasePool(path: directory.appendingPathComponent("jobs.sqlite").path, configuration: config)
        try Self.migrator.migrate(pool)
    }

    /// Versioned schema changes; a migration, once shipped, is never edited: add the next one.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: jobs and results") { db in
            try db.execute(sql: """
                CREATE TABLE job (
                    id TEXT PRIMARY KEY NOT NULL,
                    owner TEXT NOT NULL,
                    status TEXT NOT NULL,
                    created_at REAL NOT NULL,
                    started_at REAL,
                    finished_at REAL,
                    attempts INTEGER NOT NULL DEFAULT 0,
                    max_attempts INTEGER NOT NULL,
                    error_code TEXT,
                    error_message TEXT,
                    configuration BLOB NOT NULL,
                    input_name TEXT NOT NULL,
                    input_size INTEGER NOT NULL,
                    idempotency_key TEXT,
                    available_at REAL NOT NULL,
                    lease_owner TEXT,
                    leased_until REAL
                );
                CREATE UNIQUE INDEX job_idempotency ON job(owner, idempotency_key) WHERE idempotency_key IS NOT NULL;
                CREATE INDEX job_queue ON job(status, available_at, created_at);
                CREATE TABLE result (
                    job_id TEXT PRIMARY KEY NOT NULL REFERENCES job(id) ON DELETE CASCADE,
                    document BLOB NOT NULL
                );
                """)
        }
        return migrator
    }

    /// Where a job's input lives (written by the caller before `enqueue`).
    public func uploadURL(id: String) -> URL { uploadsDirectory.appendingPathComponent(id) }

    /// A new, unique place to stream an upload to before it becomes a job's input.
    public func temporaryUploadURL() -> URL {
        uploadsDirectory.appendingPathComponent("incoming-" + UUID().uuidString.lowercased())
    }

    // MARK: Adding and reading

    /// Adds a job. With an idempotency key the owner already used, nothing is added and the
    /// earlier job comes back with `created == false`.
    public func enqueue(_ new: NewJob, now: Date = Date()) throws -> (job: Job, created: Bool) {
        try pool.write { db in
            if let key = new.idempotencyKey,
               let row = try Row.fetchOne(db, sql: "SELECT * FROM job WHERE owner = ? AND idempotency_key = ?",
                                          arguments: [new.owner, key]) {
                return (Job(row: row), false)
            }
            let t = now.timeIntervalSince1970
            try db.execute(sql: """
                INSERT INTO job (id, owner, status, created_at, max_attempts, configuration, input_name, input_size,
                                 idempotency_key, available_at)
                VALUES (?, ?, 'queued', ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [new.id, new.owner, t, new.maxAttempts, new.configuration, new.inputName, new.inputSize,
                                 new.idempotencyKey, t])
            let row = try Row.fetchOne(db, sql: "SELECT * FROM job WHERE id = ?", arguments: [new.id])!
            return (Job(row: row), true)
        }
    }

    /// The job, if it exists and belongs to `owner` (any owner when nil).
    public func job(id: String, owner: String? = nil) throws -> Job? {
        try pool.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM job WHERE id = ?", arguments: [id]).map(Job.init(row:))
        }.flatMap { owner == nil || $0.owner == owner ? $0 : nil }
    }

    /// The result document of a succeeded job.
    public func result(id: String) throws -> Data? {
        try pool.read { db in try Data.fetchOne(db, sql: "SELECT document FROM result WHERE job_id = ?", arguments: [id]) }
    }

    /// Jobs waiting or running: what the queue holds.
    public func pendingCount() throws -> Int {
        try pool.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM job WHERE status IN ('queued', 'running')") ?? 0
        }
    }

    /// How many jobs are in each state (every state present, 0 when none): for `/metrics`.
    public func countsByStatus() throws -> [JobStatus: Int] {
        let rows = try pool.read { db in
            try Row.fetchAll(db, sql: "SELECT status, COUNT(*) AS n FROM job GROUP BY status")
        }
        var counts = Dictionary(uniqueKeysWithValues: JobStatus.allCases.map { ($0, 0) })
        for row in rows {
            if let status = JobStatus(rawValue: row["status"]) { counts[status] = row["n"] }
        }
        return counts
    }

    // MARK: The queue

    /// Gives the oldest job that is due to `claimer`, with a lease until `now + lease`: a
    /// queued job whose backoff is over, or a running one whose lease expired (its claimer
    /// died). Running jobs whose lease expired with no attempts left end `failed` instead.
    public func claim(by claimer: String, lease: TimeInterval, now: Date = Date()) throws -> Job? {
        let t = now.timeIntervalSince1970
        return try pool.write { db in
            try db.execute(sql: """
                UPDATE job SET status = 'failed', finished_at = ?, lease_owner = NULL, leased_until = NULL,
                       error_code = 'lease-expired', error_message = 'the worker running it stopped answering'
                WHERE status = 'running' AND leased_until < ? AND attempts >= max_attempts
                """, arguments: [t, t])
            let row = try Row.fetchOne(db, sql: """
                UPDATE job SET status = 'running', attempts = attempts + 1, lease_owner = ?, leased_until = ?,
                       started_at = COALESCE(started_at, ?)
                WHERE id = (SELECT id FROM job
                            WHERE (status = 'queued' AND available_at <= ?) OR (status = 'running' AND leased_until < ?)
                            ORDER BY available_at, created_at LIMIT 1)
                RETURNING *
                """, arguments: [claimer, t + lease, t, t, t])
            return row.map(Job.init(row:))
        }
    }

    /// Extends the lease; false when the claimer no longer holds the job (canceled, or the
    /// lease expired and another claimer took it): the claimer must then stop working on it.
    public func renew(id: String, by claimer: String, lease: TimeInterval, now: Date = Date()) throws -> Bool {
        try pool.write { db in
            try db.execute(sql: "UPDATE job SET leased_until = ? WHERE id = ? AND status = 'running' AND lease_owner = ?",
                           arguments: [now.timeIntervalSince1970 + lease, id, claimer])
            return db.changesCount == 1
        }
    }

    /// Stores the result and marks the job succeeded; false (and nothing stored) when the
    /// claimer no longer holds it.
    @discardableResult
    public func succeed(id: String, by claimer: String, document: Data, now: Date = Date()) throws -> Bool {
        let done = try pool.write { db -> Bool in
            try db.execute(sql: """
                UPDATE job SET status = 'succeeded', finished_at = ?, lease_owner = NULL, leased_until = NULL,
                       error_code = NULL, error_message = NULL
                WHERE id = ? AND status = 'running' AND lease_owner = ?
                """, arguments: [now.timeIntervalSince1970, id, claimer])
            guard db.changesCount == 1 else { return false }
            try db.execute(sql: "INSERT OR REPLACE INTO result (job_id, document) VALUES (?, ?)", arguments: [id, document])
            return true
        }
        if done { removeUpload(id: id) }
        return done
    }

    /// A failed attempt. With `retry` and attempts left, the job goes back to the queue
    /// after `backoff` seconds; else it ends `failed` with the code and message.
    @discardableResult
    public func fail(id: String, by claimer: String, code: String, message: String, retry: Bool,
                     backoff: TimeInterval, now: Date = Date()) throws -> JobStatus? {
        let t = now.timeIntervalSince1970
        let status = try pool.write { db -> JobStatus? in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM job WHERE id = ? AND status = 'running' AND lease_owner = ?",
                                             arguments: [id, claimer]) else { return nil }
            let job = Job(row: row)
            if retry && job.attempts < job.maxAttempts {
                try db.execute(sql: """
                    UPDATE job SET status = 'queued', available_at = ?, lease_owner = NULL, leased_until = NULL,
                           error_code = ?, error_message = ?
                    WHERE id = ?
                    """, arguments: [t + backoff, code, message, id])
                return .queued
            }
            try db.execute(sql: """
                UPDATE job SET status = 'failed', finished_at = ?, lease_owner = NULL, leased_until = NULL,
                       error_code = ?, error_message = ?
                WHERE id = ?
                """, arguments: [t, code, message, id])
            return .failed
        }
        if status == .failed { removeUpload(id: id) }
        return status
    }

    /// Hands a running job back to the queue without counting the attempt (a graceful shutdown).
    public func release(id: String, by claimer: String) throws {
        try pool.write { db in
            try db.execute(sql: """
                UPDATE job SET status = 'queued', attempts = MAX(attempts - 1, 0), lease_owner = NULL, leased_until = NULL
                WHERE id = ? AND status = 'running' AND lease_owner = ?
                """, arguments: [id, claimer])
        }
    }

    /// Cancels the job (whatever its state) and deletes its upload and result. The job
    /// stays as `canceled` until retention removes it. False when there is no such job.
    public func cancel(id: String, owner: String? = nil, now: Date = Date()) throws -> Bool {
        let found = try pool.write { db -> Bool in
            guard let row = try Row.fetchOne(db, sql: "SELECT owner FROM job WHERE id = ?", arguments: [id]),
                  owner == nil || (row["owner"] as String) == owner else { return false }
            try db.execute(sql: """
                UPDATE job SET status = 'canceled', finished_at = COALESCE(finished_at, ?), lease_owner = NULL,
                       leased_until = NULL
                WHERE id = ?
                """, arguments: [now.timeIntervalSince1970, id])
            try db.execute(sql: "DELETE FROM result WHERE job_id = ?", arguments: [id])
            return true
        }
        if found { removeUpload(id: id) }
        return found
    }

    /// Deletes jobs finished before `cutoff`, with their results and uploads; also uploads
    /// left half-written by a crash. Returns how many jobs went.
    @discardableResult
    public func purge(finishedBefore cutoff: Date) throws -> Int {
        let ids = try pool.write { db -> [String] in
            let ids = try String.fetchAll(db, sql: "SELECT id FROM job WHERE finished_at IS NOT NULL AND finished_at < ?",
                                          arguments: [cutoff.timeIntervalSince1970])
            try db.execute(sql: "DELETE FROM job WHERE finished_at IS NOT NULL AND finished_at < ?",
                           arguments: [cutoff.timeIntervalSince1970])
            return ids
        }
        ids.forEach(removeUpload(id:))
        let incoming = (try? FileManager.default.contentsOfDirectory(atPath: uploadsDirectory.path)) ?? []
        for name in incoming where name.hasPrefix("incoming-") {
            let url = uploadsDirectory.appendingPathComponent(name)
            let modified = (try? FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date) ?? .distantFuture
            if modified < Date().addingTimeInterval(-3600) { try? FileManager.default.removeItem(at: url) }
        }
        return ids.count
    }

    private func removeUpload(id: String) {
        try? FileManager.default.removeItem(at: uploadURL(id: id))
    }
}
