import Foundation
import ScanModel

/// Whether the camera stage flattens a page.
public enum CameraMode: String, Codable, Sendable, CaseIterable {
    /// Flattens only when a page is found with confidence and does not already fill the frame.
    case auto
    /// Flattens whenever a page is found.
    case on
    /// Leaves every image as it is.
    case off
}

/// The measurements behind the camera stage's decision on one photo (see `DocumentCamera.examine`).
public struct PageExamination: Sendable {
    public var quad: Quad
    public var confidence: Double
    /// Glyph-like dark marks on the whole photo, and the share of them inside the quad (grown by 1% of the diagonal).
    public var marks: Int
    public var printCoverage: Double?
    /// Whether the quad reaches an edge of the frame with print running into that edge.
    public var runsOffFrame: Bool
    /// The larger ratio of opposite sides, and the stretch of the flattened output over the quad's longest sides.
    public var sideRatio: Double
    public var stretch: Double
    /// What `.auto` would do: nil to flatten.
    public var doubt: CameraDoubt?
}

/// What the camera stage did to an image.
public struct CameraResult: Sendable {
    /// The image for the next stage: the flattened page, or the input untouched.
    public var image: RasterImage
    /// Maps pixels of the input image to pixels of `image` (identity when untouched).
    public var transform: Homography
    /// The page that was found, or nil when none was looked for or found.
    public var info: CameraInfo?
    /// Why a page that was found was not flattened (nil when it was flattened or none was found).
    /// A check that failed (not `.lowConfidence` or `.fillsFrame`) also lowers `info.confidence`.
    public var doubt: CameraDoubt?

    public init(image: RasterImage, transform: Homography, info: CameraInfo?, doubt: CameraDoubt? = nil) {
        self.image = image
        self.transform = transform
        self.info = info
        self.doubt = doubt
    }
}

/// The document camera: finds a page on a photo, cuts it out and flattens its
/// perspective to an upright rectangle of the page's own proportions, and evens the
/// light, as a phone's document scanner does. Flat scans, screenshots and rendered
/// PDF pages, where the page fills the frame, are left as they are.
///
/// ```swift
/// let camera = DocumentCamera()
/// let result = camera.process(photo, mode: .auto)
/// let boxOnPhoto = result.transform.inverse?.apply(boxOnPage)
/// ```
///
/// Not an engine: it holds no state and can be shared between threads.
public struct DocumentCamera: Sendable {
    /// Tuning of the stage.
    public struct Options: Sendable, Hashable, Codable {
        /// Long side, in pixels, of the shrunk copy the page is looked for on.
        public var detectionSide: Int
        /// Pages below this confidence (0 to 1) are not reported at all.
        public var minimumConfidence: Double
        /// In `.auto` mode, pages below this confidence are reported but not flattened.
        public var flattenConfidence: Double
        /// Smallest page, as a share of the frame's area.
        public var minimumPageArea: Double
        /// In `.auto` mode, a page covering more than this share of the frame is left as it is.
        public var fillsFrameArea: Double
        /// Largest flattened output, in pixels (width × height); larger pages are scaled down.
        public var maximumOutputPixels: Int
        /// Whether `process` evens the light of a flattened page.
        public var evenLight: Bool
        /// In `.auto` mode, the share of the photo's print (glyph-like dark marks) that must lie inside
        /// the quad: less means the quad is a card or note on the document, or a block of it.
        public var minimumPrintCoverage: Double
        /// In `.auto` mode, whether the print checks run (print coverage, page running off the frame).
        public var checksPrint: Bool
        /// Largest ratio of a quad's opposite sides that a camera tilt gives; larger is refused in every mode.
        public var maximumSideRatio: Double
        /// Largest stretch of the flattened output over the quad's longest sides; larger is refused in every mode.
        public var maximumStretch: Double

        public init(detectionSide: Int = 720, minimumConfidence: Double = 0.3, flattenConfidence: Double = 0.6,
                    minimumPageArea: Double = 0.02, fillsFrameArea: Double = 0.9,
                    maximumOutputPixels: Int = 6_000_000, evenLight: Bool = true,
                    minimumPrintCoverage: Double = 0.85, checksPrint: Bool = true,
                    maximumSideRatio: Double = 2.5, maximumStretch: Double = 1.8) {
            self.detectionSide = detectionSide
            self.minimumConfidence = minimumConfidence
            self.flattenConfidence = flattenConfidence
            self.minimumPageArea = minimumPageArea
            self.fillsFrameArea = fillsFrameArea
            self.maximumOutputPixels = maximumOutputPixels
            self.evenLight = evenLight
            self.minimumPrintCoverage = minimumPrintCoverage
            self.checksPrint = checksPrint
            self.maximumSideRatio = maximumSideRatio
            self.maximumStretch = maximumStretch
        }
    }

    public var options: Options

    public init(options: Options = .init()) {
        self.options = options
    }

