import Foundation
import TestSupport
import XCTest

/// `GET /`, the page to try the service: its headers and, in a real headless Chromium driven
/// over the W3C WebDriver protocol (Debian's `chromium` and `chromium-driver`), a sample
/// receipt dropped on it until its fields and boxes show, compared with what the same
/// server's JSON API answers for the job the page made.
final class WebPageTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = Drawing.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    func testThePageIsOpenButTheAPIStillNeedsTheKeyAndItsHeadersAreStrict() throws {
        let server = try ServerProcess(dataDir: dir + "/data", arguments: ["--workers", "0"],
                                       environment: ["SCANEXTRACT_API_KEYS": "page-key"])
        let page = try server.request("GET", "/")
        XCTAssertEqual(page.status, 200, page.text)
        XCTAssertEqual(page.header("content-type"), "text/html; charset=utf-8")
        XCTAssertEqual(page.header("x-content-type-options"), "nosniff")
        let policy = try XCTUnwrap(page.header("content-security-policy"))
        for directive in ["default-src 'none'", "script-src 'self'", "connect-src 'self'", "frame-ancestors 'none'"] {
            XCTAssertTrue(policy.contains(directive), policy)
        }
        XCTAssertFalse(policy.contains("unsafe-inline"), policy)
        XCTAssertTrue(
            page.text.contains("data-keys=\"required\""), "the page asks for the key when the server has keys")
        // Everything the page loads is served here, with the same headers.
        for (path, type) in [("/web/app.js", "text/javascript"), ("/web/app.css", "text/css")] {
            let asset = try server.request("GET", path)
            XCTAssertEqual(asset.status, 200, path)
            XCTAssertTrue(asset.header("content-type")?.hasPrefix(type) ?? false, path)
            XCTAssertEqual(asset.header("x-content-type-options"), "nosniff", path)
            XCTAssertTrue(page.text.contains("\"\(path)\""), "the page links \(path)")
        }
        // Result text is never parsed as HTML.
        let script = try server.request("GET", "/web/app.js").text
        for sink in ["innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval("] {
            XCTAssertFalse(script.contains(sink), "app.js uses \(sink)")
        }
        // The page being open opens nothing else.
        XCTAssertEqual(try server.request("POST", "/v1/extractions", body: Inputs.document(["x"])).status, 401)
        XCTAssertEqual(try server.request("GET", "/v1/jobs/anything").status, 401)

