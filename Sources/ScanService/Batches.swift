import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ScanExport
import ScanJobs
import ScanModel
import Synchronization

/// `/v1/batches`: many files in one multipart upload, one job a file, and one CSV (or vCard
/// file) for the whole batch once every job has ended.
extension ExtractionService {
    func addBatchRoutes(to router: Router<BasicRequestContext>) {
        router.post("/v1/batches") { request, _ in try await createBatch(request) }
        router.get("/v1/batches/:id") { request, context in
            // A bad `wait` is the request's error whatever the batch, as for a job.
            let seconds = try Self.waitSeconds(request)
            let (batch, _) = try await ownedBatch(request, context)
            let id = batch.id
            // Without `wait` the jobs come back at once (no time left to wait).
            let jobs = try await waitForBatch(id: id, seconds: seconds)
            return try Self.json(try await describe(batch, jobs: jobs))
        }
        router.get("/v1/batches/:id/result") { request, context in
            let (batch, _) = try await ownedBatch(request, context)
            return try await batchResult(id: batch.id, format: request.uri.queryParameters.get("format"),
                                         accept: request.headers[.accept])
        }
        router.delete("/v1/batches/:id") { request, context -> Response in
            let (batch, owner) = try await ownedBatch(request, context)
            for job in try await store.jobs(inBatch: batch.id) where !job.status.isFinished {
                _ = try await store.cancel(id: job.id, owner: owner)
            }
            return Response(status: .noContent)
        }
    }

    /// The batch the path names, if the request's key owns it (else 404, as for a batch that
    /// does not exist), and that owner.
    func ownedBatch(_ request: Request, _ context: BasicRequestContext) async throws -> (Batch, String) {
        let owner = try authorize(request)
        let id = try context.parameters.require("id")
        guard let batch = try await store.batch(id: id, owner: owner) else { throw Problem.notFound("no such batch") }
        return (batch, owner)
    }

    // MARK: POST /v1/batches

    func createBatch(_ request: Request) async throws -> Response {
        let owner = try authorize(request)
        if pool.isDraining { throw Problem.draining() }
        let contentType = request.headers[.contentType]?.lowercased() ?? ""
        guard contentType.hasPrefix("multipart/form-data"),
              let boundary = Multipart.boundary(contentType: request.headers[.contentType] ?? "") else {
            throw Problem(.unsupportedMediaType, code: "bad-multipart",
                          "a batch is a multipart/form-data body (with a boundary) holding one 'file' part per file")
        }
        // A batch is always asynchronous: `?async` is accepted and changes nothing.
        let admitted = try await admit(request, limit: settings.maxBatchBytes, tooLarge: batchTooLarge)
        let configuration = admitted.configuration, callbackURL = admitted.callbackURL
        let limits = MultipartStream.Limits(perFile: settings.maxUploadBytes, total: settings.maxBatchBytes,
                                            files: settings.maxBatchFiles)
        var files = try await receiveFiles(request.body, boundary: boundary, limits: limits, tooLarge: batchTooLarge)
        // Until each file becomes a job's input (moved), it is removed on every way out.
        defer { for file in files { try? FileManager.default.removeItem(at: file.url) } }
        guard !files.isEmpty else {
            throw Problem(.badRequest, code: "bad-multipart", "the multipart body has no 'file' part")
        }
        // Each file is checked on its own: one that is empty or not an image, PDF or JSON
        // document is recorded as rejected, with its reason, and the others still run.
        var rejected: [Batch.Rejection] = []
        var accepted: [(index: Int, file: MultipartStream.File)] = []
        for (index, file) in files.enumerated() {
            let name = file.filename ?? "file-\(index + 1)"
            if file.size == 0 {
                rejected.append(
                    .init(index: index, name: name, code: ScanError.Code.empty.rawValue, message: "the file is empty"))
            } else if rules.kind(of: file.head) == nil {
                let what = rules.describe(file.head).map { "it holds \($0), " } ?? ""
                rejected.append(
                    .init(
                        index: index, name: name, code: ScanError.Code.unsupportedType.rawValue,
                        message: "not an image, a PDF or a scanextract JSON document: \(what)whatever its name says"))
            } else {
                accepted.append((index, file))
            }
        }
        guard !accepted.isEmpty else {
            let first = rejected[0]
            throw Problem(ServiceStatus.forCode(first.code), code: first.code,
                          "no file of the batch can be read: "
                              + rejected.map { "\($0.name): \($0.message)" }.joined(separator: "; "))
        }
        let batch = Batch(owner: owner, rejected: rejected, idempotencyKey: request.headers[.idempotencyKey])
        let jobs = accepted.map { index, file in
            (new: NewJob(owner: owner, configuration: configuration, inputName: file.filename ?? "file-\(index + 1)",
                         inputSize: file.size, maxAttempts: settings.maxAttempts, batchId: batch.id, batchIndex: index,
                         queueLimit: settings.maxQueued),
             input: file.url)
        }
        // The batch and all its jobs at once; with an Idempotency-Key already used, the first batch stands.
        let (stored, created) = try await Self.admitted { try await store.createBatch(batch, jobs: jobs) }
        // The store has the accepted files now; the rejected ones are still removed on the way out.
        let taken = Set(accepted.map(\.file.url))
        files.removeAll { taken.contains($0.url) }
        if created { pool.wake() }
        let storedJobs = try await store.jobs(inBatch: stored.id)
        if !created, let why = Self.differs(storedJobs, from: jobs.map(\.new)) {
            throw Problem(
                .unprocessableContent, code: "idempotency-key-reused",
                "this Idempotency-Key was first sent with another batch (\(why)); its batch is \(stored.id)")
        }
        if let callbackURL {
            try await ensureCallback(.batch, of: stored.id, owner: owner, url: callbackURL, created: created)
        }
        return try Self.json(
            try await describe(stored, jobs: storedJobs), status: .accepted,
            headers: [.location: "/v1/batches/\(stored.id)"])
    }

