import Foundation
import Testing
import ScanDetectors
import ScanModel
@testable import ScanExtraction

/// Rules that read past OCR's slips and a till's layout quirks: glued headings and labels,
/// punctuation read wrongly, dates inside product codes, names over two lines.
@Suite struct ReceiptCorrectionsTests {
    let extractor = DocumentExtractor(
        detector: try! DataDetector(referenceDate: CalendarDay(year: 2024, month: 1, day: 1)))

    func receipt(_ lines: [(Double, Double, [(Double, String)])]) -> Receipt {
        try! extractor.extract(Fixture.document(Fixture.page(lines)), as: .receipt).receipt!
    }

    /// A line of words as OCR boxes them, and an amount at x 400.
    static func priced(_ y: Double, _ label: String, _ amount: String) -> (Double, Double, [(Double, String)]) {
        (y, 16, Fixture.line(y, label).2 + [(400, amount)])
    }

    @Test func amountHeadingWithItsCurrencyGluedOnKeepsTheSummaryAmounts() {
        // `Amt(RM)` is the rightmost price heading; cutting at `Price` would drop every amount right of it.
        let r = receipt([
            Fixture.line(20, "KEDAI MAJU SDN BHD", h: 20),
            (100, 16, [(20, "Item"), (200, "Qty"), (260, "Price"), (340, "Amt(RM)")]),
            (130, 16, [(20, "Pencil"), (210, "2"), (260, "1.50"), (350, "3.00")]),
            (160, 16, [(20, "TOTAL"), (350, "3.00")]),
            (190, 16, [(20, "CASH"), (350, "5.00")]),
            (220, 16, [(20, "CHANGE"), (350, "2.00")]),
        ])
        #expect(r.total == "3.00")
        #expect(r.payment?.tendered == "5.00")
    }

    /// Labels in a language no locale file knows: the amount handed over and the change under the total still say
    /// which amount was due (50.00 - 43.35 = 6.65), where the largest amount would be the cash.
    @Test func paymentArithmeticFindsTheTotalWhateverTheLanguage() {
        let r = receipt([
            Fixture.line(20, "KOFFIEHUIS VELTA", h: 20),
            (100, 16, [(20, "Bergde"), (400, "12.40")]),
            (130, 16, [(20, "Tonbor"), (400, "7.85")]),
            (160, 16, [(20, "Laan"), (400, "23.10")]),
            (200, 16, [(20, "Velpet"), (400, "43.35")]),
            (230, 16, [(20, "Tenquinbor"), (400, "50.00")]),
            (260, 16, [(20, "Labermi"), (400, "6.65")]),
        ])
        #expect(r.total == "43.35")
    }

    /// With no label a locale file knows, the items end at the first line that adds them up: the tax, tip, cash and
    /// change under it are no items, and the cash and change are found by their difference.
    @Test func itemsEndWhereALineAddsThemUpWhateverTheLanguage() {
        let r = receipt([
            Fixture.line(20, "KOFFIEHUIS VELTA", h: 20),
            (100, 16, [(20, "Bergde"), (400, "12.40")]),
            (130, 16, [(20, "Tonbor"), (400, "7.85")]),
            (160, 16, [(20, "Laan"), (400, "23.10")]),
            (200, 16, [(20, "Tenberg"), (400, "43.35")]),
            (230, 16, [(20, "Kelzo"), (80, "10%"), (400, "4.34")]),
            (260, 16, [(20, "Velpet"), (400, "47.69")]),
            (290, 16, [(20, "Tenquinbor"), (400, "50.00")]),
            (320, 16, [(20, "Labermi"), (400, "2.31")]),
        ])
        #expect(r.items.map(\.description) == ["Bergde", "Tonbor", "Laan"])
        #expect(r.total == "47.69")
        // The cash and the change by their arithmetic (50.00 - 47.69 = 2.31).
        #expect(r.payment?.tendered == "50.00")
        #expect(r.payment?.change == "2.31")
        // One amount under another equal to it is no sum (two cups of tea at the same price), nor is a zero one, and an
        // item that costs what the two above it do is followed by the line that sums all three.
        let lines = extractor.analyzer.analyze(Fixture.document(Fixture.page([
            (100, 16, [(20, "Tasche"), (400, "0.00")]),
            (130, 16, [(20, "Tee"), (400, "3.00")]),
            (160, 16, [(20, "Tee"), (400, "3.00")]),
            (190, 16, [(20, "Kuchen"), (400, "6.00")]),
            (220, 16, [(20, "Zusammen"), (400, "12.00")]),
            (250, 16, [(20, "Bar"), (400, "20.00")]),
        ])))
        #expect(ReceiptParser.sumLine(lines, wholeUnits: ReceiptParser.printsWholeUnits(lines)) == 4)
        // One item: its amount printed again adds it up when a later line is that sum plus the amounts between it (a
        // subtotal, its tax, the total), and never without such a line.
        func sumLine(_ rows: [(String, String)]) -> Int? {
            let lines = extractor.analyzer.analyze(Fixture.document(Fixture.page(rows.enumerated().map { n, row in
                (100 + 30 * Double(n), 16, [(20, row.0), (400, row.1)])
            })))
            return ReceiptParser.sumLine(lines, wholeUnits: ReceiptParser.printsWholeUnits(lines))
        }
        #expect(sumLine([("3 Zancasven", "45.63"), ("Tenberg", "45.63"), ("Kelzo 10%", "8.67"), ("Labergol", "54.30")]) == 1)
        #expect(sumLine([("Tee", "3.00"), ("Tee", "3.00"), ("Bar", "10.00"), ("Zuruck", "4.00")]) == nil)
        #expect(sumLine([("Tee", "3.00"), ("Zusammen", "3.00")]) == nil)
        #expect(sumLine([("Tee", "3.00"), ("Tee", "3.00"), ("Zusammen", "6.00")]) == 2)
        // Articles between are no tax: the amounts between must be small beside the repeated one.
        #expect(sumLine([("Milk", "0.89"), ("Milk", "0.89"), ("Bread", "1.20"), ("Eggs", "2.09")]) == nil)
        #expect(sumLine([("Tee", "3.00"), ("Tee", "3.00"), ("Tee", "3.00"), ("Kaffee", "5.00")]) == nil)
    }

    /// A scan of a till's roll that caught the slip before's tail over the header (`Grand Total 12.35`, `Please come
    /// again`): its total starts no summary, so the last article above this slip's tax is still found by the sums.
    @Test func theSlipBeforesTailStartsNoSummary() {
        let r = receipt([
            Self.priced(20, "Grand Total", "12.35"), Fixture.line(44, "Please come again", x: 160),
            Fixture.line(80, "HAPPY GRILL", x: 170, h: 24), Fixture.line(110, "3706 N Tortorro Ct, Venellu, NV 80273", x: 100),
            Fixture.line(134, "Jun 09, 2023 12:02 PM", x: 150),
            Self.priced(170, "1 Salmon", "20.86"), Self.priced(200, "2 Pen Blue", "44.02"), Self.priced(230, "Fries", "101.76"),
            Self.priced(260, "Caesar Salad", "26.95"), Self.priced(290, "Pasta", "16.11"), Self.priced(330, "TAX", "10.48"),
            Self.priced(360, "Balance Due", "220.18"), Self.priced(390, "MasterCard", "225.00"), Self.priced(420, "Change", "4.82"),
            Fixture.line(460, "Thank you for dining with us", x: 120),
        ])
        #expect(r.total == "220.18")
        #expect(r.items.last?.description == "Pasta", "\(r.items.map(\.description))")
        let lines = extractor.analyzer.analyze(Fixture.document(Fixture.page([
            Self.priced(20, "Grand Total", "12.35"), Fixture.line(44, "Please come again", x: 160), Fixture.line(80, "HAPPY GRILL"),
            Self.priced(110, "Fries", "1.76"), Self.priced(140, "Pasta", "6.11"), Self.priced(170, "TOTAL", "7.87"),
            Fixture.line(200, "x"), Fixture.line(230, "y"), Fixture.line(260, "z"),
        ])))
        #expect(ReceiptParser.slipBeforesTail(lines) == 2)
        // A tail with no closing words: a total in the top fifth over everything priced, with articles between it and
        // the slip's own total.
        let open = receipt([
            Self.priced(20, "A PAYER", "121,98"), Fixture.line(44, "www.almo.fr", x: 160), Fixture.line(68, "Serveur : Ana", x: 160),
            Fixture.line(100, "Le Jardin", x: 170, h: 24), Fixture.line(130, "62 av. de Bergnorville", x: 150),
            Fixture.line(154, "45217 Quinbriwick", x: 150), Fixture.line(178, "Le 05/09/18 21:50", x: 150),
            Self.priced(210, "SALADE", "12,59"), Self.priced(240, "2 Quiche", "74,54"), Self.priced(270, "Eau minérale", "2,22"),
            Self.priced(300, "Croissant", "96,99"), Self.priced(340, "TVA 20%", "37,27"), Self.priced(370, "TOTAL", "223,61"),
            Self.priced(400, "CB", "225,00"), Self.priced(430, "Rendu", "1,39"), Fixture.line(470, "A bientôt", x: 160),
        ])
        #expect(r.total == "220.18")
        #expect(open.total == "223.61")
        #expect(open.items.map(\.description) == ["SALADE", "Quiche", "Eau minérale", "Croissant"], "\(open.items.map(\.description))")
        // The tail's own summary lines are no articles either.
        let p = ReceiptParser.prepared(lines)
        let (prepared, roles, summaryStart, tail) = (p.lines, p.roles, p.summaryStart, p.tail)
        #expect(summaryStart == 5)
        #expect(ReceiptParser.summaryLines(prepared, roles: roles, summaryStart: summaryStart, tail: tail)[0])
    }

    /// A count and unit price printed under an article (`Laan 61.80` / `3 × 20.60`) repeat its amount: the line that
    /// adds the articles up is still found under them, and no line with a phone number or a date is one.
    @Test func aCountLineUnderItsArticleAddsNothingToTheSum() {
        let rows: [(String, String)] = [("Zancasven", "9.14"), ("Norraing", "5.21"), ("Laan", "61.80"), ("3 ×", "20.60"),
                                        ("Briul", "76.15"), ("Kelzo", "15.23"), ("Borde", "91.38"), ("Olpet", "95.00"),
                                        ("Mersan", "3.62")]
        let page = Fixture.page([Fixture.line(20, "DOFI LAHATEN", h: 20)] + rows.enumerated().map { n, row in
            Self.priced(100 + 30 * Double(n), row.0, row.1)
        })
        let lines = extractor.analyzer.analyze(Fixture.document(page))
        #expect(ReceiptParser.sumLine(lines, wholeUnits: ReceiptParser.printsWholeUnits(lines)) == 5)
        let r = try! extractor.extract(Fixture.document(page), as: .receipt).receipt!
        #expect(r.items.map(\.description) == ["Zancasven", "Norraing", "Laan"])
        #expect(r.items.last?.quantity == "3" && r.items.last?.unitPrice == "20.60")
        #expect(r.total == "91.38" && r.payment?.change == "3.62")
        let called = extractor.analyzer.analyze(Fixture.document(Fixture.page([
            (100, 16, [(20, "Tee"), (400, "3.00")]),
            (130, 16, [(20, "Kaffee"), (400, "4.00")]),
            (160, 16, [(20, "or call 03-5636 0199"), (400, "7.00")]),
        ])))
        #expect(called[2].holdsContactOrDate)
        #expect(ReceiptParser.sumLine(called, wholeUnits: ReceiptParser.printsWholeUnits(called)) == nil)
    }

