import ScanLayout
import ScanModel

extension BusinessCardParser {
    /// The lines with a logo's monogram set on their row cut away: the first or the last word, two or three letters
    /// that the recognizer read on their own (another of its lines, or a gap of a letter's height or more), in
    /// capitals that are the initials of a line's first words on the card (`KINNERET LABS LTD.` and `KL`, `VIÑA LOS
    /// QUELTEHUES SPA` and `VL`), or in any case the initials of its own line's other words (`Vs Vistara Softech`;
    /// not a street's word or a name's particle, `St Stephens Trust`).
    /// The monogram is left out, so that no field takes it (an address would end with `BT` of `Bachmann Treuhand
    /// AG`). A legal form, a name's suffix, an honorific, a title's or a department's word (`VP`, `HR`), or letters
    /// the e-mail's address spells as a name's part is no monogram (`Jane Doe` `CPA`).
    static func monogramsApart(_ lines: [AnalyzedLine], email: (local: String, host: String)?) -> [AnalyzedLine] {
        // The initials of each line's first two and three words with letters (`&` and small words left out); not of
        // the person's name that the e-mail spells (`Helen Ross` and `HR Business Partner`).
        // (Words that begin with a small letter give none.)
        func initialsOf(_ words: [LayoutWord]) -> String {
            String(words.compactMap { w in w.text.first.flatMap { $0.isLetter && $0.isUppercase ? $0 : nil } })
        }
        let local = email.map { $0.local.lowercased() }
        var initials = Set<String>()
        for l in lines {
            if let local, Self.matchesLocal(local, l.line.words.map(\.text)) { continue }
            let firsts = initialsOf(l.line.words)
            for n in 2...3 where firsts.count >= n { initials.insert(String(firsts.prefix(n))) }
        }
        // Whether the e-mail's address spells initials as a name's part: a part of its own (`jd@`), or run into the
        // word beside them (`JD` of `JD Landscaping`, jdlandscaping.com.au; not `KA` of kavya@kaveriagro.com beside
        // `Exports`, which any address may hold by chance).
        let address = email.map { ($0.local + "@" + $0.host).lowercased() }
        func spelledInEmail(_ w: LayoutWord, beside other: LayoutWord, after: Bool) -> Bool {
            guard let address else { return false }
            let m = w.text.lowercased()
            let near = other.text.lowercased().filter(\.isLetter)
            return address.split(whereSeparator: { ".-_@".contains($0) }).contains { $0 == m }
                || address.contains(after ? String(near.suffix(3)) + m : m + String(near.prefix(3)))
        }
        // (A monogram read in small letters is the initials of its own line's words: `Vs` by `Vistara Softech Pvt.
        // Ltd.`, `cs` by `CEYLON SPICE TRADERS`.)
        func isMonogram(_ w: LayoutWord, beside other: LayoutWord, after: Bool, rest: [LayoutWord]) -> Bool {
            let key = Text.key(w.text)
            let own = initialsOf(rest)
            return (2...3).contains(w.text.count)
                && (w.text.allSatisfy { $0.isLetter && $0.isUppercase } && initials.contains(w.text)
                    || w.text.allSatisfy(\.isLetter) && own.hasPrefix(w.text.uppercased())
                        && !streetWords.isFound(in: key) && !lexicon.nameParticles.contains(w.text.lowercased()))
                && !legalFormKeys.contains(key) && !lexicon.legalForms.isFound(in: key)
                && !lexicon.nameSuffixes.contains(key) && !lexicon.honorifics.contains(key)
                && !lexicon.jobTitles.isFound(in: key) && !lexicon.departmentWords.isFound(in: key)
                && !spelledInEmail(w, beside: other, after: after)
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
            if let last = words.last,
                isMonogram(last, beside: words[words.count - 2], after: true, rest: Array(words.dropLast())),
                apart(words[words.count - 2], last)
            {
                cut = words.count - 1
            } else if let first = words.first,
                isMonogram(first, beside: words[1], after: false, rest: Array(words.dropFirst())),
                apart(first, words[1])
            {
                cut = 1
            } else {
                return [l]
            }
            return [piece(of: l, cut == 1 ? Array(words.dropFirst()) : Array(words.dropLast()))]
        }
    }
}
