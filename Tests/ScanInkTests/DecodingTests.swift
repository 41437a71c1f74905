import Foundation
import Testing
@testable import ScanInk
import ScanModel
import ScanRecognition

/// Decoders on hand-made probabilities: no engine.
@Suite struct DecodingTests {
    /// Alphabet: blank, a, b, c, A, B, C, 1, 2, space.
    static let alphabet = ["", "a", "b", "c", "A", "B", "C", "1", "2", " "]

    /// Rows of probabilities: each row a dictionary class -> p, the rest blank.
    static func probs(_ rows: [[String: Float]]) -> LineProbabilities {
        var values: [Float] = []
        for r in rows {
            var row = [Float](repeating: 0, count: alphabet.count)
            var rest: Float = 1
            for (s, p) in r { row[alphabet.firstIndex(of: s)!] = p; rest -= p }
            row[0] = max(0, rest)
            values += row
        }
        return LineProbabilities(steps: rows.count, alphabet: alphabet, values: values)
    }

    /// `restricted(to:lookAlikes:reassign:)` as first written: every class looked at on every row.
    static func plainRestriction(_ p: LineProbabilities, allowed: Set<Character>, lookAlikes: [String: Character],
                                 reassign: [String: Character]) -> [Float] {
        let c = p.classCount
        var index: [Character: Int] = [:]
        for (k, s) in p.alphabet.enumerated() where k > 0 && s.count == 1 && index[s.first!] == nil {
            index[s.first!] = k
        }
        let keep = p.alphabet.enumerated().map { k, s in k == 0 || (s.count == 1 && allowed.contains(s.first!)) }
        var moveTo = [Int](repeating: -1, count: c)
        for (k, s) in p.alphabet.enumerated() where !keep[k] || reassign[s] != nil {
            if let target = reassign[s] ?? lookAlikes[s], allowed.contains(target), let tk = index[target], tk != k {
                moveTo[k] = tk
            }
        }
        var out = p.values
        for t in 0..<p.steps {
            var sum: Float = 0
            for k in 0..<c where moveTo[k] >= 0 { out[t * c + moveTo[k]] += out[t * c + k]; out[t * c + k] = 0 }
            for k in 0..<c { if !keep[k] { out[t * c + k] = 0 } else { sum += out[t * c + k] } }
            if sum > 0 { for k in 0..<c { out[t * c + k] /= sum } } else { out[t * c] = 1 }
        }
        return out
    }

    @Test func aRestrictionMovesLookAlikesAndReassignedClassesAsTheFullScanDoes() {
        // Duplicated texts ("a", "1"), look-alikes with and without an allowed target, a reassigned
        // allowed class, a class that is both reassigned and a look-alike, and an empty row.
        let alphabet = ["", "a", "b", "1", "l", "a", "I", "一", "-", "1", "o", "0", " "]
        var rng = SeededGenerator(seed: 3)
        var values = (0..<(6 * alphabet.count)).map { _ in Float(rng.uniform(0, 1)) }
        for k in 1..<alphabet.count { values[5 * alphabet.count + k] = 0 }
        values[5 * alphabet.count] = 0
        let p = LineProbabilities(steps: 6, alphabet: alphabet, values: values)
        let allowed: Set<Character> = ["1", "-", "a", "0"]
        let lookAlikes: [String: Character] = ["l": "1", "I": "1", "一": "-", "b": "x", "o": "0"]
        let reassign: [String: Character] = ["a": "1", "o": "-"]
        let restricted = p.restricted(to: allowed, lookAlikes: lookAlikes, reassign: reassign)
        let plain = Self.plainRestriction(p, allowed: allowed, lookAlikes: lookAlikes, reassign: reassign)
        #expect(restricted.values == plain)
        #expect(restricted.values[3] > values[3])   // "1" took the "l", "I" and "a" of the first row
    }

