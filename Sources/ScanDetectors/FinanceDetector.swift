import ScanModel

/// IBANs (length per country and the ISO 13616 mod-97 checksum) and payment card numbers
/// (issuer prefix, length and the Luhn checksum), including masked forms printed on
/// receipts such as `**** 1234` or `XXXX-XXXX-XXXX-1234`.
struct FinanceDetector {
    static let ibanLengths: [String: Int] = {
        let table = """
        AD24 AE23 AL28 AT20 AZ28 BA20 BE16 BG22 BH22 BR29 BY28 CH21 CR22 CY28 CZ24 DE22 DK18 DO28 EE20 EG29 \
        ES24 FI18 FO18 FR27 GB22 GE22 GI23 GL18 GR27 GT28 HR21 HU28 IE22 IL23 IQ23 IS26 IT27 JO30 KW30 KZ20 \
        LB28 LC32 LI21 LT20 LU20 LV21 LY25 MC27 MD24 ME22 MK19 MR27 MT31 MU30 NL18 NO15 PK24 PL28 PS29 PT25 \
        QA29 RO24 RS22 SA24 SC31 SD18 SE24 SI19 SK24 SM27 ST25 SV28 TL23 TN24 TR26 UA29 VA22 VG24 XK20
        """
        var d: [String: Int] = [:]
        for item in table.split(separator: " ") where item.count == 4 {
            d[String(item.prefix(2))] = Int(item.suffix(2))!
        }
        return d
    }()

    func detectIBANs(_ s: ScanText, into hits: inout [Hit]) {
        let b = s.bytes
        let n = b.count
        var i = 0
        while i + 4 < n {
            guard isUpper(b[i]), isUpper(b[i + 1]), isDigit(b[i + 2]), isDigit(b[i + 3]), !isAlnum(s.at(i - 1)) else {
                i += 1; continue
            }
            let country = s.string(i, i + 2)
            guard let expected = FinanceDetector.ibanLengths[country] else { i += 1; continue }
            var chars: [UInt8] = []
            var boundaries: [(count: Int, end: Int)] = []
            var p = i
            var groupLen = 0
            while p < n, chars.count < 34 {
                let c = b[p]
                if isDigit(c) || isUpper(c) {
                    chars.append(c); groupLen += 1; p += 1
                } else if c == 0x20, groupLen == 4, p + 1 < n, isAlnum(b[p + 1]), !isLower(b[p + 1]) {
                    boundaries.append((chars.count, p)); groupLen = 0; p += 1
                } else { break }
            }
            boundaries.append((chars.count, p))
            var matched: Int? = nil
            for bd in boundaries where bd.count == expected { matched = bd.end }
            if let end = matched, !isAlnum(s.at(end)) || boundaries.last!.count != expected,
               FinanceDetector.mod97(Array(chars.prefix(expected))) {
                let compact = String(decoding: chars.prefix(expected), as: UTF8.self)
                hits.append(
                    Hit(
                        type: .iban, start: i, end: end, value: EntityValue(country: country, iban: compact),
                        priority: 70))
                i = end
                continue
            }
            i += 1
        }
    }

    static func mod97(_ chars: [UInt8]) -> Bool {
        guard chars.count > 4 else { return false }
        let rearranged = chars[4...] + chars[0..<4]
        var r = 0
        for c in rearranged {
            if isDigit(c) { r = (r * 10 + Int(c - 48)) % 97 }
            else if isUpper(c) { r = (r * 100 + Int(c - 65 + 10)) % 97 }
            else { return false }
        }
        return r == 1
    }

    static func brand(_ d: [UInt8]) -> String? {
        func prefix(_ k: Int) -> Int { var v = 0; for c in d.prefix(k) { v = v * 10 + Int(c - 48) }; return v }
        let len = d.count
        if d.first == 0x34, [13, 16, 19].contains(len) { return "visa" }
        if (51...55).contains(prefix(2)) || (2221...2720).contains(prefix(4)), len == 16 { return "mastercard" }
        if [34, 37].contains(prefix(2)), len == 15 { return "amex" }
        if prefix(4) == 6011 || prefix(2) == 65 || (644...649).contains(prefix(3)), len >= 16 { return "discover" }
        if (3528...3589).contains(prefix(4)), len >= 16 { return "jcb" }
        if [36, 38, 39].contains(prefix(2)) || (300...305).contains(prefix(3)), len >= 14 { return "diners" }
        if prefix(2) == 62, len >= 16 { return "unionpay" }
        if [50, 56, 57, 58, 63, 67].contains(prefix(2)), len >= 12 { return "maestro" }
        return nil
    }

