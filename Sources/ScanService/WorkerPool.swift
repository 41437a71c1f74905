import Foundation
import Logging
import ScanJobs
import ServiceLifecycle
import Synchronization

/// One `scanextract worker` child process, spoken to over its stdin and stdout.
final class WorkerProcess: @unchecked Sendable {
    let process = Process()
    private let input: FileHandle
    private let reader: FrameReader
    private let readQueue = DispatchQueue(label: "scanextract.worker.read")
    var jobsDone = 0

    init(command: [String], environment: [String: String]?) throws {
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        // Swift's crash reporter is off in workers unless the environment asks for it: it keeps a crashed worker
        // alive while it writes (seconds; under load it was seen to hang), and a worker is replaced anyway.
        var env = environment ?? ProcessInfo.processInfo.environment
        if env["SWIFT_BACKTRACE"] == nil { env["SWIFT_BACKTRACE"] = "enable=no" }
        process.environment = env
        let stdinPipe = Pipe(), stdoutPipe = Pipe()
        process.standardInput = stdinPipe
        process.standardOutput = stdoutPipe
        process.standardError = FileHandle.standardError
        try process.run()
        input = stdinPipe.fileHandleForWriting
        // Once the worker is gone, its reply is in the pipe or never comes; a process it left behind may hold the pipe
        // open, so a read still waiting a second later ends. (Foundation's `Process` says the worker runs as long as
        // such a process lives, so its end is read from /proc.)
        let exit = ChildExit(pid: process.processIdentifier)
        reader = FrameReader(fd: stdoutPipe.fileHandleForReading.fileDescriptor) { exit.ended(over: .seconds(1)) }
        // Keep the read end's FileHandle alive with the reader.
        readEnd = stdoutPipe.fileHandleForReading
    }
    private let readEnd: FileHandle

    var pid: Int32 { process.processIdentifier }

    /// Sends the request line, and `inline` after it (the request's `length` bytes).
    func send(_ request: WorkerRequest, inline: Data = Data()) -> Bool {
        guard var line = try? JSONEncoder().encode(request) else { return false }
        line.append(0x0A)
        line.append(inline)
        return writeAll(input.fileDescriptor, line)
    }

    /// The reply to the request just sent; nil when the worker died or said something we
    /// don't understand (it is then killed).
    func receive() async -> (WorkerReply, Data?)? {
        await withCheckedContinuation { continuation in
            readQueue.async { [reader] in
                guard let line = reader.readLine(),
                      let reply = try? JSONDecoder().decode(WorkerReply.self, from: Data(line)) else {
                    continuation.resume(returning: nil)
                    return
                }
                if reply.ok {
                    guard let length = reply.length, length >= 0, let body = reader.read(count: length) else {
                        continuation.resume(returning: nil)
                        return
                    }
                    continuation.resume(returning: (reply, body))
                } else {
                    continuation.resume(returning: (reply, nil))
                }
            }
        }
    }

    func kill() {
        if process.isRunning { _ = Foundation.kill(process.processIdentifier, SIGKILL) }
    }

    /// Closes its stdin: the worker finishes and exits; killed if it is still there after `grace`.
    func stop(grace: TimeInterval = 5) {
        try? input.close()
        // The reply pipe is closed behind any read still waiting on it (which ends once the worker is gone): nothing
        // else would close it, and a long-running server replaces thousands of workers.
        readQueue.async { [readEnd] in try? readEnd.close() }
        let process = self.process
        DispatchQueue.global().asyncAfter(deadline: .now() + grace) {
            if process.isRunning { _ = Foundation.kill(process.processIdentifier, SIGKILL) }
        }
    }
}

/// Since when a child process has ended (`WorkerLimits.hasEnded`, read without reaping it: Foundation's `Process`
/// does that).
final class ChildExit: Sendable {
    let pid: Int32
    private let seen = Mutex<ContinuousClock.Instant?>(nil)

    init(pid: Int32) { self.pid = pid }

    /// Whether the process ended at least `grace` ago, as far as this has been asked before.
    func ended(over grace: Duration) -> Bool {
        let now = ContinuousClock.now
        if let seen = seen.withLock({ $0 }) { return now - seen >= grace }
        guard WorkerLimits.hasEnded(pid) else { return false }
        seen.withLock { $0 = now }
        return grace <= .zero
    }
}

