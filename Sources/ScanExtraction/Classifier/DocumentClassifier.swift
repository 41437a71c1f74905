import Foundation
import ScanDetectors
import ScanLayout
import ScanModel

/// Routes a document to `receipt`, `businessCard` or `other` with a multinomial
/// logistic regression over a few text and geometry features. The weights are learned
/// by `swift run TrainClassifier` (see `Tools/train-classifier/`) and shipped in
/// `ClassifierWeights.swift`.
public struct DocumentClassifier: Sendable {
    public let weights: ClassifierModel

    public init(weights: ClassifierModel = .shipped) { self.weights = weights }

    public static let featureNames = [
        "bias", "logAspect", "logLines", "amountLineShare", "totalWord", "subtotalWord", "taxWord", "paymentWord",
        "itemCountShare", "phoneCount", "emailCount", "urlCount", "dateCount", "moneyShare", "invoiceWord",
        "titleWord", "orgSuffix", "nameLikeLine", "meanWordsPerLine", "digitShare", "pageCount", "ibanCount",
        "addressCount", "shortLineShare", "textSourcePDF", "amountLines", "proseShare", "longLineShare", "noContact",
    ]

    /// The features of a document, in `featureNames` order.
    public static func features(_ doc: Document, lines: [AnalyzedLine]) -> [Double] {
        let n = Double(max(1, lines.count))
        // The extent of the text, not of the photo around it.
        let box = BoundingBox.enclosing(lines.filter { $0.line.page == (doc.pages.first?.index ?? 0) }.map(\.line.box))
        let aspect = box.map { $0.height / max(1, $0.width) } ?? 1
        let count = { (t: EntityType) in Double(lines.reduce(0) { $0 + $1.entities.filter { $0.type == t }.count }) }
        var totalWord = 0.0, subtotal = 0.0, tax = 0.0, payment = 0.0, invoice = 0.0, title = 0.0, org = 0.0,
            nameLike = 0.0
        var words = 0, digits = 0, chars = 0, shortLines = 0, amountLines = 0, itemCount = 0, proseLines = 0,
            longLines = 0
        for l in lines {
            let k = l.key
            switch l.role {
            case .total: totalWord = 1
            case .subtotal: subtotal = 1
            case .tax: tax = 1
            case .tendered, .change: payment = 1
            default: break
            }
            if Text.hasAny(k, Lexicon.shared.invoiceWords) { invoice += 1 }
            if Text.hasAny(k, Lexicon.shared.jobTitles) { title = 1 }
            if Text.hasAny(k, Lexicon.shared.organizationWords) { org = 1 }
            let ws = l.line.words
            // A person's name: two to four capitalized words, a family name's particle among them (`Tirza de Ruiter`),
            // on a line or in one of its columns (a card's name beside its address, on one row).
            if nameLike == 0, LayoutAnalyzer.columns(of: l.line).contains(where: { Self.isNameLike($0.words) }) {
                nameLike = 1
            }
            words += ws.count
            digits += Text.digitCount(l.text)
            chars += l.text.count
            if ws.count <= 3 { shortLines += 1 }
            if ws.count >= 8 { longLines += 1 }
            // Running text: six words or more, most of them lower-case words.
            if ws.count >= 6, ws.filter({ $0.text.first?.isLowercase ?? false }).count * 2 >= ws.count {
                proseLines += 1
            }
            if l.amount != nil { amountLines += 1 }
            if l.amount != nil && l.role == .none && Text.letterCount(l.label) >= 2 { itemCount += 1 }
        }
        let money = count(.money)
        let phones = count(.phone), emails = count(.email), urls = count(.url)
        return [
            1,
            log(max(0.05, min(20, aspect))),
            log(n) / 4,
            Double(amountLines) / n,
            totalWord, subtotal, tax, payment,
            Double(itemCount) / n,
            min(4, phones) / 4,
            min(3, emails) / 3,
            min(3, urls) / 3,
            min(4, count(.date)) / 4,
            min(1, money / n),
            min(4, invoice) / 4,
            title, org, nameLike,
            Double(words) / n / 8,
            Double(digits) / Double(max(1, chars)),
            min(4, Double(doc.pages.count)) / 4,
            min(2, count(.iban)) / 2,
            min(2, count(.address) + count(.postalCode)) / 2,
            Double(shortLines) / n,
            doc.pages.contains { $0.textSource == .pdfText } ? 1 : 0,
            min(8, Double(amountLines)) / 8,
            Double(proseLines) / n,
            Double(longLines) / n,
            // A card gives a way to reach someone: no phone, e-mail or web address at all is telling.
            phones + emails + urls == 0 ? 1 : 0,
        ]
    }

    /// Two to four words, no digit, the first and last capitalized and the others too or a family name's particle.
    static func isNameLike(_ ws: [LayoutWord]) -> Bool {
        ws.count >= 2 && ws.count <= 4 && !ws.contains { $0.text.contains(where: \.isNumber) }
            && ws.first?.text.first?.isUppercase ?? false && ws.last?.text.first?.isUppercase ?? false
            && ws.allSatisfy { $0.text.first?.isUppercase ?? false || Lexicon.shared.nameParticles.contains($0.text) }
    }

    /// The label and its probability.
    public func classify(_ doc: Document, lines: [AnalyzedLine]) -> DocumentType {
        // No text at all: nothing to route, and no parser should look for fields.
        if lines.isEmpty { return DocumentType(label: .other, confidence: 1) }
        let p = probabilities(Self.features(doc, lines: lines))
        let best = p.indices.max { p[$0] < p[$1] }!
        return DocumentType(label: weights.labels[best], confidence: (p[best] * 1000).rounded() / 1000)
    }

    public func probabilities(_ x: [Double]) -> [Double] {
        let z = weights.weights.map { w in zip(w, x).reduce(0) { $0 + $1.0 * $1.1 } }
        let m = z.max() ?? 0
        let e = z.map { exp($0 - m) }
        let s = e.reduce(0, +)
        return e.map { $0 / s }
    }
}

/// The classifier's weights: one row per label, one column per feature.
public struct ClassifierModel: Codable, Sendable, Hashable {
    public var labels: [DocumentKind]
    public var features: [String]
    public var weights: [[Double]]

    public init(labels: [DocumentKind], features: [String], weights: [[Double]]) {
        self.labels = labels
        self.features = features
        self.weights = weights
    }
}
