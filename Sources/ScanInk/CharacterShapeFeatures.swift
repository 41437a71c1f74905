import Foundation
import ScanModel

/// What the pen did, as numbers, for one hand-drawn character: the path in writing order
/// (where it starts, where it goes, where it ends), how many strokes, whether a stroke
/// closes on itself, where the path crosses itself, how much and which way it turns, its
/// aspect. The rendered image the line recognizer reads has lost the order and direction;
/// these keep them (a 9 is a loop and then a down-stroke, a 0 one loop back to its start,
/// an 8 crosses itself at its waist). Pure geometry; `CharacterShapeClassifier` reads it.
public enum CharacterShapeFeatures {
    /// Points of the resampled path the features list, in writing order.
    static let pathPoints = 16
    /// The number of features.
    public static let count = 4 * pathPoints + 4 + 1 + 2 + 4 + 2 + 8 + 9 + 1 + 4

    typealias Vec = (x: Double, y: Double)

    /// The features of `ink` (`count` of them), or nil for ink without extent.
    public static func of(_ ink: Ink) -> [Double]? {
        let raw = ink.strokes.map { $0.points.map { (x: $0.x, y: $0.y) } }.filter { !$0.isEmpty }
        guard let b = ink.bounds, !raw.isEmpty else { return nil }
        let width = b.maxX - b.minX, height = b.maxY - b.minY
        let size = max(width, height)
        guard size > 0 else { return nil }
        // Centred on the box, scaled by its longer side: coordinates within -0.5...0.5.
        let cx = (b.minX + b.maxX) / 2, cy = (b.minY + b.maxY) / 2
        let strokes: [[Vec]] = raw.map { $0.map { (($0.x - cx) / size, ($0.y - cy) / size) } }
        var f: [Double] = []

        // The path in writing order (pen-down length only), with its direction at each point.
        let path = resample(strokes, count: pathPoints)
        for (i, p) in path.enumerated() {
            let a = path[max(0, i - 1)], c = path[min(path.count - 1, i + 1)]
            let d = hypot(c.x - a.x, c.y - a.y)
            f += [p.x, p.y, d > 0 ? (c.x - a.x) / d : 0, d > 0 ? (c.y - a.y) / d : 0]
        }
        // Strokes: 1, 2, 3, 4 or more.
        f += (1...4).map { n in (n < 4 ? strokes.count == n : strokes.count >= 4) ? 1 : 0 }
        // Aspect.
        f.append(max(-3, min(3, log(max(height, 1e-3 * size) / max(width, 1e-3 * size)))))
        // How far the first and the longest stroke end from where they started.
        let lengths = strokes.map(length)
        let longest = strokes[lengths.indices.max { lengths[$0] < lengths[$1] }!]
        f += [closure(strokes[0]), closure(longest)]
        // Crossings of the path (within and between strokes), and where they are.
        let pathLength = max(1e-9, lengths.reduce(0, +))
        let fine = zip(strokes, lengths).map { resample([$0], count: max(8, Int(48 * $1 / pathLength))) }
        let crossings = self.crossings(fine)
        f += [
            Double(min(crossings.count, 4)) / 2, crossings.isEmpty ? 0 : 1,
            crossings.isEmpty ? 0 : crossings.map(\.x).reduce(0, +) / Double(crossings.count),
            crossings.isEmpty ? 0 : crossings.map(\.y).reduce(0, +) / Double(crossings.count)
        ]
        // Turning: signed (clockwise positive on the screen) and total, in turns.
        let (signed, total) = turning(fine)
        f += [signed / (2 * .pi), total / (2 * .pi)]
        // Where the pen moves: eight directions, weighted by length.
        var directions = [Double](repeating: 0, count: 8)
        var totalLength = 0.0
        for s in strokes {
            for (a, c) in zip(s, s.dropFirst()) {
                let l = hypot(c.x - a.x, c.y - a.y)
                guard l > 0 else { continue }
                let bin = Int(((atan2(c.y - a.y, c.x - a.x) + .pi) / (2 * .pi) * 8).rounded(.down)) % 8
                directions[bin] += l; totalLength += l
            }
        }
        f += directions.map { $0 / max(totalLength, 1e-9) }
        // Where the ink is: a 3 x 3 grid over the box.
        var grid = [Double](repeating: 0, count: 9)
        let dense = fine.flatMap { $0 }
        for p in dense {
            let gx = min(2, max(0, Int(((p.x - (b.minX - cx) / size) / max(width / size, 1e-9) * 3).rounded(.down))))
            let gy = min(2, max(0, Int(((p.y - (b.minY - cy) / size) / max(height / size, 1e-9) * 3).rounded(.down))))
            grid[gy * 3 + gx] += 1
        }
        f += grid.map { $0 / Double(max(1, dense.count)) }
        // The first stroke's share of the path, and the pen's jump to the second stroke.
        f.append(lengths[0] / pathLength)
        if strokes.count >= 2 {
            let end = strokes[0][strokes[0].count - 1], next = strokes[1][0]
            f += [next.x, next.y, next.x - end.x, next.y - end.y]
        } else {
            f += [0, 0, 0, 0]
        }
        return f
    }

