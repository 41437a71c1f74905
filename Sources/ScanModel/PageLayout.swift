/// The page's text in reading order: blocks of lines of words, like docTR's
/// Page → Block → Line → Word. Computed once by the layout stage; the parsers,
/// `--format text` and the exports all read it.
///
/// Lines don't copy their words: each word is a reference into the page's
/// `observations` (`[observation index, word index]`), so the recognized text and
/// boxes are written once. A visual line may join several observations (a label at
/// the left and its amount at the far right).
public struct PageLayout: Codable, Hashable, Sendable {
    public var blocks: [Block]
    /// The quadrilateral of the document photographed on the page (the camera's checked quad), in this
    /// page's pixels, when the lines were grouped in its upright rectangle (`Homography.rectifying(_:)`) rather than
    /// on the page; its corners name the document's own. Boxes map it with the rest (`mappingBoxes`), so
    /// the parsers measure columns and indents in the document's frame too.
    public var frame: Quad?

    public init(blocks: [Block], frame: Quad? = nil) {
        self.blocks = blocks
        self.frame = frame
    }

    /// A group of lines set close together (a paragraph, an address, a card's name and title).
    public struct Block: Codable, Hashable, Sendable {
        public var boundingBox: BoundingBox
        public var lines: [Line]

        public init(boundingBox: BoundingBox, lines: [Line]) {
            self.boundingBox = boundingBox
            self.lines = lines
        }
    }

    /// One visual line, its words left to right.
    public struct Line: Codable, Hashable, Sendable {
        /// The words joined by single spaces.
        public var text: String
        public var boundingBox: BoundingBox
        public var words: [WordReference]

        public init(text: String, boundingBox: BoundingBox, words: [WordReference]) {
            self.text = text
            self.boundingBox = boundingBox
            self.words = words
        }
    }

    /// A word of the page: `observations[observation].words[word]`. Encoded as a pair.
    public struct WordReference: Codable, Hashable, Sendable {
        public var observation: Int
        public var word: Int

        public init(observation: Int, word: Int) {
            self.observation = observation
            self.word = word
        }

        public init(from decoder: any Decoder) throws {
            var c = try decoder.unkeyedContainer()
            observation = try c.decode(Int.self)
            word = try c.decode(Int.self)
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.unkeyedContainer()
            try c.encode(observation)
            try c.encode(word)
        }
    }

    /// Every line, block after block.
    public var lines: [Line] { blocks.flatMap(\.lines) }
}

extension Page {
    /// The word a layout reference points at, or nil when the reference is stale.
    public func word(_ ref: PageLayout.WordReference) -> RecognizedWord? {
        guard observations.indices.contains(ref.observation) else { return nil }
        let words = observations[ref.observation].words
        return words.indices.contains(ref.word) ? words[ref.word] : nil
    }

    /// The page's lines in reading order: from its layout when it has one, else one
    /// observation a line in the engine's order.
    public var readingOrderLines: [String] {
        guard let layout else { return observations.map(\.text) }
        return layout.lines.map(\.text)
    }
}
