import Foundation
import Testing
@testable import ScanInk
import ScanRecognition

/// Doubtful printed words read again with a word list, on hand-made probabilities: no engine.
@Suite struct PrintedWordCorrectorTests {
    static let alphabet = [
        "", "A", "D", "E", "H", "I", "K", "L", "N", "O", "R", "S", "T", "W", "B", "i", "l", "1", ".", "Ø", "0", " "
    ]

    /// A row a character, a blank row between two: `p` for the character as read, and `alternatives`
    /// beside the character of a given index.
    static func line(_ text: String, p: Float = 0.97, alternatives: [Int: [String: Float]] = [:]) -> LineProbabilities {
        var values: [Float] = []
        let blank = [Float](repeating: 0, count: alphabet.count).enumerated().map { $0.offset == 0 ? 1 : $0.element }
        for (i, ch) in text.enumerated() {
            if i > 0 { values += blank }
            var row = [Float](repeating: 0, count: alphabet.count)
            let others = alternatives[i] ?? [:]
            row[alphabet.firstIndex(of: String(ch))!] = others.isEmpty ? p : 1 - others.values.reduce(0, +) - 0.01
            for (s, q) in others { row[alphabet.firstIndex(of: s)!] += q }
            row[0] += max(0, 1 - row.reduce(0, +))
            values += row
        }
        return LineProbabilities(steps: 2 * text.count - 1, alphabet: alphabet, values: values)
    }

    static let corrector = PrintedWordCorrector(lexicon: WordList(words: ["hardware", "host", "lan", "bill", "Total"]),
                                                bonusPerLetter: 0.5, doubt: 0.9)

    @Test func aMisreadLetterTheRecognizerAlmostReadRightIsMended() {
        // `K` read at 0.55 with `R` at 0.40 beside it: the listed word is nearly as probable.
        let p = Self.line("HARDWAKE", alternatives: [6: ["R": 0.4]])
        #expect(Self.corrector.doubts("HARDWAKE", weakest: 0.55))
        #expect(Self.corrector.corrected("HARDWAKE", probabilities: p, span: 0..<p.steps) == "HARDWARE")
        // Its punctuation stays as read.
        let q = Self.line("HARDWAKE.", alternatives: [6: ["R": 0.4]])
        #expect(Self.corrector.corrected("HARDWAKE.", probabilities: q, span: 0..<q.steps) == "HARDWARE.")
        // Digits read for letters in a word: `Bi1l`.
        let b = Self.line("Bi1l", alternatives: [2: ["l": 0.3]])
        #expect(Self.corrector.corrected("Bi1l", probabilities: b, span: 0..<b.steps) == "Bill")
    }

    @Test func aNameStaysWhenNoListedWordIsNearlyAsProbable() {
        // `HOLT`, no listed word; `HOST` is, but the recognizer gave `S` 0.01 where it read `L`.
        let p = Self.line("HOLT", alternatives: [2: ["S": 0.01]])
        #expect(Self.corrector.doubts("HOLT", weakest: 0.6))
        #expect(Self.corrector.corrected("HOLT", probabilities: p, span: 0..<p.steps) == nil)
    }

    @Test func onlyDoubtfulLongerUnlistedWordsAreReadAgain() {
        #expect(!Self.corrector.doubts("HARDWAKE", weakest: 0.95), "read surely")
        #expect(!Self.corrector.doubts("HARDWARE", weakest: 0.5), "a listed word")
        #expect(!Self.corrector.doubts("TEO", weakest: 0.5), "short: names and abbreviations")
        #expect(!Self.corrector.doubts("A0303", weakest: 0.5), "a code of digits")
        #expect(!Self.corrector.doubts("D.I.Y.", weakest: 0.5), "punctuation inside")
    }

    @Test func aListedWordOfAnotherLengthIsNotTaken() {
        // `LIAN`, its `I` doubtful: `LAN` is listed and as probable, but a letter dropped is how a name
        // becomes a word.
        let p = Self.line("LIAN", alternatives: [1: ["": 0.45]])
        #expect(Self.corrector.doubts("LIAN", weakest: 0.54))
        #expect(Self.corrector.corrected("LIAN", probabilities: p, span: 0..<p.steps) == nil)
    }

