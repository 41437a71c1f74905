import Foundation
import Testing
import ScanDetectors
import ScanModel
@testable import ScanExtraction

/// The rules that read a receipt's header and its date and total, on hand-made Malaysian-style and US-style receipts.
@Suite struct ReceiptHeaderTests {
    let extractor = DocumentExtractor(
        detector: try! DataDetector(referenceDate: CalendarDay(year: 2024, month: 1, day: 1)))

    /// The best `limit` merchant-name candidates of a header made of `rows`.
    func companyNames(_ rows: [(Double, Double, [(Double, String)])], limit: Int) -> [String] {
        ReceiptFieldFeatures(extractor.analyzer.analyze(Fixture.document(Fixture.page(rows)))).companyCandidates(
            limit: limit
        ).map(\.value)
    }

    func receipt(_ lines: [(Double, Double, [(Double, String)])]) -> Receipt {
        try! extractor.extract(Fixture.document(Fixture.page(lines)), as: .receipt).receipt!
    }

    /// Every address the candidate generator proposes for these lines, before any model scores them.
    func addressCandidates(_ rows: [(Double, Double, [(Double, String)])]) -> [String] {
        let lines = extractor.analyzer.analyze(Fixture.document(Fixture.page(rows)))
        return ReceiptFieldFeatures(lines).addressCandidates(limit: lines.count).map(\.value)
    }

    /// A header opened by a register line with its time and a survey line with a phone number: neither is ever
    /// proposed as the shop's name (no name key holds a date, a time or a phone number), a web address is.
    @Test func aNameCandidateHoldsNoTimeDateOrPhone() {
        let rows = [Fixture.line(20, "L1 T1 12:49 PM", x: 160),
                    Fixture.line(44, "WIN A PRIZE CALL 317-541-1897", x: 120),
                    Fixture.line(70, "IN-N-OUT BURGER SANTA CLARA", x: 120, h: 24),
                    Fixture.line(100, "shop.example.com", x: 170),
                    Fixture.line(130, "Double-Double"), (130, 16, [(480, "3.45")]),
                    Fixture.line(220, "TOTAL"), (220, 16, [(480, "3.45")])]
        let lines = extractor.analyzer.analyze(Fixture.document(Fixture.page(rows)))
        let names = ReceiptFieldFeatures(lines).companyCandidates(limit: 4).map(\.value)
        #expect(names.contains("IN-N-OUT BURGER SANTA CLARA"))
        #expect(names.contains { $0.contains("shop.example.com") })
        #expect(!names.contains { $0.contains("12:49") || $0.contains("541-1897") }, "\(names)")
    }

    /// A page with no header (a screenshot scrolled down to the sums, the app's buttons under them) names no shop and
    /// no address: nothing under the sums is one, unless articles and sums follow it (the next slip's header).
    @Test func nothingUnderTheLastSumsIsTheShopOrItsAddress() {
        let sums = [Fixture.line(20, "SUMME"), (20, 16, [(480, "28,31 €")]),
                    Fixture.line(44, "davon MwSt. 7%"), (44, 16, [(480, "1,98 €")]),
                    Fixture.line(68, "Total"), (68, 16, [(480, "28,31 €")]),
                    Fixture.line(92, "Bar"), (92, 16, [(480, "28,31 €")])]
        let footer = receipt(sums + [Fixture.line(140, "Home Scan Bons Profil", x: 120)])
        #expect(footer.merchant.name == nil, "\(footer.merchant)")
        #expect(footer.merchant.address == nil, "\(footer.merchant)")
        #expect(footer.total == "28.31")
        // The slip under the one the scan caught the end of keeps its name.
        let next = receipt(sums + [
            Fixture.line(140, "BAECKEREI HOLM", x: 160, h: 24), Fixture.line(170, "Kirchweg 5", x: 180),
            Fixture.line(194, "24103 Kiel", x: 180),
            Fixture.line(230, "Roggenbrot"), (230, 16, [(480, "3,20 €")]),
            Fixture.line(260, "SUMME"), (260, 16, [(480, "3,20 €")])
        ])
        #expect(next.merchant.name == "BAECKEREI HOLM", "\(next.merchant)")
        // Nor is a weight and its price a unit, the top line of a screenshot cropped under the header.
        let cropped = receipt([
            Fixture.line(10, "1,709 kg x 3,30 €/kg", x: 40, h: 13),
            Fixture.line(30, "Roggenbrot"), (30, 16, [(480, "2,49 €")]),
            Fixture.line(52, "Butter"), (52, 16, [(480, "1,79 €")])
        ] + sums.map { ($0.0 + 60, $0.1, $0.2) })
        #expect(cropped.merchant.name == nil, "\(cropped.merchant)")
        #expect(cropped.merchant.address == nil, "\(cropped.merchant)")
        #expect(ReceiptParser.weighedAlone("1,709 kg x 3,30 €/kg"))
        #expect(!ReceiptParser.weighedAlone("Bananen 1,709 kg x 3,30 €/kg"))
    }

    /// A logo's words over the same name in type are one name read twice: no candidate joins them, and the lines on
    /// their own stay candidates. Words that only share a part (`RESTAURANT JIAWEI` / `JIAWEI HOUSE`) do join.
    @Test func aNameDoesNotGoOnIntoAGreetingOrTheSlipsTitle() {
        let rows = [Fixture.line(20, "DAILY DINER", x: 180, h: 24), Fixture.line(50, "Welcome!", x: 200),
                    Fixture.line(74, "VAT RECEIPT", x: 190), Fixture.line(98, "Bienvenidos", x: 195),
                    Fixture.line(122, "91 N Havenro Way", x: 180),
                    Fixture.line(220, "TOTAL"), (220, 16, [(480, "3.45")])]
        let names = companyNames(rows, limit: 5)
        #expect(names.contains("DAILY DINER"))
        #expect(!names.contains { $0.hasPrefix("DAILY DINER ") }, "\(names)")
        #expect(!names.contains { ["Welcome!", "VAT RECEIPT", "Bienvenidos", "Welcome! VAT RECEIPT"].contains($0) }, "\(names)")
        // Nor into how the order is served (`Dine In`, `Sur place`, `Para llevar`), which alone names no one either.
        for served in ["Dine In", "Sur place", "Para llevar", "Makan di sini"] {
            let named = companyNames([Fixture.line(20, "VENTI'S HARDWARE", x: 180, h: 24), Fixture.line(50, served, x: 200),
                                      Fixture.line(74, "3169 Nordo Way", x: 180), Fixture.line(220, "TOTAL"), (220, 16, [(480, "3.45")])],
                                     limit: 5)
            #expect(named.contains("VENTI'S HARDWARE") && !named.contains { $0.hasPrefix("VENTI'S HARDWARE ") }, "\(named)")
            #expect(!named.contains(served), "\(named)")
        }
        // A greeting above the name opens no name (`WELCOME TO` / `bp Connect`, `WELCOME` / `WENEL BERNOR`), while the
        // name under it starts where it is though it opens small; a name with a header word among others stays whole
        // (`Welcome Break`).
        let above = extractor.analyzer.analyze(Fixture.document(Fixture.page([
            Fixture.line(20, "WELCOME TO", x: 190), Fixture.line(44, "bp Connect", x: 190, h: 24),
            Fixture.line(74, "Welcome Break", x: 190), Fixture.line(220, "TOTAL"), (220, 16, [(480, "3.45")])])))
        let opened = ReceiptFieldFeatures(above).companyCandidates(limit: 5).map(\.value)
        #expect(opened.contains("bp Connect") && !opened.contains { $0.hasPrefix("WELCOME TO") }, "\(opened)")
        let greeted = companyNames([Fixture.line(20, "WELCOME", x: 200), Fixture.line(44, "WENEL BERNOR", x: 180, h: 24),
                                    Fixture.line(74, "7025 Sanranmo Hwy", x: 180), Fixture.line(220, "TOTAL"),
                                    (220, 16, [(480, "3.45")])], limit: 5)
        #expect(greeted.contains("WENEL BERNOR") && !greeted.contains { $0.hasPrefix("WELCOME") }, "\(greeted)")
        #expect(opened.contains { $0.hasSuffix("Welcome Break") }, "\(opened)")
        // Nor does an address run on into the title an Italian till prints under it.
        let italian = extractor.analyzer.analyze(Fixture.document(Fixture.page([
            Fixture.line(20, "INGBOR KELLIN S.P.A.", x: 170, h: 24), Fixture.line(50, "VICOLO LINMER, 174", x: 180),
            Fixture.line(72, "66702 TIBOR (BO)", x: 185), Fixture.line(94, "DOCUMENTO COMMERCIALE", x: 170),
            Fixture.line(116, "di vendita o prestazione", x: 170), Fixture.line(220, "TOTALE"), (220, 16, [(480, "3.45")])])))
        let features = ReceiptFieldFeatures(italian)
        let addresses = features.addressCandidates(limit: 8).map(\.value)
        #expect(addresses.contains { $0.hasPrefix("VICOLO LINMER") && $0.hasSuffix("(BO)") }, "\(addresses)")
        #expect(!addresses.contains { $0.contains("vendita") || $0.contains("DOCUMENTO") }, "\(addresses)")
        #expect(!features.companyCandidates(limit: 8).map(\.value).contains("di vendita o prestazione"))
    }

    @Test func aNameCandidateIsNotTheSameWordsTwice() {
        let rows = [Fixture.line(20, "BELLA", x: 200, h: 30), Fixture.line(56, "PASTA", x: 200, h: 30),
                    Fixture.line(96, "Bella Pasta", x: 190, h: 20),
                    Fixture.line(124, "RESTAURANT JIAWEI", x: 170), Fixture.line(146, "JIAWEI HOUSE", x: 190),
                    Fixture.line(180, "2011 Hewitt Ave", x: 180),
                    Fixture.line(220, "TOTAL"), (220, 16, [(480, "3.45")])]
        let lines = extractor.analyzer.analyze(Fixture.document(Fixture.page(rows)))
        let names = ReceiptFieldFeatures(lines).companyCandidates(limit: 6).map(\.value)
        #expect(names.contains("BELLA PASTA"))
        #expect(names.contains("Bella Pasta"))
        #expect(names.contains("RESTAURANT JIAWEI JIAWEI HOUSE"))
        #expect(!names.contains("BELLA PASTA Bella Pasta"), "\(names)")
        #expect(!names.contains("PASTA Bella Pasta"), "\(names)")
    }

