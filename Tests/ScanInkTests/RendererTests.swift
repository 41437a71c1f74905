import Foundation
import Testing
@testable import ScanInk
import ScanModel

@Suite struct RendererTests {
    typealias V = InkRenderer.Vec

    @Test func resampleSpacesPointsEvenly() {
        let r = InkRenderer.resample([V(0, 0), V(10, 0)], step: 1)
        #expect(r.count == 11)
        #expect(abs(r[5].x - 5) < 1e-9)
        #expect(r.last == V(10, 0))
    }

    @Test func smoothingTakesOutJitterButKeepsEnds() {
        let zigzag = (0...20).map { V(Double($0), $0 % 2 == 0 ? 1 : -1) }
        let s = InkRenderer.smooth(zigzag, radius: 1)
        #expect(s.first == zigzag.first && s.last == zigzag.last)
        let inner = s.dropFirst().dropLast().map { abs($0.y) }
        #expect(inner.max()! < 0.5)
    }

    @Test func slantIsMeasuredFromDownStrokes() {
        // Three down-strokes leaning right by 0.3 (x grows as y grows, y down).
        let strokes = (0..<3).map { i in [V(Double(i) * 10, 0), V(Double(i) * 10 + 6, 20)] }
        #expect(abs(InkRenderer.slant(strokes) - 0.3) < 1e-9)
        // Horizontal pieces do not count.
        #expect(InkRenderer.slant([[V(0, 0), V(20, 1)]]) == 0)
    }

    @Test func renderingIsAntiAliasedBlackOnWhiteAtTheRecognizerHeight() {
        let ink = Ink(strokes: [
            Ink.Stroke(points: [Ink.Point(x: 0, y: 0), Ink.Point(x: 3, y: 100), Ink.Point(x: 50, y: 100)])
        ])
        let image = InkRenderer().render(ink)
        #expect(image.height == 48)
        #expect(image.channels == 1)
        let values = Set(image.pixels)
        #expect(values.contains(255) && values.contains(0))
        // Partial coverage at the edges.
        #expect(image.pixels.contains { $0 > 20 && $0 < 235 })
        // Padding: the corner rows are white.
        #expect(image.pixels[0..<image.width].allSatisfy { $0 == 255 })
    }

    /// Points far outside the image do not trap: their pixel indices are clamped before they become `Int`s (a segment
    /// as long as 2e300 draws nothing, its squared length being infinite).
    @Test func farPointsDoNotTrap() {
        let image = InkRenderer.rasterize(
            [[V(-1e300, 5), V(1e300, 5)], [V(.nan, 3)], [V(2, 2), V(1e300, 2)]], width: 10, height: 10, radius: 1)
        #expect(image.pixels.count == 100)
    }

    @Test func aLoneDotIsARoundDisc() {
        let image = InkRenderer.rasterize([[V(10, 10)]], width: 21, height: 21, radius: 4)
        func ink(_ x: Int, _ y: Int) -> Int { 255 - Int(image.pixels[y * 21 + x]) }
        #expect(ink(10, 10) == 255)
        #expect(ink(10, 6) > 0 && ink(6, 10) > 0)       // radius 4 (and half a pixel of edge)
        #expect(ink(6, 6) == 0)                          // a disc, not a square
        #expect(ink(10, 1) == 0)
    }

    /// Eight wavy letters between y 100 and 140, and one long descender down to 400.
    static let wordWithALongLoop: Ink = {
        var strokes = (0..<8).map { i in
            Ink.Stroke(points: (0...40).map { k in
                Ink.Point(x: Double(i) * 60 + Double(k), y: 100 + 40 * abs(sin(Double(k) / 40 * 3 * .pi)))
            })
        }
        strokes.append(Ink.Stroke(points: (0...60).map { k in Ink.Point(x: 250, y: 140 + Double(k) * 260 / 60) }))
        return Ink(strokes: strokes)
    }()

    @Test func theCoreZoneIsWhereMostInkLies() throws {
        let strokes = Self.wordWithALongLoop.strokes.map { s in
            InkRenderer.resample(s.points.map { V($0.x, $0.y) }, step: 1)
        }
        let core = try #require(InkRenderer.coreZone(strokes))
        #expect(abs(core.lowerBound - 100) < 15 && abs(core.upperBound - 140) < 15)
    }