    static func length(_ s: [Vec]) -> Double {
        zip(s, s.dropFirst()).reduce(0) { $0 + hypot($1.1.x - $1.0.x, $1.1.y - $1.0.y) }
    }

    static func closure(_ s: [Vec]) -> Double {
        guard let a = s.first, let c = s.last else { return 1 }
        return hypot(c.x - a.x, c.y - a.y)
    }

    /// `count` points evenly spaced along the strokes' pen-down path, in writing order.
    static func resample(_ strokes: [[Vec]], count: Int) -> [Vec] {
        let segments = strokes.flatMap { s in zip(s, s.dropFirst()).map { ($0.0, $0.1) } }
        let total = segments.reduce(0.0) { $0 + hypot($1.1.x - $1.0.x, $1.1.y - $1.0.y) }
        guard let first = strokes.first?.first else { return [] }
        guard total > 0, count > 1 else { return [Vec](repeating: first, count: count) }
        var out: [Vec] = []
        var walked = 0.0, index = 0
        for k in 0..<count {
            let target = total * Double(k) / Double(count - 1)
            while index < segments.count - 1,
                walked + hypot(segments[index].1.x - segments[index].0.x, segments[index].1.y - segments[index].0.y)
                    < target
            {
                walked += hypot(segments[index].1.x - segments[index].0.x, segments[index].1.y - segments[index].0.y)
                index += 1
            }
            let (a, c) = segments[index]
            let l = hypot(c.x - a.x, c.y - a.y)
            let f = l > 0 ? min(1, max(0, (target - walked) / l)) : 0
            out.append((a.x + (c.x - a.x) * f, a.y + (c.y - a.y) * f))
        }
        return out
    }

    /// Where segments of the strokes cross (neighbouring segments of one stroke excepted).
    static func crossings(_ strokes: [[Vec]]) -> [Vec] {
        let segments = strokes.enumerated().flatMap { n, s in
            zip(s, s.dropFirst()).enumerated().map { (stroke: n, index: $0, a: $1.0, b: $1.1) }
        }
        var found: [Vec] = []
        for i in segments.indices {
            for j in (i + 1)..<segments.count {
                let s = segments[i], r = segments[j]
                if s.stroke == r.stroke, abs(s.index - r.index) < 2 { continue }
                if let p = intersection(s.a, s.b, r.a, r.b) { found.append(p) }
            }
        }
        return found
    }

    static func intersection(_ p: Vec, _ p2: Vec, _ q: Vec, _ q2: Vec) -> Vec? {
        let r = (x: p2.x - p.x, y: p2.y - p.y), s = (x: q2.x - q.x, y: q2.y - q.y)
        let denominator = r.x * s.y - r.y * s.x
        guard abs(denominator) > 1e-12 else { return nil }
        let t = ((q.x - p.x) * s.y - (q.y - p.y) * s.x) / denominator
        let u = ((q.x - p.x) * r.y - (q.y - p.y) * r.x) / denominator
        guard t >= 0, t < 1, u >= 0, u < 1 else { return nil }
        return (p.x + t * r.x, p.y + t * r.y)
    }

    /// Summed turning angle along each stroke: signed and absolute (radians).
    static func turning(_ strokes: [[Vec]]) -> (signed: Double, total: Double) {
        var signed = 0.0, total = 0.0
        for s in strokes where s.count >= 3 {
            for i in 1..<(s.count - 1) {
                let a = atan2(s[i].y - s[i - 1].y, s[i].x - s[i - 1].x),
                    c = atan2(s[i + 1].y - s[i].y, s[i + 1].x - s[i].x)
                var d = c - a
                while d > .pi { d -= 2 * .pi }
                while d < -.pi { d += 2 * .pi }
                signed += d; total += abs(d)
            }
        }
        return (signed, total)
    }
}
