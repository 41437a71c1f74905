import Foundation

/// An exact amount of money: `minor` units of 10 to the minus `scale` (`-0.25` is -25 at scale 2,
/// `25000` rupiah is 25000 at scale 0), so that arithmetic never rounds. `decimal` gives it as a
/// `Decimal`, `decimalString` as printed decimals.
///
/// `Amount.parse` is the token reader the receipt and card parsers use; its number grammar
/// (digit groups, thousands and decimal separators) is `MoneyDetector.number(in:at:)`, the one the
/// money detector reads text with, so a number reads the same whichever of them meets it.
public struct Amount: Hashable, Sendable, Comparable {
    public var minor: Int
    public var scale: Int

    public init(minor: Int, scale: Int) { self.minor = minor; self.scale = scale }

    /// The value as a decimal string with its printed decimals (`9.00`, `-1.50`, `25000`).
    public var decimalString: String {
        guard scale > 0 else { return String(minor) }
        let p = Self.pow10(scale)
        let a = abs(minor)
        let frac = String(a % p)
        return (minor < 0 ? "-" : "") + "\(a / p)." + String(repeating: "0", count: scale - frac.count) + frac
    }

    /// Reads back what `decimalString` wrote (`9.00`, `-1.50`, `25000`): a model's stored amount, not a
    /// printed token, so whole units need no flag and no currency or separator is taken.
    public init?(decimalString s: String) {
        var digits = s[...]
        let negative = digits.hasPrefix("-")
        if negative { digits = digits.dropFirst() }
        let parts = digits.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count),
            parts.allSatisfy({ !$0.isEmpty && $0.count <= 15 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }
            ),
            let minor = Int(parts.joined())
        else { return nil }
        self.init(minor: negative ? -minor : minor, scale: parts.count == 2 ? parts[1].count : 0)
    }

    /// The exact value (`minor` over 10 to the `scale`).
    public var decimal: Decimal {
        Decimal(sign: minor < 0 ? .minus : .plus, exponent: -scale, significand: Decimal(abs(minor)))
    }

    /// In units of 1/100: lets amounts printed with 0 and 2 decimals be added.
    public var cents: Int {
        scale == 2 ? minor : scale == 0 ? minor * 100 : scale == 1 ? minor * 10 : minor / Self.pow10(scale - 2)
    }

    public static func < (a: Amount, b: Amount) -> Bool { a.cents < b.cents }

    public static func cents(_ c: Int) -> Amount { Amount(minor: c, scale: 2) }

    private static func pow10(_ n: Int) -> Int { var p = 1; for _ in 0..<n { p *= 10 }; return p }

    /// Reads one printed token as an amount: `9.00`, `RM9.00`, `$1,234.50`, `1.234,50€`, `1'234.50`,
    /// `-3.00`, `3.00-`, `(3.00)`, `12.50SR`, `$.83`. With `wholeUnits`, also `25,000` and `25.000`
    /// (currencies printed without decimals) and a lone `0`, and with `bare` as well a plain integer
    /// of three digits or more (`27500`, on a receipt whose amounts are all printed that way).
    /// Returns nil for dates, times, percentages, phone numbers and (unless `bare`) plain integers.
    ///
    /// What it adds to the detector's grammar is what OCR and tills do to a token on a receipt: a currency
    /// or tax code glued to either end, a minus before or after, marks at a column's edge (also a stop before
    /// the number, `.2.00`), two decimals after the thousands separator itself (`121.000.00`).
    /// The signs printed for a minus: the hyphen, the typographic minus and the en dash.
    public static let minusSigns: Set<Character> = ["-", "−", "–"]

    public static func parse(_ token: Substring, wholeUnits: Bool = false, bare: Bool = false) -> Amount? {
        var s = token[...]
        var negative = false
        if s.hasPrefix("(") && s.hasSuffix(")") && s.count > 2 { negative = true; s = s.dropFirst().dropLast() }
        // A minus before the currency (`-$3.50`, `-RM 0.25`), also as the typographic minus or a dash (`−0.25`,
        // `–3.50`).
        if let c = s.first, Amount.minusSigns.contains(c), let next = s.dropFirst().first,
            next.isLetter || Amount.currencySigns.contains(next)
        {
            negative = true
            s = s.dropFirst()
        }
        if let c = s.first, "−–".contains(c) { s = Substring("-" + s.dropFirst()) }
        if let c = s.last, "−–".contains(c), s.count > 1 { s = Substring(s.dropLast() + "-") }
        // Currency and tax-code letters glued to either end: RM, $, €, £, EUR, SR, ZR, T, A, *.
        var lettersBefore = ""
        var signed = false // a currency's sign or unit stands beside the number
        while let c = s.first, !c.isNumber, c != "-", c != "." {
            // A space only after a currency's letters or sign (`Rp 116000.00` read as one word).
            guard
                c.isLetter || Amount.currencySigns.contains(c) || ":*#@=".contains(c)
                    || (c == " " && s.count < token.count)
            else { return nil }
            if c.isLetter { lettersBefore.append(contentsOf: c.lowercased()) }
            if Amount.currencySigns.contains(c) { signed = true }
            s = s.dropFirst()
            if s.count > 16 { return nil }
        }
        if s.hasPrefix("-") { negative = true; s = s.dropFirst() }
        // A currency abbreviated with a full stop (`Rp.290.400`, `Rs.150.00`): the stop is the abbreviation's.
        if s.first == ".", s.count > 3, s.dropFirst().first?.isNumber == true,
            token.prefix(while: { $0 != "." }).allSatisfy(\.isLetter),
            MoneyDetector.namesCurrency(lettersBefore, or: ["rp", "sfr"])
        {
            s = s.dropFirst()
        }
        // Less than one unit, printed without the leading zero (`.17`, `$.83`, `RM.50`), as many tills do; only after
        // nothing, a sign or a currency, since `DPT.05` or `NO.12` is a code.
        if s.first == ".", s.count == 3, s.dropFirst().allSatisfy({ $0.isASCII && $0.isNumber }),
           MoneyDetector.isCurrencyOrSign(token.prefix { $0 != "." }) {
            s = "0" + s
        }
        // A stop that opens the token before a number with a decimal separator of its own, which no amount printed
        // without its leading zero has, is a mark OCR added: a column's edge (`.2.00`) or a minus read thin (`.9.62` on
        // a discount's line, whose label says the sign).
        if s.first == ".", s.count == token.count, s.dropFirst().first?.isNumber == true,
           s.dropFirst().contains(where: { $0 == "." || $0 == "," }) {
            s = s.dropFirst()
        }
        // Marks OCR leaves at the right edge of a column (`$21.49<`, `$0.50—`, `$0.99~`) are dropped.
        while let c = s.last, "<~—_|»".contains(c), s.count > 1 { s = s.dropLast() }
        var currencyAfter = false
        var lettersAfter = ""
        while let c = s.last, !c.isNumber {
            if c == "-" { negative = true; s = s.dropLast(); continue }
            // A space only before a currency's letters or sign (`1 234,56 €`, as the detector reads it).
            guard
                c.isLetter || Amount.currencySigns.contains(c) || "*%)".contains(c) || c == "." || c == ","
                    || (c == " " && currencyAfter)
            else { return nil }
            if c == "%" { return nil }
            if c.isLetter { lettersAfter.insert(contentsOf: c.lowercased(), at: lettersAfter.startIndex) }
            if Amount.currencySigns.contains(c) { signed = true }
            currencyAfter = currencyAfter || c.isLetter || Amount.currencySigns.contains(c)
            s = s.dropLast()
        }
        // A unit of measure glued on is a size or a weight (`500ml`, `1.50kg`), not an amount.
        if Amount.measureUnits.contains(lettersAfter) { return nil }
        // So is a gram's or a litre's one letter after a whole number (`400G`, `2L`); a tax class's letter follows an
        // amount with decimals (`6,99A`).
        if lettersAfter == "g" || lettersAfter == "l", s.allSatisfy(\.isNumber) { return nil }
        guard let first = s.first, first.isNumber, s.count <= 14 else { return nil }
        // Digits with separators only, read by the detector's grammar, which must take all of them.
        guard s.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "." || $0 == "," || $0 == "'" || $0 == " ") }) else {
            return nil
        }
        let bytes = Array(s.utf8)
        // A space inside the token is a thousands group's (the receipt parser joins `1` `250` `000,00` into one word
        // where the document groups thousands so).
        guard let number = MoneyDetector.number(
            in: bytes, at: 0, decimalsAfterThousandsSeparator: true, spaceGroups: bytes.contains(0x20)),
              number.end == bytes.count else { return nil }
        let integerDigits = bytes[..<number.intEnd].filter { $0 >= 0x30 && $0 <= 0x39 }
        guard number.hasSeparators || integerDigits.count <= 9 else { return nil }
        guard let whole = Int(String(decoding: integerDigits, as: UTF8.self)) else { return nil }
        var minor = whole
        var scale = 0
        switch number.decimalCount {
        case 2:
            // Printed cents: the usual amount.
            guard let cents = Int(String(decoding: bytes[number.decimalStart...], as: UTF8.self)) else { return nil }
            minor = whole * 100 + cents
            scale = 2
        case 0:
            // Whole units only where the receipt prints its amounts that way; a plain integer (a count,
            // a code) only when even its totals are printed without separators.
            guard wholeUnits else { return nil }
            // A yen's or won's sign OCR read as the letter it looks like (`V160`, `Y 280`, `W172`) stands for the sign
            // where the amounts are whole units: one such letter alone before the number.
            let signLookAlike = lettersBefore.count == 1 && Amount.wholeUnitSignLookAlikes.contains(lettersBefore)
                && token.first.map { $0.lowercased() == lettersBefore } == true
            // A lone `0` is a zero price (a free item, a bag, no change given, `Rp0`), but not at the end of a
            // word (`BAKS0`, `KOPI0`: an O read as a zero).
            if !number.hasSeparators && integerDigits == [0x30] && !lettersBefore.isEmpty {
                guard MoneyDetector.namesCurrency(lettersBefore, or: ["rp"]) || signLookAlike else { return nil }
            }
            // A sign or unit of the currency says so for any number of digits (`¥54`, `80円`).
            if !number.hasSeparators && integerDigits != [0x30] {
                let marked = signed || signLookAlike
                    || lettersAfter.count == 1 && Amount.unitSigns.contains(Character(lettersAfter))
                guard marked || bare && integerDigits.count >= 3, integerDigits.first != 0x30 else { return nil }
            }
        default:
            return nil // one decimal (`12.5`) is a quantity or a rate, not a printed amount
        }
        return Amount(minor: negative ? -minor : minor, scale: scale)
    }
}

