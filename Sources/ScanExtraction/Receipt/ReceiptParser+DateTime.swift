import Foundation
import ScanDetectors
import ScanModel

// Date, time, receipt number and currency.
extension ReceiptParser {
    /// A date-like run that continues a product or reference code (`HD03-04-06`, `SKU12.05.19`):
    /// letters or digits right before it, other than a date label glued on (`DATE:`, `Tarikh`).
    /// A detector's whole date `text` with a four-digit year after three digits or more (`0934-000105/01/2018 13:30`)
    /// is a date whose space OCR lost: no date's field is that long, and the detector reads such dates only in a
    /// till's stamp, with the time after them.
    static func gluedToCode(_ scalars: [Unicode.Scalar], at start: Int, text: String = "") -> Bool {
        guard start > 0, start <= scalars.count else { return false }
        let before = scalars[start - 1]
        func digit(_ c: Unicode.Scalar) -> Bool { ("0"..."9").contains(c) }
        if !text.isEmpty, digit(before), start >= 3, digit(scalars[start - 2]), digit(scalars[start - 3]),
            text.unicodeScalars.suffix(4).allSatisfy(digit), !digit(text.unicodeScalars.dropLast(4).last ?? "0")
        {
            return false
        }
        guard before.properties.isAlphabetic || digit(before) else { return false }
        var word = ""
        var i = start - 1
        while i >= 0, scalars[i].properties.isAlphabetic {
            word.unicodeScalars.insert(scalars[i], at: word.unicodeScalars.startIndex); i -= 1
        }
        let upper = word.uppercased()
        return !dateLabels.contains { upper.hasSuffix($0) }
    }

    /// The one-word date labels of every locale (`DATE`, `TARIKH`, `DATUM`).
    static let dateLabels = PhraseSet(lexicon.words(.date).filter { !$0.contains(" ") })

