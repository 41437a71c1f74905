import Foundation
import Logging
import PostgresNIO
import ScanJobs
import Synchronization

/// The shared ``JobStore``: jobs, results and inputs in PostgreSQL, so that several `serve`
/// processes on several machines run one queue.
///
/// - A claim is one `UPDATE ... FROM (SELECT ... FOR UPDATE SKIP LOCKED LIMIT 1) RETURNING`:
///   claimers skip the rows others are taking instead of waiting on them, and a job goes to
///   exactly one of them.
/// - The claimer holds the job under a lease (`leased_until`) that its worker pool renews;
///   a lease left to expire (a dead node) makes the job due again, counting an attempt.
/// - Inputs are kept in `input_chunk` as 1 MiB `bytea` pieces (see ``JobSchema``), written
///   and read a piece at a time: any node can run any job, and no upload is held whole in
///   memory. Results are one `bytea` each (a JSON document).
/// - A trigger NOTIFYs `scanextract_jobs` on every queued or finished job; one connection
///   per store LISTENs and turns that into ``signals`` (reconnecting when it drops). The
///   worker pool and the long polls also poll, so a lost connection only slows them.
/// - Times are the caller's (`now`, this machine's clock); leases of tens of seconds need
///   the nodes' clocks to agree within a few seconds (NTP).
public final class PostgresJobStore: JobStore {
    public let signals = JobSignals()
    /// Local files: uploads being received, and inputs fetched for a worker.
    public let scratchDirectory: URL
    public let url: PostgresURL
    private let client: PostgresClient
    private let logger: Logger
    /// How long an operation waits for a pooled connection before it fails with ``PostgresStoreError/unreachable``.
    /// postgres-nio's pool queues a request for as long as it cannot connect, and fails it only when its circuit
    /// breaker trips a minute later; a request to the service should learn sooner that the database is gone.
    let leaseDeadline: Duration
    private let tasks = Mutex<[Task<Void, Never>]>([])
    static let chunkSize = 1 << 20
    static let channel = "scanextract_jobs"

    /// Connects, brings the schema up to date, and starts listening for notifications.
    /// Fails at once (with the server's reason) when the database cannot be reached.
    public static func connect(url: String, scratchDirectory: URL,
                               logger: Logger = PostgresJobStore.defaultLogger) async throws -> PostgresJobStore {
        let parsed = try PostgresURL(url)
        try FileManager.default.createDirectory(at: scratchDirectory, withIntermediateDirectories: true)
        // One direct connection first: an unreachable server or a bad password is an error now,
        // not a pool retrying in the background.
        let connection: PostgresConnection
        do {
            connection = try await PostgresConnection.connect(configuration: try parsed.connectionConfiguration, id: 0,
                                                              logger: logger)
        } catch {
            throw PostgresStoreError(description: "cannot connect: \(describe(error))")
        }
        do {
            try await migrate(connection, logger: logger)
            try? await connection.close()
        } catch {
            try? await connection.close()
            throw PostgresStoreError(description: "cannot bring the schema up to date: \(describe(error))")
        }
        let store = PostgresJobStore(url: parsed, client: PostgresClient(configuration: try parsed.clientConfiguration,
                                                                          backgroundLogger: logger),
                                     scratchDirectory: scratchDirectory, logger: logger)
        store.start()
        return store
    }

    /// Warnings and worse: postgres-nio tells at `info` of every connection it closes.
    public static var defaultLogger: Logger {
        var logger = Logger(label: "scanextract.jobs.postgres")
        logger.logLevel = .warning
        return logger
    }

    /// A store on `client` as it is, without connecting or migrating first (``connect(url:scratchDirectory:logger:)``
    /// does both); internal, for tests of a database that has gone away.
    init(url: PostgresURL, client: PostgresClient, scratchDirectory: URL, logger: Logger,
         leaseDeadline: Duration = .seconds(5)) {
        self.url = url
        self.leaseDeadline = leaseDeadline
        self.client = client
        self.scratchDirectory = scratchDirectory
        self.logger = logger
    }

