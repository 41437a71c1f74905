import Foundation
import Testing
@testable import ScanInk
import ScanModel
import ScanRecognition

/// End to end with PP-OCR's recognizer on ink generated from Hershey fonts. The
/// engine must be installed (`make deps`): a missing engine fails these tests.
@Suite(.serialized) struct RecognitionTests {
    static let words = ["garden", "window", "people", "letter", "morning", "travel",
                        "market", "yellow", "number", "coffee", "simple", "history"]

    @Test func readsGeneratedHandwritingWithContextAndCharset() throws {
        let recognizer = try InkRecognizer()
        var rng = SeededGenerator(seed: 42)
        let fonts = try ["cursive", "futural", "scripts"].map { try HersheyFont(named: $0) }

        // Words: the top candidate is the word written for most of them.
        var correct = 0
        var misses: [String] = []
        for (i, w) in Self.words.enumerated() {
            let ink = InkSynthesizer(font: fonts[i % fonts.count]).ink(
                w, style: InkSynthesizer.randomStyle(&rng), rng: &rng)
            let result = try recognizer.recognize(ink: ink)
            #expect(result.candidates.count <= 5 && !result.candidates.isEmpty)
            #expect(result.candidates.map(\.score) == result.candidates.map(\.score).sorted(by: >))
            if result.candidates.first?.text.lowercased() == w {
                correct += 1
            } else {
                misses.append("\(w)->\(result.candidates.first?.text ?? "")")
            }
        }
        #expect(correct >= Self.words.count - 1, "misread: \(misses)")

        // Pre-context: after "Dear" a new word starts with a space; after "Dear " it does not.
        let ink = InkSynthesizer(font: fonts[0]).ink("friend", style: InkSynthesizer.Style(), rng: &rng)
        let spaced = try recognizer.recognize(ink: ink, context: InkContext(preContext: "Dear"))
        #expect(spaced.candidates.first?.text == " friend")
        let plain = try recognizer.recognize(ink: ink, context: InkContext(preContext: "Dear "))
        #expect(plain.candidates.first?.text == "friend")

        // Charset: digits only, even for ink that looks like letters ("lO" reads as 10).
        var digitsRight = 0
        let numbers = ["7", "42", "305", "1984", "3", "86"]
        for n in numbers {
            let ink = InkSynthesizer(font: fonts[1]).ink(n, style: InkSynthesizer.randomStyle(&rng), rng: &rng)
            let r = try recognizer.recognize(ink: ink, context: InkContext(charset: "0123456789"))
            #expect(r.candidates.allSatisfy { $0.text.allSatisfy(\.isNumber) })
            #expect(r.model.lexicon == nil)
            if r.candidates.first?.text == n { digitsRight += 1 }
        }
        #expect(digitsRight >= numbers.count - 1)
        let lookalike = InkSynthesizer(font: fonts[1]).ink("lO", style: InkSynthesizer.Style(), rng: &rng)
        let digits = try recognizer.recognize(ink: lookalike, context: InkContext(charset: "0123456789"))
        #expect(digits.candidates.first?.text == "10")

        // The number pad's symbols on their own: two bars are "=" (the recognizer reads CJK "two"),
        // a cross is "×" when the charset has it.
        let pad = "0123456789+-×/=.,"
        var symbolsRight = 0
        let symbols = ["=", "=", "=", "+", "-", "/"]
        for (i, symbol) in symbols.enumerated() {
            let ink = InkSynthesizer(font: fonts[1 + i % 2]).ink(
                symbol, style: InkSynthesizer.randomStyle(&rng), rng: &rng)
            let r = try recognizer.recognize(ink: ink, context: InkContext(charset: pad))
            #expect(r.candidates.allSatisfy { $0.text.allSatisfy(pad.contains) })
            if r.candidates.first?.text == symbol {
                symbolsRight += 1
            } else {
                misses.append("\(symbol)->\(r.candidates.first?.text ?? "")")
            }
        }
        #expect(symbolsRight >= symbols.count - 1, "misread: \(misses)")

        // A code that is in no word list still comes out from the free path.
        let code = InkSynthesizer(font: fonts[1]).ink("4711", style: InkSynthesizer.Style(), rng: &rng)
        #expect(try recognizer.recognize(ink: code).candidates.first?.text == "4711")
    }