    /// A name printed over two lines whose second opens with a joining word (`of Windham`, `y Cía`) starts on the
    /// first: no candidate starts at the second. Under a greeting such a line starts a name (`WELCOME TO` / `bp
    /// Connect`); a name whose capital OCR read small (`silolmo Ellu`) and a name in small letters throughout still
    /// start where they are.
    @Test func aLineOpenedByASmallJoiningWordGoesOnFromTheLineAbove() {
        let rows = [Fixture.line(20, "Friendly Red's", x: 180, h: 24), Fixture.line(50, "of Windham", x: 190, h: 24),
                    Fixture.line(80, "Hermanos Ruiz", x: 180), Fixture.line(100, "y Cía", x: 200),
                    Fixture.line(124, "22 Haverhill Rd", x: 180), Fixture.line(146, "Windham NH", x: 190),
                    Fixture.line(180, "Burger"), (180, 16, [(480, "3.45")]),
                    Fixture.line(220, "TOTAL"), (220, 16, [(480, "3.45")])]
        let names = companyNames(rows, limit: 6)
        #expect(names.contains("Friendly Red's of Windham"), "\(names)")
        #expect(!names.contains { $0.hasPrefix("of Windham") || $0.hasPrefix("y Cía") }, "\(names)")
        let greeted = [Fixture.line(20, "WELCOME TO", x: 190), Fixture.line(44, "bp Connect", x: 180, h: 24),
                       Fixture.line(80, "22 Haverhill Rd", x: 180),
                       Fixture.line(180, "Coffee"), (180, 16, [(480, "3.45")]),
                       Fixture.line(220, "TOTAL"), (220, 16, [(480, "3.45")])]
        let greetedLines = extractor.analyzer.analyze(Fixture.document(Fixture.page(greeted)))
        let greetedNames = ReceiptFieldFeatures(greetedLines).companyCandidates(limit: 3).map(\.value)
        #expect(greetedNames.contains("bp Connect"), "\(greetedNames)")
        #expect(ReceiptFieldFeatures.opensWithASmallWord("und Söhne GmbH"))
        #expect(ReceiptFieldFeatures.opensWithASmallWord("y Cía"))
        #expect(!ReceiptFieldFeatures.opensWithASmallWord("silolmo Ellu"))
        #expect(!ReceiptFieldFeatures.opensWithASmallWord("dm-drogerie markt"))
        #expect(!ReceiptFieldFeatures.opensWithASmallWord("of the day"))
        #expect(!ReceiptFieldFeatures.opensWithASmallWord("iOS Store"))
    }

    /// A scan that caught the end of the slip before (its last amounts, its closing words, a till's line) over this
    /// receipt's header: the name is the header's under the closing words, in any language the locale files know.
    @Test func theTailOfTheSlipBeforeIsNoPartOfTheHeader() {
        let german = [(10.0, 16.0, [(60.0, "Summe EUR"), (460.0, "8,40")]), (32, 16, [(60, "Bar"), (460, "10,00")]),
                      (54, 16, [(60, "Rückgeld"), (460, "1,60")]),
                      Fixture.line(84, "Vielen Dank für Ihren Einkauf", x: 110), Fixture.line(108, "Kasse 2 Bon 4711", x: 180),
                      Fixture.line(150, "Bäckerei Hofmann", x: 150, h: 24), Fixture.line(180, "Hauptstraße 12", x: 190),
                      Fixture.line(204, "79098 Freiburg", x: 190), Fixture.line(240, "14.03.2021 08:12", x: 60),
                      (280, 16, [(60, "Brezel"), (460, "1,20")]), (302, 16, [(60, "Kaffee"), (460, "2,90")]),
                      (340, 16, [(60, "Summe EUR"), (460, "4,10")]), (362, 16, [(60, "Bar"), (460, "5,00")]),
                      (384, 16, [(60, "Rückgeld"), (460, "0,90")]), Fixture.line(420, "Vielen Dank für Ihren Einkauf", x: 110)]
        let english = [(10.0, 16.0, [(60.0, "TOTAL"), (460.0, "$23.10")]), (32, 16, [(60, "VISA"), (460, "$23.10")]),
                       Fixture.line(60, "Thank you! Have a nice day", x: 130), Fixture.line(84, "Server: Tom Table 7", x: 170),
                       Fixture.line(130, "BLUE HERON DINER", x: 150, h: 24), Fixture.line(160, "418 Maple Ave", x: 200),
                       Fixture.line(182, "Dover, NH 03820", x: 195), Fixture.line(240, "04/11/2022 12:31 PM", x: 60),
                       (280, 16, [(60, "Club Sandwich"), (460, "11.50")]), (302, 16, [(60, "Iced Tea"), (460, "2.75")]),
                       (330, 16, [(60, "Subtotal"), (460, "14.25")]), (352, 16, [(60, "Tax"), (460, "0.86")]),
                       (380, 16, [(60, "TOTAL"), (460, "$15.11")]), Fixture.line(420, "Thank you! Have a nice day", x: 130)]
        #expect(receipt(german).merchant.name == "Bäckerei Hofmann")
        #expect(receipt(english).merchant.name == "BLUE HERON DINER")
        // What the model reads: the closing words above, the printed lines counted from them, the amounts above.
        let lines = extractor.analyzer.analyze(Fixture.document(Fixture.page(english)))
        let names = ReceiptFieldFeatures(lines).companyCandidates(limit: 8)
        let column = { (name: String) in ReceiptFieldFeatures.companyNames.firstIndex(of: name)! }
        let diner = names.first { $0.value == "BLUE HERON DINER" }!
        #expect(diner.features[column("closingAbove")] == 1)
        #expect(diner.features[column("textOrdinalSinceClosing")] == 1)  // the server's line stands between
        #expect(diner.features[column("amountsAbove")] == log1p(2))
        let visa = names.first { $0.value.hasPrefix("VISA") }!  // the tail's own line, above the closing words
        #expect(visa.features[column("closingAbove")] == 0)
        // Without the closing words, the count is the header's own: the tail's lines count too.
        var unclosed = english
        unclosed.remove(at: 2)
        let plain = extractor.analyzer.analyze(Fixture.document(Fixture.page(unclosed)))
        let plainDiner = ReceiptFieldFeatures(plain).companyCandidates(limit: 8).first { $0.value == "BLUE HERON DINER" }!
        #expect(plainDiner.features[column("closingAbove")] == 0)
        #expect(plainDiner.features[column("textOrdinal")] == 3)
        #expect(plainDiner.features[column("textOrdinalSinceClosing")] == 3)
        // A name does not go on into closing words printed under it.
        let thanked = [Fixture.line(20, "BÄCKEREI MÜLLER", x: 150, h: 24), Fixture.line(50, "DANKE", x: 200),
                       Fixture.line(74, "Hauptstraße 12", x: 190), Fixture.line(120, "Brezel"), (120, 16, [(460, "1,20")]),
                       Fixture.line(150, "Summe EUR"), (150, 16, [(460, "1,20")])]
        let thankedLines = extractor.analyzer.analyze(Fixture.document(Fixture.page(thanked)))
        let thankedNames = ReceiptFieldFeatures(thankedLines).companyCandidates(limit: 4).map(\.value)
        #expect(thankedNames.contains("BÄCKEREI MÜLLER"))
        #expect(!thankedNames.contains { $0.contains("DANKE") && $0.contains("MÜLLER") }, "\(thankedNames)")
        #expect(ReceiptParser.lexicon.closings.phrases.contains(Text.key("VIELEN DANK")))
    }

    /// A legal form alone on the line under the name ends it, whatever the ranker made of the two spans (`V.0.F.`, its
    /// O read as a zero); under a name that ends with its form already, a label that opens with a form's word does not.
    @Test func aLegalFormAloneUnderTheNameEndsIt() {
        func name(_ top: String, _ below: String) -> String? {
            receipt([Fixture.line(20, top, x: 170, h: 24), Fixture.line(50, below, x: 200),
                     Fixture.line(74, "Luborgracht 45", x: 180), Fixture.line(96, "3042 LX Torcas", x: 180),
                     Fixture.line(130, "Koffie"), (130, 16, [(480, "2,50")]),
                     Fixture.line(160, "TOTAAL"), (160, 16, [(480, "2,50")])]).merchant.name
        }
        #expect(name("Haberg Drogisterij", "V.0.F.") == "Haberg Drogisterij V.O.F.")
        #expect(name("RUMAH MAKAN BERKELFIELD", "CV") == "RUMAH MAKAN BERKELFIELD CV")
        #expect(name("SUN WONG KUT SDN BHD", "Company No 20965-") == "SUN WONG KUT SDN BHD")
    }

