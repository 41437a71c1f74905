import Foundation
import ScanExtraction
import ScanInk
import ScanModel

/// The word lists PP-OCR checks its doubtful printed words against (`PrintedWordCorrector`,
/// `ScanConfiguration.wordLists`), read once per process and list of files, on a thread of their own.
public enum PrintedWords {
    /// The lists `make deps` installs: Debian's `wamerican-large` (SCOWL; its copyright file allows
    /// use and redistribution) and `hunspell-id` (Indonesian, read for Malay and Indonesian receipts;
    /// LGPL). Read where Debian puts them, never copied into the project. The locale files' own words
    /// (`Lexicon.vocabulary`: `SDN`, `JALAN`, `MWST`...) join them (none when the locale files are broken: the document
    /// then fails at extraction with the reason).
    public static let standardLists = ["/usr/share/dict/american-english-large", "/usr/share/hunspell/id_ID.dic"]
    /// The lists whose words only give a doubtful word back its marked letters (`LetterRestoringWords`): Debian's
    /// `wdanish`, `wnorwegian` (Bokmål) and `wswedish` (GPL 2 or later; read where Debian puts them, never copied),
    /// which `make deps` installs. With the standard lists only (`--word-lists auto`); read on first use.
    public static let restoringLists = ["/usr/share/dict/danish", "/usr/share/dict/bokmaal", "/usr/share/dict/swedish"]
    /// Each language's own list, by the locale files' `language`, whose marked words give a page in that language back
    /// the letters the recognizer reads plain (`pageLanguage`, `MarkedLetterRestorer.plainLookAlikes`): Debian's
    /// `wdanish`, `wnorwegian`, `wswedish` and `hunspell-pl` (Polish base forms; MPL-2.0, LGPL-3 or GPL-3+), read
    /// where Debian puts them, never copied, and only when a page in the language asks.
    public static let languageLists = [
        "da": ["/usr/share/dict/danish"], "nb": ["/usr/share/dict/bokmaal"], "sv": ["/usr/share/dict/swedish"],
        "pl": ["/usr/share/hunspell/pl_PL.dic"]
    ]
    /// The `languageLists` installed, looked up once a process rather than once a page.
    static let installedLanguageLists = languageLists.mapValues {
        $0.filter { FileManager.default.isReadableFile(atPath: $0) }
    }
    /// How much nearer a listed reading must be, and which words are doubtful: chosen on the
    /// even-numbered half of `sroie-dev` (Benchmarks/RESULTS.md, twenty-ninth session).
    public static let bonusPerLetter = 0.5
    public static let doubt = 0.9

    /// The corrector for `lists`: nil reads the standard lists that are installed (a missing one is
    /// left out), explicit files must all be readable, and an empty list turns the corrector off.
    /// `extraWords` (the user's `--custom-words`) are listed too.
    public static func corrector(lists: [String]?, extraWords: [String] = []) throws -> PrintedWordCorrector? {
        if let lists, lists.isEmpty { return nil }
        let files = (lists ?? standardLists).filter { lists != nil || FileManager.default.isReadableFile(atPath: $0) }
        for file in files where !FileManager.default.isReadableFile(atPath: file) {
            throw ScanError(.invalidOption, "word list '\(file)' can't be read")
        }
        let key = (files + extraWords).joined(separator: "\n")
        lock.lock()
        defer { lock.unlock() }
        let pending =
            loading[key]
            ?? PendingWordList(loading: {
                // Read on the list's own thread; a file that fails now (it was readable a moment ago)
                // only leaves its words out.
                let words =
                    ((try? Lexicon.loaded.get()).map(printedVocabulary) ?? []) + extraWords
                    + files.flatMap { (try? WordList.words(inFile: $0)) ?? [] }
                return WordList(words: words)
            })
        loading[key] = pending
        var corrector = PrintedWordCorrector(
            pending: pending, bonusPerLetter: bonusPerLetter, doubt: doubt, restoring: lists == nil ? restoring : nil)
        if lists == nil, let lexicon = try? Lexicon.loaded.get() {
            corrector.pageLanguage = { pageLanguage($0, lexicon: lexicon) }
        }
        return corrector
    }

    /// The locale files' words as a page prints them. A plain spelling the files list beside a marked one
    /// (`KSIEGARNIA` beside `KSIĘGARNIA`) is there to find a name's word OCR read plain; on a page it is the marked
    /// word read so, and listed it would keep the letter from being given back. A label's words stay listed in both
    /// spellings (`ATER` beside `ÅTER`): the parsers know a label either way, and a language's own list may spell
    /// only another word (`äter`) with the letters.
    static func printedVocabulary(_ lexicon: Lexicon) -> [String] {
        let vocabulary = lexicon.vocabulary
        let readPlain = Set(
            vocabulary.filter(LetterRestoringWords.holdsMarkedLetter).flatMap {
                LetterRestoringWords.plainSpellings($0.lowercased())
            })
        return vocabulary.filter {
            LetterRestoringWords.holdsMarkedLetter($0) || !readPlain.contains($0.lowercased())
                || lexicon.isLabelWord($0[...])
        }
    }

    /// The language the locale files tell by a page's receipt words (`Lexicon.localesLeading`): the letters beyond
    /// ASCII that every leading locale writes (Danish and Norwegian, tied, both `æ`, `ø`, `å`; with English, none),
    /// and the words of their installed `languageLists`. Nil when they share no such letter or have no list.
    static func pageLanguage(_ lines: [String], lexicon: Lexicon) -> (
        letters: Set<Character>, words: LetterRestoringWords
    )? {
        let leading = lexicon.localesLeading(onThePageOf: lines)
        var shared: Set<Character>?
        for locale in leading {
            let own = Set((locale.letters ?? "").lowercased())
            shared = shared.map { $0.intersection(own) } ?? own
        }
        let letters = shared ?? []
        let files = leading.flatMap { installedLanguageLists[$0.language] ?? [] }
        guard !letters.isEmpty, !files.isEmpty else { return nil }
        let key = files.joined(separator: "\n")
        lock.lock()
        defer { lock.unlock() }
        let words = languageWords[key] ?? LetterRestoringWords(files: files)
        languageWords[key] = words
        return (letters, words)
    }

    /// The installed `restoringLists`, one set for the process (nil when none is installed).
    static let restoring: LetterRestoringWords? = {
        let files = restoringLists.filter { FileManager.default.isReadableFile(atPath: $0) }
        return files.isEmpty ? nil : LetterRestoringWords(files: files)
    }()

    private static let lock = NSLock()
    nonisolated(unsafe) private static var loading: [String: PendingWordList] = [:]
    /// The `languageLists` read so far, by their files.
    nonisolated(unsafe) private static var languageWords: [String: LetterRestoringWords] = [:]
}
