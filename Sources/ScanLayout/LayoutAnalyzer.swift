import Foundation
import ScanModel

/// One word on a visual line, in page pixels (top-left origin).
public struct LayoutWord: Hashable, Sendable {
    public var text: String
    public var box: BoundingBox
    public var confidence: Double
    /// Where the word sits in the page's observations; nil for a word made up by the layout.
    public var reference: PageLayout.WordReference?
    /// The word's box in the upright rectangle of the document photographed on the page, when the layout
    /// was grouped in one (`PageLayout.frame`).
    public var frameBox: BoundingBox?

    public init(text: String, box: BoundingBox, confidence: Double, reference: PageLayout.WordReference? = nil,
                frameBox: BoundingBox? = nil) {
        self.text = text
        self.box = box
        self.confidence = confidence
        self.reference = reference
        self.frameBox = frameBox
    }

    /// Where the word sits for measuring columns, indents and gaps: in the document's frame when there
    /// is one (a turned photo moves a column's right edge row by row on the page), else on the page.
    public var place: BoundingBox { frameBox ?? box }
}

/// A visual line: the words whose baselines line up, left to right, even when the
/// engine returned them as separate observations (`TOTAL` ... `9.00`).
public struct LayoutLine: Hashable, Sendable {
    public var page: Int
    public var words: [LayoutWord]
    /// Words joined by one space.
    public var text: String
    public var box: BoundingBox
    /// The median word height: the size of the print.
    public var textHeight: Double
    /// The median height of the words' `place`s: the size of the print measured in the document's frame when there is
    /// one. On a page photographed askew a word's box on the page grows with its length (a long title's box is taller
    /// than a short name's of larger print); in the frame it does not.
    public var printHeight: Double
    public var confidence: Double
    /// The line's vertical position where the page's rows are level (see `LayoutAnalyzer.layout(of:frame:)`).
    public var level: Double
    /// The words' `place`s together: the line's box in the document's frame, or its box on the page.
    public var place: BoundingBox

    /// With `ordered`, the words are kept in the order given (the engine's own order within an observation).
    public init(page: Int, words: [LayoutWord], level: Double, ordered: Bool = false) {
        self.page = page
        self.words = ordered ? words : words.sorted { $0.box.minX < $1.box.minX }
        self.text = self.words.map(\.text).joined(separator: " ")
        self.box = BoundingBox.enclosing(words.map(\.box)) ?? BoundingBox(x: 0, y: 0, width: 0, height: 0)
        self.place = words.contains { $0.frameBox != nil } ? BoundingBox.enclosing(words.map(\.place)) ?? box : box
        let hs = words.map(\.box.height).sorted()
        self.textHeight = hs.isEmpty ? 0 : hs[hs.count / 2]
        let ps = words.map(\.place.height).sorted()
        self.printHeight = ps.isEmpty ? 0 : ps[ps.count / 2]
        let chars = words.reduce(0) { $0 + max(1, $1.text.count) }
        self.confidence =
            words.reduce(0.0) { $0 + $1.confidence * Double(max(1, $1.text.count)) } / Double(max(1, chars))
        self.level = level
    }

    /// Provenance for the whole line, or for the words `range` of it.
    public func provenance(words range: Range<Int>? = nil, confidence factor: Double = 1) -> Provenance {
        let r = range ?? 0..<words.count
        guard !r.isEmpty, r.lowerBound >= 0, r.upperBound <= words.count else {
            return Provenance(text: text, page: page, boundingBox: box, confidence: confidence * factor)
        }
        let ws = words[r]
        let chars = ws.reduce(0) { $0 + max(1, $1.text.count) }
        let conf = ws.reduce(0.0) { $0 + $1.confidence * Double(max(1, $1.text.count)) } / Double(max(1, chars))
        return Provenance(text: ws.map(\.text).joined(separator: " "), page: page,
                          boundingBox: BoundingBox.enclosing(ws.map(\.box)), confidence: conf * factor)
    }
}

/// A block of lines set close together (on cards: the name and title, the address...).
public struct LayoutBlock: Hashable, Sendable {
    public var lines: [LayoutLine]
    public var box: BoundingBox