extension Amount {
    /// The currencies' signs, printed before the amount or after it: dollar, euro, pound, yen and yuan (in both
    /// widths), rupee (and the older `₨`), won, peso, baht, naira, dong, lira, hryvnia, ruble, shekel, colón, cedi,
    /// guaraní, tenge, taka.
    public static let currencySigns: Set<Character> = [
        "$", "€", "£", "¥", "￥", "₹", "₨", "₩", "₱", "฿", "₦", "₫", "₺", "₴", "₽", "₪", "₡", "₵", "₲", "₸", "৳",
    ]
    /// The signs of currencies whose amounts are printed in whole units (yen, won, dong, guaraní; `¥` stands for the
    /// yuan too).
    public static let wholeUnitSigns: Set<Character> = ["¥", "￥", "₩", "₫", "₲"]
    /// The letters OCR reads for the yen's sign (`¥` losing its bars: `Y`, `V`) and the won's (`W`), lower-cased.
    public static let wholeUnitSignLookAlikes: Set<String> = ["y", "v", "w"]
    /// The currencies' signs written after the amount as units: yen, yuan, won.
    public static let unitSigns: Set<Character> = ["円", "元", "원"]

    /// Units of measure that follow a size or a weight on an item's line; one-letter units are left out, as tills
    /// print tax codes in one letter (`9.00 A`).
    static let measureUnits: Set<String> = [
        "ml", "cl", "dl", "kg", "mg", "gr", "lb", "lbs", "oz", "ltr", "mm", "cm", "pcs"
    ]

