import Foundation
import ScanModel

/// Draws ink the way a pen does, for a line recognizer: black round-capped,
/// round-joined strokes on white, anti-aliased, the ink scaled to a fixed height
/// with padding, jitter smoothed, and the writer's slant taken out.
///
/// Pure geometry and pixels: no engine, so it is tested on its own.
public struct InkRenderer: Sendable, Hashable {
    public struct Settings: Sendable, Hashable {
        /// Height of the rendered image in pixels (the recognizer's input height).
        public var height: Int = 48
        /// Empty rows above and below the ink, as a share of `height`.
        public var verticalPadding: Double = 0.12
        /// Empty columns left and right, as a share of `height`.
        public var horizontalPadding: Double = 0.3
        /// Pen width as a share of the ink's height.
        public var penWidth: Double = 0.065
        /// The image is at least this many heights wide (a lone character is padded, not stretched).
        public var minAspect: Double = 1.5
        /// Points closer than this share of the ink's height to the previous one are merged.
        public var resampleStep: Double = 0.005
        /// Moving-average window (points on each side) applied before resampling.
        public var smoothing: Int = 1
        /// Take the writer's slant out (shear so that down-strokes stand upright).
        public var correctSlant: Bool = true
        /// Ink wider than this many heights is drawn smaller than the full height (long
        /// words keep some room above and below).
        public var shrinkAspect: Double = 4
        /// Only ink at least this many heights wide is deslanted: the lean of a lone
        /// character ("/" against "1") is the character, not the writer's slant.
        public var slantMinAspect: Double = 1.2
        /// Slants are clamped to this (dx per dy).
        public var maxSlant: Double = 0.8
        /// In the ink's units: ink shorter than this is drawn at this height's scale, so
        /// a dot stays small (set from the writing area).
        public var minimumInkHeight: Double? = nil
        /// Widens (> 1) or narrows the ink against its height: more recognizer steps per letter.
        public var horizontalScale: Double = 1
        /// Added to the measured slant before it is taken out (dx per dy; a rendering variant).
        public var slantOffset: Double = 0
        /// Ascenders and descenders reaching further than `zoneReach` core heights beyond the
        /// core zone (where most of a word's ink lies, the x-height band) are drawn scaled by this
        /// there, so that a writer's long loops do not shrink the letters. nil: not.
        /// Only ink at least `slantMinAspect` heights wide (words, not lone characters).
        /// Chosen on generated writers with long loops (`TrainInk words-dump ... --zones 3`,
        /// Tools/train-ink/README.md).
        public var zoneCompression: Double? = 0.35
        public var zoneReach: Double = 1.5
        /// Turn a writing line that rises or falls (up to `maxSkew` degrees) level, when the ink is
        /// then at least `skewMinAspect` heights wide: a lone character's tilt is its shape.
        public var correctSkew: Bool = true
        public var maxSkew: Double = 30
        public var skewMinAspect: Double = 2
        /// The line is turned only when that makes its height profile this many times sharper
        /// (a level word's ascenders and descenders make small spurious angles).
        public var minSkewGain: Double = 1.1
        public init() {}
    }

    public var settings: Settings
    public init(settings: Settings = Settings()) { self.settings = settings }

    /// A 2-D point in rendering space.
    public struct Vec: Sendable, Hashable {
        public var x: Double
        public var y: Double
        public init(_ x: Double, _ y: Double) { self.x = x; self.y = y }
    }

    // MARK: - Geometry

    /// Moving average over `radius` neighbours on each side; the end points stay.
    public static func smooth(_ points: [Vec], radius: Int) -> [Vec] {
        guard radius > 0, points.count > 2 else { return points }
        var out = points
        for i in 1..<(points.count - 1) {
            let lo = max(0, i - radius), hi = min(points.count - 1, i + radius)
            var sx = 0.0, sy = 0.0
            for j in lo...hi { sx += points[j].x; sy += points[j].y }
            let n = Double(hi - lo + 1)
            out[i] = Vec(sx / n, sy / n)
        }
        return out
    }

    /// Points spaced `step` apart along the polyline (the last point kept).
    public static func resample(_ points: [Vec], step: Double) -> [Vec] {
        guard points.count > 1, step > 0 else { return points }
        var out = [points[0]]
        var carry = 0.0
        for i in 1..<points.count {
            let a = points[i - 1], b = points[i]
            let len = hypot(b.x - a.x, b.y - a.y)
            guard len > 0 else { continue }
            var d = step - carry
            while d <= len {
                let f = d / len
                out.append(Vec(a.x + (b.x - a.x) * f, a.y + (b.y - a.y) * f))
                d += step
            }
            carry = len - (d - step)
        }
        if let last = points.last, out.last != last { out.append(last) }
        return out
    }

