import Foundation
import ScanDetectors
import ScanLayout
import ScanModel

/// A visual line with what the parsers ask of it: its upper-cased key, the amounts
/// that end it (the amount column and, left of it, unit price and quantity), and
/// the data-detector hits on it.
public struct AnalyzedLine: Sendable {
    public var line: LayoutLine
    /// Upper-cased letters and digits, other characters as single spaces.
    public var key: String
    /// The label: the words before the trailing amounts (and their currency tokens).
    public var labelWordCount: Int
    /// Amounts at the end of the line, left to right, with the index of their word.
    public var trailing: [(amount: Amount, word: Int)]
    public var entities: [Entity]
    /// The line's text read as a phone number standing alone (`7037179740`), when it is nothing but one
    /// bare run of digits that is valid as a phone number in the document's region. A detector takes
    /// such a run only after a phone label; a receipt's header prints the shop's this way under its
    /// address, and the receipt parser looks there.
    public var standingPhone: Entity?
    /// `labelKey`, kept: the role checks read it many times.
    public let labelKey: String
    /// The line's role in a receipt's summary, from its label (read once: classifier and parser both ask).
    let role: ReceiptParser.Role

    init(line: LayoutLine, labelWordCount: Int, trailing: [(amount: Amount, word: Int)], entities: [Entity]) {
        self.line = line
        self.key = Text.key(line.text)
        self.labelWordCount = labelWordCount
        self.trailing = trailing
        self.entities = entities
        // A label glued to the first amount (`SUBTOTAL:$22.25`, `Total:12.50`) belongs to the label.
        var words = line.words.prefix(labelWordCount).map(\.text)
        if let first = trailing.first, first.word < line.words.count {
            let glued = line.words[first.word].text.prefix { !$0.isNumber }
            if glued.contains(where: \.isLetter) { words.append(String(glued)) }
        }
        let label = labelWordCount == line.words.count ? key : Text.key(words.joined(separator: " "))
        // A label misread in one letter is spelled again only before an amount (`Chenge 91.50`): elsewhere a word one
        // letter from a label is as likely a word of its own (Dutch `Korte`, not `Karte`).
        self.labelKey = trailing.isEmpty ? label : ReceiptParser.lexicon.labelSpelling.mended(label)
        let role = ReceiptParser.role(labelKey)
        // `Qty 2 @ $5.50  11.00`: a count, a times sign and a price are an article's count, not the articles'.
        let countTimesPrice = trailing.count >= 2 && ["x", "X", "×", "@", "*"].contains(words.last ?? "")
        // `1 COPERTO  2,59`: a count before a service charge's word makes it an article of the bill, priced as the
        // others are (Italy's cover charge); `10% SERVICE CHARGE` keeps its sign.
        let counted = role == .fee && ReceiptParser.isServiceCharge(labelKey)
            && words.first.map { $0.count <= 2 && $0.allSatisfy(\.isNumber) } == true
        self.role = role == .quantityTotal && countTimesPrice || counted ? .none : role
    }

    public var text: String { line.text }
    public var label: String { line.words.prefix(labelWordCount).map(\.text).joined(separator: " ") }
    public var amount: Amount? { trailing.last?.amount }
    public func entities(_ type: EntityType) -> [Entity] { entities.filter { $0.type == type } }
    /// Whether the line holds a phone number, a date, a time, an e-mail or a web address: a line of contacts or
    /// dates, never an article's name or price.
    public var holdsContactOrDate: Bool { entities.contains { [.phone, .date, .time, .email, .url].contains($0.type) } }

    /// Where the line's last amount is printed (its word's box); nil without an amount.
    public var amountPlace: BoundingBox? { trailing.last.map { line.words[$0.word].place } }

    /// Provenance of the last amount on the line.
    public var amountProvenance: Provenance? {
        guard let t = trailing.last else { return nil }
        return line.provenance(words: t.word..<(t.word + 1))
    }

    /// The words an entity covers (by its range in `text`).
    public func wordRange(of e: Entity) -> Range<Int> {
        var start = 0
        var lo: Int?, hi = 0
        for (i, w) in line.words.enumerated() {
            let end = start + w.text.unicodeScalars.count
            if end > e.range.start && start < e.range.end {
                if lo == nil { lo = i }
                hi = i + 1
            }
            start = end + 1
        }
        return (lo ?? 0)..<max(hi, (lo ?? 0) + 1)
    }

