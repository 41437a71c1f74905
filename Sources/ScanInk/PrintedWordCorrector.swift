import Foundation
import ScanRecognition

/// Printed words the recognizer was unsure of, read again with word lists, as a careful reader
/// does with a smudged letter: `HARDWAKE` is `HARDWARE`, `Subtotai` is `Subtotal`, `Bi11` is
/// `Bill`, when the recognizer's own probabilities make the listed word nearly as likely.
///
/// A word is read again only when it is doubtful: one of its characters was read with less than
/// `doubt` probability, it has four characters or more, three of them letters, and nothing but
/// letters and digits between its punctuation (short words are often names and abbreviations:
/// `TEO` is no misread `TED`), and it is no listed word itself. Its candidates are the recognizer's own
/// other readings of the word's time steps (a CTC beam) whose letters make a listed word, and,
/// for a word without punctuation, the listed words the steps make most probable (`WordList.search`)
/// in the word's case; a candidate keeps the word's length (a misread glyph is read as another: a
/// letter dropped or added is how a name no list holds turns into a listed one, `LIAN` -> `LAN`)
/// and is cased as words are. A reading that only gives the word back letters outside ASCII (`SØNDER` for `SONDER`)
/// is a candidate too when `restoring` lists it (`LetterRestoringWords`). Each is scored by its exact CTC
/// log-probability over the steps plus `bonusPerLetter` for each of its letters; the best replaces the word when it
/// beats the word as read. Names, codes and numbers that are no listed word keep their reading unless a listed
/// word is within that bonus of it. Pure: no engine.
public struct PrintedWordCorrector: WordCorrector {
    let pending: PendingWordList
    public var bonusPerLetter: Double
    public var doubt: Double
    /// Words that a reading may give a marked letter back to (`LetterRestoringWords`), or nil.
    public var restoring: LetterRestoringWords?
    /// The language a page's lines are in, as the letters beyond ASCII it writes and the words of its own lists that
    /// give them back (`MarkedLetterRestorer.restored(_:letters:)`); nil for a page in no such language.
    public var pageLanguage: (@Sendable ([String]) -> (letters: Set<Character>, words: LetterRestoringWords)?)?
    /// The words; the first use waits for a list still being read.
    public var lexicon: WordList { pending.list }

    public init(
        lexicon: WordList, bonusPerLetter: Double, doubt: Double, restoring: LetterRestoringWords? = nil
    ) {
        self.init(pending: PendingWordList(lexicon), bonusPerLetter: bonusPerLetter, doubt: doubt, restoring: restoring)
    }

    public init(
        pending: PendingWordList, bonusPerLetter: Double, doubt: Double, restoring: LetterRestoringWords? = nil
    ) {
        self.pending = pending
        self.bonusPerLetter = bonusPerLetter
        self.doubt = doubt
        self.restoring = restoring
    }

    /// The page's words given back their marked letters (`MarkedLetterRestorer`), words the main lists hold left as
    /// read: from the `restoring` lists where the page prints such letters, then from the lists of the language its
    /// words are in (`pageLanguage`).
    public func restoredPage(_ lines: [String]) -> [String]? {
        let lexicon = pending
        let isListed: @Sendable (String) -> Bool = { lexicon.list.contains($0) }
        var out = restoring.flatMap { MarkedLetterRestorer(restoring: $0, isListed: isListed).restored(lines) }
        if let language = pageLanguage?(out ?? lines) {
            out =
                MarkedLetterRestorer(restoring: language.words, isListed: isListed)
                .restored(out ?? lines, letters: language.letters) ?? out
        }
        return out
    }

    public func doubts(_ text: String, weakest: Double) -> Bool {
        guard weakest < doubt else { return false }
        let core = Self.parts(text).core
        return core.count >= 4 && Self.letters(core) >= 3 && core.allSatisfy { $0.isLetter || $0.isNumber }
            && !lexicon.contains(String(core))
    }

