import Testing
import ScanDetectors
import ScanLayout
import ScanModel
@testable import ScanExtraction

/// Receipts as tills outside Europe and the US print them: India's lakh grouping and its two GST halves of one
/// rate, a service charge added to the bill, a dollar sign on a receipt in a day-first language. The receipts are
/// written for these tests.
@Suite struct WorldReceiptsTests {
    let extractor = DocumentExtractor(
        detector: try! DataDetector(referenceDate: CalendarDay(year: 2025, month: 6, day: 1)))

    func receipt(_ lines: [(Double, Double, [(Double, String)])]) throws -> Receipt {
        try #require(try extractor.extract(Fixture.document(Fixture.page(lines)), as: .receipt).receipt)
    }

    /// An Indian bill: amounts over a lakh grouped in pairs, and CGST and SGST of one rate and amount, both paid.
    @Test func anIndianBillKeepsItsLakhsAndBothHalvesOfItsGST() throws {
        let r = try receipt([
            Fixture.line(40, "SHREE ELECTRONICS PVT LTD", x: 150),
            Fixture.line(70, "MG Road, Bengaluru 560001", x: 150),
            Fixture.line(110, "Date: 12/03/2025"),
            Fixture.line(150, "LED TV 55in"), (150, 16, [(440, "89,999.00")]),
            Fixture.line(172, "Soundbar"), (172, 16, [(440, "14,200.00")]),
            Fixture.line(210, "Sub Total"), (210, 16, [(420, "1,04,199.00")]),
            Fixture.line(232, "CGST 9%"), (232, 16, [(430, "9,377.91")]),
            Fixture.line(254, "SGST 9%"), (254, 16, [(430, "9,377.91")]),
            Fixture.line(290, "Grand Total Rs."), (290, 16, [(420, "1,22,954.82")]),
        ])
        #expect(r.subtotal == "104199.00")
        #expect(r.total == "122954.82")
        #expect(r.tax.map(\.amount) == ["9377.91", "9377.91"])
        #expect(r.date == "2025-03-12")
    }

    /// The same tax printed twice is one tax: in the summary and again in a tax table, or on lines one under the
    /// other under two names of one tax (`GST 6%`, `TAX 6%`).
    @Test func oneTaxPrintedTwiceIsOne() throws {
        let r = try receipt([
            Fixture.line(40, "KEDAI MAKAN SEDAP", x: 150),
            Fixture.line(150, "Nasi Lemak"), (150, 16, [(440, "20.00")]),
            Fixture.line(210, "GST 6%"), (210, 16, [(450, "1.20")]),
            Fixture.line(232, "TAX 6%"), (232, 16, [(450, "1.20")]),
            Fixture.line(254, "TOTAL"), (254, 16, [(440, "21.20")]),
            Fixture.line(290, "GST 6%"), (290, 16, [(450, "1.20")]),
        ])
        #expect(r.tax.map(\.amount) == ["1.20"])
        #expect(r.total == "21.20")
    }

    /// A service charge is a fee of the bill, so that the sums add up to the total.
    @Test func aServiceChargeIsAFee() throws {
        let r = try receipt([
            Fixture.line(40, "RAMEN HOUSE PTE LTD", x: 150),
            Fixture.line(150, "Tonkotsu Ramen"), (150, 16, [(440, "18.90")]),
            Fixture.line(172, "Gyoza"), (172, 16, [(450, "8.50")]),
            Fixture.line(210, "Subtotal"), (210, 16, [(440, "27.40")]),
            Fixture.line(232, "Svc Chg 10%"), (232, 16, [(450, "2.74")]),
            Fixture.line(254, "GST 9%"), (254, 16, [(450, "2.71")]),
            Fixture.line(290, "TOTAL"), (290, 16, [(440, "32.85")]),
            Fixture.line(330, "Customer Service Hotline 6123 4567"),
        ])
        #expect(r.fees?.map(\.amount) == ["2.74"])
        #expect(r.total == "32.85")
        #expect(r.items.map(\.description) == ["Tonkotsu Ramen", "Gyoza"])
        #expect(ReceiptParser.role("SERVICE TAX 6") == .tax)
        #expect(ReceiptParser.role("SERVICE 5") == .fee)
        for label in ["ROOM SERVICE", "LAUNDRY SERVICE", "CUSTOMER SERVICE HOTLINE"] {
            #expect(ReceiptParser.role(label) == .none, "\(label)")
        }
    }

    /// A `$` on a receipt in Spanish does not make its dates American: Mexico writes the day first.
    @Test func aDollarInADayFirstLanguageKeepsTheDayFirst() throws {
        let r = try receipt([
            Fixture.line(40, "TAQUERIA EL GUERO", x: 150),
            Fixture.line(70, "Fecha: 12/03/2025"),
            Fixture.line(150, "Tacos al pastor"), (150, 16, [(440, "$120.00")]),
            Fixture.line(172, "Agua fresca"), (172, 16, [(450, "$35.00")]),
            Fixture.line(210, "Subtotal"), (210, 16, [(440, "$155.00")]),
            Fixture.line(232, "IVA 16%"), (232, 16, [(450, "$24.80")]),
            Fixture.line(254, "TOTAL"), (254, 16, [(440, "$179.80")]),
            Fixture.line(276, "Efectivo"), (276, 16, [(440, "$200.00")]),
            Fixture.line(298, "Cambio"), (298, 16, [(450, "$20.20")]),
            Fixture.line(330, "Gracias por su visita"),
        ])
        #expect(r.date == "2025-03-12")
        #expect(r.total == "179.80")
    }

    /// A rupee's or a real's abbreviation before the amount is the currency, not part of the article's name.
    @Test func aCurrencyWordBeforeTheAmountIsNoPartOfTheName() throws {
        let r = try receipt([
            Fixture.line(40, "KIRANA STORE", x: 150),
            Fixture.line(150, "Toor Dal 1kg"), (150, 16, [(380, "2"), (410, "Rs."), (450, "318.00")]),
            Fixture.line(172, "Basmati Rice"), (172, 16, [(380, "1"), (410, "Rs."), (450, "142.00")]),
            Fixture.line(210, "TOTAL"), (210, 16, [(410, "Rs."), (450, "460.00")]),
        ])
        #expect(r.items.map(\.description) == ["Toor Dal 1kg", "Basmati Rice"])
        #expect(r.items.map(\.quantity) == ["2", "1"])
        #expect(r.total == "460.00")
    }

