import Foundation

/// The calendar check and ISO form every date reader shares.
public enum CalendarDate {
    private static let daysInMonth = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

    /// Whether the day exists (`2019-02-29` does not).
    public static func exists(_ y: Int, _ m: Int, _ d: Int) -> Bool {
        guard m >= 1, m <= 12, d >= 1, d <= daysInMonth[m - 1] else { return false }
        return !(m == 2 && d == 29 && !(y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)))
    }

    /// `yyyy-mm-dd`.
    public static func iso(_ y: Int, _ m: Int, _ d: Int) -> String {
        func pad(_ v: Int, _ w: Int) -> String {
            let s = String(v); return String(repeating: "0", count: max(0, w - s.count)) + s
        }
        return "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))"
    }
}

/// Numeric dates read the lenient way a document's parser needs once the detector has had its
/// say: anywhere in a line, even glued to a label or a time (`Date:15/01/2018`,
/// `9/3/201820:54:50`), and, as a last resort, with a separator lost (`2703/2018`, `05 02-18`).
/// Years are four digits from 19xx or 20xx, or two digits read in the window the detector uses
/// (`DateTimeDetector`: up to twenty years after the reference year, `95` as 1995); a date before
/// 1990 or after the year following the reference year is no document's date, and the day must exist.
/// The reference year is the caller's (the detectors' reference day: `--reference-date`), this year by default.
public enum NumericDate {
    /// The default reference year: this year, as the detectors' reference day is by default.
    public static let referenceYear = CalendarDay.today().year

    /// The years a document's date may have: from 1990 to the year after `referenceYear` (a later year is a misread,
    /// `2081` for `2018`, or a code's digits).
    public static func documentYears(referenceYear: Int = NumericDate.referenceYear) -> ClosedRange<Int> {
        1990...(referenceYear + 1)
    }

    /// Whether three numbers printed year first with single spaces (`2016 10 16`) make a date: a day that exists, in a
    /// year no further than a century from `referenceYear`. The date detector reads such a run as a date and the phone
    /// detector leaves it alone, both by this one test.
    public static func yearFirstSpaced(_ y: Int, _ m: Int, _ d: Int, referenceYear: Int) -> Bool {
        abs(y - referenceYear) <= 100 && CalendarDate.exists(y, m, d)
    }

    /// A two-digit year in the 100-year window that ends 20 years after `referenceYear`: with 2024, `44` is 2044 and
    /// `45` is 1945; with 2095, `05` is 2105.
    public static func fullYear(_ yy: Int, referenceYear: Int) -> Int {
        let century = (referenceYear / 100) * 100
        var y = century + yy
        if y > referenceYear + 20 { y -= 100 } else if y <= referenceYear - 80 { y += 100 }
        return y
    }