    @Test func ctcProbabilitySumsEveryAlignment() {
        // Two steps, "a" possible at both: alignments of "a" are a-, -a, aa.
        let p = Self.probs([["a": 0.6], ["a": 0.3]])
        let expected = 0.6 * 0.7 + 0.4 * 0.3 + 0.6 * 0.3
        #expect(abs(exp(ctcLogProbability(p, classes: [1])) - expected) < 1e-6)
        // A doubled letter needs a blank between: "aa" cannot fit two steps.
        #expect(ctcLogProbability(p, classes: [1, 1]) == -.infinity)
    }

    @Test func lexiconSearchFindsTheMostProbableListedWords() {
        let p = Self.probs([["c": 0.7, "a": 0.2], [:], ["a": 0.8], [:], ["b": 0.5, "c": 0.4]])
        let lexicon = WordList(words: ["cab", "cac", "abc", "Bac", "b"])
        let found = lexicon.search(p, count: 3)
        // "abc" and "bac" cannot be read at all (no b at the start, none in the middle).
        #expect(found.map(\.folded) == ["cab", "cac", "b"])
        #expect(found[0].folded == "cab")
        #expect(found[1].folded == "cac")
        // The search is exact: its scores are the forward algorithm's.
        let exact = ctcLogProbability(p, classes: [3, 1, 2])
        #expect(abs(found[0].logProbability - exact) < 1e-9)
    }

    @Test func lexiconSearchIgnoresCaseAndSumsBoth() {
        let p = Self.probs([["C": 0.5, "c": 0.3], [:], ["a": 0.9], [:], ["B": 0.9]])
        let lexicon = WordList(words: ["cab"])
        let found = lexicon.search(p, count: 1)
        #expect(found.first?.folded == "cab")
        #expect(lexicon.listedForms(of: "CAB") == ["cab"])
    }

    @Test func freeReadingWinsWhenTheListHasNothingClose() {
        let p = Self.probs([["1": 0.95], [:], ["2": 0.95], [:], ["1": 0.95]])
        let lexicon = WordList(words: ["abc", "cab"])
        let out = InkDecoder(lexiconBonus: 4).decode(p, lexicon: lexicon, count: 3)
        #expect(out.first?.text == "121")
        #expect(out.first?.inLexicon == false)
    }

    @Test func aListedWordBeatsAnUnlistedReadingOfSimilarProbability() {
        // "cab" and "cbb" about as probable; only "cab" is listed.
        let p = Self.probs([["c": 0.9], [:], ["b": 0.5, "a": 0.45], [:], ["b": 0.9]])
        let lexicon = WordList(words: ["cab"])
        let decoder = InkDecoder(lexiconBonus: 2)
        #expect(decoder.decode(p, lexicon: lexicon, count: 3).first?.text == "cab")
        #expect(InkDecoder(lexiconBonus: 0).decode(p, lexicon: lexicon, count: 3).first?.text == "cbb")
    }

    @Test func aListedWordWithinReachTakesTheLastPlace() {
        func scored(_ text: String, _ score: Double, listed: Bool) -> InkDecoder.Scored {
            .init(text: text, score: score, logProbability: score, inLexicon: listed)
        }
        let free = (0..<4).map { scored("x\($0)", -Double($0), listed: false) }
        let ranked = free + [scored("word", -4.5, listed: true), scored("other", -9, listed: true)]
        // No listed word in the first three: the best listed one replaces the third.
        #expect(InkDecoder.withListedWord(ranked, count: 3, reach: 5).map(\.text) == ["x0", "x1", "word"])
        // Out of reach, or a listed word already there, or a single candidate: left alone.
        #expect(InkDecoder.withListedWord(ranked, count: 3, reach: 4).map(\.text) == ["x0", "x1", "x2"])
        #expect(InkDecoder.withListedWord(ranked, count: 5, reach: 30).map(\.text) == ["x0", "x1", "x2", "x3", "word"])
        #expect(InkDecoder.withListedWord(ranked, count: 1, reach: 30).map(\.text) == ["x0"])
        // The decoder applies its own reach.
        let p = Self.probs([["1": 0.9, "a": 0.05], [:], ["2": 0.9, "b": 0.05]])
        let lexicon = WordList(words: ["ab"])
        let near = InkDecoder(lexiconBonus: 0, listedWordReach: 30).decode(p, lexicon: lexicon, count: 2)
        #expect(near.map(\.text).last == "ab")
        #expect(!InkDecoder(lexiconBonus: 0).decode(p, lexicon: lexicon, count: 2).contains { $0.inLexicon })
    }

