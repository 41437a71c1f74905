import Foundation
import HTTPTypes
import Hummingbird

/// The API's paths and the methods each takes, read from the OpenAPI document the server ships (so the two cannot
/// drift apart): `{id}` stands for any one segment.
struct APIPaths: Sendable {
    let routes: [(segments: [Substring], methods: [String])]

    /// Reads the `paths:` section of an OpenAPI YAML document in block style, whatever its indentation: the paths are
    /// the keys one level in (`/v1/jobs/{id}:`, quoted or not), their methods the keys one level further. Blank lines
    /// and comments are passed over.
    init(openAPI yaml: String) {
        var routes: [(segments: [Substring], methods: [String])] = []
        var inPaths = false
        var pathIndent: Int?, methodIndent: Int?
        let methods: Set<Substring> = ["get", "post", "put", "patch", "delete", "head", "options"]
        for line in yaml.split(separator: "\n", omittingEmptySubsequences: false) {
            let indent = line.prefix { $0 == " " }.count
            let body = line.dropFirst(indent).trimmingCharacters(in: .whitespaces)
            if body.isEmpty || body.hasPrefix("#") { continue }
            if indent == 0 { inPaths = body == "paths:"; continue }
            // A key alone (`get:`) or with a value on its line (`post: {}`).
            guard inPaths,
                let colon = body.hasSuffix(":") ? body.index(before: body.endIndex) : body.range(of: ": ")?.lowerBound
            else { continue }
            let key = body[..<colon].trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
            if pathIndent == nil, key.hasPrefix("/") { pathIndent = indent }
            guard let paths = pathIndent, indent >= paths else { continue }
            if indent == paths {
                routes.append((key.split(separator: "/"), []))
                methodIndent = nil
            } else if !routes.isEmpty {
                if methodIndent == nil { methodIndent = indent }
                if indent == methodIndent, methods.contains(Substring(key)) {
                    routes[routes.count - 1].methods.append(key.uppercased())
                }
            }
        }
        self.routes = routes
    }

    /// The methods `path` takes, or nil when it is none of the API's paths.
    func methods(for path: String) -> [String]? {
        let segments = path.split(separator: "/")
        for route in routes where route.segments.count == segments.count {
            if zip(route.segments, segments).allSatisfy({ $0.hasPrefix("{") || $0 == $1 }) { return route.methods }
        }
        return nil
    }
}

/// Requests that no route takes answer as every other error does, with a problem: 405 `method-not-allowed` and an
/// `Allow` header when the path is the API's under other methods, else 404 `not-found` that names the path.
struct UnmatchedRoutes<Context: RequestContext>: RouterMiddleware {
    let paths: APIPaths

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            let path = request.uri.path
            if var methods = paths.methods(for: path), !methods.contains(request.method.rawValue) {
                if methods.contains("GET") { methods.append("HEAD") }
                var response = try Problem(
                    .methodNotAllowed, code: "method-not-allowed",
                    "\(path) takes \(methods.joined(separator: ", ")), not \(request.method.rawValue)"
                )
                .response(from: request, context: context)
                response.headers[.allow] = methods.joined(separator: ", ")
                return response
            }
            throw Problem.notFound(
                "no such route: \(request.method.rawValue) \(path) (the API is described at /openapi.yaml)")
        }
    }
}
