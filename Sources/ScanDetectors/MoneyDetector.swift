import Foundation
import ScanModel

/// Amounts of money and percentages.
///
/// An amount is a number with thousands separators (`,` `.` `'` or a space before a
/// three-digit group) and an optional decimal part (`12.50`, `1.234,56`, `1'234.50`),
/// with a currency before or after it: a symbol (`$ € £ ¥ ￥ ₹`, `US$`, `C$`, `R$`; after it `円 元 원`), an ISO
/// 4217 code (`EUR`, `usd`), a local abbreviation (`RM`, `Rp`, `kr`, `CHF`, `Fr.`, `zł`) or
/// a word (`dollars`, `euros`, `ringgit`). A leading minus or surrounding parentheses
/// make it negative. Thousands grouped by spaces without decimals (`9 800 Kč`, `3 250 000 €`)
/// are one amount only when a currency is written beside them: bare, `2 500` may be a count
/// and a price. Without a currency, only amounts printed with exactly two decimals are
/// reported (as on receipts), and they carry no currency.
struct MoneyDetector {
    let region: String?

    /// The currency a bare `$` is in the region: its own dollar or peso where it has one, else the US dollar.
    private var dollar: String { region.flatMap { Self.dollarCurrencies[$0] } ?? "USD" }

    /// Regions whose own currency is written with `$` (dollars and pesos), and the currency; the regions that use
    /// the US dollar itself (Ecuador, El Salvador, Panama...) are left to the default.
    static let dollarCurrencies: [String: String] = [
        "CA": "CAD", "AU": "AUD", "NZ": "NZD", "SG": "SGD", "HK": "HKD", "MX": "MXN", "TW": "TWD", "AR": "ARS",
        "CL": "CLP", "CO": "COP", "UY": "UYU", "DO": "DOP", "CU": "CUP", "BS": "BSD", "BB": "BBD", "BZ": "BZD",
        "BM": "BMD", "BN": "BND", "FJ": "FJD", "GY": "GYD", "JM": "JMD", "KY": "KYD", "LR": "LRD", "NA": "NAD",
        "SB": "SBD", "SR": "SRD", "TT": "TTD", "AG": "XCD", "DM": "XCD", "GD": "XCD", "KN": "XCD", "LC": "XCD",
        "VC": "XCD",
    ]

    private var krone: String {
        switch region {
        case "NO": return "NOK"
        case "DK": return "DKK"
        case "IS": return "ISK"
        default: return "SEK"
        }
    }

    static let isoCodes: Set<String> = [
        "usd", "eur", "gbp", "jpy", "cny", "aud", "cad", "chf", "sek", "nok", "dkk", "pln", "czk", "huf",
        "inr", "idr", "myr", "sgd", "hkd", "nzd", "zar", "brl", "mxn", "krw", "thb", "php", "vnd", "try",
        "rub", "aed", "sar", "ils", "twd", "ron", "bgn", "isk", "egp", "ngn", "kes", "pkr", "lkr", "bdt",
        "ars", "clp", "cop", "pen", "uah", "qar", "kwd", "bhd", "omr", "mad", "ghs", "rmb", "uyu", "dop", "jmd", "ttd", "xcd", "bnd", "fjd"
    ]

    /// ISO codes that are also words or abbreviations a receipt prints for other things: a pen, RON 95 petrol, Sdn Bhd,
    /// Chinese New Year (CNY), try, mad, cop. The first two letters of each are its country's code.
    static let wordLikeCodes: Set<String> = ["PEN", "RON", "BHD", "CNY", "TRY", "MAD", "COP"]

    /// The letters of `text`, in capitals.
    static func letters(_ text: String) -> String { String(text.filter(\.isLetter)).uppercased() }

    /// Currencies whose amounts are printed in whole units: `Rp.50` is fifty rupiah, never half of one.
    /// Forint prices have been whole since the fillér went (1999), though ISO 4217 still gives HUF two decimals.
    static let wholeUnitCurrencies: Set<String> = ["IDR", "JPY", "KRW", "VND", "CLP", "ISK", "HUF"]

    /// Whether `text` holds nothing but signs, brackets, currency symbols and at most one currency code
    /// (`-$`, `(RM`, `EUR`) of a currency with cents: what may stand before an amount written without its
    /// leading zero (`$.83`).
    static func isCurrencyOrSign(_ text: Substring) -> Bool {
        let letters = String(text.filter(\.isLetter)).lowercased()
        guard text.allSatisfy({ $0.isLetter || "-−–( ".contains($0) || centSigns.contains($0) }),
            !wholeUnitCurrencies.contains(letters.uppercased())
        else { return false }
        return letters.isEmpty || namesCurrency(letters, or: ["sfr", "us"])
    }

