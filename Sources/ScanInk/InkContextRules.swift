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
    /// Whether the ink leaves a gap between words: a horizontal gap, free of any stroke,
    /// at least `spaceShare` of the ink's height wide (the height of a line with ascenders
    /// and descenders; a space is about half of it in the Hershey fonts). Letters of one word
    /// are joined or close; a wide pen lift inside a word can pass too, and then the word
    /// and its split reading compete on their probabilities.
    public static func hasWordGap(_ ink: Ink, spaceShare: Double = 0.5) -> Bool {
        guard let b = ink.bounds, b.maxY > b.minY else { return false }
        let spans = ink.strokes.compactMap { s -> (Double, Double)? in
            guard let lo = s.points.map(\.x).min(), let hi = s.points.map(\.x).max() else { return nil }
            return (lo, hi)
        }.sorted { $0.0 < $1.0 }
        guard var reach = spans.first?.1 else { return false }
        for (lo, hi) in spans.dropFirst() {
            if lo - reach >= spaceShare * (b.maxY - b.minY) { return true }
            reach = max(reach, hi)
        }
        return false
    }

    public static func applyPreContext(_ candidates: [InkCandidate], preContext: String?, lexicon: WordList?)
        -> [InkCandidate]
    {
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

    /// Characters the recognizer may read for a character of a restricted charset:
    /// dashes and CJK look-alikes, full-width forms, letters shaped like digits.
    /// Only used when the target is allowed and the look-alike is not.
    public static let lookAlikes: [String: Character] = {
        var m: [String: Character] = [
            "—": "-", "–": "-", "－": "-", "_": "-", "~": "-", "=": "-",
            "十": "+", "＋": "+", "t": "+", "T": "+", "×": "+",
            "／": "/", "\\": "/", "丿": "/",
            "O": "0", "o": "0", "D": "0", "Q": "0", "口": "0",
            "l": "1", "I": "1", "|": "1", "i": "1", "j": "1", "]": "1", "[": "1",
            "Z": "2", "z": "2", "S": "5", "s": "5", "b": "6", "G": "6", "B": "8", "g": "9", "q": "9",
            "y": "4", "A": "4",
            // Two bars read as CJK "two", the full-width forms, a cross read as a letter.
            "二": "=", "＝": "=", "x": "×", "X": "×", "。": ".", "．": ".", "，": ",", "、": ",",
        ]
        for (i, d) in "０１２３４５６７８９".enumerated() { m[String(d)] = Character(String(i)) }
        return m
    }()

    /// The look-alikes for this ink: for a flat, straight mark the recognizer's CJK "一"
    /// is a dash (not for a vertical bar, which it also reads as "一" now and then); for
    /// a lone straight stroke, its lean decides between a bar ("1") and a slash ("/").
    public static func lookAlikes(for ink: Ink) -> [String: Character] {
        var m = lookAlikes
        if InkRenderer.isFlatMark(ink) { m["一"] = "-" }
        // One straight stroke: its lean tells a bar from a slash, which the recognizer,
        // seeing a lone line without context, confuses (and reads as "一" or "八").
        if let line = InkRenderer.straightStroke(ink) {
            if line.lean < 0.25 {
                for s in ["一", "丨", "丿", "!", "！"] { m[s] = "1" }
            } else if line.lean > 0.3, line.lean < 2.5, line.rising {
                for s in ["一", "八", "丿", "l", "I", "|", "(", ")", "\\"] { m[s] = "/" }
            }
        }
        return m
    }

    /// Readings the ink's geometry overrules even when the charset allows them: a lone
    /// straight stroke leaning like "/" is not a "1" or a "7".
    public static func reassignments(for ink: Ink) -> [String: Character] {
        guard let line = InkRenderer.straightStroke(ink), line.lean > 0.3, line.lean < 2.5, line.rising else {
            return [:]
        }
        return ["1": "/", "7": "/"]
    }

    /// Letters whose small and capital forms differ only in size.
    static let sizeOnlyCase: Set<Character> = Set("cosuvwxzp")

    /// With a writing area: a lone letter that looks the same in both cases is small
    /// when the ink is under 40% of the area's height, else capital; a lone dot or
    /// comma is a comma when its ink is much taller than wide.
    /// A small lone "0" is an "o" (digits are as tall as capitals), unless the charset
    /// rules letters out.
    public static func applySizeCues(_ candidates: [InkCandidate], ink: Ink, charset: String? = nil) -> [InkCandidate] {
        guard let area = ink.writingArea, let b = ink.bounds else { return candidates }
        let relative = (b.maxY - b.minY) / area.height
        var out: [InkCandidate] = []
        for c in candidates {
            var c = c
            let original = c.text
            if c.text == "0" && relative < 0.4 { c.text = "o" }
            if c.text.count == 1, let ch = c.text.first, sizeOnlyCase.contains(Character(ch.lowercased())) {
                c.text = relative < 0.4 ? c.text.lowercased() : c.text.uppercased()
            } else if c.text == "." || c.text == "," {
                c.text = (b.maxY - b.minY) > 1.8 * max(b.maxX - b.minX, 1e-9) ? "," : "."
            }
            if let charset, !c.text.allSatisfy({ charset.contains($0) }) { c.text = original }
            if let i = out.firstIndex(where: { $0.text == c.text }) {
                out[i].score = max(out[i].score, c.score)
            } else {
                out.append(c)
            }
        }
        return out.sorted { $0.score > $1.score }
    }
}
