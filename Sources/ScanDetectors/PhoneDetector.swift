import ScanModel

/// Finds telephone numbers: international (`+44 20 7946 0958`, `0049 30 1234567`,
/// `+49 (0)30 1234567`), national (`(415) 555-0100`, `030/1234567`, `01 23 45 67 89`),
/// with extensions (`x123`, `ext. 45`) and NANP vanity numbers (`1-800-FLOWERS`).
///
/// A candidate is a run of digit groups joined by single separators (space, `-`, `.`,
/// `/`, parentheses). It is kept only when its shape and length fit a numbering plan and
/// there is evidence it is a phone number rather than an amount, a date, an ID or a
/// card number: an international prefix, a trunk prefix, an area code in parentheses,
/// a phone keyword before it (`Tel`, `Phone`, `Fax`, `M:`...), or a valid national
/// number of the default region written in groups.
struct PhoneDetector {
    let region: String?
    /// The detectors' reference year, which bounds the dates that are no phone numbers (`2016 10 16`).
    let referenceYear: Int
    /// Read every number as if a phone label stood before it (see `DataDetector.phoneStandingAlone`).
    var labelled = false
    /// The fewest digits a number may have: 7 anywhere, but 6 where the default region's own plan
    /// has numbers that short (Andorra, Greenland, New Caledonia...). Such a short one is still
    /// taken only after a phone keyword and only at a length its region allows. Looked up once,
    /// not at every digit run.
    private let shortest: Int

    init(region: String?, referenceYear: Int = NumericDate.referenceYear) {
        self.region = region
        self.referenceYear = referenceYear
        let plan = region.flatMap { PhoneMetadata.plans[$0] }
        shortest = plan.map { max(6, min(7, $0.minLength)) } ?? 7
    }

    private struct Group {
        var start: Int
        var end: Int
        var inParens: Bool
        /// The separator run before this group (empty for the first).
        var sepBefore: [UInt8]
    }

    func detect(_ s: ScanText, into hits: inout [Hit]) {
        let v = s.num
        let n = v.count
        var i = 0
        while i < n {
            let c = v[i]
            if isDigit(c) || c == 0x2B || c == 0x28 {
                if let (hit, next) = parse(s, at: i) {
                    if let hit { hits.append(hit) }
                    i = next
                    continue
                }
                // Do not restart inside the same digit run, nor inside a failed international number.
                if c == 0x2B {
                    i += 1
                    while i < n,
                        isDigit(v[i]) || v[i] == 0x20 && isDigit(s.numAt(i + 1))
                            || (v[i] == 0x2D || v[i] == 0x2E) && isDigit(s.numAt(i + 1))
                    { i += 1 }
                } else if isDigit(c) {
                    while i < n, isDigit(v[i]) { i += 1 }
                } else {
                    i += 1
                }
                continue
            }
            i += 1
        }
    }

    /// How a number may start at `i`: nil where it may not, `.glued` right after a phone label
    /// printed without its space, `.free` otherwise.
    private enum Start { case free, glued }

    private func start(_ s: ScanText, _ i: Int) -> Start? {
        let c = s.num[i]
        let prev = s.at(i - 1)
        if isDigit(prev) || prev == 0x2B || prev == 0x2A || prev == 0x3D || prev == 0x23 { return nil }
        // Digits after a colon after a number are a time's minutes or a ratio's second term (`16:58 19/05/18`); after a
        // label whose last letter OCR read as a digit (`Te1:818...`) they may start a number.
        if prev == 0x3A, isDigit(c), isDigit(s.at(i - 2)) {
            var b = i - 2
            while b > 0, isDigit(s.at(b - 1)) { b -= 1 }
            if !isAlpha(s.at(b - 1)) { return nil }
        }
        if c == 0x2B || c == 0x28 { return prev != 0x29 ? .free : nil }
        if isAlpha(prev) || prev == 0x2E { return gluedLabel(s, i) ? .glued : nil }
        // A phone word joined by a hyphen (`OFFICE-1(516)733-3989`) is the label, not part of a code:
        // the number starts freely and the word before it gives the keyword.
        if prev == 0x2D, isAlpha(s.at(i - 2)), case let b = s.wordStart(before: i - 1), !isAlnum(s.at(b - 1)),
            PhoneDetector.phoneTable.contains(s, b, i - 1)
        {
            return .free
        }
        switch prev {
        case 0x2D, 0x2E, 0x2C, 0x2F, 0x5C, 0x5F, 0x40, 0x24, 0x26, 0x3F, 0x25, 0x7E: return nil
        case 0xA3, 0xA5, 0xAC, 0xB9: return nil  // last byte of £ ¥ € ₹
        default: return .free
        }
    }

