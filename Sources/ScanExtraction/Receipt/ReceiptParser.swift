import Foundation
import ScanDetectors
import ScanModel

/// Reads a `Receipt` out of analyzed lines: merchant, date and time, line items,
/// subtotal, taxes, tip, discounts, total and payment. Every value is taken from
/// printed text, with its provenance; arithmetic that doesn't add up becomes a
/// warning rather than a correction.
public struct ReceiptParser: Sendable {
    /// Labels the lines for the line items (a model the training tools pass in, or the shipped one).
    public var itemModel: ItemLineModel

    public init(itemModel: ItemLineModel = .shipped) { self.itemModel = itemModel }

    /// The role a line plays in the summary part of a receipt.
    enum Role: Equatable { case total(strength: Double), subtotal, tax, tip, discount, rounding, tendered, change, quantityTotal, taxId, none }

    static let changeWords = ["CHANGE", "CHANGED", "KEMBALIAN", "UANG KEMBALI", "CHANGE DUE", "KEMBALI", "BAKI", "RUCKGELD", "RÜCKGELD", "RENDU", "CAMBIO", "WISSELGELD"]
    static let tenderWords = ["CASH", "TENDERED", "TENDER", "PAID", "PAYMENT", "VISA", "MASTERCARD", "MASTER", "AMEX", "DEBIT",
                              "CREDIT", "CARD", "EFTPOS", "BAYAR", "TUNAI", "GEGEBEN", "BAR", "ESPECES", "ESPÈCES", "CB", "EC", "MAESTRO",
                              "GIRO", "KARTE", "TARJETA", "EFECTIVO", "CONTANTI", "AMOUNT TENDERED", "AMOUNT PAID"]
    static let roundingWords = ["ROUNDING", "ROUND", "ROUNDED ADJ", "ADJ", "ADJUSTMENT", "PEMBULATAN", "RUNDUNG"]
    static let quantityWords = ["QTY", "QUANTITY", "ITEMS", "ITEM S", "ITEM", "PCS", "NO OF", "ARTIKEL", "ARTICLES", "UNITS"]
    static let discountWords = ["DISCOUNT", "DISC", "SAVINGS", "YOU SAVED", "SAVE", "COUPON", "PROMO", "RABATT", "REMISE",
                                "VOUCHER", "MEMBER DISC", "PROMOTION", "DISKON", "POTONGAN", "DESCUENTO", "SCONTO"]
    static let subtotalWords = ["SUBTOTAL", "SUB TOTAL", "SUB", "SUBTOTAAL", "ZWISCHENSUMME", "SOUS TOTAL", "EXCL", "EXCLUDING",
                                "EXCLUSIVE", "BEFORE TAX", "NET AMOUNT", "NETTO", "HT", "TOTAL HT", "SUBTOTALE"]
    static let tipWords = ["TIP", "TIPS", "GRATUITY", "POURBOIRE", "TRINKGELD", "PROPINA", "MANCIA"]
    static let taxWords = ["TAX", "GST", "VAT", "SST", "HST", "PST", "QST", "MWST", "UST", "TVA", "IVA", "PPN", "SALES TAX",
                           "STEUER", "BTW", "MOMS", "PB1", "IGST", "CGST", "SGST", "TAXES", "MW ST"]
    static let taxIdWords = ["GST ID", "GST REG", "GST NO", "GST REG NO", "VAT NO", "VAT REG", "TAX ID", "VAT ID", "SST ID",
                             "SST REG", "USTID", "UST ID", "STEUERNR", "ST NR", "ABN", "TIN", "NPWP", "SIRET", "TVA INTRA",
                             "CO REG", "COMPANY NO", "ROC", "BUSINESS NO", "GST REG NO", "REG NO", "N TVA", "CIF", "NIF"]
    static let strongTotalWords = ["GRAND TOTAL", "GRANDTOTAL", "ROUNDED", "ROUND TOTAL", "AMOUNT DUE", "BALANCE DUE", "TOTAL DUE", "PAYABLE", "NETT TOTAL",
                                   "NET TOTAL", "INCL", "INCLUSIVE", "INCLUDING", "TOTAL AMOUNT", "A PAYER", "À PAYER", "ZU ZAHLEN",
                                   "TOTAL TTC", "TTC", "TOTAL TO PAY", "AMOUNT PAYABLE", "GESAMTBETRAG", "TOTAL SALES INCL", "NET PAYABLE"]
    static let totalWords = ["TOTAL", "JUMLAH", "SUMME", "GESAMT", "BETRAG", "IMPORTE", "TOTALE", "TOTAAL", "BALANCE", "AMOUNT", "AMT",
                             "TOTAL RM", "TOTAL SALES", "TOTAL BILL", "NET", "NETT", "SUM", "BILL"]

    static let anyTotalWords = totalWords + strongTotalWords