    /// Whether numeric dates on this receipt put the month first: a North American phone number or a printed `$`,
    /// (not in a day-first language), without another currency or cents after a comma; overruled by any numeric date
    /// that can only be read one way. Only a date that stands as one counts: one separator twice, nothing
    /// alphanumeric glued before it, and a year of two or four digits that ends there or runs into a time
    /// (`06/04/1711:43`). A document number such as `T03-18/199913`, or a phone number in pairs (`08.34.79.39.78`),
    /// is no evidence.
    static func monthFirst(_ lines: [AnalyzedLine], region: String? = nil) -> Bool {
        // A cached NSRegularExpression: a Swift regex literal is parsed again at every call on Linux.
        let re = RegexCache.shared.regex(
            #"(?<![\p{L}\p{N}]|\d[-/.])(\d{1,2})([-/.])(\d{1,2})\2(?:(?:19|20)\d{2}|\d{2})(?:(?![\d]|[-/.]\d)|(?=\d{1,2}:[0-5]\d))"#,
            caseInsensitive: false)
        for l in lines {
            let ns = l.text as NSString
            for m in re.matches(in: l.text, range: NSRange(location: 0, length: ns.length)) {
                if let a = Int(ns.substring(with: m.range(at: 1))), let b = Int(ns.substring(with: m.range(at: 3))) {
                    if a > 12 && b <= 12 { return false }
                    if b > 12 && a <= 12 { return true }
                }
            }
        }
        // A phone written the North American way, `(562) 597-0906` or `562-597-0906`, not any number that parses as
        // one.
        let nanp = lines.contains { l in
            l.entities(.phone).contains { e in
                (e.value.e164?.hasPrefix("+1") ?? false)
                    && Text.range(e.text, #"^(?:\+?1[\s.-]?)?\(?\d{3}\)?[\s.-]?\d{3}[\s.-]\d{4}$"#) != nil
            }
        }
        // Without such a phone, a region the text points to (or the user gave) writes its dates its own way, whatever
        // sign its money has (`$` in Chile or Colombia). Canada writes them both ways: its region says nothing.
        if let region, region != "CA", !nanp { return DataDetector.monthFirstRegions.contains(region) }
        let dollar = lines.filter { Text.range($0.text, #"\$\s?\d"#) != nil }.count >= 2
        let other = lines.contains { Text.range($0.text, #"\bRM\s?\d|\bRM\b|MYR|EUR|GBP|SGD|S\$|€|£"#) != nil }
        // Cents after a comma (`35,39`) are written nowhere month-first dates are: a number that reads as a North
        // American phone does not make such a receipt American.
        let commaCents =
            lines.filter { l in
                l.amount.map { $0.scale == 2 } == true
                    && Text.range(l.text, #"\d,\d{2}(?:\s?(?:€|EUR|[A-Z]{1,3}))?\s*$"#) != nil
            }.count >= 2
        // A `$` on a receipt in a language whose dates put the day first (Spanish in Mexico, French in Quebec) is no
        // evidence; a North American phone still is (a Spanish menu in Los Angeles).
        // The language is looked for only when the dollar is the one evidence.
        guard (nanp || dollar) && !other && !commaCents else { return false }
        return nanp || lexicon.leadingLocale(of: lines.map(\.key)).map { $0.dateOrders.first == "MDY" } ?? true
    }

    /// Whether the receipt is in a language that prints a short date year first with hyphens (`23-01-13` in
    /// Sweden): one whose locale file lists `YMD` first, and whose words the receipt prints more than any other
    /// language's (`Lexicon.leadingLocale`). Asked only of a receipt that prints a date so.
    static func writesShortDatesYearFirst(_ lines: [AnalyzedLine]) -> Bool {
        guard lines.contains(where: { !NumericDate.shortYearFirstDates(in: $0.text).isEmpty }) else { return false }
        return lexicon.leadingLocale(of: lines.map(\.key))?.dateOrders.first == "YMD"
    }

    /// The date is the best-scored of the dates printed on the receipt (`ReceiptFieldFeatures.dateCandidates`).
    func parseDateTime(
        _ lines: [AnalyzedLine], features: ReceiptFieldFeatures, into r: inout Receipt, findings: inout [Finding],
        candidates: inout [ReceiptField: [FieldCandidate]]
    ) {
        let monthFirst = Self.monthFirst(lines, region: region)
        // A day past its month's end (`Feb 30 2025`, which the detector gives as printed) is no receipt's date.
        let dates = ranked(
            features.dateCandidates(
                monthFirst: monthFirst, shortYearFirst: Self.writesShortDatesYearFirst(lines),
                referenceYear: referenceYear
            ).filter { CalendarDay(iso: $0.value) != nil }, .date)
        candidates[.date] = dates
        var best: (score: Double, iso: String, prov: Provenance, line: AnalyzedLine)?
        if let b = dates.first {
            best = (b.score, b.value, Self.scored(b, over: dates.dropFirst().first), lines[b.lines.lowerBound])
        }
        // The last resort also when the only dates read are labelled as no issue date (`Printed 2020-12-29`, `Valid
        // until`): the till's own date with a space read into it (`2020-05- 03 21:18`) is the receipt's.
        let notIssue = Self.notIssueDateWords
        let otherDatesOnly = best.map { Text.hasAny($0.line.key, notIssue) } ?? true
        if otherDatesOnly,
            let (iso, text, l) = Self.gluedDate(lines, monthFirst: monthFirst, referenceYear: referenceYear),
            best == nil || !Text.hasAny(l.key, notIssue)
        {
            var p = l.line.provenance()
            p.text = text
            best = (0, iso, p, l)
            findings.append(
                Finding(
                    code: "receipt-date-unseparated",
                    message: "the date was read from digits printed without all their separators: '\(text)'",
                    page: l.line.page, field: "receipt.date"))
        }
        if let b = best {
            r.date = b.iso
            r.provenance["date"] = b.prov
            // The time printed next to the date, else the first time on the receipt.
            let t =
                b.line.entities(.time).first.map { ($0, b.line) }
                ?? lines.lazy.compactMap { l in l.entities(.time).first.map { ($0, l) } }.first
            if let (e, l) = t, let v = e.value.time {
                r.time = v
                r.provenance["time"] = l.provenance(of: e)
            }
        } else if let (e, l) = lines.lazy.compactMap({ l in l.entities(.time).first.map { ($0, l) } }).first,
            let v = e.value.time
        {
            r.time = v
            r.provenance["time"] = l.provenance(of: e)
        }
    }

    /// Every locale's contact, tax-id and tax labels: a line with one holds a phone or a registration number, no date.
    static let otherNumberLabels = lexicon.words(.contact) + taxIdWords + taxWords

    /// Last resort when no date was read: a date whose separator was lost (`2703/2018`,
    /// `05 02-18`; ``NumericDate/unseparated(in:monthFirst:)``) or with a space read into it (`27/04/ 2021`;
    /// ``NumericDate/spaced(in:monthFirst:)``), on a line with no amount and
    /// no phone or registration label.
    /// On a line labelled as a date, or under one, the year-first basic form (`20180428/191204`) is read too. Failing
    /// all of these, a date with one digit misread (``NumericDate/misread(in:monthFirst:referenceYear:)``).
    static func gluedDate(_ lines: [AnalyzedLine], monthFirst: Bool, referenceYear: Int) -> (
        String, String, AnalyzedLine
    )? {
        let labels = lexicon.words(.date)
        for (i, l) in lines.enumerated() where l.amount == nil && !Text.hasAny(l.key, otherNumberLabels) {
            if let found = NumericDate.unseparated(in: l.text, monthFirst: monthFirst, referenceYear: referenceYear)
                ?? NumericDate.spaced(in: l.text, monthFirst: monthFirst, referenceYear: referenceYear)
            {
                return (found.iso, found.text, l)
            }
            let labelled = Text.hasAny(l.key, labels) || i > 0 && Text.hasAny(lines[i - 1].key, labels)
            if labelled, let found = NumericDate.basic(in: l.text, referenceYear: referenceYear) {
                return (found.iso, found.text, l)
            }
        }
        // Then a date with one digit misread (`2016-84-24`), on the same lines.
        for l in lines where l.amount == nil && !Text.hasAny(l.key, otherNumberLabels) {
            if let found = NumericDate.misread(in: l.text, monthFirst: monthFirst, referenceYear: referenceYear) {
                return (found.iso, found.text, l)
            }
        }
        return nil
    }

    /// A receipt's or invoice's number after the name of the document in any locale (`receiptNumber` labels), with or
    /// without a number sign (`Rechnung Nr. 2026-1206`, `Facture n° F-0412`, `Bon-Nr. 7788`, `Kvitto 4411`).
    static let referencePattern: String = {
        let names = lexicon.words(.receiptNumber).phrases.sorted { ($0.count, $0) > ($1.count, $1) }.map { phrase in
            phrase.split(separator: " ").map { NSRegularExpression.escapedPattern(for: String($0)) }
                .joined(separator: #"[\s.\-]*"#)
        }
        let signs = numberSignPatterns
        // The name ends its word, unless a number sign is glued to it (`ReceiptNo:`, `INVOICENO:`); an amount after a
        // credit note's name (`AVOIR 150,00`) is none.
        // A class letter may stand between the name and its sign (`TIQUE FACTURA B Nro.`), and a series of letters
        // before the number, set apart (`FS 0412/018853`, `FR A/2291`, `Folio A 1187`).
        // (A sign is no series: `RECEIPT NO 001234`.)
        let notSign = #"(?!(?:"# + signs.joined(separator: "|") + #")\s)"#
        return #"(?i)(?<![\p{L}\p{N}])(?:"# + names.joined(separator: "|") + #")(?:(?:\s+[A-C](?=\s))?[\s.\-]*(?:"#
            + signs.joined(separator: "|") + #")(?![\p{L}\p{N}])|(?!\p{L}))\.?\s*[:#.]?\s*"#
            + #"((?:"# + notSign + #"(?-i:(?<!\p{L})[A-Z]{1,2}\s(?=[A-Z]{0,2}[-/]?[0-9])))?[A-Z]{0,4}[-/]?[0-9][0-9A-Z\-/]{2,})"#
            + #"(?![.,]\d)"#
    }()

    /// The signs for "number" between a document's name and its number (`Nº`, `n.º`, `#`, the files' `numberSigns`,
    /// `NRO`, `ID`), as patterns, longest first.
    static let numberSignPatterns: [String] = [#"N\.?[°º]"#, "#"]
        + lexicon.numberSigns.union(["N", "NO", "NRO", "ID"]).sorted { ($0.count, $0) > ($1.count, $1) }
        .map { NSRegularExpression.escapedPattern(for: $0) }

    /// A line opening with a sign for "number" or a colon (`Nº 123456789`, `No. 4411`, `: CR 1803/0064`).
    static let signOpening = #"(?i)^\s*(?:"# + (numberSignPatterns + [":"]).joined(separator: "|") + #")(?![\p{L}])"#

    /// The receipt-number names as `Text.key` reads a line that holds one alone (`BOLETA ELECTRONICA`).
    static let receiptNumberNames = Set(lexicon.words(.receiptNumber).phrases)

    func parseReferences(_ lines: [AnalyzedLine], into r: inout Receipt) {
        let pattern = Self.referencePattern
        let names = Self.receiptNumberNames
        for (i, l) in lines.enumerated() {
            // A document's name alone on its line takes its number from the next when that opens with a sign for
            // "number" or a colon (`BOLETA ELECTRONICA`, then `Nº 12345`; not `RECEIPT` over `123 MAIN ST`).
            let next = i + 1 < lines.count ? lines[i + 1].text : ""
            let joined = names.contains(l.key) && Text.range(next, Self.signOpening) != nil
            let text = joined ? l.text + " " + next : l.text
            if let number = Text.groups(text, pattern)?.first, !number.isEmpty {
                // (A date after the name, `RECEIPT` over `19/10/2018 20:49`, is the date.)
                if Text.range(number, #"^\d{1,4}[-/.]\d{1,2}[-/.]\d{2,4}$"#) == nil {
                    r.receiptNumber = number
                    r.provenance["receiptNumber"] = l.line.provenance()
                    break
                }
            }
        }
        var counts: [String: Int] = [:]
        for l in lines { for e in l.entities(.money) { if let c = e.value.currency { counts[c, default: 0] += 1 } } }
        if let c = counts.max(by: { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) })?.key {
            r.currency = c
        } else if let c = Self.lexicon.leadingLocale(of: lines.map(\.key))?.currency {
            // No amount names its currency: a receipt in the language of one country is in that country's.
            r.currency = c
        }
    }
}
