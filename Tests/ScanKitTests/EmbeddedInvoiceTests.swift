import Foundation
import ScanKit
import TestSupport
import XCTest

/// A PDF that embeds a Cross Industry Invoice gives the receipt from it; its page's text is still read.
final class EmbeddedInvoiceTests: XCTestCase {
    static let xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"
            xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100"
            xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100">
          <rsm:ExchangedDocument><ram:ID>F-2026-118</ram:ID><ram:TypeCode>380</ram:TypeCode>
            <ram:IssueDateTime><udt:DateTimeString format="102">20261012</udt:DateTimeString></ram:IssueDateTime>
          </rsm:ExchangedDocument>
          <rsm:SupplyChainTradeTransaction>
            <ram:ApplicableHeaderTradeAgreement><ram:SellerTradeParty><ram:Name>Atelier Lumière SARL</ram:Name>
            </ram:SellerTradeParty></ram:ApplicableHeaderTradeAgreement>
            <ram:ApplicableHeaderTradeSettlement><ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>
              <ram:SpecifiedTradeSettlementHeaderMonetarySummation>
                <ram:TaxBasisTotalAmount>350.00</ram:TaxBasisTotalAmount>
                <ram:GrandTotalAmount>420.00</ram:GrandTotalAmount>
              </ram:SpecifiedTradeSettlementHeaderMonetarySummation>
            </ram:ApplicableHeaderTradeSettlement>
          </rsm:SupplyChainTradeTransaction>
        </rsm:CrossIndustryInvoice>
        """

    func testTheEmbeddedInvoiceGivesTheReceiptAndSurvivesReimport() throws {
        let dir = Drawing.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/facture.pdf"
        // The page prints another total: the XML's values win, and say where they came from.
        let page = ["Atelier Lumiere SARL", "Facture F-2026-118", "Total TTC 999,00 EUR"]
        FileManager.default.createFile(
            atPath: path,
            contents: Data(Drawing.pdfWithAttachment(lines: page, attachment: "factur-x.xml", bytes: Array(Self.xml.utf8))))
        let processor = try DocumentProcessor(configuration: ScanConfiguration())
        let doc = try processor.process(path: path)
        XCTAssertEqual(doc.documentType?.label, .receipt)
        XCTAssertEqual(doc.receipt?.total, "420.00")
        XCTAssertEqual(doc.receipt?.merchant.name, "Atelier Lumière SARL")
        XCTAssertEqual(doc.receipt?.date, "2026-10-12")
        XCTAssertTrue(doc.warnings.contains { $0.code == "e-invoice" && $0.message.contains("factur-x.xml") },
                      "\(doc.warnings)")
        XCTAssertTrue(doc.pages.first?.observations.contains { $0.text.contains("999,00") } == true, "text still read")
        // Our JSON read again keeps the invoice's fields, though it no longer holds the attachment.
        let json = try JSONEncoder().encode(doc)
        let again = try processor.process(data: json, name: "facture.json")
        XCTAssertEqual(again.receipt?.total, "420.00")
        // Read again with the invoice turned off, the note that the fields came from it goes with them.
        var textOnly = ScanConfiguration()
        textOnly.embeddedInvoices = false
        let reread = try DocumentProcessor(configuration: textOnly).process(data: json, name: "facture.json")
        XCTAssertFalse(reread.warnings.contains { $0.code == "e-invoice" }, "\(reread.warnings)")
        // Turned off, the page's own text is parsed.
        var off = ScanConfiguration()
        off.embeddedInvoices = false
        off.documentTypeOverride = .receipt
        let text = try DocumentProcessor(configuration: off).process(path: path)
        XCTAssertEqual(text.receipt?.total, "999.00")
        XCTAssertFalse(text.warnings.contains { $0.code == "e-invoice" })
        // A broken invoice leaves the text's fields, with a warning that names it.
        let broken = dir + "/broken.pdf"
        FileManager.default.createFile(
            atPath: broken,
            contents: Data(Drawing.pdfWithAttachment(lines: page, attachment: "factur-x.xml",
                                                     bytes: Array("<rsm:CrossIndustryInvoice".utf8))))
        let left = try processor.process(path: broken)
        XCTAssertNil(left.receipt?.total == "420.00" ? left.receipt : nil)
        XCTAssertTrue(left.warnings.contains { $0.code == "e-invoice-unreadable" && $0.message.contains("factur-x.xml") },
                      "\(left.warnings)")
    }
}