    /// Thousands grouped by spaces with a decimal point, after the currency (`R 1 249.97`, South Africa): one amount.
    /// Without the currency before them the words stay apart, as a count and a price.
    @Test func spaceGroupsAfterACurrencyAreOneAmount() throws {
        let r = try receipt([
            Fixture.line(40, "HOME STORE (PTY) LTD", x: 150),
            Fixture.line(150, "Kettle"), (150, 16, [(440, "R"), (452, "1"), (463, "049.99")]),
            Fixture.line(172, "Mug"), (172, 16, [(440, "R"), (463, "199.98")]),
            Fixture.line(194, "Spoon 2 9.99"), (194, 16, [(463, "19.98")]),
            Fixture.line(230, "TOTAL"), (230, 16, [(440, "R"), (452, "1"), (463, "269.95")]),
        ])
        #expect(r.total == "1269.95")
        #expect(r.items.map(\.amount) == ["1049.99", "199.98", "19.98"])
        let plain = LayoutLine(page: 0, words: EuropeanAmountsTests.words(["Item", "2", "249.00"]), level: 0)
        #expect(LineAnalyzer.joiningSpaceGroups(plain, afterCurrency: true).words.count == 3)
    }

    /// A Turkish receipt: its labels come from `tr.json`.
    @Test func aTurkishReceiptReadsItsLabels() throws {
        let r = try receipt([
            Fixture.line(40, "ÖZKAN GIDA LTD ŞTİ", x: 150),
            Fixture.line(70, "Atatürk Cad. No:12 Kadıköy", x: 150),
            Fixture.line(100, "TARİH: 14.03.2025  SAAT: 12:41"),
            Fixture.line(122, "FİŞ NO: 0042"),
            Fixture.line(160, "EKMEK"), (160, 16, [(440, "*15,00")]),
            Fixture.line(182, "SÜT 1L"), (182, 16, [(440, "*42,50")]),
            Fixture.line(220, "TOPKDV"), (220, 16, [(450, "*0,57")]),
            Fixture.line(242, "TOPLAM"), (242, 16, [(440, "*57,50")]),
            Fixture.line(264, "NAKİT"), (264, 16, [(440, "*60,00")]),
            Fixture.line(286, "PARA ÜSTÜ"), (286, 16, [(450, "*2,50")]),
        ])
        #expect(r.total == "57.50")
        #expect(r.tax.map(\.amount) == ["0.57"])
        #expect(r.items.map(\.description) == ["EKMEK", "SÜT 1L"])
        #expect(r.payment?.method == "cash")
        #expect(r.receiptNumber == "0042")
        #expect(r.date == "2025-03-14")
    }

    /// A Hungarian till slip: whole forints grouped by spaces before `Ft` (`1 299 Ft`), short ones too (`699 Ft`,
    /// `-230 Ft`), its labels from `hu.json`, and the count and unit price printed over the article they belong to,
    /// which their product says (`3 x 389` makes the `1 167` below, not the `699` above).
    @Test func aHungarianSlipReadsWholeForintsAndCountsOverTheirArticle() throws {
        let r = try receipt([
            Fixture.line(40, "KISBOLT KFT.", x: 150),
            Fixture.line(70, "1117 Budapest, Fehérvári út 6.", x: 120),
            Fixture.line(100, "Adószám: 10485824-2-07"),
            Fixture.line(122, "NYUGTA 0381/00422"),
            Fixture.line(144, "2024.06.25. 17:12"),
            Fixture.line(180, "TRAPPISTA SAJT 250G"), (180, 16, [(420, "1"), (431, "299"), (464, "Ft")]),
            Fixture.line(202, "KENYÉR FEHÉR 1KG"), (202, 16, [(431, "699"), (464, "Ft")]),
            Fixture.line(224, "3 x 389"),
            Fixture.line(246, "TEJ 2,8% 1L"), (246, 16, [(420, "1"), (431, "167"), (464, "Ft")]),
            Fixture.line(268, "KEDVEZMÉNY"), (268, 16, [(422, "-230"), (464, "Ft")]),
            Fixture.line(300, "ÖSSZESEN:"), (300, 16, [(420, "2"), (431, "935"), (464, "Ft")]),
            Fixture.line(322, "KÉSZPÉNZ:"), (322, 16, [(420, "3"), (431, "000"), (464, "Ft")]),
            Fixture.line(344, "VISSZAJÁRÓ:"), (344, 16, [(442, "65"), (464, "Ft")]),
            Fixture.line(376, "27% ÁFA:"), (376, 16, [(431, "624"), (464, "Ft")]),
        ])
        #expect(r.total == "2935")
        #expect(r.currency == "HUF")
        #expect(r.items.filter { $0.kind == nil }.map(\.amount) == ["1299", "699", "1167"])
        #expect(r.items.map(\.quantity) == [nil, nil, "3", nil])
        #expect(r.items.first { $0.amount == "1167" }?.unitPrice == "389")
        #expect(r.payment?.method == "cash")
        #expect(r.payment?.change == "65")
        #expect(r.tax.map(\.amount) == ["624"])
        #expect(r.merchant.taxId == "10485824-2-07")
        #expect(r.date == "2024-06-25")
    }

    /// A weighed article's line under its name with the weight, a times sign and the price per unit, no `/kg` after
    /// it (`0,842 kg × 1,99  1,68`): the name above is the article's, the weight its quantity.
    @Test func aWeightTimesItsPriceUnderANameIsThatArticle() throws {
        let r = try receipt([
            Fixture.line(40, "K-MARKET HELMI", x: 150),
            Fixture.line(150, "RUISLEIPÄ 500G"), (150, 16, [(440, "2,49"), (480, "A")]),
            Fixture.line(172, "BANAANI"),
            Fixture.line(194, "0,842 kg × 1,99", x: 50), (194, 16, [(440, "1,68"), (480, "A")]),
            Fixture.line(216, "KAHVI 500G"), (216, 16, [(440, "5,99"), (480, "A")]),
            Fixture.line(250, "YHTEENSÄ"), (250, 16, [(400, "EUR"), (440, "10,16")]),
        ])
        #expect(r.items.map(\.description) == ["RUISLEIPÄ 500G", "BANAANI", "KAHVI 500G"])
        #expect(r.items.map(\.quantity) == [nil, "0.842", nil])
        #expect(r.items[1].unit == "kg")
        #expect(r.items[1].unitPrice == "1.99")
    }

