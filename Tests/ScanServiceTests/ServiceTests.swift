import Foundation
import ScanService
import TestSupport
import XCTest

/// `scanextract serve` as a client sees it: a real server on a free loopback port, a real
/// SQLite store in a temporary folder, real `scanextract worker` processes.
final class ServiceTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = Drawing.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func start(
        _ arguments: [String] = [], keys: String? = nil, environment: [String: String] = [:],
        data: String = "data"
    ) throws -> ServerProcess {
        var env = environment
        if let keys { env["SCANEXTRACT_API_KEYS"] = keys }
        return try ServerProcess(dataDir: dir + "/" + data, arguments: arguments, environment: env)
    }

    func testSyncExtractionAnswersTheDocumentAsTheCommandLineDoes() throws {
        let server = try start(["--workers", "1"])
        let r = try server.request(
            "POST", "/v1/extractions?type=receipt&country=GB",
            headers: [
                "Content-Type": "application/json",
                "Content-Disposition": "attachment; filename=\"till.json\""
            ],
            body: Inputs.document(["CORNER SHOP", "Milk 1.20", "TOTAL 1.20", "Call 0131 496 0321"]))
        XCTAssertEqual(r.status, 200, r.text + server.log)
        XCTAssertEqual(r.header("content-type"), "application/json")
        let doc = r.json
        XCTAssertNotNil(doc["schemaVersion"])
        XCTAssertEqual(
            (doc["documentType"] as? [String: Any])?["label"] as? String, "receipt", "type=receipt was applied")
        let entities = doc["entities"] as? [[String: Any]] ?? []
        XCTAssertTrue(entities.contains { $0["type"] as? String == "phone" }, "country=GB read the UK number")
        // The job stays behind the document: its state and its result in another format.
        let location = try XCTUnwrap(r.header("content-location"))
        let text = try server.request("GET", location, headers: ["Accept": "text/plain"])
        XCTAssertEqual(text.status, 200)
        XCTAssertTrue(text.text.contains("TOTAL 1.20"), text.text)
        XCTAssertTrue(text.header("content-type")?.hasPrefix("text/plain") ?? false)
        let csv = try server.request("GET", location, headers: ["Accept": "text/csv"])
        XCTAssertEqual(csv.status, 200)
        XCTAssertTrue(csv.text.hasPrefix("source,merchant_name"), csv.text)
        XCTAssertEqual(csv.header("vary"), "Accept", "the representation depends on Accept")
        XCTAssertEqual(try server.request("GET", location, headers: ["Accept": "image/png"]).status, 406)
        let vcard = try server.request("GET", location, headers: ["Accept": "text/vcard"])
        XCTAssertEqual(vcard.status, 406, "a receipt has no vCard: " + vcard.text)
        XCTAssertTrue((vcard.json["detail"] as? String ?? "").contains("receipt"), vcard.text)
        // Weights order the types; a header that names none is a 406, not a fault of the server.
        let weighed = try server.request(
            "GET", location, headers: ["Accept": "text/csv;q=0.4, text/plain;q=0.9, image/png"])
        XCTAssertTrue(weighed.header("content-type")?.hasPrefix("text/plain") ?? false, weighed.text)
        XCTAssertEqual(try server.request("GET", location, headers: ["Accept": "text/csv;q=0"]).status, 406)
        // A zero weight turns a type down beside a wildcard; `?format=` wins over Accept.
        let notJSON = try server.request("GET", location, headers: ["Accept": "application/json;q=0, */*"])
        XCTAssertTrue(notJSON.header("content-type")?.hasPrefix("text/plain") ?? false, notJSON.text)
        let named = try server.request("GET", location + "?format=csv", headers: ["Accept": "application/json"])
        XCTAssertTrue(named.text.hasPrefix("source,merchant_name"), named.text)
        XCTAssertEqual(try server.request("GET", location + "?format=xlsx").status, 400)
        for odd in [";", " ; , ;q=1", "text/csv,;"] {
            XCTAssertNotEqual(try server.request("GET", location, headers: ["Accept": odd]).status, 500, odd)
        }
        XCTAssertEqual(try server.request("GET", "/healthz").status, 200, "the server is still up:\n" + server.log)
    }

    func testAMultipartUploadTakesItsFilePart() throws {
        let server = try start(["--workers", "1"])
        let boundary = "----scanextract-test-7d1"
        var body = Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nignored\r\n".utf8)
        body += Data(
            "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"dir/card.json\"\r\n".utf8)
        body += Data("Content-Type: application/json\r\n\r\n".utf8) + Inputs.document(["From a form"])
        body += Data("\r\n--\(boundary)--\r\n".utf8)
        let r = try server.request(
            "POST", "/v1/extractions",
            headers: ["Content-Type": "multipart/form-data; boundary=\(boundary)"], body: body)
        XCTAssertEqual(r.status, 200, r.text)
        XCTAssertEqual(r.json["source"] as? String, "card.json")
        let noFile = try server.request(
            "POST", "/v1/extractions", headers: ["Content-Type": "multipart/form-data; boundary=x"],
            body: Data("--x\r\nContent-Disposition: form-data; name=\"other\"\r\n\r\nv\r\n--x--\r\n".utf8))
        XCTAssertEqual(noFile.status, 400, noFile.text)
        XCTAssertEqual(noFile.json["code"] as? String, "bad-multipart")
    }

    func testAPDFRunsThroughAWorkerAsync() throws {
        let server = try start(["--workers", "1"])
        let r = try server.request(
            "POST", "/v1/extractions", headers: ["Content-Type": "application/pdf", "Prefer": "respond-async"],
            body: Inputs.pdf("Invoice 42 from hello@example.com", in: dir))
        XCTAssertEqual(r.status, 202, r.text)
        let id = try XCTUnwrap(r.json["id"] as? String)
        XCTAssertEqual(r.header("location"), "/v1/jobs/\(id)")
        let job = try server.waitFinished(id)
        XCTAssertEqual(job["status"] as? String, "succeeded", "\(job)")
        XCTAssertEqual(job["attempts"] as? Int, 1)
        XCTAssertNotNil(job["finishedAt"] as? String)
        let result = try server.request("GET", "/v1/jobs/\(id)/result")
        XCTAssertEqual(result.status, 200)
        let pages = result.json["pages"] as? [[String: Any]] ?? []
        XCTAssertEqual(pages.first?["textSource"] as? String, "pdf-text")
        let entities = result.json["entities"] as? [[String: Any]] ?? []
        XCTAssertTrue(entities.contains { $0["type"] as? String == "email" }, result.text)
        // Delete: the job is canceled, its result gone.
        XCTAssertEqual(try server.request("DELETE", "/v1/jobs/\(id)").status, 204)
        XCTAssertEqual(try server.request("GET", "/v1/jobs/\(id)").json["status"] as? String, "canceled")
        XCTAssertEqual(try server.request("GET", "/v1/jobs/\(id)/result").status, 410)
        XCTAssertFalse(FileManager.default.fileExists(atPath: server.dataDir + "/uploads/\(id)"))
    }

    func testErrorsAreProblemsWithStableCodes() throws {
        let server = try start(["--workers", "1", "--max-upload-mb", "1"])
        func expect(_ r: HTTPResponse, _ status: Int, _ code: String, line: UInt = #line) {
            XCTAssertEqual(r.status, status, r.text, line: line)
            XCTAssertEqual(r.header("content-type"), "application/problem+json", line: line)
            XCTAssertEqual(r.json["code"] as? String, code, r.text, line: line)
            XCTAssertEqual(r.json["status"] as? Int, status, line: line)
        }
        // Decided by the content, not the Content-Type.
        expect(
            try server.request(
                "POST", "/v1/extractions", headers: ["Content-Type": "image/png"],
                body: Data("just some notes\nin a text file\n".utf8)), 415, "unsupported-type")
        expect(
            try server.request("POST", "/v1/extractions?engine=abacus", body: Inputs.document(["x"])), 400,
            "invalid-option")
        expect(
            try server.request("POST", "/v1/extractions?no-such-option=1", body: Inputs.document(["x"])), 400,
            "invalid-option")
        expect(try server.request("POST", "/v1/extractions", body: Data()), 422, "empty")
        // Over the limit: told by Content-Length before reading, and counted while streaming.
        let big = Data(repeating: 0x41, count: 1024 * 1024 + 10)
        expect(
            try server.request("POST", "/v1/extractions", headers: ["Content-Length": "\(big.count)"], body: Data()),
            413, "too-large")
        expect(
            try server.request(
                "POST", "/v1/extractions",
                chunks: stride(from: 0, to: big.count, by: 64 * 1024).map { big[$0..<min($0 + 64 * 1024, big.count)] }),
            413, "too-large")
        // A PDF that is cut short: accepted (it says PDF), then the worker finds it corrupt.
        expect(try server.request("POST", "/v1/extractions", body: Data("%PDF-1.4 truncated".utf8)), 422, "corrupt")
        expect(try server.request("GET", "/v1/jobs/00000000-0000-0000-0000-000000000000"), 404, "not-found")
        // Options are refused before the upload is read, each with what is wrong.
        for (query, names) in [
            ("reference-date=2025-13-45", "--reference-date"), ("reference-date=2025-02-30", "--reference-date"),
            ("reference-date=2025-04-31", "--reference-date"), ("country=ZZZ", "--country"),
            ("languages=../../etc/passwd", "--languages"), ("async=maybe", "async"),
            ("engine=tesseract&languages=xx_nonexistent", "xx_nonexistent")
        ] {
            let r = try server.request("POST", "/v1/extractions?\(query)", body: Inputs.document(["x"]))
            expect(r, 400, "invalid-option")
            XCTAssertTrue((r.json["detail"] as? String ?? "").contains(names), r.text)
        }
        for wait in ["abc", "-1", "nan", "100000", "0x10", "1e1", "inf"] {
            expect(
                try server.request("GET", "/v1/jobs/00000000-0000-0000-0000-000000000000?wait=\(wait)"), 400,
                "invalid-option")
        }
        // A path the API lacks, and a method a path does not take: problems too, the latter with Allow.
        let nowhere = try server.request("GET", "/v1/nowhere")
        expect(nowhere, 404, "not-found")
        XCTAssertTrue((nowhere.json["detail"] as? String ?? "").contains("/v1/nowhere"), nowhere.text)
        let put = try server.request("PUT", "/v1/jobs/some-id", body: Data("x".utf8))
        expect(put, 405, "method-not-allowed")
        XCTAssertEqual(put.header("allow"), "GET, DELETE, HEAD")
        expect(try server.request("GET", "/v1/extractions"), 405, "method-not-allowed")
        XCTAssertEqual(try server.request("GET", "/healthz").status, 200)
        XCTAssertEqual(try server.request("GET", "/readyz").status, 200)
        // HEAD as GET, without a body: what uptime monitors send.
        for path in ["/healthz", "/", "/openapi.yaml"] {
            let head = try server.request("HEAD", path)
            XCTAssertEqual(head.status, 200, path)
            XCTAssertTrue(head.body.isEmpty, path)
        }
        let spec = try server.request("GET", "/openapi.yaml")
        XCTAssertEqual(spec.status, 200)
        XCTAssertTrue(spec.text.hasPrefix("openapi: 3.1"), spec.text)
        // Nothing left behind by the refused uploads.
        let uploads = try FileManager.default.contentsOfDirectory(atPath: server.dataDir + "/uploads")
        XCTAssertEqual(uploads.filter { $0.hasPrefix("incoming-") }, [])
    }

    /// A client that stops sending (half its headers, or half its upload) is disconnected after --idle-timeout, and a
    /// one-file form whose file is just under the limit is taken although the form around it passes it.
    func testAStalledClientIsDisconnectedAndAFormMayAddToTheLimit() throws {
        let server = try start(["--workers", "1", "--idle-timeout", "1", "--max-upload-mb", "1"])
        let fd = try HTTP.connection(port: server.port, timeout: 20)
        defer { close(fd) }
        let partial = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Half: "
        XCTAssertEqual(partial.withCString { Glibc.send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }, partial.utf8.count)
        let started = Date()
        var byte: UInt8 = 0
        let n = recv(fd, &byte, 1, 0)
        XCTAssertEqual(n, 0, "the server closes the connection (a -1 is this client's own 20 s timeout)")
        XCTAssertLessThan(Date().timeIntervalSince(started), 15)
        XCTAssertEqual(try server.request("GET", "/healthz").status, 200)

        var file = Inputs.document(["CORNER SHOP", "Milk 1.20", "TOTAL 1.20"])
        file += Data(repeating: 0x20, count: 1024 * 1024 - file.count - 16)  // JSON may end in spaces
        let boundary = "scanextract-test-boundary"
        var form = Data(
            "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"till.json\"\r\n\r\n".utf8)
        form += file + Data("\r\n--\(boundary)--\r\n".utf8)
        XCTAssertGreaterThan(form.count, 1024 * 1024)
        let r = try server.request(
            "POST", "/v1/extractions?async=true",
            headers: ["Content-Type": "multipart/form-data; boundary=\(boundary)"], body: form)
        XCTAssertEqual(r.status, 202, r.text)
    }

    /// What the HTTP parser refuses before any route sees it gets a problem too: a head over the decoder's limit is a
    /// 431, bytes that are no HTTP a 400 that says so (Hummingbird alone answers both with an empty 400).
    func testRequestsTheParserRefusesGetAProblem() throws {
        let server = try start(["--workers", "1"])
        func raw(_ request: Data) throws -> String {
            let fd = try HTTP.connection(port: server.port, timeout: 20)
            defer { close(fd) }
            _ = request.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            shutdown(fd, Int32(SHUT_WR))
            var out = Data(), chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = recv(fd, &chunk, chunk.count, 0)
                if n <= 0 { break }
                out += chunk[0..<n]
            }
            return String(decoding: out, as: UTF8.self)
        }
        let big = try raw(
            Data(
                "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: \(String(repeating: "a", count: 120_000))\r\n\r\n"
                    .utf8))
        XCTAssertTrue(big.hasPrefix("HTTP/1.1 431 Request Header Fields Too Large\r\n"), big)
        XCTAssertTrue(big.contains("Content-Type: application/problem+json"), big)
        XCTAssertTrue(big.contains("\"code\":\"header-too-large\""), big)
        let garbage = try raw(Data("BR\u{01}KEN / HTTP/1.1\r\n\r\n".utf8))
        XCTAssertTrue(garbage.hasPrefix("HTTP/1.1 400 Bad Request\r\n"), garbage)
        XCTAssertTrue(garbage.contains("\"code\":\"bad-request\""), garbage)
        XCTAssertEqual(try server.request("GET", "/healthz").status, 200, "the server goes on")
        // A client that keeps its side open and goes on sending after the answer is cut off, not held until the idle
        // timeout (60 s): after the answer and the end of the server's output, a send soon fails.
        let fd = try HTTP.connection(port: server.port, timeout: 20)
        defer { close(fd) }
        let head = Data(
            "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: \(String(repeating: "a", count: 120_000))\r\n".utf8)
        _ = head.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var answer = Data(), chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = recv(fd, &chunk, chunk.count, 0)
            if n <= 0 { break }
            answer += chunk[0..<n]
        }
        XCTAssertTrue(String(decoding: answer, as: UTF8.self).hasPrefix("HTTP/1.1 431 "))
        let more = [UInt8]("X-More: b\r\n".utf8)
        var refused = false
        for _ in 0..<150 where !refused {
            refused = Glibc.send(fd, more, more.count, Int32(MSG_NOSIGNAL)) < 0
            usleep(100_000)
        }
        XCTAssertTrue(refused, "the server closed the connection within 15 s")
    }

    func testKeysAreRequiredAndEachKeySeesOnlyItsOwnJobs() throws {
        let server = try start(["--workers", "1"], keys: "alpha-key,beta-key")
        let denied = try server.request("POST", "/v1/extractions", body: Inputs.document(["x"]))
        XCTAssertEqual(denied.status, 401)
        XCTAssertEqual(denied.json["code"] as? String, "unauthorized")
        XCTAssertEqual(denied.header("www-authenticate"), "Bearer")
        XCTAssertEqual(
            try server.request("POST", "/v1/extractions", key: "gamma-key", body: Inputs.document(["x"])).status, 401)
        let r = try server.request(
            "POST", "/v1/extractions?async=true", key: "alpha-key", body: Inputs.document(["Hello"]))
        XCTAssertEqual(r.status, 202, r.text)
        let id = try XCTUnwrap(r.json["id"] as? String)
        XCTAssertEqual(try server.request("GET", "/v1/jobs/\(id)", key: "alpha-key").status, 200)
        XCTAssertEqual(try server.request("GET", "/v1/jobs/\(id)", key: "beta-key").status, 404)
        XCTAssertEqual(try server.request("GET", "/v1/jobs/\(id)/result", key: "beta-key").status, 404)
        XCTAssertEqual(try server.request("DELETE", "/v1/jobs/\(id)", key: "beta-key").status, 404)
        XCTAssertEqual(try server.request("GET", "/v1/jobs/\(id)").status, 401)
        XCTAssertEqual(try server.waitFinished(id, key: "alpha-key")["status"] as? String, "succeeded")
        // The keys themselves are never stored.
        let db = try Data(contentsOf: URL(fileURLWithPath: server.dataDir + "/jobs.sqlite"))
        XCTAssertNil(db.range(of: Data("alpha-key".utf8)))
    }

    func testWithoutKeysOnlyLoopbackMayBeBound() throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: ServerProcess.binary)
        p.arguments = ["serve", "--host", "0.0.0.0", "--port", "0", "--data-dir", dir + "/data"]
        var env = ProcessInfo.processInfo.environment
        env["SCANEXTRACT_API_KEYS"] = nil
        p.environment = env
        let err = Pipe()
        p.standardError = err
        try p.run()
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 64, message)
        XCTAssertTrue(message.contains("loopback"), message)
        let zero = try runCommand(["serve", "--port", "0", "--data-dir", dir + "/data", "--ink-timeout", "0"])
        XCTAssertEqual(zero.status, 64, zero.err)
        XCTAssertTrue(zero.err.contains("--ink-timeout"), zero.err)
    }

    func testAFullQueueAnswers429WithRetryAfter() throws {
        let server = try start(["--workers", "0", "--max-queued", "1"])
        XCTAssertEqual(
            try server.request("POST", "/v1/extractions?async=true", body: Inputs.document(["first"])).status, 202)
        let full = try server.request("POST", "/v1/extractions?async=true", body: Inputs.document(["second"]))
        XCTAssertEqual(full.status, 429, full.text)
        XCTAssertEqual(full.json["code"] as? String, "queue-full")
        XCTAssertNotNil(full.header("retry-after").flatMap(Int.init))
    }

    /// Uploads that arrive together can't pass the limit: the store counts as it adds each job.
    func testUploadsRacingForTheLastPlacesDoNotPassTheQueueLimit() throws {
        let server = try start(["--workers", "0", "--max-queued", "3"])
        let statuses = LockedData(), port = server.port
        DispatchQueue.concurrentPerform(iterations: 16) { i in
            let r = try? HTTP.send(
                port: port, "POST", "/v1/extractions?async=true", body: Inputs.document(["racer \(i)"]))
            statuses.append(Data("\(r?.status ?? 0)\n".utf8))
        }
        let all = statuses.string.split(separator: "\n").map(String.init)
        XCTAssertEqual(all.count, 16)
        XCTAssertEqual(all.filter { $0 == "202" }.count, 3, all.joined(separator: " "))
        XCTAssertEqual(all.filter { $0 == "429" }.count, 13, all.joined(separator: " "))
    }

    func testARetriedUploadWithTheSameIdempotencyKeyIsTheSameJob() throws {
        let server = try start(["--workers", "0"])
        let body = Inputs.document(["Once only"])
        let first = try server.request(
            "POST", "/v1/extractions?async=true", headers: ["Idempotency-Key": "upload-7"], body: body)
        let again = try server.request(
            "POST", "/v1/extractions?async=true", headers: ["Idempotency-Key": "upload-7"], body: body)
        let other = try server.request(
            "POST", "/v1/extractions?async=true", headers: ["Idempotency-Key": "upload-8"], body: body)
        XCTAssertEqual(first.status, 202)
        XCTAssertEqual(again.status, 202)
        XCTAssertEqual(first.json["id"] as? String, again.json["id"] as? String)
        XCTAssertNotEqual(first.json["id"] as? String, other.json["id"] as? String)
        // No worker: the job stays queued, and its result says when to ask again.
        let early = try server.request("GET", "/v1/jobs/\(first.json["id"] as? String ?? "")/result")
        XCTAssertEqual(early.status, 409, early.text)
        XCTAssertEqual(early.header("retry-after"), "2")
        // A bad `wait` is a 400 for a batch as for a job, whatever the id.
        let badWait = try server.request("GET", "/v1/batches/unknown?wait=abc")
        XCTAssertEqual(badWait.status, 400, badWait.text)
        let uploads = try FileManager.default.contentsOfDirectory(atPath: server.dataDir + "/uploads")
        XCTAssertEqual(uploads.count, 2, "the retry's copy of the upload is not kept: \(uploads)")
        // The key sent again with other options or another file is a mistake, not a retry: refused, never the first
        // request's job handed back as this one's.
        let otherOptions = try server.request(
            "POST", "/v1/extractions?async=true&type=businessCard", headers: ["Idempotency-Key": "upload-7"], body: body)
        XCTAssertEqual(otherOptions.status, 422, otherOptions.text)
        XCTAssertEqual(otherOptions.json["code"] as? String, "idempotency-key-reused")
        XCTAssertTrue((otherOptions.json["detail"] as? String ?? "").contains("other options"), otherOptions.text)
        let otherFile = try server.request(
            "POST", "/v1/extractions?async=true", headers: ["Idempotency-Key": "upload-7"],
            body: Inputs.document(["Another file altogether"]))
        XCTAssertEqual(otherFile.json["code"] as? String, "idempotency-key-reused", otherFile.text)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: server.dataDir + "/uploads").count, 2,
            "a refused upload is not kept")
    }

    func testAWorkerKilledMidJobIsReplacedAndTheJobStillFinishes() throws {
        let hold = dir + "/hold"
        FileManager.default.createFile(atPath: hold, contents: nil)
        let server = try start(["--workers", "1"], environment: ["SCANEXTRACT_WORKER_HOLD": hold])
        let r = try server.request("POST", "/v1/extractions?async=true", body: Inputs.document(["Survives a crash"]))
        let id = try XCTUnwrap(r.json["id"] as? String)
        XCTAssertTrue(try server.waitStatus(id, "running"))
        // The worker holds the job (it waits on the file): kill it there.
        var workers: [Int32] = []
        for _ in 0..<500 where workers.isEmpty { workers = server.workerPIDs; usleep(20_000) }
        XCTAssertEqual(workers.count, 1, server.log)
        for pid in workers { kill(pid, SIGKILL) }
        try FileManager.default.removeItem(atPath: hold)
        let job = try server.waitFinished(id)
        XCTAssertEqual(job["status"] as? String, "succeeded", "\(job)\n\(server.log)")
        XCTAssertEqual(job["attempts"] as? Int, 2, "the first attempt died with its worker")
        XCTAssertFalse(server.workerPIDs.contains(workers[0]))
        XCTAssertTrue(
            try server.request("GET", "/metrics").text.contains(
                #"scanextract_worker_restarts_total{reason="crashed"} 1"#))
        // The server goes on.
        let next = try server.request("POST", "/v1/extractions", body: Inputs.document(["And the next one"]))
        XCTAssertEqual(next.status, 200, next.text)
    }

    /// Posts `body` to `path` as a job and waits for it, which must fail on its first attempt (`why` it is not
    /// retried) with `code` and a message holding `reason`. Returns the job's id.
    @discardableResult
    func failsOnce(
        _ server: ServerProcess, _ path: String, _ body: Data, code: String, saying reason: String,
        _ why: String, line: UInt = #line
    ) throws -> String {
        let r = try server.request("POST", path, body: body)
        XCTAssertEqual(r.status, 202, r.text, line: line)
        let id = try XCTUnwrap(r.json["id"] as? String, line: line)
        let job = try server.waitFinished(id)
        XCTAssertEqual(job["status"] as? String, "failed", "\(job)\n\(server.log)", line: line)
        XCTAssertEqual(job["attempts"] as? Int, 1, why, line: line)
        let error = job["error"] as? [String: Any]
        XCTAssertEqual(error?["code"] as? String, code, line: line)
        XCTAssertTrue((error?["message"] as? String ?? "").contains(reason), "\(job)", line: line)
        return id
    }

    /// A broken model fails the receipts that need it at once: no new worker, no second try, since every try would
    /// fail the same way. Documents that need no receipt model go on.
    func testABrokenModelFailsItsJobsWithoutRetries() throws {
        let broken = dir + "/fields.json"
        FileManager.default.createFile(atPath: broken, contents: Data("{\"trainedOn\": ".utf8))
        let server = try start(
            ["--workers", "1", "--max-attempts", "3"], environment: ["SCANEXTRACT_RECEIPT_MODEL": broken])
        try failsOnce(
            server, "/v1/extractions?async=true&type=receipt", Inputs.document(["CORNER CAFE", "TOTAL 12.50"]),
            code: "engine", saying: "the receipt field model \(broken) is not valid",
            "every try would fail the same way")
        let restarts = try server.request("GET", "/metrics").text.split(separator: "\n")
            .filter { $0.hasPrefix(#"scanextract_worker_restarts_total{reason="failed"}"#) }
        XCTAssertTrue(restarts.allSatisfy { $0.hasSuffix(" 0") }, "no worker was restarted: \(restarts)")
        let other = try server.request("POST", "/v1/extractions?type=other", body: Inputs.document(["Just a note"]))
        XCTAssertEqual(other.status, 200, other.text)
    }

    func testAJobThatHangsPastTheTimeoutFailsWithTimeout() throws {
        let hold = dir + "/hold"
        FileManager.default.createFile(atPath: hold, contents: nil)
        let server = try start(
            ["--workers", "1", "--job-timeout", "1", "--max-attempts", "2"],
            environment: ["SCANEXTRACT_WORKER_HOLD": hold])
        let r = try server.request("POST", "/v1/extractions?async=true", body: Inputs.document(["Never read"]))
        let id = try XCTUnwrap(r.json["id"] as? String)
        let job = try server.waitFinished(id)
        XCTAssertEqual(job["status"] as? String, "failed", "\(job)")
        XCTAssertEqual(job["attempts"] as? Int, 2)
        XCTAssertEqual((job["error"] as? [String: Any])?["code"] as? String, "timeout")
        let result = try server.request("GET", "/v1/jobs/\(id)/result")
        XCTAssertEqual(result.status, 500)
        XCTAssertEqual(result.json["code"] as? String, "timeout")
    }

    func testTheServersPageAndPixelLimitsCanBeLoweredByARequestNotRaised() throws {
        let server = try start(["--workers", "1", "--max-pages", "1"])
        let path = dir + "/two.pdf"
        Drawing.writePDF([[DrawnLine("Page one", x: 72, y: 100)], [DrawnLine("Page two", x: 72, y: 100)]], to: path)
        let twoPages = try Data(contentsOf: URL(fileURLWithPath: path))
        let r = try server.request("POST", "/v1/extractions", body: twoPages)
        XCTAssertEqual(r.status, 413, r.text)
        XCTAssertEqual(r.json["code"] as? String, "too-large")
        XCTAssertTrue((r.json["detail"] as? String ?? "").contains("2 pages, over the limit of 1 pages"), r.text)
        let raised = try server.request("POST", "/v1/extractions?max-pages=5", body: twoPages)
        XCTAssertEqual(raised.status, 400, raised.text)
        XCTAssertEqual(raised.json["code"] as? String, "invalid-option")
        let pixels = try server.request("POST", "/v1/extractions?max-pixels=999999999999", body: twoPages)
        XCTAssertEqual(pixels.status, 400, pixels.text)
        // Lowering is the client's choice.
        let lowered = try server.request(
            "POST", "/v1/extractions?max-pixels=100", body: Inputs.pdf("One page", in: dir))
        XCTAssertEqual(lowered.status, 200, lowered.text)
    }

    func testAWorkerPastItsMemoryLimitIsKilledAndTheJobFailsWithoutRetry() throws {
        // A real input that needs memory: an 8000 x 8000 page (64 MP, a small file: mostly
        // white) against a 150 MiB limit. Decoding it alone takes about 250 MB.
        let page = dir + "/poster.png"
        Drawing.writePNG(
            [DrawnLine("A very large page", x: 400, y: 400, size: 120)], width: 8000, height: 8000, to: page)
        let server = try start(["--workers", "1", "--worker-memory-mb", "150", "--max-attempts", "3"])
        let id = try failsOnce(
            server, "/v1/extractions?async=true", try Data(contentsOf: URL(fileURLWithPath: page)),
            code: "too-much-memory", saying: "150 MiB", "the same input would blow up again: not retried")
        let result = try server.request("GET", "/v1/jobs/\(id)/result")
        XCTAssertEqual(result.status, 413)
        XCTAssertEqual(result.json["code"] as? String, "too-much-memory")
        XCTAssertTrue(
            try server.request("GET", "/metrics").text.contains(
                #"scanextract_worker_restarts_total{reason="memory"} 1"#))
        // A new worker takes the next job.
        let next = try server.request("POST", "/v1/extractions", body: Inputs.document(["Small again"]))
        XCTAssertEqual(next.status, 200, next.text)
    }

    func testWorkersGiveUpPriorityToTheServer() throws {
        let server = try start(["--workers", "1", "--worker-nice", "7"])
        let r = try server.request("POST", "/v1/extractions", body: Inputs.document(["Niced"]))
        XCTAssertEqual(r.status, 200, r.text)
        let timing = try XCTUnwrap(r.header("server-timing"), "a sync answer says where its time went")
        for part in ["upload;dur=", "queue;dur=", "run;dur="] { XCTAssertTrue(timing.contains(part), timing) }
        let worker = try XCTUnwrap(server.workerPIDs.first, server.log)
        let serverNice = try XCTUnwrap(WorkerLimits.niceness(ofThread: server.process.processIdentifier))
        // Every thread of the worker, engines' included, runs 7 below the server's main thread.
        let threads = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(worker)/task").compactMap {
            Int32($0)
        }
        XCTAssertFalse(threads.isEmpty)
        for tid in threads {
            XCTAssertEqual(
                WorkerLimits.niceness(ofThread: tid), min(19, serverNice + 7), "thread \(tid) of worker \(worker)")
        }
    }

    func testQueuedJobsRunAfterARestart() throws {
        // No workers: the jobs stay queued in the store when the server stops.
        let first = try start(["--workers", "0"])
        var ids: [String] = []
        for i in 0..<3 {
            let r = try first.request("POST", "/v1/extractions?async=true", body: Inputs.document(["Job \(i)"]))
            XCTAssertEqual(r.status, 202)
            ids.append(try XCTUnwrap(r.json["id"] as? String))
        }
        XCTAssertEqual(first.stop(), 0, first.log)
        let second = try start(["--workers", "1"])
        for id in ids {
            XCTAssertEqual(try second.waitFinished(id)["status"] as? String, "succeeded")
            let result = try second.request("GET", "/v1/jobs/\(id)/result", headers: ["Accept": "text/plain"])
            XCTAssertTrue(result.text.hasPrefix("Job "), result.text)
        }
    }

    func testSIGTERMWithAJobRunningHandsItBack() throws {
        let hold = dir + "/hold"
        FileManager.default.createFile(atPath: hold, contents: nil)
        let first = try start(
            ["--workers", "1", "--shutdown-grace", "0.5"], environment: ["SCANEXTRACT_WORKER_HOLD": hold])
        let r = try first.request("POST", "/v1/extractions?async=true", body: Inputs.document(["Handed back"]))
        let id = try XCTUnwrap(r.json["id"] as? String)
        XCTAssertTrue(try first.waitStatus(id, "running"))
        XCTAssertEqual(first.stop(), 0, first.log)
        try FileManager.default.removeItem(atPath: hold)
        let second = try start(["--workers", "1"])
        let job = try second.waitFinished(id)
        XCTAssertEqual(job["status"] as? String, "succeeded", "\(job)")
        XCTAssertEqual(job["attempts"] as? Int, 1, "a hand-back is not an attempt")
    }

    // MARK: POST /v1/ink

    func testInkIsReadInAWorkerAndAnsweredAsTheCommandLineAnswersIt() throws {
        // The first ink request loads the word list; on a loaded machine that passed the
        // default 30 s, so these tests give it the client's margin.
        let server = try start(["--workers", "1", "--ink-timeout", "100"])
        let word = try Inputs.ink("garden")
        let inkFile = dir + "/garden.json"
        try word.write(to: URL(fileURLWithPath: inkFile))
        let r = try server.request(
            "POST", "/v1/ink?candidates=3", headers: ["Content-Type": "application/json"], body: word)
        XCTAssertEqual(r.status, 200, r.text + server.log)
        XCTAssertEqual(r.header("content-type"), "application/json")
        let candidates = r.json["candidates"] as? [[String: Any]] ?? []
        XCTAssertFalse(candidates.isEmpty, r.text)
        XCTAssertLessThanOrEqual(candidates.count, 3)
        XCTAssertTrue(candidates.contains { ($0["text"] as? String)?.lowercased() == "garden" }, r.text)
        let cli = try runCommand(["ink", "--candidates", "3", inkFile])
        XCTAssertEqual(cli.status, 0, cli.err)
        // The same JSON as `scanextract ink`, which also names the file it read (`source`, the last key).
        func named(_ body: String, _ file: String) -> String { body.dropLast() + ",\"source\":{\"file\":\"\(file)\"}}" }
        XCTAssertEqual(named(r.text, inkFile), cli.out.trimmingCharacters(in: .newlines))
        // The worker kept its recognizer; another request, other options, same worker.
        let workers = server.workerPIDs
        let digits = try server.request("POST", "/v1/ink?charset=0123456789&language=en-GB", body: try Inputs.ink("42"))
        XCTAssertEqual(digits.status, 200, digits.text)
        XCTAssertEqual(digits.json["language"] as? String, "en-GB")
        XCTAssertTrue(
            (digits.json["candidates"] as? [[String: Any]] ?? []).allSatisfy {
                ($0["text"] as? String)?.allSatisfy(\.isNumber) ?? false
            }, digits.text)
        XCTAssertEqual(server.workerPIDs, workers)
        // Shapes, as `scanextract ink --shapes`.
        let rectangle = try Inputs.rectangleInk()
        try rectangle.write(to: URL(fileURLWithPath: dir + "/rectangle.json"))
        let shapes = try server.request("POST", "/v1/ink?shapes=true", body: rectangle)
        XCTAssertEqual(shapes.status, 200, shapes.text)
        XCTAssertEqual(
            (shapes.json["shapes"] as? [[String: Any]])?.first?["shape"] as? String, "rectangle", shapes.text)
        let cliShapes = try runCommand(["ink", "--shapes", dir + "/rectangle.json"])
        XCTAssertEqual(named(shapes.text, dir + "/rectangle.json"), cliShapes.out.trimmingCharacters(in: .newlines))
    }

    func testBadInkIsA400NamingWhatIsWrongAsTheCommandLineDoes() throws {
        let server = try start(["--workers", "1"])
        func expect(_ r: HTTPResponse, _ code: String, _ detail: String, line: UInt = #line) {
            XCTAssertEqual(r.status, 400, r.text, line: line)
            XCTAssertEqual(r.header("content-type"), "application/problem+json", line: line)
            XCTAssertEqual(r.json["code"] as? String, code, r.text, line: line)
            XCTAssertEqual(r.json["detail"] as? String, detail, r.text, line: line)
        }
        let noPoints = Data(#"{"strokes": [{"pts": [{"x": 1, "y": 2}]}]}"#.utf8)
        expect(try server.request("POST", "/v1/ink", body: noPoints), "corrupt", "strokes[0].points is missing")
        let bad = dir + "/bad.json"
        try noPoints.write(to: URL(fileURLWithPath: bad))
        let cli = try runCommand(["ink", bad])
        XCTAssertEqual(cli.status, 2)
        XCTAssertTrue(cli.err.contains("strokes[0].points is missing [corrupt]"), cli.err)
        expect(
            try server.request("POST", "/v1/ink", body: Data(#"{"strokes": []}"#.utf8)), "corrupt",
            "the ink has no strokes")
        expect(
            try server.request("POST", "/v1/ink?shapes=true", body: Data(#"{"strokes": "none"}"#.utf8)),
            "corrupt", "strokes should be an array")
        expect(try server.request("POST", "/v1/ink", body: Data()), "empty", "the body is empty: send an Ink document")
        expect(
            try server.request("POST", "/v1/ink", body: Data("{".utf8)), "corrupt",
            "not valid JSON (The given data was not valid JSON.)")
        // Options are checked before anything runs, with the command line's words.
        let word = try Inputs.ink("tea")
        expect(
            try server.request("POST", "/v1/ink?candidates=0", body: word), "invalid-option",
            "--candidates must be between 1 and 100")
        expect(
            try server.request("POST", "/v1/ink?charset=", body: word), "invalid-option",
            "--charset needs at least one character")
        expect(
            try server.request("POST", "/v1/ink?engine=tesseract", body: word), "invalid-option",
            "unknown option 'engine'")
        XCTAssertEqual(
            try server.request("POST", "/v1/ink?language=xx-XX", body: word).json["code"] as? String, "invalid-option")
        // The worker is still there for good ink.
        XCTAssertEqual(try server.request("POST", "/v1/ink", body: word).status, 200)
    }

    func testInkAndMetricsNeedAKeyWhenTheServerHasKeys() throws {
        let server = try start(["--workers", "1", "--ink-timeout", "100"], keys: "alpha-key")
        let word = try Inputs.ink("tea")
        let denied = try server.request("POST", "/v1/ink", body: word)
        XCTAssertEqual(denied.status, 401, denied.text)
        XCTAssertEqual(denied.json["code"] as? String, "unauthorized")
        XCTAssertEqual(try server.request("POST", "/v1/ink", key: "beta-key", body: word).status, 401)
        XCTAssertEqual(try server.request("POST", "/v1/ink", key: "alpha-key", body: word).status, 200)
        XCTAssertEqual(try server.request("GET", "/metrics").status, 401)
        XCTAssertEqual(try server.request("GET", "/metrics", key: "alpha-key").status, 200)
        XCTAssertEqual(try server.request("GET", "/healthz").status, 200, "health stays open")
    }

    func testInkWithoutWorkersIs503() throws {
        let server = try start(["--workers", "0"])
        let r = try server.request("POST", "/v1/ink", body: try Inputs.ink("tea"))
        XCTAssertEqual(r.status, 503, r.text)
        XCTAssertEqual(r.json["code"] as? String, "no-workers")
    }

    // MARK: GET /metrics

    func testMetricsCountRequestsJobsAndTheQueue() throws {
        let server = try start(["--workers", "1", "--ink-timeout", "100"])
        XCTAssertEqual(try server.request("GET", "/healthz").status, 200)
        XCTAssertEqual(try server.request("GET", "/no-such-route").status, 404)
        let done = try server.request("POST", "/v1/extractions", body: Inputs.document(["Counted"]))
        XCTAssertEqual(done.status, 200, done.text)
        XCTAssertEqual(try server.request("GET", "/v1/jobs/00000000-0000-0000-0000-000000000000").status, 404)
        XCTAssertEqual(try server.request("POST", "/v1/ink", body: try Inputs.ink("tea")).status, 200)
        let r = try server.request("GET", "/metrics")
        XCTAssertEqual(r.status, 200, r.text)
        XCTAssertEqual(r.header("content-type"), "text/plain; version=0.0.4; charset=utf-8")
        let lines = Set(r.text.split(separator: "\n").map(String.init))
        for expected in [
            #"scanextract_http_requests_total{method="GET",route="/healthz",status="200"} 1"#,
            #"scanextract_http_requests_total{method="GET",route="NotFound",status="404"} 1"#,
            #"scanextract_http_requests_total{method="POST",route="/v1/extractions",status="200"} 1"#,
            #"scanextract_http_requests_total{method="GET",route="/v1/jobs/{id}",status="404"} 1"#,
            #"scanextract_http_requests_total{method="POST",route="/v1/ink",status="200"} 1"#,
            #"scanextract_jobs{state="succeeded"} 1"#,
            #"scanextract_jobs{state="queued"} 0"#,
            "scanextract_queue_depth 0",
            "scanextract_job_store_up 1",
            "scanextract_job_duration_seconds_count 1",
            #"scanextract_job_duration_seconds_bucket{le="+Inf"} 1"#,
            #"scanextract_worker_restarts_total{reason="crashed"} 0"#,
            "# TYPE scanextract_job_duration_seconds histogram"
        ] {
            XCTAssertTrue(lines.contains(expected), "no '\(expected)' in:\n\(r.text)")
        }
        // Every sample line is `name{labels} value`, with a number for the value.
        for line in lines where !line.hasPrefix("#") {
            XCTAssertNotNil(line.split(separator: " ").last.flatMap { Double($0) }, line)
        }
        // The metrics request itself is counted for the next scrape.
        XCTAssertTrue(
            try server.request("GET", "/metrics").text
                .contains(#"scanextract_http_requests_total{method="GET",route="/metrics",status="200"} 1"#))
    }

    func testQueuedJobsShowInTheQueueDepth() throws {
        let server = try start(["--workers", "0"])
        XCTAssertEqual(
            try server.request("POST", "/v1/extractions?async=true", body: Inputs.document(["Waiting"])).status, 202)
        let text = try server.request("GET", "/metrics").text
        XCTAssertTrue(text.contains("scanextract_queue_depth 1\n"), text)
        XCTAssertTrue(text.contains(#"scanextract_jobs{state="queued"} 1"#), text)
    }

    func testKeyMatchingAndHashedKeysFile() throws {
        // The owner is the key's SHA-256 in hex (FIPS 180-4 test vector for "abc").
        XCTAssertEqual(
            APIKeys(keys: ["abc"]).owner(authorization: "Bearer abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let file = dir + "/keys"
        try """
        # the plain key 'abc' is stored only as its hash
        sha256:BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD
        plain-key
        """.write(toFile: file, atomically: true, encoding: .utf8)
        let loaded = try APIKeys.load(environment: "from-env", file: file)
        for key in ["abc", "plain-key", "from-env"] {
            XCTAssertNotNil(loaded.owner(authorization: "Bearer \(key)"), key)
        }
        XCTAssertNil(
            loaded.owner(
                authorization: "Bearer sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"))
        try "sha256:abc\n".write(toFile: file, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try APIKeys.load(environment: nil, file: file)) { error in
            XCTAssertEqual("\(error)", "line 1: 'sha256:' must be followed by 64 hexadecimal digits")
        }
        let keys = APIKeys(keys: ["one", "two"])
        XCTAssertNotNil(keys.owner(authorization: "Bearer two"))
        XCTAssertNotEqual(keys.owner(authorization: "Bearer one"), keys.owner(authorization: "Bearer two"))
        XCTAssertNil(keys.owner(authorization: "Bearer three"))
        XCTAssertNil(keys.owner(authorization: nil))
        XCTAssertEqual(APIKeys(keys: []).owner(authorization: nil), "")
    }
}
