import AsyncHTTPClient
import Crypto
import Foundation
import Logging
import NIOCore
import ScanJobs
import ScanModel
import ServiceLifecycle

#if canImport(Glibc)
    import Glibc
#endif

/// `callbackUrl`: where a client wants a POST when its job or batch ends. Checked when the
/// request comes (scheme, and the host's addresses unless private ones are allowed) and again
/// before each delivery (a name may resolve elsewhere by then).
enum CallbackTarget {
    /// The URL, or a 400 naming what is wrong with it.
    static func validate(_ raw: String, allowPrivate: Bool, hasSecret: Bool) async throws -> String {
        guard hasSecret else {
            throw Problem(
                .badRequest, code: "invalid-option",
                "callbackUrl needs a signing secret on the server (--callback-secret or SCANEXTRACT_CALLBACK_SECRET)")
        }
        guard let url = URL(string: raw), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host, !host.isEmpty
        else {
            throw Problem(
                .badRequest, code: "invalid-option", "callbackUrl must be an absolute http or https URL, not '\(raw)'")
        }
        if url.user != nil || url.password != nil {
            throw Problem(.badRequest, code: "invalid-option", "callbackUrl must not carry a user name or password")
        }
        if !allowPrivate {
            switch await resolvedRefusal(host: host) {
            case .some(let why):
                throw Problem(
                    .badRequest, code: "invalid-option",
                    "callbackUrl's host \(why); such hosts are refused unless the server runs with --allow-private-callbacks"
                )
            case .none: break
            }
        }
        return raw
    }

    /// ``refusal(host:)`` on a thread of its own: name resolution blocks (for seconds when a
    /// resolver is slow), and the cooperative pool that runs the handlers has a thread a core.
    static func resolvedRefusal(host: String) async -> String? {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: refusal(host: host)) }
        }
    }

    /// Why `host` may not be called back (it cannot be resolved, or one of its addresses is
    /// loopback, private, link-local, shared or multicast), or nil when it may.
    static func refusal(host: String) -> String? {
        let name = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(name, nil, &hints, &list) == 0, let first = list else {
            return "'\(host)' cannot be resolved"
        }
        defer { freeaddrinfo(first) }
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let info = entry {
            if let address = info.pointee.ai_addr, let why = privateAddress(address) { return "'\(host)' is \(why)" }
            entry = info.pointee.ai_next
        }
        return nil
    }

    /// What kind of non-public address this is, or nil for a public one.
    static func privateAddress(_ address: UnsafePointer<sockaddr>) -> String? {
        if Int32(address.pointee.sa_family) == AF_INET {
            let raw = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                UInt32(bigEndian: $0.pointee.sin_addr.s_addr)
            }
            return privateIPv4(raw)
        }
        if Int32(address.pointee.sa_family) == AF_INET6 {
            let bytes = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                withUnsafeBytes(of: pointer.pointee.sin6_addr) { Array($0) }
            }
            if bytes[0..<15].allSatisfy({ $0 == 0 }) && (bytes[15] == 1 || bytes[15] == 0) {
                return "a loopback or unspecified address"
            }
            if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
                let v4 = bytes[12...].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
                return privateIPv4(v4)
            }
            if bytes[0] & 0xFE == 0xFC { return "a private (unique local) address" }
            if bytes[0] == 0xFE && bytes[1] & 0xC0 == 0x80 { return "a link-local address" }
            if bytes[0] == 0xFF { return "a multicast address" }
        }
        return nil
    }

    static func privateIPv4(_ a: UInt32) -> String? {
        func within(_ net: UInt32, _ bits: UInt32) -> Bool { a >> (32 - bits) == net >> (32 - bits) }
        if within(0x7F00_0000, 8) { return "a loopback address" }
        if within(0x0A00_0000, 8) || within(0xAC10_0000, 12) || within(0xC0A8_0000, 16) { return "a private address" }
        if within(0xA9FE_0000, 16) { return "a link-local address" }
        if within(0x6440_0000, 10) { return "a shared (carrier-grade NAT) address" }
        if within(0x0000_0000, 8) { return "an unspecified address" }
        if within(0xE000_0000, 4) || a == 0xFFFF_FFFF { return "a multicast or broadcast address" }
        return nil
    }
}

/// The signature of a callback: `Scanextract-Signature: t=UNIX_SECONDS,v1=HEX`, where HEX is
/// HMAC-SHA256, keyed with the server's callback secret, of the ASCII timestamp, a dot, and the
/// body's bytes. A receiver computes the same over the body it got, compares in constant time,
/// and refuses a timestamp more than a few minutes old (a replay).
public enum CallbackSignature {
    public static func header(body: Data, secret: String, time: Date) -> String {
        let t = Int(time.timeIntervalSince1970)
        return "t=\(t),v1=\(hex(body: body, secret: secret, timestamp: t))"
    }

    public static func hex(body: Data, secret: String, timestamp: Int) -> String {
        var message = Data("\(timestamp).".utf8)
        message.append(body)
        let code = HMAC<Crypto.SHA256>.authenticationCode(for: message, using: SymmetricKey(data: Data(secret.utf8)))
        return Array(code).hexadecimal
    }
}