    /// Without a charset, candidates keep to the script the word lists' languages are written in: a lone stroke or
    /// digit came out as `一`, `丁` or `了` of the recognizer's Chinese classes.
    @Test func candidatesKeepToTheLanguagesScript() throws {
        let recognizer = try InkRecognizer()
        var rng = SeededGenerator(seed: 11)
        var correct = 0
        for (i, digit) in "0123456789".enumerated() {
            let font = try HersheyFont(named: ["futural", "cursive"][i % 2])
            let ink = InkSynthesizer(font: font).ink(String(digit), style: InkSynthesizer.Style(), rng: &rng)
            let candidates = try recognizer.recognize(ink: ink).candidates.map(\.text)
            let eastAsian = candidates.filter { $0.unicodeScalars.contains { $0.value >= 0x2E80 } }
            #expect(eastAsian.isEmpty, "\(digit): \(candidates)")
            if candidates.first == String(digit) { correct += 1 }
        }
        #expect(correct >= 7)
        let stroke = Ink(strokes: [Ink.Stroke(points: [Ink.Point(x: 10, y: 10), Ink.Point(x: 11, y: 70)])])
        let read = try recognizer.recognize(ink: stroke).candidates.map(\.text)
        #expect(read.allSatisfy { $0.unicodeScalars.allSatisfy { $0.value < 0x2E80 } }, "\(read)")
    }

    @Test func theWritingAreaTellsSmallFromCapital() throws {
        let recognizer = try InkRecognizer()
        let font = try HersheyFont(named: "futural")
        var rng = SeededGenerator(seed: 3)
        var style = InkSynthesizer.Style()
        // The glyph "o" is about 14 font units high: 2 units per font unit makes it 28 high.
        style.scale = 2
        var small = InkSynthesizer(font: font).ink("o", style: style, rng: &rng)
        small.writingArea = .init(width: 800, height: 200)
        style.scale = 9
        var big = InkSynthesizer(font: font).ink("o", style: style, rng: &rng)
        big.writingArea = .init(width: 800, height: 200)
        let s = try recognizer.recognize(ink: small).candidates.first?.text
        let b = try recognizer.recognize(ink: big).candidates.first?.text
        #expect(s == "o")
        #expect(b == "O")
    }

    @Test func aMissingWordListNamesTheInstallCommand() throws {
        let model = InkModel(language: "en-US", lexiconPath: "/nonexistent/words", aptPackage: "wamerican-large")
        #expect(!model.isInstalled)
        #expect(model.installCommand.contains("apt-get install wamerican-large"))
    }

    /// Ink of a whole line: several words, each read with the word list.
    @Test func readsALineOfSeveralWords() throws {
        let recognizer = try InkRecognizer()
        var rng = SeededGenerator(seed: 8)
        var right = 0
        let lines = ["water the garden", "call me tomorrow", "seven green apples", "see you at 9"]
        var misses: [String] = []
        for (i, line) in lines.enumerated() {
            let font = try HersheyFont(named: i % 2 == 0 ? "cursive" : "scripts")
            let ink = InkSynthesizer(font: font).ink(line, style: InkSynthesizer.messyStyle(&rng), rng: &rng)
            let top = try recognizer.recognize(ink: ink).candidates.first?.text ?? ""
            if top == line { right += 1 } else { misses.append("\(line) -> \(top)") }
        }
        #expect(right >= lines.count - 1, "misread: \(misses)")
    }

