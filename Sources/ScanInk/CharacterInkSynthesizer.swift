import Foundation
import ScanModel

/// Writes single digits and `+ - /` as people draw them on a number pad: several
/// allographs per character, each with the stroke count, order and direction seen in
/// handwriting (a 9 as loop then stem in one stroke or two, a 4 open or closed and with
/// either stroke first, an 8 in one stroke or as two loops, a 0 left open or closed past
/// its start), then bent, slanted, stretched and jittered, with pen timing.
///
/// The Hershey fonts give one fixed stroke order per glyph, which a shape classifier
/// would learn as the only one; this generator is what `CharacterShapeClassifier` is
/// trained on (`Tools/train-ink`, `TrainInk characters`). Deterministic for a seed.
public struct CharacterInkSynthesizer: Sendable {
    /// The characters it writes.
    public static let characters: [Character] = Array("0123456789+-/")

    /// How much the hand varies (1: the default; 0: the bare templates).
    public var mess: Double
    public init(mess: Double = 1) { self.mess = mess }

    typealias Vec = (x: Double, y: Double)

    /// Ink for `character` (one of `characters`), drawn around `origin`.
    public func ink(_ character: Character, rng: inout SeededGenerator, origin: (x: Double, y: Double) = (100, 100))
        -> Ink
    {
        var strokes = Self.template(character, rng: &rng)
        strokes = strokes.map { addHooks($0, rng: &rng) }
        return place(strokes, flat: character == "-", rng: &rng, origin: origin)
    }

    // MARK: - Templates (x to the right, y down; a digit fills about 0.6 x 1)

    static func line(_ a: Vec, _ b: Vec, steps: Int = 12) -> [Vec] {
        (0...steps).map { k in
            let f = Double(k) / Double(steps)
            return (a.x + (b.x - a.x) * f, a.y + (b.y - a.y) * f)
        }
    }

    /// An elliptic arc from angle `from` to `to` (radians; 0 points right, pi/2 down, so a
    /// growing angle turns clockwise on the screen).
    static func arc(_ c: Vec, _ r: Vec, from: Double, to: Double) -> [Vec] {
        let n = max(4, Int(abs(to - from) * 10))
        return (0...n).map { k in
            let a = from + (to - from) * Double(k) / Double(n)
            return (c.x + r.x * cos(a), c.y + r.y * sin(a))
        }
    }

    /// A polyline through `points`, as one stroke.
    static func path(_ points: [Vec]) -> [Vec] {
        zip(points, points.dropFirst()).flatMap { line($0.0, $0.1).dropLast() } + [points[points.count - 1]]
    }

    static func join(_ parts: [Vec]...) -> [Vec] {
        parts.reduce([]) { $0.isEmpty ? $1 : $0 + $1.dropFirst() }
    }

