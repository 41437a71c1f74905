/// Turns a DB (Differentiable Binarization) text probability map into text-line
/// quadrilaterals: threshold, 2x2 dilation, 8-connected regions, minimum-area
/// rectangles scored by the mean probability inside, grown by the unclip ratio,
/// and scaled to the page.
struct DBPostProcessor: Sendable {
    /// A pixel is text when its probability exceeds this.
    var threshold: Float = 0.3
    /// A region is kept when the mean probability inside its rectangle reaches this.
    var boxThreshold: Double = 0.5
    /// How far regions are grown back (DB shrinks text when training).
    var unclipRatio: Double = 1.6
    /// Higher levels a region failing `boxThreshold` is cut again at (`rescued`); empty: none.
    var rescueLevels: [Float] = [0.5, 0.7]
    /// A part found by `rescued` is kept when it is at least this many times as long as it is
    /// high: a line of several characters. The specks, single numerals and stamp lettering that
    /// the second cut also finds are squarer.
    var rescuedMinElongation: Double = 3
    var maxCandidates = 1000
    /// Regions whose rectangle's short side is below this (in map pixels) are noise.
    var minSize: Double = 3
    var dilate = true

    struct Detection: Sendable {
        var quad: Quad
        var score: Double
    }

    /// - Parameters:
    ///   - map: probabilities, row-major, `width` x `height`.
    ///   - pageWidth, pageHeight: the size of the image the map was computed for;
    ///     quads come back in its pixels.
    func detect(map: UnsafeBufferPointer<Float>, width: Int, height: Int,
                pageWidth: Int, pageHeight: Int) -> [Detection] {
        precondition(map.count >= width * height)
        // Threshold, then dilate.
        var mask = [UInt8](repeating: 0, count: width * height)
        mask.withUnsafeMutableBufferPointer { m in
            for i in 0..<(width * height) where map[i] > threshold { m[i] = 1 }
        }
        if dilate { Self.dilate(&mask, width: width, height: height) }
        var labels: [Int32] = []
        let regions = Self.regions(mask: mask, width: width, height: height, labels: &labels)
        let frame = Frame(width: width, height: height, pageWidth: pageWidth, pageHeight: pageHeight)

        var out: [Detection] = []
        for (id, points) in regions.prefix(maxCandidates).enumerated() {
            guard let (rect, score) = scoredRectangle(points, map: map, frame: frame) else { continue }
            if score >= boxThreshold {
                if let d = detection(rect, score: score, frame: frame) { out.append(d) }
            } else {
                out += rescued(region: Int32(id), points: points, labels: labels, map: map, frame: frame)
            }
        }
        return Self.readingOrder(out)
    }

    /// The map's size and the page's, for scaling quads.
    struct Frame {
        var width: Int, height: Int, pageWidth: Int, pageHeight: Int
    }

    /// The minimum-area rectangle of a region's points, when its short side reaches `minSize`, with
    /// the map's mean inside it.
    func scoredRectangle(_ points: [Point2D], map: UnsafeBufferPointer<Float>,
                         frame: Frame) -> (rect: RotatedRect, score: Double)? {
        guard let rect = Geometry2D.minimumAreaRectangle(points), rect.shortSide >= minSize else { return nil }
        return (rect, Self.meanInside(quad: Geometry2D.orderCorners(rect.corners), map: map,
                                      width: frame.width, height: frame.height))
    }

    /// The detection of `rect`, whose mean map value `score` passed `boxThreshold`: grown by
    /// the unclip ratio, scaled to the page, rounded and clamped to it; nil when it is too small.
    func detection(_ rect: RotatedRect, score: Double, frame: Frame) -> Detection? {
        let grown = rect.unclipped(ratio: unclipRatio)
        guard grown.shortSide >= minSize + 2 else { return nil }
        let sx = Double(frame.pageWidth) / Double(frame.width), sy = Double(frame.pageHeight) / Double(frame.height)
        let scaled = grown.corners.map { p in
            Point2D(min(max((p.x * sx).rounded(), 0), Double(frame.pageWidth - 1)),
                    min(max((p.y * sy).rounded(), 0), Double(frame.pageHeight - 1)))
        }
        let q = Geometry2D.orderCorners(scaled)
        let w = Int(q.topLeft.distance(to: q.topRight)), h = Int(q.topLeft.distance(to: q.bottomLeft))
        guard w > 3, h > 3 else { return nil }
        return Detection(quad: q, score: score)
    }

