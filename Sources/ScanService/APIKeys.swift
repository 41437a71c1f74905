import Crypto
import Foundation
import ScanModel

/// The API keys the service accepts, kept only as SHA-256 hashes (swift-crypto). A request's
/// bearer key is hashed and compared in constant time; the hash (hex) is the owner of its jobs.
public struct APIKeys: Sendable {
    private let hashes: [[UInt8]]

    /// Plain keys, hashed here.
    public init(keys: [String]) {
        self.init(hashes: keys.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.map(Self.hash))
    }

    init(hashes: [[UInt8]]) { self.hashes = hashes }

    /// Keys from a comma-separated list (`SCANEXTRACT_API_KEYS`) and a file with one key a
    /// line (`--api-keys-file`; `#` starts a comment). A file line `sha256:HEX` is a key's
    /// hash (`printf %s KEY | sha256sum`), so the file need not hold the keys themselves.
    public static func load(environment: String?, file: String?) throws -> APIKeys {
        var hashes = APIKeys(keys: (environment ?? "").split(separator: ",").map(String.init)).hashes
        if let file {
            let text = try String(contentsOfFile: file, encoding: .utf8)
            for (number, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated()
            {
                let line = raw.trimmingCharacters(in: .whitespaces)
                if line.isEmpty || line.hasPrefix("#") { continue }
                if line.lowercased().hasPrefix("sha256:") {
                    guard let digest = Self.digest(hex: line.dropFirst("sha256:".count)) else {
                        throw KeyFileError(
                            line: number + 1, reason: "'sha256:' must be followed by 64 hexadecimal digits")
                    }
                    hashes.append(digest)
                } else {
                    hashes.append(Self.hash(line))
                }
            }
        }
        return APIKeys(hashes: hashes)
    }

    /// A line of the keys file that is not a key.
    public struct KeyFileError: Error, CustomStringConvertible {
        public var line: Int
        public var reason: String
        public var description: String { "line \(line): \(reason)" }
    }

    public var isEmpty: Bool { hashes.isEmpty }

    /// The owner for an `Authorization` header value: "" when no keys are set, the key's
    /// hash when it is one of ours, nil otherwise.
    public func owner(authorization: String?) -> String? {
        if hashes.isEmpty { return "" }
        guard let authorization, authorization.lowercased().hasPrefix("bearer ") else { return nil }
        let key = authorization.dropFirst("bearer ".count).trimmingCharacters(in: .whitespaces)
        let hash = Self.hash(key)
        var match: [UInt8]?
        for candidate in hashes where Self.constantTimeEqual(candidate, hash) { match = candidate }
        return match?.hexadecimal
    }

    static func hash(_ key: String) -> [UInt8] { Array(SHA256.hash(data: Data(key.utf8))) }

    static func digest<S: StringProtocol>(hex: S) -> [UInt8]? {
        let digits = Array(hex.lowercased().utf8)
        guard digits.count == 64 else { return nil }
        var out: [UInt8] = []
        for i in stride(from: 0, to: 64, by: 2) {
            guard let byte = UInt8(String(decoding: digits[i...i + 1], as: UTF8.self), radix: 16) else { return nil }
            out.append(byte)
        }
        return out
    }

    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var diff: UInt8 = 0
        for i in a.indices { diff |= a[i] ^ b[i] }
        return diff == 0
    }
}
