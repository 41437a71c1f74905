import Foundation
import ScanModel

/// CSV (RFC 4180: comma-separated, CRLF line ends, fields quoted when they hold a comma,
/// a quote or a line break). One row per line item for a receipt (a receipt without
/// items still gets one row), one row per contact for a business card, and only the
/// header for other documents. The column order is stable and documented in README.md.
public enum CSVWriter {
    /// A receipt row's columns, each with how it reads its value: from the document, the receipt, and the line item
    /// with its number (none for a receipt without items, whose one row leaves the item columns empty). One list
    /// names the columns and fills them, so a column cannot be added to one and not the other.
    typealias ReceiptColumn = (
        name: String, value: @Sendable (Document, Receipt, (index: Int, item: Receipt.Item)?) -> String
    )
    static let receiptTable: [ReceiptColumn] = [
        ("source", { d, _, _ in d.source }),
        ("merchant_name", { _, r, _ in r.merchant.name ?? "" }),
        ("merchant_address", { _, r, _ in r.merchant.address ?? "" }),
        ("merchant_phone", { _, r, _ in r.merchant.phone ?? "" }),
        ("date", { _, r, _ in r.date ?? "" }),
        ("time", { _, r, _ in r.time ?? "" }),
        ("currency", { _, r, _ in r.currency ?? "" }),
        ("receipt_number", { _, r, _ in r.receiptNumber ?? "" }),
        ("item_index", { _, _, i in i.map { String($0.index + 1) } ?? "" }),
        ("description", { _, _, i in i?.item.description ?? "" }),
        ("quantity", { _, _, i in i?.item.quantity ?? "" }),
        ("unit", { _, _, i in i?.item.unit ?? "" }),
        ("unit_price", { _, _, i in i?.item.unitPrice ?? "" }),
        ("amount", { _, _, i in i?.item.amount ?? "" }),
        ("item_discount", { _, _, i in i?.item.discount ?? "" }),
        ("subtotal", { _, r, _ in r.subtotal ?? "" }),
        // The taxes of every rate, added up.
        (
            "tax",
            { _, r, _ in r.tax.isEmpty ? "" : sum(r.tax.map(\.amount)) }
        ),
        ("tip", { _, r, _ in r.tip ?? "" }),
        ("discounts", { _, r, _ in r.discounts ?? "" }),
        ("total", { _, r, _ in r.total ?? "" }),
        ("payment_method", { _, r, _ in r.payment?.method ?? "" }),
        ("item_modifiers", { _, _, i in (i?.item.modifiers ?? []).joined(separator: "; ") }),
        ("item_code", { _, _, i in i?.item.code ?? "" }),
        ("rounding", { _, r, _ in r.rounding ?? "" }),
        // A discount line is a row of its own, so the `amount` column adds up as printed.
        ("item_kind", { _, _, i in i.map { $0.item.kind?.rawValue ?? "article" } ?? "" }),
        // The fees under the subtotal (delivery, service), added up.
        (
            "fees",
            { _, r, _ in r.fees.map { sum($0.map(\.amount)) } ?? "" }
        ),
    ]
    /// A contact row's columns, each with how it reads its value from the card.
    typealias CardColumn = (name: String, value: @Sendable (Document, BusinessCard) -> String)
    static let cardTable: [CardColumn] = {
        @Sendable func phones(_ c: BusinessCard, _ t: BusinessCard.PhoneType) -> String {
            c.phones.filter { $0.type == t }.map(\.dialled).joined(separator: "; ")
        }
        return [
            ("source", { d, _ in d.source }),
            ("full_name", { _, c in c.name?.full ?? "" }),
            ("prefix", { _, c in c.name?.prefix ?? "" }),
            ("given_name", { _, c in c.name?.given ?? "" }),
            ("middle_name", { _, c in c.name?.middle ?? "" }),
            ("family_name", { _, c in c.name?.family ?? "" }),
            ("suffix", { _, c in c.name?.suffix ?? "" }),
            ("title", { _, c in c.title ?? "" }),
            ("department", { _, c in c.department ?? "" }),
            ("organization", { _, c in c.organization ?? "" }),
            ("work_phone", { _, c in phones(c, .work) }),
            ("mobile_phone", { _, c in phones(c, .mobile) }),
            ("fax", { _, c in phones(c, .fax) }),
            ("other_phone", { _, c in phones(c, .other) }),
            ("email", { _, c in c.emails.map(\.address).joined(separator: "; ") }),
            ("url", { _, c in c.urls.map(\.url).joined(separator: "; ") }),
            ("street", { _, c in c.address?.street ?? "" }),
            ("city", { _, c in c.address?.city ?? "" }),
            ("region", { _, c in c.address?.region ?? "" }),
            ("postal_code", { _, c in c.address?.postalCode ?? "" }),
            ("country", { _, c in c.address?.country ?? "" }),
            ("address", { _, c in c.address?.full ?? "" }),
            // The profiles' links, as the vCard writes them (`https://linkedin.com/in/...`).
            (
                "social_profiles",
                { _, c in
                    c.socialProfiles.map { $0.value.contains("://") ? $0.value : "https://" + $0.value }
                        .joined(separator: "; ")
                }
            ),
        ]
    }()
    public static let receiptColumns = receiptTable.map(\.name)
    public static let cardColumns = cardTable.map(\.name)

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
        if let r = doc.receipt {
            let items: [(index: Int, item: Receipt.Item)?] =
                r.items.isEmpty ? [nil] : r.items.enumerated().map { ($0.offset, $0.element) }
            return items.map { i in receiptTable.map { $0.value(doc, r, i) } }
        }
        if let c = doc.businessCard { return [cardTable.map { $0.value(doc, c) }] }
        return []
    }

    /// Decimal amounts added up, written with as many decimals as the most precise of them (`0.20` and `0.60` make
    /// `0.80`, as the other amount columns print it); amounts that are no decimal are left out.
    static func sum(_ amounts: [String]) -> String {
        let parsed = amounts.compactMap { a in
            Decimal(string: a).map { (value: $0, scale: a.split(separator: ".").dropFirst().first?.count ?? 0) }
        }
        let scale = parsed.map(\.scale).max() ?? 0
        var total = parsed.reduce(Decimal(0)) { $0 + $1.value }
        var rounded = Decimal()
        NSDecimalRound(&rounded, &total, scale, .plain)
        let parts = "\(rounded)".split(separator: ".", maxSplits: 1)
        let fraction = parts.count > 1 ? String(parts[1]) : ""
        guard scale > 0 else { return String(parts[0]) }
        return parts[0] + "." + fraction + String(repeating: "0", count: max(0, scale - fraction.count))
    }

    /// One field, quoted when it must be. The line ends are looked for among the scalars: `\r\n` is one
    /// `Character`, equal to neither `\r` nor `\n`. A field a spreadsheet would run as a formula gets a `'` first
    /// (see `defusingFormula`).
    static func field(_ s: String) -> String {
        let s = defusingFormula(s)
        if s.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) {
            return "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
        return s
    }

    /// Spreadsheets run a cell that opens with `=`, `+`, `-` or `@` (or a tab or line end before one) as a
    /// formula, and a file name, an uploaded name or a printed line can hold one (`=HYPERLINK(...)`,
    /// `-2+3+cmd|...`). Such a field gets a `'`, which the spreadsheet shows as text. A number as printed (a phone
    /// `+49 30 1234`, an amount `-1.50`, a date) is left as it is, and so are phones with their extension and several
    /// phones in one cell (`+1 212 555 0187 ext. 42; +1 212 555 0100`): digits, spaces and `().,/-`, an extension's
    /// word before its digits and `;` between numbers call no function.
    static func defusingFormula(_ s: String) -> String {
        guard let first = s.unicodeScalars.first else { return s }
        switch first {
        case "=", "@", "\t", "\r", "\n":
            return "'" + s
        case "+", "-":
            return PhoneCell.isNumbersOnly(s) ? s : "'" + s
        default:
            return s
        }
    }

    /// Digits with `+-().,/` and spaces, numbers separated by `;`, each maybe with an extension (`ext. 42`, `x42`).
    private enum PhoneCell {
        static let pattern = try! NSRegularExpression(
            pattern: #"^[+-]?[0-9 ().,/-]+(?:(?:ext\.?|x)\s*[0-9]+)?(?:;\s*[+-]?[0-9 ().,/-]+(?:(?:ext\.?|x)\s*[0-9]+)?)*$"#,
            options: [.caseInsensitive])

        static func isNumbersOnly(_ s: String) -> Bool {
            pattern.firstMatch(in: s, range: NSRange(s.startIndex..., in: s)) != nil
        }
    }
}

