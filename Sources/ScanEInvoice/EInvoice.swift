import Foundation
import ScanDetectors
import ScanModel

/// The structured invoice a PDF/A-3 carries beside its pages: UN/CEFACT Cross Industry Invoice XML, as Factur-X,
/// ZUGFeRD 2 and XRechnung (CII) embed it, and ZUGFeRD 1's Cross Industry Document. Its values are the seller's own,
/// exact where text read off the page may not be, so a reader of the PDF takes them.
///
/// ```swift
/// if let found = try EInvoice.first(in: input.attachments()) { receipt = found.receipt }
/// ```
public struct EInvoice: Sendable, Hashable {
    /// The fields, as a receipt gives them. Provenance names the XML element a value came from; no box.
    public var receipt: Receipt
    /// The attachment's file name (`factur-x.xml`, `ZUGFeRD-invoice.xml`).
    public var attachment: String
    /// `CII` (Cross Industry Invoice: Factur-X, ZUGFeRD 2, XRechnung) or `ZUGFeRD 1` (Cross Industry Document).
    public var syntax: String
    /// UNTDID 1001 document type: 380 invoice, 381 credit note, 384 corrected invoice...
    public var typeCode: String?

    /// Why an attachment that is an invoice could not be read.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var attachment: String
        public var reason: String
        public var description: String { "the embedded invoice \(attachment) cannot be read: \(reason)" }
    }

    /// The first attachment that is a Cross Industry Invoice or Document; nil when there is none. Other XML (a
    /// PDF/A's metadata, an order) and other files are passed over.
    /// - Throws: `Failure` when an attachment is such an invoice but is malformed or states no total.
    public static func first(in attachments: [(name: String, bytes: [UInt8])]) throws -> EInvoice? {
        for (name, bytes) in attachments where looksLikeXML(bytes) {
            let root: XMLTree
            do {
                root = try XMLTreeBuilder.parse(bytes)
            } catch {
                // Malformed XML under an invoice's usual name is a broken invoice; other XML is not ours to judge.
                if invoiceNames.contains(name.lowercased()) {
                    throw Failure(attachment: name, reason: "\(error)")
                }
                continue
            }
            switch root.name {
            case "CrossIndustryInvoice": return try read(root, attachment: name, syntax: "CII")
            case "CrossIndustryDocument": return try read(root, attachment: name, syntax: "ZUGFeRD 1")
            default: continue
            }
        }
        return nil
    }

    /// The names the Factur-X, ZUGFeRD and XRechnung specifications give the attachment.
    static let invoiceNames: Set<String> = ["factur-x.xml", "zugferd-invoice.xml", "xrechnung.xml"]

    static func looksLikeXML(_ bytes: [UInt8]) -> Bool {
        var rest = bytes.prefix(64)[...]
        if rest.starts(with: [0xEF, 0xBB, 0xBF]) { rest = rest.dropFirst(3) }
        return rest.drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }.first == 0x3C  // `<`
    }

    // MARK: - Mapping

    /// UNTDID 1001 codes of documents that give money back: their amounts are the receipt's negative ones.
    static let creditCodes: Set<String> = ["81", "83", "261", "262", "296", "308", "381", "396", "420", "458", "532"]

    static func read(_ root: XMLTree, attachment: String, syntax: String) throws -> EInvoice {
        // The two syntaxes name the same parts differently; each lookup tries ZUGFeRD 2's name, then ZUGFeRD 1's.
        let header = root.first("ExchangedDocument") ?? root.first("HeaderExchangedDocument")
        let trade = root.first("SupplyChainTradeTransaction") ?? root.first("SpecifiedSupplyChainTradeTransaction")
        guard let trade else { throw Failure(attachment: attachment, reason: "it holds no trade transaction") }
        let agreement = trade.first("ApplicableHeaderTradeAgreement") ?? trade.first("ApplicableSupplyChainTradeAgreement")
        let settlement = trade.first("ApplicableHeaderTradeSettlement")
            ?? trade.first("ApplicableSupplyChainTradeSettlement")
        let sums = settlement?.first("SpecifiedTradeSettlementHeaderMonetarySummation")
            ?? settlement?.first("SpecifiedTradeSettlementMonetarySummation")
        let typeCode = header?.value("TypeCode")
        let sign: Decimal = typeCode.map { creditCodes.contains($0) } == true ? -1 : 1
        let currency = settlement?.value("InvoiceCurrencyCode")

        var r = Receipt()
        func noted(_ field: String, _ element: String, _ text: String) {
            r.provenance[field] = Provenance(text: "\(element): \(text)", page: 0, boundingBox: nil, confidence: 1)
        }
        /// An amount of `sums` (the one in the invoice's currency where several are given), signed.
        func amount(_ name: String, of element: XMLTree? = sums) -> String? {
            let all = element?.all(name) ?? []
            let chosen = all.first { $0.attributes["currencyID"] == currency } ?? all.first
            guard let value = chosen.flatMap({ Self.number($0.text) }) else { return nil }
            return Self.amountString(value * sign)
        }

        if let seller = agreement?.first("SellerTradeParty") {
            r.merchant.name = seller.value("Name")
            r.merchant.address = address(of: seller)
            let registrations = seller.all("SpecifiedTaxRegistration").compactMap { reg -> (String, String)? in
                guard let id = reg.value("ID") else { return nil }
                return (reg.first("ID")?.attributes["schemeID"] ?? "", id)
            }
            // The VAT number (`VA`) before a national tax number (`FC`).
            r.merchant.taxId = (registrations.first { $0.0 == "VA" } ?? registrations.first)?.1
            r.merchant.phone = seller.value("DefinedTradeContact", "TelephoneUniversalCommunication", "CompleteNumber")
            if let name = r.merchant.name { noted("merchant.name", "SellerTradeParty/Name", name) }
            if let address = r.merchant.address { noted("merchant.address", "SellerTradeParty/PostalTradeAddress", address) }
            if let id = r.merchant.taxId { noted("merchant.taxId", "SellerTradeParty/SpecifiedTaxRegistration", id) }
        }
        if let id = header?.value("ID") {
            r.receiptNumber = id
            noted("receiptNumber", "ExchangedDocument/ID", id)
        }
        if let issued = header?.first("IssueDateTime", "DateTimeString"), let date = Self.date(issued) {
            r.date = date
            noted("date", "IssueDateTime", issued.text)
        }
        r.currency = currency
        // The lines' sum, as a receipt's subtotal is: the charges (`fees`) and allowances (`discounts`) come after it.
        r.subtotal = amount("LineTotalAmount") ?? amount("TaxBasisTotalAmount")
        r.total = amount("GrandTotalAmount") ?? amount("DuePayableAmount")
        guard r.total != nil else {
            throw Failure(attachment: attachment, reason: "it states no grand total or amount due")
        }
        if let total = r.total { noted("total", "GrandTotalAmount", total) }
        if let subtotal = r.subtotal { noted("subtotal", "LineTotalAmount", subtotal) }
        if let allowances = amount("AllowanceTotalAmount"), Decimal(string: allowances) != 0 {
            r.discounts = allowances.hasPrefix("-") ? String(allowances.dropFirst()) : "-" + allowances
        }

        for tax in settlement?.all("ApplicableTradeTax") ?? [] {
            guard let value = amount("CalculatedAmount", of: tax) else { continue }
            let rate = (tax.value("RateApplicablePercent") ?? tax.value("ApplicablePercent")).flatMap(Self.number)
                .map(Self.plain)
            r.tax.append(Receipt.Tax(
                rate: rate, amount: value,
                source: Provenance(text: "ApplicableTradeTax: \(value)", page: 0, boundingBox: nil, confidence: 1)))
        }
        // The MINIMUM profile states the tax total only.
        if r.tax.isEmpty, let total = amount("TaxTotalAmount") {
            r.tax.append(Receipt.Tax(
                amount: total,
                source: Provenance(text: "TaxTotalAmount: \(total)", page: 0, boundingBox: nil, confidence: 1)))
        }
        var fees: [Receipt.Fee] = []
        for charge in settlement?.all("SpecifiedTradeAllowanceCharge") ?? [] {
            guard charge.value("ChargeIndicator", "Indicator") == "true", let value = amount("ActualAmount", of: charge)
            else { continue }
            let label = charge.value("Reason") ?? "Charge"
            fees.append(Receipt.Fee(
                description: label, amount: value,
                source: Provenance(text: "SpecifiedTradeAllowanceCharge: \(label)", page: 0, boundingBox: nil,
                                   confidence: 1)))
        }
        if !fees.isEmpty { r.fees = fees }

        for line in trade.all("IncludedSupplyChainTradeLineItem") {
            let product = line.first("SpecifiedTradeProduct")
            let name = product?.value("Name") ?? line.value("AssociatedDocumentLineDocument", "LineID") ?? "item"
            let lineAgreement = line.first("SpecifiedLineTradeAgreement")
                ?? line.first("SpecifiedSupplyChainTradeAgreement")
            let delivery = line.first("SpecifiedLineTradeDelivery") ?? line.first("SpecifiedSupplyChainTradeDelivery")
            let lineSettlement = line.first("SpecifiedLineTradeSettlement")
                ?? line.first("SpecifiedSupplyChainTradeSettlement")
            let lineSums = lineSettlement?.first("SpecifiedTradeSettlementLineMonetarySummation")
                ?? lineSettlement?.first("SpecifiedTradeSettlementMonetarySummation")
            let billed = delivery?.first("BilledQuantity")
            var item = Receipt.Item(
                description: name.split(whereSeparator: \.isNewline).joined(separator: " "),
                source: Provenance(text: "IncludedSupplyChainTradeLineItem: \(name)", page: 0, boundingBox: nil,
                                   confidence: 1))
            item.quantity = billed.flatMap { Self.number($0.text) }.map(Self.plain)
            item.unit = billed?.attributes["unitCode"].flatMap { Self.units[$0] }
            item.unitPrice = amount("ChargeAmount", of: lineAgreement?.first("NetPriceProductTradePrice"))
            item.amount = amount("LineTotalAmount", of: lineSums)
            item.code = product?.value("SellerAssignedID") ?? product?.value("GlobalID")
            r.items.append(item)
        }

        if let means = settlement?.value("SpecifiedTradeSettlementPaymentMeans", "TypeCode") {
            r.payment = Receipt.Payment(method: Self.paymentMethods[means] ?? "other")
        }
        return EInvoice(receipt: r, attachment: attachment, syntax: syntax, typeCode: typeCode)
    }

    /// The seller's address as one string, its lines in order, then the postcode and the town.
    static func address(of party: XMLTree) -> String? {
        guard let a = party.first("PostalTradeAddress") else { return nil }
        let lines = ["LineOne", "LineTwo", "LineThree"].compactMap { a.value($0) }
        let town = [a.value("PostcodeCode"), a.value("CityName")].compactMap { $0 }.joined(separator: " ")
        let parts = lines + (town.isEmpty ? [] : [town])
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    /// `yyyy-mm-dd` from a CII date of format 102 (`20180916`), also under a format code that is no other date's
    /// (eight digits are a day whatever the attribute says; 610 and 616 give six) or written as an ISO date.
    static func date(_ element: XMLTree) -> String? {
        let text = element.text.trimmingCharacters(in: .whitespacesAndNewlines)
        let digits = text.filter(\.isNumber)
        guard digits.count == 8, text.count <= 10 else { return nil }
        let y = digits.prefix(4), m = digits.dropFirst(4).prefix(2), d = digits.suffix(2)
        // A day of the calendar only (`20250230` is none).
        guard let year = Int(y), let month = Int(m), let day = Int(d),
            CalendarDay(year: year, month: month, day: day) != nil
        else { return nil }
        return "\(y)-\(m)-\(d)"
    }

    /// A CII number: digits with an optional sign and decimal point, nothing else (`1.234,56` is none, not 1.234).
    static func number(_ text: String) -> Decimal? {
        let t = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !t.isEmpty, t.range(of: #"^[+-]?[0-9]+(\.[0-9]+)?$"#, options: .regularExpression) != nil else {
            return nil
        }
        return Decimal(string: t, locale: Locale(identifier: "en_US_POSIX"))
    }

    /// UNECE Recommendation 20 unit codes a receipt writes as a short unit; pieces and others are left out.
    static let units: [String: String] = [
        "KGM": "kg", "GRM": "g", "LTR": "l", "MLT": "ml", "MTR": "m", "CMT": "cm", "MTK": "m2", "MTQ": "m3",
        "HUR": "h", "MIN": "min", "DAY": "d", "KWH": "kWh",
    ]

    /// UNTDID 4461 payment means as a receipt's methods.
    static let paymentMethods: [String: String] = ["10": "cash", "48": "card", "54": "card", "55": "card"]

    /// A decimal without trailing zeros (`19.00` → `19`, `1.5000` → `1.5`).
    static func plain(_ value: Decimal) -> String {
        var text = NSDecimalNumber(decimal: value).stringValue
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text
    }

    /// An amount with at least two decimals, as receipts give them (`20.000` → `20.00`, `0.1234` kept).
    static func amountString(_ value: Decimal) -> String {
        let text = plain(value)
        guard let dot = text.firstIndex(of: ".") else { return text + ".00" }
        let decimals = text.distance(from: dot, to: text.endIndex) - 1
        return decimals >= 2 ? text : text + String(repeating: "0", count: 2 - decimals)
    }
}