    /// A till's line under or over the name (`Kasir: Ana`, `Camarero: Jin`) is no part of it.
    @Test func aTillsLabelLineIsNoPartOfTheName() {
        let rows = [Fixture.line(20, "Camarero: Jin", x: 180), Fixture.line(44, "SINAR KOPI", x: 160, h: 24),
                    Fixture.line(74, "Kasir: Ana", x: 180), Fixture.line(96, "Jln. Tonolmo No. 81", x: 150),
                    Fixture.line(130, "Es Jeruk"), (130, 16, [(480, "67.000")]),
                    Fixture.line(160, "TOTAL"), (160, 16, [(480, "67.000")])]
        let names = companyNames(rows, limit: 4)
        #expect(names.contains("SINAR KOPI"))
        #expect(!names.contains { $0.contains("Kasir") || $0.contains("Camarero") }, "\(names)")
        // A till's label and number in a column of their own, merged onto the name's row: left out of the name. Close
        // after the name they are part of it (`ENTERPRISE 666` keeps its number; so does a name that holds the word).
        func named(_ row: (Double, Double, [(Double, String)])) -> String? {
            receipt([row, Fixture.line(74, "Avenida da Fieldsil, 111", x: 150),
                     Fixture.line(130, "Tosta mista"), (130, 16, [(480, "6.40")]),
                     Fixture.line(160, "TOTAL"), (160, 16, [(480, "6.40")])]).merchant.name
        }
        #expect(named((40, 24, [(100, "Tamnelti"), (210, "Ol"), (420, "Caixa"), (490, "3")])) == "Tamnelti Ol")
        #expect(named((40, 24, [(100, "Tamnelti"), (210, "Ol"), (260, "Caixa"), (330, "3")])) == "Tamnelti Ol Caixa 3")
        let labels = ReceiptParser.lexicon.words(.document).map { $0.split(separator: " ").map(String.init) }
        #expect(ReceiptFieldFeatures.opensWithALabel("TABLE 12", labels))
        #expect(ReceiptFieldFeatures.opensWithALabel("Server #4", labels))
        // A number's sign between the label and its number.
        #expect(ReceiptFieldFeatures.opensWithALabel("TABLE NO 12", labels))
        #expect(ReceiptFieldFeatures.opensWithALabel("Kasse Nr. 3", labels))
        #expect(!ReceiptFieldFeatures.opensWithALabel("TABLE NO", labels))
        // A branch's number is a till's line too (`Store #56826`, `Cawangan: 12`, `Sucursal 3`); a shop named so is
        // not.
        #expect(ReceiptFieldFeatures.opensWithALabel("Store #56826", labels))
        #expect(ReceiptFieldFeatures.opensWithALabel("Cawangan: 12", labels))
        #expect(ReceiptFieldFeatures.opensWithALabel("Sucursal 3", labels))
        #expect(!ReceiptFieldFeatures.opensWithALabel("STORE & MORE", labels))
        #expect(!ReceiptFieldFeatures.opensWithALabel("TABLE & APRON BISTRO", labels))
        #expect(!ReceiptFieldFeatures.opensWithALabel("STATION ROAD CAFE", labels))
        // A label, one short word and a colon (`Served by: Ivo`, `Bediend door: Raj`) is a till's line too, over the
        // name.
        #expect(ReceiptFieldFeatures.opensWithALabel("Served by: Ivo", labels))
        #expect(ReceiptFieldFeatures.opensWithALabel("Bediend door: Raj", labels))
        #expect(ReceiptFieldFeatures.opensWithALabel("Atendido por: Luis", labels))
        // The seller's word of Norwegian and Swedish tills.
        #expect(ReceiptFieldFeatures.opensWithALabel("Selger: Ana", labels))
        #expect(ReceiptFieldFeatures.opensWithALabel("Säljare: 12", labels))
        // The waiter's word of Scandinavian tills (`Betjent av`, `Tjener`, `Servitör`).
        #expect(ReceiptFieldFeatures.opensWithALabel("Betjent av: Pia", labels))
        #expect(ReceiptFieldFeatures.opensWithALabel("Tjener: Uma", labels))
        #expect(ReceiptFieldFeatures.opensWithALabel("Servitör: Yan", labels))
        #expect(!ReceiptFieldFeatures.opensWithALabel("TABLE MOUNTAIN: CAFE", labels))
        // A line of payment words alone, the previous slip's tail over this one's header, names no one.
        let tail = companyNames([Fixture.line(20, "Tunai", x: 40), Fixture.line(44, "MAKMUR SWALAYAN", x: 160, h: 24),
                                 Fixture.line(74, "JALAN FIAL NO. 32", x: 150), Fixture.line(130, "BAKSO"),
                                 (130, 16, [(480, "131.000")]), Fixture.line(160, "TOTAL"), (160, 16, [(480, "131.000")])],
                                limit: 3)
        #expect(tail.contains("MAKMUR SWALAYAN"), "\(tail)")
        #expect(!tail.contains { $0.contains("Tunai") }, "\(tail)")
        let served = companyNames([Fixture.line(20, "Served by: Ivo", x: 180), Fixture.line(44, "STAR VENWICK", x: 160, h: 24),
                                   Fixture.line(74, "200 Molura Way", x: 150), Fixture.line(130, "Chips"), (130, 16, [(480, "3.50")]),
                                   Fixture.line(160, "TOTAL"), (160, 16, [(480, "3.50")])], limit: 3)
        #expect(served.contains("STAR VENWICK") && !served.contains { $0.contains("Served") }, "\(served)")
    }

    /// In a language no locale file knows, one word, a colon and a value (`Fieldmogor: Nia`, a waiter) is a till's
    /// line too; a longer value may be the shop's own name (`Dimiliki: banh mi cafe sdn bhd`, owned by). A line with an
    /// amount (`Card 50.00`, the slip before's payment) names no one.
    @Test func aLabelAndItsValueOrAnAmountNamesNoOne() {
        // The slip before's closing and payment over the header, and a waiter's line in a language no locale file
        // knows.
        let rows = [
            Fixture.line(0, "Obrigado pela preferência", x: 100), Fixture.line(20, "Card", x: 40), (20, 16, [(480, "50.00")]), Fixture.line(44, "Fieldmogor: Nia", x: 180),
            Fixture.line(68, "MARBER DALHAR", x: 160, h: 24), Fixture.line(98, "DALVILLETOR 27", x: 170),
            Fixture.line(118, "Dimiliki: marber dalhar sdn bhd 1110644-W", x: 100),
            Fixture.line(170, "Kaffe"), (170, 16, [(480, "29.00")]), Fixture.line(200, "Labergol"),
            (200, 16, [(480, "29.00")]),
        ]
        let lines = extractor.analyzer.analyze(Fixture.document(Fixture.page(rows)))
        let candidates = ReceiptFieldFeatures(lines).companyCandidates(limit: 6)
        func chosen(_ value: String) -> Bool? {
            candidates.first { $0.value == value }.map { !ReceiptParser.namesNoShop($0, lines) }
        }
        #expect(chosen("Obrigado pela preferência") == false)
        #expect(chosen("Card 50.00") == false)
        #expect(chosen("Fieldmogor: Nia") == false)
        #expect(chosen("MARBER DALHAR") == true)
        // A longer value after a colon may be the shop's own name (owned by).
        let owned = candidates.filter { $0.lines == 5..<6 }
        #expect(!owned.isEmpty && owned.allSatisfy { !ReceiptParser.namesNoShop($0, lines) }, "\(candidates.map(\.value))")
        // The slip before's greeting and web address over the name; a domain in a legal name stays a name.
        let web = extractor.analyzer.analyze(Fixture.document(Fixture.page([
            Fixture.line(0, "Lustonka Juncas!", x: 160), Fixture.line(20, "www.maris.it", x: 160), Fixture.line(48, "Ranro Wen", x: 160, h: 24),
            Fixture.line(76, "ECOSWAY.COM SDN BHD", x: 120), Fixture.line(150, "Caffè"), (150, 16, [(480, "2.00")]),
        ])))
        let webNames = ReceiptFieldFeatures(web).companyCandidates(limit: 4)
        func webChosen(_ value: String) -> Bool? {
            webNames.first { $0.value == value }.map { !ReceiptParser.namesNoShop($0, web) }
        }
        #expect(webChosen("www.maris.it Ranro Wen") == false, "\(webNames.map(\.value))")
        #expect(webChosen("Lustonka Juncas!") == false)
        #expect(webChosen("Ranro Wen") == true)
        #expect(webChosen("ECOSWAY.COM SDN BHD") == true)
    }

    /// Lines no address prints, in a language no locale file knows: a word and groups of digits (`Varten 29 724 67`, a
    /// phone number), a label and a one-word value (`Fieldmogor: Ben`), and under the postcode and town a word and a
    /// short number (`Borol 9`, a table's). A US unit's
    /// line under its street (`STE 33` under `4021 N Elbergro Ave`) is the address's.
    @Test func aLabelledNumberIsNoAddressLine() {
        let rows = [
            Fixture.line(20, "HAMDEVELTOR LIN", x: 160, h: 24), Fixture.line(48, "Varten 29 724 67", x: 170),
            Fixture.line(70, "Tenquinten 7", x: 170), Fixture.line(92, "26843 Varsan", x: 170),
            Fixture.line(114, "Borol 9", x: 170), Fixture.line(150, "Kaffe"), (150, 16, [(480, "29.00")]),
            Fixture.line(180, "Labergol"), (180, 16, [(480, "29.00")]),
        ]
        let lines = extractor.analyzer.analyze(Fixture.document(Fixture.page(rows)))
        let candidates = ReceiptFieldFeatures(lines).addressCandidates(limit: 5)
        func chosen(_ value: String) -> Bool? {
            candidates.first { $0.value == value }.map { !ReceiptParser.holdsNoAddressLine($0, lines) }
        }
        #expect(chosen("Tenquinten 7 26843 Varsan") == true, "\(candidates.map(\.value))")
        #expect(chosen("Varten 29 724 67 Tenquinten 7 26843 Varsan") == false)
        #expect(chosen("Tenquinten 7 26843 Varsan Borol 9") == false)
        // A waiter's line over the street, under a label of one or two words.
        for waiter in ["Fieldmogor: Ben", "Betjent av: Pia"] {
            let served = extractor.analyzer.analyze(Fixture.document(Fixture.page([
                Fixture.line(20, "HAMDEVELTOR LIN", x: 160, h: 24), Fixture.line(48, waiter, x: 170),
                Fixture.line(70, "Tenquinten 7", x: 170), Fixture.line(92, "26843 Varsan", x: 170),
                Fixture.line(150, "Kaffe"), (150, 16, [(480, "29.00")]),
            ])))
            let spans = ReceiptFieldFeatures(served).addressCandidates(limit: 4)
            let withWaiter = spans.first { $0.value == waiter + " Tenquinten 7 26843 Varsan" }
            #expect(withWaiter.map { ReceiptParser.holdsNoAddressLine($0, served) } == true, "\(spans.map(\.value))")
        }
        let us = [
            Fixture.line(20, "LUDOYOR CAS", x: 160, h: 24), Fixture.line(48, "4021 N Elbergro Ave", x: 170),
            Fixture.line(70, "STE 33", x: 170), Fixture.line(92, "Ulgor, CO 63305", x: 170),
            Fixture.line(150, "Coffee"), (150, 16, [(480, "29.00")]),
        ]
        let usLines = extractor.analyzer.analyze(Fixture.document(Fixture.page(us)))
        let usCandidates = ReceiptFieldFeatures(usLines).addressCandidates(limit: 4)
        let whole = usCandidates.first { $0.value == "4021 N Elbergro Ave STE 33 Ulgor, CO 63305" }
        #expect(whole.map { !ReceiptParser.holdsNoAddressLine($0, usLines) } == true, "\(usCandidates.map(\.value))")
    }

    /// A line that opens with a registration number's label (`Foretaksregisteret NO 919 730 119 MVA`, `Org.nr`) is no
    /// part of the address above it.
    @Test func aRegistrationLineEndsTheAddress() {
        for registration in ["Foretaksregisteret NO 919 730 119 MVA", "Org.nr: 556677-8899", "CVR-nr. 12345678"] {
            let found = addressCandidates([
                Fixture.line(20, "SØNDRE JERNVARE", x: 160, h: 24), Fixture.line(50, "Storgata 114, 0150 OSLO", x: 140),
                Fixture.line(70, registration, x: 120), Fixture.line(90, "Kaffe"), (90, 16, [(480, "29,00")]),
                Fixture.line(130, "Totalt"), (130, 16, [(480, "29,00")]),
            ])
            #expect(found.contains("Storgata 114, 0150 OSLO"), "\(found)")
            #expect(!found.contains { $0.contains(registration.prefix(6)) }, "\(registration): \(found)")
        }
    }

