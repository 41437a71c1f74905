import ArgumentParser
import Dispatch
import Foundation
import ScanInk
import ScanInput
import ScanJobs
import ScanJobsPostgres
import ScanKit
import ScanModel
import ScanRecognition
import ScanService

/// `scanextract serve`: the HTTP service (see `Schemas/openapi.yaml`). Engines run only in
/// `scanextract worker` child processes.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve extractions over HTTP, with a durable job queue and worker processes.",
        discussion: """
            API keys come from SCANEXTRACT_API_KEYS (comma-separated) and --api-keys-file (one a \
            line, or `sha256:HEX`: a key's hash); only their SHA-256 hashes are kept. Without keys, only a loopback address may \
            be bound. SIGTERM stops taking work and hands running jobs back to the queue.

            Without --database, jobs, uploads and results are kept in SQLite in --data-dir, for \
            this machine's servers. With --database postgres://USER[:PASSWORD]@HOST[:PORT]/DB \
            they are kept in PostgreSQL, and every server given the same URL (on any machine) \
            shares one queue: each job runs once, a node that dies has its jobs taken over when \
            their lease expires, and idle nodes are woken by LISTEN/NOTIFY. The schema is created \
            or brought up to date at start. --data-dir then holds scratch files only. \
            ?sslmode=require (or prefer) asks for TLS.
            """)

    @Option(help: "Address to bind.") var host = "127.0.0.1"
    @Option(help: "Port to bind (0: any free port, printed on stderr).") var port = 8080
    @Option(
        name: .customLong("data-dir"),
        help:
            "Where jobs, uploads and results are kept; only scratch files with --database (default: $XDG_DATA_HOME/scanextract or ~/.local/share/scanextract)."
    )
    var dataDir: String?
    @Option(help: ArgumentHelp("Keep the queue in PostgreSQL, shared by every server given the same URL.",
                               valueName: "postgres://user@host:port/db"))
    var database: String?
    @Option(help: "Seconds a claimed job is held without renewal before another server may take it over.")
    var lease: Double = 30
    @Option(
        name: .customLong("poll-interval"),
        help: "Seconds between looks at the queue when no signal came (default: 0.5; 2 with --database).")
    var pollInterval: Double?
    @Option(help: "Worker processes (0: only take jobs, run none).") var workers = 2
    @Option(
        name: .customLong("worker-nice"),
        help:
            "Scheduling priority given up by the workers (0 to 19), so the server stays responsive while they recognize."
    )
    var workerNice: Int32 = 10
    @Option(
        name: .customLong("worker-memory-mb"),
        help:
            "Resident memory a worker may reach in a job before it is killed and the job fails with too-much-memory (0: no limit)."
    )
    var workerMemoryMB = 4096
    @Option(name: .customLong("max-upload-mb"), help: "Largest upload accepted, in MB.") var maxUploadMB = 50
    @Option(
        name: .customLong("max-pages"),
        help: "Most pages a document may have (a job with more fails with too-large, 413).")
    var maxPages = 200
    @Option(
        name: .customLong("max-pixels"),
        help: "Largest page, in pixels, decoded or rendered (a request may lower it, not raise it).")
    var maxPixels = 150_000_000
    @Option(name: .customLong("max-batch-files"), help: "Files one POST /v1/batches may hold.") var maxBatchFiles = 100
    @Option(
        name: .customLong("max-batch-mb"),
        help: "Largest batch upload accepted (all its files), in MB; each file is held to --max-upload-mb.")
    var maxBatchMB = 500
    @Option(name: .customLong("max-sync-mb"), help: "Larger uploads are always answered 202 and run as a job.")
    var maxSyncMB = 5
    @Option(name: .customLong("job-timeout"), help: "Seconds a job may run before its worker is killed.")
    var jobTimeout: Double = 300
    @Option(
        name: .customLong("ink-timeout"),
        help:
            "Seconds an ink request may take (the first in a worker loads the word list) before its worker is replaced."
    )
    var inkTimeout: Double = 30
    @Option(help: "Days a finished job and its result are kept.") var retention: Double = 7
    @Option(name: .customLong("max-attempts"), help: "Times a job is tried when its worker dies or hangs.")
    var maxAttempts = 3
    @Option(name: .customLong("retry-backoff"), help: "Seconds before the first retry (doubling each time).")
    var retryBackoff: Double = 1
    @Option(name: .customLong("recycle-after"), help: "Jobs a worker runs before it is replaced.") var recycleAfter =
        100
    @Option(name: .customLong("max-queued"), help: "Jobs queued or running beyond which uploads get 429.")
    var maxQueued = 1000
    @Option(name: .customLong("idle-timeout"),
            help: "Seconds a connection may send nothing (mid-request or between requests) before it is closed.")
    var idleTimeout: Double = 60
    @Option(
        name: .customLong("shutdown-grace"),
        help: "Seconds running jobs get to finish after SIGTERM before they are handed back.")
    var shutdownGrace: Double = 10
    @Option(
        name: .customLong("api-keys-file"), help: "A file of API keys, one a line; a line 'sha256:HEX' is a key's hash."
    ) var apiKeysFile: String?
    @Option(
        name: .customLong("callback-secret"),
        help: "Signs callbacks (HMAC-SHA256); also SCANEXTRACT_CALLBACK_SECRET. Without one, callbackUrl is refused.")
    var callbackSecret: String?
    @Flag(name: .customLong("allow-private-callbacks"),
          help: "Let callbackUrl name loopback and private addresses (refused by default).")
    var allowPrivateCallbacks = false
    @Option(name: .customLong("callback-attempts"), help: "Deliveries of a callback tried before it fails for good.")
    var callbackAttempts = 8
    @Option(
        name: .customLong("callback-backoff"), help: "Seconds before a callback's first retry (doubling each time).")
    var callbackBackoff: Double = 5

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535") }
        guard workers >= 0 else { throw ValidationError("--workers must be 0 or more") }
        guard (0...19).contains(workerNice) else { throw ValidationError("--worker-nice must be from 0 to 19") }
        guard workerMemoryMB >= 0 else { throw ValidationError("--worker-memory-mb must be 0 or more") }
        guard maxUploadMB > 0, maxSyncMB >= 0 else { throw ValidationError("--max-upload-mb must be positive") }
        guard maxPages > 0, maxPixels > 0 else {
            throw ValidationError("--max-pages and --max-pixels must be positive")
        }
        guard callbackAttempts >= 1, callbackBackoff >= 0 else {
            throw ValidationError("--callback-attempts must be positive and --callback-backoff 0 or more")
        }
        guard maxBatchFiles >= 1, maxBatchMB >= 1 else {
            throw ValidationError("--max-batch-files and --max-batch-mb must be positive")
        }
        if let database { _ = try PostgresURL(database) }
        if let pollInterval, pollInterval <= 0 { throw ValidationError("--poll-interval must be positive") }
        guard lease >= 1 else { throw ValidationError("--lease must be at least 1 second") }
        guard jobTimeout > 0, inkTimeout > 0, retention > 0, maxAttempts >= 1, retryBackoff >= 0, recycleAfter >= 1,
            maxQueued >= 1,
            idleTimeout > 0
        else {
            throw ValidationError(
                "--job-timeout, --ink-timeout, --retention, --max-attempts, --recycle-after, --max-queued and "
                    + "--idle-timeout must be positive")
        }
    }

    static func defaultDataDirectory() -> URL {
        let env = ProcessInfo.processInfo.environment
        if let xdg = env["XDG_DATA_HOME"], !xdg.isEmpty {
            return URL(fileURLWithPath: xdg).appendingPathComponent("scanextract")
        }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share/scanextract")
    }

    func run() throws {
        let keys: APIKeys
        do {
            keys = try APIKeys.load(
                environment: ProcessInfo.processInfo.environment["SCANEXTRACT_API_KEYS"], file: apiKeysFile)
        } catch let error as APIKeys.KeyFileError {
            throw ValidationError("--api-keys-file '\(apiKeysFile ?? "")', \(error)")
        } catch {
            throw ValidationError("--api-keys-file: cannot read '\(apiKeysFile ?? "")'")
        }
        if keys.isEmpty && !ExtractionService.isLoopback(host) {
            throw ValidationError(
                "without API keys (SCANEXTRACT_API_KEYS or --api-keys-file) only a loopback address may be bound, not '\(host)'"
            )
        }
        // A worker that dies while we write to it must not take the server with it.
        signal(SIGPIPE, SIG_IGN)
        let cores = ProcessInfo.processInfo.activeProcessorCount
        var pool = WorkerPool.Settings(command: [Self.executablePath(), "worker", "--nice", String(workerNice)])
        pool.workers = workers
        pool.memoryLimit = workerMemoryMB * 1024 * 1024
        pool.jobTimeout = jobTimeout
        pool.inkTimeout = inkTimeout
        pool.recycleAfter = recycleAfter
        pool.backoff = retryBackoff
        pool.retention = retention * 86400
        pool.shutdownGrace = max(0, shutdownGrace)
        // With PostgreSQL, NOTIFY wakes idle nodes: polling is only the fallback.
        pool.pollInterval = pollInterval ?? (database == nil ? 0.5 : 2)
        pool.lease = lease
        var settings = ExtractionService.Settings(
            dataDirectory: dataDir.map { URL(fileURLWithPath: $0) } ?? Self.defaultDataDirectory(), pool: pool)
        settings.host = host
        settings.port = port
        settings.maxUploadBytes = maxUploadMB * 1024 * 1024
        settings.maxSyncBytes = maxSyncMB * 1024 * 1024
        settings.maxBatchFiles = maxBatchFiles
        settings.maxBatchBytes = maxBatchMB * 1024 * 1024
        settings.maxQueued = maxQueued
        settings.idleTimeout = idleTimeout
        settings.maxAttempts = maxAttempts
        settings.keys = keys
        let secret = callbackSecret ?? ProcessInfo.processInfo.environment["SCANEXTRACT_CALLBACK_SECRET"]
        settings.callbackSecret = secret.flatMap { $0.isEmpty ? nil : $0 }
        settings.allowPrivateCallbacks = allowPrivateCallbacks
        settings.callbackAttempts = callbackAttempts
        settings.callbackBackoff = callbackBackoff
        let rules = CommandLineRules(
            engineThreads: max(1, cores / max(1, workers)), maxPixels: maxPixels, maxPages: maxPages)
        let host = self.host
        let database = self.database
        let failure = ServeOutcome()
        let done = DispatchSemaphore(value: 0)
        let serviceSettings = settings
        Task {
            let settings = serviceSettings
            let store: any JobStore
            do {
                store = try await Self.openStore(database: database, dataDirectory: settings.dataDirectory)
            } catch {
                let place = database.flatMap { try? PostgresURL($0).description } ?? settings.dataDirectory.path
                failure.error = "\(place): cannot open the job store: \(error)"
                failure.status = ExitStatus.cannotWrite
                done.signal()
                return
            }
            let service = ExtractionService(settings: settings, store: store, rules: rules)
            do {
                try await service.run { port in
                    printError("listening on http://\(host.contains(":") ? "[\(host)]" : host):\(port)")
                }
            } catch {
                failure.error = "serve: \(error)"
                failure.status = ExitStatus.allFailed
            }
            await store.close()
            done.signal()
        }
        done.wait()
        if let error = failure.error {
            printError(error)
            throw ExitCode(failure.status)
        }
    }

    /// SQLite in the data folder, or PostgreSQL at `database` (scratch files in the data folder).
    static func openStore(database: String?, dataDirectory: URL) async throws -> any JobStore {
        if let database {
            return try await PostgresJobStore.connect(url: database,
                                                      scratchDirectory: dataDirectory.appendingPathComponent("scratch"))
        }
        return try SQLiteJobStore(directory: dataDirectory)
    }

    /// This binary, for starting workers.
    static func executablePath() -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path
    }
}

