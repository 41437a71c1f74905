import ScanModel

/// How tall a page's characters are, read from its pixels alone (no model): the median
/// height of the dark blobs that have a character's shape, after a threshold against each
/// pixel's neighbourhood. The detector's input can then be sized to the text rather than to
/// the page: a receipt scanned at 300 dpi has characters four times taller than the detector
/// needs, and the detector's cost grows with its input's pixels.
///
/// The estimate leans low, which only costs time: specks, dotted backgrounds and a photo's
/// texture add small blobs; touching characters, rules and pictures are not counted. Its
/// thresholds are set by hand (a 31 px neighbourhood, 15% and 12 levels darker, the shape
/// limits below): it is used only when asked (`PPOCRRecognizer.Settings.detectionGlyphHeight`).
public enum GlyphHeight {
    public struct Estimate: Sendable, Hashable {
        /// Median blob height, in the page's pixels.
        public var height: Double
        /// How many blobs were counted.
        public var count: Int
    }

    /// The estimate for `image` (gray or colour), or nil when fewer than `minCount` blobs
    /// look like characters. The page is first box-averaged down by a whole factor so that
    /// its long side is at most `workingSide`.
    public static func estimate(_ image: RasterImage, workingSide: Int = 1600, minCount: Int = 20) -> Estimate? {
        guard image.width >= 8, image.height >= 8 else { return nil }
        let factor = max(1, (max(image.width, image.height) + workingSide - 1) / workingSide)
        let gray = reducedGray(image, factor: factor)
        let ink = darkerThanSurroundings(gray.pixels, width: gray.width, height: gray.height)
        let boxes = blobBoxes(ink, width: gray.width, height: gray.height)
        var heights: [Int] = []
        heights.reserveCapacity(boxes.count)
        for b in boxes where isGlyphShaped(width: b.width, height: b.height, pageHeight: gray.height) {
            heights.append(b.height)
        }
        guard heights.count >= minCount else { return nil }
        heights.sort()
        return Estimate(height: Double(heights[heights.count / 2] * factor), count: heights.count)
    }

    /// Character-shaped: at least 3 pixels high, at most an eighth of the page, and no wider
    /// than four times its height (a word's letters that touch, a rule or a frame are not).
    static func isGlyphShaped(width: Int, height: Int, pageHeight: Int) -> Bool {
        height >= 3 && height * 8 <= pageHeight && width <= 4 * height
    }

    /// The luma of `image` averaged over `factor` x `factor` blocks.
    static func reducedGray(_ image: RasterImage, factor: Int) -> (pixels: [UInt8], width: Int, height: Int) {
        let w = image.width / factor, h = image.height / factor
        var out = [UInt8](repeating: 0, count: w * h)
        let channels = image.channels, area = factor * factor
        image.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<h {
                    for x in 0..<w {
                        var sum = 0
                        for dy in 0..<factor {
                            var at = ((y * factor + dy) * image.width + x * factor) * channels
                            for _ in 0..<factor {
                                if channels >= 3 {
                                    sum += (299 * Int(src[at]) + 587 * Int(src[at + 1]) + 114 * Int(src[at + 2])) / 1000
                                } else {
                                    sum += Int(src[at])
                                }
                                at += channels
                            }
                        }
                        dst[y * w + x] = UInt8(sum / area)
                    }
                }
            }
        }
        return (out, w, h)
    }

    /// Pixels darker than the mean of their (2·radius+1)² neighbourhood by at least
    /// `relative` of it and by `absolute` levels (so that flat paper's noise is not ink).
    static func darkerThanSurroundings(_ gray: [UInt8], width w: Int, height h: Int, radius: Int = 15,
                                       relative: Int = 15, absolute: Int = 12) -> [Bool] {
        // Integral image with a zero row and column in front.
        let iw = w + 1
        var integral = [Int](repeating: 0, count: iw * (h + 1))
        for y in 0..<h {
            var row = 0
            for x in 0..<w {
                row += Int(gray[y * w + x])
                integral[(y + 1) * iw + x + 1] = integral[y * iw + x + 1] + row
            }
        }
        var ink = [Bool](repeating: false, count: w * h)
        for y in 0..<h {
            let y0 = max(0, y - radius), y1 = min(h, y + radius + 1)
            for x in 0..<w {
                let x0 = max(0, x - radius), x1 = min(w, x + radius + 1)
                let sum =
                    integral[y1 * iw + x1] - integral[y0 * iw + x1] - integral[y1 * iw + x0] + integral[y0 * iw + x0]
                let n = (y1 - y0) * (x1 - x0)
                let v = Int(gray[y * w + x]) * n
                // v < mean·(1 - relative/100) and mean - v > absolute, in sums over n pixels.
                if v * 100 < sum * (100 - relative) && sum - v > absolute * n { ink[y * w + x] = true }
            }
        }
        return ink
    }

    struct Box {
        var minX: Int, minY: Int, maxX: Int, maxY: Int
        var width: Int { maxX - minX + 1 }
        var height: Int { maxY - minY + 1 }

        mutating func cover(_ other: Box) {
            minX = min(minX, other.minX); maxX = max(maxX, other.maxX)
            minY = min(minY, other.minY); maxY = max(maxY, other.maxY)
        }
    }

    /// A row's stretch of ink from `first` to `last` (columns, inclusive), and its blob's label.
    private struct Stretch { var first: Int, last: Int, label: Int }

    /// Bounding boxes of the 8-connected blobs of `ink`. Each row's stretches of ink get a label;
    /// a stretch that touches one of the row above (sharing a column, or meeting it at a corner)
    /// joins that label's set, and every set keeps the box around all its stretches.
    static func blobBoxes(_ ink: [Bool], width: Int, height: Int) -> [Box] {
        var leader: [Int] = []  // union-find: each label's parent, the set's leader at the top
        var boxes: [Box] = []   // each leader's box
        func leaderOf(_ label: Int) -> Int {
            var label = label
            while leader[label] != label {
                leader[label] = leader[leader[label]]
                label = leader[label]
            }
            return label
        }
        var above: [Stretch] = [], here: [Stretch] = []
        for y in 0..<height {
            here.removeAll(keepingCapacity: true)
            let row = y * width
            var firstTouching = 0  // stretches of the row above that end left of this one cannot touch later ones
            var x = 0
            while x < width {
                if !ink[row + x] { x += 1; continue }
                let first = x
                while x < width && ink[row + x] { x += 1 }
                let stretch = Stretch(first: first, last: x - 1, label: leader.count)
                leader.append(stretch.label)
                boxes.append(Box(minX: stretch.first, minY: y, maxX: stretch.last, maxY: y))
                while firstTouching < above.count && above[firstTouching].last < stretch.first - 1 {
                    firstTouching += 1
                }
                for other in above[firstTouching...] {
                    if other.first > stretch.last + 1 { break }
                    let kept = leaderOf(other.label), joined = leaderOf(stretch.label)
                    if kept != joined {
                        leader[joined] = kept
                        boxes[kept].cover(boxes[joined])
                    }
                }
                here.append(stretch)
            }
            swap(&above, &here)
        }
        return leader.indices.filter { leader[$0] == $0 }.map { boxes[$0] }
    }
}
