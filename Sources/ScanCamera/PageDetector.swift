import Foundation
import ScanModel

/// Finds the page on a photo: candidate regions from several masks on a shrunk copy,
/// a quadrilateral for each, scored by how much of its outline is a real edge;
/// then the best one's sides are re-fitted on the full-resolution pixels.
struct PageDetector {
    var options: DocumentCamera.Options

    struct Candidate {
        var quad: Quad
        var confidence: Double
        var score: Double
    }

    /// A found page, with the shrunk gray copy it was found on (for the checks that follow).
    struct Detection {
        var quad: Quad
        var confidence: Double
        var small: GrayPlane
        /// Photo pixels per pixel of `small`, across and down.
        var sx: Double
        var sy: Double
    }

    func detect(_ image: RasterImage) -> Detection? {
        guard image.width >= 16, image.height >= 16 else { return nil }
        let longSide = max(image.width, image.height)
        let scale = min(1, Double(options.detectionSide) / Double(longSide))
        let small: RasterImage
        if scale < 1 {
            let w = max(8, Int((Double(image.width) * scale).rounded())),
                h = max(8, Int((Double(image.height) * scale).rounded()))
            guard let r = OpenCV.resized(image, width: w, height: h) else { return nil }
            small = r
        } else {
            small = image
        }
        let sx = Double(image.width) / Double(small.width), sy = Double(image.height) / Double(small.height)
        let gray = GrayPlane(width: small.width, height: small.height, pixels: small.grayscale().pixels)
        guard let blurred = OpenCV.gaussianBlur(gray, kernel: 5) else { return nil }
        let scorer = EdgeScorer(plane: blurred)

        var best: Candidate?
        for mask in masks(small: small, blurred: blurred) {
            for candidate in candidates(in: mask, scorer: scorer) where candidate.score > (best?.score ?? 0) {
                best = candidate
            }
        }
        guard let found = best, found.confidence >= options.minimumConfidence else { return nil }
        // Back to the user's pixels (pixel centres: small pixel i covers [i, i+1)).
        let coarse = Quad(corners: found.quad.corners.map { Point(x: ($0.x + 0.5) * sx, y: ($0.y + 0.5) * sy) })!
        let refined = EdgeRefiner(image: image, searchRadius: max(3, 2.5 * max(sx, sy))).refine(coarse) ?? coarse
        return Detection(quad: refined, confidence: found.confidence, small: gray, sx: sx, sy: sy)
    }

    /// Binary masks where the page may stand out, each from a plane thresholded at Otsu's level
    /// and again at Otsu's level among the brighter class (which splits a page from a lighter
    /// surface it touches). Planes: luma; the smallest channel ("white": separates paper from
    /// wood, skin and coloured surfaces); the ratio of the smallest to the largest channel
    /// ("unsaturated": the same, and unchanged in shadow). Then closed edges (Canny), for pages
    /// barely brighter than their background.
    private func masks(small: RasterImage, blurred: GrayPlane) -> [GrayPlane] {
        var planes = [blurred]
        if small.channels == 3 {
            let count = small.width * small.height
            var white = [UInt8](repeating: 0, count: count), unsaturated = [UInt8](repeating: 0, count: count)
            small.pixels.withUnsafeBufferPointer { px in
                for i in 0..<count {
                    let r = px[3 * i], g = px[3 * i + 1], b = px[3 * i + 2]
                    let lo = min(r, g, b), hi = max(r, g, b)
                    white[i] = lo
                    unsaturated[i] = hi < 40 ? 0 : UInt8(Int(lo) * 255 / Int(hi))
                }
            }
            for plane in [white, unsaturated] {
                if let b = OpenCV.gaussianBlur(
                    GrayPlane(width: small.width, height: small.height, pixels: plane), kernel: 5)
                {
                    planes.append(b)
                }
            }
        }
        let k = max(3, (min(small.width, small.height) / 100) | 1)
        var out: [GrayPlane] = []
        for plane in planes {
            let histogram = Self.histogram(plane)
            let first = GrayHistogram.otsu(histogram)
            for level in Set([first, GrayHistogram.otsu(histogram, from: first + 1)]) where level > 0 && level < 255 {
                let mask = GrayPlane(
                    width: plane.width, height: plane.height, pixels: plane.pixels.map { $0 > level ? 255 : 0 })
                if let cleaned = OpenCV.morphology(mask, .open, kernel: k).flatMap({
                    OpenCV.morphology($0, .close, kernel: k)
                }) {
                    out.append(cleaned)
                }
            }
        }
        if let edges = OpenCV.canny(blurred, low: 20, high: 60),
           let closed = OpenCV.morphology(edges, .close, kernel: k) {
            out.append(closed)
        }
        return out
    }

    static func histogram(_ plane: GrayPlane) -> [Int] {
        var h = [Int](repeating: 0, count: 256)
        for v in plane.pixels { h[Int(v)] += 1 }
        return h
    }

    private func candidates(in mask: GrayPlane, scorer: EdgeScorer) -> [Candidate] {
        let frameArea = Double(mask.width * mask.height)
        var out: [Candidate] = []
        for (hull, area) in OpenCV.contourHulls(mask, maxCount: 4, minArea: frameArea * options.minimumPageArea) {
            guard let quad = fitQuad(hull), PageGeometry.isReasonable(quad) else { continue }
            let quadArea = quad.area
            guard quadArea > 0 else { continue }
            let fill = min(1, quadArea / max(area, 1))
            let edge = scorer.support(of: quad)
            guard edge.framedSides < 3, let support = edge.support else { continue }
            let confidence = support * fill
            // Larger pages win ties: a card's own print can make a smaller, equally sharp quad.
            let score = confidence * (0.75 + 0.25 * min(1, quadArea / frameArea / 0.25).squareRoot())
            out.append(Candidate(quad: quad, confidence: confidence, score: score))
        }
        return out
    }

