import ScanInk
import ScanModel
import ScanRecognition

/// Handwriting on a recognized page: with `auto`, the learned judge (`HandwritingDetector`)
/// picks the lines that look handwritten, and the engine reads those lines again (not the
/// page: no second detection) with the word-list decoder (`HandwritingLineDecoder`); with `on`, the
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

    /// What the stage made of a page: its lines, what to record on it, and, when lines judged
    /// handwritten could not be decoded, why (the reason the word list could not be loaded).
    struct Outcome {
        var lines: [TextObservation]
        var page: PageHandwriting?
        var notDecoded: String?
    }

    /// The page's lines as handwriting reads them, and what to record on the page.
    /// `lines` are what `engine` returned for `image`. When the engine has read another page
    /// since, `restore` reads `image` again, so that the engine holds these lines to re-read;
    /// it runs only when some line is judged handwritten.
    func apply(_ lines: [TextObservation], image: RasterImage, engine: any TextRecognizer,
               restore: (() throws -> Void)? = nil) throws -> Outcome {
        guard !lines.isEmpty else { return Outcome(lines: lines) }
        switch mode {
        case .off:
            return Outcome(lines: lines)
        case .on:
            let confidence = Self.detector?.judge(lines, image: image).confidence ?? 1
            return Outcome(
                lines: lines.map {
                    var l = $0; l.handwritten = true; return l
                },
                page: PageHandwriting(lines: lines.count, confidence: Self.rounded(confidence), decision: "on"))
        case .auto:
            // Only an engine that gives line probabilities can decode with a word list.
            guard let detector = Self.detector, let decoding = engine as? any LineDecoding,
                  decoding.lineDecoder == nil else { return Outcome(lines: lines) }
            let judgement = detector.judge(lines, image: image)
            guard !judgement.lines.isEmpty else { return Outcome(lines: lines) }
            let confidence = Self.rounded(judgement.confidence)
            let lexicon: WordList
            do {
                lexicon = try InkModel.forLanguage(language).loadLexicon()
            } catch {
                // Judged handwritten, but no word list to decode with: the page keeps its
                // reading and says why (`finding(_:page:)`).
                return Outcome(lines: lines, page: PageHandwriting(lines: 0, confidence: confidence, decision: "auto"),
                               notDecoded: (error as? ScanError)?.reason ?? "\(error)")
            }
            try restore?()
            decoding.lineDecoder = HandwritingLineDecoder(lexicon: lexicon)
            defer { decoding.lineDecoder = nil }
            let picked = Set(judgement.lines).filter { lines.indices.contains($0) }.sorted()
            let again = try decoding.reread(linesAt: picked.map { lines[$0].boundingBox })
            let merged = Self.merged(lines, with: again, at: picked)
            return Outcome(lines: merged.lines,
                           page: PageHandwriting(lines: merged.replaced, confidence: confidence, decision: "auto"))
        }
    }

    /// The page's warning when its judged lines were not decoded: `reason` is the stage's own
    /// (`Outcome.notDecoded`), so a list that is missing, unreadable or for a language with no
    /// recognizer each says what it is.
    static func finding(notDecoded reason: String, page: Int) -> Finding {
        Finding(code: "handwriting-not-decoded",
                message: "the page looks handwritten, but its lines were not read with a word list: \(reason)",
                page: page)
    }

    /// `lines` with the line at each of `indices` replaced by its new reading (`rereadings`,
    /// in the same order), marked `handwritten`; a line with no new reading keeps its first.
    static func merged(_ lines: [TextObservation], with rereadings: [TextObservation?],
                       at indices: [Int]) -> (lines: [TextObservation], replaced: Int) {
        var out = lines
        var replaced = 0
        for (i, new) in zip(indices, rereadings) where lines.indices.contains(i) {
            guard var new else { continue }
            new.handwritten = true
            out[i] = new
            replaced += 1
        }
        return (out, replaced)
    }

    static func rounded(_ p: Double) -> Double { (p * 1000).rounded() / 1000 }
}