    public init(lines: [LayoutLine], box: BoundingBox) {
        self.lines = lines
        self.box = box
    }
}

/// Groups the observations of a page into visual lines, in reading order.
///
/// The page's slant is measured from the words of each observation (the median slope
/// between first and last word), so that a slightly rotated or photographed receipt
/// still lines a label up with its amount at the far right. Observations are then
/// joined into one visual line when, after removing the slant, their vertical
/// centres are within half a text height and they don't overlap horizontally.
public enum LayoutAnalyzer {
    /// The page's lines in reading order: read from its stored layout when it has one
    /// (the layout stage ran), else worked out from its observations.
    public static func lines(of page: Page) -> [LayoutLine] {
        if let layout = page.layout, let resolved = resolve(layout, on: page) { return resolved }
        return analyze(page)
    }

    /// The layout stage: blocks of lines of words for `page`, whose observations all have words
    /// (see `withWords(_:)`), so that every word of the layout refers to one of them.
    /// `frame`, when given, is the quadrilateral of the document photographed on the page (the document
    /// camera's checked quad, in the page's pixels, its corners the document's own): rows are then grouped
    /// by their height in its upright rectangle, which a turned or tilted photo keeps level where one slant
    /// does not. The layout keeps the quad, so the lines read back from it are measured there too.
    /// Without a frame, rows are levelled by where the printed lines converge (`TextPerspective`), which a
    /// receipt photographed at an angle but running off the frame still shows; failing that, by the page's slant.
    ///
    /// `doubtedFrame` is a quad the camera found but whose checks failed (print outside it, the page running off the
    /// frame): the slip lies on other printed papers, or the quad is something else. It frames the rows only when its
    /// corners lie inside the photo, it holds a quarter of the page's lines or more, and twelve long lines or more
    /// inside it run level in its rectangle (`TextPerspective.agreesInside`): the other papers' lines, at their own
    /// angles, then neither level the slip's rows nor keep the frame out; a coupon lying on a receipt, a few lines of
    /// its own, frames nothing. Lines inside and outside it never share a row.
    public static func layout(of page: Page, frame: Quad? = nil, doubtedFrame: Quad? = nil) -> PageLayout {
        // A slip that curls inside its outline passes the camera's checks, but its rows are not level there.
        let segments = TextPerspective.segments(of: page)
        var frame = frame
        var within: Quad?
        var rectifying = frame.flatMap(Homography.rectifying).flatMap {
            TextPerspective.agrees($0, segments: segments) ? $0 : nil
        }
        // (A quad with a corner on the photo's edge is the photo's frame, or a page that runs off it: no outline.)
        let margin = 0.01 * min(page.width, page.height)
        if rectifying == nil, let doubted = doubtedFrame, let h = Homography.rectifying(doubted),
            doubted.corners.allSatisfy({ p in
                p.x >= margin && p.y >= margin && p.x <= page.width - margin && p.y <= page.height - margin
            }),
            4 * page.observations.filter({ doubted.contains(Point(x: $0.boundingBox.midX, y: $0.boundingBox.midY)) })
                .count >= page.observations.count,
            TextPerspective.agreesInside(doubted, h, segments: segments)
        {
            frame = doubted
            within = doubted
            rectifying = h
        }
        let levelling = rectifying.map(RowLevelling.projective) ?? TextPerspective.levelling(page, segments: segments)
        let grouped = group(page, levelling: levelling, within: within)
        let lines = grouped.map(\.line)
        let framed = levelling == nil ? nil : grouped.map(\.framed)
        return PageLayout(blocks: blocks(of: lines, framed: framed).map { b in
            PageLayout.Block(boundingBox: b.box.rounded(), lines: b.lines.map { l in
                PageLayout.Line(text: l.text, boundingBox: l.box.rounded(), words: l.words.compactMap(\.reference))
            })
        }, frame: rectifying == nil ? nil : frame)
    }

