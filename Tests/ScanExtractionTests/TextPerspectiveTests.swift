import Foundation
import Testing
@testable import ScanLayout
import ScanModel

/// The rows of a photographed page levelled by where its printed lines converge, when the camera found no
/// page corners to rectify.
@Suite struct TextPerspectiveTests {
    /// Observations for text lines given in a page's own upright coordinates, photographed through `photo`:
    /// every word and line gets the quadrilateral the recognizer would give, and its box on the photo.
    static func observation(_ words: [String], x: Double, y: Double, h: Double, through photo: Homography)
        -> TextObservation
    {
        func quad(_ x: Double, _ w: Double) -> Quad { photo.apply(Quad(BoundingBox(x: x, y: y, width: w, height: h))) }
        var cx = x
        let ws = words.map { t -> RecognizedWord in
            let w = Double(t.count) * h * 0.55
            let q = quad(cx, w)
            cx += w + h * 0.4
            return RecognizedWord(text: t, confidence: 0.95, boundingBox: q.boundingBox, quad: q)
        }
        let q = quad(x, cx - h * 0.4 - x)
        return TextObservation(
            text: words.joined(separator: " "), confidence: 0.95, boundingBox: q.boundingBox, words: ws, quad: q)
    }

    static let items = [
        ("Chicken noodle soup", "6.50"), ("Grilled cheese sandwich", "8.25"), ("Garden salad large", "9.10"),
        ("Sparkling water bottle", "2.00"), ("Chocolate brownie slice", "4.75"), ("Iced green tea", "3.20"),
        ("Roast beef sandwich", "11.40"), ("French fries basket", "4.10"), ("Lemon cheesecake", "5.60"),
        ("Vanilla milkshake", "5.25"), ("House coffee refill", "1.95"), ("Apple pie with cream", "4.90")
    ]

    /// A receipt 600 by 900 pixels photographed with its right edge much nearer the camera than its left: on the
    /// photo its top row climbs by about 14 degrees and its bottom row falls by as much. Names at the left, amounts
    /// at the right edge, each its own observation.
    static func photographedReceipt(rows: [(String, String)] = items) -> (page: Page, photo: Homography) {
        let photo = Homography.mapping(
            [Point(x: 0, y: 0), Point(x: 600, y: 0), Point(x: 600, y: 900), Point(x: 0, y: 900)],
            to: [Point(x: 100, y: 150), Point(x: 700, y: 0), Point(x: 700, y: 1000), Point(x: 100, y: 850)])!
        let observations = receiptRows(rows, through: photo)
        return (Page(index: 0, width: 800, height: 1000, textSource: .imported, observations: observations), photo)
    }

    /// The rows of a receipt 600 pixels wide, a name at the left and its amount at the right of each, 55 pixels
    /// apart, as `photo` shows them.
    static func receiptRows(_ rows: [(String, String)] = items, through photo: Homography) -> [TextObservation] {
        rows.enumerated().flatMap { n, row -> [TextObservation] in
            let y = 120 + 55 * Double(n)
            return [
                observation(row.0.split(separator: " ").map(String.init), x: 30, y: y, h: 16, through: photo),
                observation([row.1], x: 590 - Double(row.1.count) * 16 * 0.55, y: y, h: 16, through: photo),
            ]
        }
    }

