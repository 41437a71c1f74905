import Foundation
import ScanDetectors
import ScanModel

// Merchant: name, address, phone and tax number, from the header of the receipt.
extension ReceiptParser {
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
}
