import Foundation

/// The merchant's tax number: every number a line prints after a tax-number label (`IČO:`, `CUI:`, `GSTIN`), or after
/// a tax's own name when it has a tax number's shape (`TVA LU19876543`, `IVA IT01234567890`), is a candidate; the
/// one that is a sales tax's registration is preferred over a company's or a person's (`IČ DPH` over `IČO`,
/// `USt-IdNr. DE…` over `St.-Nr.`), then one printed above the sums, then the first.
extension ReceiptParser {
    struct TaxIdCandidate: Equatable {
        /// The line it was read on.
        var line: Int
        var value: String
        /// Whether it registers a sales tax: its label names one (`IČ DPH`, `VAT NO`, `TVA`), or it opens with the
        /// letters of a country's VAT numbers (`RO`, `SK`, `DE`).
        var registersTax: Bool
    }

    /// The letters that open a VAT number in the European Union and its neighbours (`EL` is Greece's, `XI` Northern
    /// Ireland's, `CHE` Switzerland's).
    static let vatNumberPrefixes: Set<String> = [
        "AT", "BE", "BG", "CY", "CZ", "DE", "DK", "EE", "EL", "ES", "FI", "FR", "HR", "HU", "IE", "IT", "LT", "LU",
        "LV", "MT", "NL", "PL", "PT", "RO", "SE", "SI", "SK", "XI", "CHE", "GB", "NO",
    ]

    /// A tax number's shape after its label: up to four letters (a country's, or those of a Mexican RFC), a space
    /// between them and the digits at most, then digits with letters, hyphens, stops, slashes or spaces among them.
    static let taxIdValuePattern = #"^(?:[A-Z]{1,4}[ -]?)?[0-9][0-9A-Z\-./ ]{4,}[0-9A-Z]"#

    /// The merchant's tax number and the line it was read on (see the type's comment), nil when no line prints one.
    static func merchantTaxId(_ lines: [AnalyzedLine], summaryStart: Int) -> TaxIdCandidate? {
        let found = taxIdCandidates(lines)
        return found.max { a, b in
            func rank(_ c: TaxIdCandidate) -> (Int, Int, Int) {
                (c.registersTax ? 1 : 0, c.line < summaryStart ? 1 : 0, -c.line)
            }
            return rank(a) < rank(b)
        }
    }

    /// Every labelled tax number of the page, in reading order.
    static func taxIdCandidates(_ lines: [AnalyzedLine]) -> [TaxIdCandidate] {
        var out: [TaxIdCandidate] = []
        for (i, l) in lines.enumerated() where Text.digitCount(l.text) >= 5 {
            let idLabels = taxIdWords.wordMatches(in: l.key)
            // A tax's name is a label only before a number of a tax number's length on a line of no amount.
            let taxLabels = l.amount == nil ? taxWords.wordMatches(in: l.key) : []
            guard !idLabels.isEmpty || !taxLabels.isEmpty else { continue }
            let words = Text.keyWordRanges(l.text)
            for (label, isTaxName) in Self.chained(idLabels.map { ($0, false) } + taxLabels.map { ($0, true) }) {
                guard label.upperBound <= words.count,
                    let value = taxIdValue(after: l.text[words[label.upperBound - 1].upperBound...])
                else { continue }
                // After a tax's name, a VAT number's shape only: a country's VAT letters, or eight digits or more with
                // no letters before them and no stop or slash among them (not `Pvm 12.05.2024`, Finnish for date, nor
                // `TAX INV 00123456`).
                let dotted = value.contains { $0 == "." || $0 == "/" }
                if isTaxName, !opensWithVATPrefix(value),
                    Text.digitCount(value) < 8 || value.first?.isLetter == true || dotted
                {
                    continue
                }
                let labelKey = words[label].map { Text.key(String(l.text[$0])) }.joined(separator: " ")
                let namesTax = isTaxName || Text.hasAny(labelKey, taxWords)
                let c = TaxIdCandidate(
                    line: i, value: value, registersTax: namesTax || opensWithVATPrefix(value))
                if !out.contains(where: { $0.line == i && $0.value == value }) { out.append(c) }
            }
        }
        return out
    }

