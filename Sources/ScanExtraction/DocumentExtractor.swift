import Foundation
import ScanDetectors
import ScanLayout
import ScanModel

/// The engine-free stages after recognition: layout, classification and parsing.
///
/// ```swift
/// let extractor = DocumentExtractor(detector: try DataDetector())
/// let doc = try extractor.extract(recognized)           // classifier decides
/// let card = try extractor.extract(recognized, as: .businessCard).businessCard
/// ```
public struct DocumentExtractor: Sendable {
    public let analyzer: LineAnalyzer
    public let classifier: DocumentClassifier

    public init(detector: DataDetector, classifier: DocumentClassifier = DocumentClassifier()) {
        self.analyzer = LineAnalyzer(detector: detector)
        self.classifier = classifier
    }

    /// Starts reading the locale files and the learned models on other threads, each once, so that a run's first
    /// document does not wait for them one after the other (about 70 ms of a one-receipt run) and they load while
    /// the first page is recognized. A document that needs one before it is read waits for that one only.
    /// Plain threads, not Dispatch's: they inherit the caller's priority (a service worker's lowered one), where
    /// Dispatch would give them its own. Started once per process, by whichever processor asks first.
    public static func loadModelsInBackground() { _ = backgroundLoads }

    private static let backgroundLoads: Void = {
        let loads: [@Sendable () -> Void] = [
            { _ = Lexicon.loaded }, { _ = ReceiptFieldModel.loaded }, { _ = ItemLineModel.loaded },
        ]
        for load in loads { Thread.detachNewThread(load) }
    }()

    /// Warning codes this stage owns; earlier ones are dropped when a document is re-extracted.
    static let ownPrefixes = ["receipt-", "card-"]

    /// Classifies `doc` (unless `kind` is given) and adds `documentType` and `receipt` or `businessCard`.
    /// - Throws: `LexiconError` when a file this document needs is missing or broken: the locale files or the OCR
    ///   confusion table (`Lexicon.loaded` holds both) for any document, the two receipt models for a receipt. The
    ///   error names the file; a card is still read when only a receipt model is broken.
    public func extract(_ doc: Document, as kind: DocumentKind? = nil) throws -> Document {
        _ = try Lexicon.loaded.get()
        var out = doc
        out.warnings.removeAll { w in Self.ownPrefixes.contains { w.code.hasPrefix($0) } }
        out.receipt = nil
        out.businessCard = nil
        let analysis = analyzer.analysis(of: doc)
        let lines = analysis.lines
        if let kind {
            out.documentType = DocumentType(label: kind, confidence: 1, overridden: true)
        } else {
            out.documentType = classifier.classify(doc, lines: lines)
        }
        switch out.documentType!.label {
        case .receipt:
            var parser = ReceiptParser(
                fieldModel: try ReceiptFieldModel.loaded.get(), itemModel: try ItemLineModel.loaded.get())
            parser.referenceYear = analyzer.detector.referenceDate.year
            parser.region = analysis.context.region
            let (r, f) = parser.parse(lines)
            out.receipt = r
            out.warnings += f
        case .businessCard:
            let (c, f) = BusinessCardParser(region: analysis.context.region).parse(analyzer.columns(of: analysis))
            out.businessCard = c
            out.warnings += f
        case .other:
            break
        }
        return out
    }
}