    /// The role of a line, from its label.
    static func role(_ rawKey: String) -> Role {
        if rawKey.isEmpty { return .none }
        // A tax line's number glued on (`TAX1`, `GST2`): the word is still the label.
        let rawKey = rawKey.contains(where: \.isNumber) ? Text.replacing(rawKey, #"\b(TAX|GST|VAT|HST|PST|SST|TOTAL)(\d)\b"#, with: "$1 $2") : rawKey
        // `lnclusive`, `1nclusive`: OCR's reading of a small capital I.
        let key = rawKey.contains("NCLUSIVE") || rawKey.contains("NCLUDING") || rawKey.contains("NCL ")
            ? Text.replacing(rawKey, #"\b[L1I|]NCL"#, with: "INCL") : rawKey
        if Text.hasAny(key, taxIdWords) && !Text.hasAny(key, ["INCL", "INCLUSIVE", "INCLUDING", "TOTAL"]) { return .taxId }
        if Text.hasAny(key, changeWords) { return .change }
        if isTip(key) && !Text.has(key, "INCL") { return .tip }
        if Text.hasAny(key, roundingWords) && !Text.hasAny(key, ["TOTAL"]) { return .rounding }
        if Text.hasAny(key, discountWords) { return .discount }
        let totalish = Text.hasAny(key, anyTotalWords) || fuzzyTotal(key)
        if totalish && Text.hasAny(key, ["QTY", "QUANTITY", "ITEMS", "ITEM", "PCS", "NO OF", "UNITS", "ARTIKEL", "POINTS", "WEIGHT"]) {
            // `Qty: 3 Amount: 262,000`: the count comes first, the amount's own label last.
            if let last = key.split(separator: " ").last, ["AMOUNT", "AMT", "TOTAL", "JUMLAH", "BETRAG", "SUMME"].contains(String(last)),
               key.split(separator: " ").count >= 3, key.contains(where: \.isNumber) { return .total(strength: 1.5) }
            return .quantityTotal
        }
        if isSubtotal(key) && !Text.hasAny(key, ["INCL", "INCLUSIVE", "INCLUDING", "GRAND"]) { return .subtotal }
        if Text.hasAny(key, tenderWords) && !Text.hasAny(key, ["TOTAL", "DUE", "PAYABLE"]) { return .tendered }
        if Text.hasAny(key, taxWords) && !Text.hasAny(key, ["INCL", "INCLUSIVE", "INCLUDING", "GRAND", "TTC"]) { return .tax }
        // `(Inclusive) GST 6%`, `incl. VAT 20%`: the tax contained in the total, not the total itself.
        if Text.hasAny(key, taxWords), !Text.hasAny(key, anyTotalWords.filter { !["INCL", "INCLUSIVE", "INCLUDING"].contains($0) } + ["DUE", "PAY"]),
           !fuzzyTotal(key) { return .tax }
        if Text.hasAny(key, strongTotalWords) && totalish { return .total(strength: 2) }
        if Text.hasAny(key, ["TOTAL", "JUMLAH", "SUMME", "GESAMT", "TOTALE", "TOTAAL", "IMPORTE"]) { return .total(strength: 1.5) }
        if fuzzyTotal(key) { return .total(strength: 1) }
        // `TOT`, `TTL`: the till's abbreviation, as a word of its own.
        if Text.hasAny(key, ["TOT", "TTL", "TL", "TOT AMT", "TTL AMT"]) && key.split(separator: " ").count <= 3 { return .total(strength: 1) }
        if Text.hasAny(key, ["BALANCE", "AMOUNT", "AMT", "BETRAG", "NET", "NETT", "SUM", "BILL"]) && key.split(separator: " ").count <= 3 {
            return .total(strength: 0.5)
        }
        if Text.hasAny(key, quantityWords) && key.split(separator: " ").count <= 2 { return .quantityTotal }
        return .none
    }

    /// A subtotal label. A bare `SUB` counts only on its own or before a total's abbreviation
    /// (`SUB TTL`, `Sub/Tt1`): `1 SUB ZUCCHINI` is an item (a substitution), not a subtotal.
    /// A tip label: the tip word first or last (`TIP`, `18% TIPS`, `Suggested Gratuity`, `Tip Amount`);
    /// in the middle of a description it names a dish (`Steak Tip Skewers`).
    static func isTip(_ key: String) -> Bool {
        let words = key.split(separator: " ")
        guard let first = words.first, let last = words.last else { return false }
        let tip: Set<Substring> = Set(tipWords.map { Substring($0) })
        if tip.contains(first) || tip.contains(last) { return true }
        // `TIP 18 %`, `TIP AMOUNT`, `GRATUITY 15`: the word before a rate or a value label.
        return words.dropLast().enumerated().contains { i, w in
            tip.contains(w) && words[(i + 1)...].allSatisfy { $0.allSatisfy(\.isNumber) || ["AMOUNT", "AMT", "ADDED", "DUE"].contains($0) }
        }
    }

    static let subtotalPhrases = subtotalWords.filter { $0 != "SUB" }
    static func isSubtotal(_ key: String) -> Bool {
        if Text.hasAny(key, subtotalPhrases) { return true }
        let words = key.split(separator: " ")
        guard let i = words.firstIndex(of: "SUB") else { return false }
        return i + 1 == words.count || words[i + 1].hasPrefix("T")
    }

    /// `TOTAL` read with one wrong letter (`JOTAL`, `TOTAI`, `T0TAL`).
    static func fuzzyTotal(_ key: String) -> Bool {
        for w in key.split(separator: " ") where w.count == 5 || w.count == 6 {
            let a = Array(w), b = Array("TOTAL")
            if a.count == 5 {
                var diff = 0
                for i in 0..<5 where a[i] != b[i] { diff += 1 }
                if diff == 1 && (a[1] == "O" || a[1] == "0") { return true }
            }
        }
        return false
    }

    static let headerNoise = ["TAX INVOICE", "INVOICE", "RECEIPT", "OFFICIAL RECEIPT", "SIMPLIFIED", "WELCOME", "COPY", "ORIGINAL",
                              "CASH BILL", "CASH SALE", "CASH RECEIPT", "THANK YOU", "DUPLICATE", "CUSTOMER COPY", "MERCHANT COPY",
                              "SALES RECEIPT", "BILL", "KASSENBON", "QUITTUNG", "TICKET", "RECU", "FACTURE", "RECHNUNG", "STRUK", "NOTA"]
    static let companySuffixes = ["SDN BHD", "SDN", "BHD", "BERHAD", "ENTERPRISE", "ENTERPRISES", "TRADING", "LTD", "LIMITED", "LLC", "INC",
                                  "GMBH", "PLC", "CORP", "CORPORATION", "CO", "COMPANY", "PTY", "PTE", "S A", "SA", "SARL", "SAS", "AG",
                                  "KG", "SRL", "SPA", "BV", "NV", "RESTAURANT", "RESTORAN", "CAFE", "HARDWARE", "STORE", "MART",
                                  "SUPERMARKET", "MINIMARKET", "BAKERY", "KEDAI", "STATIONERY", "PHARMACY", "FARMASI", "HOTEL", "BISTRO",
                                  "GRILL", "PIZZA", "TAVERN", "BAR", "DINER", "KITCHEN", "MARKET", "SHOP", "BOOKSTORE", "PT", "TBK", "CV",
                                  "TOKO", "RESTAURANTE", "TRATTORIA", "BRASSERIE", "BOULANGERIE", "PHARMACIE", "APOTHEKE", "BÄCKEREI"]
    static let addressStop = ["TEL", "TELEPHONE", "PHONE", "FAX", "HP", "GST", "VAT", "TAX", "INVOICE", "RECEIPT", "DATE", "CASHIER",
                              "EMAIL", "E MAIL", "WEBSITE", "WWW", "TABLE", "SERVER", "ORDER", "CHECK", "BILL", "REG", "ROC", "CO REG",
                              "COMPANY", "DOC", "NO TEL", "TERMINAL", "STATION", "GUESTS", "OPEN", "HOURS", "THANK", "STORE", "SST",
                              "ABN", "TIME", "MEMBER", "SALESPERSON", "STAFF", "POS", "TRANS", "COUNTER"]
    /// Labels that never belong to an address.
    static let strongStop = ["GST", "ROC", "DOCUMENT", "DOC NO", "COMPANY NO", "CO REG", "CO NO", "REG NO", "TEL", "FAX", "RECEIPT",
                             "INVOICE", "CASHIER", "DATE", "EMAIL", "E MAIL", "WWW", "VAT", "SST", "ABN", "TAX", "PHONE", "BILL NO",
                             "FORMERLY", "LICENSEE", "OPERATED BY", "TABLE", "SERVER", "GUESTS"]
    static let labelPattern = #"\s+(?:DOCUMENT\s*NO|DOC\s*NO|ROC\s*NO|GST\s*(?:ID|NO|REG)|COMPANY\s*NO|CO\.?\s*REG|TEL|FAX|PHONE|RECEIPT|INVOICE|CASHIER|DATE)\b"#

    /// Where a label (`Document No`, `GST ID`, `TEL`) starts inside a line, in scalars.
    static func labelCut(_ text: String) -> Int? {
        guard let r = Text.range(text, labelPattern, caseInsensitive: true) else { return nil }
        return text.unicodeScalars[..<r.lowerBound].count
    }

    /// Words that name a street or a district, never a shop (`CITY`, `PLAZA`, `MARKET` can).
    static let thoroughfareWords = ["JALAN", "JLN", "JL", "LORONG", "TAMAN", "TMN", "KAWASAN", "BANDAR", "KAMPUNG", "KG", "PERSIARAN",
                                    "LEBUH", "SEKSYEN", "STREET", "ROAD", "RD", "AVENUE", "AVE", "BLVD", "BOULEVARD", "DRIVE", "LANE",
                                    "HWY", "HIGHWAY", "STRASSE", "RUE"]
    static let countryWords = ["MALAYSIA", "SINGAPORE", "INDONESIA", "USA", "U S A", "UNITED STATES", "UNITED KINGDOM", "UK",
                               "CANADA", "AUSTRALIA", "IRELAND", "GERMANY", "DEUTSCHLAND", "FRANCE", "NEW ZEALAND"]
    static let streetWords = ["JALAN", "JLN", "LORONG", "TAMAN", "STREET", "ST", "ROAD", "RD", "AVENUE", "AVE", "BLVD", "BOULEVARD",
                              "HWY", "HIGHWAY", "DRIVE", "DR", "LANE", "LN", "WAY", "PLACE", "PL", "SUITE", "STE", "FLOOR", "UNIT",
                              "BLOCK", "BLK", "LOT", "NO", "PERSIARAN", "LEBUH", "KAMPUNG", "KG", "BANDAR", "STRASSE", "STR",
                              "PLATZ", "RUE", "AVENUE", "CHEMIN", "PIKE", "PKWY", "PARKWAY", "COURT", "CT", "SQUARE", "SQ",
                              "CRESCENT", "TERRACE", "PLAZA", "CENTRE", "CENTER", "MALL", "PUSAT", "SEKSYEN", "SECTION", "BATU",
                              "INDUSTRIAL", "PARK", "JL", "GEDUNG", "KOTA", "CITY", "BAHRU", "SELANGOR", "JOHOR", "KUALA", "LUMPUR",
                              "PETALING", "JAYA", "SHAH", "ALAM", "KLANG", "PUCHONG", "KAJANG", "DARUL", "EHSAN", "TAKZIM"]

    public func parse(_ analyzed: [AnalyzedLine]) -> (Receipt, [Finding]) {
        var r = Receipt()
        var findings: [Finding] = []
        guard !analyzed.isEmpty else { return (r, findings) }
        let (lines, roles, summaryStart) = Self.prepared(analyzed)

        // --- Header: merchant name, address, phone.
        parseMerchant(lines, roles: roles, limit: summaryStart, into: &r)

        // --- Date, time, receipt number, currency.
        parseDateTime(lines, into: &r, findings: &findings)
        parseReferences(lines, into: &r)

        // --- Items.
        parseItems(lines, roles: roles, summaryStart: summaryStart, into: &r)

        // --- Summary.
        parseSummary(lines, roles: roles, from: summaryStart, into: &r)

        // --- Checks.
        findings += check(r)
        return (r, findings)
    }

    /// The lines as the field parsers read them (words right of a price column dropped), their
    /// summary roles, and the index of the first summary line (`lines.count` when there is none).
    static func prepared(_ analyzed: [AnalyzedLine]) -> (lines: [AnalyzedLine], roles: [Role], summaryStart: Int) {
        var lines = analyzed
        // Under a column heading with a price column, words printed right of that column (a suggested-tip
        // table beside the items and totals) are no part of the receipt's lines.
        if let (headerIndex, column) = Self.priceHeading(lines) {
            let wholeUnits = lines.contains { $0.trailing.contains { $0.amount.scale == 0 } }
            let bare = Self.bareAmounts(lines)
            for i in (headerIndex + 1)..<lines.count { Self.keepColumn(&lines[i], right: column, wholeUnits: wholeUnits, bare: bare) }
        }
        let roles = lines.map(\.role)

        // The summary starts at the first subtotal or total line that carries an amount.
        var summaryStart = lines.count
        for (i, l) in lines.enumerated() {
            switch roles[i] {
            case .subtotal, .total:
                if l.amount != nil || (i + 1 < lines.count && Self.valueOnly(lines[i + 1])) { summaryStart = i }
            default: break
            }
            if summaryStart < lines.count { break }
        }
        // Tax lines printed right above the first total (no subtotal line) are part of the summary.
        while summaryStart > 0, summaryStart < lines.count, summaryStart > lines.count / 3,
              roles[summaryStart - 1] == .tax, lines[summaryStart - 1].amount != nil { summaryStart -= 1 }
        return (lines, roles, summaryStart)
    }

    /// A line with an amount and (almost) no letters: the value of a label printed above it.
    static func valueOnly(_ l: AnalyzedLine) -> Bool {
        l.amount != nil && Text.letterCount(l.label) <= 3
    }
}
