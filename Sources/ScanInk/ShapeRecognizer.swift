import Foundation
import ScanModel

/// The kinds of shape `ShapeRecognizer` tells apart.
public enum ShapeKind: String, Codable, Sendable, CaseIterable {
    case line, arrow, rectangle, ellipse, triangle, star, checkMark = "check-mark", notAShape = "not-a-shape"
}

/// A classified ink: its kind, a score (0 to 1, higher is surer) and fitted geometry
/// in the ink's coordinates.
public struct ShapeCandidate: Codable, Hashable, Sendable {
    public struct Point: Codable, Hashable, Sendable {
        public var x: Double
        public var y: Double
    }
    public var shape: ShapeKind
    public var score: Double
    /// line: from, to; arrow: tail, head; rectangle, triangle: corners; ellipse:
    /// center (with radii); star: center and its points; check mark: start, vertex, end.
    public var points: [Point]
    /// Ellipse radii (rx, ry), when an ellipse.
    public var radii: [Double]?
}

/// Classifies an ink as a shape with the $P point-cloud recognizer (Vatavu, Anthony,
/// Wobbrock 2012): every stroke of the ink resampled into one cloud of `pointCount`
/// points, scaled and centred, and matched greedily against templates generated here
/// (several proportions, rotations, start points and stroke orders per shape). A
/// cloud far from every template is not a shape.
public struct ShapeRecognizer: Sendable {
    public static let pointCount = 32
    struct Template: Sendable {
        var kind: ShapeKind
        var cloud: [InkRenderer.Vec]
        /// Path length over the bounding box's diagonal: 1 for a line, about 3 for a
        /// closed rectangle or ellipse, far more for writing. The cloud loses it.
        var inkRatio: Double
    }

    /// Templates whose ink ratio differs from the ink's by more than this factor are
    /// not compared (a long word is not a line however flat its cloud).
    public static let ratioGate = 1.8

    static func inkRatio(_ strokes: [[V]]) -> Double {
        let all = strokes.flatMap { $0 }
        guard let f = all.first else { return 1 }
        var minX = f.x, maxX = f.x, minY = f.y, maxY = f.y
        for p in all { minX = min(minX, p.x); maxX = max(maxX, p.x); minY = min(minY, p.y); maxY = max(maxY, p.y) }
        let diag = max(hypot(maxX - minX, maxY - minY), 1e-9)
        return strokes.reduce(0.0) { $0 + pathLength($1) } / diag
    }
    let templates: [Template]
    /// Distances above this are "not a shape" (fitted on generated shapes and
    /// scribbles by `TrainInk shapes`).
    public var rejectDistance: Double

    public init(rejectDistance: Double = ShapeWeights.rejectDistance) {
        self.rejectDistance = rejectDistance
        templates = Self.makeTemplates()
    }

    // MARK: - Point clouds

    typealias V = InkRenderer.Vec

    /// All strokes resampled together into `n` points spaced evenly along their paths,
    /// then scaled to the unit box (keeping proportions) and centred on the centroid.
    static func cloud(_ strokes: [[V]], n: Int = pointCount) -> [V] {
        let length = strokes.reduce(0.0) { acc, s in
            acc + zip(s, s.dropFirst()).reduce(0.0) { $0 + hypot($1.1.x - $1.0.x, $1.1.y - $1.0.y) }
        }
        var pts: [V] = []
        if length <= 0 { return strokes.isEmpty ? [] : [V](repeating: V(0, 0), count: n) }
        let step = length / Double(n - 1)
        var carry = 0.0
        for s in strokes where !s.isEmpty {
            if pts.count < n { pts.append(s[0]) }
            carry = 0
            for i in stride(from: 1, to: s.count, by: 1) {
                var a = s[i - 1]
                let b = s[i]
                var seg = hypot(b.x - a.x, b.y - a.y)
                while carry + seg >= step, seg > 0, pts.count < n {
                    let f = (step - carry) / seg
                    let q = V(a.x + f * (b.x - a.x), a.y + f * (b.y - a.y))
                    pts.append(q)
                    a = q
                    seg = hypot(b.x - a.x, b.y - a.y)
                    carry = 0
                }
                carry += seg
            }
        }
        while pts.count < n, let last = strokes.last?.last { pts.append(last) }
        pts = Array(pts.prefix(n))
        // Scale and centre.
        let minX = pts.map(\.x).min()!, maxX = pts.map(\.x).max()!
        let minY = pts.map(\.y).min()!, maxY = pts.map(\.y).max()!
        let size = max(maxX - minX, maxY - minY, 1e-9)
        let cx = pts.reduce(0.0) { $0 + $1.x } / Double(n), cy = pts.reduce(0.0) { $0 + $1.y } / Double(n)
        return pts.map { V(($0.x - cx) / size, ($0.y - cy) / size) }
    }