    /// The writer's slant as dx per dy (positive leans right, y down): the
    /// length-weighted mean direction of the near-vertical pieces of the strokes.
    public static func slant(_ strokes: [[Vec]]) -> Double {
        var sum = 0.0, weight = 0.0
        for s in strokes where s.count > 1 {
            for i in 1..<s.count {
                var dx = s[i].x - s[i - 1].x, dy = s[i].y - s[i - 1].y
                if dy < 0 { dx = -dx; dy = -dy }   // direction, not sense
                // Pieces within 45° of vertical.
                guard dy > 0, abs(dx) < dy else { continue }
                let len = hypot(dx, dy)
                // Weigh long, steep pieces most (a down-stroke, not a curve's end).
                let w = len * len
                sum += w * (dx / dy)
                weight += w
            }
        }
        return weight > 0 ? sum / weight : 0
    }

    /// The strokes' bounding box (infinite bounds when there is no point).
    static func bounds(_ strokes: [[Vec]]) -> (minX: Double, maxX: Double, minY: Double, maxY: Double) {
        var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity
        for p in strokes.joined() {
            minX = min(minX, p.x); maxX = max(maxX, p.x)
            minY = min(minY, p.y); maxY = max(maxY, p.y)
        }
        return (minX, maxX, minY, maxY)
    }

    /// The angle (radians; positive when the line rises to the right, y down) that turns the
    /// writing line level: the whole degree within ±`maxDegrees` whose turned heights give the
    /// sharpest profile (the largest sum of squared counts in bins of `binHeight`), as page
    /// deskewing does; 0 unless that profile is `minGain` times as sharp as the level one.
    static func skew(_ strokes: [[Vec]], maxDegrees: Double, binHeight: Double, minGain: Double = 1) -> Double {
        let points = Array(strokes.joined())
        guard binHeight > 0, let first = points.first else { return 0 }
        // Heights are measured from the first point; none is further from it than `reach`.
        let reach = points.reduce(0.0) { max($0, hypot($1.x - first.x, $1.y - first.y)) }
        var bins = [Double](repeating: 0, count: Int(2 * reach / binHeight) + 2)
        func sharpness(_ degrees: Int) -> Double {
            let a = Double(degrees) * .pi / 180, c = cos(a), sn = sin(a)
            for i in bins.indices { bins[i] = 0 }
            for p in points {
                let h = (p.x - first.x) * sn + (p.y - first.y) * c
                bins[min(bins.count - 1, max(0, Int((h + reach) / binHeight)))] += 1
            }
            return bins.reduce(0) { $0 + $1 * $1 }
        }
        let limit = max(0, Int(maxDegrees))
        let level = sharpness(0)
        var best = 0, bestSharpness = level
        for d in -limit...limit where d != 0 {
            let v = sharpness(d)
            if v > bestSharpness { best = d; bestSharpness = v }
        }
        return bestSharpness >= minGain * level ? Double(best) * .pi / 180 : 0
    }

    /// The band of heights where most of the ink lies (a word's x-height band): the rows whose
    /// ink density, in 50 bins over the ink's height and smoothed over three, is at least half
    /// the densest. The points are taken as equally spaced along the strokes (resampled).
    static func coreZone(_ strokes: [[Vec]]) -> ClosedRange<Double>? {
        let (_, _, minY, maxY) = bounds(strokes)
        guard maxY > minY else { return nil }
        let bins = 50
        var count = [Double](repeating: 0, count: bins)
        for st in strokes {
            for p in st { count[min(bins - 1, Int((p.y - minY) / (maxY - minY) * Double(bins)))] += 1 }
        }
        let smooth = (0..<bins).map { i in (max(0, i - 1)...min(bins - 1, i + 1)).reduce(0.0) { $0 + count[$1] } }
        guard let peak = smooth.max(), peak > 0 else { return nil }
        let dense = smooth.indices.filter { smooth[$0] >= peak / 2 }
        let binHeight = (maxY - minY) / Double(bins)
        return (minY + Double(dense.first!) * binHeight)...(minY + Double(dense.last! + 1) * binHeight)
    }

