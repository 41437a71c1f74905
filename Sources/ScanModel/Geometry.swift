/// An axis-aligned rectangle in **page pixels with a top-left origin**: `x` grows
/// to the right and `y` grows downwards, as in the page's own raster. Every box
/// in a `Document` uses this space; the page gives its `width` and `height`.
public struct BoundingBox: Codable, Hashable, Sendable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var minX: Double { x }
    public var minY: Double { y }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
    public var midX: Double { x + width / 2 }
    public var midY: Double { y + height / 2 }
    public var area: Double { max(0, width) * max(0, height) }

    /// The smallest box that holds both.
    public func union(_ other: BoundingBox) -> BoundingBox {
        let x0 = min(minX, other.minX), y0 = min(minY, other.minY)
        let x1 = max(maxX, other.maxX), y1 = max(maxY, other.maxY)
        return BoundingBox(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The overlap, or nil when the boxes do not meet.
    public func intersection(_ other: BoundingBox) -> BoundingBox? {
        let x0 = max(minX, other.minX), y0 = max(minY, other.minY)
        let x1 = min(maxX, other.maxX), y1 = min(maxY, other.maxY)
        guard x1 > x0, y1 > y0 else { return nil }
        return BoundingBox(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// How far the two boxes overlap across, in x (negative: the gap between them).
    public func horizontalOverlap(_ other: BoundingBox) -> Double { min(maxX, other.maxX) - max(minX, other.minX) }

    /// The same box moved by `(dx, dy)`.
    public func offsetBy(dx: Double, dy: Double) -> BoundingBox {
        BoundingBox(x: x + dx, y: y + dy, width: width, height: height)
    }

    /// The same box with every coordinate multiplied by `factor`.
    public func scaled(by factor: Double) -> BoundingBox {
        BoundingBox(x: x * factor, y: y * factor, width: width * factor, height: height * factor)
    }

    /// The box of a set of boxes, or nil for none.
    public static func enclosing<S: Sequence>(_ boxes: S) -> BoundingBox? where S.Element == BoundingBox {
        var it = boxes.makeIterator()
        guard var acc = it.next() else { return nil }
        while let b = it.next() { acc = acc.union(b) }
        return acc
    }

    /// Rounds coordinates to 0.1 px, so JSON output stays short and stable.
    public func rounded() -> BoundingBox {
        func r(_ v: Double) -> Double { (v * 10).rounded() / 10 }
        return BoundingBox(x: r(x), y: r(y), width: r(width), height: r(height))
    }
}
