import Foundation
import ScanModel

/// The perspective of a photographed page, measured from its printed lines alone.
///
/// A page's lines are parallel on paper. Photographed at an angle they converge on one point, the
/// horizon's vanishing point, and a single slant levels them only near the page's middle: on a receipt
/// whose one side is nearer the camera than the other, the top lines tilt one way and the bottom lines the
/// other. When the document camera found the page's corners and the printed lines run level in that
/// page's rectangle (`agrees`), the layout groups rows there. Most phone photos of
/// receipts give it no corners (the slip runs off the frame, is held in a hand or curls), but the
/// recognizer's quadrilateral of every line still says which way that line runs. Their common point is
/// found as the least-squares intersection of the lines (homogeneous, so that parallel lines meet at
/// infinity), with the lines that disagree most left out and the fit done again.
///
/// The result is a homography that sends that point to infinity along x, so every printed line becomes
/// level, and that is close to the identity near the page's middle, so heights keep their pixel size there.
/// It changes nothing a flat scan needs: parallel lines give a rotation by their common angle. A slip that
/// curls bends its rows so that no one point explains them; their angles, as they change down the page, then
/// level them (`SlopeField`). A gentle S-curl may still fit one point within the tolerance; a curved field that misses
/// the lines far less (`curlOverPerspective`) levels it then.
public enum TextPerspective {
    /// One printed line as a direction through a point, in the page's pixels.
    struct Segment {
        var mid: Point
        var dx: Double
        var dy: Double
        var weight: Double
        var height: Double
    }

    /// Fewer long lines than this say too little about a page's perspective.
    static let minimumSegments = 6
    /// The most the kept lines may differ from the direction towards their common point, or from a field of
    /// slopes, as a median (1 degree).
    static let maximumMedianResidual = Double.pi / 180
    /// A line is left out of a fit when it misses it by more than three median misses and at least this (1.5 degrees).
    static let outlierFloor = 1.5 * Double.pi / 180
    /// How many standard errors the lines' turn down the page must reach to be taken as convergence (3).
    static let trendSignificance = 3.0
    /// How far from level the median printed line may run in the rectangle of the page the camera found (1.5
    /// degrees): its corners are found to within about 2% of the page's size, which tilts a well-found page's
    /// lines by up to a degree there (generated photos); a curled slip's run 1.2 to 12 degrees off.
    static let frameTolerance = 1.5 * Double.pi / 180

    /// The map that levels `page`'s printed lines: the homography of their common vanishing point, or, when
    /// they bend so that no one point explains them, their angles as they change down the page
    /// (`SlopeField`); nil when the page has too few long lines with quadrilaterals, or when neither explains them.
    public static func levelling(_ page: Page) -> RowLevelling? {
        levelling(page, segments: segments(of: page))
    }

    /// `levelling(_:)` with the page's long lines already found (`segments(of:)`).
    static func levelling(_ page: Page, segments: [Segment]) -> RowLevelling? {
        guard segments.count >= minimumSegments, page.width > 0, page.height > 0 else { return nil }
        let field = SlopeField(segments, centreX: page.width / 2)
        if let (h, miss) = projectiveFit(segments, page: page) {
            // A slip that curls one way and back may still fit one vanishing point within the tolerance, but the
            // rows' own angles, followed down the page, fit it far better: they level it.
            if let field, field.curved, field.miss < curlOverPerspective * miss { return .slopes(field) }
            return .projective(h)
        }
        return field.map { .slopes($0) }
    }

    /// How much less than the vanishing point a curved field of the rows' angles must miss them (median) to level
    /// the page instead.
    static let curlOverPerspective = 0.5

    /// Whether `page`'s printed lines run level in the rectangle `frame` maps the page onto (the page the camera
    /// found): the median line within `frameTolerance` of level. A slip that curls inside its outline
    /// passes the camera's checks, but its rows are not level in that rectangle, and grouping them there would
    /// shift them against each other. A page with too few long lines gives no evidence against the frame.
    public static func agrees(_ frame: Homography, with page: Page) -> Bool {
        agrees(frame, segments: segments(of: page))
    }

