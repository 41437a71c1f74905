import ScanModel

/// Dates (to ISO `yyyy-mm-dd`) and times of day (to 24-hour `HH:MM[:SS]`).
///
/// Numeric dates (`2018-7-6`, `16.04.2010`, `04/21/2020`, `1/5/19`) take their order from
/// the form itself when one field is above 12 or the year comes first, then from the
/// document's evidence, then from the region; when none decides, the month-first
/// reading is given with `ambiguous` set and the other reading as an alternative.
/// Dates with month names or abbreviations in English, French, German, Spanish, Italian,
/// Dutch, Malay and Indonesian accept the orders people print: `25 DEC 2018`, `Dec. 31, 1994`,
/// `05-Aug-2016`, `Feb23'19`, `4th of July, 1995`, `2019-aug-1`, `5 de mayo de 2020`,
/// `Sep-2020-23`, `2020-23-Sep`, `17 Agustus 1945`, `1º de enero de 2020`, `08/12,2015`.
/// In English the day and the year may be words (`SpelledNumber`): `the twenty-second of June 2017`,
/// `May twenty one, 2016`, `March 3rd two thousand and eighteen`, `June 5, nineteen eighty-six`.
/// Chinese, Japanese and Korean dates and times with their unit signs (`2021年3月5日`, `令和3年3月5日`,
/// `2021년 3월 5일`, `午後2時30分`) are read by `EastAsianDate`.
/// Every date needs a year. Numeric dates must exist in the calendar (`2/29/2019` is not a
/// date); a date with a month name is taken as written when its day is at most 31
/// (`feb 30 2019` gives `2019-02-30`): the words say plainly that a date was meant, and the
/// caller sees the slip rather than losing the field.
struct DateTimeDetector {
    /// Order given by the document context; nil: use this text's own evidence.
    let dayFirst: Bool?
    /// Order of the region, used when neither the context nor the text decides.
    var regionDayFirst: Bool? = nil
    let referenceYear: Int

    // MARK: - Month names

    /// Each month's English names and abbreviations, then those of the other languages.
    private static let monthNames: [(month: Int, english: String, others: String)] = [
        (
            1, "january jan",
            "janv janvier januar jänner jän jaenner enero ene gennaio gen januari janeiro styczeń stycznia sty ocak"
        ),
        (
            2, "february feb",
            "febr février fevrier févr fevr fév fev februar febrero febbraio februari fevereiro luty lutego lut şubat subat"
        ),
        (3, "march mar", "mars märz maerz mrz marzo maart mrt mac maret março marco marzec marca marts"),
        (4, "april apr", "avril avr abril abr aprile kwiecień kwietnia kwi nisan"),
        (5, "may", "mai mayo maggio mag mei maio maj maja mayıs mayis"),
        (6, "june jun", "juin juni junio giugno giu junho czerwiec czerwca cze haziran"),
        (7, "july jul", "juillet juil juli julio luglio lug julai julho lipiec lipca lip temmuz"),
        (8, "august aug", "août aout agosto ago augustus augusti ogos ogo agustus agu agt sierpień sierpnia sie ağustos agustos"),
        (9, "september sep sept", "septembre septiembre setiembre settembre sett setembro set wrzesień września wrz eylül eylul"),
        (10, "october oct", "octobre oktober okt octubre ottobre ott outubro out październik października paź ekim"),
        (11, "november nov", "novembre noviembre novembro listopad listopada lis"),
        (
            12, "december dec",
            "décembre decembre déc dezember dez diciembre dic dicembre disember dis desember des dezembro grudzień grudnia gru aralık aralik"
        )
    ]

    static let months: [String: Int] = {
        var d: [String: Int] = [:]
        for (m, english, others) in monthNames {
            for w in (english + " " + others).split(separator: " ") { d[String(w)] = m }
        }
        return d
    }()

    static let monthTable = WordTable(months)
    /// The English month names and abbreviations: days and years in words are English, and pair only with these
    /// (`Check out ten 2023 models` holds Portuguese `out`, October, but no date).
    static let englishMonthTable = WordTable(Set(monthNames.flatMap { row in
        row.english.split(separator: " ").map(String.init)
    }))
    static let joinerTable = WordTable(joiners)
    static let suffixTable = WordTable(ordinalSuffixes)

    /// Words that may stand between the parts of a date.
    static let joiners: Set<String> = ["of", "de", "del", "the", "du", "der", "den"]
    /// Ordinal suffixes after a day number.
    static let ordinalSuffixes: Set<String> = [
        "st", "nd", "rd", "th", "er", "e", "eme", "ème", "re", "o", "a", "te", "ste", "º", "ª", "°",
    ]

    private enum Part {
        case num(value: Int, digits: Int, ordinal: Bool)
        case month(Int)
        case shortYear(Int) // '19
        /// A day in words: `first`, `twenty-second`, or a cardinal (`twenty one`); see `named` for where each counts.
        case dayWord(Int, cardinal: Bool)
    }