    /// The lines inside a region whose rectangle failed `boxThreshold`. A printed line that
    /// touches a stamp, a signature or handwriting joins it in one region at `threshold`; the
    /// rectangle around the joined shape is mostly background and fails, and the line would be
    /// lost. The region's own pixels are cut again at each of `rescueLevels` in turn (the
    /// print's core is surer than the ink around it), and the first level that gives line-shaped
    /// regions (`rescuedMinElongation`) passing `boxThreshold` gives the region's detections.
    func rescued(region id: Int32, points: [Point2D], labels: [Int32], map: UnsafeBufferPointer<Float>,
                 frame: Frame) -> [Detection] {
        guard !rescueLevels.isEmpty, let first = points.first else { return [] }
        var (x0, x1, y0, y1) = (Int(first.x), Int(first.x), Int(first.y), Int(first.y))
        for p in points.dropFirst() {
            x0 = min(x0, Int(p.x)); x1 = max(x1, Int(p.x)); y0 = min(y0, Int(p.y)); y1 = max(y1, Int(p.y))
        }
        let w = x1 - x0 + 1, h = y1 - y0 + 1
        guard w >= 2, h >= 2 else { return [] }
        for level in rescueLevels where level > threshold {
            var mask = [UInt8](repeating: 0, count: w * h)
            for y in 0..<h {
                for x in 0..<w {
                    let i = (y + y0) * frame.width + (x + x0)
                    if labels[i] == id && map[i] > level { mask[y * w + x] = 1 }
                }
            }
            if dilate { Self.dilate(&mask, width: w, height: h) }
            var subLabels: [Int32] = []
            let parts = Self.regions(mask: mask, width: w, height: h, labels: &subLabels)
            var found: [Detection] = []
            for part in parts {
                let shifted = part.map { Point2D($0.x + Double(x0), $0.y + Double(y0)) }
                guard let (rect, score) = scoredRectangle(shifted, map: map, frame: frame),
                      rect.longSide >= rescuedMinElongation * rect.shortSide, score >= boxThreshold,
                      let d = detection(rect, score: score, frame: frame) else { continue }
                found.append(d)
            }
            if !found.isEmpty { return found }
        }
        return []
    }

    /// Dilates a 0/1 mask with a 2x2 kernel: each pixel takes the max of itself and its left,
    /// upper and upper-left neighbours (dilated pixels are marked 2 so that they do not spread).
    static func dilate(_ mask: inout [UInt8], width: Int, height: Int) {
        mask.withUnsafeMutableBufferPointer { m in
            for y in stride(from: height - 1, through: 0, by: -1) {
                for x in stride(from: width - 1, through: 0, by: -1) {
                    let i = y * width + x
                    if m[i] != 0 { continue }
                    if (x > 0 && m[i - 1] == 1) || (y > 0 && m[i - width] == 1)
                        || (x > 0 && y > 0 && m[i - width - 1] == 1)
                    {
                        m[i] = 2
                    }
                }
            }
        }
    }

