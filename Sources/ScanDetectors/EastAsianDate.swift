import ScanModel

/// Dates and times written with the Chinese, Japanese and Korean unit signs, as receipts, tickets and letters of
/// those countries print them:
/// - `2021年3月5日`, `2021年 03月 05日(金)`, `２０２１年３月５日` (full-width digits), `二〇二一年三月五日` (numerals),
///   `2021年3月5号` (Chinese, spoken day);
/// - the Japanese era years: `令和3年3月5日` (2021), `令和元年5月1日`, `平成31年4月30日`, `昭和64年1月7日`;
/// - Korean: `2021년 3월 5일`;
/// - times: `12時34分`, `12時34分56秒`, `午後2時30分`, `下午2点30分`, `今晚8点`, `14시 30분`, `오후 2시 30분`, `저녁 7시 30분`.
///
/// Every date needs its year, month and day, and must exist in the calendar. The reading works on Unicode scalars
/// and runs only on a text that holds one of the year or hour signs, so Latin text costs one byte scan.
enum EastAsianDate {
    /// One scalar of the text (`value`: of its numeric view; `raw`: as printed) and the byte offset it starts at.
    struct Scalar { let value: UInt32; let raw: UInt32; let byte: Int }

    private static let yearSigns: Set<UInt32> = [0x5E74, 0xB144]        // 年 년
    private static let monthSigns: Set<UInt32> = [0x6708, 0xC6D4]       // 月 월
    private static let daySigns: Set<UInt32> = [0x65E5, 0x53F7, 0x865F, 0xC77C] // 日 号 號 일
    private static let hourSigns: Set<UInt32> = [0x6642, 0x65F6, 0x70B9, 0xC2DC] // 時 时 点 시
    private static let minuteSigns: Set<UInt32> = [0x5206, 0xBD84]      // 分 분
    private static let secondSigns: Set<UInt32> = [0x79D2, 0xCD08]      // 秒 초

    /// The Japanese eras of the last century, by name, with the Gregorian year before each era's first.
    private static let eras: [(name: [UInt32], offset: Int, last: Int)] = [
        ([0x4EE4, 0x548C], 2018, 99), // 令和, from 2019
        ([0x5E73, 0x6210], 1988, 31), // 平成, 1989-2019
        ([0x662D, 0x548C], 1925, 64), // 昭和, 1926-1989
    ]
    /// An era by its initial, as forms and receipts abbreviate it before a year with its sign: `R3年` (令和),
    /// `H31年` (平成), `S64年` (昭和), in ASCII or full-width letters.
    private static func eraByLetter(_ t: [Scalar], _ i: Int) -> (name: [UInt32], offset: Int, last: Int)? {
        var v = t[i].raw // `S64年`: the letter as printed, though the numeric view reads it as a 5
        if v >= 0xFF21 && v <= 0xFF3A { v -= 0xFF21 - 0x41 }
        let k: Int
        switch v { case 0x52: k = 0; case 0x48: k = 1; case 0x53: k = 2; default: return nil }
        if i > 0, case let b = t[i - 1].value, b < 0x80 && (b >= 0x41 && b <= 0x5A || b >= 0x61 && b <= 0x7A) {
            return nil
        }
        // The letter, then one or two digits and the year's sign.
        guard let (_, e, _) = number(t, i + 1, maxLength: 2), digit(t[i + 1].value) != nil,
              yearSigns.contains(t[e].value) else { return nil }
        return ([t[i].value], eras[k].offset, eras[k].last)
    }

    /// After noon: `午後`, `下午`, `오후`, and the evening or night: `晚上`, `晚`, `夜`, `저녁`, `밤`. Before: `午前`, `上午`,
    /// `오전`, and the morning: `早上`, `朝`, `아침`.
    private static let afternoon: [[UInt32]] = [[0x5348, 0x5F8C], [0x4E0B, 0x5348], [0xC624, 0xD6C4]]
    /// The evening and night (`晚上`, `晚`, `夜`, `저녁`, `밤`): after noon from 5 to 11, the small hours before 5
    /// (`深夜1時` is 01:00), and 12 is midnight.
    private static let night: [[UInt32]] = [[0x665A, 0x4E0A], [0x665A], [0x591C], [0xC800, 0xB141], [0xBC24]]
    private static let morning: [[UInt32]] = [[0x5348, 0x524D], [0x4E0A, 0x5348], [0xC624, 0xC804], [0x65E9, 0x4E0A],
                                              [0x671D], [0xC544, 0xCE68]]