    /// One part of a date at `i`, and where it ends. Words that can be a day or a year (`twenty twenty`) are read
    /// as a year first, but as a day only in the middle of a date (`middle`), where no form has a year in words.
    private func part(_ s: ScanText, _ i: Int, middle: Bool = false) -> (Part, Int)? {
        let c = s.numAt(i)
        if isDigit(c) {
            var e = i
            while e < s.count, isDigit(s.num[e]) { e += 1 }
            // A month name whose first O OCR read as a zero (`22 0ct 2015`, `0kt`, `0ttobre`).
            if e == i + 1, c == 0x30, isWordLetter(s.at(e)) {
                let we = s.wordEnd(from: e)
                if we - e >= 2, we - e <= 11, let m = DateTimeDetector.months["o" + s.string(e, we).lowercased()] {
                    return (.month(m), s.at(we) == 0x2E ? we + 1 : we)
                }
            }
            if let year = yearGluedToTime(s, i, e) { return (.num(value: year, digits: 4, ordinal: false), i + 4) }
            let digits = e - i
            guard digits <= 4 else { return nil }
            // An hour (`January 1997 11:08`) is no day.
            if digits <= 2, s.at(e) == 0x3A, isDigit(s.numAt(e + 1)) { return nil }
            let v = readInt(s, i, e)
            var ordinal = false
            if isWordLetter(s.at(e)) {
                let we = s.wordEnd(from: e)
                if digits <= 2, DateTimeDetector.suffixTable.contains(s, e, we) {
                    ordinal = true
                    e = we
                } else if DateTimeDetector.monthTable.lookup(s, e, we) == nil {
                    // A number glued to letters ("3kg") is not a date part, unless a month follows ("23Feb").
                    return nil
                }
            }
            return (.num(value: v, digits: digits, ordinal: ordinal), e)
        }
        if c == 0x27 || c == 0xE2 && s.at(i + 1) == 0x80 && s.at(i + 2) == 0x99 {
            let d = c == 0x27 ? i + 1 : i + 3
            if isDigit(s.numAt(d)), isDigit(s.numAt(d + 1)), !isDigit(s.numAt(d + 2)) {
                return (.shortYear(readInt(s, d, d + 2)), d + 2)
            }
            return nil
        }
        if isWordLetter(c) {
            let e = s.wordEnd(from: i)
            // (Bytes: the longest month name, Polish `października`, takes 14.)
            guard e - i <= 14 else { return nil }
            if let m = DateTimeDetector.monthTable.lookup(s, i, e) {
                var end = e
                if s.at(end) == 0x2E { end += 1 }
                return (.month(m), end)
            }
            guard isAlpha(c), SpelledNumber.numberWordTable.contains(s, i, e) else { return nil }
            if !middle, let (y, ye) = SpelledNumber.year(s, i) {
                return (.num(value: y, digits: 4, ordinal: false), ye)
            }
            if let (d, de, ordinal) = SpelledNumber.day(s, i) { return (.dayWord(d, cardinal: !ordinal), de) }
        }
        return nil
    }

    /// The farthest a named date's first digit can be from its start: three parts of at
    /// most 16 bytes and two separators of at most 12, with room to spare.
    static let namedDateReach = 96

    /// Skips a separator between date parts; returns the next part's start or nil.
    private func separator(_ s: ScanText, _ i: Int) -> Int? {
        var p = i
        var count = 0
        while p < s.count, count < 4 {
            let c = s.bytes[p]
            if c == 0x20 || c == 0x2D || c == 0x2F || c == 0x2C || c == 0x2E {
                p += 1; count += 1
            } else if isAlpha(c), case let e = s.wordEnd(from: p), DateTimeDetector.joinerTable.contains(s, p, e),
                s.at(e) == 0x20
            {
                p = e; count += 1
            } else { break }
        }
        return p
    }

    /// Appends dates to `hits`; returns the counts of numeric dates whose form alone shows
    /// day-first and month-first order (evidence for the ambiguous ones).
    @discardableResult
    func detectDates(_ s: ScanText, into hits: inout [Hit]) -> (dayFirst: Int, monthFirst: Int) {
        var numericHits: [(Hit, Int, Int, Int, Bool)] = [] // hit, a, b, year, order fixed
        var evidenceDayFirst = 0, evidenceMonthFirst = 0
        let n = s.count
        var i = 0
        var nextDigit = -1 // the first digit at or after the last word tried (n: none)
        var spelledYears: Bool? // whether the text holds a year in words: looked for once, when first needed
        while i < n {
            let c = s.num[i]
            let prev = s.at(i - 1)
            // A mark beyond ASCII (`·`, `«`) is no part of a word: the word after it starts one (`·Jan 12, 2024`).
            if c >= 0x80, prev < 0x80 || s.scalar(before: i)?.properties.isAlphabetic == false,
                let (scalar, length) = s.scalar(at: i), !scalar.properties.isAlphabetic,
                scalar.properties.numericType == nil
            {
                i += length
                continue
            }
            // (After a letter beyond ASCII a word goes on; after a mark beyond it, one starts.)
            let startsToken = !(isAlnum(prev)
                || prev >= 0x80 && isWordLetter(s.bytes[i]) && s.scalar(before: i)?.properties.isAlphabetic != false)
            if !startsToken || !(isDigit(c) || isWordLetter(c) || c == 0x27) { i += 1; continue }
            if isDigit(c), prev != 0x2E, prev != 0x2F, let r = dateAfterGluedCode(s, i) {
                numericHits.append(r.hit)
                i = r.hit.0.end
                continue
            }
            // A label's colon may be glued on (`Date:06/02/2018`); a digit after a colon after a digit is a
            // time's minutes.
            let joinedToNumber = (prev == 0x2D || prev == 0x3A || prev == 0x2C) && isDigit(s.numAt(i - 2))
            if isDigit(c), prev == 0x2E || prev == 0x2F || joinedToNumber {
                i += 1; continue
            }
            if isDigit(c), mayStartRange(s, i), let h = range(s, i) {
                hits.append(h)
                i = h.end
                continue
            }
            if isDigit(c), let h = basicForm(s, i) {
                hits.append(h)
                i = h.end
                continue
            }
            if isDigit(c), let r = numeric(s, i) {
                // Two numbers and a year after a comma, right after a month name, are a range or no date (`May 5-3,
                // 2020` is not March 5); a whole numeric date after one stays (`mar 12/03/2020`, Spanish Tuesday).
                if prev == 0x20, (i..<r.hit.0.end).contains(where: { s.at($0) == 0x2C }), monthBefore(s, i - 1) {
                    i = skipNumber(s, i)
                    continue
                }
                if r.fixed { if r.dayFirst { evidenceDayFirst += 1 } else { evidenceMonthFirst += 1 } }
                numericHits.append(r.hit)
                i = r.hit.0.end
                continue
            }
            // A date with a month name has a year, in digits within the reach of three parts, or in words
            // (`two thousand and eighteen`), which the text is searched for once; most words have neither and
            // are skipped.
            if nextDigit < i {
                nextDigit = i
                while nextDigit < n, !isDigit(s.num[nextDigit]) { nextDigit += 1 }
            }
            let near = nextDigit - i <= DateTimeDetector.namedDateReach
            if !near, spelledYears == nil { spelledYears = SpelledNumber.mayHoldYear(s) }
            if near || spelledYears == true, let first = part(s, i), let h = range(s, i, first) ?? named(s, i, first) {
                hits.append(h)
                i = h.end
                continue
            }
            i = isWordLetter(c) ? max(s.wordEnd(from: i), i + 1) : skipNumber(s, i)
        }
        EastAsianDate.detectDates(s, referenceYear: referenceYear, into: &hits)
        // Resolve the order of ambiguous numeric dates.
        let docDayFirst: Bool? =
            dayFirst
            ?? (evidenceDayFirst > evidenceMonthFirst
                ? true : evidenceMonthFirst > evidenceDayFirst ? false : regionDayFirst)
        for (h0, a, b, y, fixed) in numericHits {
            var h = h0
            if fixed || a == b {
                hits.append(h)
                continue
            }
            let df = docDayFirst ?? false
            let (d, m) = df ? (a, b) : (b, a)
            h.value = EntityValue(date: iso(y, m, d))
            if docDayFirst == nil {
                h.ambiguous = true
                h.alternatives = [iso(y, d, m)]
            }
            hits.append(h)
        }
        return (evidenceDayFirst, evidenceMonthFirst)
    }

