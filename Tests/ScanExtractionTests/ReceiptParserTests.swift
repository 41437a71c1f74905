import Foundation
import Testing
import ScanDetectors
import ScanLayout
import ScanModel
@testable import ScanExtraction

@Suite struct ReceiptParserTests {
    let extractor = DocumentExtractor(
        detector: try! DataDetector(referenceDate: CalendarDay(year: 2024, month: 1, day: 1)))

    /// A US diner receipt where the engine split every amount off its label.
    func diner() -> Document {
        Fixture.document(Fixture.page([
            (40, 28, [(200, "BLUE"), (280, "HERON"), (380, "CAFE")]),
            Fixture.line(80, "1200 Harbor Blvd", x: 190),
            Fixture.line(100, "Portland, OR 97201", x: 185),
            Fixture.line(120, "(503) 555-0142", x: 210),
            Fixture.line(160, "Check #: 4471  Table 12"),
            Fixture.line(200, "2 Pancakes"), (200, 16, [(500, "18.50")]),
            Fixture.line(222, "1 Coffee"), (222, 16, [(508, "3.25")]),
            Fixture.line(244, "1 Orange Juice"), (244, 16, [(508, "4.00")]),
            Fixture.line(266, "Happy hour"), (266, 16, [(500, "-1.00")]),
            Fixture.line(300, "SUBTOTAL"), (300, 16, [(500, "24.75")]),
            Fixture.line(322, "Tax 8.0%"), (322, 16, [(508, "1.98")]),
            Fixture.line(344, "Tip"), (344, 16, [(508, "4.00")]),
            Fixture.line(366, "TOTAL ........"), (366, 16, [(500, "30.73")]),
            Fixture.line(388, "Cash"), (388, 16, [(500, "40.00")]),
            Fixture.line(410, "Change"), (410, 16, [(508, "9.27")]),
            Fixture.line(450, "03/14/2024 7:42 PM", x: 180),
        ]))
    }

    @Test func readsTheSummaryAndPicksTheRightTotal() {
        let doc = try! extractor.extract(diner(), as: .receipt)
        let r = doc.receipt!
        #expect(r.total == "30.73")
        #expect(r.subtotal == "24.75")
        #expect(r.tax.map(\.amount) == ["1.98"])
        #expect(r.tax.first?.rate == "8.0")
        #expect(r.tip == "4.00")
        #expect(r.payment?.tendered == "40.00")
        #expect(r.payment?.change == "9.27")
        #expect(r.payment?.method == "cash")
        #expect(r.date == "2024-03-14")
        #expect(r.time == "19:42")
        #expect(r.receiptNumber == "4471")
        // No warning: 24.75 + 1.98 + 4.00 = 30.73.
        #expect(!doc.warnings.contains { $0.code == "receipt-total-mismatch" })
    }

    @Test func thePaymentMethodIsReadWhereTheReceiptIsPaid() {
        // A card sold among the items, paid in cash; a shop named for cash, paid by card.
        func method(_ name: String, _ item: String, _ paid: String) -> String? {
            try! extractor.extract(Fixture.document(Fixture.page([
                Fixture.line(40, name, x: 180, h: 24), Fixture.line(80, "1200 Harbor Blvd", x: 190),
                Fixture.line(200, item), (200, 16, [(500, "10.00")]),
                Fixture.line(222, "Coffee"), (222, 16, [(508, "3.25")]),
                Fixture.line(300, "TOTAL"), (300, 16, [(500, "13.25")]),
                Fixture.line(322, paid), (322, 16, [(500, "20.00")]),
            ])), as: .receipt).receipt?.payment?.method
        }
        #expect(method("BLUE HERON CAFE", "Gift card", "Cash") == "cash")
        #expect(method("HERON CASH & CARRY", "Soap", "Visa") == "card")
    }

    @Test func readsMerchantWithProvenance() {
        let r = try! extractor.extract(diner(), as: .receipt).receipt!
        #expect(r.merchant.name == "BLUE HERON CAFE")
        #expect(r.merchant.address == "1200 Harbor Blvd Portland, OR 97201")
        #expect(r.merchant.phoneE164 == "+15035550142")
        let p = r.provenance["total"]!
        #expect(p.text == "30.73")
        #expect(p.page == 0)
        #expect(p.boundingBox!.minX >= 499)
        #expect(r.provenance["merchant.name"]!.boundingBox!.minY == 40)
    }

    @Test func itemsWithQuantitiesAndAHangingDiscount() {
        let r = try! extractor.extract(diner(), as: .receipt).receipt!
        let articles = r.items.filter { $0.kind == nil }
        #expect(articles.map(\.description) == ["Pancakes", "Coffee", "Orange Juice"])
        #expect(articles.map(\.quantity) == ["2", "1", "1"])
        #expect(articles.map(\.amount) == ["18.50", "3.25", "4.00"])
        #expect(r.items[2].discount == "-1.00")
        #expect(r.items.count == 4 && r.items[3].kind == .discount && r.items[3].amount == "-1.00")
        #expect(r.discounts == "-1.00")
        #expect(r.items[0].source.boundingBox != nil)
    }

    @Test func weighedItemWithDescriptionAbove() {
        let doc = Fixture.document(Fixture.page([
            Fixture.line(20, "MARKTHALLE GMBH", h: 24),
            Fixture.line(60, "Hauptstr. 5, 10115 Berlin"),
            Fixture.line(100, "BANANEN"),
            Fixture.line(122, "1,500 kg x 1,99 EUR/kg"), (122, 16, [(480, "2,99")]),
            Fixture.line(144, "MILCH 1L"), (144, 16, [(480, "1,19")]),
            Fixture.line(180, "SUMME EUR"), (180, 16, [(480, "4,18")]),
            Fixture.line(202, "MwSt 7%"), (202, 16, [(480, "0,27")]),
            Fixture.line(240, "12.03.2024 10:15"),
        ]))
        let r = try! extractor.extract(doc, as: .receipt).receipt!
        #expect(r.items.count == 2)
        #expect(r.items[0].description == "BANANEN")
        #expect(r.items[0].quantity == "1.5")
        #expect(r.items[0].unit == "kg")
        #expect(r.items[0].unitPrice == "1.99")
        #expect(r.items[0].amount == "2.99")
        #expect(r.total == "4.18")
        #expect(r.date == "2024-03-12")
        #expect(r.merchant.name == "MARKTHALLE GMBH")
    }

