import Foundation
import Testing
@testable import ScanInk
import ScanModel

@Suite struct ShapeTests {
    @Test func classifiesGeneratedShapes() throws {
        let recognizer = ShapeRecognizer()
        let synth = ShapeSynthesizer()
        let font = try HersheyFont(named: "futural")
        var rng = SeededGenerator(seed: 99)
        var right = 0, total = 0
        var misses: [String] = []
        for kind in ShapeKind.allCases {
            for _ in 0..<6 {
                let ink = synth.ink(kind, rng: &rng, scribbleFont: font)
                let got = recognizer.recognize(ink).first?.shape
                total += 1
                if got == kind { right += 1 } else { misses.append("\(kind.rawValue)->\(got?.rawValue ?? "-")") }
            }
        }
        #expect(Double(right) / Double(total) >= 0.85, "misclassified: \(misses)")
    }

    @Test func fitsALineAndACircle() {
        let recognizer = ShapeRecognizer()
        let line = Ink(strokes: [
            Ink.Stroke(points: (0...20).map { Ink.Point(x: 10 + Double($0) * 5, y: 50 + Double($0) * 2) })
        ])
        let l = recognizer.recognize(line)
        #expect(l.first?.shape == .line)
        let ends = l.first?.points.map { $0.x }.sorted()
        #expect(ends == [10, 110])

        let circle = Ink(strokes: [Ink.Stroke(points: (0...40).map { k in
            let a = Double(k) / 40 * 2 * Double.pi
            return Ink.Point(x: 100 + 30 * cos(a), y: 100 + 30 * sin(a))
        })])
        let c = recognizer.recognize(circle)
        #expect(c.first?.shape == .ellipse)
        #expect(abs((c.first?.radii?.first ?? 0) - 30) < 1)
        #expect(abs((c.first?.points.first?.x ?? 0) - 100) < 1)
        // Scores are ordered and within 0...1.
        #expect(c.map(\.score) == c.map(\.score).sorted(by: >) || c.first?.shape == .notAShape)
        #expect(c.allSatisfy { $0.score >= 0 && $0.score <= 1 })
    }

    @Test func anArrowWithASmallHeadIsAnArrowAndABentLineIsALine() {
        typealias V = InkRenderer.Vec
        // A shaft at 10° (between the templates' 22.5° steps) with barbs a tenth of its length.
        let a = 10 * Double.pi / 180, tip = V(200 * cos(a), 200 * sin(a))
        func barb(_ turn: Double) -> V { V(tip.x - 20 * cos(a + turn), tip.y - 20 * sin(a + turn)) }
        func ink(_ strokes: [[V]]) -> Ink {
            Ink(strokes: strokes.map { s in
                Ink.Stroke(points: InkRenderer.resample(s, step: 2).map { Ink.Point(x: $0.x + 50, y: $0.y + 50) })
            })
        }
        let arrow = [[V(0, 0), tip], [barb(-0.5), tip, barb(0.5)]]
        #expect(ShapeRecognizer.hasArrowhead(arrow))
        #expect(ShapeRecognizer().recognize(ink(arrow)).first?.shape == .arrow)
        // A line with a flick at its end to one side only has no head.
        let flicked = [[V(0, 0), tip, barb(0.5)]]
        #expect(!ShapeRecognizer.hasArrowhead(flicked))
        #expect(!ShapeRecognizer.hasArrowhead([[V(0, 0), tip]]))
        #expect(ShapeRecognizer().recognize(ink([[V(0, 0), tip]])).first?.shape == .line)
    }

    @Test func aScribbleIsNotAShape() throws {
        let font = try HersheyFont(named: "cursive")
        var rng = SeededGenerator(seed: 5)
        var style = InkSynthesizer.Style()
        style.scale = 4
        let word = InkSynthesizer(font: font).ink("handwriting", style: style, rng: &rng)
        #expect(ShapeRecognizer().recognize(word).first?.shape == .notAShape)
    }
}