    /// The signs of the currencies printed with cents.
    static let centSigns = Amount.currencySigns.subtracting(Amount.wholeUnitSigns)

    /// Short local markers of a currency that are no ISO code: ringgit, rupees, kronor and kroner, francs.
    static let localMarkers: Set<String> = ["rm", "rs", "kr", "fr"]

    /// Whether lower-case `letters` name a currency: an ISO code, a local marker, or one of `more`, the
    /// caller's own (`Amount.parse` takes `Rp0` for a zero price; `isCurrencyOrSign` must refuse `Rp`,
    /// since `Rp.50` is fifty rupiah, and takes `SFr` and `US` there instead).
    static func namesCurrency(_ letters: String, or more: Set<String> = []) -> Bool {
        isoCodes.contains(letters) || localMarkers.contains(letters) || more.contains(letters)
    }

    /// Every spelling a letter marker can have (case-insensitive), to skip other words cheaply.
    static let markerTable = WordTable(
        isoCodes.union([
            "dollar", "dollars", "bucks", "euro", "euros", "yen", "yuan", "renminbi", "rupee", "rupees", "ringgit",
            "rupiah", "francs", "sterling", "baht", "pesos", "kronor", "kronen", "kroner", "zloty", "złoty", "zł",
            "rm", "rp", "kr", "fr", "sfr", "zl", "kč", "kc", "rs", "ft", "ksh", "lei", "r", "руб", "р", "грн",
            "n", "p", "đ", "vnđ", "tk", "dh", "dhs",
        ]))

    /// Currency words written after (or before) the amount.
    private func word(_ w: String) -> String? {
        switch w {
        case "dollar", "dollars", "bucks": return dollar
        case "euro", "euros": return "EUR"
        case "yen": return "JPY"
        case "yuan", "renminbi": return "CNY"
        case "rupee", "rupees": return region == "PK" ? "PKR" : region == "LK" ? "LKR" : "INR"
        case "ringgit": return "MYR"
        case "rupiah": return "IDR"
        case "francs": return "CHF"
        case "sterling": return "GBP"
        case "baht": return "THB"
        case "pesos": return region ?? "" == "PH" ? "PHP" : "MXN"
        case "kronor", "kronen", "kroner": return krone
        case "zloty", "złoty", "zł": return "PLN"
        default: return nil
        }
    }

    /// A currency marker ending exactly at `end` (written before the amount); returns the
    /// currency and where the marker starts.
    private func markerBefore(_ s: ScanText, _ end: Int) -> (String, Int)? {
        let b = s.bytes
        guard end > 0 else { return nil }
        let c = b[end - 1]
        if c == 0x24 {  // $
            var start = end - 1
            var cur = dollar
            // Letters glued before: US$ C$ A$ AU$ NZ$ HK$ S$ R$ NT$ MX$ CA$ AUD$
            let ws = s.wordStart(before: start)
            if ws < start, start - ws <= 3 {
                let w = s.lower(ws, start)
                if let x = dollarPrefix(w) { cur = x; start = ws }
            } else if start >= 2, b[start - 1] == 0x20, isAlpha(b[start - 2]) {
                // "c $ 1.34" in tokenized text.
                let we = start - 1
                let wb = s.wordStart(before: we)
                let w = s.lower(wb, we)
                if ["c", "us", "nz", "hk", "au", "ca"].contains(w), let x = dollarPrefix(w) { cur = x; start = wb }
            }
            return (cur, start)
        }
        if let (cur, len) = symbolEnding(s, end) { return (cur, end - len) }
        // Peru's sol, `S/` or `S/.`, before an amount with its cents (`S/ 4.20`, `S/.10.90`; `S/8` is a misread `S/B`).
        for sign in ["S/.", "S/"] where end >= sign.utf8.count {
            let start = end - sign.utf8.count
            if b[start..<end].elementsEqual(sign.utf8), start == 0 || !isAlnum(b[start - 1]),
                Self.centsFollow(b, end, leadingFigure: false)
            {
                return ("PEN", start)
            }
        }
        if isAlpha(c) || c >= 0x80 || c == 0x2E {
            var we = end
            if c == 0x2E { we -= 1 }  // "Rp." "Fr."
            let ws = s.wordStart(before: we)
            guard ws < we, we - ws <= 8 else { return nil }
            if ws > 0, isDigit(b[ws - 1]) { return nil }
            guard MoneyDetector.markerTable.contains(s, ws, we) else { return nil }
            let raw = s.string(ws, we)
            if let cur = letterMarker(raw, lower: s.lower(ws, we), after: false, dotted: c == 0x2E) {
                // A stroke-less sign's letter (`N`, `P`) before an amount with its cents that opens with a figure from
                // 1 to 9 only (`P0S`, `TABLE P1`, `SN: P1234567`, `Plot N12` are codes).
                if raw == "N" || raw == "P", !Self.centsFollow(b, end, leadingFigure: true) { return nil }
                return (cur, ws)
            }
        }
        return nil
    }

