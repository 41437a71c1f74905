/// Where the text of a page came from.
public enum TextSource: String, Codable, Hashable, Sendable {
    /// Recognized by an OCR engine from pixels.
    case ocr
    /// Taken from the PDF's own text layer, without OCR.
    case pdfText = "pdf-text"
    /// Read from an earlier scanextract JSON document (or another engine's output in that format).
    case imported
}

/// The engine that produced the observations.
public struct EngineInfo: Codable, Hashable, Sendable {
    public var name: String
    public var version: String
    public var model: String?

    public init(name: String, version: String, model: String? = nil) {
        self.name = name
        self.version = version
        self.model = model
    }
}

/// A recognized page. Every box on it is in this page's pixels, top-left origin.
public struct Page: Codable, Hashable, Sendable {
    /// 0-based position of the page in its source.
    public var index: Int
    public var width: Double
    public var height: Double
    /// Clockwise rotation in degrees (0, 90, 180 or 270) that made the text upright for
    /// recognition. `width`, `height` and every box stay those of the page as given (the
    /// user's pixels); `upright` holds the size of the turned page and the map to it.
    public var rotation: Int
    /// Skew angle in degrees that was corrected before recognition, when any.
    public var skew: Double?
    /// Resolution of the page pixels, when known (PDF pages: the render resolution).
    public var dpi: Double?
    public var textSource: TextSource
    /// What the document camera found and did, when the page was a photo of a document.
    public var camera: CameraInfo?
    /// True when the page was light ink on a dark ground (a dark-mode screenshot, a
    /// blackboard) and was inverted before recognition.
    public var inverted: Bool?
    /// Set when the layout, the parsers and the boxes of this document were worked out on a
    /// turned, straightened or flattened version of the page: its size, and the map from this
    /// page's pixels to its pixels. Every box in the document stays in this page's pixels.
    public var upright: UprightPage?
    /// Set when lines of the page were judged handwritten (`--handwriting auto`) or were
    /// said to be (`--handwriting`): how sure the judge is, and how many lines were decoded
    /// with the word list. Those lines say `handwritten: true`.
    public var handwriting: PageHandwriting?
    public var observations: [TextObservation]
    /// Blocks of lines of words in reading order (see `PageLayout`).
    public var layout: PageLayout?

    public init(
        index: Int, width: Double, height: Double, rotation: Int = 0, skew: Double? = nil,
        dpi: Double? = nil, textSource: TextSource, camera: CameraInfo? = nil, observations: [TextObservation]
    ) {
        self.index = index
        self.width = width
        self.height = height
        self.rotation = rotation
        self.skew = skew
        self.dpi = dpi
        self.textSource = textSource
        self.camera = camera
        self.observations = observations
    }

    enum CodingKeys: String, CodingKey {
        case index, width, height, rotation, skew, dpi, textSource, camera, inverted, upright, handwriting,
            observations, layout
    }

    /// Lenient where another engine's output may leave things out.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        index = try c.decodeIfPresent(Int.self, forKey: .index) ?? 0
        width = try c.decodeIfPresent(Double.self, forKey: .width) ?? 0
        height = try c.decodeIfPresent(Double.self, forKey: .height) ?? 0
        rotation = try c.decodeIfPresent(Int.self, forKey: .rotation) ?? 0
        skew = try c.decodeIfPresent(Double.self, forKey: .skew)
        dpi = try c.decodeIfPresent(Double.self, forKey: .dpi)
        textSource = try c.decodeIfPresent(TextSource.self, forKey: .textSource) ?? .imported
        camera = try c.decodeIfPresent(CameraInfo.self, forKey: .camera)
        inverted = try c.decodeIfPresent(Bool.self, forKey: .inverted)
        upright = try c.decodeIfPresent(UprightPage.self, forKey: .upright)
        handwriting = try c.decodeIfPresent(PageHandwriting.self, forKey: .handwriting)
        observations = try c.decode([TextObservation].self, forKey: .observations)
        layout = try c.decodeIfPresent(PageLayout.self, forKey: .layout)
    }

    /// The text of the page, one observation a line, in the order the engine listed them.
    public var text: String { observations.map(\.text).joined(separator: "\n") }
}