    /// $P's greedy cloud distance, both ways, from several starting points.
    static func distance(_ a: [V], _ b: [V]) -> Double {
        let n = min(a.count, b.count)
        guard n > 0 else { return .infinity }
        let step = max(1, Int(Double(n).squareRoot() * 0.5))
        var best = Double.infinity
        for start in stride(from: 0, to: n, by: step) {
            best = min(best, cloudDistance(a, b, start: start), cloudDistance(b, a, start: start))
        }
        return best
    }

    static func cloudDistance(_ a: [V], _ b: [V], start: Int) -> Double {
        let n = a.count
        var matched = [Bool](repeating: false, count: n)
        var sum = 0.0
        var i = start
        for k in 0..<n {
            var minD = Double.infinity, index = 0
            for j in 0..<n where !matched[j] {
                let d = hypot(a[i].x - b[j].x, a[i].y - b[j].y)
                if d < minD { minD = d; index = j }
            }
            matched[index] = true
            let weight = 1 - Double((k + n) % n) / Double(n)
            sum += weight * minD
            i = (i + 1) % n
        }
        return sum
    }

    // MARK: - Recognition

    /// The nearest template's kind and its distance.
    public func nearest(_ ink: Ink) -> (ShapeKind, Double) {
        let strokes = ink.strokes.map { $0.points.map { V($0.x, $0.y) } }.filter { !$0.isEmpty }
        return distancesByKind(strokes).min { $0.value < $1.value }.map { ($0.key, $0.value) } ?? (
            .notAShape, .infinity
        )
    }

    /// Each kind's nearest template distance (templates whose ink ratio is within the gate),
    /// with a line and an arrow settled by the ink's geometry.
    func distancesByKind(_ strokes: [[V]]) -> [ShapeKind: Double] {
        let c = Self.cloud(strokes)
        let ratio = Self.inkRatio(strokes)
        var bestByKind: [ShapeKind: Double] = [:]
        for t in templates where abs(log(ratio / t.inkRatio)) <= log(Self.ratioGate) {
            let d = Self.distance(c, t.cloud)
            if d < bestByKind[t.kind] ?? .infinity { bestByKind[t.kind] = d }
        }
        Self.settleLineOrArrow(&bestByKind, strokes: strokes)
        return bestByKind
    }

    /// A point cloud hardly tells a line from an arrow with a small head (most of its points lie
    /// on the shaft, and the templates come in steps of 22.5°). When the nearest kind is one of the
    /// two, the ink's geometry decides: an arrow has barbs, ink off the shaft on both sides of it
    /// near one end. The two kinds' distances are swapped when the geometry disagrees.
    static func settleLineOrArrow(_ bestByKind: inout [ShapeKind: Double], strokes: [[V]]) {
        guard let line = bestByKind[.line], let arrow = bestByKind[.arrow],
            let nearest = bestByKind.min(by: { $0.value < $1.value })?.key,
            nearest == .line || nearest == .arrow
        else { return }
        if hasArrowhead(strokes) == (line < arrow) {
            bestByKind[.line] = arrow
            bestByKind[.arrow] = line
        }
    }

    /// Whether the ink has barbs: taking the two points farthest apart as the shaft, some ink in
    /// its last or first quarter lies more than 3% of its length off it on each side.
    static func hasArrowhead(_ strokes: [[V]]) -> Bool {
        let all = strokes.flatMap { $0 }
        guard all.count > 2 else { return false }
        let (a, b) = farthestPair(all)
        let length = hypot(b.x - a.x, b.y - a.y)
        guard length > 0 else { return false }
        let ux = (b.x - a.x) / length, uy = (b.y - a.y) / length
        var left = [false, false], right = [false, false]  // per end: ink off the shaft on that side
        for p in all {
            let t = ((p.x - a.x) * ux + (p.y - a.y) * uy) / length
            let side = ((p.x - a.x) * uy - (p.y - a.y) * ux) / length
            guard t < 0.25 || t > 0.75 else { continue }
            let end = t > 0.75 ? 1 : 0
            if side > 0.03 { left[end] = true }
            if side < -0.03 { right[end] = true }
        }
        return (left[0] && right[0]) || (left[1] && right[1])
    }

