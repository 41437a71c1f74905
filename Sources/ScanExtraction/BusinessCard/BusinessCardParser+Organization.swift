import Foundation
import ScanDetectors
import ScanLayout
import ScanModel

/// The firm's name: what marks a line as a firm's (legal forms, organization words, kinds of firm, the domain it
/// spells), a logo's monogram, a wordmark set over lines.
extension BusinessCardParser {
    /// The firm's name read from its line `oi` and the lines of its column among `free` that finish it: a legal form
    /// wrapped under it, the rest of a name that ends with `&`, a wordmark's other line (``wrappedOrganizationPart``)
    /// and the legal form under that; the lines taken go into `fields`.
    static func readOrganization(
        _ lines: [AnalyzedLine], _ oi: Int, among free: [Int], domain: String?, fields: inout FieldLines,
        into card: inout BusinessCard
    ) {
        var org = Self.withoutMarks(lines[oi].line, monogram: true)
        let taken = fields.all
        let others = free.filter { !taken.contains($0) }
        // Its legal form wrapped onto the line under it in its column (`Bianchi Impianti` / `S.p.A.`), or the rest
        // of its name (`PT Nusantara` / `Mitra Finansial`).
        // (A short legal form's print measures smaller than the name's, `Meridian Marine Supplies Pte.` / `Ltd.`;
        // and a name that ends with `&` or a joining word in small letters goes on under it, `AGARWAL TEXTILES &` /
        // `EXPORTS`, `Aceros Cumbres del` / `Norte S.A. de C.V.`, as it does on a line that opens with one, `Kerala
        // Institute` / `of Fisheries`.)
        let last = lines[oi].line.words.last?.text
        if let below = Self.wrappedUnder(lines, oi, among: others, sizeTolerance: 0.6),
            Self.onlyLegalForms(lines[below].key)
        {
            org += " " + lines[below].text
            fields.organizationPart = below
        } else if let below = Self.wrappedUnder(lines, oi, among: others),
            last == "&" || Self.smallJoiner(last) || Self.smallJoiner(lines[below].line.words.first?.text),
            Text.digitCount(lines[below].text) == 0, lines[below].entities.isEmpty,
            !Text.hasAny(lines[below].key, Self.lexicon.jobTitles)
        {
            org += " " + lines[below].text
            fields.organizationPart = below
        } else if let (part, upper) = Self.wrappedOrganizationPart(lines, oi, among: others, domain: domain) {
            fields.organizationPart = part
            org = upper ? lines[part].text + " " + org : org + " " + lines[part].text
            // (A wordmark of three lines ends with its legal form or a word of its kind, `firmKinds`: `Deltacrest` /
            // `Engineering Services` / `Limited`, `Ashgrove` / `Timber` / `Works`; not a department, `Legal`.)
            if !upper, let below = Self.wrappedUnder(lines, part, among: others, sizeTolerance: 0.6),
                Self.onlyLegalForms(lines[below].key)
                    || lines[below].line.words.count == 1 && lines[below].entities.isEmpty
                        && Text.hasAny(lines[below].key, Self.lexicon.firmKinds)
                        && !Text.hasAny(lines[below].key, Self.lexicon.departmentWords)
            {
                org += " " + lines[below].text
                fields.organizationLegalForm = below
            }
        }
        card.organization = Self.lexicon.mendingLegalForm(Text.clean(org))
        card.provenance["organization"] = lines[oi].line.provenance()
    }

    /// Whether a line is a social handle, alone or after a label (`@vigc`, `IG @vigc`, `Instagram: @vigc`): it opens
    /// with `@`, or it has at most three words, one of which opens with `@` and a letter or digit.
    static func isHandleLine(_ words: [String]) -> Bool {
        words.first?.hasPrefix("@") == true
            || words.count <= 3
                && words.contains { w in
                    w.first == "@" && w.dropFirst().first.map { $0.isLetter || $0.isNumber } == true
                }
    }