    public func corrected(_ text: String, probabilities: LineProbabilities, span: Range<Int>) -> String? {
        let slice = HandwritingLineDecoder.slice(probabilities, steps: span)
        let classIndex = WordList.ClassMap.for(slice.alphabet).index
        func logProbability(_ t: String) -> Double? {
            let classes = t.compactMap { classIndex[String($0)] }
            guard classes.count == t.count else { return nil }
            let lp = ctcLogProbability(slice, classes: classes)
            return lp > -.infinity ? lp : nil
        }
        guard let asRead = logProbability(text) else { return nil }
        let (lead, core, trail) = Self.parts(text)
        var candidates = Set<String>()
        for (reading, _) in slice.beam(count: 12) {
            let t = reading.trimmingCharacters(in: .whitespaces)
            let c = Self.parts(t).core
            guard t != text, Self.letters(c) >= 3 else { continue }
            if lexicon.contains(String(c)) {
                candidates.insert(t)
            } else if let restoring, LetterRestoringWords.restoresLetters(t, of: text),
                restoring.contains(WordList.fold(String(c)))
            {
                candidates.insert(t)
            }
        }
        if lead.isEmpty, trail.isEmpty {
            for match in lexicon.search(slice, count: 5) {
                for form in lexicon.listedForms(of: match.folded) + [Self.inCase(of: core, match.folded)]
                where form != text {
                    candidates.insert(form)
                }
            }
        }
        var best: (text: String, score: Double)?
        for c in candidates where c.count == text.count && Self.isWellCased(Self.parts(c).core) {
            guard let lp = logProbability(c) else { continue }
            let score = lp + bonusPerLetter * Double(Self.letters(c))
            if score > best?.score ?? -.infinity || (score == best?.score && c < best!.text) { best = (c, score) }
        }
        guard let best, best.score > asRead else { return nil }
        return best.text
    }

    /// The punctuation before a word, its letters and digits, and the punctuation after them.
    static func parts(_ text: String) -> (lead: Substring, core: Substring, trail: Substring) {
        let isCore: (Character) -> Bool = { $0.isLetter || $0.isNumber }
        guard let first = text.firstIndex(where: isCore), let last = text.lastIndex(where: isCore) else {
            return (text[...], "", "")
        }
        return (text[..<first], text[first...last], text[text.index(after: last)...])
    }

    static func letters<S: StringProtocol>(_ s: S) -> Int { s.reduce(0) { $0 + ($1.isLetter ? 1 : 0) } }

    /// Whether a word's letters are all capitals, all lower case, or a capital then lower case: a
    /// reading such as `KAlLAN` is a misread itself, whatever word it spells.
    static func isWellCased(_ word: Substring) -> Bool {
        let letters = word.filter(\.isLetter)
        guard let first = letters.first else { return true }
        let rest = letters.dropFirst()
        return letters.allSatisfy { !$0.isLowercase } || letters.allSatisfy { !$0.isUppercase }
            || (first.isUppercase && rest.allSatisfy { !$0.isUppercase })
    }

    /// `word` written in the case of `model`: all capitals, a capital first, or lower case.
    static func inCase(of model: Substring, _ word: String) -> String {
        let letters = model.filter(\.isLetter)
        if !letters.isEmpty, letters.allSatisfy(\.isUppercase) { return word.uppercased() }
        if let first = letters.first, first.isUppercase { return word.prefix(1).uppercased() + word.dropFirst() }
        return word
    }
}

/// A word list read on a thread of its own from the moment it is made, so that a process reads its
/// first page while the list loads (a few hundred thousand words take most of a second); the first
/// use waits for it.
public final class PendingWordList: @unchecked Sendable {
    private let condition = NSCondition()
    private var loaded: WordList?

    public init(_ list: WordList) { loaded = list }

    public init(loading load: @escaping @Sendable () -> WordList) {
        Thread {
            let list = load()
            self.condition.lock()
            self.loaded = list
            self.condition.broadcast()
            self.condition.unlock()
        }.start()
    }

    public var list: WordList {
        condition.lock()
        defer { condition.unlock() }
        while loaded == nil { condition.wait() }
        return loaded!
    }
}