    /// Candidates best first, one per kind found, "not a shape" when nothing is near.
    public func recognize(_ ink: Ink) -> [ShapeCandidate] {
        let strokes = ink.strokes.map { $0.points.map { V($0.x, $0.y) } }.filter { !$0.isEmpty }
        guard !strokes.isEmpty else { return [] }
        let bestByKind = distancesByKind(strokes)
        if bestByKind.isEmpty { return [ShapeCandidate(shape: .notAShape, score: 1, points: [])] }
        // Scores: a softmax over kinds of -distance (sharpness: the reject distance).
        let temperature = max(rejectDistance / 4, 1e-6)
        var ranked = bestByKind.sorted { $0.value < $1.value }
        let z = ranked.reduce(0.0) { $0 + exp(-($1.value - ranked[0].value) / temperature) }
        var out: [ShapeCandidate] = []
        let best = ranked.first!.value
        if best > rejectDistance {
            out.append(
                ShapeCandidate(
                    shape: .notAShape, score: min(1, (best - rejectDistance) / rejectDistance + 0.5), points: []))
        }
        ranked = Array(ranked.prefix(4))
        for (kind, d) in ranked {
            let score = exp(-(d - best) / temperature) / z * (best > rejectDistance ? 0.5 : 1)
            out.append(ShapeCandidate(shape: kind, score: score, points: [], radii: nil))
        }
        return out.map { c in
            var c = c; Self.fit(&c, strokes: strokes); return c
        }
    }

    // MARK: - Geometry

    static func fit(_ c: inout ShapeCandidate, strokes: [[V]]) {
        let all = strokes.flatMap { $0 }
        guard let first = all.first, let last = all.last else { return }
        func p(_ v: V) -> ShapeCandidate.Point { .init(x: v.x, y: v.y) }
        let minX = all.map(\.x).min()!, maxX = all.map(\.x).max()!
        let minY = all.map(\.y).min()!, maxY = all.map(\.y).max()!
        let centre = V((minX + maxX) / 2, (minY + maxY) / 2)
        switch c.shape {
        case .line:
            // The two points farthest apart.
            let (a, b) = farthestPair(all)
            c.points = [p(a), p(b)]
        case .arrow:
            // The longest stroke is the shaft; the head is the end nearer the other strokes
            // (or, drawn in one stroke, the end where the path turns back).
            let shaft = strokes.max { pathLength($0) < pathLength($1) }!
            let others =
                strokes.count > 1 ? strokes.filter { $0 != shaft }.flatMap { $0 } : Array(shaft.suffix(shaft.count / 3))
            let a = shaft.first!, b = strokes.count > 1 ? shaft.last! : farthestPair(shaft).1
            let da = others.map { hypot($0.x - a.x, $0.y - a.y) }.min() ?? 0
            let db = others.map { hypot($0.x - b.x, $0.y - b.y) }.min() ?? 0
            c.points = da < db ? [p(b), p(a)] : [p(a), p(b)]
        case .rectangle:
            c.points = [p(V(minX, minY)), p(V(maxX, minY)), p(V(maxX, maxY)), p(V(minX, maxY))]
        case .ellipse:
            c.points = [p(centre)]
            c.radii = [(maxX - minX) / 2, (maxY - minY) / 2]
        case .triangle:
            // The largest triangle of points on the path.
            let (a, b) = farthestPair(all)
            let third = all.max { area(a, b, $0) < area(a, b, $1) }!
            c.points = [p(a), p(b), p(third)]
        case .star:
            let outer = all.sorted { hypot($0.x - centre.x, $0.y - centre.y) > hypot($1.x - centre.x, $1.y - centre.y) }
            var tips: [V] = []
            let r = hypot(outer[0].x - centre.x, outer[0].y - centre.y)
            for q in outer where tips.count < 5 && tips.allSatisfy({ hypot($0.x - q.x, $0.y - q.y) > r * 0.5 }) {
                tips.append(q)
            }
            c.points = [p(centre)] + tips.map(p)
        case .checkMark:
            let vertex = all.max { $0.y < $1.y }!  // the lowest point (y down)
            c.points = [p(first), p(vertex), p(last)]
        case .notAShape:
            c.points = []
        }
    }

    static func pathLength(_ s: [V]) -> Double {
        zip(s, s.dropFirst()).reduce(0.0) { $0 + hypot($1.1.x - $1.0.x, $1.1.y - $1.0.y) }
    }
    static func area(_ a: V, _ b: V, _ c: V) -> Double {
        abs((b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y)) / 2
    }
    static func farthestPair(_ pts: [V]) -> (V, V) {
        var best = (pts[0], pts[0]), bd = -1.0
        let step = max(1, pts.count / 64)
        for i in stride(from: 0, to: pts.count, by: step) {
            for j in stride(from: i, to: pts.count, by: step) {
                let d = hypot(pts[i].x - pts[j].x, pts[i].y - pts[j].y)
                if d > bd { bd = d; best = (pts[i], pts[j]) }
            }
        }
        return best
    }

