import Foundation
import ScanDetectors
import ScanLayout
import ScanModel

/// The person's name: lines that print a person and a firm together cut apart, the e-mail's local part as evidence, a
/// name split into its parts.
extension BusinessCardParser {
    /// The person's name as printed on line `ni` (and `below`), split into its parts; where the e-mail's local part
    /// spells it with one letter that OCR read otherwise, that letter is taken from it and the correction returned.
    func readName(
        _ lines: [AnalyzedLine], _ ni: Int, below nameBelow: Int?, emailLocal: String?, into card: inout BusinessCard
    )
        -> (from: String, to: String)?
    {
        var nameCorrection: (from: String, to: String)?
        let l = lines[ni]
        // (A name's word cut at its hyphen joins without a space: `Dumont-` / `Lefèvre`.)
        let joiner = l.text.hasSuffix("-") ? "" : " "
        let printed = Text.clean(l.text) + (nameBelow.map { joiner + Text.clean(lines[$0].text) } ?? "")
        var full = printed.split(separator: " ").map { Self.capitalIRead(String($0)) }.joined(
            separator: " ")
        if let local = emailLocal, let fix = Self.agreeWithLocal(full, local) {
            nameCorrection = (full, fix)
            full = fix
        }
        card.name = Self.splitName(
            full, emailLocal: emailLocal, twoSurnames: twoSurnames)
        card.provenance["name"] = l.line.provenance()
        return nameCorrection
    }

