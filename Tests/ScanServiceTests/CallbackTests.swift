import Crypto
import Foundation
import TestSupport
import XCTest

/// `callbackUrl`: a real receiver on 127.0.0.1 (a socket in this process) gets the signed POSTs
/// of a real `scanextract serve`.
final class CallbackTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = Drawing.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func start(_ arguments: [String], environment: [String: String] = [:]) throws -> ServerProcess {
        try ServerProcess(dataDir: dir + "/data", arguments: arguments, environment: environment)
    }

    /// Checks the signature as a receiver would: HMAC-SHA256 over "t." + body, keyed with the secret.
    func assertSigned(
        _ request: CallbackReceiver.Received, secret: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        let header = request.headers["scanextract-signature"] ?? ""
        var fields: [String: String] = [:]
        for piece in header.split(separator: ",") {
            let pair = piece.split(separator: "=", maxSplits: 1).map(String.init)
            if pair.count == 2 { fields[pair[0]] = pair[1] }
        }
        guard let t = fields["t"], let timestamp = Int(t), let v1 = fields["v1"] else {
            return XCTFail("no signature in '\(header)'", file: file, line: line)
        }
        XCTAssertLessThan(
            abs(Double(timestamp) - Date().timeIntervalSince1970), 300, "a fresh timestamp", file: file, line: line)
        func mac(_ key: String, _ body: Data) -> String {
            HMAC<Crypto.SHA256>.authenticationCode(
                for: Data("\(t).".utf8) + body, using: SymmetricKey(data: Data(key.utf8))
            )
            .map { String(format: "%02x", $0) }.joined()
        }
        XCTAssertEqual(v1, mac(secret, request.body), "signed over the timestamp and the body", file: file, line: line)
        XCTAssertNotEqual(v1, mac(secret + "x", request.body), file: file, line: line)
        XCTAssertNotEqual(
            v1, mac(secret, request.body + Data(" ".utf8)), "a changed body fails", file: file, line: line)
    }

    func testAJobsCallbackIsSignedAndRetriedUntilDelivered() throws {
        let receiver = try CallbackReceiver(answers: [500, 200])
        defer { receiver.stop() }
        let server = try start(["--workers", "1", "--callback-secret", "s3cret", "--allow-private-callbacks",
                                "--callback-backoff", "0.2"])
        let hook = "http://127.0.0.1:\(receiver.port)/hooks/scan"
        let r = try server.request(
            "POST", "/v1/extractions?callbackUrl=\(hook)", body: Inputs.document(["Hello callback"]))
        XCTAssertEqual(r.status, 202, "a callback makes the request asynchronous: " + r.text)
        let id = try XCTUnwrap(r.json["id"] as? String)
        let got = receiver.wait(for: 2, seconds: 60)
        XCTAssertEqual(got.count, 2, "one failed delivery (500), then one retried: " + server.log)
        guard got.count == 2 else { return }
        for request in got {
            XCTAssertEqual(request.path, "/hooks/scan")
            XCTAssertEqual(request.headers["content-type"], "application/json")
            XCTAssertEqual(request.headers["scanextract-event"], "job.finished")
            assertSigned(request, secret: "s3cret")
        }
        XCTAssertEqual(
            got[0].headers["scanextract-delivery"], got[1].headers["scanextract-delivery"], "the same delivery, retried"
        )
        let job = (try? JSONSerialization.jsonObject(with: got[1].body)) as? [String: Any] ?? [:]
        XCTAssertEqual(job["id"] as? String, id)
        XCTAssertEqual(job["status"] as? String, "succeeded")
        XCTAssertEqual(job["result"] as? String, "/v1/jobs/\(id)/result")
        // Delivered: no more POSTs.
        Thread.sleep(forTimeInterval: 1.5)
        XCTAssertEqual(receiver.received.count, 2)
    }

    func testABatchCallbackComesOnceEveryJobHasEnded() throws {
        let receiver = try CallbackReceiver(answers: [])
        defer { receiver.stop() }
        let server = try start(["--workers", "1", "--allow-private-callbacks"],
                               environment: ["SCANEXTRACT_CALLBACK_SECRET": "from-the-environment"])
        let body = BatchTests.form([("a.json", BatchTests.receipt("A", "Tea", "1.00")),
                                    ("b.json", BatchTests.receipt("B", "Jam", "3.00"))])
        let r = try server.request("POST", "/v1/batches?callbackUrl=http://127.0.0.1:\(receiver.port)/b",
                                   headers: BatchTests.multipart, body: body)
        XCTAssertEqual(r.status, 202, r.text)
        let id = try XCTUnwrap(r.json["id"] as? String)
        let got = receiver.wait(for: 1, seconds: 60)
        XCTAssertEqual(got.count, 1, server.log)
        guard let request = got.first else { return }
        XCTAssertEqual(request.headers["scanextract-event"], "batch.finished")
        assertSigned(request, secret: "from-the-environment")
        let batch = (try? JSONSerialization.jsonObject(with: request.body)) as? [String: Any] ?? [:]
        XCTAssertEqual(batch["id"] as? String, id)
        XCTAssertEqual(batch["status"] as? String, "finished")
        XCTAssertEqual((batch["counts"] as? [String: Int])?["succeeded"], 2, "sent once both jobs had ended")
        Thread.sleep(forTimeInterval: 1.5)
        XCTAssertEqual(receiver.received.count, 1, "once")
    }

    func testACallbackNotYetDeliveredSurvivesARestart() throws {
        let receiver = try CallbackReceiver(answers: [503])
        defer { receiver.stop() }
        let arguments = [
            "--workers", "1", "--callback-secret", "k", "--allow-private-callbacks", "--callback-backoff", "5"
        ]
        var server = try start(arguments)
        let r = try server.request("POST", "/v1/extractions?callbackUrl=http://127.0.0.1:\(receiver.port)/",
                                   body: Inputs.document(["Kept"]))
        XCTAssertEqual(r.status, 202, r.text)
        XCTAssertEqual(receiver.wait(for: 1, seconds: 60).count, 1, "the first delivery, refused with 503")
        server.stop()
        XCTAssertEqual(receiver.received.count, 1, "the retry is not due before the server stops")
        server = try start(arguments)
        let got = receiver.wait(for: 2, seconds: 60)
        XCTAssertEqual(got.count, 2, "the retry, made by the restarted server: " + server.log)
        XCTAssertEqual(
            got.last.flatMap { (try? JSONSerialization.jsonObject(with: $0.body)) as? [String: Any] }?["id"] as? String,
            r.json["id"] as? String)
    }

    /// A request sent again under its Idempotency-Key adds the callback its first sending did not (it asked for
    /// none, or its server stopped between the upload and the callback); one naming another URL is a 422.
    func testARetryUnderItsIdempotencyKeyAddsTheCallbackTheFirstSendingDidNot() throws {
        let receiver = try CallbackReceiver(answers: [200])
        defer { receiver.stop() }
        let server = try start(["--workers", "1", "--callback-secret", "k", "--allow-private-callbacks"])
        let body = try Inputs.document(["Announce me"])
        let first = try server.request(
            "POST", "/v1/extractions", headers: ["Idempotency-Key": "once", "Prefer": "respond-async"], body: body)
        XCTAssertEqual(first.status, 202, first.text)
        let hook = "http://127.0.0.1:\(receiver.port)/retried"
        let again = try server.request(
            "POST", "/v1/extractions?callbackUrl=\(hook)", headers: ["Idempotency-Key": "once"], body: body)
        XCTAssertEqual(again.status, 202, again.text)
        XCTAssertEqual(again.json["id"] as? String, first.json["id"] as? String, "the same job")
        let elsewhere = try server.request(
            "POST", "/v1/extractions?callbackUrl=http://127.0.0.1:\(receiver.port)/other",
            headers: ["Idempotency-Key": "once"], body: body)
        XCTAssertEqual(elsewhere.status, 422, elsewhere.text)
        XCTAssertEqual(elsewhere.json["code"] as? String, "idempotency-key-reused")
        let got = receiver.wait(for: 1, seconds: 60)
        XCTAssertEqual(got.map(\.path), ["/retried"], server.log)
    }

    func testCallbackURLsAreChecked() throws {
        let server = try start(["--workers", "0", "--callback-secret", "k"])
        func refused(_ url: String, _ words: String, line: UInt = #line) throws {
            let r = try server.request("POST", "/v1/extractions?callbackUrl=\(url)", body: Inputs.document(["x"]))
            XCTAssertEqual(r.status, 400, r.text, line: line)
            XCTAssertEqual(r.json["code"] as? String, "invalid-option", line: line)
            XCTAssertTrue((r.json["detail"] as? String ?? "").contains(words), r.text, line: line)
        }
        try refused("ftp://example.com/x", "http or https")
        try refused("not-a-url", "http or https")
        try refused("http://127.0.0.1:9/x", "loopback")
        try refused("http://localhost/x", "loopback")
        try refused("http://10.1.2.3/x", "private")
        try refused("http://192.168.0.10/x", "private")
        try refused("http://169.254.169.254/latest/meta-data", "link-local")
        try refused("http://[::1]/x", "loopback")
        try refused("http://user:pw@example.com/x", "user name")
        let batch = try server.request(
            "POST", "/v1/batches?callbackUrl=http://127.0.0.1/x", headers: BatchTests.multipart,
            body: BatchTests.form([("a.json", Inputs.document(["x"]))]))
        XCTAssertEqual(batch.status, 400, batch.text)
        server.stop()

        let unsigned = try start(["--workers", "0", "--allow-private-callbacks"])
        let r = try unsigned.request(
            "POST", "/v1/extractions?callbackUrl=http://127.0.0.1:9/x", body: Inputs.document(["x"]))
        XCTAssertEqual(r.status, 400)
        XCTAssertTrue((r.json["detail"] as? String ?? "").contains("--callback-secret"), r.text)
    }
}

