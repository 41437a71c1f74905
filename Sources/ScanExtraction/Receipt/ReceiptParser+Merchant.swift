import Foundation
import ScanDetectors
import ScanModel

// Merchant: name, address, phone and tax number, from the header of the receipt.
extension ReceiptParser {
    /// Legal forms that end a company name, from the locale files. The two-letter ones (`CO`, `SA`, `PT`, `AG`)
    /// also abbreviate ordinary words, and are too weak alone to mark a company.
    static let legalSuffixes = PhraseSet(lexicon.legalForms.filter { $0.count >= 3 })
    /// Words that may start the second printed line of a company name (`POPULAR BOOK` / `CO. (M) SDN BHD`): the
    /// first word of every legal form.
    static let legalSuffixWords = Set(lexicon.legalForms.compactMap { $0.split(separator: " ").first.map(String.init) })

    /// A registration number on its own line, with or without its label: `(860671-D)`, `BR NO.: 0195932-X`,
    /// `CO. REG : 86Q671-D`, `002693074-K`, its brackets also as OCR reads them (`<484297-M>`, `[860671-D]`).
    static func isRegistrationLine(_ l: AnalyzedLine) -> Bool {
        let t = l.text.trimmingCharacters(in: .whitespaces)
        guard Text.range(t, #"\d{5,}"#) != nil, l.entities(.phone).isEmpty,
            !Text.hasAny(l.key, streetWordsButNo)
        else { return false }
        return Text.range(
            t, #"^[(<\[]?[A-Z .:()]{0,16}[:.\s]*[(<\[]?[A-Z]{0,3}\d{5,}[A-Z0-9]*(?:[-\s]*[A-Z])?\s*[)>\]]?$"#,
            caseInsensitive: true
        ) != nil
    }

    /// Street words but `NO` (`No.` also numbers registrations and documents).
    static let streetWordsButNo = PhraseSet(streetWords.filter { $0 != "NO" })

    /// Single words that may open an address line (`NO`, `LOT`, `SUITE`, `JALAN`, `VIA`).
    static let addressFirstWords = Set(streetWords.filter { !$0.contains(" ") })

    /// Where a street address starts: a house number, a unit, lot or level, or a street word next to digits.
    static func startsAddress(_ l: AnalyzedLine) -> Bool {
        let words = l.key.split(separator: " ")
        guard let first = words.first else { return false }
        if first.first?.isNumber ?? false { return true }
        if addressFirstWords.contains(String(first)) && Text.digitCount(l.text) > 0 { return true }
        return Text.hasAny(l.key, streetWordsButNo) && Text.digitCount(l.text) > 0 && !isRegistrationLine(l)
    }

    /// Full-width parentheses as ASCII, a middle dot between words as a space, and a label
    /// before a company name (`Owned by:`, `Dimiliki:`) dropped.
    static func normalizedName(_ raw: String) -> String {
        // (Each rewrite runs only where its character is, found by bytes: this runs for every name candidate.)
        var name = raw
        if Text.contains(name, "（") || Text.contains(name, "）") {
            name = name.replacingOccurrences(of: "（", with: "(").replacingOccurrences(of: "）", with: ")")
        }
        name = lexicon.withoutStrayAccents(name)
        if Text.contains(name, "·") || Text.contains(name, "•") {
            name = Text.replacing(name, #"(?<=\w)\s*[·•]\s*(?=\w)"#, with: " ")
        }
        // An underscore is OCR's reading of a low dot or of a gap: `TA _K` is `TA .K`, `AIK_HUAT` is `AIK HUAT`.
        if Text.contains(name, "_") {
            name = Text.replacing(name, #"(?<=\s)_(?=\p{L})"#, with: ".")
            name = Text.replacing(name, #"(?<=\p{L})_(?=\p{L})"#, with: " ")
        }
        // A possessive's s set apart by a gap OCR read as a space: `Friendly Red' s` and `INGMI 'S` are `Friendly
        // Red's`, `INGMI'S`.
        if Text.contains(name, "' ") || Text.contains(name, "’ ") {
            name = Text.replacing(name, #"(?<=\p{L}['’])\s+(?=[sS]\b)"#, with: "")
        }
        if Text.contains(name, " '") || Text.contains(name, " ’") {
            name = Text.replacing(name, #"(?<=\p{L})\s+(?=['’][sS]\b)"#, with: "")
        }
        if Text.contains(name, ":"), let m = Text.range(name, #"^[^:]{2,20}:\s*"#),
            Text.hasAny(Text.key(String(name[m.upperBound...])), legalSuffixes),
            !Text.hasAny(Text.key(String(name[..<m.upperBound])), legalSuffixes)
        {
            name = String(name[m.upperBound...])
        }
        if Text.contains(name, "0") { name = lettersForZeros(name) }
        // A zero alone before a word of letters is the one-letter word O (`0 Cantinho`, `0 Sole Mio`): no name opens
        // with the number nought.
        if name.hasPrefix("0 "), name.dropFirst(2).first?.isLetter == true,
            OCRConfusions.shipped.confusable(UInt8(ascii: "0"), UInt8(ascii: "O")) {
            name = "O" + name.dropFirst()
        }
        // A zero-padded code before the name (`#000002 BAIFU (M) Sdn Bhd`): a till's number the layout joined to it.
        if name.first == "#" || name.first == "0", let m = Text.range(name, #"^#?0\d{2,}\s+(?=\p{L})"#) {
            name = String(name[m.upperBound...])
        }
        return withoutTrailingCode(lexicon.mendingLegalForm(name))
    }

    /// A name that ends with its legal form and then numbers with a point, hyphen or slash in them (`PRINT EXPERT SDN
    /// BHD 2.1`, `SUPER.SEVEN CASH & CARRY SDN 3HD 28-05`), cut after the form: a code or date the layout joined to its
    /// line. A plain number stays (`TRIPLE SIX POINT ENTERPRISE 666`).
    static func withoutTrailingCode(_ name: String) -> String {
        let words = name.split(separator: " ")
        var end = words.count
        while end > 1, !words[end - 1].contains(where: \.isLetter), words[end - 1].contains(where: { !$0.isNumber }) {
            end -= 1
        }
        guard end < words.count, end >= 2 else { return name }
        let head = words[..<end].joined(separator: " ")
        func endsWithForm(_ s: String, words: Int) -> Bool { legalSuffixes.ends(Text.key(s), minWords: words) }
        if endsWithForm(head, words: 1) { return head }
        // A form misread in one character counts when it has two words or more (`SDN 8HD`): `APPLE PIE` is no `PTE`.
        let mended = lexicon.mendingLegalForm(head)
        return endsWithForm(mended, words: 2) ? mended : name
    }

    /// Merchant name and address are the best-scored of their candidates (`ReceiptFieldFeatures`), the tax number the
    /// first labelled one above the summary. The lines of the name and of the address read are returned, for
    /// `setMerchantPhone` and `slipTop`.
    func parseMerchant(
        _ lines: [AnalyzedLine], features: ReceiptFieldFeatures, limit: Int, into r: inout Receipt,
        candidates: inout [ReceiptField: [FieldCandidate]]
    ) -> (name: Range<Int>?, address: Range<Int>?) {
        let header = features.headerLimit(summaryStart: limit)
        let names = ranked(features.companyCandidates(limit: header), .company)
        candidates[.company] = names
        var nameLines: Range<Int>?
        if let first = names.first(where: { !Self.namesNoShop($0, lines) && !Self.underTheLastSum($0, lines, limit) }) {
            let best = Self.withItsLegalForm(first, among: names, lines: lines)
            r.merchant.name = best.value
            r.provenance["merchant.name"] = Self.scored(best, over: names.first { $0.value != best.value })
            nameLines = best.lines
        }
        let addresses = ranked(features.addressCandidates(limit: header), .address)
        candidates[.address] = addresses
        // The address shares no line with the name, holds no line that is none of an address's, and is no footer.
        let apart = addresses.filter { c in
            (nameLines.map { !c.lines.overlaps($0) } ?? true) && !Self.holdsNoAddressLine(c, lines)
                && !Self.underTheLastSum(c, lines, limit)
        }
        if var best = apart.first {
            // A Japanese postcode on its own line right over the address, its mark misread (`T619-4204`, then
            // `埼玉県...`), shows the ranker no postcode; it opens the address all the same.
            if best.lines.lowerBound > 0,
                Text.range(lines[best.lines.lowerBound - 1].text, #"^\S?\s?\d{3}-\d{4}$"#) != nil,
                let wider = apart.first(where: {
                    $0.lines == (best.lines.lowerBound - 1)..<best.lines.upperBound
                        && Self.postalMarkRead($0.value).hasPrefix("〒")
                })
            {
                best = wider
            }
            // (The mark read on a line of its own over the address's: `F229-5214`, then `兵庫県神戸市...`.)
            r.merchant.address = Self.withoutSeparatorMarks(Self.postalMarkRead(best.value))
            r.provenance["merchant.address"] = Self.scored(best, over: apart.dropFirst().first)
        }

        // Tax or registration number.
        if let t = Self.merchantTaxId(lines, summaryStart: limit) {
            r.merchant.taxId = t.value
            r.provenance["merchant.taxId"] = lines[t.line].line.provenance()
        }
        return (nameLines, apart.first?.lines)
    }

    /// A candidate with a line that prints an amount (`Card 50.00`, the slip before's payment), a field's label and
    /// its value, in any language (`Fieldmogor: Nia`, a waiter), a locale's closing words (`Obrigado pela
    /// preferência`, the slip before's last line over this one's shop), a web address with its `www.` or scheme
    /// (`www.maris.it`, that slip's footer) or an exclamation (`Lustonka Juncas!`, a greeting in any language) names
    /// no shop: no name of the 2,700 keyed receipts holds an amount, a colon, a closing, such an address
    /// (`ECOSWAY.COM SDN BHD` holds a domain alone) or an exclamation mark. Nor does a weight and its price a unit
    /// alone (`1,709 kg x 3,30 €/kg`, the top line of a screenshot cropped under the header). Such spans stay
    /// candidates, so the ranker still learns from them what a name is not; they are never chosen.
    static func namesNoShop(_ c: FieldCandidate, _ lines: [AnalyzedLine]) -> Bool {
        lines[c.lines].contains {
            $0.amount != nil || ReceiptFieldFeatures.wordColonValue($0.text) || Text.hasAny($0.key, lexicon.closings)
                || Text.range($0.text, #"(?i)\bwww\.|\bhttps?://"#) != nil || $0.text.hasSuffix("!")
                || weighedAlone($0.text)
        }
    }

    /// Whether a line is a weight and its price a unit, and nothing more of two letters or more.
    static func weighedAlone(_ text: String) -> Bool {
        guard let (m, _) = weighed(text) else { return false }
        var rest = text
        rest.removeSubrange(m)
        return Text.letterCount(rest) < 2
    }

    /// Whether a candidate stands under the summary with nothing priced after it: the page shows no header (a
    /// screenshot scrolled down to the sums, its app's buttons under them: `Home Scan Bons Profil`; a crop of the
    /// items and sums, `TOTAL QTY 2 ITEM 2 PCS`), and no shop's name or address follows a slip's sums but in the header
    /// of the next slip, whose articles and sums come after it.
    static func underTheLastSum(_ c: FieldCandidate, _ lines: [AnalyzedLine], _ summaryStart: Int) -> Bool {
        c.lines.lowerBound >= summaryStart && !lines[c.lines.upperBound...].contains { $0.amount != nil }
    }

    /// A candidate address with a line no address prints, in whatever language: one word and then groups of digits,
    /// six or more (`Varten 29 724 67`, a phone number under a label no locale file knows); a label of one or two
    /// words and a one-word value of letters (`Fieldmogor: Ben`, `Betjent av: Pia`, a waiter); a weight and its price a
    /// unit alone (`1,709 kg x 3,30 €/kg`); or, under the line that
    /// ends the address with its postcode and town (`82535 Luberpet`, `TONELSIL 83, 48857 ALWICKMAR`), one word and a
    /// number of up to three digits (`Borol 9`, a table's or a till's). Such spans stay candidates; they are never
    /// chosen.
    static func holdsNoAddressLine(_ c: FieldCandidate, _ lines: [AnalyzedLine]) -> Bool {
        c.lines.contains { k in
            if ReceiptFieldFeatures.wordColonValue(lines[k].text, twoWordLabel: true, lettersOnly: true)
                || weighedAlone(lines[k].text)
            {
                return true
            }
            let words = lines[k].text.split(separator: " ")
            if words.count >= 3, words[0].allSatisfy(\.isLetter),
                words.dropFirst().allSatisfy({ $0.allSatisfy(\.isNumber) }),
                words.dropFirst().map(\.count).reduce(0, +) >= 6
            {
                return true
            }
            // (Not a unit's line under a US street's, whose house number comes first: `4021 N Elbergro Ave`, then
            // `STE 33`; nor a street's line under a town's.)
            guard k > c.lines.lowerBound, words.count == 2, let head = words.first, let last = lines[k - 1].key
                .split(separator: " ").last,
                !streetWordSet.contains(Text.key(String(head))), !streetWordSet.contains(String(last))
            else { return false }
            return Text.range(lines[k].text, #"^\p{L}+\.?\s\d{1,3}$"#) != nil
                && Text.range(lines[k - 1].text, #"(?:^|\s)\d{4,5}\s+\p{L}[\p{L}\s'-]*$"#) != nil
        }
    }

    /// Where this slip's header starts when lines with an amount stand above it: the merchant's name, in the top
    /// third of the lines and under the slip before's closing words if any, with its address at most two lines under
    /// it. A scan of a till's roll catches the tail of the slip before over the header; where no locale file knows
    /// its words (`0lpet 170.00`, `Norbergwen 1.44`, then this slip's shop) no role keeps its amounts out, and they
    /// are no articles, total or payment of this slip. `tail` otherwise: no name, no address under it (with a number
    /// and no amount), nothing priced above it, or what a tail does not print: more than four amounts, or a count
    /// with its price (`1x 22.000 22.000` over `Ice t grentea`, an article the name ranker took for the shop; a
    /// `PLASTIK KECIL 0` it took for an address).
    static func slipTop(
        _ lines: [AnalyzedLine], header: (name: Range<Int>?, address: Range<Int>?), tail: Int, wholeUnits: Bool
    ) -> Int {
        guard let name = header.name, let address = header.address, name.lowerBound > tail,
            3 * name.lowerBound <= lines.count, address.lowerBound >= name.upperBound,
            address.lowerBound - name.upperBound <= 2,
            lines[address].allSatisfy({ $0.amount == nil }),
            lines[address].contains(where: { Text.digitCount($0.text) > 0 })
        else { return tail }
        let priced = lines[tail..<name.lowerBound].filter { ($0.amount?.minor ?? 0) != 0 }
        guard (1...4).contains(priced.count),
            !priced.contains(where: { item(from: $0, wholeUnits: wholeUnits).quantity != nil })
        else { return tail }
        return name.lowerBound
    }

    /// The name `best` with the line under it when that line is a legal form alone (`Lamerka Drogisterij` / `V.0.F.`,
    /// `RUMAH MAKAN BERKELFIELD` / `CV`): a form names no one by itself, so it ends the name above it, whatever the
    /// ranker made of the two spans. Not under a name that ends with its form already (`SUN WONG KUT SDN BHD` over
    /// `Company No 20965-`).
    static func withItsLegalForm(_ best: FieldCandidate, among names: [FieldCandidate], lines: [AnalyzedLine])
        -> FieldCandidate
    {
        let next = best.lines.upperBound
        guard next < lines.count, !Text.hasAny(Text.key(best.value), legalSuffixes),
            let longer = names.first(where: { $0.lines == best.lines.lowerBound..<(next + 1) })
        else { return best }
        let shortKey = Text.key(best.value), longKey = Text.key(longer.value)
        guard longKey.hasPrefix(shortKey + " ") else { return best }
        let tail = String(longKey.dropFirst(shortKey.count + 1))
        // The whole line below is the form, as the name's span read it (a zero mended to an O: `V.0.F.`).
        guard lexicon.legalForms.contains(tail),
            Text.letterCount(lines[next].text) + Text.digitCount(lines[next].text) == Text.letterCount(tail)
        else { return best }
        return longer
    }

    /// Whether the words right before `phone` on its line name a tax or company number (`P.IVA 01234567890`, `NIP
    /// 525-000-12-34`, `SIRET`): such a number may read as a phone number, but it is the merchant's tax id.
    static func followsTaxIdLabel(_ phone: Entity, on l: AnalyzedLine) -> Bool {
        // The words after the last number before the phone: `CIF B12345678 Tel: 912345678` is a phone, its label the
        // phone's own.
        let before = Text.key(String(l.text.unicodeScalars.prefix(phone.range.start))).split(separator: " ")
        let label = before.reversed().prefix { !$0.contains(where: \.isNumber) }.reversed().suffix(3)
            .joined(separator: " ")
        return !label.isEmpty && Text.hasAny(label, taxIdWords)
    }

    /// The merchant's phone: the first phone number printed in the upper part, on no line of an article (`639285 1
    /// 47.000`, an article's code, count and price, reads as a phone number too). Failing one, a bare run of digits
    /// beside the address (`7037179740` under the town), when no line says so with a label or separators: one line
    /// above the address to two lines under it. `articleLines` are the lines the items were read from.
    static func setMerchantPhone(
        _ lines: [AnalyzedLine], limit: Int, address: Range<Int>?, articleLines: Set<Int>,
        into r: inout Receipt
    ) {
        let top = min(lines.count, max(6, min(limit, lines.count * 2 / 5 + 2)))
        let phones = lines.prefix(max(top + 4, limit)).indices.lazy.filter { !articleLines.contains($0) }
            .compactMap { i in
                lines[i].entities(.phone).first { !followsTaxIdLabel($0, on: lines[i]) }.map { (lines[i], $0) }
            }
        // A number under a phone's label (`Tel: 246 764 764`) before one read as a phone without it (a postcode and
        // house number in the address above: `Estrada Quinni, 56 6925-727 Berggorham`).
        let printed = phones.first { l, p in labelledPhone(p, on: l) } ?? phones.first
        let near = address.map { max(0, $0.lowerBound - 1)..<min(lines.count, $0.upperBound + 2) } ?? 0..<0
        guard let (l, p) = printed ?? near.lazy.compactMap({ i in lines[i].standingPhone.map { (lines[i], $0) } }).first
        else { return }
        r.merchant.phone = p.text
        r.merchant.phoneE164 = p.value.e164
        r.provenance["merchant.phone"] = l.provenance(of: p)
    }

    /// Whether a contact label other than a fax's (`TEL`, `Tel.:`, `Telefone`, `电话`) is printed right before the phone
    /// number `p` on `l`.
    static func labelledPhone(_ p: Entity, on l: AnalyzedLine) -> Bool {
        let printed = String(String.UnicodeScalarView(l.text.unicodeScalars.prefix(p.range.start)))
        let before = Text.key(printed)
        // A label glued on (`HP01-188357`) is as likely a code's letters (a bill number).
        guard printed.last?.isLetter == false, let last = before.split(separator: " ").last, !last.hasSuffix("FAX")
        else { return false }
        return lexicon.words(.contact).begins(String(last))
    }

    /// A chosen candidate's provenance: its confidence is the OCR's, lowered when the runner-up scored close.
    static func scored(_ best: FieldCandidate, over second: FieldCandidate?) -> Provenance {
        var p = best.provenance
        let margin = second.map { best.score - $0.score } ?? 4
        p.confidence = (p.confidence * sigmoid(2 * margin) * 1000).rounded() / 1000
        return p
    }

    /// A company name printed on `lines`: the lines joined, a registration number after it dropped
    /// (`(123456-X)`, `Co. Reg. 1234`), a label before it dropped.
    static func companyName(_ lines: [AnalyzedLine]) -> String {
        // A dash that ends a line before the legal suffix (`POPULAR BOOK-` / `CO. (M) SDN BHD`) breaks no word.
        var name = lines.enumerated().map { n, l in
            let t = Text.clean(n == lines.count - 1 ? withoutTillColumn(l) : l.text)
            guard n + 1 < lines.count, t.hasSuffix("-"), t.count > 1,
                let next = lines[n + 1].key.split(separator: " ").first, legalSuffixWords.contains(String(next))
            else { return t }
            return Text.clean(String(t.dropLast()))
        }.joined(separator: " ")
        // A bare number that ends the name belongs to it (`TRIPLE SIX POINT ENTERPRISE 666`) unless it looks like a
        // registration: in parentheses, after a label, five digits or more, or with a check letter.
        if name.hasSuffix(",") || name.hasSuffix(";") { name = Text.clean(Text.replacing(name, #"[,;]+$"#, with: "")) }
        if mayEndWithRegistration(name), let paren = Text.range(name, registrationSuffix, caseInsensitive: true),
            paren.lowerBound > name.startIndex
        {
            name = String(name[..<paren.lowerBound])
        }
        return normalizedName(name)
    }

    /// A line's text without a till's label and its number printed in a column of their own at its end (`Tamnelti Ol`
    /// ... `Caixa 3`, a photo's rows merged across the header): a document label word (`lexicon`'s `document`) and a
    /// number of one to four digits after a gap of three text heights or more.
    static func withoutTillColumn(_ l: AnalyzedLine) -> String {
        let words = l.line.words
        guard words.count >= 3, let number = words.last, number.text.count <= 4, number.text.allSatisfy(\.isNumber)
        else { return l.text }
        let label = words[words.count - 2], before = words[words.count - 3]
        guard label.place.minX - before.place.maxX >= 3 * max(1, l.line.printHeight),
            lexicon.words(.document).begins(Text.key(label.text))
        else { return l.text }
        return words.dropLast(2).map(\.text).joined(separator: " ")
    }

    /// The name cut after its last legal form, when a registration or branch code follows it
    /// (`KING'S CONFECTIONERY S/B 273500-U (KSB)` is `KING'S CONFECTIONERY S/B`); nil when the name ends with its
    /// legal form already, when no code (four digits or more, or a parenthesis) follows one, or when none ends a
    /// prefix.
    static func cutAtLegalForm(_ name: String) -> String? {
        guard name.utf8.contains(UInt8(ascii: "(")) || Text.digitCount(name) >= 4 else { return nil }
        let words = name.split(separator: " ")
        guard words.count >= 2 else { return nil }
        // The key of the first `end` words is their own keys' words, in order: `keyWords[..<firstKeyWord[end]]`.
        var keyWords: [Substring] = [], firstKeyWord = [0]
        for w in words {
            keyWords += Substring(Text.key(String(w))).split(separator: " ")
            firstKeyWord.append(keyWords.count)
        }
        guard !legalSuffixes.ends(words: keyWords[...]) else { return nil }
        for end in stride(from: words.count - 1, through: 1, by: -1) {
            if legalSuffixes.ends(words: keyWords[..<firstKeyWord[end]]) {
                let rest = words[end...].joined(separator: " ")
                guard Text.range(rest, #"\d{4,}|\("#) != nil else { return nil }
                return Text.clean(words[..<end].joined(separator: " "))
            }
        }
        return nil
    }

    /// Whether `name` ends as every match of `registrationSuffix` ends: three digits, then no more than separators
    /// (`-`, `·`, `.`, spaces), one letter and a closing parenthesis. The cheap test before the expression, which
    /// runs for every name candidate.
    static func mayEndWithRegistration(_ name: String) -> Bool {
        var end = name.endIndex
        func drop(most: Int = .max, _ test: (Character) -> Bool) {
            var n = 0
            while n < most, end > name.startIndex, test(name[name.index(before: end)]) {
                end = name.index(before: end); n += 1
            }
        }
        drop(\.isWhitespace)
        drop(most: 1) { $0 == ")" }
        drop(\.isWhitespace)
        drop(most: 1, \.isLetter)
        drop { $0.isWhitespace || $0 == "-" || $0 == "·" || $0 == "." }
        let digits = name[..<end].suffix(3)
        return digits.count == 3 && digits.allSatisfy(\.isNumber)
    }

    static let registrationSuffix =
        #"\s*(?:\(\s*(?:CO\.?\s*REG\.?|ROC|GST)?[\s.:]*[A-Z]?\d{3,}[\s\-·.]*[A-Z]?\s*\)?|(?:CO\.?\s*REG\.?|ROC|GST)[\s.:]*\d{3,}[\s\-]*[A-Z]?|[A-Z]?\d{5,}(?:[\s\-·.]*[A-Z])?\s*\)?|\d{3,}\s*-\s*[A-Z]\s*\)?)$"#

    /// A line as the last of an address: a label merged on (`... 81100 JOHOR. TEL: 07-123`, `... GST ID: 0012`) and
    /// what follows it are left out. Also says whether a part was left out. A number read as a phone with no label
    /// before it and a word after it that is no label (`Estrada Quinni, 56 6925-727 Berggorham`: a postcode and the
    /// town) is the address's.
    static func addressLastPart(_ last: AnalyzedLine) -> (String, Bool) {
        let scalars = last.text.unicodeScalars
        if let phone = last.entities.first(where: { $0.type == .phone })?.range, phone.start > 8 {
            let before = String(String.UnicodeScalarView(scalars.prefix(phone.start)))
            let cut = Text.range(before, #"\s*(TEL|PHONE|PH|T)\s*[.:]?\s*$"#, caseInsensitive: true)
            let after = Text.key(String(String.UnicodeScalarView(scalars.dropFirst(phone.end))))
            let word = after.split(separator: " ").first.map(String.init) ?? ""
            if cut != nil || Text.letterCount(word) < 3 || strongStop.begins(word) {
                return (Text.clean(cut.map { String(before[..<$0.lowerBound]) } ?? before), true)
            }
        }
        if let cut = labelCut(last.text), cut > 8 {
            return (Text.clean(String(String.UnicodeScalarView(last.text.unicodeScalars.prefix(cut)))), true)
        }
        return (Text.clean(last.text), false)
    }

    /// Abbreviations of four letters or more that end with a full stop in addresses (the locale files'
    /// `addressAbbreviations`).
    static let longAbbreviations = lexicon.addressAbbreviations

    /// OCR's punctuation slips in an address, put right: a doubled stop or comma (`SELATAN,,`,
    /// `LUMPUR..`) is one, and a full stop between two parts of the address after a whole word or a
    /// number (`TAMAN SRI PUTRA. 81200`, `NO.32 & 33. JALAN`) is a comma read without its tail:
    /// addresses separate their parts with commas, and put full stops after abbreviations
    /// (`NO.`, `JLN.`, `St.`, `P.T.`), which keep theirs.
    static func addressPunctuation(_ address: String, commas: Bool = true) -> String {
        let s = addressReadingFixes(address)
        return commas ? addressCommas(s) : s
    }

    static let streetWordSet = Set(streetWords)

    /// Doubled stops and commas as one; street words and numbers read with the wrong character put right.
    static func addressReadingFixes(_ address: String) -> String {
        var s = lexicon.withoutStrayAccents(address)
        if Text.contains(s, "..") || Text.contains(s, ",,") { s = Text.replacing(s, #"([.,])\1+"#, with: "$1") }
        // A space OCR put after the hyphen inside a number (`4454- 086`, Portugal's postcode): no address prints one.
        if Text.contains(s, "- ") { s = Text.replacing(s, #"(\d)- (\d)"#, with: "$1-$2") }
        // A street word read with digits for letters (`10T 1851-A`, `1.0T`). Two characters only as an abbreviation
        // with its stop (`J1.` for Indonesia's `Jl.`), in the printed case: a 1 there is the small l it looks most like
        // (and `usStreetWordRead` below, for two characters without a stop after the street's name).
        s = s.split(separator: " ", omittingEmptySubsequences: false).map { token -> String in
            let core = String(token.filter { $0 != "." })
            guard core.count >= 3 || core.count == 2 && token.hasSuffix("."), let word = streetWordRead(core) else {
                return String(token)
            }
            guard core.count == 2 else { return word }
            return String(token.map { $0 == "1" ? "l" : $0 == "0" ? "O" : $0 == "5" ? "S" : $0 })
        }.joined(separator: " ")
        if Text.contains(s, "1") { s = lettersForOnes(s) }
        if Text.contains(s, "0") { s = lettersForZeros(s) }
        s = ukPostcodeSpaced(s)
        s = postalMarkRead(s)
        s = usStateRead(s)
        s = usStreetWordRead(s)
        // One look-alike letter between the digits of a number of four digits or more (`LOT 17S77`): its digit.
        let letterInNumber = RegexCache.shared.regex(#"(?<![\w/.-])\d+[SBIlZ]\d+(?![\w/-])"#, caseInsensitive: false)
        let matches =
            Text.digitCount(s) < 4
            ? [] : letterInNumber.matches(in: s, range: NSRange(location: 0, length: (s as NSString).length))
        for m in matches.reversed() {
            guard let r = Range(m.range, in: s), s[r].filter(\.isNumber).count >= 4 else { continue }
            s.replaceSubrange(r, with: Amount.digitsForLookAlikes(String(s[r])))
        }
        guard Text.contains(s, "O") else { return s }
        // A letter O among the digits of a number (`456OO`): a zero.
        let digitsWithO = RegexCache.shared.regex(#"\b(?=[0-9O]*[0-9]{3})[0-9O]{4,6}\b"#, caseInsensitive: false)
        for m in digitsWithO.matches(in: s, range: NSRange(location: 0, length: (s as NSString).length)).reversed() {
            guard let r = Range(m.range, in: s) else { continue }
            s.replaceSubrange(r, with: s[r].replacingOccurrences(of: "O", with: "0"))
        }
        return s
    }

    /// The street word (`LOT`, `PL`, `ST`) that a word read with look-alike digits for some of its letters spells, 1
    /// for L, 0 for O, 5 for S; nil when it spells none or has no digit or no letter.
    static func streetWordRead(_ word: String) -> String? {
        guard word.contains(where: \.isNumber), word.contains(where: \.isLetter) else { return nil }
        let mapped = String(word.uppercased().map { $0 == "1" ? "L" : $0 == "0" ? "O" : $0 == "5" ? "S" : $0 })
        return mapped.allSatisfy(\.isLetter) && streetWordSet.contains(mapped) ? mapped : nil
    }

    /// The address without the marks some headers print between its parts (`614 Central Ave SW · Albuquerque`, `•`,
    /// `|`): a space stands for each, as for the break between two of its lines.
    static func withoutSeparatorMarks(_ address: String) -> String {
        guard address.contains(where: { "·•|".contains($0) }) else { return address }
        return Text.replacing(address, #"\s+[·•|]\s+"#, with: " ")
    }

    /// Japan's postal mark read as a look-alike (`F229-5214`, `￥603-5717`, `甲254-5839`) before the postcode that
    /// opens an address in Japanese script: the mark `〒`. (A mark OCR dropped is not put back: not every slip prints
    /// one.)
    static func postalMarkRead(_ address: String) -> String {
        guard let first = address.first, !first.isNumber, first != "〒",
            Text.range(address, #"^.\s?\d{3}-\d{4}(?:\s|$|[\p{Han}\p{Hiragana}\p{Katakana}])"#) != nil,
            Text.range(address, #"[\p{Hiragana}\p{Katakana}]|[都道府県]"#) != nil
        else { return address }
        return "〒" + address.dropFirst().drop { $0 == " " }
    }

    /// A US state's two letters before the ZIP code, one of them read as its look-alike digit (`Raten, 0R 17286`,
    /// `Chicago, 1L 60601`): the state, when exactly one state reads so (0 as O, 1 as I or L, 5 as S, 8 as B) and the
    /// ZIP code ends the address or one of its parts.
    static func usStateRead(_ address: String) -> String {
        guard address.contains(where: \.isNumber) else { return address }
        // (The ZIP code ends the address or its part: `UNIT A1 12345 MAIN` holds none.)
        let before = RegexCache.shared.regex(
            #"(?<![\w-])[0-9A-Z]{2}(?= \d{5}(?:-\d{4})?\s*(?:,|$))"#, caseInsensitive: false)
        var s = address
        for m in before.matches(in: s, range: NSRange(location: 0, length: (s as NSString).length)).reversed() {
            guard let r = Range(m.range, in: s), s[r].contains(where: \.isNumber), s[r].contains(where: \.isLetter)
            else { continue }
            let readings = s[r].reduce([""]) { partial, c in
                (Amount.letterLookAlikes[c] ?? [c]).flatMap { l in partial.map { $0 + String(l) } }
            }
            let states = readings.filter(DataDetector.isUSState)
            if states.count == 1 { s.replaceSubrange(r, with: states[0]) }
        }
        return s
    }

    /// A street word of two letters read with a look-alike digit after the street's name (`6425 Wenraul P1`, `12 Main
    /// 5t, Springfield, IL 62704`): the word (`Pl`, `St`), in the case of the address (capitals where it has no small
    /// letters), in a US address (a state and the ZIP code end it) or a street line that opens with its house number
    /// and ends with the word, as the address's lines are read one by one. 0 reads as O, 1 as L, 5 as S.
    static func usStreetWordRead(_ address: String) -> String {
        let us = Text.range(address, #"\b[A-Z]{2} \d{5}(?:-\d{4})?\s*$"#) != nil
        guard us || Text.range(address, #"^\d{1,6} [^,]*\b[A-Za-z0-9]{2},?\s*$"#) != nil else { return address }
        let small = address.contains(where: \.isLowercase)
        var tokens = address.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        for i in tokens.indices.dropFirst() where us || i == tokens.count - 1 {
            let t = tokens[i].hasSuffix(",") ? String(tokens[i].dropLast()) : tokens[i]
            guard t.count == 2, t.filter(\.isNumber).count == 1, Text.letterCount(tokens[i - 1]) >= 2,
                tokens[i - 1].allSatisfy(\.isLetter), let mapped = streetWordRead(t)
            else { continue }
            let word = small ? mapped.prefix(1) + mapped.dropFirst().lowercased() : mapped
            tokens[i] = word + (tokens[i].hasSuffix(",") ? "," : "")
        }
        return tokens.joined(separator: " ")
    }

    /// A British postcode whose space OCR lost (`LN66AU`, `SW1A1AA`) gets it back before its inward code (`LN6 6AU`):
    /// an outward code (one or two letters, a digit, a digit or letter) glued to a digit and two letters, as a word
    /// of its own at the end of the address or before a comma.
    /// The inward code's digit read as its look-alike letter (`LA28 SWL`) is a digit again (`LA28 5WL`).
    static func ukPostcodeSpaced(_ address: String) -> String {
        guard address.contains(where: \.isNumber) else { return address }
        var s = Text.replacing(
            address, #"(?<![\w-])([A-Z]{1,2}\d[A-Z\d]?)(\d[ABD-HJLNP-UW-Z]{2})(?=\s*,?\s*$|,)"#, with: "$1 $2")
        let misread = RegexCache.shared.regex(
            #"(?<![\w-])[A-Z]{1,2}\d[A-Z\d]? ([A-Z])[ABD-HJLNP-UW-Z]{2}(?=\s*,?\s*$|,)"#,
            caseInsensitive: false)
        for m in misread.matches(in: s, range: NSRange(location: 0, length: (s as NSString).length)).reversed() {
            guard let r = Range(m.range(at: 1), in: s) else { continue }
            let letter = String(s[r]), digit = Amount.digitsForLookAlikes(letter)
            if digit != letter, digit.allSatisfy(\.isNumber) { s.replaceSubrange(r, with: digit) }
        }
        return s
    }

    /// The letter O that OCR read as the digit 0 in a word (`WICKZ0GASSE`, `0LDENOL`, `LALAD0`, `Z0VEL`): in a word of
    /// at least three letters whose only digits are zeros, a zero next to a letter (or next to such a zero, `B00K`) is
    /// an O, lowercase beside a lowercase letter; so is the zero of a bracketed two-letter code (`(T0)`). Numbers and
    /// codes with other digits (`SS20`, `LN6 6AU`, `0B1`) keep theirs.
    static func lettersForZeros(_ text: String) -> String {
        text.split(separator: " ", omittingEmptySubsequences: false).map { token -> String in
            guard token.utf8.contains(UInt8(ascii: "0")) else { return String(token) }
            var chars = Array(token)
            // A code of two letters in brackets, as a province's (`(T0)`, `(B0)` for `(TO)`, `(BO)`).
            if chars.count == 4, chars.first == "(", chars.last == ")", chars[1].isLetter != chars[2].isLetter,
                chars[1] == "0" || chars[2] == "0"
            {
                return chars[1] == "0" ? "(O\(chars[2]))" : "(\(chars[1])O)"
            }
            guard chars.contains("0"), chars.filter(\.isLetter).count >= 3,
                !chars.contains(where: { $0.isNumber && $0 != "0" })
            else { return String(token) }
            let changed = replaceRuns(of: "0", in: &chars) { before, after, length in
                guard length <= 2, before?.isLetter == true || after?.isLetter == true else { return nil }
                return before?.isLowercase == true || after?.isLowercase == true ? "o" : "O"
            }
            return changed ? String(chars) : String(token)
        }.joined(separator: " ")
    }

    /// An item's name of one two-character word that OCR read as digits where letters were printed: a zero, then a one
    /// or a letter (`01`, `0l`: `Øl` or `Ol`, a Danish or Norwegian beer), alone or before its volume (`01 0,5L`). The
    /// name with its letters (`Ol`, `OL`, `Ol 0,5L`), or nil. No amount or count opens with a zero before one more
    /// digit, so a name that is that word alone, or with its volume, is letters; among other words (`PACK 01`, `01 x`)
    /// it may be a code or a count and stays.
    static func shortNameReadAsDigits(_ text: String) -> String? {
        let first = text.prefix { $0 != " " }, rest = text.dropFirst(first.count)
        let chars = Array(first)
        guard chars.count == 2, chars[0] == "0", chars[1] == "1" || chars[1].isLetter,
            rest.isEmpty || Text.range(String(rest), #"^ \d+(?:[.,]\d+)? ?(?:l|L|cl|CL|ml|ML)$"#) != nil,
            OCRConfusions.shipped.confusable(UInt8(ascii: "0"), UInt8(ascii: "O"))
        else { return nil }
        return "O" + (chars[1] == "1" ? "l" : String(chars[1])) + rest
    }

    /// `lettersForZeros` as an item's name allows it, where codes stand among the words (`CX5N`, `G.C0B(333)`): only
    /// where `confusions` pair 0 and O, in a word with no other digit. A run of one or two zeros with a letter on each
    /// side is an O in a word of three letters or more (`S0EP`, `BR00D`, `Kr0ket`; two such runs in one of five or
    /// more, `SM0RREBR0D`), lowercase when both letters are; so is a single zero that opens a word of two letters or
    /// more (`0ST`, `0live`), in the case of the letter after it. A zero at a word's end (`SHOE0`) stays.
    static func lettersForZerosInName(_ text: String, confusions: OCRConfusions = .shipped) -> String {
        guard text.contains("0"), confusions.confusable(UInt8(ascii: "0"), UInt8(ascii: "O")) else { return text }
        return text.split(separator: " ", omittingEmptySubsequences: false).map { token -> String in
            var chars = Array(token)
            let letters = Text.letterCount(String(token))
            guard chars.contains("0"), letters >= 2, !chars.contains(where: { $0.isNumber && $0 != "0" }) else {
                return String(token)
            }
            var inside = 0
            let changed = replaceRuns(of: "0", in: &chars) { before, after, length in
                guard let after, after.isLetter else { return nil }
                guard let before else { return length == 1 ? (after.isLowercase ? "o" : "O") : nil }
                guard before.isLetter, length <= 2, letters >= 3 else { return nil }
                inside += 1
                return before.isLowercase && after.isLowercase ? "o" : "O"
            }
            return changed && (inside <= 1 || letters >= 5) ? String(chars) : String(token)
        }.joined(separator: " ")
    }

    /// The letter l (or L) that OCR read as the digit 1 inside a word (`Haverhi11 Rd`, `Be11flower`, `SE1ANGOR`):
    /// a run of 1s right after a letter, in a word of at least three letters with no other digit.
    /// Lowercase next to a lowercase letter, else capital. Numbers (`SS21/34`, `Unit 1A`, `B1`) keep
    /// their digits, and so do short codes (`K1A 0B1`).
    static func lettersForOnes(_ text: String) -> String {
        text.split(separator: " ", omittingEmptySubsequences: false).map { token -> String in
            guard token.utf8.contains(UInt8(ascii: "1")) else { return String(token) }
            var chars = Array(token)
            let letters = chars.filter(\.isLetter).count
            guard letters >= 3, chars.contains("1"), !chars.contains(where: { $0.isNumber && $0 != "1" }) else {
                return String(token)
            }
            let changed = replaceRuns(of: "1", in: &chars) { before, after, length in
                // Inside a word one or two; at its end only two (`Roswe11`), as a single 1 there is more
                // often a number glued on (`Jalan1`).
                let atEnd = after.map { !$0.isLetter } ?? true
                guard length <= 2, !atEnd || length == 2, let b = before, b.isLetter else { return nil }
                return b.isLowercase || (after?.isLowercase ?? false) ? "l" : "L"
            }
            return changed ? String(chars) : String(token)
        }.joined(separator: " ")
    }

    /// Each run of `digit` in `chars` replaced by the letter `letter` gives for it, from the characters before and
    /// after the run and its length; nil leaves the run as it is. Whether anything changed.
    static func replaceRuns(
        of digit: Character, in chars: inout [Character],
        _ letter: (_ before: Character?, _ after: Character?, _ length: Int) -> Character?
    ) -> Bool {
        var changed = false
        var i = 0
        while i < chars.count {
            guard chars[i] == digit else { i += 1; continue }
            var j = i
            while j < chars.count && chars[j] == digit { j += 1 }
            if let l = letter(i > 0 ? chars[i - 1] : nil, j < chars.count ? chars[j] : nil, j - i) {
                for k in i..<j { chars[k] = l }
                changed = true
            }
            i = j
        }
        return changed
    }

    /// A full stop between two parts of an address, after a whole word or a number, as the comma it was read from.
    /// Not after an abbreviation (`BLVD.`), nor after a street's name that ends with one (`Hauptstr. 12`).
    static func addressCommas(_ s: String) -> String {
        guard s.contains(".") else { return s }
        let re = RegexCache.shared.regex(#"\b([A-Za-z]{4,}|\d[\w/-]*)\.(?=\s+[A-Za-z0-9])"#, caseInsensitive: false)
        let ns = s as NSString
        var out = s
        for m in re.matches(in: s, range: NSRange(location: 0, length: ns.length)).reversed() {
            let word = ns.substring(with: m.range(at: 1)).uppercased()
            guard !longAbbreviations.contains(word),
                !lexicon.streetEndingAbbreviations.contains(where: { word.hasSuffix($0) }),
                let r = Range(NSRange(location: m.range.location + m.range.length - 1, length: 1), in: out)
            else { continue }
            out.replaceSubrange(r, with: ",")
        }
        return out
    }
}