    /// Sweden's phone label (`Tfn`) marks a contact line, which no address starts with.
    @Test func aSwedishPhoneLineIsNoPartOfTheAddress() {
        let found = addressCandidates([
            Fixture.line(20, "OLBOR APOTEK", x: 160, h: 24), Fixture.line(50, "Tfn: 08-736 37", x: 170),
            Fixture.line(70, "Tondoranvägen 151, 350 08 Merhaal", x: 120), Fixture.line(90, "Kaffe"), (90, 16, [(480, "29,00")]),
            Fixture.line(130, "Totalt"), (130, 16, [(480, "29,00")]),
        ])
        #expect(found.contains("Tondoranvägen 151, 350 08 Merhaal"), "\(found)")
        #expect(!found.contains { $0.contains("Tfn") }, "\(found)")
    }

    /// A till's line under the address (`0480 TABLE 101 #Party 3`, `Kasse 1`) ends it; `Kode Pos 40115` does not.
    @Test func aDocumentLabelBeforeANumberEndsTheAddress() {
        let till = addressCandidates([Fixture.line(20, "GRAND LUX CAFE", x: 160, h: 24), Fixture.line(50, "Roosevelt Field", x: 180),
                                      Fixture.line(70, "0480 TABLE 101 #Party 3", x: 150), Fixture.line(90, "Coffee"), (90, 16, [(480, "2.95")]),
                                      Fixture.line(130, "TOTAL"), (130, 16, [(480, "2.95")])])
        #expect(till.contains("Roosevelt Field"))
        #expect(!till.contains { $0.contains("TABLE") }, "\(till)")
        let labels = ReceiptParser.lexicon.words(.document).map { $0.split(separator: " ").map(String.init) }
        let greeting = addressCandidates([Fixture.line(20, "Neue Elkaden", x: 160, h: 24), Fixture.line(50, "Berulallee 53 81940 Fieldzanka", x: 120),
                                          Fixture.line(70, "willkommen", x: 180), Fixture.line(90, "Brezel"), (90, 16, [(480, "4,64")]),
                                          Fixture.line(130, "Summe"), (130, 16, [(480, "4,64")])])
        #expect(greeting.contains("Berulallee 53 81940 Fieldzanka"))
        #expect(!greeting.contains { $0.lowercased().contains("willkommen") }, "\(greeting)")
        #expect(ReceiptFieldFeatures.labelsANumber(Text.key("Kasse 1"), labels))
        #expect(ReceiptFieldFeatures.labelsANumber(Text.key("Filiale 78393"), labels))
        #expect(ReceiptFieldFeatures.labelsANumber(Text.key("Check: 24016"), labels))
        #expect(!ReceiptFieldFeatures.labelsANumber(Text.key("Jl. Merdeka 5, Kode Pos 40115"), labels))
        #expect(!ReceiptFieldFeatures.labelsANumber(Text.key("Station Road 6"), labels))
        // With a sign for "number" between (the locale files' `numberSigns`), but not with another word.
        #expect(ReceiptFieldFeatures.labelsANumber(Text.key("Kvittering nr. 14724"), labels))
        #expect(ReceiptFieldFeatures.labelsANumber(Text.key("TABLE NO 5"), labels))
        #expect(!ReceiptFieldFeatures.labelsANumber(Text.key("Kvittering Torget 5"), labels))
        // Opening the line, a series' letters between (`FR`, an invoice series), but not after another word.
        #expect(ReceiptFieldFeatures.labelsANumber(Text.key("Fatura-Recibo FR 25173"), labels))
        #expect(ReceiptFieldFeatures.labelsANumber(Text.key("Invoice No : CS 24198"), labels))
        #expect(!ReceiptFieldFeatures.labelsANumber(Text.key("Avenida Fatura FR 25"), labels))
    }

    /// A column printed beside the header (a tip guide) that the layout joined to the town's line stays out of the
    /// address; a lone code after a gap (`53300 KL   Site 1066`), with no column around it, stays in.
    @Test func aColumnBesideTheHeaderIsNoPartOfTheAddress() {
        let beside = addressCandidates([Fixture.line(20, "Longboards", x: 120, h: 24), Fixture.line(50, "92-161 Waipahe Place", x: 100),
                                        (70, 16, Fixture.line(70, "Kapolei, HI 96707", x: 100).2 + Fixture.line(70, "Tipping is", x: 420).2),
                                        Fixture.line(90, "customary here", x: 420), Fixture.line(110, "15-20%", x: 420),
                                        Fixture.line(150, "Salad"), (150, 16, [(360, "8.00")]),
                                        Fixture.line(190, "TOTAL"), (190, 16, [(360, "8.00")])])
        #expect(beside.contains("92-161 Waipahe Place Kapolei, HI 96707"), "\(beside)")
        #expect(!beside.contains { $0.contains("Tipping") }, "\(beside)")
        let lone = addressCandidates([Fixture.line(20, "PETRO TRADING", x: 40, h: 24), Fixture.line(50, "LOT 2685 JLN GENTING KLANG", x: 40),
                                      (70, 16, Fixture.line(70, "53300 KL", x: 40).2 + Fixture.line(70, "Site 1066", x: 218).2),
                                      Fixture.line(90, "Telephone 03-40212008", x: 40),
                                      Fixture.line(150, "DIESEL"), (150, 16, [(360, "8.00")]),
                                      Fixture.line(190, "TOTAL"), (190, 16, [(360, "8.00")])])
        #expect(lone.contains("LOT 2685 JLN GENTING KLANG 53300 KL Site 1066"), "\(lone)")
    }

    /// Nor does an address candidate: the date printed under the town is not part of the address.
    @Test func anAddressCandidateHoldsNoTimeDateOrPhone() {
        let rows = [Fixture.line(20, "HARBOR LIGHT DINER", x: 160, h: 24),
                    Fixture.line(50, "152 Harbour Crescent", x: 180),
                    Fixture.line(72, "Leeds LS1 4AP", x: 190),
                    Fixture.line(94, "18 Oct 2019 12:41", x: 180),
                    Fixture.line(130, "Tea"), (130, 16, [(480, "3.45")]),
                    Fixture.line(220, "TOTAL"), (220, 16, [(480, "3.45")])]
        let lines = extractor.analyzer.analyze(Fixture.document(Fixture.page(rows)))
        let addresses = ReceiptFieldFeatures(lines).addressCandidates(limit: 4).map(\.value)
        #expect(addresses.contains { $0.contains("Leeds LS1 4AP") }, "\(addresses)")
        #expect(!addresses.contains { $0.contains("2019") || $0.contains("12:41") }, "\(addresses)")
    }

    /// A till that prints the shop's phone as a bare run of digits under the town: that line is the phone,
    /// and the same kind of run elsewhere (an order number among the items) is not.
    @Test func aBarePhoneNumberUnderTheAddress() {
        func header(_ phoneLine: String) -> [(Double, Double, [(Double, String)])] {
            [Fixture.line(20, "HARBOR LIGHT DINER", x: 160, h: 24),
             Fixture.line(50, "1125 QUEEN ST", x: 180),
             Fixture.line(72, "ALEXANDRIA, VA 22314", x: 170),
             Fixture.line(94, phoneLine, x: 190),
             Fixture.line(130, "ORDER: Table 2"),
             Fixture.line(160, "Fish Stew"), (160, 16, [(480, "19.95")]),
             Fixture.line(182, "2125550143"),
             Fixture.line(220, "TOTAL"), (220, 16, [(480, "19.95")])]
        }
        let r = receipt(header("7037179740"))
        #expect(r.merchant.phoneE164 == "+17037179740")
        #expect(r.merchant.address == "1125 QUEEN ST ALEXANDRIA, VA 22314")
        // Not a valid number where the receipt is (a US exchange never starts with 1): no phone.
        #expect(receipt(header("7031179740")).merchant.phone == nil)
    }

    /// A number in the address line that reads as a phone (a house number and a Portuguese postcode, `56 6925-727`)
    /// stays in the address when the town follows it and no label comes before it; the shop's phone is the one under
    /// its label, also when a number with no label (a stamp's digits) is printed above it. A label glued onto a number
    /// (`HP01-188357`, a bill's number) is none.
    @Test func aLabelledPhoneIsTheShopsAndAPostcodeAndTownStayInTheAddress() {
        let r = receipt([
            Fixture.line(20, "VENDO FARMACIA", x: 160, h: 24),
            Fixture.line(50, "Estrada Quinmi, 56 6925- 727 Berggorham", x: 120),
            Fixture.line(72, "Tel: 246 764 764", x: 170),
            Fixture.line(110, "1 Coxinha"), (110, 16, [(480, "8,33")]),
            Fixture.line(150, "Total"), (150, 16, [(480, "8,33")]),
        ])
        #expect(r.merchant.address == "Estrada Quinmi, 56 6925-727 Berggorham")
        #expect(r.merchant.phone == "246 764 764")
        let stamped = receipt([
            Fixture.line(5, "3 18 01 017", x: 90),
            Fixture.line(30, "KEDAI GIN KEE", x: 160, h: 24),
            Fixture.line(55, "NO 290, JALAN AIR PANAS, 53200 KUALA LUMPUR", x: 100),
            Fixture.line(77, "TEL:03-40210276", x: 170),
            Fixture.line(110, "PAKU 2\""), (110, 16, [(480, "4.00")]),
            Fixture.line(150, "TOTAL"), (150, 16, [(480, "4.00")]),
        ])
        #expect(stamped.merchant.phone == "03-40210276")
        let billed = receipt([
            Fixture.line(20, "HAPPY SNACKS ENTERPRISE", x: 160, h: 24),
            Fixture.line(45, "19 & 19A, JALAN MERANTI 2A, 44300 BATANG KALI", x: 100),
            Fixture.line(67, "03-60570314", x: 170),
            Fixture.line(90, "Bill No HP01-188357"),
            Fixture.line(120, "KEROPOK 2"), (120, 16, [(480, "4.00")]),
            Fixture.line(150, "TOTAL"), (150, 16, [(480, "4.00")]),
        ])
        #expect(billed.merchant.phone == "03-60570314")
        // A phone merged onto the address's last line with no word after it is still cut off.
        let merged = receipt([
            Fixture.line(20, "HARBOR LIGHT DINER", x: 160, h: 24),
            Fixture.line(50, "1125 QUEEN ST, ALEXANDRIA (703) 717-9740", x: 100),
            Fixture.line(110, "Fish Stew"), (110, 16, [(480, "19.95")]),
            Fixture.line(150, "TOTAL"), (150, 16, [(480, "19.95")]),
        ])
        #expect(merged.merchant.address == "1125 QUEEN ST, ALEXANDRIA", "\(merged.merchant.address ?? "")")
    }