    /// 8-connected regions of non-zero mask pixels, each given by the left-most and
    /// right-most pixel of every row it spans (enough for its convex hull), in the
    /// order of their first pixel (row-major).
    /// `labels` comes back with each pixel's region index (-1 for background).
    static func regions(mask: [UInt8], width: Int, height: Int, labels: inout [Int32]) -> [[Point2D]] {
        var label = [Int32](repeating: -1, count: width * height)
        defer { labels = label }
        var result: [[Point2D]] = []
        var stack: [Int] = []
        var rowMin = [Int](repeating: Int.max, count: height), rowMax = [Int](repeating: -1, count: height)
        var touched: [Int] = []
        mask.withUnsafeBufferPointer { m in
            label.withUnsafeMutableBufferPointer { lab in
                for start in 0..<(width * height) where m[start] != 0 && lab[start] < 0 {
                    let id = Int32(result.count)
                    lab[start] = id
                    stack.append(start)
                    while let i = stack.popLast() {
                        let x = i % width, y = i / width
                        if rowMax[y] < 0 { touched.append(y) }
                        if x < rowMin[y] { rowMin[y] = x }
                        if x > rowMax[y] { rowMax[y] = x }
                        for dy in -1...1 {
                            let ny = y + dy
                            guard ny >= 0 && ny < height else { continue }
                            for dx in -1...1 {
                                let nx = x + dx
                                guard nx >= 0 && nx < width, dx != 0 || dy != 0 else { continue }
                                let j = ny * width + nx
                                if m[j] != 0 && lab[j] < 0 { lab[j] = id; stack.append(j) }
                            }
                        }
                    }
                    var pts: [Point2D] = []
                    pts.reserveCapacity(touched.count * 2)
                    for y in touched {
                        let x0 = rowMin[y], x1 = rowMax[y]
                        pts.append(Point2D(Double(x0), Double(y)))
                        if x1 != x0 { pts.append(Point2D(Double(x1), Double(y))) }
                        rowMin[y] = Int.max; rowMax[y] = -1
                    }
                    touched.removeAll(keepingCapacity: true)
                    result.append(pts)
                }
            }
        }
        return result
    }

    /// Mean of `map` over the pixels whose centres lie in the (convex) quad, whose
    /// corners are first truncated to whole pixels, boundary included.
    static func meanInside(quad: Quad, map: UnsafeBufferPointer<Float>, width: Int, height: Int) -> Double {
        let pts = quad.points.map { Point2D(Double(Int($0.x)), Double(Int($0.y))) }
        let bb = quad.boundingBox
        let x0 = min(max(Int(bb.minX.rounded(.down)), 0), width - 1),
            x1 = min(max(Int(bb.maxX.rounded(.up)), 0), width - 1)
        let y0 = min(max(Int(bb.minY.rounded(.down)), 0), height - 1),
            y1 = min(max(Int(bb.maxY.rounded(.up)), 0), height - 1)
        // Orientation-independent convex test: all edge cross products share a sign.
        var sum = 0.0, count = 0
        for y in y0...y1 {
            for x in x0...x1 {
                let px = Double(x), py = Double(y)
                var pos = false, neg = false
                for k in 0..<4 {
                    let a = pts[k], b = pts[(k + 1) % 4]
                    let c = (b.x - a.x) * (py - a.y) - (b.y - a.y) * (px - a.x)
                    if c > 1e-9 { pos = true } else if c < -1e-9 { neg = true }
                }
                if !(pos && neg) { sum += Double(map[y * width + x]); count += 1 }
            }
        }
        return count > 0 ? sum / Double(count) : 0
    }

    /// Top-to-bottom, then left-to-right among boxes whose tops are within 10 px of
    /// the previous one (RapidOCR's line grouping).
    static func readingOrder(_ detections: [Detection]) -> [Detection] {
        let byY = detections.enumerated().sorted {
            $0.element.quad.topLeft.y != $1.element.quad.topLeft.y
                ? $0.element.quad.topLeft.y < $1.element.quad.topLeft.y : $0.offset < $1.offset
        }.map(\.element)
        var line = 0
        var keyed: [(line: Int, x: Double, index: Int, d: Detection)] = []
        for (i, d) in byY.enumerated() {
            if i > 0 && d.quad.topLeft.y - byY[i - 1].quad.topLeft.y >= 10 { line += 1 }
            keyed.append((line, d.quad.topLeft.x, i, d))
        }
        return keyed.sorted { ($0.line, $0.x, $0.index) < ($1.line, $1.x, $1.index) }.map(\.d)
    }
}