    /// The strokes in rendering space: smoothed, slant-corrected, scaled so that the
    /// ink's height fills the image between the paddings, and resampled.
    /// Returns the strokes and the image width.
    public func layout(_ ink: Ink) -> (strokes: [[Vec]], width: Int, penRadius: Double) {
        let s = settings
        var strokes: [[Vec]] = ink.strokes.map { $0.points.map { Vec($0.x, $0.y) } }.filter { !$0.isEmpty }
        guard let b = ink.bounds else { return ([], Int(Double(s.height) * s.minAspect), 1) }
        let inkHeight = max(b.maxY - b.minY, (b.maxX - b.minX) * 0.1, 1e-6)
        // Jitter is measured against the ink's size, so smoothing and resampling use it.
        strokes = strokes.map { Self.smooth(Self.resample($0, step: inkHeight * s.resampleStep), radius: s.smoothing) }
        // The ink's extent, as drawn so far (levelling changes it).
        var span = (x: b.maxX - b.minX, y: b.maxY - b.minY)
        // A sloping line is looked for on ink wider than high (a word turned 30° still is), and
        // levelled when it is then `skewMinAspect` heights wide.
        if s.correctSkew, span.x >= span.y {
            let angle = Self.skew(strokes, maxDegrees: s.maxSkew, binHeight: inkHeight / 25, minGain: s.minSkewGain)
            if angle != 0 {
                let c = cos(angle), sn = sin(angle), cx = (b.minX + b.maxX) / 2, cy = (b.minY + b.maxY) / 2
                let turned = strokes.map { $0.map { p in
                    let x = p.x - cx, y = p.y - cy
                    return Vec(cx + x * c - y * sn, cy + x * sn + y * c)
                } }
                let level = Self.bounds(turned)
                let levelSpan = (x: level.maxX - level.minX, y: level.maxY - level.minY)
                if levelSpan.x >= s.skewMinAspect * levelSpan.y { strokes = turned; span = levelSpan }
            }
        }
        if s.correctSlant, span.x >= s.slantMinAspect * span.y {
            let k = min(max(Self.slant(strokes) + s.slantOffset, -s.maxSlant), s.maxSlant)
            let cy = (b.minY + b.maxY) / 2
            strokes = strokes.map { $0.map { Vec($0.x - k * ($0.y - cy), $0.y) } }
        }
        if let ratio = s.zoneCompression, span.x >= s.slantMinAspect * span.y,
           let core = Self.coreZone(strokes) {
            let reach = s.zoneReach * (core.upperBound - core.lowerBound)
            let top = core.lowerBound - reach, bottom = core.upperBound + reach
            strokes = strokes.map { $0.map { p in
                if p.y < top { return Vec(p.x, top - (top - p.y) * ratio) }
                if p.y > bottom { return Vec(p.x, bottom + (p.y - bottom) * ratio) }
                return p
            } }
        }
        let (minX, maxX, minY, maxY) = Self.bounds(strokes)
        let h = Double(s.height)
        let pad = h * s.verticalPadding
        let contentHeight = h - 2 * pad
        let spanY = max(maxY - minY, 1e-6)
        // A flat, straight mark (a dash) is drawn as wide as the line is high, not
        // stretched to fill the height; a wide word (its path much longer than its
        // width) is not a mark.
        let spanX = maxX - minX
        let isMark = Self.isFlatMark(strokes, spanX: spanX, spanY: spanY)
        let reference = max(spanY, s.minimumInkHeight ?? 0, isMark ? spanX : spanX / s.shrinkAspect)
        let yScale = contentHeight / reference
        let scale = yScale * s.horizontalScale
        let penRadius = max(0.6, s.penWidth * contentHeight / 2)
        let xPad = h * s.horizontalPadding
        let contentWidth = (maxX - minX) * scale
        let width = Int(max(h * s.minAspect, contentWidth + 2 * xPad).rounded(.up))
        let x0 = (Double(width) - contentWidth) / 2
        let y0 = pad + (contentHeight - (maxY - minY) * yScale) / 2
        let placed = strokes.map { $0.map { Vec(x0 + ($0.x - minX) * scale, y0 + ($0.y - minY) * yScale) } }
        return (placed, width, penRadius)
    }

