import Foundation

/// The words of languages whose own letters a recognizer trained mostly on other scripts reads as their plain
/// look-alikes: PP-OCR reads a capital Danish or Norwegian `Ø` as `O` or `0` and `Æ` as `A` or `E` (`SØNDER` as
/// `SONDER`, `SMØR` as `SMOR`). Only the listed words that hold a letter outside ASCII are kept, case-folded, since
/// such a list only ever gives back a letter: a word of it spelled in plain letters (`MALURT`) would turn a foreign
/// name (`MALURI`) into it.
///
/// The files are read on first use, once, so that a process whose pages never ask (a receipt in English or Malay)
/// never reads them.
public final class LetterRestoringWords: @unchecked Sendable {
    private let files: [String]
    private let lock = NSLock()
    private var words: Set<String>?
    /// The lists' plain words that a listed word with marks taken off spells (`sonder` beside `sønder`): a reading
    /// that is one of them may be printed so.
    private var plainTwins: Set<String> = []

    /// `files`: word lists, one word a line, in UTF-8 or Latin-1 (Debian's `danish` is the one, `bokmaal` and
    /// `swedish` the other), or Hunspell dictionaries.
    public init(files: [String]) { self.files = files }

    /// Made from the words themselves (tests).
    public init(words: [String]) {
        files = []
        let plain = words.filter { !Self.holdsMarkedLetter($0) }.map(WordList.fold)
        load(marked: words) { spellings in plain.filter(spellings.words.contains) }
    }

    /// Whether the case-folded `word` is listed.
    public func contains(_ folded: String) -> Bool {
        loaded { $0.contains(folded) }
    }

    /// Whether the case-folded plain `word` is a listed word too, though a listed word with marks spells the same
    /// without them (`sonder`, `sønder`).
    public func isPlainTwin(_ folded: String) -> Bool {
        loaded { _ in plainTwins.contains(folded) }
    }

    private func loaded<T>(_ body: (Set<String>) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        if words == nil {
            let files = files
            load(marked: files.flatMap { (try? WordList.words(inFile: $0, markedOnly: true)) ?? [] }) { spellings in
                files.flatMap { Self.plainWords(inFile: $0, among: spellings) }
            }
        }
        return body(words!)
    }

    /// The marked words of `marked`, and the plain words `plainAmong` finds among their plain spellings
    /// (`plainSpellings`, given with their hashes).
    private func load(
        marked: [String], plainAmong: (_ spellings: (words: Set<String>, hashes: Set<UInt64>)) -> [String]
    ) {
        let folded = Set(marked.filter(Self.holdsMarkedLetter).map(WordList.fold))
        let spellings = Set(folded.flatMap(Self.plainSpellings))
        words = folded
        plainTwins = Set(plainAmong((spellings, Set(spellings.map { Self.hash($0.utf8) }))))
    }

    /// FNV-1a, ASCII letters hashed in lower case: `hash` of a word, one byte at a time with `hashing`.
    static let hashStart: UInt64 = 0xcbf2_9ce4_8422_2325
    static func hashing(_ h: UInt64, _ b: UInt8) -> UInt64 {
        (h ^ UInt64((0x41...0x5A).contains(b) ? b | 0x20 : b)) &* 0x100_0000_01b3
    }
    static func hash<S: Sequence>(_ bytes: S) -> UInt64 where S.Element == UInt8 { bytes.reduce(hashStart, hashing) }

