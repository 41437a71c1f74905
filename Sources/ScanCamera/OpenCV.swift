import COpenCVShim
import ScanModel

/// A one-channel 8-bit plane: the working currency of the detector.
struct GrayPlane {
    let width: Int
    let height: Int
    var pixels: [UInt8]

    init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height)
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    subscript(x: Int, y: Int) -> UInt8 { pixels[y * width + x] }
}

/// The safe Swift side of `COpenCVShim`. Each call checks the shim's status and
/// returns nil when OpenCV failed; C types stay in this file.
enum OpenCV {
    /// OpenCV runs on the calling thread: the pipeline already has one worker per core.
    static let singleThreaded: Void = { scx_set_threads(1) }()

    static func resized(_ image: RasterImage, width: Int, height: Int) -> RasterImage? {
        _ = singleThreaded
        var out = [UInt8](repeating: 0, count: width * height * image.channels)
        let status = image.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                scx_resize(src.baseAddress, Int32(image.width), Int32(image.height), Int32(image.channels),
                           dst.baseAddress, Int32(width), Int32(height))
            }
        }
        guard status == 0 else { return nil }
        return RasterImage(width: width, height: height, channels: image.channels, pixels: out)
    }

    /// Applies a one-plane operation `body(src, w, h, dst)` and returns its output, or nil on an error.
    private static func planeOp(_ plane: GrayPlane,
                                _ body: (UnsafePointer<UInt8>?, Int32, Int32, UnsafeMutablePointer<UInt8>?) -> Int32)
        -> (GrayPlane, Int32)? {
        _ = singleThreaded
        var out = [UInt8](repeating: 0, count: plane.pixels.count)
        let status = plane.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                body(src.baseAddress, Int32(plane.width), Int32(plane.height), dst.baseAddress)
            }
        }
        guard status >= 0 else { return nil }
        return (GrayPlane(width: plane.width, height: plane.height, pixels: out), status)
    }

    static func gaussianBlur(_ plane: GrayPlane, kernel: Int) -> GrayPlane? {
        planeOp(plane) { scx_gaussian_blur($0, $1, $2, $3, Int32(kernel), 0) }?.0
    }

    static func canny(_ plane: GrayPlane, low: Double, high: Double) -> GrayPlane? {
        planeOp(plane) { scx_canny($0, $1, $2, $3, low, high) }?.0
    }

    enum Morphology: Int32 { case erode = 0, dilate, open, close }

    static func morphology(_ plane: GrayPlane, _ op: Morphology, kernel: Int, iterations: Int = 1) -> GrayPlane? {
        planeOp(plane) { scx_morphology($0, $1, $2, $3, op.rawValue, Int32(kernel), Int32(iterations)) }?.0
    }

    /// Convex hulls of the outer contours of `mask`, largest first, with their areas.
    static func contourHulls(_ mask: GrayPlane, maxCount: Int, minArea: Double) -> [(points: [Point], area: Double)] {
        _ = singleThreaded
        let maxPoints = 20_000
        var counts = [Int32](repeating: 0, count: maxCount)
        var areas = [Double](repeating: 0, count: maxCount)
        var points = [Float](repeating: 0, count: 2 * maxPoints)
        let n = mask.pixels.withUnsafeBufferPointer { src in
            scx_contour_hulls(src.baseAddress, Int32(mask.width), Int32(mask.height), Int32(maxCount), minArea,
                              &counts, &areas, &points, Int32(maxPoints))
        }
        guard n > 0 else { return [] }
        var out: [(points: [Point], area: Double)] = []
        var offset = 0
        for i in 0..<Int(n) {
            let count = Int(counts[i])
            let hull = (0..<count).map {
                Point(x: Double(points[2 * (offset + $0)]), y: Double(points[2 * (offset + $0) + 1]))
            }
            offset += count
            out.append((hull, areas[i]))
        }
        return out
    }

    /// A dark mark on a lighter ground: its bounding box and pixel count.
    struct Mark {
        var x: Int, y: Int, width: Int, height: Int, pixels: Int
    }

    /// Dark marks narrower than `kernel` px that are at least `minContrast` darker than their
    /// surroundings (black-hat, threshold, 8-connected components).
    static func darkMarks(_ plane: GrayPlane, kernel: Int, minContrast: Int, maxCount: Int = 20_000) -> [Mark]? {
        _ = singleThreaded
        var raw = [Int32](repeating: 0, count: 5 * maxCount)
        let n = plane.pixels.withUnsafeBufferPointer { src in
            scx_dark_marks(src.baseAddress, Int32(plane.width), Int32(plane.height), Int32(kernel), Int32(minContrast),
                           &raw, Int32(maxCount))
        }
        guard n >= 0 else { return nil }
        return (0..<min(Int(n), maxCount)).map {
            Mark(
                x: Int(raw[5 * $0]), y: Int(raw[5 * $0 + 1]), width: Int(raw[5 * $0 + 2]), height: Int(raw[5 * $0 + 3]),
                pixels: Int(raw[5 * $0 + 4]))
        }
    }

    /// Douglas-Peucker simplification of a closed polygon.
    static func approxPolygon(_ polygon: [Point], epsilon: Double) -> [Point] {
        guard polygon.count >= 3 else { return polygon }
        let flat = polygon.flatMap { [Float($0.x), Float($0.y)] }
        var out = [Float](repeating: 0, count: flat.count)
        let n = scx_approx_poly(flat, Int32(polygon.count), epsilon, &out, Int32(polygon.count))
        guard n > 0 else { return polygon }
        return (0..<Int(n)).map { Point(x: Double(out[2 * $0]), y: Double(out[2 * $0 + 1])) }
    }

    /// `image` warped by `matrix` (source pixel centres -> output pixel centres) into `width` × `height`.
    static func warpPerspective(_ image: RasterImage, matrix: Homography, width: Int, height: Int) -> RasterImage? {
        _ = singleThreaded
        var out = [UInt8](repeating: 0, count: width * height * image.channels)
        let status = image.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                scx_warp_perspective(src.baseAddress, Int32(image.width), Int32(image.height), Int32(image.channels),
                                     matrix.m, dst.baseAddress, Int32(width), Int32(height))
            }
        }
        guard status == 0 else { return nil }
        return RasterImage(width: width, height: height, channels: image.channels, pixels: out)
    }

    static func evenLight(_ image: RasterImage, inkSize: Int, shrink: Int) -> RasterImage? {
        _ = singleThreaded
        var out = [UInt8](repeating: 0, count: image.pixels.count)
        let status = image.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                scx_even_light(src.baseAddress, Int32(image.width), Int32(image.height), Int32(image.channels),
                               dst.baseAddress, Int32(inkSize), Int32(shrink))
            }
        }
        guard status == 0 else { return nil }
        return RasterImage(width: image.width, height: image.height, channels: image.channels, pixels: out)
    }
}