    /// The four-cornered polygon that best covers a convex hull: the hull is simplified,
    /// then the four vertices that span the largest area are kept.
    private func fitQuad(_ hull: [Point]) -> Quad? {
        guard hull.count >= 4 else { return nil }
        let perimeter = zip(hull, hull.dropFirst() + [hull[0]]).map { $0.distance(to: $1) }.reduce(0, +)
        var polygon = hull
        for fraction in [0.005, 0.01, 0.02, 0.04] {
            polygon = OpenCV.approxPolygon(hull, epsilon: perimeter * fraction)
            if polygon.count <= 14 { break }
        }
        guard polygon.count >= 4 else { return nil }
        if polygon.count == 4 { return PageGeometry.ordered(polygon) }
        let n = polygon.count
        var bestArea = 0.0
        var bestPick: [Point] = []
        for a in 0..<n - 3 {
            for b in a + 1..<n - 2 {
                for c in b + 1..<n - 1 {
                    for d in c + 1..<n {
                        let pick = [polygon[a], polygon[b], polygon[c], polygon[d]]
                        let area = abs(Self.shoelace(pick))
                        if area > bestArea { bestArea = area; bestPick = pick }
                    }
                }
            }
        }
        return PageGeometry.ordered(bestPick)
    }

    static func shoelace(_ p: [Point]) -> Double {
        var s = 0.0
        for i in 0..<p.count {
            let a = p[i], b = p[(i + 1) % p.count]
            s += a.x * b.y - b.x * a.y
        }
        return s / 2
    }
}

/// How much of a quad's outline lies on a real step in brightness, on the shrunk gray copy.
struct EdgeScorer {
    let plane: GrayPlane
    let samplesPerSide = 32
    let minimumContrast = 10.0

    /// The mean share of supported samples over the sides that are not on the frame's border,
    /// and how many sides are on the border (a page cut by the frame).
    func support(of quad: Quad) -> (support: Double?, framedSides: Int) {
        let c = quad.corners
        var supports: [Double] = []
        var framed = 0
        for i in 0..<4 {
            let a = c[i], b = c[(i + 1) % 4]
            if onBorder(a, b) { framed += 1; continue }
            supports.append(sideSupport(a, b))
        }
        guard supports.count >= 2 else { return (nil, framed) }
        return (supports.reduce(0, +) / Double(supports.count), framed)
    }

    private func onBorder(_ a: Point, _ b: Point) -> Bool {
        let tx = Double(plane.width) * 0.015, ty = Double(plane.height) * 0.015
        let w = Double(plane.width - 1), h = Double(plane.height - 1)
        return (a.x < tx && b.x < tx) || (a.y < ty && b.y < ty) || (a.x > w - tx && b.x > w - tx)
            || (a.y > h - ty && b.y > h - ty)
    }

    private func value(_ x: Double, _ y: Double) -> Double? {
        let xi = Int(x.rounded()), yi = Int(y.rounded())
        guard xi >= 0, yi >= 0, xi < plane.width, yi < plane.height else { return nil }
        return Double(plane[xi, yi])
    }

    /// The share of points along a → b where the inside is brighter than the outside. Paper is
    /// brighter than what it lies on; a block of print on a flat scan is darker than its margin,
    /// so it never passes for a page.
    private func sideSupport(_ a: Point, _ b: Point) -> Double {
        let length = a.distance(to: b)
        guard length > 4 else { return 0 }
        let dx = (b.x - a.x) / length, dy = (b.y - a.y) / length
        let nx = dy, ny = -dx  // outward for a clockwise quad, y down
        var brighterInside = 0
        var insideValues: [Double] = [], steps: [Double] = []
        for s in 0..<samplesPerSide {
            let t = 0.05 + 0.9 * (Double(s) + 0.5) / Double(samplesPerSide)
            let px = a.x + (b.x - a.x) * t, py = a.y + (b.y - a.y) * t
            var inside = 0.0, outside = 0.0, n = 0
            for d in [2.0, 3.5, 5.0] {
                guard let i = value(px - nx * d, py - ny * d), let o = value(px + nx * d, py + ny * d) else { continue }
                inside += i; outside += o; n += 1
            }
            guard n > 0 else { continue }
            let step = (inside - outside) / Double(n)
            insideValues.append(inside / Double(n))
            steps.append(step)
            if step >= minimumContrast { brighterInside += 1 }
        }
        // A page's margin is smooth along its edge; the outline of a block of print (light
        // text on a dark card, say) runs over strokes and gaps. Rough insides lose support.
        guard insideValues.count >= 2 else { return 0 }
        let roughness = zip(insideValues, insideValues.dropFirst()).map { abs($0 - $1) }.reduce(0, +)
            / Double(insideValues.count - 1)
        let meanStep = max(1, steps.reduce(0, +) / Double(steps.count))
        let smoothness = max(0, min(1, 1 - roughness / meanStep))
        return smoothness * Double(brighterInside) / Double(samplesPerSide)
    }
}
