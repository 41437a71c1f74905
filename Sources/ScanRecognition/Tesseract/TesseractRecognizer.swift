import CTesseract
import Foundation
import ScanModel

/// Tesseract (LSTM) behind `TextRecognizer`. One instance per worker; reuse it.
public final class TesseractRecognizer: TextRecognizer {
    /// How Tesseract segments the page into blocks and lines.
    public enum Segmentation: Int32, Sendable, Codable, CaseIterable {
        /// Full automatic layout analysis (Tesseract's default, `--psm 3`).
        case auto = 3
        /// One column of text of variable sizes (`--psm 4`): receipts and cards.
        case singleColumn = 4
        /// As much text as possible in no particular order (`--psm 11`).
        case sparse = 11
    }

    public let info: EngineInfo
    private let api: TesseractAPI
    private let options: RecognitionOptions
    private let dataPath: String?
    /// Checked between and during pages.
    public var cancellation: CancellationToken?
    public var segmentation: Segmentation {
        didSet { TessBaseAPISetPageSegMode(api.handle, TessPageSegMode(rawValue: UInt32(segmentation.rawValue))) }
    }

    /// - Parameters:
    ///   - dataPath: a tessdata folder; nil uses `TESSDATA_PREFIX`, else the project's
    ///     (`ModelFolder.tessdata`) when it holds every language asked for, else the system's.
    ///   - customWordsFile: a file of words, one per line, that the dictionary should know.
    public init(options: RecognitionOptions, dataPath: String? = nil, customWordsFile: String? = nil,
                segmentation: Segmentation = .auto) throws {
        self.options = options
        self.dataPath = dataPath
        var vars: [String: String] = [:]
        if let customWordsFile { vars["user_words_file"] = customWordsFile }
        if options.candidateCount > 0 { vars["lstm_choice_mode"] = "2" }
        // Our inputs are dark text on light paper (inverted lines are rare on receipts
        // and cards); skipping Tesseract's inverted-line retry saves time at no loss.
        vars["tessedit_do_invert"] = "0"
        let langs = Self.languageString(options.languages)
        api = try TesseractAPI(
            languages: langs, dataPath: dataPath ?? Self.projectDataPath(for: langs), variables: vars)
        self.segmentation = segmentation
        TessBaseAPISetPageSegMode(api.handle, TessPageSegMode(rawValue: UInt32(segmentation.rawValue)))
        let model = langs + (options.level == .fast ? " (fast)" : "")
        info = EngineInfo(name: "tesseract", version: TesseractAPI.version, model: model)
    }

    /// Tesseract's own settings, apart from what every engine is asked.
    public struct Configuration: Sendable, Hashable, Codable {
        public var segmentation: Segmentation
        /// A file of words, one per line, that the dictionary should know.
        public var customWordsFile: String?
        /// A tessdata folder; nil uses `TESSDATA_PREFIX` or the system's.
        public var dataPath: String?

        /// One column (psm 4) read receipts best: 0.807 against 0.799 for automatic layout on the SROIE dev scans.
        public init(segmentation: Segmentation = .singleColumn, customWordsFile: String? = nil, dataPath: String? = nil)
        {
            self.segmentation = segmentation
            self.customWordsFile = customWordsFile
            self.dataPath = dataPath
        }
    }

    public convenience init(options: RecognitionOptions, configuration: Configuration) throws {
        try self.init(
            options: options, dataPath: configuration.dataPath, customWordsFile: configuration.customWordsFile,
            segmentation: configuration.segmentation)
    }

    /// Gray, straightened, with glyphs about 32 px high (24 at the fast level): Tesseract
    /// reads poorly below ~20 px of text height, and receipt scans are often ~460 px wide.
    /// Its global threshold loses pale print on unevenly faded paper.
    public var capabilities: EngineCapabilities {
        EngineCapabilities(input: .gray, preferredTextHeight: options.level == .fast ? 24 : 32, wantsDeskew: true,
                           needsEvenContrast: true)
    }

    public func recognize(_ image: RasterImage, context: RecognitionContext) throws -> [TextObservation] {
        if let token = context.cancellation { cancellation = token }
        return try recognize(image, dpi: context.dpi ?? 300)
    }

    /// Recognizes with a known resolution.
    public func recognize(_ image: RasterImage, dpi: Int) throws -> [TextObservation] {
        try cancellation?.check()
        defer { api.clear() }
        let ok = image.pixels.withUnsafeBufferPointer { buf -> Bool in
            api.setImage(buf, width: image.width, height: image.height, channels: image.channels, dpi: dpi)
            return api.recognize(cancellation: cancellation)
        }
        try cancellation?.check()
        guard ok else { throw ScanError(.engine, "Tesseract failed to recognize the page") }
        guard let results = TesseractResults(api) else { return [] }
        return Self.collectLines(results, candidates: options.candidateCount)
    }

    // MARK: - Reading results

    private struct WordAcc {
        var text: String
        var confidence: Double
        var box: (Int, Int, Int, Int)
        var symbols: [[(String, Double)]] = []
    }