    /// A tax rate's column after each amount (`2,350.00 13%`, as Costa Rica's tills print it) leaves the amount the
    /// line's.
    @Test func aRateColumnAfterTheAmountLeavesTheAmount() throws {
        let r = try receipt([
            Fixture.line(40, "SUPER EL PUEBLO S.A.", x: 150),
            Fixture.line(150, "ARROZ 2KG"), (150, 16, [(400, "2,350.00"), (480, "1%")]),
            Fixture.line(172, "FRIJOL NEGRO"), (172, 16, [(400, "2,900.00"), (480, "1%")]),
            Fixture.line(194, "JABON"), (194, 16, [(400, "1,890.00"), (480, "13%")]),
            Fixture.line(230, "SUBTOTAL"), (230, 16, [(400, "6,789.44")]),
            Fixture.line(252, "IVA"), (252, 16, [(410, "350.56")]),
            Fixture.line(274, "TOTAL"), (274, 16, [(400, "7,140.00")]),
        ])
        #expect(r.items.map(\.amount) == ["2350.00", "2900.00", "1890.00"])
        #expect(r.total == "7140.00")
    }

    /// A Croatian and a Finnish slip: their labels come from `hr.json` and `fi.json` (the number after `RAČUN BR.`,
    /// `PDV` and `ALV` as taxes, `PRIMLJENO` as the cash given, `OIB` and `Y-tunnus` as the tax number).
    @Test func croatianAndFinnishSlipsReadTheirLabels() throws {
        let hr = try receipt([
            Fixture.line(40, "KONOBA MOLO D.O.O.", x: 150),
            Fixture.line(70, "Obala 12, 21000 Split", x: 150),
            Fixture.line(100, "OIB: 12345678903"),
            Fixture.line(122, "RAČUN BR. 1250/PP12/3"),
            Fixture.line(144, "12.06.2025 20:15"),
            Fixture.line(180, "Crni rižot"), (180, 16, [(440, "16,00")]),
            Fixture.line(202, "Pošip 0,75l"), (202, 16, [(440, "32,00")]),
            Fixture.line(240, "UKUPNO EUR"), (240, 16, [(440, "48,00")]),
            Fixture.line(262, "PDV 13%"), (262, 16, [(450, "5,52")]),
            Fixture.line(284, "Način plaćanja: Gotovina"),
            Fixture.line(306, "Primljeno"), (306, 16, [(440, "50,00")]),
            Fixture.line(328, "Vraćeno"), (328, 16, [(450, "2,00")]),
        ])
        #expect(hr.receiptNumber == "1250/PP12/3")
        #expect(hr.merchant.taxId == "12345678903")
        #expect(hr.tax.map(\.amount) == ["5.52"])
        #expect(hr.total == "48.00")
        #expect(hr.payment?.tendered == "50.00")
        let fi = try receipt([
            Fixture.line(40, "RAVINTOLA KUU OY", x: 150),
            Fixture.line(70, "Töölönkatu 27, 00260 Helsinki", x: 150),
            Fixture.line(100, "Y-tunnus: 2345678-9"),
            Fixture.line(122, "Kuitti nro 4471"),
            Fixture.line(180, "Lohikeitto"), (180, 16, [(440, "18,50")]),
            Fixture.line(202, "Olut 0,5l"), (202, 16, [(440, "8,90")]),
            Fixture.line(240, "YHTEENSÄ"), (240, 16, [(440, "27,40")]),
            Fixture.line(262, "ALV 14 %"), (262, 16, [(450, "2,27")]),
            Fixture.line(284, "ALV 25,5 %"), (284, 16, [(450, "1,80")]),
        ])
        #expect(fi.receiptNumber == "4471")
        #expect(fi.merchant.taxId == "2345678-9")
        #expect(fi.tax.map(\.amount) == ["2.27", "1.80"])
        #expect(fi.total == "27.40")
        // It names no currency: Finnish is written on one country's receipts, whose currency `fi.json` gives.
        #expect(fi.currency == "EUR")
    }

    /// Tax lines the others prove to be none: a rate's base beside its tax (20% of 31,50 is 6,30), and a line that
    /// adds up the taxes above it.
    @Test func aTaxBaseAndATaxTotalAreNoTaxes() throws {
        let sk = try receipt([
            Fixture.line(40, "REŠTAURÁCIA PRI MOSTE S.R.O.", x: 150),
            Fixture.line(150, "Bryndzové halušky"), (150, 16, [(440, "12,90")]),
            Fixture.line(172, "Pivo 0,5l"), (172, 16, [(440, "24,90")]),
            Fixture.line(210, "SPOLU EUR"), (210, 16, [(440, "37,80")]),
            Fixture.line(232, "Základ DPH 20%"), (232, 16, [(440, "31,50")]),
            Fixture.line(254, "DPH 20%"), (254, 16, [(450, "6,30")]),
        ])
        #expect(sk.tax.map(\.amount) == ["6.30"])
        let ro = try receipt([
            Fixture.line(40, "MAGAZIN ALFA SRL", x: 150),
            Fixture.line(150, "Paine"), (150, 16, [(440, "4,50")]),
            Fixture.line(172, "Vin rosu"), (172, 16, [(440, "41,17")]),
            Fixture.line(194, "Cafea"), (194, 16, [(440, "52,99")]),
            Fixture.line(230, "TOTAL"), (230, 16, [(440, "98,66")]),
            Fixture.line(252, "TVA A 19%"), (252, 16, [(450, "7,29")]),
            Fixture.line(274, "TVA B 9%"), (274, 16, [(450, "4,38")]),
            Fixture.line(296, "TOTAL TVA"), (296, 16, [(440, "11,67")]),
        ])
        #expect(ro.tax.map(\.amount) == ["7.29", "4.38"])
        #expect(ro.total == "98.66")
        // A zero tax makes any tax the others' sum: nothing is dropped then.
        let india = try receipt([
            Fixture.line(40, "SHREE SWEETS PVT LTD", x: 150),
            Fixture.line(70, "MG Road, Bengaluru 560001", x: 150),
            Fixture.line(150, "Kaju Katli 1kg"), (150, 16, [(440, "900.00")]),
            Fixture.line(172, "Rasgulla"), (172, 16, [(440, "100.00")]),
            Fixture.line(210, "Sub Total"), (210, 16, [(430, "1,000.00")]),
            Fixture.line(232, "CGST"), (232, 16, [(440, "90.00")]),
            Fixture.line(254, "SGST"), (254, 16, [(440, "90.00")]),
            Fixture.line(276, "CESS"), (276, 16, [(450, "0.00")]),
            Fixture.line(310, "Grand Total Rs."), (310, 16, [(430, "1,180.00")]),
        ])
        #expect(india.tax.map(\.amount).filter { $0 != "0.00" } == ["90.00", "90.00"])
    }

