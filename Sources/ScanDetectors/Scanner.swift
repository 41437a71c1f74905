import ScanModel

/// The text a detection pass works on: its UTF-8 bytes, and a "numeric view" of the same
/// length in which OCR confusions that sit in a numeric context are read as the digits
/// they stand for (`O`→0, `l`/`I`→1, `S`→5, `B`→8). Every detector reports byte offsets
/// into `bytes`; the text itself is never changed.
struct ScanText {
    let bytes: [UInt8]
    /// `bytes` with confusable letters in numeric context replaced by digits.
    let num: [UInt8]
    /// Whether every byte is ASCII: such a text holds no scalar that readers of other scripts look for.
    let isASCII: Bool
    var count: Int { bytes.count }

    init(_ string: String) {
        var b = [UInt8]()
        b.reserveCapacity(string.utf8.count)
        b.append(contentsOf: string.utf8)
        self.init(bytes: b)
    }

    init(bytes b: [UInt8]) {
        bytes = b
        num = ScanText.numericView(b)
        isASCII = b.allSatisfy { $0 < 0x80 }
        mayHoldEastAsianDate = !isASCII && EastAsianDate.mayHold(b)
        // Lead bytes E3-ED start kana, Han and Hangul (and a few other scripts of the same planes).
        holdsEastAsianScript = !isASCII && b.contains { $0 >= 0xE3 && $0 <= 0xED }
        eastAsianScalars = mayHoldEastAsianDate ? EastAsianDate.scalars(num: num, bytes: b) : []
    }

    /// The text with the marks that cards and letterheads print between an address's parts (`24 quai
    /// Saint-Antoine · 69002 Lyon`, `Lisboa• Portugal`, `Via Roma 1 | Milano`) written as commas, byte for byte
    /// as long, so that offsets into it are offsets into the text; the text itself when it holds none.
    var withAddressPartsAsCommas: ScanText {
        ScanText.addressPartsAsCommas(bytes).map { ScanText(bytes: $0) } ?? self
    }

    /// `withAddressPartsAsCommas` on UTF-8 bytes: the changed copy, or nil when they hold no such mark.
    static func addressPartsAsCommas(_ b: [UInt8]) -> [UInt8]? {
        var out: [UInt8]?
        // The comma takes the place of the space before the mark, where there is one, as a comma is printed
        // (`12 | 1620` reads `12,  1620`); the mark's bytes become spaces.
        func put(_ i: Int, _ n: Int) {
            if out == nil { out = b }
            let spaced = i > 0 && b[i - 1] == 0x20
            for k in 0..<n { out![i + k] = 0x20 }
            out![spaced ? i - 1 : i] = 0x2C
        }
        // A dot or bullet between two letters belongs to a word (Catalan `l·l`); beside a space, a digit or a mark it
        // sets parts apart (`Ballindamm 17·20095 Hamburg`).
        func spacedOnASide(_ i: Int, _ n: Int) -> Bool {
            func letter(_ c: UInt8) -> Bool { (0x41...0x5A).contains(c) || (0x61...0x7A).contains(c) || c >= 0x80 }
            return i == 0 || i + n >= b.count || !(letter(b[i - 1]) && letter(b[i + n]))
        }
        var i = 0
        while i < b.count {
            if b[i] == 0xC2, i + 1 < b.count, b[i + 1] == 0xB7 {  // ·
                if spacedOnASide(i, 2) { put(i, 2) }
                i += 2
                continue
            }
            if b[i] == 0xE2, i + 2 < b.count,
                (b[i + 1] == 0x80 && b[i + 2] == 0xA2) || (b[i + 1] == 0x88 && b[i + 2] == 0x99)  // • ∙
                    || (b[i + 1] == 0x97 && b[i + 2] == 0xA6)  // ◦
            {
                if spacedOnASide(i, 3) { put(i, 3) }
                i += 3
                continue
            }
            // A bar only between spaces: glued to letters it is more often an `l` or an `I` misread.
            if b[i] == 0x7C, i > 0, b[i - 1] == 0x20, i + 1 < b.count, b[i + 1] == 0x20 { put(i, 1) }
            i += 1
        }
        return out
    }

    /// Whether the text may hold a Chinese, Japanese or Korean date or time (`EastAsianDate.mayHold`), found once.
    let mayHoldEastAsianDate: Bool
    /// Whether the text holds letters of the scripts written without spaces or of Hangul (any scalar U+3000-U+DFFF).
    let holdsEastAsianScript: Bool
    /// The scalars the Chinese, Japanese and Korean dates and times are read from; empty unless
    /// `mayHoldEastAsianDate`.
    let eastAsianScalars: [EastAsianDate.Scalar]

