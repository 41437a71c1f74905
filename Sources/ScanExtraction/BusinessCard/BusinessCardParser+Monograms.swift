import ScanLayout
import ScanModel

extension BusinessCardParser {
    /// The lines with a logo's monogram set on their row cut apart from it: the first or the last word, two or three
    /// capitals that the recognizer read on their own (another of its lines, or a gap of a letter's height or more),
    /// that are the initials of a line's first words on the card (`KINNERET LABS LTD.` and `KL`, `VIÑA LOS
    /// QUELTEHUES SPA` and `VL`). The monogram becomes a line of its own, which no field takes; a legal form, a name's
    /// suffix, an honorific, a title's or a department's word (`VP`, `HR`), or letters the e-mail's address holds is
    /// no monogram (`Jane Doe` `CPA`).
    static func monogramsApart(_ lines: [AnalyzedLine], email: (local: String, host: String)?) -> [AnalyzedLine] {
        // The initials of each line's first two and three words with letters (`&` and small words left out); not of
        // the person's name that the e-mail spells (`Helen Ross` and `HR Business Partner`).
        let local = email.map { $0.local.lowercased() }
        var initials = Set<String>()
        for l in lines {
            if let local, Self.matchesLocal(local, l.line.words.map(\.text)) { continue }
            let firsts = l.line.words.compactMap { w -> Character? in
                guard let c = w.text.first, c.isLetter, c.isUppercase else { return nil }
                return c
            }
            for n in 2...3 where firsts.count >= n { initials.insert(String(firsts.prefix(n))) }
        }
        func isMonogram(_ w: LayoutWord) -> Bool {
            let key = Text.key(w.text)
            return (2...3).contains(w.text.count) && w.text.allSatisfy { $0.isLetter && $0.isUppercase }
                && initials.contains(w.text) && !legalFormKeys.contains(key) && !lexicon.legalForms.isFound(in: key)
                && !lexicon.nameSuffixes.contains(key) && !lexicon.honorifics.contains(key)
                && !lexicon.jobTitles.isFound(in: key) && !lexicon.departmentWords.isFound(in: key)
                // (Nor initials the e-mail's address spells: `JD` of `JD Landscaping`, jdlandscaping.com.au.)
                && !(email.map { ($0.local + "@" + $0.host).lowercased().contains(w.text.lowercased()) } ?? false)
        }
        // Whether words `a` and `b`, side by side, were read apart.
        func apart(_ a: LayoutWord, _ b: LayoutWord) -> Bool {
            let other = a.reference.map { $0.observation != b.reference?.observation } ?? false
            return other || b.box.minX - a.box.maxX > min(a.box.height, b.box.height)
        }
        return lines.flatMap { l -> [AnalyzedLine] in
            let words = l.line.words
            guard words.count >= 3, l.entities.isEmpty else { return [l] }
            let cut: Int
            if let last = words.last, isMonogram(last), apart(words[words.count - 2], last) {
                cut = words.count - 1
            } else if let first = words.first, isMonogram(first), apart(first, words[1]) {
                cut = 1
            } else {
                return [l]
            }
            return [Array(words[..<cut]), Array(words[cut...])].map { piece(of: l, $0) }
        }
    }
}