    /// `agrees(_:with:)` with the page's long lines already found (`segments(of:)`).
    static func agrees(_ frame: Homography, segments: [Segment]) -> Bool {
        guard segments.count >= minimumSegments else { return true }
        let angles = segments.map { s -> Double in
            let half = 10.0
            let a = frame.apply(Point(x: s.mid.x - half * s.dx, y: s.mid.y - half * s.dy))
            let b = frame.apply(Point(x: s.mid.x + half * s.dx, y: s.mid.y + half * s.dy))
            let angle = abs(atan2(b.y - a.y, b.x - a.x))
            return min(angle, .pi - angle)
        }.sorted()
        return angles[angles.count / 2] <= frameTolerance
    }

    /// Whether the long lines inside `quad` are many (twice `minimumSegments`: a document's, not a coupon's few) and
    /// run level in its rectangle (`frame`, within `frameTolerance`), whatever the lines outside it do: a slip's own
    /// rows on a table of other printed papers.
    static func agreesInside(_ quad: Quad, _ frame: Homography, segments: [Segment]) -> Bool {
        let inside = segments.filter { quad.contains($0.mid) }
        return inside.count >= 2 * minimumSegments && agrees(frame, segments: inside)
    }

    /// The homography of the segments' common vanishing point, a rotation when their angles do not clearly turn
    /// down the page (parallel lines), or nil when the kept segments miss the point by more than
    /// `maximumMedianResidual`.
    static func projective(_ segments: [Segment], page: Page) -> Homography? { projectiveFit(segments, page: page)?.0 }

    /// `projective` with the median miss of the lines it kept.
    static func projectiveFit(_ segments: [Segment], page: Page) -> (Homography, Double)? {
        let centre = Point(x: page.width / 2, y: page.height / 2)
        let scale = max(page.width, page.height) / 2
        var kept = segments
        var vanishing = fit(kept, centre: centre, scale: scale)
        for _ in 0..<2 {
            guard let v = vanishing else { return nil }
            let residuals = kept.map { residual($0, vanishing: v, centre: centre, scale: scale) }
            let next = inliers(residuals).map { kept[$0] }
            guard next.count >= minimumSegments else { break }
            if next.count == kept.count { break }
            kept = next
            vanishing = fit(kept, centre: centre, scale: scale)
        }
        guard let v = vanishing else { return nil }
        // A curled or folded slip bends its lines: no one point explains them, and levelling by it would
        // shift rows against each other.
        let residuals = kept.map { residual($0, vanishing: v, centre: centre, scale: scale) }.sorted()
        let miss = residuals[residuals.count / 2]
        guard miss <= maximumMedianResidual else { return nil }
        // Lines that converge turn steadily down the page. Unless their angles do so clearly, take them as
        // parallel, in the direction of their weighted mean.
        guard !convergenceIsClear(kept, page: page) else {
            return homography(vanishing: v, page: page, centre: centre, scale: scale).map { ($0, miss) }
        }
        var sx = 0.0, sy = 0.0
        for k in kept {
            let sign = k.dx < 0 ? -1.0 : 1.0
            sx += sign * k.weight * k.dx
            sy += sign * k.weight * k.dy
        }
        return homography(vanishing: [sx, sy, 0], page: page, centre: centre, scale: scale).map { ($0, miss) }
    }

    /// The indices of the lines a fit keeps: those that miss it by at most three median misses, or by `outlierFloor`.
    static func inliers(_ misses: [Double]) -> [Int] {
        let limit = max(outlierFloor, 3 * misses.sorted()[misses.count / 2])
        return misses.indices.filter { misses[$0] <= limit }
    }