/// One CSV for many documents, as a folder run writes it to one stream: a single header
/// line, then the rows of every document. The first receipt or card decides the table;
/// a document of the other kind doesn't fit its columns and is left out (the caller says so).
public struct CSVStream: Sendable {
    public private(set) var table: CSVWriter.Table?

    public init() {}

    public enum Outcome: Sendable {
        /// The bytes to write: the header first (for the run's first document), then the document's `count` rows.
        case rows(Data, count: Int)
        /// Neither a receipt nor a card: nothing to write.
        case nothing
        /// A receipt in a contacts CSV, or a card in a receipts CSV.
        case otherTable(CSVWriter.Table)

        /// Why the document gives the CSV no rows, in the words the command line and the service both use; nil when
        /// it gives rows.
        public var whyNoRows: String? {
            switch self {
            case .rows: return nil
            case .nothing: return "neither a receipt nor a business card"
            case .otherTable(let kind):
                let (it, table) = kind == .receipts ? ("a receipt", "contacts") : ("a business card", "receipts")
                return "\(it) does not fit the \(table) CSV begun by an earlier file"
            }
        }
    }

    public mutating func append(_ doc: Document) -> Outcome {
        guard let kind = CSVWriter.table(of: doc) else { return .nothing }
        if let table, table != kind { return .otherTable(kind) }
        var rows = CSVWriter.rows(doc)
        let count = rows.count
        if table == nil {
            table = kind
            rows.insert(kind.columns, at: 0)
        }
        return .rows(CSVWriter.encode(rows), count: count)
    }
}