    /// The plain (ASCII) words of a list file that are among `stripped`, folded; a line is made a string only when
    /// its hash is one of theirs (a list holds about a million plain words).
    static func plainWords(inFile path: String, among stripped: (words: Set<String>, hashes: Set<UInt64>)) -> [String] {
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path)) else { return [] }
        var out: [String] = []
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            let bytes = raw.bindMemory(to: UInt8.self)
            // One pass over the bytes: each line's hash as it goes, its end at a newline, a slash (a Hunspell
            // dictionary's flags) or white space.
            var start = 0, h = hashStart, plain = true, ended = false
            for i in 0...bytes.count {
                let b: UInt8 = i < bytes.count ? bytes[i] : 0x0A
                if b == 0x0A {
                    if plain, i > start, stripped.hashes.contains(h) {
                        var end = i
                        while end > start, [0x20, 0x09, 0x0D].contains(bytes[end - 1]) { end -= 1 }
                        if let slash = bytes[start..<end].firstIndex(of: UInt8(ascii: "/")) { end = slash }
                        let folded = String(decoding: bytes[start..<end], as: UTF8.self).lowercased()
                        if stripped.words.contains(folded) { out.append(folded) }
                    }
                    start = i + 1
                    h = hashStart
                    plain = true
                    ended = false
                    continue
                }
                if b >= 0x80 { plain = false }
                if b == 0x2F || b == 0x20 || b == 0x09 || b == 0x0D { ended = true }
                if !ended { h = hashing(h, b) }
            }
        }
        return out
    }

    /// The spellings of a folded word with its marked letters read as their plain look-alikes (`æ` as `a` or `e`).
    public static func plainSpellings(_ word: String) -> [String] {
        var out: [[Character]] = [Array(word)]
        for (i, c) in out[0].enumerated() {
            guard !c.isASCII, let plain = MarkedLetterRestorer.plainLookAlikes[c] else { continue }
            out = out.flatMap { s in plain.map { p in var t = s; t[i] = p; return t } }
            if out.count > 16 { return [] }
        }
        return out.map { String($0) }
    }

    /// Whether `word` holds a letter outside ASCII.
    public static func holdsMarkedLetter(_ word: String) -> Bool {
        word.utf8.contains { $0 >= 0x80 }
            && word.unicodeScalars.contains { $0.value >= 0x80 && $0.properties.isAlphabetic }
    }

    /// Whether `reading` is `text` with one letter or more given back its mark: of the same length, and wherever they
    /// differ `reading` has a letter outside ASCII where `text` has an ASCII letter or digit (`SØNDER` for `SONDER` or
    /// `S0NDER`).
    static func restoresLetters(_ reading: String, of text: String) -> Bool {
        let r = Array(reading), t = Array(text)
        guard r.count == t.count, r != t else { return false }
        return zip(r, t).allSatisfy { a, b in
            a == b || (a.isLetter && !a.isASCII && b.isASCII && (b.isLetter || b.isNumber))
        }
    }
}

/// Letters given back to a page in a language that has them, by its word lists alone: a page that prints a Danish or
/// Norwegian `ø`, `æ` or `å` twice or more (a Swedish `ä`, `ö` or `å`, with no German `ü` or `ß`) had its capital
/// `Ø` read as `O` too where the recognizer was sure of it, which `PrintedWordCorrector`'s doubt never reaches (`SMOR`
/// for `SMØR`, `FLASKESTEG` for `FLÆSKESTEG`). A word of three letters or more that no main list holds (`isListed`:
/// `BRED` stays) and that is no plain word of the restoring lists (`sonder`) takes the one spelling with marked
/// letters those lists hold, its plain letters (`O`, `0`, `A`, `E`) turned into the page's marked ones; none or
/// several, and it stays as read. Pure: no engine.
public struct MarkedLetterRestorer: Sendable {
    public let restoring: LetterRestoringWords
    public let isListed: @Sendable (String) -> Bool

    public init(restoring: LetterRestoringWords, isListed: @escaping @Sendable (String) -> Bool) {
        self.restoring = restoring
        self.isListed = isListed
    }

    /// Lower-case marked letters that PP-OCR reads as plain ones, and the plain ones it reads for them: the Nordic
    /// letters, and Polish letters with a tail, a stroke or an acute over a consonant (on generated slips read by it,
    /// `ą`, `ę`, `ł`, `ń`, `ż` lost their mark in a fifth to a half of their words). Not the accents of French,
    /// Spanish, Italian or Portuguese, which it reads (`é` in 233 words of 234, `á` 48 of 48, `ã` 121 of 121): a word
    /// printed without one there was most likely printed so, by a till without the letter.
    static let plainLookAlikes: [Character: [Character]] = [
        "ø": ["o"], "æ": ["a", "e"], "å": ["a"], "ö": ["o"], "ä": ["a"],
        "ą": ["a"], "ć": ["c"], "ę": ["e"], "ł": ["l"], "ń": ["n"], "ś": ["s"], "ź": ["z"], "ż": ["z"]
    ]
    static let danishNorwegian: Set<Character> = ["æ", "ø", "å"]
    static let swedish: Set<Character> = ["ä", "ö", "å"]
    static let german: Set<Character> = ["ü", "ß"]

