import Testing
import ScanDetectors
import ScanLayout
import ScanModel
@testable import ScanExtraction

/// Amounts and rows as European tills and invoices print them: thousands grouped by spaces (`1 249,00`, French,
/// Polish, Swedish), an invoice's count, unit price and VAT rate columns, a discount that states its rate.
@Suite struct EuropeanAmountsTests {
    let extractor = DocumentExtractor(
        detector: try! DataDetector(referenceDate: CalendarDay(year: 2024, month: 1, day: 1)))

    /// A French furniture shop's receipt: one article over a thousand, one count with its unit price, and a total
    /// over a thousand with the currency after it.
    func furniture() -> Document {
        Fixture.document(Fixture.page([
            Fixture.line(40, "MAISON LOREAU", x: 200),
            Fixture.line(70, "12 rue des Lilas", x: 190),
            Fixture.line(90, "69003 Lyon", x: 220),
            Fixture.line(130, "06/12/2024 14:32"),
            Fixture.line(170, "Canapé angle"), (170, 16, [(470, "1"), (481, "249,00")]),
            Fixture.line(192, "Table basse"), (192, 16, [(481, "349,00")]),
            Fixture.line(214, "Chaise pliante 2 249,00"), (214, 16, [(481, "498,00")]),
            Fixture.line(258, "Coussin"), (258, 16, [(492, "19,90")]),
            Fixture.line(300, "TOTAL TTC"), (300, 16, [(448, "2"), (459, "115,90"), (530, "€")]),
            Fixture.line(322, "dont TVA 20%"), (322, 16, [(481, "352,65")]),
            Fixture.line(344, "CB"), (344, 16, [(448, "2"), (459, "115,90")]),
        ]))
    }

    @Test func aSpaceGroupedAmountIsOneAmount() throws {
        let r = try #require(try extractor.extract(furniture(), as: .receipt).receipt)
        #expect(r.total == "2115.90")
        let articles = r.items.filter { $0.kind == nil }
        #expect(articles.map(\.amount) == ["1249.00", "349.00", "498.00", "19.90"])
        #expect(articles.first?.quantity ?? "1" == "1")
        #expect(articles.first?.description == "Canapé angle")
        #expect(articles[2].quantity == "2" && articles[2].unitPrice == "249.00")
    }

    /// A count printed one space before a unit price stays a count when the line's amount is their product.
    @Test func aCountBeforeItsUnitPriceStaysACount() {
        let lines = LayoutAnalyzer.lines(of: furniture())
        let counted = lines.first { $0.text.hasPrefix("Chaise") }!
        #expect(LineAnalyzer.joiningSpaceGroups(counted).words.map(\.text).suffix(3) == ["2", "249,00", "498,00"])
        let canape = lines.first { $0.text.hasPrefix("Canapé") }!
        let joined = LineAnalyzer.joiningSpaceGroups(canape)
        #expect(joined.words.map(\.text) == ["Canapé", "angle", "1 249,00"])
        #expect(joined.text == canape.text)
    }

    @Test func millionsAndSignsAreJoined() {
        let line = LayoutLine(page: 0, words: Self.words(["Acompte", "-1", "250", "000,00"]), level: 0)
        #expect(LineAnalyzer.joiningSpaceGroups(line).words.map(\.text) == ["Acompte", "-1 250 000,00"])
        let parted = LayoutLine(page: 0, words: Self.words(["Total", "12", "05", "000,00"]), level: 0)
        #expect(LineAnalyzer.joiningSpaceGroups(parted).words.map(\.text) == ["Total", "12", "05", "000,00"])
    }

    /// Groups set apart as columns are not one number: a count in its own column before the price.
    @Test func wordsOfSeparateColumnsStayApart() {
        let page = Fixture.page([
            Fixture.line(100, "Table"), (100, 16, [(300, "2")]), (100, 16, [(480, "249,00")]),
            Fixture.line(130, "Total"), (130, 16, [(480, "498,00")]),
        ])
        let lines = LayoutAnalyzer.lines(of: page)
        #expect(lines.map { LineAnalyzer.joiningSpaceGroups($0).words.count } == lines.map(\.words.count))
        // One observation for the whole row (Tesseract's lines, a PDF's text): the gap still tells the columns.
        let reference = { (w: Int) in PageLayout.WordReference(observation: 0, word: w) }
        let row = LayoutLine(page: 0, words: [
            LayoutWord(text: "Chaise", box: BoundingBox(x: 20, y: 100, width: 54, height: 16), confidence: 0.95,
                       reference: reference(0)),
            LayoutWord(text: "2", box: BoundingBox(x: 300, y: 100, width: 9, height: 16), confidence: 0.95,
                       reference: reference(1)),
            LayoutWord(text: "498,00", box: BoundingBox(x: 480, y: 100, width: 54, height: 16), confidence: 0.95,
                       reference: reference(2)),
        ], level: 0)
        #expect(LineAnalyzer.joiningSpaceGroups(row).words.count == 3)
    }