    private static func collectLines(_ r: TesseractResults, candidates: Int) -> [TextObservation] {
        let level = candidates > 0 ? RIL_SYMBOL : RIL_WORD
        var lines: [[WordAcc]] = []
        repeat {
            if r.isAtBeginning(of: RIL_TEXTLINE) || lines.isEmpty { lines.append([]) }
            if level == RIL_WORD || r.isAtBeginning(of: RIL_WORD) {
                if let t = r.text(RIL_WORD)?.trimmingCharacters(in: .whitespacesAndNewlines), !t.isEmpty,
                   let b = r.box(RIL_WORD) {
                    lines[lines.count - 1].append(WordAcc(text: t, confidence: r.confidence(RIL_WORD), box: b))
                }
            }
            if level == RIL_SYMBOL, !lines[lines.count - 1].isEmpty {
                let choices = r.symbolChoices()
                if !choices.isEmpty { lines[lines.count - 1][lines[lines.count - 1].count - 1].symbols.append(choices) }
            }
        } while r.next(level)

        return lines.compactMap { words -> TextObservation? in
            guard !words.isEmpty else { return nil }
            let recognized = words.map { w in
                RecognizedWord(
                    text: w.text, confidence: clamp01(w.confidence / 100),
                    boundingBox: BoundingBox(
                        x: Double(w.box.0), y: Double(w.box.1),
                        width: Double(w.box.2 - w.box.0), height: Double(w.box.3 - w.box.1)))
            }
            let text = recognized.map(\.text).joined(separator: " ")
            let chars = recognized.reduce(0) { $0 + $1.text.count }
            let conf = recognized.reduce(0.0) { $0 + $1.confidence * Double($1.text.count) } / Double(max(1, chars))
            let box = BoundingBox.enclosing(recognized.map(\.boundingBox))!
            var obs = TextObservation(text: text, confidence: conf, boundingBox: box, words: recognized)
            if candidates > 0 {
                obs.candidates = LineCandidates.nBest(
                    words: words.map { $0.symbols.isEmpty ? [[($0.text, $0.confidence)]] : $0.symbols },
                    count: candidates, lineConfidence: conf, fallback: text)
            }
            return obs
        }
    }
}

func clamp01(_ v: Double) -> Double { min(1, max(0, v)) }

extension TesseractRecognizer {
    /// Where Debian's `tesseract-ocr-<lang>` packages put the language data (Tesseract 5, then 4).
    public static let systemDataFolders = [
        "/usr/share/tesseract-ocr/5/tessdata", "/usr/share/tesseract-ocr/4.00/tessdata"
    ]

    /// The project's tessdata folder (`scanextract models install tesseract-...`) when no
    /// `TESSDATA_PREFIX` is set and it holds every language of `languages` ("eng+fra"); else nil,
    /// and Tesseract uses the system's.
    static func projectDataPath(for languages: String) -> String? {
        guard ProcessInfo.processInfo.environment["TESSDATA_PREFIX"] == nil else { return nil }
        let folder = ModelFolder.tessdata()
        let all = languages.split(separator: "+").allSatisfy {
            FileManager.default.isReadableFile(atPath: "\(folder)/\($0).traineddata")
        }
        return all ? folder : nil
    }

    /// Tesseract's name for a list of languages: `eng+fra`, English when none is given.
    public static func languageString(_ languages: [String]) -> String {
        languages.isEmpty ? "eng" : languages.joined(separator: "+")
    }

    /// Whether Tesseract finds trained data for every language of `languages` ("eng+fra"): in the project's folder, or
    /// where it looks by itself (`TESSDATA_PREFIX`, else the system's folders). A server asks this before it takes a
    /// job, so that a language it lacks is the request's error at once, not a job that fails in a worker.
    public static func hasData(for languages: String) -> Bool {
        if projectDataPath(for: languages) != nil { return true }
        let folders = ProcessInfo.processInfo.environment["TESSDATA_PREFIX"].map { [$0] } ?? systemDataFolders
        return languages.split(separator: "+").allSatisfy { language in
            folders.contains { FileManager.default.isReadableFile(atPath: "\($0)/\(language).traineddata") }
        }
    }

    /// The installed Tesseract and its language data, for listings.
    public static func catalogEntry(dataPath: String? = nil) -> (
        name: String, status: String, version: String, models: [String]
    ) {
        let folders =
            [dataPath, ProcessInfo.processInfo.environment["TESSDATA_PREFIX"], ModelFolder.tessdata()].compactMap { $0 }
            + systemDataFolders
        for folder in folders {
            let files = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            let langs = files.filter { $0.hasSuffix(".traineddata") }.map { String($0.dropLast(12)) }.sorted()
            if !langs.isEmpty {
                return ("tesseract", "available", TesseractAPI.version,
                        langs.map { "\($0)\t\(folder)/\($0).traineddata" })
            }
        }
        return ("tesseract", "no language data (apt-get install tesseract-ocr-eng)", TesseractAPI.version, [])
    }
}
