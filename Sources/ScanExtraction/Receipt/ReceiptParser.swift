import Foundation
import ScanDetectors
import ScanModel

/// Reads a `Receipt` out of analyzed lines: merchant, date and time, line items,
/// subtotal, taxes, tip, discounts, total and payment. Every value is taken from
/// printed text, with its provenance; arithmetic that doesn't add up becomes a
/// warning rather than a correction.
public struct ReceiptParser: Sendable {
    public init() {}

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

    /// A line with an amount and (almost) no letters: the value of a label printed above it.
    static func valueOnly(_ l: AnalyzedLine) -> Bool {
        l.amount != nil && Text.letterCount(l.label) <= 3
    }

    // MARK: - Merchant

    /// Words that end a company name and may start its second printed line (`POPULAR BOOK` / `CO. (M) SDN BHD`).
    static let legalSuffixWords: Set<String> = ["SDN", "BHD", "BERHAD", "S", "B", "CO", "M", "LTD", "LIMITED", "LLC", "INC", "GMBH", "PLC",
                                                "CORP", "PTY", "PTE", "ENTERPRISE", "ENTERPRISES", "TRADING", "SARL", "SAS", "SRL", "TBK",
                                                "AG", "KG", "BV", "NV", "SA", "SPA", "COMPANY", "CORPORATION"]
    static let legalSuffixes = ["SDN BHD", "SDN", "BHD", "BERHAD", "LTD", "LIMITED", "LLC", "INC", "GMBH", "PLC", "CORP", "PTY",
                                "PTE", "ENTERPRISE", "ENTERPRISES", "TRADING", "SARL", "SAS", "SRL", "TBK", "S B"]