    /// A line that adds up the articles is no tax, though a tax word stands beside a total OCR glued into one word.
    @Test func theLineThatAddsUpTheArticlesIsNoTax() {
        let r = receipt([
            Fixture.line(20, "SPEED MART", h: 20),
            (100, 16, [(20, "SNEK KU CRAB"), (400, "3.65")]),
            (130, 16, [(20, "TIC TAC MINT"), (400, "2.10")]),
            (160, 16, [(20, "TotalSales (Inclusive GST)"), (400, "5.75")]),
            (190, 16, [(20, "CASH"), (400, "10.00")]),
            (220, 16, [(20, "CHANGE"), (400, "4.25")]),
        ])
        #expect(r.items.map(\.description) == ["SNEK KU CRAB", "TIC TAC MINT"])
        #expect(!r.tax.contains { $0.amount == "5.75" }, "\(r.tax)")
        #expect(r.total == "5.75")
    }

    /// Lines the model took for articles at or under the total are none when the total is known for one: the cash less
    /// the change makes it. A total picked with no such proof leaves the articles as they are.
    @Test func noArticleUnderAProvenTotal() {
        let lines = extractor.analyzer.analyze(Fixture.document(Fixture.page([
            (100, 16, [(20, "Bergde"), (400, "12.40")]),
            (130, 16, [(20, "Tonbor"), (400, "7.85")]),
            (160, 16, [(20, "Borde"), (400, "20.25")]),
            (190, 16, [(20, "Olpet"), (400, "25.00")]),
            (220, 16, [(20, "Mersan"), (400, "4.75")]),
        ])))
        func read(change: String?) -> [String] {
            var reading = ReceiptParser.ItemReading(lines: lines, labels: [.item, .item, .other, .other, .item],
                                                    summaryStart: lines.count, wholeUnits: false)
            var r = Receipt()
            ReceiptParser.setItems(&reading, into: &r)
            r.total = "20.25"
            r.payment = Receipt.Payment(method: "cash", tendered: "25.00", change: change)
            ReceiptParser.endItemsAtTotal(&reading, totalLine: 2, into: &r)
            return r.items.map(\.description)
        }
        #expect(read(change: "4.75") == ["Bergde", "Tonbor"])
        #expect(read(change: nil) == ["Bergde", "Tonbor", "Mersan"])
        // A total printed over the articles (an invoice's `Amount due` at the top) ends none of them.
        let invoice = extractor.analyzer.analyze(Fixture.document(Fixture.page([
            Self.priced(100, "Amount due", "20.25"), Self.priced(130, "Bergde", "12.40"), Self.priced(160, "Tonbor", "7.85"),
        ])))
        var top = ReceiptParser.ItemReading(
            lines: invoice, labels: [.other, .item, .item], summaryStart: 0, wholeUnits: false)
        var r = Receipt()
        ReceiptParser.setItems(&top, into: &r)
        r.total = "20.25"
        ReceiptParser.endItemsAtTotal(&top, totalLine: 0, into: &r)
        #expect(r.items.map(\.description) == ["Bergde", "Tonbor"])
    }

    /// A VAT breakdown printed a row to a line in a language no locale file knows: a net with its rate, the tax the
    /// rate makes of it and their sum prove it, and its rows are no articles. A tax the rate does not make proves
    /// nothing.
    @Test func vatRowsOnLinesAreSummaryWhateverTheLanguage() {
        func read(tax: String, gross: String, total: String) -> Receipt {
            receipt([
                Fixture.line(20, "KOFFIEHUIS VELTA", h: 20),
                Self.priced(100, "2 Zancasven", "27.26"),
                Self.priced(130, "Fizanal", "15.80"),
                Self.priced(160, "Tiharquin", "37.47"),
                Self.priced(190, "Bergde", "24.96"),
                Self.priced(220, "Lazofield", "148.00"),
                Self.priced(260, "Borde 0%", "147.03"),
                Self.priced(290, "Borde 16% (Tenberg)", "106.46"),
                Self.priced(320, "Torpet", tax),
                Self.priced(350, "Borde 16% (Torpet)", gross),
                Self.priced(380, "Tenquinbor", total),
            ])
        }
        let r = read(tax: "17.03", gross: "123.49", total: "270.52")
        #expect(r.items.map(\.description) == ["Zancasven", "Fizanal", "Tiharquin", "Bergde", "Lazofield"])
        #expect(r.tax.map(\.amount) == ["17.03"])
        #expect(r.total == "270.52")
        let lines = extractor.analyzer.analyze(Fixture.document(Fixture.page([
            Self.priced(100, "Borde 16% (Tenberg)", "106.46"),
            Self.priced(130, "Torpet", "17.13"),
            Self.priced(160, "Borde 16% (Torpet)", "123.59"),
        ])))
        #expect(ReceiptParser.vatRowsOnLines(lines) == nil)
        // Rows with a rate above the first proven row are the breakdown's when they share its label; an article whose
        // name holds a percentage is not (`Mleko 2% 1L`, then `SUMA 0%`, `SUMA 7% (bez VAT)`).
        let rows = extractor.analyzer.analyze(Fixture.document(Fixture.page([
            Self.priced(100, "Mleko 2% 1L", "22.88"),
            Self.priced(130, "SUMA 0%", "87.42"),
            Self.priced(160, "SUMA 7% (bez VAT)", "111.27"),
            Self.priced(190, "PTU A", "7.78"),
            Self.priced(220, "SUMA 7% (z VAT)", "119.05"),
        ])))
        #expect(ReceiptParser.vatRowsOnLines(rows)?.start == 1)
        // A shared word that OCR misread in one letter in one of the rows is still shared.
        let misread = extractor.analyzer.analyze(Fixture.document(Fixture.page([
            Self.priced(100, "Silsan", "51.40"),
            Self.priced(130, "Tenquinbor 0%:", "32.48"),
            Self.priced(160, "Tenquinber 8% (Tenberg)", "138.48"),
            Self.priced(190, "Torpet 8% :", "11.08"),
            Self.priced(220, "Tenquinbor 8% (Torpet)", "149.56"),
        ])))
        #expect(ReceiptParser.vatRowsOnLines(misread)?.start == 1)
    }

    /// A tax line under a label no locale file knows, right above the total with no subtotal: its amount is the items'
    /// sum at a whole-number rate (21% of 227.03 is 47.68), and they make the total, so it is the tax. An article that
    /// costs no such share of the others stays an article.
    @Test func aTaxIsKnownByItsRateWhateverTheLanguage() {
        func read(_ last: String, total: String) -> Receipt {
            receipt([
                Fixture.line(20, "MARCAS ISTAM", h: 20),
                (100, 16, [(20, "Tonbor"), (400, "25.80")]),
                (130, 16, [(20, "Lazofield"), (400, "97.74")]),
                (160, 16, [(20, "Luel"), (400, "68.07")]),
                (190, 16, [(20, "Petleygor"), (400, "35.42")]),
                (220, 16, [(20, "Torpet"), (400, last)]),
                (260, 16, [(20, "Bertam"), (400, total)]),
            ])
        }
        let taxed = read("47.68", total: "274.71")
        #expect(taxed.total == "274.71")
        #expect(taxed.items.map(\.description) == ["Tonbor", "Lazofield", "Luel", "Petleygor"])
        #expect(taxed.tax.map(\.amount) == ["47.68"])
        #expect(taxed.tax.first?.rate == nil, "a rate found by arithmetic was not printed")
        let bought = read("47.70", total: "274.73")
        #expect(bought.items.last?.description == "Torpet" && bought.tax.isEmpty)
        // Under a total label a locale file knows, a last article at a whole share of the others stays an article.
        let fries = receipt([
            Fixture.line(20, "BURGER BAR", h: 20),
            (100, 16, [(20, "Burger"), (400, "10.00")]),
            (130, 16, [(20, "Fries"), (400, "1.00")]),
            (170, 16, [(20, "TOTAL"), (400, "11.00")]),
        ])
        #expect(fries.items.map(\.description) == ["Burger", "Fries"] && fries.tax.isEmpty)
        // A round amount is a price far more often than a tax, whatever share it is.
        let round = receipt([
            Fixture.line(20, "MARCAS ISTAM", h: 20),
            (100, 16, [(20, "Tonbor"), (400, "25.00")]),
            (130, 16, [(20, "Lazofield"), (400, "75.00")]),
            (160, 16, [(20, "Torpet"), (400, "10.00")]),
            (200, 16, [(20, "Bertam"), (400, "110.00")]),
        ])
        #expect(round.items.last?.description == "Torpet" && round.tax.isEmpty, "\(round.items) \(round.tax)")
        // A rate printed on the line is the one asked for, and kept; a printed rate the arithmetic denies keeps the
        // article.
        func priced(_ text: String, _ amount: String, total: String) -> Receipt {
            let source = Provenance(text: text, page: 0, boundingBox: nil, confidence: 1)
            var r = Receipt()
            r.items = [Receipt.Item(description: "Tonbor", amount: "25.80", source: source),
                       Receipt.Item(description: "Lazofield", amount: "97.74", source: source),
                       Receipt.Item(description: "Kelzo", amount: amount, source: source)]
            r.total = total
            ReceiptParser.taxByItsRate(&r, roles: [])
            return r
        }
        let seven = priced("Kelzo 7% 8.65", "8.65", total: "132.19")
        #expect(seven.items.count == 2 && seven.tax.first?.rate == "7" && seven.tax.first?.amount == "8.65")
        #expect(priced("Kelzo 9% 8.65", "8.65", total: "132.19").tax.isEmpty)
        #expect(priced("Kelzo 8.65", "8.65", total: "132.19").tax.first?.rate == nil)
    }

    @Test func includedTaxLineIsNotTheTotal() {
        let r = receipt([
            Fixture.line(20, "RIB HOUSE SDN BHD", h: 20),
            (100, 16, [(20, "Ribs"), (20 + 9 * 8.8, "Platter"), (400, "59.90")]),
            (130, 16, [(20, "Sub-total:"), (400, "59.90")]),
            (160, 16, [(20, "(Inclusive)"), (120, "GST"), (160, "6%"), (400, "3.39")]),
            (190, 16, [(20, "Total:"), (400, "59.90")]),
        ])
        #expect(r.total == "59.90")
        #expect(r.tax.first?.amount == "3.39")
    }

    @Test func dateInsideAProductCodeIsSkippedAndTheTillStampWins() {
        let r = receipt([
            Fixture.line(20, "HARDWARE SDN BHD", h: 20),
            Fixture.line(60, "TOILET BRUSH 47-2311"),
            Fixture.line(80, "HD03-04-06 - 5/40/160"),
            (100, 16, [(20, "9067860"), (120, "1"), (150, "X"), (170, "2.70"), (400, "2.70")]),
            (140, 16, [(20, "TOTAL"), (400, "2.70")]),
            Fixture.line(200, "19-09-17 15:39 SH01 T3 R000100808"),
        ])
        #expect(r.date == "2017-09-19")
        #expect(r.time == "15:39")
    }

    /// A date OCR glued onto the till's code before it (a space lost) is the receipt's date; a date-like run
    /// inside a product code still is not.
    @Test func aDateGluedOntoATillCodeIsStillTheDate() {
        let r = receipt([
            Fixture.line(20, "HARDWARE SDN BHD", h: 20),
            Fixture.line(60, "HD03-04-06 - 5/40/160"),
            (100, 16, [(20, "Toilet brush"), (400, "2.70")]),
            (140, 16, [(20, "TOTAL"), (400, "2.70")]),
            Fixture.line(200, "#001-001-0934-000131/01/201813:30-R"),
        ])
        #expect(r.date == "2018-01-31")
        #expect(r.time == "13:30")
    }