    /// A slip whose amounts are all under a thousand forints is in whole units all the same: the currency's word
    /// after them says so.
    @Test func aSmallHungarianSlipIsInWholeForints() throws {
        let r = try receipt([
            Fixture.line(40, "BÜFÉ KFT.", x: 150),
            Fixture.line(150, "KÁVÉ"), (150, 16, [(431, "450"), (464, "Ft")]),
            Fixture.line(172, "KIFLI"), (172, 16, [(431, "120"), (464, "Ft")]),
            Fixture.line(210, "ÖSSZESEN:"), (210, 16, [(431, "570"), (464, "Ft")]),
        ])
        #expect(r.total == "570")
        #expect(r.items.map(\.amount) == ["450", "120"])
    }

    /// `þar af VSK 11%` (Iceland's VAT included) read with its thorn as a b holds German's `BAR` (cash): the
    /// tax-included phrase wins, and the card pays the bill.
    @Test func anIcelandicTaxIncludedLineIsNoPayment() throws {
        let r = try receipt([
            Fixture.line(40, "GRILLHÚSIÐ EHF", x: 150),
            Fixture.line(150, "1 Humarsúpa"), (150, 16, [(440, "3.490")]),
            Fixture.line(172, "1 Lambakjöt"), (172, 16, [(440, "6.990")]),
            Fixture.line(210, "Samtals ISK"), (210, 16, [(430, "10.480")]),
            Fixture.line(232, "bar af VSK 11%"), (232, 16, [(440, "1.039")]),
            Fixture.line(254, "Mastercard ****4471"), (254, 16, [(430, "10.480")]),
        ])
        #expect(r.tax.map(\.amount) == ["1039"])
        #expect(r.payment?.method == "card")
        #expect(r.total == "10480")
        // A payment word beside a tax-included phrase still pays.
        #expect(ReceiptParser.role("VISA INCL GST") == .tendered)
        #expect(ReceiptParser.role("BAR AF VSK 11") == .tax)
    }

    /// A Lithuanian bill: its total, its VAT and its tip by Lithuanian words; the closing's `KAD` (Malay's card word)
    /// pays nothing, and the cash pays.
    @Test func aLithuanianBillKeepsItsTipOutOfTheTotalAndPaysInCash() throws {
        let r = try receipt([
            Fixture.line(40, "KAVINĖ PRIE UPĖS", x: 150),
            Fixture.line(70, "Pilies g. 12, Vilnius", x: 150),
            Fixture.line(100, "PVM kodas LT100004567812"),
            Fixture.line(150, "Cepelinai"), (150, 16, [(440, "19,00")]),
            Fixture.line(172, "Gira"), (172, 16, [(440, "3,50")]),
            Fixture.line(210, "IŠ VISO EUR"), (210, 16, [(430, "22,50")]),
            Fixture.line(232, "PVM 21 %"), (232, 16, [(440, "3,90")]),
            Fixture.line(254, "Arbatpinigiai"), (254, 16, [(440, "2,00")]),
            Fixture.line(276, "Grynaisiais"), (276, 16, [(430, "30,00")]),
            Fixture.line(298, "Grąža"), (298, 16, [(440, "5,50")]),
            Fixture.line(330, "AČIŪ, KAD APSIPIRKOTE!"),
        ])
        #expect(r.total == "22.50")
        #expect(r.tip == "2.00")
        #expect(r.tax.map(\.amount) == ["3.90"])
        #expect(r.payment?.method == "cash")
        #expect(r.payment?.change == "5.50")
        #expect(r.merchant.taxId == "LT100004567812")
        #expect(r.currency == "EUR")
    }

    /// Kenya's `KRA PIN` holds Dutch's card word `PIN`: a tax number's label pays nothing; M-PESA does.
    @Test func aTaxNumbersLabelIsNoPayment() throws {
        let r = try receipt([
            Fixture.line(40, "JAVA HOUSE", x: 150),
            Fixture.line(70, "KRA PIN: P051234567X"),
            Fixture.line(150, "Cappuccino"), (150, 16, [(440, "350.00")]),
            Fixture.line(210, "TOTAL KES"), (210, 16, [(430, "350.00")]),
            Fixture.line(232, "M-PESA"), (232, 16, [(430, "350.00")]),
        ])
        #expect(r.merchant.taxId == "P051234567X")
        #expect(r.payment?.method == "mobile")
    }

    /// `Total con propina` is the total a tip is in, not the tip: the bill's total stays, the tip is its own line's.
    @Test func theTotalWithTheTipIsNoTip() throws {
        let r = try receipt([
            Fixture.line(40, "RESTAURANTE EL CARDENAL", x: 150),
            Fixture.line(150, "Chilaquiles"), (150, 16, [(440, "$250.00")]),
            Fixture.line(190, "Subtotal"), (190, 16, [(440, "$250.00")]),
            Fixture.line(212, "IVA 16%"), (212, 16, [(440, "$40.00")]),
            Fixture.line(234, "Total"), (234, 16, [(440, "$290.00")]),
            Fixture.line(256, "Propina"), (256, 16, [(440, "$40.00")]),
            Fixture.line(278, "Total con propina"), (278, 16, [(440, "$330.00")]),
        ])
        #expect(r.tip == "40.00")
        #expect(r.total == "290.00")
        #expect(ReceiptParser.isTip("TOTAL CON PROPINA") == false)
        #expect(ReceiptParser.isTip("TOTAL TIP") == true)
    }