    /// Whether the figures at `start` (past one space) are an amount with its cents (`4.20`, `1,200.00`), opening with
    /// a figure from 1 to 9 where `leadingFigure` asks: what a sign that is also a letter or a code must stand before.
    static func centsFollow(_ b: [UInt8], _ start: Int, leadingFigure: Bool) -> Bool {
        guard start <= b.count else { return false }
        let figures = b[start...].drop { $0 == 0x20 }.prefix { isDigit($0) || $0 == 0x2E || $0 == 0x2C }
        guard let first = figures.first, figures.count >= 4, !leadingFigure || (first >= 0x31 && first <= 0x39)
        else { return false }
        let mark = figures[figures.endIndex - 3]
        return mark == 0x2E || mark == 0x2C
    }

    private func dollarPrefix(_ w: String) -> String? {
        switch w {
        case "us", "usd": return "USD"
        case "c", "ca", "cad": return "CAD"
        case "a", "au", "aud": return "AUD"
        case "nz", "nzd": return "NZD"
        case "hk", "hkd": return "HKD"
        case "s", "sg", "sgd": return "SGD"
        case "r": return "BRL"
        case "nt": return "TWD"
        case "mx": return "MXN"
        default: return nil
        }
    }

    /// A currency symbol starting at `m` (`$`, or a single-scalar symbol of two or three bytes):
    /// its currency and where it ends.
    private func symbolStarting(_ s: ScanText, at m: Int) -> (String, Int)? {
        if s.at(m) == 0x24 { return (dollar, m + 1) }
        // The signs written only after the amount: 円 (yen), 元 (yuan), 원 (won); not as the first letter of a word
        // (`3원칙`, `3元素`, `3円形`: a Han or Hangul letter after it; kana after it is a particle, `739円です`).
        let next = s.at(m + 3), letterAfter = next >= 0xE4 && next <= 0xED
        switch (s.at(m), s.at(m + 1), s.at(m + 2)) {
        case (0xE5, 0x86, 0x86) where !letterAfter: return ("JPY", m + 3)
        case (0xE5, 0x85, 0x83) where !letterAfter: return ("CNY", m + 3)
        case (0xEC, 0x9B, 0x90) where !letterAfter: return ("KRW", m + 3)
        default: break
        }
        for len in [2, 3] where m + len <= s.bytes.count {
            if let (cur, l) = symbolEnding(s, m + len), l == len { return (cur, m + len) }
        }
        return nil
    }

    /// Single-scalar currency symbols ending at `end`; returns the currency and byte length.
    private func symbolEnding(_ s: ScanText, _ end: Int) -> (String, Int)? {
        let b = s.bytes
        if end >= 3, b[end - 3] == 0xE2 {
            switch (b[end - 2], b[end - 1]) {
            case (0x82, 0xAC): return ("EUR", 3)
            case (0x82, 0xB9): return ("INR", 3)
            case (0x82, 0xA9): return ("KRW", 3)
            case (0x82, 0xBD): return ("RUB", 3)
            case (0x82, 0xBA): return ("TRY", 3)
            case (0x82, 0xAB): return ("VND", 3)
            case (0x82, 0xB1): return ("PHP", 3)
            case (0x82, 0xAA): return ("ILS", 3)
            case (0x82, 0xB4): return ("UAH", 3)
            case (0x82, 0xA6): return ("NGN", 3)
            case (0x82, 0xA1): return ("CRC", 3)
            default: break
            }
        }
        if end >= 3, b[end - 3] == 0xE0, b[end - 2] == 0xB8, b[end - 1] == 0xBF { return ("THB", 3) }
        if end >= 3, b[end - 3] == 0xE0, b[end - 2] == 0xA7, b[end - 1] == 0xB3 { return ("BDT", 3) }  // ৳
        // The full-width yen sign ￥, as Japanese and Chinese receipts print it.
        if end >= 3, b[end - 3] == 0xEF, b[end - 2] == 0xBF, b[end - 1] == 0xA5 {
            return (region == "CN" ? "CNY" : "JPY", 3)
        }
        if end >= 2, b[end - 2] == 0xC2 {
            if b[end - 1] == 0xA3 { return ("GBP", 2) }
            if b[end - 1] == 0xA5 { return (region == "CN" ? "CNY" : "JPY", 2) }
        }
        return nil
    }