    /// `page` with every observation that came without word boxes split into words, by
    /// character count along the line, so that the layout can refer to each word.
    public static func withWords(_ page: Page) -> Page {
        guard page.observations.contains(where: { $0.words.isEmpty && !$0.text.isEmpty }) else { return page }
        var out = page
        out.observations = page.observations.map { o in
            guard o.words.isEmpty else { return o }
            var o = o
            o.words = splitEvenly(o).map {
                RecognizedWord(text: $0.text, confidence: $0.confidence, boundingBox: $0.box.rounded())
            }
            return o
        }
        return out
    }

    /// The stored layout's lines, top to bottom as `analyze` ordered them, or nil when a
    /// reference doesn't resolve (an edited document). Each line's level is worked out as
    /// `analyze` did: the mean level of its observations where the rows are level (in the document's frame when
    /// the layout was grouped in one, each word then with its box there too; else as `TextPerspective` levels
    /// the page, or with the page's slant taken out). The levelling is worked out again from the page as it is
    /// now; it only orders the lines.
    static func resolve(_ layout: PageLayout, on page: Page) -> [LayoutLine]? {
        let frame = layout.frame.flatMap(Homography.rectifying)
        // In the document's frame a unit's box is already where the rows are level.
        let level = frame == nil ? leveller(page, levelling: TextPerspective.levelling(page)) : { $0.midY }
        var out: [LayoutLine] = []
        for line in layout.lines {
            var words: [LayoutWord] = []
            var units: [Int: BoundingBox] = [:]
            for ref in line.words {
                guard let w = page.word(ref) else { return nil }
                let framed = frame.map { $0.apply(w.quad ?? Quad(w.boundingBox)).boundingBox }
                words.append(
                    LayoutWord(
                        text: w.text, box: w.boundingBox, confidence: w.confidence, reference: ref, frameBox: framed))
                let b = framed ?? w.boundingBox
                units[ref.observation] = units[ref.observation].map { $0.union(b) } ?? b
            }
            guard !words.isEmpty else { continue }
            let levels = units.values.map(level)
            out.append(
                LayoutLine(
                    page: page.index, words: words, level: levels.reduce(0, +) / Double(levels.count), ordered: true))
        }
        // Blocks group lines; the parsers read them top to bottom.
        return out.enumerated().sorted { ($0.element.level, $0.offset) < ($1.element.level, $1.offset) }.map(\.element)
    }

    /// One observation's words as line grouping sees them: their box, their level (where the rows are level)
    /// and their text height.
    /// `framed`: the unit's box where the rows are level, when the page was levelled.
    struct Unit {
        var words: [LayoutWord]; var box: BoundingBox; var level: Double; var height: Double;
        var framed: BoundingBox? = nil
        /// Whether the unit lies inside the quad the rows are grouped apart by (nil without one).
        var inside: Bool? = nil
    }

    /// Groups the observations into visual lines (the work behind `layout(of:)`).
    static func analyze(_ page: Page) -> [LayoutLine] {
        group(page, levelling: TextPerspective.levelling(page)).map(\.line)
    }

