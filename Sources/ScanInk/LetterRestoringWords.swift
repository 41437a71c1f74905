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

    /// `files`: word lists, one word a line, in UTF-8 or Latin-1 (Debian's `danish` is the one, `bokmaal` and
    /// `swedish` the other), or Hunspell dictionaries.
    public init(files: [String]) { self.files = files }

    /// Made from the words themselves (tests).
    public init(words: [String]) {
        files = []
        self.words = Set(words.filter(Self.holdsMarkedLetter).map(WordList.fold))
    }

    /// Whether the case-folded `word` is listed.
    public func contains(_ folded: String) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if words == nil {
            let all = files.flatMap { (try? WordList.words(inFile: $0, markedOnly: true)) ?? [] }
            words = Set(all.filter(Self.holdsMarkedLetter).map(WordList.fold))
        }
        return words!.contains(folded)
    }

    /// Whether `word` holds a letter outside ASCII.
    static func holdsMarkedLetter(_ word: String) -> Bool {
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
