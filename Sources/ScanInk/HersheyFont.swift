import Foundation
import ScanModel

/// A Hershey single-stroke vector font (`.jhf`, Debian's hershey-fonts-data in
/// /usr/share/hershey-fonts): glyphs as pen strokes, which is what handwriting is.
/// Used to generate ink for tests, training and benchmarks.
///
/// Format: one glyph a record: a 5-column id, a 3-column vertex count, then pairs
/// of characters, each coordinate its offset from "R"; the first pair is the left and
/// right bound, " R" lifts the pen. Records longer than 72 columns continue on the
/// next line. The files hold ASCII 32...126 in order. y grows downwards.
public struct HersheyFont: Sendable {
    public struct Glyph: Sendable {
        public var left: Int
        public var right: Int
        public var strokes: [[(x: Int, y: Int)]]
    }
    public let glyphs: [Character: Glyph]

    public static let directory = "/usr/share/hershey-fonts"
    /// The Debian package that holds the fonts.
    public static let aptPackage = "hershey-fonts-data"

    public init(path: String) throws {
        guard let text = try? String(contentsOfFile: path, encoding: .ascii) else {
            throw ScanError(
                .unreadable, file: path,
                "cannot read the Hershey font; install it with: apt-get install \(Self.aptPackage)")
        }
        try self.init(jhf: text)
    }

    /// A font of this name (`futural`, `cursive`, `scripts`, ...) from `directory`.
    public init(named name: String) throws {
        try self.init(path: "\(Self.directory)/\(name).jhf")
    }

    public init(jhf text: String) throws {
        let lines = text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline).map { Array($0.utf8) }
        var records: [[UInt8]] = []
        var i = 0
        while i < lines.count {
            var rec = lines[i]
            i += 1
            guard rec.count >= 8,
                let n = Int(String(decoding: rec[5..<8], as: UTF8.self).trimmingCharacters(in: .whitespaces))
            else {
                throw ScanError(.corrupt, "Hershey record \(records.count + 1) has no vertex count")
            }
            while rec.count < 8 + 2 * n, i < lines.count { rec += lines[i]; i += 1 }
            records.append(rec)
        }
        var glyphs: [Character: Glyph] = [:]
        let r = Int(UInt8(ascii: "R"))
        for (k, rec) in records.enumerated() where k < 95 {
            let body = Array(rec[8...])
            guard body.count >= 2 else { continue }
            var strokes: [[(x: Int, y: Int)]] = [[]]
            var j = 2
            while j + 1 < body.count {
                if body[j] == UInt8(ascii: " ") && body[j + 1] == UInt8(ascii: "R") {
                    if !strokes[strokes.count - 1].isEmpty { strokes.append([]) }
                } else {
                    strokes[strokes.count - 1].append((Int(body[j]) - r, Int(body[j + 1]) - r))
                }
                j += 2
            }
            glyphs[Character(UnicodeScalar(UInt8(32 + k)))] = Glyph(left: Int(body[0]) - r, right: Int(body[1]) - r,
                                                                   strokes: strokes.filter { !$0.isEmpty })
        }
        self.glyphs = glyphs
    }
}

/// Writes text as synthetic handwriting: Hershey strokes, densely sampled, then
/// slanted, scaled, wobbled and jittered, with pen timing, all from a seeded generator.
public struct InkSynthesizer: Sendable {
    public struct Style: Sendable, Hashable {
        /// dx per dy added to the glyphs (positive leans right).
        public var slant: Double = 0
        /// Ink units per font unit (the cap height is about 21 font units).
        public var scale: Double = 3
        /// Standard deviation of each point's noise, in font units.
        public var jitter: Double = 0.3
        /// Extra space between letters, in font units (negative squeezes).
        public var spacing: Double = 0
        /// Baseline drift amplitude, in font units.
        public var wobble: Double = 0.5
        /// Milliseconds between points.
        public var pointInterval: Double = 10
        /// Per-letter random change of size, height and lean (0: none; 1: about ±20%).
        public var letterVariation: Double = 0
        /// Amplitude, in font units, of a smooth random displacement of every point (a hand's
        /// wavering, which per-point jitter does not give).
        public var elastic: Double = 0
        /// How much longer than the font's the writer's ascenders and descenders are: the parts
        /// of a glyph above the x-height or below the baseline are stretched by this (1: as the font).
        public var zoneStretch: Double = 1
        /// The writing line's angle in radians (positive: rising to the right), about the word's start.
        public var baselineAngle: Double = 0
        public init() {}
    }

    public var font: HersheyFont
    public init(font: HersheyFont) { self.font = font }

    /// A random style for a writer, from `rng`.
    public static func randomStyle(_ rng: inout SeededGenerator) -> Style {
        var s = Style()
        s.slant = rng.uniform(-0.15, 0.45)
        s.scale = rng.uniform(1.5, 6)
        s.jitter = rng.uniform(0.05, 0.5)
        s.spacing = rng.uniform(-1.5, 2)
        s.wobble = rng.uniform(0, 1.2)
        return s
    }

