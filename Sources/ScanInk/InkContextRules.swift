import Foundation
import ScanModel

/// What the context says about candidates: the text before the ink decides the
/// leading space; the writing area tells small from capital letters by size.
public enum InkContextRules {
    /// Closing punctuation never takes a space before it.
    static let closing: Set<Character> = [".", ",", ";", ":", "!", "?", ")", "]", "}", "'", "\u{2019}", "%"]

    /// With a pre-context that does not end in a space (or an opening bracket), the
    /// ink starts a new word and candidates get a leading space, unless the candidate
    /// is closing punctuation or the pre-context's last word is unfinished (it and the
    /// candidate make a listed word while the candidate alone is not one).
    public static func applyPreContext(_ candidates: [InkCandidate], preContext: String?, lexicon: Lexicon?) -> [InkCandidate] {
        guard let pre = preContext, let last = pre.last, !last.isWhitespace, !"([{\"\u{201C}".contains(last) else {
            return candidates
        }
        let tail = String(pre.reversed().prefix { $0.isLetter }.reversed())
        return candidates.map { c in
            guard let first = c.text.first, !closing.contains(first) else { return c }
            if let lexicon, !tail.isEmpty, lexicon.contains(tail + c.text), !lexicon.contains(c.text) { return c }
            var c = c
            c.text = " " + c.text
            return c
        }
    }

    /// Letters whose small and capital forms differ only in size.
    static let sizeOnlyCase: Set<Character> = Set("cosuvwxzp")

    /// With a writing area: a lone letter that looks the same in both cases is small
    /// when the ink is under 40% of the area's height, else capital; a lone dot or
    /// comma is a comma when its ink is much taller than wide.
    public static func applySizeCues(_ candidates: [InkCandidate], ink: Ink) -> [InkCandidate] {
        guard let area = ink.writingArea, let b = ink.bounds else { return candidates }
        let relative = (b.maxY - b.minY) / area.height
        var out: [InkCandidate] = []
        for c in candidates {
            var c = c
            if c.text.count == 1, let ch = c.text.first, sizeOnlyCase.contains(Character(ch.lowercased())) {
                c.text = relative < 0.4 ? c.text.lowercased() : c.text.uppercased()
            } else if c.text == "." || c.text == "," {
                c.text = (b.maxY - b.minY) > 1.8 * max(b.maxX - b.minX, 1e-9) ? "," : "."
            }
            if let i = out.firstIndex(where: { $0.text == c.text }) {
                out[i].score = max(out[i].score, c.score)
            } else {
                out.append(c)
            }
        }
        return out.sorted { $0.score > $1.score }
    }
}
