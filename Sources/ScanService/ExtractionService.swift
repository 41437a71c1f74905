import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import ScanExport
import ScanJobs
import ScanModel

/// What the service needs from the pipeline without running it: the command line's mapping
/// of options to a configuration, and the check of what an upload holds. `scanextract serve`
/// provides both from ScanKit and ScanInput, so this target never links an engine's code path.
public protocol ExtractionRules: Sendable {
    /// The configuration (JSON) for query options named as on the command line; throws
    /// `ScanError(.invalidOption)` for an unknown name or a bad value.
    func configuration(options: [(name: String, value: String)]) throws -> Data
    /// The input's kind ("png", "pdf", "json"...) from its first bytes; nil when unsupported.
    func kind(of head: [UInt8]) -> String?
    /// What unsupported content seems to be ("text", "a ZIP archive"), for the 415's detail.
    func describe(_ head: [UInt8]) -> String?
    /// The ink options (JSON, handed to the worker as they are) for query options named as
    /// `scanextract ink` names them; throws `ScanError(.invalidOption)` as `configuration` does.
    func inkOptions(options: [(name: String, value: String)]) throws -> Data
}

/// `scanextract serve`: the HTTP API over the job store and the worker pool.
public struct ExtractionService: Sendable {
    public struct Settings: Sendable {
        public var host = "127.0.0.1"
        public var port = 8080
        public var dataDirectory: URL
        public var maxUploadBytes = 50 * 1024 * 1024
        /// Larger uploads are always answered 202 (the client polls the job).
        public var maxSyncBytes = 5 * 1024 * 1024
        /// How long a synchronous request waits for its job before answering 202.
        public var syncWait: TimeInterval = 60
        /// Jobs queued or running beyond which uploads get 429.
        public var maxQueued = 1000
        /// Largest Ink document `POST /v1/ink` takes.
        public var maxInkBytes = 1024 * 1024
        public var maxAttempts = 3
        /// Files one batch upload may hold, and its bytes in all (each file: `maxUploadBytes`).
        public var maxBatchFiles = 100
        public var maxBatchBytes = 500 * 1024 * 1024
        public var keys = APIKeys(keys: [])
        /// Signs callbacks; without one, `callbackUrl` is refused.
        public var callbackSecret: String?
        /// Lets callbacks go to loopback and private addresses (a receiver on this machine or network).
        public var allowPrivateCallbacks = false
        /// Deliveries tried before a callback fails for good, and the first retry's delay (doubling).
        public var callbackAttempts = 8
        public var callbackBackoff: TimeInterval = 5
        /// A connection that sends nothing for this long while a request is being read (half its headers, a stalled
        /// upload) or between requests is closed; a request the server is still answering is not affected.
        public var idleTimeout: TimeInterval = 60
        public var pool: WorkerPool.Settings

        public init(dataDirectory: URL, pool: WorkerPool.Settings) {
            self.dataDirectory = dataDirectory
            self.pool = pool
        }
    }

    public let settings: Settings
    let rules: any ExtractionRules
    let store: any JobStore
    let pool: WorkerPool
    let metrics = ServiceMetrics()
    /// Finished batches' CSV tables, so that polling a finished batch does not decode every result again.
    let csvTables = CSVTableCache()
    let logger: Logger

    /// Serves `store`: the embedded ``SQLiteJobStore`` or a shared one (PostgreSQL).
    public init(
        settings: Settings, store: any JobStore, rules: any ExtractionRules,
        logger: Logger = Logger(label: "scanextract.serve")
    ) {
        self.settings = settings
        self.rules = rules
        self.logger = logger
        self.store = store
        pool = WorkerPool(store: store, settings: settings.pool, logger: logger, metrics: metrics)
    }

