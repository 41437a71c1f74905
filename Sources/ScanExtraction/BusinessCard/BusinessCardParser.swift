import Foundation
import ScanDetectors
import ScanLayout
import ScanModel

/// Reads a `BusinessCard` out of analyzed lines. Contacts come from the data
/// detectors; phones are typed from their labels (`T`, `M`, `Mob`, `Fax`, `Tél.`)
/// or, without one, from the number itself; the name is the most prominent
/// name-like line, confirmed by the e-mail's local part; the title sits near it;
/// the organization has a company suffix or matches the e-mail's domain.
public struct BusinessCardParser: Sendable {
    /// The region the card's text points to (`DataDetector.context`) or the user's `--country`: where people carry
    /// two family names, a name is split so (`twoSurnameRegions`).
    public var region: String?

    public init(region: String? = nil) { self.region = region }

    /// The words of every locale file: phone labels, job titles, organization words, honorifics, name suffixes and
    /// particles, departments.
    static let lexicon = Lexicon.shared

    public func parse(_ read: [AnalyzedLine]) -> (BusinessCard, [Finding]) {
        let lines = Self.namesApartFromFirms(read)
        var card = BusinessCard()
        var used = Set<Int>()  // lines taken by contacts
        var wordBeforeEmail: [String: String] = [:]  // the word printed just before an address, a space between
        // --- Contacts.
        for (i, l) in lines.enumerated() {
            for e in l.entities {
                switch e.type {
                case .email:
                    let a = e.value.address ?? e.text.lowercased()
                    if !card.emails.contains(where: { $0.address == a }) {
                        card.emails.append(.init(address: a, source: l.provenance(of: e)))
                    }
                    let before = String(l.text.unicodeScalars.prefix(e.range.start))
                    if before.hasSuffix(" "), let word = before.split(separator: " ").last {
                        wordBeforeEmail[a] = String(word)
                    }
                    used.insert(i)
                case .url:
                    var u = e.text.trimmingCharacters(in: CharacterSet(charactersIn: ".,;"))
                    // `wwww.` is `www.` with a letter doubled by OCR; no address starts so.
                    if let r = u.range(of: #"^[wW]{4,}\."#, options: .regularExpression) {
                        u.replaceSubrange(r, with: "www.")
                    }
                    if let p = Self.profile(u) {
                        card.socialProfiles.append(.init(service: p, value: u, source: l.provenance(of: e)))
                    } else if !card.urls.contains(where: { $0.url == u }) {
                        card.urls.append(.init(url: u, source: l.provenance(of: e)))
                    }
                    used.insert(i)
                case .phone:
                    let type = Self.phoneLabel(l, e) ?? Self.labelApart(lines, i, e) ?? .other
                    let number = e.text
                    let key = e.value.e164 ?? number.filter(\.isNumber)
                    if !card.phones.contains(where: { ($0.e164 ?? $0.number.filter(\.isNumber)) == key }) {
                        card.phones.append(
                            .init(type: type, number: number, e164: e.value.e164, extension: e.value.extension,
                                  source: l.provenance(of: e)))
                    }
                    used.insert(i)
                default: break
                }
            }
            // Handles printed without a URL: `@jdoe`, `in/jdoe`.
            if let m = Text.range(l.text, #"(?i)\b(linkedin|twitter|instagram|github|xing)\s*[:/]\s*(\S+)"#),
                card.socialProfiles.isEmpty
            {
                let s = String(l.text[m])
                if let profile = Self.handleProfile(s) {
                    card.socialProfiles.append(
                        .init(service: profile.service, value: profile.url, source: l.line.provenance()))
                }
                used.insert(i)
            }
        }
        Self.ownSites(lines, &card, used: &used)
        Self.typeUnlabeledPhones(&card.phones)
        // --- Address.
        let emailLocal = card.emails.first.map { String($0.address.prefix { $0 != "@" }).lowercased() }
        let webDomain = card.urls.first.flatMap { Self.domainStem(Self.host($0.url)) }
        let emailHost = card.emails.first.map { String($0.address.split(separator: "@").last ?? "") }
        let freeMail = emailHost.map { Self.domainStem($0) == nil } ?? false
        var domain = emailHost.flatMap(Self.domainStem) ?? webDomain
        let addr = address(lines, used: &used, firmDomain: domain.flatMap { $0.count >= 4 ? $0 : nil })
        card.address = addr?.address
        if let p = addr?.provenance { card.provenance["address"] = p }

        // --- Name, title, organization, department among the remaining lines.
        // An address at a free mail service (`hollowoakjoinery@gmail.com`, `cafestjernen@gmail.com`) names the firm,
        // if anything, in its local part, as a domain would: the card's own site's name first, else the local part's
        // letters. (A person's own, `darnell.whitaker@gmail.com`, is their name's: see the person's own domain below.)
        var localIsDomain = false
        if freeMail, domain == nil, let local = emailLocal {
            domain = String(local.filter(\.isLetter))
            localIsDomain = true
        }
        let free: [Int] = lines.indices.filter { !used.contains($0) }
        let heights = lines.map(\.line.printHeight).sorted()
        let median = heights.isEmpty ? 1 : max(1, heights[heights.count / 2])

        // Organization: a company suffix, or the e-mail or web domain in the text. A suffix word alone beside a
        // title word (`Co-Founder`, `Head of Design`, `Marketing Director`) is a title's, not a company's: more
        // than that is needed.
        let largestPrint = free.map { lines[$0].line.printHeight }.max() ?? 0
        var orgIndex: Int?
        var orgBest = 0.5
        var orgLegal = false
        for i in free {
            let l = lines[i]
            // Opening hours are no firm, whatever their words (`Mo–Fr 6:30–18:30 · Sa 7–13 Uhr`: `Sa` is no `SA`), nor
            // is a social handle that spells the domain (`@costamoura.arq`).
            if Self.holdsHours(l.text) || l.text.trimmingCharacters(in: .whitespaces).hasPrefix("@") { continue }
            // A legal form OCR misread in a look-alike letter (`s.r.I.`, `GMBH` as `GM8H`) still counts. An Irish
            // county that ends a line (`Main Street, Adare, Co. Limerick`) is no company's `Co.`.
            let text = Text.replacing(
                l.text, #",\s*Co\.?\s+(?!(?:Ltd|Limited|Inc|KG|LLC|Pte|Pty)\b)\p{Lu}\p{L}+\s*$"#, with: "")
            let mended = Self.lexicon.mendingLegalForm(text)
            let k = mended == l.text ? l.key : Text.key(mended)
            var s = 0.0
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
                if spellings.contains(where: { k in
                    let compact = k.replacingOccurrences(of: " ", with: "").lowercased()
                    return compact.contains(d) || (compact.count >= 4 && d.contains(compact)) || Self.spells(d, k)
                }) {
                    s += 2
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
            if Text.hasAny(k, Self.lexicon.jobTitles) { s -= 1 }
            // A person's own domain (`sara.barber@barber.com`, `ben@kolar.at`): a line that the domain alone points to,
            // and that the local part, alone or with the domain, spells as a given and a family name, is the person's
            // name.
            if s == 2, let local = emailLocal, let d = domain,
                Self.spellsPerson(local, l.line.words.map(\.text))
                    || Self.spellsPerson(local + d, l.line.words.map(\.text))
            {
                s = 0
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

        // Name: 2 to 4 words of letters; taller print, the e-mail's local part, few title words. (A local part that
        // named the firm, `greystonesfarmshop@gmail.com`, says nothing of the person: `Greystones Farm` is no name.)
        let personLocal = localIsDomain && orgIndex != nil && orgBest >= 2 ? nil : emailLocal
        func nameScore(_ i: Int) -> Double? {
            let l = lines[i]
            let words = l.line.words.map { Self.capitalIRead($0.text) }.filter { $0.contains(where: \.isLetter) }
            // Titles before the name, one after another, may be printed in small letters (`mr. Faye Hendriks`, `prof.
            // dr hab. inż. Tomasz Nowak`); the name is two to five words after them.
            // (A title's word that is also a name's, `Pan Wei`, leaves two words or more, or counts as the name's.)
            let titles = words.prefix { Self.lexicon.honorifics.contains(Text.key($0)) }.count
            let lead = words.count - titles >= 2 ? titles : 0
            guard words.count - lead >= 2 && words.count - lead <= 5, Text.digitCount(l.text) == 0 else { return nil }
            guard
                words.enumerated().allSatisfy({ n, w in
                    w.first!.isUppercase || w.first == "(" || Self.lexicon.nameParticles.contains(w.lowercased())
                        || n < lead
                })
            else { return nil }
            // A line of title words alone (`Chief Executive Officer`) is no one's name, even on a card whose name the
            // OCR garbled: better no name (and the warning that says so) than the title as the person.
            if words.allSatisfy({ Self.lexicon.jobTitles.isFound(in: Text.key($0)) }) { return nil }
            var s = l.line.printHeight / median
            if Text.hasAny(l.key, Self.lexicon.jobTitles) { s -= 1.5 }
            if Self.namesAFirm(l.key) { s -= 1 }
            if Text.hasAny(l.key, Self.lexicon.departmentWords) { s -= 1 }
            if let local = personLocal, Self.matchesLocal(local, words) { s += 1.5 }
            return s - 0.05 * Double(i)
        }
        var nameIndex: Int?
        var nameBest = -Double.infinity
        for i in free where i != orgIndex {
            if let s = nameScore(i), s > nameBest { nameBest = s; nameIndex = i }
        }
        // A given name over its family name, one word a line in the same print (`Harpreet` / `Sandhu`), when the
        // e-mail's local part spells the two (`hsandhu@`) and no line is a name the local part confirms.
        var nameBelow: Int?
        if let local = personLocal,
            nameIndex.map({ !Self.matchesLocal(local, lines[$0].line.words.map(\.text)) }) ?? true
        {
            func oneWord(_ i: Int) -> String? {
                let ws = lines[i].line.words.map(\.text)
                guard ws.count == 1, let w = ws.first, w.count >= 2, w.first?.isUppercase == true,
                    w.allSatisfy({ $0.isLetter || "-'’".contains($0) }),
                    !Text.hasAny(lines[i].key, Self.lexicon.jobTitles),
                    !Text.hasAny(lines[i].key, Self.lexicon.organizationWords)
                else { return nil }
                return w
            }
            for i in free where i != orgIndex {
                guard let given = oneWord(i),
                    let j = Self.wrappedUnder(lines, i, among: free.filter { $0 != i && $0 != orgIndex }),
                    let family = oneWord(j), Self.matchesLocal(local, [given, family])
                else { continue }
                nameIndex = i
                nameBelow = j
                break
            }
        }
        // A line that only the web or e-mail domain made the organization (`Melissa Chase`, `www.chase.com`) is the
        // person's own name when no other line can be one: a card without a name is rarer than a person's own domain.
        if nameIndex == nil, let oi = orgIndex, orgBest == 2,
            !Text.hasAny(lines[oi].key, Self.lexicon.organizationWords), nameScore(oi) != nil
        {
            nameIndex = oi
            orgIndex = nil
        }
        // Degrees wrapped under a name that ends with a comma (`Dr. Otieno Ouma,` / `MBChB, MMed`) go with it.
        if nameBelow == nil, let ni = nameIndex, lines[ni].text.hasSuffix(","),
            let below = Self.wrappedUnder(
                lines, ni, among: free.filter { $0 != ni && $0 != orgIndex }, sizeTolerance: 0.6),
            Self.degreesOnly(lines[below].text)
        {
            nameBelow = below
        }
        var nameCorrection: (from: String, to: String)?
        if let ni = nameIndex {
            let l = lines[ni]
            let printed = Text.clean(l.text) + (nameBelow.map { " " + Text.clean(lines[$0].text) } ?? "")
            var full = printed.split(separator: " ").map { Self.capitalIRead(String($0)) }.joined(
                separator: " ")
            if let local = emailLocal, let fix = Self.agreeWithLocal(full, local) {
                nameCorrection = (full, fix)
                full = fix
            }
            card.name = Self.splitName(
                full, emailLocal: emailLocal, twoSurnames: region.map(Self.twoSurnameRegions.contains) ?? false)
            card.provenance["name"] = l.line.provenance()
        }
        var orgPart: Int?
        var orgLegalForm: Int?  // the legal form under a wordmark's second line
        if let oi = orgIndex {
            var org = Self.withoutMarks(lines[oi].line, monogram: true)
            let others = free.filter { $0 != nameIndex && $0 != nameBelow && $0 != oi }
            // Its legal form wrapped onto the line under it in its column (`Bianchi Impianti` / `S.p.A.`), or the rest
            // of its name (`PT Nusantara` / `Mitra Finansial`).
            // (A short legal form's print measures smaller than the name's, `Meridian Marine Supplies Pte.` / `Ltd.`;
            // and a name that ends with `&` goes on under it, `AGARWAL TEXTILES &` / `EXPORTS`.)
            let last = lines[oi].line.words.last?.text
            if let below = Self.wrappedUnder(lines, oi, among: others, sizeTolerance: 0.6),
                Self.onlyLegalForms(lines[below].key)
            {
                org += " " + lines[below].text
                orgPart = below
            } else if last == "&", let below = Self.wrappedUnder(lines, oi, among: others),
                Text.digitCount(lines[below].text) == 0, lines[below].entities.isEmpty,
                !Text.hasAny(lines[below].key, Self.lexicon.jobTitles)
            {
                org += " " + lines[below].text
                orgPart = below
            } else if let (part, upper) = Self.wrappedOrganizationPart(lines, oi, among: others, domain: domain) {
                orgPart = part
                org = upper ? lines[part].text + " " + org : org + " " + lines[part].text
                // (A wordmark of three lines ends with its legal form: `Deltacrest` / `Engineering Services` /
                // `Limited`.)
                if !upper, let below = Self.wrappedUnder(lines, part, among: others, sizeTolerance: 0.6),
                    Self.onlyLegalForms(lines[below].key)
                {
                    org += " " + lines[below].text
                    orgLegalForm = below
                }
            }
            card.organization = Self.lexicon.mendingLegalForm(Text.clean(org))
            card.provenance["organization"] = lines[oi].line.provenance()
        }
        // Title: a line with a title word, nearest below (or above) the name; else the line right under the name.
        var titleIndex: Int?
        var titleBelow: Int?
        let candidates = free.filter {
            $0 != nameIndex && $0 != nameBelow && $0 != orgIndex && $0 != orgPart && $0 != orgLegalForm
                && Text.hasAny(lines[$0].key, Self.lexicon.jobTitles)
        }
        if let ni = nameIndex {
            // (A line that labels the address or the contacts beside them comes after one as near, `Service Manager`
            // under the name before `Head Office`; a label and whom to call last, `Office Manager: Lisa Grant`.)
            let nameBox = lines[ni].line.box
            // A short line of another column right over the address (or a street's line) or the contacts labels them
            // (`Head Office`).
            func labelsABlock(_ j: Int) -> Bool {
                guard lines[j].line.box.horizontalOverlap(nameBox) <= 0, lines[j].line.words.count <= 4,
                    let below = lines.indices.dropFirst(j + 1).first(where: {
                        lines[$0].line.box.horizontalOverlap(lines[j].line.box) > 0
                    })
                else { return false }
                let gap = lines[below].line.box.minY - lines[j].line.box.maxY
                return gap < 1.5 * lines[j].line.textHeight && (used.contains(below) || Self.streetLike(lines[below]))
            }
            // A label and the name of whom to call (`Office Manager: Lisa Grant`; not `Position: Sales Manager`).
            func namesAContact(_ j: Int) -> Bool {
                guard let colon = lines[j].text.firstIndex(of: ":") else { return false }
                let after = Text.key(String(lines[j].text[lines[j].text.index(after: colon)...]))
                return !after.isEmpty && !Text.hasAny(after, Self.lexicon.jobTitles)
            }
            func distance(_ j: Int) -> Int {
                abs(j - ni) + (j < ni ? 1 : 0) + (labelsABlock(j) ? 2 : 0) + (namesAContact(j) ? lines.count : 0)
            }
            titleIndex = candidates.min { distance($0) < distance($1) }
            if titleIndex == nil {
                titleIndex = Self.lineUnderName(
                    lines, name: nameBelow ?? ni,
                    among: free.filter { $0 != orgIndex && $0 != orgPart && $0 != orgLegalForm && $0 != ni },
                    orgFound: orgIndex != nil)
            }
        } else {
            titleIndex = candidates.first
        }
        if let ti = titleIndex {
            var title = Self.withoutMarks(lines[ti].line)
            // A title wrapped in its column: ended by a joining word (`Responsable de` / `Exportaciones`), or over a
            // line of one or two capitalized words that holds a title's word itself (`Senior Software` / `Architect`;
            // not a department, `Customer Support`, nor the firm).
            let others = free.filter {
                $0 != nameIndex && $0 != nameBelow && $0 != orgIndex && $0 != orgPart && $0 != orgLegalForm && $0 != ti
            }
            // (A joining sign is its own word: `Chief Technology Officer &` / `Co-Founder`.)
            let lastWord = lines[ti].line.words.last?.text ?? ""
            let last = lastWord == "&" ? lastWord : Text.key(lastWord).lowercased()
            if let below = Self.wrappedUnder(lines, ti, among: others),
                Text.digitCount(lines[below].text) == 0
            {
                // (Two words of an English title under a title in another language are its translation, a title of
                // their own: `Directeur Commercial` / `Sales Director`; `Chief Technology` / `Officer EMEA` is one.)
                let ws = lines[below].line.words.map(\.text)
                let translated = ws.count == 2 && Text.hasAny(lines[below].key, Self.englishJobTitles)
                    && Text.hasAny(lines[ti].key, Self.lexicon.jobTitles)
                    && !Text.hasAny(lines[ti].key, Self.englishJobTitles)
                let u = lines[below]
                let noFirmNorDepartment = !Text.hasAny(Self.keyOfWholeWords(u.text), Self.lexicon.organizationWords)
                    && !Text.hasAny(u.key, Self.lexicon.departmentWords)
                let titleWord = ws.count <= 2 && !translated
                    && ws.allSatisfy { $0.first?.isUppercase == true && $0.allSatisfy { $0.isLetter || $0 == "-" } }
                    && Text.hasAny(u.key, Self.lexicon.jobTitles) && noFirmNorDepartment
                // (Or the line under goes on from a joining word in small letters: `and Quality Assurance`, `en droit
                // social`.)
                let first = lines[below].line.words.first?.text ?? ""
                let goesOn = first.first?.isLowercase == true && Self.titleJoiners.contains(first) || first == "&"
                // (Or it names the area the title covers, `Director of Business Development` / `Pacific Northwest
                // Region`, in words of no street, department or firm: not `North West Sales Team`.)
                let area = (1...4).contains(ws.count) && Text.hasAny(u.key, Self.lexicon.areaWords)
                    && !Text.hasAny(u.key, Self.streetWords) && noFirmNorDepartment
                // (Or the title ends with a comma or a colon: `Principal Architect,` / `Healthcare Studio`.)
                let open = (lastWord.hasSuffix(",") || lastWord.hasSuffix(":")) && !Self.holdsHours(u.text)
                    && !Self.holdsDays(u.text)
                if Self.titleJoiners.contains(last) || titleWord || goesOn || area || open {
                    title += " " + lines[below].text
                    titleBelow = below
                }
            }
            card.title = Text.clean(title)
            card.provenance["title"] = lines[ti].line.provenance()
        }
        var departmentIndex: Int?
        if let di = free.first(where: {
            $0 != nameIndex && $0 != orgIndex && $0 != orgPart && $0 != orgLegalForm && $0 != titleIndex
                && $0 != titleBelow
                && Text.hasAny(lines[$0].key, Self.lexicon.departmentWords)
                && Text.digitCount(lines[$0].text) == 0
        }) {
            card.department = Text.clean(lines[di].text)
            card.provenance["department"] = lines[di].line.provenance()
            departmentIndex = di
        }
        // The premises over the street, in the address's block, once every other field has taken its lines.
        if let addr, var address = card.address {
            let fields = [
                nameIndex, nameBelow, orgIndex, orgPart, orgLegalForm, titleIndex, titleBelow, departmentIndex,
            ]
            let taken = used.union(fields.compactMap { $0 })
            let premises = Self.premisesAbove(
                lines, block: addr.lines, taken: taken, firmFound: card.organization != nil)
            if !premises.isEmpty {
                let texts = premises.map { Text.clean(lines[$0].text) }.filter { !$0.isEmpty }
                address.full = (texts + [address.full]).joined(separator: ", ")
                // vCard's ADR and the contacts CSV hold a building's line with the street (RFC 6350 leaves the
                // extended address empty).
                address.street = (texts + (address.street.map { [$0] } ?? [])).joined(separator: ", ")
                card.address = address
                let all = premises + addr.lines
                card.provenance["address"] = Provenance(
                    text: all.map { lines[$0].text }.joined(separator: "\n"), page: addr.provenance.page,
                    boundingBox: BoundingBox.enclosing(all.map { lines[$0].line.box }),
                    confidence: all.map { lines[$0].line.confidence }.min() ?? 0)
            }
        }
        var findings: [Finding] = []
        if let c = nameCorrection {
            findings.append(
                Finding(
                    code: "card-name-from-email",
                    message:
                        "the name was read as '\(c.from)'; one letter was taken from the e-mail address: '\(c.to)'",
                    field: "businessCard.name"))
        }
        if let name = card.name, nameCorrection == nil {
            for n in card.emails.indices {
                let printed = card.emails[n].source.text, read = card.emails[n].address
                let mend =
                    Self.localMendedByName(printed: printed, address: read, name)
                    .map { ($0, "a capital I or a 1 in it was taken for an l, as the name spells it") }
                    ?? Self.localWithoutGluedLabel(printed: printed, address: read, name)
                    .map { ($0, "the label before it was glued on, as the name spells the rest") }
                    ?? Self.localJoinedAcrossSpace(wordBefore: wordBeforeEmail[read], address: read, name)
                    .map { ($0, "its first part was read apart, before a space, as the name spells the whole") }
                if let (mended, why) = mend {
                    findings.append(
                        Finding(
                            code: "card-email-from-name",
                            message: "the e-mail address was read as '\(read)'; \(why): '\(mended)'",
                            field: "businessCard.emails[\(n)]"))
                    card.emails[n].address = mended
                }
            }
        }
        if let org = card.organization {
            for n in card.emails.indices {
                let read = card.emails[n].address
                guard
                    let mended = Self.domainMendedByWeb(
                        address: read, webHosts: card.urls.map { Self.host($0.url) },
                        organization: org)
                else { continue }
                findings.append(
                    Finding(
                        code: "card-email-from-web",
                        message: "the e-mail address was read as '\(read)'; its domain differs from the web "
                            + "address's only by letters OCR mistakes for one another, and the organization spells "
                            + "the web address's: '\(mended)'",
                        field: "businessCard.emails[\(n)]"))
                card.emails[n].address = mended
            }
        }
        if card.name == nil {
            findings.append(
                Finding(code: "card-no-name", message: "no name was found on the card", field: "businessCard.name"))
        }
        return (card, findings)
    }

    /// The address with the card's web domain for its own, when the two differ only by shapes OCR takes for one another
    /// (`osbormehopkins.ca` read for `osbornehopkins.ca`: rn as m; cl as d, vv as w, 1 or I as l, 0 as o) and the
    /// organization's name spells the web domain's stem but not the e-mail's. Nil otherwise.
    static func domainMendedByWeb(address: String, webHosts: [String], organization: String) -> String? {
        guard let at = address.lastIndex(of: "@") else { return nil }
        let domain = address[address.index(after: at)...].lowercased()
        let orgKey = Text.key(organization)
        for h in webHosts {
            let web = h.hasPrefix("www.") ? String(h.dropFirst(4)) : h
            guard web != domain, OCRConfusions.shipped.lookAlike(web, domain),
                spells(domainStem(web) ?? "", orgKey), !spells(domainStem(domain) ?? "", orgKey)
            else { continue }
            return address[...at] + web
        }
        return nil
    }

    /// The title printed without a title word: the line of words right under the name (or right above it),
    /// in its column and in smaller print, whatever the order the columns were read in. Lines with digits,
    /// an `@` or more than six words are no title. When the organization is found on another line, a line right under
    /// the name in print as large as the name's is its title too (`Leon Barkholz` / `Vertriebsingenieur`), and so is
    /// such a line that ends in a word for someone who does something (`Podiatrist`) when no organization is found. No
    /// other line may stand between the two.
    static func lineUnderName(_ lines: [AnalyzedLine], name ni: Int, among free: [Int], orgFound: Bool = false) -> Int?
    {
        let name = lines[ni].line
        let h = max(1, name.printHeight)
        var best: (index: Int, cost: Double)?
        for i in free where i != ni {
            let l = lines[i].line
            let words = l.words.filter { $0.text.contains(where: \.isLetter) }
            let smaller = l.printHeight < h * 0.95
            // A line that names only regions or countries (`Australia`, left over when the address was not read) is no
            // title.
            guard !words.isEmpty, words.count <= 6, Text.digitCount(l.text) == 0, !l.text.contains("@"),
                smaller || (orgFound || Self.namesAnAgent(words.map(\.text))) && l.printHeight <= h * 1.15,
                !Self.lexicon.isPlaceOnly(lines[i].key)
            else { continue }
            // In the name's column: the boxes overlap across, or share a left edge or a centre.
            let overlap = l.box.horizontalOverlap(name.box)
            let aligned = abs(l.box.minX - name.box.minX) < h || abs(l.box.midX - name.box.midX) < h
            guard overlap > 0 || aligned else { continue }
            // The gaps with the page's slant taken out (`level`) and measured with the words' heights: on a card
            // photographed askew, the boxes of two lines overlap though one is printed under the other.
            let half = (l.printHeight + h) / 2
            let below = l.level - name.level - half, above = name.level - l.level - half
            let cost: Double
            if below > -0.5 * h && below < 2 * h {
                cost = max(0, below)
            } else if smaller, above > -0.5 * h && above < 1.2 * h {
                cost = max(0, above) + h
            } else {
                continue
            }
            // Right under (or over) the name means nothing printed between them in the column: a line under the
            // organization that sits under the name is the firm's tagline (`Lawrence Group` / `Digitized discrete
            // projection`).
            // (A rule or a logo read as signs is no line of words.)
            let (top, bottom) = (min(l.level, name.level), max(l.level, name.level))
            let between = lines.indices.contains { j in
                guard j != i, j != ni else { return false }
                let o = lines[j].line
                return o.level > top + 0.3 * h && o.level < bottom - 0.3 * h && o.text.contains(where: \.isLetter)
                    && o.box.horizontalOverlap(l.box) > 0
            }
            if between { continue }
            if best == nil || cost < best!.cost { best = (i, cost) }
        }
        return best?.index
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
        let first = line.words[0].text
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

    /// Types the phones printed without a label (cards often mark them with icons OCR doesn't read). When another
    /// number is labelled mobile, they are office lines; when the numbers themselves tell mobile from fixed, that
    /// decides; otherwise cards list the office line first and the mobile second.
    static func typeUnlabeledPhones(_ phones: inout [BusinessCard.Phone]) {
        let unlabeled = phones.indices.filter { phones[$0].type == .other }
        guard !unlabeled.isEmpty else { return }
        let mobileByNumber = unlabeled.map { isMobileNumber(e164: phones[$0].e164) }
        let labelledMobile = phones.contains { $0.type == .mobile }
        let labelledAny = unlabeled.count < phones.count
        for (n, i) in unlabeled.enumerated() {
            if labelledMobile {
                phones[i].type = .work
            } else if mobileByNumber.contains(true) || labelledAny {
                phones[i].type = mobileByNumber[n] ? .mobile : .work
            } else {
                phones[i].type = n == 1 ? .mobile : .work
            }
        }
    }

    /// The phone's type from the label printed just before it, else from the number.
    static func phoneType(_ l: AnalyzedLine, _ e: Entity) -> BusinessCard.PhoneType {
        phoneLabel(l, e) ?? (isMobileNumber(e) ? .mobile : .work)
    }

    /// The phone's type from the label printed just before it, or nil without one.
    static func phoneLabel(_ l: AnalyzedLine, _ e: Entity) -> BusinessCard.PhoneType? {
        let before = String(l.text.unicodeScalars.prefix(e.range.start))
        // The last label-like word before the number (after any earlier number on the line).
        let words = Text.key(before).split(separator: " ").map(String.init)
        // A label of two letters apart (`H/P`, Malaysia's hand phone) before one of its letters alone.
        if words.count >= 2, words.suffix(2).allSatisfy({ $0.count == 1 }),
            let type = labelType(words.suffix(2).joined(separator: " "))
        {
            return type
        }
        if let w = words.last(where: { !$0.allSatisfy(\.isNumber) }),
            words.last.map({ !$0.allSatisfy(\.isNumber) }) ?? false || words.count <= 2,
            let type = labelType(w)
        {
            return type
        }
        return words.last.flatMap(labelType)
    }

    /// The type a label word names. The label decides, even over the numbering plan: `T 07984 440907` is the card's
    /// office line though the number is in a mobile range (cards-dev's cards say so).
    static func labelType(_ w: String) -> BusinessCard.PhoneType? {
        if lexicon.mobileLabels.contains(w) { return .mobile }
        if lexicon.faxLabels.contains(w) { return .fax }
        if lexicon.workLabels.contains(w) { return .work }
        return nil
    }

    /// The type a label printed apart from the number names, when nothing is printed before the number on its own
    /// line: a label word on the same row to its left that the layout read as a column of its own (`Fax` ... `030
    /// 804700`), else one on a line of its own right above it (`Fax` over `030 804700`).
    static func labelApart(_ lines: [AnalyzedLine], _ i: Int, _ e: Entity) -> BusinessCard.PhoneType? {
        let l = lines[i].line
        guard l.text.unicodeScalars.prefix(e.range.start).allSatisfy({ $0 == " " }) else { return nil }
        let h = max(1, l.printHeight)
        func oneLabel(_ j: Int) -> BusinessCard.PhoneType? {
            let words = Text.key(lines[j].text).split(separator: " ").map(String.init)
            return words.count == 1 ? labelType(words[0]) : nil
        }
        let others = lines.indices.filter { $0 != i }
        let left = others.filter { j in
            let o = lines[j].line
            return abs(o.level - l.level) < 0.5 * h && o.box.maxX <= l.box.minX + 0.2 * h
                && l.box.minX - o.box.maxX < 4 * h
        }
        if let j = left.max(by: { lines[$0].line.box.maxX < lines[$1].line.box.maxX }) { return oneLabel(j) }
        let above = others.filter { j in
            let o = lines[j].line
            let gap = l.level - o.level
            return gap > 0.5 * h && gap < 2.2 * h && o.box.horizontalOverlap(l.box) > 0
        }
        return above.max(by: { lines[$0].line.level < lines[$1].line.level }).flatMap(oneLabel)
    }

    /// Whether the number is a mobile by its region's numbering plan (libphonenumber's ranges, every region).
    static func isMobileNumber(_ e: Entity) -> Bool { isMobileNumber(e164: e.value.e164) }

    static func isMobileNumber(e164: String?) -> Bool {
        e164.flatMap(PhoneLineKind.of(e164:)) == .mobile
    }

    /// A profile printed as a service's name and a handle (`Twitter: @jonasberg`, `LinkedIn in/anna-kowalska`): its
    /// service as ``profile(_:)`` names it and its address as a printed URL would be (`x.com/jonasberg`,
    /// `linkedin.com/in/anna-kowalska`), so that the vCard and the JSON hold a link, not the label.
    static func handleProfile(_ printed: String) -> (service: String, url: String)? {
        let name = String(printed.prefix { $0.isLetter }).lowercased()
        let handle = printed.dropFirst(name.count).drop { " :/@".contains($0) }
            .trimmingCharacters(in: CharacterSet(charactersIn: ".,;)"))
        guard !handle.isEmpty else { return nil }
        switch name {
        case "twitter": return ("x", "x.com/" + handle)
        case "linkedin":
            let path = ["in/", "company/", "pub/"].contains { handle.lowercased().hasPrefix($0) } ? handle : "in/" + handle
            return ("linkedin", "linkedin.com/" + path)
        case "instagram": return ("instagram", "instagram.com/" + handle)
        case "github": return ("github", "github.com/" + handle)
        case "xing": return ("xing", "xing.com/profile/" + handle)
        default: return nil
        }
    }

    static func profile(_ url: String) -> String? {
        let u = url.lowercased()
        for (host, name) in [
            ("linkedin.com", "linkedin"), ("twitter.com", "x"), ("x.com/", "x"), ("instagram.com", "instagram"),
            ("facebook.com", "facebook"), ("github.com", "github"), ("xing.com", "xing"), ("youtube.com", "youtube")
        ] {
            if u.contains(host) && (u.contains("/") || host.hasSuffix("/")) && !u.hasSuffix(host) { return name }
        }
        return nil
    }

    /// A bare host printed on the card that is its own e-mail's domain is the card's web address, where the detector
    /// alone doubts it: `Web seorin.ai` beside `jiwoo.park@seorin.ai` (a bare `.ai` name is as often a file).
    static func ownSites(_ lines: [AnalyzedLine], _ card: inout BusinessCard, used: inout Set<Int>) {
        let domains = Set(card.emails.compactMap { $0.address.split(separator: "@").last.map { $0.lowercased() } })
        guard !domains.isEmpty else { return }
        func bare(_ host: String) -> String { host.hasPrefix("www.") ? String(host.dropFirst(4)) : host }
        var known = Set(card.urls.map { bare(host($0.url)) })
        for (i, l) in lines.enumerated() {
            for (k, word) in l.line.words.enumerated() {
                let token = word.text.trimmingCharacters(in: CharacterSet(charactersIn: ".,;:()"))
                let site = bare(token.lowercased())
                guard domains.contains(site), !known.contains(site) else { continue }
                card.urls.append(.init(url: token, source: l.line.provenance(words: k..<k + 1)))
                known.insert(site)
                // (A line that says more, `Seorin Robotics (seorin.ai)`, may still be the firm's.)
                if l.line.words.count <= 2 { used.insert(i) }
            }
        }
    }

    static func host(_ url: String) -> String {
        var u = url.lowercased()
        if let r = u.range(of: "://") { u = String(u[r.upperBound...]) }
        return String(u.prefix { $0 != "/" })
    }

    /// `mail.evergreen-design.co.uk` → `evergreendesign`, `samsung.nl` → `samsung`: the top-level domain goes, whatever
    /// country's, and then a second level that only says what kind of body it is (`co`, `com`, `org`, `ac`...). Nil
    /// for a free mail service's (`gmail.com`, `web.de`), whose name is no one's firm.
    static func domainStem(_ host: String) -> String? {
        var parts = host.lowercased().split(separator: ".").map(String.init)
        if parts.first == "www" { parts.removeFirst() }
        if parts.count > 1 { parts.removeLast() }
        let generic: Set<String> = [
            "com", "co", "org", "net", "gov", "gv", "edu", "ac", "or", "ne", "go", "gob", "gouv", "nic", "ltd", "plc"
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

    /// Two to four capitalized names joined the way a firm joins its partners' names: by a comma and a word for
    /// "and" (`Shaw, Gaines and Martin`, `Brouwer & Schenk`, `Dupont et Fils`), or by a hyphen within one word
    /// (`Marshall-Dawson`). A person's name on a card has no joiner.
    static func joinedSurnames(_ text: String) -> Bool {
        var t = text.trimmingCharacters(in: .whitespaces)
        guard !t.contains(where: \.isNumber) else { return false }
        // In capitals (`OCONNOR, RAMIREZ AND PRICE`): as it would be written in small letters.
        if t.contains(where: \.isLetter), t == t.uppercased() {
            t = t.split(separator: " ").map { w in
                let lower = w.lowercased()
                return joiners.contains(lower.trimmingCharacters(in: .punctuationCharacters))
                    ? lower : lower.prefix(1).uppercased() + lower.dropFirst()
            }.joined(separator: " ")
        }
        return Text.range(t, hyphenedNames) != nil || t.contains(",") && Text.range(t, listedNames) != nil
            || Text.range(t, pairedNames) != nil
    }

    // The patterns of `joinedSurnames`, put together once.
    private static let surname = #"\p{Lu}[\p{Ll}'’]+"#
    /// Words for "and" between partners' names: the locale files' `nameJoiners`.
    private static let joinerList = Self.lexicon.nameJoiners
    private static let joiners = Set(joinerList)
    private static func alternatives(_ words: [String]) -> String {
        "(?:" + words.map { NSRegularExpression.escapedPattern(for: $0) }.joined(separator: "|") + ")"
    }
    /// A comma, a word for "and", or both (`Shaw, Gaines, and Martin`).
    private static let nameJoiner: String = {
        let and = alternatives(joinerList)
        return #"(?:,\s*(?:"# + and + #"\s+)?|\s+"# + and + #"\s+)"#
    }()
    private static let hyphenedNames = "^" + surname + "-" + surname + "$"
    private static let listedNames = "^" + surname + "(?:" + nameJoiner + surname + "){1,3}$"
    /// Two names and a joiner without a comma (`Brouwer & Schenk`, `Berg og Dahl`). A one-letter joiner also joins a
    /// person's two family names (`Ortega y Gasset`, `Silva e Santos`), so it makes a firm only in a list with a comma.
    private static let pairedNames =
        "^" + surname + #"\s+"# + alternatives(joinerList.filter { $0.count > 1 || $0 == "&" })
        + #"\s+"# + surname + "$"

    /// The lines with a person's name and a firm's set on one baseline and read as one line (`OLIVIA CHEN-MACKENZIE
    /// Fogline Studios Ltd.`) cut in two: one part is the person the card's e-mail names (`olivia@...`), two to four
    /// capitalized words, the other a firm's name, by a legal form at its end or by spelling the e-mail's domain
    /// (`foglinestudios`). A line with a contact on it, or whose one part alone is neither, is left whole.
    static func namesApartFromFirms(_ lines: [AnalyzedLine]) -> [AnalyzedLine] {
        guard let email = lines.lazy.flatMap({ $0.entities }).first(where: { $0.type == .email }),
            let address = email.value.address ?? Optional(email.text.lowercased()),
            let at = address.firstIndex(of: "@")
        else { return lines }
        let local = String(address[..<at]).lowercased()
        let stem = (domainStem(String(address[address.index(after: at)...])) ?? "").replacingOccurrences(of: "-", with: "")
        func person(_ words: [LayoutWord]) -> Bool {
            let ws = words.map(\.text).filter { !lexicon.nameSuffixes.contains(Text.key($0)) }
            let key = Text.key(ws.joined(separator: " "))
            return (2...4).contains(ws.count) && ws.allSatisfy { $0.first?.isUppercase == true }
                && matchesLocal(local, ws) && !spellsWhole(stem, key)
                && !Text.hasAny(key, lexicon.organizationWords) && !Text.hasAny(key, lexicon.jobTitles)
        }
        func firm(_ words: [LayoutWord]) -> Bool {
            let key = Text.key(words.map(\.text).joined(separator: " ")).trimmingCharacters(in: .whitespaces)
            // (It opens with a capitalized word of its own: not `& Fils inc.`, nor the person's `PhD`.)
            guard words.count >= 2, let first = words.first?.text, first.first?.isUppercase == true,
                !lexicon.nameSuffixes.contains(Text.key(first))
            else { return false }
            return legalFormKeys.contains { key.hasSuffix(" " + $0) } || stem.count >= 4 && spellsWhole(stem, key)
        }
        // A card that prints the person's name on a line of its own keeps its firm's line whole (`Sarah Mitchell` over
        // `Sarah Mitchell Architects Ltd`).
        guard !lines.contains(where: { $0.entities.isEmpty && person($0.line.words) }) else { return lines }
        return lines.flatMap { l -> [AnalyzedLine] in
            let words = l.line.words
            // Where the whole line spells the domain, the firm's part must spell it alone: `James Harper Lane LLP` of
            // `harperlane.co.uk` is one firm's name.
            let wholeSpells = stem.count >= 4 && spellsWhole(stem, l.key)
            func cut(_ p: [LayoutWord], _ f: [LayoutWord]) -> Bool {
                person(p) && firm(f)
                    && (!wholeSpells || spellsWhole(stem, Text.key(f.map(\.text).joined(separator: " "))))
            }
            guard l.entities.isEmpty, l.standingPhone == nil, (4...9).contains(words.count),
                let k = (2..<(words.count - 1)).first(where: { k in
                    let (a, b) = (Array(words[..<k]), Array(words[k...]))
                    return cut(a, b) || cut(b, a)
                })
            else { return [l] }
            return [Array(words[..<k]), Array(words[k...])].map { part in
                AnalyzedLine(
                    line: LayoutLine(page: l.line.page, words: part, level: l.line.level, ordered: true),
                    labelWordCount: part.count, trailing: [], entities: [])
            }
        }
    }

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
        // apart and in print of another size.)
        let apart = line.words[0].reference.map { $0.observation != line.words[1].reference?.observation } ?? false
        let h0 = line.words[0].box.height, h1 = line.words[1].box.height
        let logo = apart && abs(h0 - h1) > 0.15 * max(h0, h1)
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

    /// `s` in lower case and without its accents, as an e-mail address or a domain writes a name: also the letters
    /// that have no accent to drop (`ı` of `Yılmaz`, `ł`, `ø`, `đ`), each as the one ASCII letter it is written with.
    static func folded(_ s: String) -> String {
        let plain = s.lowercased().folding(options: .diacriticInsensitive, locale: nil)
        guard plain.unicodeScalars.contains(where: { $0.value >= 0x80 }) else { return plain }
        return String(plain.map { Self.asciiLetters[$0] ?? $0 })
    }

    /// Lower-case letters with no accent to fold away, and the ASCII letter an address writes for each.
    static let asciiLetters: [Character: Character] = ["ı": "i", "ł": "l", "ø": "o", "đ": "d", "ð": "d", "ħ": "h"]

    /// A name's word or an e-mail's local part as addresses spell it: lower case, without accents, letters only
    /// (`Chloé-Anne` is `chloeanne`).
    static func plainLetters(_ s: String) -> String {
        Self.folded(s).filter(\.isLetter)
    }

    /// `johnm`, `john.moore`, `jmoore`, `moore` against `John Moore` (accents aside: `chloe` for `Chloé`).
    static func matchesLocal(_ local: String, _ words: [String]) -> Bool {
        let ws = words.filter { plainLetters($0).count >= 2 }
        guard let first = ws.first, let last = ws.last else { return false }
        let l = plainLetters(local)
        if l.isEmpty { return false }
        return spellings(first).contains { given in
            spellings(last).contains { family in
                l.contains(family) || l.contains(given) && given.count >= 3
                    || l == String(given.prefix(1)) + family || l == given + String(family.prefix(1))
            }
        }
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

    /// Whether a line names days of the week as opening times do (`Mon to Fri`, `Lun–Ven`, `Mo-Fr`).
    static func holdsDays(_ text: String) -> Bool {
        let day = #"(?:mon|tue|wed|thu|fri|sat|sun|lun|mar|mer|jeu|ven|sam|dim|mo|di|mi|do|fr|sa|so)[a-z]*\.?"#
        return Text.range(text, #"(?i)\b"# + day + #"\s*(?:[–-]|to|à|bis|a)\s*"# + day + #"(?:\s|$|,)"#) != nil
    }

    /// Whether a line holds only degrees or a name's suffixes, parted by commas (`MBChB, MMed`, `PhD, FRCS`, `CPA`):
    /// each of two to seven letters with two capitals or more, or a suffix of the locale files.
    static func degreesOnly(_ text: String) -> Bool {
        let parts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        return (1...4).contains(parts.count) && parts.allSatisfy { p in
            let letters = p.filter { $0 != "." }
            return lexicon.nameSuffixes.contains(Text.key(p))
                || (2...7).contains(letters.count) && letters.allSatisfy(\.isLetter)
                    && letters.filter(\.isUppercase).count >= 2
        }
    }

    /// Whether a line holds a range of hours with their minutes or their unit (`6:30–18:30`, `7–13 Uhr`, `9am-5pm`);
    /// a bare range is no time (`24-7 Locksmiths Ltd`, `9-5 Recruitment`).
    static func holdsHours(_ text: String) -> Bool {
        let time = #"\d{1,2}(?:[:.]\d{2})?\s?(?:am|pm|h|Uhr)?"#
        guard let r = Text.range(text, #"(?:^|[\s(·])"# + time + #"\s?[–-]\s?"# + time + #"(?:$|[\s)·,])"#) else {
            return false
        }
        return Text.range(String(text[r]), #"\d[:.]\d{2}|\d\s?(?:am|pm|h|Uhr)\b"#) != nil
    }

    /// An Irish county's line, `Co.` and one or two words (`Co. Down`, `CO. TYRONE`), in the Republic or in Northern
    /// Ireland, whose counties are no region of the locale files: a company's name does not start with `Co.`.
    static func countyLine(_ key: String) -> Bool {
        let words = key.split(separator: " ")
        return words.first == "CO" && (2...3).contains(words.count) && words.dropFirst().allSatisfy { $0.count >= 3 }
    }

    /// Whether the last of one to four words ends like a word for someone by what they do (`Podiatrist`, `Urbaniste`,
    /// `Entwicklerin`: the locale files' `jobTitleEndings`). An English `-er` is not one, as many surnames end so
    /// (`Miller`), and so do firms named after one.
    static func namesAnAgent(_ words: [String]) -> Bool {
        guard (1...4).contains(words.count),
            let last = words.last.map(Self.folded),
            last.count >= 6, last.allSatisfy(\.isLetter)
        else { return false }
        return Self.lexicon.jobTitleEndings.contains { last.hasSuffix($0) }
    }

    /// The local part of an e-mail address as printed (`Imeadows` in `E. Imeadows@davidson.com`), in its printed case.
    static func printedLocalPart(_ printed: String) -> String? {
        printed.split(separator: "@").first.map { String($0.split(separator: " ").last ?? $0) }
    }

    /// The e-mail address with the capital `I`s and the `1`s of its local part read as `l`, when only then does the
    /// local part spell the card's name (`Imeadows@...` printed for Lori Meadows, `I.hansen@...` or `1.hansen@...` for
    /// Lisa Hansen): in a sans-serif face the three are nearly one shape. Nil when the address spells the name as read,
    /// or does not with the mend either.
    static func localMendedByName(printed: String, address: String, _ name: BusinessCard.Name) -> String? {
        guard let at = address.firstIndex(of: "@"), let given = name.given, let family = name.family,
            let printedLocal = printedLocalPart(printed), printedLocal.contains(where: { $0 == "I" || $0 == "1" }),
            printedLocal.lowercased() == String(address[..<at])
        else { return nil }
        let words = [given, family]
        guard !spellsPerson(String(address[..<at]), words) else { return nil }
        let mended = String(printedLocal.map { $0 == "I" || $0 == "1" ? "l" : Character($0.lowercased()) })
        return spellsPerson(mended, words) ? mended + address[at...] : nil
    }

    /// The e-mail address without a label glued to it by a lost space (`Mailg.cadorna@...`, `E.j.mercado@...`), when
    /// the rest of the local part spells the card's name and the address as read does not. Nil otherwise.
    static func localWithoutGluedLabel(printed: String, address: String, _ name: BusinessCard.Name) -> String? {
        guard let at = address.firstIndex(of: "@"), let given = name.given, let family = name.family,
            printedLocalPart(printed)?.first?.isUppercase == true
        else { return nil }
        let local = String(address[..<at]), words = [given, family]
        guard !spellsPerson(local, words) else { return nil }
        for label in Self.lexicon.emailLabels where local.hasPrefix(label) && local.count > label.count + 2 {
            // (The label's own full stop or colon goes with it: `E.j.mercado@...`.)
            let rest = String(local.dropFirst(label.count).drop { ".:-_".contains($0) })
            // The rest may be the whole name, or its family or given name alone (`payne@`, `tracy@`).
            let plain = plainLetters(rest)
            if rest.count >= 2,
                spellsPerson(rest, words) || spellings(family).contains(plain)
                    || plain.count >= 3 && spellings(given).contains(plain)
            {
                return rest + address[at...]
            }
        }
        return nil
    }

    /// The e-mail address with the word before it joined on, when OCR read a space inside the local part (`james
    /// _johnson@`, `anna .berg@`, `charlotte. bowes-lyon@`): one separator at the space, letters before it, and the
    /// joined local part spells the card's name. Nil otherwise.
    static func localJoinedAcrossSpace(wordBefore before: String?, address: String, _ name: BusinessCard.Name)
        -> String?
    {
        guard let at = address.firstIndex(of: "@"), let given = name.given, let family = name.family,
            let first = address.first, let before, let last = before.last
        else { return nil }
        // The separator ends the word before or starts the address, not both.
        guard "._-".contains(first) != "._-".contains(last) else { return nil }
        let letters = "._-".contains(last) ? before.dropLast() : before[...]
        guard !letters.isEmpty, letters.allSatisfy(\.isLetter) else { return nil }
        let joined = before.lowercased() + address[..<at]
        return spellsPerson(joined, [given, family]) ? joined + address[at...] : nil
    }

    /// Whether the e-mail's local part is the whole of a person's name printed as `words`: the given and family
    /// names in either order, or one of them cut to its initial (`sarabarber`, `barber.sara`, `sbarber`, `mariam`).
    static func spellsPerson(_ local: String, _ words: [String]) -> Bool {
        guard (2...3).contains(words.count), let first = words.first, let last = words.last,
            words.allSatisfy({ plainLetters($0).count >= 2 })
        else { return false }
        let l = plainLetters(local)
        for given in spellings(first) {
            for family in spellings(last) {
                let g = String(given.prefix(1)), f = String(family.prefix(1))
                if [given + family, family + given, g + family, given + f, family + g, f + given].contains(l) {
                    return true
                }
            }
        }
        return false
    }

    /// The ways an address spells a name's word: without accents (`Hänel` as `hanel`), and with German umlauts
    /// and `ß` written out (`haenel`).
    static func spellings(_ word: String) -> [String] {
        let plain = plainLetters(word), spelled = plainLetters(transliterated(word.uppercased()))
        return plain == spelled ? [plain] : [plain, spelled]
    }

    /// A word of a name with its first letter read as `l` where a capital `I` was printed (`lain` for `Iain`, `lrene`):
    /// in a sans-serif face the two are one shape, and a name's word starts with a capital. Particles (`la`) stay.
    static func capitalIRead(_ word: String) -> String {
        guard word.count >= 3, word.first == "l", word.dropFirst().allSatisfy({ $0.isLetter && $0.isLowercase }),
            !lexicon.nameParticles.contains(word)
        else { return word }
        return "I" + word.dropFirst()
    }

    /// The name with one word mended from the e-mail's local part, when OCR misread a single
    /// letter of it (`Dilliam Hernandez`, `williamh@...`): a word of five letters or more that
    /// the local part lacks, but holds with exactly one letter different, at its start or end or
    /// between separators. Nil when no word needs or allows such a mend.
    static func agreeWithLocal(_ name: String, _ local: String) -> String? {
        let pieces = local.lowercased().split(whereSeparator: { !$0.isLetter }).map { Array($0) }
        let joined = pieces.flatMap { $0 }
        var words = name.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        for (k, word) in words.enumerated() {
            // Compared without accents: an e-mail address spells `Chloé` as `chloe`.
            let printed = Array(word)
            let letters = Array(Self.folded(word))
            guard letters.count >= 5, letters.count == printed.count, letters.allSatisfy(\.isLetter),
                !String(joined).contains(String(letters))
            else { continue }
            // Places where a name word may stand in the local part: each piece's start and end.
            var spans: [[Character]] = []
            for piece in pieces where piece.count >= letters.count {
                spans.append(Array(piece.prefix(letters.count)))
                spans.append(Array(piece.suffix(letters.count)))
            }
            let mends = Set(spans.filter { Text.oneLetterApart($0, letters) }.map { String($0) })
            guard mends.count == 1, let mend = mends.first.map(Array.init) else { continue }
            // Only the differing letter changes; the printed capitals and accents stay.
            words[k] = String(
                printed.indices.map { i in
                    letters[i] == mend[i]
                        ? printed[i] : printed[i].isUppercase ? Character(mend[i].uppercased()) : mend[i]
                })
            return words.joined(separator: " ")
        }
        return nil
    }

    /// Where a person's family name is two surnames (`García López`, `da Silva Santos`) and a given name may be two
    /// (`María José`, `João Pedro`): Spain, Portugal and Latin America.
    static let twoSurnameRegions: Set<String> = [
        "ES", "PT", "BR", "MX", "AR", "CL", "CO", "PE", "VE", "EC", "UY", "PY", "BO", "CR", "GT", "DO", "CU", "HN",
        "NI", "SV", "PA", "PR",
    ]

    /// Where the family name starts among `words` by the e-mail's local part: the first word (of three letters or
    /// more, not the first) that the local part spells, when what comes before it there is the words before it, each
    /// as its initial or in full, in order (`mjgarcia` for `María José García López` starts it at `García`;
    /// `jlrodriguez` for `José Luis Rodríguez` at `Rodríguez`). Nil when the local part says nothing so.
    static func familyStart(_ words: [String], emailLocal local: String) -> Int? {
        func fold(_ w: String) -> [Character] {
            Array(Self.folded(w).filter(\.isLetter))
        }
        let folded = words.map(fold), l = fold(local)
        guard words.count >= 3, l.count >= 4 else { return nil }
        /// Whether `rest` is some of `words`, in order, each whole or as its initial.
        func spelled(_ rest: ArraySlice<Character>, by words: ArraySlice<[Character]>) -> Bool {
            if rest.isEmpty { return true }
            for (n, w) in zip(words.indices, words) where !w.isEmpty && rest.first == w.first {
                let after = words[(n + 1)...]
                if rest.starts(with: w), spelled(rest.dropFirst(w.count), by: after) { return true }
                if spelled(rest.dropFirst(), by: after) { return true }
            }
            return false
        }
        for k in 1..<words.count where folded[k].count >= 3 && folded[k].count < l.count
            && !lexicon.nameParticles.contains(words[k].lowercased())
        {
            guard let at = (0...(l.count - folded[k].count)).first(where: { l[$0...].starts(with: folded[k]) }) else {
                continue
            }
            // Two surnames at most follow (`mariajose` spells given names only, not where three surnames start).
            let surnames = words[k...].filter { !lexicon.nameParticles.contains($0.lowercased()) }.count
            if at > 0, surnames <= 2, spelled(l[..<at], by: folded[..<k]) { return k }
        }
        return nil
    }

    static func splitName(_ s: String, emailLocal: String? = nil, twoSurnames: Bool = false) -> BusinessCard.Name {
        var words = s.split(separator: " ").map(String.init)
        var prefix: String?, suffix: String?
        // Honorifics one after another (`Prof. Dr.`, `Dr.-Ing.`, `Dott. Ing.`), as long as a given and a family name
        // are left. After the first, only abbreviations of two letters or more count (`Dr. M. Anand Kumar`'s `M.` is
        // an initial, `Dr. Don Draper`'s `Don` a name), or titles in small letters (`prof. dr hab. inż.`).
        var prefixes: [String] = []
        while let f = words.first, words.count > 2, isHonorific(f),
              prefixes.isEmpty || f.hasSuffix(".") && f.filter(\.isLetter).count >= 2 || f.first?.isLowercase == true {
            prefixes.append(f)
            words.removeFirst()
        }
        if !prefixes.isEmpty { prefix = prefixes.joined(separator: " ") }
        // Degrees after a comma (`Otieno Ouma, MBChB, MMed`) are the suffix.
        if let comma = words.firstIndex(where: { $0.hasSuffix(",") }), comma >= 1, comma < words.count - 1,
            degreesOnly(words[(comma + 1)...].joined(separator: " "))
        {
            suffix = words[(comma + 1)...].joined(separator: " ")
            words = Array(words[...comma])
            words[comma].removeLast()
        } else if let l = words.last, words.count > 2, lexicon.nameSuffixes.contains(Text.key(l)) {
            suffix = l
            words.removeLast()
            if var last = words.last, last.hasSuffix(",") { last.removeLast(); words[words.count - 1] = last }
        }
        // A family name set in capitals before the given name, as Japanese, Chinese, French and Italian cards print it
        // (`YAMAMOTO Keiko`, `DUPONT Jean-Marc`): a first word in capitals before names that are not is the family
        // name. (Not an honorific, `MRS Smith`; nor before an initial, `DAVID J. Smith`.)
        if words.count >= 2, isCapitalized(words[0]), !isHonorific(words[0]),
           words.dropFirst().allSatisfy({
               !isCapitalized($0) && $0.first?.isUppercase == true && $0.filter(\.isLetter).count >= 2
                   && !$0.hasSuffix(".")
           })
        {
            return BusinessCard.Name(
                full: s, given: words[1], family: words[0],
                middle: words.count > 2 ? words[2...].joined(separator: " ") : nil, prefix: prefix, suffix: suffix)
        }
        let isParticle = { (w: String) in lexicon.nameParticles.contains(w.lowercased()) }
        // Family names with particles: `van der Berg`, `de la Fontaine`.
        var familyStart = max(1, words.count - 1)
        if twoSurnames, words.count >= 3 {
            // Two surnames where people carry them: after the given name of one word or two that the e-mail spells
            // (`mjgarcia`), else after one of three names and two of four or more (`Luis Fernández Martín`, `João
            // Pedro da Silva Santos`), a particle going with the name after it.
            let heads = words.indices.filter { $0 == 0 || !isParticle(words[$0]) }.map { k in
                var k = k
                while k > 1, isParticle(words[k - 1]) { k -= 1 }
                return k
            }
            var start = heads.count >= 4 ? heads[2] : heads.count == 3 ? heads[1] : familyStart
            if let local = emailLocal, let k = Self.familyStart(words, emailLocal: local) { start = k }
            familyStart = start
        }
        while familyStart > 1, isParticle(words[familyStart - 1]) { familyStart -= 1 }
        let family = words.count > 1 ? words[familyStart...].joined(separator: " ") : nil
        // A two-surname name has no middle name: the words before the surnames are the given name.
        if twoSurnames, familyStart > 1 {
            return BusinessCard.Name(
                full: s, given: words[..<familyStart].joined(separator: " "), family: family, middle: nil,
                prefix: prefix, suffix: suffix)
        }
        let middle = familyStart > 1 ? words[1..<familyStart].joined(separator: " ") : nil
        return BusinessCard.Name(
            full: s, given: words.first, family: family, middle: middle, prefix: prefix, suffix: suffix)
    }

    /// An honorific word, or one of honorifics joined by a hyphen (`Dr.-Ing.`).
    static func isHonorific(_ word: String) -> Bool {
        let key = Text.key(word)
        return lexicon.honorifics.contains(key)
            || key.contains(" ") && key.split(separator: " ").allSatisfy { lexicon.honorifics.contains(String($0)) }
    }

    /// A word in capitals of three letters or more (`YAMAMOTO`, `DUPONT-MOREL`), not initials (`J.`, `AJ`).
    static func isCapitalized(_ word: String) -> Bool {
        let letters = word.filter(\.isLetter)
        return letters.count >= 3 && letters.allSatisfy(\.isUppercase)
    }

    /// Fills the street, city, region and country an address's detector hit left out, from its lines:
    /// `streetLines` above the postal code's line, and on `postalLine` (`Chicago, IL 60617`,
    /// `London N1 7GR`, `D-10115 Berlin`, `Melbourne VIC 3000`) what remains once the postal
    /// code, the region and the country are taken away.
    static func complete(_ a: inout BusinessCard.Address, streetLines: [String], postalLine: String) {
        let streetLines = streetLines.map(DataDetector.addressPartsAsCommas)
        let postalLine = DataDetector.addressPartsAsCommas(postalLine)
        if a.street == nil {
            let street = streetLines.filter { !$0.isEmpty }.joined(separator: ", ")
            if !street.isEmpty { a.street = street }
        }
        guard a.city == nil, let code = a.postalCode, postalLine.contains(code) else { return }
        var line = postalLine
        // A whole address on one line (`Huberstrasse 97, 3746 Amriswil, Switzerland`): what comes before the postal
        // code's part, when it holds a house number, is the street.
        if a.street == nil, let cut = line.range(of: code),
            let comma = line[..<cut.lowerBound].lastIndex(of: ","),
            line[..<comma].contains(where: \.isNumber)
        {
            a.street = line[..<comma].trimmingCharacters(in: .whitespaces)
            line = String(line[line.index(after: comma)...])
        }
        var rest = line.replacingOccurrences(of: code, with: " ")
        // A country prefix glued to the code (`D-10115`, `F-75008`) is left as `D- `.
        rest = Text.replacing(rest, #"(?:^|\s)[A-Z]{1,2}-\s"#, with: " ")
        var segments = rest.split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces.union(.punctuationCharacters))
        }
        .filter { !$0.isEmpty }
        // The country the detector found, printed last (`Berlin, DE`, `Toronto, ON, CA`), is no region.
        if let country = a.country {
            while segments.count >= 2, let last = segments.last, DataDetector.countryCode(named: last) == country {
                segments.removeLast()
            }
        }
        // The region as a last word (`Melbourne VIC`) or a segment of its own (`Toronto, ON`).
        if let region = a.region {
            segments = segments.compactMap { seg -> String? in
                var words = seg.split(separator: " ").map(String.init)
                if words.last == region { words.removeLast() }
                return words.isEmpty ? nil : words.joined(separator: " ")
            }
        } else if segments.count >= 2, let last = segments.last, (2...3).contains(last.count),
            last.allSatisfy({ $0.isUppercase && $0.isLetter })
        {
            a.region = last
            segments.removeLast()
        }
        // A country, by name or code (`Berlin, Deutschland`, `Madrid, ES`), is no city; it fills the country when the
        // detector gave none.
        segments.removeAll { seg in
            guard let country = DataDetector.countryCode(named: seg) else { return false }
            if a.country == nil { a.country = country }
            return true
        }
        // The city: letters, at most four words.
        if let city = segments.first(where: { seg in
            !seg.contains(where: \.isNumber) && seg.contains(where: \.isLetter) && seg.split(separator: " ").count <= 4
        }) {
            a.city = city
        }
    }

    static let countryLines = Set(Self.lexicon.countries.phrases)

    /// The country a place's name names: a country the detectors know or a large city (`UAE`, `Hong Kong`, `Dubai`).
    /// (A region's two letters, `DE`, name none here: `Suite 4, IN`.)
    static func placeCountry(_ place: String) -> String? {
        let t = place.trimmingCharacters(in: .whitespaces.union(.punctuationCharacters))
        guard t.count >= 3 || t == "UK", t.contains(where: \.isLetter) else { return nil }
        return DataDetector.countryCode(named: t) ?? DataDetector.largeCityCountry(t.lowercased())
    }

    /// The locale files' street words, and building and flat words that are no street words on a receipt, where
    /// they name shops and dishes (`STEAK HOUSE`, `FLAT WHITE`).
    static let streetWords =
        Self.lexicon.thoroughfares + Self.lexicon.addressParts + PhraseSet(["HOUSE", "FLAT", "APT"])

    /// A street line: it starts with a house number (`12 High Street`), ends with one (`Lindenstraße 18`,
    /// `Stellapad 12`, `Camino Real, 42`), has one before a word inside (`Flat 2, 14 Smith Row`) or between
    /// commas (`Calle Mayor, 12, 3º B`), or names a thoroughfare.
    static func streetLike(_ l: AnalyzedLine) -> Bool {
        let t = l.text.trimmingCharacters(in: .whitespaces)
        if t.first?.isNumber ?? false { return true }
        // (A house number with its door after a slash or a hyphen, `Schottenring 16/3`, `Na Poříčí 1047/26`,
        // `Lauriergracht 116-H`.)
        // (Not a model's number, `Model 300-X`.)
        if let r = Text.range(t, #"\p{L}[\p{L}.]*,?\s+(?!24/7)\d{1,4}(?:/\d{1,4}|-[a-zA-Z]{1,2})?\s?[a-zA-Z]?$"#),
            !t[r].contains("-") || !Text.hasAny(l.key, lexicon.numberLabels)
        {
            return true
        }
        if Text.range(t, #"(?:^|[\s,])\d{1,5}[a-zA-Z]?\s+\p{Lu}\p{Ll}"#) != nil { return true }
        // `Calle Mayor, 12, 3º B`: the number between commas, the floor and door after it.
        if Text.range(t, #"\p{L},\s*\d{1,4}[a-zA-Z]?\s*,"#) != nil { return true }
        // A unit on a line of its own under the street (`# 5`, `#33`), as North American cards print it.
        if Text.range(t, #"^#\s?\d{1,5}[a-zA-Z]?$"#) != nil { return true }
        let lower = t.lowercased()
        return Text.hasAny(l.key, streetWords) || lower.hasSuffix("str.") || lower.contains("straße")
            || lower.contains("strasse")
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
        return legalFormKeys.contains(key)
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
        let above = others.filter { stacked(lines, $0, oi) }.max {
            lines[$0].line.place.minY < lines[$1].line.place.minY
        }
        // A bare name: words of letters (and `&`), none a firm's kind or legal form.
        func bare(_ i: Int) -> Bool {
            let ws = lines[i].line.words.map(\.text)
            return (1...4).contains(ws.count) && !namesAFirm(lines[i].key)
                && ws.allSatisfy { $0 == "&" || $0.allSatisfy { $0.isLetter || "'’.-".contains($0) } }
        }
        // A firm's kind: one or two words, or two joined by a small word, the last of them a kind's word, no
        // sentence's stop (`Engineering Services`, `estudio de arquitectura`; not `Design. Build. Deliver.`, `Your
        // Local Bakery`).
        func kind(_ i: Int) -> Bool {
            let ws = lines[i].line.words.map(\.text)
            guard ws.count <= 2 || ws.count == 3 && ws[1].first?.isLowercase == true && ws[1].count <= 3,
                let last = ws.last,
                namesAFirm(Text.key(last)) || onlyLegalForms(lines[i].key)
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
            if kindOfFirm, upper ? main && spelled && bare(j) && kindAlone(oi) : bare(oi) && kind(j) {
                return (j, upper)
            }
        }
        return nil
    }

    /// Whether line `lower` is stacked right under line `upper` as a name's lines are in a wordmark or wrapped in a
    /// column: aligned on an edge or centred, at most about a line of the smaller print between them, the smaller
    /// print at least 0.4 of the larger (`NORTHBEAM` over a small `Analytics`, `MAISON` small over `Ferrand`).
    static func stacked(_ lines: [AnalyzedLine], _ upper: Int, _ lower: Int) -> Bool {
        let u = lines[upper].line, o = lines[lower].line
        let small = max(1, min(u.printHeight, o.printHeight)), large = max(u.printHeight, o.printHeight)
        return small >= 0.4 * large && o.level > u.level && setRightUnder(o, u, lineHeight: small)
    }

    /// The nearest line among `candidates` stacked under line `i` (see ``stacked(_:_:_:)``).
    static func stackedUnder(_ lines: [AnalyzedLine], _ i: Int, among candidates: [Int]) -> Int? {
        candidates.filter { stacked(lines, i, $0) }.min { lines[$0].line.place.minY < lines[$1].line.place.minY }
    }

    /// Whether `lower` is set right under `upper` as a wrapped line is, for print `lineHeight` high: less than a line
    /// between them, and starting, centred or ending where it does. (On a page photographed askew the boxes of lines
    /// set close overlap: their rows tell them apart.)
    static func setRightUnder(_ lower: LayoutLine, _ upper: LayoutLine, lineHeight h: Double) -> Bool {
        let gap = lower.place.minY - upper.place.maxY
        return (gap > -0.3 * h || lower.level - upper.level > 0.45 * h) && gap < 0.9 * h
            && (abs(lower.place.minX - upper.place.minX) < 0.6 * h || abs(lower.place.midX - upper.place.midX) < 0.6 * h
                || abs(lower.place.maxX - upper.place.maxX) < 0.6 * h)
    }

    /// Whether a line's key holds the whole domain stem, its letters together (`levanteenergia` in `LEVANTE ENERGÍA`)
    /// or spelled by its words (`spells`).
    static func spellsWhole(_ stem: String, _ key: String) -> Bool {
        [key, transliterated(key)].contains { k in
            k.replacingOccurrences(of: " ", with: "").lowercased().contains(stem) || spells(stem, k)
        }
    }

    /// The English locale file's job titles: a card in two languages prints its title in English too.
    static let englishJobTitles = PhraseSet(lexicon.locales.first { $0.language == "en" }?.jobTitles ?? [])

    /// Words that end a title's line only when the title goes on under it (`Responsable de`, `Head of`).
    static let titleJoiners: Set<String> = [
        "de", "del", "des", "du", "of", "and", "for", "für", "und", "et", "y", "di", "della", "van", "voor", "&", "en",
        "in",
    ]

    /// The line right under line `i` in its column, among `candidates`: set as tight as wrapped lines are (less than a
    /// line's height between them), in print of the same size (within `sizeTolerance` of its height), starting,
    /// centred or ending where it does.
    static func wrappedUnder(_ lines: [AnalyzedLine], _ i: Int, among candidates: [Int], sizeTolerance: Double = 0.2)
        -> Int?
    {
        let l = lines[i].line, h = max(1, l.printHeight)
        return candidates.filter { j in
            abs(lines[j].line.printHeight - h) < sizeTolerance * h && setRightUnder(lines[j].line, l, lineHeight: h)
        }.min { lines[$0].line.place.minY < lines[$1].line.place.minY }
    }

}
