import Foundation

/// An amount of money in minor units (cents), with the number of decimals printed.
public struct Amount: Hashable, Sendable, Comparable {
    public var minor: Int
    public var scale: Int

    public init(minor: Int, scale: Int) { self.minor = minor; self.scale = scale }

    /// The value as a decimal string with its printed decimals (`9.00`, `-1.50`, `25000`).
    public var decimalString: String {
        guard scale > 0 else { return String(minor) }
        var p = 1
        for _ in 0..<scale { p *= 10 }
        let a = abs(minor)
        let frac = String(a % p)
        return (minor < 0 ? "-" : "") + "\(a / p)." + String(repeating: "0", count: scale - frac.count) + frac
    }

    /// The exact value (`minor` over 10 to the `scale`), for arithmetic that must not round.
    public var decimal: Decimal { Decimal(sign: minor < 0 ? .minus : .plus, exponent: -scale, significand: Decimal(abs(minor))) }

    /// In units of 1/100: lets amounts printed with 0 and 2 decimals be added.
    public var cents: Int { scale == 2 ? minor : scale == 0 ? minor * 100 : scale == 1 ? minor * 10 : minor / pow10(scale - 2) }

    public static func < (a: Amount, b: Amount) -> Bool { a.cents < b.cents }

    public static func cents(_ c: Int) -> Amount { Amount(minor: c, scale: 2) }

    private func pow10(_ n: Int) -> Int { var p = 1; for _ in 0..<n { p *= 10 }; return p }

    /// Reads one printed token as an amount: `9.00`, `RM9.00`, `$1,234.50`, `1.234,50€`,
    /// `-3.00`, `3.00-`, `(3.00)`, `12.50SR`. With `wholeUnits`, also `25,000` and `25.000`
    /// (currencies printed without decimals), and with `bare` as well a plain integer of three
    /// digits or more (`27500`, on a receipt whose amounts are all printed that way).
    /// Returns nil for dates, times, percentages, phone numbers and (unless `bare`) plain integers.
    public static func parse(_ token: Substring, wholeUnits: Bool = false, bare: Bool = false) -> Amount? {
        var s = token[...]
        var negative = false
        if s.hasPrefix("(") && s.hasSuffix(")") && s.count > 2 { negative = true; s = s.dropFirst().dropLast() }
        // A minus before the currency (`-$3.50`, `-RM 0.25`), also as the typographic minus or a dash (`−0.25`, `–3.50`).
        if let c = s.first, "-−–".contains(c), let next = s.dropFirst().first, next.isLetter || "$€£¥₹".contains(next) {
            negative = true
            s = s.dropFirst()
        }
        if let c = s.first, "−–".contains(c) { s = Substring("-" + s.dropFirst()) }
        if let c = s.last, "−–".contains(c), s.count > 1 { s = Substring(s.dropLast() + "-") }
        // Currency and tax-code letters glued to either end: RM, $, €, £, EUR, SR, ZR, T, A, *.
        while let c = s.first, !c.isNumber, c != "-" {
            // A space only after a currency's letters or sign (`Rp 116000.00` read as one word).
            guard c.isLetter || "$€£¥₹₩₱฿:*#@=".contains(c) || (c == " " && s.count < token.count) else { return nil }
            s = s.dropFirst()
            if s.count > 16 { return nil }
        }
        if s.hasPrefix("-") { negative = true; s = s.dropFirst() }
        // Marks OCR leaves at the right edge of a column (`$21.49<`, `$0.50—`, `$0.99~`) are dropped.
        while let c = s.last, "<~—_|»".contains(c), s.count > 1 { s = s.dropLast() }
        while let c = s.last, !c.isNumber {
            if c == "-" { negative = true; s = s.dropLast(); continue }
            guard c.isLetter || "$€£¥*%)".contains(c) || c == "." || c == "," else { return nil }
            if c == "%" { return nil }
            s = s.dropLast()
        }
        guard let first = s.first, first.isNumber, s.count <= 14 else { return nil }
        // Digits with separators only.
        guard s.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "." || $0 == "," || $0 == "'" || $0 == " ") }) else { return nil }
        let chars = Array(s)
        // Decimal part: a separator followed by exactly two digits at the end.
        var intPart: [Character], frac: [Character] = []
        if chars.count >= 4, chars[chars.count - 3] == "." || chars[chars.count - 3] == ",",
           chars[chars.count - 2].isNumber, chars[chars.count - 1].isNumber {
            intPart = Array(chars[..<(chars.count - 3)])
            frac = Array(chars[(chars.count - 2)...])
        } else if wholeUnits {
            intPart = chars
        } else {
            return nil
        }
        // The integer part: plain digits, or groups of three after a separator.
        let groups = intPart.split(omittingEmptySubsequences: false,
                                   whereSeparator: { $0 == "." || $0 == "," || $0 == "'" || $0 == " " })
        guard let head = groups.first, !head.isEmpty, head.count <= 9 else { return nil }
        if groups.count > 1 {
            guard head.count <= 3, groups.dropFirst().allSatisfy({ $0.count == 3 }) else { return nil }
        } else if frac.isEmpty && !(wholeUnits && bare && head.count >= 3 && head.first != "0") {
            return nil // a bare integer is a count, not an amount, unless the receipt prints its amounts that way
        }
        guard let whole = Int(String(groups.joined())) else { return nil }
        var minor = whole
        var scale = 0
        if !frac.isEmpty { minor = whole * 100 + (Int(String(frac)) ?? 0); scale = 2 }
        return Amount(minor: negative ? -minor : minor, scale: scale)
    }
}