/// Runs queued jobs in worker processes: one slot per worker, each claiming a job with a
/// lease, renewing the lease while its worker runs, and recording what came of it. A worker
/// that dies, hangs past the job timeout, or answers nonsense is killed and replaced, and the
/// job is retried with backoff until its attempts run out. Runs as a service beside the HTTP
/// server, so SIGTERM drains it: no new claims, running jobs get `shutdownGrace` to finish,
/// then are handed back to the queue.
///
/// Ink requests (``perform(ink:options:)``) are small and answered while the client waits, so
/// they do not go through the store: they wait in memory and a free slot takes them before
/// its next job.
public final class WorkerPool: Service, Sendable {
    public struct Settings: Sendable {
        /// The worker command (the `scanextract` binary and `worker`).
        public var command: [String]
        public var environment: [String: String]?
        public var workers = 2
        public var jobTimeout: TimeInterval = 300
        /// A worker is replaced after this many jobs (memory an engine gathers goes with it).
        public var recycleAfter = 100
        public var lease: TimeInterval = 30
        /// First retry after this many seconds, doubling each attempt.
        public var backoff: TimeInterval = 1
        public var shutdownGrace: TimeInterval = 10
        /// How long a job's outcome is tried again while the job store does not answer (``WorkerPool``'s `persist`).
        public var outcomeRetryLimit: TimeInterval = 300
        public var retention: TimeInterval = 7 * 86400
        /// How often an idle slot looks at the queue when nothing woke it. The store's signals
        /// wake it earlier: jobs queued in this process, or on any node with PostgreSQL.
        public var pollInterval: TimeInterval = 0.5
        /// Seconds an ink request may take (the first one in a worker loads the model).
        public var inkTimeout: TimeInterval = 30
        /// Ink requests waiting for a worker beyond which new ones are refused.
        public var maxWaitingInk = 64
        /// Resident bytes a worker may reach during a job before it is killed and the job
        /// fails with `too-much-memory` (not retried: the same input would do it again). 0: no limit.
        public var memoryLimit = 0

        public init(command: [String]) { self.command = command }
    }

    let store: any JobStore
    let settings: Settings
    let logger: Logger
    let metrics: ServiceMetrics
    private let claimer = "server-" + UUID().uuidString.lowercased()
    private let state = Mutex(State())

    private struct State {
        var draining = false
        var wakers: [UUID: CheckedContinuation<Void, Never>] = [:]
        /// Idle waits that ended before their waker was registered.
        var abandoned: Set<UUID> = []
        var liveWorkers: [Int32] = []
        /// Ink requests waiting for a slot, oldest first.
        var waitingInk: [InkRequest] = []
    }

    /// An ink request and the handler waiting for its answer.
    private struct InkRequest {
        var request: WorkerRequest
        var document: Data
        var continuation: CheckedContinuation<Result<(WorkerReply, Data?), InkFailure>, Never>
    }

    /// Why an ink request got no answer from a worker.
    public enum InkFailure: Error, Sendable {
        /// The server runs no workers (`--workers 0`).
        case noWorkers
        /// Shutting down.
        case draining
        /// Too many ink requests are waiting.
        case busy
        /// The worker took longer than `inkTimeout` (it was replaced).
        case timedOut
        /// The worker died or could not be started (it was replaced).
        case crashed
    }

    public init(store: any JobStore, settings: Settings, logger: Logger, metrics: ServiceMetrics = ServiceMetrics()) {
        self.store = store
        self.settings = settings
        self.logger = logger
        self.metrics = metrics
    }

    /// Ink requests waiting for a worker.
    public var waitingInkCount: Int { state.withLock { $0.waitingInk.count } }

    /// Runs one ink request in a worker and returns its reply (and the result when it
    /// succeeded). `options` is the `InkOptions` as JSON; the pool does not read it.
    public func perform(ink document: Data, options: Data) async -> Result<(WorkerReply, Data?), InkFailure> {
        guard settings.workers > 0 else { return .failure(.noWorkers) }
        let request = WorkerRequest.ink(id: "ink-" + UUID().uuidString.lowercased(),
                                        options: String(decoding: options, as: UTF8.self), length: document.count)
        let outcome = await withCheckedContinuation { continuation in
            let refused = state.withLock { s -> InkFailure? in
                if s.draining { return .draining }
                if s.waitingInk.count >= settings.maxWaitingInk { return .busy }
                s.waitingInk.append(InkRequest(request: request, document: document, continuation: continuation))
                return nil
            }
            if let refused { continuation.resume(returning: .failure(refused)) } else { wake() }
        }
        return outcome
    }

    public var isDraining: Bool { state.withLock { $0.draining } }

    /// Process ids of the workers alive now.
    public var workerPIDs: [Int32] { state.withLock { $0.liveWorkers } }

