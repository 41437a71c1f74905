import Foundation
import ScanModel

/// CSV (RFC 4180: comma-separated, CRLF line ends, fields quoted when they hold a comma,
/// a quote or a line break). One row per line item for a receipt (a receipt without
/// items still gets one row), one row per contact for a business card, and only the
/// header for other documents. The column order is stable and documented in README.md.
public enum CSVWriter {
    public static let receiptColumns = [
        "source", "merchant_name", "merchant_address", "merchant_phone", "date", "time", "currency", "receipt_number",
        "item_index", "description", "quantity", "unit", "unit_price", "amount", "item_discount",
        "subtotal", "tax", "tip", "discounts", "total", "payment_method", "item_modifiers", "item_code", "rounding",
        "item_kind",
    ]
    public static let cardColumns = [
        "source", "full_name", "prefix", "given_name", "middle_name", "family_name", "suffix", "title", "department",
        "organization", "work_phone", "mobile_phone", "fax", "other_phone", "email", "url", "street", "city", "region",
        "postal_code", "country", "address",
    ]

    /// What a CSV holds: receipt line items or business-card contacts.
    public enum Table: Sendable {
        case receipts, contacts

        public var columns: [String] { self == .receipts ? CSVWriter.receiptColumns : CSVWriter.cardColumns }
    }

    /// The table a document's rows belong in, or nil when it is neither a receipt nor a card.
    public static func table(of doc: Document) -> Table? {
        doc.receipt != nil ? .receipts : doc.businessCard != nil ? .contacts : nil
    }

    /// One document on its own: its table's header, then its rows.
    public static func csv(_ doc: Document) -> Data {
        let table = table(of: doc) ?? .receipts
        return encode([table.columns] + rows(doc))
    }

    static func encode(_ rows: [[String]]) -> Data {
        Data(rows.map { $0.map(field).joined(separator: ",") + "\r\n" }.joined().utf8)
    }

    /// The document's rows without a header: one per line item or contact.
    public static func rows(_ doc: Document) -> [[String]] {
        var rows: [[String]] = []
        if let r = doc.receipt {
            let tax = r.tax.compactMap { Decimal(string: $0.amount) }.reduce(Decimal(0), +)
            let taxText = r.tax.isEmpty ? "" : "\(tax)"
            let head = [doc.source, r.merchant.name ?? "", r.merchant.address ?? "", r.merchant.phone ?? "", r.date ?? "",
                        r.time ?? "", r.currency ?? "", r.receiptNumber ?? ""]
            let tail = [r.subtotal ?? "", taxText, r.tip ?? "", r.discounts ?? "", r.total ?? "", r.payment?.method ?? ""]
            let end = [r.rounding ?? ""]
            if r.items.isEmpty {
                rows.append(head + ["", "", "", "", "", "", ""] + tail + ["", ""] + end + [""])
            }
            // A discount line is a row of its own (`item_kind` says so), so the `amount` column adds up as printed.
            for (i, it) in r.items.enumerated() {
                rows.append(head + [String(i + 1), it.description, it.quantity ?? "", it.unit ?? "", it.unitPrice ?? "",
                                    it.amount ?? "", it.discount ?? ""] + tail + [(it.modifiers ?? []).joined(separator: "; "), it.code ?? ""]
                            + end + [it.kind?.rawValue ?? "article"])
            }
        } else if let c = doc.businessCard {
            func phones(_ t: BusinessCard.PhoneType) -> String {
                c.phones.filter { $0.type == t }.map { $0.e164 ?? $0.number }.joined(separator: "; ")
            }
            rows.append([doc.source, c.name?.full ?? "", c.name?.prefix ?? "", c.name?.given ?? "", c.name?.middle ?? "",
                         c.name?.family ?? "", c.name?.suffix ?? "", c.title ?? "", c.department ?? "", c.organization ?? "",
                         phones(.work), phones(.mobile), phones(.fax), phones(.other),
                         c.emails.map(\.address).joined(separator: "; "), c.urls.map(\.url).joined(separator: "; "),
                         c.address?.street ?? "", c.address?.city ?? "", c.address?.region ?? "", c.address?.postalCode ?? "",
                         c.address?.country ?? "", c.address?.full ?? ""])
        }
        return rows
    }

    /// One field, quoted when it must be; a leading `=`, `+`, `-` or `@` is kept as printed.
    static func field(_ s: String) -> String {
        if s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) {
            return "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
        return s
    }
}

/// One CSV for many documents, as a folder run writes it to one stream: a single header
/// line, then the rows of every document. The first receipt or card decides the table;
/// a document of the other kind doesn't fit its columns and is left out (the caller says so).
public struct CSVStream: Sendable {
    public private(set) var table: CSVWriter.Table?

    public init() {}

    public enum Outcome: Sendable {
        /// The bytes to write: the header first, then the document's rows.
        case rows(Data)
        /// Neither a receipt nor a card: nothing to write.
        case nothing
        /// A receipt in a contacts CSV, or a card in a receipts CSV.
        case otherTable(CSVWriter.Table)
    }

    public mutating func append(_ doc: Document) -> Outcome {
        guard let kind = CSVWriter.table(of: doc) else { return .nothing }
        if let table, table != kind { return .otherTable(kind) }
        var rows = CSVWriter.rows(doc)
        if table == nil {
            table = kind
            rows.insert(kind.columns, at: 0)
        }
        return .rows(CSVWriter.encode(rows))
    }
}
