import ScanDetectors
import ScanModel
@testable import ScanExtraction

/// Builds a recorded-style page: each line is words with their x positions; every word
/// gets a box from its position and length, so tests read like the receipts they stand for.
enum Fixture {
    /// `lines`: (y, height, [(x, text)]). One observation per entry, words as given.
    static func page(width: Double = 600, height: Double = 1000, _ lines: [(Double, Double, [(Double, String)])])
        -> Page
    {
        let obs = lines.map { (y, h, words) -> TextObservation in
            let ws = words.map { (x, t) in
                RecognizedWord(
                    text: t, confidence: 0.95,
                    boundingBox: BoundingBox(x: x, y: y, width: Double(t.count) * h * 0.55, height: h))
            }
            return TextObservation(text: ws.map(\.text).joined(separator: " "), confidence: 0.95,
                                   boundingBox: BoundingBox.enclosing(ws.map(\.boundingBox))!, words: ws)
        }
        return Page(index: 0, width: width, height: height, textSource: .imported, observations: obs)
    }

    /// A simple left-aligned line of words (spaced by their lengths) at `y`.
    static func line(_ y: Double, _ text: String, x: Double = 20, h: Double = 16) -> (
        Double, Double, [(Double, String)]
    ) {
        var cx = x
        var out: [(Double, String)] = []
        for w in text.split(separator: " ") {
            out.append((cx, String(w)))
            cx += Double(w.count + 1) * h * 0.55
        }
        return (y, h, out)
    }

    static func document(_ page: Page) -> Document {
        Document(source: "fixture.json", engine: EngineInfo(name: "fixture", version: "1"), pages: [page])
    }

    /// One extractor for the card suites that read a card from `lines` alone.
    static let cardExtractor = DocumentExtractor(detector: try! DataDetector())

    /// The business card read from `lines` on a card of `width` x `height` pixels.
    static func card(_ lines: [(Double, Double, [(Double, String)])], width: Double = 1200, height: Double = 700)
        -> BusinessCard
    {
        try! cardExtractor.extract(document(page(width: width, height: height, lines)), as: .businessCard).businessCard!
    }
}