    private func iso(_ y: Int, _ m: Int, _ d: Int) -> String { CalendarDate.iso(y, m, d) }

    /// A date in ISO 8601's basic form, year first without separators (`20161016`, `-20200701-`): eight digits that
    /// stand alone, a day `NumericDate.checked` takes (a document year's). Not a longer number's part: no letter,
    /// digit, comma, colon or slash after it, nor a point or dash and a digit (`20200701-9`, `20200701.5`); what may
    /// come before is decided by the caller's scan (no letter or digit, no point or slash, no number and a dash).
    private func basicForm(_ s: ScanText, _ i: Int) -> Hit? {
        var e = i
        while e < s.count, isDigit(s.bytes[e]) { e += 1 }
        guard e - i == 8 else { return nil }
        let after = s.at(e)
        guard !isAlnum(after), after != 0x2C, after != 0x3A, after != 0x2F,
            !((after == 0x2E || after == 0x2D) && isDigit(s.at(e + 1)))
        else { return nil }
        let (y, m, d) = (readInt(s, i, i + 4), readInt(s, i + 4, i + 6), readInt(s, i + 6, e))
        guard let date = NumericDate.checked(y, m, d, referenceYear) else { return nil }
        return Hit(type: .date, start: i, end: e, value: EntityValue(date: date), priority: 40)
    }

    /// A two-digit year in the 100-year window that ends 20 years after the reference year (`NumericDate.fullYear`).
    func fullYear(_ yy: Int) -> Int { NumericDate.fullYear(yy, referenceYear: referenceYear) }

    /// A four-digit year no further than a century from the reference year.
    func plausibleYear(_ y: Int) -> Bool { abs(y - referenceYear) <= 100 }

    private func valid(_ y: Int, _ m: Int, _ d: Int, strict: Bool) -> Bool {
        guard y >= 1000, y <= referenceYear + 100 else { return false }
        return strict ? CalendarDate.exists(y, m, d) : m >= 1 && m <= 12 && d >= 1 && d <= 31
    }

