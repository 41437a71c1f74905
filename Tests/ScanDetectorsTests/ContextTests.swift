import XCTest
import ScanModel
@testable import ScanDetectors

/// Document context: the region a document points to when none is given, and the order
/// of its numeric dates. The texts are receipts and cards written for these tests.
final class ContextTests: XCTestCase {
    private let reference = CalendarDay(year: 2024, month: 6, day: 1)!

    private func region(of text: String) -> String? {
        let d = try! DataDetector(referenceDate: reference)
        return d.context(for: [text]).region
    }

    func testRegionFromCurrencyMarkers() {
        let rows: [(String, String?)] = [
            ("KEDAI MAKAN SELERA\nNasi Lemak 2   RM 7.00\nTOTAL RM14.00\nTERIMA KASIH", "MY"),
            ("The Corner Cafe\nFlat white   £3.40\nTotal   £6.80\nThank you", "GB"),
            ("Hawker Centre Stall 12\nChicken rice   S$4.50\nTotal S$9.00", "SG"),
            ("Bottle shop\n2 x Lager   A$24.00\nTotal A$48.00", "AU"),
            ("Epicerie du coin\nPain   C$3.25\nTotal C$6.50", "CA"),
            ("Depot bangunan\nSemen 2 sak\nTotal Rp 125.000", "ID"),
            ("Total IDR 250,000", "ID"),
            ("Bergbahn Ticket\nTotal CHF 42.00", "CH"),
            ("Invoice total AUD 1,200.00", "AU"),
            ("Amount due: CAD 99.00", "CA"),
            ("Grand total MYR 320.00", "MY"),
            // No country in the currency alone.
            ("Bäckerei\nBrezel   € 1,20\nSumme € 2,40", nil),
            ("Diner\nBurger $12.00\nTotal $12.00", nil),
            ("Sushi ¥1,200", nil),
            // Words that merely contain a code are not markers.
            ("FORMAT and THERMAL paper, CHFX 12", nil),
        ]
        for (text, want) in rows {
            XCTAssertEqual(region(of: text), want, text.debugDescription)
        }
    }

    /// A taxpayer number's name that one country gives points there, and the `$` is then that country's own.
    func testRegionFromATaxNumbersNameAndItsDollar() throws {
        XCTAssertEqual(region(of: "PARRILLA DON JULIO\nCUIT 30-68912345-2\nTOTAL $79.700,00"), "AR")
        XCTAssertEqual(region(of: "FARMACIA\nRUT: 89.807.200-2\nTOTAL $18.110"), "CL")
        XCTAssertEqual(region(of: "ALMACENES\nNIT 890.900.608-9\nTOTAL A PAGAR $91.750"), "CO")
        // A country named outweighs the lesser sign.
        XCTAssertEqual(region(of: "RUT 12.345.678-5\nMontevideo, Uruguay"), "UY")
        // The word inside another, or in lower case running text, is no sign.
        XCTAssertNil(region(of: "Diner\nCUITS 12\nthe nit picker\nTotal $12.00"))
        let chile = try DataDetector(region: "CL", referenceDate: reference)
        XCTAssertEqual(chile.detect(in: "TOTAL $18.110").first { $0.type == .money }?.value.currency, "CLP")
        let kenya = try DataDetector(referenceDate: reference)
        XCTAssertEqual(kenya.detect(in: "Total KSh 1,250.00").first { $0.type == .money }?.value.currency, "KES")
    }