    /// The money handed over labelled and the change's label misread (`Tiêà thôí lai`): the change is the tender less
    /// the total, printed under it. A company's start date (`Inicio de actividades`) is no receipt's date.
    @Test func theChangeUnderALabelledTenderAndNoStartDate() throws {
        let vn = try receipt([
            Fixture.line(40, "CO.OPMART", x: 150),
            Fixture.line(150, "Gao ST25"), (150, 16, [(440, "185.000")]),
            Fixture.line(210, "Tổng cộng:"), (210, 16, [(430, "185.000 đ")]),
            Fixture.line(232, "Tiền khách đưa:"), (232, 16, [(430, "200.000")]),
            Fixture.line(254, "Tiêà thôí lai:"), (254, 16, [(440, "15.000")]),
        ])
        #expect(vn.total == "185000")
        #expect(vn.payment?.tendered == "200000")
        #expect(vn.payment?.change == "15000")
        let ar = try receipt([
            Fixture.line(40, "CARREFOUR", x: 150),
            Fixture.line(70, "Inicio de actividades: 01/08/1993"),
            Fixture.line(92, "Fecha 14/06/24 Hora 18:30"),
            Fixture.line(150, "Yerba"), (150, 16, [(440, "2.500,00")]),
            Fixture.line(210, "TOTAL"), (210, 16, [(430, "2.500,00")]),
        ])
        #expect(ar.date == "2024-06-14")
    }

    /// Vietnam's dong after its amount, set apart (`185.000 đ`): an amount in whole units, the total, in dong.
    @Test func aVietnameseTotalWithItsDongSign() throws {
        let r = try receipt([
            Fixture.line(40, "CO.OPMART", x: 150),
            Fixture.line(150, "Gao ST25"), (150, 16, [(440, "185.000")]),
            Fixture.line(210, "Tong cong:"), (210, 16, [(410, "185.000"), (480, "đ")]),
        ])
        #expect(r.total == "185000")
        #expect(r.currency == "VND")
    }

    /// A receipt's number after a series of letters set apart (`FS 0412/018853`, Portugal's), a class letter before
    /// the sign (`TIQUE FACTURA B Nro.`, Argentina's), `n.º`, or on the line under its document's name; a date after
    /// the name is no number.
    @Test func receiptNumbersWithTheirSeriesAndOnTheNextLine() throws {
        func number(_ header: [String]) throws -> String? {
            var lines: [(Double, Double, [(Double, String)])] = [Fixture.line(40, "LOJA DO BAIRRO", x: 150)]
            for (k, h) in header.enumerated() { lines.append(Fixture.line(70 + Double(k) * 22, h)) }
            lines += [
                Fixture.line(180, "Pão"), (180, 16, [(440, "1,20")]),
                Fixture.line(220, "TOTAL"), (220, 16, [(430, "1,20")]),
            ]
            return try receipt(lines).receiptNumber
        }
        #expect(try number(["FATURA SIMPLIFICADA FS 0412/018853"]) == "FS 0412/018853")
        #expect(try number(["FATURA-RECIBO FR A/2291"]) == "FR A/2291")
        #expect(try number(["Fatura n.º FT 2024/0871"]) == "FT 2024/0871")
        #expect(try number(["TIQUE FACTURA B  Nro. 0045-00123456"]) == "0045-00123456")
        #expect(try number(["BOLETA ELECTRONICA", "Nº 123456789"]) == "123456789")
        #expect(try number(["RECEIPT", "19/10/2018 20:49"]) == nil)
        #expect(try number(["Kvitas Nr. 0156/23871"]) == "0156/23871")
        // A sign is no series, and a document's name alone takes the next line only when that opens with a sign.
        #expect(try number(["RECEIPT NO 001234"]) == "001234")
        #expect(try number(["ORDER ID 12345"]) == "12345")
        #expect(try number(["RECEIPT", "123 MAIN ST"]) == nil)
    }

