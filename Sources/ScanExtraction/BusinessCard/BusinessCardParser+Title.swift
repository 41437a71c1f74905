import Foundation
import ScanDetectors
import ScanLayout
import ScanModel

/// The person's title: the line under the name without a title word, opening hours that are no title.
extension BusinessCardParser {
    /// The title stage: a line with a title word among `free`, nearest below (or above) the name; else the line right
    /// under the name (``lineUnderName(_:name:among:orgFound:)``); with the line it wraps onto. `used` holds the lines
    /// of the contacts and the address, which a short line of another column may label.
    static func readTitle(
        _ lines: [AnalyzedLine], among free: [Int], used: Set<Int>, fields: inout FieldLines,
        into card: inout BusinessCard
    ) {
        var titleIndex: Int?
        let taken = fields.all
        let candidates = free.filter {
            !taken.contains($0) && Text.hasAny(lines[$0].key, Self.lexicon.jobTitles) && !Self.listsServices(lines[$0])
        }
        if let ni = fields.name {
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
            // A line set under the firm's name in another column than the person's is the firm's line (`Harbourline
            // Property Pty Ltd` / `Licensed Real Estate Agent`, beside `Lachlan Whitmore` / `Sales Agent`).
            func underTheFirm(_ j: Int) -> Bool {
                guard let oi = fields.organization else { return false }
                return lines[j].line.box.horizontalOverlap(nameBox) <= 0 && stacked(lines, oi, j)
            }
            func distance(_ j: Int) -> Int {
                abs(j - ni) + (j < ni ? 1 : 0) + (labelsABlock(j) ? 2 : 0) + (namesAContact(j) ? lines.count : 0)
                    + (underTheFirm(j) ? 2 : 0)
            }
            titleIndex = candidates.map { ($0, distance($0)) }.min { $0.1 < $1.1 }?.0
            if titleIndex == nil {
                titleIndex = Self.lineUnderName(
                    lines, name: fields.nameBelow ?? ni,
                    among: free.filter { !taken.contains($0) },
                    orgFound: fields.organization != nil)
            }
        } else {
            titleIndex = candidates.first
        }
        guard var ti = titleIndex else { return }
        // A title wrapped in its column whose first line holds no title's word: the line found is its end, under one
        // to three words in the same print that start it (`Licensed Real Estate` / `Agent`, `Savjetnica za` /
        // `marketing`).
        if let above = Self.titleStartOver(lines, ti, among: free.filter { !taken.contains($0) && $0 != ti }) {
            fields.titleBelow = ti
            ti = above
        }
        fields.title = ti
        var title = Self.withoutMarks(lines[ti].line)
        if let below = fields.titleBelow { title += " " + lines[below].text }
        // A title wrapped in its column: ended by a joining word (`Responsable de` / `Exportaciones`), or over a
        // line of one or two capitalized words that holds a title's word itself (`Senior Software` / `Architect`;
        // not a department, `Customer Support`, nor the firm). A title wrapped once goes on to a third line only
        // when its second leaves it open or the third names its area (`Regional Sales` / `Manager,` / `Asia Pacific`).
        while fields.titleEnd == nil {
            let takenWithTitle = fields.all
            let others = free.filter { !takenWithTitle.contains($0) }
            let end = fields.titleBelow ?? ti
            // (A joining sign is its own word: `Chief Technology Officer &` / `Co-Founder`.)
            let lastWord = lines[end].line.words.last?.text ?? ""
            let last = lastWord == "&" ? lastWord : Text.key(lastWord).lowercased()
            guard let below = Self.wrappedUnder(lines, end, among: others), Text.digitCount(lines[below].text) == 0
            else { break }
            // (Two words of an English title under a title in another language are its translation, a title of
            // their own: `Directeur Commercial` / `Sales Director`; `Chief Technology` / `Officer EMEA` is one.)
            let ws = lines[below].line.words.map(\.text)
            let translated = ws.count == 2 && Text.hasAny(lines[below].key, Self.englishJobTitles)
                && Text.hasAny(lines[ti].key, Self.lexicon.jobTitles)
                && !Text.hasAny(lines[ti].key, Self.englishJobTitles)
            let u = lines[below]
            let noFirmNorDepartment = !Text.hasAny(Self.keyOfWholeWords(u.text), Self.lexicon.organizationWords)
                && !Text.hasAny(u.key, Self.lexicon.departmentWords)
            let titleWord = fields.titleBelow == nil && ws.count <= 2 && !translated
                && ws.allSatisfy { w in
                    w.first?.isUppercase == true && w.trimmingCharacters(in: [","])
                        .allSatisfy { $0.isLetter || $0 == "-" }
                }
                && Text.hasAny(u.key, Self.lexicon.jobTitles) && noFirmNorDepartment
            // (Or the line under goes on from a joining word in small letters: `and Quality Assurance`, `en droit
            // social`.)
            let first = lines[below].line.words.first?.text ?? ""
            let goesOn = Self.smallJoiner(first) || first == "&"
            // (Or it names the area the title covers, `Director of Business Development` / `Pacific Northwest
            // Region`, in capitalized words of no street, department or firm: not `North West Sales Team`, nor a
            // sentence whose preposition some language's area word spells, `Consultations sur rendez-vous`.)
            let area = (1...4).contains(ws.count) && Text.hasAny(u.key, Self.lexicon.areaWords)
                && !Text.hasAny(u.key, Self.streetWords) && noFirmNorDepartment
                && ws.allSatisfy { $0.first?.isLowercase != true || Self.smallJoiner($0) }
            // (Or the title ends with a comma or a colon: `Principal Architect,` / `Healthcare Studio`.)
            // (A third line after a comma names no firm nor department: not `Commercial Banking,` / `Business Banking
            // Group`.)
            let open = (lastWord.hasSuffix(",") || lastWord.hasSuffix(":")) && !Self.holdsHours(u.text)
                && !Self.holdsDays(u.text) && (fields.titleBelow == nil || noFirmNorDepartment)
            guard Self.titleJoiners.contains(last) || titleWord || goesOn || area || open else { break }
            title += " " + lines[below].text
            if fields.titleBelow == nil { fields.titleBelow = below } else { fields.titleEnd = below }
        }
        // A department after a bar or a dot on the title's line (`Senior Manager | Global Procurement Team`) is the
        // department's, as it is on a line of its own.
        if fields.titleBelow == nil, let (job, department) = Self.titleAndDepartment(lines[ti].line.words.map(\.text)) {
            title = job
            card.department = department
            card.provenance["department"] = lines[ti].line.provenance()
        }
        // (A title ends with no comma: `Regional Sales` / `Manager,` over an area it goes on with.)
        card.title = Text.clean(title).trimmingCharacters(in: CharacterSet(charactersIn: ",;"))
        card.provenance["title"] = lines[ti].line.provenance()
    }

