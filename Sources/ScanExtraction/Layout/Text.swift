import Foundation

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
