import Foundation
import ScanInk
import ScanModel
import TestSupport
import XCTest

/// A minimal HTTP/1.1 client over a loopback socket: one request per connection
/// (`Connection: close`), the whole response read to the end. No redirects, no
/// `Expect: 100-continue`, nothing hidden, so a test sees exactly what the server sent.
struct HTTPResponse {
    var status: Int
    var headers: [String: String]
    var body: Data

    func header(_ name: String) -> String? { headers[name.lowercased()] }
    var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
    var text: String { String(decoding: body, as: UTF8.self) }
}

enum HTTP {
    /// `body` is sent with Content-Length unless `chunks` is given (then chunked).
    static func send(
        port: Int, _ method: String, _ path: String, headers: [String: String] = [:],
        body: Data? = nil, chunks: [Data]? = nil
    ) throws -> HTTPResponse {
        let fd = try connection(port: port)
        defer { close(fd) }
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if chunks != nil {
            head += "Transfer-Encoding: chunked\r\n"
        } else if let body {
            if headers.keys.contains(where: { $0.lowercased() == "content-length" }) == false {
                head += "Content-Length: \(body.count)\r\n"
            }
        } else if method == "POST" {
            head += "Content-Length: 0\r\n"
        }
        head += "\r\n"
        var out = Data(head.utf8)
        if let chunks {
            for chunk in chunks where !chunk.isEmpty {
                out += Data(String(chunk.count, radix: 16).utf8) + Data("\r\n".utf8) + chunk + Data("\r\n".utf8)
            }
            out += Data("0\r\n\r\n".utf8)
        } else if let body {
            out += body
        }
        // A server may answer (413) before reading all of the body, and then read no more of it:
        // the body is written from another thread while this one reads the answer, which ends
        // once its Content-Length is in (or the server closes). A failed write is not an error here.
        let written = DispatchSemaphore(value: 0)
        let payload = out
        DispatchQueue.global().async {
            payload.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let n = Glibc.send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                    if n <= 0 { break }
                    offset += n
                }
            }
            written.signal()
        }
        var response = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !isComplete(response) {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            response.append(contentsOf: buffer[0..<n])
        }
        shutdown(fd, Int32(SHUT_RDWR))
        written.wait()
        return try parse(response)
    }

    /// A socket connected to the server on loopback; reads time out after `timeout` seconds.
    static func connection(port: Int, timeout seconds: Int = 120) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { close(fd); throw POSIXError(.ECONNREFUSED) }
        return fd
    }

    /// Whether `data` holds a whole response with a Content-Length (other responses end when the server closes).
    static func isComplete(_ data: Data) -> Bool {
        guard let end = data.range(of: Data("\r\n\r\n".utf8)) else { return false }
        let head = String(decoding: data[..<end.lowerBound], as: UTF8.self).lowercased()
        guard let line = head.components(separatedBy: "\r\n").first(where: { $0.hasPrefix("content-length:") }),
            let length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces))
        else { return false }
        return data.count - end.upperBound >= length
    }

    static func parse(_ data: Data) throws -> HTTPResponse {
        guard let end = data.range(of: Data("\r\n\r\n".utf8)) else { throw POSIXError(.EBADMSG) }
        let lines = String(decoding: data[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { throw POSIXError(.EBADMSG) }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        var body = Data(data[end.upperBound...])
        if headers["transfer-encoding"]?.lowercased() == "chunked" {
            var decoded = Data()
            var rest = body[...]
            while let lineEnd = rest.range(of: Data("\r\n".utf8)) {
                let size =
                    Int(
                        String(decoding: rest[..<lineEnd.lowerBound], as: UTF8.self)
                            .split(separator: ";")[0].trimmingCharacters(in: .whitespaces), radix: 16) ?? 0
                if size == 0 { break }
                let start = lineEnd.upperBound
                decoded += rest[start..<(start + size)]
                rest = rest[(start + size + 2)...]
            }
            body = decoded
        }
        return HTTPResponse(status: status, headers: headers, body: body)
    }
}

/// A real `scanextract serve` on a free loopback port, with its own data folder.
final class ServerProcess {
    let process = Process()
    private(set) var port = 0
    let dataDir: String
    private let stderrLog = LockedData()

    static var binary: String {
        if let p = ProcessInfo.processInfo.environment["SCANEXTRACT_BIN"] { return p }
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        if url.lastPathComponent.hasSuffix(".xctest") { url = url.deletingLastPathComponent() }
        return url.appendingPathComponent("scanextract").path
    }

    init(dataDir: String, arguments: [String] = [], environment: [String: String] = [:]) throws {
        self.dataDir = dataDir
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = ["serve", "--port", "0", "--data-dir", dataDir, "--retry-backoff", "0"] + arguments
        var env = ProcessInfo.processInfo.environment
        env["SCANEXTRACT_API_KEYS"] = nil
        env.merge(environment) { $1 }
        process.environment = env
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        let listening = DispatchSemaphore(value: 0)
        let log = stderrLog
        let portBox = LockedData()
        // The log is read by a thread of its own with blocking reads, not by a
        // `readabilityHandler`: that handler is a dispatch source on the pipe's
        // descriptor, and libdispatch crashed (SIGSEGV in its event loop) when the
        // descriptor was closed under it as a stopped server's pipe was released.
        let reader = Thread { [errPipe = err] in
            let fd = errPipe.fileHandleForReading.fileDescriptor
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                log.append(Data(buffer[0..<n]))
                let text = log.string
                if portBox.string.isEmpty,
                    let range = text.range(of: #"listening on http://127\.0\.0\.1:(\d+)"#, options: .regularExpression)
                {
                    let digits = text[range].split(separator: ":").last.map(String.init) ?? ""
                    portBox.append(Data(digits.utf8))
                    listening.signal()
                }
            }
            listening.signal()
        }
        try process.run()
        reader.start()
        _ = listening.wait(timeout: .now() + 60)
        port = Int(portBox.string) ?? 0
        if port == 0 {
            process.terminate()
            throw NSError(
                domain: "ServerProcess", code: 1,
                userInfo: [NSLocalizedDescriptionKey: "server did not start: \(log.string)"])
        }
    }

    var log: String { stderrLog.string }

    func request(
        _ method: String, _ path: String, key: String? = nil, headers: [String: String] = [:],
        body: Data? = nil, chunks: [Data]? = nil
    ) throws -> HTTPResponse {
        var headers = headers
        if let key { headers["Authorization"] = "Bearer \(key)" }
        return try HTTP.send(port: port, method, path, headers: headers, body: body, chunks: chunks)
    }

    /// Polls the job (long-polling 5 s at a time) until it is finished; at most `seconds`.
    func waitFinished(_ id: String, key: String? = nil, seconds: Double = 120) throws -> [String: Any] {
        let deadline = Date().addingTimeInterval(seconds)
        var job: [String: Any] = [:]
        repeat {
            job = try request("GET", "/v1/jobs/\(id)?wait=5", key: key).json
            if let status = job["status"] as? String, ["succeeded", "failed", "canceled"].contains(status) {
                return job
            }
        } while Date() < deadline
        return job
    }

    /// Waits until the job is in `status`; at most `seconds`.
    func waitStatus(_ id: String, _ status: String, key: String? = nil, seconds: Double = 60) throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        repeat {
            if try request("GET", "/v1/jobs/\(id)", key: key).json["status"] as? String == status { return true }
            usleep(50_000)
        } while Date() < deadline
        return false
    }

    /// The server's worker processes (its children).
    var workerPIDs: [Int32] {
        let me = process.processIdentifier
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).filter { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return false }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 2 && Int32(fields[1]) == me
        }
    }

    /// SIGTERM, then waits for the exit (bounded).
    @discardableResult
    func stop() -> Int32 {
        guard process.isRunning else { return process.terminationStatus }
        kill(process.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
        return process.terminationStatus
    }

    deinit { stop() }
}