    /// The name stage: the line of the person's name among `free` and, where the name goes on under it, that line.
    /// A name is 2 to 4 words of letters in taller print, spelled by the e-mail's local part (`personLocal`, none where
    /// the local part named the firm: `greystonesfarmshop@gmail.com` says nothing of the person), with few title
    /// words. A line that only the domain made the organization (its `organizationScore` 2) may be the person's own
    /// name: then `organization` is cleared.
    static func nameLines(
        _ lines: [AnalyzedLine], among free: [Int], personLocal: String?, organization: inout Int?,
        organizationScore: Double, twoSurnames: Bool = false
    ) -> (name: Int?, below: Int?) {
        let heights = lines.map(\.line.printHeight).sorted()
        let median = heights.isEmpty ? 1 : max(1, heights[heights.count / 2])
        func words(_ i: Int) -> [String] { lines[i].line.words.map(\.text) }
        let localSpellsAName =
            personLocal.map { local in free.contains { Self.matchesLocal(local, words($0)) } } ?? false
        func nameScore(_ i: Int) -> Double? {
            let l = lines[i]
            // (Degrees after the name's comma are no part of it: `Maria Cristina R. Dela Cruz, CPA`.)
            let words = Self.beforeDegrees(
                l.line.words.map { Self.capitalIRead($0.text) }.filter { $0.contains(where: \.isLetter) })
            // Titles before the name, one after another, may be printed in small letters (`mr. Faye Hendriks`, `prof.
            // dr hab. inż. Tomasz Nowak`); the name is two to five words after them.
            // (A title's word that is also a name's, `Pan Wei`, leaves two words or more, or counts as the name's.)
            let titles = words.prefix { Self.lexicon.honorifics.contains(Text.key($0)) }.count
            let lead = words.count - titles >= 2 ? titles : 0
            // (Particles aside, where the e-mail spells the name: `ANA SOFÍA DE LA GARZA IBARRA`, not `COMPRA Y VENTA
            // DE AUTOS SEMINUEVOS`.)
            let particles = words.dropFirst(lead).filter { Self.lexicon.nameParticles.contains($0.lowercased()) }.count
            guard words.count - lead >= 2 && words.count - lead - particles <= 5 && words.count - lead <= 7,
                words.count - lead <= 5
                    || personLocal.map({ Self.matchesLocal($0, Array(words.dropFirst(lead))) }) == true,
                Text.digitCount(l.text) == 0
            else { return nil }
            guard
                words.enumerated().allSatisfy({ n, w in
                    w.first!.isUppercase || w.first == "(" || Self.lexicon.nameParticles.contains(w.lowercased())
                        || n < lead
                })
            else { return nil }
            // A line of title words alone (`Chief Executive Officer`) is no one's name, even on a card whose name the
            // OCR garbled: better no name (and the warning that says so) than the title as the person.
            if words.allSatisfy({ Self.lexicon.jobTitles.isFound(in: Text.key($0)) }) { return nil }
            // Nor is a slogan's line of words each ended by a full stop (`CLOUD. SECURITY. SUPPORT.`; a name's stops
            // end its initials and honorifics, `Univ.-Prof. Dipl.-Ing. Johann Huber`).
            let stops = words.dropFirst(lead)
            if stops.count >= 2, stops.allSatisfy({ $0.hasSuffix(".") && $0.filter(\.isLetter).count >= 4 }) {
                return nil
            }
            // (Where the e-mail spells a name on the card, print over three times the usual size is a slogan's or a
            // logo's as much as a name's: `ACEITE DE OLIVA` set large over the name counts as three times.)
            var s = l.line.printHeight / median
            if localSpellsAName { s = min(s, 3) }
            if Text.hasAny(l.key, Self.lexicon.jobTitles) { s -= 1.5 }
            if Self.namesAFirm(l.key) { s -= 1 }
            if Text.hasAny(l.key, Self.lexicon.departmentWords) { s -= 1 }
            if let local = personLocal, Self.matchesLocal(local, words) { s += 1.5 }
            return s - 0.05 * Double(i)
        }
        // The free lines other than line `i` and the organization's, as the organization stands when asked.
        func othersThan(_ i: Int) -> [Int] { free.filter { $0 != i && $0 != organization } }
        var nameIndex: Int?
        var nameBest = -Double.infinity
        for i in free where i != organization {
            if let s = nameScore(i), s > nameBest { nameBest = s; nameIndex = i }
        }
        // A given name over its family name, one word a line in the same print (`Harpreet` / `Sandhu`), when the
        // e-mail's local part spells the two (`hsandhu@`) and no line is a name the local part confirms. (On a photo
        // taken askew a long word's box measures taller than a short one's: a third apart is the same print.)
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
            for i in free where i != organization {
                guard let given = oneWord(i),
                    let j = Self.wrappedUnder(lines, i, among: othersThan(i), sizeTolerance: 0.35),
                    let family = oneWord(j), Self.matchesLocal(local, [given, family]),
                    // (The local part is the given name alone, or spells the lower word too, maybe with its umlauts
                    // spelled out: not a title under a family name, `Brandstätter` / `Steuerberater` of
                    // `l.brandstaetter@`.)
                    Self.plainLetters(local) == Self.plainLetters(given)
                        || [Self.plainLetters(family), Self.plainLetters(Self.transliterated(family.uppercased()))]
                            .contains(where: Self.plainLetters(local).contains)
                else { continue }
                nameIndex = i
                nameBelow = j
                break
            }
        }
        // A line that only the web or e-mail domain made the organization (`Melissa Chase`, `www.chase.com`) is the
        // person's own name when no other line can be one: a card without a name is rarer than a person's own domain.
        if nameIndex == nil, let oi = organization, organizationScore == 2,
            !Text.hasAny(lines[oi].key, Self.lexicon.organizationWords), nameScore(oi) != nil
        {
            nameIndex = oi
            organization = nil
        }
        // Degrees wrapped under a name that ends with a comma (`Dr. Otieno Ouma,` / `MBChB, MMed`) go with it.
        if nameBelow == nil, let ni = nameIndex, lines[ni].text.hasSuffix(","),
            let below = Self.wrappedUnder(lines, ni, among: othersThan(ni), sizeTolerance: 0.6),
            Self.degreesOnly(lines[below].text)
        {
            nameBelow = below
        }
        // A name set over two lines in its column (`Thiago` / `Nascimento dos Reis`, `Dipl.-Kfm. Torsten` /
        // `Weißenberger`): the line stacked right over or under the name's makes a person's name with it, and spells
        // letters of the e-mail's local part that the name's line leaves, or, over it, gives the initial that is all
        // the name's line leaves (`ilopezdeharo` for `Íñigo` / `López de Haro Etxeberria`).
        if nameBelow == nil, let ni = nameIndex, let printed = personLocal {
            // The letters of the local part that the name's line leaves unspelled (`thiago` of `thiago.reis` beside
            // `Nascimento dos Reis`; none of `rosemaryhart` beside `Rosemary Hart`).
            var rest = Self.plainLetters(printed)
            for w in words(ni) {
                if let s = Self.spellings(w).first(where: { $0.count >= 3 && rest.contains($0) }),
                    let r = rest.range(of: s)
                {
                    rest.removeSubrange(r)
                }
            }
            let others = othersThan(ni)
            // Whether line `i` spells a word of what is left, or, over the name's line, is a given name whose initial
            // is all that is left with a particle at most (`ilopezdeharo`).
            func adds(_ i: Int, over: Bool) -> Bool {
                let spelled = words(i).contains { w in
                    Self.spellings(w).contains { $0.count >= 3 && rest.contains($0) }
                }
                if spelled { return true }
                guard over, let given = words(i).last.map(Self.plainLetters), let initial = given.first else {
                    return false
                }
                return (1...3).contains(rest.count) && rest.first == initial
                    && Self.plainLetters(printed).first == initial
            }
            func joins(upper: Int, lower: Int) -> Bool {
                Self.personPart(words(upper) + words(lower)) != nil
                    && adds(upper == ni ? lower : upper, over: upper != ni)
            }
            if let below = Self.stackedUnder(lines, ni, among: others), joins(upper: ni, lower: below) {
                nameBelow = below
            } else if let above = Self.stackedOver(lines, ni, among: others), joins(upper: above, lower: ni) {
                nameBelow = ni
                nameIndex = above
            }
        }
        // A family name wrapped onto the line right under the name's, in its print: after a hyphen (`Claire Dumont-` /
        // `Lefèvre`), or a second family name where people bear two (`twoSurnames`: `Valentina Restrepo` / `Ospina`,
        // under a given and a family name); one capitalized word, no title's, firm's or department's, nor ending as
        // one does (`namesAnAgent`: `Abogada`, `Arquitecta`), that makes a person's name with the name's line.
        // (Elsewhere a word under a name is as often a title no list holds: `Rechtsanwältin`, `Inkoper`.)
        let wrapsAName = nameIndex.map { ni in
            let ws = words(ni).drop { Self.lexicon.honorifics.contains(Text.key($0)) }
            return lines[ni].text.hasSuffix("-") && (2...3).contains(ws.count) || twoSurnames && ws.count == 2
        } ?? false
        // (Degrees after its comma go with it: `Adriana Solano` / `Mora, CPA`.)
        if nameBelow == nil, wrapsAName, let ni = nameIndex,
            let below = Self.wrappedUnder(lines, ni, among: othersThan(ni)),
            case let ws = Self.beforeDegrees(words(below)), ws.count == 1, let w = ws.first, w.count >= 3,
            w.first?.isUppercase == true,
            w.allSatisfy({ $0.isLetter || "-'’".contains($0) }), lines[below].entities.isEmpty,
            !Text.hasAny(lines[below].key, Self.lexicon.jobTitles), !Self.namesAFirm(lines[below].key),
            !Text.hasAny(lines[below].key, Self.lexicon.departmentWords), !Self.namesAnAgent(ws),
            Self.personPart(words(ni) + ws) != nil
        {
            nameBelow = below
        }
        return (nameIndex, nameBelow)
    }

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
    static let joinerList = Self.lexicon.nameJoiners
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

    /// The first e-mail address the detectors found on the card's lines, as its local part and its host. (The line
    /// cuts below split only lines without a detector's hit: they all see the same first address.)
    static func firstEmail(_ lines: [AnalyzedLine]) -> (local: String, host: String)? {
        guard let email = lines.lazy.flatMap({ $0.entities }).first(where: { $0.type == .email }),
            let address = email.value.address ?? Optional(email.text.lowercased()),
            let at = address.firstIndex(of: "@")
        else { return nil }
        return (String(address[..<at]), String(address[address.index(after: at)...]))
    }

    /// A person's name whose letter-spaced capitals the recognizer read as one word (`AMÉLIEDUBOIS-LEMAIRE`,
    /// `KRZYSZTOFJABLOÑSKI`), parted where the e-mail's local part spells both sides: the given name's initial and
    /// the family name (`a.duboislemaire`, `kjablonski`), or its pieces one by one (`ana.maria.lopez` of
    /// `ANAMARIALOPEZ`). A word the local part spells whole, or only the start of (`admin@` and `ADMINISTRACIÓN`,
    /// `chris@` and `CHRISTOPHER`, `erik@` and `ERIKSSON`), is left as it is.
    static func gluedNamesApart(_ lines: [AnalyzedLine], email: (local: String, host: String)?) -> [AnalyzedLine] {
        guard let printed = email?.local, case let local = plainLetters(printed), local.count >= 4 else { return lines }
        let pieces = printed.split(whereSeparator: { !$0.isLetter }).map { plainLetters(String($0)) }
            .filter { !$0.isEmpty }
        return lines.map { l in
            guard l.entities.isEmpty, l.line.words.count == 1, let word = l.line.words.first,
                word.text.allSatisfy({ $0.isLetter && $0.isUppercase || $0 == "-" }),
                word.text.filter(\.isLetter).count >= 8
            else { return l }
            // The word's letters as an address writes them, and where each came from in the word.
            let chars = Array(word.text)
            var plain = "", origin: [Int] = []
            for (i, ch) in chars.enumerated() {
                for p in plainLetters(String(ch)) {
                    plain.append(p)
                    origin.append(i)
                }
            }
            guard !pieces.contains(plain) else { return l }
            // Where the letters part, as positions in `plain`.
            var cuts: [Int] = []
            if pieces.count >= 2, pieces.joined() == plain {
                cuts = Array(pieces.dropLast().reduce(into: [Int]()) { $0.append(($0.last ?? 0) + $1.count) })
            } else if let k = (2...max(2, plain.count - 2)).first(where: { k in
                let given = plain.prefix(k), family = plain.dropFirst(k)
                return family.count >= 3 && local == String(given.prefix(1)) + family
            }) {
                cuts = [k]
            }
            // (Not at a hyphen: it joins the family names.)
            let positions = cuts.map { origin[$0] }.filter { i in
                i > 0 && i < chars.count && chars[i - 1] != "-" && chars[i] != "-"
            }
            guard !positions.isEmpty, positions.count == cuts.count else { return l }
            // Each part gets its share of the word's box by its letters.
            func part(_ r: Range<Int>) -> LayoutWord {
                func share(_ b: BoundingBox) -> BoundingBox {
                    let w = b.width / Double(chars.count)
                    return BoundingBox(
                        x: b.x + w * Double(r.lowerBound), y: b.y, width: w * Double(r.count), height: b.height)
                }
                var w = word
                w.text = String(chars[r])
                w.box = share(word.box)
                w.frameBox = word.frameBox.map(share)
                return w
            }
            let bounds = [0] + positions + [chars.count]
            let words = zip(bounds, bounds.dropFirst()).map { part($0..<$1) }
            return piece(of: l, words)
        }
    }

    /// The lines that print the person's name and title on one baseline cut in two (`Karin Lindqvist Åberg,
    /// Verkställande direktör`, `Katharina von Eschenbach | Geschäftsführerin`, `ZHANG Weiming General Manager`). The
    /// name's part must be a person's (``personPart(_:)``) that the e-mail's local part spells, the title's part holds
    /// a job title and none of the words the local part spells. The title's part begins with a title (`Diretor
    /// Comercial`, not `Ferreira Diretor Comercial`; not a slogan, `Your Trusted Advisor`), maybe after words such as
    /// `Regional` (`titleModifiers`). Where a mark parts them (a comma, a bar, a dot, a dash or a wide gap between two
    /// of the recognizer's lines), the last such mark that leaves a person before it cuts; where only a space does,
    /// the longest title of two words or more (`Mary Ellen Coach` is a name). A line with a contact on it, or that
    /// spells the domain (a firm named after a person), is left whole.
    static func namesApartFromTitles(_ lines: [AnalyzedLine], email: (local: String, host: String)?) -> [AnalyzedLine]
    {
        guard let email, case let local = plainLetters(email.local), local.count >= 3 else { return lines }
        // (A firm named after its founder, `Morgan Price | Executive Search` of morganprice.co.uk, is not cut.)
        let stem = domainStem(email.host) ?? ""
        let marks: Set<String> = ["|", "·", "•", "–", "—", "-", "/", ","]
        // Whether the local part spells a word of three letters or more.
        func spelled(_ w: String) -> Bool {
            let p = plainLetters(w)
            return p.count >= 3 && local.contains(p)
        }
        // Whether words begin with a job title, maybe after words such as `Senior`, `Regional` (the locale files'
        // `titleModifiers`; `Head of Sales` begins with one before them too).
        func begins(_ t: [LayoutWord]) -> Bool {
            let rest = t.drop { lexicon.titleModifiers.isFound(in: Text.key($0.text)) }
            return lexicon.jobTitles.begins(Text.key(t.map(\.text).joined(separator: " ")))
                || lexicon.jobTitles.begins(Text.key(rest.map(\.text).joined(separator: " ")))
        }
        func cut(_ l: AnalyzedLine) -> [AnalyzedLine]? {
            let words = l.line.words
            guard l.entities.isEmpty, l.standingPhone == nil, (3...14).contains(words.count),
                Text.digitCount(l.text) == 0, stem.count < 4 || !spellsWhole(stem, l.key)
            else { return nil }
            // The two parts at word `k`: the person's words (without a mark or a comma that ends them) and the title's.
            // (Where only a space parts them, the title's words are capitalized, but for joining words: `Head of`.)
            func parts(_ k: Int, spaced: Bool = false) -> (person: [LayoutWord], title: [LayoutWord])? {
                var person = Array(words[..<k]), title = Array(words[k...])
                while let w = person.last, marks.contains(w.text) { person.removeLast() }
                while let w = title.first, marks.contains(w.text) { title.removeFirst() }
                guard !person.isEmpty, (1...6).contains(title.count) else { return nil }
                if var last = person.last, last.text.hasSuffix(",") {
                    last.text.removeLast()
                    person[person.count - 1] = last
                }
                guard personPart(person.map(\.text)) != nil, begins(title), !spaced || title.count >= 2,
                    !title.contains(where: { spelled($0.text) }),
                    !spaced || title.allSatisfy({ w in
                        w.text.first?.isLowercase != true || titleJoiners.contains(w.text)
                    })
                else { return nil }
                return (person, title)
            }
            func marked(_ k: Int) -> Bool {
                let (a, b) = (words[k - 1], words[k])
                if a.text.hasSuffix(",") || marks.contains(a.text) || marks.contains(b.text) { return true }
                // (Two of the recognizer's lines set apart on one row: `Ing. Rodrigo Villaseñor Treviño`  `Gerente
                // General`.)
                let apart = a.reference.map { $0.observation != b.reference?.observation } ?? false
                return apart && b.box.minX - a.box.maxX > 1.5 * max(a.box.height, b.box.height)
            }
            func confirmed(_ p: (person: [LayoutWord], title: [LayoutWord])) -> Bool {
                guard let name = personPart(p.person.map(\.text)) else { return false }
                return name.contains(where: spelled)
            }
            let ks = Array(1..<words.count)
            var chosen: (person: [LayoutWord], title: [LayoutWord])?
            if let k = ks.last(where: { marked($0) && parts($0).map(confirmed) == true }) {
                chosen = parts(k)
            } else {
                chosen = ks.lazy.compactMap { k in parts(k, spaced: true) }.first(where: confirmed)
            }
            guard let (person, title) = chosen else { return nil }
            return [person, title].map { piece(of: l, $0) }
        }
        return lines.flatMap { cut($0) ?? [$0] }
    }

    /// The words of a person's name in `words`, if they are one: after honorifics (`Dr.`, `ir.`), two to five words
    /// and particles (`von`, `dos`, `de la`), the words capitalized, with no digit, no title's, title modifier's,
    /// firm's or department's word; degrees may follow after a comma (`Dr. Cormac O'Sullivan, MB BCh`, `Jane Doe,
    /// CPA`).
    static func personPart(_ words: [String]) -> [String]? {
        var ws = words
        // Degrees after the name's comma.
        if let comma = ws.firstIndex(where: { $0.hasSuffix(",") }), comma < ws.count - 1 {
            let degrees = ws[(comma + 1)...].map { $0.trimmingCharacters(in: CharacterSet(charactersIn: ",")) }
            guard degrees.allSatisfy({ d in
                let letters = d.filter { $0 != "." }
                return lexicon.nameSuffixes.contains(Text.key(d))
                    || (2...7).contains(letters.count) && letters.allSatisfy(\.isLetter)
                        && letters.filter(\.isUppercase).count >= 2 && !lexicon.jobTitles.isFound(in: Text.key(d))
            }) else { return nil }
            ws = Array(ws[...comma])
            ws[ws.count - 1].removeLast()
        }
        let lead = ws.prefix { lexicon.honorifics.contains(Text.key($0)) }.count
        let name = Array(ws.dropFirst(lead))
        let key = Text.key(name.joined(separator: " "))
        let particles = name.filter { lexicon.nameParticles.contains($0.lowercased()) }.count
        guard name.count >= 2, name.count - particles <= 5, name.count <= 7,
            name.allSatisfy({ w in
                w.first?.isUppercase == true && w.allSatisfy { $0.isLetter || "-'’.".contains($0) }
                    || lexicon.nameParticles.contains(w.lowercased())
            }),
            !Text.hasAny(key, lexicon.jobTitles), !namesAFirm(key), !Text.hasAny(key, lexicon.departmentWords),
            !Text.hasAny(key, lexicon.titleModifiers)
        else { return nil }
        return name
    }

    /// The lines with a person's name and a firm's set on one baseline and read as one line (`OLIVIA CHEN-MACKENZIE
    /// Fogline Studios Ltd.`) cut in two: one part is the person the card's e-mail names (`olivia@...`), two to four
    /// capitalized words, the other a firm's name, by a legal form at its end or by spelling the e-mail's domain
    /// (`foglinestudios`). A line with a contact on it, or whose one part alone is neither, is left whole.
    static func namesApartFromFirms(_ lines: [AnalyzedLine], email: (local: String, host: String)?) -> [AnalyzedLine] {
        guard let email else { return lines }
        let local = email.local.lowercased()
        let stem = domainStem(email.host) ?? ""
        func person(_ words: [LayoutWord]) -> Bool {
            let ws = words.map(\.text).filter { !lexicon.nameSuffixes.contains(Text.key($0)) }
            let key = Text.key(ws.joined(separator: " "))
            return (2...4).contains(ws.count) && ws.allSatisfy { $0.first?.isUppercase == true }
                && matchesLocal(local, ws) && !spellsWhole(stem, key)
                && !Text.hasAny(key, lexicon.organizationWords) && !Text.hasAny(key, lexicon.jobTitles)
        }
        func firm(_ words: [LayoutWord]) -> Bool {
            let key = Text.key(words.map(\.text).joined(separator: " ")).trimmingCharacters(in: .whitespaces)
            // (It opens with a capitalized word of its own: not `& Fils inc.`, nor the person's `PhD`; nor does it end
            // with the person's degree, `Deshpande, FCA` of rohit@deshpande.co.in.)
            guard words.count >= 2, let first = words.first?.text, first.first?.isUppercase == true,
                !lexicon.nameSuffixes.contains(Text.key(first)),
                !lexicon.nameSuffixes.contains(Text.key(words.last?.text ?? ""))
            else { return false }
            return legalFormKeys.contains { key.hasSuffix(" " + $0) } || stem.count >= 4 && spellsWhole(stem, key)
        }
        // A card that prints the person's name on a line of its own keeps its firm's line whole (`Sarah Mitchell` over
        // `Sarah Mitchell Architects Ltd`).
        guard !lines.contains(where: { $0.entities.isEmpty && person($0.line.words) }) else { return lines }
        // (A free mail's local part may spell the firm: `mingkeetailor@yahoo.com.hk`.)
        let localStem = domainStem(email.host) == nil ? plainLetters(local) : ""
        // Where one mark parts the line (`Florencia Benítez | Pampa Digital S.R.L.`, `Mariam Al-Kuwari — Pearl Bay
        // Events`), the person's part need only read as a name (``personPart(_:)``, honorifics and particles too: `ir.
        // Joost van der Meulen`), whatever short form the e-mail gives (`flor@`).
        func markedCut(_ p: [LayoutWord], _ f: [LayoutWord]) -> Bool {
            let key = Text.key(f.map(\.text).joined(separator: " "))
            return personPart(p.map(\.text)) != nil && !spellsWhole(stem, Text.key(p.map(\.text).joined(separator: " ")))
                && !Text.hasAny(key, lexicon.jobTitles)
                && (firm(f) || localStem.count >= 6 && f.count >= 2 && spellsWhole(localStem, key))
        }
        let marks: Set<String> = ["|", "·", "•", "–", "—"]
        return lines.flatMap { l -> [AnalyzedLine] in
            let words = l.line.words
            // Where the whole line spells the domain, the firm's part must spell it alone: `James Harper Lane LLP` of
            // `harperlane.co.uk` is one firm's name.
            let wholeSpells = stem.count >= 4 && spellsWhole(stem, l.key)
            func cut(_ p: [LayoutWord], _ f: [LayoutWord]) -> Bool {
                person(p) && firm(f) && !startsAFirmPrinted(f, apart: l)
                    && (!wholeSpells || spellsWhole(stem, Text.key(f.map(\.text).joined(separator: " "))))
            }
            // (Family names that begin the firm's name printed on a line of its own are the person's: `Lic. Rodrigo
            // Hernández Ávila` over `Hernández Ávila Consultores, S.C.`, hernandezavila.com.mx.)
            func startsAFirmPrinted(_ f: [LayoutWord], apart l: AnalyzedLine) -> Bool {
                let key = Text.key(f.map(\.text).joined(separator: " "))
                return !legalFormKeys.contains { key.hasSuffix(" " + $0) }
                    && lines.contains { $0.line != l.line && $0.key.hasPrefix(key + " ") }
            }
            guard l.entities.isEmpty, l.standingPhone == nil, (4...12).contains(words.count) else { return [l] }
            let parts: [[LayoutWord]]
            if case let at = words.indices.filter({ marks.contains(words[$0].text) }), at.count == 1,
                let m = at.first, m > 0, m < words.count - 1,
                case let (a, b) = (Array(words[..<m]), Array(words[(m + 1)...])), markedCut(a, b) || markedCut(b, a)
            {
                parts = [a, b]
            } else if words.count <= 9, let k = (2..<(words.count - 1)).first(where: { k in
                let (a, b) = (Array(words[..<k]), Array(words[k...]))
                return cut(a, b) || cut(b, a)
            }) {
                parts = [Array(words[..<k]), Array(words[k...])]
            } else {
                return [l]
            }
            return parts.map { piece(of: l, $0) }
        }
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
        if spellings(first).contains(where: { given in
            spellings(last).contains { family in
                l.contains(family) || l.contains(given) && given.count >= 3
                    || l == String(given.prefix(1)) + family || l == given + String(family.prefix(1))
            }
        }) {
            return true
        }
        // (Where people carry two family names the first is the one an address spells: `jortega` of `Javier Ortega
        // Ruiz`.)
        return ws.count >= 3 && ws.dropFirst().dropLast().contains { middle in
            spellings(first).contains { given in
                spellings(middle).contains { family in
                    family.count >= 3 && (l == String(given.prefix(1)) + family || l == given + family)
                }
            }
        }
    }

    /// Whether a line holds only degrees or a name's suffixes, parted by commas (`MBChB, MMed`, `PhD, FRCS`, `CPA`):
    /// each of two to seven letters with two capitals or more, or a suffix of the locale files.
    /// The words before a comma that only degrees follow, without the comma (`Dela Cruz, CPA` -> `Dela Cruz`); the
    /// words as they are otherwise.
    static func beforeDegrees(_ words: [String]) -> [String] {
        guard let comma = words.firstIndex(where: { $0.hasSuffix(",") }), comma < words.count - 1,
            degreesOnly(words[(comma + 1)...].joined(separator: " "))
        else { return words }
        var kept = Array(words[...comma])
        kept[comma].removeLast()
        return kept
    }

    static func degreesOnly(_ text: String) -> Bool {
        let parts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        return (1...4).contains(parts.count)
            && parts.allSatisfy { p in
                let letters = p.filter { $0 != "." }
                return lexicon.nameSuffixes.contains(Text.key(p))
                    || (2...7).contains(letters.count) && letters.allSatisfy(\.isLetter)
                        && letters.filter(\.isUppercase).count >= 2
            }
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
    /// in a sans-serif face the two are one shape, and a name's word starts with a capital. Particles (`la`) stay; a
    /// comma after the word, before degrees, stays with it (`lyer,` of `Dr. Kavya lyer, MD`).
    static func capitalIRead(_ word: String) -> String {
        let comma = word.hasSuffix(",")
        let letters = comma ? String(word.dropLast()) : word
        guard letters.count >= 3, letters.first == "l",
            letters.dropFirst().allSatisfy({ $0.isLetter && $0.isLowercase }), !lexicon.nameParticles.contains(letters)
        else { return word }
        return "I" + letters.dropFirst() + (comma ? "," : "")
    }

    /// The name with one word mended from the e-mail's local part, when OCR misread a single
    /// letter of it (`Dilliam Hernandez`, `williamh@...`): a word of five letters or more that
    /// the local part lacks, but holds with exactly one letter different, at its start or end or
    /// between separators. Nil when no word needs or allows such a mend.
    static func agreeWithLocal(_ name: String, _ local: String) -> String? {
        let pieces = local.lowercased().split(whereSeparator: { !$0.isLetter }).map { Array($0) }
        let joined = pieces.flatMap { $0 }
        var words = name.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        // (A piece that spells another of the name's words as printed is that word's, not a misread one's: `Ahmad`
        // stays beside `faizal.rahman`, whose `ahman` is one letter from it.)
        let spelled = Set(words.map { Self.folded($0).lowercased() })
        for (k, word) in words.enumerated() {
            // Compared without accents: an e-mail address spells `Chloé` as `chloe`.
            let printed = Array(word)
            let letters = Array(Self.folded(word))
            guard letters.count >= 5, letters.count == printed.count, letters.allSatisfy(\.isLetter),
                !String(joined).contains(String(letters))
            else { continue }
            // Places where a name word may stand in the local part: each piece's start and end.
            var spans: [[Character]] = []
            for piece in pieces where piece.count >= letters.count && !spelled.contains(String(piece)) {
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
        "NI", "SV", "PA", "PR"
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
        for k in 1..<words.count
        where folded[k].count >= 3 && folded[k].count < l.count
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
            prefixes.isEmpty || f.hasSuffix(".") && f.filter(\.isLetter).count >= 2 || f.first?.isLowercase == true
        {
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
}
