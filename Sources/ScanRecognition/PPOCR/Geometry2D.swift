/// Small plane geometry for text detection: points, convex hulls, minimum-area
/// rectangles, the DB "unclip" expansion and perspective maps. Coordinates are
/// pixels with a top-left origin, x to the right and y downwards.
struct Point2D: Hashable, Sendable {
    var x: Double
    var y: Double
    init(_ x: Double, _ y: Double) { self.x = x; self.y = y }

    static func + (a: Point2D, b: Point2D) -> Point2D { Point2D(a.x + b.x, a.y + b.y) }
    static func - (a: Point2D, b: Point2D) -> Point2D { Point2D(a.x - b.x, a.y - b.y) }
    static func * (a: Point2D, s: Double) -> Point2D { Point2D(a.x * s, a.y * s) }
    func distance(to p: Point2D) -> Double { ((x - p.x) * (x - p.x) + (y - p.y) * (y - p.y)).squareRoot() }
    /// The point a fraction `t` of the way to `p`.
    func lerp(_ p: Point2D, _ t: Double) -> Point2D { Point2D(x + (p.x - x) * t, y + (p.y - y) * t) }
}

/// A quadrilateral with corners in the order top-left, top-right, bottom-right, bottom-left.
struct Quad: Hashable, Sendable {
    var points: [Point2D]  // exactly 4

    init(_ points: [Point2D]) {
        precondition(points.count == 4)
        self.points = points
    }

    var topLeft: Point2D { points[0] }
    var topRight: Point2D { points[1] }
    var bottomRight: Point2D { points[2] }
    var bottomLeft: Point2D { points[3] }

    var boundingBox: (minX: Double, minY: Double, maxX: Double, maxY: Double) {
        (points.map(\.x).min()!, points.map(\.y).min()!, points.map(\.x).max()!, points.map(\.y).max()!)
    }
}

/// A rotated rectangle: the result of `minimumAreaRectangle`.
struct RotatedRect: Sendable {
    var center: Point2D
    /// Unit vector along the first side.
    var axis: Point2D
    /// Length along `axis`.
    var width: Double
    /// Length along the normal of `axis`.
    var height: Double

    var shortSide: Double { min(width, height) }
    var longSide: Double { max(width, height) }
    var area: Double { width * height }
    var perimeter: Double { 2 * (width + height) }

    var corners: [Point2D] {
        let n = Point2D(-axis.y, axis.x)
        let a = axis * (width / 2), b = n * (height / 2)
        return [center - a - b, center + a - b, center + a + b, center - a + b]
    }

    /// The DB "unclip": grows the rectangle by `d = area * ratio / perimeter` on every
    /// side. For a rectangle this is exact: the rounded offset polygon that DB uses
    /// has this rectangle as its minimum-area bounding rectangle.
    func unclipped(ratio: Double) -> RotatedRect {
        guard perimeter > 0 else { return self }
        let d = area * ratio / perimeter
        return RotatedRect(center: center, axis: axis, width: width + 2 * d, height: height + 2 * d)
    }
}

enum Geometry2D {
    /// Convex hull (Andrew's monotone chain), counter-clockwise in a y-down frame,
    /// without repeated or collinear points.
    static func convexHull(_ input: [Point2D]) -> [Point2D] {
        let pts = Array(Set(input)).sorted { $0.x != $1.x ? $0.x < $1.x : $0.y < $1.y }
        if pts.count < 3 { return pts }
        func cross(_ o: Point2D, _ a: Point2D, _ b: Point2D) -> Double {
            (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)
        }
        var lower: [Point2D] = []
        for p in pts {
            while lower.count >= 2 && cross(lower[lower.count - 2], lower[lower.count - 1], p) <= 0 {
                lower.removeLast()
            }
            lower.append(p)
        }
        var upper: [Point2D] = []
        for p in pts.reversed() {
            while upper.count >= 2 && cross(upper[upper.count - 2], upper[upper.count - 1], p) <= 0 {
                upper.removeLast()
            }
            upper.append(p)
        }
        return Array(lower.dropLast() + upper.dropLast())
    }