    /// Letter markers: ISO codes and local abbreviations.
    private func letterMarker(_ raw: String, lower w: String, after: Bool, dotted: Bool) -> String? {
        if w.utf8.count == 3, MoneyDetector.isoCodes.contains(w) {
            // Lower-case codes only when they stand alone as a word; upper-case always.
            return w == "rmb" ? "CNY" : w.uppercased()
        }
        switch raw {
        case "RM", "Rm": return "MYR"
        case "Rp", "RP": return "IDR"
        case "kr", "Kr", "KR": return krone
        case "Fr", "SFr", "CHF": return "CHF"
        case "zł", "zl", "ZŁ": return "PLN"
        case "Kč", "Kc": return "CZK"
        case "Rs", "RS": return region == "PK" ? "PKR" : region == "LK" ? "LKR" : "INR"
        case "Ft": return "HUF"
        case "KSh", "Ksh", "KSH": return "KES"
        case "lei", "Lei", "LEI": return "RON"
        // Bangladesh's taka and Morocco's or the Emirates' dirham, where the region says which.
        case "Tk", "TK": return region == "BD" ? "BDT" : nil
        case "DH", "Dh", "Dhs", "DHS": return region == "MA" ? "MAD" : region == "AE" ? "AED" : nil
        case "R": return region == "ZA" ? "ZAR" : nil
        // The naira's and the peso's signs as OCR reads them without their strokes (`N19,500.00`, `P40.00`): before
        // the amount only, as the signs are printed (`17:55:12 P0S` holds no pesos).
        case "N": return region == "NG" && !after ? "NGN" : nil
        case "P": return region == "PH" && !after ? "PHP" : nil
        case "đ", "Đ", "VNĐ", "VNđ", "vnđ": return "VND"
        case "руб", "р": return "RUB"
        case "грн": return "UAH"
        default: break
        }
        if after || dotted { return word(w) }
        return nil
    }

    /// A currency marker starting at `start` (written after the amount).
    private func markerAfter(_ s: ScanText, _ start: Int) -> (String, Int)? {
        let b = s.bytes
        guard start < b.count else { return nil }
        // A prefix-style symbol followed by a number belongs to that number ("1 $10"), unless that
        // number has a symbol after it too: then the text writes symbols after amounts, and the one
        // between, spaced from both, closes the amount before it ("10 $ 30 $").
        func numberFollows(_ e: Int) -> Bool {
            if isDigit(s.numAt(e)) { return true }
            guard s.at(e) == 0x20, isDigit(s.numAt(e + 1)) else { return false }
            guard let a = MoneyDetector.number(in: s.num, at: e + 1) else { return true }
            return symbolStarting(s, at: s.at(a.end) == 0x20 ? a.end + 1 : a.end) == nil
        }
        if let (cur, end) = symbolStarting(s, at: start) {
            return numberFollows(end) && cur != "EUR" ? nil : (cur, end)
        }
        if let named = Self.namedCurrency(s, at: start) { return named }
        if isWordLetter(b[start]) {
            let we = s.wordEnd(from: start)
            guard we - start <= 9, MoneyDetector.markerTable.contains(s, start, we) else { return nil }
            let raw = s.string(start, we)
            if let cur = letterMarker(raw, lower: s.lower(start, we), after: true, dotted: false) {
                var e = we
                if s.at(e) == 0x2E, ["Fr", "kr", "Rs", "руб", "р", "грн"].contains(raw), !isAlpha(s.at(e + 1)) {
                    e += 1
                }
                return (cur, e)
            }
        }
        return nil
    }

    /// Currencies named by their country's adjective and their unit, after an amount (`10,000 swiss francs`, `100
    /// chinese yuan`, `1,250.00 US dollars`, `5 pounds sterling`): the phrase, lower case with single spaces, and its
    /// code. The unit alone says less (`dollars` is the region's dollar, `pounds` may weigh).
    static let namedCurrencies: [(StaticString, String)] = [
        ("us dollars", "USD"), ("us dollar", "USD"), ("u.s. dollars", "USD"), ("american dollars", "USD"),
        ("canadian dollars", "CAD"), ("canadian dollar", "CAD"), ("australian dollars", "AUD"),
        ("australian dollar", "AUD"), ("new zealand dollars", "NZD"), ("hong kong dollars", "HKD"),
        ("singapore dollars", "SGD"), ("singapore dollar", "SGD"), ("swiss francs", "CHF"), ("swiss franc", "CHF"),
        ("chinese yuan", "CNY"), ("japanese yen", "JPY"), ("indian rupees", "INR"), ("indian rupee", "INR"),
        ("british pounds", "GBP"), ("pounds sterling", "GBP"), ("pound sterling", "GBP"), ("mexican pesos", "MXN"),
        ("philippine pesos", "PHP"), ("south african rand", "ZAR"), ("swedish kronor", "SEK"),
        ("danish kroner", "DKK"), ("norwegian kroner", "NOK"), ("brazilian reais", "BRL"), ("russian rubles", "RUB"),
        ("korean won", "KRW"), ("malaysian ringgit", "MYR"), ("indonesian rupiah", "IDR"), ("thai baht", "THB"),
    ]