/// A small HTTP/1.1 server on 127.0.0.1 that records every request and answers each with the
/// next status of `answers` (200 once they run out), then closes the connection.
final class CallbackReceiver: @unchecked Sendable {
    struct Received {
        var path: String
        var headers: [String: String]
        var body: Data
    }

    let port: Int
    private let fd: Int32
    private let lock = NSLock()
    private var requests: [Received] = []
    private var answers: [Int]
    private var stopped = false

    init(answers: [Int]) throws {
        self.answers = answers
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = 0
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(listener, 16) == 0 else { close(listener); throw POSIXError(.EADDRINUSE) }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        fd = listener
        port = Int(UInt16(bigEndian: actual.sin_port))
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    var received: [Received] { lock.lock(); defer { lock.unlock() }; return requests }

    /// The requests once there are `count`, or those there are after `seconds`.
    func wait(for count: Int, seconds: Double) -> [Received] {
        let deadline = Date().addingTimeInterval(seconds)
        while received.count < count && Date() < deadline { usleep(50_000) }
        return received
    }

    func stop() {
        lock.lock()
        stopped = true
        lock.unlock()
        shutdown(fd, Int32(SHUT_RDWR))
        close(fd)
    }

    private func acceptLoop() {
        while true {
            let client = accept(fd, nil, nil)
            if client < 0 { return }
            handle(client)
            close(client)
            lock.lock()
            let done = stopped
            lock.unlock()
            if done { return }
        }
    }

    private func handle(_ client: Int32) {
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        var headerEnd: Range<Data.Index>?
        var expected = Int.max
        while data.count < expected {
            let n = recv(client, &buffer, buffer.count, 0)
            if n <= 0 { break }
            data.append(contentsOf: buffer[0..<n])
            if headerEnd == nil, let end = data.range(of: Data("\r\n\r\n".utf8)) {
                headerEnd = end
                let head = String(decoding: data[..<end.lowerBound], as: UTF8.self).lowercased()
                let length = head.components(separatedBy: "\r\n").first { $0.hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                expected = end.upperBound + length
            }
        }
        guard let end = headerEnd else { return }
        let lines = String(decoding: data[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        let path = lines[0].split(separator: " ").dropFirst().first.map(String.init) ?? ""
        lock.lock()
        requests.append(Received(path: path, headers: headers, body: Data(data[end.upperBound...])))
        let status = answers.isEmpty ? 200 : answers.removeFirst()
        lock.unlock()
        let response = "HTTP/1.1 \(status) X\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        _ = response.withCString { send(client, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
    }
}