    /// Only where amounts are printed with a decimal comma and no other grouping.
    @Test func theDocumentsStyleDecides() {
        func lines(_ texts: [String]) -> [LayoutLine] {
            texts.map { LayoutLine(page: 0, words: Self.words($0.split(separator: " ").map(String.init)), level: 0) }
        }
        #expect(LineAnalyzer.groupsThousandsBySpaces(lines(["Pain 2,50", "Total 1 249,00", "CB 1 249,00"])))
        #expect(!LineAnalyzer.groupsThousandsBySpaces(lines(["Brot 2,50", "Summe 1.249,00", "Bar 1 249,00"])))
        #expect(!LineAnalyzer.groupsThousandsBySpaces(lines(["Bread 2.50", "Total 1 249.00", "Cash 1 249.00"])))
        #expect(!LineAnalyzer.groupsThousandsBySpaces(lines(["Total 249,00"])))
    }

    /// An invoice's row: the count, the unit price with its currency and the VAT rate leave the description when the
    /// count times the price is the amount.
    @Test func anInvoiceRowGivesItsCountAndUnitPrice() throws {
        let page = Fixture.page([
            Fixture.line(40, "BÜROHAUS MEIER GMBH", x: 200),
            Fixture.line(78, "Milch 3,5 %"), (78, 16, [(504, "1,19"), (560, "€")]),
            Fixture.line(100, "Bürostuhl Comfort 3 349,00 € 19 %"), (100, 16, [(480, "1.047,00"), (560, "€")]),
            Fixture.line(122, "Fachbuch Steuerrecht 2 59,90 € 7%"), (122, 16, [(496, "119,80"), (560, "€")]),
            Fixture.line(180, "Gesamtbetrag"), (180, 16, [(480, "1.167,99"), (560, "€")]),
        ])
        let r = try #require(try extractor.extract(Fixture.document(page), as: .receipt).receipt)
        let articles = r.items.filter { $0.kind == nil }
        // A rate in a name stays the name's: no count and price before it make the amount.
        #expect(articles.map(\.description) == ["Milch 3,5 %", "Bürostuhl Comfort", "Fachbuch Steuerrecht"])
        #expect(articles.map(\.quantity) == [nil, "3", "2"])
        #expect(articles.map(\.unitPrice) == [nil, "349.00", "59.90"])
    }

    /// A discount that states its rate is the article's above it only when it is that share of it: `Rabatt 5 %` of the
    /// chair is no discount of the book under it. Printed with the article's amount net of it, the rate is of the
    /// gross.
    @Test func aDiscountsRateSaysWhoseItIs() throws {
        let page = Fixture.page([
            Fixture.line(40, "BÜROHAUS MEIER GMBH", x: 200),
            Fixture.line(100, "Bürostuhl"), (100, 16, [(480, "1.047,00")]),
            Fixture.line(122, "Fachbuch"), (122, 16, [(496, "119,80")]),
            Fixture.line(144, "Rabatt 5 %"), (144, 16, [(496, "-52,35")]),
            Fixture.line(166, "Kaffee"), (166, 16, [(504, "9,00")]),
            Fixture.line(188, "Treuerabatt 10 %"), (188, 16, [(504, "-1,00")]),
            Fixture.line(220, "Summe"), (220, 16, [(480, "1.121,45")]),
        ])
        let r = try #require(try extractor.extract(Fixture.document(page), as: .receipt).receipt)
        let articles = r.items.filter { $0.kind == nil }
        #expect(articles.map(\.description) == ["Bürostuhl", "Fachbuch", "Kaffee"])
        #expect(articles.map(\.discount) == [nil, nil, "-1.00"])
        #expect(r.items.filter { $0.kind == .discount }.map(\.amount) == ["-52.35", "-1.00"])
    }

    /// A quantity word beside a word of its own names an article (`Artikel A`); with numbers or units only it labels
    /// the count of articles (`Artikel 2`, `ITEMS`, `Jml Liter`).
    @Test func anArticleNamedByAQuantityWordIsAnArticle() throws {
        let page = Fixture.page([
            Fixture.line(40, "TESTLADEN GMBH", x: 200),
            Fixture.line(100, "Artikel A"), (100, 16, [(480, "1.000,00")]),
            Fixture.line(122, "Artikel B"), (122, 16, [(496, "249,00")]),
            Fixture.line(150, "Artikel 2"),
            Fixture.line(180, "Summe"), (180, 16, [(480, "1.249,00")]),
        ])
        let r = try #require(try extractor.extract(Fixture.document(page), as: .receipt).receipt)
        #expect(r.items.map(\.description) == ["Artikel A", "Artikel B"])
        #expect(r.total == "1249.00")
        for label in ["ARTIKEL 2", "ITEMS", "ANZAHL ARTIKEL", "JML LITER", "NB ARTICLES"] {
            #expect(ReceiptParser.role(label) == .quantityTotal, "\(label)")
        }
        for label in ["ARTIKEL A", "ITEM B"] { #expect(ReceiptParser.role(label) == .none, "\(label)") }
    }

    /// Words one space apart on one line, without references to observations.
    static func words(_ texts: [String]) -> [LayoutWord] {
        var x = 20.0
        return texts.map { t in
            defer { x += Double(t.count + 1) * 9 }
            return LayoutWord(text: t, box: BoundingBox(x: x, y: 100, width: Double(t.count) * 9, height: 16),
                              confidence: 0.95)
        }
    }
}
