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
public struct SlopeField: Sendable {
    /// Where each kept line crosses the page's middle, its slope (dy/dx) and weight.
    let crossings: [Double]
    let slopes: [Double]
    let weights: [Double]
    let bandwidth: Double
    let centreX: Double
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
        var field = SlopeField(crossings: cs, slopes: lines.map(\.slope), weights: lines.map(\.weight),
                               bandwidth: bandwidth, centreX: centreX)
        // Leave out the lines furthest from the field (each judged by the others' field at its height), once.
        let first = misses(field)
        let keep = TextPerspective.inliers(first)
        guard keep.count >= TextPerspective.minimumSegments else { return nil }
        if keep.count < first.count {
            field = SlopeField(crossings: keep.map { field.crossings[$0] }, slopes: keep.map { field.slopes[$0] },
                               weights: keep.map { field.weights[$0] }, bandwidth: bandwidth, centreX: centreX)
        }
        let last = misses(field).sorted()
        guard last[last.count / 2] <= TextPerspective.maximumMedianResidual else { return nil }
        self = field
    }

    init(crossings: [Double], slopes: [Double], weights: [Double], bandwidth: Double, centreX: Double) {
        self.crossings = crossings
        self.slopes = slopes
        self.weights = weights
        self.bandwidth = bandwidth
        self.centreX = centreX
        tableStart = (crossings.min() ?? 0) - bandwidth
        tableStep = bandwidth / 4
        let end = (crossings.max() ?? 0) + bandwidth
        let count = Int(((end - tableStart) / tableStep).rounded(.up)) + 1
        let start = tableStart, step = tableStep
        table = (0..<max(1, count)).map {
            Self.slope(
                at: start + Double($0) * step, crossings: crossings, slopes: slopes, weights: weights,
                bandwidth: bandwidth)
        }
    }

    /// The field's slope for a row crossing the middle at `y`: a line through the nearby lines' slopes against
    /// their heights, weighted by the kernel, so that the slope keeps changing as it does up to the page's first
    /// and last rows (a mean there would lean on the rows on one side). `leaving` leaves one line out.
    func slope(at y: Double, leaving: Int? = nil) -> Double {
        Self.slope(
            at: y, crossings: crossings, slopes: slopes, weights: weights, bandwidth: bandwidth, leaving: leaving)
    }

    static func slope(at y: Double, crossings: [Double], slopes: [Double], weights: [Double], bandwidth: Double,
                      leaving: Int? = nil) -> Double {
        var sw = 0.0, sx = 0.0, sy = 0.0, sxx = 0.0, sxy = 0.0
        for i in crossings.indices where i != leaving {
            let d = (crossings[i] - y) / bandwidth
            let w = weights[i] * exp(-0.5 * d * d)
            sw += w
            sx += w * d
            sy += w * slopes[i]
            sxx += w * d * d
            sxy += w * d * slopes[i]
        }
        guard sw > 1e-12 else { return 0 }
        let spread = sxx * sw - sx * sx
        // Lines all at one height give no gradient: their mean.
        guard spread > 1e-6 * sw * sw else { return sy / sw }
        let gradient = (sxy * sw - sx * sy) / spread
        return (sy - gradient * sx) / sw
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