    /// A phone label printed without the space after it, as OCR often reads a card or a receipt
    /// header (`T536-278-8222`, `Tel.069/5850177`, `M0412 345 678`): the letters right before `i`
    /// (a dot between allowed) are a phone word or a one-letter phone label, and start a token.
    private func gluedLabel(_ s: ScanText, _ i: Int) -> Bool {
        var e = i
        if s.at(e - 1) == 0x2E { e -= 1 }
        guard e > 0, isAlpha(s.bytes[e - 1]) else { return false }
        let b = s.wordStart(before: e)
        guard !isAlnum(s.at(b - 1)) else { return false }
        if PhoneDetector.phoneTable.contains(s, b, e) { return true }
        // A one-letter label after another number's label is that number's first letter (`INV NO: P0S01/00012379`).
        return PhoneDetector.letterTable.contains(s, b, e) && keywordContext(s, before: b) != .other
    }

    /// The most digit groups a written number has (`+33 (0)1 23 45 67 89` has seven).
    static let maxGroups = 10

    /// The number starting at `start` and where to go on; nil: none here. A nil hit with a position
    /// skips a run that is something else as a whole (a card number), so no part of it is read.
    private func parse(_ s: ScanText, at start: Int) -> (Hit?, Int)? {
        guard let kind = self.start(s, start) else { return nil }
        let glued = kind == .glued
        let v = s.num
        let n = v.count
        // Quick filter: fewer digits than the shortest number we report cannot be one.
        var digitCount = 0
        var q = start
        // Two spaces usually part table columns, but not after a `+`, the plainest mark of a phone
        // number: `(+1)   650 - 701  8887` keeps the loose spacing some people type.
        let international = v[start] == 0x2B || v[start] == 0x28 && s.at(start + 1) == 0x2B
        while q < n, q - start < 48 {
            let c = v[q]
            if c == 0x20 && s.at(q + 1) == 0x20 && (!international || s.at(q + 2) == 0x20 && s.at(q + 3) == 0x20) {
                break
            }
            if isDigit(c) || isUpper(s.bytes[q]) {
                digitCount += 1
            } else if !(c == 0x20 || c == 0x2D || c == 0x2E || c == 0x2F || c == 0x28 || c == 0x29 || c == 0x2B) {
                break
            }
            q += 1
        }
        guard digitCount >= shortest else { return nil }

        var p = start
        var plus = false
        var groups: [Group] = []
        var inParens = false
        var parenDigits = 0
        var pendingSep: [UInt8] = []
        var end = start
        var vanity: (start: Int, end: Int)? = nil
        var truncated = false
        loop: while p < n {
            let c = v[p]
            if isDigit(c) {
                var e = p
                while e < n, isDigit(v[e]) { e += 1 }
                groups.append(Group(start: p, end: e, inParens: inParens, sepBefore: pendingSep))
                pendingSep = []
                if inParens { parenDigits += e - p; if parenDigits > 5 { return nil } }
                p = e
                end = e
                // No number is written in more groups: a longer run (a table of numbers, a hostile line) is read
                // from its first groups and is no number as a whole, so each start costs the same however long the
                // line.
                if groups.count > Self.maxGroups { truncated = true; break loop }
            } else if c == 0x2B {  // +
                guard groups.isEmpty, !plus else { break }
                plus = true
                p += 1
                while p < n, v[p] == 0x20 { p += 1 }
            } else if c == 0x28 {  // (
                guard !inParens else { return nil }
                var k = p + 1
                while k < n, v[k] == 0x20 { k += 1 }
                guard k < n, isDigit(v[k]) || (v[k] == 0x2B && groups.isEmpty) else { break }
                inParens = true
                parenDigits = 0
                pendingSep.append(c)
                p = k
            } else if c == 0x29 {  // )
                guard inParens else { break }
                guard parenDigits > 0 else { return nil }
                inParens = false
                p += 1
                end = p
                // Separator after a closing parenthesis.
                var sep: [UInt8] = [0x29]
                while p < n, v[p] == 0x20 || v[p] == 0x2D, sep.count < 4 { sep.append(v[p]); p += 1 }
                if p < n, isDigit(v[p]) || v[p] == 0x28 {
                    pendingSep = sep
                } else {
                    break loop
                }
            } else if c == 0x20 || c == 0x2D || c == 0x2E || c == 0x2F {
                if inParens {
                    guard c == 0x20 else { return nil }
                    p += 1
                    continue
                }
                var k = p
                var sep: [UInt8] = []
                while k < n, sep.count < 3, v[k] == 0x20 || v[k] == 0x2D || v[k] == 0x2E || v[k] == 0x2F {
                    sep.append(v[k]); k += 1
                }
                let punct = sep.filter { $0 != 0x20 }
                guard punct.count <= 1 else { break }
                if k < n, isDigit(v[k]) || v[k] == 0x28 {
                    pendingSep = sep
                    p = k
                } else if k < n, punct == [0x2D], isUpper(s.bytes[k]), !groups.isEmpty {
                    // Vanity letters: 1-800-FLOWERS.
                    var e = k
                    while e < n, isUpper(s.bytes[e]) { e += 1 }
                    // Only a North American number spells its last digits: an area code (after a 1 or not),
                    // perhaps the exchange, then letters, ten or eleven in all (`1245-DESA` is a branch name).
                    let digits = groups.reduce(0) { $0 + $1.end - $1.start }
                    let leadingOne = v[groups[0].start] == 0x31
                    // A 1 glued to its area code (`1800-FLOWERS`) is how toll-free numbers are written; a
                    // glued 1 before another code is a street number before a name (`1214-JINJANG UTARA`).
                    let g0 = groups[0].start
                    let glued = leadingOne && groups[0].end - g0 >= 4
                    let gluedOK = !glued || PhoneMetadata.isTollFreeNANP(areaCode: v[(g0 + 1)..<(g0 + 4)])
                    let prefixOK = digits == 3 || digits == 6 || (leadingOne && (digits == 4 || digits == 7) && gluedOK)
                    let total = digits + (e - k) - (leadingOne && digits % 3 == 1 ? 1 : 0)
                    if e - k >= 3, !isAlnum(s.at(e)), prefixOK, total >= 10, total <= 11 { vanity = (k, e) }
                    break
                } else {
                    break
                }
            } else {
                break
            }
        }
        if inParens { return nil }
        guard !groups.isEmpty else { return nil }
        if groups.first!.start > start, !plus, v[start] != 0x28 { return nil }

        // Extension at the full end.
        var extDigits: String? = nil
        var fullEnd = end
        if let vr = vanity {
            fullEnd = vr.end
        } else if let (ext, e) = parseExtension(s, from: end) {
            extDigits = ext
            fullEnd = e
        }
        // What follows the full candidate may not continue it as something else.
        let after = s.at(fullEnd)
        let after2 = s.at(fullEnd + 1)
        var fullAllowed = !truncated
        if vanity == nil {
            if isAlnum(after) || after == 0x25 || after == 0x2B || after == 0x2A || after == 0x3D || after == 0x5F
                || after == 0x40
            {
                fullAllowed = false
            }
            if (after == 0x2F || after == 0x2E || after == 0x2C || after == 0x3A || after == 0x2D)
                && isDigit(s.numAt(fullEnd + 1))
            {
                fullAllowed = false
            }
            // Joined by a hyphen to more letters or digits (`T005-2333-100731-SW-2`): a part or document code.
            if after == 0x2D && isAlnum(after2) { fullAllowed = false }
            if after == 0x2E && isAlpha(after2) { return nil }  // part of a host name or file name
            if !fullAllowed && (after == 0x2B || after == 0x2A || after == 0x3D) { return nil }  // a formula
        }

        // Bytes printed in pairs, some of them hex letters (`00 10 00 31 46 D9 E9 11`): a hex dump,
        // no part of which is read again.
        if groups.allSatisfy({ $0.end - $0.start == 2 }),
            hexPair(s, fullEnd + 1) && s.at(fullEnd) == 0x20 || hexPair(s, start - 3) && s.at(start - 1) == 0x20
        {
            return (nil, fullEnd)
        }

        // A glued label is the keyword; the number must still be written in groups of two digits
        // or more, so that codes such as `C1234567` and `P0-001-000016155-9` are not taken for one.
        if glued && (groups.count < 2 || groups.contains { $0.end - $0.start < 2 }) { return nil }
        let context = glued || labelled ? .phone : keywordContext(s, before: start)
        // A card number printed in fours, checksum or not (`3600 0000 0000 009`): no part of it is a
        // phone number either, unless a `+`, an international `0` or a phone word says so.
        let digits = groups.reduce(0) { $0 + $1.end - $1.start }
        if !plus, context != .phone, digits >= 14, digits <= 19, groups.count >= 3, v[groups[0].start] != 0x30,
            groups.dropLast().allSatisfy({ $0.end - $0.start == 4 })
        {
            return (nil, groups.last!.end)
        }

        // A date printed year first with spaces (`2018 06 18`, also before a time: `2018 06 18 10:30`) is no phone
        // number, unless a phone word says so.
        if !plus, context != .phone, groups.count == 3 || groups.count == 4 && s.at(groups[3].end) == 0x3A,
            groups[1].sepBefore == [0x20], groups[2].sepBefore == [0x20],
            groups.prefix(3).map({ $0.end - $0.start }) == [4, 2, 2],
            case let number = { (k: Int) in readInt(s, groups[k].start, groups[k].end) },
            NumericDate.yearFirstSpaced(number(0), number(1), number(2), referenceYear: referenceYear)
        {
            return (nil, groups[2].end)
        }

        // Amounts side by side (an article's or a tax table's row): no part of the run is a phone number. A run that
        // ends in an amount standing apart (`03-56360199 12.37`, a number and a price; `2.130 11.20`, a weight and a
        // price; `13.50 -13.50`) is read without it.
        let cents = Self.cents(groups)
        if !plus, context != .phone, cents.count >= 2 { return (nil, fullEnd) }
        var k = groups.count
        let amountCut =
            !plus && cents.last == groups.count - 1 && groups.count >= 3
            && [[0x20], [0x20, 0x2D]].contains(groups[groups.count - 2].sepBefore)
        if amountCut { k = groups.count - 2 }

        // Try the full candidate (or the run without its amount), then shorter ones cut at a space between groups. A
        // run that no numbering plan knows yields to a shorter one that the card's or the receipt's plan does: two
        // numbers printed side by side (`0733 582 106 0711 249 870`), the next read after the first.
        var unplaced: (Hit, Int)?
        while k >= 1 {
            let isFull = k == groups.count
            if isFull && !fullAllowed { k -= 1; continue }
            if !isFull && !(amountCut && k == groups.count - 2) {
                let sep = groups[k].sepBefore
                guard !sep.isEmpty, sep.allSatisfy({ $0 == 0x20 }) else { k -= 1; continue }
            }
            let gs = Array(groups[0..<k])
            var vanityDigits: [UInt8] = []
            if isFull, let vr = vanity { vanityDigits = s.bytes[vr.start..<vr.end].map(keypadDigit) }
            if isFull, plus, extDigits == nil, gs.count >= 3, gs.last!.sepBefore == [0x2D],
                gs.reduce(0, { $0 + $1.end - $1.start }) > 15,
                var value = evaluate(s, Array(gs.dropLast()), plus: plus, vanity: [], context: context)
            {
                // +86 20 6130-2222-8866: more digits than E.164 allows; the last dashed group is an extension.
                value.extension = s.string(gs.last!.start, gs.last!.end)
                return (Hit(type: .phone, start: start, end: fullEnd, value: value, priority: 50), fullEnd)
            }
            if let value = evaluate(s, gs, plus: plus, vanity: vanityDigits, context: context) {
                var val = value
                let e: Int
                if isFull { e = fullEnd; val.extension = extDigits } else { e = gs.last!.end }
                let hit = (Hit(type: .phone, start: start, end: e, value: val, priority: 50), e)
                // (A shorter run wins over an unplaced longer one only where the rest is a number of the plan too.)
                if val.e164 != nil {
                    guard unplaced != nil else { return hit }
                    let rest = Array(groups[k..<(amountCut ? groups.count - 2 : groups.count)])
                    if !rest.isEmpty, rest[0].sepBefore.allSatisfy({ $0 == 0x20 }),
                        evaluate(s, rest, plus: false, vanity: [], context: context)?.e164 != nil
                    {
                        return hit
                    }
                } else if unplaced == nil {
                    // (Only a run of four groups or more, no amount among them, is looked into; the longest unplaced
                    // one stands otherwise.)
                    guard !plus, k >= 4, vanity == nil, cents.isEmpty, context != .other else { return hit }
                    unplaced = hit
                }
            }
            if vanity != nil && isFull { return unplaced }
            k -= 1
        }
        return unplaced
    }

