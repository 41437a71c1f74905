/// One recognized word, with its own box in page pixels (top-left origin).
public struct RecognizedWord: Codable, Hashable, Sendable {
    public var text: String
    /// 0 to 1.
    public var confidence: Double
    public var boundingBox: BoundingBox
    /// The word's four corners when they don't form an axis-aligned box in the
    /// user's pixels (a flattened photo, a deskewed scan).
    public var quad: Quad?

    public init(text: String, confidence: Double, boundingBox: BoundingBox, quad: Quad? = nil) {
        self.text = text
        self.confidence = confidence
        self.boundingBox = boundingBox
        self.quad = quad
    }
}

/// An alternative reading of a whole line.
public struct TextCandidate: Codable, Hashable, Sendable {
    public var text: String
    /// 0 to 1.
    public var confidence: Double

    public init(text: String, confidence: Double) {
        self.text = text
        self.confidence = confidence
    }
}

/// One recognized line of text: the unit every later stage works on.
public struct TextObservation: Codable, Hashable, Sendable {
    public var text: String
    /// 0 to 1.
    public var confidence: Double
    /// In page pixels, top-left origin.
    public var boundingBox: BoundingBox
    /// The line's four corners when they don't form an axis-aligned box in the user's pixels.
    public var quad: Quad?
    public var words: [RecognizedWord]
    /// Alternative readings, best first; the first one is `text` itself when present.
    public var candidates: [TextCandidate]
    /// True when the line was read as handwriting (decoded with the word list); nil otherwise.
    public var handwritten: Bool?

    public init(text: String, confidence: Double, boundingBox: BoundingBox,
                words: [RecognizedWord] = [], candidates: [TextCandidate] = [], quad: Quad? = nil) {
        self.text = text
        self.confidence = confidence
        self.boundingBox = boundingBox
        self.quad = quad
        self.words = words
        self.candidates = candidates
    }

    enum CodingKeys: String, CodingKey { case text, confidence, boundingBox, quad, words, candidates, handwritten }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        text = try c.decode(String.self, forKey: .text)
        confidence = try c.decodeIfPresent(Double.self, forKey: .confidence) ?? 1
        boundingBox = try c.decode(BoundingBox.self, forKey: .boundingBox)
        quad = try c.decodeIfPresent(Quad.self, forKey: .quad)
        words = try c.decodeIfPresent([RecognizedWord].self, forKey: .words) ?? []
        candidates = try c.decodeIfPresent([TextCandidate].self, forKey: .candidates) ?? []
        handwritten = try c.decodeIfPresent(Bool.self, forKey: .handwritten)
    }
}
