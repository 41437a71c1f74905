import Foundation
import ScanModel

/// Why the camera stage left a page it found as it was.
public enum CameraDoubt: String, Sendable, Codable, Hashable, CaseIterable {
    /// `.auto`: the page was found with less than `Options.flattenConfidence`.
    case lowConfidence
    /// `.auto`: the page already fills the frame (a flat scan).
    case fillsFrame
    /// `.auto`: too much of the photo's print lies outside the quad, so the quad is not the whole
    /// document: a card or note lying on it or beside it, or a block of the page (its heading).
    case printOutsideQuad
    /// `.auto`: the page runs off the frame: the quad reaches an edge of the frame and print runs
    /// into that edge, so a flattened crop would cut the text.
    case runsOffFrame
    /// `.auto` and `.on`: flattening the quad would stretch it beyond what a camera tilt gives
    /// (opposite sides of very different lengths, or an output longer than the quad's own sides).
    case implausibleShape
}

/// The print on a photo, as a cheap map: dark marks of glyph size and shape (a black-hat on the
/// shrunk gray copy, thresholded, split into connected components), in photo pixels. Long thin
/// marks (wood grain, table edges, a shadow's rim) and blobs too large for a glyph are dropped.
struct PrintMap {
    /// Mark centres in the photo's pixels, and the height of each.
    var centres: [Point]
    var heights: [Double]

    /// Builds the map from the shrunk gray copy; `sx`, `sy` scale its pixels to the photo's.
    init(small: GrayPlane, sx: Double, sy: Double) {
        let short = min(small.width, small.height)
        let kernel = max(7, (short / 40) | 1)
        let tallest = max(8, short / 12)
        var centres: [Point] = [], heights: [Double] = []
        for mark in OpenCV.darkMarks(small, kernel: kernel, minContrast: 35) ?? [] {
            let long = max(mark.width, mark.height), thin = min(mark.width, mark.height)
            guard mark.height >= 3, mark.height <= tallest, mark.width <= 4 * tallest, mark.pixels >= 5,
                  long <= 8 * max(thin, 1) else { continue }
            // A glyph fills part of its box; a solid block (a dark gap, a hole in the mask) fills it all.
            let fill = Double(mark.pixels) / Double(mark.width * mark.height)
            guard fill < 0.85 || long <= 4 else { continue }
            centres.append(Point(x: (Double(mark.x) + Double(mark.width) / 2) * sx,
                                 y: (Double(mark.y) + Double(mark.height) / 2) * sy))
            heights.append(Double(mark.height) * sy)
        }
        self.centres = centres
        self.heights = heights
    }

    /// The share of marks inside `quad` grown by `margin` px, or nil when there are too few marks to say.
    func coverage(of quad: Quad, margin: Double, minimumMarks: Int) -> Double? {
        guard centres.count >= minimumMarks else { return nil }
        let grown = PageChecks.grown(quad, by: margin)
        let inside = centres.filter { grown.contains($0) }.count
        return Double(inside) / Double(centres.count)
    }

    /// The median mark height, in photo pixels (0 without marks).
    var typicalHeight: Double { heights.isEmpty ? 0 : heights.sorted()[heights.count / 2] }

    /// True when the quad reaches an edge of the frame and marks lie along that edge, within the quad's
    /// span of it: the page runs off the frame there and its print is cut. `band` is grown by two
    /// typical mark heights (a line of print just inside the frame, the next one cut off).
    func runsOffFrame(_ quad: Quad, width: Int, height: Int, reach: Double, band: Double, minimumMarks: Int) -> Bool {
        let band = band + 2 * typicalHeight
        let c = quad.corners
        let W = Double(width), H = Double(height)
        let xs = c.map(\.x), ys = c.map(\.y)
        // Each edge: is the quad within `reach` of it, and which marks lie within `band` of it, inside the quad's span.
        let edges: [(reached: Bool, near: (Point) -> Bool)] = [
            (xs.min()! < reach, { $0.x < band && $0.y >= ys.min()! && $0.y <= ys.max()! }),
            (xs.max()! > W - reach, { $0.x > W - band && $0.y >= ys.min()! && $0.y <= ys.max()! }),
            (ys.min()! < reach, { $0.y < band && $0.x >= xs.min()! && $0.x <= xs.max()! }),
            (ys.max()! > H - reach, { $0.y > H - band && $0.x >= xs.min()! && $0.x <= xs.max()! }),
        ]
        for edge in edges where edge.reached {
            if centres.filter(edge.near).count >= minimumMarks { return true }
        }
        return false
    }
}

/// The plausibility checks on a found quad.
enum PageChecks {
    /// The quad with each corner pushed `margin` px away from its centre.
    static func grown(_ quad: Quad, by margin: Double) -> Quad {
        let c = quad.corners
        let cx = c.map(\.x).reduce(0, +) / 4, cy = c.map(\.y).reduce(0, +) / 4
        return Quad(corners: c.map { p in
            let d = max(p.distance(to: Point(x: cx, y: cy)), 1e-9)
            return Point(x: p.x + (p.x - cx) / d * margin, y: p.y + (p.y - cy) / d * margin)
        })!
    }

    /// How far the quad is from a rectangle seen by a camera: the larger ratio of opposite sides
    /// (a rectangle's near and far sides differ by the ratio of their depths), and the stretch of the
    /// flattened output over the quad's own longest sides (the recovered proportions against the
    /// photo's). Both are 1 for a rectangle seen head-on.
    static func distortion(of quad: Quad, aspect: Double) -> (sideRatio: Double, stretch: Double) {
        let c = quad.corners
        let top = c[0].distance(to: c[1]), right = c[1].distance(to: c[2])
        let bottom = c[2].distance(to: c[3]), left = c[3].distance(to: c[0])
        let sideRatio = max(
            max(top, bottom) / max(min(top, bottom), 1e-9), max(left, right) / max(min(left, right), 1e-9))
        let longestWidth = max(top, bottom), longestHeight = max(left, right)
        let height = max(longestHeight, longestWidth / aspect)
        let stretch = max(height * aspect / longestWidth, height / longestHeight)
        return (sideRatio, stretch)
    }
}
