import Foundation
import ScanDetectors
import ScanModel

// Date, time, receipt number and currency.
extension ReceiptParser {
    /// Numeric dates printed anywhere in a line, even glued to a label or a time (`Date:15/01/2018`,
    /// `9/3/201820:54:50`): their ISO value (day first unless `monthFirst`, or when the first number can't be a month)
    /// and the printed text.
    static func numericDates(in text: String, monthFirst: Bool) -> [(iso: String, text: String, start: Int)] {
        var out: [(String, String, Int)] = []
        let patterns = [#"(?<!\d)((?:19|20)\d{2})[-/.](\d{1,2})[-/.](\d{1,2})(?!\d)"#,
                        #"(?<!\d)(\d{1,2})[-/.](\d{1,2})[-/.]((?:19|20)\d{2})"#,
                        #"(?<!\d)(\d{1,2})[-/.](\d{1,2})[-/.](\d{2})(?![\d/.-])"#]
        for (n, pat) in patterns.enumerated() {
            let re = RegexCache.shared.regex(pat, caseInsensitive: false)
            let ns = text as NSString
            for m in re.matches(in: text, range: NSRange(location: 0, length: ns.length)) {
                let g = (1...3).map { Int(ns.substring(with: m.range(at: $0))) ?? 0 }
                var y: Int, mo: Int, d: Int
                if n == 0 { (y, mo, d) = (g[0], g[1], g[2]) } else {
                    (d, mo) = monthFirst ? (g[1], g[0]) : (g[0], g[1])
                    if mo > 12 && d <= 12 { swap(&d, &mo) }
                    y = g[2] < 100 ? 2000 + g[2] : g[2]
                }
                guard (1...12).contains(mo), (1...31).contains(d), (1990...2100).contains(y) else { continue }
                let start = ns.substring(to: m.range.location).unicodeScalars.count
                out.append((String(format: "%04d-%02d-%02d", y, mo, d), ns.substring(with: m.range), start))
            }
        }
        return out
    }

    /// A date-like run that continues a product or reference code (`HD03-04-06`, `SKU12.05.19`):
    /// letters or digits right before it, other than a date label glued on (`DATE:`, `Tarikh`).
    static func gluedToCode(_ scalars: [Unicode.Scalar], at start: Int) -> Bool {
        guard start > 0, start <= scalars.count else { return false }
        let before = scalars[start - 1]
        guard before.properties.isAlphabetic || ("0"..."9").contains(before) else { return false }
        var word = ""
        var i = start - 1
        while i >= 0, scalars[i].properties.isAlphabetic { word.unicodeScalars.insert(scalars[i], at: word.unicodeScalars.startIndex); i -= 1 }
        let labels = ["DATE", "DATED", "TARIKH", "DATUM", "FECHA", "DATA", "DT", "ON"]
        return !labels.contains { word.uppercased().hasSuffix($0) }
    }

    /// Whether numeric dates on this receipt put the month first: a North American phone number or a printed `$`
    /// without another currency; overruled by any numeric date that can only be read one way.
    static func monthFirst(_ lines: [AnalyzedLine]) -> Bool {
        // A cached NSRegularExpression: a Swift regex literal is parsed again at every call on Linux.
        let re = RegexCache.shared.regex(#"(?:^|\D)(\d{1,2})[-/.](\d{1,2})[-/.](?:\d{2,4})"#, caseInsensitive: false)
        for l in lines {
            let ns = l.text as NSString
            for m in re.matches(in: l.text, range: NSRange(location: 0, length: ns.length)) {
                if let a = Int(ns.substring(with: m.range(at: 1))), let b = Int(ns.substring(with: m.range(at: 2))) {
                    if a > 12 && b <= 12 { return false }
                    if b > 12 && a <= 12 { return true }
                }
            }
        }
        // A phone written the North American way, `(562) 597-0906` or `562-597-0906`, not any number that parses as one.
        let nanp = lines.contains { l in l.entities(.phone).contains { e in
            (e.value.e164?.hasPrefix("+1") ?? false)
                && Text.range(e.text, #"^(?:\+?1[\s.-]?)?\(?\d{3}\)?[\s.-]?\d{3}[\s.-]\d{4}$"#) != nil } }
        let dollar = lines.filter { Text.range($0.text, #"\$\s?\d"#) != nil }.count >= 2
        let other = lines.contains { Text.range($0.text, #"\bRM\s?\d|\bRM\b|MYR|EUR|GBP|SGD|S\$|€|£"#) != nil }
        return nanp || (dollar && !other)
    }

    /// The date is the best-scored of the dates printed on the receipt (`ReceiptFieldFeatures.dateCandidates`).
    func parseDateTime(_ lines: [AnalyzedLine], features: ReceiptFieldFeatures, into r: inout Receipt, findings: inout [Finding],
                       candidates: inout [ReceiptField: [FieldCandidate]]) {
        let monthFirst = Self.monthFirst(lines)
        let dates = ranked(features.dateCandidates(monthFirst: monthFirst), .date)
        candidates[.date] = dates
        var best: (score: Double, iso: String, prov: Provenance, line: AnalyzedLine)?
        if let b = dates.first {
            best = (b.score, b.value, Self.scored(b, over: dates.dropFirst().first), lines[b.lines.lowerBound])
        }
        if best == nil, let (iso, text, l) = Self.gluedDate(lines, monthFirst: monthFirst) {
            var p = l.line.provenance()
            p.text = text
            best = (0, iso, p, l)
            findings.append(Finding(code: "receipt-date-unseparated", message: "the date was read from digits printed without all their separators: '\(text)'",
                                    page: l.line.page, field: "receipt.date"))
        }
        if let b = best {
            r.date = b.iso
            r.provenance["date"] = b.prov
            // The time printed next to the date, else the first time on the receipt.
            let t = b.line.entities(.time).first.map { ($0, b.line) }
                ?? lines.lazy.compactMap { l in l.entities(.time).first.map { ($0, l) } }.first
            if let (e, l) = t, let v = e.value.time {
                r.time = v
                r.provenance["time"] = l.provenance(of: e)
            }
        } else if let (e, l) = lines.lazy.compactMap({ l in l.entities(.time).first.map { ($0, l) } }).first, let v = e.value.time {
            r.time = v
            r.provenance["time"] = l.provenance(of: e)
        }
    }

    /// Last resort when no date was read: day and month printed without the separator between
    /// them (`2703/2018`, `27032018`, `0502-18`) or with a space for it (`05 02-18`), on a line with no amount and no phone or registration label.
    /// A two-digit year needs its separator; the date must be a real calendar day.
    static func gluedDate(_ lines: [AnalyzedLine], monthFirst: Bool) -> (String, String, AnalyzedLine)? {
        let patterns = [#"(?<![\d/.:-])(\d{2})(\d{2})[-/.]?((?:19|20)\d{2})(?![\d/.:-])"#,
                        #"(?<![\d/.:-])(\d{2})(\d{2})[-/.](\d{2})(?![\d/.:-])"#,
                        // One separator read as a space: `05 02-18`.
                        #"(?<![\d/.:-])(\d{2}) (\d{2})[-/.](\d{2}|(?:19|20)\d{2})(?![\d/.:-])"#]
        for l in lines where l.amount == nil && !Text.hasAny(l.key, ["TEL", "FAX", "PHONE", "HP", "H P", "MOBILE", "GST", "REG"]) {
            let ns = l.text as NSString
            for pat in patterns {
                let re = RegexCache.shared.regex(pat, caseInsensitive: false)
                guard let m = re.firstMatch(in: l.text, range: NSRange(location: 0, length: ns.length)) else { continue }
                let g = (1...3).map { Int(ns.substring(with: m.range(at: $0))) ?? 0 }
                let (d, mo) = monthFirst ? (g[1], g[0]) : (g[0], g[1])
                let y = g[2] < 100 ? 2000 + g[2] : g[2]
                var c = DateComponents()
                c.year = y; c.month = mo; c.day = d
                guard (1...12).contains(mo), (1...31).contains(d), (1990...2100).contains(y),
                      let date = Calendar(identifier: .gregorian).date(from: c),
                      Calendar(identifier: .gregorian).component(.day, from: date) == d else { continue }
                return (String(format: "%04d-%02d-%02d", y, mo, d), ns.substring(with: m.range), l)
            }
        }
        return nil
    }

    /// A numeric date the detectors passed over (`18-11-18 13:58`), read day first unless `monthFirst`.
    static func fallbackDate(_ lines: [AnalyzedLine], monthFirst: Bool) -> (String, AnalyzedLine)? {
        for l in lines {
            guard let m = Text.range(l.text, #"\b(\d{1,2})[-/.](\d{1,2})[-/.](\d{2}|\d{4})\b"#) else { continue }
            let n = l.text[m].split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
            guard n.count == 3 else { continue }
            var (d, mo) = monthFirst ? (n[1], n[0]) : (n[0], n[1])
            if mo > 12 && d <= 12 { swap(&d, &mo) }
            let y = n[2] < 100 ? 2000 + n[2] : n[2]
            guard (1...12).contains(mo), (1...31).contains(d), (1990...2100).contains(y) else { continue }
            return (String(format: "%04d-%02d-%02d", y, mo, d), l)
        }
        return nil
    }

    func parseReferences(_ lines: [AnalyzedLine], into r: inout Receipt) {
        let pattern = #"(?i)\b(?:receipt|invoice|inv|bill|check|chk|trans(?:action)?|order|doc(?:ument)?|ticket|beleg|bon|facture|no\.? de ticket)\s*(?:no\.?|number|num|nr\.?|#)?\s*[:#.]?\s*([A-Z]{0,4}[-/]?[0-9][0-9A-Z\-/]{2,})"#
        for l in lines {
            if let m = Text.range(l.text, pattern) {
                let s = String(l.text[m])
                if let v = Text.range(s, #"[A-Z]{0,4}[-/]?[0-9][0-9A-Z\-/]{2,}$"#) {
                    r.receiptNumber = String(s[v])
                    r.provenance["receiptNumber"] = l.line.provenance()
                    break
                }
            }
        }
        var counts: [String: Int] = [:]
        for l in lines { for e in l.entities(.money) { if let c = e.value.currency { counts[c, default: 0] += 1 } } }
        if let c = counts.max(by: { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) })?.key {
            r.currency = c
        }
    }
}
