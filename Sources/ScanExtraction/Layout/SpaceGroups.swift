import ScanDetectors
import ScanLayout
import ScanModel

/// Amounts whose thousands are grouped by spaces (`1 249,00`, as French, Polish, Swedish or Norwegian tills print
/// them) reach the parsers as two or more words, which read as a count and a price (1 × 249,00). Where the document
/// prints its amounts with a decimal comma and groups no amount with a stop or an apostrophe, such words are joined
/// into one before any parser reads the line; the line's text stays as it was.
extension LineAnalyzer {
    /// Whether `lines` print amounts the way space-grouped thousands go with: at least two amounts with a decimal
    /// comma, more than twice as many as with a decimal point, and none grouped by another separator (`1.249,00`).
    static func groupsThousandsBySpaces(_ lines: [LayoutLine]) -> Bool {
        var comma = 0, point = 0
        for l in lines {
            for w in l.words {
                guard let (decimal, grouped) = separators(of: w.text) else { continue }
                if grouped { return false }
                if decimal == "," { comma += 1 } else { point += 1 }
            }
        }
        return comma >= 2 && comma > 2 * point
    }

    /// The decimal separator of a word read as an amount with two decimals, and whether another separator groups
    /// its thousands; nil for a word that is no such amount.
    static func separators(of word: String) -> (decimal: Character, grouped: Bool)? {
        guard let a = Amount.parse(word[...]), a.scale == 2 else { return nil }
        let chars = Array(word)
        // The separator before the last two digits of the number.
        guard let lastDigit = chars.lastIndex(where: \.isNumber), lastDigit >= 3,
              chars[lastDigit - 1].isNumber, chars[lastDigit - 2] == "," || chars[lastDigit - 2] == "."
        else { return nil }
        let decimal = chars[lastDigit - 2]
        let grouped = chars[..<(lastDigit - 2)].contains { $0 == "." || $0 == "," || $0 == "'" }
        return (decimal, grouped)
    }

    /// `line` with each amount printed in space-grouped words (`1` `249,00`, `-2` `150` `000,00`) as one word.
    /// The groups must sit as close as one space: in one observation of the engine, or, without references,
    /// less than a text height apart. A count before a price stays a count when the line's amount after them is
    /// the product (`2 249,00 498,00`).
    ///
    /// Whole amounts (`6 800 Ft`) are joined where their currency's word follows them.
    ///
    /// With `afterCurrency`, on a document that groups no amounts so as a rule, only groups right after a currency's
    /// word or sign are joined, with a decimal point or comma (`R 1 249.97`, South Africa's style): a count stands
    /// after the currency on no till.
    static func joiningSpaceGroups(_ line: LayoutLine, afterCurrency: Bool = false) -> LayoutLine {
        var words = line.words
        var i = words.count - 1
        var changed = false
        while i > 0 {
            // A whole amount's last group right before its currency's word (`6 800 Ft`, `12 500 kr`): the currency
            // says the groups are one amount, in any document.
            let beforeCurrency = i + 1 < words.count && isGroup(words[i].text, leading: false)
                && adjacent(words[i], words[i + 1]) && isCurrencyToken(words[i + 1].text)
            guard beforeCurrency || isDecimalGroup(words[i].text, point: afterCurrency) else { i -= 1; continue }
            var lead = i
            while lead > 0, adjacent(words[lead - 1], words[lead]), isGroup(words[lead - 1].text, leading: false) {
                lead -= 1
            }
            if lead > 0, adjacent(words[lead - 1], words[lead]), isGroup(words[lead - 1].text, leading: true) {
                lead -= 1
            }
            guard lead < i, !countsBefore(words, lead: lead, price: i) else { i = lead - 1; continue }
            if afterCurrency && !beforeCurrency {
                let signed = words[lead].text.first.map(Amount.currencySigns.contains) == true
                    || lead > 0 && adjacent(words[lead - 1], words[lead]) && isCurrencyWord(words[lead - 1].text)
                guard signed else { i = lead - 1; continue }
            }
            let joined = words[lead...i].map(\.text).joined(separator: " ")
            guard Amount.parse(joined[...], wholeUnits: beforeCurrency) != nil else { i = lead - 1; continue }
            let group = words[lead...i]
            let box = BoundingBox.enclosing(group.map(\.box)) ?? words[lead].box
            let frame = group.allSatisfy { $0.frameBox != nil }
                ? BoundingBox.enclosing(group.compactMap(\.frameBox)) : nil
            words.replaceSubrange(lead...i, with: [LayoutWord(
                text: joined, box: box, confidence: group.map(\.confidence).min() ?? 0,
                reference: words[lead].reference, frameBox: frame)])
            changed = true
            i = lead - 1
        }
        guard changed else { return line }
        var out = LayoutLine(page: line.page, words: words, level: line.level, ordered: true)
        out.textHeight = line.textHeight
        out.printHeight = line.printHeight
        return out
    }

