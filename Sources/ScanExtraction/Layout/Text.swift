import Foundation
import ScanDetectors

/// Small text helpers shared by the parsers.
enum Text {
    /// Upper-cased letters and digits with every other run of characters turned into one space.
    static func key(_ s: String) -> String {
        if s.utf8.allSatisfy({ $0 < 0x80 }) { return asciiKey(s) }
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

    /// The ranges of `s`'s words as `key(_:)` reads them: its runs of letters and digits, one for each word of its key.
    static func keyWordRanges(_ s: String) -> [Range<String.Index>] {
        var out: [Range<String.Index>] = []
        var start: String.Index?
        for i in s.indices {
            let c = s[i]
            if isLetter(c) || isNumber(c) {
                if start == nil { start = i }
            } else if let st = start {
                out.append(st..<i)
                start = nil
            }
        }
        if let st = start { out.append(st..<s.endIndex) }
        return out
    }

    /// `key(_:)` of an ASCII string, by bytes: Unicode's letter tables made `key` a tenth of a receipt's parse.
    private static func asciiKey(_ s: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(s.utf8.count)
        var space = true
        for b in s.utf8 {
            if asciiAlphanumeric(b) {
                out.append(asciiUppercased(b))
                space = false
            } else if !space {
                out.append(0x20)
                space = true
            }
        }
        if out.last == 0x20 { out.removeLast() }
        return String(decoding: out, as: UTF8.self)
    }

    /// `Character.isLetter`, with ASCII answered without Unicode's tables.
    @inline(__always) static func isLetter(_ c: Character) -> Bool {
        if let a = c.asciiValue { return asciiLetter(a) }
        return c.isLetter
    }

    /// `Character.isNumber`, with ASCII answered without Unicode's tables.
    @inline(__always) static func isNumber(_ c: Character) -> Bool {
        if let a = c.asciiValue { return asciiDigit(a) }
        return c.isNumber
    }

    /// The ASCII byte tests the fast paths share: what `isLetter`, `isNumber` and `uppercased()` say of ASCII.
    @inline(__always) static func asciiLetter(_ b: UInt8) -> Bool { (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A }
    @inline(__always) static func asciiDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
    @inline(__always) static func asciiAlphanumeric(_ b: UInt8) -> Bool { asciiLetter(b) || asciiDigit(b) }
    @inline(__always) static func asciiUppercased(_ b: UInt8) -> UInt8 { b >= 0x61 && b <= 0x7A ? b - 0x20 : b }

    /// Whether `key` (as made by `key(_:)`) holds `phrase` as whole words.
    static func has(_ key: String, _ phrase: String) -> Bool {
        // A byte search: Foundation's `range(of:)` made this the most expensive call of a parse.
        var key = key, phrase = phrase
        return key.withUTF8 { k in phrase.withUTF8 { p in hasWords(k, p) } }
    }

    /// Whether `s` holds `part` anywhere (bytes compared; Foundation's `contains` is far slower).
    static func contains(_ s: String, _ part: String) -> Bool {
        var s = s, part = part
        return s.withUTF8 { k in
            part.withUTF8 { p in
                let n = k.count, m = p.count
                guard m > 0 else { return true }
                guard m <= n else { return false }
                var i = 0
                while i + m <= n {
                    if k[i] == p[0] {
                        var j = 1
                        while j < m && k[i + j] == p[j] { j += 1 }
                        if j == m { return true }
                    }
                    i += 1
                }
                return false
            }
        }
    }

    static func hasWords(_ k: UnsafeBufferPointer<UInt8>, _ p: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = k.count, m = p.count
        guard m > 0, m <= n else { return false }
        if p[0] >= 0xE0, isUnspacedPhrase(p) {
            return squeezingUnspaced(k).withUnsafeBufferPointer { holds($0, p, at: nil) }
        }
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

    /// Whether a phrase is written in a script without spaces between words (Han, kana, Hangul, Thai) and has two
    /// letters or more: such a phrase is found ending a run of its script (`消費税等` in `内消費税等`; see `holds`).
    /// A one-letter one (`税`) still has to stand alone.
    static func isUnspacedPhrase<C: Collection>(_ p: C) -> Bool where C.Element == UInt8 {
        let scalars = String(decoding: p, as: UTF8.self).unicodeScalars
        return scalars.count >= 2 && scalars.allSatisfy(\.isOfUnspacedScript)
    }

    /// `k` without the spaces a receipt puts between the letters of a short label to justify it (`小 計`, `합 계`,
    /// `合 計金額`): a space between two letters of Han, kana or Hangul where the run on one side is a single letter.
    /// Words parted by spaces (`현금 영수증`) keep them.
    static func squeezingUnspaced(_ k: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        func eastAsian(_ lead: UInt8) -> Bool { lead >= 0xE3 && lead <= 0xED }
        /// The letters (scalars) of the run of non-space bytes from `a` to `b`.
        func letters(_ a: Int, _ b: Int) -> Int { (a..<b).reduce(0) { $0 + (k[$1] & 0xC0 == 0x80 ? 0 : 1) } }
        var out: [UInt8] = []
        out.reserveCapacity(k.count)
        for (i, c) in k.enumerated() {
            if c == 0x20, i > 0, i + 1 < k.count, eastAsian(k[i + 1]) {
                var a = i
                while a > 0, k[a - 1] != 0x20 { a -= 1 }
                var b = i + 1
                while b < k.count, k[b] != 0x20 { b += 1 }
                var lead = i - 1
                while lead > 0, k[lead] & 0xC0 == 0x80 { lead -= 1 }
                if a < i, eastAsian(k[lead]), letters(a, i) == 1 || letters(i + 1, b) == 1 { continue }
            }
            out.append(c)
        }
        return out
    }

    /// Whether `k` holds the bytes of `p` ending a run of letters (anywhere, `at` nil, or from its start, `at` 0): the
    /// words of these languages put their head last (`消費税等` in `内消費税等`, `영수증` in `현금영수증`), and a phrase
    /// at the start of a longer word is another word (`현금` is no tender in `현금영수증`, a cash-receipt number).
    static func holds(_ k: UnsafeBufferPointer<UInt8>, _ p: UnsafeBufferPointer<UInt8>, at: Int?) -> Bool {
        let n = k.count, m = p.count
        guard m <= n else { return false }
        let last = at ?? (n - m)
        var i = 0
        while i <= last {
            var j = 0
            while j < m && k[i + j] == p[j] { j += 1 }
            if j == m, endsRun(k, i + m) { return true }
            i += 1
        }
        return false
    }

    /// Whether no letter of Han, kana or Hangul starts at byte `e` of `k`: its end, a byte of another script, or an
    /// ideographic mark (U+3000-303F).
    static func endsRun(_ k: UnsafeBufferPointer<UInt8>, _ e: Int) -> Bool {
        guard e < k.count, k[e] >= 0xE3, k[e] <= 0xED else { return true }
        if k[e] == 0xE3, e + 1 < k.count, k[e + 1] == 0x80 { return true }  // U+3000-303F
        return false
    }

    /// Whether `key` holds any of `phrases` as whole words: one pass over the key's words.
    static func hasAny(_ key: String, _ phrases: PhraseSet) -> Bool { phrases.isFound(in: key) }

    static func hasAny(_ key: String, _ phrases: [String]) -> Bool {
        var key = key
        return key.withUTF8 { k in
            phrases.contains { p in
                var p = p
                return p.withUTF8 { hasWords(k, $0) }
            }
        }
    }

    static func letterCount(_ s: String) -> Int { count(s, ascii: asciiLetter, \.isLetter) }
    static func digitCount(_ s: String) -> Int { count(s, ascii: asciiDigit, \.isNumber) }

    /// Whether `a` and `b` have the same length and differ in exactly one character (`ANT` and `AMT`, `TOTAI` and
    /// `TOTAL`): a word misread in one letter.
    static func oneLetterApart<A: Collection, B: Collection>(_ a: A, _ b: B) -> Bool
    where A.Element == Character, B.Element == Character {
        a.count == b.count && zip(a, b).reduce(0) { $0 + ($1.0 == $1.1 ? 0 : 1) } == 1
    }

    /// The characters of `s` that `test` accepts; an ASCII string is counted by its bytes with `ascii`, which must
    /// agree with `test` on ASCII characters.
    @inline(__always) private static func count(_ s: String, ascii: (UInt8) -> Bool, _ test: (Character) -> Bool) -> Int
    {
        var n = 0
        for b in s.utf8 {
            guard b < 0x80 else { return s.reduce(0) { $0 + (test($1) ? 1 : 0) } }
            if ascii(b) { n += 1 }
        }
        return n
    }

    /// Trims spaces and the punctuation OCR leaves at the ends of a phrase.
    static func clean(_ s: String) -> String {
        // Most phrases start and end with a letter or digit: nothing to trim, and Foundation's trimming is not cheap.
        if let a = s.utf8.first, let b = s.utf8.last, asciiAlphanumeric(a), asciiAlphanumeric(b) { return s }
        return s.trimmingCharacters(in: cleanedAway)
    }
    private static let cleanedAway = CharacterSet.whitespaces.union(CharacterSet(charactersIn: "|:;_~=*•·«»＊※"))

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
    static func replacing(_ s: String, _ pattern: String, with template: String, caseInsensitive: Bool = false)
        -> String
    {
        let re = RegexCache.shared.regex(pattern, caseInsensitive: caseInsensitive)
        return re.stringByReplacingMatches(in: s, range: NSRange(s.startIndex..., in: s), withTemplate: template)
    }
}

/// Phrases (as `Text.key` makes them) looked for as whole words in a key, indexed by their
/// first word: a key is read once, word by word, instead of once for every phrase of a list.
/// It answers as `Text.hasAny(_:_:)` does over the same list, and keeps the list's order.
public struct PhraseSet: RandomAccessCollection, Sendable, Equatable {
    public let phrases: [String]
    /// For each first word, the rest of each phrase that starts with it (from the space after
    /// the first word; empty for a one-word phrase).
    private let rests: [String: [[UInt8]]]
    /// A 4,096-bit filter over each first word's first byte, last byte and length: most of a
    /// key's words are ruled out by it without making a string or hashing one.
    private let filter: [UInt64]
    /// The phrases of scripts without spaces, found where they end a run of letters (`Text.isUnspacedPhrase`,
    /// `Text.holds`).
    private let unspaced: [[UInt8]]

    @inline(__always) private static func slot(first: UInt8, last: UInt8, length: Int) -> Int {
        (Int(first) &* 131 &+ Int(last) &* 17 &+ length) & 4095
    }

    public init<S: Sequence>(_ phrases: S) where S.Element == String {
        self.phrases = Array(phrases)
        var rests: [String: [[UInt8]]] = [:]
        var filter = [UInt64](repeating: 0, count: 64)
        for p in self.phrases where !p.isEmpty && !p.hasPrefix(" ") {
            let bytes = Array(p.utf8)
            let cut = bytes.firstIndex(of: 0x20) ?? bytes.count
            rests[String(decoding: bytes[..<cut], as: UTF8.self), default: []].append(Array(bytes[cut...]))
            let k = Self.slot(first: bytes[0], last: bytes[cut - 1], length: cut)
            filter[k >> 6] |= 1 << UInt64(k & 63)
        }
        self.rests = rests
        self.filter = filter
        unspaced = self.phrases.map { Array($0.utf8) }.filter { ($0.first ?? 0) >= 0xE0 && Text.isUnspacedPhrase($0) }
    }

    public var startIndex: Int { phrases.startIndex }
    public var endIndex: Int { phrases.endIndex }
    public subscript(i: Int) -> String { phrases[i] }

    public static func + (a: PhraseSet, b: PhraseSet) -> PhraseSet { PhraseSet(a.phrases + b.phrases) }
    public static func == (a: PhraseSet, b: PhraseSet) -> Bool { a.phrases == b.phrases }

    /// Whether `key` begins with one of the phrases, as whole words.
    func begins(_ key: String) -> Bool { search(key, everywhere: false) }

    /// Whether `key` holds one of the phrases, as whole words.
    func isFound(in key: String) -> Bool { search(key, everywhere: true) }

    /// Where the phrases stand in `key`, as ranges of its word indices (`TVA INTRA 12` holds `TVA INTRA` at `0..<2`):
    /// at each word the longest phrase that starts there, left to right, overlaps included. Spaced scripts only.
    func wordMatches(in key: String) -> [Range<Int>] {
        let words = key.split(separator: " ")
        var out: [Range<Int>] = []
        for i in words.indices {
            guard let tails = rests[String(words[i])] else { continue }
            var longest = 0
            for t in tails {
                let more = t.isEmpty ? [] : String(decoding: t.dropFirst(), as: UTF8.self).split(separator: " ")
                guard more.count >= longest, i + more.count < words.count || more.isEmpty,
                    more.indices.allSatisfy({ i + 1 + $0 < words.count && words[i + 1 + $0] == more[$0] })
                else { continue }
                longest = Swift.max(longest, more.count + 1)
            }
            if longest > 0 { out.append(i..<(i + longest)) }
        }
        return out
    }

    /// Whether `key` ends with one of the phrases of `minWords` words or more, as whole words after
    /// at least one other word: `ACME SDN BHD` ends with `SDN BHD` (and `BHD`); `BHD` alone ends with none.
    func ends(_ key: String, minWords: Int = 1) -> Bool {
        ends(words: key.split(separator: " ")[...], minWords: minWords)
    }

    /// `ends(_:minWords:)` over a key already split into its words.
    func ends(words: ArraySlice<Substring>, minWords: Int = 1) -> Bool {
        guard words.count >= 2, minWords < words.count else { return false }
        // For each phrase length, one look-up of the phrases that start with the word that many from the end.
        for n in Swift.max(1, minWords)..<words.count {
            guard let tails = rests[String(words[words.endIndex - n])] else { continue }
            let rest = n == 1 ? [] : Array((" " + words.suffix(n - 1).joined(separator: " ")).utf8)
            if tails.contains(rest) { return true }
        }
        return false
    }

    /// Tries a phrase at the start of every word of `key`, or of its first word only.
    private func search(_ key: String, everywhere: Bool) -> Bool {
        guard !rests.isEmpty else { return false }
        var key = key
        return key.withUTF8 { k in
            let n = k.count
            var i = 0
            while i < n {
                var j = i
                while j < n && k[j] != 0x20 { j += 1 }
                if j > i, phraseStarts(in: k, word: i..<j) { return true }
                guard everywhere else { break }
                i = j + 1
            }
            guard !unspaced.isEmpty, k.contains(where: { $0 >= 0xE0 }) else { return false }
            // The spaces of a justified label are no word breaks (`小 計`; `Text.squeezingUnspaced`).
            let squeezed = Text.squeezingUnspaced(k)
            return squeezed.withUnsafeBufferPointer { q in
                unspaced.contains { u in u.withUnsafeBufferPointer { Text.holds(q, $0, at: everywhere ? nil : 0) } }
            }
        }
    }

    /// Whether a phrase starts with the word `k[word]` and goes on, as whole words, in `k`.
    @inline(__always) private func phraseStarts(in k: UnsafeBufferPointer<UInt8>, word: Range<Int>) -> Bool {
        let (i, j, n) = (word.lowerBound, word.upperBound, k.count)
        let slot = Self.slot(first: k[i], last: k[j - 1], length: j - i)
        guard filter[slot >> 6] & (1 << UInt64(slot & 63)) != 0,
            let tails = rests[String(decoding: UnsafeBufferPointer(rebasing: k[i..<j]), as: UTF8.self)]
        else { return false }
        for t in tails where j + t.count <= n && (j + t.count == n || k[j + t.count] == 0x20) {
            var m = 0
            while m < t.count && k[j + m] == t[m] { m += 1 }
            if m == t.count { return true }
        }
        return false
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