    /// Whether the UTF-8 bytes may hold a sign this reader needs: the first two bytes of 年 (E5 B9 B4), 년 (EB 85 84),
    /// 월 (EC 9B 94), 時/时 (E6 99 82, E6 97 B6), 点 (E7 82 B9) or 시 (EC 8B 9C), a full-width digit or date mark
    /// (EF BC 8D-99), or ・ (E3 83 BB).
    static func mayHold(_ b: [UInt8]) -> Bool {
        guard b.count >= 3 else { return false }
        for i in 0..<(b.count - 2) where b[i] >= 0xE3 {
            switch (b[i], b[i + 1]) {
            case (0xE5, 0xB9), (0xEB, 0x85), (0xEC, 0x9B), (0xE6, 0x99), (0xE6, 0x97), (0xE7, 0x82), (0xEC, 0x8B):
                return true
            case (0xEF, 0xBC) where b[i + 2] >= 0x8D && b[i + 2] <= 0x99: return true // a full-width digit, － ． ／
            case (0xE3, 0x83) where b[i + 2] == 0xBB: return true // ・
            default: continue
            }
        }
        return false
    }

    /// The scalars of a text's numeric view `b` (`ScanText.num`: a letter OCR reads for a digit beside digits is that
    /// digit, `1B日` is `18日`), which differs from the text `bytes` in ASCII bytes only. `ScanText` decodes them once
    /// for the dates and the times.
    static func scalars(num b: [UInt8], bytes: [UInt8]) -> [Scalar] {
        var out: [Scalar] = []
        out.reserveCapacity(b.count)
        var i = 0
        while i < b.count {
            let c = b[i]
            let (len, lead): (Int, UInt32) = c < 0x80 ? (1, UInt32(c)) : c < 0xE0 ? (2, UInt32(c & 0x1F))
                : c < 0xF0 ? (3, UInt32(c & 0x0F)) : (4, UInt32(c & 0x07))
            var v = lead
            var k = 1
            while k < len, i + k < b.count { v = v << 6 | UInt32(b[i + k] & 0x3F); k += 1 }
            out.append(Scalar(value: v, raw: c < 0x80 ? UInt32(bytes[i]) : v, byte: i))
            i += max(1, len)
        }
        // The end, so every index after the last scalar has a byte offset.
        out.append(Scalar(value: 0, raw: 0, byte: b.count))
        return out
    }

    /// A digit, ASCII or full-width.
    private static func digit(_ v: UInt32) -> Int? {
        if v >= 0x30 && v <= 0x39 { return Int(v - 0x30) }
        if v >= 0xFF10 && v <= 0xFF19 { return Int(v - 0xFF10) }
        return nil
    }

    /// A numeral's value: 〇 零 一 二 两 三 四 五 六 七 八 九.
    private static let numerals: [UInt32: Int] = [
        0x3007: 0, 0x96F6: 0, 0x4E00: 1, 0x4E8C: 2, 0x4E24: 2, 0x4E09: 3, 0x56DB: 4, 0x4E94: 5, 0x516D: 6,
        0x4E03: 7, 0x516B: 8, 0x4E5D: 9,
    ]
    /// The numerals of place: 十 ten, 百 hundred, 千 thousand.
    private static let places: [UInt32: Int] = [0x5341: 10, 0x767E: 100, 0x5343: 1000]