    // MARK: - Templates

    /// Ideal shapes as strokes, in a few proportions, rotations and drawing orders.
    static func idealStrokes(_ kind: ShapeKind, variant: Int) -> [[V]] {
        func rotate(_ s: [[V]], _ angle: Double) -> [[V]] {
            let c = cos(angle), sn = sin(angle)
            return s.map { $0.map { V($0.x * c - $0.y * sn, $0.x * sn + $0.y * c) } }
        }
        let v = Double(variant)
        switch kind {
        case .line:
            return rotate([[V(0, 0), V(100, 0)]], v * .pi / 8)
        case .arrow:
            let head: [[V]] =
                variant % 2 == 0
                ? [[V(0, 0), V(100, 0)], [V(84, -12), V(100, 0), V(84, 12)]]
                : [[V(0, 0), V(100, 0), V(84, -12)], [V(100, 0), V(84, 12)]]
            return rotate(head, Double(variant / 2) * .pi / 8)
        case .rectangle:
            let w = [100.0, 160, 60, 220][variant % 4], h = 100.0
            let pts = [V(0, 0), V(w, 0), V(w, h), V(0, h), V(0, 0)]
            let start = variant / 4 % 4
            return [Array(pts[start..<4] + pts[0...start])]
        case .ellipse:
            let rx = [50.0, 80, 30, 110][variant % 4], ry = 50.0
            let dir = variant / 4 % 2 == 0 ? 1.0 : -1.0
            return [
                (0...40).map { k in
                    let a = dir * Double(k) / 40 * 2 * .pi; return V(rx * cos(a), ry * sin(a))
                }
            ]
        case .triangle:
            let shapes: [[V]] = [
                [V(50, 0), V(100, 90), V(0, 90)], [V(0, 0), V(100, 90), V(0, 90)], [V(0, 0), V(120, 0), V(60, 70)],
                [V(50, 0), V(80, 100), V(0, 60)]
            ]
            let t = shapes[variant % shapes.count]
            let dir = variant / shapes.count % 2 == 0
            let order = dir ? t : t.reversed()
            return [order + [order[0]]]
        case .star:
            var pts: [V] = []
            for k in 0...5 {
                let a = -Double.pi / 2 + Double(k) * 4 * .pi / 5 + v * 0.1
                pts.append(V(50 * cos(a), 50 * sin(a)))
            }
            return [pts]
        case .checkMark:
            let shapes: [[V]] = [
                [V(0, 50), V(30, 90), V(100, 0)], [V(0, 60), V(20, 90), V(70, 0)], [V(0, 40), V(40, 90), V(110, 10)]
            ]
            return [shapes[variant % shapes.count]]
        case .notAShape:
            return []
        }
    }

    static let variantCounts: [ShapeKind: Int] = [
        .line: 8, .arrow: 32, .rectangle: 16, .ellipse: 8, .triangle: 8, .star: 3, .checkMark: 3
    ]

    /// Generated templates per kind, besides the ideal ones (seed fixed, so every
    /// instance has the same templates).
    public static let generatedPerKind = 24

    static func makeTemplates() -> [Template] {
        var out: [Template] = []
        for (kind, count) in variantCounts.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            for v in 0..<count {
                let strokes = idealStrokes(kind, variant: v).map { InkRenderer.resample($0, step: 2) }
                out.append(Template(kind: kind, cloud: cloud(strokes), inkRatio: inkRatio(strokes)))
            }
        }
        // Hand-drawn variety, and examples of what is not a shape (scribbles, letters).
        var rng = SeededGenerator(seed: 0x5eed)
        let font = try? HersheyFont(named: "futural")
        let synth = ShapeSynthesizer()
        for kind in ShapeKind.allCases {
            for _ in 0..<generatedPerKind {
                let ink = synth.ink(kind, rng: &rng, scribbleFont: font)
                let strokes = ink.strokes.map { $0.points.map { V($0.x, $0.y) } }
                out.append(Template(kind: kind, cloud: cloud(strokes), inkRatio: inkRatio(strokes)))
            }
        }
        return out
    }
}

/// Generates hand-drawn-looking shapes (random proportions, rotation, start point,
/// wobble and jitter) and scribbles that are not shapes, for tests and fitting.
public struct ShapeSynthesizer: Sendable {
    public init() {}
    typealias V = InkRenderer.Vec

