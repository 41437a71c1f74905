import Hummingbird
import Logging

/// An error no route turned into a problem (the job store failing under a request, most often: PostgreSQL gone)
/// still answers as every other error does, with a problem and a code, never a bare 500 without a body: 503
/// `not-ready` with `Retry-After` when the job store does not answer now, as `/readyz` says, else 500 `internal`.
/// The error itself goes to the log, not to the client.
struct UnexpectedErrors<Context: RequestContext>: RouterMiddleware {
    let storeAnswers: @Sendable () async -> Bool
    let logger: Logger

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        do {
            return try await next(request, context)
        } catch let error as HTTPResponseError {
            throw error
        } catch {
            logger.error("\(request.method) \(request.uri.path) failed: \(String(reflecting: error))")
            throw Problem.unexpected(storeAnswers: await storeAnswers())
        }
    }
}
