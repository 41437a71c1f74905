import Foundation
import ScanModel

/// A map that makes a page's printed rows level: the points of one row all get the same y.
public enum RowLevelling: Sendable {
    /// A homography: the rectangle of the page the camera found, or the rows' common vanishing point sent to infinity.
    case projective(Homography)
    /// Each row's angle read from a field that changes down the page (a curled slip).
    case slopes(SlopeField)

    public func apply(_ p: Point) -> Point {
        switch self {
        case .projective(let h): return h.apply(p)
        case .slopes(let f): return f.apply(p)
        }
    }

    public func apply(_ q: Quad) -> Quad {
        Quad(
            topLeft: apply(q.topLeft), topRight: apply(q.topRight), bottomRight: apply(q.bottomRight),
            bottomLeft: apply(q.bottomLeft))
    }
}

/// The rows' angles on a page whose printed lines bend (a slip that curls or is held in a hand): each line is
/// straight, but its angle changes smoothly down the page, so no one vanishing point explains them. Every long
/// line says its slope and where it crosses the page's middle; the slope at a height follows the lines crossing
/// near it (a kernel-weighted straight-line fit, the Gaussian over a twelfth of the lines' span, at least three
/// text heights), with the lines that disagree most left out and the fit done again. A point is levelled to the
/// height at which the row through it crosses the page's middle.
///
/// A straight-line fit flattens the turn of a slip that curls one way and back (an S): where the rows turn most it
/// gives them half their slope, and an amount far right of its name lands on the row below. A parabola follows the
/// turn but overshoots where few lines are; each is judged by how far it misses every line when that line is left
/// out, and the parabola is kept only where the straight fit is kept and it misses them clearly less (`curvedGain`).
public struct SlopeField: Sendable {
    /// Where each kept line crosses the page's middle, its slope (dy/dx) and weight.
    let crossings: [Double]
    let slopes: [Double]
    let weights: [Double]
    let bandwidth: Double
    let centreX: Double
    /// Whether the slopes near a height are fitted by a parabola rather than a straight line.
    let curved: Bool
    /// How far the field misses its lines, each left out, as a median (radians); 0 for a field made from parts.
    private(set) var miss = 0.0
    /// The field's slope tabulated every quarter bandwidth from a bandwidth above the first crossing to one below
    /// the last (interpolated between, held beyond), so that levelling a point costs the same on any page.
    let table: [Double]
    let tableStart: Double
    let tableStep: Double

    /// Nil when fewer than `TextPerspective.minimumSegments` lines remain or the field misses them by more than
    /// `TextPerspective.maximumMedianResidual` (median): lines that bend within themselves or point every way.
    init?(_ segments: [TextPerspective.Segment], centreX: Double) {
        var lines: [(crossing: Double, slope: Double, weight: Double, height: Double)] = []
        for s in segments where s.dx > 0 {
            let k = s.dy / s.dx
            lines.append((s.mid.y - k * (s.mid.x - centreX), k, s.weight, s.height))
        }
        guard lines.count >= TextPerspective.minimumSegments else { return nil }
        let cs = lines.map(\.crossing)
        let heights = lines.map(\.height).sorted()
        let bandwidth = max((cs.max()! - cs.min()!) / 12, 3 * heights[heights.count / 2], 1)
        func misses(_ f: SlopeField) -> [Double] {
            f.crossings.indices.map { i in abs(atan(f.slopes[i]) - atan(f.slope(at: f.crossings[i], leaving: i))) }
        }
        // Each fit with the lines furthest from it left out (each judged by the others' field at its height), once,
        // and its median miss then.
        func fitted(curved: Bool) -> (field: SlopeField, miss: Double)? {
            var field = SlopeField(crossings: cs, slopes: lines.map(\.slope), weights: lines.map(\.weight),
                                   bandwidth: bandwidth, centreX: centreX, curved: curved)
            let first = misses(field)
            let keep = TextPerspective.inliers(first)
            guard keep.count >= TextPerspective.minimumSegments else { return nil }
            if keep.count < first.count {
                field = SlopeField(crossings: keep.map { field.crossings[$0] }, slopes: keep.map { field.slopes[$0] },
                                   weights: keep.map { field.weights[$0] }, bandwidth: bandwidth, centreX: centreX,
                                   curved: curved)
            }
            let last = misses(field).sorted()
            return (field, last[last.count / 2])
        }
        // A parabola has one more degree of freedom and fits any lines a little better: it only refines a field the
        // straight fit already found, and never admits lines that fit would reject (rows bent within themselves,
        // where the angle at a line's start says little of where its far end is).
        guard let straight = fitted(curved: false), straight.miss <= TextPerspective.maximumMedianResidual else {
            return nil
        }
        var best = straight
        if let bent = fitted(curved: true), bent.miss < Self.curvedGain * straight.miss { best = bent }
        self = best.field
        miss = best.miss
    }