    /// `text` with every letter the detectors forgive in numbers (`O`, `I`, `l`, `S`, `B`; `ScanText.numericView`) read
    /// as its digit, for a caller that already knows the text is a number: `B9.73` is 89.73.
    public static func digitsForLookAlikes(_ text: String) -> String {
        String(decoding: text.utf8.map { ScanText.confusableDigit($0) ?? $0 }, as: UTF8.self)
    }

    /// The ISO codes of the currencies printed in whole units (`Rp.50` is fifty rupiah), as the money detector reads
    /// them.
    public static var wholeUnitCurrencies: Set<String> { MoneyDetector.wholeUnitCurrencies }

    /// Whether `c` is a letter the detectors read as a digit in a number.
    public static func isDigitLookAlike(_ c: Character) -> Bool {
        c.asciiValue.flatMap(ScanText.confusableDigit) != nil
    }

    /// The other way round: the capital letters each digit may be a misreading of (0 for O, 1 for I or L, 5 for S, 8
    /// for B), from the same table, for a caller that knows a word of letters stands there (`0R` for a US state's
    /// `OR`, `Ju1` for July).
    public static let letterLookAlikes: [Character: [Character]] = {
        var table: [Character: [Character]] = [:]
        for b in UInt8(0x41)...UInt8(0x7A) {
            guard let d = ScanText.confusableDigit(b) else { continue }
            let letter = Character(Unicode.Scalar(b)).uppercased().first!
            if table[Character(Unicode.Scalar(d)), default: []].contains(letter) { continue }
            table[Character(Unicode.Scalar(d)), default: []].append(letter)
        }
        return table
    }()
}