    /// The page's corners in `image` pixels and a confidence (0 to 1), or nil when no
    /// page stands out from its background (a flat scan, a screenshot, a rendered page).
    ///
    /// The page is looked for on a copy shrunk to `options.detectionSide`; its sides are
    /// then re-fitted on the full-resolution pixels.
    public func detect(_ image: RasterImage) -> (quad: Quad, confidence: Double)? {
        PageDetector(options: options).detect(image).map { ($0.quad, $0.confidence) }
    }

    /// The page inside `quad` cut out and flattened to an upright rectangle, and the map
    /// from `image` pixels to output pixels; nil when the quad is degenerate.
    ///
    /// The output's proportions are those of the page, recovered from the perspective
    /// (see `estimatedSize(of:in:)`); its resolution is about the source's along the
    /// page's longer sides, never above `options.maximumOutputPixels`.
    public func flatten(_ image: RasterImage, quad: Quad) -> (image: RasterImage, transform: Homography)? {
        guard let size = estimatedSize(of: quad, imageWidth: image.width, imageHeight: image.height),
              let transform = Homography.rectifying(quad, width: Double(size.width), height: Double(size.height)) else {
            return nil
        }
        // OpenCV puts pixel centres at integer coordinates; ours are at +0.5.
        let matrix = Homography.translation(dx: -0.5, dy: -0.5).after(transform).after(.translation(dx: 0.5, dy: 0.5))
        guard let out = OpenCV.warpPerspective(image, matrix: matrix, width: size.width, height: size.height) else {
            return nil
        }
        return (out, transform)
    }

    /// The output size for flattening `quad`: the page's true aspect ratio, at about the
    /// source's resolution, capped at `options.maximumOutputPixels`. Nil for a degenerate quad.
    /// Nil too when the quad cannot be a rectangle seen by a camera (see `isPlausibleShape`).
    public func estimatedSize(of quad: Quad, imageWidth: Int, imageHeight: Int) -> (width: Int, height: Int)? {
        guard PageGeometry.isReasonable(quad, minAngle: 5),
              isPlausibleShape(quad, imageWidth: imageWidth, imageHeight: imageHeight) else { return nil }
        let aspect = PageGeometry.aspectRatio(of: quad, imageWidth: imageWidth, imageHeight: imageHeight)
        let c = quad.corners
        let longestWidth = max(c[0].distance(to: c[1]), c[3].distance(to: c[2]))
        let longestHeight = max(c[1].distance(to: c[2]), c[0].distance(to: c[3]))
        // Keep the resolution of whichever direction is best resolved.
        var height = max(longestHeight, longestWidth / aspect)
        var width = height * aspect
        let pixels = width * height
        if pixels > Double(options.maximumOutputPixels) {
            let k = (Double(options.maximumOutputPixels) / pixels).squareRoot()
            width *= k; height *= k
        }
        let w = Int(width.rounded()), h = Int(height.rounded())
        guard w >= 8, h >= 8 else { return nil }
        return (w, h)
    }

    /// True when `quad` can be a rectangle photographed at a plausible tilt: its opposite sides differ
    /// by at most `options.maximumSideRatio`, and flattening it stretches its longest sides by at most
    /// `options.maximumStretch`. A wrong quad (a wedge from part of a card and a shadow, say) fails, and
    /// flattening it would give a wildly stretched crop.
    public func isPlausibleShape(_ quad: Quad, imageWidth: Int, imageHeight: Int) -> Bool {
        let d = distortion(of: quad, imageWidth: imageWidth, imageHeight: imageHeight)
        return d.sideRatio <= options.maximumSideRatio && d.stretch <= options.maximumStretch
    }

    func distortion(of quad: Quad, imageWidth: Int, imageHeight: Int) -> (sideRatio: Double, stretch: Double) {
        let aspect = PageGeometry.aspectRatio(of: quad, imageWidth: imageWidth, imageHeight: imageHeight)
        return PageChecks.distortion(of: quad, aspect: aspect)
    }

    /// Evens the light: estimates the paper's brightness everywhere (a closing that removes
    /// print, then smoothing, on a shrunk copy) and divides by it, so the paper turns white
    /// and shadows and gradients go. Keeps the channels; ink keeps its colour ratios.
    /// Large dark areas (photos, black bars) are taken for paper in shadow and lightened.
    public func evenLight(_ image: RasterImage) -> RasterImage {
        let short = min(image.width, image.height)
        guard short >= 16 else { return image }
        let inkSize = max(9, short / 30)
        let shrink = max(1, short / 400)
        return OpenCV.evenLight(image, inkSize: inkSize, shrink: shrink) ?? image
    }

