import Foundation
import ScanModel
import XCTest
@testable import ScanRecognition

/// The weighted semaphore that keeps two large detections from running at once: pure logic,
/// tested with threads and no engine.
final class MemoryBudgetTests: XCTestCase {
    /// Waits up to two seconds for `condition`, so that a test fails instead of hanging.
    private func eventually(_ condition: () -> Bool, file: StaticString = #filePath, line: UInt = #line) {
        let deadline = Date(timeIntervalSinceNow: 2)
        while !condition() {
            if Date() > deadline { XCTFail("timed out", file: file, line: line); return }
            usleep(1_000)
        }
    }

    /// A thread that takes `amount`, records when it got it, and holds it until `hold` is signalled.
    private final class Holder: @unchecked Sendable {
        let acquired = DispatchSemaphore(value: 0)
        let hold = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        private let lock = NSLock()
        private var _error: Error?
        var error: Error? { lock.lock(); defer { lock.unlock() }; return _error }

        init(_ budget: MemoryBudget, _ amount: Int, cancellation: CancellationToken? = nil) {
            Thread { [self] in
                do {
                    try budget.withReservation(amount, cancellation: cancellation) {
                        acquired.signal()
                        hold.wait()
                    }
                } catch {
                    lock.lock(); _error = error; lock.unlock()
                }
                done.signal()
            }.start()
        }
    }

    func testSmallRequestsShareTheBudget() throws {
        let budget = MemoryBudget(capacity: 100)
        let a = Holder(budget, 40), b = Holder(budget, 50)
        XCTAssertEqual(a.acquired.wait(timeout: .now() + 2), .success)
        XCTAssertEqual(b.acquired.wait(timeout: .now() + 2), .success)
        XCTAssertEqual(budget.inUse, 90)
        a.hold.signal(); b.hold.signal()
        _ = a.done.wait(timeout: .now() + 2); _ = b.done.wait(timeout: .now() + 2)
        XCTAssertEqual(budget.inUse, 0)
    }

    func testLargeRequestWaitsUntilThereIsRoom() {
        let budget = MemoryBudget(capacity: 100)
        let a = Holder(budget, 60)
        XCTAssertEqual(a.acquired.wait(timeout: .now() + 2), .success)
        let b = Holder(budget, 60)
        eventually { budget.waiting == 1 }
        // A waiter is counted only once it has looked and found no room (under the lock), so
        // from here on it is blocked: the state is exact, no timing involved.
        XCTAssertEqual(budget.inUse, 60, "two large requests must not run at once")
        a.hold.signal()
        XCTAssertEqual(b.acquired.wait(timeout: .now() + 2), .success)
        XCTAssertEqual(budget.inUse, 60)
        b.hold.signal()
        _ = b.done.wait(timeout: .now() + 2)
        XCTAssertEqual(budget.inUse, 0)
    }

    func testRequestsAreServedInOrderSoALargeOneIsNotOvertaken() {
        let budget = MemoryBudget(capacity: 100)
        let first = Holder(budget, 50)
        XCTAssertEqual(first.acquired.wait(timeout: .now() + 2), .success)
        let large = Holder(budget, 80)
        eventually { budget.waiting == 1 }
        // Would fit beside `first`, but came after the large request.
        let small = Holder(budget, 30)
        eventually { budget.waiting == 2 }
        XCTAssertEqual(budget.inUse, 50, "the small one must not overtake the large one")
        first.hold.signal()
        XCTAssertEqual(large.acquired.wait(timeout: .now() + 2), .success)
        // 80 + 30 do not fit: the small one is still waiting, and only it.
        XCTAssertEqual(budget.inUse, 80)
        XCTAssertEqual(budget.waiting, 1)
        large.hold.signal()
        XCTAssertEqual(small.acquired.wait(timeout: .now() + 2), .success)
        XCTAssertEqual(budget.inUse, 30)
        small.hold.signal()
        _ = first.done.wait(timeout: .now() + 2); _ = large.done.wait(timeout: .now() + 2)
        _ = small.done.wait(timeout: .now() + 2)
        XCTAssertEqual(budget.inUse, 0)
    }

