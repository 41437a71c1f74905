import Foundation
import ScanDetectors
import ScanExtraction
import ScanInput
import ScanModel
import ScanRecognition

/// Turns one input file into a `Document`. Owns one engine; not thread-safe,
/// so each worker has its own processor and reuses it for every file.
public final class DocumentProcessor {
    public let configuration: ScanConfiguration
    private var recognizer: (any TextRecognizer)?
    private let orientation = OrientationDetector()
    private let preprocessor: Preprocessor
    private let locator: EntityLocator?
    private let extractor: DocumentExtractor?
    public let cancellation: CancellationToken

    /// Throws `invalidOption` when the country or reference date is malformed.
    public convenience init(configuration: ScanConfiguration, cancellation: CancellationToken = CancellationToken()) throws {
        self.init(configuration: configuration, locator: try Self.makeLocator(configuration), cancellation: cancellation)
    }

    /// With a locator built once and shared by every worker.
    public init(configuration: ScanConfiguration, locator: EntityLocator?, cancellation: CancellationToken) {
        self.configuration = configuration
        self.cancellation = cancellation
        self.preprocessor = Preprocessor(options: configuration.preprocessing)
        self.locator = locator
        self.extractor = configuration.extractFields
            ? (locator?.detector ?? (try? DataDetector(region: configuration.country))).map { DocumentExtractor(detector: $0) }
            : nil
    }

    /// The entity stage of a configuration, or nil when entities are off.
    public static func makeLocator(_ configuration: ScanConfiguration) throws -> EntityLocator? {
        guard configuration.detectEntities else { return nil }
        var day: CalendarDay?
        if let r = configuration.referenceDate {
            guard let d = CalendarDay(iso: r) else {
                throw ScanError(.invalidOption, "reference date '\(r)' is not yyyy-mm-dd")
            }
            day = d
        }
        do {
            return EntityLocator(detector: try DataDetector(region: configuration.country, referenceDate: day))
        } catch {
            throw ScanError(.invalidOption, "\(error)")
        }
    }

    /// The later, engine-free stages: entities, then layout, classification and parsing.
    func extract(_ doc: Document) -> Document {
        var out = doc
        if let locator { out.entities = locator.entities(in: doc) }
        if let extractor { out = extractor.extract(out, as: configuration.documentTypeOverride) }
        return out
    }

    /// The engine, created on first use (a folder of digital PDFs never loads it).
    private func engine() throws -> any TextRecognizer {
        if let recognizer { return recognizer }
        let r = try RecognizerFactory.make(configuration)
        if let t = r as? TesseractRecognizer { t.cancellation = cancellation }
        recognizer = r
        return r
    }

    /// What the engine would write into a document, without loading it when possible.
    public func engineInfo() throws -> EngineInfo { try engine().info }

    /// Processes one file. Throws a `ScanError` naming the file when nothing
    /// could be made of it; page-level trouble becomes warnings.
    public func process(path: String) throws -> Document {
        let input = try InputDocument(path: path, limits: configuration.limits)
        if let imported = input.importedDocument {
            return extract(reprocess(imported, source: path))
        }
        var pages: [Page] = []
        var warnings: [Finding] = []
        var engineInfo: EngineInfo?
        var lastError: ScanError?
        for index in 0..<input.pageCount {
            try cancellation.check(file: path)
            do {
                let source = try input.page(index, forceOCR: configuration.forceOCR)
                var page: Page
                switch source {
                case .text(let p):
                    page = p
                case .raster(let image, let dpi, _):
                    let engine = try engine()
                    engineInfo = engine.info
                    page = SidewaysPage.upright(try recognize(image, dpi: dpi, index: index, engine: engine))
                }
                page = applyFilters(page)
                warnings += findings(for: page)
                pages.append(page)
            } catch let e as ScanError where e.code != .cancelled && e.code != .engine {
                let e = e.attributed(to: path)
                lastError = e
                warnings.append(Finding(code: "page-failed", message: "\(e.reason) [\(e.code.rawValue)]", page: index))
            }
        }
        if pages.isEmpty, let lastError { throw lastError }
        let info: EngineInfo
        if let engineInfo {
            info = engineInfo
        } else {
            info = EngineInfo(name: "pdf-text", version: "poppler " + InputDocument.popplerVersion)
        }
        return extract(Document(source: path, engine: info, pages: pages, warnings: warnings))
    }

    /// A document that was already recognized goes straight to the later stages.
    public func reprocess(_ doc: Document, source: String) -> Document {
        var out = doc
        out.schemaVersion = Document.currentSchemaVersion
        out.source = source
        out.pages = doc.pages.map { applyFilters(SidewaysPage.upright($0)) }
        return out
    }

    // MARK: - Recognition of one raster page

