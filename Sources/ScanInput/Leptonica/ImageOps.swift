import CLeptonica
import ScanModel

/// Image operations done with Leptonica, on `RasterImage`s.
enum ImageOps {
    /// A 1 bpp Otsu binarization of a gray copy; text is ON (black).
    static func binarized(_ pix: Pix) -> Pix? {
        guard let gray = pix.depth == 8 ? pix : Pix.wrap(pixConvertTo8(pix.handle, 0)) else { return nil }
        var bin: UnsafeMutablePointer<PIX>?
        // One tile as large as the page: a global Otsu threshold.
        let ok = pixOtsuAdaptiveThreshold(gray.handle, 4000, 4000, 0, 0, 0.1, nil, &bin)
        guard ok == 0 else { return nil }
        return Pix.wrap(bin)
    }

    /// Heights of the connected components of the binarized page.
    static func componentHeights(_ image: RasterImage) -> [Int] {
        guard let pix = Pix(image), let bin = binarized(pix) else { return [] }
        guard let boxa = pixConnComp(bin.handle, nil, 8) else { return [] }
        var b: UnsafeMutablePointer<BOXA>? = boxa
        defer { boxaDestroy(&b) }
        let n = Int(boxaGetCount(boxa))
        var heights: [Int] = []
        heights.reserveCapacity(n)
        var x: Int32 = 0, y: Int32 = 0, w: Int32 = 0, h: Int32 = 0
        for i in 0..<n {
            guard boxaGetBoxGeometry(boxa, Int32(i), &x, &y, &w, &h) == 0 else { continue }
            heights.append(Int(h) << 16 | Int(w))
        }
        return heights
    }

    /// Skew angle in degrees (positive: text rises to the right... as Leptonica
    /// reports it) with its confidence, or nil when it can't be measured.
    static func skew(_ image: RasterImage) -> (angle: Double, confidence: Double)? {
        guard let pix = Pix(image), let bin = binarized(pix) else { return nil }
        var angle: Float = 0, conf: Float = 0
        guard pixFindSkew(bin.handle, &angle, &conf) == 0 else { return nil }
        return (Double(angle), Double(conf))
    }

    /// Rotates by `degrees` about the centre, keeping the size, bringing in white.
    static func rotate(_ image: RasterImage, degrees: Double) -> RasterImage? {
        guard let pix = Pix(image) else { return nil }
        let radians = Float(degrees * Double.pi / 180)
        guard
            let out = Pix.wrap(pixRotate(pix.handle, radians, Int32(L_ROTATE_AREA_MAP), Int32(L_BRING_IN_WHITE), 0, 0))
        else {
            return nil
        }
        return out.rasterImage()
    }

    /// Scales by `factor` with interpolation (sharpened when enlarging).
    static func scale(_ image: RasterImage, by factor: Double) -> RasterImage? {
        guard let pix = Pix(image) else { return nil }
        guard let out = Pix.wrap(pixScale(pix.handle, Float(factor), Float(factor))) else { return nil }
        return out.rasterImage()
    }

    /// Flattens uneven illumination (shadows, photos) to a white background.
    static func normalizeBackground(_ image: RasterImage) -> RasterImage? {
        guard let pix = Pix(image) else { return nil }
        guard let out = Pix.wrap(pixBackgroundNorm(pix.handle, nil, nil, 10, 15, 100, 50, 255, 2, 1)) else {
            return nil
        }
        return out.rasterImage()
    }

    /// Background flattened to a uniform level (Leptonica's defaults map it to 200), as 8 bpp gray.
    static func normalizeBackgroundGray(_ image: RasterImage) -> RasterImage? {
        guard let pix = Pix(image.channels == 1 ? image : image.grayscale()) else { return nil }
        guard let flat = Pix.wrap(pixBackgroundNormSimple(pix.handle, nil, nil)) else { return nil }
        return flat.rasterImage()
    }

    /// Maps gray levels linearly so that `black` becomes 0 and `white` 255 (clipping beyond).
    static func stretch(_ image: RasterImage, black: Int, white: Int) -> RasterImage? {
        guard let pix = Pix(image), white > black else { return nil }
        guard let out = Pix.wrap(pixGammaTRC(nil, pix.handle, 1, Int32(black), Int32(white))) else { return nil }
        return out.rasterImage()
    }
}