    /// `yyyy-m-d`, `d/m/yyyy`, `m/d/yy`, `dd.mm.yyyy`.
    private func numeric(_ s: ScanText, _ i: Int) -> (hit: (Hit, Int, Int, Int, Bool), fixed: Bool, dayFirst: Bool)? {
        let v = s.num
        var p = i
        var nums: (Int, Int, Int) = (0, 0, 0), lens: (Int, Int, Int) = (0, 0, 0)
        var sep: UInt8 = 0
        var timeGlued = false
        for k in 0..<3 {
            var e = p
            while e < v.count, isDigit(v[e]) { e += 1 }
            if k == 2, yearGluedToTime(s, p, e) != nil { e = p + 4; timeGlued = true }
            guard e > p, e - p <= 4 else { return nil }
            let value = readInt(s, p, e)
            switch k {
            case 0: (nums.0, lens.0) = (value, e - p)
            case 1: (nums.1, lens.1) = (value, e - p)
            default: (nums.2, lens.2) = (value, e - p)
            }
            p = e
            if k == 2 { break }
            let c = s.at(p)
            if k == 1, c == 0x2C, sep != 0x2E, lens.0 <= 2, lens.1 <= 2 {
                // `08/12,2015`: a comma before a four-digit year; or before a two-digit one glued to it
                // after two padded fields (`08/12,15`), where a list would have a space or a shorter item.
                let q = s.at(p + 1) == 0x20 ? p + 2 : p + 1
                var e = q
                while e < v.count, isDigit(v[e]) { e += 1 }
                guard e - q == 4 || e - q == 2 && q == p + 1 && lens.0 == 2 && lens.1 == 2 else { return nil }
                p = q
                continue
            }
            // `2016 10 16`: spaces part a date only with the year first and two digits after each.
            let spaced = c == 0x20 && lens.0 == 4 && isDigit(s.numAt(p + 2)) && !isDigit(s.numAt(p + 3))
            guard c == 0x2F || c == 0x2D || c == 0x2E || spaced, sep == 0 || c == sep, isDigit(s.numAt(p + 1)) else {
                return nil
            }
            sep = c
            p += 1
        }
        let end = p
        // Must not continue as a longer number, version or IP address.
        let after = s.at(end)
        if !timeGlued {
            // `2020-04-21T10:00`: ISO's `T` before a time.
            let isoTime = isAlpha(after) && !isAlpha(s.at(end + 1)) && (after == 0x54 || after == 0x74)
            if isAlnum(after) && !isoTime { return nil }
            let continues = after == sep || after == 0x2E || after == 0x2C || after == 0x3A
            // `2018 06 18 10:30`: a time after a date parted by spaces.
            let timeAfter = sep == 0x20 && isDigit(s.numAt(end + 1))
                && (s.at(end + 2) == 0x3A || isDigit(s.numAt(end + 2)) && s.at(end + 3) == 0x3A)
            if continues && isDigit(s.numAt(end + 1)) && !timeAfter { return nil }
        }
        let (a, b, c) = nums, (la, lb, lc) = lens
        if sep == 0x20 {
            // Not a run of numbers that goes on before it (`12 2016 10 16`).
            guard lc == 2, !(s.at(i - 1) == 0x20 && isDigit(s.numAt(i - 2))),
                  NumericDate.yearFirstSpaced(a, b, c, referenceYear: referenceYear) else { return nil }
        }
        var y = 0, m = 0, d = 0
        var fixed = true
        var dayFirstForm = false
        var yearFirstShort = false
        if la == 4 {
            guard lb <= 2, lc <= 2 else { return nil }
            (y, m, d) = (a, b, c)
        } else {
            guard la <= 2, lb <= 2, lc == 4 || lc == 2 else { return nil }
            y = lc == 4 ? c : fullYear(c)
            if sep == 0x2E && lc == 2 && la <= 2 && lb <= 2 { /* 16.04.10 */ }
            if lc == 2 && s.holdsEastAsianScript && s.lineHoldsEastAsianScript(around: i) {
                // On a line of Chinese, Japanese or Korean a short date puts its year first (`19/10/23`, `19.10.23`,
                // `74/10/31`), never last; a run with a one-digit first field is a Japanese address's block, lot and
                // house (`北町3-16-19`), and with dashes only padded fields make a date. (A receipt of a Chinese shop
                // in Malaysia prints its date day first on a line of its own.)
                guard la == 2, sep != 0x2D || lb == 2 && lc == 2, valid(fullYear(a), b, c, strict: true) else {
                    return nil
                }
                (y, m, d) = (fullYear(a), b, c)
                yearFirstShort = true
            }
            // `74/10/31` in other text is a sort code, a lot or a version (`40-12-25`).
            else if a > 31 && la == 2 && lc == 2 && b <= 12 { return nil }
            else if a > 12 && b <= 12 { (d, m) = (a, b); dayFirstForm = true }
            else if b > 12 && a <= 12 { (m, d) = (a, b) }
            else if a <= 12 && b <= 12 {
                if sep == 0x2E { (d, m) = (a, b); dayFirstForm = true } // dotted dates are day-first
                else { fixed = (a == b); (m, d) = (a, b) }
            } else { return nil }
        }
        guard valid(y, m, d, strict: true) else { return nil }
        // Two-field dates with two-digit years and dashes are too often codes: need 1–2 digit fields.
        let hit = Hit(type: .date, start: i, end: end, value: EntityValue(date: iso(y, m, d)), priority: 40)
        return ((hit, a, b, y, fixed), fixed && la != 4 && a != b && !yearFirstShort, dayFirstForm)
    }

    /// Dates with a month name.
    private func named(_ s: ScanText, _ i: Int) -> Hit? {
        part(s, i).flatMap { named(s, i, $0) }
    }

