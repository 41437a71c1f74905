import Foundation
import Hummingbird
import ScanModel

/// An RFC 9457 problem (`application/problem+json`) with a stable `code`. Routes throw it;
/// Hummingbird turns it into the response.
public struct Problem: HTTPResponseError, Sendable {
    public var status: HTTPResponse.Status
    public var code: String
    public var detail: String
    /// Seconds, for 429 and 503.
    public var retryAfter: Int?

    public init(_ status: HTTPResponse.Status, code: String, _ detail: String, retryAfter: Int? = nil) {
        self.status = status
        self.code = code
        self.detail = detail
        self.retryAfter = retryAfter
    }

    /// A pipeline error as the service reports it: the status comes from ``ServiceStatus``.
    public init(_ error: ScanError) {
        self.init(ServiceStatus.forCode(error.code.rawValue), code: error.code.rawValue, error.reason)
    }

    /// The body's fields, in the order they are written.
    private struct Body: Encodable {
        var type: String
        var title: String
        var status: Int
        var code: String
        var detail: String
        var retryAfter: Int?
    }

    /// One encoder for every problem (a queue-full storm answers thousands a second).
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// The JSON body.
    func body() throws -> Data {
        try Self.encoder.encode(Body(type: "https://scanextract.dev/problems/\(code)", title: status.reasonPhrase,
                                     status: status.code, code: code, detail: detail, retryAfter: retryAfter))
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        let data = try body()
        var headers: HTTPFields = [.contentType: "application/problem+json"]
        if let retryAfter { headers[.retryAfter] = String(retryAfter) }
        if status == .unauthorized { headers[.wwwAuthenticate] = "Bearer" }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func unauthorized() -> Problem {
        Problem(.unauthorized, code: "unauthorized", "send an API key as 'Authorization: Bearer KEY'")
    }
    static func draining(retryAfter: Int = 10) -> Problem {
        Problem(.serviceUnavailable, code: "draining", "the server is shutting down", retryAfter: retryAfter)
    }
    static func notFound(_ what: String = "no such job") -> Problem { Problem(.notFound, code: "not-found", what) }
    /// The job store does not answer (`/readyz`, or a request it failed under): ask again in a few seconds.
    static func notReady(_ detail: String) -> Problem {
        Problem(.serviceUnavailable, code: "not-ready", detail, retryAfter: 5)
    }
    /// The problem of an error no route turned into one: 503 `not-ready` when the job store does not answer, else
    /// 500 `internal`.
    static func unexpected(storeAnswers: Bool) -> Problem {
        storeAnswers
            ? Problem(.internalServerError, code: "internal", "the server failed to answer this request (see its log)")
            : notReady("the job store cannot be reached; try again later")
    }
}

/// One table from every error code, the pipeline's (`ScanError.Code`) and the service's own,
/// to its HTTP status. The command line keeps its exit statuses in `ExitStatus`.
public enum ServiceStatus {
    public static func forCode(_ code: String) -> HTTPResponse.Status {
        switch code {
        case ScanError.Code.invalidOption.rawValue: return .badRequest
        case ScanError.Code.unsupportedType.rawValue: return .unsupportedMediaType
        case ScanError.Code.tooLarge.rawValue, "too-many-files", "too-much-memory": return .contentTooLarge
        case ScanError.Code.empty.rawValue, ScanError.Code.corrupt.rawValue, ScanError.Code.encrypted.rawValue,
             ScanError.Code.emptyPage.rawValue, ScanError.Code.unreadable.rawValue:
            return .unprocessableContent
        case ScanError.Code.cancelled.rawValue, "not-finished": return .conflict
        case "unauthorized": return .unauthorized
        case "not-found": return .notFound
        case "method-not-allowed": return .methodNotAllowed
        case "not-acceptable": return .notAcceptable
        case "queue-full": return .tooManyRequests
        case "draining", "no-workers": return .serviceUnavailable
        case ScanError.Code.engine.rawValue, "timeout", "worker-crashed", "lease-expired": return .internalServerError
        default: return .internalServerError
        }
    }
}