    /// A weight or a count under its article's name with more on its line than the figures: a word after the weight
    /// (`0.846 kg NET @ $4.90/kg`), a rand's `R` before the price (`38.52 L @ R23.45/L`), no unit after the price
    /// (`0,734 kg X 14,99`, its product the amount), a word after the price (`2 @ $5.50 each`); and South Africa's
    /// zero-rated mark after an amount (`17.99 #`).
    @Test func weightsAndCountsUnderTheirNamesAndAZeroRatedMark() throws {
        let r = try receipt([
            Fixture.line(40, "FRESH MARKET", x: 150),
            Fixture.line(150, "Bananas Cavendish"),
            Fixture.line(172, "0.846 kg NET @ $4.90/kg"), (172, 16, [(440, "4.15")]),
            Fixture.line(194, "Pump 04 UNLEADED"),
            Fixture.line(216, "38.52 L @ R23.45/L"), (216, 16, [(430, "903.29")]),
            Fixture.line(238, "Bacalhau Posta"),
            Fixture.line(260, "0.734 kg X 14.99"), (260, 16, [(440, "11.00")]),
            Fixture.line(282, "Wholemeal Bread"),
            Fixture.line(304, "2 @ $5.50 each"), (304, 16, [(440, "11.00")]),
            Fixture.line(326, "Maize Meal 2.5kg"), (326, 16, [(440, "42.99"), (490, "#")]),
            Fixture.line(370, "TOTAL"), (370, 16, [(430, "972.43")]),
        ])
        #expect(r.items.map(\.amount) == ["4.15", "903.29", "11.00", "11.00", "42.99"])
        #expect(r.items.map(\.description) == [
            "Bananas Cavendish", "Pump 04 UNLEADED", "Bacalhau Posta", "Wholemeal Bread", "Maize Meal 2.5kg",
        ])
        #expect(r.items.map(\.quantity) == ["0.846", "38.52", "0.734", "2", nil])
        #expect(r.items.map(\.unitPrice) == ["4.90", "23.45", "14.99", "5.50", nil])
        // A pack's size and its price a kilo are no weight sold (`100 g Tafel 12,90/kg`); a bin is no tax number's
        // label.
        let de = try receipt([
            Fixture.line(40, "MARKT", x: 150),
            Fixture.line(150, "SCHOKOLADE 100 g Tafel 12,90/kg"), (150, 16, [(440, "1,29")]),
            Fixture.line(172, "PEDAL BIN 30L"), (172, 16, [(440, "24,99")]),
            Fixture.line(210, "SUMME"), (210, 16, [(430, "26,28")]),
        ])
        #expect(de.items.map(\.quantity) == [nil, nil])
        #expect(de.items.map(\.amount) == ["1.29", "24.99"])
        // A count, a times sign and a price are an article's count, not the articles'.
        #expect(ReceiptParser.role("QTY 2") == .quantityTotal)
    }

    /// Brazil's NFC-e: a row's index padded with noughts and the article's code before its name (`001 7896079900016
    /// LEITE`), its count and price under it; Argentina's VAT rate in brackets before the amount (`(21,00)`) is no
    /// price; a weight line no name goes with is still an article.
    @Test func rowIndexesBracketedRatesAndAWeightAlone() throws {
        let br = try receipt([
            Fixture.line(40, "PAO DE ACUCAR", x: 150),
            Fixture.line(150, "001 7896079900016 LEITE INTEGRAL 1L"),
            Fixture.line(172, "2 UN x 5,49"), (172, 16, [(440, "10,98")]),
            Fixture.line(194, "*** 4"),
            Fixture.line(216, "0,480 KG x 16,90"), (216, 16, [(440, "8,11")]),
            Fixture.line(260, "TOTAL R$"), (260, 16, [(440, "19,09")]),
        ])
        #expect(br.items.first?.description == "LEITE INTEGRAL 1L")
        #expect(br.items.first?.quantity == "2")
        #expect(br.items.first?.code == "7896079900016")
        #expect(br.items.map(\.amount) == ["10.98", "8.11"])
        let ar = try receipt([
            Fixture.line(40, "CARREFOUR", x: 150),
            Fixture.line(150, "YERBA PLAYADITO 1KG (21,00)"), (150, 16, [(440, "4.890,00")]),
            Fixture.line(210, "TOTAL"), (210, 16, [(430, "4.890,00")]),
        ])
        #expect(ar.items.first?.unitPrice == nil)
        #expect(ar.items.first?.amount == "4890.00")
    }

    /// A Philippine slip: its VAT-exempt and VATable sales are no tax, its `P` (the peso's sign read without its
    /// strokes) is the peso where Makati City says the Philippines, and its date is month first.
    @Test func aPhilippineSlipsExemptSalesAreNoTax() throws {
        let r = try receipt([
            Fixture.line(40, "SM SUPERMARKET", x: 150),
            Fixture.line(70, "Makati City", x: 150),
            Fixture.line(100, "07/05/2024 12:14"),
            Fixture.line(150, "Rice 5kg"), (150, 16, [(440, "P498.75")]),
            Fixture.line(172, "Soap"), (172, 16, [(440, "P112.00")]),
            Fixture.line(210, "TOTAL"), (210, 16, [(430, "P610.75")]),
            Fixture.line(232, "VATable Sales"), (232, 16, [(440, "100.00")]),
            Fixture.line(254, "VAT-Exempt Sales"), (254, 16, [(440, "498.75")]),
            Fixture.line(276, "VAT Amount (12%)"), (276, 16, [(440, "12.00")]),
        ])
        #expect(r.tax.map(\.amount) == ["12.00"])
        #expect(r.currency == "PHP")
        #expect(r.date == "2024-07-05")
    }

    /// India's GST table under the total: each rate's taxable value and its two equal halves (CGST, SGST) are two
    /// taxes at half the rate; a row of two different amounts after its base is no such table's.
    @Test func anIndianGSTTableGivesBothHalvesOfEachRate() throws {
        let r = try receipt([
            Fixture.line(40, "DMART", x: 150),
            Fixture.line(150, "Toor Dal 1kg"), (150, 16, [(440, "1,129.99")]),
            Fixture.line(172, "Detergent 2kg"), (172, 16, [(440, "460.01")]),
            Fixture.line(210, "NET AMOUNT"), (210, 16, [(430, "1,590.00")]),
            Fixture.line(250, "GST% Taxable CGST SGST"),
            (272, 16, [(20, "5%"), (150, "1,076.19"), (300, "26.91"), (440, "26.91")]),
            (294, 16, [(20, "18%"), (150, "389.83"), (300, "35.09"), (440, "35.09")]),
        ])
        #expect(r.tax.map(\.amount) == ["26.91", "26.91", "35.09", "35.09"])
        #expect(r.tax.map(\.rate) == ["2.5", "2.5", "9", "9"])
        #expect(r.total == "1590.00")
    }

    /// A count line that opens with the quantity's own label and ends with the unit it counts (`Qty 2 @ $5.50 each`),
    /// under its article's line or holding the amount itself, is that article's count and price.
    @Test func aLabelledCountLineIsItsArticlesCount() throws {
        for amountOnCountLine in [false, true] {
            let r = try receipt([
                Fixture.line(40, "CORNER MARKET", x: 150),
                Fixture.line(150, "Widget Large"),
                Fixture.line(172, "Qty 2 @ $5.50 each"),
                (amountOnCountLine ? 172 : 150, 16, [(440, "11.00")]),
                Fixture.line(194, "Bread"), (194, 16, [(440, "3.25")]),
                Fixture.line(230, "TOTAL"), (230, 16, [(430, "14.25")]),
            ])
            #expect(r.items.map(\.description) == ["Widget Large", "Bread"])
            #expect(r.items.map(\.quantity) == ["2", nil])
            #expect(r.items.map(\.unitPrice) == ["5.50", nil])
            #expect(r.items.map(\.amount) == ["11.00", "3.25"])
        }
        // A screw's size and its pack glued to the unit (`5X60 100STK`) is no count and price.
        let screws = try receipt([
            Fixture.line(40, "RAUTA", x: 150),
            Fixture.line(150, "SKRUVAR 5X60 100STK"), (150, 16, [(440, "25,80")]),
            Fixture.line(190, "SUMMA"), (190, 16, [(430, "25,80")]),
        ])
        #expect(screws.items.map(\.description) == ["SKRUVAR 5X60 100STK"])
        #expect(screws.items.map(\.quantity) == [nil])
    }

    /// A currency printed after the total's amount, right of the items' price column under a heading (`Qtd Designação
    /// IVA Total`, then `TOTAL 6,70 EUR` with the code past `Total`), stays with the amount: it names the currency.
    @Test func aCurrencyPastTheHeadingsPriceColumnStaysWithItsAmount() throws {
        let r = try receipt([
            Fixture.line(40, "PASTELARIA DOURADA, LDA", x: 120),
            Fixture.line(62, "Rua de Belem 84 1300-085 Lisboa", x: 100),
            Fixture.line(120, "Qtd Designação IVA"), (120, 16, [(432, "Total")]),
            Fixture.line(142, "1 Tosta Mista"), (142, 16, [(330, "13%"), (440, "3,50")]),
            Fixture.line(164, "2 Galão"), (164, 16, [(330, "23%"), (440, "3,20")]),
            Fixture.line(200, "TOTAL"), (200, 16, [(440, "6,70"), (520, "EUR")]),
        ])
        #expect(r.total == "6.70")
        #expect(r.currency == "EUR")
        #expect(r.items.map(\.amount) == ["3.50", "3.20"])
    }

    /// Ireland's VAT table gives each rate's tax and the gross that holds it (`13.5%  1.88  15.80`), no net: the tax is
    /// the rate's share of the gross, and the table is the whole of the taxes (not the gross of its 0% row under a
    /// heading read as a tax's label).
    @Test func aVATTableOfTaxAndGrossGivesItsTaxes() throws {
        let r = try receipt([
            Fixture.line(40, "O'BRIEN'S CENTRA", x: 150),
            Fixture.line(150, "Toothpaste"), (150, 16, [(440, "€3.25")]),
            Fixture.line(172, "Chicken Fillet Roll x2"), (172, 16, [(440, "€9.00")]),
            Fixture.line(194, "Brennans Bread"), (194, 16, [(440, "€7.69")]),
            Fixture.line(230, "TOTAL"), (230, 16, [(440, "€19.94")]),
            Fixture.line(270, "VAT % VAT"), (270, 16, [(440, "Gross")]),
            Fixture.line(292, "0%"), (292, 16, [(300, "0.00"), (440, "7.69")]),
            Fixture.line(314, "13.5%"), (314, 16, [(300, "1.07"), (440, "9.00")]),
            Fixture.line(336, "23%"), (336, 16, [(300, "0.61"), (440, "3.25")]),
        ])
        #expect(r.tax.map(\.amount) == ["1.07", "0.61"])
        #expect(r.tax.map(\.rate) == ["13.5", "23"])
        #expect(r.total == "19.94")
    }

    /// New Zealand's slips: the GST number in the IRD's shape (`49-378-159`) names the country, so a bare `$` is the
    /// New Zealand dollar and `04/03/2018` the 4th of March; `GST content` is the tax the total holds.
    @Test func aNewZealandSlipByItsGSTNumber() throws {
        let r = try receipt([
            Fixture.line(40, "FLAT TYRE ESPRESSO", x: 150),
            Fixture.line(62, "GST No: 49-378-159", x: 150),
            Fixture.line(84, "150 Ponsonby Rd, Auckland 1011", x: 120),
            Fixture.line(106, "04/03/2018 09:20", x: 150),
            Fixture.line(150, "1 x OJ Fresh"), (150, 16, [(440, "$7.00")]),
            Fixture.line(172, "2 x Lamington"), (172, 16, [(440, "$9.00")]),
            Fixture.line(210, "TOTAL"), (210, 16, [(440, "$16.00")]),
            Fixture.line(232, "GST content"), (232, 16, [(440, "$2.09")]),
            Fixture.line(254, "EFTPOS"), (254, 16, [(440, "$16.00")]),
        ])
        #expect(r.currency == "NZD")
        #expect(r.date == "2018-03-04")
        #expect(r.tax.map(\.amount) == ["2.09"])
        #expect(r.payment?.tendered == "16.00")
    }

    /// A store's article number of five to seven digits before the name is its code (`690094 WD-40 12OZ`); a round
    /// figure or one a measure follows (`100000 MAH POWER BANK`), and a model's number after the name (`HP DESKJET
    /// 3630`), stay the name's.
    @Test func storeNumbersAreNoPartOfTheName() throws {
        let r = try receipt([
            Fixture.line(40, "HARDWARE DEPOT", x: 150),
            Fixture.line(150, "690094 WD-40 12OZ"), (150, 16, [(440, "6.48")]),
            Fixture.line(172, "100000 MAH POWER BANK"), (172, 16, [(440, "29.99")]),
            Fixture.line(194, "HP DESKJET 3630"), (194, 16, [(440, "59.00")]),
            Fixture.line(230, "TOTAL"), (230, 16, [(440, "95.47")]),
        ])
        #expect(r.items.map(\.description) == ["WD-40 12OZ", "100000 MAH POWER BANK", "HP DESKJET 3630"])
        #expect(r.items.map(\.code) == ["690094", nil, nil])
    }

    /// A VAT breakdown's own total row (`Totaal 9,08 1,58 10,66`: net, tax, gross) holds the taxes of every row, also
    /// of a row OCR garbled (`218` for `21%` and `7,88` for `7,68`, so no rate is read and the row does not add up):
    /// where the rows read add up to less, its tax is the taxes'. A row whose rate alone OCR garbled is read by its
    /// arithmetic (`A 238  29.64  6.82  36.46` under `VAT  Net  VAT  Gross`: 6.82 is 23% of 29.64).
    @Test func aBreakdownsTotalRowHoldsTheRowsOCRGarbled() throws {
        let r = try receipt([
            Fixture.line(40, "BUURTSUPER DE HOEK", x: 150),
            Fixture.line(150, "Halfvolle melk 1L"), (150, 16, [(400, "1,19"), (440, "L")]),
            Fixture.line(172, "Stroopwafels"), (172, 16, [(400, "1,79"), (440, "L")]),
            Fixture.line(194, "Zonnebrand"), (194, 16, [(400, "7,68"), (440, "H")]),
            Fixture.line(230, "TOTAAL"), (230, 16, [(400, "10,66")]),
            Fixture.line(260, "BTW"), (260, 16, [(250, "Excl."), (330, "BTW"), (400, "Incl.")]),
            Fixture.line(282, "H 218"), (282, 16, [(250, "6,35"), (330, "1,33"), (400, "7,88")]),
            Fixture.line(304, "L 9%"), (304, 16, [(250, "2,73"), (330, "0,25"), (400, "2,98")]),
            Fixture.line(326, "Totaal"), (326, 16, [(250, "9,08"), (330, "1,58"), (400, "10,66")]),
        ])
        #expect(r.tax.map(\.amount) == ["1.58"])
        #expect(r.total == "10.66")
        let ie = try receipt([
            Fixture.line(40, "O'SULLIVAN'S PHARMACY LTD", x: 150),
            Fixture.line(150, "Paracetamol 500mg"), (150, 16, [(440, "3.49")]),
            Fixture.line(172, "Sun cream SPF50"), (172, 16, [(440, "32.97")]),
            Fixture.line(200, "Total Due"), (200, 16, [(440, "36.46")]),
            (240, 16, [(20, "VAT"), (200, "Net"), (300, "VAT"), (400, "Gross")]),
            Fixture.line(262, "A 238"), (262, 16, [(200, "29.64"), (300, "6.82"), (400, "36.46")]),
        ])
        #expect(ie.tax.map(\.amount) == ["6.82"])
        #expect(ie.tax.first?.rate == "23")
    }

    /// In a currency printed in whole units, a plain number after its sign closes an article's line however short
    /// (`YOGHURT BEBIBLE $ 660` among `$ 2.610`); a gram's letter after a whole number is a size (`TALLARINES 400G $
    /// 2.800`), no price.
    @Test func shortWholeAmountsAfterTheirSignAndSizesInGrams() throws {
        let r = try receipt([
            Fixture.line(40, "MINIMARKET LOS ANDES", x: 150),
            Fixture.line(62, "RUT: 76.451.238-K", x: 150),
            Fixture.line(150, "QUESO FRESCO"), (150, 16, [(380, "$"), (440, "2.610")]),
            Fixture.line(172, "YOGHURT BEBIBLE"), (172, 16, [(380, "$"), (440, "660")]),
            Fixture.line(194, "TALLARINES 400G"), (194, 16, [(380, "$"), (440, "2.800")]),
            Fixture.line(216, "AZUCAR 1KG"), (216, 16, [(380, "$"), (440, "1.040")]),
            Fixture.line(250, "TOTAL"), (250, 16, [(380, "$"), (440, "7.110")]),
        ])
        #expect(r.items.map(\.description) == ["QUESO FRESCO", "YOGHURT BEBIBLE", "TALLARINES 400G", "AZUCAR 1KG"])
        #expect(r.items.map(\.amount) == ["2610", "660", "2800", "1040"])
        #expect(r.total == "7110")
    }

    /// A count before a service charge's word makes it an article (`1 COPERTO  10%  2,59`, Italy's cover charge printed
    /// among the dishes, which the total holds).
    @Test func aCountedCoverChargeIsAnArticle() throws {
        let r = try receipt([
            Fixture.line(40, "TRATTORIA DA MARIO", x: 150),
            Fixture.line(130, "DESCRIZIONE"), (130, 16, [(360, "IVA"), (420, "Prezzo(€)")]),
            Fixture.line(150, "1 CAPPUCCINO"), (150, 16, [(360, "10%"), (440, "1,69")]),
            Fixture.line(172, "1 COPERTO"), (172, 16, [(360, "10%"), (440, "2,59")]),
            Fixture.line(194, "2 x CAFFE"), (194, 16, [(360, "10%"), (440, "2,58")]),
            Fixture.line(230, "TOTALE EURO"), (230, 16, [(440, "6,86")]),
        ])
        #expect(r.items.map(\.amount) == ["1.69", "2.59", "2.58"])
        #expect(r.total == "6.86")
    }

    /// A total whose label names the tax it holds (`Total (inc GST)` over `$38.38`) is no tax: the subtotal and the
    /// other tax make it.
    @Test func aTotalThatNamesItsTaxIsNoTax() throws {
        let au = try receipt([
            Fixture.line(40, "BAYSIDE TRADE & HARDWARE PTY LTD", x: 100),
            Fixture.line(150, "Deck screws 50pk"), (150, 16, [(440, "34.89")]),
            Fixture.line(190, "Subtotal (ex GST)"), (190, 16, [(440, "34.89")]),
            Fixture.line(212, "GST 10%"), (212, 16, [(440, "3.49")]),
            Fixture.line(234, "Total (inc GST)"),
            (256, 16, [(440, "$38.38")]),
        ])
        #expect(au.tax.map(\.amount) == ["3.49"])
        #expect(au.total == "38.38")
    }

    /// The amount due after a rounding under the subtotal (`Sub Total 2,771.39`, `Round Off -0.39`, `NET AMOUNT Rs.
    /// 2,771.00`), and a total after the naira's sign (`Grand Total ₦73,683.75`).
    @Test func totalsAfterARoundingAndAfterTheNairasSign() throws {
        let inr = try receipt([
            Fixture.line(40, "SRI LAKSHMI SUPERMARKET PVT LTD", x: 100),
            Fixture.line(150, "TOOR DAL 1KG"), (150, 16, [(440, "1,480.39")]),
            Fixture.line(172, "BASMATI RICE 5KG"), (172, 16, [(440, "1,291.00")]),
            Fixture.line(210, "Sub Total"), (210, 16, [(440, "2,771.39")]),
            Fixture.line(232, "Round Off"), (232, 16, [(440, "-0.39")]),
            Fixture.line(254, "NET AMOUNT"), (254, 16, [(380, "Rs."), (440, "2,771.00")]),
        ])
        #expect(inr.total == "2771.00")
        let ngn = try receipt([
            Fixture.line(40, "RED PEPPER RESTAURANT LTD", x: 100),
            Fixture.line(150, "Jollof Rice"), (150, 16, [(440, "60,150.00")]),
            Fixture.line(190, "Sub Total"), (190, 16, [(440, "60,150.00")]),
            Fixture.line(212, "VAT 7.5%"), (212, 16, [(440, "4,511.25")]),
            Fixture.line(234, "Consumption Tax 5%"), (234, 16, [(440, "3,007.50")]),
            Fixture.line(256, "Grand Total"), (256, 16, [(420, "₦67,668.75")]),
        ])
        #expect(ngn.total == "67668.75")
    }
}
