import Foundation
import Synchronization

/// Announcements of a store's state changes to whoever waits in this process: "a job may be
/// due" (wakes idle worker slots) and "job X finished" (ends a long poll or a synchronous
/// request early). A store posts them: SQLite when this process changes a job, PostgreSQL
/// when a NOTIFY arrives from any node. They are hints: a waiter always reads the store
/// again, and polls as well, so a missed signal costs time, never a job.
public final class JobSignals: Sendable {
    private struct State {
        var workObservers: [UUID: @Sendable () -> Void] = [:]
        var finishWaiters: [String: [UUID: Waiter]] = [:]
    }
    private let state = Mutex(State())

    public init() {}

    /// Calls `observer` whenever a job may have become due; returns a token for `removeObserver`.
    @discardableResult
    public func observeWork(_ observer: @escaping @Sendable () -> Void) -> UUID {
        let token = UUID()
        state.withLock { $0.workObservers[token] = observer }
        return token
    }

    public func removeObserver(_ token: UUID) {
        _ = state.withLock { $0.workObservers.removeValue(forKey: token) }
    }

    /// A job was queued (new, retried or handed back).
    public func postWork() {
        let observers = state.withLock { Array($0.workObservers.values) }
        observers.forEach { $0() }
    }

    /// Job `id` finished (succeeded, failed or canceled).
    public func postFinished(id: String) {
        let waiters = state.withLock { $0.finishWaiters.removeValue(forKey: id).map { Array($0.values) } ?? [] }
        waiters.forEach { $0.fire() }
    }

    /// Interest in job `id` finishing, taken before reading the job so that a finish between
    /// the read and the wait is not missed.
    public struct Interest: Sendable {
        let id: String
        let token: UUID
        fileprivate let waiter: Waiter
    }

    public func interest(inFinishOf id: String) -> Interest {
        let interest = Interest(id: id, token: UUID(), waiter: Waiter())
        state.withLock { $0.finishWaiters[id, default: [:]][interest.token] = interest.waiter }
        return interest
    }

    /// Waits until the job of `interest` finished or `timeout` passed; true when it was
    /// signalled. The interest is used up either way.
    @discardableResult
    public func wait(_ interest: Interest, timeout: Duration) async -> Bool {
        defer { forget(interest) }
        return await interest.waiter.wait(timeout: timeout)
    }

    /// Drops an interest that will not be waited on (any number of times).
    public func forget(_ interest: Interest) {
        state.withLock { s in
            s.finishWaiters[interest.id]?.removeValue(forKey: interest.token)
            if s.finishWaiters[interest.id]?.isEmpty == true { s.finishWaiters.removeValue(forKey: interest.id) }
        }
    }
}

/// One waiter: fired at most once; a wait after the fire returns at once.
final class Waiter: Sendable {
    private struct State {
        var fired = false
        var signalled = false
        var continuation: CheckedContinuation<Void, Never>?
    }
    private let state = Mutex(State())

    /// Ends the wait (now or, when it has not begun, as soon as it does).
    func fire(signalled: Bool = true) {
        let continuation = state.withLock { s -> CheckedContinuation<Void, Never>? in
            guard !s.fired else { return nil }
            s.fired = true
            s.signalled = signalled
            defer { s.continuation = nil }
            return s.continuation
        }
        continuation?.resume()
    }

    func wait(timeout: Duration) async -> Bool {
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let now = self.state.withLock { s -> Bool in
                        if s.fired { return true }
                        s.continuation = continuation
                        return false
                    }
                    if now { continuation.resume() }
                }
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                self.fire(signalled: false)
            }
            await group.next()
            group.cancelAll()
        }
        return state.withLock { $0.signalled }
    }
}