    /// Whether the lines' angles change with the height at which they cross the page's middle, beyond their
    /// noise: the slope of a least-squares line through (height, angle) at least `trendSignificance` of its
    /// standard errors from 0. A vanishing point has one more degree of freedom than parallel lines and always
    /// fits a detector's noise a little better; on a flat page whose long lines sit in one band that small gain
    /// would tilt the rows far from the band.
    static func convergenceIsClear(_ lines: [Segment], page: Page) -> Bool {
        guard lines.count >= 4 else { return false }
        let cx = page.width / 2
        let points = lines.map { s -> (Double, Double) in
            let (dx, dy) = s.dx < 0 ? (-s.dx, -s.dy) : (s.dx, s.dy)
            return (s.mid.y - dy / dx * (s.mid.x - cx), atan2(dy, dx))
        }
        let n = Double(points.count)
        let mc = points.reduce(0) { $0 + $1.0 } / n, ma = points.reduce(0) { $0 + $1.1 } / n
        let scc = points.reduce(0) { $0 + ($1.0 - mc) * ($1.0 - mc) }
        guard scc > 0 else { return false }
        let b = points.reduce(0) { $0 + ($1.0 - mc) * ($1.1 - ma) } / scc
        let rss = points.reduce(0) { acc, p in let r = p.1 - ma - b * (p.0 - mc); return acc + r * r }
        let standardError = (rss / (n - 2) / scc).squareRoot()
        return abs(b) >= trendSignificance * max(standardError, 1e-12)
    }

    /// The page's long printed lines: observations at least four text heights long, running within 30 degrees
    /// of level (text printed up a receipt's edge says nothing about its rows). Only an engine that gives each
    /// line's quadrilateral shows how its lines run: PP-OCR leaves the quadrilateral out only where it is the
    /// line's box, so when at least half the lines have one, a line without one is level. An engine of boxes
    /// alone shows nothing, and gives no segments.
    static func segments(of page: Page) -> [Segment] {
        let withQuads = page.observations.reduce(0) { $0 + ($1.quad == nil ? 0 : 1) }
        guard 2 * withQuads >= page.observations.count else { return [] }
        var out: [Segment] = []
        for o in page.observations {
            let q = o.quad ?? Quad(o.boundingBox)
            let left = Point(x: (q.topLeft.x + q.bottomLeft.x) / 2, y: (q.topLeft.y + q.bottomLeft.y) / 2)
            let right = Point(x: (q.topRight.x + q.bottomRight.x) / 2, y: (q.topRight.y + q.bottomRight.y) / 2)
            let dx = right.x - left.x, dy = right.y - left.y
            let length = (dx * dx + dy * dy).squareRoot()
            let height = (q.topLeft.distance(to: q.bottomLeft) + q.topRight.distance(to: q.bottomRight)) / 2
            guard height > 0, length >= 4 * height, abs(dy) <= 0.58 * abs(dx) else { continue }
            out.append(Segment(mid: Point(x: (left.x + right.x) / 2, y: (left.y + right.y) / 2),
                               dx: dx / length, dy: dy / length, weight: min(length / height, 20), height: height))
        }
        return out
    }

    /// The homogeneous point (in coordinates centred on `centre` and divided by `scale`) nearest all
    /// the segments' lines in the weighted least-squares sense: the eigenvector of the smallest
    /// eigenvalue of the sum of the lines' outer products.
    static func fit(_ segments: [Segment], centre: Point, scale: Double) -> [Double]? {
        var m = [Double](repeating: 0, count: 9)
        for s in segments {
            let mx = (s.mid.x - centre.x) / scale, my = (s.mid.y - centre.y) / scale
            let l = [-s.dy, s.dx, s.dy * mx - s.dx * my]
            for r in 0..<3 { for c in 0..<3 { m[3 * r + c] += s.weight * l[r] * l[c] } }
        }
        return SymmetricEigen.smallest(m)
    }

    /// The angle between a segment and the direction from its middle towards the vanishing point.
    static func residual(_ s: Segment, vanishing v: [Double], centre: Point, scale: Double) -> Double {
        let mx = (s.mid.x - centre.x) / scale, my = (s.mid.y - centre.y) / scale
        // Towards v from the segment's middle: v.xy - v.z * m (homogeneous, so it also holds at infinity).
        let tx = v[0] - v[2] * mx, ty = v[1] - v[2] * my
        let n = (tx * tx + ty * ty).squareRoot()
        guard n > 0 else { return .pi / 2 }
        let sine = abs(s.dx * ty - s.dy * tx) / n
        return asin(min(1, sine))
    }