    /// One allograph of `character`: strokes in writing order.
    static func template(_ character: Character, rng: inout SeededGenerator) -> [[Vec]] {
        func u(_ lo: Double, _ hi: Double) -> Double { rng.uniform(lo, hi) }
        func chance(_ p: Double) -> Bool { rng.uniform(0, 1) < p }
        let pi = Double.pi
        switch character {
        case "0":
            // One stroke from near the top, mostly anticlockwise; left open or closed past its start.
            let start = -pi / 2 + u(-0.7, 0.5), sweep = 2 * pi + u(-0.6, 0.4)
            let direction: Double = chance(0.75) ? -1 : 1
            var s = arc((0.3, 0.5), (u(0.22, 0.3), 0.5), from: start, to: start + direction * sweep)
            if chance(0.15) { s = s.map { ($0.x + 0.04 * ($0.y - 0.5), $0.y) } }   // a leaning oval
            return [s]
        case "1":
            let top: Vec = (0.32 + u(-0.04, 0.04), 0), bottom: Vec = (0.3 + u(-0.05, 0.05), 1)
            switch Int(rng.next() % 4) {
            case 0, 1: return [line(top, bottom)]
            case 2: return [path([(0.12, u(0.15, 0.3)), top, bottom])]
            default: return [path([(0.12, u(0.15, 0.3)), top, bottom]), line((0.1, 1), (0.52, 1))]
            }
        case "2":
            if chance(0.35) {
                // Flat-topped: a bar from the top left, a turn down on the right, the diagonal, the base.
                let turn = arc((0.4, 0.2), (0.18, 0.2), from: -pi / 2, to: u(0.2, 0.8))
                let top = join(line((0.02, u(0, 0.12)), turn[0]), turn)
                return [join(top, path([top[top.count - 1], (u(0.02, 0.12), 1), (0.6, 1 + u(-0.05, 0.03))]))]
            }
            let hook = arc((0.3, 0.28), (0.26, 0.27), from: -pi + u(0.1, 0.6), to: u(0.2, 0.7))
            let end = hook[hook.count - 1]
            if chance(0.2) {
                // A small loop at the bottom left before the base.
                let loop = arc((0.1, 0.92), (0.07, 0.07), from: -pi / 2, to: -pi / 2 - 2 * pi * 0.9)
                return [join(hook, line(end, (0.06, 0.86)), loop, line(loop[loop.count - 1], (0.6, 1)))]
            }
            return [join(hook, path([end, (0.03, 1), (0.6, 1 + u(-0.05, 0.03))]))]
        case "3":
            let lower = arc((0.28, 0.74), (0.28, 0.26), from: -pi / 2 - u(0.2, 0.5), to: pi / 2 + u(0.5, 0.9))
            if chance(0.2) {
                // A bar from the top left, turning round on the right into the waist, then the belly.
                let turn = arc((0.38, 0.22), (0.2, 0.22), from: -pi / 2, to: pi / 2 + u(0.2, 0.6))
                let top = join(line((0.03, u(0, 0.1)), turn[0]), turn)
                return [join(top, line(top[top.count - 1], lower[0]), lower)]
            }
            if chance(0.25) {
                // Flat-topped: a bar, a diagonal to the middle, then the belly.
                return [join(path([(0.04, 0), (0.55, 0), (0.22, 0.44)]), line((0.22, 0.44), lower[0]), lower)]
            }
            let upper = arc((0.28, 0.26), (0.25, 0.25), from: -pi + u(0.2, 0.7), to: pi / 2 + u(0.1, 0.5))
            return [join(upper, line(upper[upper.count - 1], lower[0]), lower)]
        case "4":
            let bar = u(0.58, 0.72), stem = u(0.4, 0.5)
            let stemTop: Vec = (stem + u(-0.03, 0.05), u(-0.05, 0.35)), stemFoot: Vec = (stem + u(-0.05, 0.03), 1)
            let corner: [Vec]
            if chance(0.55) {
                corner = path([(stem - u(0, 0.08), 0), (0.02, bar), (0.62, bar + u(-0.05, 0.03))])   // closed
            } else {
                corner = path([(u(0.04, 0.15), 0), (0.05, bar), (0.62, bar + u(-0.05, 0.03))])   // open
            }
            switch Int(rng.next() % 5) {
            case 0: return [line(stemTop, stemFoot), corner]   // the stem first
            case 1:  // up the stem, down, across
                return [join(line(stemFoot, (stem, 0)), corner.dropFirst().map { $0 })]
            default: return [corner, line(stemTop, stemFoot)]
            }
        case "5":
            let belly = arc((0.28, 0.7), (0.28, 0.3), from: -pi + u(0.6, 1.0), to: pi / 2 + u(0.6, 1.1))
            let neck: Vec = (0.08 + u(-0.03, 0.03), 0)
            let down = join(line(neck, belly[0]), belly)
            let bar = line((neck.x, 0), (0.58, u(-0.05, 0.03)))
            if chance(0.4) { return [join(bar.reversed(), down)] }   // one stroke: bar leftwards, down, belly
            return [down, bar]
        case "6":
            let loopCentre: Vec = (0.3, 0.72), loopRadius: Vec = (u(0.22, 0.28), u(0.22, 0.28))
            let fall = arc((0.56, loopCentre.y), (0.5, loopCentre.y), from: -pi / 2 - u(0, 0.3), to: -pi + 0.05)
            let loop = arc(loopCentre, loopRadius, from: pi, to: pi - 2 * pi * u(0.85, 1.02))
            return [join(fall, line(fall[fall.count - 1], loop[0]), loop)]
        case "7":
            let corner: Vec = (0.6, u(-0.03, 0.03)), foot: Vec = (u(0.12, 0.3), 1)
            var top = path([(0.02, 0), corner, foot])
            if chance(0.2) { top = join(line((0.02, 0.15), (0.02, 0)), top) }
            if chance(0.2) { return [top, line((0.15, 0.52), (0.55, 0.5))] }
            return [top]
        case "8":
            let waist = u(0.4, 0.5)
            if chance(0.3) {
                // Two loops, the top one first.
                let top = arc(
                    (0.3, waist / 2), (0.22, waist / 2), from: pi / 2, to: pi / 2 + (chance(0.5) ? 2 : -2) * pi)
                let foot = arc((0.3, (1 + waist) / 2), (0.28, (1 - waist) / 2), from: -pi / 2,
                               to: -pi / 2 + (chance(0.5) ? 2 : -2) * pi)
                return [top, foot]
            }
            // One stroke: an S down through the waist and back up (crossing there).
            let sign: Double = chance(0.7) ? -1 : 1, start = u(-0.45, 0.25), sweep = 2 * pi + u(-0.35, 0.25)
            let n = 90
            let s: [Vec] = (0...n).map { k in
                let t = start + sweep * Double(k) / Double(n)
                let y = (1 - cos(t)) / 2
                let width = y < waist ? 0.22 : 0.28
                return (
                    0.3 + sign * width * sin(2 * t), y < 0.5 ? waist * y / 0.5 : waist + (1 - waist) * (y - 0.5) / 0.5
                )
            }
            return [s]
        case "9":
            let loopHeight = u(0.38, 0.55), centre: Vec = (0.3, loopHeight / 2),
                radius: Vec = (u(0.22, 0.29), loopHeight / 2)
            let stemX = centre.x + radius.x + u(-0.05, 0.02), foot: Vec = (stemX - u(0, 0.2), 1)
            if chance(0.3) {
                // A loop, then a stem on its right.
                let start = -pi / 2 + u(-0.3, 0.9)
                let loop = arc(centre, radius, from: start, to: start + (chance(0.8) ? -1 : 1) * 2 * pi * u(0.9, 1.05))
                return [loop, line((stemX, u(0, loopHeight * 0.6)), foot)]
            }
            // One stroke: anticlockwise round the loop from its right, then down.
            let start = u(-pi / 2, 0.2), end = start - 2 * pi * u(0.85, 1.03)
            let loop = arc(centre, radius, from: start, to: end)
            let last = loop[loop.count - 1]
            let stem =
                chance(0.3)
                ? join(
                    line(last, (stemX, centre.y)),
                    arc((stemX - 0.15, centre.y), (0.15, 1 - centre.y), from: 0, to: u(0.8, 1.6)))
                : line(last, foot)
            return [join(loop, stem)]
        case "+":
            let down = line((0.5 + u(-0.05, 0.05), 0), (0.5 + u(-0.05, 0.05), 1))
            let across = line((0, 0.5 + u(-0.1, 0.1)), (1, 0.5 + u(-0.1, 0.1)))
            let a = chance(0.15) ? Array(down.reversed()) : down, b = chance(0.15) ? Array(across.reversed()) : across
            return chance(0.6) ? [a, b] : [b, a]
        case "-":
            let s = line((0, 0), (1, u(-0.06, 0.06)))
            return [chance(0.85) ? s : Array(s.reversed())]
        case "/":
            let s = line((0.6, 0), (0, 1))
            return [chance(0.7) ? s : Array(s.reversed())]
        default:
            return []
        }
    }

