import Foundation
import ScanCamera
import ScanDetectors
import ScanExtraction
import ScanInk
import ScanInput
import ScanModel
import ScanRecognition

/// An input to the pipeline.
public enum InputSource: Sendable {
    /// A file: an image, a PDF or a scanextract JSON document, told apart by content.
    case path(String)
    /// The bytes of a file, e.g. an upload; `name` stands for the file in errors and `source`.
    case bytes([UInt8], name: String)
    /// A document already recognized (by scanextract or another engine in its format):
    /// its observations go straight to the stages after recognition.
    case document(Document, name: String)

    /// How the input is named in the document's `source` and in errors.
    public var name: String {
        switch self {
        case .path(let p): return p
        case .bytes(_, let n), .document(_, let n): return n
        }
    }
}

/// Turns one input into a `Document`, through the stages decode → crop → camera → orientation →
/// deskew → scale → recognize → upright → layout → entities → classify → parse, then maps
/// every box back to the user's pixels once. Owns one engine; not thread-safe, so each
/// worker has its own processor and reuses it for every input.
public final class DocumentProcessor {
    public let configuration: ScanConfiguration
    private var recognizer: (any TextRecognizer)?
    private let stages: RasterStages
    private let locator: EntityLocator?
    private let extractor: DocumentExtractor?
    public let cancellation: CancellationToken

    /// Throws `invalidOption` when the country or reference date is malformed, or the country has no numbering plan
    /// (`UK`, `ZZ`).
    public convenience init(configuration: ScanConfiguration, cancellation: CancellationToken = CancellationToken())
        throws
    {
        if let country = configuration.country, !DataDetector.isValidRegion(country) {
            throw ScanError(
                .invalidOption, "country '\(country)' is no two-letter ISO 3166-1 code with a numbering plan (US, GB, DE)")
        }
        self.init(
            configuration: configuration, locator: try Self.makeLocator(configuration), cancellation: cancellation)
    }

    /// With a locator built once and shared by every worker.
    public init(configuration: ScanConfiguration, locator: EntityLocator?, cancellation: CancellationToken) {
        self.configuration = configuration
        self.cancellation = cancellation
        self.stages = RasterStages(
            configuration: configuration, camera: DocumentCamera(options: configuration.cameraOptions),
            preprocessor: Preprocessor(options: configuration.preprocessing),
            orientation: OrientationDetector(dataPath: configuration.tesseract.dataPath),
            cancellation: cancellation)
        self.locator = locator
        self.extractor =
            configuration.extractFields
            ? (locator?.detector
                ?? (try? DataDetector(region: configuration.country, referenceDate: configuration.referenceDay))).map {
                    DocumentExtractor(detector: $0)
                }
            : nil
        if extractor != nil { DocumentExtractor.loadModelsInBackground() }
    }

    /// The entity stage of a configuration, or nil when entities are off.
    public static func makeLocator(_ configuration: ScanConfiguration) throws -> EntityLocator? {
        guard configuration.detectEntities else { return nil }
        let day = configuration.referenceDay
        if let r = configuration.referenceDate, day == nil {
            throw ScanError(.invalidOption, "reference date '\(r)' is not yyyy-mm-dd")
        }
        do {
            return EntityLocator(detector: try DataDetector(region: configuration.country, referenceDate: day))
        } catch {
            throw ScanError(.invalidOption, "\(error)")
        }
    }

    /// The engine, created on first use (a folder of digital PDFs never loads it).
    private func engine() throws -> any TextRecognizer {
        if let recognizer { return recognizer }
        let r = try RecognizerFactory.make(configuration)
        recognizer = r
        return r
    }

    /// Whether this processor has created its engine (read its models, opened its ONNX Runtime
    /// sessions or Tesseract). Text-layer PDF pages and JSON documents never do.
    public var hasLoadedEngine: Bool { recognizer != nil }

    /// What the engine would write into a document, without loading it when possible.
    public func engineInfo() throws -> EngineInfo { try engine().info }

    /// Processes one file. Throws a `ScanError` naming the file when nothing
    /// could be made of it; page-level trouble becomes warnings.
    public func process(path: String) throws -> Document {
        try process(.path(path))
    }

    /// Processes a file's bytes held in memory (an upload), without a temporary file. The type
    /// is decided from the content; `name` is used in errors and as the document's `source`.
    public func process(data: Data, name: String) throws -> Document {
        try process(.bytes([UInt8](data), name: name))
    }

