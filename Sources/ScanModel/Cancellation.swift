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

    /// Throws `ScanError.cancelled` when cancelled.
    public func check(file: String? = nil) throws {
        if isCancelled { throw ScanError(.cancelled, file: file, "cancelled") }
    }
}