    @Test func aStandingPhoneIsANationalNumberOfTheRegion() throws {
        let detector = try DataDetector()
        let us = DetectionContext(region: "US", dayFirst: false), my = DetectionContext(region: "MY", dayFirst: true)
        #expect(detector.phoneStandingAlone("7037179740", context: us)?.value.e164 == "+17037179740")
        #expect(detector.phoneStandingAlone(" 703 7179740 ", context: us)?.value.e164 == "+17037179740")
        for (text, context) in [("002105827328", my), ("0123456789", us), ("7037179740 12", us), ("Tel 7037179740", us),
                                ("7037179740", DetectionContext(region: nil, dayFirst: nil))] {
            #expect(detector.phoneStandingAlone(text, context: context) == nil, "\(text)")
        }
    }

    @Test func nameStartingWithItsSuffixJoinsTheLineAbove() {
        let r = receipt([
            Fixture.line(20, "KEDAI BUKU HARMONI", h: 20),
            Fixture.line(42, "CO. (M) SDN BHD", h: 20),
            Fixture.line(70, "(123456-X)"),
            Fixture.line(90, "NO 8, JALAN MERAK 3/2,"),
            Fixture.line(110, "43000 KAJANG, SELANGOR"),
            Fixture.line(140, "TEL: 03-8736 1234"),
            Fixture.line(200, "TOTAL"), (200, 16, [(480, "12.00")]),
        ])
        #expect(r.merchant.name == "KEDAI BUKU HARMONI CO. (M) SDN BHD")
        #expect(r.merchant.address == "NO 8, JALAN MERAK 3/2, 43000 KAJANG, SELANGOR")
    }

    @Test func openParenthesisAndLoneSuffixContinueBelow() {
        let r = receipt([
            Fixture.line(20, "SINAR JAYA HARDWARE", h: 22),
            Fixture.line(44, "ENTERPRISE (SETIA", h: 22),
            Fixture.line(68, "INDAH) SDN", h: 22),
            Fixture.line(92, "BHD", x: 120, h: 22),
            Fixture.line(120, "NO. 7, JALAN U13/5, 40170 SHAH ALAM"),
            Fixture.line(200, "TOTAL"), (200, 16, [(480, "3.00")]),
        ])
        // Kept as the aim; the learned field scores (trained on sroie-train) choose otherwise on this hand-made layout:
        // issue #11.
        withKnownIssue("learned scores differ from the old rule here") {
            #expect(r.merchant.name == "SINAR JAYA HARDWARE ENTERPRISE (SETIA INDAH) SDN BHD")
        }
    }

    @Test func companyBelowTheHeaderIsNotTheMerchant() {
        // The first company-suffix line comes after the merchant's phone: it is a customer or a supplier.
        let r = receipt([
            Fixture.line(20, "PERNIAGAAN SRI MAJU", h: 20),
            Fixture.line(44, "NO.12 JALAN BUNGA 4"),
            Fixture.line(64, "81750 MASAI JOHOR"),
            Fixture.line(84, "TEL:07-386 1111"),
            Fixture.line(110, "SIMPLIFIED TAX INVOICE"),
            Fixture.line(130, "ACME ENGINEERING (M) SDN BHD"),
            Fixture.line(200, "TOTAL"), (200, 16, [(480, "5.00")]),
        ])
        #expect(r.merchant.name == "PERNIAGAAN SRI MAJU")
    }

    @Test func addressFoundPastADateLineAndAFormerNameBlock() {
        let dated = receipt([
            Fixture.line(20, "PERMATA TRADING SDN BHD", h: 20),
            Fixture.line(44, "05 Mar 2018 18:24"),
            Fixture.line(64, "(867388-U)"),
            Fixture.line(84, "12, Jalan Mawar 7/4, Taman Mawar,"),
            Fixture.line(104, "81200 Johor Bahru, Johor"),
            Fixture.line(130, "TAX INVOICE"),
            Fixture.line(200, "TOTAL"), (200, 16, [(480, "5.00")]),
        ])
        #expect(dated.merchant.address == "12, Jalan Mawar 7/4, Taman Mawar, 81200 Johor Bahru, Johor")
        let former = receipt([
            Fixture.line(20, "Kilat Food Services Sdn Bhd", h: 20),
            Fixture.line(44, "(65351-M)"),
            Fixture.line(64, "formerly known as"),
            Fixture.line(84, "Kilat Kitchens Sdn Bhd"),
            Fixture.line(104, "Licensee of Burger Barn"),
            Fixture.line(124, "Level 6, Wisma Kilat,"),
            Fixture.line(144, "No.3, Jalan SS21/39, 47400 Petaling Jaya"),
            Fixture.line(170, "TEL 03-7777 1234"),
            Fixture.line(240, "TOTAL"), (240, 16, [(480, "5.00")]),
        ])
        #expect(former.merchant.name == "Kilat Food Services Sdn Bhd")
        #expect(former.merchant.address == "Level 6, Wisma Kilat, No.3, Jalan SS21/39, 47400 Petaling Jaya")
    }

    @Test func dateWithAMissingSeparatorIsReadOnlyAsALastResortAndFlagged() {
        let rows: [(Double, Double, [(Double, String)])] = [
            Fixture.line(20, "KEDAI BUKU MAJU", h: 20),
            Fixture.line(44, "TEL 03-7777 1234"),
            Fixture.line(64, "2703/2018 No.CS-20242"),
            Fixture.line(200, "TOTAL"), (200, 16, [(480, "5.00")]),
        ]
        let doc = try! extractor.extract(Fixture.document(Fixture.page(rows)), as: .receipt)
        #expect(doc.receipt!.date == "2018-03-27")
        #expect(doc.warnings.contains { $0.code == "receipt-date-unseparated" })
        // An impossible day, or a printed date elsewhere, wins over nothing / over the glued digits.
        #expect(receipt([Fixture.line(20, "KEDAI BUKU MAJU", h: 20), Fixture.line(64, "3102/2018")]).date == nil)
        let printed = try! extractor.extract(Fixture.document(Fixture.page(rows + [Fixture.line(90, "Date: 28/03/2018")])), as: .receipt)
        #expect(printed.receipt!.date == "2018-03-28")
        #expect(!printed.warnings.contains { $0.code == "receipt-date-unseparated" })
    }

    @Test func merchantNameNormalizedAndJoinedAboveASuffixOnlyLine() {
        let twoLines = receipt([
            Fixture.line(20, "BUNGA RAYA VEGETARIAN RESTAURANT", h: 24),
            Fixture.line(48, "SDN BHD", h: 24),
            Fixture.line(80, "(1095514-X)"),
            Fixture.line(100, "54, JALAN SS23/11, 47400 PETALING JAYA"),
            Fixture.line(200, "TOTAL"), (200, 16, [(480, "5.00")]),
        ])
        #expect(twoLines.merchant.name == "BUNGA RAYA VEGETARIAN RESTAURANT SDN BHD")
        #expect(ReceiptParser.normalizedName("Dimiliki: kopi kita sdn bhd") == "kopi kita sdn bhd")
        #expect(ReceiptParser.normalizedName("A.B.C. MOTOR（KLANG）SDN BHD") == "A.B.C. MOTOR(KLANG)SDN BHD")
        #expect(ReceiptParser.normalizedName("UNITED·SDN BHD") == "UNITED SDN BHD")
        // A colon inside a name without a legal suffix after it stays.
        #expect(ReceiptParser.normalizedName("CAFE: THE CORNER") == "CAFE: THE CORNER")
    }

    @Test func totalAfterARoundingLineIsTheAmountDue() {
        let r = receipt([
            Fixture.line(20, "KEDAI RUNCIT MAJU", h: 20),
            Fixture.line(60, "SUGAR 1KG"), (60, 16, [(480, "49.39")]),
            Fixture.line(100, "Total RM Incl. of GST"), (100, 16, [(480, "49.39")]),
            Fixture.line(122, "Rounding Adj"),
            Fixture.line(144, "Total RM"), (144, 16, [(480, "49.40")]),
            Fixture.line(166, "Cash"), (166, 16, [(480, "50.00")]),
        ])
        #expect(r.total == "49.40")
        // Without the rounding line the inclusive total stays the stronger reading.
        let plain = receipt([
            Fixture.line(20, "KEDAI RUNCIT MAJU", h: 20),
            Fixture.line(60, "SUGAR 1KG"), (60, 16, [(480, "49.39")]),
            Fixture.line(100, "Total RM Incl. of GST"), (100, 16, [(480, "49.39")]),
            Fixture.line(144, "Total RM"), (144, 16, [(480, "4.00")]),
        ])
        #expect(plain.total == "49.39")
    }

    @Test func addressTakesTheAreaLineAboveThePostcodeAndStopsAtAGluedTaxLabel() {
        let r = receipt([
            Fixture.line(20, "SERBA MURAH MART S/B", h: 20),
            Fixture.line(50, "TAMAN BUKIT INDAH"),
            Fixture.line(70, "41150 KLANG, SELANGOR"),
            Fixture.line(90, "DARUL EHSAN"),
            Fixture.line(110, "GSTID:000181747712"),
            Fixture.line(200, "TOTAL"), (200, 16, [(480, "5.00")]),
        ])
        // Kept as the aim from the fifth session, when the learned rankers chose otherwise on this hand-made layout;
        // the rankers retrained in the thirty-fifth session take the region's second line too.
        #expect(r.merchant.address == "TAMAN BUKIT INDAH 41150 KLANG, SELANGOR DARUL EHSAN")
        // A shop line with a place word (`CITY`) above the street line stays out.
        let us = receipt([
            Fixture.line(20, "MARKET SQUARE", h: 24),
            Fixture.line(50, "Smoke City Deli"),
            Fixture.line(70, "5242 Elm Blvd"),
            Fixture.line(90, "Sherman Oaks, CA 91401"),
            Fixture.line(200, "TOTAL"), (200, 16, [(480, "5.00")]),
        ])
        #expect(us.merchant.address == "5242 Elm Blvd Sherman Oaks, CA 91401")
    }