    /// A number at `i`: digits, or numerals. Digit by digit when no sign of place is in it (`二〇二一`), by place with
    /// one (`三十一`, `两千零四`). Returns the value, where it ends and how many signs it took.
    private static func number(_ t: [Scalar], _ i: Int, maxLength: Int) -> (value: Int, end: Int, length: Int)? {
        var e = i
        var v = 0
        while e < t.count - 1, e - i < maxLength, let d = digit(t[e].value) { v = v * 10 + d; e += 1 }
        if e > i { return digit(t[e].value) == nil ? (v, e, e - i) : nil }
        var total = 0, units = 0, lastPlace = Int.max, digitsOnly = 0, sawPlace = false
        while e < t.count - 1, e - i < maxLength {
            let c = t[e].value
            if let place = places[c] {
                guard place < lastPlace else { return nil }
                lastPlace = place
                sawPlace = true
                total += (units == 0 ? 1 : units) * place
                units = 0
            } else if let d = numerals[c] {
                units = sawPlace ? d : units * 10 + d
                digitsOnly = digitsOnly * 10 + d
            } else { break }
            e += 1
        }
        guard e > i else { return nil }
        return (sawPlace ? total + units : digitsOnly, e, e - i)
    }

    /// Whether a number's sign may be left out after it (`二零一五年三月三`): at the end, or before a space or a mark
    /// that is no letter, digit or ideograph.
    private static func endsBare(_ t: [Scalar], _ i: Int) -> Bool {
        let v = t[i].value
        // Before a space, only when no number follows it (`2024年4月 12:00` is a month and a time).
        if v == 0x20 || v == 0x3000 { let n = skipSpaces(t, i); return t[n].value == 0 || digit(t[n].value) == nil }
        if v == 0 || v == 0x29 || v == 0x5D { return true }
        // Full-width and ideographic marks, but not a comma or stop that may go on as a number (`5,000円`).
        return (0x3001...0x303F).contains(v) || (0xFF01...0xFF0B).contains(v) || (0xFF1A...0xFF20).contains(v)
    }

    private static func skipSpaces(_ t: [Scalar], _ i: Int) -> Int {
        var p = i
        while p < t.count - 1, t[p].value == 0x20 || t[p].value == 0x3000 { p += 1 }
        return p
    }

    private static func matches(_ t: [Scalar], _ i: Int, _ word: [UInt32]) -> Bool {
        guard i + word.count < t.count else { return false }
        for (k, v) in word.enumerated() where t[i + k].value != v { return false }
        return true
    }

    /// Appends the dates of `s` to `hits`.
    static func detectDates(_ s: ScanText, referenceYear: Int, into hits: inout [Hit]) {
        guard s.mayHoldEastAsianDate else { return }
        let t = s.eastAsianScalars
        var i = 0
        while i < t.count - 1 {
            if let (hit, end) = date(t, i, referenceYear: referenceYear) {
                hits.append(hit)
                i = end
            } else { i += 1 }
        }
    }

    /// Appends the times of `s` written with an hour sign to `hits`.
    static func detectTimes(_ s: ScanText, into hits: inout [Hit]) {
        guard s.mayHoldEastAsianDate else { return }
        let t = s.eastAsianScalars
        var i = 0
        while i < t.count - 1 {
            if let (hit, end) = time(t, i) {
                hits.append(hit)
                i = end
            } else { i += 1 }
        }
    }

