import Foundation

/// A POST to a client's `callbackUrl` announcing that a job or a batch has ended. The store
/// keeps it (so a restart loses none) and hands it out once its subject has ended; whoever
/// delivers it records the outcome. Delivery is at least once: a server that dies while
/// delivering leaves the callback to be handed out again when its lease runs out.
public struct Callback: Sendable, Hashable {
    public enum Kind: String, Sendable, Codable { case job, batch }
    public enum State: String, Sendable, Codable {
        /// Not delivered yet (its subject may still be running, or a retry is waiting).
        case pending
        case delivered
        /// Every attempt failed, or the target was refused; `lastError` says why.
        case failed
    }

    public var id: String
    public var kind: Kind
    /// The job's or batch's id.
    public var subjectId: String
    public var owner: String
    public var url: String
    public var state: State
    /// Deliveries tried so far.
    public var attempts: Int
    public var lastError: String?
    public var createdAt: Date
    public var deliveredAt: Date?

    public init(id: String = UUID().uuidString.lowercased(), kind: Kind, subjectId: String, owner: String, url: String,
                state: State = .pending, attempts: Int = 0, lastError: String? = nil, createdAt: Date = Date(),
                deliveredAt: Date? = nil) {
        self.id = id
        self.kind = kind
        self.subjectId = subjectId
        self.owner = owner
        self.url = url
        self.state = state
        self.attempts = attempts
        self.lastError = lastError
        self.createdAt = createdAt
        self.deliveredAt = deliveredAt
    }
}

/// How a delivery went, for ``JobStore/recordCallback(id:outcome:now:)``.
public enum CallbackOutcome: Sendable {
    case delivered
    /// Failed; tried again at `at`.
    case retry(error: String, at: Date)
    /// Failed for good.
    case failed(error: String)
}
