import Foundation
import ScanCamera
import ScanDetectors
import ScanInk
import ScanModel
import ScanRecognition

/// The options of `scanextract scan` that shape a ``ScanConfiguration``, by the names the
/// command line gives them. The command line and the HTTP service (whose query takes the
/// same names) both build their configuration here, so an option means the same in both.
public struct ScanOptions: Sendable, Hashable {
    public var engine = "auto"
    public var languages = "eng"
    public var level = RecognitionLevel.accurate.rawValue
    /// A file of words, one a line. The command line only: a server never reads a path a client names.
    public var customWords: String?
    public var minTextHeight: Double = 0
    public var region: String?
    public var candidates = 0
    public var country: String?
    public var referenceDate: String?
    public var noEntities = false
    public var forceOCR = false
    /// Read the PDF's text even where it embeds a structured invoice (Factur-X, ZUGFeRD, XRechnung).
    public var noEmbeddedInvoice = false
    public var camera = CameraMode.auto
    public var noLight = false
    public var noOrientation = false
    public var noDeskew = false
    public var psm: Int32 = TesseractRecognizer.Segmentation.singleColumn.rawValue
    public var dpi: Double = 300
    public var maxPixels = 150_000_000
    public var maxPages = 1000
    public var documentType: String?
    /// Which lines are handwriting, decoded with the word list of `handwritingLanguage`:
    /// those the learned judge picks (`auto`), all (`on`) or none (`off`).
    public var handwriting = HandwritingMode.standard
    public var handwritingLanguage = "en-US"
    /// The word lists PP-OCR reads its doubtful printed words against: `auto` (the standard ones,
    /// `PrintedWords.standardLists`), `off`, or files separated by commas (the command line only).
    public var wordLists = "auto"

    public init() {}

    /// Options from `name=value` pairs (a URL query). A flag is on when present with no value,
    /// `true` or `1`. Unknown names and values that don't parse throw `invalid-option`.
    public init(query: [(name: String, value: String)]) throws {
        self.init()
        func bad(_ name: String, _ value: String) -> ScanError {
            ScanError(.invalidOption, "'\(value)' is not a valid value for \(name)")
        }
        for (name, value) in query {
            func flag() throws -> Bool {
                switch value.lowercased() {
                case "", "true", "1", "yes": return true
                case "false", "0", "no": return false
                default: throw bad(name, value)
                }
            }
            func number<T: LosslessStringConvertible>(_: T.Type) throws -> T {
                guard let v = T(value) else { throw bad(name, value) }
                return v
            }
            switch name {
            case "engine": engine = value
            case "languages": languages = value
            case "level": level = value
            case "min-text-height": minTextHeight = try number(Double.self)
            case "region": region = value
            case "candidates": candidates = try number(Int.self)
            case "country": country = value
            case "reference-date": referenceDate = value
            case "no-entities": noEntities = try flag()
            case "force-ocr": forceOCR = try flag()
            case "no-embedded-invoice": noEmbeddedInvoice = try flag()
            case "camera":
                guard let mode = CameraMode(rawValue: value) else { throw bad(name, value) }
                camera = mode
            case "no-light": noLight = try flag()
            case "no-orientation": noOrientation = try flag()
            case "no-deskew": noDeskew = try flag()
            case "psm": psm = try number(Int32.self)
            case "dpi": dpi = try number(Double.self)
            case "max-pixels": maxPixels = try number(Int.self)
            case "max-pages": maxPages = try number(Int.self)
            case "type": documentType = value
            case "handwriting":
                guard let mode = HandwritingMode(spelling: value) else { throw bad(name, value) }
                handwriting = mode
            case "handwriting-language": handwritingLanguage = value
            case "word-lists":
                // A server never reads a path a client names.
                guard value == "auto" || value == "off" else { throw bad(name, value) }
                wordLists = value
            default: throw ScanError(.invalidOption, "unknown option '\(name)'")
            }
        }
    }

    /// The files of `wordLists`; nil for `auto` and `off`.
    var wordListFiles: [String]? {
        wordLists == "auto" || wordLists == "off" ? nil : wordLists.split(separator: ",").map(String.init)
    }