    public func ink(_ kind: ShapeKind, rng: inout SeededGenerator, scribbleFont: HersheyFont? = nil) -> Ink {
        var strokes: [[V]]
        switch kind {
        case .line:
            let a = rng.uniform(0, .pi), len = rng.uniform(60, 200)
            strokes = [[V(0, 0), V(len * cos(a), len * sin(a))]]
        case .arrow:
            let a = rng.uniform(0, 2 * .pi), len = rng.uniform(80, 200), h = len * rng.uniform(0.12, 0.25)
            let spread = rng.uniform(0.4, 0.7)
            let tip = V(len * cos(a), len * sin(a))
            let l = V(tip.x - h * cos(a - spread), tip.y - h * sin(a - spread))
            let r = V(tip.x - h * cos(a + spread), tip.y - h * sin(a + spread))
            strokes = rng.uniform(0, 1) < 0.5 ? [[V(0, 0), tip], [l, tip, r]] : [[V(0, 0), tip, l], [tip, r]]
        case .rectangle:
            let w = rng.uniform(50, 220), h = rng.uniform(50, 160)
            var pts = [V(0, 0), V(w, 0), V(w, h), V(0, h)]
            let start = Int(rng.next() % 4)
            pts = Array(pts[start...] + pts[..<start])
            if rng.uniform(0, 1) < 0.5 { pts.reverse() }
            strokes = [pts + [pts[0]]]
        case .ellipse:
            let rx = rng.uniform(30, 120), ry = rng.uniform(30, 100), a0 = rng.uniform(0, 2 * .pi)
            let dir = rng.uniform(0, 1) < 0.5 ? 1.0 : -1.0, over = rng.uniform(0, 0.3)
            strokes = [
                (0...48).map { k in
                    let a = a0 + dir * Double(k) / 48 * (2 * .pi + over); return V(rx * cos(a), ry * sin(a))
                }
            ]
        case .triangle:
            var pts = (0..<3).map { k -> V in
                let a = -Double.pi / 2 + Double(k) * 2 * .pi / 3 + rng.uniform(-0.35, 0.35)
                let r = rng.uniform(60, 100)
                return V(r * cos(a) * rng.uniform(0.7, 1.3), r * sin(a))
            }
            if rng.uniform(0, 1) < 0.5 { pts.reverse() }
            strokes = [pts + [pts[0]]]
        case .star:
            let r = rng.uniform(50, 100), a0 = -Double.pi / 2 + rng.uniform(-0.3, 0.3)
            strokes = [
                (0...5).map { k in
                    let a = a0 + Double(k) * 4 * .pi / 5; return V(r * cos(a), r * sin(a))
                }
            ]
        case .checkMark:
            let s = rng.uniform(40, 100)
            strokes = [
                [V(0, s * rng.uniform(0.3, 0.6)), V(s * rng.uniform(0.2, 0.45), s), V(s * rng.uniform(0.9, 1.3), 0)]
            ]
        case .notAShape:
            if let font = scribbleFont, rng.uniform(0, 1) < 0.6 {
                let words = ["a", "g", "hello", "e", "s", "ok", "B", "R", "8", "&", "note", "xyz", "m", "2"]
                let w = words[Int(rng.next() % UInt64(words.count))]
                var style = InkSynthesizer.Style()
                style.scale = 4
                return InkSynthesizer(font: font).ink(w, style: style, rng: &rng)
            }
            // A random scribble: a walk with turning direction.
            var p = V(0, 0), a = rng.uniform(0, 2 * .pi)
            var pts = [p]
            for _ in 0..<Int(rng.uniform(8, 30)) {
                a += rng.uniform(-2, 2)
                let step = rng.uniform(10, 40)
                p = V(p.x + step * cos(a), p.y + step * sin(a))
                pts.append(p)
            }
            strokes = [pts]
        }
        // Densify, wobble and jitter.
        let size = max(1, strokes.flatMap { $0 }.map { abs($0.x) + abs($0.y) }.max() ?? 1)
        let phase = rng.uniform(0, 6.28), wobble = size * rng.uniform(0, 0.03)
        var t = 0.0
        let inkStrokes: [Ink.Stroke] = strokes.map { s in
            let dense = InkRenderer.resample(s, step: size / 60)
            return Ink.Stroke(
                points: dense.map { q in
                    t += 10
                    return Ink.Point(
                        x: 200 + q.x + wobble * sin(phase + q.y / size * 6) + rng.gaussian() * size * 0.006,
                        y: 200 + q.y + wobble * sin(phase + q.x / size * 6) + rng.gaussian() * size * 0.006, t: t)
                })
        }
        return Ink(strokes: inkStrokes)
    }
}
