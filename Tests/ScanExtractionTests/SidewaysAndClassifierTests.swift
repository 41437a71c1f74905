import Foundation
import Testing
import ScanDetectors
import ScanLayout
import ScanModel
@testable import ScanExtraction

/// Pages read a quarter turn off, and documents that are neither receipts nor cards.
@Suite struct SidewaysAndClassifierTests {
    let extractor = DocumentExtractor(
        detector: try! DataDetector(referenceDate: CalendarDay(year: 2024, month: 1, day: 1)))

    /// A card photographed turned counter-clockwise: every line runs up the page, first word lowest.
    func sidewaysCard() -> Page {
        let lines: [(x: Double, words: [String])] = [
            (100, ["Mary", "Allen"]), (140, ["Managing", "Partner"]), (180, ["Lumen", "Solutions", "LLC"]),
            (240, ["5274", "Lake", "Avenue"]), (270, ["Atlanta,", "GA", "30379"]),
            (300, ["T", "+1", "404-555-0142"]), (330, ["mallen@lumensolutions.com"]),
        ]
        let obs = lines.map { line -> TextObservation in
            var y = 900.0
            var words: [RecognizedWord] = []
            for w in line.words {
                let len = Double(w.count) * 12
                words.append(
                    RecognizedWord(
                        text: w, confidence: 0.95,
                        boundingBox: BoundingBox(x: line.x, y: y - len, width: 22, height: len)))
                y -= len + 12
            }
            return TextObservation(text: line.words.joined(separator: " "), confidence: 0.95,
                                   boundingBox: BoundingBox.enclosing(words.map(\.boundingBox))!, words: words)
        }
        return Page(index: 0, width: 600, height: 1000, textSource: .ocr, observations: obs)
    }

