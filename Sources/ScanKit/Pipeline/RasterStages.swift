import ScanCamera
import ScanInput
import ScanModel
import ScanRecognition

/// A page's pixels on their way to the engine, and how they relate to the user's.
///
/// Every stage that moves pixels replaces `image` and composes what it did into
/// `transform`, so that the boxes the engine returns can be taken back to the
/// user's pixels in one step at the end.
struct RasterPage {
    let index: Int
    /// The size of the user's page: the decoded image, or the PDF page rendered at `dpi`.
    let sourceWidth: Double
    let sourceHeight: Double
    let dpi: Double?
    var image: RasterImage
    /// Maps the user's pixels to `image`'s.
    var transform = Homography.identity
    /// Clockwise quarter turns applied to the pixels.
    var quarterTurns = 0
    var skew: Double?
    var camera: CameraInfo?
    var inverted = false
    /// How much the text was enlarged for the engine (1: not at all).
    var scale = 1.0
    var findings: [Finding] = []

    init(index: Int, image: RasterImage, dpi: Double?) {
        self.index = index
        self.image = image
        self.dpi = dpi
        self.sourceWidth = Double(image.width)
        self.sourceHeight = Double(image.height)
    }

    /// Replaces the pixels with `next`, which `step` maps the current pixels onto.
    mutating func move(to next: RasterImage, by step: Homography) {
        image = next
        transform = transform.then(step)
    }
}

/// The recognized page in the engine's pixels, with the map from the user's pixels to them.
struct RecognizedRaster {
    var page: Page
    var transform: Homography
    /// What the stages found wrong on the page, for the document's warnings.
    var findings: [Finding] = []
}

/// The stages between decoding and recognition, each taking a `RasterPage` and
/// returning one: crop → camera → orientation → deskew → scale → recognize. What an
/// engine needs is read from its `capabilities`, never from its type.
struct RasterStages {
    let configuration: ScanConfiguration
    let camera: DocumentCamera
    let preprocessor: Preprocessor
    let orientation: OrientationDetector
    let cancellation: CancellationToken

    // MARK: crop

    /// The region of interest, cut in the user's pixels.
    func cropped(_ page: RasterPage) throws -> RasterPage {
        guard let roi = configuration.regionOfInterest else { return page }
        let b = roi.box(pageWidth: page.sourceWidth, pageHeight: page.sourceHeight)
        let x = max(0, Int(b.x.rounded(.down))), y = max(0, Int(b.y.rounded(.down)))
        guard let c = page.image.cropped(x: x, y: y, width: Int((b.maxX - Double(x)).rounded(.up)),
                                         height: Int((b.maxY - Double(y)).rounded(.up))) else {
            throw ScanError(.invalidOption, page: page.index, "the region of interest lies outside the page")
        }
        var out = page
        out.move(to: c, by: .translation(dx: -Double(x), dy: -Double(y)))
        return out
    }

    // MARK: camera

    /// A photographed page found, flattened and its light evened; flat scans and rendered
    /// PDF pages are left as they are. What was found is recorded in the user's pixels.
    /// In `auto`, an engine that reads perspective itself gets the photo as it is, and the
    /// page is only recorded, checked as for flattening: flattening first costs such an engine
    /// letters, and the layout groups its rows in the recorded page's frame instead.
    func photographed(_ page: RasterPage, for capabilities: EngineCapabilities) -> RasterPage {
        // A PDF page rendered by us is flat by construction.
        guard configuration.camera != .off, page.dpi == nil else { return page }
        let result: CameraResult
        if configuration.camera == .auto && capabilities.readsPerspective {
            result = camera.located(page.image)
        } else {
            result = camera.process(page.image, mode: configuration.camera)
        }
        guard let info = result.info else { return page }
        var out = page
        let back = page.transform.inverse ?? .identity
        out.camera = CameraInfo(
            quad: back.apply(info.quad).rounded(), confidence: (info.confidence * 1000).rounded() / 1000,
            flattened: info.flattened, checked: info.checked)
        if info.flattened { out.move(to: result.image, by: result.transform) }
        return out
    }

    // MARK: light on dark

    /// Light ink on a dark ground turned dark on light, the way every engine reads best.
    /// A photographed sheet of paper (the camera found a page) is left as it is.
    func inked(_ page: RasterPage) -> RasterPage {
        guard page.camera == nil, Preprocessor.isLightOnDark(page.image) else { return page }
        var out = page
        out.image = page.image.inverted()
        out.inverted = true
        return out
    }

    // MARK: preparation for the engine

    /// Gray when the engine reads gray, straightened when it wants that, and small text
    /// enlarged to the height it reads best.
    func prepared(_ page: RasterPage, for capabilities: EngineCapabilities) -> RasterPage {
        var out = page
        if capabilities.input == .gray { out.image = out.image.grayscale() }
        // Same size, so no change of coordinates.
        if capabilities.needsEvenContrast && preprocessor.needsContrastNormalization(out.image) {
            out.image = preprocessor.contrastNormalized(out.image)
        }
        if capabilities.wantsDeskew { out = deskewed(out) }
        if let height = capabilities.preferredTextHeight { out = scaled(out, toTextHeight: height) }
        return out
    }