    /// `lines` with their words' letters given back, or nil when the page shows no such language or nothing changed.
    public func restored(_ lines: [String]) -> [String]? {
        var nordic = 0, swedish = 0, german = 0
        for line in lines where line.utf8.contains(where: { $0 >= 0x80 }) {
            for c in line.lowercased() {
                if Self.danishNorwegian.contains(c) { nordic += 1 }
                if Self.swedish.contains(c) { swedish += 1 }
                if Self.german.contains(c) { german += 1 }
            }
        }
        // The page's marked letters, each once (`å` is both languages'), under the plain letters read for them.
        return restored(
            lines,
            letters: (nordic >= 2 ? Self.danishNorwegian : []).union(swedish >= 2 && german == 0 ? Self.swedish : []))
    }

    /// `lines` with their words given back `letters`, the letters of the language the page is in (`KONTANT`, `I ALT`,
    /// `BROD`, `SMOR`: Danish, though no `ø` was read), or nil when none of them has a plain look-alike or nothing
    /// changed.
    public func restored(_ lines: [String], letters: Set<Character>) -> [String]? {
        var marks: [Character: [Character]] = [:]
        for c in letters.sorted() {
            for p in Self.plainLookAlikes[c] ?? [] { marks[p, default: []].append(c) }
        }
        guard !marks.isEmpty else { return nil }
        var changed = false
        let out = lines.map { line -> String in
            let words = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
            let mended = words.indices.map { i in
                // A piece of a word OCR cut in two (`Designat ion`) is no word to give letters to.
                i + 1 < words.count && isListed(words[i] + words[i + 1]) || i > 0 && isListed(words[i - 1] + words[i])
                    ? words[i] : restoredWord(words[i], marks: marks) ?? words[i]
            }
            let joined = mended.joined(separator: " ")
            if joined != line { changed = true }
            return joined
        }
        return changed ? out : nil
    }

    /// How many letters of one word are given back their marks at most: in Polish nearly every letter but the
    /// consonants without a marked form is a candidate place, and a word rarely carries more than three marks.
    static let mostRestored = 3

    /// `word` with marked letters given back, or nil.
    func restoredWord(_ word: String, marks: [Character: [Character]]) -> String? {
        let (lead, core, trail) = PrintedWordCorrector.parts(word)
        guard PrintedWordCorrector.letters(core) >= 3, core.allSatisfy({ $0.isLetter || $0 == "0" }),
            core.allSatisfy({ $0.isASCII }), PrintedWordCorrector.isWellCased(core)
        else { return nil }
        // A zero among letters is the letter O.
        let plain = String(core.map { $0 == "0" ? (core.contains(where: \.isLowercase) ? "o" : "O") : $0 })
        let folded = WordList.fold(plain)
        guard !isListed(plain), !isListed(String(core)), !restoring.isPlainTwin(folded) else { return nil }
        let places = folded.enumerated().filter { marks[$0.element] != nil }.map(\.offset)
        guard !places.isEmpty, places.count <= 16 else { return nil }
        var chars = Array(folded)
        var found: [String] = []
        func walk(_ k: Int, _ marked: Int) {
            guard found.count < 2 else { return }
            if k == places.count || marked == Self.mostRestored {
                if marked > 0, restoring.contains(String(chars)) { found.append(String(chars)) }
                return
            }
            let i = places[k], original = chars[i]
            walk(k + 1, marked)
            for m in marks[original]! {
                chars[i] = m
                walk(k + 1, marked + 1)
            }
            chars[i] = original
        }
        walk(0, 0)
        guard found.count == 1 else { return nil }
        // In the word's case, letter by letter.
        let cased = zip(Array(found[0]), Array(plain)).map { new, old in
            old.isUppercase ? Character(new.uppercased()) : new
        }
        return String(lead) + String(cased) + String(trail)
    }
}
