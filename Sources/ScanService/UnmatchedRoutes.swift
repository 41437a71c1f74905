import Foundation
import HTTPTypes
import Hummingbird

/// The API's paths and the methods each takes, read from the OpenAPI document the server ships (so the two cannot
/// drift apart): `{id}` stands for any one segment.
struct APIPaths: Sendable {
    let routes: [(segments: [Substring], methods: [String])]

    /// Reads the `paths:` section of an OpenAPI YAML document as this project writes it: a path at two spaces'
    /// indent, its methods at four.
    init(openAPI yaml: String) {
        var routes: [(segments: [Substring], methods: [String])] = []
        var inPaths = false
        for line in yaml.split(separator: "\n", omittingEmptySubsequences: false) {
            if !line.hasPrefix(" ") { inPaths = line == "paths:"; continue }
            guard inPaths else { continue }
            if line.hasPrefix("  /"), line.hasSuffix(":"), !line.hasPrefix("   ") {
                routes.append((line.dropFirst(2).dropLast().split(separator: "/"), []))
            } else if line.hasPrefix("    "), !line.hasPrefix("     "), line.hasSuffix(":"), !routes.isEmpty {
                let name = line.dropFirst(4).dropLast()
                if ["get", "post", "put", "patch", "delete"].contains(name) { routes[routes.count - 1].methods.append(name.uppercased()) }
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

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            let path = request.uri.path
            if var methods = paths.methods(for: path), !methods.contains(request.method.rawValue) {
                if methods.contains("GET") { methods.append("HEAD") }
                var response = try Problem(.methodNotAllowed, code: "method-not-allowed",
                                           "\(path) takes \(methods.joined(separator: ", ")), not \(request.method.rawValue)")
                    .response(from: request, context: context)
                response.headers[.allow] = methods.joined(separator: ", ")
                return response
            }
            throw Problem.notFound("no such route: \(request.method.rawValue) \(path) (the API is described at /openapi.yaml)")
        }
    }
}