    func testRequestLargerThanTheBudgetRunsAlone() {
        let budget = MemoryBudget(capacity: 100)
        XCTAssertEqual(budget.charge(for: 250), 100)
        XCTAssertEqual(budget.charge(for: -3), 0)
        let small = Holder(budget, 10)
        XCTAssertEqual(small.acquired.wait(timeout: .now() + 2), .success)
        let huge = Holder(budget, 250)
        eventually { budget.waiting == 1 }
        XCTAssertEqual(budget.inUse, 10)
        small.hold.signal()
        XCTAssertEqual(huge.acquired.wait(timeout: .now() + 2), .success, "an oversize request must not wait forever")
        XCTAssertEqual(budget.inUse, 100)
        let after = Holder(budget, 1)
        eventually { budget.waiting == 1 }
        XCTAssertEqual(budget.inUse, 100, "nothing runs beside an oversize request")
        huge.hold.signal()
        XCTAssertEqual(after.acquired.wait(timeout: .now() + 2), .success)
        after.hold.signal()
        _ = after.done.wait(timeout: .now() + 2)
        XCTAssertEqual(budget.inUse, 0)
    }

    func testReleasedWhenTheBodyThrows() {
        struct Failure: Error {}
        let budget = MemoryBudget(capacity: 100)
        XCTAssertThrowsError(try budget.withReservation(70) { () throws -> Int in
            XCTAssertEqual(budget.inUse, 70)
            throw Failure()
        }) { XCTAssertTrue($0 is Failure) }
        XCTAssertEqual(budget.inUse, 0)
        XCTAssertEqual(try budget.withReservation(100) { budget.inUse }, 100)
    }

    func testCancelledWaiterGivesUpAndLetsTheNextOneIn() {
        let budget = MemoryBudget(capacity: 100, cancellationPoll: 0.01)
        let holder = Holder(budget, 90)
        XCTAssertEqual(holder.acquired.wait(timeout: .now() + 2), .success)
        let token = CancellationToken()
        let cancelled = Holder(budget, 50, cancellation: token)
        eventually { budget.waiting == 1 }
        // Behind the cancelled one in line, and fits beside the holder.
        let next = Holder(budget, 10)
        eventually { budget.waiting == 2 }
        token.cancel()
        XCTAssertEqual(cancelled.done.wait(timeout: .now() + 2), .success)
        XCTAssertEqual((cancelled.error as? ScanError)?.code, .cancelled)
        XCTAssertEqual(next.acquired.wait(timeout: .now() + 2), .success)
        XCTAssertEqual(budget.inUse, 100)
        holder.hold.signal(); next.hold.signal()
        _ = holder.done.wait(timeout: .now() + 2); _ = next.done.wait(timeout: .now() + 2)
        XCTAssertEqual(budget.inUse, 0)
    }

    func testSharedBudgetIsOnePerNameAndCapacity() {
        let a = MemoryBudget.shared("test-budget", capacity: 7)
        XCTAssertTrue(a === MemoryBudget.shared("test-budget", capacity: 7))
        XCTAssertFalse(a === MemoryBudget.shared("test-budget", capacity: 8))
        XCTAssertFalse(a === MemoryBudget.shared("other-budget", capacity: 7))
    }

    /// Many threads taking random amounts: never more than the capacity held (an oversize
    /// request counting as the whole), and everything given back.
    func testNeverOverCommittedUnderContention() {
        let budget = MemoryBudget(capacity: 1_000)
        final class Tally: @unchecked Sendable {
            let lock = NSLock()
            var current = 0, worst = 0
            func add(_ n: Int) { lock.lock(); current += n; worst = max(worst, current); lock.unlock() }
        }
        let tally = Tally()
        // Eight threads (more than this machine's cores), 25 requests each.
        let group = DispatchGroup()
        for t in 0..<8 {
            group.enter()
            Thread {
                for k in 0..<25 {
                    let amount = ((t * 25 + k) * 7919) % 1_300
                    try? budget.withReservation(amount) {
                        let charge = budget.charge(for: amount)
                        tally.add(charge)
                        usleep(100)
                        tally.add(-charge)
                    }
                }
                group.leave()
            }.start()
        }
        XCTAssertEqual(group.wait(timeout: .now() + 10), .success, "deadlocked")
        XCTAssertLessThanOrEqual(tally.worst, 1_000)
        XCTAssertGreaterThan(tally.worst, 0)
        XCTAssertEqual(budget.inUse, 0)
        XCTAssertEqual(budget.waiting, 0)
    }
}