    @Test func aLongLoopDoesNotShrinkTheLetters() {
        // The letters' drawn height, from the top of the ink to the top of the loop's stroke.
        func letterHeight(_ settings: InkRenderer.Settings) -> Double {
            let (strokes, _, _) = InkRenderer(settings: settings).layout(Self.wordWithALongLoop)
            let letters = strokes.dropLast().joined().map(\.y)
            return letters.max()! - letters.min()!
        }
        var plain = InkRenderer.Settings()
        plain.zoneCompression = nil
        #expect(letterHeight(InkRenderer.Settings()) > 1.5 * letterHeight(plain))
        // Only digits and symbols allowed: no x-height band to keep.
        func adapted(_ charset: String) -> InkRenderer.Settings {
            InkRecognizer.adapted(InkRenderer.Settings(), for: Self.wordWithALongLoop, charset: charset)
        }
        #expect(adapted("0123456789+-/").zoneCompression == nil)
        #expect(adapted("abc").zoneCompression != nil)
    }

    /// The first three letters of `wordWithALongLoop`, turned `degrees` about the first point
    /// (positive: rising to the right, y down).
    static func risingWord(_ degrees: Double) -> Ink {
        let a = degrees * .pi / 180
        let strokes = wordWithALongLoop.strokes.prefix(3).map { stroke in
            Ink.Stroke(points: stroke.points.map { p in
                Ink.Point(x: p.x * cos(a) + (p.y - 100) * sin(a), y: 100 + (p.y - 100) * cos(a) - p.x * sin(a))
            })
        }
        return Ink(strokes: strokes)
    }

    @Test func aRisingLineIsLevelled() {
        func measured(_ degrees: Double) -> Double {
            let strokes = Self.risingWord(degrees).strokes.map { s in
                InkRenderer.resample(s.points.map { V($0.x, $0.y) }, step: 1)
            }
            return InkRenderer.skew(strokes, maxDegrees: 30, binHeight: 4, minGain: 1.1) * 180 / .pi
        }
        #expect(abs(measured(12) - 12) <= 1)
        #expect(abs(measured(-8) + 8) <= 1)
        #expect(measured(0) == 0)
        // Drawn level, a letter is as tall as in the level word; drawn as it rises, it is shrunk
        // to fit the whole slope in the line.
        func drawnHeight(_ ink: Ink, correct: Bool) -> Double {
            var settings = InkRenderer.Settings()
            settings.correctSkew = correct
            let ys = InkRenderer(settings: settings).layout(ink).strokes[0].map(\.y)
            return ys.max()! - ys.min()!
        }
        let level = drawnHeight(Self.risingWord(0), correct: true)
        #expect(drawnHeight(Self.risingWord(12), correct: false) < 0.8 * level)
        #expect(abs(drawnHeight(Self.risingWord(12), correct: true) - level) < 0.1 * level)
    }

    @Test func aShortCharacterIsPaddedNotStretched() {
        let ink = Ink(strokes: [Ink.Stroke(points: [Ink.Point(x: 0, y: 0), Ink.Point(x: 0, y: 30)])])
        let image = InkRenderer().render(ink)
        #expect(Double(image.width) >= 48 * InkRenderer.Settings().minAspect - 1)
    }

    @Test func aWritingAreaKeepsADotSmall() {
        let dot = Ink(strokes: [Ink.Stroke(points: [Ink.Point(x: 100, y: 150), Ink.Point(x: 102, y: 151)])],
                      writingArea: .init(width: 800, height: 200))
        var settings = InkRenderer.Settings()
        settings.minimumInkHeight = 200 * 0.25
        let small = InkRenderer(settings: settings).render(dot)
        let big = InkRenderer().render(dot)
        func inked(_ img: RasterImage) -> Int { img.pixels.filter { $0 < 128 }.count }
        #expect(inked(small) * 4 < inked(big))
    }

    /// A dash is drawn as wide as the line is high; a word of sparse letters with wide gaps
    /// (flat, and its path not much longer than its width) is not a dash: its strokes are curves.
    @Test func aFlatWordOfSpacedLettersIsNotADash() {
        let dash = Ink(strokes: [
            Ink.Stroke(points: (0...10).map { Ink.Point(x: Double($0) * 10, y: 50 + Double($0 % 2)) })
        ])
        #expect(InkRenderer.isFlatMark(dash))
        // Five small arcs ("u"-like letters), each 20 wide and 30 high, 60 apart.
        let arcs = (0..<5).map { i in
            Ink.Stroke(points: (0...8).map { k -> Ink.Point in
                let a = Double.pi * Double(k) / 8
                return Ink.Point(x: Double(i) * 60 + 10 - 10 * cos(a), y: 30 * sin(a))
            })
        }
        let word = Ink(strokes: arcs)
        #expect(!InkRenderer.isFlatMark(word))
        // Drawn at a word's scale (wide ink keeps some room), not shrunk to a dash's.
        let (placed, _, _) = InkRenderer().layout(word)
        let ys = placed.flatMap { $0.map(\.y) }
        #expect(ys.max()! - ys.min()! > 10)   // 4 px when it was taken for a dash
    }
}
