import Foundation
import TestSupport
import XCTest

/// `POST /v1/batches` and the upload limits, against a real `scanextract serve` on loopback.
final class BatchTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = Drawing.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func start(_ arguments: [String] = [], keys: String? = nil) throws -> ServerProcess {
        var env: [String: String] = [:]
        if let keys { env["SCANEXTRACT_API_KEYS"] = keys }
        return try ServerProcess(dataDir: dir + "/data", arguments: arguments, environment: env)
    }

    /// Mixed case, as browsers make them (----WebKitFormBoundary...): a boundary is case-sensitive.
    static let boundary = "----ScanExtractBatch5F2x"

    /// A multipart/form-data body: `file` parts (name, bytes), with a plain form field first.
    static func form(_ files: [(name: String, bytes: Data)], field: String = "file") -> Data {
        var body = Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nfrom a test\r\n".utf8)
        for file in files {
            body += Data(
                "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(field)\"; filename=\"\(file.name)\"\r\n".utf8
            )
            body += Data("Content-Type: application/octet-stream\r\n\r\n".utf8) + file.bytes + Data("\r\n".utf8)
        }
        return body + Data("--\(boundary)--\r\n".utf8)
    }

    static let multipart = ["Content-Type": "multipart/form-data; boundary=\(boundary)"]

    static func chunks(_ data: Data, size: Int = 64 * 1024) -> [Data] {
        stride(from: 0, to: data.count, by: size).map { data[$0..<min($0 + size, data.count)] }
    }

    static func receipt(_ shop: String, _ item: String, _ price: String) -> Data {
        Inputs.document([shop, "\(item) \(price)", "TOTAL \(price)"])
    }

    func testABatchRunsOneJobPerFileAndAnswersOneCSV() throws {
        let server = try start(["--workers", "1"])
        let body = Self.form([("corner.json", Self.receipt("CORNER SHOP", "Milk", "1.20")),
                              ("notes.txt", Data("just some notes\n".utf8)),
                              ("bakery.json", Self.receipt("BAKERY", "Bread", "2.50"))])
        let r = try server.request("POST", "/v1/batches?type=receipt&country=GB", headers: Self.multipart, body: body)
        XCTAssertEqual(r.status, 202, r.text + server.log)
        let id = try XCTUnwrap(r.json["id"] as? String)
        XCTAssertEqual(r.header("location"), "/v1/batches/\(id)")
        let jobs = r.json["jobs"] as? [[String: Any]] ?? []
        XCTAssertEqual(jobs.map { $0["file"] as? String }, ["corner.json", "bakery.json"])
        XCTAssertEqual(jobs.map { $0["index"] as? Int }, [0, 2], "each job keeps its file's place in the upload")
        // The text file is refused on its own, named, with its reason; the others run.
        let rejected = r.json["rejected"] as? [[String: Any]] ?? []
        XCTAssertEqual(rejected.count, 1)
        XCTAssertEqual(rejected.first?["file"] as? String, "notes.txt")
        XCTAssertEqual(rejected.first?["code"] as? String, "unsupported-type")
        XCTAssertEqual(rejected.first?["index"] as? Int, 1)
        // The refused file is not kept: nothing is left among the uploads being received.
        let uploads = (try? FileManager.default.contentsOfDirectory(atPath: server.dataDir + "/uploads")) ?? []
        XCTAssertEqual(uploads.filter { $0.hasPrefix("incoming-") }, [], "a rejected file stays behind")

        let done = try server.request("GET", "/v1/batches/\(id)?wait=60")
        XCTAssertEqual(done.status, 200)
        XCTAssertEqual(done.json["status"] as? String, "finished", done.text)
        let counts = done.json["counts"] as? [String: Int] ?? [:]
        XCTAssertEqual(counts["succeeded"], 2, done.text)
        XCTAssertEqual(counts["queued"], 0)
        // Each job is a job like any other.
        let first = try XCTUnwrap(jobs.first?["id"] as? String)
        XCTAssertEqual(try server.request("GET", "/v1/jobs/\(first)").json["status"] as? String, "succeeded")

        let csv = try server.request("GET", "/v1/batches/\(id)/result?format=csv")
        XCTAssertEqual(csv.status, 200, csv.text)
        XCTAssertEqual(csv.header("content-type"), "text/csv; charset=utf-8")
        let lines = csv.text.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        XCTAssertEqual(lines.filter { $0.hasPrefix("source,merchant_name") }.count, 1, "one header line:\n\(csv.text)")
        XCTAssertEqual(lines.count, 3, csv.text)
        XCTAssertTrue(lines[1].hasPrefix("corner.json,CORNER SHOP"), csv.text)
        XCTAssertTrue(lines[2].hasPrefix("bakery.json,BAKERY"), csv.text)
        XCTAssertTrue(lines[2].contains("Bread"), csv.text)
        XCTAssertEqual(csv.header("batch-documents"), "2")
        // The same by Accept; and a format it has not is a clear refusal.
        let byAccept = try server.request("GET", "/v1/batches/\(id)/result", headers: ["Accept": "text/csv"])
        XCTAssertEqual(byAccept.body, csv.body)
        XCTAssertEqual(
            try server.request("GET", "/v1/batches/\(id)/result", headers: ["Accept": "image/png"]).status, 406)
        XCTAssertEqual(try server.request("GET", "/v1/batches/\(id)/result", headers: ["Accept": ";"]).status, 406)
        XCTAssertEqual(try server.request("GET", "/healthz").status, 200, "the server is still up:\n" + server.log)
        // No card among the receipts: no vCard, as for one job.
        XCTAssertEqual(try server.request("GET", "/v1/batches/\(id)/result?format=vcard").status, 406)
        let either = try server.request(
            "GET", "/v1/batches/\(id)/result", headers: ["Accept": "text/vcard, */*;q=0.1"])
        XCTAssertEqual(either.body, csv.body, "the CSV the Accept header takes too")
        let badFormat = try server.request("GET", "/v1/batches/\(id)/result?format=xlsx")
        XCTAssertEqual(badFormat.status, 400)
        XCTAssertEqual(badFormat.json["code"] as? String, "invalid-option")
        XCTAssertEqual(try server.request("GET", "/v1/batches/00000000-0000-0000-0000-000000000000").status, 404)
    }

    /// A file that gives the batch's CSV no rows says so in the batch's description, with why: a letter is neither a
    /// receipt nor a card, a card does not fit the receipts CSV the first receipt began.
    func testTheBatchSaysWhichFilesGaveNoRowsAndWhy() throws {
        let server = try start(["--workers", "1"])
        let letter = Inputs.document([
            "Dear Mr Smith,", "Thank you for your letter of last week about the garden wall.",
            "We will send someone to look at it on Monday morning, as agreed on the phone.",
            "Please let us know if that does not suit you.", "Yours sincerely,", "Anna Berg"])
        let card = Inputs.document([
            "Jane Doe", "Managing Director", "Acme Widgets Ltd", "T +44 20 7946 0958",
            "jane.doe@acmewidgets.co.uk", "www.acmewidgets.co.uk"])
        let body = Self.form([("corner.json", Self.receipt("CORNER SHOP", "Milk", "1.20")),
                              ("letter.json", letter), ("card.json", card)])
        let r = try server.request("POST", "/v1/batches", headers: Self.multipart, body: body)
        XCTAssertEqual(r.status, 202, r.text + server.log)
        let id = try XCTUnwrap(r.json["id"] as? String)
        XCTAssertNil((r.json["jobs"] as? [[String: Any]])?.first?["csvRows"], "said once the batch has ended")
        let done = try server.request("GET", "/v1/batches/\(id)?wait=60")
        XCTAssertEqual(done.json["status"] as? String, "finished", done.text)
        let jobs = done.json["jobs"] as? [[String: Any]] ?? []
        XCTAssertEqual(jobs.map { $0["csvRows"] as? Int }, [1, 0, 0], done.text)
        XCTAssertNil(jobs.first?["noRows"], done.text)
        let why = jobs.dropFirst().map { ($0["noRows"] as? [String: Any])?["code"] as? String }
        XCTAssertEqual(why, ["neither", "other-table"], done.text)
        let csv = try server.request("GET", "/v1/batches/\(id)/result?format=csv")
        XCTAssertEqual(csv.header("batch-documents"), "1")
    }

    func testARetriedBatchWithItsIdempotencyKeyGivesBackTheFirstBatch() throws {
        let server = try start(["--workers", "0"])
        let body = Self.form([
            ("one.json", Self.receipt("ONE", "Tea", "1.00")), ("two.json", Self.receipt("TWO", "Jam", "2.00"))
        ])
        var headers = Self.multipart
        headers["Idempotency-Key"] = "batch-7"
        let first = try server.request("POST", "/v1/batches", headers: headers, body: body)
        let again = try server.request("POST", "/v1/batches", headers: headers, body: body)
        headers["Idempotency-Key"] = "batch-8"
        let other = try server.request("POST", "/v1/batches", headers: headers, body: body)
        XCTAssertEqual([first.status, again.status, other.status], [202, 202, 202], first.text + server.log)
        let id = try XCTUnwrap(first.json["id"] as? String)
        XCTAssertEqual(again.json["id"] as? String, id)
        XCTAssertEqual(again.header("location"), "/v1/batches/\(id)")
        XCTAssertEqual((again.json["jobs"] as? [[String: Any]])?.compactMap { $0["id"] as? String },
                       (first.json["jobs"] as? [[String: Any]])?.compactMap { $0["id"] as? String }, "the same jobs")
        XCTAssertNotEqual(other.json["id"] as? String, id)
        // Four jobs queued (two batches), and only their inputs kept.
        let metrics = try server.request("GET", "/metrics").text
        XCTAssertTrue(metrics.contains(#"scanextract_jobs{state="queued"} 4"#), metrics)
        let uploads = try FileManager.default.contentsOfDirectory(atPath: server.dataDir + "/uploads")
        XCTAssertEqual(uploads.count, 4, "the retry's copies are not kept: \(uploads)")
        // The key sent again with other files is a mistake, not a retry: refused, never the first batch handed back.
        headers["Idempotency-Key"] = "batch-7"
        let otherFiles = try server.request(
            "POST", "/v1/batches", headers: headers, body: Self.form([("one.json", Self.receipt("ONE", "Tea", "1.00"))]))
        XCTAssertEqual(otherFiles.status, 422, otherFiles.text)
        XCTAssertEqual(otherFiles.json["code"] as? String, "idempotency-key-reused")
        XCTAssertTrue((otherFiles.json["detail"] as? String ?? "").contains(id), otherFiles.text)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: server.dataDir + "/uploads").count, 4)
    }

    func testABatchIsSeenOnlyByItsKeyAndDeleteCancelsItsJobs() throws {
        // No workers: the jobs stay queued.
        let server = try start(["--workers", "0"], keys: "alpha-key,beta-key")
        let body = Self.form([
            ("a.json", Self.receipt("A", "Tea", "1.00")), ("b.json", Self.receipt("B", "Jam", "3.00"))
        ])
        XCTAssertEqual(try server.request("POST", "/v1/batches", headers: Self.multipart, body: body).status, 401)
        let r = try server.request("POST", "/v1/batches", key: "alpha-key", headers: Self.multipart, body: body)
        XCTAssertEqual(r.status, 202, r.text)
        let id = try XCTUnwrap(r.json["id"] as? String)
        XCTAssertEqual(try server.request("GET", "/v1/batches/\(id)", key: "beta-key").status, 404)
        XCTAssertEqual(try server.request("GET", "/v1/batches/\(id)/result", key: "beta-key").status, 404)
        XCTAssertEqual(try server.request("DELETE", "/v1/batches/\(id)", key: "beta-key").status, 404)
        let pending = try server.request("GET", "/v1/batches/\(id)", key: "alpha-key")
        XCTAssertEqual(pending.json["status"] as? String, "pending")
        XCTAssertEqual((pending.json["counts"] as? [String: Int])?["queued"], 2)
        // Until every job has ended there is no batch result.
        let early = try server.request("GET", "/v1/batches/\(id)/result", key: "alpha-key")
        XCTAssertEqual(early.status, 409, early.text)
        XCTAssertEqual(early.json["code"] as? String, "not-finished")
        XCTAssertNotNil(early.header("retry-after"))

        XCTAssertEqual(try server.request("DELETE", "/v1/batches/\(id)", key: "alpha-key").status, 204)
        let after = try server.request("GET", "/v1/batches/\(id)", key: "alpha-key")
        XCTAssertEqual(after.json["status"] as? String, "finished")
        XCTAssertEqual((after.json["counts"] as? [String: Int])?["canceled"], 2, after.text)
        let jobID = try XCTUnwrap((r.json["jobs"] as? [[String: Any]])?.first?["id"] as? String)
        XCTAssertEqual(
            try server.request("GET", "/v1/jobs/\(jobID)", key: "alpha-key").json["status"] as? String, "canceled")
        // Ended, with nothing succeeded: the CSV is its header alone.
        let empty = try server.request("GET", "/v1/batches/\(id)/result", key: "alpha-key")
        XCTAssertEqual(empty.status, 200, empty.text)
        XCTAssertEqual(empty.text.components(separatedBy: "\r\n").filter { !$0.isEmpty }.count, 1, empty.text)
    }

    func testBatchUploadsAreHeldToTheirLimitsWhileStreaming() throws {
        let server = try start([
            "--workers", "0", "--max-upload-mb", "1", "--max-batch-files", "3", "--max-batch-mb", "2"
        ])
        func expect(_ r: HTTPResponse, _ status: Int, _ code: String, _ detail: String? = nil, line: UInt = #line) {
            XCTAssertEqual(r.status, status, r.text, line: line)
            XCTAssertEqual(r.header("content-type"), "application/problem+json", line: line)
            XCTAssertEqual(r.json["code"] as? String, code, r.text, line: line)
            if let detail { XCTAssertTrue((r.json["detail"] as? String ?? "").contains(detail), r.text, line: line) }
        }
        let small = Self.receipt("A", "Tea", "1.00")
        let overOne = Data(repeating: 0x41, count: 1024 * 1024 + 100)
        // One file over the per-file limit, named in the answer; sent chunked, so only counting stops it.
        expect(try server.request("POST", "/v1/batches", headers: Self.multipart,
                                  chunks: Self.chunks(Self.form([("ok.json", small), ("huge.png", overOne)]))),
               413, "too-large", "file 2 (huge.png)")
        // More files than allowed.
        expect(try server.request("POST", "/v1/batches", headers: Self.multipart,
                                  body: Self.form(Array(repeating: ("x.json", small), count: 4))),
               413, "too-many-files")
        // Each file within its limit, the whole over the batch's.
        let nearOne = Data(repeating: 0x41, count: 900 * 1024)
        expect(
            try server.request(
                "POST", "/v1/batches", headers: Self.multipart,
                chunks: Self.chunks(Self.form([("a.png", nearOne), ("b.png", nearOne), ("c.png", nearOne)]))),
            413, "too-large", "in all")
        // Not multipart; multipart without a file; a body that never closes; no file readable.
        expect(try server.request("POST", "/v1/batches", headers: ["Content-Type": "application/json"], body: small),
               415, "bad-multipart")
        expect(
            try server.request(
                "POST", "/v1/batches", headers: Self.multipart, body: Self.form([("a.json", small)], field: "other")),
            400, "bad-multipart")
        let cut = Self.form([("a.json", small)])
        expect(try server.request("POST", "/v1/batches", headers: Self.multipart, body: cut.prefix(cut.count - 30)),
               400, "bad-multipart")
        expect(try server.request("POST", "/v1/batches", headers: Self.multipart,
                                  body: Self.form([("n.txt", Data("notes".utf8)), ("e.png", Data())])),
               415, "unsupported-type", "n.txt")
        expect(
            try server.request(
                "POST", "/v1/batches?engine=abacus", headers: Self.multipart, body: Self.form([("a.json", small)])),
            400, "invalid-option")
        // Nothing left behind by the refused uploads.
        let uploads = try FileManager.default.contentsOfDirectory(atPath: server.dataDir + "/uploads")
        XCTAssertEqual(uploads, [], "no file of a refused batch is kept")
    }

    /// A 60 MB upload (default limit 50 MB), sent chunked so that only counting while reading can
    /// stop it: 413 as a problem, and the server's peak memory grows by far less than the upload.
    func testA60MBUploadIsRefusedWhileStreamingWithoutTheServerGrowing() throws {
        let server = try start(["--workers", "0"])
        XCTAssertEqual(
            try server.request("POST", "/v1/extractions?async=true", body: Inputs.document(["warm up"])).status, 202)
        let before = try XCTUnwrap(Self.memory(of: server.process.processIdentifier))
        let upload = Data(repeating: 0x25, count: 60 * 1024 * 1024)
        for (path, headers, body) in [
            ("/v1/extractions", ["Content-Type": "application/pdf"], upload),
            ("/v1/extractions", Self.multipart, Self.form([("big.pdf", upload)])),
            ("/v1/batches", Self.multipart, Self.form([("big.pdf", upload)])),
        ] {
            let r = try server.request("POST", path, headers: headers, chunks: Self.chunks(body, size: 256 * 1024))
            XCTAssertEqual(r.status, 413, "\(path): \(r.text)")
            XCTAssertEqual(r.header("content-type"), "application/problem+json")
            XCTAssertEqual(r.json["code"] as? String, "too-large")
        }
        let after = try XCTUnwrap(Self.memory(of: server.process.processIdentifier))
        let grown = after.peak - before.peak
        XCTAssertLessThan(
            grown, 20 * 1024 * 1024,
            "peak RSS went from \(before.peak / 1024) kB to \(after.peak / 1024) kB over three 60 MB uploads")
        XCTAssertEqual(try server.request("GET", "/healthz").status, 200)
        let uploads = try FileManager.default.contentsOfDirectory(atPath: server.dataDir + "/uploads")
        XCTAssertEqual(uploads.filter { $0.hasPrefix("incoming-") }, [])
    }

    /// VmRSS and VmHWM (the peak) of a process, in bytes, from /proc.
    static func memory(of pid: Int32) -> (resident: Int, peak: Int)? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        func field(_ name: String) -> Int? {
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }) else {
                return nil
            }
            return line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap { Int($0) }.map
            { $0 * 1024 }
        }
        guard let resident = field("VmRSS"), let peak = field("VmHWM") else { return nil }
        return (resident, peak)
    }
}
