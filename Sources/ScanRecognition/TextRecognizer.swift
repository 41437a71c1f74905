import ScanModel

/// How hard an engine should try.
public enum RecognitionLevel: String, Sendable, CaseIterable, Codable {
    /// Fewer passes: no per-line orientation check, smaller detection sizes, ...
    case fast
    /// Everything the engine can do.
    case accurate
}

/// What an engine needs from the pipeline and what it does by itself. The pipeline
/// prepares each page from these, and never asks which engine it has.
public struct EngineCapabilities: Sendable, Hashable {
    public enum Input: String, Sendable, Hashable {
        /// Gray is all the engine reads (it binarizes): a third of the work for every step before it.
        case gray
        /// The engine reads colour.
        case color
    }
    public var input: Input
    /// The glyph height in pixels the engine reads best; smaller text is enlarged to it.
    /// Nil when the engine sizes the page for itself.
    public var preferredTextHeight: Double?
    /// Slight skew should be straightened before recognition.
    public var wantsDeskew: Bool
    /// The engine separates ink from paper with one global threshold, so a faded page whose
    /// paper is uneven should have its background flattened and contrast stretched first.
    public var needsEvenContrast: Bool
    /// The engine reads a photographed page in perspective as it is: it finds each line's
    /// quadrilateral and cuts it out straight. The camera stage then only records the page.
    public var readsPerspective: Bool

    public init(input: Input, preferredTextHeight: Double? = nil, wantsDeskew: Bool = false,
                needsEvenContrast: Bool = false, readsPerspective: Bool = false) {
        self.input = input
        self.preferredTextHeight = preferredTextHeight
        self.wantsDeskew = wantsDeskew
        self.needsEvenContrast = needsEvenContrast
        self.readsPerspective = readsPerspective
    }
}

/// What the pipeline knows about one page when it hands it to an engine.
public struct RecognitionContext: Sendable {
    /// The resolution of the pixels given, when known.
    public var dpi: Int?
    public var cancellation: CancellationToken?

    public init(dpi: Int? = nil, cancellation: CancellationToken? = nil) {
        self.dpi = dpi
        self.cancellation = cancellation
    }
}

/// What a caller asks of a recognizer. Options that every engine treats alike
/// (region of interest, minimum text height) are applied by the pipeline
/// around the engine, not by each engine.
public struct RecognitionOptions: Sendable, Hashable, Codable {
    /// Engine language codes, e.g. `["eng"]` (Tesseract) or `["en"]`.
    public var languages: [String]
    public var level: RecognitionLevel
    /// Words the engine should prefer (names, product codes, ...).
    public var customWords: [String]
    /// How many alternative readings to give per line (0: none).
    public var candidateCount: Int

    public init(languages: [String] = ["eng"], level: RecognitionLevel = .accurate,
                customWords: [String] = [], candidateCount: Int = 0) {
        self.languages = languages
        self.level = level
        self.customWords = customWords
        self.candidateCount = candidateCount
    }
}

/// An OCR engine: pixels in, lines with words and boxes out.
///
/// Engines hold native state and are **not** thread-safe: create one per worker
/// and reuse it for every page that worker handles (see `RecognizerPool`).
public protocol TextRecognizer: AnyObject {
    /// Name, version and model, as written into every document.
    var info: EngineInfo { get }

    /// What the engine wants done to a page before it gets it.
    var capabilities: EngineCapabilities { get }

    /// Recognizes a page. Returned boxes are in the pixels of `image`, top-left origin.
    /// Lines come in reading order as far as the engine knows it.
    func recognize(_ image: RasterImage, context: RecognitionContext) throws -> [TextObservation]
}

extension TextRecognizer {
    /// Recognizes with nothing known about the page.
    public func recognize(_ image: RasterImage) throws -> [TextObservation] {
        try recognize(image, context: RecognitionContext())
    }
}