    /// The organization stage: the line among `free` that names the firm, with its score. A company suffix or the
    /// e-mail's or web's `domain` in the text counts; a suffix word alone beside a title word (`Co-Founder`, `Head of
    /// Design`, `Marketing Director`) is a title's, not a company's: more than that is needed. A score of 2 or more is
    /// the domain's evidence.
    static func organizationLine(
        _ lines: [AnalyzedLine], among free: [Int], domain: String?, localIsDomain: Bool, emailLocal: String?
    ) -> (index: Int?, score: Double) {
        let largestPrint = free.map { lines[$0].line.printHeight }.max() ?? 0
        var orgIndex: Int?
        var orgBest = 0.5
        var orgLegal = false
        for i in free {
            let l = lines[i]
            // Opening hours are no firm, whatever their words (`Mo–Fr 6:30–18:30 · Sa 7–13 Uhr`: `Sa` is no `SA`), nor
            // is a social handle that spells the domain (`@costamoura.arq`, `IG @cbmsupplies`).
            if Self.holdsHours(l.text) || Self.isHandleLine(l.line.words.map(\.text)) { continue }
            // Nor is a legal form alone under a line it ends (`SAOC`, `S.A.E.`), which goes with the name over it.
            if Self.onlyLegalForms(l.key), Self.stackedOver(lines, i, among: free) != nil { continue }
            // A legal form OCR misread in a look-alike letter (`s.r.I.`, `GMBH` as `GM8H`) still counts. An Irish
            // county that ends a line (`Main Street, Adare, Co. Limerick`) is no company's `Co.`.
            let text = Text.replacing(
                l.text, #",\s*Co\.?\s+(?!(?:Ltd|Limited|Inc|KG|LLC|Pte|Pty)\b)\p{Lu}\p{L}+\s*$"#, with: "")
            let mended = Self.lexicon.mendingLegalForm(text)
            let k = mended == l.text ? l.key : Text.key(mended)
            var s = 0.0
            var wholeDomain = false
            s += Self.firmWordScore(k, words: l.line.words.map(\.text))
            if localIsDomain, let d = domain {
                // A free mail address's local part names the firm only by spelling whole words of its name, two or
                // more (`maguireplumbing`); one word of a line or its initials may be a person's (`sarah@`, `mjw@`),
                // and so may the card's largest print (`sarahconnolly@` on `Sarah J. Connolly`).
                if Self.spellsWholeName(d, l.line.words.map(\.text)), l.line.printHeight < 0.95 * largestPrint {
                    s += 2
                }
            } else if let d = domain, d.count >= 3 {
                // The domain writes `ü` as `ue` (`huerlimannpartner` from `Hürlimann & Partner`) or as `u`, and `&`
                // as a word for "and" (`kettleandkite` from `Kettle & Kite Creative`).
                let spellings = Set([k, Self.transliterated(k)] + Self.ampersandSpelled(mended))
                let compacts = spellings.map { $0.replacingOccurrences(of: " ", with: "").lowercased() }
                if compacts.contains(where: { $0.contains(d) }) || spellings.contains(where: { Self.spells(d, $0) }) {
                    s += 2
                    // (Where each title's word of the line is a part of the domain: `Partner` of hofbauerpartner.)
                    let titleWords = k.split(separator: " ").filter { Self.lexicon.jobTitles.isFound(in: String($0)) }
                    // (Not where a comma or a bar parts a name from a title: `Jane Smith, Realtor` of
                    // janesmithrealtor.com, `Partnerin | Hofbauer Partner`.)
                    wholeDomain = d.count >= 5 && !titleWords.isEmpty
                        && titleWords.allSatisfy { d.contains(Self.plainLetters(String($0))) }
                        && !l.text.contains(where: { ",|·•".contains($0) })
                } else if compacts.contains(where: { $0.count >= 4 && d.contains($0) }) {
                    // (Only a part of the domain, `Hofbauer` of hofbauer-partner: less than the whole.)
                    s += 1.75
                } else if Self.initials(k) == d {
                    s += 1.5
                } else if d.count >= 4, l.line.words.contains(where: { $0.text.count >= 4 }),
                    let below = Self.stackedUnder(lines, i, among: free),
                    !Self.spellsWhole(d, lines[below].key),
                    Self.wrappedOrganizationPart(lines, i, among: [below], domain: d, kindOfFirm: false) != nil
                {
                    // A name wrapped onto the line under it spells the domain with it (`Triangle Clinical Trials` /
                    // `Network`, trianglectn.org; not a monogram over the name that spells it alone).
                    s += 2
                }
            }
            // Surnames joined as a firm's are (`Shaw, Gaines and Martin`, `Brouwer & Schenk`, `Marshall-Dawson`).
            let ofAPerson = Text.hasAny(k, Self.lexicon.jobTitles) || Text.hasAny(k, Self.lexicon.departmentWords)
            if Self.joinedSurnames(l.line.text), !ofAPerson { s += 1 }
            // (A title's word that the domain spells, in a name that spells the whole domain, is the firm's:
            // `Hofbauer & Partner Steuerberatung` of hofbauer-partner.at; not `Head of Sales, Northfield Foods`.)
            if Text.hasAny(k, Self.lexicon.jobTitles), !wholeDomain { s -= 1 }
            // A person's own domain (`sara.barber@barber.com`, `ben@kolar.at`): a line that the domain alone points to,
            // and that the local part, alone or with the domain, spells as a given and a family name, is the person's
            // name, honorifics and degrees aside (`Lic. Mariana Ibarra` of mariana@ibarra.com.mx).
            if s == 2, let local = emailLocal, let d = domain {
                let person = Array(Self.beforeDegrees(l.line.words.map(\.text)).drop {
                    Self.lexicon.honorifics.contains(Text.key($0))
                })
                if Self.spellsPerson(local, person) || Self.spellsPerson(local + d, person) { s = 0 }
            }
            // Of two lines that score alike, the one with a legal form is the firm's name (`Hudson Labs, Inc.` under
            // the logo's `HUDSON LABS`), and so is the one that says a word or two more after a person's name: a
            // person's own business (`Camila Soto` over `Camila Soto Fotografía`, camilasoto.cl; not a logo's
            // `BRIGHTPATH` over its tagline `Brightpath Makes Hiring Simple`).
            let legal = Text.hasAny(k, Self.lexicon.legalForms)
            let saysMore = orgIndex.map { o in
                let shorter = lines[o].key.split(separator: " ").count, longer = k.split(separator: " ").count
                return k.hasPrefix(lines[o].key + " ") && (2...4).contains(shorter) && longer - shorter <= 2
            } ?? false
            if s > orgBest || s == orgBest && orgIndex != nil && (legal && !orgLegal || saysMore) {
                orgBest = s; orgIndex = i; orgLegal = legal
            }
        }
        return (orgIndex, orgBest)
    }

    /// The line's text without a logo read as a letter: a word of one letter or sign,
    /// printed much larger than the rest of the line or read with little confidence
    /// (`a Horizonsummit Ltd.`, `口 Novaquantum Pty Ltd`), or one as wide as it is tall and larger
    /// than the words (`0 Davis-Weber`: a round logo).
    /// With `monogram` (a firm's line), a monogram before the words it abbreviates is the logo too (`BL Brightline
    /// Logistics, Inc.`, `MR McAllister Rowe Architects`): two or three capitals, the initials of the words after them,
    /// and no legal form (Indonesia's `PT Putra Teknik Mandiri`) unless the recognizer read it apart from the words and
    /// in print of another size (`SA` beside `Stadsbeeld Advies`). A monogram with an ampersand whose last letter OCR
    /// lost (`W&` for `W&S`, over `Wendt & Söhne GmbH`) is one too when its letters begin the words' initials: with
    /// one letter, only where it was read apart.
    static func withoutMarks(_ line: LayoutLine, monogram: Bool = false) -> String {
        guard line.words.count > 1 else { return line.text }
        // A logo of bars read as letters (`III`, `lll`, `|||`) before the name: one shape repeated, taller than the
        // words (a numeral of the name is printed as its words are; `Il Fornaio` is an article).
        if let bars = line.words.first, case let next = line.words[1], (2...4).contains(bars.text.count),
            let shape = bars.text.first, "Il|".contains(shape), bars.text.allSatisfy({ $0 == shape }),
            bars.box.height > 1.15 * next.box.height
        {
            return withoutMarks(
                LayoutLine(page: line.page, words: Array(line.words.dropFirst()), level: line.level, ordered: true),
                monogram: monogram)
        }
        if monogram, Self.isMonogram(line) {
            return withoutMarks(
                LayoutLine(page: line.page, words: Array(line.words.dropFirst()), level: line.level, ordered: true),
                monogram: true)
        }
        let kept = line.words.indices.filter { i in
            let w = line.words[i]
            let t = w.text.trimmingCharacters(in: .whitespaces)
            guard t.count == 1, t != "&" else { return true }
            let others = line.words.indices.filter { $0 != i }.map { line.words[$0].box.height }.sorted()
            let height = others[others.count / 2]
            // A round or square logo read as a letter or digit: taller than the words, and as wide as it is tall.
            if w.box.height > 1.3 * height, w.box.width > 0.8 * w.box.height { return false }
            return t.allSatisfy(\.isNumber) || w.box.height < 1.8 * height && w.confidence >= 0.8
        }.map { line.words[$0] }
        return kept.isEmpty ? line.text : kept.map(\.text).joined(separator: " ")
    }

    /// `mail.evergreen-design.co.uk` → `evergreendesign`, `samsung.nl` → `samsung`: the top-level domain goes, whatever
    /// country's, and then a second level that only says what kind of body it is (`co`, `com`, `org`, `ac`...). Nil
    /// for a free mail service's (`gmail.com`, `web.de`), whose name is no one's firm.
    static func domainStem(_ host: String) -> String? {
        var parts = host.lowercased().split(separator: ".").map(String.init)
        if parts.first == "www" { parts.removeFirst() }
        if parts.count > 1 { parts.removeLast() }
        let generic: Set<String> = [
            "com", "co", "org", "net", "gov", "gv", "edu", "ac", "or", "ne", "go", "gob", "gouv", "nic", "ltd", "plc",
            // Brazil's domains of the professions (`costamoura.arq.br`, `limaadvocacia.adv.br`).
            "adv", "arq", "eng", "med", "odo", "vet", "psi", "fot", "jor", "tur",
        ]
        while parts.count > 1, let last = parts.last, generic.contains(last) { parts.removeLast() }
        let stem = parts.last ?? ""
        return freeMail.contains(stem) ? nil : stem.filter { $0.isLetter || $0.isNumber }
    }

    /// Free mail services' names, as a domain's stem.
    static let freeMail: Set<String> = [
        "gmail", "yahoo", "hotmail", "outlook", "icloud", "aol", "gmx", "web", "orange", "free", "proton", "protonmail",
        "live", "mail", "t-online",
    ]

    /// Whether a domain stem is spelled by the line's words in order, each giving a whole word, its first
    /// letters or nothing: `wilsonkellyhobbs` from `WILSON KELLY AND HOBBS`, `juanb` from `JUAN BAUTISTA
    /// LUQUE MACIAS`, `muellerbau` from `MÜLLER BAU GMBH`. One word at least gives three letters or more,
    /// and the stem has four or more, so that initials alone do not count.
    static func spells(_ stem: String, _ key: String) -> Bool {
        let target = Array(stem)
        guard target.count >= 4 else { return false }
        let words = key.split(separator: " ").map { w in
            Array(
                Self.folded(String(w)).filter {
                    $0.isLetter || $0.isNumber
                })
        }.filter { !$0.isEmpty }
        guard !words.isEmpty else { return false }
        // reach[w][i]: the first i letters of the stem are spelled by words before w (bit 1), with a long part (bit 2).
        var reach = [[UInt8]](repeating: [UInt8](repeating: 0, count: target.count + 1), count: words.count + 1)
        reach[0][0] = 1
        for (w, word) in words.enumerated() {
            for i in 0...target.count where reach[w][i] != 0 {
                reach[w + 1][i] |= reach[w][i]  // the word gives nothing
                var n = 0
                while n < word.count, i + n < target.count, word[n] == target[i + n] {
                    n += 1
                    reach[w + 1][i + n] |= n >= 3 ? 2 : reach[w][i]
                }
            }
        }
        return reach[words.count][target.count] & 2 != 0
    }

    /// A key with German umlauts and `ß`, and the Nordic `Ø`, `Æ` and `Å`, written out as a domain writes them
    /// (`HÜRLIMANN` as `HUERLIMANN`, `ØSTERGAARD` as `OESTERGAARD`).
    static func transliterated(_ key: String) -> String {
        guard key.contains(where: { spelledOut[$0] != nil }) else { return key }
        return key.reduce(into: "") { out, c in out += spelledOut[c] ?? String(c) }
    }

    static let spelledOut: [Character: String] = [
        "Ä": "AE", "Ö": "OE", "Ü": "UE", "ẞ": "SS", "ß": "SS", "Ø": "OE", "Æ": "AE", "Å": "AA",
    ]

    /// The keys of `text` with its `&` written as each locale's word for "and" (`KETTLE AND KITE`), as a domain
    /// spells it; none when it prints no `&`.
    static func ampersandSpelled(_ text: String) -> [String] {
        guard text.contains("&") else { return [] }
        return joinerList.filter { $0 != "&" }.map { Text.key(text.replacingOccurrences(of: "&", with: " \($0) ")) }
    }

    /// The key of `text` with each hyphenated word read as one (`COFOUNDER` of `Co-Founder`), so that a part of it
    /// is no word of its own (`CO`, a legal form).
    static func keyOfWholeWords(_ text: String) -> String {
        Text.key(text.replacingOccurrences(of: "-", with: ""))
    }

    /// Whether the first word of a firm's line is its logo's monogram (see ``withoutMarks(_:monogram:)``).
    static func isMonogram(_ line: LayoutLine) -> Bool {
        let first = line.words[0].text
        let letters = first.filter(\.isLetter)
        guard line.words.count > 1, (1...3).contains(letters.count),
            first.allSatisfy({ $0.isUppercase && $0.isLetter || $0 == "&" })
        else { return false }
        // (A legal form printed before the name, `PT`, `CV`, `AB`, is the logo's only where the recognizer read it
        // apart, and in print of another size or wider apart than words are: `HF` a space and a half before `Harbor
        // & Finch Architects`, though Iceland's firms end with `hf.`.)
        let apart = line.words[0].reference.map { $0.observation != line.words[1].reference?.observation } ?? false
        let h0 = line.words[0].box.height, h1 = line.words[1].box.height
        // (Wider apart: half again the line's other gaps between words, and a quarter of the print's height.)
        let gaps = zip(line.words, line.words.dropFirst()).map { $1.box.minX - $0.box.maxX }
        let others = gaps.dropFirst().sorted()
        let usual = others.isEmpty ? 0 : others[others.count / 2]
        let logo = apart && (abs(h0 - h1) > 0.15 * max(h0, h1) || gaps[0] > max(0.25 * max(h0, h1), 1.5 * usual))
        // (The initials pass over an `&`: `HP Harrow & Pike Accounting LLP`.)
        let words = line.words.dropFirst().map(\.text).filter { $0 != "&" }
        if letters.count == first.count {
            return letters.count >= 2 && (logo || !Text.hasAny(first, lexicon.legalForms))
                && words.count >= first.count
                && initials(words.prefix(first.count).joined(separator: " ")) == first.lowercased()
        }
        return first.hasSuffix("&") && (letters.count >= 2 || apart) && words.count > letters.count
            && initials(words.joined(separator: " ")).hasPrefix(letters.lowercased())
    }

    static func initials(_ key: String) -> String {
        String(key.split(separator: " ").compactMap { $0.first }).lowercased()
    }

    /// Whether `local` (letters only, eight or more) spells two or more whole words of a line in a row
    /// (`maguireplumbing` of `Maguire Plumbing & Heating`, `lepetrindore` of `Boulangerie Le Pétrin Doré`), or the
    /// whole line with its words of three letters or fewer left out (`domainetroischenes`), accents folded and `&`
    /// as `and` or nothing.
    static func spellsWholeName(_ local: String, _ words: [String]) -> Bool {
        guard local.count >= 8 else { return false }
        let plain = words.map { folded($0).filter(\.isLetter) }.filter { !$0.isEmpty }
        let anded = words.map { $0 == "&" ? "and" : folded($0).filter(\.isLetter) }.filter { !$0.isEmpty }
        let spelledOut = words.map { folded(transliterated($0.uppercased())).filter(\.isLetter) }.filter { !$0.isEmpty }
        if plain.filter({ $0.count > 3 }).joined() == local, plain.count >= 2 { return true }
        for ws in [plain, anded, spelledOut] where ws.count >= 2 {
            for i in ws.indices {
                var run = ws[i]
                for j in (i + 1)..<ws.count {
                    run += ws[j]
                    if run == local { return true }
                    if run.count >= local.count { break }
                }
            }
        }
        return false
    }

    /// The locale files' legal forms as a line's key holds one alone (`S P A`, `GMBH`, `LTD`), for a firm's legal form
    /// wrapped onto a line of its own. (Words that also name a firm's kind, `TRADING`, `PARTNERS`, are left out.)
    static let legalFormKeys: Set<String> = Set(lexicon.legalForms.phrases.filter {
        !["TRADING", "PARTNERS", "ASSOCIATES", "GROUP", "HOLDINGS", "COMPANY", "CO"].contains($0)
    })

    /// Whether a key holds legal forms and nothing else (`LTD`, `PTE LTD`, `SDN BHD`, `GMBH & CO KG`, `COMPANY
    /// LIMITED`).
    static func onlyLegalForms(_ key: String) -> Bool {
        let words = key.split(separator: " ").map(String.init)
        // (Letters with stops between them read as one word: `L.L.C.`, `P.L.C.`.)
        let letters = words.count >= 3 && words.allSatisfy { $0.count == 1 } ? words.joined() : nil
        return legalFormKeys.contains(key) || letters.map(legalFormKeys.contains) == true
            || words.contains(where: legalFormKeys.contains)
                && words.allSatisfy { legalFormKeys.contains($0) || ["CO", "COMPANY", "&"].contains($0) }
    }

    /// Whether a line's key holds a word that marks a firm's name on a card: an organization's word, a legal form or a
    /// kind of firm or shop (`Kumasi Timber Works`, `Café Stjernen`, `Bäckerei Hofmann`: the locale files'
    /// `firmKinds`; not the receipts' `businessTypes`, among which are people's names, `Mart`, `Mercado`, `Bar`).
    static func namesAFirm(_ key: String) -> Bool {
        Text.hasAny(key, lexicon.organizationWords) || Text.hasAny(key, lexicon.firmKinds)
    }

    /// What a line's key and words say for its being the firm's name: an organization's word or a legal form much; a
    /// kind of firm or shop (`firmKinds`) less, and only on a line of two to four capitalized words, as a name is
    /// printed with its kind (`Café Stjernen`; not `Member of the Bakers' Guild of Ireland`, nor a person's trade
    /// alone, `Joinery`).
    static func firmWordScore(_ key: String, words: [String]) -> Double {
        if Text.hasAny(key, lexicon.organizationWords) { return 1.5 }
        let named = (2...4).contains(words.count) && words.allSatisfy { $0.first?.isLowercase != true }
        return named && Text.hasAny(key, lexicon.firmKinds) ? 1 : 0
    }

    /// The line that holds the rest of the organization's name stacked in its column (see ``stacked(_:_:_:)``), right
    /// under or over its line `oi`, and whether it is the upper one: a line of letters and no title's or department's
    /// word that, with the organization's line, spells the web or e-mail domain that the organization's line does not
    /// spell alone (`PT Nusantara` / `Mitra Finansial` for `nusantaramitra`, `Balaton` / `Borház Zrt.`, `HARBOUR` /
    /// `DIGITAL` for `harbourdigital`). A tagline under the name spells no more of it (`Consulting Services` under
    /// `Acme Group`), nor does a department over it (`Legal` over `Stonebridge Ventures SA`). With `kindOfFirm`, a
    /// wordmark's two lines also go together when one of them is a bare name and the other, of one to three words,
    /// names the firm's kind or legal form: `Limpopo Water` / `Solutions`, `NORTHBEAM` / `Analytics`, and, printed
    /// larger over a kind alone, `de Waal` / `ADVOCATEN`.
    static func wrappedOrganizationPart(
        _ lines: [AnalyzedLine], _ oi: Int, among others: [Int], domain: String?, kindOfFirm: Bool = true
    ) -> (line: Int, upper: Bool)? {
        let below = stackedUnder(lines, oi, among: others)
        let above = stackedOver(lines, oi, among: others)
        // A bare name: words of letters (and `&`), none a firm's kind or legal form.
        func bare(_ i: Int) -> Bool {
            let ws = lines[i].line.words.map(\.text)
            return (1...4).contains(ws.count) && !namesAFirm(lines[i].key)
                && ws.allSatisfy { $0 == "&" || $0.allSatisfy { $0.isLetter || "'’.-".contains($0) } }
        }
        // A firm's kind: one or two words, or two joined by a small word or `&`, the last of them a kind's word (an
        // English one in the plural too, `Dental Clinics`), no sentence's stop (`Engineering Services`, `estudio de
        // arquitectura`; not `Design. Build. Deliver.`, `Your Local Bakery`). A legal form after them counts as no
        // word, and makes them a kind (`Analytics Pte. Ltd.`, `Print & Pack Co.`).
        func kind(_ i: Int) -> Bool {
            var ws = lines[i].line.words.map(\.text)
            func form(_ w: String) -> Bool { onlyLegalForms(Text.key(w)) || ["CO", "COMPANY"].contains(Text.key(w)) }
            let formed = ws.count >= 2 && !onlyLegalForms(lines[i].key) && ws.last.map(form) == true
            while ws.count > 1, let w = ws.last, form(w) { ws.removeLast() }
            guard ws.count <= 2 || ws.count == 3 && (ws[1].first?.isLowercase == true && ws[1].count <= 3 || ws[1] == "&"),
                let last = ws.last.map(Text.key),
                formed || namesAFirm(last) || last.hasSuffix("S") && namesAFirm(String(last.dropLast()))
                    || onlyLegalForms(lines[i].key)
            else { return false }
            return !ws.contains { w in
                w.contains("!") || w.hasSuffix(".") && !w.dropLast().contains(".") && w.filter(\.isLetter).count >= 4
                    && !Text.hasAny(Text.key(w), lexicon.legalForms)
            }
        }
        // A kind alone, every word of it a firm's kind or legal form (`ADVOCATEN`, `Rechtsanwälte PartG`; not `Nash
        // Ltd`, a name of its own).
        func kindAlone(_ i: Int) -> Bool {
            kind(i) && lines[i].key.split(separator: " ").allSatisfy { $0 == "&" || namesAFirm(String($0)) }
        }
        for (j, upper) in [(below, false), (above, true)] {
            guard let j else { continue }
            let l = lines[j]
            // (Nor does a list of what the firm does: `Laboratory • X-Ray • Ultrasound`.)
            guard Text.digitCount(l.text) == 0, l.entities.isEmpty, !Text.hasAny(l.key, lexicon.jobTitles),
                !Text.hasAny(l.key, lexicon.departmentWords), !l.text.contains(where: { "•·|".contains($0) })
            else { continue }
            if let d = domain, d.count >= 4 {
                let joined = upper ? l.key + " " + lines[oi].key : lines[oi].key + " " + l.key
                if spellsWhole(d, joined), !spellsWhole(d, lines[oi].key) { return (j, upper) }
            }
            // (A name over its kind is the wordmark's main line, printed larger: not a department over the firm,
            // `Finance` / `Willow Networks`, nor a monogram, `HI` / `Hendriks Ingenieursbureau B.V.`.)
            let main = l.line.printHeight > 1.1 * lines[oi].line.printHeight
                && l.line.words.contains { $0.text.count >= 3 }
            // (Where the card has a domain of its own, it spells the name over the kind: `de Waal` of dewaaladvocaten,
            // not a department over it, `Corporate Finance` / `SOLICITORS`.)
            let spelled = domain.map { d in d.count < 4 || spellsWhole(d, l.key + " " + lines[oi].key) } ?? true
            // (A kind's one word goes under any name of no legal form: `Kaveri Legal` / `Associates`.)
            let oneKind = l.line.words.count == 1 && kind(j)
                && !legalFormKeys.contains { lines[oi].key == $0 || lines[oi].key.hasSuffix(" " + $0) }
            if kindOfFirm, upper ? main && spelled && bare(j) && kindAlone(oi) : (bare(oi) || oneKind) && kind(j) {
                return (j, upper)
            }
        }
        return nil
    }

    /// Whether a line's key holds the whole domain stem, its letters together (`levanteenergia` in `LEVANTE ENERGÍA`)
    /// or spelled by its words (`spells`).
    static func spellsWhole(_ stem: String, _ key: String) -> Bool {
        [key, transliterated(key)].contains { k in
            k.replacingOccurrences(of: " ", with: "").lowercased().contains(stem) || spells(stem, k)
        }
    }
}