    /// The map that sends the vanishing point `v` (centred, scaled, homogeneous) to infinity along x: a
    /// rotation that lays the point on the x axis, then a projective step that leaves the page's middle in
    /// place at its own scale. A point that is not clearly beyond every corner of the page (by a tenth) is no
    /// vanishing point of a photographed page's rows, and gives nil: the map would fold the page there.
    static func homography(vanishing v: [Double], page: Page, centre: Point, scale: Double) -> Homography? {
        let planar = (v[0] * v[0] + v[1] * v[1]).squareRoot()
        guard planar > 0 else { return nil }
        // The direction towards the point, folded to within a quarter turn of level, so the page is not flipped.
        var angle = atan2(v[1], v[0])
        if angle > .pi / 2 { angle -= .pi } else if angle <= -.pi / 2 { angle += .pi }
        let c = cos(angle), s = sin(angle)
        let rotation = Homography.rotation(degrees: -angle * 180 / .pi)
        // After the rotation the point lies at (d, 0), d signed; (d, 0, 1) must go to (d, 0, 0).
        var projective = Homography.identity
        if abs(v[2]) > 1e-12 * planar {
            let px = v[0] / v[2], py = v[1] / v[2]
            let d = c * px + s * py
            // Every corner must lie on the near side of the point, along the rotated x axis.
            let reach = [(0.0, 0.0), (page.width, 0.0), (page.width, page.height), (0.0, page.height)].map { corner in
                (c * (corner.0 - centre.x) + s * (corner.1 - centre.y)) / scale * (d > 0 ? 1 : -1)
            }.max()!
            guard abs(d) > 1.1 * max(reach, 0) + 1e-9 else { return nil }
            projective = Homography([1, 0, 0, 0, 1, 0, -1 / d, 0, 1])
        }
        let toUnit = Homography.scale(1 / scale).after(.translation(dx: -centre.x, dy: -centre.y))
        let back = Homography.translation(dx: centre.x, dy: centre.y).after(.scale(scale))
        return back.after(projective).after(rotation).after(toUnit)
    }
}

/// The eigenvector of a symmetric 3×3 matrix's smallest eigenvalue, by Jacobi rotations.
enum SymmetricEigen {
    static func smallest(_ matrix: [Double]) -> [Double]? {
        guard matrix.count == 9, matrix.allSatisfy(\.isFinite) else { return nil }
        var a = matrix
        var vectors: [Double] = [1, 0, 0, 0, 1, 0, 0, 0, 1]
        // Done when the off-diagonal part is negligible next to the matrix's own size.
        let size = matrix.reduce(0) { $0 + $1 * $1 }
        for _ in 0..<50 {
            var off = 0.0
            for (p, q) in [(0, 1), (0, 2), (1, 2)] { off += a[3 * p + q] * a[3 * p + q] }
            if off <= 1e-28 * size { break }
            for (p, q) in [(0, 1), (0, 2), (1, 2)] {
                let apq = a[3 * p + q]
                guard abs(apq) > 1e-300 else { continue }
                let theta = (a[3 * q + q] - a[3 * p + p]) / (2 * apq)
                let t = (theta >= 0 ? 1.0 : -1.0) / (abs(theta) + (theta * theta + 1).squareRoot())
                let c = 1 / (t * t + 1).squareRoot(), s = t * c
                // a = Jᵀ a J, with J the rotation in the (p, q) plane.
                for k in 0..<3 {
                    let akp = a[3 * k + p], akq = a[3 * k + q]
                    a[3 * k + p] = c * akp - s * akq
                    a[3 * k + q] = s * akp + c * akq
                }
                for k in 0..<3 {
                    let apk = a[3 * p + k], aqk = a[3 * q + k]
                    a[3 * p + k] = c * apk - s * aqk
                    a[3 * q + k] = s * apk + c * aqk
                }
                for k in 0..<3 {
                    let vkp = vectors[3 * k + p], vkq = vectors[3 * k + q]
                    vectors[3 * k + p] = c * vkp - s * vkq
                    vectors[3 * k + q] = s * vkp + c * vkq
                }
            }
        }
        let diagonal = [a[0], a[4], a[8]]
        let k = diagonal.indices.min { diagonal[$0] < diagonal[$1] }!
        let v = [vectors[k], vectors[3 + k], vectors[6 + k]]
        let norm = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).squareRoot()
        guard norm > 0, norm.isFinite else { return nil }
        return v.map { $0 / norm }
    }
}
