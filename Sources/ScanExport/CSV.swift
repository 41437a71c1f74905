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
        "subtotal", "tax", "tip", "discounts", "total", "payment_method",
    ]
    public static let cardColumns = [
        "source", "full_name", "prefix", "given_name", "middle_name", "family_name", "suffix", "title", "department",
        "organization", "work_phone", "mobile_phone", "fax", "other_phone", "email", "url", "street", "city", "region",
        "postal_code", "country", "address",
    ]

    public static func csv(_ doc: Document) -> Data {
        var rows: [[String]] = []
        if let r = doc.receipt {
            rows.append(receiptColumns)
            let tax = r.tax.compactMap { Decimal(string: $0.amount) }.reduce(Decimal(0), +)
            let taxText = r.tax.isEmpty ? "" : "\(tax)"
            let head = [doc.source, r.merchant.name ?? "", r.merchant.address ?? "", r.merchant.phone ?? "", r.date ?? "",
                        r.time ?? "", r.currency ?? "", r.receiptNumber ?? ""]
            let tail = [r.subtotal ?? "", taxText, r.tip ?? "", r.discounts ?? "", r.total ?? "", r.payment?.method ?? ""]
            if r.items.isEmpty {
                rows.append(head + ["", "", "", "", "", "", ""] + tail)
            }
            for (i, it) in r.items.enumerated() {
                rows.append(head + [String(i + 1), it.description, it.quantity ?? "", it.unit ?? "", it.unitPrice ?? "",
                                    it.amount ?? "", it.discount ?? ""] + tail)
            }
        } else if let c = doc.businessCard {
            rows.append(cardColumns)
            func phones(_ t: BusinessCard.PhoneType) -> String {
                c.phones.filter { $0.type == t }.map { $0.e164 ?? $0.number }.joined(separator: "; ")
            }
            rows.append([doc.source, c.name?.full ?? "", c.name?.prefix ?? "", c.name?.given ?? "", c.name?.middle ?? "",
                         c.name?.family ?? "", c.name?.suffix ?? "", c.title ?? "", c.department ?? "", c.organization ?? "",
                         phones(.work), phones(.mobile), phones(.fax), phones(.other),
                         c.emails.map(\.address).joined(separator: "; "), c.urls.map(\.url).joined(separator: "; "),
                         c.address?.street ?? "", c.address?.city ?? "", c.address?.region ?? "", c.address?.postalCode ?? "",
                         c.address?.country ?? "", c.address?.full ?? ""])
        } else {
            rows.append(receiptColumns)
        }
        return Data(rows.map { $0.map(field).joined(separator: ",") + "\r\n" }.joined().utf8)
    }

    /// One field, quoted when it must be; a leading `=`, `+`, `-` or `@` is kept as printed.
    static func field(_ s: String) -> String {
        if s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) {
            return "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
        return s
    }
}