    /// The visual lines, each with its box where `levelling` puts it (the page's own box without one).
    /// `levelling` makes the page's rows level: the rectangle of the page the camera found, or the printed
    /// lines' own perspective (`TextPerspective`); without it, the page's median slant is taken out.
    /// With `within` (a doubted outline that frames the rows), a unit inside it and one outside never share a line:
    /// the papers around a slip stay off its rows.
    static func group(_ page: Page, levelling: RowLevelling?, within: Quad? = nil)
        -> [(line: LayoutLine, framed: FramedLine)]
    {
        let level = leveller(page, levelling: levelling)
        var units: [Unit] = []
        units.reserveCapacity(page.observations.count)
        for (n, o) in page.observations.enumerated() {
            var ws = o.words.enumerated().filter { !$0.element.text.trimmingCharacters(in: .whitespaces).isEmpty }
                .map { LayoutWord(text: $0.element.text, box: $0.element.boundingBox, confidence: $0.element.confidence,
                                  reference: PageLayout.WordReference(observation: n, word: $0.offset)) }
            if ws.isEmpty {
                // No word boxes: split the line's box over its words by character count.
                ws = splitEvenly(o)
            }
            guard !ws.isEmpty else { continue }
            let box = BoundingBox.enclosing(ws.map(\.box))!
            let hs = ws.map(\.box.height).sorted()
            // Where the rows are level, the recognizer's own quadrilateral of the line gives its level and its
            // height: the upright box of a turned line is taller than its letters by the slope across it.
            let framed = levelling.map { $0.apply(o.quad ?? Quad(box)).boundingBox }
            let inside = within?.contains(Point(x: box.midX, y: box.midY))
            if let framed, o.quad != nil {
                units.append(
                    Unit(words: ws, box: box, level: framed.midY, height: max(1, framed.height), framed: framed,
                         inside: inside))
            } else {
                units.append(
                    Unit(words: ws, box: box, level: level(box), height: max(1, hs[hs.count / 2]), framed: framed,
                         inside: inside))
            }
        }
        units.sort { $0.level < $1.level }
        var groups: [(units: [Unit], level: Double, height: Double)] = []
        for u in units {
            // Text printed across the page's lines (`$500 CASH GIVEAWAY ON BACK` up a receipt's edge) is a line of its
            // own.
            if isTurned(u) { groups.append(([u], u.level, u.height)); continue }
            var joined = false
            // Look back over the few most recent lines only: they are sorted by level.
            var k = groups.count - 1
            while k >= 0 && k >= groups.count - 3 {
                let g = groups[k]
                let tol = 0.5 * min(g.height, u.height)
                if abs(g.level - u.level) <= tol && !g.units.contains(where: { keepsApart($0, u) }) {
                    groups[k].units.append(u)
                    let n = Double(groups[k].units.count)
                    groups[k].level = (g.level * (n - 1) + u.level) / n
                    joined = true
                    break
                }
                k -= 1
            }
            if !joined { groups.append(([u], u.level, u.height)) }
        }
        refine(&groups)
        attachStrays(&groups)
        // Observations are ordered left to right; the words inside one keep the engine's reading order, which
        // stays right even when their boxes run backwards (an upside-down card).
        return groups.map { g in
            let line = LayoutLine(
                page: page.index, words: g.units.sorted { $0.box.minX < $1.box.minX }.flatMap(\.words),
                level: g.level, ordered: true)
            let heights = g.units.compactMap { $0.framed?.height }.sorted()
            return (line, FramedLine(box: BoundingBox.enclosing(g.units.compactMap(\.framed)) ?? line.box,
                                     textHeight: heights.isEmpty ? line.textHeight : heights[heights.count / 2]))
        }
        .sorted { $0.line.level < $1.line.level }
    }

    /// A unit joins the first line within reach, in order of level; a line whose first unit comes later in
    /// that order (text further left on a page that slants or curls) can fit it better: `2.00` beside
    /// `Garlic Fries` went to `Medium Well` above, read first. Each unit of a line of several moves to the
    /// line whose level is nearest its own, within reach and overlapping none of its units, until none moves.
    static func refine(_ groups: inout [(units: [Unit], level: Double, height: Double)]) {
        func level(_ us: [Unit]) -> Double { us.map(\.level).reduce(0, +) / Double(us.count) }
        for _ in 0..<3 {
            var moved = false
            for g in groups.indices where groups[g].units.count > 1 {
                var k = 0
                while k < groups[g].units.count, groups[g].units.count > 1 {
                    let u = groups[g].units[k]
                    var rest = groups[g].units
                    rest.remove(at: k)
                    let own = abs(level(rest) - u.level)
                    var best: (index: Int, distance: Double)?
                    // Lines are formed in order of level: the ones within reach are a few places away.
                    for h in max(0, g - 3)...min(groups.count - 1, g + 3)
                    where h != g && abs(groups[h].level - u.level) < own {
                        let d = abs(groups[h].level - u.level)
                        guard d <= 0.5 * min(groups[h].height, u.height), best.map({ d < $0.distance }) ?? true,
                            !isTurned(u),
                            !groups[h].units.contains(where: { keepsApart($0, u) })
                        else { continue }
                        best = (h, d)
                    }
                    // Only a clear gain: the other line is nearer by a fifth of the text height.
                    if let b = best, own - b.distance > 0.2 * u.height {
                        groups[g].units = rest
                        groups[g].level = level(rest)
                        groups[b.index].units.append(u)
                        groups[b.index].level = level(groups[b.index].units)
                        moved = true
                    } else {
                        k += 1
                    }
                }
            }
            if !moved { break }
        }
    }

