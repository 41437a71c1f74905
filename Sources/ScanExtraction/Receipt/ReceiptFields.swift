import Foundation
import ScanDetectors
import ScanModel
import ScanLayout

/// The receipt fields chosen among candidates by learned scores: general code proposes the
/// candidates (lines, spans of lines, detector hits, labelled amounts), the `ReceiptFieldModel`
/// scores them, the best one is the value. Every feature says something that holds on any
/// receipt: where a line sits, how tall it prints, what its neighbours are, which label words
/// (from the locale files) and detector hits it has, and whether the amounts add up.
public enum ReceiptField: String, CaseIterable, Sendable {
    case company, address, date, total

    /// The names of the features, in the order `FieldCandidate.features` holds them.
    public var featureNames: [String] {
        switch self {
        case .company: return ReceiptFieldFeatures.companyNames
        case .address: return ReceiptFieldFeatures.addressNames
        case .date: return ReceiptFieldFeatures.dateNames
        case .total: return ReceiptFieldFeatures.totalNames
        }
    }
}

/// One proposed value of a field, with the lines it comes from and its features.
public struct FieldCandidate: Sendable {
    public var value: String
    /// The lines (indices into the analyzed lines) the value was read from.
    public var lines: Range<Int>
    public var features: [Double]
    /// The text, page and box the value was read from.
    public var provenance: Provenance
    public var score = 0.0
}

/// What a line is, as numbers: the same facts describe a candidate's own lines and its neighbours.
struct LineFacts {
    static let names = [
        "relIndex", "relY", "relX", "relWidth", "height", "letters", "digitShare", "upperShare", "words", "confidence",
        "legalForm", "businessType", "thoroughfare", "addressPart", "country", "headerNoise", "headerNoiseWord",
        "contactLabel",
        "documentLabel", "taxIdLabel", "taxLabel", "totalLabel", "dateLabel",
        "phone", "email", "url", "dateEntity", "time", "money", "addressEntity", "postalCode", "percentage",
        "amount", "registration", "registrationSuffix", "startsAddress", "postalNumber", "lowercase", "startsWithDigit",
        "comma",
        "startsLegalForm", "region", "placeOnly", "caseless", "present"
    ]
    static let absent = [Double](repeating: -1, count: names.count)

    /// The columns the candidates read by name, found once (not by a search in the candidates' loops).
    static func column(_ name: String) -> Int {
        guard let i = names.firstIndex(of: name) else { fatalError("no line fact '\(name)'") }
        return i
    }
    static let height = column("height"), digitShare = column("digitShare"), thoroughfare = column("thoroughfare")
    static let addressPart = column("addressPart"), country = column("country"), postalNumber = column("postalNumber")
    static let addressEntity = column("addressEntity"), amount = column("amount"), legalForm = column("legalForm")
    static let registration = column("registration"), startsAddress = column("startsAddress")
    static let contactLabel = column("contactLabel"), documentLabel = column("documentLabel"),
        taxIdLabel = column("taxIdLabel")
    static let totalLabel = column("totalLabel"), phone = column("phone"), email = column("email"), url = column("url")
    static let dateEntity = column("dateEntity"), headerNoiseWord = column("headerNoiseWord"),
        placeOnly = column("placeOnly")
}

/// The features of one receipt's lines, computed once and shared by every field.
struct ReceiptFieldFeatures {
    let lines: [AnalyzedLine]
    let facts: [[Double]]
    /// Each line as part of an address: in the middle, and last (with a label merged on left out), with its
    /// letter and digit counts (an address candidate joins these: computed once a line, not once a span).
    let addressMiddle: [(text: String, letters: Int, digits: Int)]
    let addressLast: [(text: String, letters: Int, digits: Int, trimmed: Bool)]
    /// Lines no address runs through: label words alone (`TAX INVOICE`, `CASHIER`), a greeting or a document's name
    /// alone (`Willkommen`, `RECEIPT`), a document label before a number, or a price at the end. No address of
    /// `sroie-train`'s or the receipt photos' keys holds such a line.
    let addressBreak: [Bool]
    /// Lines that are only a greeting or the slip's title (`isTitleOrGreeting`): no part of a name or an address.
    let titleOrGreeting: [Bool]
    /// Lines of contact details: a phone number and at most a label word, a web or e-mail address and at most a label
    /// word, or a line that starts with a contact label (`TEL: 1300-88-5200 (Customer Service)`). No address of
    /// `sroie-train`'s, `sroie-dev`'s or the receipt photos' keys holds one.
    let contactOnly: [Bool]