    /// A large city's name is a lesser sign of its country (`CityRegions.swift`, from GeoNames); a city named like a
    /// common word says nothing (`Lima`, a lime). A sign OCR reads without its stroke (`N`, `P`) is the region's
    /// currency before a figure, and the dong's `đ` is Vietnam's.
    func testRegionFromALargeCityAndTheSignsOCRStrips() throws {
        XCTAssertEqual(region(of: "OCEAN BASKET\nV&A Waterfront, Cape Town 8001\nTotal Due R 89.90"), "ZA")
        XCTAssertEqual(region(of: "JOLLIBEE\nMakati City\nTOTAL P40.00"), "PH")
        XCTAssertEqual(region(of: "SUYA SPOT\nWuse 2, Abuja\nTOTAL N1,200.00"), "NG")
        XCTAssertEqual(region(of: "WALMART\nR.U.T.: 76.042.014-K\nTOTAL $ 5.490"), "CL")
        XCTAssertNil(region(of: "FRUTERIA\nLIMA 2 x 1,50\nTOTAL 3,00"))
        XCTAssertNil(region(of: "THANK YOU\nHave a Nice day"))
        // Only as an address names a town, only where nothing else speaks, and never over a given region: a dish and a
        // server's name are no signs (`Moscow Mule`, `Sophia`).
        XCTAssertEqual(region(of: "TAVERN\nSpringfield, IL 62704\nMOSCOW MULE 12.00\nMOSCOW MULE 12.00"), "US")
        XCTAssertNil(region(of: "TAVERN\nServed by: Sophia\nMOSCOW MULE 12.00"))
        let us = try DataDetector(region: "US", referenceDate: reference)
        XCTAssertEqual(us.context(for: ["OCEAN BASKET\nV&A Waterfront, Cape Town 8001"]).region, "US")
        func currency(_ text: String, _ region: String?) throws -> String? {
            try DataDetector(region: region, referenceDate: reference).detect(in: text)
                .first { $0.type == .money }?.value.currency
        }
        XCTAssertEqual(try currency("Total Due R 89.90", "ZA"), "ZAR")
        XCTAssertEqual(try currency("TOTAL N1,200.00", "NG"), "NGN")
        XCTAssertEqual(try currency("TOTAL ₦1,200.00", nil), "NGN")
        XCTAssertEqual(try currency("TOTAL P1,162.50", "PH"), "PHP")
        XCTAssertEqual(try currency("Tong cong: 185.000 đ", nil), "VND")
        // Not after the amount, nor before a nought or a look-alike: a till's time and number are no pesos.
        XCTAssertNil(try currency("06/14/2024 17:55:12 P0S 12", "PH"))
        XCTAssertNil(try currency("SN: P1234567", "PH"))
        XCTAssertNil(try currency("TABLE P1", "PH"))
        XCTAssertNil(try currency("Plot N12", "NG"))
        XCTAssertNil(try currency("TOTAL N1,200.00", "US"))
        // Peru's sol before an amount with cents (`S/8` is a shop's `S/B` misread), the leu in capitals, the colón's
        // sign, and the taka's and the dirham's letters where the region says whose.
        XCTAssertEqual(try currency("TOTAL S/ 42.50", nil), "PEN")
        XCTAssertNil(try currency("99 SPEED MART S/8 (519537-X)", nil))
        XCTAssertEqual(try currency("TOTAL LEI 45,20", nil), "RON")
        XCTAssertEqual(try currency("TOTAL ₡ 4 500", nil), "CRC")
        XCTAssertEqual(try currency("Grand Total Tk 96,499.00", "BD"), "BDT")
        XCTAssertEqual(try currency("TOTAL TTC 261,28 DH", "MA"), "MAD")
        XCTAssertNil(try currency("TOTAL TTC 261,28 DH", nil))
        XCTAssertEqual(region(of: "KABAB HOUSE\nPanthapath, Dhaka-1215\nGrand Total Tk 96,499.00"), "BD")
    }

    func testRegionFromCountryPostalCodeAndPhoneCode() {
        let rows: [(String, String?)] = [
            ("ACME Pty Ltd\n12 George St\nSydney, Australia", "AU"),
            ("Jane Roe\nFlat 2, 10 Downing Lane\nLondon SW1A 2AA", "GB"),
            ("Maple Books\n100 King St W\nToronto, ON M5H 1J9", "CA"),
            ("Corner Deli\n500 Main St\nSpringfield, IL 62704", "US"),
            ("Jan de Vries\nKeizersgracht 1\n1015 CJ Amsterdam", "NL"),
            ("Hans Muster\nmobile +41 79 123 45 67\nwork 044 668 18 00", "CH"),
            // The country-code domain of an e-mail or web address.
            ("John White\n(01) 616 8946\njohnw@maplecedar.ie\nwww.maplecedar.ie", "IE"),
            ("Acme Widgets\nhttps://www.acme.co.uk/contact", "GB"),
            // A word that only looks like a domain in running text is not evidence.
            ("We stayed home.it was raining", nil),
        ]
        for (text, want) in rows {
            XCTAssertEqual(region(of: text), want, text.debugDescription)
        }
    }

