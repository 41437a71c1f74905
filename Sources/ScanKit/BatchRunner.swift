import Foundation
import ScanModel

/// Runs documents through the pipeline on several workers, each with its own
/// engine, and hands results back in input order on the calling thread.
public final class BatchRunner: @unchecked Sendable {
    public let configuration: ScanConfiguration
    public let jobs: Int
    public let cancellation: CancellationToken
    private let locator: EntityLocator?

    /// Throws `invalidOption` when the configuration can't be used.
    public init(configuration: ScanConfiguration, jobs: Int, cancellation: CancellationToken = CancellationToken())
        throws
    {
        self.configuration = configuration
        self.jobs = max(1, jobs)
        self.cancellation = cancellation
        self.locator = try DocumentProcessor.makeLocator(configuration)
    }

    /// Processes `files`; `deliver` is called once per file, in order, on the calling thread,
    /// as soon as that file and all before it are done. Files not started when the run is
    /// cancelled are delivered as `cancelled` failures.
    public func run(_ files: [String], deliver: (Int, String, Result<Document, ScanError>) -> Void) {
        run(files, finish: { _, document in document }, deliver: deliver)
    }

    /// Processes `files` as above, and runs `finish` on the worker that made each document (in
    /// parallel, out of order), so that work such as encoding and writing the output is not
    /// queued on the delivering thread. A `ScanError` thrown by `finish` is that file's failure.
    /// `waiting` is called on the delivering thread whenever the next result is not ready yet
    /// (and once at the end): the moment to flush what was delivered so far.
    ///
    /// Workers stay at most a few files ahead of delivery, so a slow consumer does not make
    /// finished results pile up in memory.
    public func run<Output: Sendable>(_ files: [String],
                                      finish: @escaping @Sendable (String, Document) throws -> Output,
                                      deliver: (Int, String, Result<Output, ScanError>) -> Void,
                                      waiting: () -> Void = {}) {
        guard !files.isEmpty else { return }
        let state = State<Output>()
        let cond = state.cond
        let workers = min(jobs, files.count)
        let window = workers * 4
        var threads: [Thread] = []
        for _ in 0..<workers {
            let t = Thread { [configuration, cancellation, locator] in
                let processor = DocumentProcessor(
                    configuration: configuration, locator: locator, cancellation: cancellation)
                while true {
                    cond.lock()
                    while state.next >= state.delivered + window { cond.wait() }
                    let i = state.next
                    state.next += 1
                    cond.unlock()
                    guard i < files.count else { return }
                    let r: Result<Output, ScanError>
                    if cancellation.isCancelled {
                        r = .failure(ScanError(.cancelled, file: files[i], "cancelled before it started"))
                    } else {
                        do {
                            r = .success(try finish(files[i], try processor.process(path: files[i])))
                        } catch let e as ScanError {
                            r = .failure(e.attributed(to: files[i]))
                        } catch {
                            r = .failure(ScanError(.engine, file: files[i], "\(error)"))
                        }
                    }
                    cond.lock()
                    state.results[i] = r
                    cond.broadcast()
                    cond.unlock()
                }
            }
            t.stackSize = 8 << 20
            threads.append(t)
            t.start()
        }
        for i in 0..<files.count {
            cond.lock()
            if state.results[i] == nil {
                cond.unlock()
                waiting()
                cond.lock()
                while state.results[i] == nil { cond.wait() }
            }
            let r = state.results.removeValue(forKey: i)!
            state.delivered = i + 1
            cond.broadcast()
            cond.unlock()
            deliver(i, files[i], r)
        }
        waiting()
    }
}

/// The queue position, how far delivery got, and finished results, guarded by `cond`.
private final class State<Output>: @unchecked Sendable {
    let cond = NSCondition()
    var next = 0
    var delivered = 0
    var results: [Int: Result<Output, ScanError>] = [:]
}