    /// `yy-mm-dd`, the short form of ISO 8601 that Swedish receipts print (`23-01-13`): the ISO
    /// date when `text` is two-digit fields joined by hyphens and they make a day that exists, read year first. Only
    /// a document in a language that writes its dates so asks: elsewhere `13-01-23` is day first.
    public static func shortYearFirst(_ text: String, referenceYear: Int = NumericDate.referenceYear) -> String? {
        let fields = text.split(separator: "-", omittingEmptySubsequences: false)
        guard fields.count == 3, fields.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCII) }),
            let yy = Int(fields[0]), let m = Int(fields[1]), let d = Int(fields[2])
        else { return nil }
        let y = fullYear(yy, referenceYear: referenceYear)
        return CalendarDate.exists(y, m, d) ? CalendarDate.iso(y, m, d) : nil
    }

    /// Every `yy-mm-dd` date of `text` read year first (`shortYearFirst`), where no digit or hyphen goes on before or
    /// after it (`20-10-28  13:30`, not `0520-10-28`), but for a time OCR glued to it (`24-12-0518:27`).
    public static func shortYearFirstDates(in text: String, referenceYear: Int = NumericDate.referenceYear) -> [Found] {
        // Asked of every line of every receipt: most have no hyphen, and a byte search rules them out.
        guard text.utf8.contains(UInt8(ascii: "-")) else { return [] }
        let scalars = Array(text.unicodeScalars)
        func digit(_ k: Int) -> Bool { k >= 0 && k < scalars.count && ("0"..."9").contains(scalars[k]) }
        func hyphen(_ k: Int) -> Bool { k >= 0 && k < scalars.count && scalars[k] == "-" }
        func time(_ k: Int) -> Bool {
            digit(k) && digit(k + 1) && k + 2 < scalars.count && scalars[k + 2] == ":" && digit(k + 3) && digit(k + 4)
        }
        var found: [Found] = []
        var k = 0
        while k + 8 <= scalars.count {
            let shaped = [0, 1, 3, 4, 6, 7].allSatisfy { digit(k + $0) } && hyphen(k + 2) && hyphen(k + 5)
            if shaped, !digit(k - 1), !hyphen(k - 1), !digit(k + 8) || time(k + 8), !hyphen(k + 8) {
                var piece = String.UnicodeScalarView()
                piece.append(contentsOf: scalars[k..<(k + 8)])
                if let iso = shortYearFirst(String(piece), referenceYear: referenceYear) {
                    found.append(Found(iso: iso, text: String(piece), start: k))
                    k += 8
                    continue
                }
            }
            k += 1
        }
        return found
    }

    public struct Found: Sendable, Equatable {
        /// `yyyy-mm-dd`.
        public var iso: String
        /// The text as printed.
        public var text: String
        /// Where it starts in the line, in Unicode scalars.
        public var start: Int

        init(iso: String, text: String, start: Int) {
            self.iso = iso
            self.text = text
            self.start = start
        }

        /// The date `iso` as `m` matched it in `ns`.
        init(iso: String, match m: NSTextCheckingResult, in ns: NSString) {
            self.iso = iso
            text = ns.substring(with: m.range)
            start = ns.substring(to: m.range.location).unicodeScalars.count
        }
    }

    /// Every numeric date in `text`, day first unless `monthFirst` (or when the first number
    /// cannot be a month).
    public static func anywhere(in text: String, monthFirst: Bool, referenceYear: Int = NumericDate.referenceYear)
        -> [Found]
    {
        var out: [Found] = []
        for (n, re) in anywherePatterns.enumerated() {
            let ns = text as NSString
            for m in re.matches(in: text, range: NSRange(location: 0, length: ns.length)) {
                let g = (1...3).map { Int(ns.substring(with: m.range(at: $0))) ?? 0 }
                var y: Int, mo: Int, d: Int
                if n == 0 { (y, mo, d) = (g[0], g[1], g[2]) } else {
                    (d, mo) = monthFirst ? (g[1], g[0]) : (g[0], g[1])
                    if mo > 12 && d <= 12 { swap(&d, &mo) }
                    y = g[2] < 100 ? fullYear(g[2], referenceYear: referenceYear) : g[2]
                }
                guard let iso = checked(y, mo, d, referenceYear) else { continue }
                out.append(Found(iso: iso, match: m, in: ns))
            }
        }
        return out
    }

    /// Day and month printed without the separator between them (`2703/2018`, `27032018`,
    /// `0502-18`) or with a space for it (`05 02-18`). A two-digit year needs its separator.
    public static func unseparated(in text: String, monthFirst: Bool, referenceYear: Int = NumericDate.referenceYear)
        -> Found?
    {
        let ns = text as NSString
        for re in unseparatedPatterns {
            guard let m = re.firstMatch(in: text, range: NSRange(location: 0, length: ns.length)) else { continue }
            let g = (1...3).map { Int(ns.substring(with: m.range(at: $0))) ?? 0 }
            let (d, mo) = monthFirst ? (g[1], g[0]) : (g[0], g[1])
            guard
                let iso = checked(
                    g[2] < 100 ? fullYear(g[2], referenceYear: referenceYear) : g[2], mo, d, referenceYear)
            else { continue }
            return Found(iso: iso, match: m, in: ns)
        }
        return nil
    }

    /// Day, month and year with one space read into them (`27/04/ 2021`, `18/07/202 2`, `16/1 0/2024`; also year
    /// first, `2020-05- 03`) or a separator read as a tilde (`14-09~2021`), with no letter glued before
    /// (`Printed04/09/2019`): a last resort for a line that holds no other date.
    public static func spaced(in text: String, monthFirst: Bool, referenceYear: Int = NumericDate.referenceYear)
        -> Found?
    {
        let ns = text as NSString
        for m in spacedPattern.matches(in: text, range: NSRange(location: 0, length: ns.length)) {
            let printed = ns.substring(with: m.range)
            guard printed.filter({ $0 == " " }).count <= 1 else { continue }
            let g = (1...3).map { Int(ns.substring(with: m.range(at: $0)).filter { $0 != " " }) ?? 0 }
            let (d, mo) = monthFirst ? (g[1], g[0]) : (g[0], g[1])
            guard
                let iso = checked(
                    g[2] < 100 ? fullYear(g[2], referenceYear: referenceYear) : g[2], mo, d, referenceYear)
            else { continue }
            return Found(iso: iso, match: m, in: ns)
        }
        // Year first, as ISO 8601 and Swedish, Lithuanian or Chinese tills print it (`2020-05- 03`): four digits.
        for m in spacedYearFirstPattern.matches(in: text, range: NSRange(location: 0, length: ns.length)) {
            let printed = ns.substring(with: m.range)
            guard printed.filter({ $0 == " " }).count <= 1 else { continue }
            let g = (1...3).map { Int(ns.substring(with: m.range(at: $0)).filter { $0 != " " }) ?? 0 }
            guard let iso = checked(g[0], g[1], g[2], referenceYear) else { continue }
            return Found(iso: iso, match: m, in: ns)
        }
        return nil
    }

    /// Digits OCR reads for one another, their shapes a stroke apart: 0 and 8, 6 or 9; 3 and 8; 5 and 6; 1 and 7.
    static let digitLookAlikes: [Character: [Character]] = [
        "0": ["8", "6", "9"], "8": ["0", "3"], "6": ["0", "5"], "9": ["0"], "3": ["8"], "5": ["6"], "1": ["7"],
        "7": ["1"],
    ]

    /// A date with one digit misread so that no day reads (`2016-84-24`, `08/64/2018`, `09-12-2915`): two-digit day
    /// and month and a four-digit year, year first or last, one separator twice, nothing alphanumeric around it; the
    /// date it is when exactly one digit swapped for a look-alike (`digitLookAlikes`) makes a day that exists in a
    /// document's years. Failing that, such a date with one digit glued after it (`2024-02-141`), or a month's name
    /// with one letter read as a digit (`28 Ju1 2022`). A last resort for a document that holds no date.
    public static func misread(in text: String, monthFirst: Bool, referenceYear: Int = NumericDate.referenceYear)
        -> Found?
    {
        let ns = text as NSString
        // The day the three fields make, the year first (pattern 0) or last.
        func date(_ fields: [String], yearFirst: Bool) -> String? {
            let g = fields.map { Int($0) ?? 0 }
            if yearFirst { return checked(g[0], g[1], g[2], referenceYear) }
            let (d, mo) = monthFirst ? (g[1], g[0]) : (g[0], g[1])
            return checked(g[2], mo, d, referenceYear)
        }
        for (n, re) in misreadPatterns.enumerated() {
            for m in re.matches(in: text, range: NSRange(location: 0, length: ns.length)) {
                let fields = [1, 3, 4].map { ns.substring(with: m.range(at: $0)) }
                func iso(_ f: [String]) -> String? { date(f, yearFirst: n == 0) }
                guard iso(fields) == nil else { continue }
                var readings = Set<String>()
                for k in 0..<3 {
                    let chars = Array(fields[k])
                    for (i, c) in chars.enumerated() {
                        for alike in digitLookAlikes[c] ?? [] {
                            var f = fields
                            var swapped = chars
                            swapped[i] = alike
                            f[k] = String(swapped)
                            if let found = iso(f) { readings.insert(found) }
                        }
                    }
                }
                guard readings.count == 1, let found = readings.first else { continue }
                return Found(iso: found, match: m, in: ns)
            }
        }
        // One digit glued after a date whose last field it makes too long (`2024-02-141`, `14.02.20241`: a stray mark
        // read as a 1).
        for (n, re) in gluedDigitPatterns.enumerated() {
            for m in re.matches(in: text, range: NSRange(location: 0, length: ns.length)) {
                let fields = [1, 3, 4].map { ns.substring(with: m.range(at: $0)) }
                guard let iso = date(fields, yearFirst: n == 0) else { continue }
                return Found(iso: iso, match: m, in: ns)
            }
        }
        // A month's name with a letter read as its look-alike digit (`28 Ju1 2022`, `0ct 5, 2019`).
        for (n, re) in namedMonthPatterns.enumerated() {
            for m in re.matches(in: text, range: NSRange(location: 0, length: ns.length)) {
                let name = ns.substring(with: m.range(at: n == 0 ? 2 : 1)).lowercased()
                guard name.filter(\.isNumber).count == 1, name.contains(where: \.isLetter),
                    let digit = name.firstIndex(where: \.isNumber)
                else { continue }
                let months = Set((Amount.letterLookAlikes[name[digit]] ?? []).compactMap { letter in
                    DateTimeDetector.months[name.replacingCharacters(in: digit...digit, with: letter.lowercased())]
                })
                guard months.count == 1, let month = months.first else { continue }
                let day = Int(ns.substring(with: m.range(at: n == 0 ? 1 : 2))) ?? 0
                let year = Int(ns.substring(with: m.range(at: 3))) ?? 0
                guard let iso = checked(year, month, day, referenceYear) else { continue }
                return Found(iso: iso, match: m, in: ns)
            }
        }
        return nil
    }

    /// Day, month's name and year (`28 Ju1 2022`), or month, day and year (`0ct 5, 2019`).
    private static let namedMonthPatterns: [NSRegularExpression] = [
        #"(?<![\p{L}\p{N}])(\d{1,2})[ .-]([\p{L}0-9]{3,4})\.?[ .-](\d{4})(?![\p{L}\p{N}])"#,
        #"(?<![\p{L}\p{N}])([\p{L}0-9]{3,4})\.? (\d{1,2}),? (\d{4})(?![\p{L}\p{N}])"#,
    ].map { try! NSRegularExpression(pattern: $0) }

    /// Two-digit day and month and a four-digit year, year first (the first pattern) or last, one separator twice,
    /// nothing alphanumeric around it; with `glued`, one digit more right after it.
    private static func fixedWidthDatePatterns(glued: Bool) -> [NSRegularExpression] {
        [#"(\d{4})([-/.])(\d{2})\2(\d{2})"#, #"(\d{2})([-/.])(\d{2})\2(\d{4})"#].map {
            try! NSRegularExpression(pattern: #"(?<![\p{L}\p{N}])"# + $0 + (glued ? #"\d"# : "") + #"(?![\p{L}\p{N}])"#)
        }
    }

    private static let misreadPatterns = fixedWidthDatePatterns(glued: false)
    private static let gluedDigitPatterns = fixedWidthDatePatterns(glued: true)

    /// A date in ISO 8601's basic form, year first without separators (`20180428`, `20180428/191204`): a last resort
    /// for a line the caller knows to hold a date, since any eight digits may look like one.
    public static func basic(in text: String, referenceYear: Int = NumericDate.referenceYear) -> Found? {
        let ns = text as NSString
        for m in basicPattern.matches(in: text, range: NSRange(location: 0, length: ns.length)) {
            let g = (1...3).map { Int(ns.substring(with: m.range(at: $0))) ?? 0 }
            guard let iso = checked(g[0], g[1], g[2], referenceYear) else { continue }
            return Found(iso: iso, match: m, in: ns)
        }
        return nil
    }

    /// The ISO date of year `y`, month `m` and day `d` when the day exists in one of the document years; nil otherwise.
    static func checked(_ y: Int, _ m: Int, _ d: Int, _ referenceYear: Int) -> String? {
        documentYears(referenceYear: referenceYear).contains(y) && CalendarDate.exists(y, m, d)
            ? CalendarDate.iso(y, m, d) : nil
    }

    // Compiled once: NSRegularExpression is slow to build.
    // A date's last number ends where a digit could not continue it, or where a time is glued
    // on (`2018-01-0522:55:25`, `06/04/1711:43am`: OCR drops the space between the two).
    private static let anywherePatterns: [NSRegularExpression] = [
        #"(?<!\d)((?:19|20)\d{2})[-/.](\d{1,2})[-/.](\d{1,2})(?:(?!\d)|(?=\d{1,2}:[0-5]\d))"#,
        #"(?<!\d)(\d{1,2})[-/.](\d{1,2})[-/.]((?:19|20)\d{2})"#,
        #"(?<!\d)(\d{1,2})[-/.](\d{1,2})[-/.](\d{2})(?:(?![\d/.-])|(?=\d{1,2}:[0-5]\d))"#,
    ].map { try! NSRegularExpression(pattern: $0) }

    private static let basicPattern = try! NSRegularExpression(
        pattern: #"(?<![\d.,:-])((?:19|20)\d{2})(\d{2})(\d{2})(?![\d.,:-])"#)

    private static let spacedPattern = try! NSRegularExpression(
        pattern: #"(?<![\p{L}\d/.:~-])(\d ?\d?) ?[-/.~] ?(\d ?\d?) ?[-/.~] ?((?:1 ?9|2 ?0) ?\d ?\d|\d\d)(?![\d/.:~-])"#)

    private static let spacedYearFirstPattern = try! NSRegularExpression(
        pattern: #"(?<![\p{L}\d/.:~-])((?:19|20)\d\d) ?[-/.~] ?(\d ?\d?) ?[-/.~] ?(\d ?\d?)(?![\d/.:~-])"#)

    private static let unseparatedPatterns: [NSRegularExpression] = [
        #"(?<![\d/.:-])(\d{2})(\d{2})[-/.]?((?:19|20)\d{2})(?![\d/.:-])"#,
        #"(?<![\d/.:-])(\d{2})(\d{2})[-/.](\d{2})(?![\d/.:-])"#,
        // One separator read as a space: `05 02-18`.
        #"(?<![\d/.:-])(\d{2}) (\d{2})[-/.](\d{2}|(?:19|20)\d{2})(?![\d/.:-])"#,
    ].map { try! NSRegularExpression(pattern: $0) }
}
