import Foundation
import ScanModel
import Testing

@testable import ScanEInvoice

/// Cross Industry Invoices written for these tests, in the two syntaxes PDFs embed.
struct EInvoiceTests {
    static func cii(type: String = "380", extra: String = "") -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"
            xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100"
            xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100">
          <rsm:ExchangedDocument>
            <ram:ID>INV-2026-0042</ram:ID>
            <ram:TypeCode>\(type)</ram:TypeCode>
            <ram:IssueDateTime><udt:DateTimeString format="102">20261103</udt:DateTimeString></ram:IssueDateTime>
          </rsm:ExchangedDocument>
          <rsm:SupplyChainTradeTransaction>
            <ram:IncludedSupplyChainTradeLineItem>
              <ram:AssociatedDocumentLineDocument><ram:LineID>1</ram:LineID></ram:AssociatedDocumentLineDocument>
              <ram:SpecifiedTradeProduct><ram:SellerAssignedID>K-7</ram:SellerAssignedID>
                <ram:Name>Kaffeebohnen
        Espresso</ram:Name></ram:SpecifiedTradeProduct>
              <ram:SpecifiedLineTradeAgreement>
                <ram:NetPriceProductTradePrice><ram:ChargeAmount>12.5000</ram:ChargeAmount></ram:NetPriceProductTradePrice>
              </ram:SpecifiedLineTradeAgreement>
              <ram:SpecifiedLineTradeDelivery><ram:BilledQuantity unitCode="KGM">2.0000</ram:BilledQuantity>
              </ram:SpecifiedLineTradeDelivery>
              <ram:SpecifiedLineTradeSettlement><ram:SpecifiedTradeSettlementLineMonetarySummation>
                <ram:LineTotalAmount>25.000</ram:LineTotalAmount>
              </ram:SpecifiedTradeSettlementLineMonetarySummation></ram:SpecifiedLineTradeSettlement>
            </ram:IncludedSupplyChainTradeLineItem>
            <ram:ApplicableHeaderTradeAgreement>
              <ram:SellerTradeParty>
                <ram:Name>Rösterei Nord GmbH</ram:Name>
                <ram:PostalTradeAddress><ram:PostcodeCode>20095</ram:PostcodeCode>
                  <ram:LineOne>Hafenweg 3</ram:LineOne><ram:CityName>Hamburg</ram:CityName>
                  <ram:CountryID>DE</ram:CountryID></ram:PostalTradeAddress>
                <ram:SpecifiedTaxRegistration><ram:ID schemeID="FC">22/815/0815/4</ram:ID></ram:SpecifiedTaxRegistration>
                <ram:SpecifiedTaxRegistration><ram:ID schemeID="VA">DE123456789</ram:ID></ram:SpecifiedTaxRegistration>
              </ram:SellerTradeParty>
              <ram:BuyerTradeParty><ram:Name>Café Süd</ram:Name></ram:BuyerTradeParty>
            </ram:ApplicableHeaderTradeAgreement>
            <ram:ApplicableHeaderTradeSettlement>
              <ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>
              <ram:SpecifiedTradeSettlementPaymentMeans><ram:TypeCode>58</ram:TypeCode></ram:SpecifiedTradeSettlementPaymentMeans>
              <ram:ApplicableTradeTax><ram:CalculatedAmount>1.96</ram:CalculatedAmount><ram:TypeCode>VAT</ram:TypeCode>
                <ram:BasisAmount>28.00</ram:BasisAmount><ram:CategoryCode>S</ram:CategoryCode>
                <ram:RateApplicablePercent>7.00</ram:RateApplicablePercent></ram:ApplicableTradeTax>
              <ram:SpecifiedTradeAllowanceCharge><ram:ChargeIndicator><udt:Indicator>true</udt:Indicator></ram:ChargeIndicator>
                <ram:ActualAmount>4.00</ram:ActualAmount><ram:Reason>Versand</ram:Reason></ram:SpecifiedTradeAllowanceCharge>
              <ram:SpecifiedTradeAllowanceCharge><ram:ChargeIndicator><udt:Indicator>false</udt:Indicator></ram:ChargeIndicator>
                <ram:ActualAmount>1.00</ram:ActualAmount><ram:Reason>Treue</ram:Reason></ram:SpecifiedTradeAllowanceCharge>
              <ram:SpecifiedTradeSettlementHeaderMonetarySummation>
                <ram:LineTotalAmount>25.00</ram:LineTotalAmount>
                <ram:ChargeTotalAmount>4.00</ram:ChargeTotalAmount>
                <ram:AllowanceTotalAmount>1.00</ram:AllowanceTotalAmount>
                <ram:TaxBasisTotalAmount>28.00</ram:TaxBasisTotalAmount>
                <ram:TaxTotalAmount currencyID="USD">2.10</ram:TaxTotalAmount>
                <ram:TaxTotalAmount currencyID="EUR">1.96</ram:TaxTotalAmount>
                <ram:GrandTotalAmount>29.96</ram:GrandTotalAmount>
                <ram:DuePayableAmount>29.96</ram:DuePayableAmount>
              </ram:SpecifiedTradeSettlementHeaderMonetarySummation>
            </ram:ApplicableHeaderTradeSettlement>
          </rsm:SupplyChainTradeTransaction>
          \(extra)
        </rsm:CrossIndustryInvoice>
        """
    }

    func read(_ xml: String, name: String = "factur-x.xml") throws -> EInvoice? {
        try EInvoice.first(in: [(name, Array(xml.utf8))])
    }

    @Test func aCrossIndustryInvoiceGivesTheReceiptsFields() throws {
        let invoice = try #require(try read(Self.cii()))
        let r = invoice.receipt
        #expect(invoice.syntax == "CII" && invoice.typeCode == "380" && invoice.attachment == "factur-x.xml")
        #expect(r.merchant.name == "Rösterei Nord GmbH")
        #expect(r.merchant.address == "Hafenweg 3, 20095 Hamburg")
        #expect(r.merchant.taxId == "DE123456789", "the VAT number before the national tax number")
        #expect(r.receiptNumber == "INV-2026-0042")
        #expect(r.date == "2026-11-03")
        #expect(r.currency == "EUR")
        // The lines' sum is the subtotal; the charge a fee and the allowance a discount after it, then the tax.
        #expect(r.subtotal == "25.00" && r.total == "29.96" && r.discounts == "-1.00")
        #expect(r.tax.map(\.amount) == ["1.96"] && r.tax.first?.rate == "7")
        #expect(r.fees?.map(\.description) == ["Versand"] && r.fees?.first?.amount == "4.00")
        #expect(r.payment?.method == "other")
        let item = try #require(r.items.first)
        #expect(item.description == "Kaffeebohnen Espresso")
        #expect(item.quantity == "2" && item.unit == "kg" && item.unitPrice == "12.50" && item.amount == "25.00")
        #expect(item.code == "K-7")
        #expect(r.provenance["total"]?.text == "GrandTotalAmount: 29.96")
        #expect(r.provenance["total"]?.boundingBox == nil)
    }

    @Test func aCreditNotesAmountsAreMoneyBack() throws {
        let r = try #require(try read(Self.cii(type: "381"))).receipt
        #expect(r.total == "-29.96" && r.subtotal == "-25.00" && r.tax.first?.amount == "-1.96")
        #expect(r.items.first?.amount == "-25.00" && r.discounts == "1.00")
    }

    @Test func zugferdOnesCrossIndustryDocumentIsReadToo() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <rsm:CrossIndustryDocument xmlns:rsm="urn:ferd:CrossIndustryDocument:invoice:1p0"
                xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:12">
              <rsm:HeaderExchangedDocument><ram:ID>R-17</ram:ID><ram:TypeCode>380</ram:TypeCode>
                <ram:IssueDateTime><udt:DateTimeString xmlns:udt="urn:x" format="102">20250131</udt:DateTimeString>
                </ram:IssueDateTime></rsm:HeaderExchangedDocument>
              <rsm:SpecifiedSupplyChainTradeTransaction>
                <ram:ApplicableSupplyChainTradeAgreement><ram:SellerTradeParty><ram:Name>Werkstatt Ost</ram:Name>
                </ram:SellerTradeParty></ram:ApplicableSupplyChainTradeAgreement>
                <ram:ApplicableSupplyChainTradeSettlement>
                  <ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>
                  <ram:ApplicableTradeTax><ram:CalculatedAmount>19.00</ram:CalculatedAmount>
                    <ram:ApplicablePercent>19</ram:ApplicablePercent></ram:ApplicableTradeTax>
                  <ram:SpecifiedTradeSettlementMonetarySummation><ram:LineTotalAmount>100.00</ram:LineTotalAmount>
                    <ram:GrandTotalAmount>119.00</ram:GrandTotalAmount></ram:SpecifiedTradeSettlementMonetarySummation>
                </ram:ApplicableSupplyChainTradeSettlement>
                <ram:IncludedSupplyChainTradeLineItem>
                  <ram:SpecifiedSupplyChainTradeDelivery><ram:BilledQuantity unitCode="HUR">4</ram:BilledQuantity>
                  </ram:SpecifiedSupplyChainTradeDelivery>
                  <ram:SpecifiedSupplyChainTradeSettlement><ram:SpecifiedTradeSettlementMonetarySummation>
                    <ram:LineTotalAmount>100.00</ram:LineTotalAmount></ram:SpecifiedTradeSettlementMonetarySummation>
                  </ram:SpecifiedSupplyChainTradeSettlement>
                  <ram:SpecifiedTradeProduct><ram:Name>Arbeitszeit</ram:Name></ram:SpecifiedTradeProduct>
                </ram:IncludedSupplyChainTradeLineItem>
              </rsm:SpecifiedSupplyChainTradeTransaction>
            </rsm:CrossIndustryDocument>
            """
        let invoice = try #require(try read(xml, name: "ZUGFeRD-invoice.xml"))
        #expect(invoice.syntax == "ZUGFeRD 1")
        let r = invoice.receipt
        #expect(r.merchant.name == "Werkstatt Ost" && r.receiptNumber == "R-17" && r.date == "2025-01-31")
        #expect(r.subtotal == "100.00" && r.total == "119.00" && r.tax.first?.rate == "19")
        #expect(r.items.map(\.description) == ["Arbeitszeit"] && r.items.first?.unit == "h")
        #expect(r.items.first?.quantity == "4")
    }

    @Test func otherAttachmentsArePassedOverAndABrokenInvoiceSaysWhy() throws {
        // A PDF/A's metadata, an image and an order are no invoice.
        let others: [(name: String, bytes: [UInt8])] = [
            ("logo.png", [0x89, 0x50, 0x4E, 0x47]), ("metadata.xml", Array("<x:xmpmeta xmlns:x='adobe:ns:meta/'/>".utf8)),
            ("notes.xml", Array("<not closed".utf8)),
        ]
        #expect(try EInvoice.first(in: others) == nil)
        // Under an invoice's own name, XML that does not parse is a broken invoice.
        #expect(throws: EInvoice.Failure.self) { try read("<rsm:CrossIndustryInvoice", name: "factur-x.xml") }
        // An invoice without a total is refused rather than half read.
        let noTotal = Self.cii().replacingOccurrences(of: "GrandTotalAmount", with: "Other")
            .replacingOccurrences(of: "DuePayableAmount", with: "Else")
        #expect(throws: EInvoice.Failure.self) { try read(noTotal) }
        // An invoice whose name is an entity that would expand a hundred million times, or that nests past any
        // invoice's depth, is refused, not read.
        let laughs = #"<!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">"#
            + #"<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">"#
            + #"<!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;"><!ENTITY f "&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;">"#
            + #"<!ENTITY g "&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;"><!ENTITY h "&g;&g;&g;&g;&g;&g;&g;&g;&g;&g;">]>"#
        let bomb = Self.cii().replacingOccurrences(of: "<?xml version=\"1.0\" encoding=\"UTF-8\"?>", with: laughs)
            .replacingOccurrences(of: "Rösterei Nord GmbH", with: "&h;")
        #expect(throws: EInvoice.Failure.self) { try read(bomb) }
        let deep = Self.cii(extra: String(repeating: "<a>", count: 500) + String(repeating: "</a>", count: 500))
        #expect(throws: EInvoice.Failure.self) { try read(deep) }
        // An entity that names a file is never fetched.
        let secret = "/etc/hostname"
        let named = FileManager.default.contents(atPath: secret).map { String(decoding: $0, as: UTF8.self) } ?? ""
        let xxe = Self.cii().replacingOccurrences(
            of: "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
            with: #"<!DOCTYPE r [<!ENTITY file SYSTEM "file://\#(secret)">]>"#
        ).replacingOccurrences(of: "Rösterei Nord GmbH", with: "Rösterei &file;")
        let name = (try? read(xxe))??.receipt.merchant.name ?? ""
        #expect(named.isEmpty || !name.contains(named.trimmingCharacters(in: .whitespacesAndNewlines)), "\(name)")
    }

    /// Text in CDATA is text; a number written other than CII writes it, or a day past its month's end, is none.
    @Test func cdataTextAndNumbersAndDaysAsCIIWritesThem() throws {
        let cdata = Self.cii().replacingOccurrences(of: "Rösterei Nord GmbH", with: "<![CDATA[Rösterei & Söhne]]>")
        #expect(try read(cdata)?.receipt.merchant.name == "Rösterei & Söhne")
        let comma = Self.cii().replacingOccurrences(of: "<ram:LineTotalAmount>25.00", with: "<ram:LineTotalAmount>1.234,56")
        #expect(try read(comma)?.receipt.subtotal == "28.00", "the tax basis stands in for a sum that is no number")
        let february = Self.cii().replacingOccurrences(of: "20261103", with: "20250230")
        #expect(try read(february)?.receipt.date == nil)
    }

    @Test func amountsAndQuantitiesAreWrittenAsReceiptsWriteThem() {
        #expect(EInvoice.amountString(Decimal(string: "20.000")!) == "20.00")
        #expect(EInvoice.amountString(Decimal(string: "0.1234")!) == "0.1234")
        #expect(EInvoice.amountString(Decimal(string: "7")!) == "7.00")
        #expect(EInvoice.plain(Decimal(string: "400.00001")!) == "400.00001")
        #expect(EInvoice.plain(Decimal(string: "1.5000")!) == "1.5")
    }
}