    /// A capital `Ø` read as `O` or `0` (`SONDER` for `SØNDER`): a restoring list gives the letter back where the
    /// recognizer nearly read it. Its plain words (`sonder` is Danish too) are no candidates, and neither is a reading
    /// that changes a plain letter (`MALURI` is no `MALURT`).
    @Test func aMarkedLetterReadPlainIsGivenBack() {
        let restoring = LetterRestoringWords(words: ["sønder", "sonder", "malurt"])
        let corrector = PrintedWordCorrector(
            lexicon: WordList(words: ["hardware"]), bonusPerLetter: 0.5, doubt: 0.9, restoring: restoring)
        let p = Self.line("SONDER", alternatives: [1: ["Ø": 0.3]])
        #expect(corrector.doubts("SONDER", weakest: 0.69))
        #expect(corrector.corrected("SONDER", probabilities: p, span: 0..<p.steps) == "SØNDER")
        let zero = Self.line("S0NDER", alternatives: [1: ["Ø": 0.3]])
        #expect(corrector.corrected("S0NDER", probabilities: zero, span: 0..<zero.steps) == "SØNDER")
        // Without the restoring list, or where the recognizer gave `Ø` next to nothing, the reading stands.
        #expect(Self.corrector.corrected("SONDER", probabilities: p, span: 0..<p.steps) == nil)
        let unsure = Self.line("SONDER", alternatives: [1: ["Ø": 0.001]])
        #expect(corrector.corrected("SONDER", probabilities: unsure, span: 0..<unsure.steps) == nil)
        #expect(!LetterRestoringWords.restoresLetters("MALURT", of: "MALURI"))
        #expect(!LetterRestoringWords.restoresLetters("SØNDRE", of: "SONDER"))
        #expect(LetterRestoringWords.restoresLetters("Smør", of: "Sm0r"))
    }