    @Test func charsetRestrictionRemovesOtherClasses() {
        let p = Self.probs([["a": 0.6, "1": 0.3], [:], ["2": 0.5, "b": 0.4]])
        let r = p.restricted(to: Set("12"))
        #expect(r.greedy().text == "12")
        for t in 0..<r.steps {
            let row = r.values[(t * r.classCount)..<((t + 1) * r.classCount)]
            #expect(abs(row.reduce(0, +) - 1) < 1e-5)
        }
        #expect(p.greedy().text == "a2")
    }

    @Test func preContextDecidesTheLeadingSpace() {
        let lexicon = WordList(words: ["hello", "world", "lo"])
        let c = [InkCandidate(text: "world", score: 0)]
        #expect(InkContextRules.applyPreContext(c, preContext: "Dear", lexicon: lexicon).first?.text == " world")
        #expect(InkContextRules.applyPreContext(c, preContext: "Dear ", lexicon: lexicon).first?.text == "world")
        #expect(InkContextRules.applyPreContext(c, preContext: nil, lexicon: lexicon).first?.text == "world")
        #expect(
            InkContextRules.applyPreContext([InkCandidate(text: ",", score: 0)], preContext: "Dear", lexicon: lexicon)
                .first?.text == ",")
        // "hel" + "l" ... an unfinished word continues: "hel" + "lo" is listed, and so is "lo";
        // only a candidate that is not a word on its own joins.
        #expect(
            InkContextRules.applyPreContext([InkCandidate(text: "llo", score: 0)], preContext: "he", lexicon: lexicon)
                .first?.text == "llo")
    }

    @Test func writingAreaTellsSmallFromCapital() {
        func ink(height: Double) -> Ink {
            Ink(strokes: [Ink.Stroke(points: [Ink.Point(x: 0, y: 100), Ink.Point(x: height * 0.8, y: 100 + height)])],
                writingArea: .init(width: 800, height: 200))
        }
        let c = [InkCandidate(text: "O", score: 0), InkCandidate(text: "0", score: -1)]
        #expect(InkContextRules.applySizeCues(c, ink: ink(height: 40)).first?.text == "o")
        #expect(InkContextRules.applySizeCues(c, ink: ink(height: 150)).first?.text == "O")
    }

    @Test func badInkIsRejectedWithAReason() throws {
        let decoder = JSONDecoder()
        #expect(throws: DecodingError.self) { try decoder.decode(Ink.self, from: Data(#"{"points": []}"#.utf8)) }
        #expect(throws: DecodingError.self) {
            try decoder.decode(Ink.self, from: Data(#"{"strokes": [{"points": [{"x": "a", "y": 1}]}]}"#.utf8))
        }
        let empty = try decoder.decode(Ink.self, from: Data(#"{"strokes": []}"#.utf8))
        #expect(throws: ScanError.self) { try empty.validate() }
        let area = Ink(strokes: [Ink.Stroke(points: [Ink.Point(x: 1, y: 1)])], writingArea: .init(width: 0, height: 10))
        #expect(throws: ScanError.self) { try area.validate() }
        // Finite, but no distance between its points is: a hostile document that crashed the renderer.
        let far = try decoder.decode(Ink.self, from: Data(#"{"strokes": [{"points": [{"x": 1e308, "y": -1e308}]}]}"#.utf8))
        #expect(throws: ScanError.self) { try far.validate() }
        let ok = try decoder.decode(
            Ink.self, from: Data(#"{"strokes": [{"points": [{"x": 1, "y": 2, "t": 0}]}], "preContext": "Dear "}"#.utf8))
        try ok.validate()
        #expect(ok.preContext == "Dear ")
    }

    @Test func languagesMapToModels() throws {
        #expect(try InkModel.forLanguage("en").id == "ink-en-US")
        #expect(try InkModel.forLanguage("fr_CA").id == "ink-fr-FR")
        #expect(throws: ScanError.self) { try InkModel.forLanguage("he-IL") }
        #expect(throws: ScanError.self) { try InkModel.forLanguage("xx") }
    }
}

/// The word-list line decoder for handwriting on images, on hand-made probabilities.
@Suite struct HandwritingLineDecoderTests {
    typealias P = DecodingTests

    @Test func eachWordIsDecodedOverItsOwnStepsWithTheWordList() {
        // "cab 12 bac": the best path reads "cab" as "cac" (c 0.5 against b 0.4 at its end), a
        // number, then "bac" well. The word list has "cab" and "bac"; the number has no letters.
        let p = P.probs([["c": 0.9], [:], ["a": 0.9], [:], ["c": 0.5, "b": 0.4], [" ": 0.9],
                         ["1": 0.9], [:], ["2": 0.9], [" ": 0.9],
                         ["b": 0.9], [:], ["a": 0.9], [:], ["c": 0.9]])
        let bestPath = [DecodedWord(text: "cac", firstStep: 0, lastStep: 4, confidence: 0.77),
                        DecodedWord(text: "12", firstStep: 6, lastStep: 8, confidence: 0.9),
                        DecodedWord(text: "bac", firstStep: 10, lastStep: 14, confidence: 0.9)]
        let decoder = HandwritingLineDecoder(
            lexicon: WordList(words: ["cab", "bac", "abc"]), lexiconBonus: 2, perCharacter: 0)
        let out = decoder.decode(p, bestPath: bestPath)
        #expect(out.map(\.text) == ["cab", "12", "bac"])
        // Words keep their steps and the best path's confidence.
        #expect(out.map(\.firstStep) == [0, 6, 10])
        #expect(out.map(\.lastStep) == [4, 8, 14])
        #expect(out[0].confidence == 0.77)

        // Without a bonus, the free reading "cac" is the more probable and stays.
        let strict = HandwritingLineDecoder(lexicon: WordList(words: ["cab", "bac"]), lexiconBonus: 0, perCharacter: 0)
        #expect(strict.decode(p, bestPath: bestPath).map(\.text) == ["cac", "12", "bac"])
    }

    @Test func spansMeetHalfWayBetweenWordsAndCoverTheLine() {
        let words = [DecodedWord(text: "a", firstStep: 2, lastStep: 4, confidence: 1),
                     DecodedWord(text: "b", firstStep: 9, lastStep: 12, confidence: 1),
                     DecodedWord(text: "c", firstStep: 15, lastStep: 15, confidence: 1)]
        #expect(DecodedWord.spans(of: words, steps: 20) == [0..<7, 7..<14, 14..<20])
        // The space's probability goes to the blank inside a word's slice.
        let p = P.probs([[" ": 0.6, "a": 0.3], ["a": 0.9]])
        let slice = HandwritingLineDecoder.slice(p, steps: 0..<2)
        #expect(slice.values[slice.spaceClass] == 0)
        #expect(abs(slice.values[0] - 0.7) < 1e-6)
    }
}

@Suite struct WordGapTests {
    static func stroke(_ x0: Double, _ x1: Double) -> Ink.Stroke {
        Ink.Stroke(points: [Ink.Point(x: x0, y: 0), Ink.Point(x: (x0 + x1) / 2, y: 40), Ink.Point(x: x1, y: 10)])
    }

    @Test func aGapHalfTheInkHighSeparatesWords() {
        // Ink 40 high: strokes 0-50 and 55-90 touch as letters do; a gap of 25 is a space.
        #expect(!InkContextRules.hasWordGap(Ink(strokes: [Self.stroke(0, 50), Self.stroke(55, 90)])))
        #expect(InkContextRules.hasWordGap(Ink(strokes: [Self.stroke(0, 50), Self.stroke(75, 120)])))
        // A stroke drawn later over the gap (a t's bar) closes it; the order of strokes does not matter.
        #expect(
            !InkContextRules.hasWordGap(Ink(strokes: [Self.stroke(75, 120), Self.stroke(0, 50), Self.stroke(45, 80)])))
        #expect(!InkContextRules.hasWordGap(Ink(strokes: [])))
    }
}