    /// A job was queued: wake an idle slot now rather than at its next poll.
    public func wake() {
        let wakers = state.withLock { s -> [CheckedContinuation<Void, Never>] in
            defer { s.wakers.removeAll() }
            return Array(s.wakers.values)
        }
        wakers.forEach { $0.resume() }
    }

    public func run() async throws {
        _ = try? await store.purge(finishedBefore: Date().addingTimeInterval(-settings.retention))
        // A job queued anywhere (another process, another node) wakes an idle slot.
        let observer = store.signals.observeWork { [weak self] in self?.wake() }
        defer { store.signals.removeObserver(observer) }
        await withGracefulShutdownHandler {
            await withTaskGroup(of: Void.self) { group in
                for slot in 0..<settings.workers {
                    group.addTask { await self.runSlot(slot) }
                }
                group.addTask { await self.purgeLoop() }
            }
        } onGracefulShutdown: {
            let waiting = self.state.withLock { s -> [InkRequest] in
                s.draining = true
                defer { s.waitingInk.removeAll() }
                return s.waitingInk
            }
            for ink in waiting { ink.continuation.resume(returning: .failure(.draining)) }
            self.wake()
        }
    }

    private func purgeLoop() async {
        while !isDraining {
            await idle(seconds: 3600)
            if isDraining { return }
            do {
                let n = try await store.purge(finishedBefore: Date().addingTimeInterval(-settings.retention))
                if n > 0 { logger.info("removed \(n) job(s) past retention") }
            } catch {
                logger.error("purge failed: \(error)")
            }
        }
    }

