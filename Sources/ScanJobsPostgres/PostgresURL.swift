import Foundation
import PostgresNIO

/// A `postgres://` (or `postgresql://`) URL as libpq reads one, for the parts we use:
/// `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=disable|prefer|require]`.
/// The user defaults to `postgres`, the port to 5432, the database to the user's name;
/// `?host=/run/postgresql` (a folder) connects over that Unix socket.
public struct PostgresURL: Sendable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var unixSocketFolder: String?
    public var username: String
    public var password: String?
    public var database: String
    public var sslMode: String

    public struct Invalid: Error, CustomStringConvertible {
        public let description: String
    }

    public init(_ string: String) throws {
        guard let components = URLComponents(string: string),
              let scheme = components.scheme?.lowercased(), scheme == "postgres" || scheme == "postgresql" else {
            throw Invalid(description: "'\(Self.redacted(string))' is not a postgres:// URL")
        }
        let query = Dictionary((components.queryItems ?? []).map { ($0.name, $0.value ?? "") }) { $1 }
        host = components.host.flatMap { $0.isEmpty ? nil : $0 } ?? "127.0.0.1"
        port = components.port ?? 5432
        unixSocketFolder = query["host"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        username = components.user.flatMap { $0.isEmpty ? nil : $0.removingPercentEncoding } ?? "postgres"
        password = components.password?.removingPercentEncoding
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        database = path.isEmpty ? username : (path.removingPercentEncoding ?? path)
        sslMode = query["sslmode"] ?? "disable"
        guard ["disable", "prefer", "require"].contains(sslMode) else {
            throw Invalid(description: "sslmode must be disable, prefer or require, not '\(sslMode)'")
        }
    }

    /// The URL without its password (for messages and logs).
    public var description: String {
        let place = unixSocketFolder.map { "?host=\($0)" } ?? ""
        return "postgres://\(username)@\(host):\(port)/\(database)\(place)"
    }

    static func redacted(_ string: String) -> String {
        string.replacingOccurrences(of: #"://([^:@/]+):[^@/]*@"#, with: "://$1:***@", options: .regularExpression)
    }

    var clientConfiguration: PostgresClient.Configuration {
        get throws {
            if let unixSocketFolder {
                return .init(unixSocketPath: socketPath(unixSocketFolder), username: username, password: password,
                             database: database)
            }
            let tls: PostgresClient.Configuration.TLS
            switch sslMode {
            case "require": tls = .require(.makeClientConfiguration())
            case "prefer": tls = .prefer(.makeClientConfiguration())
            default: tls = .disable
            }
            return .init(host: host, port: port, username: username, password: password, database: database, tls: tls)
        }
    }

    func socketPath(_ folder: String) -> String { "\(folder)/.s.PGSQL.\(port)" }

    /// The same server with another database, as a URL string (password included).
    public func urlString(database other: String) -> String {
        var components = URLComponents()
        components.scheme = "postgres"
        components.user = username
        components.password = password
        components.host = host
        components.port = port
        components.path = "/" + other
        var items: [URLQueryItem] = []
        if sslMode != "disable" { items.append(URLQueryItem(name: "sslmode", value: sslMode)) }
        if let unixSocketFolder { items.append(URLQueryItem(name: "host", value: unixSocketFolder)) }
        if !items.isEmpty { components.queryItems = items }
        return components.string ?? description
    }

    public var connectionConfiguration: PostgresConnection.Configuration {
        get throws {
            if let unixSocketFolder {
                return .init(unixSocketPath: socketPath(unixSocketFolder), username: username, password: password,
                             database: database)
            }
            let tls: PostgresConnection.Configuration.TLS
            switch sslMode {
            case "require": tls = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
            case "prefer": tls = .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
            default: tls = .disable
            }
            return .init(host: host, port: port, username: username, password: password, database: database, tls: tls)
        }
    }
}