    init(_ lines: [AnalyzedLine]) {
        self.lines = lines
        // A line of contact details is no part of an address it is printed within, and no address starts or ends with
        // it.
        let contactLabels = ReceiptParser.lexicon.words(.contact)
        let contactOnly = lines.map { l in
            let phones = l.entities.filter { $0.type == .phone }.map(\.text).joined()
            if !phones.isEmpty && Text.digitCount(l.text) <= Text.digitCount(phones) && Text.letterCount(l.text) <= 4 {
                return true
            }
            let web = l.entities.filter { $0.type == .url || $0.type == .email }.map(\.text).joined()
            if !web.isEmpty && Text.letterCount(l.text) - Text.letterCount(web) <= 8 { return true }
            return contactLabels.begins(l.key)
        }
        self.contactOnly = contactOnly
        let leftParts = lines.indices.map { Self.leftOfColumnGap(lines, $0) }
        addressMiddle = lines.enumerated().map { i, l in
            if contactOnly[i] { return ("", 0, 0) }
            let t = ReceiptParser.addressReadingFixes(Text.clean(leftParts[i] ?? l.text))
            return (t, Text.letterCount(t), Text.digitCount(t))
        }
        addressLast = lines.enumerated().map { i, l in
            var (part, trimmed) = ReceiptParser.addressLastPart(l)
            if let left = leftParts[i].map(Text.clean), left.count < part.count, part.hasPrefix(left) {
                (part, trimmed) = (left, true)
            }
            let t = ReceiptParser.addressReadingFixes(part)
            return (t, Text.letterCount(t), Text.digitCount(t), trimmed)
        }
        let titleOrGreeting = lines.map { Self.isTitleOrGreeting($0.key) }
        self.titleOrGreeting = titleOrGreeting
        addressBreak = lines.indices.map { i in
            let l = lines[i]
            return ReceiptParser.lexicon.isLabelOnly(l.key) || Self.endsInPrintedAmount(l)
                || Self.labelsANumber(l.key, Self.documentLabelWords) || titleOrGreeting[i]
                || Self.taxIdOpeners.contains { l.key.hasPrefix($0) }
        }
        let top = lines.map(\.line.place.minY).min() ?? 0, bottom = lines.map(\.line.place.maxY).max() ?? 1
        let left = lines.map(\.line.place.minX).min() ?? 0, right = lines.map(\.line.place.maxX).max() ?? 1
        let heights = lines.map(\.line.textHeight).sorted()
        let median = heights.isEmpty ? 1 : max(1, heights[heights.count / 2])
        let lex = ReceiptParser.lexicon
        let n = max(1, lines.count - 1)
        facts = lines.enumerated().map { i, l in
            let t = l.text, k = l.key
            let digits = Text.digitCount(t)
            // Letters, capitals, and letters of scripts without case (Han, kana, Hangul, Thai: such a line is not lower
            // case), in one pass.
            var letters = 0, upper = 0, caseless = 0
            for c in t {
                if c.isUppercase { upper += 1 }
                guard c.isLetter else { continue }
                letters += 1
                if !c.isUppercase && !c.isLowercase { caseless += 1 }
            }
            func flag(_ b: Bool) -> Double { b ? 1 : 0 }
            func has(_ words: PhraseSet) -> Double { flag(Text.hasAny(k, words)) }
            func ent(_ type: EntityType) -> Double { flag(l.entities.contains { $0.type == type }) }
            let postal =
                digits >= 4 && Text.range(t, #"(?<![\d\-/.:])\d{4,6}(?![\d\-/.:])"#) != nil
                && l.entities.allSatisfy { $0.type != .phone }
            let registrationSuffix =
                digits >= 5 && t.contains("(")
                && Text.range(t, #"[A-Za-z].*\(\s*[A-Z]?\d{5,}[\s\-·.]*[A-Z]?\s*\)?\s*$"#) != nil
            return [
                Double(i) / Double(n), (l.line.place.minY - top) / max(1, bottom - top),
                (l.line.place.midX - left) / max(1, right - left), l.line.place.width / max(1, right - left),
                l.line.textHeight / median, log1p(Double(letters)), Double(digits) / Double(max(1, letters + digits)),
                Double(upper) / Double(max(1, letters)), Double(l.line.words.count), l.line.confidence,
                has(lex.legalForms), has(lex.businessTypes), has(lex.thoroughfares), has(lex.addressParts),
                has(lex.countries),
                flag(lex.headerNoise.contains(k)), has(lex.headerNoise), has(lex.words(.contact)),
                has(lex.words(.document)),
                has(lex.words(.taxId)), has(lex.words(.tax)), has(ReceiptParser.anyTotalWords), has(lex.words(.date)),
                ent(.phone), ent(.email), ent(.url), ent(.date), ent(.time), ent(.money), ent(.address),
                ent(.postalCode), ent(.percentage),
                flag(l.amount != nil), flag(ReceiptParser.isRegistrationLine(l)),
                flag(registrationSuffix),
                flag(ReceiptParser.startsAddress(l)), flag(postal), flag(upper == 0 && letters > caseless),
                flag(t.first?.isNumber ?? false), flag(t.contains(",")), flag(lex.legalForms.begins(k)),
                has(lex.regions), flag(lex.isPlaceOnly(k)),
                Double(caseless) / Double(max(1, letters)), 1
            ]
        }
    }

    /// The words of line `i` left of its first column gap (more than two text heights between two words, where
    /// `--format text` prints three spaces), when words with letters stand on both sides and the right side is
    /// part of a column: a line above or below (up to two) has a word starting there too, alone or after a gap of
    /// its own. That is what an address holds of a line that joined a column beside the header
    /// (`Kapolei, HI 96707   ictices. Tipping`, a tip guide); a lone code after a gap (`53300 KL   Site 1066`) stays.
    static func leftOfColumnGap(_ lines: [AnalyzedLine], _ i: Int) -> String? {
        let words = lines[i].line.words
        guard words.count >= 2 else { return nil }
        let height = max(1, lines[i].line.textHeight)
        func startsAfterGap(_ ws: [LayoutWord], _ m: Int, _ h: Double) -> Bool {
            m == 0 || ws[m].place.minX - ws[m - 1].place.maxX > 2 * h
        }
        for k in 1..<words.count where startsAfterGap(words, k, height) {
            let left = words[..<k].map(\.text), right = words[k...].map(\.text)
            guard left.contains(where: { $0.contains(where: \.isLetter) }),
                right.contains(where: { $0.contains(where: \.isLetter) })
            else { return nil }
            let x = words[k].place.minX
            let column = [i - 2, i - 1, i + 1, i + 2].contains { (j: Int) -> Bool in
                guard j >= 0, j < lines.count else { return false }
                let ws = lines[j].line.words
                let h = max(1, lines[j].line.textHeight)
                let reach = 1.5 * max(h, height)
                return ws.indices.contains { (m: Int) -> Bool in
                    abs(ws[m].place.minX - x) <= reach && startsAfterGap(ws, m, h)
                }
            }
            return column ? left.joined(separator: " ") : nil
        }
        return nil
    }

    /// One word of three letters or more, a colon and one word after it (`Kasjer: Yan`, `Fieldmogor: Nia`): a field's
    /// label and its value, whatever the language; no shop name of `sroie-train`, `sroie-dev` or the receipt photos
    /// holds a colon. (A longer value may be the shop's own name: `Dimiliki: banh mi cafe sdn bhd`, owned by.)
    /// With `twoWordLabel` the label may have a second word (`Betjent av: Pia`); with `lettersOnly` the value is
    /// letters only (a name, not a number).
    static func wordColonValue(_ text: String, twoWordLabel: Bool = false, lettersOnly: Bool = false) -> Bool {
        let label = twoWordLabel ? #"\p{L}[\p{L}.]{2,}(?:\s\p{L}{2,})?"# : #"\p{L}[\p{L}.]{2,}"#
        let value = lettersOnly ? #"\p{L}+"# : #"\S+"#
        return Text.range(text, #"^\s*"# + label + #"\s?:\s*"# + value + #"\s*$"#) != nil
    }

    /// Whether `text` opens with a document label followed by a colon, a `#` or a number, the number's sign allowed
    /// (`Kasir: Ana`, `Server: Max`, `TABLE 12`, `TABLE NO 12`), or by one short word and a colon (`Bediend door:
    /// Pia`, `Served by: Ivo`, `Atendido por: Luis`).
    /// No shop name of `sroie-train`, `sroie-dev` or the receipt photos holds a document label at all.
    static func opensWithALabel(_ text: String, _ labels: [[String]]) -> Bool {
        let words = Text.key(text).split(separator: " ")
        guard let first = words.first else { return false }
        for label in labels where label.count < words.count && label.first == String(first) {
            guard label.indices.allSatisfy({ words[$0] == label[$0] }) else { continue }
            // A number's sign may stand between (`TABLE NO 12`, `Kasse Nr. 3`), as in `labelsANumber`.
            var k = label.count
            if k + 1 < words.count, words[k].first?.isNumber != true,
               ReceiptParser.lexicon.numberSigns.contains(String(words[k])) { k += 1 }
            if words[k].first?.isNumber == true { return true }
            // What follows the label's last word in the printed text: a colon, `#` or a bracketed value marks a label
            // (`CASHIER [P.NISANTHI]`); so does a colon after one more word of up to five letters.
            let upper = text.uppercased()
            guard let r = upper.range(of: label.last!) else { continue }
            let rest = upper[r.upperBound...].drop { $0 == " " || $0 == "." }
            if let c = rest.first, c == ":" || c == "#" || c == "[" { return true }
            let particle = rest.prefix { $0.isLetter }
            if (1...5).contains(particle.count), rest.dropFirst(particle.count).drop(while: { $0 == " " }).first == ":"
            {
                return true
            }
        }
        return false
    }

    /// The document labels of every locale (`TABLE`, `Kasir`, `DOC NO`), each as its words: what `labelsANumber` and
    /// `opensWithALabel` look for, split once.
    static let documentLabelWords = ReceiptParser.lexicon.words(.document).map {
        $0.split(separator: " ").map(String.init)
    }
    /// Every locale's tax-id labels with the space after them, as a line's key opens with one (`ORG NR `, `CVR `,
    /// `FORETAKSREGISTERET `): such a line ends an address (`Foretaksregisteret NO 919 730 119 MVA`).
    static let taxIdOpeners = ReceiptParser.lexicon.words(.taxId).phrases.map { $0 + " " }

    /// A line that is only a greeting or the slip's title (`WELCOME`, `Bienvenidos`, `VAT RECEIPT`, `Selamat Datang`):
    /// a greeting (`isGreeting`), or words that are each a header word or a label word, one of them a header word.
    static func isTitleOrGreeting(_ key: String) -> Bool {
        let noise = ReceiptParser.lexicon.headerNoise
        if isGreeting(key, noise) { return true }
        let words = key.split(separator: " ").map(String.init)
        return words.contains { noise.contains($0) }
            && words.allSatisfy { noise.contains($0) || ReceiptParser.lexicon.isLabelOnly($0) }
    }

    /// Whether `key` is a greeting or a document's name, alone or with one more short word and no digit (`WILLKOMMEN`,
    /// `WELCOME TO`, `RECEIPT`).
    static func isGreeting(_ key: String, _ noise: PhraseSet) -> Bool {
        if noise.contains(key) { return true }
        let words = key.split(separator: " ")
        guard words.count >= 2, words.last!.count <= 3, !key.contains(where: \.isNumber) else { return false }
        return noise.contains(words.dropLast().joined(separator: " "))
    }

    /// Whether a document label opens `key`, or follows a number, and a number follows it (`0480 TABLE 101 #Party 3`,
    /// `Server 12`, `Check: 24016`): a till's line, never part of an address. No address key of `sroie-train`,
    /// `sroie-dev` or the receipt photos holds a document label before a number. After a word it may be an address's
    /// own (`Kode Pos 40115`). Opening the line, a series' letters may stand between (`Fatura-Recibo FR 25173`).
    static func labelsANumber(_ key: String, _ labels: [[String]]) -> Bool {
        let words = key.split(separator: " ")
        guard words.count >= 2 else { return false }
        let number = words.map { $0.first.map(Text.isNumber) ?? false }
        // A number's sign between label and number (`Kvittering nr. 14724`, `TABLE NO 5`: the locale files'
        // `numberSigns`).
        let sign = words.map { ReceiptParser.lexicon.numberSigns.contains(String($0)) }
        for i in words.indices where i == 0 || number[i - 1] {
            for label in labels where i + label.count < words.count {
                guard label.indices.allSatisfy({ words[i + $0] == label[$0] }) else { continue }
                var k = i + label.count
                if !number[k], sign[k] { k += 1 }
                if k < words.count, number[k] { return true }
                // Opening the line, a series' letters may stand before the number too (`Fatura-Recibo FR 25173`).
                if i == 0, k + 1 < words.count, (1...3).contains(words[k].count), words[k].allSatisfy(\.isLetter),
                    number[k + 1]
                {
                    return true
                }
            }
        }
        return false
    }

    func facts(_ i: Int) -> [Double] { i >= 0 && i < facts.count ? facts[i] : LineFacts.absent }

    static func prefixed(_ prefix: String) -> [String] { LineFacts.names.map { prefix + "." + $0 } }

    /// How far the next line starts below `upper`, in text heights, and how their print sizes compare.
    func gap(_ upper: Int, _ lower: Int) -> (gap: Double, ratio: Double) {
        guard upper >= 0, lower < lines.count else { return (-1, -1) }
        let a = lines[upper].line, b = lines[lower].line
        let h = max(1, max(a.textHeight, b.textHeight))
        return ((b.place.minY - a.place.maxY) / h, a.textHeight / max(1, b.textHeight))
    }

    /// The lines where a header field may be: the upper part of the receipt, above its summary.
    func headerLimit(summaryStart: Int) -> Int {
        min(lines.count, max(8, min(summaryStart, lines.count * 2 / 5 + 4)), 22)
    }

    /// Whether a line ends where its text cannot: with a joining mark (`HOME MASTER HARDWARE &`,
    /// `40170 SHAH ALAM,`, `POPULAR BOOK-`), so that the name or address goes on below in any language.
    static func endsOpen(_ text: String) -> Bool {
        guard let last = text.unicodeScalars.last(where: { $0 != " " }) else { return false }
        return "&,-+/(:".unicodeScalars.contains(last)
    }

    // MARK: - Company

    static let companyExtras = [
        "cutAtLegalForm", "span", "valueLetters", "valueWords", "textOrdinal", "heightRank", "firstLegalForm",
        "legalFormAbove", "gap1", "ratio1", "gap2", "ratio2", "addressWithin3", "registrationWithin2",
        "endsOpen", "closingAbove", "textOrdinalSinceClosing", "amountsAbove"
    ]
    static let companyNames =
        companyExtras + prefixed("first") + prefixed("second") + prefixed("above") + prefixed("below")

    func companyCandidates(limit: Int) -> [FieldCandidate] {
        let header = min(lines.count, limit)
        // Which printed line of the header it is, and how tall it prints among them.
        var ordinal = [Int](repeating: 0, count: lines.count)
        // The same counted from the last line above that ends a receipt (`THANK YOU`, `VIELEN DANK`), and the lines
        // with an amount above: a scan that caught the previous slip's tail (`4.00`, `..THANK YOU AND DO VISIT US
        // AGAIN..`) over this one's header starts its header again under the closing words.
        var sinceClosing = [Int](repeating: 0, count: lines.count),
            closingAbove = [Bool](repeating: false, count: lines.count)
        var amountsAbove = [Int](repeating: 0, count: lines.count)
        let closing = lines.map { Text.hasAny($0.key, ReceiptParser.lexicon.closings) }
        var seen = 0, seenSinceClosing = 0, closed = false, amounts = 0
        for i in 0..<header {
            ordinal[i] = seen
            sinceClosing[i] = seenSinceClosing
            closingAbove[i] = closed
            amountsAbove[i] = amounts
            if Text.letterCount(lines[i].text) >= 3 { seen += 1; seenSinceClosing += 1 }
            if lines[i].amount != nil { amounts += 1 }
            if closing[i] { closed = true; seenSinceClosing = 0 }
        }
        let tallest = (0..<header).map { lines[$0].line.textHeight }.sorted(by: >)
        let firstLegal = (0..<header).first {
            Text.hasAny(lines[$0].key, ReceiptParser.legalSuffixes) && lines[$0].amount == nil
        }
        let firstLegalLine = lines.indices.first { Text.hasAny(lines[$0].key, ReceiptParser.legalSuffixes) }
        var out: [FieldCandidate] = []
        var values = Set<String>()
        // A name never ends with `&` (`HOME MASTER HARDWARE &` / `ELECTRICAL`, `THE COFFEE BEAN &` / `TEA LEAF`):
        // a span that stops after one, or starts right under one, is half a name.
        func joins(_ k: Int) -> Bool {
            k >= 0 && k + 1 < lines.count && Text.letterCount(lines[k + 1].text) >= 2
                && lines[k].text.unicodeScalars.last(where: { $0 != " " }) == "&"
        }
        // A till's line (`Kasir: Ana`, `Camarero: Jin`, `TABLE 12`) is no part of a name, nor is a line of payment
        // words alone with no amount (`Tunai`, `CASH`: the previous slip's tail over this one's header). (A payment
        // line with its amount stays a candidate: the ranker learns from such lines that a name has no amount.
        // `ReceiptParser.namesNoShop` keeps it from being chosen.)
        let tillLine = lines.indices.map {
            $0 < header + 3
                && (Self.opensWithALabel(lines[$0].text, Self.documentLabelWords)
                    || ReceiptParser.paysOnly(lines[$0]) && lines[$0].amount == nil)
        }
        // A line that opens with a short word in small letters and has capitals after it (`Friendly Red's` / `of
        // Windham`, `y Cia`, `und Söhne`) goes on from the line above: no name starts there when that line has letters
        // and is no greeting (`WELCOME TO` / `bp Connect`, `Welkom` / `de Bijenkorf` start where they are).
        func continues(_ k: Int) -> Bool {
            k > 0 && Self.opensWithASmallWord(lines[k].text) && Text.letterCount(lines[k - 1].text) >= 2
                && !tillLine[k - 1]
                && !Self.isGreeting(lines[k - 1].key, ReceiptParser.lexicon.headerNoise)
        }
        // A greeting or a title names no one (`VAT RECEIPT`), nor opens a name (`WELCOME` / `DAILY DINER`): the spans
        // from the next line hold that name.
        for i in 0..<header
        where Text.letterCount(lines[i].text) >= 2 && !joins(i - 1) && !tillLine[i] && !continues(i)
            && !titleOrGreeting[i]
        {
            for span in 1...3 where i + span <= lines.count {
                let r = i..<(i + span)
                if span > 1 && Text.letterCount(lines[i + span - 1].text) < 2 { break }
                if tillLine[i + span - 1] { break }
                if joins(r.upperBound - 1) { continue }
                // A name is not printed twice over: a logo's words then the same words in type (`BELLA` / `PASTA` /
                // `Bella Pasta`) are two readings of one name, which the shorter spans hold.
                if span > 1 && Self.repeatsALine(lines[r]) { continue }
                // Nor does a name go on into a slip's closing words (`好运来超市` / `谢谢惠顾`, `BÄCKEREI MÜLLER` / `DANKE`),
                // nor into a greeting or the slip's title (`DAILY DINER` / `WELCOME`, `SILVER MICAS` / `VAT RECEIPT`).
                if span > 1 && (closing[i + span - 1] || titleOrGreeting[i + span - 1]) { break }
                let full = ReceiptParser.companyName(Array(lines[r]))
                for (cut, value) in [(0.0, full), (1.0, ReceiptParser.cutAtLegalForm(full))] {
                    guard let value, Text.letterCount(value) >= 2, !Self.holdsDateTimeOrPhone(value, lines[r]),
                        values.insert(value + "\u{1}\(i)").inserted
                    else { continue }
                    let g1 = span > 1 ? gap(i, i + 1) : (-1, -1), g2 = span > 2 ? gap(i + 1, i + 2) : (-1, -1)
                    let after = r.upperBound
                    let addressWithin3 = (after..<min(lines.count, after + 3)).contains {
                        facts[$0][LineFacts.startsAddress] > 0
                    }
                    let regWithin2 = (after..<min(lines.count, after + 2)).contains {
                        facts[$0][LineFacts.registration] > 0
                    }
                    let legalAbove = firstLegalLine.map { $0 < i } ?? false
                    var x: [Double] = [
                        cut, Double(span), log1p(Double(Text.letterCount(value))),
                        Double(value.split(separator: " ").count),
                        Double(ordinal[i]),
                        Double(tallest.firstIndex { $0 <= lines[i].line.textHeight } ?? tallest.count),
                        firstLegal.map { r.contains($0) ? 1 : 0 } ?? -1, legalAbove ? 1 : 0,
                        g1.0, g1.1, g2.0, g2.1, addressWithin3 ? 1 : 0, regWithin2 ? 1 : 0,
                        Self.endsOpen(lines[r.upperBound - 1].text) ? 1 : 0,
                        closingAbove[i] ? 1 : 0, Double(sinceClosing[i]), log1p(Double(amountsAbove[i]))
                    ]
                    x += facts(i) + facts(span > 1 ? i + 1 : -1) + facts(i - 1) + facts(after)
                    let box = BoundingBox.enclosing(lines[r].map(\.line.box))
                    let prov = Provenance(
                        text: lines[r].map(\.text).joined(separator: "\n"), page: lines[i].line.page, boundingBox: box,
                        confidence: lines[r].map(\.line.confidence).min() ?? 0)
                    out.append(FieldCandidate(value: value, lines: r, features: x, provenance: prov))
                }
            }
        }
        return out
    }

    /// Whether `text` opens with a word of one to three letters, all small (`of`, `y`, `und`, `de`: the words that join
    /// a name's parts; also a brand's `bp`, which the caller lets start after a greeting), and has a capital after it
    /// (`of Windham`). A longer word is more often a name whose capital OCR read small (`silolmo Ellu`, `ultam
    /// Boekhandel B.V.`); a line without capitals (`dm-drogerie markt`) or without case is no continuation.
    static func opensWithASmallWord(_ text: String) -> Bool {
        let words = text.split(separator: " ")
        guard let first = words.first, (1...3).contains(first.count),
            first.allSatisfy({ $0.isLetter && $0.isLowercase })
        else { return false }
        return words.dropFirst().contains { $0.contains(where: \.isUppercase) }
    }

    /// Whether the lines read the same words twice over, case and punctuation aside: the span is one run of words
    /// printed twice (`BELLA` / `PASTA` / `Bella Pasta`), or one line's words stand in another's (`PASTA` / `Bella
    /// Pasta`).
    static func repeatsALine(_ lines: ArraySlice<AnalyzedLine>) -> Bool {
        let perLine = lines.map { l in
            l.text.uppercased().split(separator: " ").map { String($0.filter { $0.isLetter || $0.isNumber }) }.filter {
                !$0.isEmpty
            }
        }
        let words = perLine.flatMap { $0 }
        let half = words.count / 2
        if half > 0 && words.count % 2 == 0 && words[..<half] == words[half...] { return true }
        for (a, inner) in perLine.enumerated() where !inner.isEmpty && inner.joined().count >= 3 {
            for (b, outer) in perLine.enumerated() where b != a && outer.count > inner.count {
                if (0...(outer.count - inner.count)).contains(where: { Array(outer[$0..<($0 + inner.count)]) == inner })
                {
                    return true
                }
            }
        }
        return false
    }

    /// The entity types a shop's name never holds: none of the 430 company keys of `sroie-train`, `sroie-dev`
    /// and the receipt photos has one (`scanextract detect`), while header lines that hold them (`L1 T1 12:49 PM`,
    /// a survey code read as a phone) are what a model that never saw such a header may take for the name.
    /// Web addresses are names too (`ECOSWAY.COM SDN BHD`).
    static let notInNames: Set<EntityType> = [.date, .time, .phone]

    /// Whether `value`, made from `lines`, still holds a date, time or phone number one of those lines
    /// was found to print. Address candidates are held to it too: of the 428 address keys of the same sets one
    /// holds such an entity, and only as the detector misreads it (`LOT 10/10 81750`, a lot and a postcode, as a
    /// phone), while a date under the town is what a span running one line too far takes in.
    static func holdsDateTimeOrPhone(_ value: String, _ lines: ArraySlice<AnalyzedLine>) -> Bool {
        lines.contains { l in
            l.entities.contains { notInNames.contains($0.type) && !$0.text.isEmpty && value.contains($0.text) }
        }
    }

    // MARK: - Address

    static let addressExtras = [
        "commas", "span", "digitLines", "thoroughfareLines", "addressPartLines", "countryLines", "postalLines",
        "addressEntityLines", "contactLines", "amountLines", "legalFormLines", "labelLines", "noiseLines",
        "registrationLines", "minHeight", "maxHeight", "maxGap", "trimmed", "valueLetters", "valueDigitShare",
        "endsOpen"
    ]
    static let addressNames =
        addressExtras + prefixed("first") + prefixed("last") + prefixed("above") + prefixed("below")

    /// Whether a line ends in an amount as prices are printed, which no address line does: with cents, or in whole
    /// units with a currency's sign or unit (`¥140`, `1,200원`) or a thousands separator (`1,200`).
    static func endsInPrintedAmount(_ l: AnalyzedLine) -> Bool {
        guard let t = l.trailing.last else { return false }
        if t.amount.scale >= 2 { return true }
        let w = l.line.words[t.word].text
        return w.contains { Amount.currencySigns.contains($0) || Amount.unitSigns.contains($0) }
            || Text.range(w, #"\d[.,]\d{3}\D*$"#) != nil
    }

    func addressCandidates(limit: Int) -> [FieldCandidate] {
        let header = min(lines.count, limit + 2)
        var out: [FieldCandidate] = []
        for start in 0..<header
        where addressMiddle[start].letters + addressMiddle[start].digits >= 3
            && !addressBreak[start]
        {
            for span in 1...6 where start + span <= lines.count {
                if addressBreak[start + span - 1] { break }
                if contactOnly[start + span - 1] { continue }
                // A line of region and country names under the span (`Johor`, `SELANGOR D.E.`, `MALAYSIA`) ends the
                // address: every such line right under an address of `sroie-train`'s and `sroie-dev`'s keys (41) is
                // part of it.
                if start + span < lines.count, facts[start + span][LineFacts.placeOnly] > 0 { continue }
                let r = start..<(start + span)
                let last = addressLast[r.upperBound - 1]
                let plain = (r.dropLast().map { addressMiddle[$0].text }.filter { !$0.isEmpty } + [last.text]).joined(
                    separator: " ")
                let trimmed = last.trimmed
                let valueLetters = r.dropLast().reduce(last.letters) { $0 + addressMiddle[$1].letters }
                let valueDigits = r.dropLast().reduce(last.digits) { $0 + addressMiddle[$1].digits }
                guard valueLetters >= 3, !Self.holdsDateTimeOrPhone(plain, lines[r]) else { continue }
                // The same lines with their full stops read as commas; the other is a candidate too when it differs.
                let value = ReceiptParser.addressCommas(plain)
                func count(_ column: Int) -> Double { r.reduce(0) { $0 + (facts[$1][column] > 0 ? 1 : 0) } }
                typealias F = LineFacts
                let heights = r.map { facts[$0][F.height] }
                let gaps = r.dropLast().map { gap($0, $0 + 1).gap }
                let labels = r.reduce(0.0) {
                    $0
                        + (facts[$1][F.contactLabel] + facts[$1][F.documentLabel]
                            + facts[$1][F.taxIdLabel] + facts[$1][F.totalLabel] > 0 ? 1 : 0)
                }
                let contact = r.reduce(0.0) {
                    $0
                        + (facts[$1][F.phone] + facts[$1][F.email] + facts[$1][F.url]
                            + facts[$1][F.dateEntity] > 0 ? 1 : 0)
                }
                let noise = count(F.headerNoiseWord)
                let digitLines = count(F.digitShare)
                var x: [Double] = [
                    1, Double(span), digitLines, count(F.thoroughfare), count(F.addressPart), count(F.country),
                    count(F.postalNumber), count(F.addressEntity), contact, count(F.amount), count(F.legalForm),
                    labels, noise, count(F.registration), heights.min() ?? 0, heights.max() ?? 0, gaps.max() ?? -1,
                    trimmed ? 1 : 0, log1p(Double(valueLetters)),
                    Double(valueDigits) / Double(max(1, valueDigits + valueLetters)),
                    !trimmed && Self.endsOpen(last.text) ? 1 : 0
                ]
                x += facts(start) + facts(r.upperBound - 1) + facts(start - 1) + facts(r.upperBound)
                let box = BoundingBox.enclosing(lines[r].map(\.line.box))
                let prov = Provenance(
                    text: lines[r].map(\.text).joined(separator: "\n"), page: lines[start].line.page, boundingBox: box,
                    confidence: lines[r].map(\.line.confidence).min() ?? 0)
                out.append(FieldCandidate(value: value, lines: r, features: x, provenance: prov))
                if plain != value {
                    x[0] = 0
                    out.append(FieldCandidate(value: plain, lines: r, features: x, provenance: prov))
                }
            }
        }
        return out
    }

    // MARK: - Date

    static let dateExtras = [
        "detector", "ambiguous", "timeAfter", "sameValue", "ordinal", "candidates", "latest", "earliest",
        "twoDigitYear", "monthName", "slash", "dash", "dot", "labelAbove", "notIssueLabel", "labelBefore"
    ]
    static let dateNames = dateExtras + prefixed("line") + prefixed("above")

    /// Proposed dates: `(iso, text, line, start, fromDetector, ambiguous)`; the features follow in `dateCandidates`.
    /// A date after the year following `referenceYear` is no receipt's date (`NumericDate.documentYears`).
    /// `shortYearFirst`: the receipt's language prints `yy-mm-dd` (`ReceiptParser.writesShortDatesYearFirst`).
    func dateCandidates(monthFirst: Bool, shortYearFirst: Bool = false, referenceYear: Int) -> [FieldCandidate] {
        let years = NumericDate.documentYears(referenceYear: referenceYear)
        var raw: [(iso: String, text: String, line: Int, start: Int, detector: Bool, ambiguous: Bool)] = []
        for (i, l) in lines.enumerated() {
            let scalars = Array(l.text.unicodeScalars)
            // `23-01-13` on a Swedish receipt: year first, whatever the detector made of it, and no other reading of
            // it is proposed.
            var yearFirstAt: Set<Int> = []
            if shortYearFirst {
                for found in NumericDate.shortYearFirstDates(in: l.text, referenceYear: referenceYear) {
                    guard let y = Int(found.iso.prefix(4)), years.contains(y) else { continue }
                    raw.append((found.iso, found.text, i, found.start, true, false))
                    yearFirstAt.insert(found.start)
                }
            }
            for e in l.entities(.date) where !yearFirstAt.contains(e.range.start) {
                guard var d = e.value.date, let y = Int(d.prefix(4)), years.contains(y),
                    !ReceiptParser.gluedToCode(scalars, at: e.range.start, text: e.text)
                else { continue }
                // An ambiguous numeric date: day first, except where the receipt is North American.
                if e.ambiguous == true, let alt = e.alternatives?.first,
                    let first = e.text.split(whereSeparator: { !$0.isNumber }).first.flatMap({ Int($0) })
                {
                    let valueIsDayFirst = (Int(d.suffix(2)) ?? 0) == first
                    if valueIsDayFirst == monthFirst { d = alt }
                }
                raw.append((d, e.text, i, e.range.start, true, e.ambiguous == true))
            }
            for found in NumericDate.anywhere(in: l.text, monthFirst: monthFirst, referenceYear: referenceYear)
            where !ReceiptParser.gluedToCode(scalars, at: found.start) {
                let (iso, text, start) = (found.iso, found.text, found.start)
                if raw.contains(where: { $0.line == i && $0.iso == iso }) || yearFirstAt.contains(start) { continue }
                raw.append((iso, text, i, start, false, false))
            }
        }
        let isos = raw.map(\.iso)
        let latest = isos.max(), earliest = isos.min()
        let dateLabels = ReceiptParser.lexicon.words(.date), notIssue = ReceiptParser.notIssueDateWords
        return raw.enumerated().map { n, c in
            let l = lines[c.line]
            let end = c.start + c.text.unicodeScalars.count
            let timeAfter = l.entities(.time).contains { $0.range.start >= end && $0.range.start - end <= 3 }
            let before = Text.key(String(String.UnicodeScalarView(l.text.unicodeScalars.prefix(c.start))))
            var x: [Double] = [
                c.detector ? 1 : 0, c.ambiguous ? 1 : 0, timeAfter ? 1 : 0, Double(isos.filter { $0 == c.iso }.count),
                Double(n),
                Double(raw.count), c.iso == latest ? 1 : 0, c.iso == earliest ? 1 : 0,
                Text.range(c.text, #"[-/.]\d{2}$"#) != nil ? 1 : 0, c.text.contains(where: \.isLetter) ? 1 : 0,
                c.text.contains("/") ? 1 : 0, c.text.contains("-") ? 1 : 0, c.text.contains(".") ? 1 : 0,
                c.line > 0 && Text.hasAny(lines[c.line - 1].key, dateLabels) ? 1 : 0,
                Text.hasAny(l.key, notIssue) ? 1 : 0,
                Text.hasAny(before, dateLabels) || before.hasSuffix("DATE") ? 1 : 0
            ]
            x += facts(c.line) + facts(c.line - 1)
            var p = l.line.provenance()
            p.text = c.text
            return FieldCandidate(value: c.iso, lines: c.line..<(c.line + 1), features: x, provenance: p)
        }
    }

    // MARK: - Total

    static let totalExtras = [
        "strongTotal", "plainTotal", "weakTotal", "abbreviation", "fuzzyTotal", "subtotal", "tax", "inclusive", "tip",
        "change",
        "tender", "rounding", "discount", "quantity", "taxId", "roleTotal", "roleStrength", "valueBelow",
        "labelLetters",
        "largest", "rank", "occurrences", "labelledOccurrences", "tenderLessChange", "tendered", "subtotalPlusTax",
        "itemsSum",
        "equalsSubtotal", "afterRounding", "inTaxTable", "inSummary", "fromSummary", "lastTotalLabel",
        "firstTotalLabel",
        "nextPayment", "previousTotal", "negative", "logAmount", "roundTo5", "wholeUnits", "trailingCount",
        "largerBelow",
        "sumOfTwoAbove", "partOfSumBelow", "paidWithChange", "tenderOfChange"
    ]
    static let totalNames = totalExtras + prefixed("line") + prefixed("below")

    /// What the summary knows when it scores totals: amounts it read under other labels.
    struct SummaryContext {
        var summaryStart: Int
        /// Where this slip starts under the tail of the one before (`ReceiptParser.slipBeforesTail`): that tail's
        /// total, payment and change are the other slip's, and no candidates.
        var tail = 0
        var tendered: Amount?
        var change: Amount?
        var subtotal: Amount?
        var taxSum: Int?
        var itemsSum: Int?
    }

    func totalCandidates(roles: [ReceiptParser.Role], context c: SummaryContext) -> [FieldCandidate] {
        let lex = ReceiptParser.lexicon
        // The value of a line: its own amount, else the amount alone on the next line.
        var raw: [(amount: Amount, label: Int, valueLine: Int)] = []
        for i in lines.indices where i >= c.tail {
            if let a = lines[i].amount {
                raw.append((a, i, i))
            } else if i + 1 < lines.count, ReceiptParser.valueOnly(lines[i + 1]), let a = lines[i + 1].amount,
                Text.letterCount(lines[i].label) >= 2
            {
                raw.append((a, i, i + 1))
            }
        }
        let payable = raw.filter { !roles[$0.label].isPayment }.map(\.amount.cents)
        let sortedDesc = Array(Set(payable)).sorted(by: >)
        let rounding = lines.indices.last { roles[$0] == .rounding }
        let taxTable = lines.indices.first {
            $0 >= c.summaryStart && Text.hasAny(lines[$0].key, ReceiptParser.taxSummaryWords)
        }
        let totalLabelled = lines.indices.filter {
            if case .total = roles[$0] { return true }; return false
        }
        let due = c.tendered.flatMap { t in c.change.map { t.cents - $0.cents } }
        // Amounts under a total, subtotal or tax label, and the other charges of the summary: a total
        // can be the sum of two of them (`Total 0% supplies` + `Total 6% supplies (Inc. GST)` =
        // `Total Payable`; `Total` + `Service Charge`).
        let parts = raw.filter { r in
            guard r.amount.cents != 0 else { return false }
            switch roles[r.label] {
            case .total, .subtotal, .tax: return true
            case .tendered, .change, .rounding, .quantityTotal, .taxId: return false
            default: return r.label >= c.summaryStart
            }
        }
        func sumOfTwoAbove(_ cents: Int, before line: Int) -> Bool {
            let above = parts.filter { $0.valueLine < line && $0.amount.cents != cents }
            for i in above.indices {
                for j in above.indices
                where j > i && above[j].label != above[i].label
                    && abs(above[i].amount.cents + above[j].amount.cents - cents) <= 1
                { return true }
            }
            return false
        }
        // One of the two parts of such a sum further down: a section's total, not the amount due.
        func partOfSumBelow(_ cents: Int, line: Int) -> Bool {
            parts.contains { sum in
                sum.label > line && sum.amount.cents != cents
                    && parts.contains { other in
                        other.valueLine < sum.label && other.label != line && other.label != sum.label
                            && abs(cents + other.amount.cents - sum.amount.cents) <= 1
                    }
            }
        }
        // Payment arithmetic, whatever the labels' language: the amount due, then the amount handed over, then the
        // change, so that tendered - due = change. `raw` is in line order; the three are looked for among a few
        // amounts in a row, so that an item's price rarely meets two later amounts by chance.
        let byLine = raw.map(\.amount.cents)
        func tenderOfChange(_ q: Int) -> Bool {
            let tendered = byLine[q]
            for p in max(0, q - 3)..<q where byLine[p] > 0 && byLine[p] < tendered {
                for r in (q + 1)..<min(byLine.count, q + 4)
                where byLine[r] > 0 && abs(tendered - byLine[p] - byLine[r]) <= 1 {
                    return true
                }
            }
            return false
        }
        return raw.indices.map { position in
            let cand = raw[position]
            let k = lines[cand.label].labelKey
            func has(_ words: PhraseSet) -> Double { Text.hasAny(k, words) ? 1 : 0 }
            let role = roles[cand.label]
            var strength = 0.0, isTotal = 0.0
            if case .total(let s) = role { strength = s; isTotal = 1 }
            let cents = cand.amount.cents
            let occurrences = raw.filter { $0.amount.cents == cents }
            let labelled = occurrences.filter {
                if case .total = roles[$0.label] { return true }; return false
            }
            let next = cand.valueLine + 1 < lines.count ? roles[cand.valueLine + 1] : .none
            let previous = cand.label > 0 ? roles[cand.label - 1] : .none
            var previousTotal = 0.0
            if case .total = previous { previousTotal = 1 }
            let largerBelow = raw.contains {
                $0.label > cand.valueLine && $0.amount.cents > cents && !roles[$0.label].isPayment
            }
            func b(_ flag: Bool) -> Double { flag ? 1 : 0 }
            let amountsAgree: Double =
                c.subtotal.flatMap { s in c.taxSum.map { b(abs(s.cents + $0 - cents) <= 1) } } ?? -1
            let itemsAgree: Double = c.itemsSum.map { b(abs($0 - cents) <= 1) } ?? -1
            var x: [Double] = []
            x.reserveCapacity(ReceiptFieldFeatures.totalNames.count)
            x += [
                has(lex.words(.strongTotal)), has(lex.words(.total)), has(lex.words(.weakTotal)),
                has(lex.words(.totalAbbreviations))
            ]
            x += [
                b(ReceiptParser.fuzzyTotal(k)), has(lex.words(.subtotal)), has(lex.words(.tax)),
                has(lex.words(.taxInclusive))
            ]
            x += [has(lex.words(.tip)), has(lex.words(.change)), has(lex.words(.tender)), has(lex.words(.rounding))]
            x += [has(lex.words(.discount)), has(lex.words(.quantity)), has(lex.words(.taxId)), isTotal, strength]
            x += [b(cand.valueLine != cand.label), log1p(Double(Text.letterCount(lines[cand.label].label)))]
            x += [b(cents == sortedDesc.first), Double(sortedDesc.firstIndex(of: cents) ?? sortedDesc.count)]
            x += [Double(occurrences.count), Double(labelled.count)]
            x += [due.map { b($0 == cents) } ?? -1, c.tendered.map { b($0.cents == cents) } ?? -1]
            x += [amountsAgree, itemsAgree, c.subtotal.map { b($0.cents == cents) } ?? -1]
            x += [rounding.map { b(cand.label > $0 && cand.label <= $0 + 2) } ?? -1]
            x += [taxTable.map { b(cand.label > $0) } ?? -1, b(cand.label >= c.summaryStart)]
            x += [Double(cand.label - c.summaryStart) / Double(max(1, lines.count))]
            x += [b(totalLabelled.last == cand.label), b(totalLabelled.first == cand.label)]
            x += [b(next.isPayment), previousTotal, b(cents < 0), log1p(Double(abs(cents)) / 100)]
            x += [
                b(cents % 5 == 0), b(cand.amount.scale == 0), Double(lines[cand.valueLine].trailing.count),
                b(largerBelow)
            ]
            x += [b(sumOfTwoAbove(cents, before: cand.label)), b(partOfSumBelow(cents, line: cand.label))]
            x += [b(ReceiptParser.paidWithChange(byLine, due: position) != nil), b(tenderOfChange(position))]
            x += facts(cand.label) + facts(cand.valueLine + 1)
            let prov = lines[cand.valueLine].amountProvenance ?? lines[cand.valueLine].line.provenance()
            return FieldCandidate(
                value: cand.amount.decimalString, lines: cand.label..<(cand.valueLine + 1), features: x,
                provenance: prov)
        }
    }

    /// The candidates scored by the model's trees for `field`, best first (ties keep the earlier candidate).
    static func ranked(_ candidates: [FieldCandidate], _ field: ReceiptField, model: ReceiptFieldModel = .shared)
        -> [FieldCandidate]
    {
        guard let trees = model.fields[field.rawValue] else { return candidates }
        var scored = candidates
        for n in scored.indices { scored[n].score = trees.score(scored[n].features) }
        let order = scored.indices.sorted { a, b in
            scored[a].score > scored[b].score || (scored[a].score == scored[b].score && a < b)
        }
        return order.map { scored[$0] }
    }
}

/// A score turned into a confidence between 0 and 1.
func sigmoid(_ x: Double) -> Double { 1 / (1 + exp(-x)) }