    /// Two hex digits at `i`, one of them a letter `A`–`F`, standing alone as a token.
    private func hexPair(_ s: ScanText, _ i: Int) -> Bool {
        guard i >= 0, !isAlnum(s.at(i - 1)), !isAlnum(s.at(i + 2)) else { return false }
        let a = s.at(i), b = s.at(i + 1)
        func hex(_ c: UInt8) -> Bool { isDigit(c) || (c | 0x20) >= 0x61 && (c | 0x20) <= 0x66 }
        return hex(a) && hex(b) && (!isDigit(a) || !isDigit(b))
    }

    private func keypadDigit(_ c: UInt8) -> UInt8 {
        let table: [UInt8] = Array("22233344455566677778889999".utf8)
        return isUpper(c) ? table[Int(c - 0x41)] : c
    }

    private func parseExtension(_ s: ScanText, from end: Int) -> (String, Int)? {
        var p = end
        while p < s.count, s.bytes[p] == 0x20 || s.bytes[p] == 0x2C, p - end < 2 { p += 1 }
        var q: Int
        // The extension's word in the languages cards print it in (`poste 204` in Quebec, `ramal` in Brazil, `anexo`
        // in Chile and Peru, `int.` in Argentina, `DW`/`Durchwahl` in Germany), longest first.
        if let word = Self.extensionWords.first(where: { s.matches($0, at: p) }) {
            q = p + word.utf8CodeUnitCount
        } else if s.matches("x", at: p) || s.bytes[min(p, s.count - 1)] == 0x23 && p < s.count {
            q = p + 1
        } else {
            return nil
        }
        if q < s.count, s.bytes[q] == 0x2E || s.bytes[q] == 0x3A { q += 1 }
        while q < s.count, s.bytes[q] == 0x20 { q += 1 }
        var e = q
        while e < s.count, isDigit(s.bytes[e]) { e += 1 }
        guard e > q, e - q <= 6, !isAlnum(s.at(e)) else { return nil }
        return (s.string(q, e), e)
    }