    /// A date starting at `i`: the year with its sign (after an era name or not), the month, the day.
    private static func date(_ t: [Scalar], _ i: Int, referenceYear: Int) -> (Hit, Int)? {
        // Not inside a longer number.
        if i > 0, digit(t[i - 1].value) != nil || numerals[t[i - 1].value] != nil { return nil }
        var p = i
        var year: Int
        if let era = eras.first(where: { matches(t, i, $0.name) }) ?? eraByLetter(t, i) {
            p = skipSpaces(t, i + era.name.count)
            let n: Int
            if t[p].value == 0x5143 { n = 1; p += 1 } // 元年: the era's first year
            else {
                guard let (v, e, _) = number(t, p, maxLength: 3), v >= 1, v <= era.last else { return nil }
                n = v; p = e
            }
            year = era.offset + n
        } else {
            // Four digits, or numerals read digit by digit or by place (`二〇二一`, `两千零四`, `二千零二十一`,
            // `一千九百九十九`: up to seven signs).
            guard let (v, e, length) = number(t, p, maxLength: 7), v >= 1000, length == 4 || numerals[t[p].value] != nil
            else { return koreanMonthFirst(t, i, referenceYear: referenceYear) }
            if digit(t[p].value) != nil,
                let found = wideNumeric(t, i, year: v, yearEnd: e, referenceYear: referenceYear)
            {
                return found
            }
            year = v; p = e
        }
        p = skipSpaces(t, p)
        guard yearSigns.contains(t[p].value) else { return nil }
        let korean = t[p].value == 0xB144
        p = skipSpaces(t, p + 1)
        // `年の` (Japanese: the month of the year), or a comma.
        if [0x306E, 0x2C, 0xFF0C, 0x3001].contains(t[p].value) { p = skipSpaces(t, p + 1) }
        guard let (month, me, _) = number(t, p, maxLength: 3) else { return nil }
        p = skipSpaces(t, me)
        guard monthSigns.contains(t[p].value), (t[p].value == 0xC6D4) == korean else { return nil }
        p = skipSpaces(t, p + 1)
        guard let (day, de, _) = number(t, p, maxLength: 3) else { return nil }
        let end: Int
        if case let q = skipSpaces(t, de), daySigns.contains(t[q].value), (t[q].value == 0xC77C) == korean {
            end = q + 1
        } else if !korean, endsBare(t, de) {
            end = de
        } else { return nil }
        guard plausible(year, referenceYear: referenceYear), CalendarDate.exists(year, month, day) else { return nil }
        return (dateHit(t, i, end, year, month, day), end)
    }

    /// The hit of a date read from scalar `i` to `end`.
    private static func dateHit(_ t: [Scalar], _ i: Int, _ end: Int, _ year: Int, _ month: Int, _ day: Int) -> Hit {
        Hit(
            type: .date, start: t[i].byte, end: t[end].byte,
            value: EntityValue(date: CalendarDate.iso(year, month, day)),
            priority: 45)
    }

    /// Full-width separators between the year, the month and the day (`2021／3／25`, `２０２１．３．２５`, `2021・7・18`),
    /// or full-width digits with any of them: the dates whose numbers or marks the ASCII reader does not see.
    private static func wideNumeric(_ t: [Scalar], _ i: Int, year: Int, yearEnd: Int,
                                    referenceYear: Int) -> (Hit, Int)? {
        let separators: Set<UInt32> = [0xFF0F, 0xFF0D, 0xFF0E, 0x30FB, 0x2F, 0x2D, 0x2E]
        let sep = t[yearEnd].value
        guard separators.contains(sep), let (month, me, ml) = number(t, yearEnd + 1, maxLength: 2), ml <= 2,
              t[me].value == sep, let (day, de, dl) = number(t, me + 1, maxLength: 2), dl <= 2,
              digit(t[yearEnd + 1].value) != nil, digit(t[me + 1].value) != nil else { return nil }
        let wide = sep > 0x7F || (i..<de).contains { t[$0].value >= 0xFF10 && t[$0].value <= 0xFF19 }
        guard wide, !separators.contains(t[de].value) || digit(t[de + 1].value) == nil,
              plausible(year, referenceYear: referenceYear), CalendarDate.exists(year, month, day) else { return nil }
        return (dateHit(t, i, de, year, month, day), de)
    }

    /// A year this reader takes: from 1000 to a century after the reference year, as the other dates.
    private static func plausible(_ year: Int, referenceYear: Int) -> Bool {
        year >= 1000 && year <= referenceYear + 100
    }

