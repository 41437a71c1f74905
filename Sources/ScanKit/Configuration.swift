import Foundation
import ScanCamera
import ScanDetectors
import ScanInput
import ScanInk
import ScanModel
import ScanRecognition

/// The OCR engines scanextract can run.
public enum EngineKind: String, Sendable, CaseIterable, Codable {
    /// PP-OCRv6 (DB detection + SVTR recognition) on ONNX Runtime.
    case ppocr
    /// Tesseract 5 (LSTM).
    case tesseract

    /// PP-OCR when its models and runtime are installed, else Tesseract. PP-OCR read
    /// the SROIE dev receipts at 0.941 char-trigram F1 against Tesseract's 0.807.
    /// Where `SCANEXTRACT_MODELS` or `SCANEXTRACT_ONNXRUNTIME` names PP-OCR's parts, PP-OCR is
    /// what the user asked for: a wrong path is then the run's error, which names it, not a
    /// silent fall to Tesseract (a card set read that way scored 0.84 against PP-OCR's 0.98).
    public static func preferred(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> EngineKind {
        if case .success = PPOCRModels.locate(environment: environment) { return .ppocr }
        let named = ["SCANEXTRACT_MODELS", "SCANEXTRACT_ONNXRUNTIME"].contains { environment[$0]?.isEmpty == false }
        return named ? .ppocr : .tesseract
    }
}

/// Whether lines are read as handwriting (decoded with a word list, as ink is).
public enum HandwritingMode: String, Sendable, Hashable, CaseIterable, Codable {
    /// A learned judge (`HandwritingDetector`) picks the lines that look handwritten, and only
    /// those are read again with the word list. PP-OCR only; with Tesseract, nothing happens.
    case auto
    /// Every line is handwriting.
    case on
    /// Print: the recognizer's reading stands.
    case off

    /// The default of the command line, the service and the configuration. `auto`: on the
    /// printed dev sets (sroie-dev, receipts-photo-dev, cards-dev) the judge flagged 2 of about
    /// 6,500 lines (2 of 170 pages), whose text the word list left as it was: no score moved
    /// (Benchmarks/RESULTS.md, "Handwriting auto").
    public static let standard = HandwritingMode.auto

    /// The mode as the command line and the service's query spell it: by name (any case), or as a
    /// flag (`true`, `1`, `yes` or an empty value for `on`; `false`, `0`, `no` for `off`), as
    /// `--handwriting` was before it took a mode. Nil for anything else.
    public init?(spelling: String) {
        switch spelling.lowercased() {
        case "auto": self = .auto
        case "on", "", "true", "1", "yes": self = .on
        case "off", "false", "0", "no": self = .off
        default: return nil
        }
    }
}

/// A region of interest: fractions of the page (all values ≤ 1) or page pixels.
public struct RegionOfInterest: Sendable, Hashable, Codable {
    public var x: Double, y: Double, width: Double, height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    /// Parses `x,y,w,h`.
    public init?(parsing s: String) {
        let parts = s.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 4, let x = parts[0], let y = parts[1], let w = parts[2], let h = parts[3],
            x >= 0, y >= 0, w > 0, h > 0
        else { return nil }
        self.init(x: x, y: y, width: w, height: h)
    }

    public var isNormalized: Bool { x <= 1 && y <= 1 && width <= 1 && height <= 1 }

    /// The region in the pixels of a page of the given size.
    public func box(pageWidth: Double, pageHeight: Double) -> BoundingBox {
        isNormalized
            ? BoundingBox(x: x * pageWidth, y: y * pageHeight, width: width * pageWidth, height: height * pageHeight)
            : BoundingBox(x: x, y: y, width: width, height: height)
    }
}

/// Everything the pipeline needs to know, set once per run. The command line, the
/// service and a job record all share it: it encodes to JSON, and decoding fills in the
/// default of every key that is left out.
public struct ScanConfiguration: Sendable, Hashable, Codable {
    public var engine: EngineKind = .tesseract
    /// ONNX Runtime threads inside one model run (PP-OCR). With one document per
    /// core already running, more threads only contend.
    public var engineThreads = 1
    public var recognition = RecognitionOptions()
    /// Tesseract's own settings (page segmentation, custom words file, tessdata folder).
    public var tesseract = TesseractRecognizer.Configuration()
    /// Ignore text smaller than this fraction of the page height (0: keep all).
    public var minimumTextHeight: Double = 0
    public var regionOfInterest: RegionOfInterest?
    /// Recognize every PDF page, even those with a text layer.
    public var forceOCR = false
    /// Detect and correct 90/180/270° page rotation.
    public var detectOrientation = true
    /// The document camera on photos: find the page, flatten it, even its light (`--camera`).
    public var camera = CameraMode.auto
    public var cameraOptions = DocumentCamera.Options()
    public var limits = InputLimits()
    public var preprocessing = Preprocessor.Options()
    /// Run the data detectors and add `entities` to each document.
    public var detectEntities = true
    /// Classify documents and parse receipts and business cards (`documentType`, `receipt`, `businessCard`).
    public var extractFields = true
    /// Skip the classifier and parse every document as this type (`--type`).
    public var documentTypeOverride: DocumentKind?
    /// Take a PDF's receipt fields from the invoice it embeds (Factur-X, ZUGFeRD, XRechnung CII), when it embeds one
    /// and the document is not read as another type by `--type` (`--no-embedded-invoice` turns it off).
    public var embeddedInvoices = true
    /// Default country (ISO 3166-1 alpha-2) for phone numbers and dates, when the text doesn't say.
    public var country: String?
    /// `yyyy-mm-dd`: anchors two-digit years and bounds a receipt's date; today when nil.
    public var referenceDate: String?
    /// `referenceDate` as a day; nil when it is not given or not `yyyy-mm-dd`.
    public var referenceDay: CalendarDay? { referenceDate.flatMap(CalendarDay.init(iso:)) }
    /// Pages averaging below this confidence get a `low-confidence` warning.
    public var lowConfidenceThreshold = 0.5
    /// Handwriting: judged per line (`auto`), every line (`on`: the engine decodes each line
    /// with the word list of `handwritingLanguage`), or none.
    public var handwriting = HandwritingMode.standard
    /// The word list's language for handwriting (BCP-47).
    public var handwritingLanguage = "en-US"
    /// Word lists PP-OCR reads its doubtful printed words against (`PrintedWords`): nil, the
    /// standard ones that are installed; files (one word a line, or Hunspell `.dic`); empty, none.
    public var wordLists: [String]?