    /// The words that go on a label before its number (`GST ID No:`, `NIF n.º`, `GST ID. NO :`), as `Text.key` reads
    /// them.
    static let numberWords: Set<String> = [
        "", "NO", "NR", "NRO", "N", "Nº", "NUM", "NUMBER", "NUMERO", "NÚMERO", "ID", "REG", "º", "O",
    ]

    /// Labels that follow one another or overlap as one label (`VAT REG TIN`, `IČ DPH`), a tax's name only when
    /// all of its parts are one.
    static func chained(_ labels: [(Range<Int>, Bool)]) -> [(Range<Int>, Bool)] {
        var out: [(Range<Int>, Bool)] = []
        for (r, taxName) in labels.sorted(by: { $0.0.lowerBound < $1.0.lowerBound }) {
            if let last = out.last, r.lowerBound <= last.0.upperBound {
                out[out.count - 1] = (last.0.lowerBound..<max(last.0.upperBound, r.upperBound), last.1 && taxName)
            } else {
                out.append((r, taxName))
            }
        }
        return out
    }

    /// The number that opens `rest`, the text after a label, past the words that go on a label before its number.
    /// It ends before a word after it (`0105544012345 Branch 00001`), before a second number that opens with a
    /// letter (`RO28765432 J40/11234/2011`, `LU19876543 RCS B123456`) or follows one that ends with one (`419060-A 1`),
    /// and before a long group after a long one (`001662431232 1210644T`: groups of four or fewer make one number,
    /// `912 345 678`); a tax's own name after it is kept (`912 345 678 MVA`). A country's `RO` read with a zero is put
    /// right. Nil when no number of five digits or more opens it.
    static func taxIdValue(after rest: Substring) -> String? {
        var tokens = rest.split(whereSeparator: { $0 == " " || $0 == ":" || $0 == "(" || $0 == ")" })
        // Words that go on the label (`No`, `n.º`, a stop alone), and the same glued to the number (`ID001921974272`).
        while let t = tokens.first, numberWords.contains(Text.key(String(t)).replacingOccurrences(of: " ", with: "")) {
            tokens.removeFirst()
        }
        if let t = tokens.first, let glued = ["ID", "NR"].first(where: { t.uppercased().hasPrefix($0) }),
            t.dropFirst(glued.count).first?.isNumber == true
        {
            tokens[0] = t.dropFirst(glued.count)
        }
        let trimmed = tokens.joined(separator: " ").drop { !($0.isLetter || $0.isNumber) }
        guard let m = Text.range(String(trimmed), taxIdValuePattern) else { return nil }
        let matched = String(trimmed)[m]
        var parts: [Substring] = []
        for p in matched.split(separator: " ") {
            let numbered = parts.filter { $0.contains(where: \.isNumber) }
            if let last = numbered.last {
                let opensWithLetter = p.first?.isLetter ?? false
                let longAfterLong = p.count > 4 && numbered.contains { $0.count > 4 }
                if opensWithLetter || last.last?.isLetter == true || longAfterLong {
                    // A tax's name last (`MVA`) stays; any other word or number ends it.
                    if !p.contains(where: \.isNumber), taxWordSet.contains(Text.key(String(p))), matched.hasSuffix(p) {
                        parts.append(p)
                    }
                    break
                }
            }
            parts.append(p)
        }
        while parts.count > 1, let last = parts.last, !last.contains(where: \.isNumber),
            !taxWordSet.contains(Text.key(String(last)))
        {
            parts.removeLast()
        }
        var value = parts.joined(separator: " ")
        // `R0` for Romania's `RO`: the only country prefix whose second letter is O, which OCR reads as a zero.
        if value.hasPrefix("R0"), value.dropFirst(2).first?.isNumber == true {
            value = "RO" + value.dropFirst(2)
        }
        return Text.digitCount(value) >= 5 ? value : nil
    }

    /// Whether a number opens with a country's VAT letters (`SK2020123456`, `BE 0456.789.123`).
    static func opensWithVATPrefix(_ value: String) -> Bool {
        let letters = value.prefix { $0.isLetter }
        guard letters.count >= 2, letters.count <= 3 else { return false }
        return vatNumberPrefixes.contains(String(letters).uppercased())
    }
}