    /// The smallest-area rectangle holding `points` (rotating calipers over the hull's edges).
    static func minimumAreaRectangle(_ points: [Point2D]) -> RotatedRect? {
        let hull = convexHull(points)
        guard let first = hull.first else { return nil }
        if hull.count == 1 { return RotatedRect(center: first, axis: Point2D(1, 0), width: 0, height: 0) }
        var best: RotatedRect?
        for i in 0..<hull.count {
            let a = hull[i], b = hull[(i + 1) % hull.count]
            let len = a.distance(to: b)
            guard len > 0 else { continue }
            let u = Point2D((b.x - a.x) / len, (b.y - a.y) / len)
            let n = Point2D(-u.y, u.x)
            var minU = Double.infinity, maxU = -Double.infinity, minN = Double.infinity, maxN = -Double.infinity
            for p in hull {
                let pu = p.x * u.x + p.y * u.y, pn = p.x * n.x + p.y * n.y
                minU = min(minU, pu); maxU = max(maxU, pu); minN = min(minN, pn); maxN = max(maxN, pn)
            }
            let w = maxU - minU, h = maxN - minN
            if best == nil || w * h < best!.area - 1e-9 {
                let cu = (minU + maxU) / 2, cn = (minN + maxN) / 2
                best = RotatedRect(
                    center: Point2D(u.x * cu + n.x * cn, u.y * cu + n.y * cn), axis: u, width: w, height: h)
            }
        }
        return best
    }

    /// Orders four corners as top-left, top-right, bottom-right, bottom-left: the two
    /// left-most points make the left side (upper one first), the two right-most the right side.
    static func orderCorners(_ p: [Point2D]) -> Quad {
        let byX = p.sorted { $0.x != $1.x ? $0.x < $1.x : $0.y < $1.y }
        let left = byX[0].y <= byX[1].y ? (byX[0], byX[1]) : (byX[1], byX[0])
        let right = byX[2].y <= byX[3].y ? (byX[2], byX[3]) : (byX[3], byX[2])
        return Quad([left.0, right.0, right.1, left.1])
    }
}

/// A projective map from a `width` x `height` rectangle (0,0)-(width,height) onto a quad:
/// (0,0) → tl, (width,0) → tr, (width,height) → br, (0,height) → bl.
struct PerspectiveMap {
    private let a, b, c, d, e, f, g, h: Double
    private let width, height: Double

    init(quad: Quad, width: Double, height: Double) {
        let p0 = quad.topLeft, p1 = quad.topRight, p2 = quad.bottomRight, p3 = quad.bottomLeft
        let dx1 = p1.x - p2.x, dx2 = p3.x - p2.x, dx3 = p0.x - p1.x + p2.x - p3.x
        let dy1 = p1.y - p2.y, dy2 = p3.y - p2.y, dy3 = p0.y - p1.y + p2.y - p3.y
        let den = dx1 * dy2 - dx2 * dy1
        var g = 0.0, h = 0.0
        if (abs(dx3) > 1e-12 || abs(dy3) > 1e-12) && abs(den) > 1e-12 {
            g = (dx3 * dy2 - dx2 * dy3) / den
            h = (dx1 * dy3 - dx3 * dy1) / den
        }
        self.g = g; self.h = h
        a = p1.x - p0.x + g * p1.x; b = p3.x - p0.x + h * p3.x; c = p0.x
        d = p1.y - p0.y + g * p1.y; e = p3.y - p0.y + h * p3.y; f = p0.y
        self.width = max(width, 1e-9); self.height = max(height, 1e-9)
    }

    @inline(__always)
    func map(_ x: Double, _ y: Double) -> Point2D {
        let u = x / width, v = y / height
        let w = g * u + h * v + 1
        return Point2D((a * u + b * v + c) / w, (d * u + e * v + f) / w)
    }
}