    @Test func dateWithOneSeparatorReadAsASpace() {
        let r = receipt([
            Fixture.line(20, "MINI MART S/B", h: 20),
            Fixture.line(60, "01:34PM 568017 05 02-18"),
            (140, 16, [(20, "TOTAL"), (400, "2.70")]),
        ])
        #expect(r.date == "2018-02-05")
    }

    @Test func onesReadForTheLetterLInsideAWordAreLettersAgain() {
        #expect(ReceiptParser.lettersForOnes("22 Haverhi11 Rd") == "22 Haverhill Rd")
        #expect(ReceiptParser.lettersForOnes("15700 Be11flower Blvd") == "15700 Bellflower Blvd")
        #expect(ReceiptParser.lettersForOnes("Jalan Pe1abur 23/1") == "Jalan Pelabur 23/1")
        #expect(ReceiptParser.lettersForOnes("PETALING JAYA, SE1ANGOR.") == "PETALING JAYA, SELANGOR.")
        #expect(ReceiptParser.lettersForOnes("Roswe11, GA") == "Roswell, GA")
        // Numbers keep their digits.
        for kept in ["SS21/34", "Unit 1A", "B1", "Jalan1", "U1/48", "1st Floor", "Rd1", "A1B2", "No.1,", "K1A 0B1", "J1n"] {
            #expect(ReceiptParser.lettersForOnes(kept) == kept, "\(kept)")
        }
    }

    @Test func zerosReadForTheLetterOInsideAWordAreLettersAgain() {
        #expect(ReceiptParser.lettersForZeros("WICKZ0GASSE 41") == "WICKZOGASSE 41")
        #expect(ReceiptParser.lettersForZeros("07302 0lborul") == "07302 olborul")
        #expect(ReceiptParser.lettersForZeros("70 AV. DU OLDO 79626 LALAD0") == "70 AV. DU OLDO 79626 LALADO")
        #expect(ReceiptParser.lettersForZeros("Het 0ude Leyton") == "Het oude Leyton")
        #expect(ReceiptParser.lettersForZeros("G00DS SOLD") == "GOODS SOLD")
        // Numbers, and codes with other digits, keep their zeros.
        #expect(ReceiptParser.lettersForZeros("22041 TAMTON (T0)") == "22041 TAMTON (TO)")
        for kept in ["SS20", "LN6 0AU", "K1A 0B1", "No.10,", "404360", "U0", "(10)", "Unit 0A", "SEK 0", "1000A", "(T1)"] {
            #expect(ReceiptParser.lettersForZeros(kept) == kept, "\(kept)")
        }
        // In an address and a name as the receipt parser reads them.
        let r = receipt([Fixture.line(20, "D0MINO PIZZA SDN BHD", x: 120, h: 24), Fixture.line(50, "Piazza Z0vel, 37", x: 140),
                         Fixture.line(70, "49888 Kala", x: 160), Fixture.line(110, "Pizza"), (110, 16, [(400, "8.00")]),
                         Fixture.line(140, "TOTALE"), (140, 16, [(400, "8.00")])])
        #expect(r.merchant.name == "DOMINO PIZZA SDN BHD")
        #expect(r.merchant.address?.hasPrefix("Piazza Zovel, 37") == true, "\(r.merchant.address ?? "")")
    }

    /// A till's code the layout joined before or after a name: a zero-padded number before it, a number with a point,
    /// hyphen or slash after its legal form. A plain number after the form, a count before an item and a `#1` stay.
    @Test func codesJoinedToANameLeaveIt() {
        #expect(ReceiptParser.normalizedName("#000002 BAIFU (M) Sdn Bhd") == "BAIFU (M) Sdn Bhd")
        #expect(ReceiptParser.normalizedName("PRINT EXPERT SDN BHD 2.1") == "PRINT EXPERT SDN BHD")
        #expect(ReceiptParser.normalizedName("KEDAI MAJU SDN 8HD 28-05") == "KEDAI MAJU SDN BHD")
        for kept in ["TRIPLE SIX POINT ENTERPRISE 666", "2 APPLE PIE 22,000", "#1 NOODLE HOUSE", "DOUGLAS BURGERS #15"] {
            #expect(ReceiptParser.normalizedName(kept) == kept, "\(kept)")
        }
        let labels = ReceiptFieldFeatures.documentLabelWords
        #expect(ReceiptFieldFeatures.opensWithALabel("CASHIER [P.NISANTHI] MACHINE [003]", labels))
    }

    /// A zero alone before a word is the one-letter word O that OCR read as a digit; other numbers open names as
    /// printed.
    @Test func aZeroOpeningANameIsTheLetterO() {
        #expect(ReceiptParser.normalizedName("0 Cantinho Tidal") == "O Cantinho Tidal")
        #expect(ReceiptParser.normalizedName("0 SOLE MIO") == "O SOLE MIO")
        for kept in ["0 123 STORE", "7 ELEVEN", "99 SPEED MART S/B", "00 CAFE"] {
            #expect(ReceiptParser.normalizedName(kept) == kept, "\(kept)")
        }
    }

    @Test func aLookAlikeLetterInsideANumberAndASpacedPossessive() {
        #expect(ReceiptParser.addressReadingFixes("LOT 17S77, LEYBRIFI PLAZA") == "LOT 17577, LEYBRIFI PLAZA")
        #expect(ReceiptParser.addressReadingFixes("NO 56, LORONG 2, 229l8 STONINGZO") == "NO 56, LORONG 2, 22918 STONINGZO")
        for kept in ["JALAN SS21/58", "LOT 1S", "NO. 2B, JALAN 3", "UNIT 12B"] {
            #expect(ReceiptParser.addressReadingFixes(kept) == kept, "\(kept)")
        }
        #expect(ReceiptParser.normalizedName("INGMI 'S LIQUORS") == "INGMI'S LIQUORS")
        #expect(ReceiptParser.normalizedName("Friendly Red' s") == "Friendly Red's")
        let noise = ReceiptParser.lexicon.headerNoise
        #expect(ReceiptFieldFeatures.isGreeting("WELCOME TO", noise))
        #expect(ReceiptFieldFeatures.isGreeting("WILLKOMMEN", noise))
        #expect(!ReceiptFieldFeatures.isGreeting("WELCOME 2", noise))
        #expect(!ReceiptFieldFeatures.isGreeting("LL25 3LS", noise))
    }

    @Test func aBritishPostcodeGetsBackTheSpaceOCRLost() {
        #expect(ReceiptParser.ukPostcodeSpaced("134 KATEN AVENUE DENVILLEBRI LN66AU") == "134 KATEN AVENUE DENVILLEBRI LN6 6AU")
        #expect(ReceiptParser.ukPostcodeSpaced("10 Downing St, London SW1A2AA") == "10 Downing St, London SW1A 2AA")
        #expect(ReceiptParser.ukPostcodeSpaced("Dewick EP171DN, UK") == "Dewick EP17 1DN, UK")
        #expect(ReceiptParser.ukPostcodeSpaced("75 Algorfi Way Tamberg LA28 SWL") == "75 Algorfi Way Tamberg LA28 5WL")
        // Spaced already, or other codes: as printed.
        for kept in ["Anla LR28 1EF", "JALAN SS21/58", "LOT 1851-A", "UNIT 2A1BC ROAD", "K1A 0B1"] {
            #expect(ReceiptParser.ukPostcodeSpaced(kept) == kept, "\(kept)")
        }
    }

    /// Japan's postal mark read as a look-alike before the postcode that opens a Japanese address is the mark again;
    /// a mark OCR dropped is not put back, and other codes stay.
    @Test func japansPostalMarkReadAsALookAlikeIsTheMark() {
        #expect(ReceiptParser.postalMarkRead("F229-5214 兵庫県神戸市中央区日吉丘9-3") == "〒229-5214 兵庫県神戸市中央区日吉丘9-3")
        #expect(ReceiptParser.postalMarkRead("￥603-5717 京都府京都市北区") == "〒603-5717 京都府京都市北区")
        #expect(ReceiptParser.postalMarkRead("甲254-5839 神奈川県平塚市") == "〒254-5839 神奈川県平塚市")
        for kept in ["901-3814 宮城県 仙台市青葉区西町5-21-1", "〒764-3408 埼玉県川口市", "F229-5214 Main Street",
                     "LOT 1851-A JALAN KPB 6"] {
            #expect(ReceiptParser.postalMarkRead(kept) == kept, "\(kept)")
        }
        // Through the address's reading fixes.
        #expect(ReceiptParser.addressReadingFixes("F229-5214 兵庫県神戸市") == "〒229-5214 兵庫県神戸市")
        // On a line of its own over the address, where the ranker saw no postcode in it: it opens the address.
        for mark in ["T", "〒"] {
            let r = receipt([
                Fixture.line(20, "ローソン 京橋駅前店", x: 160, h: 24), Fixture.line(48, "\(mark)619-4204", x: 200),
                Fixture.line(70, "埼玉県 川口市桜台2丁目16番11号", x: 120), Fixture.line(92, "スハプラザ 6F", x: 200),
                Fixture.line(114, "TEL 048-120-0375", x: 180), Fixture.line(150, "おにぎり 鮭"), (150, 16, [(480, "160円")]),
                Fixture.line(172, "牛乳 1000ml"), (172, 16, [(480, "308円")]),
                Fixture.line(200, "合計"), (200, 16, [(480, "468円")]),
            ])
            #expect(r.merchant.address == "〒619-4204 埼玉県 川口市桜台2丁目16番11号 スハプラザ 6F", "\(mark)")
        }
    }

    /// A US state's letter read as its look-alike digit before the ZIP code is the letter again, when one state reads
    /// so; a unit's code, a state read right and a code before no ZIP stay.
    @Test func aUSStateReadWithADigitIsItsLetters() {
        #expect(ReceiptParser.usStateRead("197 N Berwen Ave, Raten, 0R 17286") == "197 N Berwen Ave, Raten, OR 17286")
        #expect(ReceiptParser.usStateRead("Chicago, 1L 60601-1234") == "Chicago, IL 60601-1234")
        #expect(ReceiptParser.usStateRead("Columbus 0H 43215") == "Columbus OH 43215")
        for kept in ["Raten, OR 17286", "UNIT A1 12345 MAIN", "Suite 2B, Austin TX 78701", "LOT 0R 123"] {
            #expect(ReceiptParser.usStateRead(kept) == kept, "\(kept)")
        }
    }

    /// A street word of two letters read with a look-alike digit after the street's name, in a US address, is the word.
    @Test func aUSStreetWordReadWithADigitIsTheWord() {
        #expect(ReceiptParser.usStreetWordRead("6425 Wenraul P1 Denville, NJ 96007") == "6425 Wenraul Pl Denville, NJ 96007")
        #expect(ReceiptParser.addressReadingFixes("6425 Wenraul P1 Denville, NJ 96007") == "6425 Wenraul Pl Denville, NJ 96007")
        #expect(ReceiptParser.usStreetWordRead("12 MAIN 5T, SPRINGFIELD, IL 62704") == "12 MAIN ST, SPRINGFIELD, IL 62704")
        // A street line read on its own, its house number first.
        #expect(ReceiptParser.usStreetWordRead("6815 W Hastonha P1") == "6815 W Hastonha Pl")
        #expect(ReceiptParser.usStreetWordRead("6815 W Hastonha P1 Suite 4") == "6815 W Hastonha P1 Suite 4")
        for kept in ["LOT P1, JALAN 5, 43000 KAJANG", "Unit B1 Main St, Austin TX 78701", "Suite 5A, Austin, TX 78701"] {
            #expect(ReceiptParser.usStreetWordRead(kept) == kept, "\(kept)")
        }
    }