    public func provenance(of e: Entity) -> Provenance {
        var p = line.provenance(words: wordRange(of: e))
        p.text = e.text
        return p
    }
}

/// Builds analyzed lines for a document: layout, trailing amounts, detector hits.
public struct LineAnalyzer: Sendable {
    public let detector: DataDetector

    public init(detector: DataDetector) { self.detector = detector }

    static let currencyTokens: Set<String> = [
        "RM", "MYR", "$", "US$", "USD", "EUR", "€", "£", "GBP", "CHF", "AUD", "CAD", "SGD", "S$", "A$", "C$",
        "RP", "IDR", "NZD", "HKD", "INR", "₹", "¥", "JPY", "CNY", "KR", "SEK", "NOK", "DKK", "PLN", "ZŁ", "ZL", "FR",
        "RS", "R$", "BRL", "MXN", "ZAR", "TRY", "₺", "PHP", "₱", "THB", "฿", "CZK", "KČ", "HUF",
        "KSH", "KES", "ARS", "CLP", "COP", "VND", "AED", "NGN", "FT", "Đ", "VNĐ", "₫", "₦", "S/", "S/.", "TK",
        "DH", "DHS", "LEI", "৳", "₡", "BDT", "MAD", "PEN", "RON", "CRC", "LKR", "PKR", "ISK",
    ]

    /// Whether a word is a currency printed on its own, with or without an abbreviation's full stop (`Rp.`, `EUR`).
    static func isCurrencyToken(_ word: String) -> Bool {
        let t = word.uppercased()
        return currencyTokens.contains(t)
            || t.count > 1 && t.hasSuffix(".") && currencyTokens.contains(String(t.dropLast()))
    }

    /// Whether a short word with a digit in it is a currency OCR misread in one character (`z1` for `zł`, `5EK`,
    /// `N0K`), by the confusion table's pairs: printed after an amount, it is the amount's currency, not a label.
    static func isMisreadCurrencyToken(_ word: String, confusions: OCRConfusions = .shipped) -> Bool {
        let t = word.uppercased()
        guard (2...3).contains(t.count), t.contains(where: \.isNumber), t.contains(where: \.isLetter) else {
            return false
        }
        return currencyTokens.contains { $0.count == t.count && confusions.oneSlipApart(t, $0) }
    }

    /// The codes of the currencies printed in whole units (`Amount.wholeUnitCurrencies`), with their signs
    /// (`Amount.wholeUnitSigns`) and local words.
    static let wholeUnitCurrencyTokens = Amount.wholeUnitCurrencies
        .union(Amount.wholeUnitSigns.map(String.init))
        .union(["RP", "YEN", "円", "원", "₫", "Đ", "VNĐ", "FT"])

    /// Whether `word` names a currency printed in whole units, alone (`Rp.`) or glued before its amount (`Rp181.000`).
    static func namesWholeUnitCurrency(_ word: String) -> Bool {
        let t = word.uppercased()
        let lead = String(t.prefix { !$0.isNumber })
        let bare = lead.hasSuffix(".") ? String(lead.dropLast()) : lead
        return wholeUnitCurrencyTokens.contains(bare.trimmingCharacters(in: .whitespaces))
    }

    /// A document's lines with what the analysis of the whole page found (its detector context).
    public struct Analysis: Sendable {
        public var lines: [AnalyzedLine]
        let context: DetectionContext
        let wholeUnits: Bool
        let bareIntegers: Bool
    }

    /// With `splitColumns`, a visual line is cut where a gap wider than two text heights
    /// separates two columns (a card's contacts on the left, its address on the right).
    public func analyze(_ document: Document, splitColumns: Bool = false) -> [AnalyzedLine] {
        let a = analysis(of: document)
        return splitColumns ? columns(of: a) : a.lines
    }

    public func analysis(of document: Document) -> Analysis {
        var lines = LayoutAnalyzer.lines(of: document)
        lines = Self.groupsThousandsBySpaces(lines)
            ? lines.map { Self.joiningSpaceGroups($0) } : lines.map { Self.joiningSpaceGroups($0, afterCurrency: true) }
        let context = detector.context(for: [lines.map(\.text).joined(separator: "\n")])
        let (whole, bare) = Self.amountStyle(lines)
        return Analysis(
            lines: lines.map { analyzed($0, context: context, wholeUnits: whole, bare: bare) }, context: context,
            wholeUnits: whole, bareIntegers: bare)
    }