    @Test func aUnitPriceColumnLeavesTheDescription() {
        func price(_ w: String, _ amount: String, _ q: String?) -> String? {
            ReceiptParser.unitPriceColumn(w, amount: Amount.parse(amount[...], wholeUnits: true)!, quantity: q,
                                          wholeUnits: true)?.decimalString
        }
        #expect(price("162000", "162,000", "1") == "162000")
        #expect(price("8000", "16,000", "2") == "8000")
        #expect(price("3.50", "7.00", "2") == "3.50")
        #expect(price("3.50", "7.00", nil) == nil)      // one unit would cost 7.00
        #expect(price("600", "3,100", nil) == nil)      // a size, not the price
        #expect(price("0", "0.00", "1") == nil)         // a free item proves nothing
        let ext = DocumentExtractor(
            detector: try! DataDetector(referenceDate: CalendarDay(year: 2024, month: 1, day: 1)))
        let doc = Fixture.document(Fixture.page([
            Fixture.line(20, "WARUNG MAKAN", h: 24),
            Fixture.line(100, "2 ES TEH 8000"), (100, 16, [(480, "16,000")]),
            Fixture.line(122, "1 NASI GORENG 25000"), (122, 16, [(480, "25,000")]),
            Fixture.line(144, "AIR MINERAL 600ML 3 4000"), (144, 16, [(480, "12,000")]),
            Fixture.line(166, "KERUPUK 1 3000"), (166, 16, [(480, "3,000")]),
            Fixture.line(200, "TOTAL"), (200, 16, [(480, "56,000")]),
        ]))
        let r = try! ext.extract(doc, as: .receipt).receipt!
        #expect(r.items.map(\.description) == ["ES TEH", "NASI GORENG", "AIR MINERAL 600ML", "KERUPUK"])
        #expect(r.items.map(\.unitPrice) == ["8000", "25000", "4000", "3000"])
        #expect(r.items.map(\.quantity) == ["2", "1", "3", "1"])
    }

    @Test func aCountedTotalThatTheTaxBringsUpToTheTotalIsTheSubtotal() {
        let doc = Fixture.document(Fixture.page([
            Fixture.line(20, "GREEN BOWL KITCHEN", h: 24),
            Fixture.line(100, "Chicken Bowl"), (100, 16, [(480, "13.74")]),
            Fixture.line(122, "Veggie Bowl"), (122, 16, [(480, "13.74")]),
            Fixture.line(160, "Total 2 item(s)"), (160, 16, [(480, "$27.48")]),
            Fixture.line(182, "Sales Tax"), (182, 16, [(480, "$2.67")]),
            Fixture.line(204, "Grand Total"), (204, 16, [(480, "$30.15")]),
        ]))
        let r = try! extractor.extract(doc, as: .receipt).receipt!
        #expect(r.total == "30.15")
        #expect(r.subtotal == "27.48")
    }

    @Test func arithmeticDisagreementBecomesAWarning() {
        let doc = Fixture.document(Fixture.page([
            Fixture.line(20, "CORNER SHOP LTD", h: 24),
            Fixture.line(60, "Bread"), (60, 16, [(480, "2.00")]),
            Fixture.line(82, "Milk"), (82, 16, [(480, "1.50")]),
            Fixture.line(120, "TOTAL QTY 2"),
            Fixture.line(142, "TOTAL"), (142, 16, [(480, "5.50")]),
        ]))
        let out = try! extractor.extract(doc, as: .receipt)
        #expect(out.receipt?.total == "5.50")
        #expect(out.warnings.contains { $0.code == "receipt-total-mismatch" && $0.field == "receipt.total" })
    }

    /// A delivery app's bill: fees under the subtotal are fees, no articles, and the sums hold with them; a fee shown
    /// free is none.
    @Test func feesUnderTheSubtotalAreFeesAndAddUp() {
        func bill(_ fees: [(String, String)], total: String) -> (Receipt, [Finding]) {
            var rows: [(Double, Double, [(Double, String)])] = [
                Fixture.line(20, "CASA VERDE TAQUERIA", h: 24),
                Fixture.line(60, "2x Garlic Knots"), (60, 16, [(480, "$11.98")]),
                Fixture.line(82, "1x Chicken Burrito"), (82, 16, [(480, "$11.49")]),
                Fixture.line(120, "Subtotal"), (120, 16, [(480, "$23.47")])
            ]
            var y = 142.0
            for (label, amount) in fees + [("Taxes", "$2.05"), ("Total", total)] {
                rows += [Fixture.line(y, label), (y, 16, [(480, amount)])]
                y += 22
            }
            let doc = try! extractor.extract(Fixture.document(Fixture.page(rows)), as: .receipt)
            return (doc.receipt!, doc.warnings)
        }
        let (r, warnings) = bill([("Delivery Fee", "$3.99"), ("Service Fee", "$3.52")], total: "$33.03")
        #expect(r.items.map(\.description) == ["Garlic Knots", "Chicken Burrito"])
        #expect(r.fees?.map(\.description) == ["Delivery Fee", "Service Fee"])
        #expect(r.fees?.map(\.amount) == ["3.99", "3.52"])
        #expect(r.total == "33.03")
        #expect(!warnings.contains { $0.code == "receipt-total-mismatch" }, "\(warnings)")
        // In German, and a fee shown free.
        let (de, deWarnings) = bill([("Liefergebühr", "Gratis"), ("Servicegebühr", "$1.20")], total: "$26.72")
        #expect(de.fees?.map(\.amount) == ["1.20"])
        #expect(!deWarnings.contains { $0.code == "receipt-total-mismatch" }, "\(deWarnings)")
        // No fee printed: none, and the sums without one.
        #expect(bill([], total: "$25.52").0.fees == nil)
        // A promotion under the subtotal is a discount on the bill when the sums hold with it, its minus printed or
        // not; a recap of savings the sums do not take is none.
        for promo in ["-$5.00", "$5.00"] {
            let (p, pWarnings) = bill([("Promotion", promo), ("Delivery Fee", "$3.99")], total: "$24.51")
            #expect(p.items.map(\.description) == ["Garlic Knots", "Chicken Burrito", "Promotion"], "\(promo)")
            #expect(p.items.last?.kind == .discount)
            #expect(p.items.last?.amount == "-5.00")
            #expect(p.discounts == "-5.00")
            #expect(!pWarnings.contains { $0.code == "receipt-total-mismatch" }, "\(pWarnings)")
        }
        let recap = bill([("Delivery Fee", "$3.99"), ("You saved", "$5.00")], total: "$29.51").0
        #expect(recap.discounts == nil)
        #expect(recap.items.count == 2)
    }

    @Test func neverInventsATotal() {
        let doc = Fixture.document(Fixture.page([Fixture.line(20, "Thank you for shopping")]))
        let out = try! extractor.extract(doc, as: .receipt)
        #expect(out.receipt?.total == nil)
        #expect(out.warnings.contains { $0.code == "receipt-no-total" })
    }

    @Test func reextractionDoesNotDuplicateWarnings() {
        let once = try! extractor.extract(Fixture.document(Fixture.page([Fixture.line(20, "Hello")])), as: .receipt)
        let twice = try! extractor.extract(once, as: .receipt)
        #expect(twice.warnings.count == once.warnings.count)
    }

