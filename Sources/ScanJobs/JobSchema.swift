import Foundation

/// The job store's schema as one ordered list of versioned steps, each written for both
/// databases. Both stores run the same path: inside one transaction (and, in PostgreSQL,
/// under an advisory lock, since several servers may start at once) they read the versions
/// applied from `schema_version`, run the missing steps in order and record each. A step,
/// once shipped, is never edited: add the next one. A database at a version this build
/// does not know is refused rather than written to.
public enum JobSchema {
    /// The jobs waiting or running, as both stores count them (for `pendingCount` and the queue limit).
    public static let pendingCountSQL = "SELECT COUNT(*) FROM job WHERE status IN ('queued', 'running')"

    public struct Migration: Sendable {
        public let version: Int
        public let name: String
        /// Statements, one an element, run in order.
        public let sqlite: [String]
        public let postgres: [String]
    }

    /// Records which steps ran; the same in both databases.
    public static let versionTableSQLite = """
        CREATE TABLE IF NOT EXISTS schema_version (
            version INTEGER PRIMARY KEY NOT NULL, name TEXT NOT NULL, applied_at REAL NOT NULL)
        """
    public static let versionTablePostgres = """
        CREATE TABLE IF NOT EXISTS schema_version (
            version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())
        """

    public static let migrations: [Migration] = [
        Migration(
            version: 1, name: "jobs, results and inputs",
            sqlite: [
                """
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
                )
                """,
                "CREATE UNIQUE INDEX job_idempotency ON job(owner, idempotency_key) WHERE idempotency_key IS NOT NULL",
                "CREATE INDEX job_queue ON job(status, available_at, created_at)",
                """
                CREATE TABLE result (
                    job_id TEXT PRIMARY KEY NOT NULL REFERENCES job(id) ON DELETE CASCADE,
                    document BLOB NOT NULL
                )
                """,
                // Inputs are files in the store's folder (uploads/ID): nothing to create.
            ],
            postgres: [
                """
                CREATE TABLE job (
                    id text PRIMARY KEY,
                    owner text NOT NULL,
                    status text NOT NULL CHECK (status IN ('queued', 'running', 'succeeded', 'failed', 'canceled')),
                    created_at timestamptz NOT NULL,
                    started_at timestamptz,
                    finished_at timestamptz,
                    attempts integer NOT NULL DEFAULT 0,
                    max_attempts integer NOT NULL,
                    error_code text,
                    error_message text,
                    configuration bytea NOT NULL,
                    input_name text NOT NULL,
                    input_size bigint NOT NULL,
                    idempotency_key text,
                    available_at timestamptz NOT NULL,
                    lease_owner text,
                    leased_until timestamptz
                )
                """,
                "CREATE UNIQUE INDEX job_idempotency ON job(owner, idempotency_key) WHERE idempotency_key IS NOT NULL",
                // Partial indexes: the claim reads only due queued jobs and expired leases.
                "CREATE INDEX job_queue ON job(available_at, created_at) WHERE status = 'queued'",
                "CREATE INDEX job_leases ON job(leased_until) WHERE status = 'running'",
                "CREATE INDEX job_finished ON job(finished_at) WHERE finished_at IS NOT NULL",
                """
                CREATE TABLE result (
                    job_id text PRIMARY KEY REFERENCES job(id) ON DELETE CASCADE,
                    document bytea NOT NULL
                )
                """,
                // Inputs in 1 MiB pieces: written and read a piece at a time, never whole in
                // memory, and deleted with their job (no large objects to unlink).
                """
                CREATE TABLE input_chunk (
                    job_id text NOT NULL REFERENCES job(id) ON DELETE CASCADE,
                    seq integer NOT NULL,
                    data bytea NOT NULL,
                    PRIMARY KEY (job_id, seq)
                )
                """,
                // Images and PDFs are compressed already: store them out of line, uncompressed.
                "ALTER TABLE input_chunk ALTER COLUMN data SET STORAGE EXTERNAL",
                // Every node LISTENs on scanextract_jobs: 'work' when a job is queued (new, retried,
                // handed back), 'finished:ID' when one ends. Sent at commit, from any writer.
                """
                CREATE FUNCTION scanextract_job_notify() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    IF NEW.status = 'queued' THEN
                        PERFORM pg_notify('scanextract_jobs', 'work');
                    ELSIF NEW.status IN ('succeeded', 'failed', 'canceled') THEN
                        PERFORM pg_notify('scanextract_jobs', 'finished:' || NEW.id);
                    END IF;
                    RETURN NULL;
                END
                $$
                """,
                """
                CREATE TRIGGER job_notify AFTER INSERT OR UPDATE OF status ON job
                FOR EACH ROW EXECUTE FUNCTION scanextract_job_notify()
                """,
            ]),
        // Every upload asks how many jobs are pending (the queue limit), and a store keeps a
        // week of finished jobs: count the pending ones from an index of them alone.
        Migration(
            version: 2, name: "index of pending jobs",
            sqlite: ["CREATE INDEX job_pending ON job(status) WHERE status IN ('queued', 'running')"],
            postgres: ["CREATE INDEX job_pending ON job(status) WHERE status IN ('queued', 'running')"]),
        // POST /v1/batches: a batch row (its owner, the files refused at upload as a JSON array),
        // and each of its jobs pointing at it with the file's place in the upload.
        Migration(
            version: 3, name: "batches",
            sqlite: [
                """
                CREATE TABLE batch (
                    id TEXT PRIMARY KEY NOT NULL,
                    owner TEXT NOT NULL,
                    created_at REAL NOT NULL,
                    rejected BLOB NOT NULL
                )
                """,
                "ALTER TABLE job ADD COLUMN batch_id TEXT",
                "ALTER TABLE job ADD COLUMN batch_index INTEGER",
                "CREATE INDEX job_batch ON job(batch_id, batch_index) WHERE batch_id IS NOT NULL",
            ],
            postgres: [
                """
                CREATE TABLE batch (
                    id text PRIMARY KEY,
                    owner text NOT NULL,
                    created_at timestamptz NOT NULL,
                    rejected bytea NOT NULL
                )
                """,
                "ALTER TABLE job ADD COLUMN batch_id text, ADD COLUMN batch_index integer",
                "CREATE INDEX job_batch ON job(batch_id, batch_index) WHERE batch_id IS NOT NULL",
            ]),
        // callbackUrl: one row a job or batch to announce, kept until retention, so that a restart
        // loses no delivery. Due once its subject has ended and `due_at` has come (a retry's
        // backoff, or the lease of the server delivering it).
        Migration(
            version: 4, name: "callbacks",
            sqlite: [
                """
                CREATE TABLE callback (
                    id TEXT PRIMARY KEY NOT NULL,
                    kind TEXT NOT NULL,
                    subject_id TEXT NOT NULL,
                    owner TEXT NOT NULL,
                    url TEXT NOT NULL,
                    state TEXT NOT NULL,
                    attempts INTEGER NOT NULL DEFAULT 0,
                    due_at REAL NOT NULL,
                    last_error TEXT,
                    created_at REAL NOT NULL,
                    delivered_at REAL
                )
                """,
                "CREATE UNIQUE INDEX callback_subject ON callback(kind, subject_id)",
                "CREATE INDEX callback_due ON callback(due_at) WHERE state = 'pending'",
            ],
            postgres: [
                """
                CREATE TABLE callback (
                    id text PRIMARY KEY,
                    kind text NOT NULL CHECK (kind IN ('job', 'batch')),
                    subject_id text NOT NULL,
                    owner text NOT NULL,
                    url text NOT NULL,
                    state text NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
                    attempts integer NOT NULL DEFAULT 0,
                    due_at timestamptz NOT NULL,
                    last_error text,
                    created_at timestamptz NOT NULL,
                    delivered_at timestamptz
                )
                """,
                "CREATE UNIQUE INDEX callback_subject ON callback(kind, subject_id)",
                "CREATE INDEX callback_due ON callback(due_at) WHERE state = 'pending'",
            ]),
        // Idempotency-Key on POST /v1/batches: a retried batch upload gives back the first batch.
        Migration(
            version: 5, name: "batch idempotency keys",
            sqlite: [
                "ALTER TABLE batch ADD COLUMN idempotency_key TEXT",
                "CREATE UNIQUE INDEX batch_idempotency ON batch(owner, idempotency_key) WHERE idempotency_key IS NOT NULL"
            ],
            postgres: [
                "ALTER TABLE batch ADD COLUMN idempotency_key text",
                "CREATE UNIQUE INDEX batch_idempotency ON batch(owner, idempotency_key) WHERE idempotency_key IS NOT NULL"
            ]),
    ]

    /// The newest version this build knows.
    public static var latestVersion: Int { migrations.map(\.version).max() ?? 0 }

    /// The steps still to run on a database that has `applied`; throws when the database is
    /// newer than this build.
    public static func pending(applied: Set<Int>) throws -> [Migration] {
        if let newest = applied.max(), newest > latestVersion { throw TooNew(found: newest, known: latestVersion) }
        return migrations.filter { !applied.contains($0.version) }.sorted { $0.version < $1.version }
    }

    public struct TooNew: Error, CustomStringConvertible {
        public let found: Int
        public let known: Int
        public var description: String {
            "the job store's schema is at version \(found), newer than this scanextract knows (\(known)): "
                + "upgrade scanextract"
        }
    }
}