    @Test func addressSkipsRegistrationAndBranchLinesAndStopsAtTheCountry() {
        let r = receipt([
            Fixture.line(20, "GOLDEN LEAF SDN BHD", h: 20),
            Fixture.line(44, "BR NO.: 0195932-X"),
            Fixture.line(64, "SRI MUDA BRANCH"),
            Fixture.line(84, "LOT 12, JALAN RIA 25/62,"),
            Fixture.line(104, "40400 SHAH ALAM, MALAYSIA"),
            Fixture.line(124, "SUNWAY OUTLET"),
            Fixture.line(200, "TOTAL"), (200, 16, [(480, "5.00")]),
        ])
        #expect(r.merchant.address == "LOT 12, JALAN RIA 25/62, 40400 SHAH ALAM, MALAYSIA")
    }

    /// A registration number in the brackets OCR reads for parentheses is one too; a street number is not.
    @Test func registrationNumbersInAnyBrackets() {
        let texts = ["(484297-M)", "<484297-M>", "[484297-M]", "BR NO.: 0195932-X", "22 LRG PERUSAHAAN 4"]
        let lines = extractor.analyzer.analyze(Fixture.document(Fixture.page(
            texts.enumerated().map { Fixture.line(20 + 22 * Double($0.offset), $0.element) })))
        #expect(lines.map(ReceiptParser.isRegistrationLine) == [true, true, true, true, false])
    }

    @Test func gluedDateIsReadDayFirst() {
        let r = receipt([
            Fixture.line(20, "KEDAI MAKAN SEDAP", h: 20),
            Fixture.line(60, "Date:06/03/201820:54:50"),
            Fixture.line(200, "TOTAL RM"), (200, 16, [(480, "5.00")]),
        ])
        #expect(r.date == "2018-03-06")
        #expect(r.provenance["date"]?.text == "06/03/2018")
    }

    @Test func noAddressCandidateRunsThroughALabelOrAPricedLine() {
        let values = addressCandidates([
            Fixture.line(20, "KEDAI MAKAN SEDAP SDN BHD", h: 20),
            Fixture.line(50, "12, Jalan Mawar 3/4,Taman Mawar,"),
            Fixture.line(70, "81200 Johor Bahru,Johor"),
            Fixture.line(90, "TAX INVOICE"),
            Fixture.line(110, "Cashier"),
            (130, 16, [(20, "NASI"), (80, "LEMAK"), (480, "12.50")]),
        ])
        #expect(values.contains("12, Jalan Mawar 3/4,Taman Mawar, 81200 Johor Bahru,Johor"))
        #expect(!values.contains { $0.contains("INVOICE") || $0.contains("Cashier") || $0.contains("12.50") })
    }

    @Test func aPhoneLinePrintedWithinTheAddressIsLeftOutOfIt() {
        let values = addressCandidates([
            Fixture.line(20, "GOLDEN BAKERY", h: 20),
            Fixture.line(50, "4327 N. Expressway 77/83"),
            Fixture.line(70, "956-350-8686"),
            Fixture.line(90, "Brownsville, TX 78521"),
            Fixture.line(110, "Tel. 956-543-5089"),
        ])
        #expect(values.contains("4327 N. Expressway 77/83 Brownsville, TX 78521"), "\(values)")
        #expect(!values.contains { $0.contains("8686") || $0.hasPrefix("956") })
    }

    /// A line of only a region and a country under the street belongs to the address, so no candidate stops above it;
    /// a web address or a line opened by a contact label is never part of one.
    @Test func anAddressRunsThroughItsRegionLineAndStopsAtContactLines() {
        let values = addressCandidates([
            Fixture.line(20, "BRÜCKENBÄCKEREI GMBH", h: 20),
            Fixture.line(50, "Hauptstraße 12"),
            Fixture.line(70, "www.brueckenbaeckerei.de"),
            Fixture.line(90, "80331 München"),
            Fixture.line(110, "Bayern, Deutschland"),
            Fixture.line(130, "Tel: 089 1234567 (Filiale)"),
        ])
        #expect(values.contains("Hauptstraße 12 80331 München Bayern, Deutschland"), "\(values)")
        #expect(!values.contains("Hauptstraße 12 80331 München"), "\(values)")
        #expect(!values.contains { $0.contains("www") || $0.contains("Tel") }, "\(values)")
    }

    @Test func aDocumentNumberIsNoEvidenceOfTheDateOrder() {
        // `05-19/2004...` reads like a month-first date inside a document number; only a date standing alone counts.
        let r = receipt([
            Fixture.line(20, "KEDAI MAKAN SEDAP", h: 20),
            Fixture.line(60, "Doc No : T05-19/200417"),
            Fixture.line(80, "Date :06/02/2018 07:11:54 PM"),
            Fixture.line(200, "TOTAL RM"), (200, 16, [(480, "5.00")]),
        ])
        #expect(r.date == "2018-02-06")
    }

    @Test func aDateRightOfThePriceColumnIsKept() {
        // The till prints its time and date at the foot, the date right of the items' amount column.
        let r = receipt([
            Fixture.line(20, "KEDAI MAKAN SEDAP", h: 20),
            Fixture.line(80, "QTY ITEM PRICE AMOUNT"),
            Fixture.line(100, "1 NASI LEMAK"), (100, 16, [(150, "5.00")]),
            Fixture.line(200, "TOTAL"), (200, 16, [(150, "5.00")]),
            (300, 16, [(20, "12:41"), (400, "21/03/19")]),
        ])
        #expect(r.date == "2019-03-21")
        #expect(r.time == "12:41")
    }

    @Test func aYearFirstDateWithoutSeparatorsUnderItsLabel() {
        let r = receipt([
            Fixture.line(20, "KEDAI MAKAN SEDAP", h: 20),
            Fixture.line(60, "Date/Time"),
            Fixture.line(80, "20190321/102200"),
            Fixture.line(200, "TOTAL RM"), (200, 16, [(480, "5.00")]),
        ])
        #expect(r.date == "2019-03-21")
    }

    @Test func dollarsAndANorthAmericanPhoneReadMonthFirst() {
        let r = receipt([
            Fixture.line(20, "HARBOR GRILL", h: 20),
            Fixture.line(44, "(562) 597-0906"),
            Fixture.line(60, "06/03/2018 12:53 PM"),
            Fixture.line(100, "Burger"), (100, 16, [(480, "$9.00")]),
            Fixture.line(200, "TOTAL"), (200, 16, [(480, "$9.00")]),
        ])
        #expect(r.date == "2018-06-03")
    }

    @Test func totalInclusiveReadDespiteOCRAndTaxTableIgnored() {
        // `lnclusive` is OCR's reading of `Inclusive`; the GST summary's TOTAL line is a tax table, not the total.
        let r = receipt([
            Fixture.line(20, "KEDAI RUNCIT ABC", h: 20),
            Fixture.line(100, "Total Sales (Excluding GST)"), (100, 16, [(480, "80.91")]),
            Fixture.line(122, "Total GST"), (122, 16, [(480, "0.00")]),
            Fixture.line(144, "Rounding"), (144, 16, [(480, "-0.01")]),
            Fixture.line(166, "Total Sales (lnclusive of GST)"), (166, 16, [(480, "80.90")]),
            Fixture.line(188, "CASH"), (188, 16, [(480, "100.00")]),
            Fixture.line(210, "CHANGE"), (210, 16, [(480, "19.10")]),
            Fixture.line(250, "GST SUMMARY"),
            Fixture.line(272, "TOTAL :"), (272, 16, [(380, "80.91"), (480, "0.00")]),
        ])
        #expect(r.total == "80.90")
    }

    @Test func cashWithNoChangeSuppliesAnUnreadTotal() {
        // The TOTAL label's amount was not recognized; the cash handed over with no change is what was due.
        let r = receipt([
            Fixture.line(20, "KEDAI RUNCIT ABC", h: 20),
            Fixture.line(60, "PEN"), (60, 16, [(480, "150.00")]),
            Fixture.line(100, "SUB-TOTAL"), (100, 16, [(480, "144.68")]),
            Fixture.line(122, "TOTAL TAX"), (122, 16, [(480, "8.68")]),
            Fixture.line(144, "TOTAL"),
            Fixture.line(166, "CASH"), (166, 16, [(480, "153.35")]),
            Fixture.line(188, "CHANGE"), (188, 16, [(480, "0.00")]),
            Fixture.line(230, "GST SUMMARY"),
            Fixture.line(252, "TOTAL :"), (252, 16, [(380, "144.68"), (480, "8.68")]),
        ])
        #expect(r.total == "153.35")
        #expect(r.provenance["total"]?.text == "153.35")
    }
}

/// Text printed up a receipt's edge, across its lines: a line of its own, never the end of the line it crosses.
@Test func textAcrossTheLinesIsALineOfItsOwn() {
    let extractor = DocumentExtractor(
        detector: try! DataDetector(referenceDate: CalendarDay(year: 2024, month: 1, day: 1)))
    var page = Fixture.page([Fixture.line(100, "SubTotal"), (100, 16, [(400, "6.98")]), Fixture.line(120, "Tax"), (120, 16, [(400, "0.63")]),
                             Fixture.line(140, "Total"), (140, 16, [(400, "7.61")])])
    let turned = RecognizedWord(text: "$500 CASH GIVEAWAY ON BACK", confidence: 0.9, boundingBox: BoundingBox(x: 470, y: 40, width: 18, height: 230))
    page.observations.append(
        TextObservation(text: turned.text, confidence: 0.9, boundingBox: turned.boundingBox, words: [turned]))
    let texts = extractor.analyzer.analyze(Fixture.document(page)).map(\.text)
    #expect(texts.contains("Tax 0.63"), "\(texts)")
    #expect(texts.contains("$500 CASH GIVEAWAY ON BACK"), "\(texts)")
    let r = try! extractor.extract(Fixture.document(page), as: .receipt).receipt!
    #expect(r.tax.map(\.amount) == ["0.63"])
}

/// A receipt as the whole pipeline reads it from fixture lines, dated against 2024-01-01: for the locale files' suites.
func localeReceipt(_ lines: [(Double, Double, [(Double, String)])]) -> Receipt {
    let extractor = DocumentExtractor(
        detector: try! DataDetector(referenceDate: CalendarDay(year: 2024, month: 1, day: 1)))
    return try! extractor.extract(Fixture.document(Fixture.page(lines)), as: .receipt).receipt!
}

