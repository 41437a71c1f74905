import Foundation
import GRDB

/// The embedded ``JobStore``: jobs and results in one SQLite database (WAL, through GRDB),
/// inputs as files beside it. Every state change is one transaction, so a crash or a
/// restart at any point leaves each job queued, running under a lease that will expire,
/// or finished. Several stores (threads or processes) may share one folder: claims are
/// single `UPDATE ... RETURNING` statements, so a job goes to exactly one claimer. Its
/// signals reach this process only; other processes on the folder find work by polling.
public final class SQLiteJobStore: JobStore {
    public let directory: URL
    public let uploadsDirectory: URL
    public let signals = JobSignals()
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
        try pool.write(Self.migrate)
    }

    /// ``JobSchema``'s steps, in one write transaction.
    static func migrate(_ db: Database) throws {
        try db.execute(sql: JobSchema.versionTableSQLite)
        var applied = Set(try Int.fetchAll(db, sql: "SELECT version FROM schema_version"))
        // Stores made before schema_version kept their one step in GRDB's own table.
        if applied.isEmpty, try db.tableExists("grdb_migrations"),
           try Bool.fetchOne(db, sql: "SELECT COUNT(*) > 0 FROM grdb_migrations WHERE identifier = 'v1: jobs and results'") == true {
            try db.execute(sql: "INSERT INTO schema_version (version, name, applied_at) VALUES (1, ?, ?)",
                           arguments: [JobSchema.migrations[0].name, Date().timeIntervalSince1970])
            applied.insert(1)
        }
        for migration in try JobSchema.pending(applied: applied) {
            for statement in migration.sqlite { try db.execute(sql: statement) }
            try db.execute(sql: "INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)",
                           arguments: [migration.version, migration.name, Date().timeIntervalSince1970])
        }
    }

    /// The schema versions recorded (for tests and diagnostics).
    public func schemaVersions() throws -> [Int] {
        try pool.read { db in try Int.fetchAll(db, sql: "SELECT version FROM schema_version ORDER BY version") }
    }

    /// Where a job's input lives.
    public func uploadURL(id: String) -> URL { uploadsDirectory.appendingPathComponent(id) }

    public func temporaryUploadURL() -> URL {
        uploadsDirectory.appendingPathComponent("incoming-" + UUID().uuidString.lowercased())
    }

    public func close() async {}

    // MARK: Adding and reading

    public func enqueue(_ new: NewJob, input: URL, now: Date) async throws -> (job: Job, created: Bool) {
        let destination = uploadURL(id: new.id)
        try FileManager.default.moveItem(at: input, to: destination)
        let outcome: (job: Job, created: Bool)
        do {
            outcome = try await pool.write { db in
                if let key = new.idempotencyKey,
                   let row = try Row.fetchOne(db, sql: "SELECT * FROM job WHERE owner = ? AND idempotency_key = ?",
                                              arguments: [new.owner, key]) {
                    return (Self.job(row), false)
                }
                try Self.checkQueueLimit(new.queueLimit, adding: 1, in: db)
                try Self.insert(new, now: now, in: db)
                let row = try Row.fetchOne(db, sql: "SELECT * FROM job WHERE id = ?", arguments: [new.id])!
                return (Self.job(row), true)
            }
        } catch {
            try? FileManager.default.removeItem(at: destination)
            throw error
        }
        // A retry with the same key: the first job stands, this copy of the input goes.
        if outcome.created { signals.postWork() } else { try? FileManager.default.removeItem(at: destination) }
        return outcome
    }

    public func job(id: String, owner: String?) async throws -> Job? {
        try await pool.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM job WHERE id = ?", arguments: [id]).map(Self.job)
        }.flatMap { owner == nil || $0.owner == owner ? $0 : nil }
    }

    public func result(id: String) async throws -> Data? {
        try await pool.read { db in try Data.fetchOne(db, sql: "SELECT document FROM result WHERE job_id = ?", arguments: [id]) }
    }

    /// Throws ``QueueFull`` when `adding` jobs would take the queue past `limit`; inside the write transaction, which
    /// SQLite runs one at a time, so no other upload counts in between.
    static func checkQueueLimit(_ limit: Int?, adding: Int, in db: Database) throws {
        guard let limit else { return }
        let pending = try Int.fetchOne(db, sql: JobSchema.pendingCountSQL) ?? 0
        if pending + adding > limit { throw QueueFull(pending: pending, limit: limit) }
    }

    public func pendingCount() async throws -> Int {
        try await pool.read { db in
            try Int.fetchOne(db, sql: JobSchema.pendingCountSQL) ?? 0
        }
    }

    public func countsByStatus() async throws -> [JobStatus: Int] {
        let rows = try await pool.read { db in
            try Row.fetchAll(db, sql: "SELECT status, COUNT(*) AS n FROM job GROUP BY status")
        }
        var counts = Dictionary(uniqueKeysWithValues: JobStatus.allCases.map { ($0, 0) })
        for row in rows {
            if let status = JobStatus(rawValue: row["status"]) { counts[status] = row["n"] }
        }
        return counts
    }

    // MARK: Batches

    public func createBatch(_ batch: Batch, jobs: [(new: NewJob, input: URL)], now: Date) async throws
        -> (batch: Batch, created: Bool) {
        let rejected = try JSONEncoder().encode(batch.rejected)
        // The inputs to their places first (a move in one folder), then every row in one transaction.
        var placed: [URL] = []
        let outcome: (batch: Batch, created: Bool)
        do {
            for job in jobs {
                let destination = uploadURL(id: job.new.id)
                try FileManager.default.moveItem(at: job.input, to: destination)
                placed.append(destination)
            }
            outcome = try await pool.write { db in
                if let key = batch.idempotencyKey,
                   let row = try Row.fetchOne(db, sql: "SELECT * FROM batch WHERE owner = ? AND idempotency_key = ?",
                                              arguments: [batch.owner, key]) {
                    return (try Self.batch(row), false)
                }
                try Self.checkQueueLimit(jobs.first?.new.queueLimit, adding: jobs.count, in: db)
                try db.execute(sql: "INSERT INTO batch (id, owner, created_at, rejected, idempotency_key) VALUES (?, ?, ?, ?, ?)",
                               arguments: [batch.id, batch.owner, batch.createdAt.timeIntervalSince1970, rejected,
                                           batch.idempotencyKey])
                for job in jobs {
                    var new = job.new
                    new.batchId = batch.id
                    try Self.insert(new, now: now, in: db)
                }
                return (batch, true)
            }
        } catch {
            for url in placed { try? FileManager.default.removeItem(at: url) }
            throw error
        }
        if outcome.created {
            signals.postWork()
        } else {
            for url in placed { try? FileManager.default.removeItem(at: url) }
        }
        return outcome
    }

    /// One queued job's row, inside the caller's transaction (its input is placed already).
    private static func insert(_ new: NewJob, now: Date, in db: Database) throws {
        let t = now.timeIntervalSince1970
        try db.execute(sql: """
            INSERT INTO job (id, owner, status, created_at, max_attempts, configuration, input_name, input_size,
                             idempotency_key, available_at, batch_id, batch_index)
            VALUES (?, ?, 'queued', ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [new.id, new.owner, t, new.maxAttempts, new.configuration, new.inputName, new.inputSize,
                             new.idempotencyKey, t, new.batchId, new.batchIndex])
    }

    public func batch(id: String, owner: String?) async throws -> Batch? {
        let row = try await pool.read { db in try Row.fetchOne(db, sql: "SELECT * FROM batch WHERE id = ?", arguments: [id]) }
        guard let row, owner == nil || (row["owner"] as String) == owner else { return nil }
        return try Self.batch(row)
    }

    private static func batch(_ row: Row) throws -> Batch {
        Batch(id: row["id"], owner: row["owner"], createdAt: Date(timeIntervalSince1970: row["created_at"]),
              rejected: try JSONDecoder().decode([Batch.Rejection].self, from: row["rejected"] as Data),
              idempotencyKey: row["idempotency_key"])
    }

    public func jobs(inBatch id: String) async throws -> [Job] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM job WHERE batch_id = ? ORDER BY batch_index", arguments: [id]).map(Self.job)
        }
    }

    // MARK: Callbacks

    public func addCallback(_ callback: Callback) async throws {
        try await pool.write { db in
            try db.execute(sql: """
                INSERT INTO callback (id, kind, subject_id, owner, url, state, attempts, due_at, created_at)
                VALUES (?, ?, ?, ?, ?, 'pending', 0, ?, ?)
                """, arguments: [callback.id, callback.kind.rawValue, callback.subjectId, callback.owner, callback.url,
                                 callback.createdAt.timeIntervalSince1970, callback.createdAt.timeIntervalSince1970])
        }
    }

    public func callback(kind: Callback.Kind, subjectId: String) async throws -> Callback? {
        try await pool.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM callback WHERE kind = ? AND subject_id = ?",
                             arguments: [kind.rawValue, subjectId]).map(Self.callback)
        }
    }

    public func claimCallbacks(limit: Int, lease: TimeInterval, now: Date) async throws -> [Callback] {
        let t = now.timeIntervalSince1970
        return try await pool.write { db in
            try Row.fetchAll(db, sql: """
                UPDATE callback SET due_at = ?
                WHERE id IN (SELECT c.id FROM callback c
                             WHERE c.state = 'pending' AND c.due_at <= ? AND (
                                 (c.kind = 'job' AND EXISTS (SELECT 1 FROM job WHERE job.id = c.subject_id
                                                             AND job.status IN ('succeeded', 'failed', 'canceled')))
                                 OR (c.kind = 'batch' AND NOT EXISTS (SELECT 1 FROM job WHERE job.batch_id = c.subject_id
                                                                      AND job.status IN ('queued', 'running'))))
                             ORDER BY c.due_at LIMIT ?)
                RETURNING *
                """, arguments: [t + lease, t, limit]).map(Self.callback)
        }
    }

    public func recordCallback(id: String, outcome: CallbackOutcome, now: Date) async throws {
        let t = now.timeIntervalSince1970
        try await pool.write { db in
            switch outcome {
            case .delivered:
                try db.execute(
                    sql: """
                        UPDATE callback SET state = 'delivered', attempts = attempts + 1, delivered_at = ?, last_error = NULL
                        WHERE id = ?
                        """, arguments: [t, id])
            case .retry(let error, let at):
                try db.execute(sql: "UPDATE callback SET attempts = attempts + 1, due_at = ?, last_error = ? WHERE id = ?",
                               arguments: [at.timeIntervalSince1970, error, id])
            case .failed(let error):
                try db.execute(sql: "UPDATE callback SET state = 'failed', attempts = attempts + 1, last_error = ? WHERE id = ?",
                               arguments: [error, id])
            }
        }
    }

    static func callback(_ row: Row) -> Callback {
        Callback(id: row["id"], kind: Callback.Kind(rawValue: row["kind"]) ?? .job, subjectId: row["subject_id"],
                 owner: row["owner"], url: row["url"], state: Callback.State(rawValue: row["state"]) ?? .failed,
                 attempts: row["attempts"], lastError: row["last_error"],
                 createdAt: Date(timeIntervalSince1970: row["created_at"]),
                 deliveredAt: (row["delivered_at"] as Double?).map(Date.init(timeIntervalSince1970:)))
    }

    // MARK: The queue

    public func claim(by claimer: String, lease: TimeInterval, now: Date) async throws -> Job? {
        let t = now.timeIntervalSince1970
        let (expired, claimed) = try await pool.write { db -> ([String], Job?) in
            let expired = try String.fetchAll(db, sql: """
                UPDATE job SET status = 'failed', finished_at = ?, lease_owner = NULL, leased_until = NULL,
                       error_code = 'lease-expired', error_message = 'the worker running it stopped answering'
                WHERE status = 'running' AND leased_until < ? AND attempts >= max_attempts
                RETURNING id
                """, arguments: [t, t])
            let row = try Row.fetchOne(db, sql: """
                UPDATE job SET status = 'running', attempts = attempts + 1, lease_owner = ?, leased_until = ?,
                       started_at = COALESCE(started_at, ?)
                WHERE id = (SELECT id FROM job
                            WHERE (status = 'queued' AND available_at <= ?) OR (status = 'running' AND leased_until < ?)
                            ORDER BY available_at, created_at LIMIT 1)
                RETURNING *
                """, arguments: [claimer, t + lease, t, t, t])
            return (expired, row.map(Self.job))
        }
        for id in expired {
            removeUpload(id: id)
            signals.postFinished(id: id)
        }
        return claimed
    }

    public func input(of job: Job) async throws -> JobInput {
        JobInput(url: uploadURL(id: job.id), isTemporary: false)
    }

    public func renew(id: String, by claimer: String, lease: TimeInterval, now: Date) async throws -> Bool {
        try await pool.write { db in
            try db.execute(sql: "UPDATE job SET leased_until = ? WHERE id = ? AND status = 'running' AND lease_owner = ?",
                           arguments: [now.timeIntervalSince1970 + lease, id, claimer])
            return db.changesCount == 1
        }
    }

    public func succeed(id: String, by claimer: String, document: Data, now: Date) async throws -> Bool {
        let done = try await pool.write { db -> Bool in
            try db.execute(sql: """
                UPDATE job SET status = 'succeeded', finished_at = ?, lease_owner = NULL, leased_until = NULL,
                       error_code = NULL, error_message = NULL
                WHERE id = ? AND status = 'running' AND lease_owner = ?
                """, arguments: [now.timeIntervalSince1970, id, claimer])
            guard db.changesCount == 1 else { return false }
            try db.execute(sql: "INSERT OR REPLACE INTO result (job_id, document) VALUES (?, ?)", arguments: [id, document])
            return true
        }
        if done {
            removeUpload(id: id)
            signals.postFinished(id: id)
        }
        return done
    }

    public func fail(id: String, by claimer: String, code: String, message: String, retry: Bool,
                     backoff: TimeInterval, now: Date) async throws -> JobStatus? {
        let t = now.timeIntervalSince1970
        let status = try await pool.write { db -> JobStatus? in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM job WHERE id = ? AND status = 'running' AND lease_owner = ?",
                                             arguments: [id, claimer]) else { return nil }
            let job = Self.job(row)
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
        if status == .failed {
            removeUpload(id: id)
            signals.postFinished(id: id)
        } else if status == .queued {
            signals.postWork()
        }
        return status
    }

    public func release(id: String, by claimer: String) async throws {
        let released = try await pool.write { db -> Bool in
            try db.execute(
                sql: """
                    UPDATE job SET status = 'queued', attempts = MAX(attempts - 1, 0), lease_owner = NULL, leased_until = NULL
                    WHERE id = ? AND status = 'running' AND lease_owner = ?
                    """, arguments: [id, claimer])
            return db.changesCount == 1
        }
        if released { signals.postWork() }
    }

    public func cancel(id: String, owner: String?, now: Date) async throws -> Bool {
        let found = try await pool.write { db -> Bool in
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
        if found {
            removeUpload(id: id)
            signals.postFinished(id: id)
        }
        return found
    }

    /// Also removes uploads left half-written by a crash.
    public func purge(finishedBefore cutoff: Date) async throws -> Int {
        let ids = try await pool.write { db -> [String] in
            let ids = try String.fetchAll(db, sql: "DELETE FROM job WHERE finished_at IS NOT NULL AND finished_at < ? RETURNING id",
                                arguments: [cutoff.timeIntervalSince1970])
            try db.execute(sql: """
                DELETE FROM batch WHERE created_at < ? AND NOT EXISTS (SELECT 1 FROM job WHERE job.batch_id = batch.id)
                """, arguments: [cutoff.timeIntervalSince1970])
            try db.execute(sql: """
                DELETE FROM callback WHERE created_at < ?
                    AND NOT EXISTS (SELECT 1 FROM job WHERE callback.kind = 'job' AND job.id = callback.subject_id)
                    AND NOT EXISTS (SELECT 1 FROM batch WHERE callback.kind = 'batch' AND batch.id = callback.subject_id)
                """, arguments: [cutoff.timeIntervalSince1970])
            return ids
        }
        ids.forEach(removeUpload(id:))
        ScratchFolder.removeStale(in: uploadsDirectory, prefix: "incoming-")
        return ids.count
    }

    private func removeUpload(id: String) {
        try? FileManager.default.removeItem(at: uploadURL(id: id))
    }

    static func job(_ row: Row) -> Job {
        Job(id: row["id"], owner: row["owner"], status: JobStatus(rawValue: row["status"]) ?? .failed,
            createdAt: Date(timeIntervalSince1970: row["created_at"]),
            startedAt: (row["started_at"] as Double?).map(Date.init(timeIntervalSince1970:)),
            finishedAt: (row["finished_at"] as Double?).map(Date.init(timeIntervalSince1970:)),
            attempts: row["attempts"], maxAttempts: row["max_attempts"],
            errorCode: row["error_code"], errorMessage: row["error_message"], configuration: row["configuration"],
            inputName: row["input_name"], inputSize: row["input_size"], idempotencyKey: row["idempotency_key"],
            availableAt: Date(timeIntervalSince1970: row["available_at"]), leaseOwner: row["lease_owner"],
            leasedUntil: (row["leased_until"] as Double?).map(Date.init(timeIntervalSince1970:)),
            batchId: row["batch_id"], batchIndex: row["batch_index"])
    }
}

/// Local files a store writes for a while (uploads being received, inputs handed to workers).
public enum ScratchFolder {
    /// Removes files named `prefix...` in `folder` untouched for an hour: left by a crash.
    public static func removeStale(in folder: URL, prefix: String, olderThan age: TimeInterval = 3600) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names where name.hasPrefix(prefix) {
            let url = folder.appendingPathComponent(name)
            let modified = (try? FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date)
                ?? .distantFuture
            if modified < Date().addingTimeInterval(-age) { try? FileManager.default.removeItem(at: url) }
        }
    }
}