    /// A registration number on its own line, with or without its label: `(860671-D)`, `BR NO.: 0195932-X`,
    /// `CO. REG : 86Q671-D`, `002693074-K`.
    static func isRegistrationLine(_ l: AnalyzedLine) -> Bool {
        let t = l.text.trimmingCharacters(in: .whitespaces)
        guard Text.range(t, #"\d{5,}"#) != nil, l.entities(.phone).isEmpty,
              !Text.hasAny(l.key, streetWords.filter { $0 != "NO" }) else { return false }
        return Text.range(t, #"^\(?[A-Z .:()]{0,16}[:.\s]*\(?[A-Z]{0,3}\d{5,}[A-Z0-9]*(?:[-\s]*[A-Z])?\s*\)?$"#, caseInsensitive: true) != nil
    }

    /// Where a street address starts: a house number, a unit, lot or level, or a street word next to digits.
    static func startsAddress(_ l: AnalyzedLine) -> Bool {
        let words = l.key.split(separator: " ")
        guard let first = words.first else { return false }
        if first.first?.isNumber ?? false { return true }
        if ["NO", "LOT", "UNIT", "LEVEL", "BLOCK", "BLK", "SUITE", "STE", "KM", "BATU", "PO", "G", "GF", "GROUND", "FLOOR", "WISMA",
            "MENARA", "BANGUNAN", "PLAZA", "JALAN", "JLN", "ONE"].contains(String(first)) && Text.digitCount(l.text) > 0 { return true }
        return Text.hasAny(l.key, streetWords.filter { $0 != "NO" }) && Text.digitCount(l.text) > 0 && !isRegistrationLine(l)
    }

    /// Full-width parentheses as ASCII, a middle dot between words as a space, and a label
    /// before a company name (`Owned by:`, `Dimiliki:`) dropped.
    static func normalizedName(_ raw: String) -> String {
        var name = raw.replacingOccurrences(of: "（", with: "(").replacingOccurrences(of: "）", with: ")")
        name = Text.replacing(name, #"(?<=\w)\s*[·•]\s*(?=\w)"#, with: " ")
        // An underscore is OCR's reading of a low dot or of a gap: `TA _K` is `TA .K`, `AIK_HUAT` is `AIK HUAT`.
        name = Text.replacing(name, #"(?<=\s)_(?=\p{L})"#, with: ".")
        name = Text.replacing(name, #"(?<=\p{L})_(?=\p{L})"#, with: " ")
        if let m = Text.range(name, #"^[^:]{2,20}:\s*"#), Text.hasAny(Text.key(String(name[m.upperBound...])), legalSuffixes),
           !Text.hasAny(Text.key(String(name[..<m.upperBound])), legalSuffixes) {
            name = String(name[m.upperBound...])
        }
        return name
    }

    func parseMerchant(_ lines: [AnalyzedLine], roles: [Role], limit: Int, into r: inout Receipt) {
        let top = min(lines.count, max(6, min(limit, lines.count * 2 / 5 + 2)))
        func isNoise(_ l: AnalyzedLine) -> Bool {
            let k = l.key
            let letters = Text.letterCount(l.text)
            if letters < 3 { return true }
            if Double(Text.digitCount(l.text)) > Double(letters) * 1.5 { return true }
            if Self.headerNoise.contains(k) { return true }
            if !l.entities.filter({ [.phone, .date, .time, .email, .url].contains($0.type) }).isEmpty { return true }
            if Text.hasAny(k, ["TEL", "FAX", "GST", "VAT", "TAX", "DATE", "WWW", "COM", "ID", "NO"]) && letters < 14 { return true }
            if l.amount != nil { return true }
            return false
        }
        // The header ends at the first contact, tax-number or document line: a company named below it
        // (a supplier, a bill-to) is not the merchant.
        // (Only once a printed line that could be a name came before: stamps and handwriting above the
        // print, `perr` / `1950 0598`, don't end it.)
        var headerEnd = min(top, 10)
        var printedSeen = false
        for i in 0..<headerEnd {
            let l = lines[i]
            let contact = l.entities.contains { [.phone, .date, .time, .email, .url].contains($0.type) }
            if (contact && printedSeen) || (Text.hasAny(l.key, ["TEL", "FAX", "GST", "VAT", "TAX INVOICE", "INVOICE", "RECEIPT", "SST"]) && i > 0) {
                headerEnd = i
                break
            }
            if Text.letterCount(l.text) >= 4, l.text.contains(where: \.isUppercase), !contact { printedSeen = true }
        }
        // A line with a company suffix, among the first lines.
        var nameIndex: Int?
        for i in 0..<max(1, headerEnd) where i < lines.count {
            let l = lines[i]
            if isNoise(l) { continue }
            if Text.hasAny(l.key, Self.legalSuffixes) {
                nameIndex = i
                break
            }
        }
        if nameIndex == nil {
            // The most prominent of the first few lines that aren't noise: tall print near the top,
            // printed (not handwritten in lower case), best right above the address.
            var best = -Double.infinity
            let heights = lines.prefix(top).map(\.line.textHeight).sorted()
            let median = heights.isEmpty ? 1 : max(1, heights[heights.count / 2])
            var seen = 0
            for i in 0..<top where !isNoise(lines[i]) {
                seen += 1
                if seen > 6 { break }
                let l = lines[i]
                var score = min(2.5, l.line.textHeight / median) - 0.25 * Double(seen - 1)
                if Text.hasAny(l.key, Self.companySuffixes) { score += 0.1 }
                // A registration number printed after it (`99 SPEED MART S/B (519537-X)`) marks a company name,
                // even one that starts with a number.
                if Text.range(l.text, #"[A-Za-z].*\(\s*[A-Z]?\d{5,}[\s\-·.]*[A-Z]?\s*\)?\s*$"#) != nil {
                    score += 0.5
                } else {
                    if Text.hasAny(l.key, Self.streetWords) && Text.digitCount(l.text) > 0 { score -= 1 }
                    if Self.startsAddress(l) { score -= 1 }
                }
                if !l.text.contains(where: \.isUppercase) { score -= 1 }
                if l.line.confidence < 0.6 { score -= 0.5 }
                var j = i + 1
                // The address follows the name, perhaps after a registration number or a second name line.
                while j < lines.count && j < i + 3 && !Self.startsAddress(lines[j]) && !isNoise(lines[j]) || (j < lines.count && Self.isRegistrationLine(lines[j])) { j += 1 }
                if j < lines.count && j <= i + 3 && Self.startsAddress(lines[j]) { score += 0.4 }
                // A logo's words printed again, in full, on a line just below (`GUSTO` over `Thai Gusto Restaurant`):
                // the fuller line is the name.
                let ownWords = Set(l.key.split(separator: " "))
                if !ownWords.isEmpty, (i + 1..<min(lines.count, i + 4)).contains(where: { n in
                    let other = Set(lines[n].key.split(separator: " "))
                    return other.count > ownWords.count && ownWords.isSubset(of: other) && !isNoise(lines[n])
                }) { score -= 0.3 }
                if score > best { best = score; nameIndex = i }
            }
        }
        guard var ni = nameIndex else { return }
        // A name printed over several lines: a line that starts with its legal suffix continues the one above;
        // an open parenthesis or a lone `BHD` continues below.
        var nameLines = [lines[ni]]
        func tight(_ upper: AnalyzedLine, _ lower: AnalyzedLine) -> Bool {
            let h = max(upper.line.textHeight, lower.line.textHeight)
            let ratio = upper.line.textHeight / max(1, lower.line.textHeight)
            return lower.line.box.minY - upper.line.box.maxY < 0.9 * h && ratio > 0.6 && ratio < 1.7
        }
        // So does a line made only of business-type and legal words (`RESTAURANT SDN BHD`): it can't be a whole name.
        let nameWords = lines[ni].key.split(separator: " ").map(String.init)
        let onlySuffixes = !nameWords.isEmpty && nameWords.allSatisfy { Self.legalSuffixWords.contains($0) || Self.companySuffixes.contains($0) }
        if ni > 0, let firstWord = nameWords.first, (Self.legalSuffixWords.contains(firstWord) && firstWord.count >= 2) || onlySuffixes
            || lines[ni].text.hasPrefix("(") || lines[ni].text.hasPrefix("&") {
            let above = lines[ni - 1]
            // Handwriting above the print (`tan chay yee`, in lower case) is no part of the name.
            if !isNoise(above), Text.digitCount(above.text) == 0, tight(above, lines[ni]), !Text.hasAny(above.key, Self.legalSuffixes),
               above.text.contains(where: \.isUppercase) {
                nameLines.insert(above, at: 0)
                ni -= 1
            }
        }
        func open(_ ls: [AnalyzedLine]) -> Bool {
            let t = ls.map(\.text).joined(separator: " ")
            return t.filter { $0 == "(" || $0 == "（" }.count > t.filter { $0 == ")" || $0 == "）" }.count
        }
        var next = ni + nameLines.count
        while next < lines.count, nameLines.count < 4, tight(nameLines.last!, lines[next]) {
            let l = lines[next]
            let words = l.key.split(separator: " ").map(String.init)
            let suffixOnly = !words.isEmpty && words.allSatisfy { Self.legalSuffixWords.contains($0) }
            // A name broken before a joining word (`Friendly Red's` / `of Windham`).
            let joiner = ["OF", "AND", "&", "AT", "THE", "DE", "DU", "DES", "LA", "LE", "DI", "DEL", "VON", "UND"]
            let continues = nameLines.last!.text.hasSuffix("&") || nameLines.last!.text.hasSuffix("-") || nameLines.last!.key.hasSuffix(" AND")
                || (l.key.split(separator: " ").first.map { joiner.contains(String($0)) } ?? false) && l.text.first?.isLowercase == true
            // A second line in the same print, right before the registration number that closes a name
            // (`RESTAURANT JIAWEI` / `JIAWEI HOUSE` / `002693074-K`).
            let beforeRegistration = next + 1 < lines.count && Self.isRegistrationLine(lines[next + 1])
                && !Text.hasAny(nameLines.map(\.key).joined(separator: " "), Self.legalSuffixes)
                && Text.digitCount(l.text) == 0 && Text.letterCount(l.text) >= 3 && !isNoise(l)
                && !Text.hasAny(l.key, Self.streetWords) && !Text.hasAny(l.key, Self.strongStop)
                && abs(l.line.textHeight / max(1, nameLines.last!.line.textHeight) - 1) < 0.2
            guard suffixOnly || (open(nameLines) && Text.digitCount(l.text) <= 2 && !Self.startsAddress(l))
                    || (continues && Text.digitCount(l.text) == 0 && Text.letterCount(l.text) >= 3) || beforeRegistration else { break }
            nameLines.append(l)
            next += 1
        }
        let nameLine = nameLines[0]
        // A dash that ends a line before the legal suffix (`POPULAR BOOK-` / `CO. (M) SDN BHD`) breaks no word.
        var name = nameLines.enumerated().map { n, l in
            let t = Text.clean(l.text)
            guard n + 1 < nameLines.count, t.hasSuffix("-"), t.count > 1,
                  let next = nameLines[n + 1].key.split(separator: " ").first, Self.legalSuffixWords.contains(String(next)) else { return t }
            return Text.clean(String(t.dropLast()))
        }.joined(separator: " ")
        // A registration number printed after the name: `(123456-X)`, `Co. Reg. 1234`.
        // A bare number that ends the name belongs to it (`TRIPLE SIX POINT ENTERPRISE 666`) unless it looks like a
        // registration: in parentheses, after a label, five digits or more, or with a check letter.
        if let paren = Text.range(name, #"\s*(?:\(\s*(?:CO\.?\s*REG\.?|ROC|GST)?[\s.:]*[A-Z]?\d{3,}[\s\-·.]*[A-Z]?\s*\)?|(?:CO\.?\s*REG\.?|ROC|GST)[\s.:]*\d{3,}[\s\-]*[A-Z]?|[A-Z]?\d{5,}(?:[\s\-·.]*[A-Z])?\s*\)?|\d{3,}\s*-\s*[A-Z]\s*\)?)$"#, caseInsensitive: true), paren.lowerBound > name.startIndex {
            name = String(name[..<paren.lowerBound])
        }
        name = Self.normalizedName(name)
        r.merchant.name = name
        r.provenance["merchant.name"] = Provenance(text: nameLines.map(\.text).joined(separator: "\n"), page: nameLine.line.page,
                                                   boundingBox: BoundingBox.enclosing(nameLines.map(\.line.box)),
                                                   confidence: nameLines.map(\.line.confidence).min() ?? 0)

        // Address: the lines after the name (skipping registration numbers), until a stop line.
        var addr: [AnalyzedLine] = []
        var trims: [Int: Int] = [:]
        var i = ni + nameLines.count
        // Registration numbers, branch names and site codes may sit between the name and the street line:
        // start at the first line that opens an address, when one follows closely.
        // A line holding only the date and time (printed at the top right) may sit there too.
        var k0 = i
        while k0 < min(lines.count, limit, i + 6) {
            let l = lines[k0]
            let dateOnly = !l.entities.isEmpty && l.entities.allSatisfy { $0.type == .date || $0.type == .time } && Text.letterCount(l.text) <= 5
            if dateOnly && k0 < i + 2 { k0 += 1; continue }
            if l.entities.contains(where: { [.phone, .email, .url, .date, .time].contains($0.type) }) || l.amount != nil { break }
            if Self.startsAddress(l) && !Self.isRegistrationLine(l) {
                // A street or area line without digits right above it belongs to the address (`TAMAN BERKELEY` over `41150 KLANG`).
                var s = k0
                while s > i, Text.hasAny(lines[s - 1].key, Self.thoroughfareWords), !Self.isRegistrationLine(lines[s - 1]),
                      lines[s - 1].entities.isEmpty || lines[s - 1].entities.allSatisfy({ $0.type == .address || $0.type == .postalCode }),
                      !Text.hasAny(lines[s - 1].key, Self.strongStop), !Text.hasAny(lines[s - 1].key, Self.legalSuffixes) { s -= 1 }
                i = s
                break
            }
            k0 += 1
        }
        while i < min(lines.count, limit) && addr.count < 5 {
            // A country name closes the address.
            if let prev = addr.last, Text.hasAny(prev.key, Self.countryWords), !Text.hasAny(prev.key, ["JALAN", "JLN", "STREET", "ROAD"])
                || prev.key.hasSuffix("MALAYSIA") || prev.key.hasSuffix("SINGAPORE") { break }
            let l = lines[i]
            let k = l.key
            let regOnly = Self.isRegistrationLine(l) && addr.isEmpty
            let regLine = Text.hasAny(k, ["CO REG", "COMPANY NO", "ROC", "REG NO", "CO NO"]) && addr.isEmpty
            if (regOnly || regLine) && l.entities(.phone).isEmpty { i += 1; continue }
            let hasContact = l.entities.contains { [.phone, .email, .url, .date, .time].contains($0.type) }
            // A registration or document label merged onto the address line: keep what comes before it.
            if !addr.isEmpty || Text.digitCount(l.text) > 0, let cut = Self.labelCut(l.text), cut > 8, !hasContact {
                addr.append(l)
                trims[addr.count - 1] = cut
                break
            }
            // After the postal-code line, only a state or country line may follow.
            // (A lot or house number, `LOT 2685 JLN ...`, is not a postal code.)
            if let prev = addr.last, Text.range(prev.text, #"\S.*(?<!LOT |NO |NO\.|UNIT |BLOCK |BLK |SUITE |STE |# )\b\d{4,6}(\s+[A-Za-z]|[.,]?\s*$)"#, caseInsensitive: true) != nil,
               Text.digitCount(l.text) > 0 || Text.letterCount(l.text) > 24 { break }
            let glued = k.replacingOccurrences(of: " ", with: "")
            let stop = hasContact || l.amount != nil || Text.hasAny(k, Self.strongStop)
                || ["INVOICE", "RECEIPT", "CASHIER", "GSTID", "GSTNO", "GSTREG", "SSTID", "SSTNO", "TAXID"].contains { glued.contains($0) }
                || Text.hasAny(k, Self.addressStop) && !Text.hasAny(k, Self.streetWords)
            if stop {
                // `... 81100 JOHOR BAHRU. TEL: 07-123`: keep the part before the label.
                if hasContact, let t = l.entities.first(where: { $0.type == .phone })?.range.start, t > 8 {
                    let before = String(l.text.unicodeScalars.prefix(t))
                    let cut = Text.range(before, #"\s*(TEL|PHONE|PH|T)\s*[.:]?\s*$"#, caseInsensitive: true)
                    let head = Text.clean(cut.map { String(before[..<$0.lowerBound]) } ?? before)
                    if Text.letterCount(head) >= 4 && Text.hasAny(Text.key(head), Self.streetWords) { addr.append(l); _ = head }
                }
                break
            }
            // Another name-like line right under the name (a branch, a second line of the name) isn't an address
            // unless it has digits or street words.
            if addr.isEmpty && Text.digitCount(l.text) == 0 && !Text.hasAny(k, Self.streetWords) && i == ni + 1
                && l.line.textHeight >= nameLine.line.textHeight * 0.9 && !Text.hasAny(k, Self.companySuffixes) {
                i += 1
                continue
            }
            addr.append(l)
            i += 1
        }
        if !addr.isEmpty {
            var parts = addr.enumerated().map { n, l in
                Text.clean(trims[n].map { String(l.text.unicodeScalars.prefix($0)) } ?? l.text)
            }
            if let last = addr.last, let t = last.entities.first(where: { $0.type == .phone })?.range.start, t > 8 {
                let before = String(last.text.unicodeScalars.prefix(t))
                let cut = Text.range(before, #"\s*(TEL|PHONE|PH|T)\s*[.:]?\s*$"#, caseInsensitive: true)
                parts[parts.count - 1] = Text.clean(cut.map { String(before[..<$0.lowerBound]) } ?? before)
            }
            r.merchant.address = Self.addressPunctuation(parts.joined(separator: " "))
            let box = BoundingBox.enclosing(addr.map(\.line.box))
            r.provenance["merchant.address"] = Provenance(text: addr.map(\.text).joined(separator: "\n"), page: addr[0].line.page,
                                                          boundingBox: box, confidence: addr.map(\.line.confidence).min() ?? 0)
        }

        // Phone: the first phone number printed in the upper part.
        for l in lines.prefix(max(top + 4, limit)) {
            if let p = l.entities(.phone).first {
                r.merchant.phone = p.text
                r.merchant.phoneE164 = p.value.e164
                r.provenance["merchant.phone"] = l.provenance(of: p)
                break
            }
        }
        // Tax or registration number.
        for l in lines.prefix(limit) where Self.role(l.key) == .taxId || Text.hasAny(l.key, Self.taxIdWords) {
            if let m = Text.range(l.text, #"[A-Z]{0,3}[0-9][0-9A-Z\-./ ]{5,}[0-9A-Z]"#) {
                let v = String(l.text[m]).trimmingCharacters(in: .whitespaces)
                if Text.digitCount(v) >= 5 {
                    r.merchant.taxId = v
                    r.provenance["merchant.taxId"] = l.line.provenance()
                    break
                }
            }
        }
    }

    /// Abbreviations of four letters or more that end with a full stop in addresses.
    static let longAbbreviations: Set<String> = ["BLVD", "PKWY", "EXPY", "BLDG", "DEPT", "CRES", "TERR", "HWAY", "CNTR", "PLAZ",
                                                 "APTO", "AVDA", "STRA", "BOUL", "ROUTE"]

    /// OCR's punctuation slips in an address, put right: a doubled stop or comma (`SELATAN,,`,
    /// `LUMPUR..`) is one, and a full stop between two parts of the address after a whole word or a
    /// number (`TAMAN SRI PUTRA. 81200`, `NO.32 & 33. JALAN`) is a comma read without its tail:
    /// addresses separate their parts with commas, and put full stops after abbreviations
    /// (`NO.`, `JLN.`, `St.`, `P.T.`), which keep theirs.
    static func addressPunctuation(_ address: String) -> String {
        var s = Text.replacing(address, #"([.,])\1+"#, with: "$1")
        // A street word read with digits for letters (`10T 1851-A`, `1.0T`): 1 for L, 0 for O.
        s = s.split(separator: " ", omittingEmptySubsequences: false).map { token -> String in
            let core = token.filter { $0 != "." }
            guard core.count >= 3, core.contains(where: \.isNumber), core.contains(where: \.isLetter) else { return String(token) }
            let mapped = String(core.uppercased().map { $0 == "1" ? "L" : $0 == "0" ? "O" : $0 })
            return streetWords.contains(mapped) && mapped.allSatisfy(\.isLetter) ? mapped : String(token)
        }.joined(separator: " ")
        // A letter O among the digits of a number (`456OO`): a zero.
        let digitsWithO = RegexCache.shared.regex(#"\b(?=[0-9O]*[0-9]{3})[0-9O]{4,6}\b"#, caseInsensitive: false)
        for m in digitsWithO.matches(in: s, range: NSRange(location: 0, length: (s as NSString).length)).reversed() {
            guard let r = Range(m.range, in: s) else { continue }
            s.replaceSubrange(r, with: s[r].replacingOccurrences(of: "O", with: "0"))
        }
        let re = RegexCache.shared.regex(#"\b([A-Za-z]{4,}|\d[\w/-]*)\.(?=\s+[A-Za-z0-9])"#, caseInsensitive: false)
        let ns = s as NSString
        var out = s
        for m in re.matches(in: s, range: NSRange(location: 0, length: ns.length)).reversed() {
            let word = ns.substring(with: m.range(at: 1)).uppercased()
            guard !longAbbreviations.contains(word), let r = Range(NSRange(location: m.range.location + m.range.length - 1, length: 1), in: out) else { continue }
            out.replaceSubrange(r, with: ",")
        }
        return out
    }

    // MARK: - Date, time, references

    /// Numeric dates printed anywhere in a line, even glued to a label or a time (`Date:15/01/2018`,
    /// `9/3/201820:54:50`): their ISO value (day first unless `monthFirst`, or when the first number can't be a month)
    /// and the printed text.
    static func numericDates(in text: String, monthFirst: Bool) -> [(iso: String, text: String, start: Int)] {
        var out: [(String, String, Int)] = []
        let patterns = [#"(?<!\d)((?:19|20)\d{2})[-/.](\d{1,2})[-/.](\d{1,2})(?!\d)"#,
                        #"(?<!\d)(\d{1,2})[-/.](\d{1,2})[-/.]((?:19|20)\d{2})"#,
                        #"(?<!\d)(\d{1,2})[-/.](\d{1,2})[-/.](\d{2})(?![\d/.-])"#]
        for (n, pat) in patterns.enumerated() {
            let re = RegexCache.shared.regex(pat, caseInsensitive: false)
            let ns = text as NSString
            for m in re.matches(in: text, range: NSRange(location: 0, length: ns.length)) {
                let g = (1...3).map { Int(ns.substring(with: m.range(at: $0))) ?? 0 }
                var y: Int, mo: Int, d: Int
                if n == 0 { (y, mo, d) = (g[0], g[1], g[2]) } else {
                    (d, mo) = monthFirst ? (g[1], g[0]) : (g[0], g[1])
                    if mo > 12 && d <= 12 { swap(&d, &mo) }
                    y = g[2] < 100 ? 2000 + g[2] : g[2]
                }
                guard (1...12).contains(mo), (1...31).contains(d), (1990...2100).contains(y) else { continue }
                let start = ns.substring(to: m.range.location).unicodeScalars.count
                out.append((String(format: "%04d-%02d-%02d", y, mo, d), ns.substring(with: m.range), start))
            }
        }
        return out
    }

    /// A date-like run that continues a product or reference code (`HD03-04-06`, `SKU12.05.19`):
    /// letters or digits right before it, other than a date label glued on (`DATE:`, `Tarikh`).
    static func gluedToCode(_ scalars: [Unicode.Scalar], at start: Int) -> Bool {
        guard start > 0, start <= scalars.count else { return false }
        let before = scalars[start - 1]
        guard before.properties.isAlphabetic || ("0"..."9").contains(before) else { return false }
        var word = ""
        var i = start - 1
        while i >= 0, scalars[i].properties.isAlphabetic { word.unicodeScalars.insert(scalars[i], at: word.unicodeScalars.startIndex); i -= 1 }
        let labels = ["DATE", "DATED", "TARIKH", "DATUM", "FECHA", "DATA", "DT", "ON"]
        return !labels.contains { word.uppercased().hasSuffix($0) }
    }

    /// Whether numeric dates on this receipt put the month first: a North American phone number or a printed `$`
    /// without another currency; overruled by any numeric date that can only be read one way.
    static func monthFirst(_ lines: [AnalyzedLine]) -> Bool {
        // A cached NSRegularExpression: a Swift regex literal is parsed again at every call on Linux.
        let re = RegexCache.shared.regex(#"(?:^|\D)(\d{1,2})[-/.](\d{1,2})[-/.](?:\d{2,4})"#, caseInsensitive: false)
        for l in lines {
            let ns = l.text as NSString
            for m in re.matches(in: l.text, range: NSRange(location: 0, length: ns.length)) {
                if let a = Int(ns.substring(with: m.range(at: 1))), let b = Int(ns.substring(with: m.range(at: 2))) {
                    if a > 12 && b <= 12 { return false }
                    if b > 12 && a <= 12 { return true }
                }
            }
        }
        // A phone written the North American way, `(562) 597-0906` or `562-597-0906`, not any number that parses as one.
        let nanp = lines.contains { l in l.entities(.phone).contains { e in
            (e.value.e164?.hasPrefix("+1") ?? false)
                && Text.range(e.text, #"^(?:\+?1[\s.-]?)?\(?\d{3}\)?[\s.-]?\d{3}[\s.-]\d{4}$"#) != nil } }
        let dollar = lines.filter { Text.range($0.text, #"\$\s?\d"#) != nil }.count >= 2
        let other = lines.contains { Text.range($0.text, #"\bRM\s?\d|\bRM\b|MYR|EUR|GBP|SGD|S\$|€|£"#) != nil }
        return nanp || (dollar && !other)
    }

    func parseDateTime(_ lines: [AnalyzedLine], into r: inout Receipt, findings: inout [Finding]) {
        let monthFirst = Self.monthFirst(lines)
        var best: (score: Double, iso: String, prov: Provenance, line: AnalyzedLine)?
        for (i, l) in lines.enumerated() {
            var base = 1.0 - Double(i) / Double(lines.count) * 0.3
            // `DATE`, also glued to the value (`Date:23/01/2018`).
            if Text.hasAny(l.key, ["DATE", "DATED", "TARIKH", "DATUM", "FECHA", "DATA"]) || l.key.contains("DATE") { base += 1 }
            if Text.hasAny(l.key, ["EXP", "EXPIRY", "VALID", "DUE", "BEST BEFORE", "CLOSED", "PRINTED", "REPRINT"]) { base -= 0.5 }
            let scalars = Array(l.text.unicodeScalars)
            let times = l.entities(.time)
            for e in l.entities(.date) {
                guard var d = e.value.date, let y = Int(d.prefix(4)), y >= 1990, y <= 2100,
                      !Self.gluedToCode(scalars, at: e.range.start) else { continue }
                var score = base
                // A time printed right after it: the till's date-and-time stamp.
                if times.contains(where: { $0.range.start >= e.range.end && $0.range.start - e.range.end <= 3 }) { score += 0.3 }
                if e.ambiguous == true { score -= 0.1 }
                // An ambiguous numeric date: day first, except where the receipt is North American.
                if e.ambiguous == true, let alt = e.alternatives?.first,
                   let first = e.text.split(whereSeparator: { !$0.isNumber }).first.flatMap({ Int($0) }) {
                    let valueIsDayFirst = (Int(d.suffix(2)) ?? 0) == first
                    if valueIsDayFirst == monthFirst { d = alt }
                }
                if best == nil || score > best!.score { best = (score, d, l.provenance(of: e), l) }
            }
            for (iso, text, start) in Self.numericDates(in: l.text, monthFirst: monthFirst) where !Self.gluedToCode(scalars, at: start) {
                // Ties go to this reading: it applies the receipt's own day-month order.
                var score = base + 0.01
                if times.contains(where: { $0.range.start >= start + text.unicodeScalars.count
                    && $0.range.start - (start + text.unicodeScalars.count) <= 3 }) { score += 0.3 }
                var p = l.line.provenance()
                p.text = text
                if best == nil || score > best!.score { best = (score, iso, p, l) }
            }
        }
        if best == nil, let (iso, text, l) = Self.gluedDate(lines, monthFirst: monthFirst) {
            var p = l.line.provenance()
            p.text = text
            best = (0, iso, p, l)
            findings.append(Finding(code: "receipt-date-unseparated", message: "the date was read from digits printed without all their separators: '\(text)'",
                                    page: l.line.page, field: "receipt.date"))
        }
        if let b = best {
            r.date = b.iso
            r.provenance["date"] = b.prov
            // The time printed next to the date, else the first time on the receipt.
            let t = b.line.entities(.time).first.map { ($0, b.line) }
                ?? lines.lazy.compactMap { l in l.entities(.time).first.map { ($0, l) } }.first
            if let (e, l) = t, let v = e.value.time {
                r.time = v
                r.provenance["time"] = l.provenance(of: e)
            }
        } else if let (e, l) = lines.lazy.compactMap({ l in l.entities(.time).first.map { ($0, l) } }).first, let v = e.value.time {
            r.time = v
            r.provenance["time"] = l.provenance(of: e)
        }
    }

    /// Last resort when no date was read: day and month printed without the separator between
    /// them (`2703/2018`, `27032018`, `0502-18`) or with a space for it (`05 02-18`), on a line with no amount and no phone or registration label.
    /// A two-digit year needs its separator; the date must be a real calendar day.
    static func gluedDate(_ lines: [AnalyzedLine], monthFirst: Bool) -> (String, String, AnalyzedLine)? {
        let patterns = [#"(?<![\d/.:-])(\d{2})(\d{2})[-/.]?((?:19|20)\d{2})(?![\d/.:-])"#,
                        #"(?<![\d/.:-])(\d{2})(\d{2})[-/.](\d{2})(?![\d/.:-])"#,
                        // One separator read as a space: `05 02-18`.
                        #"(?<![\d/.:-])(\d{2}) (\d{2})[-/.](\d{2}|(?:19|20)\d{2})(?![\d/.:-])"#]
        for l in lines where l.amount == nil && !Text.hasAny(l.key, ["TEL", "FAX", "PHONE", "HP", "H P", "MOBILE", "GST", "REG"]) {
            let ns = l.text as NSString
            for pat in patterns {
                let re = RegexCache.shared.regex(pat, caseInsensitive: false)
                guard let m = re.firstMatch(in: l.text, range: NSRange(location: 0, length: ns.length)) else { continue }
                let g = (1...3).map { Int(ns.substring(with: m.range(at: $0))) ?? 0 }
                let (d, mo) = monthFirst ? (g[1], g[0]) : (g[0], g[1])
                let y = g[2] < 100 ? 2000 + g[2] : g[2]
                var c = DateComponents()
                c.year = y; c.month = mo; c.day = d
                guard (1...12).contains(mo), (1...31).contains(d), (1990...2100).contains(y),
                      let date = Calendar(identifier: .gregorian).date(from: c),
                      Calendar(identifier: .gregorian).component(.day, from: date) == d else { continue }
                return (String(format: "%04d-%02d-%02d", y, mo, d), ns.substring(with: m.range), l)
            }
        }
        return nil
    }

    /// A numeric date the detectors passed over (`18-11-18 13:58`), read day first unless `monthFirst`.
    static func fallbackDate(_ lines: [AnalyzedLine], monthFirst: Bool) -> (String, AnalyzedLine)? {
        for l in lines {
            guard let m = Text.range(l.text, #"\b(\d{1,2})[-/.](\d{1,2})[-/.](\d{2}|\d{4})\b"#) else { continue }
            let n = l.text[m].split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
            guard n.count == 3 else { continue }
            var (d, mo) = monthFirst ? (n[1], n[0]) : (n[0], n[1])
            if mo > 12 && d <= 12 { swap(&d, &mo) }
            let y = n[2] < 100 ? 2000 + n[2] : n[2]
            guard (1...12).contains(mo), (1...31).contains(d), (1990...2100).contains(y) else { continue }
            return (String(format: "%04d-%02d-%02d", y, mo, d), l)
        }
        return nil
    }

    func parseReferences(_ lines: [AnalyzedLine], into r: inout Receipt) {
        let pattern = #"(?i)\b(?:receipt|invoice|inv|bill|check|chk|trans(?:action)?|order|doc(?:ument)?|ticket|beleg|bon|facture|no\.? de ticket)\s*(?:no\.?|number|num|nr\.?|#)?\s*[:#.]?\s*([A-Z]{0,4}[-/]?[0-9][0-9A-Z\-/]{2,})"#
        for l in lines {
            if let m = Text.range(l.text, pattern) {
                let s = String(l.text[m])
                if let v = Text.range(s, #"[A-Z]{0,4}[-/]?[0-9][0-9A-Z\-/]{2,}$"#) {
                    r.receiptNumber = String(s[v])
                    r.provenance["receiptNumber"] = l.line.provenance()
                    break
                }
            }
        }
        var counts: [String: Int] = [:]
        for l in lines { for e in l.entities(.money) { if let c = e.value.currency { counts[c, default: 0] += 1 } } }
        if let c = counts.max(by: { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) })?.key {
            r.currency = c
        }
    }

    // MARK: - Items

    static let columnHeaderWords = ["QTY", "DESCRIPTION", "DESC", "ITEM", "ITEMS", "PRICE", "AMOUNT", "AMT", "TOTAL", "UNIT", "U P",
                                    "MENGE", "BEZEICHNUNG", "PREIS", "BETRAG", "ARTICLE", "PRIX", "MONTANT", "QTE", "PRODUCT", "RM"]

    static let amountHeaderWords: Set<String> = ["PRICE", "AMOUNT", "AMT", "TOTAL", "PREIS", "BETRAG", "PRIX", "MONTANT", "RM", "SUM"]

    /// A column heading line (`Item  Qty  Price`) among the first two thirds of the receipt, and the
    /// right edge of its rightmost price heading.
    static func priceHeading(_ lines: [AnalyzedLine]) -> (Int, Double)? {
        for (i, l) in lines.prefix(lines.count * 2 / 3 + 1).enumerated() where isColumnHeading(l) {
            if let right = l.line.words.last(where: isAmountHeading)?.box.maxX { return (i, right) }
        }
        return nil
    }

    /// A price column's heading word, with its currency glued on or not: `Amount`, `Amt(RM)`, `Price/EUR`.
    static func isAmountHeading(_ w: LayoutWord) -> Bool {
        Text.key(w.text).split(separator: " ").contains { amountHeaderWords.contains(String($0)) }
    }

    static func isColumnHeading(_ l: AnalyzedLine) -> Bool {
        let words = l.key.split(separator: " ").map(String.init)
        return words.count >= 2 && words.count <= 8 && words.filter({ columnHeaderWords.contains($0) }).count >= 2 && l.amount == nil
            && Text.digitCount(l.text) == 0
    }

    func parseItems(_ lines: [AnalyzedLine], roles: [Role], summaryStart: Int, into r: inout Receipt) {
        // Items start after the header: after a column header line, else at the first line ending in an amount.
        var start = 0
        var headerColumn: Double?
        for (i, l) in lines.prefix(summaryStart).enumerated() {
            if Self.isColumnHeading(l) {
                start = i + 1
                // The rightmost price heading (`Price`, `Amount`, `Total`) ends the amount column.
                headerColumn = l.line.words.last(where: Self.isAmountHeading)?.box.maxX
            }
        }
        var pending: [AnalyzedLine] = []
        var items: [Receipt.Item] = []
        var discounts: [Amount] = []
        let wholeUnits = lines.contains { $0.trailing.contains { $0.amount.scale == 0 } }
        let bare = Self.bareAmounts(lines)
        let column = headerColumn ?? Self.amountColumn(lines, roles: roles, from: summaryStart)
        for i in start..<summaryStart {
            var l = lines[i]
            if let column { Self.keepColumn(&l, right: column, wholeUnits: wholeUnits, bare: bare) }
            let role = roles[i]
            guard let amount = l.amount else {
                // A description line waiting for its numbers, unless it's header material.
                let contact = l.entities.contains { [.phone, .date, .time, .email, .url].contains($0.type) }
                if contact || role != .none || Text.letterCount(l.text) < 2 { pending.removeAll(); continue }
                // Only lines set tight together make one description.
                if let last = pending.last, l.line.box.minY - last.line.box.maxY > 0.8 * l.line.textHeight { pending.removeAll() }
                pending.append(l)
                if pending.count > 2 { pending.removeFirst() }
                continue
            }
            if l.entities.contains(where: { [.phone, .date, .time].contains($0.type) }) && Text.letterCount(l.label) > 0 {
                pending.removeAll(); continue
            }
            // A discount hanging under the item.
            if role == .discount || (amount.minor < 0 && !items.isEmpty) {
                let d = Amount(minor: -abs(amount.minor), scale: amount.scale)
                discounts.append(d)
                if !items.isEmpty, items[items.count - 1].discount == nil { items[items.count - 1].discount = d.decimalString }
                pending.removeAll()
                continue
            }
            if role != .none { pending.removeAll(); continue }
            var item = Self.item(from: l, wholeUnits: wholeUnits)
            if let last = pending.last, l.line.box.minY - last.line.box.maxY > 1.2 * l.line.textHeight { pending.removeAll() }
            if Text.letterCount(item.description) < 2, !pending.isEmpty {
                // Description printed on its own line(s) above the numbers.
                item.description = pending.map { Text.clean($0.text) }.joined(separator: " ")
                var src = item.source
                src.text = pending.map(\.text).joined(separator: "\n") + "\n" + l.text
                src.boundingBox = BoundingBox.enclosing(pending.map(\.line.box) + [l.line.box])?.rounded()
                item.source = src
            }
            pending.removeAll()
            guard Text.letterCount(item.description) >= 2 else { continue }
            _ = amount
            items.append(item)
        }
        r.items = Self.mergingRepeats(items)
        if !discounts.isEmpty {
            r.discounts = Amount(minor: discounts.reduce(0) { $0 + $1.cents }, scale: 2).decimalString
        }
    }

    /// The right edge of the amount column, from the amounts of the summary lines
    /// (subtotal, tax, total) under the items; nil when there are fewer than two.
    static func amountColumn(_ lines: [AnalyzedLine], roles: [Role], from start: Int) -> Double? {
        var edges: [Double] = []
        for i in start..<lines.count {
            guard let t = lines[i].trailing.last else { continue }
            switch roles[i] {
            case .subtotal, .tax, .total: edges.append(lines[i].line.words[t.word].box.maxX)
            default: continue
            }
        }
        guard edges.count >= 2 else { return nil }
        edges.sort()
        let right = edges[edges.count / 2]
        // Only a column the items' own amounts line up with: most of them end within two text heights of it.
        var near = 0, all = 0
        for l in lines[..<start] {
            guard let t = l.trailing.last else { continue }
            all += 1
            if abs(l.line.words[t.word].box.maxX - right) <= 2 * max(1, l.line.textHeight) { near += 1 }
        }
        return all > 0 && 2 * near >= all ? right : nil
    }

    /// Whether the analyzer read plain integers as amounts on this receipt (`AMOUNT DUE 27500`).
    static func bareAmounts(_ lines: [AnalyzedLine]) -> Bool {
        lines.contains { l in l.trailing.contains { t in t.amount.scale == 0 && l.line.words[t.word].text.allSatisfy { !",.' ".contains($0) } } }
    }

    /// Drops the words printed wholly right of the amount column (a tip table or a second
    /// column beside the items), so the line's amount is the one in the column.
    static func keepColumn(_ l: inout AnalyzedLine, right: Double, wholeUnits: Bool, bare: Bool = false) {
        let slack = max(1, l.line.textHeight)
        var kept = l.line.words.filter { $0.box.minX <= right + slack }
        guard kept.count < l.line.words.count, !kept.isEmpty else { return }
        // Debris left at the cut (`%`, `|`): no letters or digits.
        while kept.count > 1, let w = kept.last, !w.text.contains(where: { $0.isLetter || $0.isNumber }) { kept.removeLast() }
        // Read the line again without the words right of the column (`19.00 % 20%`: a tip table's cells).
        let line = LayoutLine(page: l.line.page, words: kept, level: l.line.level, ordered: true)
        let (count, trailing) = LineAnalyzer.trailingAmounts(line, wholeUnits: wholeUnits, bare: bare)
        let length = line.text.unicodeScalars.count
        l = AnalyzedLine(line: line, labelWordCount: count, trailing: trailing, entities: l.entities.filter { $0.range.end <= length })
    }

    /// Items printed more than once under the same description become one item with the
    /// counts and amounts added up (`1 rice 1.99` twice: `2 rice 3.98`), as long as neither
    /// carries a discount. The source spans every line read.
    static func mergingRepeats(_ items: [Receipt.Item]) -> [Receipt.Item] {
        var out: [Receipt.Item] = []
        var seen: [String: Int] = [:]
        for it in items {
            let key = Text.key(it.description)
            guard !key.isEmpty, it.discount == nil, let a = it.amount.flatMap({ Amount.parse($0[...]) }),
                  let k = seen[key], out[k].discount == nil, let b = out[k].amount.flatMap({ Amount.parse($0[...]) }),
                  let qa = Double(it.quantity ?? "1"), let qb = Double(out[k].quantity ?? "1"),
                  qa == qa.rounded(), qb == qb.rounded(), (a.minor < 0) == (b.minor < 0) else {
                if it.discount == nil, !Text.key(it.description).isEmpty, seen[Text.key(it.description)] == nil {
                    seen[Text.key(it.description)] = out.count
                }
                out.append(it)
                continue
            }
            var m = out[k]
            m.quantity = String(Int(qa + qb))
            m.amount = Amount.cents(a.cents + b.cents).decimalString
            if m.unitPrice == nil || m.unitPrice != it.unitPrice { m.unitPrice = nil }
            if a.cents * Int(qb) == b.cents * Int(qa), Int(qa) > 0 { m.unitPrice = Amount.cents(a.cents / Int(qa)).decimalString }
            var src = m.source
            src.text = [m.source.text, it.source.text].joined(separator: "\n")
            src.boundingBox = BoundingBox.enclosing([m.source.boundingBox, it.source.boundingBox].compactMap { $0 })?.rounded()
            src.confidence = min(m.source.confidence, it.source.confidence)
            m.source = src
            out[k] = m
        }
        return out
    }

    /// Quantity, unit, unit price and amount of one item line.
    static func item(from l: AnalyzedLine, wholeUnits: Bool) -> Receipt.Item {
        var words = Array(l.line.words.prefix(l.labelWordCount).map(\.text))
        var quantity: String?, unit: String?, unitPrice: String?
        let amounts = l.trailing.map(\.amount)
        if amounts.count >= 2 { unitPrice = amounts[amounts.count - 2].decimalString }
        // `1,500 kg x 1,99 EUR/kg`, `2 x 3.50`, `2 @ 3.50`, `x2`.
        let joined = words.joined(separator: " ")
        let weight = #"(\d+(?:[.,]\d{1,3})?)\s*(kg|g|lb|lbs|oz|l)\b\s*[x×@*]\s*([\d.,]+)\s*(?:[A-Z€$£]{1,3})?\s*/\s*(kg|g|lb|lbs|oz|l)\b"#
        if let m = Text.range(joined, weight, caseInsensitive: true) {
            let s = String(joined[m])
            let parts = s.split(whereSeparator: { $0 == " " || $0 == "x" || $0 == "×" || $0 == "@" || $0 == "*" || $0 == "/" })
            if let q = parts.first {
                var qs = String(q)
                var u: String? = nil
                if let idx = qs.firstIndex(where: { $0.isLetter }) { u = String(qs[idx...]); qs = String(qs[..<idx]) }
                quantity = qs.replacingOccurrences(of: ",", with: ".")
                unit = (u ?? (parts.count > 1 ? String(parts[1]) : nil))?.lowercased()
            }
            if let p = parts.dropFirst().first(where: { Amount.parse($0) != nil }) { unitPrice = Amount.parse(p)!.decimalString }
            var rest = joined
            rest.removeSubrange(m)
            words = rest.split(separator: " ").map(String.init)
        } else if let m = Text.range(joined, #"\s*\(\s*(\d{1,3})\s*(?:[xX×@*]\s*[$€£]?\s*(?:\d[\d.,]*)?\s*)?\)?\s*$"#),
                  m.lowerBound != joined.startIndex {
            // A count in parentheses after the description: `Chang (2@$3.50)`, `Rye 10yr (2 @20.00)`, `(2` cut off by the amounts.
            let s = joined[m].drop { $0 == " " || $0 == "(" }
            let q = s.prefix { $0.isNumber }
            quantity = String(q)
            let rest = s.dropFirst(q.count).drop { $0 == " " || $0 == "x" || $0 == "X" || $0 == "×" || $0 == "@" || $0 == "*" }
            let price = rest.drop { $0 == "$" || $0 == "€" || $0 == "£" || $0 == " " }.prefix { $0.isNumber || $0 == "." || $0 == "," }
            if let a = Amount.parse(price, wholeUnits: wholeUnits) { unitPrice = a.decimalString }
            words = String(joined[..<m.lowerBound]).split(separator: " ").map(String.init)
        } else if let m = Text.range(joined, #"(?:^|\s)(\d{1,3}(?:[.,]\d{1,3})?)\s*[xX×@*]\s*(?:\S*\d[\d.,]*)?\s*$"#) {
            let s = String(joined[m]).trimmingCharacters(in: .whitespaces)
            let q = s.prefix { $0.isNumber || $0 == "." || $0 == "," }
            quantity = q.replacingOccurrences(of: ",", with: ".")
            if let p = s.split(whereSeparator: { $0 == "x" || $0 == "X" || $0 == "×" || $0 == "@" || $0 == "*" || $0 == " " }).dropFirst().last,
               let a = Amount.parse(p, wholeUnits: wholeUnits) { unitPrice = a.decimalString }
            words = String(joined[..<m.lowerBound]).split(separator: " ").map(String.init)
        }
        // A leading count: `2 Lunch`, `2x Coffee`, `1 @`.
        if quantity == nil, let f = words.first {
            let digits = f.trimmingCharacters(in: CharacterSet(charactersIn: "xX×@*"))
            if !digits.isEmpty, digits.count <= 3, digits.allSatisfy(\.isNumber), words.count > 1, let n = Int(digits), n > 0, n < 1000 {
                quantity = String(n)
                words.removeFirst()
            }
        }
        // A count printed just before the amounts: `Coffee  2  6.00`.
        if quantity == nil, words.count > 1, let last = words.last, last.count <= 3, last.allSatisfy(\.isNumber), let n = Int(last), n > 0 {
            quantity = String(n)
            words.removeLast()
        }
        // Strip OCR debris before the description: `|`, `•`, lone punctuation.
        while let f = words.first, !f.contains(where: { $0.isLetter || $0.isNumber }) { words.removeFirst() }
        let desc = Text.clean(words.joined(separator: " "))
        let amountWord = l.trailing.last!.word
        let src = l.line.provenance(words: 0..<(amountWord + 1))
        return Receipt.Item(description: desc, quantity: quantity, unit: unit, unitPrice: unitPrice,
                            amount: l.trailing.last!.amount.decimalString, source: src)
    }

    // MARK: - Summary

    func parseSummary(_ lines: [AnalyzedLine], roles: [Role], from start: Int, into r: inout Receipt) {
        var totals: [(amount: Amount, strength: Double, index: Int, prov: Provenance)] = []
        var tendered: (Amount, Provenance)?, change: (Amount, Provenance)?
        var taxes: [Receipt.Tax] = []
        var tips: [(Amount, Provenance)] = []
        var method: String?
        // The value of a line: its own amount, else the amount alone on the next line.
        func value(_ i: Int) -> (Amount, Provenance)? {
            if let a = lines[i].amount, let p = lines[i].amountProvenance { return (a, p) }
            if i + 1 < lines.count, Self.valueOnly(lines[i + 1]), roles[i + 1] == .none,
               let a = lines[i + 1].amount, let p = lines[i + 1].amountProvenance { return (a, p) }
            return nil
        }
        // Payment words can appear anywhere (a card slip under the receipt).
        for (i, l) in lines.enumerated() {
            let k = l.key
            if method == nil {
                if Text.hasAny(k, ["VISA", "MASTERCARD", "MASTER", "AMEX", "AMERICAN EXPRESS", "DEBIT", "CREDIT", "DISCOVER", "EFTPOS",
                                   "MAESTRO", "CARD", "KARTE", "CARTE", "CB", "EC KARTE", "GIROCARD", "JCB", "UNIONPAY"]) {
                    method = "card"
                } else if roles[i] == .tendered && Text.hasAny(k, ["CASH", "TUNAI", "BAR", "ESPECES", "EFECTIVO", "CONTANTI"]) {
                    method = "cash"
                }
            }
            for e in l.entities(.paymentCard) where r.payment?.cardLast4 == nil {
                if r.payment == nil { r.payment = Receipt.Payment() }
                r.payment?.cardLast4 = e.value.last4
                r.payment?.cardBrand = e.value.brand
                r.provenance["payment.cardLast4"] = l.provenance(of: e)
            }
            if r.payment?.cardLast4 == nil, let m = Text.range(l.text, #"(?:[X*•#]{2,}[\s\-]?){1,3}(\d{4})\b"#) {
                if r.payment == nil { r.payment = Receipt.Payment() }
                r.payment?.cardLast4 = String(l.text[m].suffix(4))
                r.provenance["payment.cardLast4"] = l.line.provenance()
            }
        }
        let from = max(0, min(start, lines.count))
        for i in from..<lines.count {
            let l = lines[i]
            switch roles[i] {
            case .total(let s):
                if let (a, p) = value(i), a.minor > 0 { totals.append((a, s, i, p)) }
            case .subtotal:
                if r.subtotal == nil, let (a, p) = value(i) { r.subtotal = a.decimalString; r.provenance["subtotal"] = p }
            case .tax:
                if let (a, p) = value(i) {
                    let rate = l.entities(.percentage).first?.value.percent
                    let t = Receipt.Tax(rate: rate, amount: a.decimalString, source: p)
                    if !taxes.contains(where: { $0.amount == t.amount && $0.rate == t.rate }) { taxes.append(t) }
                }
            case .tip:
                if let (a, p) = value(i) { tips.append((a, p)) }
            case .tendered:
                if tendered == nil, let (a, p) = value(i) { tendered = (a, p) }
            case .change:
                if change == nil, let (a, p) = value(i) { change = (a, p) }
            default: break
            }
        }
        // A tax breakdown table (`GST SUMMARY`, `TAX CODE  AMOUNT  TAX`) repeats `TOTAL` over the tax columns.
        if let table = lines.indices.first(where: { i in i >= from && (Text.hasAny(lines[i].key, ["GST SUMMARY", "TAX SUMMARY", "VAT SUMMARY", "SST SUMMARY", "TAX CODE", "MWST SATZ"])) }) {
            totals = totals.map { $0.index > table ? ($0.amount, $0.strength - 1.5, $0.index, $0.prov) : $0 }
        }
        // A total printed just under a rounding line is the rounded amount due (`Total RM Incl. GST 49.39`,
        // `Rounding Adj 0.01`, `Total RM 49.40`): it outranks the total before rounding.
        if let rounding = (from..<lines.count).last(where: { roles[$0] == .rounding }) {
            totals = totals.map { t in
                t.index > rounding && t.index <= rounding + 2 ? (t.amount, max(t.strength, 2.25), t.index, t.prov) : t
            }
        }
        // Money handed over less change is what was due: when a printed amount agrees, it is strong evidence.
        if let (t, tp) = tendered, let (c, _) = change, c.minor >= 0, t.cents > c.cents {
            let due = t.cents - c.cents
            if !totals.contains(where: { $0.amount.cents == due && $0.strength >= 1 }) {
                if c.minor == 0 {
                    totals.append((t, 1.75, lines.count, tp))
                } else {
                    for i in from..<lines.count {
                        if case .tendered = roles[i] { continue }
                        if case .change = roles[i] { continue }
                        if let a = lines[i].amount, a.cents == due, let p = lines[i].amountProvenance { totals.append((a, 1.75, i, p)); break }
                    }
                }
            }
        }
        // Totals above the summary (a total printed at the top, as some tills do).
        if totals.isEmpty {
            for i in 0..<from { if case .total(let s) = roles[i], let (a, p) = value(i), a.minor > 0 { totals.append((a, s - 0.5, i, p)) } }
        }
        var chosen: (amount: Amount, strength: Double, index: Int, prov: Provenance)?
        if let (t, _) = tendered, let (c, _) = change, c.minor >= 0 {
            let due = t.cents - c.cents
            chosen = totals.filter { $0.amount.cents == due }.max { $0.strength < $1.strength }
        }
        if chosen == nil {
            let topStrength = totals.map(\.strength).max() ?? 0
            chosen = totals.filter { $0.strength >= topStrength - 0.01 }.max { a, b in
                a.amount < b.amount || (a.amount == b.amount && a.index < b.index)
            }
        }
        if let c = chosen {
            r.total = c.amount.decimalString
            var p = c.prov
            p.confidence = (p.confidence * min(1, 0.6 + 0.2 * c.strength) * 1000).rounded() / 1000
            r.provenance["total"] = p
        } else if r.subtotal == nil, taxes.isEmpty, let due = Self.itemsSumPrinted(lines, roles: roles, items: r.items) {
            // No total label, but the items add up to an amount printed below them (`CASH` / `RM 170.00`): that is what was due.
            r.total = due.0.decimalString
            var q = due.1
            q.confidence = (q.confidence * 0.8 * 1000).rounded() / 1000
            r.provenance["total"] = q
        } else {
            // No total label: the largest amount that isn't money handed over or back.
            var best: (Amount, Provenance)?
            for (i, l) in lines.enumerated() {
                switch roles[i] { case .tendered, .change, .quantityTotal, .taxId, .discount, .rounding, .subtotal, .tax, .tip: continue; default: break }
                if let a = l.amount, let p = l.amountProvenance, a.minor > 0, best == nil || a > best!.0 { best = (a, p) }
            }
            if let (a, p) = best {
                r.total = a.decimalString
                var q = p
                q.confidence = (q.confidence * 0.5 * 1000).rounded() / 1000
                r.provenance["total"] = q
            }
        }
        // No subtotal label, but a weaker total-like line above the total (`AMOUNT : 31.12`, then `TAX 2.80`,
        // then `TOTAL : 33.92`) that the taxes bring up to the total is the subtotal.
        if r.subtotal == nil, let c = chosen, !taxes.isEmpty {
            let taxSum = taxes.compactMap { Amount.parse($0.amount[...]) }.reduce(0) { $0 + $1.cents }
            if let sub = totals.first(where: { $0.index < c.index && $0.strength < c.strength && $0.amount.cents + taxSum == c.amount.cents }) {
                r.subtotal = sub.amount.decimalString
                r.provenance["subtotal"] = sub.prov
            }
        }
        r.tax = taxes
        if !tips.isEmpty {
            r.tip = tips.last!.0.decimalString
            r.provenance["tip"] = tips.last!.1
        }
        if tendered != nil || change != nil || method != nil {
            if r.payment == nil { r.payment = Receipt.Payment() }
            r.payment?.method = method ?? (tendered != nil ? "cash" : nil)
            if let (a, p) = tendered { r.payment?.tendered = a.decimalString; r.provenance["payment.tendered"] = p }
            if let (a, p) = change { r.payment?.change = a.decimalString; r.provenance["payment.change"] = p }
        }
    }

    /// An amount printed after the last item that equals the items' sum (two items at least), with its provenance.
    static func itemsSumPrinted(_ lines: [AnalyzedLine], roles: [Role], items: [Receipt.Item]) -> (Amount, Provenance)? {
        let amounts = items.compactMap { $0.amount.flatMap { Amount.parse($0[...]) } }
        guard amounts.count >= 2, amounts.count == items.count else { return nil }
        let sum = amounts.reduce(0) { $0 + $1.cents }
        guard sum > 0, let lastItem = items.last?.source.boundingBox else { return nil }
        for (i, l) in lines.enumerated() where l.line.box.minY > lastItem.maxY - 1 {
            guard roles[i] == .none || roles[i] == .tendered else { continue }
            if let a = l.amount, a.cents == sum, let p = l.amountProvenance { return (a, p) }
        }
        return nil
    }

    // MARK: - Arithmetic

    /// Disagreements between the items, subtotal, taxes, tip and total, as warnings.
    func check(_ r: Receipt) -> [Finding] {
        var out: [Finding] = []
        func c(_ s: String?) -> Int? { s.flatMap { Amount.parse($0[...], wholeUnits: true) ?? Amount.parse($0[...]) }?.cents }
        let total = c(r.total), subtotal = c(r.subtotal)
        let tax = r.tax.compactMap { c($0.amount) }.reduce(0, +)
        let tip = c(r.tip) ?? 0
        let discounts = c(r.discounts) ?? 0
        let itemAmounts = r.items.compactMap { c($0.amount) }
        let items = itemAmounts.reduce(0, +) + discounts
        let tolerance = 5 // cents: rounding to 0.05 is common
        if let total {
            let base = subtotal ?? (itemAmounts.isEmpty ? nil : items)
            if let base {
                // Taxes may be added, or already included (VAT- and GST-inclusive prices).
                let added = base + tax + tip, included = base + tip
                let withDiscount = added + discounts
                if abs(added - total) > tolerance && abs(included - total) > tolerance && abs(withDiscount - total) > tolerance {
                    let what = subtotal != nil ? "subtotal" : "items"
                    out.append(Finding(code: "receipt-total-mismatch",
                                       message: "\(what) \(fmt(base)) + tax \(fmt(tax)) + tip \(fmt(tip)) = \(fmt(added)), but the total is \(fmt(total))",
                                       page: r.provenance["total"]?.page, field: "receipt.total"))
                }
            }
        }
        if let subtotal, !itemAmounts.isEmpty, abs(items - subtotal) > tolerance, abs(itemAmounts.reduce(0, +) - subtotal) > tolerance {
            out.append(Finding(code: "receipt-subtotal-mismatch",
                               message: "the items add up to \(fmt(items)), but the subtotal is \(fmt(subtotal))",
                               page: r.provenance["subtotal"]?.page, field: "receipt.subtotal"))
        }
        if r.total == nil {
            out.append(Finding(code: "receipt-no-total", message: "no total was found on the receipt", field: "receipt.total"))
        }
        return out
    }

    private func fmt(_ cents: Int) -> String { Amount.cents(cents).decimalString }
}