    @Test func amountsParse() {
        #expect(Amount.parse("9.00")?.decimalString == "9.00")
        #expect(Amount.parse("RM9.00")?.decimalString == "9.00")
        #expect(Amount.parse("$1,234.50")?.decimalString == "1234.50")
        #expect(Amount.parse("1.234,50€")?.decimalString == "1234.50")
        #expect(Amount.parse("3.00-")?.decimalString == "-3.00")
        #expect(Amount.parse("(3.00)")?.decimalString == "-3.00")
        #expect(Amount.parse("25,000", wholeUnits: true)?.decimalString == "25000")
        #expect(Amount.parse("12:30") == nil)
        #expect(Amount.parse("6%") == nil)
        #expect(Amount.parse("597-0906") == nil)
        #expect(Amount.parse("2024") == nil)
    }
}

@Suite struct ReceiptItemTests {
    let extractor = DocumentExtractor(
        detector: try! DataDetector(referenceDate: CalendarDay(year: 2024, month: 1, day: 1)))

    func items(_ rows: [(Double, Double, [(Double, String)])]) -> [Receipt.Item] {
        try! extractor.extract(Fixture.document(Fixture.page(rows)), as: .receipt).receipt!.items
    }

    @Test func substitutionIsAnItemAndRepeatsAreAddedUp() {
        let r = items([
            Fixture.line(20, "CORNER GRILL", x: 200, h: 24),
            Fixture.line(100, "1 Burger"), (100, 16, [(500, "5.99")]),
            Fixture.line(122, "1 SUB ZUCCHINI"), (122, 16, [(500, "2.49")]),
            Fixture.line(144, "1 add bacon"), (144, 16, [(500, "1.99")]),
            Fixture.line(166, "1 add bacon"), (166, 16, [(500, "1.99")]),
            Fixture.line(200, "Sub/Ttl"), (200, 16, [(492, "12.46")]),
            Fixture.line(222, "TOTAL"), (222, 16, [(492, "12.46")]),
        ])
        #expect(r.map(\.description) == ["Burger", "SUB ZUCCHINI", "add bacon"])
        #expect(r.map(\.amount) == ["5.99", "2.49", "3.98"])
        #expect(r.map(\.quantity) == ["1", "1", "2"])
        #expect(r[2].unitPrice == "1.99")
        #expect(r[2].source.text.contains("\n"))
    }

    @Test func countInParenthesesAfterTheDescription() {
        let r = items([
            Fixture.line(20, "SAKE HOUSE", x: 200, h: 24),
            Fixture.line(100, "Chang (2@$3.50)"), (100, 16, [(500, "7.00")]),
            Fixture.line(122, "Rye 10yr (2 @20.00)"), (122, 16, [(492, "40.00")]),
            Fixture.line(160, "Subtotal"), (160, 16, [(492, "47.00")]),
            Fixture.line(182, "Total"), (182, 16, [(492, "47.00")]),
        ])
        #expect(r.map(\.description) == ["Chang", "Rye 10yr"])
        #expect(r.map(\.quantity) == ["2", "2"])
        #expect(r.map(\.unitPrice) == ["3.50", "20.00"])
        #expect(r.map(\.amount) == ["7.00", "40.00"])
    }

    @Test func amountsRightOfThePriceColumnAreNotTheItemsAmounts() {
        // A suggested-tip table printed to the right of the price column.
        let r = items([
            Fixture.line(20, "LONGHOUSE", x: 200, h: 24),
            (80, 16, [(20, "Item"), (300, "Price")]),
            Fixture.line(110, "Green Salad"), (110, 16, [(300, "8.00"), (480, "12.00")]),
            Fixture.line(132, "Extra Ranch"), (132, 16, [(480, "13.00")]),
            Fixture.line(154, "Tea"), (154, 16, [(300, "4.00"), (480, "14.00")]),
            Fixture.line(176, "Wagyu Burger"), (176, 16, [(300, "19.00"), (400, "%"), (480, "20%")]),
            Fixture.line(210, "Subtotal"), (210, 16, [(292, "31.00")]),
            Fixture.line(232, "Total"), (232, 16, [(292, "31.00")]),
        ])
        #expect(r.map(\.description) == ["Green Salad", "Tea", "Wagyu Burger"])
        #expect(r.map(\.amount) == ["8.00", "4.00", "19.00"])
    }

    /// A line with a name, a count and an amount under an article priced otherwise is an article of its own, however
    /// the line model labels it: a count under a priced name makes its amount or prints a unit price.
    @Test func aCountedArticleUnderAnotherPricedOneIsAnArticle() {
        let ja = items([
            Fixture.line(20, "ドラッグスモ", x: 200, h: 24),
            Fixture.line(100, "ラーメン * ¥850"), Fixture.line(122, "生卵 10個 * ¥248"),
            Fixture.line(144, "餃子 6個 * ¥330"),
            Fixture.line(180, "お会計 ¥1,428"),
        ])
        #expect(ja.map(\.amount) == ["850", "248", "330"], "\(ja.map(\.description))")
        #expect(ja.map(\.description).contains("生卵"))
        // A count with its unit price under a name priced at one is that article's count line.
        let counted = items([
            Fixture.line(20, "CORNER CAFE", x: 200, h: 24),
            Fixture.line(100, "Latte"), (100, 16, [(480, "2.50")]),
            Fixture.line(122, "2 x 2.50"), (122, 16, [(480, "5.00")]),
            Fixture.line(160, "Total"), (160, 16, [(480, "5.00")]),
        ])
        #expect(counted.count == 1 && counted.first?.quantity == "2", "\(counted.map(\.description))")
    }

    /// The last column's heading misread past knowing (`AMT` read `ANT`) still ends the price column: the rows'
    /// amounts and the totals under it are kept. A heading that is no price's (`TX`, a tax code's) is still cut.
    @Test func aPriceHeadingMisreadInOneLetterEndsThePriceColumn() throws {
        func receipt(_ last: String) throws -> Receipt {
            try extractor.extract(Fixture.document(Fixture.page([
                Fixture.line(20, "IL FORNO", x: 200, h: 24),
                (80, 16, [(20, "SKU"), (90, "QTY"), (200, "PRICE"), (330, last)]),
                (110, 16, [(20, "1266"), (90, "1"), (200, "8.60"), (330, "8.60")]),
                Fixture.line(132, "PASTA"),
                (154, 16, [(20, "3751"), (90, "2"), (200, "3.50"), (330, "7.00")]),
                Fixture.line(176, "Gelato"),
                (210, 16, [(20, "Totale"), (100, "complessivo:"), (330, "15.60")]),
                (232, 16, [(20, "Contanti"), (330, "20.00")]),
            ])), as: .receipt).receipt!
        }
        let misread = try receipt("ANT")
        #expect(misread.total == "15.60")
        #expect(misread.items.map(\.description) == ["PASTA", "Gelato"])
        #expect(misread.items.map(\.amount) == ["8.60", "7.00"])
        // `TX` is no price heading with a letter changed: the column ends at `PRICE`, and what stands right of it
        // is cut, the total's amount too.
        #expect(try receipt("TX").total != "15.60")
    }