/// Delivers the callbacks the store holds, apart from the workers: it claims those due (a job
/// or batch ended, a retry's time come), POSTs each with its signature, and records the
/// outcome. A failure (no connection, a timeout, an answer other than 2xx) is retried after
/// `backoff` seconds, doubling each time, until `attempts` have been made. Redirects are not
/// followed.
struct CallbackDelivery: Service {
    struct Settings: Sendable {
        var secret: String
        var allowPrivate = false
        var attempts = 8
        var backoff: TimeInterval = 5
        var timeout: TimeInterval = 10
        var pollInterval: TimeInterval = 0.5
    }

    let store: any JobStore
    let settings: Settings
    let logger: Logger
    /// The body for a callback: the job's or batch's description, or nil when it is gone.
    let payload: @Sendable (Callback) async throws -> Data?

    func run() async throws {
        var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow)
        configuration.timeout = .init(connect: .seconds(5), read: .seconds(Int64(settings.timeout)))
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        // SIGTERM ends the loop; a delivery cut short is handed out again when its claim runs out.
        _ = try? await cancelWhenGracefulShutdown { await loop(client) }
        try? await client.shutdown()
    }

    private func loop(_ client: HTTPClient) async {
        while !Task.isCancelled {
            let due: [Callback]
            do {
                due = try await store.claimCallbacks(limit: 16, lease: settings.timeout + 30, now: Date())
            } catch {
                logger.warning("cannot read the callbacks due: \(error)")
                due = []
            }
            if due.isEmpty {
                try? await Task.sleep(for: .seconds(settings.pollInterval))
                continue
            }
            await withTaskGroup(of: Void.self) { group in
                for callback in due { group.addTask { await deliver(callback, with: client) } }
            }
        }
    }

    func deliver(_ callback: Callback, with client: HTTPClient) async {
        let outcome: CallbackOutcome
        do {
            guard let body = try await payload(callback) else {
                try? await store.recordCallback(
                    id: callback.id, outcome: .failed(error: "the \(callback.kind.rawValue) no longer exists"),
                    now: Date())
                return
            }
            if !settings.allowPrivate, let host = URL(string: callback.url)?.host,
                let why = await CallbackTarget.resolvedRefusal(host: host)
            {
                try? await store.recordCallback(
                    id: callback.id, outcome: .failed(error: "refused: the host \(why)"), now: Date())
                return
            }
            var request = HTTPClientRequest(url: callback.url)
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/json")
            request.headers.add(name: "User-Agent", value: "scanextract")
            request.headers.add(name: "Scanextract-Event", value: "\(callback.kind.rawValue).finished")
            request.headers.add(name: "Scanextract-Delivery", value: callback.id)
            request.headers.add(
                name: "Scanextract-Signature",
                value: CallbackSignature.header(body: body, secret: settings.secret, time: Date()))
            request.body = .bytes(ByteBuffer(bytes: body))
            let response = try await client.execute(request, timeout: .seconds(Int64(settings.timeout)))
            _ = try? await response.body.collect(upTo: 64 * 1024)
            if (200..<300).contains(Int(response.status.code)) {
                outcome = .delivered
            } else {
                outcome = failure("the receiver answered \(response.status.code)", callback)
            }
        } catch {
            outcome = failure("\(error)", callback)
        }
        if case .failed(let why) = outcome {
            logger.warning(
                "callback \(callback.id) for \(callback.kind.rawValue) \(callback.subjectId) failed for good: \(why)")
        }
        do {
            try await store.recordCallback(id: callback.id, outcome: outcome, now: Date())
        } catch {
            logger.warning("cannot record callback \(callback.id): \(error)")
        }
    }

    func failure(_ why: String, _ callback: Callback) -> CallbackOutcome {
        let made = callback.attempts + 1
        guard made < settings.attempts else { return .failed(error: "\(why) (after \(made) attempts)") }
        let delay = settings.backoff * pow(2, Double(callback.attempts))
        return .retry(error: why, at: Date().addingTimeInterval(delay))
    }
}

extension ExtractionService {
    /// A request's `callbackUrl`, checked (see ``CallbackTarget``).
    func callbackTarget(_ raw: String) async throws -> String {
        try await CallbackTarget.validate(
            raw, allowPrivate: settings.allowPrivateCallbacks, hasSecret: settings.callbackSecret != nil)
    }

    /// The delivery of callbacks, when the server can sign them.
    func callbackServices() -> [any Service] {
        guard let secret = settings.callbackSecret else { return [] }
        var delivery = CallbackDelivery.Settings(secret: secret)
        delivery.allowPrivate = settings.allowPrivateCallbacks
        delivery.attempts = settings.callbackAttempts
        delivery.backoff = settings.callbackBackoff
        let store = self.store
        return [
            CallbackDelivery(store: store, settings: delivery, logger: logger) { callback in
                // The body is what GET answers for the job or batch at that moment.
                let description: [String: Any]
                switch callback.kind {
                case .job:
                    guard let job = try await store.job(id: callback.subjectId) else { return nil }
                    description = describe(job)
                case .batch:
                    guard let batch = try await store.batch(id: callback.subjectId, owner: nil) else { return nil }
                    description = try await describe(batch, jobs: try await store.jobs(inBatch: batch.id))
                }
                return try JSONSerialization.data(
                    withJSONObject: description, options: [.sortedKeys, .withoutEscapingSlashes])
            }
        ]
    }
}