    /// `namedCurrencies` and the names ISO 4217 gives by a place (`kuwaiti dinars`, `lebanese pounds`).
    static let allNamedCurrencies = namedCurrencies + isoNamedCurrencies

    /// A currency named by `allNamedCurrencies` starting at `start`: its code and where it ends.
    static func namedCurrency(_ s: ScanText, at start: Int) -> (String, Int)? {
        longestPhrase(allNamedCurrencies, s, at: start)
    }

    /// The value of the longest phrase of `table` written at `q` (in any case) that ends a word there, or ends with its
    /// own full stop (`Mio.`), and where it ends; nil when none is.
    static func longestPhrase<T>(_ table: [(StaticString, T)], _ s: ScanText, at q: Int) -> (T, Int)? {
        guard isAlpha(s.at(q)) else { return nil }
        var best: (T, Int)?
        for (phrase, value) in table where s.matches(phrase, at: q) {
            let end = q + phrase.utf8CodeUnitCount
            guard s.at(end - 1) == 0x2E || !isAlpha(s.at(end)), best.map({ end > $0.1 }) ?? true else { continue }
            best = (value, end)
        }
        return best
    }

    /// A number read by `number(in:at:)`, as byte positions; its digits are only turned into
    /// a string when the amount is kept.
    struct NumberSpan {
        var start: Int
        var end: Int
        /// The integer part: `[start, intEnd)`, separators included.
        var intEnd: Int
        /// The decimals: `[decimalStart, end)`, empty when there are none.
        var decimalStart: Int
        var decimalCount: Int { end - decimalStart }
        var hasSeparators: Bool
    }

    /// The most digit groups a number may have (`1,234,567,890.12` has five).
    private static let maxGroups = 9

