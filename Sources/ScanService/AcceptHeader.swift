import Foundation

/// The media types an HTTP `Accept` header asks for, most wanted first (RFC 9110, 12.5.1). Each comma-separated
/// element is a media range with optional parameters; its `q` weight orders it (1 when absent or unreadable), and a
/// weight of 0 means "not this". Empty elements (`Accept: ;`, `text/csv,,`) are skipped, never an error: a header
/// that names nothing usable leaves the caller to answer 406.
enum AcceptHeader {
    static func mediaTypes(_ header: String?) -> [String] {
        guard let header, !header.trimmingCharacters(in: .whitespaces).isEmpty else { return ["*/*"] }
        var ranked: [(type: String, q: Double)] = []
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
            if q > 0 { ranked.append((type, q)) }
        }
        // A stable sort: of equal weights, the order written wins.
        return ranked.enumerated().sorted { ($0.element.q, -$0.offset) > ($1.element.q, -$1.offset) }.map(
            \.element.type)
    }
}
