import Foundation

/// Where a job is in its life.
public enum JobStatus: String, Sendable, Codable, CaseIterable {
    case queued, running, succeeded, failed, canceled

    public var isFinished: Bool { self == .succeeded || self == .failed || self == .canceled }
}

/// One extraction to run: its input (kept by the store), the configuration to run it with
/// (JSON, opaque here), and where it stands.
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
    /// The batch the job belongs to, and its file's place in the batch's upload (from 0).
    public var batchId: String?
    public var batchIndex: Int?

    public init(id: String, owner: String, status: JobStatus, createdAt: Date, startedAt: Date?, finishedAt: Date?,
                attempts: Int, maxAttempts: Int, errorCode: String?, errorMessage: String?, configuration: Data,
                inputName: String, inputSize: Int, idempotencyKey: String?, availableAt: Date, leaseOwner: String?,
                leasedUntil: Date?, batchId: String? = nil, batchIndex: Int? = nil) {
        self.id = id
        self.owner = owner
        self.status = status
        self.createdAt = createdAt
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.attempts = attempts
        self.maxAttempts = maxAttempts
        self.errorCode = errorCode
        self.errorMessage = errorMessage
        self.configuration = configuration
        self.inputName = inputName
        self.inputSize = inputSize
        self.idempotencyKey = idempotencyKey
        self.availableAt = availableAt
        self.leaseOwner = leaseOwner
        self.leasedUntil = leasedUntil
        self.batchId = batchId
        self.batchIndex = batchIndex
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
    /// Set for a file of a batch (the batch must exist): the batch and the file's place in it.
    public var batchId: String?
    public var batchIndex: Int?
    /// When set, the store refuses the job (``QueueFull``) if this many jobs are queued or running already. The count
    /// and the insert are one step for every server on the store, so the limit holds however many uploads race.
    public var queueLimit: Int?

    public init(id: String = UUID().uuidString.lowercased(), owner: String, configuration: Data, inputName: String,
                inputSize: Int, idempotencyKey: String? = nil, maxAttempts: Int = 3, batchId: String? = nil,
                batchIndex: Int? = nil, queueLimit: Int? = nil) {
        self.id = id
        self.owner = owner
        self.configuration = configuration
        self.inputName = inputName
        self.inputSize = inputSize
        self.idempotencyKey = idempotencyKey
        self.maxAttempts = maxAttempts
        self.batchId = batchId
        self.batchIndex = batchIndex
        self.queueLimit = queueLimit
    }
}

/// A job (or a batch's jobs) refused because the queue already holds its limit (`NewJob.queueLimit`).
public struct QueueFull: Error, CustomStringConvertible, Sendable {
    public var pending: Int
    public var limit: Int
    public init(pending: Int, limit: Int) { self.pending = pending; self.limit = limit }
    public var description: String { "the queue holds \(pending) jobs, its limit is \(limit)" }
}

/// Many files sent at once (`POST /v1/batches`): one job a file, each with the batch's id.
/// The batch itself holds who owns it and the files refused at upload (never queued).
public struct Batch: Sendable, Hashable, Codable {
    public var id: String
    public var owner: String
    public var createdAt: Date
    /// Files of the upload that did not become jobs (not an image or PDF, empty...), in upload order.
    public var rejected: [Rejection]
    /// The client's `Idempotency-Key`: a retried upload with it gives back this batch.
    public var idempotencyKey: String?

    /// A file refused at upload: its place in the upload, its name, and why (a stable code and a message).
    public struct Rejection: Sendable, Hashable, Codable {
        public var index: Int
        public var name: String
        public var code: String
        public var message: String

        public init(index: Int, name: String, code: String, message: String) {
            self.index = index
            self.name = name
            self.code = code
            self.message = message
        }
    }

    public init(id: String = UUID().uuidString.lowercased(), owner: String, createdAt: Date = Date(),
                rejected: [Rejection] = [], idempotencyKey: String? = nil) {
        self.id = id
        self.owner = owner
        self.createdAt = createdAt
        self.rejected = rejected
        self.idempotencyKey = idempotencyKey
    }
}

/// A job's input as a file on this machine, for a worker to read. A temporary copy (a
/// store that keeps inputs elsewhere, such as PostgreSQL) is the caller's to remove.
public struct JobInput: Sendable {
    public var url: URL
    public var isTemporary: Bool

    public init(url: URL, isTemporary: Bool) {
        self.url = url
        self.isTemporary = isTemporary
    }

    /// Removes the file if it is a temporary copy.
    public func discard() {
        if isTemporary { try? FileManager.default.removeItem(at: url) }
    }
}
