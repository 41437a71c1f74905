import Foundation
import ScanModel

/// Geometry of a page quadrilateral: corner order, shape checks, true aspect ratio.
enum PageGeometry {
    /// The four points clockwise (y down), starting at the corner whose outgoing edge is
    /// closest to pointing right, so the page needs the least rotation to be upright.
    static func ordered(_ points: [Point]) -> Quad? {
        guard points.count == 4 else { return nil }
        let cx = points.map(\.x).reduce(0, +) / 4, cy = points.map(\.y).reduce(0, +) / 4
        // Increasing atan2 with y down runs clockwise on screen.
        let sorted = points.sorted { atan2($0.y - cy, $0.x - cx) < atan2($1.y - cy, $1.x - cx) }
        var best = 0
        var bestCos = -Double.infinity
        for i in 0..<4 {
            let a = sorted[i], b = sorted[(i + 1) % 4]
            let length = a.distance(to: b)
            guard length > 0 else { return nil }
            let c = (b.x - a.x) / length
            if c > bestCos { bestCos = c; best = i }
        }
        return Quad(corners: (0..<4).map { sorted[(best + $0) % 4] })
    }

    /// True when the quad is convex and clockwise, with no angle sharper than `minAngle` degrees.
    static func isReasonable(_ q: Quad, minAngle: Double = 30) -> Bool {
        let c = q.corners
        for i in 0..<4 {
            let prev = c[(i + 3) % 4], p = c[i], next = c[(i + 1) % 4]
            let ax = prev.x - p.x, ay = prev.y - p.y, bx = next.x - p.x, by = next.y - p.y
            let la = (ax * ax + ay * ay).squareRoot(), lb = (bx * bx + by * by).squareRoot()
            guard la > 0, lb > 0 else { return false }
            // Clockwise on screen (y down): the cross product of the incoming and outgoing edges is positive.
            let cross = (p.x - prev.x) * (next.y - p.y) - (p.y - prev.y) * (next.x - p.x)
            guard cross > 0 else { return false }
            let angle = acos(max(-1, min(1, (ax * bx + ay * by) / (la * lb)))) * 180 / Double.pi
            guard angle >= minAngle, angle <= 180 - minAngle else { return false }
        }
        return true
    }

    /// The page's width / height, recovered from the perspective with the method of
    /// Zhang and He ("Whiteboard scanning and image enhancement", 2007): the focal length is
    /// estimated from the quad assuming square pixels and the principal point at the image
    /// centre. Falls back to the ratio of the mean opposite sides when the quad carries no
    /// usable perspective (sides almost parallel) or the estimate is implausible.
    static func aspectRatio(of q: Quad, imageWidth: Int, imageHeight: Int) -> Double {
        let sides = q.meanSides
        let fallback = sides.width / max(sides.height, 1e-9)
        let u0 = Double(imageWidth) / 2, v0 = Double(imageHeight) / 2
        // Paper order: m1 top-left, m2 top-right, m3 bottom-left, m4 bottom-right.
        let m1 = [q.topLeft.x, q.topLeft.y, 1.0], m2 = [q.topRight.x, q.topRight.y, 1.0]
        let m3 = [q.bottomLeft.x, q.bottomLeft.y, 1.0], m4 = [q.bottomRight.x, q.bottomRight.y, 1.0]
        func cross(_ a: [Double], _ b: [Double]) -> [Double] {
            [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
        }
        func dot(_ a: [Double], _ b: [Double]) -> Double { a[0] * b[0] + a[1] * b[1] + a[2] * b[2] }
        let d2 = dot(cross(m2, m4), m3), d3 = dot(cross(m3, m4), m2)
        guard abs(d2) > 1e-9, abs(d3) > 1e-9 else { return fallback }
        let k2 = dot(cross(m1, m4), m3) / d2
        let k3 = dot(cross(m1, m4), m2) / d3
        let n2 = [k2 * m2[0] - m1[0], k2 * m2[1] - m1[1], k2 * m2[2] - m1[2]]
        let n3 = [k3 * m3[0] - m1[0], k3 * m3[1] - m1[1], k3 * m3[2] - m1[2]]
        let scale = Double(max(imageWidth, imageHeight))
        // Almost no perspective: the focal length is undetermined, the quad is an affine image.
        guard abs(n2[2]) * scale > 1e-3 * max(abs(n2[0]), abs(n2[1])),
              abs(n3[2]) * scale > 1e-3 * max(abs(n3[0]), abs(n3[1])) else {
            return (n2[0] * n2[0] + n2[1] * n2[1]).squareRoot()
                / max((n3[0] * n3[0] + n3[1] * n3[1]).squareRoot(), 1e-9)
        }
        let f2 = -((n2[0] * n3[0] - (n2[0] * n3[2] + n2[2] * n3[0]) * u0 + n2[2] * n3[2] * u0 * u0)
                 + (n2[1] * n3[1] - (n2[1] * n3[2] + n2[2] * n3[1]) * v0 + n2[2] * n3[2] * v0 * v0)) / (n2[2] * n3[2])
        // A focal length between a fifth and twenty times the image size is a camera; else fall back.
        guard f2.isFinite, f2 > pow(scale / 5, 2), f2 < pow(scale * 20, 2) else { return fallback }
        func norm(_ n: [Double]) -> Double {
            // n^T (A^-T A^-1) n with A = [[f, 0, u0], [0, f, v0], [0, 0, 1]].
            let x = n[0] - u0 * n[2], y = n[1] - v0 * n[2]
            return (x * x + y * y) / f2 + n[2] * n[2]
        }
        let ratio = (norm(n2) / norm(n3)).squareRoot()
        guard ratio.isFinite, ratio > 0, abs(log(ratio / fallback)) < log(1.6) else { return fallback }
        return ratio
    }
}
