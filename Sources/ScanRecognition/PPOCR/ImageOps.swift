import ScanModel

/// Pixel work for PP-OCR: resizing into normalized tensors, perspective crops and
/// rotations. Images are 8-bit RGB `RasterImage`s; tensors are float NCHW in the
/// BGR channel order the Paddle models were trained with, scaled to [-1, 1]
/// (mean 0.5, std 0.5).
enum ImageOps {
    /// The same image with three channels.
    static func rgb(_ image: RasterImage) -> RasterImage {
        if image.channels == 3 { return image }
        var out = [UInt8](repeating: 0, count: image.width * image.height * 3)
        image.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for i in 0..<(image.width * image.height) {
                    let v = src[i]
                    dst[3 * i] = v; dst[3 * i + 1] = v; dst[3 * i + 2] = v
                }
            }
        }
        return RasterImage(width: image.width, height: image.height, channels: 3, pixels: out)
    }

    /// Precomputed bilinear taps for one axis (half-pixel centres, edges clamped),
    /// as OpenCV's INTER_LINEAR does.
    private static func taps(source: Int, destination: Int) -> (i0: [Int32], i1: [Int32], w1: [Float]) {
        let scale = Double(source) / Double(destination)
        var i0 = [Int32](repeating: 0, count: destination), i1 = i0
        var w1 = [Float](repeating: 0, count: destination)
        for d in 0..<destination {
            var s = (Double(d) + 0.5) * scale - 0.5
            if s < 0 { s = 0 }
            var lo = Int(s)
            if lo > source - 1 { lo = source - 1 }
            let hi = min(lo + 1, source - 1)
            i0[d] = Int32(lo); i1[d] = Int32(hi); w1[d] = Float(s - Double(lo))
        }
        return (i0, i1, w1)
    }

    /// Resizes an RGB image to `width` x `height` (bilinear) and writes it, normalized
    /// and in BGR planes, into `tensor` starting at `offset`. The tensor's row stride
    /// is `stride` (>= width); pixels right of `width` are left untouched.
    static func writeNormalized(_ image: RasterImage, width: Int, height: Int, stride: Int,
                                into tensor: inout [Float], offset: Int) {
        precondition(image.channels == 3)
        let xs = taps(source: image.width, destination: width)
        let ys = taps(source: image.height, destination: height)
        let plane = stride * height
        let srcStride = image.width * 3
        image.pixels.withUnsafeBufferPointer { src in
            tensor.withUnsafeMutableBufferPointer { dst in
                xs.i0.withUnsafeBufferPointer { x0 in
                xs.i1.withUnsafeBufferPointer { x1 in
                xs.w1.withUnsafeBufferPointer { xw in
                    for y in 0..<height {
                        let r0 = Int(ys.i0[y]) * srcStride, r1 = Int(ys.i1[y]) * srcStride
                        let wy = ys.w1[y], wy0 = 1 - wy
                        let rowBase = offset + y * stride
                        for x in 0..<width {
                            let a = Int(x0[x]) * 3, b = Int(x1[x]) * 3
                            let wx = xw[x], wx0 = 1 - wx
                            for ch in 0..<3 {
                                let top = Float(src[r0 + a + ch]) * wx0 + Float(src[r0 + b + ch]) * wx
                                let bottom = Float(src[r1 + a + ch]) * wx0 + Float(src[r1 + b + ch]) * wx
                                let v = top * wy0 + bottom * wy
                                // RGB -> BGR planes; (v/255 - 0.5) / 0.5
                                dst[(2 - ch) * plane + rowBase + x] = v * (2.0 / 255.0) - 1.0
                            }
                        }
                    }
                }}}
            }
        }
    }

    /// Samples `quad` of `image` into an upright `width` x `height` RGB image
    /// (bicubic with OpenCV's a = -0.75, edges replicated), as RapidOCR's
    /// `warpPerspective(..., INTER_CUBIC, BORDER_REPLICATE)` does.
    static func perspectiveCrop(_ image: RasterImage, quad: Quad, width: Int, height: Int) -> RasterImage {
        precondition(image.channels == 3)
        let map = PerspectiveMap(quad: quad, width: Double(width), height: Double(height))
        var out = [UInt8](repeating: 0, count: width * height * 3)
        let w = image.width, h = image.height
        @inline(__always) func weights(_ t: Double) -> (Double, Double, Double, Double) {
            let a = -0.75
            let x0 = 1 + t, x1 = t, x2 = 1 - t
            let w0 = ((a * x0 - 5 * a) * x0 + 8 * a) * x0 - 4 * a
            let w1 = ((a + 2) * x1 - (a + 3)) * x1 * x1 + 1
            let w2 = ((a + 2) * x2 - (a + 3)) * x2 * x2 + 1
            return (w0, w1, w2, 1 - w0 - w1 - w2)
        }
        image.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<height {
                    for x in 0..<width {
                        let p = map.map(Double(x), Double(y))
                        let fx = p.x.rounded(.down), fy = p.y.rounded(.down)
                        let ix = Int(max(-4, min(fx, Double(w + 4)))), iy = Int(max(-4, min(fy, Double(h + 4))))
                        let (wx0, wx1, wx2, wx3) = weights(p.x - fx)
                        let (wy0, wy1, wy2, wy3) = weights(p.y - fy)
                        let wx = [wx0, wx1, wx2, wx3], wy = [wy0, wy1, wy2, wy3]
                        var acc = (0.0, 0.0, 0.0)
                        for j in 0..<4 {
                            let sy = min(max(iy - 1 + j, 0), h - 1)
                            var row = (0.0, 0.0, 0.0)
                            for i in 0..<4 {
                                let sx = min(max(ix - 1 + i, 0), w - 1)
                                let o = (sy * w + sx) * 3
                                row.0 += Double(src[o]) * wx[i]
                                row.1 += Double(src[o + 1]) * wx[i]
                                row.2 += Double(src[o + 2]) * wx[i]
                            }
                            acc.0 += row.0 * wy[j]; acc.1 += row.1 * wy[j]; acc.2 += row.2 * wy[j]
                        }
                        let d = (y * width + x) * 3
                        dst[d] = UInt8(min(255, max(0, acc.0.rounded())))
                        dst[d + 1] = UInt8(min(255, max(0, acc.1.rounded())))
                        dst[d + 2] = UInt8(min(255, max(0, acc.2.rounded())))
                    }
                }
            }
        }
        return RasterImage(width: width, height: height, channels: 3, pixels: out)
    }

    /// The size RapidOCR gives the crop of a detected quad: its longest opposite sides.
    static func cropSize(of quad: Quad) -> (width: Int, height: Int) {
        let w = max(quad.topLeft.distance(to: quad.topRight), quad.bottomRight.distance(to: quad.bottomLeft))
        let h = max(quad.topLeft.distance(to: quad.bottomLeft), quad.topRight.distance(to: quad.bottomRight))
        return (Int(w), Int(h))
    }

    /// Turned by 180°.
    static func rotated180(_ image: RasterImage) -> RasterImage {
        let c = image.channels, n = image.width * image.height
        var out = [UInt8](repeating: 0, count: image.pixels.count)
        image.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for i in 0..<n {
                    for k in 0..<c { dst[(n - 1 - i) * c + k] = src[i * c + k] }
                }
            }
        }
        return RasterImage(width: image.width, height: image.height, channels: c, pixels: out)
    }

    /// Turned by 90° counter-clockwise: the right edge becomes the top.
    static func rotated90CounterClockwise(_ image: RasterImage) -> RasterImage {
        let c = image.channels, w = image.width, h = image.height
        var out = [UInt8](repeating: 0, count: image.pixels.count)
        // new (x', y') with new width h and height w: x' = y, y' = w - 1 - x
        image.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<h {
                    for x in 0..<w {
                        let d = ((w - 1 - x) * h + y) * c, s = (y * w + x) * c
                        for k in 0..<c { dst[d + k] = src[s + k] }
                    }
                }
            }
        }
        return RasterImage(width: h, height: w, channels: c, pixels: out)
    }
}