    /// Processes an input: a file, bytes in memory, or a document already recognized.
    public func process(_ source: InputSource) throws -> Document {
        let input: InputDocument
        switch source {
        case .path(let path):
            input = try InputDocument(path: path, limits: configuration.limits)
        case .bytes(let bytes, let name):
            input = try InputDocument(bytes: bytes, name: name, limits: configuration.limits)
        case .document(let doc, let name):
            try InputDocument.checkImported(doc, name: name)
            return try reprocess(doc, source: name)
        }
        let name = source.name
        if let imported = input.importedDocument { return try reprocess(imported, source: name) }
        var pages: [WorkingPage] = []
        var warnings: [Finding] = []
        var engineInfo: EngineInfo?
        var lastError: ScanError?
        for index in 0..<input.pageCount {
            try cancellation.check(file: name)
            do {
                var working: WorkingPage
                switch try input.page(index, forceOCR: configuration.forceOCR) {
                case .text(let p):
                    // A page turned a quarter or a half (`/Rotate`) gives its text layer as shown: turned upright on
                    // its coordinates, as a recognized page is.
                    working = PageStages.filtered(
                        PageStages.upright(WorkingPage(source: p)), configuration, regionApplied: false)
                case .raster(let image, let dpi, let damage):
                    // A damaged file decoded as far as it goes: its page comes out, with a warning.
                    warnings += damage
                    let engine = try engine()
                    engineInfo = engine.info
                    working = try recognize(RasterPage(index: index, image: image, dpi: dpi), engine: engine)
                    working = PageStages.filtered(PageStages.upright(working), configuration, regionApplied: true)
                }
                working = PageStages.laidOut(working)
                warnings += working.findings + confidenceFindings(for: working.page)
                pages.append(working)
            } catch let e as ScanError where e.code == .cancelled {
                throw e.attributed(to: name)  // a run stopped halfway still says which input it stopped in
            } catch let e as ScanError where e.code != .engine {
                let e = e.attributed(to: name)
                lastError = e
                warnings.append(Finding(code: "page-failed", message: "\(e.reason) [\(e.code.rawValue)]", page: index))
            }
        }
        if pages.isEmpty, let lastError { throw lastError }
        let info = engineInfo ?? EngineInfo(name: "pdf-text", version: "poppler " + InputDocument.popplerVersion)
        let doc = Document(source: name, engine: info, pages: pages.map(\.page), warnings: warnings)
        var extracted = try extract(doc)
        if embeddedInvoiceWanted { EmbeddedInvoiceStage.apply(attachments: input.attachments(), to: &extracted) }
        return PageStages.toSource(extracted, pages)
    }

    /// Whether a PDF's embedded invoice may give the receipt: fields are extracted, and `--type` asks for no other.
    var embeddedInvoiceWanted: Bool {
        configuration.embeddedInvoices && configuration.extractFields
            && (configuration.documentTypeOverride ?? .receipt) == .receipt
    }

    /// A document that was already recognized goes straight to the later stages.
    public func reprocess(_ doc: Document, source: String) throws -> Document {
        let pages = doc.pages.map { given -> WorkingPage in
            // Another engine's output may not give the page's size: the extent of its boxes stands in for it.
            var page = given
            if page.width == 0 || page.height == 0 {
                let boxes = page.observations.map(\.boundingBox)
                page.width = page.width > 0 ? page.width : (boxes.map(\.maxX).max() ?? 0).rounded(.up)
                page.height = page.height > 0 ? page.height : (boxes.map(\.maxY).max() ?? 0).rounded(.up)
            }
            let w = WorkingPage(imported: page)
            return PageStages.laidOut(PageStages.filtered(PageStages.upright(w), configuration, regionApplied: false))
        }
        var out = doc
        out.schemaVersion = Document.currentSchemaVersion
        out.source = source
        out.pages = pages.map(\.page)
        var extracted = try extract(out)
        // Fields an embedded invoice gave are kept: the JSON no longer holds the attachment they came from.
        if embeddedInvoiceWanted {
            EmbeddedInvoiceStage.keep(from: doc, in: &extracted)
        } else {
            // Read from the text now: the note that the fields came from the invoice would be stale.
            extracted.warnings.removeAll { $0.code == EmbeddedInvoiceStage.code }
        }
        return PageStages.toSource(extracted, pages)
    }

    /// The later, engine-free stages: entities, then classification and parsing. A locale file or model that this
    /// document needs and that is missing or broken fails the document as an engine's data would (`engine`), and
    /// lastingly: another try would fail the same way.
    func extract(_ doc: Document) throws -> Document {
        var out = doc
        if let locator { out.entities = locator.entities(in: doc) }
        if let extractor {
            do { out = try extractor.extract(out, as: configuration.documentTypeOverride) } catch let e as LexiconError
            {
                var failure = ScanError(.engine, file: doc.source, e.description)
                failure.lasting = true
                throw failure
            }
        }
        return out
    }

    // MARK: - Recognition of one raster page

    private func recognize(_ raster: RasterPage, engine: any TextRecognizer) throws -> WorkingPage {
        let page = stages.inked(stages.photographed(try stages.cropped(raster), for: engine.capabilities))
        if RasterStages.isBlank(page.image) {
            return WorkingPage(source: Page(index: raster.index, width: raster.sourceWidth, height: raster.sourceHeight,
                                            dpi: raster.dpi, textSource: .ocr, observations: []))
        }
        let recognized = try stages.recognized(page, engine: engine)
        return WorkingPage(recognized: recognized, sourceWidth: raster.sourceWidth, sourceHeight: raster.sourceHeight)
    }

    // MARK: - Filters and findings

    func confidenceFindings(for page: Page) -> [Finding] {
        if page.observations.isEmpty {
            return [Finding(code: "no-text", message: "no text was found on the page", page: page.index)]
        }
        let chars = page.observations.reduce(0) { $0 + $1.text.count }
        let conf = page.observations.reduce(0.0) { $0 + $1.confidence * Double($1.text.count) } / Double(max(1, chars))
        if conf < configuration.lowConfidenceThreshold {
            return [
                Finding(
                    code: "low-confidence", message: "mean recognition confidence is \(Int(conf * 100))%",
                    page: page.index)
            ]
        }
        return []
    }
}