    @Test func addressPunctuationSlipsArePutRight() {
        #expect(ReceiptParser.addressPunctuation("NO.32 & 33. JALAN SR 1/9. SEKSYEN 9. 43300 SERI KEMBANGAN. SELANGOR")
                == "NO.32 & 33, JALAN SR 1/9, SEKSYEN 9, 43300 SERI KEMBANGAN, SELANGOR")
        #expect(ReceiptParser.addressPunctuation("LEBUHRAYA UTARA SELATAN,, 84600 PAGOH. JOHOR..") == "LEBUHRAYA UTARA SELATAN, 84600 PAGOH, JOHOR.")
        // Abbreviations keep their stops, and spacing stays as printed.
        #expect(ReceiptParser.addressPunctuation("NO. 5 JLN. MAWAR, 81100 JB") == "NO. 5 JLN. MAWAR, 81100 JB")
        #expect(ReceiptParser.addressPunctuation("1234 Ocean Blvd. Suite 5 Long Beach, CA 90802") == "1234 Ocean Blvd. Suite 5 Long Beach, CA 90802")
        #expect(ReceiptParser.addressPunctuation("27,JALAN DEDAP 13") == "27,JALAN DEDAP 13")
        #expect(ReceiptParser.addressPunctuation("VENCASGORSTR. 206 55838 YORBRI") == "VENCASGORSTR. 206 55838 YORBRI")
        // A street abbreviation read with a digit for its letter (`J1.`, Indonesia's `Jl.`); a unit's `B1` stays.
        #expect(ReceiptParser.addressPunctuation("J1. Ravel No. 170 Nelyorsan 44547") == "Jl. Ravel No. 170 Nelyorsan 44547")
        #expect(ReceiptParser.addressPunctuation("Unit B1 Jalan Tonven") == "Unit B1 Jalan Tonven")
        #expect(ReceiptParser.addressPunctuation("Kerkstr. 12, 1017 GC Amsterdam") == "Kerkstr. 12, 1017 GC Amsterdam")
        // A letter O among a postcode's digits is a zero; words are left alone.
        #expect(ReceiptParser.addressPunctuation("456OO BATANG BERJUNTAI, OOTY") == "45600 BATANG BERJUNTAI, OOTY")
        // A space after a hyphen inside a number (`4454- 086`) is OCR's; a dash between words stays.
        #expect(ReceiptParser.addressReadingFixes("R. DA ROSA, 241 4454- 086 MAIA") == "R. DA ROSA, 241 4454-086 MAIA")
        #expect(ReceiptParser.addressReadingFixes("Tortor - SP CEP 70175-913") == "Tortor - SP CEP 70175-913")
    }

    @Test func lotNumberIsNotAPostalCode() {
        let r = receipt([
            Fixture.line(20, "ISNI PETRO TRADING", h: 20),
            Fixture.line(44, "Company No:002643278-A"),
            Fixture.line(64, "LOT 2685 JLN GENTING KLANG"),
            Fixture.line(84, "53300 KL Site 1066"),
            Fixture.line(104, "Telephone 03- 40212008"),
            (200, 16, [(20, "TOTAL"), (400, "35.10")]),
        ])
        #expect(r.merchant.address == "LOT 2685 JLN GENTING KLANG 53300 KL Site 1066")
    }

    @Test func nameOverTwoLinesBeforeItsRegistrationNumber() {
        let r = receipt([
            Fixture.line(20, "RESTAURANT JIAWEI", h: 20),
            Fixture.line(44, "JIAWEI HOUSE", h: 20),
            Fixture.line(68, "002693074-K"),
            Fixture.line(88, "13, JLN TASIK UTAMA 8"),
            Fixture.line(108, "57000 KL"),
            (200, 16, [(20, "TOTAL"), (400, "35.10")]),
        ])
        // Kept as the aim; the field rankers retrained on SROIE, photos, CORD and generated receipts (fifth session)
        // choose otherwise on this hand-made layout: issue #11.
        withKnownIssue("learned scores differ from the old rule here") {
            #expect(r.merchant.name == "RESTAURANT JIAWEI JIAWEI HOUSE")
        }
        #expect(r.merchant.address == "13, JLN TASIK UTAMA 8 57000 KL")
    }

    @Test func registrationNumberMarksTheNameAndShortNumbersStayInIt() {
        let marked = receipt([
            Fixture.line(20, "99 SPEED MART S/D (519537-X)", h: 16),
            Fixture.line(40, "TAMAN BERKELEY", h: 16),
            Fixture.line(60, "41150 KLANG, SELANGOR"),
            (200, 16, [(20, "TOTAL"), (400, "5.10")]),
        ])
        #expect(marked.merchant.name == "99 SPEED MART S/D")
        let numbered = receipt([
            Fixture.line(20, "A03138"),
            Fixture.line(40, "Triple Six Point Enterprise 666", h: 20),
            Fixture.line(64, "No 14 & 16 Jalan Permas 4/3"),
            (200, 16, [(20, "TOTAL"), (400, "5.10")]),
        ])
        #expect(numbered.merchant.name == "Triple Six Point Enterprise 666")
    }

    @Test func handwritingAboveAndUnderscoresAreNotPartOfTheName() {
        let r = receipt([
            Fixture.line(20, "tan chay yee", h: 20),
            Fixture.line(44, "S.H.H. MOTOR (SUNGAI RENGIT) SDN. BHD.", h: 20),
            Fixture.line(70, "NO. 343, JALAN KURAU,"),
            (200, 16, [(20, "TOTAL"), (400, "5.10")]),
        ])
        #expect(r.merchant.name == "S.H.H. MOTOR (SUNGAI RENGIT) SDN. BHD.")
        #expect(ReceiptParser.normalizedName("AIK_HUAT HARDWARE") == "AIK HUAT HARDWARE")
        #expect(ReceiptParser.normalizedName("BOOK TA _K (TAMAN DAYA) SDN BHD") == "BOOK TA .K (TAMAN DAYA) SDN BHD")
        // A possessive's s that OCR set apart; a quoted word and a title's apostrophe stay apart.
        #expect(ReceiptParser.normalizedName("Friendly Red’ s") == "Friendly Red’s")
        #expect(ReceiptParser.normalizedName("JOE' S DINER") == "JOE'S DINER")
        #expect(ReceiptParser.normalizedName("DATO' SRI TRADING") == "DATO' SRI TRADING")
    }

    @Test func aLegalFormMisreadInOneLookAlikeCharacterIsMended() {
        #expect(ReceiptParser.normalizedName("99 SPEED MART 5/B") == "99 SPEED MART S/B")
        #expect(ReceiptParser.normalizedName("AMANO MALAYSIA SON BHD") == "AMANO MALAYSIA SDN BHD")
        #expect(ReceiptParser.normalizedName("Kedai Maju Sdn 8hd") == "Kedai Maju Sdn Bhd")
        #expect(ReceiptParser.normalizedName("Nordlicht GM8H") == "Nordlicht GMBH")
        // A pair the learned table does not hold (OCR never took 6 for G in its data) is left as printed.
        #expect(ReceiptParser.normalizedName("Nordlicht 6MBH") == "Nordlicht 6MBH")
        // Already a form, a difference that is no look-alike, or a short one-word form: left as printed.
        #expect(ReceiptParser.normalizedName("ACME TRADING SDN BHD") == "ACME TRADING SDN BHD")
        #expect(ReceiptParser.normalizedName("SUBANG HEALTHCARE SIN BHD") == "SUBANG HEALTHCARE SIN BHD")
        #expect(ReceiptParser.normalizedName("CAFE 5A") == "CAFE 5A")
        #expect(ReceiptParser.normalizedName("JOE'S CO") == "JOE'S CO")
    }

    @Test func amountWithASpaceAfterItsPointAndItemsThatAddUpToIt() {
        // No total label: `CASH` over `RM 170. 00`, which the two items add up to.
        let r = receipt([
            Fixture.line(20, "RESTAURANT SIN DU", h: 20),
            Fixture.line(44, "K3-113, JL IBRAHIM SULTAN"),
            (100, 16, [(20, "DPT.05"), (300, "RM"), (400, "149.00")]),
            (120, 16, [(20, "DPT.04"), (300, "RM"), (400, "21.00")]),
            Fixture.line(150, "CASH"),
            (170, 16, [(300, "RM"), (400, "170."), (440, "00")]),
        ])
        #expect(r.total == "170.00")
        // The space before the point instead: `32 .92` is one amount; a one-digit count before cents stays a count.
        let lines = DocumentExtractor(detector: try! DataDetector()).analyzer.analyze(Fixture.document(Fixture.page([
            (100, 16, [(20, "Draft"), (80, "Beer"), (360, "32"), (400, ".92")]),
            (120, 16, [(20, "Bag"), (360, "2"), (400, ".50")]),
        ])))
        #expect(lines.map { $0.amount?.decimalString } == ["32.92", "0.50"])
        let listed = receipt([
            Fixture.line(20, "BURGER BARN", h: 20),
            (100, 16, [(20, "Burger"), (400, "5.99")]),
            (120, 16, [(20, "Fries"), (400, "2.49")]),
            (140, 16, [(20, "Sub/Tt1"), (400, "8.48")]),
            (160, 16, [(20, "Tax"), (400, "0.70")]),
            (180, 16, [(20, "*DRV"), (80, "THRU"), (400, "9.18")]),
        ])
        // With a subtotal printed, the items' sum is the subtotal, not what was due.
        #expect(listed.total == "9.18")
    }

    @Test func abbreviatedTotalLabel() {
        let r = receipt([
            Fixture.line(20, "KEDAI MAKAN SDN BHD", h: 20),
            (100, 16, [(20, "Hamper"), (400, "80.00")]),
            (115, 16, [(20, "Member"), (100, "discount"), (400, "-11.13")]),
            (130, 16, [(20, "Sub"), (60, "Total"), (300, "RM"), (400, "68.87")]),
            (150, 16, [(20, "GST/TAX"), (100, "6%"), (300, "RM"), (400, "4.13")]),
            (170, 16, [(20, "TOT,"), (60, ":"), (300, "RM"), (400, "73.00")]),
        ])
        #expect(r.total == "73.00")
    }

    @Test func streetWordReadWithDigitsAndDashBeforeTheLegalSuffix() {
        #expect(ReceiptParser.addressPunctuation("10T 1851-A & 1851-B. JALAN KPB 6") == "LOT 1851-A & 1851-B, JALAN KPB 6")
        #expect(ReceiptParser.addressPunctuation("1.0T 5, JALAN 1O") == "LOT 5, JALAN 1O")
        let r = receipt([
            Fixture.line(20, "POPULAR BOOK-", h: 20),
            Fixture.line(44, "CO. (M) SDN BHD", h: 20),
            Fixture.line(70, "NO 8, JALAN 7/118B"),
            (200, 16, [(20, "TOTAL"), (400, "5.10")]),
        ])
        #expect(r.merchant.name == "POPULAR BOOK CO. (M) SDN BHD")
    }

    @Test func amountsPrintedAsPlainIntegers() {
        // Rupiah without separators: plain numbers are amounts once the summary lines are printed that way.
        let r = receipt([
            (20, 16, [(20, "1"), (40, "KING"), (100, "DEAL"), (160, "FISH"), (400, "25000")]),
            (40, 16, [(20, "NET"), (70, "SALES"), (400, "25000")]),
            (60, 16, [(20, "TAX"), (400, "2500")]),
            (80, 16, [(20, "AMOUNT"), (100, "DUE"), (400, "27500")]),
            (100, 16, [(20, "TENDERED"), (400, "100000")]),
            (120, 16, [(20, "CHANGE"), (400, "72500")]),
        ])
        #expect(r.total == "27500")
        #expect(r.payment?.change == "72500")
        #expect(r.items.first?.amount == "25000")
        // Elsewhere a plain number stays a count or a code.
        #expect(Amount.parse("27500") == nil)
        #expect(Amount.parse("27500", wholeUnits: true) == nil)
        #expect(Amount.parse("27500", wholeUnits: true, bare: true) == Amount(minor: 27500, scale: 0))
        #expect(Amount.parse("12", wholeUnits: true, bare: true) == nil)
        #expect(Amount.parse("Rp 116000.00") == Amount(minor: 11_600_000, scale: 2))
        #expect(Amount.parse(" 5.00") == nil)
    }

    @Test func aTotalCutBySpacesOrMisreadIsMendedWhenTheSumsProveIt() {
        func total(_ printed: [String]) -> String? {
            var words: [(Double, String)] = [(20, "TOTAL")]
            for (n, w) in printed.enumerated() { words.append((330 + Double(n) * 50, w)) }
            return receipt([
                (20, 16, [(20, "STEAK"), (80, "FRITES"), (400, "150,00")]),
                (40, 16, [(20, "CAFE"), (400, "27,81")]),
                (60, 16, [(20, "SOUS-TOTAL"), (400, "177,81")]),
                (80, 16, [(20, "TVA"), (70, "20%"), (400, "35,56")]),
                (100, 16, words),
                (120, 16, [(20, "Carte"), (90, "bancaire"), (400, "215,00")]),
                (140, 16, [(20, "Rendu"), (400, "1,63")]),
            ]).total
        }
        // The subtotal and tax make 213.37, and so do the payment less its change.
        #expect(total(["213,3", "7"]) == "213.37")
        #expect(total(["2", "13,37"]) == "213.37")
        // A digit read as its look-alike letter.
        #expect(total(["2I3,37"]) == "213.37")
        #expect(total(["2", "I3,37"]) == "213.37")
        // Joined, the pieces must make what the sums make: otherwise the reading stands.
        #expect(total(["2", "13,38"]) != "213.38")
        // With no subtotal the cut total line still starts the summary, and the payment proves it.
        let paid = receipt([
            (20, 16, [(20, "STEAK"), (80, "FRITES"), (400, "180,00")]),
            (40, 16, [(20, "CAFE"), (400, "33,37")]),
            (60, 16, [(20, "TOTAL"), (330, "213,3"), (380, "7")]),
            (80, 16, [(20, "Carte"), (90, "bancaire"), (400, "215,00")]),
            (100, 16, [(20, "Rendu"), (400, "1,63")]),
        ])
        #expect(paid.total == "213.37")
        #expect(paid.payment?.change == "1.63")
    }

    /// A total one digit off what the items, the subtotal and the tax agree on is that amount; a payment that makes
    /// the total as read keeps it, and so does a subtotal the items do not make.
    @Test func aTotalOneDigitOffTheAgreeingSumsIsMended() {
        func total(_ printed: String, items: [String] = ["5.55", "8.40"], paid: [String]? = nil) -> String? {
            var rows: [(Double, Double, [(Double, String)])] = [
                (20, 16, [(20, "ROTI"), (80, "CANAI"), (400, items[0])]),
                (40, 16, [(20, "NASI"), (80, "LEMAK"), (400, items[1])]),
                (60, 16, [(20, "SUBTOTAL"), (400, "13.95")]),
                (80, 16, [(20, "GST"), (80, "6%"), (400, "0.84")]),
                (100, 16, [(20, "TOTAL"), (400, printed)]),
            ]
            if let paid { rows += [(120, 16, [(20, "CASH"), (400, paid[0])]), (140, 16, [(20, "CHANGE"), (400, paid[1])])] }
            return receipt(rows).total
        }
        #expect(total("24.79") == "14.79")
        #expect(total("14.79") == "14.79")
        #expect(total("24.79", paid: ["30.00", "5.21"]) == "24.79")
        #expect(total("24.79", items: ["5.55", "9.40"]) == "24.79")
        #expect(total("25.78") == "25.78")  // two digits off
        // A bill's total with a tip under it and the total with the tip, one digit apart: nothing was misread.
        let tipped = receipt([
            (20, 16, [(20, "Burger"), (400, "30.00")]),
            (40, 16, [(20, "Salad"), (400, "20.00")]),
            (60, 16, [(20, "Subtotal"), (400, "50.00")]),
            (80, 16, [(20, "Tax"), (80, "13%"), (400, "6.83")]),
            (100, 16, [(20, "Total"), (400, "56.83")]),
            (120, 16, [(20, "Tip"), (400, "10.00")]),
            (140, 16, [(20, "Total"), (400, "66.83")]),
        ])
        #expect(tipped.total == "56.83")
        #expect(tipped.tip == "10.00")
        // With the tax included in the prices, the bill before the tip agrees with the items: no warning.
        let included = try! extractor.extract(
            Fixture.document(Fixture.page([
                (20, 16, [(20, "2"), (40, "x"), (60, "Rösti"), (400, "49.00")]),
                (40, 16, [(20, "1"), (40, "x"), (60, "Geschnetzeltes"), (400, "38.50")]),
                (60, 16, [(20, "2"), (40, "x"), (60, "Bier"), (400, "16.00")]),
                (80, 16, [(20, "Total"), (80, "CHF"), (400, "103.50")]),
                (100, 16, [(20, "Trinkgeld"), (400, "6.50")]),
                (120, 16, [(20, "Bezahlt"), (80, "CHF"), (400, "110.00")]),
                (140, 16, [(20, "inkl."), (80, "8.1%"), (140, "MWST"), (400, "7.76")]),
            ])), as: .receipt)
        #expect(included.receipt?.total == "103.50")
        #expect(included.receipt?.tip == "6.50")
        #expect(!included.warnings.contains { $0.code == "receipt-total-mismatch" }, "\(included.warnings)")
    }

    @Test func aRoundedTotalIsTheAmountDue() {
        // The rounded amount printed under the rounding line, with no label of its own (`RH` is `RM` misread).
        let rounded = receipt([
            (20, 16, [(20, "88888"), (100, "1"), (300, "10.00"), (400, "10.00")]),
            (40, 16, [(20, "62483"), (100, "1"), (300, "50.31"), (400, "50.31")]),
            (60, 16, [(20, "TOTAL"), (80, "AMT."), (300, "RM"), (400, "60.31")]),
            (80, 16, [(20, "ROUNDING"), (120, "ADJ."), (400, "-0.01")]),
            (100, 16, [(300, "RH"), (400, "60.30")]),
            (120, 16, [(20, "CASH"), (300, "RM"), (400, "70.30")]),
            (140, 16, [(20, "CHANGE"), (300, "RM"), (400, "10.00")]),
        ])
        #expect(rounded.total == "60.30")
        #expect(rounded.rounding == "-0.01")
        #expect(rounded.provenance["rounding"]?.text == "-0.01")
        // The items may make the total before its rounding.
        #expect(ReceiptParser.itemSumTargets(rounded)?.contains(6031) == true)
        // A total line under the rounding already states the amount due.
        let stated = receipt([
            (20, 16, [(20, "BATTERY"), (100, "2"), (200, "*"), (300, "2.50"), (400, "5.00")]),
            (40, 16, [(20, "Total"), (400, "5.00")]),
            (60, 16, [(20, "Rounding"), (120, "Adjustment"), (400, "0.03")]),
            (80, 16, [(20, "5.03")]),
            (100, 16, [(20, "Total"), (80, "After"), (140, "Rounding"), (400, "5.00")]),
            (120, 16, [(20, "Cash"), (400, "10.00")]),
            (140, 16, [(20, "CHANGE"), (400, "5.00")]),
        ])
        #expect(stated.total == "5.00")
        // The rounding printed without its sign: the amount above it that it makes the total from gives the sign.
        let unsigned = receipt([
            (20, 16, [(20, "BATTERY"), (100, "2"), (200, "*"), (300, "30.16"), (400, "60.32")]),
            (40, 16, [(20, "Total"), (80, "Incl"), (140, "GST"), (400, "60.32")]),
            (60, 16, [(20, "Rounding"), (120, "Adj"), (400, "0.02")]),
            (80, 16, [(20, "Total"), (80, "Payable"), (400, "60.30")]),
            (100, 16, [(20, "Cash"), (400, "60.30")]),
        ])
        #expect(unsigned.total == "60.30")
        #expect(unsigned.rounding == "-0.02")
        // Unsigned, and the rounded amount under it with no label: the sign the amounts around it give makes that
        // amount the one due.
        let unlabelled = receipt([
            (20, 16, [(20, "88888"), (100, "1"), (300, "10.00"), (400, "10.00")]),
            (40, 16, [(20, "62483"), (100, "1"), (300, "50.32"), (400, "50.32")]),
            (60, 16, [(20, "TOTAL"), (80, "AMT."), (300, "RM"), (400, "60.32")]),
            (80, 16, [(20, "ROUNDING"), (120, "ADJ."), (400, "0.02")]),
            (100, 16, [(300, "RH"), (400, "60.30")]),
            (120, 16, [(20, "CASH"), (300, "RM"), (400, "70.30")]),
            (140, 16, [(20, "CHANGE"), (300, "RM"), (400, "10.00")]),
        ])
        #expect(unlabelled.total == "60.30")
        #expect(unlabelled.rounding == "-0.02")
        // The mend of the total reads the rounding as signed: from the total above it, 60.32, to 60.30 under it.
        let lines = extractor.analyzer.analyze(Fixture.document(Fixture.page([
            (20, 16, [(20, "62483"), (100, "1"), (300, "60.32"), (400, "60.32")]),
            (40, 16, [(20, "TOTAL"), (80, "AMT."), (300, "RM"), (400, "60.32")]),
            (60, 16, [(20, "ROUNDING"), (120, "ADJ."), (400, "0.02")]),
            (80, 16, [(300, "RH"), (400, "60.30")]),
        ])))
        let roles = lines.map(\.role)
        let signed = ReceiptParser.rounding(lines, roles: roles)
        #expect(signed?.cents == -2)
        var due = Receipt()
        due.total = "60.32"
        ReceiptParser().mendRoundedTotal(lines, roles: roles, rounding: signed, into: &due)
        #expect(due.total == "60.30")
        // Right under the rounding, the amount due may stand on a line of any role but the change's, though a total
        // line is printed further down (a tax table's): `Amount To Be Paid` (a payment's word), `Total After Adj
        // Incl GST` (a tax's word).
        for label in ["Amount To Be Paid :", "Total After Adj Incl GST"] {
            let tabled = extractor.analyzer.analyze(Fixture.document(Fixture.page([
                (20, 16, [(20, "Total"), (300, ":"), (400, "25.44")]),
                (40, 16, [(20, "Rounding"), (120, "Adjustment:"), (400, "0.01")]),
                Fixture.line(60, label), (60, 16, [(400, "25.45")]),
                (80, 16, [(20, "Cash"), (400, "50.00")]),
                (100, 16, [(20, "Total"), (400, "1.44")]),
            ])))
            var read = Receipt()
            read.total = "25.44"
            let tabledRoles = tabled.map(\.role)
            ReceiptParser().mendRoundedTotal(
                tabled, roles: tabledRoles, rounding: ReceiptParser.rounding(tabled, roles: tabledRoles), into: &read)
            #expect(read.total == "25.45", "\(label)")
        }
        // Printed with its sign, it is taken as printed.
        let printed = extractor.analyzer.analyze(Fixture.document(Fixture.page([
            (20, 16, [(20, "TOTAL"), (400, "60.28")]), (40, 16, [(20, "ROUNDING"), (400, "0.02")]), (60, 16, [(300, "RH"), (400, "60.30")]),
        ])))
        #expect(ReceiptParser.rounding(printed, roles: printed.map(\.role))?.cents == 2)
    }

    @Test func aTotalThatMakesNoSumGivesWayWhenTwoSumsAgree() {
        func read(total: String) -> (Receipt, [Finding]) {
            let doc = try! extractor.extract(Fixture.document(Fixture.page([
                (20, 16, [(20, "SHOES"), (400, "100.00")]),
                (40, 16, [(20, "SOCKS"), (400, "6.10")]),
                (60, 16, [(20, "Sub"), (60, "Total"), (120, "(RM)"), (400, "106.10")]),
                (80, 16, [(20, "Total"), (70, "GST"), (120, "(RM)"), (400, "6.37")]),
                (100, 16, [(20, "Rounding"), (120, "(RM)"), (400, "-0.02")]),
                (120, 16, [(20, "Total"), (120, "(RM)"), (400, total)]),
                (140, 16, [(20, "CASH"), (400, "112.45")]),
                (160, 16, [(20, "Change"), (120, "(RM)"), (400, "0.00")]),
            ])), as: .receipt)
            return (doc.receipt!, doc.warnings)
        }
        // 106.10 + 6.37 - 0.02 is what was paid: the total read, 112.46, is no sum of the receipt.
        let (misread, warnings) = read(total: "112.46")
        #expect(misread.total == "112.45")
        #expect(warnings.contains { $0.code == "receipt-total-from-sums" && $0.field == "receipt.total" })
        // A total the sums make stands.
        let (right, none) = read(total: "112.45")
        #expect(right.total == "112.45")
        #expect(!none.contains { $0.code == "receipt-total-from-sums" })
        // Taxes included and no rounding: the subtotal alone is what was paid, and the cash tendered is no total.
        let lines = extractor.analyzer.analyze(Fixture.document(Fixture.page([
            (20, 16, [(20, "2"), (50, "TAU"), (100, "SAR"), (160, "PNEAH"), (400, "25.00")]),
            (40, 16, [(20, "SubTotal"), (400, "25.00")]),
            (60, 16, [(20, "Net"), (70, "Total"), (400, "25."), (440, "J")]),
            (80, 16, [(20, "Cash"), (400, "50.00")]),
            (100, 16, [(20, "Change"), (400, "25.00")]),
        ])))
        var included = ReceiptParser().parse(lines).0
        #expect(included.payment?.tendered == "50.00")
        included.total = "50.00"
        let found = ReceiptParser().mendTotalByPayment(
            rounding: ReceiptParser.rounding(lines, roles: lines.map(\.role)), into: &included)
        #expect(included.total == "25.00")
        #expect(found.map(\.code) == ["receipt-total-from-sums"])
    }

    @Test func withNoSubtotalTheItemsAndThePaymentProveTheTotal() {
        // `R$25,20` read `R525,29`: the one item and the cash less the change both make 25,20.
        func read(total: String) -> (Receipt, [Finding]) {
            let doc = try! extractor.extract(Fixture.document(Fixture.page([
                (20, 16, [(20, "Galão"), (400, "25,20")]),
                (40, 16, [(20, "Total"), (400, total)]),
                (60, 16, [(20, "Dinheiro"), (400, "30,00")]),
                (80, 16, [(20, "Troco"), (400, "4,80")]),
            ])), as: .receipt)
            return (doc.receipt!, doc.warnings)
        }
        let (misread, warnings) = read(total: "R525,29")
        #expect(misread.total == "25.20")
        #expect(warnings.contains { $0.code == "receipt-total-from-sums" && $0.message.contains("items make") })
        // A total the sums make stands.
        let (right, none) = read(total: "25,20")
        #expect(right.total == "25.20")
        #expect(!none.contains { $0.code == "receipt-total-from-sums" })
    }

    @Test func aTotalCutAfterItsCurrencySignIsJoinedWhenTheItemsMakeIt() {
        // `R$93,41` read `R$93, 41`: the two tokens, the sign left off, make the items' sum.
        let r = receipt([
            (20, 16, [(20, "Café"), (400, "37,35")]),
            (40, 16, [(20, "Bife"), (400, "46,74")]),
            (60, 16, [(20, "Bacalhau"), (400, "9,32")]),
            (80, 16, [(20, "TOTAL"), (360, "R$93,"), (420, "41")]),
        ])
        #expect(r.total == "93.41")
        #expect(ReceiptParser.numberTokens(["TOTAL", "R$93,", "41"]) == ["93,", "41"])
        #expect(ReceiptParser.numberTokens(["TOTAL", "RM4.", "20"]) == ["4.", "20"])
        // A word of letters before the number is no currency sign.
        #expect(ReceiptParser.numberTokens(["TOTAL", "No93,", "41"]) == ["41"])
    }

    @Test func aCurrencySignAfterTheAmountAsItsOwnWord() {
        for sign in ["£", "EUR", "€", "RM"] {
            let r = receipt([
                (20, 16, [(20, "MILK"), (80, "1"), (100, "GAL"), (400, "28.32")]),
                (40, 16, [(20, "VAT"), (400, "6.23")]),
                (60, 16, [(20, "Total"), (80, "to"), (110, "pay"), (360, "34.55"), (420, sign)]),
                (80, 16, [(20, "Card"), (400, "34.55")]),
            ])
            #expect(r.total == "34.55", "\(sign)")
            #expect(r.tax.map(\.amount) == ["6.23"], "\(sign)")
        }
    }

    @Test func aShortDateIsReadYearFirstWhereTheReceiptsLanguageWritesItSo() {
        func date(_ rows: [(String, String?)]) -> String? {
            receipt(rows.enumerated().map { n, row in
                (Double(20 + 20 * n), 16, [(20, row.0)] + (row.1.map { [(400.0, $0)] } ?? []))
            }).date
        }
        // A Swedish receipt prints `yy-mm-dd`; the same digits on an English one are day first.
        let swedish = date([
            ("KVITTO", nil), ("Kassör: Anna", nil), ("23-01-13", nil), ("Kanelbulle", "25,00"), ("Delsumma", "25,00"),
            ("Moms 12%", "2,68"), ("Att betala", "25,00"), ("Kontant", "30,00"), ("Växel", "5,00"),
        ])
        #expect(swedish == "2023-01-13")
        let english = date([
            ("RECEIPT", nil), ("Cashier: Anna", nil), ("23-01-13", nil), ("Muffin", "25.00"), ("Subtotal", "25.00"),
            ("VAT 12%", "2.68"), ("Total", "25.00"), ("Cash", "30.00"), ("Change", "5.00"),
        ])
        #expect(english == "2013-01-23")
    }

    @Test func eachLanguagesPaymentChangeAndSubtotalWordsAreRead() {
        func slip(_ rows: [(String, String?)]) -> Receipt {
            receipt(rows.enumerated().map { n, row in
                (Double(20 + 20 * n), 16, [(20, row.0)] + (row.1.map { [(400.0, $0)] } ?? []))
            })
        }
        // Swedish `Tillbaka` and Danish or Norwegian `Retur` give the change back.
        let swedish = slip([
            ("KVITTO", nil), ("Kanelbulle", "25,00"), ("Att betala", "25,00"), ("Kontant", "30,00"),
            ("Tillbaka", "5,00"),
        ])
        #expect(swedish.payment?.change == "5.00")
        // The tail of the slip before, above the header, is no article: a cheque paid, the change given back.
        for (tender, change) in [("Chèque", "Monnaie rendue"), ("Kontant", "Retur")] {
            let r = slip([
                (tender, "140,00"), (change, "1,42"), ("Merci", nil), ("BOULANGERIE DU PONT", nil), ("Tarte", "18,65"),
                ("Quiche", "18,92"), ("TOTAL", "37,57"),
            ])
            #expect(r.items.map(\.description) == ["Tarte", "Quiche"], "\(tender)")
        }
        // Japanese `お買上計` is a subtotal.
        let japanese = receipt([
            (20, 16, [(20, "おにぎり"), (400, "¥160")]), (40, 16, [(20, "お茶"), (400, "¥140")]),
            (60, 16, [(20, "お買上計"), (400, "¥300")]), (80, 16, [(20, "合計"), (400, "¥300")]),
        ])
        #expect(japanese.subtotal == "300")
    }

    @Test func aDateWithASpaceReadIntoItBeatsADateLabelledAsNoIssueDate() {
        let r = receipt([
            (20, 16, [(20, "Södra"), (90, "Järnhandel")]), (40, 16, [(20, "2020-05-"), (100, "03"), (140, "21:18")]),
            (60, 16, [(20, "Kaffe"), (400, "16,47")]), (80, 16, [(20, "Total"), (400, "16,47")]),
            (100, 16, [(20, "Printed"), (90, "2020-12-29")]),
        ])
        #expect(r.date == "2020-05-03")
    }

    @Test func theSlipBeforesTailGivesNoTotalOrPayment() {
        // The roll's scan caught the slip before's total, card payment and change over this one's header.
        let rows: [(String, String?)] = [
            ("Gesamtbetrag", "182,68"), ("Kartenzahlung", "185,00"), ("Zurück", "2,32"),
            ("Vielen Dank für Ihren Einkauf", nil), ("Bitte Bon aufbewahren", nil), ("Fieldwick Bäckerei", nil),
            ("Dallaulstr. 132", nil), ("18007 Kamoten", nil), ("USt-IdNr.: DE649696894", nil), ("Beleg-Nr. 63264", nil),
            ("28.06.21", nil), ("Uhrzeit: 21:32:00", nil), ("2 WURST", "38,34"), ("Medium", nil), ("3 Bier 0,5l", "59,85"),
            ("zu zahlen", "98,19"), ("MwSt. 7%", "17,71"), ("Bitte Bon aufbewahren", nil),
        ]
        let page = Fixture.page(rows.enumerated().map { n, row in
            (Double(20 + 22 * n), 16, [(20, row.0)] + (row.1.map { [(400.0, $0)] } ?? []))
        })
        let r = try! extractor.extract(Fixture.document(page), as: .receipt).receipt!
        #expect(r.total == "98.19")
        #expect(r.payment?.tendered == nil && r.payment?.change == nil)
        // Nor its method: the tail's `Kartenzahlung` is how the slip before was paid.
        #expect(r.payment?.method == nil)
        // That tail's amounts are no candidates for this slip's total, whatever the ranker would make of them.
        let analyzed = extractor.analyzer.analyze(Fixture.document(page))
        let p = ReceiptParser.prepared(analyzed)
        let (lines, roles, summaryStart, tail) = (p.lines, p.roles, p.summaryStart, p.tail)
        #expect(tail == 4)
        let candidates = ReceiptFieldFeatures(lines).totalCandidates(
            roles: roles, context: .init(summaryStart: summaryStart, tail: tail))
        #expect(!candidates.isEmpty && candidates.allSatisfy { $0.lines.lowerBound >= tail })
    }

    @Test func theSlipBeforesTailInALanguageNoLocaleKnowsGivesNoArticle() {
        // Made-up words: no role reads the tail's total and change over this slip's shop, its address and its date.
        let rows: [(String, String?)] = [
            ("Lopet", "170.00"), ("Norbergwen", "1.44"), ("Linjuning Anelfi Sankel", nil), ("VAREL KABERG GORVILLE", nil),
            ("Tenquinten 7 Ranmi Center", nil), ("26843 Varsan", nil), ("2024-03-16 18:27", nil),
            ("2 Isyorvar", "39.10"), ("1 Lazofield", "21.65"), ("Tenberg", "60.75"), ("Kelzo 5%", "3.04"),
            ("Labergol", "63.79"), ("Labermi", "65.00"), ("Norbergwen", "1.21"), ("www.dezoden.xx", nil),
        ]
        let page = Fixture.page(rows.enumerated().map { n, row in
            let line = Fixture.line(Double(20 + 22 * n), row.0, h: n == 3 ? 24 : 16)
            return (line.0, line.1, line.2 + (row.1.map { [(400.0, $0)] } ?? []))
        })
        let r = try! extractor.extract(Fixture.document(page), as: .receipt).receipt!
        #expect(r.merchant.name == "VAREL KABERG GORVILLE")
        #expect(r.items.map(\.description) == ["Isyorvar", "Lazofield"])
        #expect(r.items.map(\.amount) == ["39.10", "21.65"])
        #expect(r.total == "63.79")
        // What the ranker takes for a name and an address among the articles leaves them articles: an address with an
        // amount, more than four amounts above, or a count with its price above.
        func top(_ rows: [(String, String?)], name: Range<Int>, address: Range<Int>) -> Int {
            let page = Fixture.page(rows.enumerated().map { n, row in
                let line = Fixture.line(Double(20 + 22 * n), row.0)
                return (line.0, line.1, line.2 + (row.1.map { [(400.0, $0)] } ?? []))
            })
            let p = ReceiptParser.prepared(extractor.analyzer.analyze(Fixture.document(page)))
            return ReceiptParser.slipTop(p.lines, header: (name, address), tail: 0, wholeUnits: p.wholeUnits)
        }
        let body: [(String, String?)] = Array(rows[3...])
        #expect(top(Array(rows[..<3]) + body, name: 3..<4, address: 4..<6) == 3)
        #expect(top([("Ketoprak", "36.00"), ("Es Teh", "8.00")] + body, name: 2..<3, address: 3..<5) == 2)
        #expect(top([("1x 22.00", "22.00"), ("Ice t grentea", nil)] + body, name: 1..<2, address: 2..<4) == 0)
        #expect(top([("VANBOOLEN", "9.00"), ("DISC ITEM", nil), ("PLASTIK KECIL", "1.00"), ("SENDOK", "5.00")] + body,
                    name: 1..<2, address: 2..<4) == 0)
        #expect(top(["Nasi", "Bakso", "Teh", "Kopi", "Roti"].map { ($0, "15.00") } + body, name: 5..<6, address: 6..<8) == 0)
    }

    @Test func aPaymentsMethodIsReadFromItsWords() {
        for (word, method) in [
            ("MobilePay", "mobile"), ("GOPAY", "mobile"), ("PayPal", "mobile"), ("Gavekort", "voucher"),
            ("Geschenkkarte", "voucher"), ("Chèque", "other"), ("VISA", "card"), ("Cash", "cash"),
            // Germany's debit card by its old name, `CASH` in it (`Geg. EC-Cash`).
            ("Geg. EC-Cash", "card"),
            // A label cut by a stroke, as the roles read it.
            ("Go-Pay", "mobile"),
        ] {
            let r = receipt([
                (20, 16, [(20, "CORNER CAFE")]), (40, 16, [(20, "Latte"), (400, "4.50")]),
                (60, 16, [(20, "Total"), (400, "4.50")]), (80, 16, [(20, word), (400, "4.50")]),
            ])
            #expect(r.payment?.method == method, "\(word)")
        }
        // A wallet's name above the summary names what is sold, not how it was paid.
        let sold = receipt([
            (20, 16, [(20, "CORNER CAFE")]), (40, 16, [(20, "PAYPAL"), (60, "TOPUP"), (400, "4.50")]),
            (60, 16, [(20, "Total"), (400, "4.50")]), (80, 16, [(20, "Cash"), (400, "5.00")]),
        ])
        #expect(sold.payment?.method == "cash")
    }

    @Test func centsAfterACommaKeepTheDayFirst() {
        // A number that reads as a North American phone, but cents after a comma: the day comes first.
        func date(_ a: String, _ b: String) -> String? {
            receipt([
                (20, 16, [(20, "Teléfono"), (120, "626"), (160, "403"), (200, "0453")]),
                (40, 16, [(20, "Fecha:"), (100, "04/05/24")]),
                (60, 16, [(20, "PAELLA"), (400, a)]),
                (80, 16, [(20, "TOTAL"), (400, b)]),
            ]).date
        }
        #expect(date("12,50", "12,50") == "2024-05-04")
        #expect(date("12.50", "12.50") == "2024-04-05")
        // A phone number in pairs is no date that only reads month first (`08.34.79`).
        let lines = extractor.analyzer.analyze(Fixture.document(Fixture.page([
            (20, 16, [(20, "Tel."), (70, "08.34.79.39.78")]), (40, 16, [(20, "Date"), (90, "06/05/2020")]),
        ])))
        #expect(!ReceiptParser.monthFirst(lines))
        // A region the receipt points to orders its dates, whatever its money's sign: a Chilean `$` and RUT.
        func chilean(_ id: String) -> Receipt {
            receipt([
                (20, 16, [(20, "FARMACIA"), (120, "SALUD")]), (40, 16, [(20, id), (80, "89.807.200-2")]),
                (60, 16, [(20, "09-06-2024"), (160, "11:02")]), (80, 16, [(20, "JARABE"), (400, "$1.490")]),
                (100, 16, [(20, "CREMA"), (400, "$5.580")]), (120, 16, [(20, "TOTAL"), (400, "$7.070")]),
            ])
        }
        #expect(chilean("RUT:").date == "2024-06-09")
        #expect(chilean("RUT:").currency == "CLP")
        #expect(chilean("REF:").date == "2024-09-06", "without the sign, the dollar's evidence")
        // Canada writes its dates both ways: its region leaves the dollar's evidence standing.
        let dollars = extractor.analyzer.analyze(Fixture.document(Fixture.page([
            (20, 16, [(20, "Date"), (90, "03/04/2024")]), (40, 16, [(20, "Muffin"), (400, "$3.25")]),
            (60, 16, [(20, "TOTAL"), (400, "$3.25")]),
        ])))
        #expect(ReceiptParser.monthFirst(dollars, region: "CA"))
        #expect(!ReceiptParser.monthFirst(dollars, region: "CL"))
    }

    @Test func aTipBetweenTwoTotalsInWholeUnits() {
        // The bill, the tip, and the total with it, in whole pesos: the total is the bill's.
        let r = receipt([
            (20, 16, [(20, "LOMO"), (400, "$24.500")]),
            (40, 16, [(20, "PISCO"), (80, "SOUR"), (400, "$14.000")]),
            (60, 16, [(20, "TOTAL"), (400, "$38.500")]),
            (80, 16, [(20, "PROPINA"), (400, "$3.850")]),
            (100, 16, [(20, "TOTAL"), (80, "A"), (110, "PAGAR"), (400, "$42.350")]),
        ])
        #expect(r.total == "38500")
        #expect(r.tip == "3850")
    }

    @Test func oneArticleInWholeUnitsAndACurrencyWithAFullStop() {
        // Two amounts in thousands groups and none with cents: whole units.
        let one = receipt([
            (20, 16, [(20, "ROTI"), (80, "BAKAR"), (400, "176.000")]),
            (40, 16, [(20, "Total"), (400, "176.000")]),
        ])
        #expect(one.total == "176000")
        // `Rp.` before the total, its full stop the abbreviation's.
        let dotted = receipt([
            (20, 16, [(20, "NASI"), (80, "GORENG"), (400, "105.000")]),
            (40, 16, [(20, "ES"), (60, "TEH"), (400, "135.000")]),
            (60, 16, [(20, "SUB"), (60, "TOTAL"), (400, "240.000")]),
            (80, 16, [(20, "Pajak"), (400, "50.400")]),
            (100, 16, [(20, "Total"), (80, "Bayar"), (380, "Rp.290.400")]),
        ])
        #expect(dotted.total == "290400")
        // The rupiah's sign beside a single grouped amount, glued on or after it with its full stop.
        let glued = receipt([(20, 16, [(20, "JAYA"), (80, "TISIL")]), (60, 16, [(20, "Total"), (380, "Rp181.000")])])
        #expect(glued.total == "181000")
        let after = receipt([
            (20, 16, [(20, "Air"), (60, "Mineral"), (400, "105.000")]),
            (40, 16, [(20, "2"), (40, "Sate"), (90, "Ayam"), (400, "144.000")]),
            (60, 16, [(20, "Tax"), (60, "10%"), (400, "12.450")]),
            (80, 16, [(20, "TOTAL"), (90, "BELANJA"), (380, "261.450"), (460, "Rp.")]),
            (100, 16, [(20, "Tunai"), (400, "270.000")]),
        ])
        #expect(after.total == "261450")
    }

    @Test func gluedAndAbbreviatedSummaryLabels() {
        let r = receipt([
            (20, 16, [(20, "THAI"), (80, "ICED"), (130, "TEA")]),
            (40, 16, [(20, "2"), (40, "@20.000"), (400, "40.000")]),
            (60, 16, [(20, "SUB-TOTAL"), (400, "40.000")]),
            (80, 16, [(20, "GRANDTOTAL"), (400, "40.000")]),
            (100, 16, [(20, "CASH"), (400, "100.000")]),
            (120, 16, [(20, "CHANGED"), (400, "60.000")]),
        ])
        #expect(r.total == "40000")
        #expect(r.payment?.change == "60000")
        let counted = receipt([
            Fixture.line(20, "BABY SHOP"),
            (40, 16, [(20, "BUDS"), (80, "CREAM"), (400, "200,000")]),
            (60, 16, [(20, "BUDS"), (80, "CLEANSER"), (400, "270,000")]),
            (80, 16, [(20, "MUSTELA"), (100, "OIL"), (400, "235,000")]),
            (100, 16, [(20, "Qty:"), (60, "3"), (100, "Amount:"), (400, "705,000")]),
        ])
        #expect(counted.total == "705000")
        let short = receipt([
            (40, 16, [(20, "MANUKA"), (100, "HONEY"), (400, "385,000")]),
            (60, 16, [(20, "%-"), (400, "-38,500")]),
            (80, 16, [(20, "TL"), (400, "346,500")]),
            (100, 16, [(20, "CASH"), (400, "346,500")]),
        ])
        #expect(short.total == "346500")
    }

    @Test func gluedTaxLabelNumberedTaxAndASubtotalTheTaxesAddUp() {
        let r = receipt([
            Fixture.line(20, "New Asia Buffet", h: 22),
            Fixture.line(46, "14727 Rinaldi St."),
            (100, 16, [(20, "22"), (50, "Weekend"), (130, "Dinner"), (400, "27.96")]),
            (120, 16, [(20, "Coke"), (400, "3.16")]),
            (140, 16, [(20, "AMOUNT"), (90, ":"), (400, "31.12")]),
            (160, 16, [(20, "TAX(9%):2.80")]),
            (180, 16, [(20, "TOTAL"), (90, ":"), (400, "33.92")]),
        ])
        #expect(r.tax.first?.amount == "2.80")
        #expect(r.total == "33.92")
        #expect(r.subtotal == "31.12")
        let numbered = receipt([
            Fixture.line(20, "CHRIS'S HAMBURGERS", h: 22),
            (100, 16, [(20, "BURGER"), (100, "T1"), (400, "$21.49<")]),
            (120, 16, [(20, "FRIES"), (100, "T1"), (400, "$0.50—")]),
            (140, 16, [(20, "TAX1"), (400, "$1.80")]),
            (160, 16, [(20, "TOTAL"), (400, "$23.79")]),
        ])
        #expect(numbered.items.map(\.amount) == ["21.49", "0.50"])
        #expect(numbered.tax.first?.amount == "1.80")
    }

    @Test func nameBrokenBeforeAJoiningWordAndALogoPrintedAgainInFull() {
        let joined = receipt([
            Fixture.line(20, "Friendly Red's", h: 22),
            Fixture.line(46, "of Windham", h: 22),
            Fixture.line(72, "22 Haverhill Rd"),
            Fixture.line(92, "Windham NH"),
            (200, 16, [(20, "TOTAL"), (400, "12.00")]),
        ])
        #expect(joined.merchant.name == "Friendly Red's of Windham")
        let logo = receipt([
            // The logo's word over the name in full.
            Fixture.line(20, "PASTA", h: 18),
            Fixture.line(46, "Bella Pasta", h: 18),
            Fixture.line(78, "2011 Hewitt Ave"),
            Fixture.line(98, "Everett WA 98201"),
            (200, 16, [(20, "TOTAL"), (400, "12.00")]),
        ])
        #expect(logo.merchant.name == "Bella Pasta")
    }

    @Test func stampAndHandwritingAboveThePrintDontEndTheHeader() {
        // A handwritten note and a stamped number that reads as a phone sit above the name.
        let r = receipt([
            Fixture.line(10, "perr", h: 44),
            Fixture.line(40, "1950 0598", h: 26),
            Fixture.line(80, "Gerbang Alaf Restaurants Sdn Bhd"),
            Fixture.line(100, "(65351-M)"),
            Fixture.line(120, "Level 6, Bangunan TH, Damansara Uptown3"),
            Fixture.line(140, "No.3, Jalan SS21/39,47400 Petaling Jaya"),
            Fixture.line(160, "Tel No. 03-4162-2318"),
            (240, 16, [(20, "TOTAL"), (300, "RM"), (400, "26.60")]),
        ])
        #expect(r.merchant.name == "Gerbang Alaf Restaurants Sdn Bhd")
    }

    /// A `$` read as a 5 (`522.95` for `$22.95`, `56.93` for `$6.93`) and a decimal point read as a
    /// space (`$86 65`), mended only where the receipt's own sums prove it.
    @Test func aDollarReadAsAFiveIsMendedWhenTheSumsProveIt() {
        func lines(_ amounts: [String]) -> [(Double, Double, [(Double, String)])] {
            [Fixture.line(20, "AKIRA SUSHI", h: 20),
             (100, 16, [(20, "Steak"), (400, amounts[0])]),
             (130, 16, [(20, "Noodle"), (400, amounts[1])]),
             (160, 16, [(20, "Sushi"), (75, "Deluxe"), (400, amounts[2])]),
             (190, 16, [(20, "Subtotal")] + amounts[3].split(separator: " ").enumerated().map { (400 + 40 * Double($0.offset), String($0.element)) }),
             (220, 16, [(20, "Tax"), (400, amounts[4])]),
             (250, 16, [(20, "Total:"), (400, amounts[5])])]
        }
        let r = receipt(lines(["522.95", "$43.00", "$20.70", "$86 65", "56.93", "$93.58"]))
        #expect(r.total == "93.58")
        #expect(r.items.map(\.amount) == ["22.95", "43.00", "20.70"])
        #expect(r.subtotal == "86.65")
        #expect(r.tax.map(\.amount) == ["6.93"])
        // Items that no such mend makes add up to the subtotal: the amounts stay as read.
        let kept = receipt(lines(["52.95", "$2.00", "$20.75", "$80.00", "$6.40", "$86.40"]))
        #expect(kept.items.first?.amount == "52.95")
        #expect(kept.subtotal == "80.00")
    }

    /// `Bier 0,5l` read `Bier 0,51`: the engine boxed the number with the name and the price apart, and no whole count
    /// of 0,51 makes 21,40, so the number stays in the name. Boxed with the price, or making the amount, it is a unit
    /// price as before.
    @Test func aSizeBoxedWithTheNameStaysInTheName() {
        func items(_ rows: [(Double, Double, [(Double, String)])]) -> [Receipt.Item] {
            receipt([Fixture.line(20, "GASTHAUS LINDE", h: 20)] + rows + [
                (250, 16, [(20, "SUMME")]), (250, 16, [(400, "26,40")]),
            ]).items
        }
        let apart = items([
            (130, 16, [(20, "Bier"), (60, "0,51")]), (130, 16, [(400, "21,40")]),
            (160, 16, [(20, "Brezel")]), (160, 16, [(400, "5,00")]),
        ])
        #expect(apart.first?.description == "Bier 0,51")
        #expect(apart.first?.unitPrice == nil)
        #expect(apart.first?.amount == "21.40")
        let oneBox = items([
            (130, 16, [(20, "Bier"), (250, "0,51"), (400, "21,40")]),
            (160, 16, [(20, "Brezel"), (400, "5,00")]),
        ])
        #expect(oneBox.first?.description == "Bier")
        #expect(oneBox.first?.unitPrice == "0.51")
        let makesIt = items([
            (130, 16, [(20, "Bier"), (60, "5,35")]), (130, 16, [(400, "21,40")]),
            (160, 16, [(20, "Brezel")]), (160, 16, [(400, "5,00")]),
        ])
        #expect(makesIt.first?.description == "Bier")
        #expect(makesIt.first?.unitPrice == "5.35")
    }
}

