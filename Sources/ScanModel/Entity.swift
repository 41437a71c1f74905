/// A data-detector hit: a phone number, e-mail, URL, date, amount... found in text.
///
/// Placeholder shape owned by the detectors work (ScanDetectors); the document
/// pipeline only needs `page` and `boundingBox` to be settable.
public struct Entity: Codable, Hashable, Sendable {
    public var type: String
    public var text: String
    /// The page the entity was found on, when it comes from a document.
    public var page: Int?
    /// The union of the boxes of the words it covers, in page pixels.
    public var boundingBox: BoundingBox?

    public init(type: String, text: String, page: Int? = nil, boundingBox: BoundingBox? = nil) {
        self.type = type
        self.text = text
        self.page = page
        self.boundingBox = boundingBox
    }
}