    /// Dates with a month name, whose first part (`part(s, i)`) is read.
    private func named(_ s: ScanText, _ i: Int, _ first: (Part, Int)) -> Hit? {
        // Every accepted form has exactly three parts, one of them a month.
        let (p0, e0) = first
        guard let q1 = nextPart(s, after: e0), let (p1, e1) = part(s, q1, middle: true) else { return nil }
        // A day, `de` and a month after a street's word name the street (`Av. 9 de Julio 1120`, `Calle 5 de Mayo 23`,
        // `Rua 25 de Março`): its number is the house's, no year. (`Main St 5 May 2021` stays a date.)
        if Self.afterStreetWord(s, i), s.lower(e0, q1).split(separator: " ").contains("de") { return nil }
        // `Feb2319`: a month glued to four digits that are no year near the reference year are
        // the day and a two-digit year run together, as OCR drops the space.
        if case let .month(mv) = p0, case let .num(v, 4, false) = p1, q1 == e0, !plausibleYear(v),
           !isDigit(s.numAt(e1)), case let (dv, y) = (v / 100, fullYear(v % 100)), valid(y, mv, dv, strict: true) {
            return Hit(type: .date, start: i, end: e1, value: EntityValue(date: iso(y, mv, dv)), priority: 45)
        }
        guard let q2 = nextPart(s, after: e1), let (p2, e2) = part(s, q2) else { return nil }
        /// The day a part gives: one or two digits, or a day in words beside an English month (at `month`). An ordinal
        /// counts on either side; a cardinal right after a capitalised month (`May twenty one`, where `you may two`
        /// is a verb) or from thirteen on before it (`Twenty three January 1997`; a smaller one there is more often a
        /// count: `one May 2020 ticket`).
        func day(_ p: Part, month: Int, afterMonth: Bool) -> Int? {
            switch p {
            case let .num(v, digits, _) where digits <= 2: return v
            case let .dayWord(v, cardinal):
                guard DateTimeDetector.englishMonthTable.contains(s, month, s.wordEnd(from: month)) else { return nil }
                guard cardinal else { return v }
                return (afterMonth ? isUpper(s.at(month)) : v >= 13) ? v : nil
            default: return nil
            }
        }
        /// A day in words takes only a year of four digits or words (`March two, 15 people` is no date).
        func wordDay(_ p: Part) -> Bool { if case .dayWord = p { true } else { false } }
        let dayBefore = day(p0, month: q1, afterMonth: false), dayAfter = day(p1, month: i, afterMonth: true)
        var y = -1, m = -1, d = -1
        switch (p0, p1, p2) {
        case let (_, .month(mv), .num(yv, yd, false)) where dayBefore != nil && (yd == 4 || !wordDay(p0)):
            // `1 Jun 26, 15`: a two-digit "year" with a comma and a number after it is the day
            // of `Jun 26, 15`, read from the month on.
            if yd == 2, s.at(e2) == 0x2C, isDigit(s.numAt(s.at(e2 + 1) == 0x20 ? e2 + 2 : e2 + 1)) { return nil }
            // Nor is one after a range's joiner with its own month after it the year: it is the next date's day
            // (`30 May - 20 June`; but `15 Jan 21 may be late` is a date).
            if yd == 2, rangeJoiner(s, e1, rangeStart: nil) != nil, let q = nextPart(s, after: e2),
                let (p3, _) = part(s, q),
                case .month = p3
            {
                return nil
            }
            (d, m, y) = (dayBefore!, mv, yd == 4 ? yv : yd == 2 ? fullYear(yv) : -1)
        case let (_, .month(mv), .shortYear(yv)) where dayBefore != nil && !wordDay(p0):
            (d, m, y) = (dayBefore!, mv, fullYear(yv))
        case let (.month(mv), _, .num(yv, yd, false)) where dayAfter != nil && (yd == 4 || !wordDay(p1)):
            // `Jun 26, 15`: a two-digit year after the day takes the comma of the US form, and
            // is no hour (`Jun 26 15:30`).
            let shortYear = yd == 2 && (e1..<q2).contains { s.at($0) == 0x2C } && s.at(e2) != 0x3A
            (d, m, y) = (dayAfter!, mv, yd == 4 ? yv : shortYear ? fullYear(yv) : -1)
        case let (.month(mv), _, .shortYear(yv)) where dayAfter != nil && !wordDay(p1):
            (d, m, y) = (dayAfter!, mv, fullYear(yv))
        // With the year first, only digits make the day: `2019-aug-1`, `Sep-2020-23` (`May 2020 second place` is no
        // date).
        case let (.num(yv, 4, false), .month(mv), .num(dv, dd, _)) where dd <= 2:
            (d, m, y) = (dv, mv, yv)
        case let (.month(mv), .num(yv, 4, false), .num(dv, dd, _)) where dd <= 2:
            (d, m, y) = (dv, mv, yv)
        case let (.num(dv, dd, _), .num(yv, 4, false), .month(mv)) where dd <= 2:
            (d, m, y) = (dv, mv, yv)
        case let (.num(yv, 4, false), .num(dv, dd, _), .month(mv)) where dd <= 2:
            (d, m, y) = (dv, mv, yv)
        default: return nil
        }
        guard valid(y, m, d, strict: false) else { return nil }
        var end = e2
        if case .month = p2, s.at(end - 1) == 0x2E { end -= 1 } // "Sept." at the end: keep the dot out
        return Hit(type: .date, start: i, end: end, value: EntityValue(date: iso(y, m, d)), priority: 45)
    }

    /// Whether a street's word (`AddressDetector.streetWords`), with or without its stop, stands right before `i`.
    static func afterStreetWord(_ s: ScanText, _ i: Int) -> Bool {
        var b = i
        while b > 0, s.at(b - 1) == 0x20 { b -= 1 }
        if b > 0, s.at(b - 1) == 0x2E { b -= 1 }
        let a = s.wordStart(before: b)
        return a < b && b - a <= 9 && AddressDetector.streetWords.contains(s.lower(a, b))
    }

    /// Whether the word that ends at `e` is a month name (`May` in `May 5-3, 2020`).
    private func monthBefore(_ s: ScanText, _ e: Int) -> Bool {
        var b = e
        if s.at(b - 1) == 0x2E { b -= 1 }
        let a = s.wordStart(before: b)
        return b - a >= 3 && DateTimeDetector.monthTable.lookup(s, a, b) != nil
    }

    /// Words that open a range of days before its first day.
    static let rangeOpenerTable = WordTable([
        "from", "between", "du", "del", "dal", "vom", "von", "van", "entre", "tussen",
        "dari", "od", "fra", "från"
    ])

    /// Whether the token before `i` lets a range start there: none, a mark (`Stay: 10-12 May`), or a word that opens
    /// a range; not another word, nor a number.
    private func wordBeforeOpensRange(_ s: ScanText, _ i: Int) -> Bool {
        var e = i
        while e > 0, s.at(e - 1) == 0x20 { e -= 1 }
        guard e > 0 else { return true }
        let c = s.at(e - 1)
        if isDigit(s.numAt(e - 1)) { return false }
        guard isWordLetter(c) else { return true }
        return DateTimeDetector.rangeOpenerTable.contains(s, s.wordStart(before: e), e)
    }