    /// A total that adds up two section totals printed above it (zero-rated and taxed goods):
    /// the candidate says so, as does the taxed section's own total (net + tax); the parts say
    /// they are parts; and the learned ranker picks the amount due.
    @Test func aTotalOfTwoSectionTotalsIsFoundByItsSum() throws {
        let doc = Fixture.document(Fixture.page([
            Fixture.line(20, "HARBOUR BAKERY SUPPLY", x: 180, h: 24),
            Fixture.line(100, "White loaf 2.13 x 5"), (100, 16, [(492, "10.65")]),
            Fixture.line(122, "Wholemeal 2.78 x 5"), (122, 16, [(492, "13.90")]),
            Fixture.line(144, "Total zero-rated:"), (144, 16, [(492, "24.55")]),
            Fixture.line(166, "Choc roll 0.72 x 18"), (166, 16, [(492, "12.96")]),
            Fixture.line(188, "Total standard-rated excl. tax:"), (188, 16, [(492, "12.96")]),
            Fixture.line(210, "Tax 6%:"), (210, 16, [(500, "0.78")]),
            Fixture.line(232, "Total standard-rated incl. tax:"), (232, 16, [(492, "13.74")]),
            Fixture.line(254, "Total zero-rated:"), (254, 16, [(492, "24.55")]),
            Fixture.line(276, "Total payable:"), (276, 16, [(492, "38.29")]),
        ]))
        let (receipt, _, candidates) = ReceiptParser().parseWithCandidates(extractor.analyzer.analyze(doc))
        let feature = try #require(ReceiptFieldFeatures.totalNames.firstIndex(of: "sumOfTwoAbove"))
        let flagged = Set((candidates[.total] ?? []).filter { $0.features[feature] == 1 }.map(\.value))
        #expect(flagged == ["13.74", "38.29"])
        // The parts of those sums are flagged as parts; the amount due is not.
        let part = try #require(ReceiptFieldFeatures.totalNames.firstIndex(of: "partOfSumBelow"))
        let parts = Set((candidates[.total] ?? []).filter { $0.features[part] == 1 }.map(\.value))
        #expect(parts == ["24.55", "12.96", "0.78", "13.74"])
        #expect(receipt.total == "38.29")
    }

    /// The same summary on an adjustment note, where goods were taken back: the zero-rated section is
    /// negative, so the taxed section's sum (which agrees with its net plus tax, and is the largest
    /// amount) is more than the amount due under both. The ranker still picks the amount due.
    /// A receipt's date may be at most in the year after the reference day's (`--reference-date`): the bound moves with
    /// the reference day the caller gives, not with today.
    @Test func theDateBoundFollowsTheReferenceDate() throws {
        let doc = Fixture.document(Fixture.page([
            Fixture.line(20, "LARKSPUR GROCERS", x: 180, h: 24),
            Fixture.line(60, "Date 14/03/2031 10:42", x: 40),
            Fixture.line(120, "Oat milk"), (120, 16, [(492, "3.10")]),
            Fixture.line(160, "TOTAL"), (160, 16, [(492, "3.10")]),
        ]))
        func date(_ reference: CalendarDay?) throws -> String? {
            let extractor = DocumentExtractor(detector: try DataDetector(referenceDate: reference))
            return try! extractor.extract(doc, as: .receipt).receipt?.date
        }
        let later = try date(CalendarDay(year: 2031, month: 6, day: 1)),
            earlier = try date(CalendarDay(year: 2024, month: 1, day: 1))
        #expect(later == "2031-03-14")
        #expect(earlier == nil)
        // The parser's own readers take the same bound: a date printed without its separators, in the basic form.
        let lines = extractor.analyzer.analyze(Fixture.document(Fixture.page([Fixture.line(20, "Date: 14032031")])))
        #expect(ReceiptParser.gluedDate(lines, monthFirst: false, referenceYear: 2031)?.0 == "2031-03-14")
        #expect(ReceiptParser.gluedDate(lines, monthFirst: false, referenceYear: 2024) == nil)
        // A day past its month's end is no receipt's date, though the detector gives it as printed.
        let impossible = Fixture.document(Fixture.page([
            Fixture.line(20, "LARKSPUR GROCERS", x: 180, h: 24), Fixture.line(60, "Date: Feb 30 2025", x: 40),
            Fixture.line(120, "Oat milk"), (120, 16, [(492, "3.10")]),
            Fixture.line(160, "TOTAL"), (160, 16, [(492, "3.10")]),
        ]))
        let june = CalendarDay(year: 2025, month: 6, day: 1)
        let feb = DocumentExtractor(detector: try DataDetector(referenceDate: june))
        #expect(try feb.extract(impossible, as: .receipt).receipt?.date == nil)
    }

    @Test func aTotalOfTwoSectionsIsPickedWhenASectionIsLarger() throws {
        let doc = Fixture.document(Fixture.page([
            Fixture.line(20, "HARBOUR BAKERY SUPPLY", x: 180, h: 24),
            Fixture.line(60, "ADJUSTMENT NOTE", x: 200),
            Fixture.line(100, "White loaf 2.13 x -3"), (100, 16, [(492, "-6.39")]),
            Fixture.line(122, "Wholemeal 2.78 x -2"), (122, 16, [(492, "-5.56")]),
            Fixture.line(144, "Total zero-rated:"), (144, 16, [(492, "-11.95")]),
            Fixture.line(166, "Choc roll 0.72 x 40"), (166, 16, [(492, "28.80")]),
            Fixture.line(188, "Total standard-rated excl. tax:"), (188, 16, [(492, "28.80")]),
            Fixture.line(210, "Tax 6%:"), (210, 16, [(500, "1.73")]),
            Fixture.line(232, "Total standard-rated incl. tax:"), (232, 16, [(492, "30.53")]),
            Fixture.line(254, "Total zero-rated:"), (254, 16, [(492, "-11.95")]),
            Fixture.line(276, "Total payable:"), (276, 16, [(492, "18.58")]),
        ]))
        let (receipt, _) = ReceiptParser().parse(extractor.analyzer.analyze(doc))
        #expect(receipt.total == "18.58")
    }

