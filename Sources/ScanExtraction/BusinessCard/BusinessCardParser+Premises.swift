import ScanDetectors
import ScanLayout
import ScanModel

extension BusinessCardParser {
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
                !lines[j].entities.contains(where: { [.phone, .email, .url].contains($0.type) }),
                !Text.hasAny(lines[j].key, Self.lexicon.jobTitles),
                firmFound || Text.digitCount(l.text) > 0, Self.namesAPlace(lines[j])
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
}