    /// How a batch sent again under an Idempotency-Key differs from the one that made the first batch (its files in
    /// upload order, each as a job's `differs` compares them), or nil for the same batch retried.
    static func differs(_ stored: [Job], from new: [NewJob]) -> String? {
        guard stored.count == new.count else { return "\(stored.count) files read, not \(new.count)" }
        let ordered = stored.sorted { ($0.batchIndex ?? 0) < ($1.batchIndex ?? 0) }
        for (job, asked) in zip(ordered, new) {
            if let why = differs(job, from: asked) { return why }
        }
        return nil
    }

    func batchTooLarge() -> Problem {
        Problem(.contentTooLarge, code: ScanError.Code.tooLarge.rawValue,
                "a batch upload is limited to \(settings.maxBatchBytes / (1024 * 1024)) MB in all")
    }

    // MARK: GET /v1/batches/{id}

    func describe(_ batch: Batch, jobs: [Job]) async throws -> [String: Any] {
        let iso = Self.timestamp
        var counts = Dictionary(uniqueKeysWithValues: JobStatus.allCases.map { ($0.rawValue, 0) })
        for job in jobs { counts[job.status.rawValue, default: 0] += 1 }
        let finished = jobs.allSatisfy(\.status.isFinished)
        // Once every job has ended, each file says whether it gave rows to the batch's CSV, and if not, why.
        let table = finished ? try await csvTable(of: jobs) : nil
        return [
            "id": batch.id,
            "status": finished ? "finished" : "pending",
            "createdAt": iso.format(batch.createdAt),
            "counts": counts,
            "jobs": jobs.enumerated().map { n, job -> [String: Any] in
                var out = describe(job)
                out["file"] = job.inputName
                out["index"] = job.batchIndex ?? 0
                if let entry = table?.entries[n] {
                    out["csvRows"] = entry.rows.isEmpty ? 0 : entry.count
                    if let why = entry.noRows { out["noRows"] = ["code": why.code, "message": why.message] }
                }
                return out
            },
            "rejected": batch.rejected.map {
                ["index": $0.index, "file": $0.name, "code": $0.code, "message": $0.message]
            },
            "result": "/v1/batches/\(batch.id)/result",
        ]
    }

    /// The batch's jobs once all have ended, or as they are after `seconds`.
    func waitForBatch(id: String, seconds: TimeInterval) async throws -> [Job] {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while true {
            let jobs = try await store.jobs(inBatch: id)
            let left = deadline - ContinuousClock.now
            guard let open = jobs.first(where: { !$0.status.isFinished }), left > .zero else { return jobs }
            // Woken when that job ends (or after a second: another may have ended first).
            let interest = store.signals.interest(inFinishOf: open.id)
            defer { store.signals.forget(interest) }
            if try await store.job(id: open.id)?.status.isFinished != true {
                await store.signals.wait(interest, timeout: min(left, .seconds(1)))
            }
            try Task.checkCancellation()
        }
    }

    // MARK: GET /v1/batches/{id}/result