    @Test func sidewaysPageIsTurnedUprightOnItsCoordinates() {
        let page = sidewaysCard()
        #expect(SidewaysPage.quarterTurns(page.observations) == 1)
        let up = SidewaysPage.upright(page)
        #expect(up.rotation == 90 && up.width == 1000 && up.height == 600)
        // Lines now run left to right, the first printed line on top.
        for o in up.observations { #expect(o.boundingBox.width > o.boundingBox.height) }
        let first = up.observations[0].words
        #expect(first[0].boundingBox.minX < first[1].boundingBox.minX)
        #expect(up.observations[0].boundingBox.minY < up.observations[1].boundingBox.minY)
        // Upright pages and imported observations are left alone; a PDF's text layer shown turned a quarter
        // (`/Rotate 90`) is turned as a recognized page is.
        #expect(SidewaysPage.upright(up) == up)
        var imported = page
        imported.textSource = .imported
        #expect(SidewaysPage.upright(imported) == imported)
        var pdf = page
        pdf.textSource = .pdfText
        #expect(SidewaysPage.upright(pdf).rotation == 90)
    }

    @Test func upsideDownPageIsTurnedHalfWay() {
        // Lines read right way round by the engine, but placed as on a page turned 180°:
        // the first printed line lowest, every line's words running right to left.
        let rows = ["GREENLEAF GROCERS LTD", "12 Market Street", "Milk 2 litre 1.85", "Bread loaf 1.20", "TOTAL 3.05"]
        let obs = rows.enumerated().map { i, text -> TextObservation in
            var x = 560.0
            let y = 900.0 - Double(i) * 30
            let words = text.split(separator: " ").map { w -> RecognizedWord in
                let len = Double(w.count) * 9
                defer { x -= len + 9 }
                return RecognizedWord(
                    text: String(w), confidence: 0.9, boundingBox: BoundingBox(x: x - len, y: y, width: len, height: 16)
                )
            }
            return TextObservation(
                text: text, confidence: 0.9, boundingBox: BoundingBox.enclosing(words.map(\.boundingBox))!, words: words
            )
        }
        let page = Page(index: 0, width: 600, height: 1000, textSource: .ocr, observations: obs)
        #expect(SidewaysPage.quarterTurns(page.observations) == 2)
        let up = SidewaysPage.upright(page)
        #expect(up.rotation == 180 && up.width == 600 && up.height == 1000)
        // A text layer whose words run right to left is Arabic or Hebrew more often than a page upside down.
        var layer = page
        layer.textSource = .pdfText
        #expect(SidewaysPage.upright(layer) == layer)
        let doc = Document(source: "r.png", engine: EngineInfo(name: "fixture", version: "1"), pages: [up])
        let r = try! extractor.extract(doc, as: .receipt).receipt
        #expect(r?.merchant.name == "GREENLEAF GROCERS LTD")
        #expect(r?.total == "3.05")
    }

    @Test func sidewaysCardIsReadAsACard() {
        let doc = Document(
            source: "card.jpg", engine: EngineInfo(name: "fixture", version: "1"),
            pages: [SidewaysPage.upright(sidewaysCard())])
        let out = try! extractor.extract(doc)
        #expect(out.documentType?.label == .businessCard)
        #expect(out.businessCard?.name?.full == "Mary Allen")
    }

    /// A person's name with a family name's particle (`Anouk van Dijk`) counts as a name-like line for the classifier;
    /// a line that opens with the particle (`van Leeuwen & de Groot`, a firm) or a title in small letters does not. So
    /// does a name in a column of its own that the layout put on one row with the address beside it.
    @Test func aNameWithAParticleOrBesideAColumnIsNameLike() throws {
        let index = try #require(DocumentClassifier.featureNames.firstIndex(of: "nameLikeLine"))
        func nameLike(_ lines: [(Double, Double, [(Double, String)])]) throws -> Double {
            let doc = Fixture.document(Fixture.page(width: 1050, height: 600, lines))
            let analyzed = LineAnalyzer(detector: try DataDetector()).analyze(doc)
            return DocumentClassifier.features(doc, lines: analyzed)[index]
        }
        let rest = ["Logistics coordinator", "van Leeuwen & de Groot", "C. 06 12345678", "3512 AB Utrecht"]
            .enumerated().map { Fixture.line(140 + 40 * Double($0.offset), $0.element) }
        #expect(try nameLike([Fixture.line(100, "Anouk van Dijk")] + rest) == 1)
        #expect(try nameLike(rest) == 0)
        let besideTheAddress: (Double, Double, [(Double, String)]) = (
            100, 16, [(20, "ANOUK"), (80, "VISSER"), (600, "18"), (625, "Kerkstraat")]
        )
        #expect(try nameLike([besideTheAddress] + rest) == 1)
    }

    /// A sparse Finnish card, its title a compound of the locale file's titles (`Talousjohtaja`), its one phone
    /// unlabelled, is a business card: the title counts for the classifier.
    @Test func aSparseFinnishCardIsACard() throws {
        let doc = Fixture.document(Fixture.page(width: 900, height: 620, [
            Fixture.line(79, "AK", x: 448, h: 41),
            Fixture.line(193, "Aurora Konsultointi Oy", x: 336, h: 28),
            Fixture.line(269, "DI Mikko Laaksonen", x: 348, h: 36),
            Fixture.line(305, "Talousjohtaja", x: 421, h: 28),
            Fixture.line(381, "03 418 2290", x: 423, h: 23),
            Fixture.line(408, "mikko@aurorakonsultointi.fi", x: 358, h: 22),
            Fixture.line(505, "PL 45", x: 448, h: 24),
            Fixture.line(531, "33101 Tampere", x: 412, h: 27),
        ]))
        let index = try #require(DocumentClassifier.featureNames.firstIndex(of: "titleWord"))
        let analyzed = LineAnalyzer(detector: try DataDetector()).analyze(doc)
        #expect(DocumentClassifier.features(doc, lines: analyzed)[index] == 1)
        #expect(try extractor.extract(doc).documentType?.label == .businessCard)
    }

    @Test func letterOfRunningTextIsOther() {
        let text = """
        Dear Ms Fischer,
        thank you for your letter of the third of March and for the documents you sent with it.
        We have looked at the points you raised and would like to answer them one by one below.
        The first concerns the delivery date, which we can confirm for the end of the month.
        The second concerns the packaging, which will be the same as in the previous order.
        Should you have any further questions, please do not hesitate to contact us again.
        We look forward to continuing our work together over the coming year.
        Yours sincerely,
        Jonas Weber
        """
        var rows: [(Double, Double, [(Double, String)])] = []
        for (i, line) in text.split(separator: "\n").enumerated() {
            rows.append(Fixture.line(100 + Double(i) * 26, String(line)))
        }
        let doc = Fixture.document(Fixture.page(width: 1240, height: 1754, rows))
        let out = try! extractor.extract(doc)
        #expect(out.documentType?.label == .other)
        #expect(out.receipt == nil && out.businessCard == nil)
    }
}