    /// A number left on a line of its own a little off the line beside it (`96.18` half a text height under
    /// `3 Milk 1 gal`, across a wide table whose columns OCR boxed a few pixels apart) joins that line. Only where
    /// the page's lines are set far enough apart to tell: the number is within two fifths of the page's usual line
    /// pitch of that line, and in a gap of it; every other line is at least half as far again.
    static func attachStrays(_ groups: inout [(units: [Unit], level: Double, height: Double)]) {
        let levels = groups.map(\.level).sorted()
        var steps: [Double] = []
        for (a, b) in zip(levels, levels.dropFirst()) where b - a > 0 { steps.append(b - a) }
        guard steps.count >= 4 else { return }
        steps.sort()
        let pitch = steps[steps.count / 2]
        var g = 0
        while g < groups.count {
            guard groups[g].units.count == 1, isNumeric(groups[g].units[0]) else { g += 1; continue }
            let u = groups[g].units[0]
            var near: [(index: Int, distance: Double)] = []
            for h in max(0, g - 3)...min(groups.count - 1, g + 3) where h != g {
                near.append((h, abs(groups[h].level - u.level)))
            }
            near.sort { $0.distance < $1.distance }
            if let best = near.first, best.distance <= 0.4 * pitch,
               near.dropFirst().first.map({ 1.5 * best.distance <= $0.distance }) ?? true,
               !groups[best.index].units.contains(where: { keepsApart($0, u) }) {
                let n = Double(groups[best.index].units.count)
                groups[best.index].units.append(u)
                groups[best.index].level = (groups[best.index].level * n + u.level) / (n + 1)
                groups.remove(at: g)
                continue
            }
            g += 1
        }
    }

    /// Whether a line's unit keeps `u` out of that line: the two share columns, or the unit runs across the lines.
    static func keepsApart(_ member: Unit, _ u: Unit) -> Bool {
        member.inside != u.inside || overlapsHorizontally(member.box, u.box) || isTurned(member)
    }

    /// Whether a unit runs across the page's lines: four characters or more in a box three times taller than wide.
    static func isTurned(_ u: Unit) -> Bool {
        u.box.height > 3 * u.box.width && u.words.reduce(0) { $0 + $1.text.count } >= 4
    }

    /// Whether a unit is a number more than words (`96.18`, `$12.50`, `12:49 PM`): it has digits, and no fewer
    /// digits than letters.
    static func isNumeric(_ u: Unit) -> Bool {
        var digits = 0, letters = 0
        for w in u.words {
            for c in w.text.unicodeScalars {
                if ("0"..."9").contains(c) { digits += 1 } else if CharacterSet.letters.contains(c) { letters += 1 }
            }
        }
        return digits > 0 && digits >= letters
    }

    /// Every page's lines, page after page.
    public static func lines(of document: Document) -> [LayoutLine] {
        document.pages.flatMap { lines(of: $0) }
    }

    /// A line's box where the page's rows are level, and the height of its print there (the median of its
    /// observations' heights: the box of a line whose pieces sit a little apart is taller than its letters).
    struct FramedLine {
        var box: BoundingBox
        var textHeight: Double
    }

    /// Lines set close together, each block in reading order (top to bottom).
    /// With `framed` (each line where the rows are level, see `layout(of:frame:)`), the gaps, overlaps and
    /// text heights are measured there: on a turned photo a line's upright box is as tall as the slope across it.
    public static func blocks(of lines: [LayoutLine]) -> [LayoutBlock] {
        blocks(of: lines, framed: nil)
    }

