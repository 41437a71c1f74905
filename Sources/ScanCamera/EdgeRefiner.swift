import Foundation
import ScanModel

/// Re-fits each side of a coarse quad on the full-resolution pixels: along the side, the
/// strongest bright-to-dark step across it within `searchRadius` px is taken as an edge point,
/// a line is fitted to those points (dropping the worst), and adjacent lines meet at the corners.
/// Rounded card corners and blur thus no longer pull the corners inward.
struct EdgeRefiner {
    let image: RasterImage
    let searchRadius: Double
    let samplesPerSide = 48
    let minimumStep = 4.0

    func refine(_ coarse: Quad) -> Quad? {
        let c = coarse.corners
        var lines: [(point: Point, direction: Point)] = []
        for i in 0..<4 {
            guard let line = fitSide(c[i], c[(i + 1) % 4]) else { return nil }
            lines.append(line)
        }
        var corners: [Point] = []
        let diagonal = coarse.topLeft.distance(to: coarse.bottomRight)
        let limit = max(2 * searchRadius, 0.02 * diagonal)
        for i in 0..<4 {
            // Corner i is where side i-1 (ending at it) meets side i (starting at it).
            guard let p = Self.intersect(lines[(i + 3) % 4], lines[i]) else { return nil }
            corners.append(p.distance(to: c[i]) <= limit ? p : c[i])
        }
        guard let quad = Quad(corners: corners), PageGeometry.isReasonable(quad) else { return nil }
        return quad
    }

    /// Luma at (x, y), bilinear, or nil outside the image.
    private func luma(_ x: Double, _ y: Double) -> Double? {
        let fx = x - 0.5, fy = y - 0.5  // pixel centres at +0.5
        guard fx >= 0, fy >= 0, fx < Double(image.width - 1), fy < Double(image.height - 1) else { return nil }
        let x0 = Int(fx), y0 = Int(fy)
        let ax = fx - Double(x0), ay = fy - Double(y0)
        let ch = image.channels, w = image.width
        return image.pixels.withUnsafeBufferPointer { px -> Double in
            func at(_ xx: Int, _ yy: Int) -> Double {
                let i = (yy * w + xx) * ch
                if ch == 1 { return Double(px[i]) }
                return 0.299 * Double(px[i]) + 0.587 * Double(px[i + 1]) + 0.114 * Double(px[i + 2])
            }
            let top = at(x0, y0) * (1 - ax) + at(x0 + 1, y0) * ax
            let bottom = at(x0, y0 + 1) * (1 - ax) + at(x0 + 1, y0 + 1) * ax
            return top * (1 - ay) + bottom * ay
        }
    }

    private func fitSide(_ a: Point, _ b: Point) -> (point: Point, direction: Point)? {
        let length = a.distance(to: b)
        guard length > 8 else { return nil }
        let dx = (b.x - a.x) / length, dy = (b.y - a.y) / length
        let nx = dy, ny = -dx  // outward
        let radius = Int(searchRadius.rounded(.up))
        let along = max(1.0, searchRadius / 3)
        var points: [Point] = []
        for s in 0..<samplesPerSide {
            let t = 0.1 + 0.8 * (Double(s) + 0.5) / Double(samplesPerSide)
            let px = a.x + (b.x - a.x) * t, py = a.y + (b.y - a.y) * t
            // Profile across the side, each value averaged over three points along it.
            var profile: [Double] = []
            profile.reserveCapacity(2 * radius + 3)
            var complete = true
            for k in -(radius + 1)...(radius + 1) {
                var sum = 0.0
                for e in [-along, 0, along] {
                    guard let v = luma(px + nx * Double(k) + dx * e, py + ny * Double(k) + dy * e) else {
                        complete = false; break
                    }
                    sum += v
                }
                if !complete { break }
                profile.append(sum / 3)
            }
            guard complete else { continue }
            // Inside (negative k) bright, outside dark: the step is profile[k-1] - profile[k+1].
            var bestK = 0, bestStep = 0.0
            for j in 1..<(profile.count - 1) {
                let step = profile[j - 1] - profile[j + 1]
                if step > bestStep { bestStep = step; bestK = j }
            }
            guard bestStep >= minimumStep else { continue }
            var offset = Double(bestK - (radius + 1))
            if bestK >= 2, bestK + 2 < profile.count {
                let l = profile[bestK - 2] - profile[bestK], r = profile[bestK] - profile[bestK + 2]
                let denom = l - 2 * bestStep + r
                if abs(denom) > 1e-9 { offset += max(-0.5, min(0.5, 0.5 * (l - r) / denom)) }
            }
            points.append(Point(x: px + nx * offset, y: py + ny * offset))
        }
        guard points.count >= samplesPerSide / 3 else { return nil }
        var kept = points
        var line = Self.fitLine(kept)
        for _ in 0..<2 {
            guard let l = line else { return nil }
            let residuals = kept.map { abs(($0.x - l.point.x) * -l.direction.y + ($0.y - l.point.y) * l.direction.x) }
            let cutoff = residuals.sorted()[Int(Double(residuals.count) * 0.7)]
            kept = zip(kept, residuals).filter { $0.1 <= max(cutoff, 0.5) }.map(\.0)
            guard kept.count >= 6 else { return nil }
            line = Self.fitLine(kept)
        }
        return line
    }

    /// Total least squares line: the centroid and the main direction.
    static func fitLine(_ points: [Point]) -> (point: Point, direction: Point)? {
        guard points.count >= 2 else { return nil }
        let n = Double(points.count)
        let mx = points.map(\.x).reduce(0, +) / n, my = points.map(\.y).reduce(0, +) / n
        var sxx = 0.0, sxy = 0.0, syy = 0.0
        for p in points {
            sxx += (p.x - mx) * (p.x - mx); sxy += (p.x - mx) * (p.y - my); syy += (p.y - my) * (p.y - my)
        }
        let angle = 0.5 * atan2(2 * sxy, sxx - syy)
        return (Point(x: mx, y: my), Point(x: cos(angle), y: sin(angle)))
    }

    static func intersect(_ l1: (point: Point, direction: Point), _ l2: (point: Point, direction: Point)) -> Point? {
        let d = l1.direction.x * l2.direction.y - l1.direction.y * l2.direction.x
        guard abs(d) > 1e-6 else { return nil }
        let qx = l2.point.x - l1.point.x, qy = l2.point.y - l1.point.y
        let t = (qx * l2.direction.y - qy * l2.direction.x) / d
        return Point(x: l1.point.x + t * l1.direction.x, y: l1.point.y + t * l1.direction.y)
    }
}
