import ScanDetectors
import ScanLayout
import ScanModel

extension BusinessCardParser {
    /// The premises over the street (a building's, a floor's line) put before the address `addr` read, in its
    /// block, once every other field has taken its lines (`used`, `fields`).
    static func addPremises(
        _ lines: [AnalyzedLine], to addr: (address: BusinessCard.Address, provenance: Provenance, lines: [Int]),
        used: Set<Int>, fields: FieldLines, into card: inout BusinessCard
    ) {
        guard var address = card.address else { return }
        let taken = used.union(fields.all)
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

    /// The lines over an address's block that belong to it though the detectors found nothing there: a building, a
    /// farm, a business centre, a floor, a `c/o` (`Fitzwilliam Hall` / `27 Fitzwilliam Place` / `Dublin 2`), top
    /// first. A line goes with the block when it stands in the block's column, lines up with the block's nearest line
    /// on its left edge, right edge or centre, is printed at the block's size, and sits at the block's own line
    /// spacing over it (with one line in the block, at most about one and a half lines' height, as single-spaced
    /// print is), and when it says something of a place: it reads as a street (also `Kochsgade 31D, 1. tv.`, a name
    /// and a number before a comma), or, listing nothing with `&` or `·`, it holds a street's, an address part's or a
    /// building's word of the locale files (`premises`: `Hall`, `Farm`, `Immeuble`, `OG`, `Private Bag`), a unit's
    /// `#04-11`, `c/o`, or only a county's, a region's or a country's name. So a label (`Head Office`, `Siège
    /// social`, `Bezoekadres`), opening hours, a registration number, a tagline or a firm's name printed over the
    /// address in its style stays out, and so do places no list knows (`Moserhof` / `Vorderfager`). The search stops
    /// at the first line that fails, at one any other field has taken (`taken`: the contacts, the name, the title,
    /// the firm), and at one with a contact, a job title or more than eight words; where no line was found to be the
    /// firm's, at one without a digit too (it may be the firm's name). At most three lines are added, and no address
    /// grows past six.
    static func premisesAbove(_ lines: [AnalyzedLine], block: [Int], taken: Set<Int>, firmFound: Bool) -> [Int] {
        guard let top = block.first, block.count < 6 else { return [] }
        var group = block
        var added: [Int] = []
        var j = top - 1
        while j >= 0, added.count < 3, group.count < 6 {
            let upper = lines[group[0]].line, l = lines[j].line
            let h = max(1, upper.printHeight)
            // Lines of another column (the contacts beside the address) are passed over.
            let box = BoundingBox.enclosing(group.map { lines[$0].line.box }) ?? upper.box
            guard l.box.horizontalOverlap(box) > 0 else { j -= 1; continue }
            guard !taken.contains(j) else { break }
            let aligned =
                abs(l.box.minX - upper.box.minX) < 1.5 * h || abs(l.box.maxX - upper.box.maxX) < 1.5 * h
                || abs(l.box.midX - upper.box.midX) < 1.5 * h
            let sameSize = l.printHeight >= 0.75 * h && l.printHeight <= 1.3 * h
            let levels = group.map { lines[$0].line.level }
            let steps = zip(levels.dropFirst(), levels).map { $0 - $1 }.sorted()
            let allowed = steps.isEmpty ? 1.9 * h : 1.3 * steps[steps.count / 2]
            let step = upper.level - l.level
            let words = l.words.filter { $0.text.contains(where: { $0.isLetter || $0.isNumber }) }
            guard aligned, sameSize, step > 0.5 * h, step <= allowed, !words.isEmpty, words.count <= 8,
                !Self.holdsContact(lines[j]),
                !Text.hasAny(lines[j].key, Self.lexicon.jobTitles),
                firmFound || Text.digitCount(l.text) > 0, Self.namesAPlace(lines[j]),
                !Self.secondTown(lines[j], over: group.map { lines[$0] })
            else { break }
            group.insert(j, at: 0)
            added.insert(j, at: 0)
            j -= 1
        }
        return added
    }

    /// Whether a line over an address says something of a place (see ``premisesAbove(_:block:taken:firmFound:)``).
    static func namesAPlace(_ l: AnalyzedLine) -> Bool {
        // (A list of what the firm does, `Farm Shop & Tea Room`, `Kinésithérapie · Ostéopathie`, is no premises.)
        if streetLike(l) { return true }
        if l.text.contains(where: { "&·•|".contains($0) }) { return false }
        return Text.hasAny(l.key, streetWords) || Text.hasAny(l.key, lexicon.premises)
            || Text.range(l.text, #"(?:^|\s)#\s?\d"#) != nil || l.text.lowercased().hasPrefix("c/o")
            || Text.range(l.text, #"^\p{L}[\p{L}.'\- ]*\s\d{1,4}\S{0,2},"#) != nil
            || lexicon.isPlaceOnly(l.key) || countyLine(l.key) && Text.range(l.text, #"^Co\.?\s"#) != nil
    }

    /// The line with a street's abbreviation at its start mended where OCR read its small `l` as a capital `I`
    /// (`JI. Kemang Raya No. 27` for Indonesia's `Jl.`, `CI. 10 Sur` for Colombia's `Cl.`): a first word of two to four
    /// letters and a full stop that is no thoroughfare's abbreviation as read and is one with its `I` read as `l`.
    static func streetAbbreviationMended(_ l: AnalyzedLine) -> AnalyzedLine {
        guard var first = l.line.words.first, first.text.count <= 5, first.text.hasSuffix("."),
            first.text.dropFirst().contains("I"), first.text.dropLast().allSatisfy(\.isLetter),
            case let tail = String(first.text.dropFirst().map { $0 == "I" ? "l" : $0 }),
            case let mended = String(first.text.prefix(1)) + tail,
            !lexicon.thoroughfares.isFound(in: Text.key(first.text)),
            lexicon.thoroughfares.isFound(in: Text.key(mended)), l.line.words.count >= 2
        else { return l }
        first.text = mended
        var words = l.line.words
        words[0] = first
        return AnalyzedLine(
            line: LayoutLine(page: l.line.page, words: words, level: l.line.level, ordered: true),
            labelWordCount: l.labelWordCount, trailing: l.trailing, entities: l.entities)
    }

    /// The printed address: detector hits, widened to the street line above a postal-code line.
    func address(_ lines: [AnalyzedLine], used: inout Set<Int>, firmDomain: String? = nil)
        -> (address: BusinessCard.Address, provenance: Provenance, lines: [Int])?
    {
        // (A street's abbreviation read with `I` for `l` is mended here only: `CI. Flores de la Sabana S.A.S.` is a
        // firm's name.)
        let lines = lines.map(Self.streetAbbreviationMended)
        // The nearest line over line `i` that shares its column, if it is close.
        func previousInColumnOf(_ i: Int) -> Int? {
            guard let j = lines.indices.prefix(i).last(where: {
                lines[$0].line.box.horizontalOverlap(lines[i].line.box) > 0
            }), lines[i].line.box.minY - lines[j].line.box.maxY < 1.5 * lines[j].line.textHeight else { return nil }
            return j
        }
        // Whether line `k` holds a contact that was taken and sits beside line `i` rather than over it: on a photo
        // taken askew the contacts of the column beside the address rise into its rows.
        func contactBeside(_ k: Int, _ i: Int) -> Bool {
            used.contains(k) && Self.holdsContact(lines[k]) && lines[k].line.box.maxY > lines[i].line.box.midY
        }
        // The nearest line over line `i` in its column, past such contacts.
        func lineOver(_ i: Int) -> Int? {
            var k = previousInColumnOf(i)
            while let c = k, contactBeside(c, i) { k = previousInColumnOf(c) }
            return k
        }
        // Lines with an address or postal code hit.
        var hitLines: [Int] = []
        var value: EntityValue?
        for (i, l) in lines.enumerated() {
            if let a = l.entities(.address).first {
                hitLines.append(i)
                if value == nil { value = a.value }
            } else if let p = l.entities(.postalCode).first, !used.contains(i) || l.entities(.phone).isEmpty {
                hitLines.append(i)
                if value == nil { value = p.value }
            }
        }
        // A code on the street's own line, the street first: `Merzstrasse 64, 3945 Delsberg`, `Brunnerstrasse 1, 1423
        // Muri, Schweiz`, Iceland's three digits `Hjalteyrargata 10, 600 Akureyri`.
        if hitLines.isEmpty {
            let street = #"^\s*\p{L}[\p{L}.\- ]*\s\d{1,4}\s?[a-zA-Z]?,"#
            let pattern = street + #"\s*(\d{3,4})\s+\p{Lu}[\p{L}.'\- ]+(?:,\s*\p{L}[\p{L} ]+)?$"#
            for i in lines.indices where !used.contains(i) {
                // (A house number after a unit's is no code: `Unit 5, 128 Queen's Road Central`.)
                guard let code = Text.groups(lines[i].text, pattern)?.first,
                    let r = lines[i].text.range(of: code, options: .backwards),
                    case let town = Text.key(String(lines[i].text[r.upperBound...])),
                    !Text.hasAny(town, Self.streetWords), !Text.hasAny(town, Self.lexicon.premises)
                else { continue }
                hitLines = [i]
                value = EntityValue(postalCode: code)
                break
            }
        }
        // Or a code the detectors could not place, the card naming no country (`12 Rata Street` / `Dargaville 0310`):
        // a line of a town and three to six digits, either way round, right under a street line with a house number
        // and a street's word, or under lines of the address's parts under it.
        if hitLines.isEmpty {
            for i in lines.indices.dropFirst() where !used.contains(i) {
                // (On a photo taken askew the boxes of lines set close overlap: their rows tell them apart.)
                guard let code = Self.townAndCode(lines[i]), var above = previousInColumnOf(i), !used.contains(above),
                    case let h = lines[above].line.textHeight,
                    lines[i].line.box.minY - lines[above].line.box.maxY > -0.3 * h
                        || lines[i].line.level - lines[above].line.level > 0.45 * h
                else { continue }
                // (Or under a line or two of the address's parts under that street: `Jl. Kemang Raya No. 27` / `Kel.
                // Bangka, Kec. Mampang Prapatan` / `Jakarta Selatan 12730`.)
                for _ in 0..<2 where !Self.namedStreet(lines[above]) {
                    guard Text.hasAny(lines[above].key, Self.lexicon.addressParts), !Self.holdsContact(lines[above]),
                        let higher = previousInColumnOf(above), !used.contains(higher)
                    else { break }
                    above = higher
                }
                guard Self.namedStreet(lines[above]) else { continue }
                hitLines = [i]
                value = EntityValue(postalCode: code)
                break
            }
        }
        // Or no code that a detector knows, as the Gulf's and Hong Kong's addresses are written and Kenya's post boxes,
        // Chile's communes or Nigeria's towns: a line whose last part, or the one before it, names a country or a large
        // city once its code and abbreviations are left out (`Dubai, UAE`, `P.O. Box 48217-00100, Nairobi`, `Las
        // Condes, Santiago`, `Chiang Mai 50100`, `Guadalajara, Jal.`), with a street, a post box or a numbered building
        // on it or on one of the two lines over it in its column.
        if hitLines.isEmpty {
            for i in lines.indices where !used.contains(i) && !Self.holdsContact(lines[i]) && !lines[i].text.contains(":") {
                // (Or a line of places no list knows right under a street with its number and its street's word:
                // `Plot 1412, Ahmadu Bello Way` / `Victoria Island, Lagos`.)
                let above = previousInColumnOf(i)
                // (Or such places closing the street's own line: `Av. Apoquindo 4775, Of. 1202, Las Condes, Santiago`.)
                let towns = Self.placeNames(lines[i]) && above.map {
                    !used.contains($0) && Self.streetLike(lines[$0]) && Text.digitCount(lines[$0].text) > 0
                        && Text.hasAny(lines[$0].key, Self.lexicon.thoroughfares)
                } ?? false || Self.streetThenPlaces(lines[i])
                guard let country = Self.endsWithPlace(lines[i].text) ?? (towns ? region ?? "" : nil) else { continue }
                var cue = Self.anchorCue(lines[i]) || towns
                var j = i
                for _ in 0..<2 where !cue {
                    guard let above = lineOver(j), !used.contains(above), !Self.holdsContact(lines[above])
                    else { break }
                    cue = Self.anchorCue(lines[above])
                    j = above
                }
                guard cue else { continue }
                hitLines = [i]
                value = EntityValue(country: country.isEmpty ? nil : country)
                break
            }
        }
        guard var first = hitLines.first else { return nil }
        let column = lines[first].line.box
        func inColumn(_ j: Int) -> Bool {
            lines[j].line.box.horizontalOverlap(column) > 0
        }
        func near(_ j: Int, _ below: Int) -> Bool {
            lines[below].line.box.minY - lines[j].line.box.maxY < 2.5 * lines[j].line.textHeight
        }
        func nextInColumn(after i: Int) -> Int? { lines.indices.dropFirst(i + 1).first(where: inColumn) }
        func previousInColumn(before i: Int) -> Int? { lines.indices.prefix(i).last(where: inColumn) }
        // A street line whose house number reads as a postal code (`32946 Ashley Throughway`) right over the line
        // that ends with the address's own code (`Port Robertville, ME 73383`, `East Robertton, QC X6H 6G6`): the
        // lower line is the postal one, the upper its street. Lines of another column between them are passed over.
        func endsWithCode(_ i: Int) -> Entity? {
            lines[i].entities(.address).first
                ?? lines[i].entities(.postalCode).first {
                    $0.value.region != nil || $0.range.end == lines[i].text.unicodeScalars.count
                }
        }
        // A unit line between them (`60592 Cynthia Mount` / `Unit 7` / `North Kristyton, ME 49322`) is passed over too.
        let upperCode = lines[first].entities(.postalCode).first
        if upperCode?.range.start == 0, upperCode?.value.region == nil, lines[first].entities(.address).isEmpty,
            Self.streetLike(lines[first]), var below = nextInColumn(after: first)
        {
            var above = first
            if !hitLines.contains(below), Self.streetLike(lines[below]), near(first, below),
                Text.digitCount(lines[below].text) <= 5,
                let next = nextInColumn(after: below), hitLines.contains(next)
            {
                (above, below) = (below, next)
            }
            if hitLines.contains(below), !used.contains(below), near(above, below), let lower = endsWithCode(below) {
                first = below
                value = lower.value
            }
        }
        // A town's or a county's line: five words or fewer (`Bela Vista – São Paulo - SP`), or eight with a word of the
        // address's parts (`Col. Crédito Constructor, Alc. Benito Juárez`), without digits, no title; `Co.` only as a
        // county's (the line names a region).
        func placeBetween(_ i: Int) -> Bool {
            let l = lines[i]
            let words = l.line.words.filter { $0.text.contains(where: \.isLetter) }
            return Text.digitCount(l.text) == 0
                && (words.count <= 5 || words.count <= 8 && Text.hasAny(l.key, Self.lexicon.addressParts))
                && !Text.hasAny(l.key, Self.lexicon.jobTitles)
                && (!Text.hasAny(l.key, Self.lexicon.organizationWords) || Self.lexicon.isPlaceOnly(l.key)
                    || Self.countyLine(l.key))
        }
        // The line above `i` in its column, free, close, and a street's.
        func streetRightAbove(_ i: Int) -> Bool {
            previousInColumn(before: i).map { !used.contains($0) && near($0, i) && Self.streetLike(lines[$0]) } ?? false
        }
        var idx = [first]
        // A street line above (starts with a number or has a street word) joins a postal-code line.
        var j = first - 1
        var places = 0  // town and county lines taken: the street above them makes a fourth line
        while j >= 0, idx.count < 3 + min(places, 1) {
            let l = lines[j]
            // Only lines of the same column; contacts in another column are passed over.
            if !inColumn(j) { j -= 1; continue }
            if contactBeside(j, idx[0]) { j -= 1; continue }
            if used.contains(j) { break }
            // (A line of words that spells the card's own domain is the firm's name printed over its address, `Quinta
            // do Vale Sereno` of `valesereno.pt`, however much it reads as a street.)
            // (Nor is a firm's name that ends with its legal form, `Adinkra Print House Ltd.`.)
            let firmsName = firmDomain.map { Text.digitCount(l.text) == 0 && Self.spellsWhole($0, l.key) } ?? false
                || Self.legalFormKeys.contains { l.key.hasSuffix(" " + $0) }
            // (A title has no number: `Room 1803, Kin Fung Commercial Building` is a building's, whatever its words.)
            let titled = Text.hasAny(l.key, Self.lexicon.jobTitles) && Text.digitCount(l.text) == 0
            // (Nor is a slogan with a town of its own over a block that has one, `Open 7 Days – Dubai`.)
            let slogan = Self.secondTown(l, over: idx.map { lines[$0] })
            if Self.addressCue(l), near(j, idx[0]), !titled, !firmsName, !slogan {
                idx.insert(j, at: 0)
                j -= 1
                continue
            }
            // A town, and under it a county or region, each printed on a line of its own between the street and the
            // postal code (`New Philip` over `TA3R 4YB`; `Albert Ville` / `Co. Offaly` over `A51 5P42`): short lines
            // without digits, with a street line right above the first of them in its column. `Co.` there is a
            // county's, not a company's, when the rest of the line names a region of the locale files.
            // (With the postal line alone taken, the line above may be the town's, itself right under the street.)
            let townAbove =
                idx.count == 1
                && (previousInColumn(before: j).map {
                    !used.contains($0) && near($0, j) && placeBetween($0) && streetRightAbove($0)
                } ?? false)
            if idx.count <= 2, idx.count == 1 || !Self.streetLike(lines[idx[0]]), placeBetween(j), near(j, idx[0]),
                streetRightAbove(j) || townAbove
            {
                idx.insert(j, at: 0)
                places += 1
                j -= 1
                continue
            }
            break
        }
        // The street under the town and its code, where the code comes first (`1054 Budapest` / `Szabadság tér 7.`,
        // `191186, St. Petersburg` / `nab. reki Moyki, d. 42`, `〒530-0017` / `Osaka-shi Kita-ku Kakuda-cho 4-22` /
        // `Umekita Gate Bldg. 21F`): with the postal line alone taken, up to two lines right under it.
        var streetUnder = false
        // (The code's line holds up to three words more; each line under it has a number and a street's word or a
        // street's shape in parts, a block's numbers, `4-22`, or a building's or a floor's word; not `24/7 Emergency
        // Callouts`, `Since 1987`, nor a contact or a number's label.)
        if idx == [first], lines[first].line.words.count <= 4,
            Text.range(lines[first].text, #"^\s*(?:〒|T(?=\d{3}-\d{4}))?\s*\d[\d\s-]*(?:,?\s*\p{L}|$)"#) != nil
        {
            for _ in 0..<2 {
                guard let last = idx.last, let next = nextInColumn(after: last), !used.contains(next), near(last, next),
                    case let l = lines[next], !Self.holdsContact(l), Text.digitCount(l.text) > 0,
                    l.entities(.postalCode).isEmpty, l.entities(.address).isEmpty, !Self.labelsANumber(l.key),
                    !l.text.contains("24/7"),
                    Self.streetLike(l) && (Text.hasAny(l.key, Self.lexicon.thoroughfares) || l.text.contains(","))
                        || Text.range(l.text, #"\b\d{1,4}-\d{1,4}(?:-\d{1,4})?\b"#) != nil
                        || Text.hasAny(l.key, Self.lexicon.premises) || Text.hasAny(l.key, Self.lexicon.addressParts)
                else { break }
                idx.append(next)
                streetUnder = true
            }
        }
        // A postal code alone on the line under the block, in the shape of the country's codes (`01310-200` under
        // `Bela Vista, São Paulo - SP`), also where a phone's reading of its digits took the line.
        var codeBelow: String?
        if value?.postalCode == nil, let last = idx.last, let next = nextInColumn(after: last), near(last, next),
            lines[next].line.words.count == 1, let country = value?.country ?? region,
            case let code = lines[next].text.trimmingCharacters(in: .whitespaces),
            !used.contains(next) || lines[next].entities.allSatisfy({ $0.type == .phone && $0.text == code }),
            DataDetector.postalCodeFits(code, country: country)
        {
            idx.append(next)
            codeBelow = code
        }
        // A country line below (`Österreich`, `The Netherlands`, `España`): a country name of the locale files.
        if let last = idx.last, let next = nextInColumn(after: last),
            !used.contains(next), near(last, next)
        {
            var k = lines[next].key
            if k.hasPrefix("THE ") { k.removeFirst(4) }
            // (Or a region and its country, `Selangor, Malaysia`: only names of places.)
            // (Or a line that ends with a place and holds its code, or a region and its country: `C.P. 06600, Ciudad de
            // México` under `Col. Juárez, Cuauhtémoc`, `Metro Manila, Philippines`; not a second address, `Branch: 14
            // Musgrave Road, Durban, 4001`, nor `Since 1987, Chicago`.)
            let l = lines[next]
            let parts = l.text.split(separator: ",")
            // (The country may come first: `Trinidad, W.I.` under `Port of Spain`.)
            let country = parts.count <= 2 && parts.contains { DataDetector.countryCode(named: String($0)) != nil }
            let code = Text.range(l.text, #"(?<!\d)\d{4,}(?!\d)|\d{3}[\s-]\d{2,4}"#) != nil
            // (Or the town under the line its code closes with no town beside it, a large city or names of places:
            // `Col. Centro, C.P. 64000` over `Monterrey, N.L.`.)
            let codeCloses = last == first && value?.postalCode.map { code in
                let part = lines[last].text.split(separator: ",").last.map(String.init) ?? ""
                guard let r = part.range(of: code, options: .backwards),
                    part[r.upperBound...].allSatisfy({ $0.isWhitespace || $0.isPunctuation })
                else { return false }
                let before = part[..<r.lowerBound].trimmingCharacters(in: .whitespaces)
                return before.isEmpty || DataDetector.isPostalMark(before)
            } ?? false
            // (Names of places end with a region's or a state's abbreviation, `Monterrey, N.L.`, not a slogan's words,
            // `Calidad, Servicio, Garantía`.)
            let lastPart = parts.last.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            let regionAbbreviation = lastPart.hasSuffix(".") && lastPart.filter(\.isLetter).count <= 4
                || Self.lexicon.isPlaceOnly(Text.key(lastPart))
            let placeLine = !Self.holdsContact(l) && !Self.streetLike(l)
                && (Self.endsWithPlace(l.text) != nil && (code || country || codeCloses)
                    || codeCloses && Self.placeNames(l) && regionAbbreviation)
                && !l.text.contains(":") && !Self.holdsDays(l.text) && !Self.holdsHours(l.text)
                && !Text.hasAny(l.key, Self.lexicon.numberLabels)
            if Self.countryLines.contains(k) || Self.lexicon.isPlaceOnly(k) && Text.digitCount(l.text) == 0
                || DataDetector.countryCode(named: l.text) != nil && l.line.words.count <= 4 || placeLine
            {
                idx.append(next)
            }
        }
        let texts = idx.map { i -> String in
            let l = lines[i]
            // Drop contacts printed on the same line: `12 Main St | T 555 0100`.
            if let cut = l.entities.filter({ [.phone, .email, .url].contains($0.type) }).map(\.range.start).min(),
                cut > 0
            {
                var head = String(l.text.unicodeScalars.prefix(cut))
                head = Text.replacing(
                    head, #"[\s|·•,]*(?:T|Tel|Tél|Phone|P|M|F|Fax|E|W)?[.:]?\s*$"#, with: "", caseInsensitive: true)
                return Text.clean(head)
            }
            // (Japan's postal mark that OCR read as a `T`, where the detectors took the code after it: `T604-8005`.)
            if l.entities(.postalCode).contains(where: { $0.range.start == 1 && $0.value.country == "JP" }),
                l.text.hasPrefix("T")
            {
                return "〒" + Text.clean(String(l.text.dropFirst()))
            }
            return i == idx.first ? Self.withoutLabel(Text.clean(l.text)) : Text.clean(l.text)
        }
        let parts = texts.filter { !$0.isEmpty }
        guard !parts.isEmpty else { return nil }
        idx.forEach { used.insert($0) }
        var full = ""
        for p in parts {
            // (A street's word wrapped onto a line of its own goes on its street: `Oginga Odinga` / `Street`.)
            let streetWord = !p.contains(" ") && Self.lexicon.thoroughfares.isFound(in: Text.key(p))
            if full.isEmpty { full = p } else { full += (full.hasSuffix(",") || streetWord ? " " : ", ") + p }
        }
        let v = value ?? EntityValue()
        var a = BusinessCard.Address(
            full: full, street: v.street, city: v.city, region: v.region, postalCode: v.postalCode ?? codeBelow,
            country: v.country)
        // An address over several lines: the lines above the postal code's are the street (or the one under it, where
        // the town comes first), and the postal code's line holds the city.
        let postalAt = idx.firstIndex(of: first) ?? 0
        let streetLines = streetUnder ? [texts[postalAt + 1]] : Array(texts[..<postalAt])
        Self.complete(&a, streetLines: streetLines, postalLine: texts[postalAt])
        let box = BoundingBox.enclosing(idx.map { lines[$0].line.box })
        let prov = Provenance(
            text: idx.map { lines[$0].text }.joined(separator: "\n"), page: lines[first].line.page, boundingBox: box,
            confidence: idx.map { lines[$0].line.confidence }.min() ?? 0)
        return (a, prov, idx)
    }

    /// The code of a line that holds only a town of one to three capitalized words and a code of three to six digits,
    /// either way round (`Dargaville 0310`, `0310 Dargaville`; a comma or a dash may come before the code, `New Delhi –
    /// 110001`), with no word of an address part, a title, a firm or a number's label (`Established 1987`; the locale
    /// files' `numberLabels`).
    static func townAndCode(_ l: AnalyzedLine) -> String? {
        let town = #"\p{Lu}[\p{L}'’.\-]*(?:\s\p{Lu}[\p{L}'’.\-]*){0,2}"#
        guard let code = Text.groups(l.text, #"^\s*"# + town + #"(?:\s+|\s*[,–-]\s*)(\d{3,6})\s*$"#)?.first
            ?? Text.groups(l.text, #"^\s*(\d{3,6})\s+"# + town + #"\s*$"#)?.first,
            !Text.hasAny(l.key, lexicon.addressParts), !Text.hasAny(l.key, lexicon.jobTitles),
            !Text.hasAny(l.key, lexicon.organizationWords), l.entities.isEmpty,
            !Text.hasAny(l.key, lexicon.numberLabels)
        else { return nil }
        return code
    }

    /// An address's first line without a label before a colon (`Showroom: Unit 3, 18 Parramatta Road`, `Head Office:`,
    /// `Adresse :`): words of four letters or more, none a street's, an address part's or a building's (`No: G3`
    /// keeps its `No`, `Fitzwilliam Hall: 22 Harbour Street` its hall).
    static func withoutLabel(_ text: String) -> String {
        guard let r = Text.range(text, #"^\s*\p{L}[\p{L} ]{3,24}?\s?:\s+(?=\S)"#) else { return text }
        let key = Text.key(String(text[r]))
        guard !Text.hasAny(key, streetWords), !Text.hasAny(key, lexicon.premises),
            !key.split(separator: " ").contains(where: { lexicon.numberSigns.contains(String($0)) })
        else { return text }
        return String(text[r.upperBound...])
    }

    /// Whether a line holds a phone number, an e-mail address or a web address.
    static func holdsContact(_ l: AnalyzedLine) -> Bool {
        l.entities.contains { [.phone, .email, .url].contains($0.type) }
    }

    /// Whether a line says where a building stands: it reads as a street (see ``streetLike(_:)``), or it numbers a
    /// post box, a plot, a building or an office (`P.O. Box 46190`, `Plot 777`, `Building 4, Office 212`: a word of the
    /// locale files' address parts or premises and a number).
    static func addressCue(_ l: AnalyzedLine) -> Bool {
        streetLike(l) || Text.digitCount(l.text) > 0
            && (Text.hasAny(l.key, lexicon.addressParts) || Text.hasAny(l.key, lexicon.premises))
    }

    /// Whether a line that names no street ends with a town though a line of `block` under it does: a slogan's or a
    /// list's (`Open 7 Days – Dubai` over `Sheikh Zayed Road, Dubai, UAE`), not the town over its code (`Dublin 2` over
    /// `D02 T292`).
    static func secondTown(_ l: AnalyzedLine, over block: [AnalyzedLine]) -> Bool {
        endsWithPlace(l.text) != nil && !anchorCue(l) && block.contains { endsWithPlace($0.text) != nil }
    }

    /// Whether a line surely says where a building stands, as an address no postal code anchors needs: a street's word
    /// (`12 HaBarzel St.`, `Av. Apoquindo 4501`, `Harper Road`), or a numbered post box, plot, building or office; not
    /// a number before a capitalized word alone (`Open 7 Days`, `Serving 20 Countries`), a number's label (`Licence
    /// 4471`) or a firm's (`Company No. 08123456`).
    static func anchorCue(_ l: AnalyzedLine) -> Bool {
        Text.hasAny(l.key, lexicon.thoroughfares) && (Text.digitCount(l.text) > 0 || streetLike(l))
            || Text.digitCount(l.text) > 0 && !labelsANumber(l.key) && !Text.hasAny(l.key, lexicon.legalForms)
                && (Text.hasAny(l.key, lexicon.addressParts) || Text.hasAny(l.key, lexicon.premises))
    }

    /// Whether a key holds a word of the locale files' `numberLabels` that is no house number's sign (`Licence`,
    /// `Member`; not `No`, which numbers houses too).
    static func labelsANumber(_ key: String) -> Bool {
        key.split(separator: " ").contains {
            lexicon.numberLabels.isFound(in: String($0)) && !lexicon.numberSigns.contains(String($0))
        }
    }

    /// The country whose name, or one of whose large cities, ends a line: its last part or the one before it (parts
    /// parted by commas or dashes), with codes and trailing abbreviations left out (`Chiang Mai 50100`, `Guadalajara,
    /// Jal.`, `Bogotá D.C. 110221`). A line whose places lie in two countries or more lists places, not an address
    /// (`Offices in London, Paris, Dubai`).
    static func endsWithPlace(_ text: String) -> String? {
        // (A country after a full stop that OCR read for its comma ends the line too: `Ho Chi Minh City. Vietnam`.)
        var text = text
        if let stop = text.range(of: ". ", options: .backwards),
            DataDetector.countryCode(named: String(text[stop.upperBound...])) != nil
        {
            text.replaceSubrange(stop, with: ", ")
        }
        let parts = Text.replacing(text, #"\s[–—-]\s"#, with: ",").split(separator: ",").map(String.init)
        guard Set(parts.compactMap(partPlace)).count <= 1 else { return nil }
        return parts.suffix(2).reversed().lazy.compactMap(partPlace).first
    }

    /// The country of one part of a line, as ``endsWithPlace(_:)`` reads it.
    static func partPlace(_ part: String) -> String? {
        var words = part.split(separator: " ").map(String.init).filter { !$0.contains(where: \.isNumber) }
        if let c = words.isEmpty ? nil : placeCountry(words.joined(separator: " ")) { return c }
        while let last = words.last, words.count > 1, last.contains(".") || last.count <= 3 && last == last.uppercased() {
            words.removeLast()
        }
        return words.isEmpty ? nil : placeCountry(words.joined(separator: " "))
    }

    /// Whether a line holds only names of places: two or three parts parted by commas, each of one to three
    /// capitalized words of letters, none a title's, a firm's, a department's or a street's (`Victoria Island, Lagos`,
    /// `Las Condes, Santiago`).
    static func placeNames(_ l: AnalyzedLine) -> Bool {
        let parts = l.text.split(separator: ",")
        return (2...3).contains(parts.count) && Text.digitCount(l.text) == 0 && parts.allSatisfy(placePart)
            && !Text.hasAny(l.key, lexicon.jobTitles) && !namesAFirm(l.key)
            && !Text.hasAny(l.key, lexicon.departmentWords) && !Text.hasAny(l.key, streetWords)
    }

    /// Whether a line is a street with its number and its street's word, then two places no list knows, parted by
    /// commas (`Av. Apoquindo 4775, Of. 1202, Las Condes, Santiago`): the places as ``placeNames(_:)`` reads them.
    static func streetThenPlaces(_ l: AnalyzedLine) -> Bool {
        let parts = l.text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count >= 3, let first = parts.first, Text.digitCount(first) > 0,
            Text.hasAny(Text.key(first), lexicon.thoroughfares), l.entities.isEmpty
        else { return false }
        let places = parts.suffix(2)
        return places.allSatisfy { placePart(Substring($0)) }
            && !places.contains { Text.hasAny(Text.key($0), lexicon.jobTitles) || namesAFirm(Text.key($0)) }
    }

    /// Whether one comma-parted part of a line may name a place: one to three capitalized words of letters (`Las
    /// Condes`, `Victoria Island`).
    static func placePart(_ part: Substring) -> Bool {
        let ws = part.split(separator: " ")
        return (1...3).contains(ws.count)
            && ws.allSatisfy { $0.first?.isUppercase == true && $0.allSatisfy { $0.isLetter || "-'’.".contains($0) } }
    }

    /// Whether a line reads as a named street: a house number and a street's word of the locale files.
    static func namedStreet(_ l: AnalyzedLine) -> Bool {
        l.entities.isEmpty && (1...6).contains(Text.digitCount(l.text)) && Text.hasAny(l.key, lexicon.thoroughfares)
            && !l.text.contains("24/7")
    }

    /// An Irish county's line, `Co.` and one or two words (`Co. Down`, `CO. TYRONE`), in the Republic or in Northern
    /// Ireland, whose counties are no region of the locale files: a company's name does not start with `Co.`.
    static func countyLine(_ key: String) -> Bool {
        let words = key.split(separator: " ")
        return words.first == "CO" && (2...3).contains(words.count) && words.dropFirst().allSatisfy { $0.count >= 3 }
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
        // A bracketed part at the end is no town: a state's name (`Jaipur - 302022 (Rajasthan)`), or a label's.
        if let r = Text.range(rest, #"\(([^()]{2,30})\)\s*$"#) {
            let inner = rest[r].filter { $0 != "(" && $0 != ")" }.trimmingCharacters(in: .whitespaces)
            if a.region == nil, lexicon.isPlaceOnly(Text.key(inner)) { a.region = inner }
            rest.removeSubrange(r)
        }
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
        // `Lauriergracht 116-H`, or its stair, floor and door after slashes, in digits or Roman numerals, as Austria
        // writes them: `Kopernikusgasse 24/III`, `Favoritenstraße 12/2/14`.)
        // (Not a model's number, `Model 300-X`.)
        if let r = Text.range(
            t, #"\p{L}[\p{L}.]*,?\s+(?!24/7)\d{1,4}(?:(?:/(?:\d{1,4}|[IVX]{1,4})){1,3}|-[a-zA-Z]{1,2})?\s?[a-zA-Z]?$"#),
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
}
