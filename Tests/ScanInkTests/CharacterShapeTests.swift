import Foundation
import Testing
@testable import ScanInk
import ScanModel
import ScanRecognition

/// The single-character shape classifier and its generator: pure geometry, no engine.
@Suite struct CharacterShapeTests {
    static func ink(_ strokes: [[(Double, Double)]]) -> Ink {
        Ink(strokes: strokes.map { Ink.Stroke(points: $0.map { Ink.Point(x: $0.0, y: $0.1) }) })
    }

    /// A circle of `turns` turns from the top, anticlockwise on the screen, as one stroke.
    static func loop(centre: (Double, Double), radius: (Double, Double), turns: Double) -> [(Double, Double)] {
        (0...60).map { k in
            let a = -Double.pi / 2 - 2 * .pi * turns * Double(k) / 60
            return (centre.0 + radius.0 * cos(a), centre.1 + radius.1 * sin(a))
        }
    }

    @Test func theGeneratorIsDeterministicAndDrawsEachCharacterAsPeopleDo() {
        var a = SeededGenerator(seed: 5), b = SeededGenerator(seed: 5)
        let synth = CharacterInkSynthesizer()
        for c in CharacterInkSynthesizer.characters {
            #expect(synth.ink(c, rng: &a) == synth.ink(c, rng: &b))
        }
        var rng = SeededGenerator(seed: 9)
        var nineStrokes = Set<Int>(), fourStrokes = Set<Int>()
        for _ in 0..<40 {
            let plus = synth.ink("+", rng: &rng)
            #expect(plus.strokes.count == 2)
            let dash = synth.ink("-", rng: &rng)
            #expect(dash.strokes.count == 1)
            if let bounds = dash.bounds { #expect(bounds.maxY - bounds.minY < 0.5 * (bounds.maxX - bounds.minX)) }
            nineStrokes.insert(synth.ink("9", rng: &rng).strokes.count)
            fourStrokes.insert(synth.ink("4", rng: &rng).strokes.count)
            // Points come with times that grow.
            let times = synth.ink("8", rng: &rng).strokes.flatMap { $0.points.compactMap(\.t) }
            #expect(times == times.sorted())
        }
        // A 9 in one stroke (loop and stem) or two, a 4 in one or two.
        #expect(nineStrokes == [1, 2])
        #expect(fourStrokes == [1, 2])
    }

    @Test func featuresSeeLoopsCrossingsAndOrderButNotSizeOrPlace() throws {
        let zero = Self.ink([Self.loop(centre: (50, 50), radius: (30, 50), turns: 1.02)])
        // A 9: the same loop smaller, then down from its right side.
        var nine = Self.loop(centre: (50, 30), radius: (28, 28), turns: 0.97)
        nine += (1...20).map { k in (78.0, 30 + 70 * Double(k) / 20) }
        let f0 = try #require(CharacterShapeFeatures.of(zero)),
            f9 = try #require(CharacterShapeFeatures.of(Self.ink([nine])))
        #expect(f0.count == CharacterShapeFeatures.count && f9.count == CharacterShapeFeatures.count)
        // The path's last point: back at the top for the 0, at the bottom for the 9.
        let lastY = 4 * (CharacterShapeFeatures.pathPoints - 1) + 1
        #expect(f0[lastY] < -0.3 && f9[lastY] > 0.3)
        // Scaled and moved: the same features.
        let moved = Ink(
            strokes: zero.strokes.map {
                Ink.Stroke(points: $0.points.map { Ink.Point(x: 3 * $0.x + 400, y: 3 * $0.y - 20) })
            })
        let fm = try #require(CharacterShapeFeatures.of(moved))
        #expect(zip(f0, fm).allSatisfy { abs($0 - $1) < 1e-9 })
        // An 8 in one stroke crosses itself at its waist; a 0 does not.
        let eight = Self.ink([(0..<80).map { k in
            let t = 2 * Double.pi * (Double(k) + 0.5) / 80
            return (50 + 25 * sin(2 * t), 50 - 50 * cos(t))
        }])
        #expect(CharacterShapeFeatures.crossings([eight.strokes[0].points.map { ($0.x, $0.y) }]).count == 1)
        let openZero = Self.loop(centre: (50, 50), radius: (30, 50), turns: 0.95)
        #expect(CharacterShapeFeatures.crossings([openZero]).isEmpty)
    }

    @Test func theShippedClassifierReadsGeneratedCharactersItNeverSaw() throws {
        let model = try #require(CharacterShapeClassifier.shipped)
        #expect(model.classes == String(CharacterInkSynthesizer.characters))
        #expect(model.weight > 0)
        #expect(model.provenance.contains("CharacterInkSynthesizer"))
        // Seed 4242 is none of those the model was trained or fitted on (1, 2).
        var rng = SeededGenerator(seed: 4242)
        let synth = CharacterInkSynthesizer()
        var right = 0, total = 0
        for _ in 0..<15 {
            for c in CharacterInkSynthesizer.characters {
                let lp = try #require(model.logProbabilities(synth.ink(c, rng: &rng)))
                if lp.max(by: { $0.value < $1.value })?.key == c { right += 1 }
                total += 1
            }
        }
        #expect(Double(right) >= 0.93 * Double(total), "\(right) of \(total)")
    }

    @Test func aDownStrokeAfterTheLoopOverrulesAReadingAsZero() throws {
        let model = try #require(CharacterShapeClassifier.shipped)
        var nine = Self.loop(centre: (50, 30), radius: (28, 28), turns: 0.97)
        nine += (1...20).map { k in (78.0, 30 + 70 * Double(k) / 20) }
        let ink = Self.ink([nine])
        // The recognizer, from the image alone, prefers 0 by one nat.
        let read = [
            InkCandidate(text: "0", score: -0.4), InkCandidate(text: "9", score: -1.4),
            InkCandidate(text: "4", score: -3)
        ]
        let rescored = model.rescore(read, ink: ink, allowed: Set("0123456789+-/"))
        #expect(rescored.first?.text == "9")
        #expect(rescored.map(\.score) == rescored.map(\.score).sorted(by: >))
        // A closed loop alone stays a 0.
        let zero = Self.ink([Self.loop(centre: (50, 50), radius: (30, 50), turns: 1.02)])
        let zeroRead = [InkCandidate(text: "0", score: -0.4), InkCandidate(text: "9", score: -1.4)]
        #expect(model.rescore(zeroRead, ink: zero, allowed: Set("0123456789")).first?.text == "0")
    }

    @Test func severalCharactersOrUnknownOnesAreLeftAlone() throws {
        let model = try #require(CharacterShapeClassifier.shipped)
        let ink = Self.ink([Self.loop(centre: (50, 50), radius: (30, 50), turns: 1)])
        let number = [InkCandidate(text: "90", score: -0.5), InkCandidate(text: "9", score: -2)]
        #expect(model.rescore(number, ink: ink) == number)
        let letters = [InkCandidate(text: "o", score: -0.5), InkCandidate(text: "0", score: -2)]
        #expect(model.rescore(letters, ink: ink, allowed: Set("oO0")) == letters)
    }
}
