import ScanModel

/// Builds N-best readings of a line from per-symbol alternatives (a small beam search).
/// Pure logic, shared by engines that give per-symbol choices.
public enum LineCandidates {
    /// - Parameters:
    ///   - words: per word, per symbol, the alternatives `(text, confidence 0–100)` best first.
    ///   - count: how many readings to return.
    ///   - lineConfidence: the confidence (0–1) of the best reading.
    ///   - fallback: the best reading as the engine printed it, used first.
    public static func nBest(words: [[[(String, Double)]]], count: Int, lineConfidence: Double,
                             fallback: String) -> [TextCandidate] {
        guard count > 0 else { return [] }
        // A hypothesis: chosen alternative index per symbol (flattened), with its penalty.
        struct Hyp { var text: String; var penalty: Double }
        var beam = [Hyp(text: "", penalty: 0)]
        let width = max(count * 2, 4)
        for (wi, word) in words.enumerated() {
            if wi > 0 { beam = beam.map { Hyp(text: $0.text + " ", penalty: $0.penalty) } }
            for symbol in word {
                guard let best = symbol.first else { continue }
                var next: [Hyp] = []
                for h in beam {
                    for (k, alt) in symbol.prefix(3).enumerated() {
                        // Penalty: how much less sure the engine was of this alternative.
                        let p = k == 0 ? 0 : max(0.01, (best.1 - alt.1) / 100)
                        next.append(Hyp(text: h.text + alt.0, penalty: h.penalty + p))
                    }
                }
                next.sort { $0.penalty < $1.penalty }
                beam = Array(next.prefix(width))
            }
        }
        var seen = Set<String>()
        var out: [TextCandidate] = []
        out.append(TextCandidate(text: fallback, confidence: lineConfidence))
        seen.insert(fallback)
        for h in beam where out.count < count {
            guard !h.text.isEmpty, !seen.contains(h.text) else { continue }
            seen.insert(h.text)
            out.append(
                TextCandidate(text: h.text, confidence: max(0, min(1, lineConfidence * (1 - min(1, h.penalty))))))
        }
        return out
    }
}