    /// The number grammar of every amount we read (this detector's, and `Amount.parse`'s for the
    /// parsers): a number with thousands and decimal separators starting at `i` of `v`. Thousands
    /// separators (`,` `.` `'`, or a space before a three-digit group and decimals) are all the same,
    /// after a first group of one to three digits; the decimals (one or two digits) follow the other
    /// separator: `1,234.50`, `1.234,50`, `1'234.50`, `1 234,56`, `25.000`, `12,50`. With
    /// `decimalsAfterThousandsSeparator`, two decimals may also follow the thousands separator
    /// (`121.000.00`, as some Indonesian tills print): read on a receipt's amount column, not in running text.
    /// With `spaceGroups`, spaces group thousands without decimals after them too (`9 800`, `3 250 000`).
    static func number(
        in v: [UInt8], at i: Int, decimalsAfterThousandsSeparator: Bool = false, spaceGroups: Bool = false
    ) -> NumberSpan? {
        let n = v.count
        // Group lengths and the separators between them, in fixed storage: numbers are
        // read at every digit of the text, so no arrays are built here.
        var lens: (Int, Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0, 0)
        var seps: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0, 0, 0, 0, 0)
        var groupCount = 0
        var p = i
        while true {
            var e = p
            while e < n, isDigit(v[e]) { e += 1 }
            guard e > p else { return nil }
            withUnsafeMutableBytes(of: &lens) {
                $0.storeBytes(of: e - p, toByteOffset: groupCount * MemoryLayout<Int>.stride, as: Int.self)
            }
            groupCount += 1
            let firstLen = lens.0
            p = e
            guard p < n else { break }
            let c = v[p]
            var sep: UInt8 = 0
            if (c == 0x2C || c == 0x2E || c == 0x27) && p + 1 < n && isDigit(v[p + 1]) {
                sep = c
            } else if c == 0x20, p + 4 <= n, isDigit(v[p + 1]), isDigit(v[p + 2]), isDigit(v[p + 3]),
                p + 4 == n || !isDigit(v[p + 4]), groupCount == 1 ? firstLen <= 3 : true,
                spaceGroups || p + 5 < n && (v[p + 4] == 0x2C || v[p + 4] == 0x2E) && isDigit(v[p + 5])
            {
                sep = 0x20  // 1 234,56
            } else {
                break
            }
            if groupCount >= MoneyDetector.maxGroups { return nil }
            withUnsafeMutableBytes(of: &seps) { $0[groupCount - 1] = sep }
            p += 1
        }
        let end = p
        func len(_ k: Int) -> Int {
            withUnsafeBytes(of: lens) { $0.load(fromByteOffset: k * MemoryLayout<Int>.stride, as: Int.self) }
        }
        func sep(_ k: Int) -> UInt8 { withUnsafeBytes(of: seps) { $0[k] } }
        if groupCount == 1 {
            guard len(0) <= 12 else { return nil }
            return NumberSpan(start: i, end: end, intEnd: end, decimalStart: end, hasSeparators: false)
        }
        let lastSep = sep(groupCount - 2)
        let lastLen = len(groupCount - 1)
        var intGroups = groupCount
        var intEnd = end
        var decimalStart = end
        if lastLen <= 2 && lastSep != 0x27 && lastSep != 0x20 {
            intGroups -= 1
            decimalStart = end - lastLen
            intEnd = decimalStart - 1
            if !(decimalsAfterThousandsSeparator && lastLen == 2) {
                for k in 0..<(intGroups - 1) where sep(k) == lastSep { return nil }
            }
        } else if lastLen != 3 {
            return nil
        }
        if intGroups > 1 {
            // Thousands separators: all the same, a short first group, then groups of three.
            let first = sep(0)
            guard len(0) <= 3 else { return nil }
            for k in 1..<intGroups where sep(k - 1) != first { return nil }
            let thousands = (1..<intGroups).allSatisfy { len($0) == 3 }
            // India's lakhs and crores: pairs of digits before the last three, by commas, with decimals after a point
            // or none (`1,04,199.00`, `1,23,45,678.50`, `₹1,00,000`).
            let lakhs = intGroups >= 3 && first == 0x2C && (decimalStart == end || lastSep == 0x2E) && len(0) <= 2
                && len(intGroups - 1) == 3 && (1..<(intGroups - 1)).allSatisfy { len($0) == 2 }
            guard thousands || lakhs else { return nil }
        } else if len(0) > 12 {
            return nil
        }
        return NumberSpan(start: i, end: end, intEnd: intEnd, decimalStart: decimalStart, hasSeparators: true)
    }

    /// The amount as a decimal string: integer digits without separators or leading zeros,
    /// then `.` and the decimals (`decimals` replaces them when given).
    private func normalized(_ s: ScanText, _ a: NumberSpan, negative: Bool, decimals: (Int, Int)? = nil) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(a.end - a.start + 2)
        if negative { out.append(0x2D) }
        let v = s.num
        var k = a.start
        while k < a.intEnd, v[k] == 0x30 || !isDigit(v[k]) { k += 1 }  // leading zeros
        let integerStart = out.count
        while k < a.intEnd { if isDigit(v[k]) { out.append(v[k]) }; k += 1 }
        if out.count == integerStart { out.append(0x30) }
        let (ds, de) = decimals ?? (a.decimalStart, a.end)
        if de > ds {
            out.append(0x2E)
            out.append(contentsOf: v[ds..<de])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A percentage's value. One separator before three digits is a decimal point there (`GST (6.000%)` is 6%, not
    /// 6000%), where an amount would read it as grouping thousands.
    private func percent(_ s: ScanText, _ a: NumberSpan, negative: Bool) -> String {
        let v = s.num
        let seps = (a.start..<a.end).filter { !isDigit(v[$0]) }
        if a.decimalCount == 0, seps.count == 1, let k = seps.first, k - a.start <= 3, a.end - k == 4 {
            return normalized(
                s, NumberSpan(start: a.start, end: a.end, intEnd: k, decimalStart: k + 1, hasSeparators: true),
                negative: negative)
        }
        return normalized(s, a, negative: negative)
    }

    func detect(_ s: ScanText, into hits: inout [Hit]) {
        let v = s.num
        let b = s.bytes
        let n = v.count
        var i = 0
        var lastEnd = 0  // a marker that ended the previous amount cannot start the next one
        while i < n {
            guard isDigit(v[i]) else { i += 1; continue }
            let prev = s.at(i - 1)
            if isDigit(prev) || (prev == 0x2E || prev == 0x2C) && isDigit(s.numAt(i - 2))
                || isAlpha(prev) && markerBefore(s, i) == nil
            {
                while i < n, isDigit(v[i]) { i += 1 }
                continue
            }
            guard var a = MoneyDetector.number(in: v, at: i) else {
                while i < n, isDigit(v[i]) || v[i] == 0x2E || v[i] == 0x2C { i += 1 }
                continue
            }
            if s.at(a.end) == 0x20, isDigit(s.numAt(a.end + 1)),
                let wide = MoneyDetector.number(in: v, at: i, spaceGroups: true), wide.end > a.end,
                hasCurrencyBeside(s, wide)
            {
                a = wide
            }
            i = a.end
            // The amount may not run on into letters or another number ("2.5kg" is fine only with a currency).
            let after = s.at(a.end)
            // Cents without the leading zero after a currency (`$.83`, `RM .50`), as many tills print them.
            if prev == 0x2E, a.end - a.start == 2, !a.hasSeparators, !isAlnum(after),
                after != 0x2E || !isDigit(s.numAt(a.end + 1)), after != 0x2C || !isDigit(s.numAt(a.end + 1)),
                let (cur, ms) = markerBefore(s, a.start - 1)
                    ?? (s.at(a.start - 2) == 0x20 ? markerBefore(s, a.start - 2) : nil), ms >= lastEnd,
                !MoneyDetector.wholeUnitCurrencies.contains(cur)
            {
                var start = ms, negative = false
                if ms > 0, b[ms - 1] == 0x2D, !isAlnum(s.at(ms - 2)) { negative = true; start = ms - 1 }
                let cents = s.string(a.start, a.end)
                hits.append(
                    Hit(
                        type: .money, start: start, end: a.end,
                        value: EntityValue(amount: (negative ? "-0." : "0.") + cents, currency: cur), priority: 35))
                lastEnd = a.end
                continue
            }
            // A percentage, also with a space before its sign, as French and German typography sets it (`20 %`).
            let sign = after == 0x25 ? a.end : after == 0x20 && s.at(a.end + 1) == 0x25 ? a.end + 1 : nil
            if let sign {
                hits.append(
                    Hit(
                        type: .percentage, start: signStart(s, a.start), end: sign + 1,
                        value: EntityValue(percent: percent(s, a, negative: signStart(s, a.start) < a.start)),
                        priority: 36))
                continue
            }
            if let pe = percentWord(s, a.end) {
                hits.append(
                    Hit(
                        type: .percentage, start: a.start, end: pe,
                        value: EntityValue(percent: normalized(s, a, negative: false)), priority: 36))
                continue
            }
            var start = a.start
            var end = a.end
            var currency: String? = nil
            var negative = false
            // Sign directly before the number: -12.50, −12.50, $-12.50
            var numStart = a.start
            if numStart > 0, b[numStart - 1] == 0x2D, !isAlnum(s.at(numStart - 2)) {
                negative = true; numStart -= 1
            } else if numStart >= 3, b[numStart - 3] == 0xE2, b[numStart - 2] == 0x88, b[numStart - 1] == 0x92 {
                negative = true; numStart -= 3
            }
            // Currency before (directly or after one space).
            if let (cur, ms) = currencyBefore(s, numStart), ms >= lastEnd {
                currency = cur
                start = ms
                if !negative, ms > 0, b[ms - 1] == 0x2D, !isAlnum(s.at(ms - 2)) { negative = true; start = ms - 1 }
            } else {
                start = numStart
            }
            // A scale word after the number (`$ 75 million`, `hk $ 10.05 billion`, `2,5 Mrd. €`, `5 juta rupiah`)
            // multiplies it, with a currency before it or after the word; without one it is no money.
            var scale = 0
            if let (zeros, we) = Self.scaleWord(s, after: a.end) {
                if currency != nil {
                    (scale, end) = (zeros, we)
                } else if let (cur, me) = currencyAfter(s, we) {
                    (scale, currency, end) = (zeros, cur, me)
                }
            }
            // Currency after.
            if currency == nil {
                if let (cur, me) = currencyAfter(s, a.end) {
                    currency = cur
                    end = me
                    // "17 USD 25": whole units, code, cents.
                    if a.decimalCount == 0, s.at(me) == 0x20, isDigit(s.numAt(me + 1)), isDigit(s.numAt(me + 2)),
                        !isAlnum(s.at(me + 3)),
                        s.at(me + 3) != 0x2E || !isDigit(s.numAt(me + 4)),
                        s.at(me + 3) != 0x2C || !isDigit(s.numAt(me + 4)),
                        currencyAfter(s, me + 3) == nil
                    {
                        end = me + 3
                        hits.append(
                            Hit(
                                type: .money, start: start, end: end,
                                value: EntityValue(
                                    amount: normalized(s, a, negative: negative, decimals: (me + 1, me + 3)),
                                    currency: cur), priority: 35))
                        i = end
                        lastEnd = end
                        continue
                    }
                }
            }
            // A code that is also a word on receipts and cards names its currency only before or after an amount with
            // decimals, and not where another region is known: `3 PEN`, `PEN 7.50` on a Malaysian receipt, `RON 95`
            // (petrol), `SDN BHD 50118`, `2016 CNY` (the new year) are no money. Nor, unless the region is the code's
            // own, is a code that ends a run of words before the amount: an item's name (`BALL PEN 7.50`).
            if let cur = currency, MoneyDetector.wordLikeCodes.contains(cur),
                Self.letters(start < numStart ? s.string(start, numStart) : s.string(a.end, end)) == cur,
                case let elsewhere = region.map({ !cur.hasPrefix($0) }),
                case let endsItemName = start < numStart && s.at(start - 1) == 0x20 && isAlpha(s.at(start - 2)),
                a.decimalCount == 0 || elsewhere == true || endsItemName && elsewhere != false
            {
                currency = nil
                start = numStart
                end = a.end
            }
            if currency == nil && (isAlpha(after) || a.decimalCount != 2) { continue }
            if currency != nil, isAlpha(after), end == a.end, scale == 0 { continue }
            // Parentheses around the whole amount mean negative.
            if start > 0, b[start - 1] == 0x28, s.at(end) == 0x29 { negative = true; start -= 1; end += 1 }
            if currency == nil {
                // Bare two-decimal numbers that are part of a longer dotted or dashed token are not amounts.
                if (after == 0x2E || after == 0x2D || after == 0x2F || after == 0x3A) && isDigit(s.numAt(a.end + 1)) {
                    continue
                }
                if a.start > 0, b[a.start - 1] == 0x3A || b[a.start - 1] == 0x2F { continue }
            }
            let amount = normalized(s, a, negative: negative)
            let value = EntityValue(amount: scale == 0 ? amount : Self.scaled(amount, zeros: scale), currency: currency)
            hits.append(Hit(type: .money, start: start, end: end, value: value, priority: currency == nil ? 20 : 35))
            i = max(i, end)
            lastEnd = end
        }
    }

    /// A currency marker ending at `end`, or one space before it: the currency and where the marker starts.
    private func currencyBefore(_ s: ScanText, _ end: Int) -> (String, Int)? {
        markerBefore(s, end) ?? (s.at(end - 1) == 0x20 ? markerBefore(s, end - 1) : nil)
    }

    /// A currency marker starting at `start`, or one space after it: the currency and where the marker ends.
    private func currencyAfter(_ s: ScanText, _ start: Int) -> (String, Int)? {
        markerAfter(s, s.at(start) == 0x20 ? start + 1 : start)
    }

    /// Whether a currency is written right before `a` (a sign between allowed) or right after it.
    private func hasCurrencyBeside(_ s: ScanText, _ a: NumberSpan) -> Bool {
        currencyBefore(s, signStart(s, a.start)) != nil || currencyAfter(s, a.end) != nil
    }

    private func signStart(_ s: ScanText, _ i: Int) -> Int {
        i > 0 && s.bytes[i - 1] == 0x2D && !isAlnum(s.at(i - 2)) ? i - 1 : i
    }

    /// The words that scale an amount, with the power of ten each names: English, the short forms of the financial
    /// press, and the words of the locales whose receipts we read (German `Mio.`/`Mrd.`, French, Italian, Spanish,
    /// Dutch, Malay and Indonesian `juta`/`ribu`). A German `Billion` (10^12) is left out: it would read as the
    /// English word.
    static let scaleWords: [(StaticString, Int)] = [
        ("thousand", 3), ("million", 6), ("millions", 6), ("billion", 9), ("billions", 9), ("trillion", 12),
        ("mn", 6), ("bn", 9), ("mio.", 6), ("mio", 6), ("mrd.", 9), ("mrd", 9), ("millionen", 6), ("milliarden", 9),
        ("milliard", 9), ("milliards", 9), ("milioni", 6), ("miliardi", 9), ("millones", 6), ("mil millones", 9),
        ("miljoen", 6), ("miljard", 9), ("juta", 6), ("ribu", 3),
    ]

    /// A scale word one space after the number ending at `e` (`75 million`): its power of ten and where it ends. The
    /// longest that ends a word there (`millions` over `million`, `Mio.` over `Mio`; `millionaire` is none).
    static func scaleWord(_ s: ScanText, after e: Int) -> (Int, Int)? {
        s.at(e) == 0x20 ? longestPhrase(scaleWords, s, at: e + 1) : nil
    }

    /// A decimal string times ten to the `zeros` (`48.2`, 6 -> `48200000`).
    static func scaled(_ amount: String, zeros: Int) -> String {
        guard var d = Decimal(string: amount, locale: Locale(identifier: "en_US_POSIX")) else { return amount }
        d *= pow(Decimal(10), zeros)
        return NSDecimalNumber(decimal: d).stringValue
    }

    /// Words for per cent, as printed after a number.
    static let percentWords: [(StaticString, Void)] = [
        "percent", "per cent", "pct", "prozent", "pour cent", "por ciento", "per cento", "procent",
    ].map { ($0, ()) }

    private func percentWord(_ s: ScanText, _ e: Int) -> Int? {
        Self.longestPhrase(Self.percentWords, s, at: s.at(e) == 0x20 ? e + 1 : e)?.1
    }
}