        let open = try ServerProcess(dataDir: dir + "/open", arguments: ["--workers", "0"])
        XCTAssertTrue(try open.request("GET", "/").text.contains("data-keys=\"none\""))
    }

    /// What the page sends: a form whose boundary mixes cases, as Chromium and Firefox make them.
    func testABrowsersMultipartBoundaryIsTakenAsSent() throws {
        let server = try ServerProcess(dataDir: dir + "/data", arguments: ["--workers", "1"])
        let boundary = "----WebKitFormBoundaryQ3xRb7TzLmA9pWkE"
        var body = Data(
            "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"till.json\"\r\n".utf8)
        body += Data("Content-Type: application/json\r\n\r\n".utf8) + Inputs.document(["CORNER SHOP", "TOTAL 1.20"])
        body += Data("\r\n--\(boundary)--\r\n".utf8)
        let r = try server.request("POST", "/v1/extractions",
                                   headers: ["Content-Type": "multipart/form-data; boundary=\(boundary)"], body: body)
        XCTAssertEqual(r.status, 200, r.text)
        XCTAssertEqual(r.json["source"] as? String, "till.json")
    }

    func testInChromiumAReceiptShowsTheFieldsAndBoxesTheAPIReturns() throws {
        let chromium = try Self.requireTool(["chromium", "chromium-browser", "google-chrome"])
        let chromedriver = try Self.requireTool(["chromedriver"])
        let key = "browser-key"
        let server = try ServerProcess(dataDir: dir + "/data", arguments: ["--workers", "1"],
                                       environment: ["SCANEXTRACT_API_KEYS": key])
        let driver = try WebDriver(chromedriver: chromedriver, chromium: chromium, profile: dir + "/profile")
        defer { driver.quit() }

        try driver.open("http://127.0.0.1:\(server.port)/")
        try driver.type(into: "#api-key", key)
        let sample = Self.root.appendingPathComponent("Samples/receipt.png").path
        try driver.type(into: "#file", sample)

        // The job runs in a worker that loads its engine first: generous, on a loaded machine.
        var state = ""
        let deadline = Date().addingTimeInterval(150)
        repeat {
            Thread.sleep(forTimeInterval: 0.5)
            state = try driver.script("return document.querySelector('#status').dataset.state") as? String ?? ""
        } while !["succeeded", "failed", "canceled"].contains(state) && Date() < deadline
        let shown = try XCTUnwrap(driver.script("""
            const text = (selector) => { const e = document.querySelector(selector); return e ? e.textContent : null; };
            return {
              state: document.querySelector('#status').dataset.state, status: text('#status'),
              problem: document.querySelector('#problem').hidden ? null : text('#problem'),
              job: document.body.dataset.job || null,
              total: text('dd[data-field="total"]'), merchant: text('dd[data-field="merchant"]'),
              items: document.querySelectorAll('#items tbody tr').length,
              lines: document.querySelectorAll('svg.page[data-page="0"] .box.line').length,
              fields: document.querySelectorAll('svg.page .box.field').length,
              image: document.querySelectorAll('svg.page[data-page="0"] image').length,
            };
            """) as? [String: Any])
        XCTAssertEqual(shown["state"] as? String, "succeeded", "\(shown)\n\(server.log)")
        XCTAssertNil(shown["problem"] as? String)

        // What the API answers for the job the page made, with the same key.
        let job = try XCTUnwrap(shown["job"] as? String, "\(shown)")
        let result = try server.request("GET", "/v1/jobs/\(job)/result", key: key)
        XCTAssertEqual(result.status, 200, result.text)
        let receipt = try XCTUnwrap(
            result.json["receipt"] as? [String: Any], "the sample is read as a receipt: \(result.text)")
        let total = try XCTUnwrap(receipt["total"] as? String, "the sample's total is found")
        XCTAssertEqual(shown["total"] as? String, total)
        let merchant = (receipt["merchant"] as? [String: Any])?["name"] as? String
        XCTAssertNotNil(merchant)
        XCTAssertEqual(shown["merchant"] as? String, merchant)
        XCTAssertEqual(shown["items"] as? Int, (receipt["items"] as? [Any])?.count)
        let page = try XCTUnwrap((result.json["pages"] as? [[String: Any]])?.first)
        let lines = (page["observations"] as? [Any])?.count ?? 0
        XCTAssertGreaterThan(lines, 5)
        XCTAssertEqual(shown["lines"] as? Int, lines, "one box drawn per recognized line")
        XCTAssertEqual(shown["image"] as? Int, 1, "the image itself is under the boxes")
        let provenance = (receipt["provenance"] as? [String: [String: Any]]) ?? [:]
        let itemSources = (receipt["items"] as? [[String: Any]] ?? []).filter {
            ($0["source"] as? [String: Any])?["boundingBox"] != nil
        }
        let fieldBoxes = provenance.values.filter { $0["boundingBox"] != nil }.count + itemSources.count
        XCTAssertGreaterThan(fieldBoxes, 0)
        XCTAssertEqual(
            shown["fields"] as? Int, fieldBoxes, "one highlighted box per field that says where it was printed")

        // A screenshot: a real PNG of the page, not blank.
        let png = try driver.screenshot()
        let shot = dir + "/page.png"
        try png.write(to: URL(fileURLWithPath: shot))
        let image = try XCTUnwrap(Drawing.decodeImage([UInt8](png)), "the screenshot decodes")
        XCTAssertGreaterThanOrEqual(image.width, 800)
        var levels = Set<UInt8>()
        var orange = 0  // the field boxes' stroke (#e8590c), used nowhere else on the page
        for i in stride(from: 0, to: image.pixels.count, by: 3) {
            let (r, g, b) = (Int(image.pixels[i]), Int(image.pixels[i + 1]), Int(image.pixels[i + 2]))
            levels.insert(UInt8((r * 299 + g * 587 + b * 114) / 1000))
            if r > 200 && g > 60 && g < 120 && b < 50 { orange += 1 }
        }
        XCTAssertGreaterThan(levels.count, 40, "the screenshot is not blank")
        XCTAssertGreaterThan(orange, 200, "the field boxes are visible in the screenshot")
        if let keep = ProcessInfo.processInfo.environment["SCANEXTRACT_SCREENSHOT_DIR"] {
            try? FileManager.default.createDirectory(atPath: keep, withIntermediateDirectories: true)
            try? png.write(to: URL(fileURLWithPath: keep + "/web-page.png"))
        }
    }

    /// The path of the first of `names` on PATH. Missing: the test fails under CI (`make deps`
    /// installs Debian's chromium and chromium-driver) and is skipped elsewhere.
    static func requireTool(_ names: [String]) throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for name in names {
            for folder in path.split(separator: ":")
            where FileManager.default.isExecutableFile(atPath: "\(folder)/\(name)") {
                return "\(folder)/\(name)"
            }
        }
        let message = "\(names[0]) is not installed: `make deps` installs Debian's chromium and chromium-driver"
        if ProcessInfo.processInfo.environment["CI"] == "true" {
            XCTFail(message)
            throw NSError(domain: "WebPageTests", code: 1, userInfo: [NSLocalizedDescriptionKey: message])
        }
        throw XCTSkip(message)
    }
}