    /// Whether the word before the one at `i` (a space apart) is `word`, in lower case (`between` 2 and 7 Feb).
    private func wordBefore(_ s: ScanText, _ i: Int, is word: String) -> Bool {
        guard s.at(i - 1) == 0x20 else { return false }
        let a = s.wordStart(before: i - 1)
        return i - 1 - a == word.utf8.count && s.lower(a, i - 1) == word
    }

    /// Where the run of digits at `i` ends.
    private func skipNumber(_ s: ScanText, _ i: Int) -> Int {
        var e = i
        while e < s.count, isDigit(s.num[e]) { e += 1 }
        return max(e, i + 1)
    }

    // MARK: - Ranges of days

    /// Words that join the first and last day of a range (`May 3 to 5, 2020`, `10. bis 12. Mai 2020`,
    /// `du 3 au 5 mai 2020`, `del 3 al 5 de mayo de 2020`); `and` joins them after `between`.
    static let rangeWordTable = WordTable([
        "to", "through", "thru", "till", "until", "bis", "au", "al", "tot", "hingga", "sampai"
    ])

    /// Whether a range word (or `and`) may start with `c`: a cheap test before the table is asked.
    @inline(__always) static func mayStartRangeWord(_ c: UInt8) -> Bool {
        switch lowerByte(c) { case 0x61, 0x62, 0x68, 0x73, 0x74, 0x75: true; default: false } // a b h s t u
    }

    /// Where the second half of a range starts after its first half, which ends at `e`: past a dash (`-`, `–`, `—`,
    /// `~`) or a range word, with spaces around; nil when neither stands there.
    /// `and` counts when `between` stands before `rangeStart`, and always when `rangeStart` is nil (a first look).
    private func rangeJoiner(_ s: ScanText, _ e: Int, rangeStart: Int?) -> Int? {
        var p = e
        if s.at(p) == 0x2E, p > 0, isDigit(s.numAt(p - 1)) { p += 1 } // `10.-12. Mai`
        while s.at(p) == 0x20 { p += 1 }
        if s.at(p) == 0x2D || s.at(p) == 0x7E { p += 1 }
        else if s.at(p) == 0xE2, s.at(p + 1) == 0x80, s.at(p + 2) == 0x93 || s.at(p + 2) == 0x94 { p += 3 }
        else if DateTimeDetector.mayStartRangeWord(s.at(p)), case let we = s.wordEnd(from: p), s.at(we) == 0x20,
                DateTimeDetector.rangeWordTable.contains(s, p, we)
                    || s.lower(p, we) == "and" && rangeStart.map { wordBefore(s, $0, is: "between") } ?? true { p = we }
        else { return nil }
        while s.at(p) == 0x20 { p += 1 }
        return p
    }

    /// Whether the digits at `i` may be a range's first day: one or two digits, then (past a full stop and spaces) a
    /// dash, a tilde or a letter. Most numbers are not, and are not read further.
    private func mayStartRange(_ s: ScanText, _ i: Int) -> Bool {
        var p = i
        while p < s.count, isDigit(s.num[p]) { p += 1 }
        guard p - i <= 2 else { return false }
        if s.at(p) == 0x2E { p += 1 }
        while s.at(p) == 0x20 { p += 1 }
        let c = s.at(p)
        return c == 0x2D || c == 0x7E || c == 0xE2 || isAlpha(c)
    }

    /// A range of days within one year, read as one date whose value runs from its first day to its last
    /// (`endDate`): `May 3-5, 2020`, `March 3 to March 5, 2020`, `May 30 - June 2, 2020`, `10 - 12 May 2020`,
    /// `3 May - 5 June 2020`. Read before the single dates, which would otherwise take a part of it (`3-5, 2020` as
    /// March 5, `30 May - 20` as a date of 2020). A range that crosses a year prints two full dates, and gives two.
    private func range(_ s: ScanText, _ i: Int) -> Hit? {
        part(s, i).flatMap { range(s, i, $0) }
    }