    /// The last group of an amount: three digits, a decimal comma (or with `point`, a point too), two decimals,
    /// then only marks, a minus or a currency (`249,00`, `249,00€`, `249,00-`).
    private static func isDecimalGroup(_ w: String, point: Bool = false) -> Bool {
        // Read for every word of every line: most fail on their first byte, before any copy.
        guard let first = w.utf8.first, first >= 0x30, first <= 0x39, w.utf8.count >= 6 else { return false }
        let c = Array(w)
        guard c.count >= 6, c[0...2].allSatisfy(\.isASCIINumber), c[3] == "," || point && c[3] == ".",
              c[4...5].allSatisfy(\.isASCIINumber)
        else { return false }
        return !c.dropFirst(6).contains(where: \.isNumber) && Amount.parse(w[...]) != nil
    }

    /// A group of three digits, or with `leading`, the number's first group: one to three digits without a
    /// leading zero, after a minus or a currency's sign (`1`, `-12`, `€1`).
    private static func isGroup(_ w: String, leading: Bool) -> Bool {
        var s = w[...]
        if leading {
            if let c = s.first, Amount.minusSigns.contains(c) { s = s.dropFirst() }
            if let c = s.first, Amount.currencySigns.contains(c) { s = s.dropFirst() }
        }
        guard s.allSatisfy(\.isASCIINumber) else { return false }
        return leading ? (1...3).contains(s.count) && s.first != "0" : s.count == 3
    }

    /// A currency printed as a word of its own before an amount (`R`, `R$`, `Rs.`, `$`, `EUR`).
    private static func isCurrencyWord(_ w: String) -> Bool {
        w == "R" || isCurrencyToken(w) || w.count == 1 && w.first.map(Amount.currencySigns.contains) == true
    }

    /// Whether two neighbouring words are set one space apart: less than a text height between them, and, where the
    /// engine's observations are known, next to each other in one (a row of columns may be one observation too, as
    /// Tesseract's lines and a PDF's text are, so the gap is measured always).
    private static func adjacent(_ a: LayoutWord, _ b: LayoutWord) -> Bool {
        if let ra = a.reference, let rb = b.reference, ra.observation != rb.observation || rb.word != ra.word + 1 {
            return false
        }
        return b.place.minX - a.place.maxX < min(a.place.height, b.place.height)
    }

    /// Whether the number at `lead` is rather a count: one or two digits, and an amount after the price is the
    /// count times the price.
    private static func countsBefore(_ words: [LayoutWord], lead: Int, price: Int) -> Bool {
        guard price == lead + 1, let count = Int(words[lead].text), count < 100,
              let unit = Amount.parse(words[price].text[...])
        else { return false }
        return words[(price + 1)...].contains { w in
            Amount.parse(w.text[...]).map { $0.cents == unit.cents * count } ?? false
        }
    }
}

extension Character {
    fileprivate var isASCIINumber: Bool { isASCII && isNumber }
}
