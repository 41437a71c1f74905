import Foundation
import Testing
@testable import ScanInk
import ScanModel

@Suite struct HersheyTests {
    @Test func parsesTheRecordFormat() throws {
        // "!" from futural: a bar and a dot; bounds -5..5.
        let font = try HersheyFont(jhf: "12345  9MWRFRT RRYQZR[SZRY\n")
        let g = try #require(font.glyphs[" "])   // the first record is ASCII 32
        #expect(g.left == -5 && g.right == 5)
        #expect(g.strokes.count == 2)
        #expect(g.strokes[0].map(\.y) == [-12, 2])
    }

    @Test func debianFontsLoad() throws {
        let font = try HersheyFont(named: "cursive")
        #expect(font.glyphs.count == 95)
        #expect(!(font.glyphs["a"]?.strokes.isEmpty ?? true))
    }

    @Test func synthesisIsReproducibleAndTimed() throws {
        let synth = InkSynthesizer(font: try HersheyFont(named: "futural"))
        var r1 = SeededGenerator(seed: 1), r2 = SeededGenerator(seed: 1)
        let style = InkSynthesizer.Style()
        let a = synth.ink("hi", style: style, rng: &r1), b = synth.ink("hi", style: style, rng: &r2)
        #expect(a == b)
        let times = a.strokes.flatMap { $0.points.compactMap(\.t) }
        #expect(times == times.sorted())
        #expect(a.strokes.count >= 3)   // h, i, the dot
    }
}