    /// A range of days whose first part (`part(s, i)`) is read.
    private func range(_ s: ScanText, _ i: Int, _ first: (Part, Int)) -> Hit? {
        let (p0, e0) = first
        var firstMonth: Int?, firstDay: Int, firstEnd: Int
        switch p0 {
        case let .month(m):
            guard let q = nextPart(s, after: e0), let (p1, e1) = part(s, q, middle: true),
                  case let .num(d, dd, _) = p1, dd <= 2 else { return nil }
            (firstMonth, firstDay, firstEnd) = (m, d, e1)
        case let .num(d, dd, _) where dd <= 2:
            // A word right before the first day must open a range (`from 4 to 22 January`): after another word the
            // number is more often that word's (`Windows 10 - 11 May 2020`, `Qty 2 - 3 Dec 2020`).
            guard wordBeforeOpensRange(s, i) else { return nil }
            (firstDay, firstEnd) = (d, e0)
            // A joiner right after the day (`10 - 12 May`), or a month first (`3 May - 5 June`).
            // (The joiner after the word is looked for first: most words after a number are no month.)
            if rangeJoiner(s, e0, rangeStart: nil) == nil, let q = nextPart(s, after: e0), isWordLetter(s.at(q)),
               case let we = s.wordEnd(from: q), rangeJoiner(s, s.at(we) == 0x2E ? we + 1 : we, rangeStart: nil) != nil,
               let (p1, e1) = part(s, q, middle: true), case let .month(m) = p1 {
                (firstMonth, firstEnd) = (m, e1)
            }
        default: return nil
        }
        if firstMonth != nil, s.at(firstEnd - 1) == 0x2E, isWordLetter(s.at(firstEnd - 2)) { firstEnd -= 1 } // `Mai.`
        guard let q = rangeJoiner(s, firstEnd, rangeStart: i), q < s.count else { return nil }
        let monthFirst: Bool
        if case .month = p0 { monthFirst = true } else { monthFirst = false }
        var year: Int, lastMonth: Int, lastDay: Int, end: Int
        if let h = named(s, q), let value = h.value.date, let y = Int(value.prefix(4)),
           let m = Int(value.dropFirst(5).prefix(2)), let d = Int(value.suffix(2)) {
            // The last day is a whole date: it begins with a month when the first did (`March 3 to March 5, 2020`),
            // with its day otherwise (`3 May - 5 June 2020`, `10 - 12 May 2020`).
            // Its year is printed whole, in four digits or in words: two digits there are too often a count or a
            // code (`6 -7 Jan 30`).
            let yearInWords = isAlpha(s.at(h.end - 1))
            guard let (lp, _) = part(s, q), h.end - q >= 8,
                  yearInWords || (h.end - 4..<h.end).allSatisfy({ isDigit(s.num[$0]) }) && !isDigit(s.numAt(h.end - 5))
            else { return nil }
            if case .month = lp { guard monthFirst else { return nil } } else { guard !monthFirst else { return nil } }
            (year, lastMonth, lastDay, end) = (y, m, d, h.end)
        } else {
            // `May 3-5, 2020`: the last day, then the year.
            guard monthFirst, let (lp, le) = part(s, q, middle: true), case let .num(d, dd, _) = lp, dd <= 2,
                  let yq = nextPart(s, after: le), let (yp, ye) = part(s, yq), case let .num(y, 4, false) = yp,
                  !isAlnum(s.at(ye)) else { return nil }
            (year, lastMonth, lastDay, end) = (y, firstMonth!, d, ye)
        }
        let startMonth = firstMonth ?? lastMonth
        guard valid(year, startMonth, firstDay, strict: true), valid(year, lastMonth, lastDay, strict: true),
              (startMonth, firstDay) < (lastMonth, lastDay) else { return nil }
        return Hit(type: .date, start: i, end: end,
                   value: EntityValue(date: iso(year, startMonth, firstDay), endDate: iso(year, lastMonth, lastDay)),
                   priority: 45)
    }

    /// Where the next part of a named date starts after a part ending at `e`, or nil.
    /// A month name followed directly by digits (`Feb23`), and a day followed directly by its month (`14May`), need
    /// no separator.
    private func nextPart(_ s: ScanText, after e: Int) -> Int? {
        guard let q = separator(s, e) else { return nil }
        let monthAfterDay = isWordLetter(s.at(e)) && isDigit(s.numAt(e - 1))
        if q == e, !(isDigit(s.numAt(e)) || s.at(e) == 0x27 || monthAfterDay) { return nil }
        return q
    }

    /// A date whose day OCR glued onto a code printed before it, in a till's stamp of code, date and time
    /// (`0934-000105/01/201813:30`: a till's number, a space lost, then `05/01/2018` and `13:30`). Read only when the
    /// run of digits at `i` is too long for a date's first field (five digits or more), its last two digits begin a
    /// whole date with a four-digit year, and a time follows the year, glued on or after a space. Numbers with a
    /// month and a year after them (`Faktur No. 00025/11/2019`, `12345/12/19`) stay numbers. Its order counts as no
    /// evidence for the page's other dates: a glued day is a weaker sign than a date of its own.
    private func dateAfterGluedCode(_ s: ScanText, _ i: Int) -> (
        hit: (Hit, Int, Int, Int, Bool), fixed: Bool, dayFirst: Bool
    )? {
        // `numeric` reads the day's two digits, the month and the year; nine characters or more and the same
        // separator before the year make it a four-digit year after the day's own separator (not `08/12,2015`).
        let e = skipNumber(s, i)
        guard e - i >= 5, let r = numeric(s, e - 2), case let end = r.hit.0.end, end - (e - 2) >= 9,
              s.at(end - 5) == s.at(e) else { return nil }
        // The time: glued on (the year's run goes on, as `numeric` allows only before a time), or after spaces.
        var t = end
        if !isDigit(s.numAt(end)) {
            while s.at(t) == 0x20, t - end < 3 { t += 1 }
            guard t > end else { return nil }
        }
        var h = t
        while isDigit(s.numAt(h)) { h += 1 }
        guard (1...2).contains(h - t), s.at(h) == 0x3A, isDigit(s.numAt(h + 1)), isDigit(s.numAt(h + 2)) else {
            return nil
        }
        return r
    }

    /// A four-digit year with a time glued on, as OCR drops the space between them (`201708:34`): the year, when the
    /// digits from `i` to `e` are such a year and one or two hour digits, followed by a colon and two minute digits.
    private func yearGluedToTime(_ s: ScanText, _ i: Int, _ e: Int) -> Int? {
        guard e - i == 5 || e - i == 6, s.at(e) == 0x3A, isDigit(s.numAt(e + 1)), isDigit(s.numAt(e + 2)),
              !isDigit(s.numAt(e + 3)) else { return nil }
        let year = readInt(s, i, i + 4)
        guard (1900...2099).contains(year), plausibleYear(year), readInt(s, i + 4, e) <= 24 else { return nil }
        return year
    }

    // MARK: - Times

