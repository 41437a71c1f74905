import ScanModel

/// How hard an engine should try.
public enum RecognitionLevel: String, Sendable, CaseIterable, Codable {
    /// Fewer passes: no per-line orientation check, smaller detection sizes, ...
    case fast
    /// Everything the engine can do.
    case accurate
}

/// What a caller asks of a recognizer. Options that every engine treats alike
/// (region of interest, minimum text height) are applied by the pipeline
/// around the engine, not by each engine.
public struct RecognitionOptions: Sendable, Hashable {
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

    /// Recognizes an upright page. Returned boxes are in the pixels of `image`,
    /// top-left origin. Lines come in reading order as far as the engine knows it.
    func recognize(_ image: RasterImage) throws -> [TextObservation]
}