final class LockedData: @unchecked Sendable {
    private var data = Data()
    private let lock = NSLock()
    func append(_ chunk: Data) { lock.lock(); data.append(chunk); lock.unlock() }
    var string: String { lock.lock(); defer { lock.unlock() }; return String(decoding: data, as: UTF8.self) }
}

/// Small inputs the tests send.
enum Inputs {
    /// A scanextract JSON document: already recognized, so a worker runs no engine on it.
    static func document(_ lines: [String]) -> Data {
        var observations: [[String: Any]] = []
        for (i, text) in lines.enumerated() {
            observations.append([
                "text": text, "confidence": 0.99,
                "boundingBox": ["x": 40, "y": 40 + i * 30, "width": 300, "height": 20]
            ])
        }
        let doc: [String: Any] = ["pages": [["width": 600, "height": 800, "observations": observations]]]
        return try! JSONSerialization.data(withJSONObject: doc)
    }

    static func pdf(_ text: String, in dir: String) -> Data {
        let path = dir + "/in.pdf"
        Drawing.writePDF([[DrawnLine(text, x: 72, y: 100, size: 16)]], to: path)
        return try! Data(contentsOf: URL(fileURLWithPath: path))
    }

    /// An Ink document of `text` written with a Hershey font (a few strokes a letter).
    static func ink(_ text: String, seed: UInt64 = 7) throws -> Data {
        var rng = SeededGenerator(seed: seed)
        let ink = InkSynthesizer(font: try HersheyFont(named: "futural")).ink(
            text, style: InkSynthesizer.Style(), rng: &rng)
        return try JSONEncoder().encode(ink)
    }

    /// A rectangle drawn in one stroke.
    static func rectangleInk() throws -> Data {
        let corners = [(100.0, 100.0), (300.0, 100.0), (300.0, 220.0), (100.0, 220.0), (100.0, 100.0)]
        var points: [Ink.Point] = []
        for (a, b) in zip(corners, corners.dropFirst()) {
            for k in 0..<20 {
                let f = Double(k) / 20
                points.append(
                    Ink.Point(x: a.0 + (b.0 - a.0) * f, y: a.1 + (b.1 - a.1) * f, t: Double(points.count * 10)))
            }
        }
        points.append(Ink.Point(x: 100, y: 100, t: Double(points.count * 10)))
        return try JSONEncoder().encode(Ink(strokes: [Ink.Stroke(points: points)]))
    }
}

/// Runs the built `scanextract` with `arguments`: its exit status, stdout and stderr.
func runCommand(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: ServerProcess.binary)
    p.arguments = arguments
    let out = Pipe(), err = Pipe()
    p.standardOutput = out
    p.standardError = err
    try p.run()
    let errData = LockedData()
    let errDone = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
        errData.append(err.fileHandleForReading.readDataToEndOfFile()); errDone.signal()
    }
    let output = out.fileHandleForReading.readDataToEndOfFile()
    errDone.wait()
    p.waitUntilExit()
    return (p.terminationStatus, String(decoding: output, as: UTF8.self), errData.string)
}