    /// How much less than the straight-line fit a parabola must miss the lines (median, each left out) to be kept.
    static let curvedGain = 0.8

    init(crossings: [Double], slopes: [Double], weights: [Double], bandwidth: Double, centreX: Double,
         curved: Bool = false) {
        self.crossings = crossings
        self.slopes = slopes
        self.weights = weights
        self.bandwidth = bandwidth
        self.centreX = centreX
        self.curved = curved
        tableStart = (crossings.min() ?? 0) - bandwidth
        tableStep = bandwidth / 4
        let end = (crossings.max() ?? 0) + bandwidth
        let count = Int(((end - tableStart) / tableStep).rounded(.up)) + 1
        let start = tableStart, step = tableStep
        table = (0..<max(1, count)).map {
            Self.slope(
                at: start + Double($0) * step, crossings: crossings, slopes: slopes, weights: weights,
                bandwidth: bandwidth, curved: curved)
        }
    }

    /// The field's slope for a row crossing the middle at `y`: a line through the nearby lines' slopes against
    /// their heights, weighted by the kernel, so that the slope keeps changing as it does up to the page's first
    /// and last rows (a mean there would lean on the rows on one side). `leaving` leaves one line out.
    func slope(at y: Double, leaving: Int? = nil) -> Double {
        Self.slope(
            at: y, crossings: crossings, slopes: slopes, weights: weights, bandwidth: bandwidth, curved: curved,
            leaving: leaving)
    }

    static func slope(at y: Double, crossings: [Double], slopes: [Double], weights: [Double], bandwidth: Double,
                      curved: Bool = false, leaving: Int? = nil) -> Double {
        var sw = 0.0, sx = 0.0, sy = 0.0, sxx = 0.0, sxy = 0.0, sx3 = 0.0, sx4 = 0.0, sxxy = 0.0
        for i in crossings.indices where i != leaving {
            let d = (crossings[i] - y) / bandwidth
            let w = weights[i] * exp(-0.5 * d * d)
            sw += w
            sx += w * d
            sy += w * slopes[i]
            sxx += w * d * d
            sxy += w * d * slopes[i]
            if curved {
                sx3 += w * d * d * d
                sx4 += w * d * d * d * d
                sxxy += w * d * d * slopes[i]
            }
        }
        guard sw > 1e-12 else { return 0 }
        if curved, let a = quadraticIntercept(sw, sx, sxx, sx3, sx4, sy, sxy, sxxy) { return a }
        let spread = sxx * sw - sx * sx
        // Lines all at one height give no gradient: their mean.
        guard spread > 1e-6 * sw * sw else { return sy / sw }
        let gradient = (sxy * sw - sx * sy) / spread
        return (sy - gradient * sx) / sw
    }

    /// The value at distance 0 of the weighted least-squares parabola through the slopes against their scaled
    /// distances, from the sums of the weights times the distances to the powers 0 to 4 (`s0`...`s4`) and of the
    /// weights times the slopes times the distances to the powers 0 to 2 (`t0`...`t2`); nil when the lines are too
    /// few or too bunched to fix a curvature.
    static func quadraticIntercept(
        _ s0: Double, _ s1: Double, _ s2: Double, _ s3: Double, _ s4: Double, _ t0: Double, _ t1: Double,
        _ t2: Double
    ) -> Double? {
        // Cramer's rule on [[s0 s1 s2] [s1 s2 s3] [s2 s3 s4]] a = [t0 t1 t2], for a's first entry.
        let det = s0 * (s2 * s4 - s3 * s3) - s1 * (s1 * s4 - s3 * s2) + s2 * (s1 * s3 - s2 * s2)
        guard det > 1e-6 * s0 * s0 * s0 else { return nil }
        return (t0 * (s2 * s4 - s3 * s3) - s1 * (t1 * s4 - s3 * t2) + s2 * (t1 * s3 - s2 * t2)) / det
    }

    /// The tabulated slope at `y`, held at the table's ends: beyond the printed lines the field has no evidence
    /// of a change.
    func tabulated(_ y: Double) -> Double {
        let t = (y - tableStart) / tableStep
        guard t > 0 else { return table[0] }
        let i = Int(t)
        guard i + 1 < table.count else { return table[table.count - 1] }
        let f = t - Double(i)
        return table[i] * (1 - f) + table[i + 1] * f
    }

    /// `p` moved along its row to the page's middle: x stays, y becomes the height at which the row through `p`
    /// crosses the middle (`c + slope(c) (x - middle) = p.y`, solved by iteration until it moves less than a
    /// twentieth of a pixel).
    func apply(_ p: Point) -> Point {
        var y = p.y
        for _ in 0..<50 {
            let next = p.y - tabulated(y) * (p.x - centreX)
            if abs(next - y) < 0.05 { return Point(x: p.x, y: next) }
            y = next
        }
        return Point(x: p.x, y: y)
    }
}
