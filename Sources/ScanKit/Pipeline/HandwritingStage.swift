import ScanInk
import ScanModel
import ScanRecognition

/// Handwriting on a recognized page: with `auto`, the learned judge (`HandwritingDetector`)
/// picks the lines that look handwritten, the page is read again with the word-list decoder
/// (`HandwritingLineDecoder`) and only those lines take the new reading; with `on`, the
/// engine has decoded every line already and the lines are only marked. Printed pages cost
/// the judge alone: no second reading, and the word list is never loaded.
struct HandwritingStage {
    let mode: HandwritingMode
    let language: String

    /// Loaded once per process; nil (auto does nothing) if the weights cannot be read.
    static let detector: HandwritingDetector? = try? HandwritingDetector.shipped()

    init(configuration: ScanConfiguration) {
        mode = configuration.handwriting
        language = configuration.handwritingLanguage
    }

    /// The page's lines as handwriting reads them, and what to record on the page.
    /// `image` is the page the engine read; `reread` reads it again with the engine as it then is.
    func apply(_ lines: [TextObservation], image: RasterImage, engine: any TextRecognizer,
               reread: () throws -> [TextObservation]) throws -> (lines: [TextObservation], page: PageHandwriting?) {
        guard !lines.isEmpty else { return (lines, nil) }
        switch mode {
        case .off:
            return (lines, nil)
        case .on:
            let confidence = Self.detector?.judge(lines, image: image).confidence ?? 1
            return (lines.map { var l = $0; l.handwritten = true; return l },
                    PageHandwriting(lines: lines.count, confidence: Self.rounded(confidence), decision: "on"))
        case .auto:
            // Only an engine that gives line probabilities can decode with a word list.
            guard let detector = Self.detector, let decoding = engine as? any LineDecoding,
                  decoding.lineDecoder == nil else { return (lines, nil) }
            let judgement = detector.judge(lines, image: image)
            guard !judgement.lines.isEmpty else { return (lines, nil) }
            let confidence = Self.rounded(judgement.confidence)
            guard let model = try? InkModel.forLanguage(language), let lexicon = try? model.loadLexicon() else {
                // Judged handwritten, but the word list is missing: the page keeps its reading
                // and says so (`DocumentProcessor.findings`).
                return (lines, PageHandwriting(lines: 0, confidence: confidence, decision: "auto"))
            }
            decoding.lineDecoder = HandwritingLineDecoder(lexicon: lexicon)
            defer { decoding.lineDecoder = nil }
            let merged = Self.merged(lines, with: try reread(), handwritten: Set(judgement.lines))
            return (merged.lines, PageHandwriting(lines: merged.replaced, confidence: confidence, decision: "auto"))
        }
    }

    /// `lines` with each line of `handwritten` (indices) replaced by the line of `decoded` read
    /// from the same detected box, marked `handwritten`. Detection does not depend on the
    /// decoder, so the boxes agree; a line with no match keeps its first reading.
    static func merged(_ lines: [TextObservation], with decoded: [TextObservation],
                       handwritten: Set<Int>) -> (lines: [TextObservation], replaced: Int) {
        var out = lines
        var replaced = 0
        for i in handwritten.sorted() where i < lines.count {
            let box = lines[i].boundingBox
            guard let match = decoded.first(where: { sameBox($0.boundingBox, box) }) else { continue }
            out[i] = match
            out[i].handwritten = true
            replaced += 1
        }
        return (out, replaced)
    }

    static func sameBox(_ a: BoundingBox, _ b: BoundingBox) -> Bool {
        abs(a.x - b.x) <= 1 && abs(a.y - b.y) <= 1 && abs(a.width - b.width) <= 1 && abs(a.height - b.height) <= 1
    }

    static func rounded(_ p: Double) -> Double { (p * 1000).rounded() / 1000 }
}