    /// A title's line parted by a bar, a dot or a dash into a title and a department: the part before holds a job
    /// title, the part after a department's word and none of a title.
    static func titleAndDepartment(_ words: [String]) -> (title: String, department: String)? {
        guard let mark = words.firstIndex(where: { ["|", "·", "•", "–", "—"].contains($0) }), mark > 0,
            mark < words.count - 1
        else { return nil }
        let job = words[..<mark].joined(separator: " "), rest = words[(mark + 1)...].joined(separator: " ")
        guard Text.hasAny(Text.key(job), lexicon.jobTitles), Text.hasAny(Text.key(rest), lexicon.departmentWords),
            !Text.hasAny(Text.key(rest), lexicon.jobTitles)
        else { return nil }
        return (job, rest)
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
        // (The name again in its own script, under its Latin letters, stands between no name and title.)
        let latin = Self.latinLetters(name.text)
        var best: (index: Int, cost: Double)?
        for i in free where i != ni {
            let l = lines[i].line
            let words = l.words.filter { $0.text.contains(where: \.isLetter) }
            let smaller = l.printHeight < h * 0.95
            // A line that names only regions or countries (`Australia`, left over when the address was not read) is no
            // title.
            // Nor is the name again in its own script under its Latin letters (`KOBAYASHI Haruto` / `小林陽翔`).
            guard !words.isEmpty, words.count <= 6, Text.digitCount(l.text) == 0, !l.text.contains("@"),
                smaller || (orgFound || Self.namesAnAgent(words.map(\.text))) && l.printHeight <= h * 1.15,
                !Self.lexicon.isPlaceOnly(lines[i].key), !(latin && Self.nameInItsScript(l.text))
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
                    && o.box.horizontalOverlap(l.box) > 0 && !(latin && Self.nameInItsScript(o.text))
            }
            if between { continue }
            if best == nil || cost < best!.cost { best = (i, cost) }
        }
        return best?.index
    }

    /// Whether a line lists what a firm does, three parts or more parted by bars or dots, at most one of which holds a
    /// title's word (`Domestic · Commercial · Solar`, where French `Commercial` is a salesman; not `CEO · Founder ·
    /// Author`).
    static func listsServices(_ l: AnalyzedLine) -> Bool {
        let parts = l.text.split(whereSeparator: { "·•|".contains($0) })
        return parts.count >= 3 && parts.filter({ Text.hasAny(Text.key(String($0)), lexicon.jobTitles) }).count <= 1
    }

    /// Whether every letter of `text` is a Latin one (accents and all), and it has some.
    static func latinLetters(_ text: String) -> Bool {
        let letters = text.unicodeScalars.filter { CharacterSet.letters.contains($0) }
        return !letters.isEmpty && letters.allSatisfy(isLatin)
    }

    /// Whether `text` is a person's name in Chinese, Japanese or Korean script, as printed under its Latin letters:
    /// two to four characters of Han, kana or Hangul, not ending as titles do (`部長`, `总经理`, `律師`, `팀장`, `이사`).
    static func nameInItsScript(_ text: String) -> Bool {
        let chars = text.unicodeScalars.filter { !CharacterSet.whitespaces.contains($0) }
        guard (2...4).contains(chars.count), let last = chars.last,
            chars.allSatisfy({ u in
                (0x3040..<0x3100).contains(u.value) || (0x4E00..<0xA000).contains(u.value)
                    || (0xAC00..<0xD7B0).contains(u.value)
            })
        else { return false }
        return !titleEndings.contains(Character(last))
    }

    /// The last characters of Chinese, Japanese and Korean job titles.
    static let titleEndings: Set<Character> = [
        "長", "长", "理", "師", "师", "員", "员", "監", "监", "任", "士", "官", "者", "席", "裁", "問", "问", "事", "役",
        "当", "表", "計", "计", "장", "사", "원", "리", "표", "무", "님",
    ]

    /// Whether a letter is of the Latin script: Basic Latin to Latin Extended-B, or Latin Extended Additional.
    static func isLatin(_ u: Unicode.Scalar) -> Bool { u.value < 0x250 || (0x1E00..<0x1F00).contains(u.value) }

    /// Whether a line names days of the week as opening times do (`Mon to Fri`, `Lun–Ven`, `Mo-Fr`).
    static func holdsDays(_ text: String) -> Bool {
        let day = #"(?:mon|tue|wed|thu|fri|sat|sun|lun|mar|mer|jeu|ven|sam|dim|mo|di|mi|do|fr|sa|so)[a-z]*\.?"#
        return Text.range(text, #"(?i)\b"# + day + #"\s*(?:[–-]|to|à|bis|a)\s*"# + day + #"(?:\s|$|,)"#) != nil
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

    /// The English locale file's job titles: a card in two languages prints its title in English too.
    static let englishJobTitles = PhraseSet(lexicon.locales.first { $0.language == "en" }?.jobTitles ?? [])

    /// Words that end a title's line only when the title goes on under it (`Responsable de`, `Head of`).
    static let titleJoiners: Set<String> = [
        "de", "del", "des", "du", "of", "and", "for", "für", "und", "et", "y", "di", "della", "van", "voor", "&", "en",
        "in", "der", "pour", "per", "para", "för", "og", "och", "za", "dla", "pro",
    ]

    /// The line that starts a title whose end is line `ti`, among `free`: set right over it in its column and print,
    /// one to three words of letters in its script that name no firm, department, street or place, when the two read
    /// as one title wrapped. The upper line ends with a joining word (`Savjetnica za` / `marketing`), or the lower goes
    /// on in small letters (`Administrerende` / `direktør`), or the lower is a title's one or two words whose print the
    /// upper line shares within a quarter (`Licensed Real Estate` / `Agent`, `General` / `Counsel`).
    static func titleStartOver(_ lines: [AnalyzedLine], _ ti: Int, among free: [Int]) -> Int? {
        let lower = lines[ti]
        let lowerWords = lower.line.words.map(\.text)
        guard (1...2).contains(lowerWords.count), Text.hasAny(lower.key, lexicon.jobTitles),
            let above = free.filter({ j in
                wrappedUnder(lines, j, among: [ti], sizeTolerance: 0.3) == ti
            }).max(by: { lines[$0].line.place.minY < lines[$1].line.place.minY })
        else { return nil }
        let upper = lines[above]
        let ws = upper.line.words.map(\.text)
        guard (1...3).contains(ws.count), upper.entities.isEmpty, Text.digitCount(upper.text) == 0,
            ws.allSatisfy({ $0.allSatisfy { $0.isLetter || $0 == "-" || $0 == "&" } }),
            latinLetters(upper.text) == latinLetters(lower.text),
            !namesAFirm(upper.key), !Text.hasAny(upper.key, lexicon.departmentWords),
            !Text.hasAny(upper.key, streetWords), !lexicon.isPlaceOnly(upper.key)
        else { return nil }
        let last = ws.last.map { $0 == "&" ? $0 : Text.key($0).lowercased() } ?? ""
        let goesOn = lowerWords.first?.first?.isLowercase == true
        let sameFace = ws.allSatisfy { $0.first?.isUppercase == true || $0 == "&" }
            && abs(upper.line.printHeight - lower.line.printHeight) < 0.25 * max(1, lower.line.printHeight)
        return titleJoiners.contains(last) || goesOn || sameFace ? above : nil
    }

    /// Whether a word is one of `titleJoiners` printed in small letters (`of`, `del`; not the `Of` of a title-case
    /// slogan).
    static func smallJoiner(_ w: String?) -> Bool {
        guard let w else { return false }
        return titleJoiners.contains(w) && w.first?.isLowercase == true
    }
}