    // MARK: - The hand

    /// A short tail at a stroke's start or end, as a pen that lands or lifts moving.
    func addHooks(_ stroke: [Vec], rng: inout SeededGenerator) -> [Vec] {
        guard stroke.count >= 2 else { return stroke }
        var s = stroke
        if rng.uniform(0, 1) < 0.25 * mess {
            let a = rng.uniform(0, 2 * .pi), r = rng.uniform(0.02, 0.07) * mess
            s.insert((s[0].x + r * cos(a), s[0].y + r * sin(a)), at: 0)
        }
        if rng.uniform(0, 1) < 0.25 * mess {
            let a = rng.uniform(0, 2 * .pi), r = rng.uniform(0.02, 0.07) * mess, last = s[s.count - 1]
            s.append((last.x + r * cos(a), last.y + r * sin(a)))
        }
        return s
    }

    /// Bends, slants, stretches and jitters the template, resamples it as a tablet would
    /// report it (points at a steady pace), and scales it to ink units.
    func place(_ strokes: [[Vec]], flat: Bool, rng: inout SeededGenerator, origin: (x: Double, y: Double)) -> Ink {
        let slant = rng.uniform(-0.15, 0.45) * mess, widen = exp(rng.uniform(-0.3, 0.3) * mess)
        let turn = rng.uniform(-0.12, 0.12) * mess
        let waves = (0..<4).map { _ in (rng.uniform(0, 6.28), rng.uniform(2, 6)) }
        let bend = rng.uniform(0, 0.05) * mess
        let height = rng.uniform(25, 160)
        let flatHeight = flat ? rng.uniform(0.02, 0.15) : 1
        let spacing = height * rng.uniform(0.01, 0.05), jitter = height * rng.uniform(0, 0.006) * mess
        let pace = rng.uniform(6, 16)
        var t = 0.0
        var out: [Ink.Stroke] = []
        for stroke in strokes {
            // The hand: a smooth displacement, then lean, width and a slight turn.
            let moved: [Vec] = stroke.map { p in
                var x = p.x + bend * (sin(waves[0].0 + waves[0].1 * p.x) + sin(waves[1].0 + waves[1].1 * p.y)) / 2
                var y =
                    p.y * flatHeight + bend * (sin(waves[2].0 + waves[2].1 * p.x) + sin(waves[3].0 + waves[3].1 * p.y))
                    / 2
                x = x * widen + slant * (1 - y)
                (x, y) = (x * cos(turn) - y * sin(turn), x * sin(turn) + y * cos(turn))
                return (x * height, y * height)
            }
            // Points every `spacing` along the path.
            guard let first = moved.first, let last = moved.last else { continue }
            func point(_ x: Double, _ y: Double) -> Ink.Point {
                defer { t += pace }
                return Ink.Point(
                    x: origin.x + x + rng.gaussian() * jitter, y: origin.y + y + rng.gaussian() * jitter, t: t)
            }
            var points = [point(first.x, first.y)]
            var since = 0.0   // path length since the last point
            for (a, b) in zip(moved, moved.dropFirst()) {
                let length = hypot(b.x - a.x, b.y - a.y)
                var at = spacing - since
                while at <= length {
                    points.append(point(a.x + (b.x - a.x) * at / length, a.y + (b.y - a.y) * at / length))
                    at += spacing
                }
                since = length - (at - spacing)
            }
            points.append(point(last.x, last.y))
            out.append(Ink.Stroke(points: points))
            t += rng.uniform(80, 300)   // pen up
        }
        return Ink(strokes: out)
    }
}