    func testStrongerEvidenceWins() {
        // One +1 number on a receipt full of ringgit: the currency and the country name win.
        let text = "SYARIKAT ABC SDN BHD\nKuala Lumpur, Malaysia\nHelpdesk +1 415 555 0100\nTOTAL RM 45.00"
        XCTAssertEqual(region(of: text), "MY")
    }

    /// A given region is the default for text that does not say where it is from: clear evidence in the text (a
    /// country named, its currency, two numbers with its calling code) wins over it; one sign from abroad does not.
    func testTheGivenRegionIsADefaultForTextThatDoesNotSay() throws {
        let us = try DataDetector(region: "US", referenceDate: reference)
        XCTAssertEqual(us.context(for: ["TOTAL RM 45.00\nMalaysia"]).region, "MY")
        let card = "Friedrichstraße 68, 10117 Berlin\nTel +49 30 1234567\nFax +49 30 1234568\nMobil 030 7654321"
        XCTAssertEqual(us.context(for: [card]).region, "DE")
        XCTAssertEqual(us.detect(in: card).filter { $0.type == .phone }.map(\.value.e164),
                       ["+49301234567", "+49301234568", "+49307654321"])
        let diner = "Joe's Diner\nHelpdesk +44 20 7946 0958\nCall (415) 555-0100"
        XCTAssertEqual(us.context(for: [diner]).region, "US")
        XCTAssertEqual(us.detect(in: diner).filter { $0.type == .phone }.map(\.value.e164),
                       ["+442079460958", "+14155550100"])
        // Evidence for the default as strong as for another region keeps the default.
        let gb = try DataDetector(region: "GB", referenceDate: reference)
        XCTAssertEqual(gb.context(for: ["Shipped from the United Kingdom\nTOTAL RM 45.00"]).region, "GB")
        // A region must have a numbering plan.
        for bad in ["UK", "ZZ", "XX"] {
            XCTAssertThrowsError(try DataDetector(region: bad), bad)
        }
    }

    func testInferredRegionReadsNationalPhones() {
        let d = try! DataDetector(types: [.phone], referenceDate: reference)
        let my = d.detect(in: "RESTORAN SRI\nTel: 03-2142 1234\nTOTAL RM 18.50")
        XCTAssertEqual(my.first?.value.e164, "+60321421234")
        let gb = d.detect(in: "The Corner Cafe\nTel 020 7946 0958\nTotal £6.80")
        XCTAssertEqual(gb.first?.value.e164, "+442079460958")
        // A card: the +44 of one number tells how to read the national one.
        let card = d.detect(in: "Alex Smith\nSales Director\nT +44 20 7946 0000\nM 07700 900123\nalex@example.co.uk")
        XCTAssertEqual(card.map { $0.value.e164 }, ["+442079460000", "+447700900123"])
    }

    func testRegionFromOnePageAppliesToAnother() {
        let d = try! DataDetector(types: [.money], referenceDate: reference)
        let pages = ["Subtotal $10.00", "TOTAL S$ 12.00"]
        let ctx = d.context(for: pages)
        XCTAssertEqual(ctx.region, "SG")
        // The bare $ on the first page is read as the document's dollar.
        XCTAssertEqual(d.detect(in: pages[0], context: ctx).first?.value.currency, "SGD")
        XCTAssertEqual(d.detect(in: pages[0]).first?.value.currency, "USD")
    }

    // MARK: - Date order

    private func date(_ text: String, region: String? = nil, ref: CalendarDay? = nil) -> Entity? {
        let d = try! DataDetector(types: [.date], region: region, referenceDate: ref ?? reference)
        return d.detect(in: text).first
    }