    static func blocks(of lines: [LayoutLine], framed: [FramedLine]?) -> [LayoutBlock] {
        var blocks: [LayoutBlock] = []
        // Each block's extent, its last line's box and print height, where the tests measure them.
        var extents: [(block: BoundingBox, last: BoundingBox, height: Double)] = []
        for (n, l) in lines.enumerated() {
            let box = framed?[n].box ?? l.box, height = framed?[n].textHeight ?? l.textHeight
            if let i = blocks.indices.last(where: { i in
                guard let last = blocks[i].lines.last, last.page == l.page else { return false }
                let gap = box.minY - extents[i].last.maxY
                let h = max(extents[i].height, height)
                let hOverlap = extents[i].block.horizontalOverlap(box)
                return gap < 0.9 * h && gap > -0.5 * h && hOverlap > 0
            }) {
                blocks[i].lines.append(l)
                blocks[i].box = blocks[i].box.union(l.box)
                extents[i] = (extents[i].block.union(box), box, height)
            } else {
                blocks.append(LayoutBlock(lines: [l], box: l.box))
                extents.append((box, box, height))
            }
        }
        return blocks
    }

    /// The pieces of a line separated by gaps wider than two heights of the smaller text on
    /// either side: a large name beside a column of small contacts is two pieces, though the
    /// gap is narrow next to the name's own height. Where the recognizer itself read the two
    /// sides as separate text lines, a gap of more than 1.2 heights is enough, unless the left
    /// side is one short word (a label such as `Tel.` set apart from its number); a short word that
    /// ends with a colon (`Fax :`, `Site:`) keeps its value up to six heights off.
    ///
    /// `alignedStarts` are the left edges where the page's text boxes line up as a column (`alignedStarts(of:)`): a
    /// box of its own that starts at one of them opens a column even close to the words before it (`Oliver Hargreaves`
    /// and, a little to its right, `T +44 20 7946 0958` over the card's other contact lines).
    ///
    /// `gutters` are those of the aligned starts that no word of the page runs across (`gutters(of:starts:)`): there a
    /// column opens beside print of the same size too (`Eng. Fatima Al Hashemi` and `M +971 56 789 0123` a text height
    /// apart, over the lines of both columns).
    public static func columns(
        of line: LayoutLine, alignedStarts: [Double] = [], gutters: [Double] = []
    ) -> [LayoutLine] {
        var pieces: [[LayoutWord]] = []
        for w in line.words {
            if let piece = pieces.last, let last = piece.last {
                // Measured in the document's frame when there is one (`place`): on a card photographed askew,
                // the boxes on the page are taller and their gaps narrower than the print's.
                let gap = w.place.minX - last.place.maxX
                // A mark's box (`-`, `·`) is no text's height: it doesn't set the scale (`General Manager - Exports`).
                func height(_ x: LayoutWord) -> Double {
                    x.text.contains { $0.isLetter || $0.isNumber } ? x.place.height : .infinity
                }
                let h = max(1, min(line.printHeight, height(w), height(last)))
                let apart =
                    last.reference != nil && w.reference != nil
                    && last.reference?.observation != w.reference?.observation
                // One short word (`Tel.`), or one and a colon read apart from it (`Fax :`).
                let label = last.text.count <= 8 && (piece.count == 1 || piece.count == 2 && last.text == ":"
                    && piece[0].text.count <= 8 && piece[0].text.contains(where: \.isLetter))
                // A label that ends with a colon announces the value after it, however far off it is printed.
                let announces = label && last.text.hasSuffix(":")
                // (Only beside print of another size: a name beside its contacts, not a title's two boxes.)
                let sizes = [piece.map(\.place.height).max() ?? h, w.place.height]
                let aligned = apart && !label && gap > 0.4 * h
                    && (sizes.max()! > 1.2 * sizes.min()! && alignedStarts.contains { abs($0 - w.place.minX) < 0.5 * h }
                        || gutters.contains { abs($0 - w.place.minX) < 0.5 * h })
                let split = gap > 2 * h && !(announces && gap < 6 * h) || (apart && !label && gap > 1.2 * h) || aligned
                if !split { pieces[pieces.count - 1].append(w); continue }
                pieces.append([w])
            } else {
                pieces.append([w])
            }
        }
        if pieces.count <= 1 { return [line] }
        return pieces.map { LayoutLine(page: line.page, words: $0, level: line.level, ordered: true) }
    }