/// What the handwriting judge found on a page.
public struct PageHandwriting: Codable, Hashable, Sendable {
    /// The lines decoded with the word list, as handwriting.
    public var lines: Int
    /// 0 to 1: the judge's mean probability, over the page's characters, that a line is
    /// handwritten.
    public var confidence: Double
    /// `auto` when the judge chose the lines, `on` when the caller said the page is handwritten.
    public var decision: String

    public init(lines: Int, confidence: Double, decision: String) {
        self.lines = lines
        self.confidence = confidence
        self.decision = decision
    }
}

/// The upright page the later stages read: the source page turned, straightened or
/// flattened. `transform` maps the source page's pixels to this page's.
public struct UprightPage: Codable, Hashable, Sendable {
    public var width: Double
    public var height: Double
    public var transform: Homography

    public init(width: Double, height: Double, transform: Homography) {
        self.width = width
        self.height = height
        self.transform = transform
    }
}

/// Something that went wrong or looks doubtful but did not stop processing.
public struct Finding: Codable, Hashable, Sendable {
    /// A stable, machine-readable code such as `low-confidence` or `page-failed`.
    public var code: String
    public var message: String
    public var page: Int?
    public var field: String?

    public init(code: String, message: String, page: Int? = nil, field: String? = nil) {
        self.code = code
        self.message = message
        self.page = page
        self.field = field
    }
}

/// The result for one input file: the unit scanextract writes as JSON.
public struct Document: Codable, Hashable, Sendable {
    /// The version of `Schemas/document.schema.json` this document follows.
    public static let currentSchemaVersion = "3.0.0"

    public var schemaVersion: String
    /// The input path as the user gave it.
    public var source: String
    public var engine: EngineInfo
    public var pages: [Page]
    /// Data-detector hits over the document's text, with their page and box.
    public var entities: [Entity]?
    /// The classifier's (or the user's) decision; nil when extraction did not run.
    public var documentType: DocumentType?
    /// Set when the document is a receipt.
    public var receipt: Receipt?
    /// Set when the document is a business card.
    public var businessCard: BusinessCard?
    public var warnings: [Finding]

    public init(source: String, engine: EngineInfo, pages: [Page],
                entities: [Entity]? = nil, warnings: [Finding] = []) {
        self.schemaVersion = Document.currentSchemaVersion
        self.source = source
        self.engine = engine
        self.pages = pages
        self.entities = entities
        self.warnings = warnings
    }

    enum CodingKeys: String, CodingKey {
        case schemaVersion, source, engine, pages, entities, documentType, receipt, businessCard, warnings
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        schemaVersion = try c.decodeIfPresent(String.self, forKey: .schemaVersion) ?? Document.currentSchemaVersion
        source = try c.decodeIfPresent(String.self, forKey: .source) ?? ""
        engine = try c.decodeIfPresent(EngineInfo.self, forKey: .engine) ?? EngineInfo(name: "unknown", version: "")
        pages = try c.decode([Page].self, forKey: .pages)
        entities = try c.decodeIfPresent([Entity].self, forKey: .entities)
        documentType = try c.decodeIfPresent(DocumentType.self, forKey: .documentType)
        receipt = try c.decodeIfPresent(Receipt.self, forKey: .receipt)
        businessCard = try c.decodeIfPresent(BusinessCard.self, forKey: .businessCard)
        warnings = try c.decodeIfPresent([Finding].self, forKey: .warnings) ?? []
    }

    /// All text, pages separated by a blank line.
    public var text: String { pages.map(\.text).joined(separator: "\n\n") }
}