    /// Whether the line around byte `i` (between line feeds) holds letters of the East Asian scripts
    /// (`holdsEastAsianScript`'s lead bytes).
    func lineHoldsEastAsianScript(around i: Int) -> Bool {
        guard holdsEastAsianScript else { return false }
        var a = min(i, bytes.count), e = a
        while a > 0, bytes[a - 1] != 0x0A { a -= 1 }
        while e < bytes.count, bytes[e] != 0x0A { e += 1 }
        return bytes[a..<e].contains { $0 >= 0xE3 && $0 <= 0xED }
    }

    @inline(__always) func at(_ i: Int) -> UInt8 { i >= 0 && i < bytes.count ? bytes[i] : 0 }
    @inline(__always) func numAt(_ i: Int) -> UInt8 { i >= 0 && i < num.count ? num[i] : 0 }

    func string(_ start: Int, _ end: Int) -> String {
        String(decoding: bytes[start..<end], as: UTF8.self)
    }

    /// Lower-cased ASCII of a byte range (non-ASCII bytes kept).
    func lower(_ start: Int, _ end: Int) -> String {
        String(decoding: bytes[start..<end].map { isUpper($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    /// The confusion map, applied only to a letter whose neighbours are not other plain
    /// letters and which touches a real digit (possibly through other confusables).
    static func numericView(_ b: [UInt8]) -> [UInt8] {
        var out = b
        let n = b.count
        var i = 0
        while i < n {
            guard confusableDigit(b[i]) != nil else { i += 1; continue }
            // A run of confusables.
            var j = i
            while j < n, confusableDigit(b[j]) != nil { j += 1 }
            let before: UInt8 = i > 0 ? b[i - 1] : 0x20
            let after: UInt8 = j < n ? b[j] : 0x20
            let runLen = j - i
            // Never inside a word: the run may not touch other letters. A sign of the Han, kana or Hangul scripts after
            // it (lead bytes E3-ED) is no such letter: those scripts glue no Latin letters into words (`1B日` is `18日`).
            let unspacedAfter = after >= 0xE3 && after <= 0xED
            let touchesLetter = isWordLetter(before) || isWordLetter(after) && !unspacedAfter
            // Must touch a digit (directly, or across a decimal/group separator followed by a digit).
            let touchesDigit = isDigit(before) || isDigit(after)
                || ((before == 0x2E || before == 0x2C) && i >= 2 && isDigit(b[i - 2]))
            if !touchesLetter && touchesDigit && runLen <= 3 {
                for k in i..<j { out[k] = confusableDigit(b[k])! }
            }
            i = j
        }
        if b.contains(0x2B) { onesInInternationalNumbers(b, &out) }
        return out
    }

    /// Ones read as `I` or `l`, words of their own, in an international number between its `+` and a digit group,
    /// as OCR reads old-style figures and thin fonts: `+94 II 243 7815`, `+55 I I 3045-2817`, `+I 502 282 2432`.
    /// Up to four words after the `+`, each digits or one to three such letters, one space apart.
    static func onesInInternationalNumbers(_ b: [UInt8], _ out: inout [UInt8]) {
        // (The `+` opens a piece of text, and the country's code after it is plain digits: not `Diesel +45.2 l 1.899`.)
        for plus in b.indices where b[plus] == 0x2B && (plus == 0 || [0x20, 0x28, 0x3A, 0x0A].contains(b[plus - 1])) {
            var k = plus + 1
            var ones: [Range<Int>] = []
            for _ in 0..<4 {
                var e = k
                while e < b.count, b[e] != 0x20 { e += 1 }
                guard e > k else { break }
                if isDigit(b[k]) {
                    // (The country's code, before them; a group after them ends the search.)
                    if ones.isEmpty {
                        guard e - k <= 4, (k..<e).allSatisfy({ isDigit(b[$0]) }) else { break }
                        k = e + 1
                        continue
                    }
                    for r in ones { for n in r { out[n] = 0x31 } }
                    break
                }
                guard e - k <= 3, (k..<e).allSatisfy({ b[$0] == 0x49 || b[$0] == 0x6C }) else { break }
                ones.append(k..<e)
                k = e + 1
            }
        }
    }

    @inline(__always) static func confusableDigit(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x4F, 0x6F: return 0x30 // O o
        case 0x6C, 0x49: return 0x31 // l I
        case 0x53: return 0x35 // S
        case 0x42: return 0x38 // B
        default: return nil
        }
    }

    /// The Unicode scalar whose UTF-8 encoding starts at byte `i`, and its length in bytes.
    func scalar(at i: Int) -> (Unicode.Scalar, Int)? {
        let c = at(i)
        let len: Int
        switch c {
        case 0..<0x80: return i < count ? (Unicode.Scalar(c), 1) : nil
        case 0xC0..<0xE0: len = 2
        case 0xE0..<0xF0: len = 3
        case 0xF0..<0xF8: len = 4
        default: return nil
        }
        guard i + len <= count else { return nil }
        var v = UInt32(c) & (0xFF >> (len + 1))
        for k in 1..<len {
            let d = bytes[i + k]
            guard d & 0xC0 == 0x80 else { return nil }
            v = v << 6 | UInt32(d & 0x3F)
        }
        return Unicode.Scalar(v).map { ($0, len) }
    }

    /// The Unicode scalar that ends just before byte `i`.
    func scalar(before i: Int) -> Unicode.Scalar? {
        var k = i - 1
        while k > 0, bytes[k] & 0xC0 == 0x80, i - k < 4 { k -= 1 }
        guard k >= 0, let (sc, len) = scalar(at: k), k + len == i else { return nil }
        return sc
    }

    /// Case-insensitive ASCII comparison of `word` (lower-case) at `i`.
    func matches(_ word: StaticString, at i: Int) -> Bool {
        let n = word.utf8CodeUnitCount
        guard i >= 0, i + n <= bytes.count else { return false }
        let p = word.utf8Start
        for k in 0..<n where lowerByte(bytes[i + k]) != p[k] { return false }
        return true
    }

    /// The end of the run of ASCII letters (and non-ASCII bytes) starting at `i`.
    func wordEnd(from i: Int) -> Int {
        var j = i
        while j < bytes.count, isWordLetter(bytes[j]) { j += 1 }
        return j
    }

    /// The start of the word ending at `i` (exclusive).
    func wordStart(before i: Int) -> Int {
        var j = i
        while j > 0, isWordLetter(bytes[j - 1]) { j -= 1 }
        return j
    }

    /// Start of the line holding `i`.
    func lineStart(_ i: Int) -> Int {
        var j = min(i, bytes.count)
        while j > 0, bytes[j - 1] != 0x0A { j -= 1 }
        return j
    }

    /// The lower-cased letters-only words in `[from, to)`, most recent last.
    func words(from: Int, to: Int) -> [String] {
        var out: [String] = []
        var i = max(0, from)
        while i < to {
            if isWordLetter(bytes[i]) {
                let e = min(wordEnd(from: i), to)
                // A word with marked letters is lower-cased whole (`VÄGEN`, `STRÆDE`), the rest byte by byte.
                out.append(bytes[i..<e].contains { $0 >= 0x80 } ? string(i, e).lowercased() : lower(i, e))
                i = e
            } else { i += 1 }
        }
        return out
    }
}

@inline(__always) func isDigit(_ c: UInt8) -> Bool { c &- 0x30 < 10 }
@inline(__always) func isUpper(_ c: UInt8) -> Bool { c &- 0x41 < 26 }
@inline(__always) func isLower(_ c: UInt8) -> Bool { c &- 0x61 < 26 }
@inline(__always) func isAlpha(_ c: UInt8) -> Bool { isUpper(c) || isLower(c) }
@inline(__always) func isAlnum(_ c: UInt8) -> Bool { isDigit(c) || isAlpha(c) }
/// ASCII letters and any byte of a non-ASCII scalar (treated as a letter of a word).
@inline(__always) func isWordLetter(_ c: UInt8) -> Bool { isAlpha(c) || c >= 0x80 }
@inline(__always) func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }
@inline(__always) func lowerByte(_ c: UInt8) -> UInt8 { isUpper(c) ? c | 0x20 : c }
/// Scripts written without spaces between words (Thai, Lao, kana, Han, Hangul): a word of
/// such a script ends where Latin letters begin, and the other way round.
@inline(__always) func isUnspacedScript(_ v: UInt32) -> Bool {
    (0x0E00...0x0EFF).contains(v) || (0x3040...0x30FF).contains(v) || (0x3400...0x9FFF).contains(v)
        || (0xAC00...0xD7AF).contains(v) || (0xF900...0xFAFF).contains(v) || (0x20000...0x3FFFF).contains(v)
}

extension Unicode.Scalar {
    /// Whether the scalar is a letter of a script written without spaces between words, or of Hangul (see
    /// `isUnspacedScript`): the parsers find label words inside runs of such letters.
    public var isOfUnspacedScript: Bool { isUnspacedScript(value) }
}

/// A candidate found by one detector, in byte offsets.
struct Hit {
    var type: EntityType
    var start: Int
    var end: Int
    var value: EntityValue
    var ambiguous: Bool? = nil
    var alternatives: [String]? = nil
    /// Higher wins when two candidates overlap.
    var priority: Int = 0
}

/// Reads an unsigned decimal number of `digits` bytes from the numeric view.
@inline(__always) func readInt(_ s: ScanText, _ i: Int, _ j: Int) -> Int {
    var v = 0
    for k in i..<j { v = v * 10 + Int(s.num[k] &- 0x30) }
    return v
}

/// A small case-insensitive word table looked up straight from the text bytes, without
/// building a String for every word (the detectors try many words that are not keywords).
struct WordTable: Sendable {
    private static let bucketCount = 1024
    /// Open hashing on the low bits of an FNV-1a hash, flattened so a lookup touches no
    /// nested array: bucket `k` holds entries `bucketStart[k]..<bucketStart[k + 1]`, and an
    /// entry's word is `letters[offset..<offset + length]`.
    private var bucketStart: [Int32]
    private var entries: [(hash: UInt64, offset: Int32, length: Int32, value: Int)]
    private var letters: [UInt8]
    /// Length of the longest word, to reject long words at once.
    private var maxLength = 0

    init(_ words: [String: Int]) {
        var buckets: [[(UInt64, [UInt8], Int)]] = Array(repeating: [], count: WordTable.bucketCount)
        for (w, v) in words.sorted(by: { $0.key < $1.key }) {
            let bytes = Array(w.lowercased().utf8)
            let h = WordTable.hash(bytes[...])
            buckets[Int(h & UInt64(WordTable.bucketCount - 1))].append((h, bytes, v))
            maxLength = max(maxLength, bytes.count)
        }
        bucketStart = [0]
        entries = []
        letters = []
        for bucket in buckets {
            for (h, bytes, v) in bucket {
                entries.append((h, Int32(letters.count), Int32(bytes.count), v))
                letters += bytes
            }
            bucketStart.append(Int32(entries.count))
        }
    }

    init(_ words: Set<String>) {
        self.init(Dictionary(uniqueKeysWithValues: words.map { ($0, 1) }))
    }

    @inline(__always) static func hash<C: Collection>(_ bytes: C) -> UInt64 where C.Element == UInt8 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for c in bytes { h = (h ^ UInt64(lowerByte(c))) &* 0x100_0000_01b3 }
        return h
    }

    /// The value of the word `s.bytes[start..<end]` (ASCII letters compared case-insensitively;
    /// non-ASCII letters must match the table's lower-case spelling or its upper-case
    /// first letter as printed).
    func lookup(_ s: ScanText, _ start: Int, _ end: Int) -> Int? {
        guard end > start, end - start <= maxLength + 8 else { return nil }
        let slice = s.bytes[start..<end]
        if let v = find(slice) { return v }
        // Non-ASCII upper case (MÄRZ, ÉTÉ): fall back to Unicode lower-casing.
        if slice.contains(where: { $0 >= 0x80 }) {
            let lowered = Array(String(decoding: slice, as: UTF8.self).lowercased().utf8)
            return find(lowered[...])
        }
        return nil
    }

    @inline(__always) private func find(_ slice: ArraySlice<UInt8>) -> Int? {
        let h = WordTable.hash(slice)
        let k = Int(h & UInt64(WordTable.bucketCount - 1))
        var idx = Int(bucketStart[k])
        let last = Int(bucketStart[k + 1])
        while idx < last {
            let e = entries[idx]
            idx += 1
            guard e.hash == h, Int(e.length) == slice.count else { continue }
            var same = true
            var j = slice.startIndex
            for o in Int(e.offset)..<Int(e.offset + e.length) {
                if letters[o] != lowerByte(slice[j]) { same = false; break }
                j += 1
            }
            if same { return e.value }
        }
        return nil
    }

    func contains(_ s: ScanText, _ start: Int, _ end: Int) -> Bool { lookup(s, start, end) != nil }
}