    static let extensionWords: [StaticString] = [
        "extension", "durchwahl", "poste", "ramal", "anexo", "ext", "int", "dw",
    ]

    enum Context { case phone, other, none }

    static let phoneWords: Set<String> = [
        "phone", "tel", "telephone", "telefon", "telefono", "teléfono", "téléphone", "tél", "telp", "fax",
        "mobile", "mob", "mobil", "cell", "cellphone", "handy", "call", "contact", "whatsapp", "hp", "ph",
        "phones", "landline", "telefax", "portable", "cellulare", "móvil", "movil", "toll", "hotline",
        "helpline", "dial", "tlf", "puh", "tfn", "numbers", "direct", "office", "fixe", "gsm", "natel", "cel",
        "celular"
    ]
    static let letterWords: Set<String> = ["t", "m", "f", "p", "c", "o", "w", "d", "h", "tel", "ph"]
    static let otherWords: Set<String> = [
        "account", "acct", "acc", "card", "order", "invoice", "inv", "ref", "reference", "receipt",
        "transaction", "trans", "txn", "serial", "iban", "bic", "swift", "vat", "gst", "tax", "tin",
        "ein", "ssn", "isbn", "sku", "upc", "ean", "barcode", "cvr", "siret", "siren", "ustid", "steuernummer",
        "kundennummer", "rechnung", "rechnungsnummer", "bestellung", "auftrag", "konto", "commande",
        "facture", "pedido", "factura", "ordine", "fattura", "member", "membership", "customer", "id",
        "passport", "license", "licence", "policy", "tracking", "booking", "ticket", "voucher", "batch",
        "lot", "model", "part", "item", "product", "reg", "registration", "abn", "acn", "nric", "ic",
        "sort", "routing", "aba", "check", "cheque", "bill", "trx", "approval", "auth", "terminal", "mid", "tid",
        // Firms' tax and register numbers the world over (Italy's P.IVA, Poland's NIP and REGON, Spain's CIF...).
        "iva", "piva", "nip", "regon", "krs", "cif", "nif", "kvk", "btw", "uid", "mwst", "oib", "ičo", "ico", "dič",
        "dic", "cnpj", "cpf", "rut", "rfc", "nit", "ruc", "gstin", "trn", "vkn", "afm", "cui", "orgnr", "ytunnus",
    ]

