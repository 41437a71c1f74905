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
    public init(configuration: ScanConfiguration, jobs: Int, cancellation: CancellationToken = CancellationToken()) throws {
        self.configuration = configuration
        self.jobs = max(1, jobs)
        self.cancellation = cancellation
        self.locator = try DocumentProcessor.makeLocator(configuration)
    }

    /// Processes `files`; `deliver` is called once per file, in order, on the calling thread,
    /// as soon as that file and all before it are done. Files not started when the run is
    /// cancelled are delivered as `cancelled` failures.
    public func run(_ files: [String], deliver: (Int, String, Result<Document, ScanError>) -> Void) {
        guard !files.isEmpty else { return }
        let state = State()
        let cond = state.cond
        let workers = min(jobs, files.count)
        var threads: [Thread] = []
        for _ in 0..<workers {
            let t = Thread { [configuration, cancellation, locator] in
                let processor = DocumentProcessor(configuration: configuration, locator: locator, cancellation: cancellation)
                while true {
                    cond.lock()
                    let i = state.next
                    state.next += 1
                    cond.unlock()
                    guard i < files.count else { return }
                    let r: Result<Document, ScanError>
                    if cancellation.isCancelled {
                        r = .failure(ScanError(.cancelled, file: files[i], "cancelled before it started"))
                    } else {
                        do {
                            r = .success(try processor.process(path: files[i]))
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
            while state.results[i] == nil { cond.wait() }
            let r = state.results.removeValue(forKey: i)!
            cond.unlock()
            deliver(i, files[i], r)
        }
    }
}

/// The queue position and finished results, guarded by `cond`.
private final class State: @unchecked Sendable {
    let cond = NSCondition()
    var next = 0
    var results: [Int: Result<Document, ScanError>] = [:]
}