    func detectTimes(_ s: ScanText, into hits: inout [Hit]) {
        EastAsianDate.detectTimes(s, into: &hits)
        let v = s.num
        let n = v.count
        var i = 0
        while i < n {
            guard isDigit(v[i]), !isAlnum(s.at(i - 1)), s.at(i - 1) != 0x3A,
                s.at(i - 1) != 0x2E || !isDigit(s.numAt(i - 2))
            else { i += 1; continue }
            var e = i
            while e < n, isDigit(v[e]) { e += 1 }
            // The time glued to a date's year (`14/JUN/201708:34:22`) starts after the year.
            if [0x2F, 0x2D, 0x2E].contains(s.at(i - 1)), yearGluedToTime(s, i, e) != nil,
               let h = time(s, i + 4, e, e - i - 4) {
                hits.append(h)
                i = h.end
                continue
            }
            let digits = e - i
            if let h = time(s, i, e, digits) { hits.append(h); i = h.end } else { i = e }
        }
    }

    private func meridiem(_ s: ScanText, _ p: Int, oneLetter: Bool = false) -> (Bool, Int)? {
        var q = p
        if s.at(q) == 0x20 { q += 1 }
        let c = lowerByte(s.at(q))
        guard c == 0x61 || c == 0x70 else { return nil }
        var e = q + 1
        // `8:53:47P`: a till's one-letter meridiem, glued to the time and ending the word.
        if oneLetter, q == p, !isAlnum(s.at(e)), s.at(e) != 0x2E { return (c == 0x70, e) }
        let dotted = s.at(e) == 0x2E
        if dotted { e += 1 }
        // `4:28 PH`: after a clock time (`oneLetter`), a capital M that OCR read as H or N.
        let misreadM =
            oneLetter && !dotted && (s.at(q) == 0x41 || s.at(q) == 0x50) && (s.at(e) == 0x48 || s.at(e) == 0x4E)
        guard lowerByte(s.at(e)) == 0x6D || misreadM else { return nil }
        e += 1
        // The closing dot is the meridiem's own only in the dotted form (`10 a.m.`); after `10am`
        // it ends the sentence.
        if dotted, s.at(e) == 0x2E { e += 1 }
        guard !isAlnum(s.at(e)) else { return nil }
        return (c == 0x70, e)
    }

    private func time(_ s: ScanText, _ i: Int, _ e: Int, _ digits: Int) -> Hit? {
        var h = -1, m = 0, sec: Int? = nil
        var end = e
        if digits <= 2, s.at(e) == 0x3A || s.at(e) == 0x2E, isDigit(s.numAt(e + 1)), isDigit(s.numAt(e + 2)),
            !isDigit(s.numAt(e + 3))
        {
            h = readInt(s, i, e)
            m = readInt(s, e + 1, e + 3)
            end = e + 3
            if s.at(end) == 0x3A, isDigit(s.numAt(end + 1)), isDigit(s.numAt(end + 2)), !isDigit(s.numAt(end + 3)) {
                sec = readInt(s, end + 1, end + 3)
                end += 3
            }
            // `18.58:34`: the seconds make it a time of day whatever its first separator (OCR
            // reads a colon as a full stop now and then).
            let dotted = s.at(e) == 0x2E && sec == nil
            if dotted {
                // 14.30 is a time only with "Uhr" or "h" after it or a meridiem.
                var q = end; if s.at(q) == 0x20 { q += 1 }
                if s.matches("uhr", at: q) && !isAlpha(s.at(q + 3)) { end = q + 3 }
                else if s.matches("h", at: q) && !isAlpha(s.at(q + 1)) && q == end { end = q + 1 }
                else if meridiem(s, end) == nil { return nil }
            }
            if s.at(end) == 0x3A || s.at(end) == 0x2E && isDigit(s.numAt(end + 1)) { return nil }
        } else if digits <= 2, lowerByte(s.at(e)) == 0x68, isDigit(s.numAt(e + 1)), isDigit(s.numAt(e + 2)),
            !isAlnum(s.at(e + 3))
        {
            h = readInt(s, i, e) // 20h15
            m = readInt(s, e + 1, e + 3)
            end = e + 3
        } else if digits <= 2, meridiem(s, e) != nil {
            h = readInt(s, i, e) // 6pm
        } else if digits == 4 {
            // 1430 hrs, 1430h, at 1430
            var q = e; if s.at(q) == 0x20 { q += 1 }
            let suffixed =
                (s.matches("hrs", at: q) && !isAlpha(s.at(q + 3)))
                || (s.matches("hours", at: q) && !isAlpha(s.at(q + 5)))
                || (q == e && lowerByte(s.at(q)) == 0x68 && !isAlpha(s.at(q + 1)))
            let atBefore = i >= 3 && s.matches("at ", at: i - 3) && !isAlpha(s.at(i - 4))
            guard suffixed || atBefore else { return nil }
            h = readInt(s, i, i + 2)
            m = readInt(s, i + 2, i + 4)
            if suffixed { end = s.wordEnd(from: q) } else { end = e }
        } else {
            return nil
        }
        if let (pm, me) = meridiem(s, end, oneLetter: s.bytes[i..<end].contains(0x3A)) {
            guard h >= 1, h <= 12 else { return nil }
            if pm && h < 12 { h += 12 }
            if !pm && h == 12 { h = 0 }
            end = me
        } else if isAlnum(s.at(end)) && !(digits <= 2 && end > e) {
            return nil
        }
        // 24:00 is the day's end (ISO 8601); no other time has hour 24.
        guard h >= 0, h < 24 || (h == 24 && m == 0 && (sec ?? 0) == 0), m <= 59, (sec ?? 0) <= 59 else { return nil }
        func p2(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        var t = "\(p2(h)):\(p2(m))"
        if let sc = sec { t += ":\(p2(sc))" }
        return Hit(type: .time, start: i, end: end, value: EntityValue(time: t), priority: 30)
    }
}