    @Test func aNameWhoseLegalFormWrapsToTheNextLineIsReadWhole() throws {
        let doc = Fixture.document(Fixture.page([
            Fixture.line(20, "KESTREL STATIONERY", x: 150, h: 24),
            Fixture.line(48, "CO. (M) SDN BHD", x: 170, h: 24),
            Fixture.line(80, "(Co.No. 554210-K)", x: 190),
            Fixture.line(102, "12, Jalan Merbau 3, 47100 Puchong", x: 120),
            Fixture.line(160, "Pencil HB x 4"), (160, 16, [(492, "3.20")]),
            Fixture.line(182, "Eraser"), (182, 16, [(492, "1.10")]),
            Fixture.line(220, "TOTAL"), (220, 16, [(492, "4.30")]),
        ]))
        let (receipt, _, candidates) = ReceiptParser().parseWithCandidates(extractor.analyzer.analyze(doc))
        let feature = try #require(ReceiptFieldFeatures.companyNames.firstIndex(of: "first.startsLegalForm"))
        let flagged = Set((candidates[.company] ?? []).filter { $0.features[feature] == 1 }.map(\.value))
        #expect(flagged.contains("CO. (M) SDN BHD"))
        #expect(!flagged.contains { $0.hasPrefix("KESTREL") })
        #expect(receipt.merchant.name == "KESTREL STATIONERY CO. (M) SDN BHD")
    }

    /// A name or address line that ends with a joining mark goes on below: the candidates that stop
    /// there say so, those that take the next line too do not. A name is never cut after its `&`.
    @Test func aLineEndingWithAJoiningMarkIsFlaggedAsOpen() throws {
        #expect(ReceiptFieldFeatures.endsOpen("HOME MASTER HARDWARE &"))
        #expect(ReceiptFieldFeatures.endsOpen("40170 SHAH ALAM, "))
        #expect(ReceiptFieldFeatures.endsOpen("POPULAR BOOK-"))
        #expect(!ReceiptFieldFeatures.endsOpen("SELANGOR."))
        #expect(!ReceiptFieldFeatures.endsOpen("PETALING JAYA"))
        #expect(!ReceiptFieldFeatures.endsOpen(""))
        func parsed(_ first: String) -> (Receipt, [ReceiptField: [FieldCandidate]]) {
            let doc = Fixture.document(Fixture.page([
                Fixture.line(20, first, x: 150, h: 24),
                Fixture.line(48, "ELECTRICAL SUPPLIES", x: 170, h: 24),
                Fixture.line(80, "12, Jalan Merbau 3,", x: 120),
                Fixture.line(100, "Taman Perindustrian Puchong,", x: 140),
                Fixture.line(120, "47100 Puchong, Selangor.", x: 160),
                Fixture.line(160, "Hinge x 4"), (160, 16, [(492, "8.20")]),
                Fixture.line(220, "TOTAL"), (220, 16, [(492, "8.20")]),
            ]))
            let (receipt, _, candidates) = ReceiptParser().parseWithCandidates(extractor.analyzer.analyze(doc))
            return (receipt, candidates)
        }
        let (_, candidates) = parsed("WILLOW BIRCH HARDWARE,")
        let company = try #require(ReceiptFieldFeatures.companyNames.firstIndex(of: "endsOpen"))
        let openNames = Set((candidates[.company] ?? []).filter { $0.features[company] == 1 }.map(\.value))
        #expect(openNames.contains("WILLOW BIRCH HARDWARE"))
        #expect(!openNames.contains { $0.hasSuffix("ELECTRICAL SUPPLIES") })
        let address = try #require(ReceiptFieldFeatures.addressNames.firstIndex(of: "endsOpen"))
        let openAddresses = Set((candidates[.address] ?? []).filter { $0.features[address] == 1 }.map(\.value))
        #expect(openAddresses.contains { $0.hasSuffix("Puchong,") })
        #expect(!openAddresses.contains { $0.hasSuffix("Selangor.") })
        // With `&`, neither half is a candidate on its own, and the name is read whole.
        let (receipt, joined) = parsed("WILLOW & BIRCH HARDWARE &")
        let names = Set((joined[.company] ?? []).map(\.value))
        #expect(!names.contains("WILLOW & BIRCH HARDWARE &"))
        #expect(!names.contains("ELECTRICAL SUPPLIES"))
        #expect(receipt.merchant.name == "WILLOW & BIRCH HARDWARE & ELECTRICAL SUPPLIES")
    }

    @Test func gluedSummaryLabelsAndATaxLineAboveTheFirstTotal() {
        let glued = try! extractor.extract(Fixture.document(Fixture.page([
            Fixture.line(20, "DONA ROSA", x: 200, h: 24),
            Fixture.line(100, "1 Pupusa"), (100, 16, [(492, "$2.25")]),
            Fixture.line(122, "1 Coke"), (122, 16, [(492, "$1.50")]),
            Fixture.line(160, "SUBTOTAL:$3.75"),
            Fixture.line(182, "TAX: $0.30"),
            Fixture.line(204, "TOTAL: $4.05"),
        ])), as: .receipt).receipt!
        #expect(glued.subtotal == "3.75")
        #expect(glued.tax.map(\.amount) == ["0.30"])
        #expect(glued.total == "4.05")
        #expect(glued.items.count == 2)
        let noSubtotal = try! extractor.extract(Fixture.document(Fixture.page([
            Fixture.line(20, "GREEN BOWL", x: 200, h: 24),
            Fixture.line(100, "Chicken Bowl"), (100, 16, [(492, "27.48")]),
            Fixture.line(122, "Extra Rice"), (122, 16, [(500, "2.00")]),
            Fixture.line(144, "Lemonade"), (144, 16, [(500, "3.00")]),
            Fixture.line(166, "Sales Tax"), (166, 16, [(500, "2.67")]),
            Fixture.line(188, "Grand Total"), (188, 16, [(492, "35.15")]),
        ])), as: .receipt).receipt!
        #expect(noSubtotal.tax.map(\.amount) == ["2.67"])
        #expect(noSubtotal.items.map(\.description) == ["Chicken Bowl", "Extra Rice", "Lemonade"])
    }

    @Test func aTipTableBesideTheTotalsIsCutAwayUnderAPriceHeading() {
        let r = try! extractor.extract(Fixture.document(Fixture.page([
            Fixture.line(20, "LONGHOUSE", x: 200, h: 24),
            (80, 16, [(20, "Item"), (300, "Price")]),
            Fixture.line(110, "Green Salad"), (110, 16, [(300, "8.00"), (480, "12.00")]),
            Fixture.line(132, "Tea"), (132, 16, [(300, "4.00"), (480, "13.00")]),
            Fixture.line(170, "Subtotal"), (170, 16, [(292, "12.00"), (480, "16.00")]),
            Fixture.line(192, "Total"), (192, 16, [(292, "12.96"), (480, "30.00")]),
        ])), as: .receipt).receipt!
        #expect(r.subtotal == "12.00")
        #expect(r.total == "12.96")
    }

