import Foundation

/// Content negotiation by an HTTP `Accept` header (RFC 9110, 12.5.1). Each comma-separated element is a media range
/// with optional parameters and a `q` weight (1 when absent or unreadable). An offered type takes the weight of the
/// most specific range that matches it (`text/csv` over `text/*` over `*/*`), so a weight of 0 turns one type down
/// even beside a wildcard (`application/json;q=0, */*`). Empty elements (`Accept: ;`, `text/csv,,`) are skipped, never
/// an error: a header that accepts nothing offered leaves the caller to answer 406.
enum AcceptHeader {
    /// The media ranges of `header` with their weights, in the order written; `*/*` alone without a header.
    static func ranges(_ header: String?) -> [(type: String, q: Double)] {
        guard let header, !header.trimmingCharacters(in: .whitespaces).isEmpty else { return [("*/*", 1)] }
        var out: [(type: String, q: Double)] = []
        for element in header.split(separator: ",") {
            let parts = element.split(separator: ";", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            guard let type = parts.first?.lowercased(), !type.isEmpty else { continue }
            var q = 1.0
            for p in parts.dropFirst() {
                let kv = p.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                if kv.count == 2, kv[0].lowercased() == "q", let v = Double(kv[1]), v.isFinite, (0...1).contains(v) {
                    q = v
                }
            }
            out.append((type, q))
        }
        return out
    }

    /// The type of `offered` to answer with, or nil when the header accepts none of them. The highest weight wins; of
    /// equal weights, the type whose range is written first, then the one offered first (so `offered` lists the
    /// server's preference among the types a wildcard matches).
    static func choose(_ offered: [String], for header: String?) -> String? {
        let ranges = ranges(header)
        var best: (type: String, q: Double, written: Int, offered: Int)?
        for (o, type) in offered.enumerated() {
            let major = type.split(separator: "/").first.map { $0 + "/*" } ?? type
            // The most specific range that names the type decides its weight.
            let match = [type, major, "*/*"].lazy.compactMap { name in
                ranges.firstIndex { $0.type == name }.map { (index: $0, q: ranges[$0].q) }
            }.first
            guard let match, match.q > 0 else { continue }
            if let b = best, (b.q, -b.written, -b.offered) >= (match.q, -match.index, -o) { continue }
            best = (type, match.q, match.index, o)
        }
        return best?.type
    }
}