    func testDayFirstEvidenceFromAnotherDateInTheDocument() {
        let text = "Invoice date: 03/04/2023\nDelivered: 25/03/2023"
        let d = try! DataDetector(types: [.date], referenceDate: reference)
        let dates = d.detect(in: text)
        XCTAssertEqual(dates.map { $0.value.date }, ["2023-04-03", "2023-03-25"])
        XCTAssertNil(dates[0].ambiguous)
        // Evidence beats the region default.
        let us = try! DataDetector(types: [.date], region: "US", referenceDate: reference)
        XCTAssertEqual(us.detect(in: text).first?.value.date, "2023-04-03")
        // Month-first evidence works the same way.
        XCTAssertEqual(d.detect(in: "Ordered 04/05/2023, shipped 04/21/2023").first?.value.date, "2023-04-05")
    }

    func testEvidenceOnOnePageDecidesAnother() {
        let d = try! DataDetector(types: [.date], referenceDate: reference)
        let ctx = d.context(for: ["Statement period ending 31/05/2024", "Payment received 02/03/2024"])
        XCTAssertEqual(ctx.dayFirst, true)
        XCTAssertEqual(d.detect(in: "Payment received 02/03/2024", context: ctx).first?.value.date, "2024-03-02")
    }

    func testRegionDefaultOrder() {
        XCTAssertEqual(date("Date: 03/04/2024", region: "MY")?.value.date, "2024-04-03")
        XCTAssertEqual(date("Date: 03/04/2024", region: "GB")?.value.date, "2024-04-03")
        XCTAssertEqual(date("Datum: 03/04/2024", region: "DE")?.value.date, "2024-04-03")
        XCTAssertEqual(date("Date: 03/04/2024", region: "FR")?.value.date, "2024-04-03")
        XCTAssertEqual(date("Date: 03/04/2024", region: "US")?.value.date, "2024-03-04")
        // A region inferred from the text counts as well: ringgit means day first.
        XCTAssertEqual(date("TOTAL RM 12.00\nDATE 03/04/2024")?.value.date, "2024-04-03")
        XCTAssertNil(date("TOTAL RM 12.00\nDATE 03/04/2024")?.ambiguous)
        // Nothing decides: month first, flagged, with the other reading.
        let open = date("Date: 03/04/2024")
        XCTAssertEqual(open?.ambiguous, true)
        XCTAssertEqual(open?.alternatives, ["2024-04-03"])
    }

    func testTwoDigitYearsPivotOnTheReferenceDate() {
        XCTAssertEqual(date("15/08/85")?.value.date, "1985-08-15")
        XCTAssertEqual(date("15/08/44")?.value.date, "2044-08-15")
        XCTAssertEqual(date("15/08/45")?.value.date, "1945-08-15")
        XCTAssertEqual(date("25 DEC 99")?.value.date, "1999-12-25")
        XCTAssertEqual(date("Exp Feb23'31")?.value.date, "2031-02-23")
        let late = CalendarDay(year: 2095, month: 1, day: 1)!
        XCTAssertEqual(date("15/08/05", ref: late)?.value.date, "2105-08-15")
        XCTAssertEqual(date("15/08/99", ref: late)?.value.date, "2099-08-15")
        XCTAssertEqual(date("15/08/16", ref: late)?.value.date, "2016-08-15")
    }

    /// A reference date is a day the calendar has: `--reference-date 2025-02-30` is refused, not read as some day.
    func testAReferenceDateMustExist() {
        XCTAssertNotNil(CalendarDay(iso: "2024-02-29"))
        XCTAssertNotNil(CalendarDay(iso: "2025-12-31"))
        for bad in ["2025-02-29", "2025-02-30", "2025-04-31", "2025-13-01", "2025-00-10", "2025-2-3"] {
            XCTAssertNil(CalendarDay(iso: bad), bad)
        }
    }

    /// A region is one with a numbering plan, in either case: `ZZ` or `UK` (Great Britain is `GB`) is refused, not
    /// taken for a region the detectors know nothing of.
    func testARegionMustBeOneThatExists() {
        for good in ["GB", "gb", "US", "DE", "BR", "MY"] { XCTAssertTrue(DataDetector.isValidRegion(good), good) }
        for bad in ["ZZ", "XX", "UK", "G", "GBR", "1A", ""] { XCTAssertFalse(DataDetector.isValidRegion(bad), bad) }
    }
}