    /// One CSV (or vCard file) for the whole batch, built from the results of its succeeded
    /// jobs in upload order, as a folder run of the command line writes it: one header, then
    /// every document's rows. 409 `not-finished` while any job is queued or running.
    func batchResult(id: String, format: String?, accept: String?) async throws -> Response {
        let chosenType: String
        switch format?.lowercased() {
        case "csv": chosenType = "text/csv"
        case "vcard": chosenType = "text/vcard"
        case nil:
            guard let chosen = AcceptHeader.choose(["text/csv", "text/vcard"], for: accept) else {
                throw Problem(
                    .notAcceptable, code: "not-acceptable", "a batch's result is available as text/csv or text/vcard")
            }
            chosenType = chosen
        case let other?:
            throw Problem(.badRequest, code: ScanError.Code.invalidOption.rawValue,
                          "format must be csv or vcard, not '\(other)'")
        }
        let jobs = try await store.jobs(inBatch: id)
        let open = jobs.filter { !$0.status.isFinished }.count
        guard open == 0 else {
            throw Problem(.conflict, code: "not-finished",
                          "\(open) of the batch's \(jobs.count) jobs have not ended; the result is made once all have",
                          retryAfter: 5)
        }
        var body = Data()
        var included = 0
        var type = chosenType
        if type == "text/vcard" {
            for job in jobs where job.status == .succeeded {
                guard let data = try await store.result(id: job.id) else { continue }
                let document = try JSONDecoder().decode(Document.self, from: data)
                guard document.businessCard != nil else { continue }
                body.append(try DocumentWriter.encode(document, as: .vcard))
                included += 1
            }
            // As for one job: an empty 200 would look like cards with nothing on them. A client whose Accept takes
            // the CSV too gets that.
            if included == 0 {
                guard format == nil, AcceptHeader.choose(["text/csv"], for: accept) != nil else {
                    throw Problem(
                        .notAcceptable, code: "not-acceptable",
                        "no document of the batch was read as a business card, so it has no vCard; its result is "
                            + "available as text/csv")
                }
                type = "text/csv"
            }
        }
        if type == "text/csv" {
            let table = try await csvTable(of: jobs)
            for entry in table.entries where !entry.rows.isEmpty {
                body.append(entry.rows)
                included += 1
            }
            // A batch without a receipt or card still answers a CSV with the receipts header.
            if table.kind == nil { body = Data((CSVWriter.receiptColumns.joined(separator: ",") + "\r\n").utf8) }
        }
        var headers: HTTPFields = [.contentType: type + "; charset=utf-8", .vary: "Accept"]
        headers[.batchDocuments] = String(included)
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}

extension ExtractionService {
    /// What each file of a batch gives the batch's CSV, in upload order: its rows (the header with the first), how
    /// many, or why none (`failed`: its job did not succeed; `neither`: no receipt and no card; `other-table`: a
    /// receipt after the first card or a card after the first receipt, which decided the table).
    struct CSVTable: Sendable {
        struct Entry: Sendable {
            var rows = Data()
            var count = 0
            var noRows: (code: String, message: String)?
        }
        var entries: [Entry]
        var kind: CSVWriter.Table?
    }

    /// The table of a batch whose jobs have all ended: made from their results once, then kept while the jobs stay
    /// as they were (a job deleted or purged since makes it again).
    func csvTable(of jobs: [Job]) async throws -> CSVTable {
        let key = CSVTableCache.Key(jobs)
        if let kept = csvTables.table(for: key) { return kept }
        let table = try await makeCSVTable(of: jobs)
        csvTables.keep(table, for: key)
        return table
    }

    private func makeCSVTable(of jobs: [Job]) async throws -> CSVTable {
        var csv = CSVStream()
        var entries: [CSVTable.Entry] = []
        for job in jobs {
            var entry = CSVTable.Entry()
            let data = job.status == .succeeded ? try await store.result(id: job.id) : nil
            if let data {
                let document = try JSONDecoder().decode(Document.self, from: data)
                let outcome = csv.append(document)
                switch outcome {
                case .rows(let rows, let count):
                    entry.rows = rows
                    entry.count = count
                case .nothing:
                    entry.noRows = ("neither", "read as \(document.documentType?.label.rawValue ?? "a document"), "
                        + (outcome.whyNoRows ?? ""))
                case .otherTable:
                    entry.noRows = ("other-table", outcome.whyNoRows ?? "")
                }
            } else {
                entry.noRows = ("failed", "its job \(job.status == .succeeded ? "has no result" : job.status.rawValue)")
            }
            entries.append(entry)
        }
        return CSVTable(entries: entries, kind: csv.table)
    }
}

extension HTTPField.Name {
    /// How many of the batch's files gave rows (or cards) in its result.
    static let batchDocuments = HTTPField.Name("Batch-Documents")!
}

/// The CSV tables of the last few finished batches this server described, each under its jobs' ids and states.
final class CSVTableCache: Sendable {
    struct Key: Hashable, Sendable {
        var batch: String
        var jobs: [String]
        init(_ jobs: [Job]) {
            batch = jobs.first?.batchId ?? ""
            self.jobs = jobs.map { "\($0.id) \($0.status.rawValue)" }
        }
    }
    static let capacity = 16
    private let kept = Mutex<[(key: Key, table: ExtractionService.CSVTable)]>([])

    func table(for key: Key) -> ExtractionService.CSVTable? {
        kept.withLock { $0.first { $0.key == key }?.table }
    }

    func keep(_ table: ExtractionService.CSVTable, for key: Key) {
        kept.withLock { kept in
            kept.removeAll { $0.key.batch == key.batch }
            kept.append((key, table))
            if kept.count > Self.capacity { kept.removeFirst(kept.count - Self.capacity) }
        }
    }
}