private final class ServeOutcome: @unchecked Sendable {
    var error: String?
    var status: Int32 = 0
}

/// The command line's option mapping and content sniffing, lent to the service.
struct CommandLineRules: ExtractionRules {
    let engineThreads: Int
    /// The server's limits: a request may ask for lower ones (`?max-pages=10`), never higher.
    let maxPixels: Int
    let maxPages: Int

    func configuration(options: [(name: String, value: String)]) throws -> Data {
        var scan = try ScanOptions(query: options)
        let given = Set(options.map(\.name))
        for (name, asked, limit) in [("max-pixels", scan.maxPixels, maxPixels), ("max-pages", scan.maxPages, maxPages)]
        where given.contains(name) && asked > limit {
            throw ScanError(.invalidOption, "\(name) may not be raised above the server's limit of \(limit)")
        }
        if !given.contains("max-pixels") { scan.maxPixels = maxPixels }
        if !given.contains("max-pages") { scan.maxPages = maxPages }
        let configuration = try scan.makeConfiguration(engineThreads: engineThreads)
        // A Tesseract language this server lacks is the request's error (400), not a job retried and failed in a
        // worker.
        if configuration.engine == .tesseract {
            let languages = TesseractRecognizer.languageString(configuration.recognition.languages)
            guard TesseractRecognizer.hasData(for: languages) else {
                throw ScanError(
                    .invalidOption, "languages: Tesseract on this server has no trained data for \"\(languages)\"")
            }
        }
        return try JSONEncoder().encode(configuration)
    }

    func kind(of head: [UInt8]) -> String? { InputKind.sniff(head)?.rawValue }

    func describe(_ head: [UInt8]) -> String? { InputKind.describeContent(head) }

    func inkOptions(options: [(name: String, value: String)]) throws -> Data {
        try JSONEncoder().encode(InkOptions(query: options))
    }
}
