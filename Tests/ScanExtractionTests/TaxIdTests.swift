import Testing
import ScanDetectors
import ScanLayout
import ScanModel
@testable import ScanExtraction

/// The merchant's tax number: read after any locale's label or a tax's own name, cut where the number ends, and the
/// sales tax's registration preferred where a slip prints a company number too. The slips are written for these
/// tests.
@Suite struct TaxIdTests {
    let extractor = DocumentExtractor(
        detector: try! DataDetector(referenceDate: CalendarDay(year: 2025, month: 6, day: 1)))

    func taxId(_ header: [String], footer: [String] = []) throws -> String? {
        var lines: [(Double, Double, [(Double, String)])] = []
        var y = 40.0
        for h in header {
            lines.append(Fixture.line(y, h))
            y += 24
        }
        y += 20
        lines += [
            Fixture.line(y, "Bread"), (y, 16, [(440, "2,50")]),
            Fixture.line(y + 24, "Milk"), (y + 24, 16, [(440, "1,20")]),
            Fixture.line(y + 60, "TOTAL"), (y + 60, 16, [(440, "3,70")]),
        ]
        y += 100
        for f in footer {
            lines.append(Fixture.line(y, f))
            y += 24
        }
        let r = try #require(try extractor.extract(Fixture.document(Fixture.page(lines)), as: .receipt).receipt)
        return r.merchant.taxId
    }

    /// A sales tax's registration over a company number: Slovakia's `IČ DPH` under `IČO` and `DIČ`, Germany's VAT
    /// number under its tax number, a country's VAT letters without a tax word in the label (`DIČ: CZ…`).
    @Test func theSalesTaxRegistrationIsPreferred() throws {
        #expect(try taxId(["POTRAVINY JEDNOTA", "IČO: 35123456", "DIČ: 2020123456", "IČ DPH: SK2020123456"])
            == "SK2020123456")
        #expect(try taxId(["Bäckerei Korn GmbH", "St.-Nr. 12/345/67890", "USt-IdNr. DE123456789"]) == "DE123456789")
        #expect(try taxId(["POTRAVINY U MOSTU", "IČ: 27081234", "DIČ: CZ27081234"]) == "CZ27081234")
        // One label alone: its number, whatever it registers.
        #expect(try taxId(["HOTEL LAGO", "OIB: 12345678903"]) == "12345678903")
    }

    /// A tax's own name before a number of a VAT number's shape is its label (`TVA LU…`, `TVA BE 0456.789.123`), but
    /// not before a rate or an amount.
    @Test func aTaxNameLabelsAVATNumber() throws {
        #expect(try taxId(["BRASSERIE DU PARC", "TVA LU19876543"]) == "LU19876543")
        #expect(try taxId(["BRASSERIE LE COQ", "TVA BE 0456.789.123"]) == "BE 0456.789.123")
        #expect(try taxId(["CAFE CENTRAL", "TVA 20%"]) == nil)
        // Not a date after a word that is one language's tax and another's date (`Pvm`, Finnish), nor an invoice's
        // number after `TAX`.
        #expect(try taxId(["KAHVILA AALTO", "Y-tunnus 1234567-8", "Pvm 12.05.2024"]) == "1234567-8")
        #expect(try taxId(["CORNER SHOP", "TAX INV 00123456", "VAT NO 123 4567 89"]) == "123 4567 89")
    }

    /// The number ends before a second one that opens with a letter or a label (`J40/…`, a trade register's; `RCS
    /// B123456`), and a tax's name last on the line stays (`MVA`).
    @Test func theNumberEndsWhereTheNextBegins() throws {
        #expect(ReceiptParser.taxIdValue(after: ": RO28765432 J40/11234/2011") == "RO28765432")
        #expect(ReceiptParser.taxIdValue(after: " LU19876543 RCS B123456") == "LU19876543")
        #expect(ReceiptParser.taxIdValue(after: " 912 345 678 MVA") == "912 345 678 MVA")
        #expect(ReceiptParser.taxIdValue(after: " 0105544012345 Branch 00001") == "0105544012345")
        #expect(ReceiptParser.taxIdValue(after: ": GOMA850101ABC") == "GOMA850101ABC")
        #expect(ReceiptParser.taxIdValue(after: " INVOICE 12345678") == nil)
        #expect(ReceiptParser.taxIdValue(after: " 20%") == nil)
    }

    /// Romania's `RO` read with a zero for its O is put right; another number opening with `R0` would not be one.
    @Test func romaniasPrefixReadWithAZero() throws {
        #expect(try taxId(["MEGA MARKET SRL", "CIF: R014399840"]) == "RO14399840")
    }

    /// The labels of Latin America and South Asia (`RUC`, `NIT`, `CUIT`, `Cédula Jurídica`, `NTN`, `BIN No`), and a
    /// number printed under the sums when the header prints none.
    @Test func moreCountriesLabelsAndAFooterNumber() throws {
        #expect(try taxId(["CEVICHERIA EL MAR", "RUC 20601234567"]) == "20601234567")
        #expect(try taxId(["SODA LA ESQUINA", "Cédula Jurídica: 3-101-654321"]) == "3-101-654321")
        #expect(try taxId(["PARRILLA DON JUAN", "CUIT 30-71234567-8"]) == "30-71234567-8")
        #expect(try taxId(["KARACHI MART", "NTN: 0712345-6"]) == "0712345-6")
        #expect(try taxId(["DHAKA GADGETS", "BIN No: 000456789-0102"]) == "000456789-0102")
        #expect(try taxId(["KIOSK AM MARKT"], footer: ["USt-IdNr. DE811234567"]) == "DE811234567")
        // Labels one after the other are one (`VAT REG TIN`): the number after them, not the second label with it.
        #expect(try taxId(["JOLLIBEE", "VAT REG TIN 000-388-474-0000"]) == "000-388-474-0000")
    }
}