/// A W3C WebDriver client for chromedriver on a free loopback port, with one headless
/// Chromium session.
final class WebDriver {
    let process = Process()
    let port: Int
    var session = ""
    static let elementKey = "element-6066-11e4-a52e-4f735466cecf"

    init(chromedriver: String, chromium: String, profile: String) throws {
        port = try freeLoopbackPort()
        process.executableURL = URL(fileURLWithPath: chromedriver)
        process.arguments = ["--port=\(port)"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let ready = Date().addingTimeInterval(30)
        while (try? call("GET", "/status"))?["ready"] as? Bool != true {
            guard Date() < ready else { quit(); throw Failure("chromedriver did not answer on port \(port)") }
            Thread.sleep(forTimeInterval: 0.2)
        }
        var args = ["--headless=new", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,1000",
                    "--user-data-dir=\(profile)", "--no-first-run", "--no-default-browser-check"]
        if getuid() == 0 { args.append("--no-sandbox") }  // Chromium refuses root without it
        let capabilities: [String: Any] = ["capabilities": ["alwaysMatch": [
            "browserName": "chrome", "goog:chromeOptions": ["binary": chromium, "args": args],
        ]]]
        let created = try call("POST", "/session", capabilities)
        guard let id = created["sessionId"] as? String else { quit(); throw Failure("no session: \(created)") }
        session = id
        _ = try call("POST", "/session/\(id)/timeouts", ["script": 30_000, "pageLoad": 60_000, "implicit": 0])
    }

    struct Failure: Error, CustomStringConvertible { var description: String; init(_ d: String) { description = d } }

    /// One command; its `value`, or a thrown error with WebDriver's message.
    @discardableResult
    func call(_ method: String, _ path: String, _ body: [String: Any]? = nil) throws -> [String: Any] {
        let data = try body.map { try JSONSerialization.data(withJSONObject: $0) }
        let response = try send(method, path, body: data ?? (method == "POST" ? Data("{}".utf8) : nil))
        let object = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:]
        if response.status >= 400 {
            throw Failure("\(method) \(path): \(response.status) \(response.text.prefix(600))")
        }
        return object["value"] as? [String: Any] ?? ["value": object["value"] ?? NSNull()]
    }

    /// One request; the answer is read as far as its Content-Length says (chromedriver keeps
    /// the connection open whatever the request asks, so reading to the end would wait).
    func send(_ method: String, _ path: String, body: Data?) throws -> HTTPResponse {
        let fd = try HTTP.connection(port: port)
        defer { close(fd) }
        var request = Data("\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n".utf8)
        if let body {
            request +=
                Data("Content-Type: application/json; charset=utf-8\r\nContent-Length: \(body.count)\r\n\r\n".utf8)
                + body
        } else {
            request += Data("\r\n".utf8)
        }
        let sent = request.withUnsafeBytes { Glibc.send(fd, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == request.count else { throw POSIXError(.EIO) }
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            if let end = received.range(of: Data("\r\n\r\n".utf8)) {
                let head = String(decoding: received[..<end.lowerBound], as: UTF8.self).lowercased()
                let length = head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) }
                if let length, received.count - end.upperBound >= length { break }
                if head.contains("transfer-encoding: chunked"), received.suffix(5) == Data("0\r\n\r\n".utf8) { break }
            }
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            received.append(contentsOf: buffer[0..<n])
        }
        return try HTTP.parse(received)
    }

    func open(_ url: String) throws { try call("POST", "/session/\(session)/url", ["url": url]) }

    func element(_ selector: String) throws -> String {
        let found = try call("POST", "/session/\(session)/element", ["using": "css selector", "value": selector])
        guard let id = found[Self.elementKey] as? String else { throw Failure("no element \(selector): \(found)") }
        return id
    }

    /// Sends text as keystrokes; into a file input it is the file's path.
    func type(into selector: String, _ text: String) throws {
        try call("POST", "/session/\(session)/element/\(element(selector))/value", ["text": text])
    }

    func script(_ source: String) throws -> Any? {
        let data = try JSONSerialization.data(withJSONObject: ["script": source, "args": []])
        let response = try send("POST", "/session/\(session)/execute/sync", body: data)
        guard response.status < 400 else { throw Failure("script: \(response.status) \(response.text.prefix(600))") }
        let value = ((try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any])?["value"]
        return value is NSNull ? nil : value
    }

    func screenshot() throws -> Data {
        let value = try call("GET", "/session/\(session)/screenshot")["value"] as? String ?? ""
        guard let png = Data(base64Encoded: value) else { throw Failure("the screenshot is not base64") }
        return png
    }

    func quit() {
        if !session.isEmpty { _ = try? call("DELETE", "/session/\(session)") }
        session = ""
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    deinit { quit() }
}