    /// The whole stage. With `.auto`, flattens only when the page is found with at least
    /// `options.flattenConfidence`, does not already fill the frame, holds nearly all of the photo's
    /// print (`options.minimumPrintCoverage`) and does not run off the frame; with `.on`, whenever a
    /// page is found; with `.off`, returns the image untouched. In every mode a quad that cannot be a
    /// photographed rectangle (`isPlausibleShape`) is left alone. A flattened page has its light
    /// evened when `options.evenLight` is set. `CameraResult.doubt` says why a found page was left alone.
    public func process(_ image: RasterImage, mode: CameraMode) -> CameraResult {
        let untouched = CameraResult(image: image, transform: .identity, info: nil)
        guard mode != .off, let found = PageDetector(options: options).detect(image) else { return untouched }
        return settle(found, in: image, mode: mode)
    }

    /// The page found on `image` and checked as `.auto` checks it, but never flattened: for an engine
    /// that reads the photo as it is. A page that fails a check is recorded with a lowered confidence,
    /// as `process` records it.
    public func located(_ image: RasterImage) -> CameraResult {
        guard let found = PageDetector(options: options).detect(image) else {
            return CameraResult(image: image, transform: .identity, info: nil)
        }
        return settle(found, in: image, mode: .auto, flattening: false)
    }

    /// The decision on a found page, and the flattening if it passes (and `flattening` is set).
    func settle(_ found: PageDetector.Detection, in image: RasterImage, mode: CameraMode, flattening: Bool = true)
        -> CameraResult
    {
        let doubt = self.doubt(about: found, in: image, mode: mode)
        var confidence = found.confidence
        if let doubt, doubt != .lowConfidence, doubt != .fillsFrame {
            // A failed check: report the quad, but with a confidence that says not to trust it.
            confidence = min(confidence, options.flattenConfidence) * 0.5
        }
        // In `.auto` every check ran; a page that fills the frame is a page all the same.
        let checked: Bool? = mode == .auto ? doubt == nil || doubt == .fillsFrame : nil
        let notFlattened = CameraResult(
            image: image, transform: .identity,
            info: CameraInfo(quad: found.quad, confidence: confidence, flattened: false, checked: checked),
            doubt: doubt)
        guard doubt == nil, flattening, let flat = flatten(image, quad: found.quad) else { return notFlattened }
        return CameraResult(
            image: options.evenLight ? evenLight(flat.image) : flat.image, transform: flat.transform,
            info: CameraInfo(quad: found.quad, confidence: found.confidence, flattened: true, checked: checked))
    }

    /// What the checks measure on the page found on `image` (nil when none is found): for tuning
    /// the thresholds in `Options` and for explaining a decision.
    public func examine(_ image: RasterImage) -> PageExamination? {
        guard let found = PageDetector(options: options).detect(image) else { return nil }
        let print = printEvidence(found, in: image, minimumMarks: 1)
        let d = distortion(of: found.quad, imageWidth: image.width, imageHeight: image.height)
        return PageExamination(
            quad: found.quad, confidence: found.confidence, marks: print.marks, printCoverage: print.coverage,
            runsOffFrame: print.runsOffFrame, sideRatio: d.sideRatio, stretch: d.stretch,
            doubt: doubt(about: found, in: image, mode: .auto))
    }

    /// What the photo's print says about a found page: its glyph-like marks, whether print runs
    /// off the frame where the quad reaches an edge, and the share of marks inside the quad grown
    /// by 1% of the diagonal (nil with fewer than `minimumMarks`).
    /// With `coverageWhenOffFrame` false, the coverage is not measured for print that runs off the frame.
    func printEvidence(_ found: PageDetector.Detection, in image: RasterImage, minimumMarks: Int,
                       coverageWhenOffFrame: Bool = true) -> (marks: Int, runsOffFrame: Bool, coverage: Double?) {
        let print = PrintMap(small: found.small, sx: found.sx, sy: found.sy)
        let W = Double(image.width), H = Double(image.height)
        let off = print.runsOffFrame(found.quad, width: image.width, height: image.height,
                                     reach: 0.015 * min(W, H), band: 0.02 * min(W, H), minimumMarks: 2)
        let coverage = off && !coverageWhenOffFrame ? nil
            : print.coverage(of: found.quad, margin: 0.01 * (W * W + H * H).squareRoot(), minimumMarks: minimumMarks)
        return (print.centres.count, off, coverage)
    }

    /// Why `found` should not be flattened in `mode`, or nil when it should.
    func doubt(about found: PageDetector.Detection, in image: RasterImage, mode: CameraMode) -> CameraDoubt? {
        guard isPlausibleShape(found.quad, imageWidth: image.width, imageHeight: image.height) else {
            return .implausibleShape
        }
        guard mode == .auto else { return nil }
        if found.confidence < options.flattenConfidence { return .lowConfidence }
        if found.quad.area >= options.fillsFrameArea * Double(image.width * image.height) { return .fillsFrame }
        guard options.checksPrint else { return nil }
        let print = printEvidence(found, in: image, minimumMarks: 20, coverageWhenOffFrame: false)
        if print.runsOffFrame { return .runsOffFrame }
        if let coverage = print.coverage, coverage < options.minimumPrintCoverage { return .printOutsideQuad }
        return nil
    }
}