/// Small text helpers shared by the parsers.
enum Text {
    /// Upper-cased letters and digits with every other run of characters turned into one space.
    static func key(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.count)
        var space = true
        for c in s.uppercased() {
            if c.isLetter || c.isNumber {
                out.append(c)
                space = false
            } else if !space {
                out.append(" ")
                space = true
            }
        }
        if out.hasSuffix(" ") { out.removeLast() }
        return out
    }

    /// Whether `key` (as made by `key(_:)`) holds `phrase` as whole words.
    static func has(_ key: String, _ phrase: String) -> Bool {
        // A byte search: Foundation's `range(of:)` made this the most expensive call of a parse.
        var key = key, phrase = phrase
        return key.withUTF8 { k in phrase.withUTF8 { p in hasWords(k, p) } }
    }

    static func hasWords(_ k: UnsafeBufferPointer<UInt8>, _ p: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = k.count, m = p.count
        guard m > 0, m <= n else { return false }
        let first = p[0]
        var i = 0
        while i + m <= n {
            if k[i] == first && (i == 0 || k[i - 1] == 0x20) && (i + m == n || k[i + m] == 0x20) {
                var j = 1
                while j < m && k[i + j] == p[j] { j += 1 }
                if j == m { return true }
            }
            i += 1
        }
        return false
    }

    static func hasAny(_ key: String, _ phrases: [String]) -> Bool {
        var key = key
        return key.withUTF8 { k in
            phrases.contains { p in
                var p = p
                return p.withUTF8 { hasWords(k, $0) }
            }
        }
    }

    static func letterCount(_ s: String) -> Int { s.reduce(0) { $0 + ($1.isLetter ? 1 : 0) } }
    static func digitCount(_ s: String) -> Int { s.reduce(0) { $0 + ($1.isNumber ? 1 : 0) } }

    /// Trims spaces and the punctuation OCR leaves at the ends of a phrase.
    static func clean(_ s: String) -> String {
        s.trimmingCharacters(in: CharacterSet.whitespaces.union(CharacterSet(charactersIn: "|:;_~=*•·«»")))
    }

    /// The first match of a regular expression, compiled once per pattern.
    static func range(_ s: String, _ pattern: String, caseInsensitive: Bool = false) -> Range<String.Index>? {
        let re = RegexCache.shared.regex(pattern, caseInsensitive: caseInsensitive)
        guard let m = re.firstMatch(in: s, range: NSRange(s.startIndex..., in: s)) else { return nil }
        return Range(m.range, in: s)
    }

    /// The capture groups of the first match of a regular expression (an empty string for a group that took no part).
    static func groups(_ s: String, _ pattern: String, caseInsensitive: Bool = false) -> [String]? {
        let re = RegexCache.shared.regex(pattern, caseInsensitive: caseInsensitive)
        guard let m = re.firstMatch(in: s, range: NSRange(s.startIndex..., in: s)) else { return nil }
        return (1..<max(1, m.numberOfRanges)).map { k in Range(m.range(at: k), in: s).map { String(s[$0]) } ?? "" }
    }

    /// `s` with every match of `pattern` replaced by `template`.
    static func replacing(_ s: String, _ pattern: String, with template: String, caseInsensitive: Bool = false) -> String {
        let re = RegexCache.shared.regex(pattern, caseInsensitive: caseInsensitive)
        return re.stringByReplacingMatches(in: s, range: NSRange(s.startIndex..., in: s), withTemplate: template)
    }
}

/// Compiled regular expressions by pattern: compiling one costs more than running it on a line.
final class RegexCache: @unchecked Sendable {
    static let shared = RegexCache()
    private let lock = NSLock()
    private var compiled: [String: NSRegularExpression] = [:]

    func regex(_ pattern: String, caseInsensitive: Bool) -> NSRegularExpression {
        let key = (caseInsensitive ? "i:" : "c:") + pattern
        lock.lock()
        defer { lock.unlock() }
        if let re = compiled[key] { return re }
        // The patterns are literals of this module: a bad one is a programming error.
        let re = try! NSRegularExpression(pattern: pattern, options: caseInsensitive ? [.caseInsensitive] : [])
        compiled[key] = re
        return re
    }
}
