import Foundation
import ScanModel

/// A process-wide budget that workers draw on before a step whose memory grows with its
/// input, so that two large steps never hold their memory at the same moment while small
/// ones still run side by side: a counting semaphore whose requests have weights.
///
/// PP-OCR's text detection is such a step: its activations grow with the detector's input
/// pixels (hundreds of MB at a 2000 px long side), and the peak of a folder run with two
/// workers was whichever two large pages they happened to detect at once.
///
/// - Requests are served in the order they came: a large request waiting for room is not
///   overtaken by later small ones, so it cannot starve.
/// - A request larger than the whole budget is charged the whole budget: it waits until
///   nothing else holds any, then runs alone. Nothing deadlocks while every holder releases.
/// - A waiting request gives up with `ScanError.cancelled` when its cancellation token is
///   cancelled.
///
/// Pure logic (no engine): the unit is whatever the caller weighs with (pixels here).
public final class MemoryBudget: @unchecked Sendable {
    /// What may be held at once, in the caller's unit.
    public let capacity: Int
    private let condition = NSCondition()
    private var held = 0
    /// Tickets of the requests waiting, first come first.
    private var queue: [UInt64] = []
    private var nextTicket: UInt64 = 0
    /// How often a waiter with a cancellation token looks at it.
    private let cancellationPoll: TimeInterval

    public init(capacity: Int, cancellationPoll: TimeInterval = 0.05) {
        precondition(capacity > 0, "a memory budget needs a positive capacity")
        self.capacity = capacity
        self.cancellationPoll = cancellationPoll
    }

    /// What a request of `amount` is charged: the amount, at most the whole budget.
    public func charge(for amount: Int) -> Int { min(max(amount, 0), capacity) }

    /// What is held now.
    public var inUse: Int {
        condition.lock()
        defer { condition.unlock() }
        return held
    }

    /// How many requests are waiting now.
    public var waiting: Int {
        condition.lock()
        defer { condition.unlock() }
        return queue.count
    }

    /// Waits until the request is first in line and its charge fits, takes it, and returns
    /// the charge (to give back with `release`). Throws `ScanError.cancelled`, taking
    /// nothing, when `cancellation` is cancelled before that.
    public func acquire(_ amount: Int, cancellation: CancellationToken? = nil) throws -> Int {
        let charge = charge(for: amount)
        condition.lock()
        defer { condition.unlock() }
        let ticket = nextTicket
        nextTicket += 1
        queue.append(ticket)
        while queue.first != ticket || held + charge > capacity {
            if let cancellation, cancellation.isCancelled {
                queue.removeAll { $0 == ticket }
                // The one behind may now be first in line.
                condition.broadcast()
                throw ScanError(.cancelled, "cancelled while waiting for memory")
            }
            if cancellation != nil {
                _ = condition.wait(until: Date(timeIntervalSinceNow: cancellationPoll))
            } else {
                condition.wait()
            }
        }
        queue.removeFirst()
        held += charge
        // The next in line may fit beside this one.
        condition.broadcast()
        return charge
    }

    /// Gives back a charge that `acquire` returned.
    public func release(_ charge: Int) {
        condition.lock()
        held -= charge
        precondition(held >= 0, "released more than was acquired from a memory budget")
        condition.broadcast()
        condition.unlock()
    }

    /// Runs `body` holding `amount` of the budget, and gives it back however `body` ends.
    public func withReservation<R>(_ amount: Int, cancellation: CancellationToken? = nil,
                                   _ body: () throws -> R) throws -> R {
        let charge = try acquire(amount, cancellation: cancellation)
        defer { release(charge) }
        return try body()
    }

    nonisolated(unsafe) private static var budgets: [String: MemoryBudget] = [:]
    private static let budgetsLock = NSLock()

    /// The process's budget called `name` with `capacity`, made on first use: every engine
    /// instance (one per worker) that asks with the same name and capacity shares it.
    public static func shared(_ name: String, capacity: Int) -> MemoryBudget {
        budgetsLock.lock()
        defer { budgetsLock.unlock() }
        let key = "\(name)/\(capacity)"
        if let budget = budgets[key] { return budget }
        let budget = MemoryBudget(capacity: capacity)
        budgets[key] = budget
        return budget
    }
}