    /// Waits until woken, draining, or `seconds` pass.
    private func idle(seconds: TimeInterval) async {
        let id = UUID()
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let resumeNow = self.state.withLock { s -> Bool in
                        if s.draining || s.abandoned.remove(id) != nil { return true }
                        s.wakers[id] = continuation
                        return false
                    }
                    if resumeNow { continuation.resume() }
                }
                return true
            }
            group.addTask { try? await Task.sleep(for: .seconds(seconds)); return false }
            let woken = await group.next() ?? true
            group.cancelAll()
            if woken { return }
            // Ends this wait's own waker (only it: waking the others would make them spin).
            let own = self.state.withLock { s -> CheckedContinuation<Void, Never>? in
                if let c = s.wakers.removeValue(forKey: id) { return c }
                s.abandoned.insert(id)
                return nil
            }
            own?.resume()
        }
    }

    private func runSlot(_ slot: Int) async {
        var worker: WorkerProcess?
        defer { if let worker { retire(worker) } }
        while !isDraining {
            // Ink first: a client is waiting for it, and it is short.
            if let ink = state.withLock({ $0.waitingInk.isEmpty ? nil : $0.waitingInk.removeFirst() }) {
                if worker == nil { worker = try? spawn() }
                guard let current = worker else {
                    logger.error("cannot start a worker for an ink request")
                    ink.continuation.resume(returning: .failure(.crashed))
                    continue
                }
                if !(await run(ink, on: current)) { retire(current); worker = nil }
                continue
            }
            let job: Job?
            do {
                // One lease owner a claim, not a server: a write retried after an outage (`persist`) then never
                // lands on a later attempt at the same job, by this server or another.
                job = try await store.claim(by: claimer + "/" + UUID().uuidString.lowercased(), lease: settings.lease)
            } catch {
                logger.error("cannot claim a job: \(error)")
                job = nil
            }
            guard let job else {
                await idle(seconds: settings.pollInterval)
                continue
            }
            if worker == nil {
                do {
                    worker = try spawn()
                } catch {
                    logger.error("cannot start a worker: \(error)")
                    let backoff = settings.backoff, owner = job.leaseOwner ?? claimer
                    await persist(job, "the failure") {
                        _ = try await store.fail(
                            id: job.id, by: owner, code: "worker-crashed",
                            message: "the worker process could not be started", retry: true, backoff: backoff)
                    }
                    await idle(seconds: settings.backoff)
                    continue
                }
            }
            let keep = await run(job, on: worker!)
            if !keep || worker!.jobsDone >= settings.recycleAfter {
                if keep { metrics.countRestart(reason: "recycled") }
                retire(worker!)
                worker = nil
            }
        }
    }

    private func spawn() throws -> WorkerProcess {
        let worker = try WorkerProcess(command: settings.command, environment: settings.environment)
        state.withLock { $0.liveWorkers.append(worker.pid) }
        logger.debug("worker \(worker.pid) started")
        return worker
    }

    private func retire(_ worker: WorkerProcess) {
        state.withLock { $0.liveWorkers.removeAll { $0 == worker.pid } }
        worker.stop()
    }

    /// Writes a job's outcome (`what`: its result, its failure, its hand-back) to the store. When the store does not
    /// answer (a database restarting or failing over), the write is tried again, every few seconds for up to
    /// `outcomeRetryLimit` (only the shutdown's grace once draining), so that an extraction that finished during a
    /// short outage is not thrown away and run again, or failed for a lease that ran out meanwhile. The write names
    /// this attempt's own lease owner: once the job was claimed again, by any server, it changes nothing. Errors a
    /// retry would meet again, and cancellation, end it at once.
    private func persist(_ job: Job, _ what: String, _ write: @Sendable () async throws -> Void) async {
        let started = ContinuousClock.now
        var wait = 0.5
        while true {
            do {
                try await write()
                if wait > 0.5 { logger.info("job \(job.id): \(what) written once the job store answered again") }
                return
            } catch {
                let limit = isDraining ? settings.shutdownGrace : settings.outcomeRetryLimit
                if Task.isCancelled || error is CancellationError || !store.isUnreachable(error)
                    || ContinuousClock.now - started > .seconds(limit)
                {
                    logger.error("job \(job.id): \(what) could not be written to the job store: \(error); given up")
                    return
                }
                if wait == 0.5 {
                    logger.warning("job \(job.id): \(what) could not be written to the job store (\(error)); trying again")
                }
                try? await Task.sleep(for: .seconds(wait))
                wait = min(wait * 2, 5)
            }
        }
    }

    private enum Interruption { case none, timedOut, canceled, draining, tooMuchMemory(Int) }

    /// Runs one job on `worker`; returns whether the worker may take another.
    private func run(_ job: Job, on worker: WorkerProcess) async -> Bool {
        let claimer = job.leaseOwner ?? self.claimer
        // The input as a local file (a copy fetched from the database, with PostgreSQL).
        let input: JobInput
        do {
            input = try await store.input(of: job)
        } catch {
            logger.error("cannot read the input of job \(job.id): \(error)")
            let backoff = backoff(for: job)
            await persist(job, "the failure") {
                _ = try await store.fail(
                    id: job.id, by: claimer, code: "storage", message: "the job's input could not be read",
                    retry: true, backoff: backoff)
            }
            return true
        }
        defer { input.discard() }
        let interruption = Mutex(Interruption.none)
        func interrupt(_ why: Interruption) {
            let first = interruption.withLock { current -> Bool in
                guard case .none = current else { return false }
                current = why
                return true
            }
            if first { worker.kill() }
        }
        let request = WorkerRequest(job: job.id, input: input.url.path, name: job.inputName,
                                    configuration: String(decoding: job.configuration, as: UTF8.self))
        guard worker.send(request) else {
            await record(job, crash: "the worker process could not be reached", worker: worker)
            return false
        }
        // The timeout and the lease run beside the blocking read; either may kill the worker.
        let watcher = Task {
            let started = ContinuousClock.now
            let drainDeadline = Mutex<ContinuousClock.Instant?>(nil)
            var lastRenewal = started
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(200))
                if Task.isCancelled { return }
                let now = ContinuousClock.now
                if now - started > .seconds(settings.jobTimeout) { interrupt(.timedOut); return }
                if settings.memoryLimit > 0, let resident = WorkerLimits.residentBytes(of: worker.pid),
                   resident > settings.memoryLimit {
                    interrupt(.tooMuchMemory(resident)); return
                }
                if isDraining {
                    let deadline = drainDeadline.withLock { d -> ContinuousClock.Instant in
                        if d == nil { d = now + .seconds(settings.shutdownGrace) }
                        return d!
                    }
                    if now > deadline { interrupt(.draining); return }
                }
                if now - lastRenewal > .seconds(settings.lease / 3) {
                    lastRenewal = now
                    let held = (try? await store.renew(id: job.id, by: claimer, lease: settings.lease)) ?? true
                    if !held { interrupt(.canceled); return }
                }
            }
        }
        let sent = ContinuousClock.now
        let reply = await worker.receive()
        watcher.cancel()
        let why = interruption.withLock { $0 }

        switch (reply, why) {
        case (let (header, body)?, _) where header.job == job.id:
            worker.jobsDone += 1
            let elapsed = (ContinuousClock.now - sent).components
            metrics.observeJobDuration(Double(elapsed.seconds) + Double(elapsed.attoseconds) * 1e-18)
            if header.ok, let body {
                await persist(job, "the result") { _ = try await store.succeed(id: job.id, by: claimer, document: body) }
                return true
            }
            let code = header.code ?? "engine"
            // An engine that failed may be left in a bad state: a new worker, and another try; unless the failure
            // would come back every time (a broken model file).
            let engineFailure = code == "engine" && header.lasting != true
            let backoff = backoff(for: job), message = header.message ?? "the extraction failed"
            await persist(job, "the failure") {
                _ = try await store.fail(
                    id: job.id, by: claimer, code: code, message: message, retry: engineFailure, backoff: backoff)
            }
            if engineFailure { metrics.countRestart(reason: "failed") }
            return !engineFailure
        case (_, .canceled):
            metrics.countRestart(reason: "canceled")
            return false
        case (_, .draining):
            await persist(job, "the hand-back") { try await store.release(id: job.id, by: claimer) }
            logger.info("job \(job.id) handed back to the queue at shutdown")
            return false
        case (_, .tooMuchMemory(let resident)):
            metrics.countRestart(reason: "memory")
            let limit = settings.memoryLimit / (1024 * 1024)
            logger.warning(
                "job \(job.id): worker \(worker.pid) reached \(resident / (1024 * 1024)) MiB, over its \(limit) MiB; killed"
            )
            await persist(job, "the failure") {
                _ = try await store.fail(
                    id: job.id, by: claimer, code: "too-much-memory",
                    message: "the extraction needed more than the \(limit) MiB of memory a worker may use",
                    retry: false, backoff: 0)
            }
            return false
        case (_, .timedOut):
            metrics.countRestart(reason: "timeout")
            logger.warning("job \(job.id) took longer than \(Int(settings.jobTimeout)) s; worker \(worker.pid) killed")
            let backoff = backoff(for: job), seconds = Int(settings.jobTimeout)
            await persist(job, "the failure") {
                _ = try await store.fail(
                    id: job.id, by: claimer, code: "timeout",
                    message: "the extraction took longer than \(seconds) seconds", retry: true, backoff: backoff)
            }
            return false
        default:
            await record(job, crash: "the worker process stopped while running the job", worker: worker)
            return false
        }
    }

    private func record(_ job: Job, crash message: String, worker: WorkerProcess) async {
        let claimer = job.leaseOwner ?? self.claimer
        metrics.countRestart(reason: "crashed")
        logger.warning("worker \(worker.pid) died on job \(job.id) (attempt \(job.attempts) of \(job.maxAttempts))")
        worker.kill()
        let backoff = backoff(for: job)
        await persist(job, "the failure") {
            _ = try await store.fail(
                id: job.id, by: claimer, code: "worker-crashed", message: message, retry: true, backoff: backoff)
        }
        wake()
    }

    /// Runs one ink request on `worker` and hands its reply to the waiting handler; returns
    /// whether the worker may take more. A worker that dies or passes `inkTimeout` is replaced;
    /// the request is not retried (the client is told, and may send it again).
    private func run(_ ink: InkRequest, on worker: WorkerProcess) async -> Bool {
        guard worker.send(ink.request, inline: ink.document) else {
            metrics.countRestart(reason: "crashed")
            worker.kill()
            ink.continuation.resume(returning: .failure(.crashed))
            return false
        }
        let timedOut = Mutex(false)
        let timeout = settings.inkTimeout
        let watcher = Task {
            try? await Task.sleep(for: .seconds(timeout))
            if Task.isCancelled { return }
            timedOut.withLock { $0 = true }
            worker.kill()
        }
        let reply = await worker.receive()
        watcher.cancel()
        if timedOut.withLock({ $0 }) {
            metrics.countRestart(reason: "timeout")
            logger.warning("an ink request took longer than \(Int(timeout)) s; worker \(worker.pid) killed")
            ink.continuation.resume(returning: .failure(.timedOut))
            return false
        }
        guard let reply, reply.0.job == ink.request.job else {
            metrics.countRestart(reason: "crashed")
            logger.warning("worker \(worker.pid) died on an ink request")
            worker.kill()
            ink.continuation.resume(returning: .failure(.crashed))
            return false
        }
        ink.continuation.resume(returning: .success(reply))
        // An engine that failed may be left in a bad state, as with jobs.
        if !reply.0.ok && reply.0.code == "engine" {
            metrics.countRestart(reason: "failed")
            return false
        }
        return true
    }

    private func backoff(for job: Job) -> TimeInterval {
        settings.backoff * pow(2, Double(max(0, job.attempts - 1)))
    }
}