    /// A flat, straight mark (a dash, "="): every stroke straight (its path at most 30% longer than
    /// the line between its ends) and flat (less than half as high as wide), the whole much wider
    /// than high (one stroke) or at least wider than high (several: the bars of "="), and its path
    /// hardly longer than its width per stroke. A word written with wide gaps between sparse
    /// letters can be as flat and its path as short, but its strokes are curves.
    static func isFlatMark(_ strokes: [[Vec]], spanX: Double, spanY: Double) -> Bool {
        var pathLength = 0.0, count = 0
        for st in strokes {
            guard let first = st.first, let last = st.last else { continue }
            let length = zip(st, st.dropFirst()).reduce(0.0) { $0 + hypot($1.1.x - $1.0.x, $1.1.y - $1.0.y) }
            if length > 1.3 * hypot(last.x - first.x, last.y - first.y) { return false }
            if abs(last.y - first.y) >= 0.5 * abs(last.x - first.x) { return false }
            pathLength += length
            count += 1
        }
        // Bars one above the other ("=") may stand further apart than a dash is high.
        return spanY < (count >= 2 ? 1 : 0.5) * spanX && pathLength < 1.6 * spanX * Double(max(1, count))
    }

    public static func isFlatMark(_ ink: Ink) -> Bool {
        guard let b = ink.bounds else { return false }
        let strokes = ink.strokes.map { $0.points.map { Vec($0.x, $0.y) } }
        return isFlatMark(strokes, spanX: b.maxX - b.minX, spanY: b.maxY - b.minY)
    }

    /// When the ink is one straight stroke (its path at most 10% longer than the line
    /// between its ends, and taller than wide): its lean (|dx/dy|) and whether it rises
    /// to the right like "/" (y down).
    public static func straightStroke(_ ink: Ink) -> (lean: Double, rising: Bool)? {
        guard ink.strokes.count == 1, let p = ink.strokes.first?.points, p.count >= 2 else { return nil }
        let dx = p[p.count - 1].x - p[0].x, dy = p[p.count - 1].y - p[0].y
        let chord = hypot(dx, dy)
        guard chord > 0, abs(dy) > 0 else { return nil }
        let length = zip(p, p.dropFirst()).reduce(0.0) { $0 + hypot($1.1.x - $1.0.x, $1.1.y - $1.0.y) }
        guard length <= 1.1 * chord, abs(dy) >= 0.4 * abs(dx) else { return nil }
        return (abs(dx) / abs(dy), dx * dy < 0)
    }

    // MARK: - Pixels

    /// The ink as an 8-bit gray image, black on white.
    public func render(_ ink: Ink) -> RasterImage {
        let (strokes, width, radius) = layout(ink)
        return Self.rasterize(strokes, width: width, height: settings.height, radius: radius)
    }

    /// Draws polylines with round caps and joins: each pixel's ink is its coverage by
    /// the nearest segment's disc-swept band, with a one-pixel linear edge (anti-aliasing).
    public static func rasterize(_ strokes: [[Vec]], width: Int, height: Int, radius: Double) -> RasterImage {
        var ink = [Float](repeating: 0, count: width * height)
        // A pixel index from a coordinate, clamped first: converting a value beyond Int's range (or NaN) traps.
        func pixel(_ v: Double, _ limit: Int) -> Int {
            v.isNaN ? -1 : Int(min(max(v, -1), Double(limit)))
        }
        func segment(_ a: Vec, _ b: Vec) {
            let x0 = max(0, pixel((min(a.x, b.x) - radius - 1).rounded(.down), width))
            let x1 = min(width - 1, pixel((max(a.x, b.x) + radius + 1).rounded(.up), width))
            let y0 = max(0, pixel((min(a.y, b.y) - radius - 1).rounded(.down), height))
            let y1 = min(height - 1, pixel((max(a.y, b.y) + radius + 1).rounded(.up), height))
            guard x0 <= x1, y0 <= y1 else { return }
            let dx = b.x - a.x, dy = b.y - a.y
            let len2 = dx * dx + dy * dy
            for py in y0...y1 {
                let cy = Double(py) + 0.5
                for px in x0...x1 {
                    let cx = Double(px) + 0.5
                    var f = len2 > 0 ? ((cx - a.x) * dx + (cy - a.y) * dy) / len2 : 0
                    f = min(max(f, 0), 1)
                    let ex = cx - (a.x + f * dx), ey = cy - (a.y + f * dy)
                    let d = (ex * ex + ey * ey).squareRoot()
                    let cover = Float(min(max(radius + 0.5 - d, 0), 1))
                    let i = py * width + px
                    if cover > ink[i] { ink[i] = cover }
                }
            }
        }
        for s in strokes {
            if s.count == 1 { segment(s[0], s[0]) }
            for i in stride(from: 1, to: s.count, by: 1) { segment(s[i - 1], s[i]) }
        }
        let pixels = ink.map { UInt8((255 * (1 - $0)).rounded()) }
        return RasterImage(width: width, height: height, channels: 1, pixels: pixels)
    }
}