    @Test func thePrintedLinesOfAPhotographedPageComeOutLevel() throws {
        let (page, _) = Self.photographedReceipt()
        guard case .projective(let levelling) = try #require(TextPerspective.levelling(page)) else {
            Issue.record("a photographed page's lines meet at one point")
            return
        }
        #expect(!levelling.isAffine, "converging lines need a projective map")
        var levels: [Double] = []
        for o in page.observations where o.text.contains(" ") {
            let q = levelling.apply(o.quad!)
            #expect(abs(q.topLeft.y - q.topRight.y) < 0.5, "\(o.text): \(q)")
            #expect(abs(q.bottomLeft.y - q.bottomRight.y) < 0.5, "\(o.text): \(q)")
            levels.append((q.topLeft.y + q.bottomLeft.y) / 2)
        }
        // Top to bottom, as printed, and never flipped.
        #expect(levels == levels.sorted())
        // Near the page's middle the map keeps the pixels' size: a line there stays about 16 pixels high.
        let middle = page.observations[12]
        let q = levelling.apply(middle.quad!)
        #expect(abs((q.bottomLeft.y - q.topLeft.y) - middle.quad!.topLeft.distance(to: middle.quad!.bottomLeft)) < 3)
    }

    /// Grouped by one slant for the page, each amount at the right edge of the top rows sits two rows above its
    /// name and each one at the bottom two rows below; levelled by the lines' convergence every name gets its
    /// amount.
    @Test func everyNameOfAPhotographedReceiptGetsItsAmount() {
        let (page, _) = Self.photographedReceipt()
        let expected = Self.items.map { "\($0.0) \($0.1)" }
        #expect(LayoutAnalyzer.lines(of: page).map(\.text) == expected)
        // The stored layout reads back the same lines.
        var stored = page
        stored.layout = LayoutAnalyzer.layout(of: page)
        #expect(stored.layout?.frame == nil, "the layout records a frame only for the page the camera found")
        #expect(LayoutAnalyzer.lines(of: stored).map(\.text) == expected)
        #expect(stored.layout?.blocks.flatMap { $0.lines.map(\.text) } == expected)
    }

    /// A page turned in its plane prints parallel lines: the map is a rotation by their angle, no perspective.
    @Test func parallelLinesGiveARotation() throws {
        let turn = Homography.rotation(degrees: -5, about: Point(x: 400, y: 500))
        var observations: [TextObservation] = []
        for (n, (name, _)) in Self.items.prefix(8).enumerated() {
            observations.append(
                Self.observation(
                    name.split(separator: " ").map(String.init), x: 60, y: 100 + 40 * Double(n), h: 18, through: turn))
        }
        let page = Page(index: 0, width: 800, height: 1000, textSource: .imported, observations: observations)
        guard case .projective(let levelling) = try #require(TextPerspective.levelling(page)) else {
            Issue.record("parallel lines meet at infinity")
            return
        }
        for o in observations {
            let q = levelling.apply(o.quad!)
            #expect(abs(q.topLeft.y - q.topRight.y) < 0.2)
            #expect(q.topLeft.x < q.topRight.x, "never turned over")
        }
        // Nothing converges: the map sends no finite point to infinity, so it keeps lines parallel.
        let far = levelling.apply(Point(x: -5000, y: 500)), near = levelling.apply(Point(x: 400, y: 500))
        #expect(far.x.isFinite && near.x.isFinite)
        #expect(abs(levelling.m[6]) < 1e-6 && abs(levelling.m[7]) < 1e-6, "\(levelling.m)")
    }

    /// A receipt photographed with its left edge far from the camera: that edge is 300 pixels high on the photo, the
    /// right edge 1000, so the rows meet about 560 pixels left of the photo's middle, beside the page. Every name
    /// still gets its amount.
    @Test func rowsMeetingJustBesideThePageAreLevelled() throws {
        let photo = Homography.mapping(
            [Point(x: 0, y: 0), Point(x: 600, y: 0), Point(x: 600, y: 900), Point(x: 0, y: 900)],
            to: [Point(x: 100, y: 350), Point(x: 700, y: 0), Point(x: 700, y: 1000), Point(x: 100, y: 650)])!
        let observations = Self.receiptRows(through: photo)
        let page = Page(index: 0, width: 800, height: 1000, textSource: .imported, observations: observations)
        guard case .projective = try #require(TextPerspective.levelling(page)) else {
            Issue.record("the rows meet at one point beside the page")
            return
        }
        #expect(LayoutAnalyzer.lines(of: page).map(\.text) == Self.items.map { "\($0.0) \($0.1)" })
    }

    /// A flat page whose long lines all sit in its top fifth, their quadrilaterals a few tenths of a degree off
    /// as a detector gives them: a vanishing point would fit that noise a little better than parallel lines, and
    /// tilt a row at the bottom of the page. The lines are taken as parallel, and the bottom row stays level.
    @Test func noiseInABandOfLinesGivesNoPerspective() throws {
        let noise = [0.3, -0.4, 0.1, 0.4, -0.2, 0.36, -0.1, 0.24]
        var observations: [TextObservation] = []
        for (n, degrees) in noise.enumerated() {
            let y = 40 + 34 * Double(n)
            let turn = Homography.rotation(degrees: degrees, about: Point(x: 300, y: y + 8))
            observations.append(
                Self.observation(
                    Self.items[n].0.split(separator: " ").map(String.init), x: 40, y: y, h: 16, through: turn))
        }
        observations.append(
            Self.observation(["Thank", "you", "for", "your", "visit"], x: 40, y: 1450, h: 16, through: .identity))
        let page = Page(index: 0, width: 600, height: 1600, textSource: .imported, observations: observations)
        let levelling = try #require(TextPerspective.levelling(page))
        guard case .projective(let h) = levelling else {
            Issue.record("straight lines without a clear turn are parallel")
            return
        }
        #expect(h.isAffine, "no perspective part: \(h.m)")
        let q = levelling.apply(observations.last!.quad ?? Quad(observations.last!.boundingBox))
        #expect(abs(q.topLeft.y - q.topRight.y) < 1, "\(q)")
    }

    /// A slip curling on the table or held in a hand: each row is straight, but its angle changes down the page
    /// (here from 3.5 up to 8 and back to 2 degrees, along half a wave), rows 50 pixels apart, names at the left and
    /// amounts 300 to 400 pixels right of the page's middle.
    static func curledSlip() -> (page: Page, outline: Quad) {
        var observations: [TextObservation] = []
        func slope(_ y: Double) -> Double { 0.14 * sin(2 * Double.pi * y / 1400) }
        for (n, (name, amount)) in items.enumerated() {
            let y = 100 + 50 * Double(n), k = slope(y)
            let row = Homography([1, 0, 0, k, 1, -k * 400, 0, 0, 1])   // (x, y) -> (x, y + k (x - 400))
            observations.append(
                observation(name.split(separator: " ").map(String.init), x: 40, y: y, h: 16, through: row))
            observations.append(
                observation([amount], x: 740 - Double(amount.count) * 16 * 0.55, y: y, h: 16, through: row))
        }
        // The page's outline as a camera finds it: a rectangle around the rows.
        let outline = Quad(BoundingBox(x: 10, y: 40, width: 780, height: 680))
        return (Page(index: 0, width: 800, height: 800, textSource: .imported, observations: observations), outline)
    }

    @Test func theRowsOfACurledSlipAreLevelledByTheirOwnAngles() throws {
        let (page, _) = Self.curledSlip()
        let expected = Self.items.map { "\($0.0) \($0.1)" }
        let levelling = try #require(TextPerspective.levelling(page))
        guard case .slopes = levelling else {
            Issue.record("no one vanishing point explains a curled slip's rows")
            return
        }
        for o in page.observations where o.text.contains(" ") {
            let q = levelling.apply(o.quad!)
            #expect(abs(q.topLeft.y - q.topRight.y) < 2, "\(o.text): \(q)")
        }
        #expect(LayoutAnalyzer.lines(of: page).map(\.text) == expected)
        // One slant for the page puts amounts on the wrong rows.
        #expect(LayoutAnalyzer.group(page, levelling: nil).map(\.line.text) != expected)
    }

    /// A slip that curls one way and back down its length (an S), rows `gap` pixels apart, turned by up to
    /// `amplitude` (dy/dx) over a wave of `wave` pixels; names at the left and amounts 300 to 400 pixels right of the
    /// page's middle.
    static func sCurledSlip(amplitude: Double, wave: Double, gap: Double) -> (page: Page, expected: [String]) {
        var observations: [TextObservation] = []
        let rows = items + items.prefix(8).map { ($0.0 + " refill", $0.1) }
        for (n, (name, amount)) in rows.enumerated() {
            let y = 100 + gap * Double(n), k = amplitude * sin(2 * Double.pi * (y - 100) / wave)
            let row = Homography([1, 0, 0, k, 1, -k * 400, 0, 0, 1])   // (x, y) -> (x, y + k (x - 400))
            observations.append(
                observation(name.split(separator: " ").map(String.init), x: 40, y: y, h: 16, through: row))
            observations.append(
                observation([amount], x: 760 - Double(amount.count) * 16 * 0.55, y: y, h: 16, through: row))
        }
        let page = Page(index: 0, width: 800, height: 1000, textSource: .imported, observations: observations)
        return (page, rows.map { "\($0.0) \($0.1)" })
    }

    /// The rows of an S-curl turn most where the wave peaks, and a straight-line fit of their angles there gives them
    /// too little slope, so that an amount far right of its name lands on the row below: the field follows the turn
    /// with a parabola. A gentler S still fits one vanishing point within its tolerance, which puts amounts on the
    /// wrong rows too; the curved field, which misses the lines far less, levels it.
    @Test func theRowsOfASlipCurledBothWaysKeepTheirAmounts() throws {
        let (page, expected) = Self.sCurledSlip(amplitude: 0.10, wave: 500, gap: 30)
        guard case .slopes(let field) = try #require(TextPerspective.levelling(page)) else {
            Issue.record("no one vanishing point explains a curled slip's rows")
            return
        }
        #expect(field.curved)
        #expect(LayoutAnalyzer.lines(of: page).map(\.text) == expected)

        let (gentle, rows) = Self.sCurledSlip(amplitude: 0.04, wave: 500, gap: 26)
        let segments = TextPerspective.segments(of: gentle)
        let (perspective, _) = try #require(TextPerspective.projectiveFit(segments, page: gentle))
        #expect(LayoutAnalyzer.group(gentle, levelling: .projective(perspective)).map(\.line.text) != rows)
        guard case .slopes = try #require(TextPerspective.levelling(gentle)) else {
            Issue.record("the vanishing point levelled a curled slip")
            return
        }
        #expect(LayoutAnalyzer.lines(of: gentle).map(\.text) == rows)
    }

    /// The camera finds a curled slip's outline and its checks pass, but in that rectangle the rows still run at
    /// their angles: the layout leaves the frame out and levels the rows by their own angles. A page whose rows
    /// do run level in the rectangle keeps it.
    @Test func aCurledSlipIsNotGroupedInTheFrameOfItsOutline() throws {
        let (page, outline) = Self.curledSlip()
        let rectangle = try #require(Homography.rectifying(outline))
        #expect(!TextPerspective.agrees(rectangle, with: page))
        var stored = page
        stored.layout = LayoutAnalyzer.layout(of: page, frame: outline)
        #expect(stored.layout?.frame == nil)
        #expect(LayoutAnalyzer.lines(of: stored).map(\.text) == Self.items.map { "\($0.0) \($0.1)" })

        let (flat, photo) = Self.photographedReceipt()
        let corners = photo.apply(Quad(BoundingBox(x: 0, y: 0, width: 600, height: 900)))
        #expect(TextPerspective.agrees(try #require(Homography.rectifying(corners)), with: flat))
        #expect(LayoutAnalyzer.layout(of: flat, frame: corners).frame == corners)
    }

    /// Lines that bend one way and the other from one row to the next (no smooth change down the page, no one
    /// point) give no levelling, and the page's single slant stays in charge. Too few long lines say nothing either.
    @Test func curledLinesAndFewLinesGiveNoLevelling() {
        var observations: [TextObservation] = []
        for (n, (name, _)) in Self.items.prefix(10).enumerated() {
            let bend = Homography.rotation(degrees: n % 2 == 0 ? 7 : -7, about: Point(x: 200, y: 100 + 40 * Double(n)))
            observations.append(
                Self.observation(
                    name.split(separator: " ").map(String.init), x: 60, y: 100 + 40 * Double(n), h: 16, through: bend))
        }
        let curled = Page(index: 0, width: 800, height: 1000, textSource: .imported, observations: observations)
        #expect(TextPerspective.levelling(curled) == nil)

        let few = Page(
            index: 0, width: 800, height: 1000, textSource: .imported,
            observations: Array(Self.photographedReceipt().page.observations.prefix(10)))
        #expect(TextPerspective.levelling(few) == nil, "five long lines")
        // Without quadrilaterals (an engine that gives boxes only) there is nothing to measure.
        var boxesOnly = Self.photographedReceipt().page
        for i in boxesOnly.observations.indices { boxesOnly.observations[i].quad = nil }
        #expect(TextPerspective.levelling(boxesOnly) == nil)
    }

    /// A receipt photographed at an angle on a desk of other printed papers, turned their own ways: the camera's quad
    /// fails its print check (print lies outside it), yet the receipt's own lines run level in its rectangle, so the
    /// rows are grouped there and every name gets its amount; the papers' lines alone would level nothing. A quad
    /// whose corner lies on the photo's edge frames nothing.
    @Test func aReceiptOnOtherPapersIsGroupedInItsDoubtedOutline() throws {
        let outline = [Point(x: 100, y: 160), Point(x: 700, y: 20), Point(x: 700, y: 1010), Point(x: 100, y: 860)]
        let photo = try #require(Homography.mapping(
            [Point(x: 0, y: 0), Point(x: 600, y: 0), Point(x: 600, y: 900), Point(x: 0, y: 900)], to: outline))
        var observations = Self.receiptRows(through: photo)
        // Two memos beside it, turned 18 degrees one way and 9 the other, full of long lines.
        for (angle, dx) in [(18.0, 900.0), (-9.0, 1250.0)] {
            let a = angle * .pi / 180
            let turn = Homography([cos(a), -sin(a), dx, sin(a), cos(a), 150, 0, 0, 1])
            for n in 0..<16 {
                observations.append(Self.observation(
                    ["quarterly", "budget", "review", "meeting", "notes"], x: 0, y: 40 * Double(n), h: 16, through: turn))
            }
        }
        let page = Page(index: 0, width: 1700, height: 1100, textSource: .imported, observations: observations)
        let quad = try #require(Quad(corners: outline))
        let layout = LayoutAnalyzer.layout(of: page, doubtedFrame: quad)
        #expect(layout.frame == quad)
        var stored = page
        stored.layout = layout
        let lines = LayoutAnalyzer.lines(of: stored).map(\.text)
        // (The memos' words at the right may join a row; the name and its amount open it.)
        for (name, amount) in Self.items { #expect(lines.contains { $0.hasPrefix("\(name) \(amount)") }, "\(name)") }
        // Without the outline, the papers' lines level the page their way, and names part from their amounts.
        var unframed = page
        unframed.layout = LayoutAnalyzer.layout(of: page)
        let loose = LayoutAnalyzer.lines(of: unframed).map(\.text)
        #expect(Self.items.contains { name, amount in !loose.contains { $0.hasPrefix("\(name) \(amount)") } })
        // Round three of the receipt's rows (a coupon lying on it): too few lines of its own to frame anything.
        let coupon = photo.apply(Quad(BoundingBox(x: 0, y: 100, width: 600, height: 160)))
        #expect(LayoutAnalyzer.layout(of: page, doubtedFrame: coupon).frame == nil)
        // Its corner on the photo's edge: no outline of a page.
        let edge = try #require(Quad(corners: [Point(x: 0, y: 0)] + outline.dropFirst()))
        #expect(LayoutAnalyzer.layout(of: page, doubtedFrame: edge).frame == nil)
        // A checked frame is still judged by every line of the page, as before.
        #expect(LayoutAnalyzer.layout(of: page, frame: quad).frame == nil)
    }
}