    private func start() {
        let client = self.client
        let running = Task { await client.run() }
        let listening = Task { [weak self] in
            guard let self else { return }
            await self.listen()
        }
        tasks.withLock { $0 = [running, listening] }
    }

    /// No connection in time, a connection lost, or the server saying it is shutting down or cannot take connections
    /// now (SQLSTATE classes 08 and 57P), also inside a transaction's error.
    public func isUnreachable(_ error: any Error) -> Bool {
        switch error {
        case let e as PostgresStoreError: return e.isUnreachable
        case let e as PostgresTransactionError:
            return [e.beginError, e.closureError, e.commitError].contains { $0.map(isUnreachable) ?? false }
        case let e as PSQLError:
            switch e.code {
            case .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown: return true
            case .server:
                let state = e.serverInfo?[.sqlState] ?? ""
                return state.hasPrefix("08") || state.hasPrefix("57P")
            default: return false
            }
        default: return false
        }
    }

    public func close() async {
        let tasks = self.tasks.withLock { t -> [Task<Void, Never>] in defer { t = [] }; return t }
        tasks.reversed().forEach { $0.cancel() }
        for task in tasks { await task.value }
    }

    // MARK: Connections

    /// Runs `body` on a pooled connection leased within ``leaseDeadline``, else throws
    /// ``PostgresStoreError/unreachable``. Whether the lease came in time is decided once, under a lock, so that a
    /// `body` that has begun always runs to its end and one whose lease came late never begins.
    private func leased<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws
        -> T
    {
        let client = self.client
        let deadline = leaseDeadline
        let race = LeaseRace()
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask {
                try await client.withConnection { connection in
                    guard race.settle(.leased) else { throw PostgresStoreError.unreachable(after: deadline) }
                    return try await body(connection)
                }
            }
            group.addTask {
                do {
                    try await Task.sleep(for: deadline)
                } catch {
                    // Cancelled with the caller: a body that began runs to its end and its outcome is the answer.
                    if race.settle(.tooLate) { throw error }
                    return nil
                }
                if race.settle(.tooLate) { throw PostgresStoreError.unreachable(after: deadline) }
                return nil
            }
            while let finished = try await group.next() {
                if let value = finished {
                    group.cancelAll()
                    return value
                }
            }
            throw PostgresStoreError.unreachable(after: deadline)
        }
    }

    /// Which came first, the lease or the deadline: the first to settle wins.
    private final class LeaseRace: Sendable {
        enum Outcome { case leased, tooLate }
        private let outcome = Mutex<Outcome?>(nil)
        /// True when `wanted` is the outcome (it came first, now or before).
        func settle(_ wanted: Outcome) -> Bool {
            outcome.withLock { settled in
                if settled == nil { settled = wanted }
                return settled == wanted
            }
        }
    }

    /// One statement on a leased connection; its rows are read before the connection goes back.
    @discardableResult
    private func rows(_ query: PostgresQuery) async throws -> [PostgresRow] {
        let logger = self.logger
        return try await leased { try await $0.query(query, logger: logger).collect() }
    }

    /// `body` in one transaction on a leased connection. What `body` threw comes out as itself (a full queue as
    /// ``QueueFull``, for the service's 429), not wrapped in `PostgresTransactionError`.
    private func transaction<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T)
        async throws -> T
    {
        let logger = self.logger
        return try await leased { connection in
            do {
                return try await connection.withTransaction(logger: logger) { try await body($0) }
            } catch let error as PostgresTransactionError {
                if let full = error.closureError as? QueueFull { throw full }
                throw error
            }
        }
    }

    /// ``JobSchema``'s steps in one transaction, under an advisory lock: servers starting
    /// together take turns, and the later ones find nothing left to do.
    static func migrate(_ connection: PostgresConnection, logger: Logger) async throws {
        try await connection.withTransaction(logger: logger) { db in
            try await db.query("SELECT pg_advisory_xact_lock(\(Self.migrationLock))", logger: logger)
            try await db.query(PostgresQuery(unsafeSQL: JobSchema.versionTablePostgres), logger: logger)
            var applied = Set<Int>()
            for try await row in try await db.query("SELECT version FROM schema_version", logger: logger) {
                applied.insert(try row.makeRandomAccess()[0].decode(Int.self))
            }
            for migration in try JobSchema.pending(applied: applied) {
                for statement in migration.postgres {
                    try await db.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await db.query(
                    "INSERT INTO schema_version (version, name) VALUES (\(migration.version), \(migration.name))",
                    logger: logger)
            }
        }
    }

    /// An arbitrary key for `pg_advisory_xact_lock`, ours alone ("scanextr" as ASCII).
    static let migrationLock: Int = 0x7363_616E_6578_7472

    /// The schema versions recorded (for tests and diagnostics).
    public func schemaVersions() async throws -> [Int] {
        var versions: [Int] = []
        for row in try await rows("SELECT version FROM schema_version ORDER BY version") {
            versions.append(try row.makeRandomAccess()[0].decode(Int.self))
        }
        return versions
    }

    /// LISTENs on its own connection (a pooled one may be handed to a query mid-wait), and
    /// reconnects a second after it drops. After each (re)connect, "work" is posted: what was
    /// notified while it was away has to be looked for.
    private func listen() async {
        while !Task.isCancelled {
            do {
                let connection = try await PostgresConnection.connect(configuration: try url.connectionConfiguration,
                                                                      id: 1, logger: logger)
                do {
                    try await connection.listen(on: Self.channel) { notifications in
                        signals.postWork()
                        for try await notification in notifications {
                            let payload = notification.payload
                            if payload == "work" {
                                signals.postWork()
                            } else if payload.hasPrefix("finished:") {
                                signals.postFinished(id: String(payload.dropFirst("finished:".count)))
                            }
                        }
                    }
                } catch {
                    if !Task.isCancelled {
                        logger.warning("LISTEN \(Self.channel) stopped: \(describe(error)); reconnecting")
                    }
                }
                try? await connection.close()
            } catch {
                if !Task.isCancelled { logger.warning("cannot LISTEN on \(url): \(describe(error)); retrying") }
            }
            try? await Task.sleep(for: .seconds(1))
        }
    }

    // MARK: Adding and reading

    public func temporaryUploadURL() -> URL {
        scratchDirectory.appendingPathComponent("incoming-" + UUID().uuidString.lowercased())
    }

    public func enqueue(_ new: NewJob, input: URL, now: Date) async throws -> (job: Job, created: Bool) {
        defer { try? FileManager.default.removeItem(at: input) }
        if let key = new.idempotencyKey, let earlier = try await job(owner: new.owner, idempotencyKey: key) {
            return (earlier, false)
        }
        let logger = self.logger
        // The job and its input in one transaction: no node sees the job before its input.
        let inserted = try await transaction { db -> Job? in
            guard
                let job = try await Self.insert(new, input: input, now: now, on: db, logger: logger, skipUsedKey: true)
            else { return nil }
            try await Self.checkQueueLimit(new.queueLimit, added: 1, on: db, logger: logger)
            return job
        }
        if let inserted { return (inserted, true) }
        // Another request with the same key committed first.
        guard let key = new.idempotencyKey, let earlier = try await job(owner: new.owner, idempotencyKey: key) else {
            throw PostgresStoreError(description: "the job \(new.id) was neither added nor found")
        }
        return (earlier, false)
    }

    private func job(owner: String, idempotencyKey: String) async throws -> Job? {
        try await Self.first(rows("""
            SELECT \(unescaped: Self.columns) FROM job WHERE owner = \(owner) AND idempotency_key = \(idempotencyKey)
            """))
    }

    public func job(id: String, owner: String?) async throws -> Job? {
        let job = try await Self.first(rows("SELECT \(unescaped: Self.columns) FROM job WHERE id = \(id)"))
        return job.flatMap { owner == nil || $0.owner == owner ? $0 : nil }
    }

    public func result(id: String) async throws -> Data? {
        for row in try await rows("SELECT document FROM result WHERE job_id = \(id)") {
            return try row.makeRandomAccess()[0].decode(Data.self)
        }
        return nil
    }

    public func pendingCount() async throws -> Int {
        var count = 0
        for row in try await rows(PostgresQuery(unsafeSQL: JobSchema.pendingCountSQL)) {
            count = try row.makeRandomAccess()[0].decode(Int.self)
        }
        return count
    }

    public func countsByStatus() async throws -> [JobStatus: Int] {
        var counts = Dictionary(uniqueKeysWithValues: JobStatus.allCases.map { ($0, 0) })
        for row in try await rows("SELECT status, COUNT(*) FROM job GROUP BY status") {
            let cells = row.makeRandomAccess()
            if let status = JobStatus(rawValue: try cells[0].decode(String.self)) {
                counts[status] = try cells[1].decode(Int.self)
            }
        }
        return counts
    }

    // MARK: Batches

    public func createBatch(_ batch: Batch, jobs: [(new: NewJob, input: URL)], now: Date) async throws
        -> (batch: Batch, created: Bool) {
        defer { for job in jobs { try? FileManager.default.removeItem(at: job.input) } }
        let rejected = try JSONEncoder().encode(batch.rejected)
        let logger = self.logger
        // The batch, its jobs and their inputs in one transaction.
        let created = try await transaction { db -> Bool in
            var made = false
            for try await _ in try await db.query("""
                INSERT INTO batch (id, owner, created_at, rejected, idempotency_key)
                VALUES (\(batch.id), \(batch.owner), \(batch.createdAt), \(rejected), \(batch.idempotencyKey))
                ON CONFLICT (owner, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING
                RETURNING id
                """, logger: logger) { made = true }
            guard made else { return false }
            for job in jobs {
                var new = job.new
                new.batchId = batch.id
                let inserted = try await Self.insert(
                    new, input: job.input, now: now, on: db, logger: logger, skipUsedKey: false)
                guard inserted != nil else {
                    throw PostgresStoreError(description: "the job \(job.new.id) of batch \(batch.id) was not added")
                }
            }
            try await Self.checkQueueLimit(jobs.first?.new.queueLimit, added: jobs.count, on: db, logger: logger)
            return true
        }
        if created { return (batch, true) }
        guard let key = batch.idempotencyKey,
              let earlier = try await self.batch(owner: batch.owner, idempotencyKey: key) else {
            throw PostgresStoreError(description: "the batch \(batch.id) was neither added nor found")
        }
        return (earlier, false)
    }

    /// Throws ``QueueFull`` when the `added` jobs the transaction has just inserted take the queue past `limit` (the
    /// transaction then rolls them back). It takes an advisory lock that every limited insert takes, on any server,
    /// so that two uploads can't both count the last free place; taken last, after the inputs are written, so that
    /// the lock is held for a count and a commit, and a large upload keeps no other waiting while it is written.
    private static func checkQueueLimit(_ limit: Int?, added: Int, on db: PostgresConnection, logger: Logger)
        async throws
    {
        guard let limit else { return }
        try await db.query("SELECT pg_advisory_xact_lock(\(Self.queueAdmissionLock))", logger: logger)
        // This transaction's own jobs are among those counted; others' count once committed (the lock orders them).
        var pending = 0
        for try await row in try await db.query(PostgresQuery(unsafeSQL: JobSchema.pendingCountSQL), logger: logger) {
            pending = try row.makeRandomAccess()[0].decode(Int.self)
        }
        if pending > limit { throw QueueFull(pending: pending - added, limit: limit) }
    }

    /// The advisory lock key of queue admission (any constant no other lock of the schema uses).
    static let queueAdmissionLock: Int64 = 0x5CA7_0001

    /// Adds one queued job and its input, in chunks, inside the caller's transaction; nil when
    /// `skipUsedKey` and the owner already used the job's idempotency key.
    private static func insert(_ new: NewJob, input: URL, now: Date, on db: PostgresConnection, logger: Logger,
                               skipUsedKey: Bool) async throws -> Job? {
        let conflict = skipUsedKey ? "ON CONFLICT (owner, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING" : ""
        guard let file = FileHandle(forReadingAtPath: input.path) else { throw CocoaError(.fileReadNoSuchFile) }
        defer { try? file.close() }
        let rows = try await db.query("""
            INSERT INTO job (id, owner, status, created_at, max_attempts, configuration, input_name, input_size,
                             idempotency_key, available_at, batch_id, batch_index)
            VALUES (\(new.id), \(new.owner), 'queued', \(now), \(new.maxAttempts), \(new.configuration),
                    \(new.inputName), \(new.inputSize), \(new.idempotencyKey), \(now), \(new.batchId),
                    \(new.batchIndex))
            \(unescaped: conflict)
            RETURNING \(unescaped: Self.columns)
            """, logger: logger)
        guard let job = try await Self.first(rows) else { return nil }
        var seq = 0
        while let chunk = try file.read(upToCount: Self.chunkSize), !chunk.isEmpty {
            try await db.query("INSERT INTO input_chunk (job_id, seq, data) VALUES (\(new.id), \(seq), \(chunk))",
                               logger: logger)
            seq += 1
        }
        return job
    }

    public func batch(id: String, owner: String?) async throws -> Batch? {
        let found = try await Self.firstBatch(rows("""
            SELECT \(unescaped: Self.batchColumns) FROM batch WHERE id = \(id)
            """))
        return found.flatMap { owner == nil || $0.owner == owner ? $0 : nil }
    }

    private func batch(owner: String, idempotencyKey: String) async throws -> Batch? {
        try await Self.firstBatch(rows("""
            SELECT \(unescaped: Self.batchColumns) FROM batch
            WHERE owner = \(owner) AND idempotency_key = \(idempotencyKey)
            """))
    }

    static let batchColumns = "id, owner, created_at, rejected, idempotency_key"

    private static func firstBatch(_ rows: [PostgresRow]) throws -> Batch? {
        for row in rows {
            let cells = row.makeRandomAccess()
            let rejected = try JSONDecoder().decode([Batch.Rejection].self, from: try cells[3].decode(Data.self))
            return Batch(id: try cells[0].decode(String.self), owner: try cells[1].decode(String.self),
                         createdAt: try cells[2].decode(Date.self), rejected: rejected,
                         idempotencyKey: try cells[4].decode(String?.self))
        }
        return nil
    }

    public func jobs(inBatch id: String) async throws -> [Job] {
        var jobs: [Job] = []
        for row in try await rows("""
            SELECT \(unescaped: Self.columns) FROM job WHERE batch_id = \(id) ORDER BY batch_index
            """) {
            jobs.append(try Self.decode(row))
        }
        return jobs
    }

    // MARK: Callbacks

    public func addCallback(_ callback: Callback) async throws {
        try await rows("""
            INSERT INTO callback (id, kind, subject_id, owner, url, state, attempts, due_at, created_at)
            VALUES (\(callback.id), \(callback.kind.rawValue), \(callback.subjectId), \(callback.owner), \(callback.url),
                    'pending', 0, \(callback.createdAt), \(callback.createdAt))
            """)
    }

    public func callback(kind: Callback.Kind, subjectId: String) async throws -> Callback? {
        var found: Callback?
        for row in try await rows(
            """
            SELECT \(unescaped: Self.callbackColumns) FROM callback WHERE kind = \(kind.rawValue) AND subject_id = \(subjectId)
            """)
        {
            found = try Self.decodeCallback(row)
        }
        return found
    }

    public func claimCallbacks(limit: Int, lease: TimeInterval, now: Date) async throws -> [Callback] {
        let until = now.addingTimeInterval(lease)
        var claimed: [Callback] = []
        for row in try await rows("""
            UPDATE callback SET due_at = \(until)
            FROM (SELECT c.id FROM callback c
                  WHERE c.state = 'pending' AND c.due_at <= \(now) AND (
                      (c.kind = 'job' AND EXISTS (SELECT 1 FROM job WHERE job.id = c.subject_id
                                                  AND job.status IN ('succeeded', 'failed', 'canceled')))
                      OR (c.kind = 'batch' AND NOT EXISTS (SELECT 1 FROM job WHERE job.batch_id = c.subject_id
                                                           AND job.status IN ('queued', 'running'))))
                  ORDER BY c.due_at
                  LIMIT \(limit)
                  FOR UPDATE SKIP LOCKED) AS due
            WHERE callback.id = due.id
            RETURNING \(unescaped: Self.qualifiedCallbackColumns)
            """) {
            claimed.append(try Self.decodeCallback(row))
        }
        return claimed
    }

    public func recordCallback(id: String, outcome: CallbackOutcome, now: Date) async throws {
        switch outcome {
        case .delivered:
            try await rows(
                """
                UPDATE callback SET state = 'delivered', attempts = attempts + 1, delivered_at = \(now), last_error = NULL
                WHERE id = \(id)
                """)
        case .retry(let error, let at):
            try await rows("""
                UPDATE callback SET attempts = attempts + 1, due_at = \(at), last_error = \(error) WHERE id = \(id)
                """)
        case .failed(let error):
            try await rows("""
                UPDATE callback SET state = 'failed', attempts = attempts + 1, last_error = \(error) WHERE id = \(id)
                """)
        }
    }

    static let callbackColumnNames = [
        "id", "kind", "subject_id", "owner", "url", "state", "attempts", "last_error", "created_at", "delivered_at",
    ]
    static let callbackColumns = callbackColumnNames.joined(separator: ", ")
    static let qualifiedCallbackColumns = callbackColumnNames.map { "callback." + $0 }.joined(separator: ", ")

    static func decodeCallback(_ row: PostgresRow) throws -> Callback {
        let cells = row.makeRandomAccess()
        return Callback(
            id: try cells["id"].decode(String.self),
            kind: Callback.Kind(rawValue: try cells["kind"].decode(String.self)) ?? .job,
            subjectId: try cells["subject_id"].decode(String.self),
            owner: try cells["owner"].decode(String.self),
            url: try cells["url"].decode(String.self),
            state: Callback.State(rawValue: try cells["state"].decode(String.self)) ?? .failed,
            attempts: try cells["attempts"].decode(Int.self),
            lastError: try cells["last_error"].decode(String?.self),
            createdAt: try cells["created_at"].decode(Date.self),
            deliveredAt: try cells["delivered_at"].decode(Date?.self))
    }

    // MARK: The queue

    public func claim(by claimer: String, lease: TimeInterval, now: Date) async throws -> Job? {
        // Last attempts whose lease ran out end failed (their inputs go with the same statement).
        try await rows("""
            WITH expired AS (
                UPDATE job SET status = 'failed', finished_at = \(now), lease_owner = NULL, leased_until = NULL,
                       error_code = 'lease-expired', error_message = 'the worker running it stopped answering'
                WHERE status = 'running' AND leased_until < \(now) AND attempts >= max_attempts
                RETURNING id)
            DELETE FROM input_chunk WHERE job_id IN (SELECT id FROM expired)
            """)
        let until = now.addingTimeInterval(lease)
        return try await Self.first(rows("""
            UPDATE job SET status = 'running', attempts = job.attempts + 1, lease_owner = \(claimer),
                   leased_until = \(until), started_at = COALESCE(job.started_at, \(now))
            FROM (SELECT id FROM job
                  WHERE (status = 'queued' AND available_at <= \(now))
                     OR (status = 'running' AND leased_until < \(now) AND attempts < max_attempts)
                  ORDER BY available_at, created_at
                  LIMIT 1
                  FOR UPDATE SKIP LOCKED) AS next
            WHERE job.id = next.id
            RETURNING \(unescaped: Self.qualifiedColumns)
            """))
    }

    /// Fetches the input a piece at a time into a scratch file for the worker.
    public func input(of job: Job) async throws -> JobInput {
        let url = scratchDirectory.appendingPathComponent("input-\(job.id)-\(UUID().uuidString.lowercased())")
        guard FileManager.default.createFile(atPath: url.path, contents: nil),
              let file = FileHandle(forWritingAtPath: url.path) else { throw CocoaError(.fileWriteUnknown) }
        do {
            defer { try? file.close() }
            let logger = self.logger
            try await leased { db in
                let query: PostgresQuery = "SELECT data FROM input_chunk WHERE job_id = \(job.id) ORDER BY seq"
                for try await row in try await db.query(query, logger: logger) {
                    let chunk = try row.makeRandomAccess()[0].decode(ByteBuffer.self)
                    try chunk.withUnsafeReadableBytes { try file.write(contentsOf: $0) }
                }
            }
        } catch {
            try? FileManager.default.removeItem(at: url)
            throw error
        }
        return JobInput(url: url, isTemporary: true)
    }

    public func renew(id: String, by claimer: String, lease: TimeInterval, now: Date) async throws -> Bool {
        let until = now.addingTimeInterval(lease)
        return try await Self.first(rows("""
            UPDATE job SET leased_until = \(until) WHERE id = \(id) AND status = 'running' AND lease_owner = \(claimer)
            RETURNING \(unescaped: Self.columns)
            """)) != nil
    }

    public func succeed(id: String, by claimer: String, document: Data, now: Date) async throws -> Bool {
        let logger = self.logger
        return try await transaction { db -> Bool in
            let rows = try await db.query("""
                UPDATE job SET status = 'succeeded', finished_at = \(now), lease_owner = NULL, leased_until = NULL,
                       error_code = NULL, error_message = NULL
                WHERE id = \(id) AND status = 'running' AND lease_owner = \(claimer)
                RETURNING id
                """, logger: logger)
            guard try await Self.hasRow(rows) else { return false }
            try await db.query("""
                INSERT INTO result (job_id, document) VALUES (\(id), \(document))
                ON CONFLICT (job_id) DO UPDATE SET document = EXCLUDED.document
                """, logger: logger)
            try await db.query("DELETE FROM input_chunk WHERE job_id = \(id)", logger: logger)
            return true
        }
    }

    public func fail(id: String, by claimer: String, code: String, message: String, retry: Bool,
                     backoff: TimeInterval, now: Date) async throws -> JobStatus? {
        let logger = self.logger
        let later = now.addingTimeInterval(backoff)
        return try await transaction { db -> JobStatus? in
            // One statement decides: retried while attempts are left, else failed for good.
            let rows = try await db.query("""
                UPDATE job SET
                    status = CASE WHEN \(retry) AND attempts < max_attempts THEN 'queued' ELSE 'failed' END,
                    available_at = CASE WHEN \(retry) AND attempts < max_attempts THEN \(later) ELSE available_at END,
                    finished_at = CASE WHEN \(retry) AND attempts < max_attempts THEN NULL ELSE \(now) END,
                    lease_owner = NULL, leased_until = NULL, error_code = \(code), error_message = \(message)
                WHERE id = \(id) AND status = 'running' AND lease_owner = \(claimer)
                RETURNING status
                """, logger: logger)
            var status: JobStatus?
            for try await row in rows {
                status = JobStatus(rawValue: try row.makeRandomAccess()[0].decode(String.self))
            }
            if status == .failed { try await db.query("DELETE FROM input_chunk WHERE job_id = \(id)", logger: logger) }
            return status
        }
    }

    public func release(id: String, by claimer: String) async throws {
        try await rows("""
            UPDATE job SET status = 'queued', attempts = GREATEST(attempts - 1, 0),
                   lease_owner = NULL, leased_until = NULL
            WHERE id = \(id) AND status = 'running' AND lease_owner = \(claimer)
            """)
    }

    public func cancel(id: String, owner: String?, now: Date) async throws -> Bool {
        let logger = self.logger
        return try await transaction { db -> Bool in
            let rows = try await db.query("""
                UPDATE job SET status = 'canceled', finished_at = COALESCE(finished_at, \(now)), lease_owner = NULL,
                       leased_until = NULL
                WHERE id = \(id) AND (\(owner)::text IS NULL OR owner = \(owner))
                RETURNING id
                """, logger: logger)
            guard try await Self.hasRow(rows) else { return false }
            try await db.query("DELETE FROM result WHERE job_id = \(id)", logger: logger)
            try await db.query("DELETE FROM input_chunk WHERE job_id = \(id)", logger: logger)
            return true
        }
    }

    /// Results and inputs go with their jobs (ON DELETE CASCADE). Also removes scratch files
    /// left by a crash.
    public func purge(finishedBefore cutoff: Date) async throws -> Int {
        var count = 0
        for _ in try await rows(
            "DELETE FROM job WHERE finished_at IS NOT NULL AND finished_at < \(cutoff) RETURNING id") {
            count += 1
        }
        try await rows(
            """
            DELETE FROM batch WHERE created_at < \(cutoff) AND NOT EXISTS (SELECT 1 FROM job WHERE job.batch_id = batch.id)
            """)
        try await rows("""
            DELETE FROM callback WHERE created_at < \(cutoff)
                AND NOT EXISTS (SELECT 1 FROM job WHERE callback.kind = 'job' AND job.id = callback.subject_id)
                AND NOT EXISTS (SELECT 1 FROM batch WHERE callback.kind = 'batch' AND batch.id = callback.subject_id)
            """)
        ScratchFolder.removeStale(in: scratchDirectory, prefix: "incoming-")
        ScratchFolder.removeStale(in: scratchDirectory, prefix: "input-")
        return count
    }

    // MARK: Rows

    static let columnNames = [
        "id", "owner", "status", "created_at", "started_at", "finished_at", "attempts", "max_attempts", "error_code",
        "error_message", "configuration", "input_name", "input_size", "idempotency_key", "available_at", "lease_owner",
        "leased_until", "batch_id", "batch_index",
    ]
    static let columns = columnNames.joined(separator: ", ")
    static let qualifiedColumns = columnNames.map { "job." + $0 }.joined(separator: ", ")

    static func first(_ rows: PostgresRowSequence) async throws -> Job? {
        var job: Job?
        // Read to the end: the connection goes back to the pool when the rows are consumed.
        for try await row in rows where job == nil { job = try decode(row) }
        return job
    }

    static func first(_ rows: [PostgresRow]) throws -> Job? {
        try rows.first.map(decode)
    }

    static func hasRow(_ rows: PostgresRowSequence) async throws -> Bool {
        var found = false
        for try await _ in rows { found = true }
        return found
    }

    static func decode(_ row: PostgresRow) throws -> Job {
        let cells = row.makeRandomAccess()
        return Job(
            id: try cells["id"].decode(String.self),
            owner: try cells["owner"].decode(String.self),
            status: JobStatus(rawValue: try cells["status"].decode(String.self)) ?? .failed,
            createdAt: try cells["created_at"].decode(Date.self),
            startedAt: try cells["started_at"].decode(Date?.self),
            finishedAt: try cells["finished_at"].decode(Date?.self),
            attempts: try cells["attempts"].decode(Int.self),
            maxAttempts: try cells["max_attempts"].decode(Int.self),
            errorCode: try cells["error_code"].decode(String?.self),
            errorMessage: try cells["error_message"].decode(String?.self),
            configuration: try cells["configuration"].decode(Data.self),
            inputName: try cells["input_name"].decode(String.self),
            inputSize: try cells["input_size"].decode(Int.self),
            idempotencyKey: try cells["idempotency_key"].decode(String?.self),
            availableAt: try cells["available_at"].decode(Date.self),
            leaseOwner: try cells["lease_owner"].decode(String?.self),
            leasedUntil: try cells["leased_until"].decode(Date?.self),
            batchId: try cells["batch_id"].decode(String?.self),
            batchIndex: try cells["batch_index"].decode(Int?.self))
    }
}

/// What went wrong, for a person: the server's message, or the network's. (PSQLError's own
/// description is deliberately vague, so that queries and data stay out of logs.)
func describe(_ error: any Error) -> String {
    guard let error = error as? PSQLError else { return "\(error)" }
    if let message = error.serverInfo?[.message] { return message }
    if let underlying = error.underlying { return "\(underlying)" }
    return "\(error.code)"
}

public struct PostgresStoreError: Error, CustomStringConvertible {
    public let description: String
    /// The database did not answer (``unreachable(after:)``); a later try may.
    public var isUnreachable = false

    /// No pooled connection came within `deadline`: the database is down or out of reach.
    static func unreachable(after deadline: Duration) -> PostgresStoreError {
        PostgresStoreError(description: "the database gave no connection within \(deadline)", isUnreachable: true)
    }
}