    /// Whether `host` reaches this machine only; without API keys nothing else may be bound.
    public static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host == "[::1]" || host.hasPrefix("127.")
    }

    /// Serves until SIGTERM or SIGINT, then drains. `onListening` gets the bound port
    /// (useful with port 0).
    public func run(onListening: @escaping @Sendable (Int) -> Void = { _ in }) async throws {
        let app = Application(
            router: makeRouter(),
            server: .http1(
                configuration: .init(
                    additionalChannelHandlers: [ParserErrorResponder()],
                    idleTimeout: .milliseconds(Int64(settings.idleTimeout * 1000)))),
            configuration: .init(address: .hostname(settings.host, port: settings.port), serverName: "scanextract"),
            services: [pool] + callbackServices(),
            onServerRunning: { channel in onListening(channel.localAddress?.port ?? 0) },
            logger: logger)
        try await app.runService()
    }

    // MARK: Routes

    func makeRouter() -> Router<BasicRequestContext> {
        // HEAD answers as GET does, without the body (RFC 9110 9.3.2): uptime monitors use it.
        let router = Router(context: BasicRequestContext.self, options: .autoGenerateHeadEndpoints)
        // Before the routes: a router's middleware wraps only the routes added after it.
        router.add(middleware: RequestCounter(metrics: metrics))
        router.add(middleware: UnexpectedErrors(storeAnswers: { await storeAnswers(within: 2) }, logger: logger))
        router.add(
            middleware: UnmatchedRoutes(
                paths: APIPaths(openAPI: String(decoding: PackageResources.openapi_yaml, as: UTF8.self))))
        router.get("/healthz") { _, _ in try Self.json(["status": "ok"]) }
        router.get("/readyz") { _, _ -> Response in
            if pool.isDraining { throw Problem.draining(retryAfter: 5) }
            guard await storeAnswers(within: 2) else {
                throw Problem.notReady("the job store cannot be read")
            }
            return try Self.json(["status": "ready"])
        }
        router.get("/openapi.yaml") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/yaml"],
                body: .init(byteBuffer: ByteBuffer(bytes: PackageResources.openapi_yaml)))
        }
        addWebPage(to: router)  // GET /: a page to try the API in a browser (WebPage.swift)
        // Behind the key when the server has keys, like the API: the counts are about every owner's jobs.
        router.get("/metrics") { request, _ -> Response in
            _ = try authorize(request)
            // The server's own counters are answered even when the job store is not (its counts are then left out).
            let jobs = await Self.answer(within: 2) { try await store.countsByStatus() }
            let text = metrics.render(jobs: jobs, waitingInk: pool.waitingInkCount)
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: text)))
        }
        router.post("/v1/extractions") { request, context in try await extract(request, context: context) }
        router.post("/v1/ink") { request, _ in try await ink(request) }
        router.get("/v1/jobs/:id") { request, context in
            let owner = try authorize(request)
            let id = try context.parameters.require("id")
            let wait = try Self.waitSeconds(request)
            guard var job = try await store.job(id: id, owner: owner) else { throw Problem.notFound() }
            if wait > 0 && !job.status.isFinished {
                job = try await waitForJob(id: id, owner: owner, seconds: min(wait, 60)) ?? job
            }
            return try Self.json(describe(job))
        }
        router.get("/v1/jobs/:id/result") { request, context in
            let owner = try authorize(request)
            let id = try context.parameters.require("id")
            guard let job = try await store.job(id: id, owner: owner) else { throw Problem.notFound() }
            return try await resultResponse(
                job, format: request.uri.queryParameters.get("format"), accept: request.headers[.accept])
        }
        router.delete("/v1/jobs/:id") { request, context -> Response in
            let owner = try authorize(request)
            let id = try context.parameters.require("id")
            guard try await store.cancel(id: id, owner: owner) else { throw Problem.notFound() }
            return Response(status: .noContent)
        }
        addBatchRoutes(to: router)
        return router
    }

    /// Whether the store answers a query within `seconds` (a database that hangs is not ready
    /// either; the check is left behind, not waited for).
    func storeAnswers(within seconds: Double) async -> Bool {
        let store = self.store
        return await Self.answer(within: seconds) { try await store.pendingCount() } != nil
    }

    /// What `query` answers within `seconds`; nil when it fails or takes longer (it is then left behind, cancelled).
    static func answer<T: Sendable>(within seconds: Double, _ query: @escaping @Sendable () async throws -> T) async
        -> T?
    {
        await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
            let once = Once(continuation)
            let check = Task { once.resume(try? await query()) }
            Task {
                try? await Task.sleep(for: .seconds(seconds))
                check.cancel()
                once.resume(nil)
            }
        }
    }

    func authorize(_ request: Request) throws -> String {
        guard let owner = settings.keys.owner(authorization: request.headers[.authorization]) else {
            throw Problem.unauthorized()
        }
        return owner
    }

    // MARK: POST /v1/extractions

    func extract(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let received = Date()
        let owner = try authorize(request)
        if pool.isDraining { throw Problem.draining() }
        let contentType = request.headers[.contentType]?.lowercased() ?? ""
        var boundary: String?
        if contentType.hasPrefix("multipart/") {
            // The boundary as sent: browsers mix cases in it ("----WebKitFormBoundaryQ3x...").
            guard contentType.hasPrefix("multipart/form-data"),
                let b = Multipart.boundary(contentType: request.headers[.contentType] ?? "")
            else {
                throw Problem(
                    .badRequest, code: "bad-multipart", "a multipart body must be multipart/form-data with a boundary")
            }
            boundary = b
        }
        // Room in the queue and the options first: both are refused before the upload is read.
        // (A form's declared length holds its part headers and boundaries too: the file itself is counted as it
        // streams.)
        let admitted = try await admit(
            request, limit: settings.maxUploadBytes + (boundary == nil ? 0 : Self.formOverhead),
            tooLarge: tooLarge)
        let configuration = admitted.configuration, callbackURL = admitted.callbackURL
        // A callback is for an answer that comes later: it makes the request asynchronous.
        let async =
            (request.headers[.prefer]?.lowercased().contains("respond-async") ?? false)
            || admitted.asyncAsked || callbackURL != nil
        var name =
            request.headers[.contentDisposition].flatMap { Multipart.filename(in: "attachment; " + $0) } ?? "upload"
        let upload: Upload
        if let boundary {
            // The form's one file part, streamed to its own file; the form around it may add a little.
            let limits = MultipartStream.Limits(
                perFile: settings.maxUploadBytes, total: settings.maxUploadBytes + Self.formOverhead,
                files: 1)
            guard
                let part = try await receiveFiles(request.body, boundary: boundary, limits: limits, tooLarge: tooLarge)
                    .first
            else {
                throw Problem(.badRequest, code: "bad-multipart", "the multipart body has no 'file' part")
            }
            upload = Upload(url: part.url, size: part.size, head: part.head)
            if let filename = part.filename { name = filename }
        } else {
            upload = try await receive(request.body, limit: settings.maxUploadBytes)
        }
        // Until it becomes a job's input (moved), the upload is removed on every way out.
        defer { try? FileManager.default.removeItem(at: upload.url) }
        guard upload.size > 0 else {
            throw Problem(
                .unprocessableContent, code: ScanError.Code.empty.rawValue,
                boundary == nil ? "the body is empty: send the file as the body" : "the form's 'file' part is empty")
        }
        guard rules.kind(of: upload.head) != nil else {
            let what = rules.describe(upload.head).map { " it holds \($0)," } ?? ""
            throw Problem(
                .unsupportedMediaType, code: ScanError.Code.unsupportedType.rawValue,
                "the body is not an image, a PDF or a scanextract JSON document:\(what) whatever its Content-Type says")
        }
        let new = NewJob(
            owner: owner, configuration: configuration, inputName: name, inputSize: upload.size,
            idempotencyKey: request.headers[.idempotencyKey], maxAttempts: settings.maxAttempts,
            queueLimit: settings.maxQueued)
        // The store takes the file over; with an Idempotency-Key already used, the first job stands.
        let (job, created) = try await Self.admitted { try await store.enqueue(new, input: upload.url) }
        if !created, let why = Self.differs(job, from: new) {
            throw Problem(
                .unprocessableContent, code: "idempotency-key-reused",
                "this Idempotency-Key was first sent with another request (\(why)); its job is \(job.id)")
        }
        if created { pool.wake() }
        if let callbackURL {
            try await ensureCallback(.job, of: job.id, owner: owner, url: callbackURL, created: created)
        }
        if !async && upload.size <= settings.maxSyncBytes,
            let finished = try await waitForJob(id: job.id, owner: owner, seconds: settings.syncWait),
            finished.status.isFinished
        {
            if finished.status == .succeeded, let document = try await store.result(id: job.id) {
                var response = Response(
                    status: .ok, headers: [.contentType: "application/json"],
                    body: .init(byteBuffer: ByteBuffer(bytes: document)))
                response.headers[.contentLocation] = "/v1/jobs/\(job.id)/result"
                if let timing = Self.serverTiming(finished, received: received) {
                    response.headers[Self.serverTimingField] = timing
                }
                return response
            }
            throw jobProblem(finished)
        }
        return try Self.json(describe(job), status: .accepted, headers: [.location: "/v1/jobs/\(job.id)"])
    }

    /// Makes sure the job or batch announces itself to `url`: adds the callback, unless the request is one sent again
    /// under its Idempotency-Key whose first sending added it already. So a retry adds the callback that its first
    /// sending never did (that server stopped between the upload and the callback); one naming another URL than the
    /// first's is a 422, as other options are.
    func ensureCallback(_ kind: Callback.Kind, of subject: String, owner: String, url: String, created: Bool)
        async throws
    {
        // The request that made the job or batch adds its callback: a retry racing it must not make it a 422.
        if created {
            return try await store.addCallback(Callback(kind: kind, subjectId: subject, owner: owner, url: url))
        }
        func check(_ existing: Callback) throws {
            guard existing.url != url else { return }
            throw Problem(
                .unprocessableContent, code: "idempotency-key-reused",
                "this Idempotency-Key was first sent with another callbackUrl; its \(kind.rawValue) is \(subject)")
        }
        if let existing = try await store.callback(kind: kind, subjectId: subject) { return try check(existing) }
        do {
            try await store.addCallback(Callback(kind: kind, subjectId: subject, owner: owner, url: url))
        } catch {
            // The same retry on another server added it first.
            guard let existing = try await store.callback(kind: kind, subjectId: subject) else { throw error }
            try check(existing)
        }
    }

    /// How a request sent again under an Idempotency-Key differs from the one that made the job, or nil when it is
    /// the same retried (the same file name and size, the same options). A key reused for another file or other
    /// options would otherwise hand back the first request's result as this one's.
    static func differs(_ job: Job, from new: NewJob) -> String? {
        if job.inputName != new.inputName { return "the file '\(job.inputName)', not '\(new.inputName)'" }
        if job.inputSize != new.inputSize { return "a file of \(job.inputSize) bytes, not \(new.inputSize)" }
        let options = { (d: Data) in try? JSONSerialization.jsonObject(with: d) as? NSDictionary }
        if options(job.configuration) != options(new.configuration) { return "other options" }
        return nil
    }

    // MARK: POST /v1/ink

    /// Reads an Ink document in a worker while the client waits: the answer is what
    /// `scanextract ink` prints for it. Nothing is stored.
    func ink(_ request: Request) async throws -> Response {
        _ = try authorize(request)
        if pool.isDraining {
            throw Problem.draining()
        }
        var query: [(name: String, value: String)] = []
        for (name, value) in request.uri.queryParameters { query.append((String(name), String(value))) }
        let options: Data
        do {
            options = try rules.inkOptions(options: query)
        } catch let error as ScanError {
            throw Problem(error)
        }
        let tooLarge = Problem(
            .contentTooLarge, code: ScanError.Code.tooLarge.rawValue,
            "an Ink document is limited to \(settings.maxInkBytes / 1024) KB")
        if let declared = request.headers[.contentLength].flatMap(Int.init), declared > settings.maxInkBytes {
            throw tooLarge
        }
        var document = Data()
        for try await buffer in request.body {
            guard document.count + buffer.readableBytes <= settings.maxInkBytes else { throw tooLarge }
            document.append(contentsOf: buffer.readableBytesView)
        }
        guard document.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }) else {
            throw Problem(.badRequest, code: ScanError.Code.empty.rawValue, "the body is empty: send an Ink document")
        }
        switch await pool.perform(ink: document, options: options) {
        case .success(let (reply, body)):
            if reply.ok, let body {
                return Response(
                    status: .ok, headers: [.contentType: "application/json"],
                    body: .init(byteBuffer: ByteBuffer(bytes: body)))
            }
            let code = reply.code ?? ScanError.Code.engine.rawValue
            // What is wrong with the request (the document or an option) is the client's to fix: 400.
            let clientErrors: Set<String> = [
                ScanError.Code.corrupt.rawValue, ScanError.Code.empty.rawValue,
                ScanError.Code.invalidOption.rawValue
            ]
            let status = clientErrors.contains(code) ? .badRequest : ServiceStatus.forCode(code)
            // A model or word list the server lacks is its operator's to install: the worker's words for it (paths
            // on the server, the command that installs it) go to the log, not to the client.
            if code == ScanError.Code.engine.rawValue {
                logger.error("POST /v1/ink: \(reply.message ?? "engine error")")
                throw Problem(
                    status, code: code,
                    "this server lacks the ink model or word list this request needs (its log names which)")
            }
            throw Problem(status, code: code, reply.message ?? "the ink could not be read")
        case .failure(.noWorkers):
            throw Problem(
                .serviceUnavailable, code: "no-workers",
                "this server runs no workers (--workers 0), so it cannot read ink")
        case .failure(.draining):
            throw Problem.draining()
        case .failure(.busy):
            throw Problem(
                .tooManyRequests, code: "queue-full", "too many ink requests are waiting; try again later",
                retryAfter: 1)
        case .failure(.timedOut):
            throw Problem(
                .internalServerError, code: "timeout",
                "reading the ink took longer than \(Int(settings.pool.inkTimeout)) seconds")
        case .failure(.crashed):
            throw Problem(
                .internalServerError, code: "worker-crashed",
                "the worker process stopped while reading the ink")
        }
    }

    /// What a request that enqueues work must pass before its body is read: its query as a job
    /// configuration (the CLI's options by the same names; a bad one is a 400), its
    /// `callbackUrl`, a declared length within `limit`, and room in the queue.
    struct Admission {
        var configuration: Data
        var callbackURL: String?
        /// `?async` was given and not `false`.
        var asyncAsked: Bool
    }

    func admit(_ request: Request, limit: Int, tooLarge: () -> Problem) async throws -> Admission {
        // A full queue first: under a storm of uploads each 429 then costs one count, not the
        // callback host's lookup or the configuration's making and encoding.
        if try await store.pendingCount() >= settings.maxQueued {
            throw Problem(.tooManyRequests, code: "queue-full", "the queue is full; try again later", retryAfter: 30)
        }
        var options: [(name: String, value: String)] = []
        var callback: String?
        var asyncAsked = false
        for (name, value) in request.uri.queryParameters {
            if name == "async" {
                switch value.lowercased() {
                case "", "true", "1", "yes": asyncAsked = true
                case "false", "0", "no": break
                default:
                    throw Problem(
                        .badRequest, code: ScanError.Code.invalidOption.rawValue,
                        "async is true or false, not '\(value)'")
                }
                continue
            }
            if name == "callbackUrl" { callback = String(value); continue }
            options.append((String(name), String(value)))
        }
        if let declared = request.headers[.contentLength].flatMap(Int.init), declared > limit {
            throw tooLarge()
        }
        let configuration: Data
        do {
            configuration = try rules.configuration(options: options)
        } catch let error as ScanError {
            throw Problem(error)
        }
        // Last: checking the callback's host means looking its name up.
        var callbackURL: String?
        if let callback { callbackURL = try await callbackTarget(callback) }
        return Admission(configuration: configuration, callbackURL: callbackURL, asyncAsked: asyncAsked)
    }

    /// What the store did with a new job or batch; its refusal of a full queue is a 429. (Uploads are counted against
    /// the queue before they are read too, but only the store's count, made as the job is added, is exact when many
    /// arrive at once.)
    static func admitted<T>(_ store: () async throws -> T) async throws -> T {
        do {
            return try await store()
        } catch let full as QueueFull {
            throw Problem(
                .tooManyRequests, code: "queue-full", "the queue is full (\(full)); try again later", retryAfter: 30)
        }
    }

    /// The `wait` query parameter: seconds from 0 to 60 (0 when absent); anything else is a 400 that says so.
    static func waitSeconds(_ request: Request) throws -> Double {
        guard let text = request.uri.queryParameters.get("wait") else { return 0 }
        // Decimal digits and a point only: `Double` would also read `0x10`, `1e1` or `inf`.
        guard text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
              let seconds = Double(text), (0...60).contains(seconds) else {
            throw Problem(
                .badRequest, code: ScanError.Code.invalidOption.rawValue,
                "wait is a number of seconds from 0 to 60, not '\(text)'")
        }
        return seconds
    }

    /// What a one-file form may add to its file: part headers, boundaries, other small fields.
    static let formOverhead = 64 * 1024

    func tooLarge() -> Problem {
        Problem(
            .contentTooLarge, code: ScanError.Code.tooLarge.rawValue,
            "uploads are limited to \(settings.maxUploadBytes / (1024 * 1024)) MB")
    }

    struct Upload { var url: URL; var size: Int; var head: [UInt8] }

    /// Streams the body to a file under the store, counting as it goes: over `limit`, the
    /// file is removed and 413 thrown without reading the rest. Never holds the body whole.
    func receive(_ body: RequestBody, limit: Int) async throws -> Upload {
        let url = store.temporaryUploadURL()
        guard FileManager.default.createFile(atPath: url.path, contents: nil),
            let handle = FileHandle(forWritingAtPath: url.path)
        else {
            throw Problem(.internalServerError, code: "storage", "the upload could not be stored")
        }
        var size = 0
        var head: [UInt8] = []
        do {
            defer { try? handle.close() }
            for try await buffer in body {
                size += buffer.readableBytes
                if size > limit { throw tooLarge() }
                if head.count < 1024 {
                    head +=
                        buffer.getBytes(at: buffer.readerIndex, length: min(1024 - head.count, buffer.readableBytes))
                        ?? []
                }
                try buffer.withUnsafeReadableBytes { try handle.write(contentsOf: $0) }
            }
        } catch {
            try? FileManager.default.removeItem(at: url)
            throw error
        }
        return Upload(url: url, size: size, head: head)
    }

    /// The `file` parts of a multipart/form-data body, each streamed to its own file under the
    /// store with `limits` checked as the bytes come; a broken limit or form is a problem.
    func receiveFiles(
        _ body: RequestBody, boundary: String, limits: MultipartStream.Limits,
        tooLarge: () -> Problem
    ) async throws -> [MultipartStream.File] {
        let reader = MultipartStream(field: "file", limits: limits, newFileURL: { store.temporaryUploadURL() })
        do {
            return try await reader.receive(body, boundary: boundary)
        } catch let failure as MultipartStream.Failure {
            switch failure {
            case .malformed(let why):
                throw Problem(.badRequest, code: "bad-multipart", "the multipart body is malformed: \(why)")
            case .fileTooLarge(let index, let filename):
                let which = limits.files == 1 ? "the file" : "file \(index + 1)"
                throw Problem(
                    .contentTooLarge, code: ScanError.Code.tooLarge.rawValue,
                    "\(which)\(filename.map { " (\($0))" } ?? "") is larger than "
                        + "\(limits.perFile / (1024 * 1024)) MB, the limit of one file")
            case .totalTooLarge:
                throw tooLarge()
            case .tooManyFiles where limits.files == 1:
                throw Problem(
                    .badRequest, code: "bad-multipart",
                    "the form holds more than one 'file' part: send several files to /v1/batches")
            case .tooManyFiles:
                throw Problem(.contentTooLarge, code: "too-many-files", "a batch holds at most \(limits.files) files")
            }
        }
    }

    /// The job once finished, or as it is after `seconds`. Woken by the store's signal when
    /// the job finishes (on any node, with PostgreSQL), and polling once a second besides.
    func waitForJob(id: String, owner: String, seconds: TimeInterval) async throws -> Job? {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while true {
            // Interest first, then the read: a finish between the two still wakes the wait.
            let interest = store.signals.interest(inFinishOf: id)
            defer { store.signals.forget(interest) }
            guard let job = try await store.job(id: id, owner: owner) else { return nil }
            let left = deadline - ContinuousClock.now
            if job.status.isFinished || left <= .zero { return job }
            await store.signals.wait(interest, timeout: min(left, .seconds(1)))
            try Task.checkCancellation()
        }
    }

    /// `Server-Timing` (W3C) of a synchronous answer, in milliseconds: `upload` from the
    /// request's start until its job was stored, `queue` until a worker took it, `run` in the
    /// worker (the page's own work, with the hand-over to the worker process and back). What
    /// a client measures beyond their sum is the HTTP exchange and the answer itself.
    static let serverTimingField = HTTPField.Name("Server-Timing")!

    static func serverTiming(_ job: Job, received: Date) -> String? {
        guard let started = job.startedAt, let finished = job.finishedAt else { return nil }
        func ms(_ from: Date, _ to: Date) -> String {
            String(format: "%.1f", max(0, to.timeIntervalSince(from)) * 1000)
        }
        return
            "upload;dur=\(ms(received, job.createdAt)), queue;dur=\(ms(job.createdAt, started)), run;dur=\(ms(started, finished))"
    }

    func jobProblem(_ job: Job) -> Problem {
        if job.status == .canceled { return Problem(.gone, code: "canceled", "the job was canceled") }
        let code = job.errorCode ?? "failed"
        return Problem(ServiceStatus.forCode(code), code: code, job.errorMessage ?? "the extraction failed")
    }

    /// RFC 3339 with milliseconds in UTC (`2026-11-23T06:55:20.123Z`), as every timestamp of the API.
    /// A value type: one format for all requests, nothing built per call.
    static let timestamp = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    func describe(_ job: Job) -> [String: Any] {
        let iso = Self.timestamp
        var out: [String: Any] = [
            "id": job.id, "status": job.status.rawValue, "createdAt": iso.format(job.createdAt),
            "attempts": job.attempts, "maxAttempts": job.maxAttempts
        ]
        out["startedAt"] = job.startedAt.map(iso.format) ?? NSNull()
        out["finishedAt"] = job.finishedAt.map(iso.format) ?? NSNull()
        if let code = job.errorCode, job.status != .succeeded {
            out["error"] = ["code": code, "message": job.errorMessage ?? ""]
        } else {
            out["error"] = NSNull()
        }
        if job.status == .succeeded { out["result"] = "/v1/jobs/\(job.id)/result" }
        return out
    }

    // MARK: GET /v1/jobs/{id}/result

    func resultResponse(_ job: Job, format requested: String? = nil, accept: String?) async throws -> Response {
        // In the order a wildcard picks them: JSON for `*/*`, plain text for `text/*`.
        let formats: [(type: String, format: OutputFormat)] = [
            ("application/json", .json), ("text/plain", .text), ("text/csv", .csv), ("text/vcard", .vcard)
        ]
        // `?format=` (checked before the job's state: a bad one never succeeds) wins over the Accept header, as on a
        // batch's result.
        let wanted: String?
        if let requested {
            guard let named = formats.first(where: { $0.format.rawValue == requested.lowercased() }) else {
                throw Problem(.badRequest, code: ScanError.Code.invalidOption.rawValue,
                              "format must be json, csv, vcard or text, not '\(requested)'")
            }
            wanted = named.type
        } else {
            wanted = AcceptHeader.choose(formats.map(\.type), for: accept)
        }
        guard job.status == .succeeded, let document = try await store.result(id: job.id) else {
            if job.status == .failed || job.status == .canceled { throw jobProblem(job) }
            throw Problem(
                .conflict, code: "not-finished", "the job is \(job.status.rawValue); no result yet", retryAfter: 2)
        }
        guard let chosen = formats.first(where: { $0.type == wanted }) else {
            throw Problem(
                .notAcceptable, code: "not-acceptable",
                "the result is available as \(formats.map(\.type).joined(separator: ", "))")
        }
        var body = document
        if chosen.format != .json {
            let format = chosen.format
            let doc = try JSONDecoder().decode(Document.self, from: document)
            // A vCard is a card's: an empty 200 would look like a card with nothing on it.
            if format == .vcard && doc.businessCard == nil {
                throw Problem(
                    .notAcceptable, code: "not-acceptable",
                    "the document was read as \(doc.documentType?.label.rawValue ?? "no business card"), so it has no vCard; "
                        + "it is available as application/json, text/csv or text/plain")
            }
            body = try DocumentWriter.encode(doc, as: format)
        }
        let charset = chosen.type.hasPrefix("text/") ? "; charset=utf-8" : ""
        // The representation depends on Accept: a cache must not hand one client's CSV to another asking for JSON.
        return Response(
            status: .ok, headers: [.contentType: chosen.type + charset, .vary: "Accept"],
            body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    static func json(_ object: [String: Any], status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) throws
        -> Response
    {
        var headers = headers
        headers[.contentType] = "application/json"
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

extension HTTPField.Name {
    static let idempotencyKey = HTTPField.Name("Idempotency-Key")!
    static let prefer = HTTPField.Name("Prefer")!
}

/// A continuation resumed by whichever comes first.
private final class Once<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<T, Never>?
    init(_ continuation: CheckedContinuation<T, Never>) { self.continuation = continuation }
    func resume(_ value: T) {
        lock.lock()
        let pending = continuation
        continuation = nil
        lock.unlock()
        pending?.resume(returning: value)
    }
}