    @Test func aSuggestedTipIsNoTipPaid() {
        func receipt(_ rows: [(Double, Double, [(Double, String)])]) -> Receipt {
            try! extractor.extract(Fixture.document(Fixture.page([
                Fixture.line(20, "BELLA CUCINA", x: 200, h: 24),
                Fixture.line(100, "Steak Tip Skewers"), (100, 16, [(492, "12.99")]),
                Fixture.line(160, "Subtotal"), (160, 16, [(492, "12.99")]),
                Fixture.line(182, "Tax"), (182, 16, [(500, "1.04")]),
                Fixture.line(204, "Total"), (204, 16, [(492, "14.03")]),
            ] + rows)), as: .receipt).receipt!
        }
        for rows in [[Fixture.line(240, "Suggested Tip : 15% (2.10)")],
                     [Fixture.line(240, "TIP SUGGESTIONS"), Fixture.line(262, "18%: $2.53")],
                     [Fixture.line(240, "Pourboire suggéré"), Fixture.line(262, "15 %"), (262, 16, [(500, "2,10")])],
                     [Fixture.line(240, "Trinkgeld-Vorschlag 15%"), (240, 16, [(500, "2,10")])],
                     [Fixture.line(240, "Propina sugerida 15%"), (240, 16, [(500, "2,10")])],
                     [Fixture.line(240, "Mancia consigliata 15%"), (240, 16, [(500, "2,10")])],
                     [Fixture.line(240, "Voorgestelde fooi 15%"), (240, 16, [(500, "2,10")])]] {
            let r = receipt(rows)
            #expect(r.tip == nil, "\(rows)")
            #expect(r.total == "14.03")
        }
        // The same lines without their suggestion word are a tip paid, so the check above can fail.
        for word in ["Trinkgeld", "Propina", "Mancia", "Fooi"] {
            #expect(receipt([Fixture.line(240, "\(word) 15%"), (240, 16, [(500, "2.10")])]).tip == "2.10", "\(word)")
        }
    }

    @Test func tipInsideADishNameIsAnItem() {
        let r = try! extractor.extract(Fixture.document(Fixture.page([
            Fixture.line(20, "BELLA CUCINA", x: 200, h: 24),
            Fixture.line(100, "Steak Tip Skewers"), (100, 16, [(492, "12.99")]),
            Fixture.line(122, "Root Beer"), (122, 16, [(500, "2.50")]),
            Fixture.line(160, "Subtotal"), (160, 16, [(492, "15.49")]),
            Fixture.line(182, "Tip 18%"), (182, 16, [(500, "2.79")]),
            Fixture.line(204, "Total"), (204, 16, [(492, "18.28")]),
        ])), as: .receipt).receipt!
        #expect(r.items.map(\.description) == ["Steak Tip Skewers", "Root Beer"])
        #expect(r.tip == "2.79")
        #expect(r.subtotal == "15.49")
    }

    /// With no subtotal printed, a tax and a tip right above the total belong to the summary, not to the items.
    @Test func aTipAboveATotalWithNoSubtotalIsTheTip() {
        let r = try! extractor.extract(Fixture.document(Fixture.page([
            Fixture.line(20, "BELLA CUCINA", x: 200, h: 24),
            Fixture.line(100, "Pasta"), (100, 16, [(492, "12.99")]),
            Fixture.line(122, "Root Beer"), (122, 16, [(500, "2.50")]),
            Fixture.line(144, "Tax 8%"), (144, 16, [(500, "1.15")]),
            Fixture.line(166, "Tip"), (166, 16, [(500, "3.00")]),
            Fixture.line(188, "Total"), (188, 16, [(492, "19.64")]),
        ])), as: .receipt).receipt!
        #expect(r.items.map(\.description) == ["Pasta", "Root Beer"])
        #expect(r.tip == "3.00")
        #expect(r.tax.map(\.amount) == ["1.15"])
    }

    /// A bill's total, a tip, then the total with the tip: the total is the bill's and the tip stands apart, and the
    /// sums raise no doubt. A tip printed above the only total is in it.
    @Test func theTotalIsTheBillBeforeATipPrintedUnderIt() {
        func receipt(_ summary: [(Double, Double, [(Double, String)])]) -> Document {
            try! extractor.extract(Fixture.document(Fixture.page([
                Fixture.line(20, "BELLA CUCINA", x: 200, h: 24),
                Fixture.line(60, "1200 Harbor Blvd", x: 190),
                Fixture.line(100, "Pasta"), (100, 16, [(492, "32.00")]),
                Fixture.line(122, "Root Beer"), (122, 16, [(500, "3.00")]),
            ] + summary)), as: .receipt)
        }
        let slip = receipt([
            Fixture.line(160, "Subtotal"), (160, 16, [(492, "35.00")]),
            Fixture.line(182, "Tax"), (182, 16, [(500, "2.80")]),
            Fixture.line(204, "Total"), (204, 16, [(492, "37.80")]),
            Fixture.line(226, "Tip"), (226, 16, [(500, "7.00")]),
            Fixture.line(248, "TOTAL"), (248, 16, [(492, "44.80")]),
            Fixture.line(290, "Thank you!", x: 200),
        ])
        #expect(slip.receipt?.total == "37.80")
        #expect(slip.receipt?.tip == "7.00")
        #expect(!slip.warnings.contains { $0.code == "receipt-total-mismatch" }, "\(slip.warnings)")
        let one = receipt([
            Fixture.line(160, "Subtotal"), (160, 16, [(492, "35.00")]),
            Fixture.line(182, "Tip"), (182, 16, [(500, "7.00")]),
            Fixture.line(204, "Total"), (204, 16, [(492, "42.00")]),
        ])
        #expect(one.receipt?.total == "42.00")
        #expect(one.receipt?.tip == "7.00")
    }

    /// A scan that caught the slip before's total over this one's header, with no closing words between them: that
    /// total is neither this slip's total nor one of its items.
    @Test func theSlipBeforesTotalIsNoItem() {
        let doc = Fixture.document(Fixture.page([
            Fixture.line(20, "TOTALE EURO"), (20, 16, [(492, "117,97")]),
            Fixture.line(44, "Conservare lo scontrino", x: 160),
            Fixture.line(80, "BELLA CUCINA", x: 200, h: 24),
            Fixture.line(110, "Via Roma 12", x: 210),
            Fixture.line(132, "Tel. 011 555 0142", x: 200),
            Fixture.line(180, "1 Pasta"), (180, 16, [(492, "12,99")]),
            Fixture.line(202, "1 Vino"), (202, 16, [(500, "2,50")]),
            Fixture.line(224, "1 Insalata"), (224, 16, [(500, "7,00")]),
            Fixture.line(260, "TOTALE"), (260, 16, [(492, "22,49")]),
            Fixture.line(282, "Contanti"), (282, 16, [(492, "30,00")]),
        ]))
        let r = try! extractor.extract(doc, as: .receipt).receipt!
        #expect(r.items.map(\.description) == ["Pasta", "Vino", "Insalata"])
        #expect(r.total == "22.49")
        // Whatever the item model makes of it, the item reader is told the line is the slip before's summary.
        let p = ReceiptParser.prepared(extractor.analyzer.analyze(doc))
        let (lines, roles, summaryStart, tail) = (p.lines, p.roles, p.summaryStart, p.tail)
        #expect(tail == 1)
        #expect(ReceiptParser.summaryLines(lines, roles: roles, summaryStart: summaryStart, tail: tail).first == true)
    }