    static let phoneTable = WordTable(phoneWords)
    static let letterTable = WordTable(letterWords)
    static let otherTable = WordTable(otherWords)
    static let numberAbbreviationTable = WordTable(Set(["no", "nr"]))
    static let fillerTable = WordTable(
        Set([
            "no", "nr", "num", "number", "nummer", "numéro", "is", "my", "our", "the", "at", "on", "or", "and", "us",
            "me"
        ]))

    /// The nearest keyword in the few words before `i` on the same line. `No.` or `Nr.` right
    /// before the number names whose number it is by the word before it: a phone word
    /// (`Tel. No.`) makes it a phone number, any other word (`OMB No. 0560-0155`, `Form Nr.`)
    /// the number of that thing.
    private func keywordContext(_ s: ScanText, before i: Int) -> Context {
        let from = max(s.lineStart(i), i - 40)
        var p = i
        var seen = 0
        var numberOf = false
        // (A label of something else names the number right after it, not one after a word or a percentage that
        // follows that number: `KvK 12345678 T 020 123 4567`, `IVA 21% 912 345 678`; a number's groups are one
        // number, `ABN 61 143 589 207`. A phone's label names the numbers that follow it: `Tel 020 123 4567 / 020 765
        // 4321`.)
        var pastNumber = false
        var words = 0
        while p > from, seen < 5 {
            // Skip non-letters backwards.
            var e = p
            while e > from, !isWordLetter(s.bytes[e - 1]) {
                if isDigit(s.bytes[e - 1]) && words > 0 || s.bytes[e - 1] == 0x25 { pastNumber = true }
                e -= 1
            }
            words += 1
            if e <= from { break }
            let b = s.wordStart(before: e)
            let follower = s.at(e)
            if PhoneDetector.phoneTable.contains(s, b, e) { return .phone }
            if e - b <= 3, seen == 0, follower == 0x3A || follower == 0x2E, PhoneDetector.letterTable.contains(s, b, e)
            {
                return .phone
            }
            if !pastNumber, PhoneDetector.otherTable.contains(s, b, e) { return .other }
            if PhoneDetector.fillerTable.contains(s, b, e) {
                if seen == 0, PhoneDetector.numberAbbreviationTable.contains(s, b, e) { numberOf = true }
                seen += 1
            } else {
                if numberOf { return PhoneDetector.letterTable.contains(s, b, e) ? .phone : .other }  // `H/P No.`
                seen += 2
            }
            p = b
        }
        return .none
    }

