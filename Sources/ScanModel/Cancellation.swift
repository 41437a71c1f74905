import Foundation

/// A flag that asks running work to stop at its next check. Shared across threads.
public final class CancellationToken: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelled = false

    public init() {}

    public var isCancelled: Bool {
        lock.lock()
        defer { lock.unlock() }
        return cancelled
    }

    public func cancel() {
        lock.lock()
        cancelled = true
        lock.unlock()
    }

    /// Throws `ScanError.cancelled` when cancelled, or when the Swift task running this code was (`task.cancel()`):
    /// a library user's task stops the document it is processing without cancelling the token, which the processor
    /// keeps for its next documents.
    public func check(file: String? = nil) throws {
        if isCancelled || Task.isCancelled { throw ScanError(.cancelled, file: file, "cancelled") }
    }
}
