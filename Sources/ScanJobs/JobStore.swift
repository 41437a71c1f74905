import Foundation

/// The durable job queue the service and its worker pool run on. Two implementations:
/// ``SQLiteJobStore`` (embedded, one machine) and `PostgresJobStore` (module
/// ScanJobsPostgres: several `serve` processes on several machines share one queue).
///
/// The contract, which `Tests/ScanJobsTests` runs against both:
/// - A claim gives the oldest due job to exactly one claimer, under a lease until
///   `now + lease`. A queued job is due once its backoff is over; a running job whose lease
///   expired (its claimer died) is due again and counts another attempt; one whose last
///   attempt's lease expired ends `failed` with the code `lease-expired`.
/// - `renew`, `succeed`, `fail` and `release` act only for the claimer holding the lease,
///   and say so (false, nil) otherwise: the claimer must then stop working on the job.
/// - A failed attempt with `retry` and attempts left goes back to the queue after `backoff`
///   seconds, keeping its error visible; otherwise the job ends `failed` with it.
/// - An idempotency key an owner already used gives back the earlier job.
/// - Inputs go once a job is finished; finished jobs go, with their results, at `purge`.
/// - Times are the caller's (`now`), so that every store behaves the same under test.
public protocol JobStore: Sendable {
    /// Where state changes are announced: a job may be due, a job finished. In this process
    /// for SQLite; across processes and machines (LISTEN/NOTIFY) for PostgreSQL.
    var signals: JobSignals { get }

    /// A new, unique local file to stream an upload to before it becomes a job's input.
    func temporaryUploadURL() -> URL

    /// Adds a job whose input is the file at `input`, which the store takes over (moves or
    /// copies, then removes). With an idempotency key the owner already used, nothing is
    /// added and the earlier job comes back with `created == false`.
    func enqueue(_ new: NewJob, input: URL, now: Date) async throws -> (job: Job, created: Bool)

    /// The job, if it exists and belongs to `owner` (any owner when nil).
    func job(id: String, owner: String?) async throws -> Job?
    /// The result document of a succeeded job.
    func result(id: String) async throws -> Data?
    /// Jobs waiting or running: what the queue holds.
    func pendingCount() async throws -> Int
    /// How many jobs are in each state (every state present, 0 when none).
    func countsByStatus() async throws -> [JobStatus: Int]

    /// The oldest due job, now held by `claimer` (see the contract above); nil when none is due.
    func claim(by claimer: String, lease: TimeInterval, now: Date) async throws -> Job?
    /// The claimed job's input as a local file for a worker.
    func input(of job: Job) async throws -> JobInput
    /// Extends the lease; false when `claimer` no longer holds the job.
    func renew(id: String, by claimer: String, lease: TimeInterval, now: Date) async throws -> Bool
    /// Stores the result and marks the job succeeded; false (nothing stored) when `claimer`
    /// no longer holds it.
    func succeed(id: String, by claimer: String, document: Data, now: Date) async throws -> Bool
    /// A failed attempt: `.queued` when it will be retried, `.failed` when it ended, nil when
    /// `claimer` no longer holds the job.
    func fail(id: String, by claimer: String, code: String, message: String, retry: Bool, backoff: TimeInterval,
              now: Date) async throws -> JobStatus?
    /// Hands a running job back to the queue without counting the attempt (a graceful shutdown).
    func release(id: String, by claimer: String) async throws
    /// Cancels the job (whatever its state) and deletes its input and result; false when
    /// there is no such job for `owner`.
    func cancel(id: String, owner: String?, now: Date) async throws -> Bool
    /// Records a batch and queues its jobs (each `NewJob` with the batch's id) all at once: no
    /// job of a batch is claimed before the batch is whole, and a failure leaves neither. The
    /// store takes the input files over. The batch's `createdAt` is kept as given. With an
    /// idempotency key the owner already used for a batch, nothing is added (the inputs go)
    /// and the earlier batch comes back with `created == false`.
    func createBatch(_ batch: Batch, jobs: [(new: NewJob, input: URL)], now: Date) async throws
        -> (batch: Batch, created: Bool)
    /// The batch, if it exists and belongs to `owner` (any owner when nil).
    func batch(id: String, owner: String?) async throws -> Batch?
    /// The batch's jobs in upload order.
    func jobs(inBatch id: String) async throws -> [Job]
    /// Records a callback to deliver once its job or batch has ended (an ended one is due at once).
    func addCallback(_ callback: Callback) async throws
    /// The callback of a job or batch, if it has one.
    func callback(kind: Callback.Kind, subjectId: String) async throws -> Callback?
    /// Up to `limit` callbacks due now (pending, subject ended, retry time come), now held by the
    /// caller for `lease` seconds: another caller gets them only once the lease has run out.
    func claimCallbacks(limit: Int, lease: TimeInterval, now: Date) async throws -> [Callback]
    /// Records how a delivery went; `attempts` counts it.
    func recordCallback(id: String, outcome: CallbackOutcome, now: Date) async throws
    /// Deletes jobs finished before `cutoff`, with their results and inputs, batches made before
    /// `cutoff` that have no job left, and the callbacks of what was deleted. Returns how many jobs.
    func purge(finishedBefore cutoff: Date) async throws -> Int
    /// Lets go of connections and background tasks.
    func close() async
    /// Whether `error` says the store could not be reached (a database restarting or failing over), so that the same
    /// write may succeed later; false for what a retry would meet again (a bad value, a full disk).
    func isUnreachable(_ error: any Error) -> Bool
}

extension JobStore {
    /// A store in a local file is reached or not at all: no error of its passes with time.
    public func isUnreachable(_ error: any Error) -> Bool { false }
}

/// The usual arguments: now, any owner.
extension JobStore {
    public func enqueue(_ new: NewJob, input: URL) async throws -> (job: Job, created: Bool) {
        try await enqueue(new, input: input, now: Date())
    }
    public func job(id: String) async throws -> Job? { try await job(id: id, owner: nil) }
    public func createBatch(_ batch: Batch, jobs: [(new: NewJob, input: URL)]) async throws -> (
        batch: Batch, created: Bool
    ) {
        try await createBatch(batch, jobs: jobs, now: Date())
    }
    public func claim(by claimer: String, lease: TimeInterval) async throws -> Job? {
        try await claim(by: claimer, lease: lease, now: Date())
    }
    public func renew(id: String, by claimer: String, lease: TimeInterval) async throws -> Bool {
        try await renew(id: id, by: claimer, lease: lease, now: Date())
    }
    @discardableResult
    public func succeed(id: String, by claimer: String, document: Data) async throws -> Bool {
        try await succeed(id: id, by: claimer, document: document, now: Date())
    }
    @discardableResult
    public func fail(id: String, by claimer: String, code: String, message: String, retry: Bool,
                     backoff: TimeInterval) async throws -> JobStatus? {
        try await fail(id: id, by: claimer, code: code, message: message, retry: retry, backoff: backoff, now: Date())
    }
    public func cancel(id: String, owner: String? = nil) async throws -> Bool {
        try await cancel(id: id, owner: owner, now: Date())
    }
}