    /// Handwriting on an image: a generated page read by PP-OCR, with its best path and with the
    /// word-list line decoder (`--handwriting`). The decoder reads more of the words, and every
    /// word still gets a box on its line.
    @Test func theWordListReadsHandwrittenPagesBetterThanTheBestPath() throws {
        let engine = try PPOCRRecognizer()
        let decoder = HandwritingLineDecoder(lexicon: try InkModel.forLanguage("en-US").loadLexicon())
        var rng = SeededGenerator(seed: 5)
        let lines = ["Remember to water the garden plants", "Bring a warm jacket and an umbrella",
                     "Meet me near the station at 6", "The library closes early on Sunday"]
        let truth = lines.flatMap { $0.split(separator: " ").map(String.init) }
        var plain = 0, decoded = 0
        for font in ["cursive", "scripts"] {
            let page = HandwrittenPage.make(
                lines, synthesizer: InkSynthesizer(font: try HersheyFont(named: font)),
                style: InkSynthesizer.messyStyle(&rng, level: 1.2), rng: &rng, capHeight: 30)
            engine.lineDecoder = nil
            plain += Self.matched(
                truth, try engine.recognize(page).flatMap { $0.text.split(separator: " ").map(String.init) })
            engine.lineDecoder = decoder
            let read = try engine.recognize(page)
            decoded += Self.matched(truth, read.flatMap { $0.text.split(separator: " ").map(String.init) })
            for line in read {
                #expect(line.words.map(\.text) == line.text.split(separator: " ").map(String.init))
                let l = line.boundingBox
                for w in line.words.map(\.boundingBox) {
                    #expect(
                        w.minX >= l.minX - 2 && w.maxX <= l.maxX + 2 && w.minY >= l.minY - 2 && w.maxY <= l.maxY + 2)
                }
            }
        }
        #expect(decoded > plain, "word list \(decoded), best path \(plain) of \(2 * truth.count)")
        #expect(
            Double(decoded) >= 0.8 * Double(2 * truth.count),
            "word list read \(decoded), best path \(plain) of \(2 * truth.count)")
    }

    /// `reread(linesAt:)` reads only the lines asked for, from the crops of the first reading:
    /// the same boxes, and the same text as reading the whole page again with the decoder.
    @Test func rereadsOnlyTheLinesAskedFor() throws {
        let engine = try PPOCRRecognizer()
        var rng = SeededGenerator(seed: 9)
        let page = HandwrittenPage.make(["Bring a warm jacket and an umbrella", "Meet me near the station at 6",
                                         "The library closes early on Sunday"],
                                        synthesizer: InkSynthesizer(font: try HersheyFont(named: "cursive")),
                                        style: InkSynthesizer.messyStyle(&rng, level: 1.2), rng: &rng, capHeight: 30)
        engine.lineDecoder = nil
        let first = try engine.recognize(page)
        try #require(first.count >= 2)
        engine.lineDecoder = HandwritingLineDecoder(lexicon: try InkModel.forLanguage("en-US").loadLexicon())
        let nowhere = BoundingBox(x: -50, y: -50, width: 3, height: 3)
        let again = try engine.reread(linesAt: [first[1].boundingBox, nowhere])
        #expect(again.count == 2)
        #expect(again[1] == nil)
        let line = try #require(again[0])
        #expect(line.boundingBox == first[1].boundingBox)
        let whole = try engine.recognize(page)
        #expect(whole.first { $0.boundingBox == first[1].boundingBox }?.text == line.text)
        // A new page forgets the old one's lines.
        _ = try engine.recognize(RasterImage(width: 2, height: 2, channels: 1, pixels: [255, 255, 255, 255]))
        #expect(try engine.reread(linesAt: [first[1].boundingBox]) == [nil])
        // An engine told not to keep its lines (any mode but handwriting auto) has none to read.
        engine.keepsLinesForRereading = false
        engine.lineDecoder = nil
        let unkept = try engine.recognize(page)
        engine.lineDecoder = HandwritingLineDecoder(lexicon: try InkModel.forLanguage("en-US").loadLexicon())
        #expect(try engine.reread(linesAt: unkept.map(\.boundingBox)) == unkept.map { _ in nil })
    }

    /// Words of `truth` found in `read`, each counted at most as often as it was written.
    static func matched(_ truth: [String], _ read: [String]) -> Int {
        var pool: [String: Int] = [:]
        for w in read { pool[w, default: 0] += 1 }
        return truth.reduce(0) { n, w in
            guard (pool[w] ?? 0) > 0 else { return n }
            pool[w]! -= 1
            return n + 1
        }
    }
}