    func detectCards(_ s: ScanText, into hits: inout [Hit]) {
        let v = s.num
        let b = s.bytes
        let n = v.count
        var i = 0
        while i < n {
            let c = v[i]
            if isDigit(c) {
                guard !isAlnum(s.at(i - 1)), !(s.at(i - 1) == 0x2E && isDigit(s.numAt(i - 2))) else {
                    while i < n, isDigit(v[i]) { i += 1 }
                    continue
                }
                // Count first: most numbers are far shorter than a card number and need no arrays.
                var p = i
                var count = 0
                var sep: UInt8 = 0
                while p < n {
                    var e = p
                    while e < n, isDigit(v[e]) { e += 1 }
                    count += e - p
                    p = e
                    if p + 1 < n, v[p] == 0x20 || v[p] == 0x2D, sep == 0 || v[p] == sep, isDigit(v[p + 1]), count < 19 {
                        sep = v[p]; p += 1
                    } else { break }
                }
                if count < 13 {
                    i = max(p, i + 1)
                    continue
                }
                var digits: [UInt8] = []
                p = i
                var groups: [Int] = []
                sep = 0
                while p < n {
                    var e = p
                    while e < n, isDigit(v[e]) { e += 1 }
                    groups.append(e - p)
                    digits.append(contentsOf: v[p..<e])
                    p = e
                    if p + 1 < n, v[p] == 0x20 || v[p] == 0x2D, sep == 0 || v[p] == sep, isDigit(v[p + 1]),
                        digits.count < 19
                    {
                        sep = v[p]; p += 1
                    } else { break }
                }
                let okGroups =
                    groups.count == 1 || groups.dropLast().allSatisfy({ $0 == 4 }) || groups == [4, 6, 5]
                    || groups == [4, 6, 4]
                if digits.count >= 13, digits.count <= 19, okGroups, !isAlnum(s.at(p)), luhn(digits),
                    let brand = FinanceDetector.brand(digits)
                {
                    let last4 = String(decoding: digits.suffix(4), as: UTF8.self)
                    hits.append(
                        Hit(
                            type: .paymentCard, start: i, end: p,
                            value: EntityValue(brand: brand, last4: last4, masked: false), priority: 60))
                }
                i = max(p, i + 1)
                continue
            }
            // Masked: **** 1234, XXXX-XXXX-XXXX-1234, ••••1234
            let maskLen = maskCharLength(b, i)
            if maskLen > 0, !isAlnum(s.at(i - 1)) {
                var p = i
                var masks = 0
                while p < n {
                    let l = maskCharLength(b, p)
                    if l > 0 { masks += 1; p += l }
                    else if (b[p] == 0x20 || b[p] == 0x2D), maskCharLength(b, p + 1) > 0 || isDigit(s.at(p + 1)) {
                        p += 1
                    }
                    else { break }
                }
                if masks >= 4, p + 4 <= n, isDigit(b[p]), isDigit(b[p + 1]), isDigit(b[p + 2]), isDigit(b[p + 3]),
                    !isAlnum(s.at(p + 4))
                {
                    let last4 = s.string(p, p + 4)
                    hits.append(
                        Hit(
                            type: .paymentCard, start: i, end: p + 4,
                            value: EntityValue(brand: brandWord(s, i), last4: last4, masked: true), priority: 60))
                    i = p + 4
                    continue
                }
                i = max(p, i + 1)
                continue
            }
            i += 1
        }
    }

    private func maskCharLength(_ b: [UInt8], _ i: Int) -> Int {
        guard i < b.count else { return 0 }
        let c = b[i]
        if c == 0x2A || c == 0x58 || c == 0x78 || c == 0x23 { return 1 }
        if c == 0xE2, i + 2 < b.count, b[i + 1] == 0x80, b[i + 2] == 0xA2 { return 3 } // •
        return 0
    }

    private func brandWord(_ s: ScanText, _ i: Int) -> String? {
        let words = s.words(from: max(s.lineStart(i), i - 30), to: i)
        for w in words.reversed() {
            switch w {
            case "visa": return "visa"
            case "mastercard", "mc", "master": return "mastercard"
            case "amex", "americanexpress": return "amex"
            case "discover": return "discover"
            case "jcb": return "jcb"
            case "maestro": return "maestro"
            case "unionpay": return "unionpay"
            case "diners": return "diners"
            default: continue
            }
        }
        return nil
    }
}