    /// A messier random style: letters vary in size and lean, and the hand wavers.
    /// Closer to real handwriting than `randomStyle`, for fitting weights.
    /// `level` scales the mess (1: the default).
    public static func messyStyle(_ rng: inout SeededGenerator, level: Double = 1) -> Style {
        var s = randomStyle(&rng)
        s.letterVariation = level * rng.uniform(0.3, 1)
        s.elastic = level * rng.uniform(0.5, 2)
        s.jitter = level * rng.uniform(0.2, 0.7)
        return s
    }

    /// Ink for `text`; characters without a glyph are skipped.
    public func ink(
        _ text: String, style: Style, rng: inout SeededGenerator, origin: (x: Double, y: Double) = (100, 100)
    ) -> Ink {
        var strokes: [Ink.Stroke] = []
        var cursor = 0.0
        var t = 0.0
        let phase = rng.uniform(0, 6.28)
        // A smooth displacement field: two sinusoids per axis with random phases.
        let waves = (0..<4).map { _ in (rng.uniform(0, 6.28), rng.uniform(0.08, 0.3)) }
        // The font's x-height band (its lower-case x), outside which zoneStretch applies.
        let band = font.glyphs["x"].map { g -> (Double, Double) in
            let ys = g.strokes.joined().map { Double($0.y) }
            return (ys.min() ?? 0, ys.max() ?? 0)
        } ?? (0, 0)
        let turn = (cos: cos(style.baselineAngle), sin: sin(style.baselineAngle))
        func zoned(_ y: Double) -> Double {
            guard style.zoneStretch != 1 else { return y }
            if y < band.0 { return band.0 - (band.0 - y) * style.zoneStretch }
            if y > band.1 { return band.1 + (y - band.1) * style.zoneStretch }
            return y
        }
        for ch in text {
            guard let g = font.glyphs[ch] else { continue }
            let v = style.letterVariation
            let sx = 1 + 0.2 * v * rng.uniform(-1, 1), sy = 1 + 0.2 * v * rng.uniform(-1, 1)
            let lean = 0.15 * v * rng.uniform(-1, 1), lift = 1.5 * v * rng.uniform(-1, 1)
            let dx = cursor - Double(g.left) * sx
            for s in g.strokes {
                var pts: [Ink.Point] = []
                for (i, p) in s.enumerated() {
                    // Dense samples along each vector, as a tablet reports them.
                    let prev = i == 0 ? p : s[i - 1]
                    let len = hypot(Double(p.x - prev.x), Double(p.y - prev.y))
                    let n = max(1, Int(len.rounded(.up)))
                    for k in (i == 0 ? n : 1)...n {
                        let f = Double(k) / Double(n)
                        var y = zoned(Double(prev.y) + Double(p.y - prev.y) * f) * sy + lift
                        var x = (Double(prev.x) + Double(p.x - prev.x) * f) * sx - lean * y + dx
                        if style.elastic > 0 {
                            let ex = sin(waves[0].0 + waves[0].1 * x) + sin(waves[1].0 + waves[1].1 * y)
                            let ey = sin(waves[2].0 + waves[2].1 * x) + sin(waves[3].0 + waves[3].1 * y)
                            x += style.elastic * ex / 2; y += style.elastic * ey / 2
                        }
                        y += style.wobble * sin(phase + x / 25)
                        x += rng.gaussian() * style.jitter - style.slant * y
                        y += rng.gaussian() * style.jitter
                        if style.baselineAngle != 0 {
                            (x, y) = (x * turn.cos + y * turn.sin, y * turn.cos - x * turn.sin)
                        }
                        pts.append(Ink.Point(x: origin.x + x * style.scale, y: origin.y + y * style.scale, t: t))
                        t += style.pointInterval
                    }
                }
                strokes.append(Ink.Stroke(points: pts))
                t += 80   // pen up
            }
            cursor += Double(g.right - g.left) * sx + style.spacing
        }
        return Ink(strokes: strokes)
    }
}

/// SplitMix64: small, fast and reproducible across platforms.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E3779B97F4A7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58476D1CE4E5B9
        z = (z ^ (z >> 27)) &* 0x94D049BB133111EB
        return z ^ (z >> 31)
    }
    public mutating func uniform(_ lo: Double, _ hi: Double) -> Double {
        lo + (hi - lo) * Double(next() >> 11) / Double(1 << 53)
    }
    /// Standard normal (Box-Muller).
    public mutating func gaussian() -> Double {
        let u = max(uniform(0, 1), 1e-12), v = uniform(0, 1)
        return (-2 * log(u)).squareRoot() * cos(2 * Double.pi * v)
    }
}