    private func recognize(_ raw: RasterImage, dpi: Double?, index: Int, engine: any TextRecognizer) throws -> Page {
        var image = raw
        // Region of interest: crop first, in the source's pixels.
        var offset = (x: 0.0, y: 0.0)
        if let roi = configuration.regionOfInterest {
            let b = roi.box(pageWidth: Double(raw.width), pageHeight: Double(raw.height))
            guard let c = raw.cropped(x: Int(b.x), y: Int(b.y), width: Int(b.width.rounded(.up)), height: Int(b.height.rounded(.up))) else {
                throw ScanError(.invalidOption, page: index, "the region of interest lies outside the page")
            }
            image = c
            offset = (max(0, b.x.rounded(.down)), max(0, b.y.rounded(.down)))
        }
        if Self.isBlank(image) {
            return Page(index: index, width: Double(raw.width), height: Double(raw.height), dpi: dpi,
                        textSource: .ocr, observations: [])
        }
        var work = image
        var skew: Double?
        var scale = 1.0
        if engine is TesseractRecognizer {
            // Tesseract binarizes gray anyway; gray is a third of the work for every step below.
            work = work.grayscale()
            // Skew is measured at the source size (cheaper, and the angle doesn't depend on scale).
            (work, skew) = preprocessor.deskewed(work)
            // Tesseract reads poorly below ~20 px of text height; enlarge small text.
            (work, scale) = preprocessor.upscaled(work, by: preprocessor.upscaleFactor(for: work))
        }
        // PP-OCR sizes the page for its detector itself and reads rotated lines as
        // quadrilaterals, so it gets the page as it is, in colour.
        try cancellation.check()
        var lines = try run(engine, on: work, dpi: Int((dpi ?? 300) * scale))
        // Orientation is checked only when the upright reading is doubtful: most pages
        // are upright, and Tesseract's orientation pass costs as much as half a reading.
        var turns = 0
        if configuration.detectOrientation && Self.isDoubtful(lines) {
            if let o = orientation.detect(work), o.quarterTurns != 0, o.confidence >= 2 {
                var turned = Preprocessor.rotated(work, quarterTurns: o.quarterTurns)
                var turnedSkew = skew
                // A sideways page had vertical lines when its skew was measured: measure again.
                if o.quarterTurns % 2 == 1 && skew == nil { (turned, turnedSkew) = preprocessor.deskewed(turned) }
                try cancellation.check()
                let again = try run(engine, on: turned, dpi: Int((dpi ?? 300) * scale))
                if Self.meanConfidence(again) > Self.meanConfidence(lines) {
                    (lines, turns, work, skew) = (again, o.quarterTurns, turned, turnedSkew)
                }
            }
        }
        // Back to page pixels: undo the upscale, then the crop offset.
        let upright = turns % 2 == 0 ? (w: Double(raw.width), h: Double(raw.height)) : (w: Double(raw.height), h: Double(raw.width))
        let observations = lines.map { Self.mapped($0, scale: scale, dx: turns == 0 ? offset.x : 0, dy: turns == 0 ? offset.y : 0) }
        return Page(index: index, width: upright.w, height: upright.h, rotation: turns * 90, skew: skew,
                    dpi: dpi, textSource: .ocr, observations: observations)
    }

    private func run(_ engine: any TextRecognizer, on image: RasterImage, dpi: Int) throws -> [TextObservation] {
        if let t = engine as? TesseractRecognizer { return try t.recognize(image, dpi: dpi) }
        return try engine.recognize(image)
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

    static func mapped(_ o: TextObservation, scale: Double, dx: Double, dy: Double) -> TextObservation {
        func m(_ b: BoundingBox) -> BoundingBox { b.scaled(by: 1 / scale).offsetBy(dx: dx, dy: dy).rounded() }
        var out = o
        out.boundingBox = m(o.boundingBox)
        out.words = o.words.map { w in
            var w = w
            w.boundingBox = m(w.boundingBox)
            return w
        }
        return out
    }

    /// A page with (almost) no dark pixels has nothing to recognize.
    static func isBlank(_ image: RasterImage) -> Bool {
        let gray = image.grayscale()
        var lo: UInt8 = 255, hi: UInt8 = 0
        // Sample every 7th pixel: enough to tell blank from not.
        var i = 0
        gray.pixels.withUnsafeBufferPointer { p in
            while i < p.count {
                lo = min(lo, p[i]); hi = max(hi, p[i])
                i += 7
            }
        }
        return hi &- lo < 24
    }

    // MARK: - Filters and findings

    /// Region of interest (for text pages) and minimum text height.
    func applyFilters(_ page: Page) -> Page {
        var p = page
        if page.textSource != .ocr, let roi = configuration.regionOfInterest {
            let r = roi.box(pageWidth: page.width, pageHeight: page.height)
            p.observations = p.observations.filter { r.intersection($0.boundingBox) != nil && r.minX <= $0.boundingBox.midX && $0.boundingBox.midX <= r.maxX && r.minY <= $0.boundingBox.midY && $0.boundingBox.midY <= r.maxY }
        }
        if configuration.minimumTextHeight > 0, page.height > 0 {
            let minH = configuration.minimumTextHeight * page.height
            p.observations = p.observations.filter { $0.boundingBox.height >= minH }
        }
        return p
    }

    func findings(for page: Page) -> [Finding] {
        if page.observations.isEmpty {
            return [Finding(code: "no-text", message: "no text was found on the page", page: page.index)]
        }
        let chars = page.observations.reduce(0) { $0 + $1.text.count }
        let conf = page.observations.reduce(0.0) { $0 + $1.confidence * Double($1.text.count) } / Double(max(1, chars))
        if conf < configuration.lowConfidenceThreshold {
            return [Finding(code: "low-confidence", message: "mean recognition confidence is \(Int(conf * 100))%", page: page.index)]
        }
        return []
    }
}