    @Test func slantIsMeasuredOnShortObservations() {
        // A small photo: every label is only two or three words, amounts 8% lower at the right edge.
        let k = 0.08
        var rows: [(Double, Double, [(Double, String)])] = []
        for (n, (label, amount)) in [
            ("Sushi Deluxe", "20.75"), ("Glenmont Roll", "15.95"), ("Philly R", "6.50"), ("Sp Tuna R", "13.00")
        ].enumerated() {
            let y = 100 + Double(n) * 12
            rows.append(
                (
                    y, 10,
                    label.split(separator: " ").enumerated().map { (Double(20 + 40 * $0.offset), String($0.element)) }
                ))
            rows.append((y + k * 110, 10, [(130, amount)]))
        }
        var p = Fixture.page(width: 160, height: 200, rows)
        for i in p.observations.indices {
            for j in p.observations[i].words.indices { p.observations[i].words[j].boundingBox.y += k * Double(40 * j) }
        }
        #expect(
            LayoutAnalyzer.lines(of: p).map(\.text) == [
                "Sushi Deluxe 20.75", "Glenmont Roll 15.95", "Philly R 6.50", "Sp Tuna R 13.00"
            ])
    }

    /// Across a wide table, OCR may box an amount a few pixels off its row: more than half a text height, yet
    /// far nearer its own row than the next one. It joins its row; a number printed on a line of its own, a
    /// line pitch away, stays apart.
    @Test func anAmountBoxedALittleOffItsRowJoinsIt() {
        var rows: [(Double, Double, [(Double, String)])] = []
        for (i, (label, amount)) in [
            ("Chicken Wings", "42.32"), ("1 Steak", "15.95"), ("3 Milk", "96.18"), ("3 Fries", "93.93"),
            ("Coffee", "9.42")
        ].enumerated() {
            let y = 100 + 14 * Double(i)
            rows.append(Fixture.line(y, label, h: 9))
            rows.append((y + (amount == "96.18" ? 5.4 : 0.5), 9, [(700, amount)]))
        }
        rows.append((100 + 14 * 5, 9, [(700, "17.01.2024")]))
        let lines = LayoutAnalyzer.lines(of: Fixture.page(width: 900, height: 400, rows)).map(\.text)
        #expect(
            lines == [
                "Chicken Wings 42.32", "1 Steak 15.95", "3 Milk 96.18", "3 Fries 93.93", "Coffee 9.42", "17.01.2024"
            ])
    }

    /// A wide page photographed turned by 6 degrees: names at the left, amounts 900 pixels to the right,
    /// each word a box of its own (so no observation shows the slant), rows 30 pixels apart. Each amount
    /// then sits about three rows below its name's height. Grouped in the frame of the page the camera
    /// found (its quad rectified), every name gets its amount; by height on the photo none does.
    /// The wide page turned by 6 degrees of the two tests below, the quad of the page found, and its rows' text.
    private func turnedWidePage() -> (page: Page, quad: Quad, rows: [String]) {
        let turn = Homography.rotation(degrees: 6, about: Point(x: 600, y: 400))
        let items = [("Coffee", "3.50"), ("Bagel", "2.25"), ("Soup", "6.80"), ("Salad", "9.10"), ("Water", "1.00"),
                     ("Cake", "4.75"), ("Tea", "2.95")]
        var rows: [(Double, Double, [(Double, String)])] = []
        for (n, (name, amount)) in items.enumerated() {
            let y = 200 + 30 * Double(n)
            for (x, text) in [(100.0, name), (1000.0, amount)] {
                let c = turn.apply(Point(x: x, y: y))
                rows.append((c.y, 14, [(c.x, text)]))
            }
        }
        return (
            Fixture.page(width: 1200, height: 800, rows),
            turn.apply(Quad(BoundingBox(x: 50, y: 100, width: 1100, height: 400))),
            items.map { "\($0.0) \($0.1)" }
        )
    }

    @Test func rowsOfATurnedPageAreGroupedInTheFrameOfThePageFound() throws {
        let (page, quad, expected) = turnedWidePage()
        // The parsers read the stored layout's lines, top to bottom.
        var framed = page
        framed.layout = LayoutAnalyzer.layout(of: page, frame: quad)
        #expect(LayoutAnalyzer.lines(of: framed).map(\.text) == expected)
        // `--format text` reads the blocks: one, its rows in order, measured in the frame too.
        #expect(framed.layout?.blocks.map { $0.lines.map(\.text) } == [expected])
        var flat = page
        flat.layout = LayoutAnalyzer.layout(of: page)
        let lines = LayoutAnalyzer.lines(of: flat).map(\.text)
        #expect(lines.filter { expected.contains($0) }.isEmpty, "by the photo's heights: \(lines)")
    }

    /// The amounts of one column end at another x on each row of the turned photo (3 pixels further left a
    /// row); in the frame of the page found they end at one x, and that is where the item features measure
    /// the column (`LayoutWord.place`). A layout without a frame measures on the page.
    @Test func aColumnOfATurnedPageIsMeasuredInTheFrameOfThePageFound() throws {
        let (page, quad, expected) = turnedWidePage()
        var framed = page
        framed.layout = LayoutAnalyzer.layout(of: page, frame: quad)
        #expect(framed.layout?.frame == quad)
        let lines = LayoutAnalyzer.lines(of: framed)
        #expect(lines.map(\.text) == expected)
        let inFrame = lines.compactMap { $0.words.last?.place.maxX },
            onPage = lines.compactMap { $0.words.last?.box.maxX }
        #expect(inFrame.count == expected.count)
        #expect(inFrame.max()! - inFrame.min()! < 0.5, "\(inFrame)")
        #expect(onPage.max()! - onPage.min()! > 15, "\(onPage)")
        // The names start one indent in the frame too.
        let starts = lines.map(\.place.minX)
        #expect(starts.max()! - starts.min()! < 0.5, "\(starts)")

        var flat = page
        flat.layout = LayoutAnalyzer.layout(of: page)
        #expect(flat.layout?.frame == nil)
        for l in LayoutAnalyzer.lines(of: flat) {
            #expect(l.place == l.box)
            #expect(l.words.allSatisfy { $0.place == $0.box })
        }
    }

    @Test func anAmountGoesToTheLineNearestItsLevelThoughThatLineIsReadLater() {
        // `2.00`'s level is 6 above `Garlic Fries`' and 14 below `Medium Well`'s: within reach of both.
        // Read in order of level, it meets `Medium Well` first; the line it belongs to forms after it.
        let p = Fixture.page([Fixture.line(385, "Medium Well", x: 150, h: 30), (399, 30, [(520, "2.00")]),
                              Fixture.line(405, "Garlic Fries", x: 150, h: 30)])
        #expect(LayoutAnalyzer.lines(of: p).map(\.text) == ["Medium Well", "Garlic Fries 2.00"])
    }

    /// A number of three digits before the amount is the name's (a model, a size) unless a unit price makes the amount
    /// with it, also rounded to the cent.
    @Test func aThreeDigitNumberBeforeTheAmountIsACountOnlyWithItsPrice() throws {
        let doc = Fixture.document(Fixture.page([
            Fixture.line(40, "HARBOR MARINE SUPPLY", x: 180),
            Fixture.line(100, "Sun Odyssey 490"), (100, 16, [(480, "4,980.00")]),
            Fixture.line(122, "FLYERS 100 0.73"), (122, 16, [(492, "73.14")]),
            Fixture.line(144, "Wheat germ 400"), (144, 16, [(500, "2.39")]),
            Fixture.line(180, "TOTAL"), (180, 16, [(480, "5,055.53")]),
        ]))
        let r = try #require(try extractor.extract(doc, as: .receipt).receipt)
        #expect(r.items.map(\.description) == ["Sun Odyssey 490", "FLYERS", "Wheat germ 400"])
        #expect(r.items.map(\.quantity) == [nil, "100", nil])
    }

}