    /// The groups that are the cents of an amount: two digits after a point, ending at a space or at the end, after a
    /// whole part that follows no point itself (`0.00 0.00`, `1.00 15.90 15.90`). A dotted phone number runs its points
    /// on (`02.123.45.67`, `06.23.66 .51.98`, `01.23.45.67.89 12.50`).
    private static func cents(_ gs: [Group]) -> [Int] {
        gs.indices.dropFirst().filter { k in
            gs[k].sepBefore == [0x2E] && gs[k].end - gs[k].start == 2
                && (k + 1 == gs.count || gs[k + 1].sepBefore == [0x20])
                && (k == 1 || gs[k - 1].sepBefore != [0x2E])
        }
    }

    /// Whether the last three groups are a calendar date joined by one mark (`-`, `/` or `.`) that
    /// does not join them to the groups before: day, month, year of two or four digits in either
    /// order of day and month, or year first.
    private static func endsInDate(_ s: ScanText, _ gs: [Group]) -> Bool {
        let tail = gs.suffix(3)
        let mark = tail.last!.sepBefore
        guard mark.count == 1, mark != [0x20], tail.dropFirst().allSatisfy({ $0.sepBefore == mark }),
            !tail.first!.sepBefore.contains(mark[0])
        else { return false }
        let v = tail.map { readInt(s, $0.start, $0.end) }
        let l = tail.map { $0.end - $0.start }
        func dayMonth(_ d: Int, _ m: Int) -> Bool { (1...31).contains(d) && (1...12).contains(m) }
        switch dateShape(l) {
        case .yearLast?:
            return (l[2] == 2 || (1900...2099).contains(v[2])) && (dayMonth(v[0], v[1]) || dayMonth(v[1], v[0]))
        case .yearFirst?: return (1900...2099).contains(v[0]) && dayMonth(v[2], v[1])
        case nil: return false
        }
    }

    /// Where a date's year stands, judged by the lengths of its three digit groups: after a day and a month of one or
    /// two digits, in two or four (`16-04-2010`, `04/21/20`), or before them in four (`2010.04.16`).
    private enum DateShape { case yearLast, yearFirst }

    private static func dateShape(_ l: [Int]) -> DateShape? {
        if l[0] <= 2 && l[1] <= 2 && (l[2] == 4 || l[2] == 2) { return .yearLast }
        if l[0] == 4 && l[1] <= 2 && l[2] <= 2 { return .yearFirst }
        return nil
    }