    public init() {}

    enum CodingKeys: String, CodingKey {
        case engine, engineThreads, recognition, tesseract, minimumTextHeight, regionOfInterest, forceOCR,
            detectOrientation, camera, cameraOptions, limits, preprocessing, detectEntities, extractFields,
            documentTypeOverride, embeddedInvoices,
            country, referenceDate, lowConfidenceThreshold, handwriting, handwritingLanguage, wordLists
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        var d = ScanConfiguration()
        func take<T: Decodable>(_ key: CodingKeys, _ value: inout T) throws {
            if let v = try c.decodeIfPresent(T.self, forKey: key) { value = v }
        }
        try take(.engine, &d.engine)
        try take(.engineThreads, &d.engineThreads)
        try take(.recognition, &d.recognition)
        try take(.tesseract, &d.tesseract)
        try take(.minimumTextHeight, &d.minimumTextHeight)
        d.regionOfInterest = try c.decodeIfPresent(RegionOfInterest.self, forKey: .regionOfInterest)
        try take(.forceOCR, &d.forceOCR)
        try take(.detectOrientation, &d.detectOrientation)
        try take(.camera, &d.camera)
        try take(.cameraOptions, &d.cameraOptions)
        try take(.limits, &d.limits)
        try take(.preprocessing, &d.preprocessing)
        try take(.detectEntities, &d.detectEntities)
        try take(.extractFields, &d.extractFields)
        d.documentTypeOverride = try c.decodeIfPresent(DocumentKind.self, forKey: .documentTypeOverride)
        try take(.embeddedInvoices, &d.embeddedInvoices)
        d.country = try c.decodeIfPresent(String.self, forKey: .country)
        d.referenceDate = try c.decodeIfPresent(String.self, forKey: .referenceDate)
        try take(.lowConfidenceThreshold, &d.lowConfidenceThreshold)
        // A configuration from before `handwriting` existed said "on" by a language in its
        // recognition options.
        let legacy = try c.decodeIfPresent(LegacyRecognition.self, forKey: .recognition)?.handwriting
        if let mode = try c.decodeIfPresent(HandwritingMode.self, forKey: .handwriting) {
            d.handwriting = mode
        } else if legacy != nil {
            d.handwriting = .on
        }
        if let legacy { d.handwritingLanguage = legacy }
        try take(.handwritingLanguage, &d.handwritingLanguage)
        d.wordLists = try c.decodeIfPresent([String].self, forKey: .wordLists)
        self = d
    }

    /// The one field of an older configuration's `recognition` that moved out of it.
    private struct LegacyRecognition: Decodable {
        var handwriting: String?
    }
}

/// Builds one engine per worker.
public enum RecognizerFactory {
    public static func make(_ config: ScanConfiguration) throws -> any TextRecognizer {
        switch config.engine {
        case .ppocr:
            // Files that are not there now will not be there on another try: no new worker, no retry.
            let models = try PPOCRModels.locate().mapError { e -> ScanError in
                var lasting = e
                lasting.lasting = true
                return lasting
            }.get()
            let engine = try PPOCRRecognizer(
                models: models, options: config.recognition, intraOpThreads: config.engineThreads)
            engine.keepsLinesForRereading = config.handwriting == .auto
            if config.handwriting == .on {
                engine.lineDecoder = HandwritingLineDecoder(
                    lexicon: try InkModel.forLanguage(config.handwritingLanguage).loadLexicon())
            }
            // The words the user wants preferred (`--custom-words`) are listed words for the second look too.
            engine.wordCorrector = try PrintedWords.corrector(
                lists: config.wordLists, extraWords: config.recognition.customWords)
            return engine
        case .tesseract:
            if config.handwriting == .on {
                throw ScanError(
                    .invalidOption,
                    "handwriting needs the ppocr engine: Tesseract gives no line probabilities to decode with a word list"
                )
            }
            return try TesseractRecognizer(options: config.recognition, configuration: config.tesseract)
        }
    }
}