extension ReceiptCorrectionsTests {
    /// A VAT breakdown a row to a line (`TOTALT 20% (exkl. moms)  158,96`, `Moms 20%  31,79`, `TOTALT 20% (inkl. moms)
    /// 190,75`), which the arithmetic proves: its net and gross amounts are no taxes, though their labels name the tax,
    /// and the items make the total less the one tax.
    @Test func aVATBreakdownsNetAndGrossAreNoTaxes() {
        let p = Self.priced
        let r = receipt([
            Fixture.line(20, "ZOMERLIN HARING LIVS HB", x: 120, h: 24), Fixture.line(48, "Harrangränd 18", x: 160),
            Fixture.line(70, "2019-11-20 09:11:00", x: 160),
            p(100, "1 Ost", "32,52"), p(122, "1 Vatten", "30,97"), p(144, "KÖTTBULLAR", "110,40"),
            Fixture.line(166, "Utan lök"), p(188, "2 Falukorv", "74,92"), p(210, "Kaffe", "22,12"),
            p(240, "TOTALT 0% :", "124,89"), p(262, "TOTALT 20% (exkl. moms):", "158,96"), p(284, "Moms 20%:", "31,79"),
            p(306, "TOTALT 20% (inkl. moms):", "190,75"), p(328, "Att betala :", "315,64"),
        ])
        #expect(r.total == "315.64")
        #expect(r.tax.map(\.amount) == ["31.79"])
        #expect(r.subtotal == nil)
        #expect(r.items.map(\.amount) == ["32.52", "30.97", "110.40", "74.92", "22.12"], "\(r.items.map(\.description))")
        // Portugal's `c/ IVA` (with VAT) names no inclusion a locale file knows: the gross row is still no tax.
        let pt = receipt([
            Fixture.line(20, "CAFÉ CENTRAL", x: 160, h: 24), Fixture.line(48, "Rua Nova 12", x: 160),
            p(100, "Bica", "17,86"), p(122, "Tosta mista", "76,15"),
            p(160, "TOTAL 0% :", "17,86"), p(182, "TOTAL 22% (s/ IVA):", "76,15"), p(204, "IVA 22%:", "16,75"),
            p(226, "TOTAL 22% (c/ IVA)", "92,90"), p(248, "A pagar:", "110,76"),
        ])
        #expect(pt.total == "110.76")
        #expect(pt.tax.map(\.amount) == ["16.75"])
    }