    /// Checks every value; the reason names the option as the command line spells it.
    public func validate() throws {
        func invalid(_ reason: String) -> ScanError { ScanError(.invalidOption, reason) }
        guard engine == "auto" || EngineKind(rawValue: engine) != nil else {
            throw invalid(
                "unknown engine '\(engine)'; choose from \(EngineKind.allCases.map(\.rawValue).joined(separator: ", "))"
            )
        }
        guard RecognitionLevel(rawValue: level) != nil else { throw invalid("--level must be fast or accurate") }
        // Language names are file names of trained data (`eng`, `chi_sim`, `script/Latin`), never a path elsewhere.
        for language in languages.split(whereSeparator: { $0 == "," || $0 == "+" }) {
            let parts = language.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count <= 2,
                parts.allSatisfy({
                    !$0.isEmpty && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
                })
            else {
                throw invalid(
                    "--languages: '\(language)' is no language name (give codes such as eng, deu or chi_sim, joined by + or ,)"
                )
            }
        }
        if let country, !DataDetector.isValidRegion(country) {
            throw invalid("--country must be a two-letter ISO 3166-1 code such as US, GB or DE, not '\(country)'")
        }
        if let referenceDate, CalendarDay(iso: referenceDate) == nil {
            throw invalid("--reference-date must be a day as yyyy-mm-dd, not '\(referenceDate)'")
        }
        if let documentType, DocumentKind(rawValue: documentType) == nil {
            throw invalid("--type must be receipt, businessCard or other")
        }
        if let region, RegionOfInterest(parsing: region) == nil {
            throw invalid("--region must be x,y,w,h with non-negative numbers and positive width and height")
        }
        guard minTextHeight >= 0 && minTextHeight < 1 else {
            throw invalid("--min-text-height is a fraction of the page height, from 0 to 1")
        }
        guard candidates >= 0 && candidates <= 20 else { throw invalid("--candidates must be from 0 to 20") }
        guard dpi >= 50 && dpi <= 1200 else { throw invalid("--dpi must be from 50 to 1200") }
        guard TesseractRecognizer.Segmentation(rawValue: psm) != nil else { throw invalid("--psm must be 3, 4 or 11") }
        guard maxPixels > 0 else { throw invalid("--max-pixels must be positive") }
        guard maxPages > 0 else { throw invalid("--max-pages must be positive") }
        if let customWords, !FileManager.default.isReadableFile(atPath: customWords) {
            throw invalid("--custom-words: cannot read '\(customWords)'")
        }
        for file in wordListFiles ?? [] where !FileManager.default.isReadableFile(atPath: file) {
            throw invalid(
                "--word-lists: cannot read '\(file)' (give auto, off, or word list files separated by commas)")
        }
        if wordListFiles != nil, engine == EngineKind.tesseract.rawValue {
            throw invalid(
                "--word-lists needs the ppocr engine: Tesseract gives no character probabilities to read words again with"
            )
        }
        if handwriting == .on, engine == EngineKind.tesseract.rawValue {
            throw invalid(
                "--handwriting needs the ppocr engine: Tesseract gives no line probabilities to decode with a word list"
            )
        }
        // With `auto` the word list is loaded only when a page looks handwritten; the language must exist.
        if handwriting != .off { _ = try InkModel.forLanguage(handwritingLanguage) }
    }

    /// The configuration these options give. `engineThreads` is what each engine may use.
    public func makeConfiguration(engineThreads: Int = 1) throws -> ScanConfiguration {
        try validate()
        var c = ScanConfiguration()
        // Handwriting is read by PP-OCR only: `auto` means it even when its models are missing,
        // so that the error names them rather than Tesseract misreading the page.
        c.engine =
            engine == "auto" ? (handwriting == .on ? .ppocr : EngineKind.preferred()) : EngineKind(rawValue: engine)!
        c.engineThreads = max(1, engineThreads)
        let inkLanguage = handwriting == .off ? nil : try InkModel.forLanguage(handwritingLanguage).language
        let words =
            try customWords.map { try String(contentsOfFile: $0, encoding: .utf8) }
            .map {
                $0.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter {
                    !$0.isEmpty
                }
            } ?? []
        c.recognition = RecognitionOptions(
            languages: languages.split(whereSeparator: { $0 == "," || $0 == "+" }).map(String.init),
            level: RecognitionLevel(rawValue: level)!, customWords: words, candidateCount: candidates)
        c.handwriting = handwriting
        if let inkLanguage { c.handwritingLanguage = inkLanguage }
        c.tesseract.customWordsFile = customWords
        c.wordLists = wordLists == "off" ? [] : wordListFiles
        c.minimumTextHeight = minTextHeight
        c.regionOfInterest = region.flatMap(RegionOfInterest.init(parsing:))
        c.forceOCR = forceOCR
        c.embeddedInvoices = !noEmbeddedInvoice
        c.detectOrientation = !noOrientation
        c.camera = camera
        c.cameraOptions.evenLight = !noLight
        if c.recognition.level == .fast {
            // Fast: no second look at doubtful pages, and less enlargement of small text.
            c.detectOrientation = false
        }
        c.preprocessing.deskew = !noDeskew
        c.limits.renderDPI = dpi
        c.limits.maxPixels = maxPixels
        c.limits.maxPages = maxPages
        c.tesseract.segmentation = TesseractRecognizer.Segmentation(rawValue: psm)!
        c.country = country
        c.referenceDate = referenceDate
        c.detectEntities = !noEntities
        c.documentTypeOverride = documentType.flatMap(DocumentKind.init(rawValue:))
        return c
    }
}