    private func evaluate(_ s: ScanText, _ gs: [Group], plus: Bool, vanity: [UInt8], context: Context) -> EntityValue? {
        var all: [UInt8] = []
        var kept: [UInt8] = []  // without a "(0)" trunk group
        for (idx, g) in gs.enumerated() {
            let d = Array(s.num[g.start..<g.end])
            all += d
            let isTrunkZero = g.inParens && d == [0x30] && idx > 0
            if !isTrunkZero { kept += d }
        }
        all += vanity
        kept += vanity
        let total = all.count
        let seps = gs.dropFirst().map { $0.sepBefore }
        let punct = Set(seps.flatMap { $0.filter { $0 != 0x20 && $0 != 0x28 && $0 != 0x29 } })
        let hasParens = gs.contains { $0.inParens }
        let separated = gs.count >= 2

        if !plus {
            if context == .other { return nil }
            if total < shortest || total > 17 { return nil }
            if total < 7 && context != .phone { return nil }
            // Dates: 16-04-2010, 2010.04.16, 04/21/2020.
            if gs.count == 3, !hasParens, punct.count == 1, !punct.contains(0x20), seps.allSatisfy({ $0.count == 1 }),
                Self.dateShape(gs.map { $0.end - $0.start }) != nil
            {
                return nil
            }
            // A number, then a date in another separator (`567455 22-11-17`: a receipt's number and its
            // day). A phone number's last groups are a valid date this way only by chance, and a label
            // or brackets around an area code still read it (`(4722) 12-11-17`).
            if gs.count >= 4, context != .phone, !hasParens, PhoneDetector.endsInDate(s, gs) { return nil }
            // US social security numbers 123-45-6789.
            if gs.count == 3, punct == [0x2D], gs.map({ $0.end - $0.start }) == [3, 2, 4] { return nil }
            // A decimal number; after a phone's label, ten digits or more are a number whose first dot OCR lost
            // (`Tel 512637.4408`).
            if gs.count == 2, punct == [0x2E], seps.allSatisfy({ $0 == [0x2E] }), context != .phone || total < 10 {
                return nil
            }
            // Payment cards.
            if total >= 13, total <= 19, luhn(all), gs.count >= 3, gs.allSatisfy({ $0.end - $0.start >= 4 }) {
                return nil
            }
            // An IPv4 address: four dotted numbers up to 255, none written with a leading zero
            // (`129.126.118.1`); a phone number dotted in four groups pads them (`02.123.45.67`).
            if gs.count == 4, punct == [0x2E], seps.allSatisfy({ $0 == [0x2E] }),
                gs.allSatisfy({ g in
                    let d = s.num[g.start..<g.end]
                    return d.count <= 3 && (d.count == 1 || d.first != 0x30)
                        && Int(String(decoding: d, as: UTF8.self))! <= 255
                })
            {
                return nil
            }
        } else if total < 7 || total > 15 {
            return nil
        }

        // International: +CC, 00CC, 011CC, or the region's own prefix.
        var intl: [UInt8]? = nil
        if plus {
            intl = kept
        } else if total >= 10, all.starts(with: [0x30, 0x30]), all[2] != 0x30 {
            intl = Array(kept.dropFirst(2))
        } else if total >= 12, all.starts(with: [0x30, 0x31, 0x31]), region == nil || region == "US" || region == "CA" {
            intl = Array(kept.dropFirst(3))
        } else if let r = region, let plan = PhoneMetadata.plans[r], plan.idd.count > 2,
            all.starts(with: Array(plan.idd.utf8)), total >= plan.idd.count + 8
        {
            intl = Array(kept.dropFirst(plan.idd.count))
        }
        if let d = intl {
            guard let (cc, rest0) = PhoneMetadata.splitCallingCode(d) else { return nil }
            var rest = rest0
            let main = PhoneMetadata.mainRegion[cc]
            if let m = main, let plan = PhoneMetadata.plans[m], plan.trunk == "0", !plan.keepsLeadingZero,
                rest.first == 0x30
            {
                rest.removeFirst()
            }
            guard rest.count >= 4, cc.count + rest.count <= 15, cc.count + rest.count >= 7 else { return nil }
            // +1 is one plan with ten-digit numbers: `00 10 00 31 46` reads as none.
            if cc == "1", rest.count != 10 { return nil }
            if !plus && !separated && context != .phone { return nil }
            let nsn = String(decoding: rest, as: UTF8.self)
            let own = cc == "1" ? PhoneLineKind.region(of: "+1" + nsn) : nil
            return EntityValue(e164: "+" + cc + nsn, national: nsn, region: own ?? main)
        }

        let keyword = context == .phone
        let trunk0 = all.first == 0x30
        // Ten digits of the North American plan in two groups without a label part where the plan does, after the area
        // code or the exchange (`415 5551234`, `415555 1234`, a leading 1 with either): `598336001 6` is an article's
        // code and its count.
        // With three groups or more too the first ends where the plan parts, after the leading 1 or the area code
        // (`1 800 555 1234`, `1800 7493 524`), not as a Hungarian tax number does (`12345678-2-41`).
        let nanpParts = total == 11 ? [1, 4, 7] : [3, 6]
        let nanpShaped = gs.count == 1 || keyword || hasParens || nanpParts.contains(gs[0].end - gs[0].start)
        let nanp =
            nanpShaped
            && (PhoneMetadata.isNANP(all)
                || (total == 11 && all[0] == 0x31 && PhoneMetadata.isNANP(Array(all.dropFirst()))))
        // Bare digit runs need a keyword, or a trunk prefix and a plausible length.
        if !separated && vanity.isEmpty && !keyword && !(trunk0 && total >= 10 && total <= 12) { return nil }

        // A slash parts an area code with its trunk 0 from the number (`030/1234567`); without the 0 or a label it
        // parts a road's numbers, before a postal code (`JALAN PERMAS 10/10 81750`), in any region.
        if !keyword && !hasParens && !trunk0 && punct.contains(0x2F) { return nil }

        // No number is printed with a lone digit after its other groups, unless a label says it is one: a long code
        // and a count (`0586394260468 1`, an article's EAN and its quantity).
        if !keyword && !hasParens, gs.count >= 2, let last = gs.last, last.end - last.start == 1 { return nil }

        // National number of the default region. Where numbers are dialled with a trunk 0 at home, two groups
        // without the 0 and without a label are not one: a house number and a postal code (`Tondestrasse 120 63974`),
        // an article's code (`187057-75`). Service numbers of ten digits from a 1 are dialled so (`1300 123456`,
        // `1800 123456` in Australia and Malaysia).
        let bareTwoGroups = gs.count == 2 && !(all.first == 0x31 && total == 10)
        // (A mobile printed without the 0 where fixed lines keep it is the region's too: India's `98765 43210`.)
        // (Without a label only in the groups it is printed in, `98765 43210`, `987 654 3210`; not `8901 234567`.)
        let mobileGroups = keyword || [[5, 5], [3, 3, 4]].contains(gs.map { $0.end - $0.start })
        let bareMobile = !trunk0 && mobileGroups
            && region.flatMap { PhoneMetadata.plans[$0] }?.isMobileWithoutTrunk(all) == true
        // There, too, a number printed without the 0 is none of the region's: a number from abroad, written its own
        // country's way (`(212) 555-0147` on a card whose e-mail is British), or a local number without its area
        // code. Service numbers from a 1 are printed without it (`1300 123456`, `13 12 34` in Australia), and so are
        // all numbers in the few regions whose national format leaves the 0 out (Brazil's `(11) 2345-6789`).
        if let r = region, let plan = PhoneMetadata.plans[r],
            !(plan.printsTrunkZero && !trunk0 && all.first != 0x31) || bareMobile,
            keyword || !bareTwoGroups || plan.trunk != "0" || plan.keepsLeadingZero || trunk0 || bareMobile
        {
            var nsn = all
            if plan.keepsLeadingZero {
                // keep as printed
            } else if !plan.trunk.isEmpty, all.starts(with: Array(plan.trunk.utf8)),
                all.count - plan.trunk.count >= plan.minLength
            {
                nsn = Array(all.dropFirst(plan.trunk.count))
            }
            let ok =
                plan.lengths.contains(nsn.count) && (plan.keepsLeadingZero || nsn.first != 0x30)
                && (plan.callingCode != "1" || nanpShaped && PhoneMetadata.isNANP(nsn))
                && (keyword || plan.bareFirstDigits.map { nsn.first.map($0.contains) ?? false } ?? true)
            if ok {
                let ns = String(decoding: nsn, as: UTF8.self)
                return EntityValue(e164: "+" + plan.callingCode + ns, national: ns, region: r)
            }
        }

        // No region, or not valid there: generic evidence.
        guard total >= 8, total <= 15, !trunk0 || total <= PhoneMetadata.longestWithLeadingZero else { return nil }
        if !keyword && !hasParens && !trunk0 {
            // 1 234 567 looks like a number with thousands separators.
            if punct.isEmpty, gs.count >= 3, gs.first!.end - gs.first!.start <= 3,
                gs.dropFirst().allSatisfy({ $0.end - $0.start == 3 })
            {
                return nil
            }
            let shaped = nanp || gs.count >= 3 || !vanity.isEmpty
            if !shaped { return nil }
        }
        if nanp {
            let nsn = total == 11 ? Array(all.dropFirst()) : all
            let ns = String(decoding: nsn, as: UTF8.self)
            // (The plan's other regions by their area codes' ranges: `(868)` is Trinidad's.)
            let reg = PhoneLineKind.region(of: "+1" + ns) ?? ((region == "CA") ? "CA" : "US")
            return EntityValue(e164: "+1" + ns, national: ns, region: reg)
        }
        return EntityValue(national: String(decoding: all, as: UTF8.self))
    }
}

/// The Luhn checksum used by payment cards.
func luhn(_ digits: [UInt8]) -> Bool {
    var sum = 0
    for (k, c) in digits.reversed().enumerated() {
        var d = Int(c) - 48
        if k % 2 == 1 { d *= 2; if d > 9 { d -= 9 } }
        sum += d
    }
    return sum % 10 == 0
}