/// Portuguese receipts, read with `pt.json` and nothing else written for the language: its label words, its legal
/// forms and street words, and the postal codes of Portugal and Brazil.
@Suite struct PortugueseReceiptTests {
    func receipt(_ lines: [(Double, Double, [(Double, String)])]) -> Receipt { localeReceipt(lines) }

    @Test func aLisbonPastryShopsReceipt() {
        let r = receipt([Fixture.line(20, "Pastelaria Bela Lda.", x: 160, h: 24), Fixture.line(50, "Rua do Carmo, 45", x: 180),
                         Fixture.line(70, "1200-093 Lisboa", x: 190), Fixture.line(90, "NIF: 501234567", x: 190),
                         Fixture.line(110, "Fatura Simplificada FS 12/345", x: 150), Fixture.line(130, "Data: 12/03/2024 09:41"),
                         Fixture.line(160, "2 Pastel de nata"), (160, 16, [(480, "2,60")]),
                         Fixture.line(180, "1 Galão"), (180, 16, [(480, "1,60")]),
                         Fixture.line(200, "1 Tosta mista"), (200, 16, [(480, "3,15")]),
                         Fixture.line(230, "TOTAL A PAGAR"), (230, 16, [(480, "7,35")]),
                         Fixture.line(250, "IVA 23% incluído"), (250, 16, [(480, "1,37")]),
                         Fixture.line(270, "Numerário"), (270, 16, [(480, "10,00")]),
                         Fixture.line(290, "Troco"), (290, 16, [(480, "2,65")])])
        #expect(r.merchant.name == "Pastelaria Bela Lda.")
        #expect(r.merchant.address == "Rua do Carmo, 45 1200-093 Lisboa")
        #expect(r.merchant.taxId == "501234567")
        #expect(r.date == "2024-03-12")
        #expect(r.total == "7.35")
        #expect(r.payment?.tendered == "10.00")
        #expect(r.payment?.change == "2.65")
        #expect(r.items.map(\.amount) == ["2.60", "1.60", "3.15"])
    }

    @Test func aBrazilianCEPEndsTheAddress() {
        let r = receipt([Fixture.line(20, "Padaria Estrela Ltda", x: 160, h: 24), Fixture.line(50, "Av. Paulista, 1578", x: 180),
                         Fixture.line(70, "São Paulo - SP", x: 190), Fixture.line(90, "CEP 01310-200", x: 190),
                         Fixture.line(110, "CNPJ: 12.345.678/0001-90", x: 150), Fixture.line(130, "Emissão: 05/02/2024 18:02"),
                         Fixture.line(160, "1 Pão de queijo"), (160, 16, [(480, "6,50")]),
                         Fixture.line(190, "TOTAL R$"), (190, 16, [(480, "6,50")]),
                         Fixture.line(210, "Dinheiro"), (210, 16, [(480, "10,00")]),
                         Fixture.line(230, "Troco"), (230, 16, [(480, "3,50")])])
        #expect(r.merchant.address == "Av. Paulista, 1578 São Paulo - SP CEP 01310-200")
        #expect(r.merchant.phone == nil)
        #expect(r.date == "2024-02-05")
        #expect(r.total == "6.50")
        #expect(r.currency == "BRL")
    }
}

/// A Polish fiscal receipt, read with `pl.json` and nothing else written for the language but its month names and its
/// postal code (`00-950 Warszawa`) in the detectors: the taxed sales and their PTU above `SUMA PLN`, cash and change.
@Suite struct PolishReceiptTests {
    func receipt(_ lines: [(Double, Double, [(Double, String)])]) -> Receipt { localeReceipt(lines) }

    @Test func aWarsawBakerysFiscalReceipt() {
        let r = receipt([Fixture.line(20, "Piekarnia Złoty Kłos Sp. z o.o.", x: 120, h: 24), Fixture.line(50, "ul. Marszałkowska 104", x: 170),
                         Fixture.line(70, "00-017 Warszawa", x: 190), Fixture.line(90, "NIP 526-104-08-28", x: 180),
                         Fixture.line(110, "PARAGON FISKALNY", x: 180), Fixture.line(130, "2024-03-15  nr wydruku 4471"),
                         Fixture.line(160, "Chleb żytni 1 x4,99"), (160, 16, [(480, "4,99")]),
                         Fixture.line(180, "Bułka kajzerka 4 x0,89"), (180, 16, [(480, "3,56")]),
                         Fixture.line(200, "Pączek z różą 2 x3,20"), (200, 16, [(480, "6,40")]),
                         Fixture.line(230, "Sprzedaż opodatkowana B"), (230, 16, [(480, "14,95")]),
                         Fixture.line(250, "PTU B 5,00%"), (250, 16, [(480, "0,71")]),
                         Fixture.line(270, "Suma PTU"), (270, 16, [(480, "0,71")]),
                         Fixture.line(300, "SUMA PLN"), (300, 16, [(480, "14,95")]),
                         Fixture.line(320, "Gotówka"), (320, 16, [(480, "20,00")]),
                         Fixture.line(340, "Reszta"), (340, 16, [(480, "5,05")])])
        #expect(r.merchant.name == "Piekarnia Złoty Kłos Sp. z o.o.")
        #expect(r.merchant.address == "ul. Marszałkowska 104 00-017 Warszawa")
        #expect(r.merchant.taxId == "526-104-08-28")
        #expect(r.date == "2024-03-15")
        #expect(r.total == "14.95")
        #expect(r.payment?.tendered == "20.00")
        #expect(r.payment?.change == "5.05")
        #expect(r.items.map(\.amount) == ["4.99", "3.56", "6.40"])
    }

    @Test func aLegalFormReadWithZerosIsMended() {
        #expect(Lexicon.shared.mendingLegalForm("ZANBERG SP. Z 0.0.") == "ZANBERG SP. Z O.O.")
        #expect(Lexicon.shared.mendingLegalForm("AIK HUAT 5DN BHD") == "AIK HUAT SDN BHD")
        // A form that mixes cases takes the case of its letter before the slip.
        #expect(Lexicon.shared.mendingLegalForm("Moselle Conseil S.à r.I.") == "Moselle Conseil S.à r.l.")
        #expect(Lexicon.shared.mendingLegalForm("Tessitura Comasca S.r.I.") == "Tessitura Comasca S.r.l.")
        #expect(Lexicon.shared.mendingLegalForm("Kinta Tin Sdn 8hd") == "Kinta Tin Sdn Bhd")
        // A dollar sign read for Turkey's `Ş`, or a plain `S`, in the form.
        #expect(Lexicon.shared.mendingLegalForm("KARADENIZ LOJISTIK A.$.") == "KARADENIZ LOJISTIK A.Ş.")
        #expect(Lexicon.shared.mendingLegalForm("Costruzioni Alpine $.R.L.") == "Costruzioni Alpine S.R.L.")
        #expect(Lexicon.shared.mendingLegalForm("TOTAL $") == "TOTAL $")
        // A number that is no form stays.
        #expect(Lexicon.shared.mendingLegalForm("STUDIO 10 100") == "STUDIO 10 100")
    }
}

/// Japanese, Chinese and Korean receipts, read with `ja.json`, `zh.json` and `ko.json`, the date signs of
/// `EastAsianDate`, and the yen sign and label words found inside unspaced text: the date and time, the tax in the
/// total, cash and change.
@Suite struct EastAsianReceiptTests {
    func receipt(_ lines: [(Double, Double, [(Double, String)])]) -> Receipt { localeReceipt(lines) }

    /// Plain yen on every summary line and one grouped amount (`1,000` handed over): all whole yen.
    @Test func plainYenBesideOneGroupedAmountAreWholeYen() {
        let r = receipt([Fixture.line(20, "株式会社 カキ", x: 160, h: 24), Fixture.line(50, "京都府京都市中京区南台2-27-21", x: 150),
                         Fixture.line(80, "2016/4/26(火) 10:50:33"),
                         Fixture.line(110, "餃子 6個"), (110, 16, [(480, "350")]),
                         Fixture.line(140, "お買上計"), (140, 16, [(480, "350")]),
                         Fixture.line(160, "お買上合計"), (160, 16, [(480, "350")]),
                         Fixture.line(180, "お預り"), (180, 16, [(480, "1,000")]),
                         Fixture.line(200, "お釣り"), (200, 16, [(480, "650")])])
        #expect(r.total == "350")
        #expect(r.payment?.tendered == "1000" && r.payment?.change == "650")
        #expect(r.items.map(\.amount) == ["350"])
    }

    @Test func aTokyoConvenienceStoresReceipt() {
        let r = receipt([Fixture.line(20, "ローソン 渋谷駅前店", x: 160, h: 24), Fixture.line(50, "東京都渋谷区道玄坂2-6-1", x: 150),
                         Fixture.line(70, "電話:03-5456-7890", x: 170), Fixture.line(100, "2024年11月08日(金) 18時42分"),
                         Fixture.line(120, "レジ1 責No.123"),
                         Fixture.line(150, "からあげクン レギュラー"), (150, 16, [(480, "¥238")]),
                         Fixture.line(170, "おにぎり ツナマヨ"), (170, 16, [(480, "¥140")]),
                         Fixture.line(190, "お茶 525ml"), (190, 16, [(480, "¥151")]),
                         Fixture.line(220, "小計"), (220, 16, [(480, "¥529")]),
                         Fixture.line(240, "(内消費税等 8%"), (240, 16, [(480, "¥39)")]),
                         Fixture.line(260, "合計"), (260, 16, [(480, "¥529")]),
                         Fixture.line(280, "お預り"), (280, 16, [(480, "¥1,000")]),
                         Fixture.line(300, "お釣り"), (300, 16, [(480, "¥471")])])
        #expect(r.merchant.name == "ローソン 渋谷駅前店")
        #expect(r.merchant.address == "東京都渋谷区道玄坂2-6-1")
        #expect(r.date == "2024-11-08")
        #expect(r.time == "18:42")
        #expect(r.currency == "JPY")
        #expect(r.total == "529")
        #expect(r.tax.map(\.amount) == ["39"])
        #expect(r.payment?.change == "471")
        // `525ml` is the bottle's size, not a price.
        #expect(r.items.map(\.amount) == ["238", "140", "151"])
        #expect(r.items.allSatisfy { $0.unitPrice == nil })
    }

