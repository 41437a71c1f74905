/// What kind of document a `Document` is, as far as the parsers care.
public enum DocumentKind: String, Codable, Hashable, Sendable, CaseIterable {
    case receipt
    case businessCard
    /// Anything else: invoices, letters, forms, pages of text.
    case other
}

/// The classifier's decision (or the user's, with `--type`).
public struct DocumentType: Codable, Hashable, Sendable {
    public var label: DocumentKind
    /// 0 to 1; 1 when the user chose the type.
    public var confidence: Double
    /// Set when the label was given by the user rather than predicted.
    public var overridden: Bool?

    public init(label: DocumentKind, confidence: Double, overridden: Bool? = nil) {
        self.label = label
        self.confidence = confidence
        self.overridden = overridden
    }
}

/// Where an extracted value was printed: its text as recognized, the page (0-based),
/// the box in that page's pixels (top-left origin) and a confidence from 0 to 1.
public struct Provenance: Codable, Hashable, Sendable {
    public var text: String
    public var page: Int
    public var boundingBox: BoundingBox?
    public var confidence: Double

    public init(text: String, page: Int, boundingBox: BoundingBox?, confidence: Double) {
        self.text = text
        self.page = page
        self.boundingBox = boundingBox?.rounded()
        self.confidence = (confidence * 1000).rounded() / 1000
    }
}