    /// Slight skew measured and levelled (Leptonica turns about the centre, keeping the size).
    func deskewed(_ page: RasterPage) -> RasterPage {
        let (image, angle) = preprocessor.deskewed(page.image)
        guard let angle else { return page }
        var out = page
        let center = Point(x: Double(page.image.width) / 2, y: Double(page.image.height) / 2)
        out.move(to: image, by: .rotation(degrees: angle, about: center))
        out.skew = angle
        return out
    }

    func scaled(_ page: RasterPage, toTextHeight height: Double) -> RasterPage {
        var p = preprocessor
        p.options.targetGlyphHeight = height
        let (image, factor) = p.upscaled(page.image, by: p.upscaleFactor(for: page.image))
        guard factor != 1 else { return page }
        var out = page
        let sx = Double(image.width) / Double(page.image.width), sy = Double(image.height) / Double(page.image.height)
        out.move(to: image, by: .scale(sx, sy))
        out.scale = factor
        return out
    }

    // MARK: recognition, with a second look at doubtful pages

    func recognized(_ raster: RasterPage, engine: any TextRecognizer) throws -> RecognizedRaster {
        let capabilities = engine.capabilities
        var page = prepared(raster, for: capabilities)
        try cancellation.check()
        var lines = try read(page, engine)
        // Reads `page` again when the engine's last reading is not `lines` (the turned page
        // lost), for a stage that needs the engine to hold the lines it returned.
        var restore: (() throws -> Void)?
        // Orientation is checked only when the upright reading is doubtful: most pages are
        // upright, and Tesseract's orientation pass costs as much as half a reading.
        if configuration.detectOrientation && Self.isDoubtful(lines),
           let o = orientation.detect(page.image), o.quarterTurns != 0, o.confidence >= 2 {
            var turned = page
            turned.move(
                to: Preprocessor.rotated(page.image, quarterTurns: o.quarterTurns),
                by: .quarterTurns(o.quarterTurns, width: Double(page.image.width), height: Double(page.image.height)))
            turned.quarterTurns = (page.quarterTurns + o.quarterTurns) % 4
            // A sideways page had vertical lines when its skew was measured: measure again.
            if o.quarterTurns % 2 == 1 && page.skew == nil && capabilities.wantsDeskew { turned = deskewed(turned) }
            try cancellation.check()
            let again = try read(turned, engine)
            if Self.meanConfidence(again) > Self.meanConfidence(lines) {
                (page, lines) = (turned, again)
            } else {
                let kept = page
                restore = { _ = try read(kept, engine) }
            }
        }
        let handwriting = try HandwritingStage(configuration: configuration).apply(
            lines, image: page.image, engine: engine,
            restore: restore)
        lines = handwriting.lines
        var recognized = Page(index: page.index, width: Double(page.image.width), height: Double(page.image.height),
                              rotation: page.quarterTurns * 90, skew: page.skew, dpi: page.dpi, textSource: .ocr,
                              camera: page.camera, observations: lines)
        recognized.inverted = page.inverted ? true : nil
        recognized.handwriting = handwriting.page
        return RecognizedRaster(
            page: recognized, transform: page.transform,
            findings: handwriting.notDecoded.map { [HandwritingStage.finding(notDecoded: $0, page: page.index)] } ?? [])
    }

    private func read(_ page: RasterPage, _ engine: any TextRecognizer) throws -> [TextObservation] {
        let dpi = Int(((page.dpi ?? 300) * page.scale).rounded())
        return try engine.recognize(page.image, context: RecognitionContext(dpi: dpi, cancellation: cancellation))
    }

    /// Character-weighted mean confidence of a reading (0 for none).
    static func meanConfidence(_ lines: [TextObservation]) -> Double {
        let chars = lines.reduce(0) { $0 + $1.text.count }
        guard chars > 0 else { return 0 }
        return lines.reduce(0.0) { $0 + $1.confidence * Double($1.text.count) } / Double(chars)
    }

    /// A reading too unsure (or too short) to trust that the page was upright.
    static func isDoubtful(_ lines: [TextObservation]) -> Bool {
        let words = lines.reduce(0) { $0 + $1.words.count }
        return words < 3 || meanConfidence(lines) < 0.55
    }

    /// A page with (almost) no dark pixels has nothing to recognize.
    static func isBlank(_ image: RasterImage) -> Bool {
        var lo: UInt8 = 255, hi: UInt8 = 0
        // Sample every 7th pixel (its luma only): enough to tell blank from not.
        for i in stride(from: 0, to: image.width * image.height, by: 7) {
            let v = image.luma(at: i)
            lo = min(lo, v); hi = max(hi, v)
        }
        return hi &- lo < 24
    }
}