    /// A column heading that names an article's column (`Description  Total`) starts no summary, though the row under
    /// it, a short name read as digits (`1 0l  32,52` for `1 Øl`), looks like the value of a total's label alone.
    @Test func anArticlesColumnHeadingIsNoTotalsLabel() {
        let p = Self.priced
        let r = receipt([
            Fixture.line(20, "HAVNE KRO", x: 160, h: 24), Fixture.line(48, "Havnegade 4", x: 160),
            (80, 16, [(20, "Description"), (400, "Total")]),
            p(100, "1 0l", "32,52"), p(122, "1 Vand", "30,97"), p(144, "Kaffe", "22,12"),
            p(180, "Total", "85,61"),
        ])
        #expect(r.total == "85.61")
        #expect(r.items.map(\.amount) == ["32.52", "30.97", "22.12"], "\(r.items.map(\.description))")
        // A heading of price columns alone may label a total whose value stands under it.
        let lines = extractor.analyzer.analyze(Fixture.document(Fixture.page([Fixture.line(20, "TOTAL AMOUNT")])))
        #expect(!ReceiptParser.namesItsColumns(lines[0]))
    }
}

extension ReceiptCorrectionsTests {
    /// An article whose amount is not its count times its unit price takes the product when the sums prove it, a count
    /// of one too (`04201674 1 4.40 4.48`: one unit, read two ways); the sums decide which reading is right.
    @Test func anAmountItsCountAndUnitPriceDenyTakesTheirProductWhenTheSumsProveIt() {
        let source = Provenance(text: "", page: 0, boundingBox: nil, confidence: 1)
        func receipt(_ first: (count: String, price: String, amount: String), total: String) -> Receipt {
            var r = Receipt()
            r.items = [
                Receipt.Item(
                    description: "Fizanal", quantity: first.count, unitPrice: first.price, amount: first.amount,
                    source: source),
                Receipt.Item(description: "Rogorven", quantity: "1", unitPrice: "11.74", amount: "11.74", source: source),
            ]
            r.total = total
            r.tax = [Receipt.Tax(amount: "5.98", source: source)]
            _ = ReceiptParser.amountsByTheirProducts(&r)
            return r
        }
        #expect(receipt(("1", "4.40", "4.48"), total: "22.12").items[0].amount == "4.40")
        #expect(receipt(("3", "34.47", "203.42"), total: "121.13").items[0].amount == "103.41")
        // The amount as read makes the sums: it stays, whatever the unit price says.
        #expect(receipt(("1", "4.40", "4.48"), total: "22.20").items[0].amount == "4.48")
    }
}