    /// A Korean date in the order of English, month and day first, then the year: `1월 12일, 2016년`,
    /// `9월 21일 1978`.
    private static func koreanMonthFirst(_ t: [Scalar], _ i: Int, referenceYear: Int) -> (Hit, Int)? {
        guard let (month, me, _) = number(t, i, maxLength: 2), digit(t[i].value) != nil else { return nil }
        var p = skipSpaces(t, me)
        guard t[p].value == 0xC6D4 else { return nil }
        p = skipSpaces(t, p + 1)
        guard digit(t[p].value) != nil, let (day, de, _) = number(t, p, maxLength: 2) else { return nil }
        p = skipSpaces(t, de)
        guard t[p].value == 0xC77C else { return nil }
        p += 1
        if t[p].value == 0x2C || t[p].value == 0xFF0C { p += 1 }
        p = skipSpaces(t, p)
        guard p > de + 1, let (year, ye, length) = number(t, p, maxLength: 4), length == 4, digit(t[p].value) != nil
        else { return nil }
        // With `년` the number is the year; without it, only a year within a century of the reference, and no amount
        // in won (`3월 5일 1500원` is a price on a date without a year).
        let signed = t[ye].value == 0xB144
        let end = signed ? ye + 1 : ye
        guard
            signed
                || digit(t[ye].value) == nil && t[ye].value != 0xC6D0 && t[ye].value != 0x2C
                    && abs(year - referenceYear) <= 100,
            plausible(year, referenceYear: referenceYear), CalendarDate.exists(year, month, day)
        else { return nil }
        return (dateHit(t, i, end, year, month, day), end)
    }

    /// A time starting at `i`: an optional part of the day, the hour with its sign, then the minutes and seconds
    /// with theirs. An hour alone is a time only after a part of the day (`午後2時`, `今晚8点`); `3時間` (three hours) is none.
    private static func time(_ t: [Scalar], _ i: Int) -> (Hit, Int)? {
        if i > 0, digit(t[i - 1].value) != nil || numerals[t[i - 1].value] != nil { return nil }
        var p = i
        var pm: Bool? = nil
        var late = false
        if let half = afternoon.first(where: { matches(t, i, $0) }) { pm = true; p = skipSpaces(t, i + half.count) }
        else if let half = night.first(where: { matches(t, i, $0) }) {
            pm = true; late = true; p = skipSpaces(t, i + half.count)
        }
        else if let half = morning.first(where: { matches(t, i, $0) }) { pm = false; p = skipSpaces(t, i + half.count) }
        guard let (h, he, _) = number(t, p, maxLength: 3), h <= 24 else { return nil }
        p = skipSpaces(t, he)
        guard hourSigns.contains(t[p].value) else { return nil }
        p += 1
        // 時間 and 시간: a duration, not a time.
        if t[p].value == 0x9593 || t[p].value == 0x95F4 || t[p].value == 0xAC04 { return nil }
        var end = p
        var minute: Int? = nil, second: Int? = nil
        let q = skipSpaces(t, p)
        if let (m, e, _) = number(t, q, maxLength: 3), m < 60, case let r = skipSpaces(t, e),
            minuteSigns.contains(t[r].value)
        {
            minute = m
            end = r + 1
            let q2 = skipSpaces(t, end)
            if let (sv, e2, _) = number(t, q2, maxLength: 3), sv < 60, case let r2 = skipSpaces(t, e2),
               secondSigns.contains(t[r2].value) {
                second = sv
                end = r2 + 1
            }
        } else if t[q].value == 0x534A || t[q].value == 0xBC18 { // 半, 반: half past
            minute = 30
            end = q + 1
        }
        guard minute != nil || pm != nil else { return nil }
        var hour = h
        if let pm {
            guard h <= 12 else { return nil }
            if late { hour = h == 12 ? 0 : h < 5 ? h : h + 12 }
            else { hour = pm ? (h == 12 ? 12 : h + 12) : (h == 12 ? 0 : h) }
        }
        guard hour <= 23 || hour == 24 && (minute ?? 0) == 0 else { return nil }
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        var text = "\(two(hour)):\(two(minute ?? 0))"
        if let second { text += ":\(two(second))" }
        let hit = Hit(type: .time, start: t[i].byte, end: t[end].byte, value: EntityValue(time: text), priority: 40)
        return (hit, end)
    }
}
