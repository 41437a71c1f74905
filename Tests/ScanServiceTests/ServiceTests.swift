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

    func start(_ arguments: [String] = [], keys: String? = nil, environment: [String: String] = [:],
               data: String = "data") throws -> ServerProcess {
        var env = environment
        if let keys { env["SCANEXTRACT_API_KEYS"] = keys }
        return try ServerProcess(dataDir: dir + "/" + data, arguments: arguments, environment: env)
    }

    func testSyncExtractionAnswersTheDocumentAsTheCommandLineDoes() throws {
        let server = try start(["--workers", "1"])
        let r = try server.request("POST", "/v1/extractions?type=receipt&country=GB",
                                   headers: ["Content-Type": "application/json",
                                             "Content-Disposition": "attachment; filename=\"till.json\""],
                                   body: Inputs.document(["CORNER SHOP", "Milk 1.20", "TOTAL 1.20", "Call 0131 496 0321"]))
        XCTAssertEqual(r.status, 200, r.text + server.log)
        XCTAssertEqual(r.header("content-type"), "application/json")
        let doc = r.json
        XCTAssertNotNil(doc["schemaVersion"])
        XCTAssertEqual((doc["documentType"] as? [String: Any])?["label"] as? String, "receipt", "type=receipt was applied")
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
        XCTAssertEqual(try server.request("GET", location, headers: ["Accept": "image/png"]).status, 406)
    }

    func testAMultipartUploadTakesItsFilePart() throws {
        let server = try start(["--workers", "1"])
        let boundary = "----scanextract-test-7d1"
        var body = Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nignored\r\n".utf8)
        body += Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"dir/card.json\"\r\n".utf8)
        body += Data("Content-Type: application/json\r\n\r\n".utf8) + Inputs.document(["From a form"])
        body += Data("\r\n--\(boundary)--\r\n".utf8)
        let r = try server.request("POST", "/v1/extractions",
                                   headers: ["Content-Type": "multipart/form-data; boundary=\(boundary)"], body: body)
        XCTAssertEqual(r.status, 200, r.text)
        XCTAssertEqual(r.json["source"] as? String, "card.json")
        let noFile = try server.request("POST", "/v1/extractions", headers: ["Content-Type": "multipart/form-data; boundary=x"],
                                        body: Data("--x\r\nContent-Disposition: form-data; name=\"other\"\r\n\r\nv\r\n--x--\r\n".utf8))
        XCTAssertEqual(noFile.status, 400, noFile.text)
        XCTAssertEqual(noFile.json["code"] as? String, "bad-multipart")
    }

    func testAPDFRunsThroughAWorkerAsync() throws {
        let server = try start(["--workers", "1"])
        let r = try server.request("POST", "/v1/extractions", headers: ["Content-Type": "application/pdf", "Prefer": "respond-async"],
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
        expect(try server.request("POST", "/v1/extractions", headers: ["Content-Type": "image/png"],
                                  body: Data("just some notes\nin a text file\n".utf8)), 415, "unsupported-type")
        expect(try server.request("POST", "/v1/extractions?engine=abacus", body: Inputs.document(["x"])), 400, "invalid-option")
        expect(try server.request("POST", "/v1/extractions?no-such-option=1", body: Inputs.document(["x"])), 400, "invalid-option")
        expect(try server.request("POST", "/v1/extractions", body: Data()), 422, "empty")
        // Over the limit: told by Content-Length before reading, and counted while streaming.
        let big = Data(repeating: 0x41, count: 1024 * 1024 + 10)
        expect(try server.request("POST", "/v1/extractions", headers: ["Content-Length": "\(big.count)"], body: Data()), 413, "too-large")
        expect(try server.request("POST", "/v1/extractions",
                                  chunks: stride(from: 0, to: big.count, by: 64 * 1024).map { big[$0..<min($0 + 64 * 1024, big.count)] }),
               413, "too-large")
        // A PDF that is cut short: accepted (it says PDF), then the worker finds it corrupt.
        expect(try server.request("POST", "/v1/extractions", body: Data("%PDF-1.4 truncated".utf8)), 422, "corrupt")
        expect(try server.request("GET", "/v1/jobs/00000000-0000-0000-0000-000000000000"), 404, "not-found")
        XCTAssertEqual(try server.request("GET", "/healthz").status, 200)
        XCTAssertEqual(try server.request("GET", "/readyz").status, 200)
        let spec = try server.request("GET", "/openapi.yaml")
        XCTAssertEqual(spec.status, 200)
        XCTAssertTrue(spec.text.hasPrefix("openapi: 3.1"), spec.text)
        // Nothing left behind by the refused uploads.
        let uploads = try FileManager.default.contentsOfDirectory(atPath: server.dataDir + "/uploads")
        XCTAssertEqual(uploads.filter { $0.hasPrefix("incoming-") }, [])
    }

    func testKeysAreRequiredAndEachKeySeesOnlyItsOwnJobs() throws {
        let server = try start(["--workers", "1"], keys: "alpha-key,beta-key")
        let denied = try server.request("POST", "/v1/extractions", body: Inputs.document(["x"]))
        XCTAssertEqual(denied.status, 401)
        XCTAssertEqual(denied.json["code"] as? String, "unauthorized")
        XCTAssertEqual(denied.header("www-authenticate"), "Bearer")
        XCTAssertEqual(try server.request("POST", "/v1/extractions", key: "gamma-key", body: Inputs.document(["x"])).status, 401)
        let r = try server.request("POST", "/v1/extractions?async=true", key: "alpha-key", body: Inputs.document(["Hello"]))
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
    }

    func testAFullQueueAnswers429WithRetryAfter() throws {
        let server = try start(["--workers", "0", "--max-queued", "1"])
        XCTAssertEqual(try server.request("POST", "/v1/extractions?async=true", body: Inputs.document(["first"])).status, 202)
        let full = try server.request("POST", "/v1/extractions?async=true", body: Inputs.document(["second"]))
        XCTAssertEqual(full.status, 429, full.text)
        XCTAssertEqual(full.json["code"] as? String, "queue-full")
        XCTAssertNotNil(full.header("retry-after").flatMap(Int.init))
    }

    func testARetriedUploadWithTheSameIdempotencyKeyIsTheSameJob() throws {
        let server = try start(["--workers", "0"])
        let body = Inputs.document(["Once only"])
        let first = try server.request("POST", "/v1/extractions?async=true", headers: ["Idempotency-Key": "upload-7"], body: body)
        let again = try server.request("POST", "/v1/extractions?async=true", headers: ["Idempotency-Key": "upload-7"], body: body)
        let other = try server.request("POST", "/v1/extractions?async=true", headers: ["Idempotency-Key": "upload-8"], body: body)
        XCTAssertEqual(first.status, 202)
        XCTAssertEqual(again.status, 202)
        XCTAssertEqual(first.json["id"] as? String, again.json["id"] as? String)
        XCTAssertNotEqual(first.json["id"] as? String, other.json["id"] as? String)
        let uploads = try FileManager.default.contentsOfDirectory(atPath: server.dataDir + "/uploads")
        XCTAssertEqual(uploads.count, 2, "the retry's copy of the upload is not kept: \(uploads)")
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
        // The server goes on.
        let next = try server.request("POST", "/v1/extractions", body: Inputs.document(["And the next one"]))
        XCTAssertEqual(next.status, 200, next.text)
    }

    func testAJobThatHangsPastTheTimeoutFailsWithTimeout() throws {
        let hold = dir + "/hold"
        FileManager.default.createFile(atPath: hold, contents: nil)
        let server = try start(["--workers", "1", "--job-timeout", "1", "--max-attempts", "2"],
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
        let first = try start(["--workers", "1", "--shutdown-grace", "0.5"], environment: ["SCANEXTRACT_WORKER_HOLD": hold])
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

    func testSHA256AndKeyMatching() {
        XCTAssertEqual(SHA256.hex(SHA256.hash(Array("abc".utf8))),
                       "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(SHA256.hex(SHA256.hash([])), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        let long = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
        XCTAssertEqual(SHA256.hex(SHA256.hash(long)), "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        let keys = APIKeys(keys: ["one", "two"])
        XCTAssertNotNil(keys.owner(authorization: "Bearer two"))
        XCTAssertNotEqual(keys.owner(authorization: "Bearer one"), keys.owner(authorization: "Bearer two"))
        XCTAssertNil(keys.owner(authorization: "Bearer three"))
        XCTAssertNil(keys.owner(authorization: nil))
        XCTAssertEqual(APIKeys(keys: []).owner(authorization: nil), "")
    }
}
