import Foundation

/// A point in pixels, top-left origin (x right, y down).
public struct Point: Codable, Hashable, Sendable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    public func distance(to other: Point) -> Double {
        ((x - other.x) * (x - other.x) + (y - other.y) * (y - other.y)).squareRoot()
    }
}

/// Four corners of a region, clockwise from the one that is top-left on the upright
/// text: `topLeft`, `topRight`, `bottomRight`, `bottomLeft`. Like Apple's rectangle
/// observations, in the pixels of the image the user gave.
public struct Quad: Codable, Hashable, Sendable {
    public var topLeft: Point
    public var topRight: Point
    public var bottomRight: Point
    public var bottomLeft: Point

    public init(topLeft: Point, topRight: Point, bottomRight: Point, bottomLeft: Point) {
        self.topLeft = topLeft
        self.topRight = topRight
        self.bottomRight = bottomRight
        self.bottomLeft = bottomLeft
    }

    /// The corners of an axis-aligned box, clockwise from its top-left.
    public init(_ box: BoundingBox) {
        self.init(topLeft: Point(x: box.minX, y: box.minY), topRight: Point(x: box.maxX, y: box.minY),
                  bottomRight: Point(x: box.maxX, y: box.maxY), bottomLeft: Point(x: box.minX, y: box.maxY))
    }

    /// The corners in order: top-left, top-right, bottom-right, bottom-left.
    public var corners: [Point] { [topLeft, topRight, bottomRight, bottomLeft] }

    public init?(corners: [Point]) {
        guard corners.count == 4 else { return nil }
        self.init(topLeft: corners[0], topRight: corners[1], bottomRight: corners[2], bottomLeft: corners[3])
    }

    /// Whether `p` lies inside the quadrilateral (convex, its corners in order either way round), or on its edge.
    public func contains(_ p: Point) -> Bool {
        let c = corners
        var sign = 0.0
        for i in 0..<4 {
            let a = c[i], b = c[(i + 1) % 4]
            let cross = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)
            if cross == 0 { continue }
            if sign == 0 { sign = cross } else if (cross > 0) != (sign > 0) { return false }
        }
        return true
    }

    /// The smallest axis-aligned box that holds the four corners.
    public var boundingBox: BoundingBox {
        let xs = corners.map(\.x), ys = corners.map(\.y)
        let x0 = xs.min()!, y0 = ys.min()!
        return BoundingBox(x: x0, y: y0, width: xs.max()! - x0, height: ys.max()! - y0)
    }

    /// Area by the shoelace formula (positive for clockwise corners on a y-down raster).
    public var area: Double {
        let c = corners
        var s = 0.0
        for i in 0..<4 {
            let a = c[i], b = c[(i + 1) % 4]
            s += a.x * b.y - b.x * a.y
        }
        return s / 2
    }

    /// The mean length of the top and bottom edges, and of the left and right edges.
    public var meanSides: (width: Double, height: Double) {
        ((topLeft.distance(to: topRight) + bottomLeft.distance(to: bottomRight)) / 2,
         (topLeft.distance(to: bottomLeft) + topRight.distance(to: bottomRight)) / 2)
    }

    /// The largest distance between a corner of `self` and the same corner of `other`.
    public func maxCornerDistance(to other: Quad) -> Double {
        zip(corners, other.corners).map { $0.distance(to: $1) }.max()!
    }

    /// The same corners, still clockwise, labelled again from the one whose top edge runs most
    /// nearly left to right: for a quad carried through a quarter turn, whose labels turned with it.
    public func relabelledLevel() -> Quad {
        let c = corners
        func level(_ k: Int) -> Double {
            let a = c[k], b = c[(k + 1) % 4]
            let length = a.distance(to: b)
            return length > 0 ? (b.x - a.x) / length : -1
        }
        let first = (0..<4).max { level($0) < level($1) }!
        return Quad(corners: (0..<4).map { c[(first + $0) % 4] })!
    }

    /// Coordinates rounded to 0.1 px, so JSON stays short and stable.
    public func rounded() -> Quad {
        func r(_ p: Point) -> Point { Point(x: (p.x * 10).rounded() / 10, y: (p.y * 10).rounded() / 10) }
        return Quad(topLeft: r(topLeft), topRight: r(topRight), bottomRight: r(bottomRight), bottomLeft: r(bottomLeft))
    }
}