    /// A page that prints Danish or Norwegian letters had its capital `Ø` and `Æ` read plain where the recognizer was
    /// sure: its unlisted words take the one marked spelling the restoring lists hold. Listed words (`BRED`), plain
    /// words of those lists (`sonder`), words with two marked spellings, and pages without such letters stay as read.
    @Test func aPageInALanguageWithMarkedLettersGetsThemBack() {
        let restoring = LetterRestoringWords(words: [
            "smør", "smör", "flæskesteg", "sønder", "sonder", "brød", "æbler", "kjøttkaker", "bår", "bär", "båd"
        ])
        let restorer = MarkedLetterRestorer(restoring: restoring, isListed: { ["bred", "total"].contains($0.lowercased()) })
        let danish = ["Pølse 29,46", "SMOR 21,92", "FLASKESTEG 6,64", "Abler 6,62", "SONDER KONDITORI", "BRED 8,77",
                      "KJ0TTKAKER 15,72", "Uden løg"]
        #expect(
            restorer.restored(danish) == [
                "Pølse 29,46", "SMØR 21,92", "FLÆSKESTEG 6,64", "Æbler 6,62", "SONDER KONDITORI", "BRED 8,77",
                "KJØTTKAKER 15,72", "Uden løg"
            ])
        // No such letters on the page, or only one: nothing to go on.
        #expect(restorer.restored(["SMOR 21,92", "FLASKESTEG 6,64"]) == nil)
        #expect(restorer.restored(["SMOR 21,92", "Pølse"]) == nil)
        // No such letter read at all, but the page's words are a language that writes them (`Lexicon`): its letters
        // are given back all the same, and no others.
        #expect(
            restorer.restored(["SMOR 21,92", "FLASKESTEG 6,64"], letters: ["æ", "ø", "å"])
                == ["SMØR 21,92", "FLÆSKESTEG 6,64"])
        #expect(restorer.restored(["SMOR 21,92"], letters: ["é", "è"]) == nil)
        // A piece of a listed word OCR cut in two (`TO TAL` for `TOTAL`, `TAL LY` for `TALLY`) is no word of its own.
        let pieces = MarkedLetterRestorer(
            restoring: LetterRestoringWords(words: ["tål"]), isListed: { ["total", "tally"].contains($0.lowercased()) })
        #expect(
            pieces.restored(["TO TAL 12,00", "TAL LY", "TAL 3"], letters: ["å"]) == ["TO TAL 12,00", "TAL LY", "TÅL 3"])
        #expect(restorer.restored(["SMOR 21,92"], letters: []) == nil)
        // Swedish letters on a page with German ones are German: no Swedish spelling is tried.
        #expect(restorer.restored(["Käse", "Brötchen", "Rückgeld", "SMOR"]) == nil)
        #expect(restorer.restored(["Kött", "Räksmörgås", "SMOR"]) == ["Kött", "Räksmörgås", "SMÖR"])
        // Two spellings listed (`BÅR`, `BÄR` on a page with both languages' letters): the word stays.
        #expect(restorer.restored(["Smør", "Räksmörgås", "BAR 12"]) == nil)
        // An `å` on a page that counts as both Danish and Swedish (two of them, no `ü`) is one letter to try, not two.
        #expect(restorer.restored(["På gensyn", "på torvet", "BAD 12"]) == ["På gensyn", "på torvet", "BÅD 12"])
    }

    @Test func aCandidateInMixedCaseIsAMisreadItself() {
        #expect(PrintedWordCorrector.isWellCased("HARDWARE"))
        #expect(PrintedWordCorrector.isWellCased("Total"))
        #expect(PrintedWordCorrector.isWellCased("bill"))
        #expect(!PrintedWordCorrector.isWellCased("KAlLAN"))
        #expect(!PrintedWordCorrector.isWellCased("ToTal"))
    }

    @Test func hunspellDictionariesAndPlainListsAreRead() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pwc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let dic = dir.appendingPathComponent("x.dic"), plain = dir.appendingPathComponent("words")
        try "3\njalan/S\ntaman\nkedai/AB\n".write(to: dic, atomically: true, encoding: .utf8)
        try "Bill\nBill's\nhardware\n".write(to: plain, atomically: true, encoding: .utf8)
        #expect(try WordList.words(inFile: dic.path) == ["jalan", "taman", "kedai"])
        #expect(try WordList.words(inFile: plain.path) == ["Bill", "hardware"])
        #expect(throws: (any Error).self) { try WordList.words(inFile: dir.appendingPathComponent("none").path) }
        // A Latin-1 list (Debian's `bokmaal`, `swedish`), its marked words alone for restoring letters.
        let latin1 = dir.appendingPathComponent("bokmaal")
        try Data([0x73, 0xF8, 0x6E, 0x64, 0x65, 0x72, 0x0A] + Array("sonder\nSm".utf8) + [0xF8, 0x72, 0x0A]).write(to: latin1)
        #expect(try WordList.words(inFile: latin1.path, markedOnly: true) == ["sønder", "Smør"])
        let restoring = LetterRestoringWords(files: [latin1.path])
        #expect(restoring.contains("sønder") && restoring.contains("smør") && !restoring.contains("sonder"))
        // A Hunspell dictionary in the encoding its affix file names (Debian's Polish one: `SET ISO8859-2`, where the
        // byte 0xB3 is `ł`, not Latin-1's `³`).
        let polish = dir.appendingPathComponent("pl.dic")
        try Data(Array("2\nbu".utf8) + [0xB3] + Array("ka/mMN\nchleb\n".utf8)).write(to: polish)
        try "SET ISO8859-2\nTRY aioe\n".write(
            to: dir.appendingPathComponent("pl.aff"), atomically: true, encoding: .utf8)
        #expect(try WordList.words(inFile: polish.path, markedOnly: true) == ["bułka"])
    }

    @Test func aListLoadingOnItsOwnThreadIsWaitedFor() {
        let pending = PendingWordList(loading: {
            Thread.sleep(forTimeInterval: 0.05)
            return WordList(words: ["hardware"])
        })
        #expect(pending.list.contains("HARDWARE"))
    }
}