    /// The lines of `analysis` cut into columns; a line that isn't cut keeps its detector hits.
    public func columns(of analysis: Analysis) -> [AnalyzedLine] {
        let lines = analysis.lines.map(\.line)
        let starts = LayoutAnalyzer.alignedStarts(of: lines)
        let gutters = LayoutAnalyzer.gutters(of: lines, starts: starts)
        let cut = analysis.lines.flatMap { l -> [AnalyzedLine] in
            let pieces = LayoutAnalyzer.columns(of: l.line, alignedStarts: starts, gutters: gutters)
            if pieces.count == 1 { return contactsApart(l, analysis: analysis) }
            return pieces.map {
                analyzed($0, context: analysis.context, wholeUnits: analysis.wholeUnits, bare: analysis.bareIntegers)
            }.flatMap { contactsApart($0, analysis: analysis) }
        }
        return postalCodesUnderTheirStreets(cut, context: analysis.context)
    }

    /// A line cut where its one e-mail or web address, with the label before it, ends or begins and other words go on:
    /// OCR reads two columns set close together as one line (`g.bernasconi@studio.it 20121 Milano (MI)`, `1250, boul.
    /// René-Lévesque Ouest, bureau 2200 Courriel : e.tremblay@boreal.ca`). The words before and after it become lines
    /// of their own, read again by the detectors, where they hold a digit or two words or more; a line with another
    /// contact stays whole.
    func contactsApart(_ l: AnalyzedLine, analysis: Analysis) -> [AnalyzedLine] {
        let words = l.line.words
        let contacts = l.entities.filter { [.email, .url, .phone].contains($0.type) }
        guard words.count >= 2, contacts.count == 1, let c = contacts.first, c.type != .phone else { return [l] }
        let covered = l.wordRange(of: c)
        let first = covered.lowerBound, last = covered.upperBound - 1
        let lexicon = ReceiptParser.lexicon
        func isLabel(_ w: String) -> Bool {
            let t = w.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: ":.|·•-–—"))
            return t.isEmpty || lexicon.emailLabels.contains(t) || lexicon.webLabels.contains(t)
        }
        var lo = first
        // (An e-mail's first part read apart stays with it, one to three letters ending as a local part's piece does:
        // `a. ferraresi@...`.)
        if c.type == .email, lo > 0, Text.range(words[lo - 1].text, #"^[A-Za-z]{1,3}[._-]$"#) != nil { lo -= 1 }
        while lo > 0, isLabel(words[lo - 1].text) { lo -= 1 }
        // The words of a piece without the marks that parted it, and whether they say enough to stand apart.
        func trimmed(_ ws: ArraySlice<LayoutWord>) -> [LayoutWord] {
            let marks = CharacterSet(charactersIn: "|·•-–—,;")
            let inner = ws.drop { $0.text.unicodeScalars.allSatisfy(marks.contains) }
            return Array(inner.reversed().drop { $0.text.unicodeScalars.allSatisfy(marks.contains) }.reversed())
        }
        func standsApart(_ ws: [LayoutWord]) -> Bool {
            let said = ws.filter { $0.text.contains(where: { $0.isLetter || $0.isNumber }) }
            return said.count >= 2 || said.contains(where: { $0.text.contains(where: \.isNumber) })
        }
        let before = trimmed(words[..<lo]), after = trimmed(words[(last + 1)...])
        guard standsApart(before) || standsApart(after) else { return [l] }
        // (Once cut, a short piece beside it is a line too: `Studio` of `Studio jane@x.com 20121 Milano`.)
        let pieces = [before, Array(words[lo...last]), after].filter {
            $0.contains { $0.text.contains(where: { $0.isLetter || $0.isNumber }) }
        }
        return pieces.map {
            analyzed(
                LayoutLine(page: l.line.page, words: $0, level: l.line.level, ordered: true),
                context: analysis.context, wholeUnits: analysis.wholeUnits, bare: analysis.bareIntegers)
        }
    }

    /// Postal codes that only the line above shows to be one: read alone, `Wellington 6011` or `9069 Carouge` is a
    /// town and a number; under `88 The Terrace` or `Furrerstrasse 13` the detectors take the number for the code.
    /// Each line without a code is read again after the line right above it in its column, and before the line right
    /// under it (a country printed there: `Sabana Sur, San José 10108` over `Costa Rica`), and the codes found on it
    /// are kept.
    func postalCodesUnderTheirStreets(_ lines: [AnalyzedLine], context: DetectionContext) -> [AnalyzedLine] {
        var out = lines
        for (i, l) in lines.enumerated()
        where l.entities(.postalCode).isEmpty && l.entities(.address).isEmpty && l.text.contains(where: \.isNumber) {
            // (Measured in the document's frame, `place`: on a photo turned a little, the page boxes of neighbouring
            // lines overlap.)
            let box = l.line.place, h = max(1, l.line.printHeight)
            guard let above = lines.filter({ o in
                let rise = box.midY - o.line.place.midY
                return o.line.place.horizontalOverlap(box) > 0 && rise > 0.5 * h && rise < 2.5 * h
            }).max(by: { $0.line.place.midY < $1.line.place.midY }) else { continue }
            let below = lines.filter { o in
                let drop = o.line.place.midY - box.midY
                return o.line.place.horizontalOverlap(box) > 0 && drop > 0.5 * h && drop < 2.5 * h
            }.min(by: { $0.line.place.midY < $1.line.place.midY })
            let offset = above.text.unicodeScalars.count + 1, end = offset + l.text.unicodeScalars.count
            let text = above.text + "\n" + l.text + (below.map { "\n" + $0.text } ?? "")
            let codes = detector.detect(in: text, context: context).compactMap { e -> Entity? in
                guard e.type == .postalCode, e.range.start >= offset, e.range.end <= end else { return nil }
                var moved = e
                moved.range = EntityRange(start: e.range.start - offset, end: e.range.end - offset)
                return moved
            }
            out[i].entities += codes
        }
        return out
    }

    func analyzed(_ l: LayoutLine, context: DetectionContext, wholeUnits: Bool, bare: Bool = false) -> AnalyzedLine {
        let (count, trailing) = Self.trailingAmounts(l, wholeUnits: wholeUnits, bare: bare)
        var out = AnalyzedLine(
            line: l, labelWordCount: count, trailing: trailing, entities: detector.detect(in: l.text, context: context))
        if out.entities.isEmpty { out.standingPhone = detector.phoneStandingAlone(l.text, context: context) }
        return out
    }

    /// Every locale's labels of a total, subtotal, tax, service charge, payment or change.
    static let summaryLabels: PhraseSet = {
        let lexicon = ReceiptParser.lexicon
        return PhraseSet(
            [
                LocaleLexicon.Label.total, .strongTotal, .weakTotal, .subtotal, .tax, .serviceCharge, .tender, .cash,
                .change
            ].flatMap { lexicon.words($0).phrases })
    }()

    /// Whether amounts on this document are printed without decimals (`25,000` rupiah), and whether
    /// even without a thousands separator (`AMOUNT DUE 27500`): no line ends in an amount with decimals,
    /// and at least two lines labelled as a total, tax, payment or change end in a plain number (one, when grouped
    /// amounts already show whole units), or two item lines prove it by arithmetic (`bareItemArithmetic`).
    static func amountStyle(_ lines: [LayoutLine]) -> (wholeUnits: Bool, bare: Bool) {
        var decimals = 0, grouped = 0, bareSummary = 0, bareItems = 0, wholeCurrency = 0
        for l in lines {
            guard let w = l.words.last?.text[...] else { continue }
            // A lone `0` reads as whole units but says nothing of how the others are printed.
            if Amount.parse(w) != nil {
                decimals += 1
            } else if let a = Amount.parse(w, wholeUnits: true), a.minor != 0 {
                grouped += 1
                // Beside the rupiah's or the yen's sign, one grouped amount is enough (`Total Rp181.000`, `Rp
                // 181.000`).
                let before = l.words.count >= 2 ? l.words[l.words.count - 2].text : ""
                if namesWholeUnitCurrency(String(w)) || isCurrencyToken(before) && namesWholeUnitCurrency(before) {
                    wholeCurrency += 1
                }
            } else if l.words.count >= 2, isCurrencyToken(String(w)), namesWholeUnitCurrency(String(w)),
                      let a = Amount.parse(l.words[l.words.count - 2].text[...], wholeUnits: true)
                        ?? plainWhole(l.words[l.words.count - 2].text), a.minor != 0 {
                // The sign after the amount (`261.450 Rp.`), also before a short one (`450 Ft`).
                grouped += 1
                wholeCurrency += 1
            }
            else if l.words.count >= 2, Amount.parse(w, wholeUnits: true, bare: true) != nil,
                    Text.hasAny(Text.key(l.text), summaryLabels) { bareSummary += 1 }
            if Self.bareItemArithmetic(l) { bareItems += 1 }
        }
        // Thousands groups and no cents (`25.000`): whole units, with two such amounts already when nothing is
        // printed with cents (a one-article receipt: its price and its total).
        let whole =
            grouped >= 3 && grouped > 2 * decimals || grouped >= 2 && decimals == 0
            || wholeCurrency >= 1 && decimals == 0
        // Plain integers count as amounts when two summary lines or two item lines print them so, or, once grouped
        // amounts show whole units, when one summary line does (`부가세 400` under `합계 4,400`). A grouped amount
        // beside them is whole units too when two summary lines print plain integers (`お買上合計 350`, `お釣り 650`,
        // then `お預り 1,000`).
        let bare =
            decimals == 0 && (bareSummary >= 2 || bareItems >= 2 || whole && bareSummary >= 1)
            && (grouped == 0 || whole || bareSummary >= 2)
        return (whole || bare, bare)
    }

    /// An item line that ends in a unit price and a line amount printed as plain integers, the
    /// amount being the price times a count on the line (`RENDANG OMURICE 1.00 48000 48000`,
    /// `2 12000 24000`): arithmetic, so a code or a phone number does not pass by chance.
    static func bareItemArithmetic(_ l: LayoutLine) -> Bool {
        let words = l.words.map(\.text)
        guard words.count >= 3 else { return false }
        func plain(_ w: String) -> Int? {
            w.count >= 3 && w.count <= 9 && w.first != "0" && w.allSatisfy(\.isNumber) ? Int(w) : nil
        }
        guard let amount = plain(words[words.count - 1]), let price = plain(words[words.count - 2]) else {
            return false
        }
        if amount == price { return true }
        return words.dropLast(2).contains { w in
            let count = w.trimmingCharacters(in: CharacterSet(charactersIn: "xX×@")).replacingOccurrences(
                of: ",", with: ".")
            guard let c = Decimal(string: count), c > 1, c < 1000 else { return false }
            return c * Decimal(price) == Decimal(amount)
        }
    }

    /// A word read as an amount, also when a label is glued on with a colon (`TAX(9%):2.80`).
    static func amount(in word: String, wholeUnits: Bool, bare: Bool) -> Amount? {
        if let a = Amount.parse(word[...], wholeUnits: wholeUnits, bare: bare) { return a }
        guard let colon = word.lastIndex(of: ":"), word[..<colon].contains(where: \.isLetter) else { return nil }
        return Amount.parse(word[word.index(after: colon)...], wholeUnits: wholeUnits, bare: bare)
    }

    /// The words that end `line` and read as amounts; returns the label's word count too.
    static func trailingAmounts(_ line: LayoutLine, wholeUnits: Bool, bare: Bool = false) -> (
        Int, [(amount: Amount, word: Int)]
    ) {
        var out: [(amount: Amount, word: Int)] = []
        var i = line.words.count - 1
        // A tax code or currency printed after the last amount: `9.00 SR`, `12.50 EUR`, a currency misread (`68,56
        // z1`), `3.20 A`, a tax code in one digit after an amount with decimals (`-1,95 1`), a lone mark after the
        // code (`0,25 A *`), and the currency before the code (`9,30 € A`, an app's e-receipt).
        var skipped = 0, lastWasMark = false
        while i > 0, skipped < 2 {
            let t = line.words[i].text
            // A tax code in one digit, or a tax rate's column (`2,350.00 13%`), after an amount with decimals.
            let rate = t.count >= 2 && t.count <= 5 && t.hasSuffix("%")
                && t.dropLast().allSatisfy { $0.isNumber || $0 == "," || $0 == "." } && t.first!.isNumber
            let digitCode = (t.count == 1 && t.first!.isNumber || rate)
                && (amount(in: line.words[i - 1].text, wholeUnits: wholeUnits, bare: bare)?.scale ?? 0) >= 2
            if !digitCode, amount(in: t, wholeUnits: wholeUnits, bare: bare) != nil { break }
            // (`17.99 #`: South Africa's mark of a zero-rated article.)
            let code = t.count <= 3 && t.allSatisfy({ $0.isLetter || $0 == "*" || $0 == "#" || $0 == "$" || $0 == "€" })
                || isCurrencyToken(t) || isMisreadCurrencyToken(t)
            guard code || digitCode, skipped == 0 || lastWasMark || isCurrencyToken(t) else { break }
            lastWasMark = t.allSatisfy { $0 == "*" }
            i -= 1
            skipped += 1
        }
        if i < 0 { return (line.words.count, []) }
        var end = i
        while i >= 0 {
            let t = line.words[i].text
            // An amount OCR split at its point is one amount: the space after it (`170. 00`), or before it (`32 .92`,
            // not 0.92 after a count; a count of one digit stays one: `2 .50`).
            if i > 0, out.isEmpty, let a = Self.splitAmount(line.words[i - 1].text, t) {
                out.insert((a, i - 1), at: 0)
                end = i - 1
                i -= 2
                if i >= 0, isCurrencyToken(line.words[i].text) { end = i; i -= 1 }
                continue
            }
            // A yen's or won's sign printed apart from its amount, or read as the letter it looks like (`¥ 280`, `V
            // 280`), is the amount's.
            if i > 0, wholeUnits, let a = Self.signedApart(line.words[i - 1].text, t) {
                out.insert((a, i - 1), at: 0)
                end = i - 1
                i -= 2
                continue
            }
            // On a document in whole units, a plain number before its currency's word is an amount however short
            // (`699 Ft`, `-230 Ft`, `ÁFA: 89 Ft`).
            // So is one closing the line after its currency's sign or word (`YOGHURT $ 660` among `$ 2.610`).
            let beforeCurrency = wholeUnits && out.isEmpty && i + 1 < line.words.count
                && isCurrencyToken(line.words[i + 1].text)
            let afterCurrency = wholeUnits && out.isEmpty && i == line.words.count - 1 && i > 0
                && isCurrencyToken(line.words[i - 1].text)
            if let a = amount(in: t, wholeUnits: wholeUnits, bare: bare)
                ?? (beforeCurrency || afterCurrency ? plainWhole(t) : nil)
            {
                out.insert((a, i), at: 0)
                end = i
                i -= 1
                // A currency printed as its own word before the amount, with the amount's minus before it (`-€ 0,98`).
                if i >= 0, isCurrencyToken(line.words[i].text) {
                    end = i
                    i -= 1
                } else if i >= 0, let sign = line.words[i].text.first, Amount.minusSigns.contains(sign),
                    isCurrencyToken(String(line.words[i].text.dropFirst())), out.count == 1, a.minor > 0
                {
                    out[0].amount.minor = -a.minor
                    end = i
                    i -= 1
                }
                continue
            }
            break
        }
        if out.isEmpty { return (line.words.count, []) }
        return (end, out)
    }

    /// A whole number as printed without separators (`699`, `-230`, `0`): no leading zero, at most nine digits.
    static func plainWhole(_ word: String) -> Amount? {
        let negative = word.first.map(Amount.minusSigns.contains) == true
        let digits = negative ? word.dropFirst() : word[...]
        guard (1...9).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }),
              digits.first != "0" || digits.count == 1, let n = Int(digits)
        else { return nil }
        return Amount(minor: negative ? -n : n, scale: 0)
    }

    /// The amount that a whole-unit currency's sign and the number printed apart after it make (`¥ 280`), also when OCR
    /// read the sign as the letter it looks like (`V 280`), or nil.
    static func signedApart(_ sign: String, _ number: String) -> Amount? {
        guard sign.count == 1, let c = sign.first, number.first?.isNumber == true,
            Amount.wholeUnitSigns.contains(c) || Amount.wholeUnitSignLookAlikes.contains(c.lowercased())
        else { return nil }
        return Amount.parse((sign + number)[...], wholeUnits: true)
    }

    /// The amount that two words make when OCR split it at its point (see `trailingAmounts`), or nil.
    static func splitAmount(_ left: String, _ right: String) -> Amount? {
        let after = right.count == 2 && right.allSatisfy(\.isNumber) && Text.range(left, #"^\d{1,6}[.,]$"#) != nil
        let before = Text.range(right, #"^[.,]\d{2}$"#) != nil && Text.range(left, #"^\d{2,6}$"#) != nil
        guard after || before, let a = Amount.parse((left + right)[...], wholeUnits: false), a.scale == 2 else {
            return nil
        }
        return a
    }
}