extension ReceiptCorrectionsTests {
    /// A summary whose amounts stand a row above their labels (a sloping photo): the total picked, `Amount Due  65.00`,
    /// is the cash that pays the amount above it, `62.32`, with the change under it on a payment's line.
    @Test func aSummarySlippedARowGivesTheTotalThePaymentPays() {
        let p = Self.priced
        func receipt(_ summary: [(Double, Double, [(Double, String)])], espresso: String = "27.56") -> Receipt {
            self.receipt([
                Fixture.line(20, "ZANCAS'S GAS", x: 160, h: 24), Fixture.line(48, "12 Main St", x: 170),
                p(100, "Batteries AA", "34.76"), p(122, "Espresso", espresso),
            ] + summary)
        }
        let slipped = receipt([
            p(160, "Total 0%", "34.76"), p(182, "Total 8% (excl. Tax):", "25.52"), p(204, "State Tax 8% :", "2.04"),
            p(226, "Total 8% (Inc. Tax)", "62.32"), p(248, "Amount Due", "65.00"), Fixture.line(270, "Change"),
            p(292, "Cash", "2.68"),
        ])
        #expect(slipped.total == "62.32")
        // Printed in place: the total is paid with change; and a tax printed under the total is no change.
        let inPlace = receipt([
            p(160, "Total", "62.32"), p(182, "Cash", "65.00"), p(204, "Change", "2.68"),
        ])
        #expect(inPlace.total == "62.32")
        let taxUnder = receipt([
            p(160, "Subtotal", "62.32"), p(182, "Total", "65.00"), p(204, "VAT", "2.68"),
        ], espresso: "30.24")
        #expect(taxUnder.total == "65.00")
    }
}