/// A plane projective transform: a 3×3 matrix acting on homogeneous points.
///
/// Every stage that moves pixels (camera flattening, quarter turns, deskew, scaling,
/// cropping) describes what it did as one of these, from the coordinates of its input
/// to those of its output. The pipeline composes them and maps boxes back to the
/// user's pixels once, with the inverse.
public struct Homography: Codable, Hashable, Sendable {
    /// Row-major: `[a, b, c, d, e, f, g, h, i]` maps (x, y) to
    /// ((a x + b y + c) / w, (d x + e y + f) / w) with w = g x + h y + i.
    public var m: [Double]

    public init(_ m: [Double]) {
        precondition(m.count == 9, "a homography has nine entries")
        self.m = m
    }

    /// Encoded as the nine numbers, row by row.
    public init(from decoder: any Decoder) throws {
        let values = try decoder.singleValueContainer().decode([Double].self)
        guard values.count == 9 else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "a homography has nine entries"))
        }
        m = values
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(m.map { ($0 * 1e9).rounded() / 1e9 })
    }

    public static let identity = Homography([1, 0, 0, 0, 1, 0, 0, 0, 1])

    public static func translation(dx: Double, dy: Double) -> Homography {
        Homography([1, 0, dx, 0, 1, dy, 0, 0, 1])
    }

    public static func scale(_ sx: Double, _ sy: Double? = nil) -> Homography {
        Homography([sx, 0, 0, 0, sy ?? sx, 0, 0, 0, 1])
    }

    /// A clockwise rotation by `degrees` (y down) about `center`.
    public static func rotation(degrees: Double, about center: Point = Point(x: 0, y: 0)) -> Homography {
        let a = degrees * Double.pi / 180
        let c = cos(a), s = sin(a)
        let r = Homography([c, -s, 0, s, c, 0, 0, 0, 1])
        return translation(dx: center.x, dy: center.y)
            .after(r).after(translation(dx: -center.x, dy: -center.y))
    }

    /// The exact map of turning a `width` × `height` raster clockwise by `quarterTurns` × 90°,
    /// from its pixels to those of the turned raster.
    public static func quarterTurns(_ quarterTurns: Int, width: Double, height: Double) -> Homography {
        switch ((quarterTurns % 4) + 4) % 4 {
        case 1: return Homography([0, -1, height, 1, 0, 0, 0, 0, 1])
        case 2: return Homography([-1, 0, width, 0, -1, height, 0, 0, 1])
        case 3: return Homography([0, 1, 0, -1, 0, width, 0, 0, 1])
        default: return .identity
        }
    }

    /// `self` applied after `first`: maps p to self(first(p)).
    public func after(_ first: Homography) -> Homography {
        let a = m, b = first.m
        var out = [Double](repeating: 0, count: 9)
        for r in 0..<3 {
            for c in 0..<3 {
                out[3 * r + c] = a[3 * r] * b[c] + a[3 * r + 1] * b[3 + c] + a[3 * r + 2] * b[6 + c]
            }
        }
        return Homography(out).normalized()
    }

    /// `next` applied after `self`.
    public func then(_ next: Homography) -> Homography { next.after(self) }

    /// The inverse map, or nil when the matrix is singular.
    public var inverse: Homography? {
        let a = m
        let c00 = a[4] * a[8] - a[5] * a[7], c01 = a[5] * a[6] - a[3] * a[8], c02 = a[3] * a[7] - a[4] * a[6]
        let det = a[0] * c00 + a[1] * c01 + a[2] * c02
        guard abs(det) > 1e-12 else { return nil }
        let inv = [
            c00, a[2] * a[7] - a[1] * a[8], a[1] * a[5] - a[2] * a[4],
            c01, a[0] * a[8] - a[2] * a[6], a[2] * a[3] - a[0] * a[5],
            c02, a[1] * a[6] - a[0] * a[7], a[0] * a[4] - a[1] * a[3],
        ].map { $0 / det }
        return Homography(inv).normalized()
    }

    public var isIdentity: Bool {
        zip(m, Homography.identity.m).allSatisfy { abs($0 - $1) < 1e-12 }
    }

    /// True when the map keeps lines parallel (no perspective part).
    public var isAffine: Bool { abs(m[6]) < 1e-12 && abs(m[7]) < 1e-12 }

    public func apply(_ p: Point) -> Point {
        let w = m[6] * p.x + m[7] * p.y + m[8]
        let ww = abs(w) < 1e-12 ? 1e-12 : w
        return Point(x: (m[0] * p.x + m[1] * p.y + m[2]) / ww, y: (m[3] * p.x + m[4] * p.y + m[5]) / ww)
    }

    public func apply(_ q: Quad) -> Quad {
        Quad(topLeft: apply(q.topLeft), topRight: apply(q.topRight),
             bottomRight: apply(q.bottomRight), bottomLeft: apply(q.bottomLeft))
    }

    /// The quadrilateral a box becomes under the map.
    public func apply(_ box: BoundingBox) -> Quad { apply(Quad(box)) }

    /// Scaled so that the last entry is 1 (when it can be), which keeps comparisons simple.
    func normalized() -> Homography {
        guard abs(m[8]) > 1e-12 else { return self }
        return Homography(m.map { $0 / m[8] })
    }

    /// The map that takes the four `from` points to the four `to` points, or nil when
    /// three of them lie on a line. Solved as the 8×8 linear system of the direct
    /// linear transform, with partial pivoting.
    public static func mapping(_ from: [Point], to: [Point]) -> Homography? {
        guard from.count == 4, to.count == 4 else { return nil }
        var a = [[Double]](repeating: [Double](repeating: 0, count: 9), count: 8)
        for i in 0..<4 {
            let (x, y, u, v) = (from[i].x, from[i].y, to[i].x, to[i].y)
            a[2 * i] = [x, y, 1, 0, 0, 0, -u * x, -u * y, u]
            a[2 * i + 1] = [0, 0, 0, x, y, 1, -v * x, -v * y, v]
        }
        for col in 0..<8 {
            var pivot = col
            for r in col..<8 where abs(a[r][col]) > abs(a[pivot][col]) { pivot = r }
            guard abs(a[pivot][col]) > 1e-10 else { return nil }
            a.swapAt(col, pivot)
            for r in 0..<8 where r != col {
                let f = a[r][col] / a[col][col]
                if f == 0 { continue }
                for c in col..<9 { a[r][c] -= f * a[col][c] }
            }
        }
        var h = (0..<8).map { a[$0][8] / a[$0][$0] }
        h.append(1)
        return Homography(h)
    }

    /// The map from `quad` onto the upright rectangle of its own mean sides (`Quad.meanSides`).
    public static func rectifying(_ quad: Quad) -> Homography? {
        let (width, height) = quad.meanSides
        return rectifying(quad, width: width, height: height)
    }

    /// The map from `quad` onto the upright rectangle `width` × `height` with its corner at the origin.
    public static func rectifying(_ quad: Quad, width: Double, height: Double) -> Homography? {
        mapping(quad.corners, to: [Point(x: 0, y: 0), Point(x: width, y: 0),
                                   Point(x: width, y: height), Point(x: 0, y: height)])
    }
}

extension BoundingBox {
    /// The axis-aligned box that holds this box's image under `h`.
    public func mapped(by h: Homography) -> BoundingBox { h.apply(self).boundingBox }
}


/// What the document-camera stage found on a photo: the page's corners in the
/// user's pixels, how sure it is, and whether the page was flattened before recognition.
public struct CameraInfo: Codable, Hashable, Sendable {
    public var quad: Quad
    /// 0 to 1.
    public var confidence: Double
    /// True when the page was cut out and flattened; false when it was found but left as it was.
    public var flattened: Bool
    /// Whether the quad passed the checks of `--camera auto` (confident, the print inside it, not running
    /// off the frame, a shape a camera gives): only then is it the document's outline, which the layout
    /// may group rows in. Nil when the checks did not run (`--camera on`) or the document was written
    /// by a version that did not record them.
    public var checked: Bool?

    public init(quad: Quad, confidence: Double, flattened: Bool, checked: Bool? = nil) {
        self.quad = quad
        self.confidence = confidence
        self.flattened = flattened
        self.checked = checked
    }
}