/// Receipts of the seventy-eighth session's looked-at photos (`/tmp/h33`), each written here with other shops.
@Suite struct NorthAmericanSlipTests {
    let extractor = DocumentExtractor(
        detector: try! DataDetector(referenceDate: CalendarDay(year: 2024, month: 1, day: 1)))

    func receipt(_ lines: [(Double, Double, [(Double, String)])]) -> Receipt {
        try! extractor.extract(Fixture.document(Fixture.page(lines)), as: .receipt).receipt!
    }

    /// Quebec prints its two taxes by their French names, TPS and TVQ (a decimal comma in the rate): both are taxes,
    /// and the registration numbers under them are not.
    @Test func quebecTaxesByTheirFrenchNames() {
        let r = receipt([
            Fixture.line(40, "Café Lumière", x: 180, h: 24),
            Fixture.line(70, "3455 boul. Saint-Laurent", x: 170),
            Fixture.line(90, "Montréal (QC) H2X 2T6", x: 175),
            Fixture.line(200, "2 Café au lait"), (200, 16, [(500, "9.00")]),
            Fixture.line(222, "1 Croissant"), (222, 16, [(500, "16.20")]),
            Fixture.line(260, "Sous-total"), (260, 16, [(500, "25.20")]),
            Fixture.line(282, "TPS 5%"), (282, 16, [(508, "1.26")]),
            Fixture.line(304, "TVQ 9,975%"), (304, 16, [(508, "2.51")]),
            Fixture.line(326, "TOTAL"), (326, 16, [(500, "28.97")]),
            Fixture.line(380, "TPS 812345678 RT0001", x: 170),
            Fixture.line(400, "TVQ 1223456789 TQ0001", x: 170),
        ])
        #expect(r.tax.map(\.amount) == ["1.26", "2.51"])
        #expect(r.total == "28.97")
    }

    /// A sandwich named a sub on an article's line led by its count is an article, not the subtotal.
    @Test func aSubIsASandwich() {
        let r = receipt([
            Fixture.line(40, "TONY'S DELI & SUBS", x: 180, h: 24),
            Fixture.line(70, "301 Garden St", x: 190),
            Fixture.line(90, "Hoboken, NJ 07030", x: 185),
            Fixture.line(200, "1 Meatball Sub"), (200, 16, [(500, "11.95")]),
            Fixture.line(222, "2 Chips"), (222, 16, [(508, "3.50")]),
            Fixture.line(260, "Subtotal"), (260, 16, [(500, "15.45")]),
            Fixture.line(282, "NJ Sales Tax 6.625%"), (282, 16, [(508, "1.02")]),
            Fixture.line(304, "TOTAL"), (304, 16, [(500, "16.47")]),
        ])
        #expect(r.subtotal == "15.45")
        #expect(r.items.map(\.description).contains("Meatball Sub"))
        // A count of articles before `SUB` is still the subtotal's line; a word after it is a total's only when it
        // is one (`1 Turkey Sub Toasted` is a sandwich).
        #expect(ReceiptParser.isSubtotal("3 ITEMS SUB"))
        #expect(ReceiptParser.isSubtotal("2 SUB"))
        #expect(ReceiptParser.isSubtotal("SUB TTL"))
        #expect(ReceiptParser.isSubtotal("SUB T0TAL"))
        #expect(ReceiptParser.isSubtotal("SUB TT1"))
        #expect(!ReceiptParser.isSubtotal("1 TURKEY SUB TOASTED"))
        #expect(!ReceiptParser.isSubtotal("1 ITALIAN COMBO SUB"))
    }

    /// The dot a header prints between an address's parts is no part of it.
    @Test func theSeparatorDotIsNoPartOfTheAddress() {
        let r = receipt([
            Fixture.line(40, "MESA VERDE GRILL", x: 180, h: 24),
            Fixture.line(70, "401 Central Ave SW · Albuquerque, NM 87102", x: 120),
            Fixture.line(90, "(505) 555-0142", x: 200),
            Fixture.line(200, "1 Green Chile Stew"), (200, 16, [(500, "9.50")]),
            Fixture.line(260, "TOTAL"), (260, 16, [(500, "9.50")]),
        ])
        #expect(r.merchant.address == "401 Central Ave SW Albuquerque, NM 87102")
    }

    /// An article's code shaped like a UK postcode (`A19 4PK`: no postcode area opens with `A`) does not make a US
    /// slip British, so its date stays month first.
    @Test func anArticleCodeIsNoBritishPostcode() {
        let r = receipt([
            Fixture.line(40, "Juniper Home & Hardware", x: 160, h: 24),
            Fixture.line(70, "6319 Jamison St", x: 190),
            Fixture.line(90, "Bend, OR 97701", x: 195),
            Fixture.line(200, "LED BULB A19 4PK"), (200, 16, [(500, "9.97")]),
            Fixture.line(260, "TOTAL"), (260, 16, [(500, "9.97")]),
            Fixture.line(300, "10/07/2023 2:09 PM", x: 180),
        ])
        #expect(r.date == "2023-10-07")
    }
}