    /// A small photo's yen signs read as the letters they look like, glued to the amount or apart from it, and a sign
    /// printed apart.
    @Test func yenSignsReadAsLettersOrApartStayTheAmountsSigns() {
        let r = receipt([Fixture.line(20, "山口食堂", x: 160, h: 24), Fixture.line(50, "2019年4月28日 07:44"),
                         Fixture.line(80, "おにぎり 鮭"), (80, 16, [(480, "V160")]),
                         Fixture.line(100, "烏龍茶 600ml"), (100, 16, [(480, "V"), (495, "280")]),
                         Fixture.line(120, "天然水 550ml"), (120, 16, [(480, "¥"), (495, "130")]),
                         Fixture.line(140, "カップ麺"), (140, 16, [(480, "v0")]),
                         Fixture.line(160, "枝豆"), (160, 16, [(480, "Y380")]),
                         Fixture.line(190, "小計"), (190, 16, [(480, "V950")]),
                         Fixture.line(210, "合計"), (210, 16, [(480, "V950")]),
                         Fixture.line(230, "お預かり"), (230, 16, [(480, "V1,000")]),
                         Fixture.line(250, "お釣り"), (250, 16, [(480, "V50")])])
        #expect(r.items.map(\.amount) == ["160", "280", "130", "0", "380"])
        #expect(r.items.map(\.description) == ["おにぎり 鮭", "烏龍茶 600ml", "天然水 550ml", "カップ麺", "枝豆"])
        #expect(r.total == "950")
        #expect(r.payment?.change == "50")
        // Where amounts print cents, a letter before a number is a code's (`V001`).
        let coded = localeReceipt([
            Fixture.line(20, "KEDAI MAJU"), Fixture.line(40, "PEN BIRU V001"), (40, 16, [(480, "3.50")]),
            Fixture.line(60, "TOTAL"), (60, 16, [(480, "3.50")]),
        ])
        #expect(coded.items.map(\.amount) == ["3.50"])
    }

    /// A Shanghai shop's ticket, read with `zh.json`: its date, its total after `合计`, cash and change in yuan.
    @Test func aShanghaiShopsTicket() {
        let r = receipt([Fixture.line(20, "全家便利店 南京路店", x: 170, h: 24), Fixture.line(50, "上海市黄浦区南京东路100号", x: 150),
                         Fixture.line(70, "电话 021-6321-0000", x: 180), Fixture.line(100, "日期 2024年03月15日 14:05"),
                         Fixture.line(120, "收银员 012 单号 88231"),
                         Fixture.line(150, "矿泉水"), (150, 16, [(480, "3.00")]),
                         Fixture.line(170, "饭团"), (170, 16, [(480, "8.50")]),
                         Fixture.line(190, "咖啡"), (190, 16, [(480, "12.00")]),
                         Fixture.line(220, "合计"), (220, 16, [(480, "23.50")]),
                         Fixture.line(240, "现金"), (240, 16, [(480, "50.00")]),
                         Fixture.line(260, "找零"), (260, 16, [(480, "26.50")])])
        #expect(r.merchant.name == "全家便利店 南京路店")
        #expect(r.date == "2024-03-15")
        #expect(r.time == "14:05")
        #expect(r.total == "23.50")
        #expect(r.payment?.tendered == "50.00")
        #expect(r.payment?.change == "26.50")
        #expect(r.items.map(\.amount) == ["3.00", "8.50", "12.00"])
    }

    /// A count with its unit and a price under an item's name is that item's quantity line (`@88 x 2個`, `1,700X3개`),
    /// and a table's price and count between the name and the amount leave the name (`떡볶이  4,500  3  13,500`); the same
    /// holds in English (`Coffee  4.50  3  13.50`).
    @Test func quantityLinesAndPriceColumnsInEveryScript() {
        let ja = receipt([Fixture.line(20, "ファミリーマート 栄店", x: 160, h: 24), Fixture.line(50, "2024年05月01日"),
                          Fixture.line(80, "ボールペン 黒"), Fixture.line(100, "@88 x 2個"), (100, 16, [(480, "¥176")]),
                          Fixture.line(120, "緑茶 525ml"), (120, 16, [(480, "¥151")]),
                          Fixture.line(150, "合計"), (150, 16, [(480, "¥327")])])
        #expect(ja.items.map(\.description) == ["ボールペン 黒", "緑茶 525ml"])
        #expect(ja.items.map(\.amount) == ["176", "151"])
        let ko = receipt([Fixture.line(20, "한빛 분식", x: 180, h: 24), Fixture.line(50, "2024-05-01 12:30"),
                          Fixture.line(80, "떡볶이 4,500 3"), (80, 16, [(480, "13,500")]),
                          Fixture.line(100, "김밥 3,500 1"), (100, 16, [(480, "3,500")]),
                          Fixture.line(130, "합계"), (130, 16, [(480, "17,000")])])
        #expect(ko.items.map(\.description) == ["떡볶이", "김밥"])
        #expect(ko.items.map(\.quantity) == ["3", "1"])
        #expect(ko.items.map(\.unitPrice) == ["4500", "3500"])
        let en = receipt([Fixture.line(20, "CORNER CAFE", x: 180, h: 24), Fixture.line(50, "05/01/2024"),
                          Fixture.line(80, "Coffee 4.50 3"), (80, 16, [(480, "13.50")]),
                          Fixture.line(100, "Muffin 2.25 2"), (100, 16, [(480, "4.50")]),
                          Fixture.line(130, "TOTAL"), (130, 16, [(480, "18.00")])])
        #expect(en.items.map(\.description) == ["Coffee", "Muffin"])
        #expect(en.items.map(\.unitPrice) == ["4.50", "2.25"])
    }

    /// A tax number ends before the word after it: a branch's label, or another number's label in a language whose
    /// letters the number's pattern does not take (`IČO: 27081234 DIČ: CZ27081234`).
    @Test func aTaxNumberEndsBeforeTheWordAfterIt() {
        func taxId(_ line: String) -> String? {
            receipt([Fixture.line(20, "SIAM NOODLE HOUSE", x: 180, h: 24), Fixture.line(50, line, x: 60),
                     Fixture.line(80, "Pad Thai"), (80, 16, [(480, "120.00")]),
                     Fixture.line(100, "TOTAL"), (100, 16, [(480, "120.00")])]).merchant.taxId
        }
        #expect(taxId("Tax ID: 0105544012345 Branch 00001") == "0105544012345")
        #expect(taxId("TAX ID 0105544012345 B") == "0105544012345")
        #expect(taxId("VAT Reg No: GB123456789") == "GB123456789")
        #expect(taxId("Org.nr: 912 345 678 MVA") == "912 345 678 MVA", "a tax's name printed as part of it")
    }

    @Test func aSeoulConvenienceStoresReceipt() {
        let r = receipt([Fixture.line(20, "GS25 강남역점", x: 180, h: 24), Fixture.line(50, "서울특별시 강남구 테헤란로 123", x: 140),
                         Fixture.line(70, "전화 02-123-4567", x: 180), Fixture.line(90, "사업자번호 123-45-67890", x: 160),
                         Fixture.line(120, "2024년 11월 08일 18:42"),
                         Fixture.line(150, "바나나우유"), (150, 16, [(480, "1,700")]),
                         Fixture.line(170, "삼각김밥 참치"), (170, 16, [(480, "1,200")]),
                         Fixture.line(200, "합계"), (200, 16, [(480, "2,900")]),
                         Fixture.line(220, "부가세"), (220, 16, [(480, "264")]),
                         Fixture.line(240, "받은금액"), (240, 16, [(480, "5,000")]),
                         Fixture.line(260, "거스름돈"), (260, 16, [(480, "2,100")])])
        #expect(r.merchant.name == "GS25 강남역점")
        #expect(r.merchant.taxId == "123-45-67890")
        #expect(r.date == "2024-11-08")
        #expect(r.time == "18:42")
        #expect(r.total == "2900")
        #expect(r.tax.map(\.amount) == ["264"])
        #expect(r.payment?.tendered == "5000")
        #expect(r.payment?.change == "2100")
        #expect(r.items.map(\.amount) == ["1700", "1200"])
    }

    /// The number after the document's name in any locale's words, with or without a number sign, also glued on.
    @Test(arguments: [
        ("Rechnung Nr. 2026-1206", "2026-1206"), ("Facture n° F-2026-0412", "F-2026-0412"),
        ("Faktura VAT nr FV/2026/12/045", "FV/2026/12/045"), ("Fattura n. 345/2026", "345/2026"),
        ("Factuurnummer: 2026-88", "2026-88"), ("Bon-Nr. 7788", "7788"), ("Kvitto 4411", "4411"),
        ("ReceiptNo: 18010500047", "18010500047"), ("Receipt #: 12345", "12345"),
    ])
    func theReceiptNumberFollowsItsNameInAnyLocale(line: String, number: String) {
        let r = receipt([Fixture.line(40, "SHOP GMBH"), Fixture.line(80, line), Fixture.line(120, "TOTAL 12,50")])
        #expect(r.receiptNumber == number)
    }

    /// A word that only begins like a document's name is not one.
    @Test func aWordBeginningLikeTheNameIsNoReceiptNumber() {
        let r = receipt([Fixture.line(40, "SHOP GMBH"), Fixture.line(80, "Bonus 250"), Fixture.line(120, "TOTAL 12,50")])
        #expect(r.receiptNumber == nil)
        // An amount after a credit note's name is no number.
        let credit = receipt([
            Fixture.line(40, "SHOP SARL"), Fixture.line(80, "AVOIR 150,00"), Fixture.line(100, "Ticket n° 0042"),
            Fixture.line(120, "TOTAL 12,50"),
        ])
        #expect(credit.receiptNumber == "0042")
    }


    /// A tax or company number that reads as a phone number (`P.IVA 01234567890`, `NIP 525-000-12-34`) is not the
    /// merchant's phone.
    @Test func aNumberAfterATaxIdLabelIsNoPhone() {
        let header = [Fixture.line(40, "FERRAMENTA ROSSI SRL"), Fixture.line(70, "P.IVA 01234567890")]
        let withPhone = receipt(header + [Fixture.line(100, "Tel. 02 1234 5678"), Fixture.line(140, "TOTALE 12,50")])
        #expect(withPhone.merchant.phone == "02 1234 5678")
        // The phone's own label after the tax id: a phone.
        let oneLine = receipt([
            Fixture.line(40, "FERRAMENTA ROSSI SRL"), Fixture.line(70, "P.IVA 01234567890 Tel. 02 1234 5678"),
            Fixture.line(140, "TOTALE 12,50"),
        ])
        #expect(oneLine.merchant.phone == "02 1234 5678")
        let without = receipt([Fixture.line(40, "SKLEP SP. Z O.O."), Fixture.line(70, "NIP 525-000-12-34"),
                               Fixture.line(140, "SUMA 12,50")])
        #expect(without.merchant.phone == nil)
    }

}