    /// The left edges where three or more of the lines' text boxes (the engine's observations) start, within half a
    /// text height of one another: a column's edge. Each is given once, as the mean of the edges it gathers.
    public static func alignedStarts(of lines: [LayoutLine]) -> [Double] {
        var starts: [(x: Double, h: Double)] = []
        for l in lines {
            for (k, w) in l.words.enumerated()
            where k == 0 || w.reference == nil || w.reference?.observation != l.words[k - 1].reference?.observation {
                starts.append((w.place.minX, max(1, l.printHeight)))
            }
        }
        starts.sort { $0.x < $1.x }
        var out: [Double] = []
        var group: [(x: Double, h: Double)] = []
        func close() {
            if group.count >= 3 { out.append(group.map(\.x).reduce(0, +) / Double(group.count)) }
            group = []
        }
        for s in starts {
            if let first = group.first, s.x - first.x > 0.5 * min(first.h, s.h) { close() }
            group.append(s)
        }
        close()
        return out
    }

    /// The aligned `starts` (`alignedStarts(of:)`) that no word of `lines` runs across, by more than half its height
    /// on either side, and where two lines or more hold two words or more before a text box of the recognizer's own
    /// that starts there: the edges of columns with a gutter before them and text on both sides, not a margin inside
    /// one column's text nor the values after a column of labels (`Phone`, `Email`).
    public static func gutters(of lines: [LayoutLine], starts: [Double]) -> [Double] {
        starts.filter { x in
            let crossed = lines.contains { l in
                l.words.contains { w in
                    let tol = 0.5 * max(1, w.place.height)
                    return w.place.minX < x - tol && w.place.maxX > x + tol
                }
            }
            let sides = lines.filter { l in
                l.words.indices.contains { k in
                    k >= 2 && abs(l.words[k].place.minX - x) < 0.5 * l.words[k].place.height
                        && l.words[k].reference != nil
                        && l.words[k].reference?.observation != l.words[k - 1].reference?.observation
                }
            }
            return !crossed && sides.count >= 2
        }
    }

    /// How high a box sits once the page's rows are level: its centre's height where `levelling` puts it
    /// when given, else its centre's height less the page's median slant (`slant(of:)`) times its distance
    /// from the page's middle.
    static func leveller(_ page: Page, levelling: RowLevelling?) -> (BoundingBox) -> Double {
        if let levelling { return { levelling.apply(Point(x: $0.midX, y: $0.midY)).y } }
        let slope = slant(of: page)
        let cx = page.width > 0 ? page.width / 2 : 0
        return { $0.midY - slope * ($0.midX - cx) }
    }

    /// The median slope (dy/dx) of the observations with words far apart; 0 when unknown.
    static func slant(of page: Page) -> Double {
        var slopes: [Double] = []
        for o in page.observations where o.words.count >= 2 {
            let a = o.words.first!.boundingBox, b = o.words.last!.boundingBox
            let dx = b.midX - a.midX
            guard dx > 1.5 * max(a.height, b.height) else { continue }
            // Use the bottoms: word tops vary with capitals, bottoms with descenders less.
            slopes.append((b.maxY - a.maxY) / dx)
        }
        guard slopes.count >= 3 else { return 0 }
        slopes.sort()
        return max(-0.2, min(0.2, slopes[slopes.count / 2]))
    }

    static func overlapsHorizontally(_ a: BoundingBox, _ b: BoundingBox) -> Bool {
        a.horizontalOverlap(b) > 0.3 * min(a.width, b.width)
    }

    static func splitEvenly(_ o: TextObservation) -> [LayoutWord] {
        let toks = o.text.split(separator: " ", omittingEmptySubsequences: true)
        guard !toks.isEmpty else { return [] }
        let total = Double(max(1, toks.reduce(0) { $0 + $1.count + 1 } - 1))
        var x = o.boundingBox.minX
        return toks.map { t in
            let w = o.boundingBox.width * Double(t.count) / total
            defer { x += o.boundingBox.width * Double(t.count + 1) / total }
            return LayoutWord(
                text: String(t), box: BoundingBox(x: x, y: o.boundingBox.minY, width: w, height: o.boundingBox.height),
                confidence: o.confidence)
        }
    }
}
