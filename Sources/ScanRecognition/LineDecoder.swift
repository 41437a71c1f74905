import ScanModel

/// One word of a line reading, with the recognizer's time steps it spans.
public struct DecodedWord: Sendable, Hashable {
    public var text: String
    /// First and last time step (column of the recognizer's output) of the word's ink.
    public var firstStep: Int
    public var lastStep: Int
    /// 0 to 1.
    public var confidence: Double

    public init(text: String, firstStep: Int, lastStep: Int, confidence: Double) {
        self.text = text; self.firstStep = firstStep; self.lastStep = lastStep; self.confidence = confidence
    }

    /// The steps each of a line's words is read again over: from half-way between it and the word
    /// before to half-way between it and the word after (the whole line's ends for the first and last).
    public static func spans(of words: [DecodedWord], steps: Int) -> [Range<Int>] {
        words.indices.map { i in
            let start = i == 0 ? 0 : (words[i - 1].lastStep + words[i].firstStep + 1) / 2
            let end = i == words.count - 1 ? steps : (words[i].lastStep + words[i + 1].firstStep + 1) / 2
            let lo = max(0, min(start, steps)), hi = max(lo, min(end, steps))
            return lo..<max(hi, min(steps, lo + 1))
        }
    }
}

/// Reads the words of one recognized line from its CTC probabilities in a way of its own,
/// replacing the engine's best path: a word-list decoder for handwriting, for instance.
///
/// An engine that reads lines as CTC probabilities (PP-OCR) calls it once per line, with
/// the words its best path read. The decoder may change a word's text, but keeps each
/// word within the steps it is given, so that the engine can still place the word on
/// the page.
public protocol LineDecoder: Sendable {
    func decode(_ probabilities: LineProbabilities, bestPath: [DecodedWord]) -> [DecodedWord]
}

/// Reads a printed line's doubtful words again (with word lists, for instance) and leaves every
/// other word as the best path read it. An engine that reads lines as CTC probabilities (PP-OCR)
/// asks `doubts` of each word of its best path, and only for a line with a doubtful word builds
/// the line's probabilities and asks `corrected`.
public protocol WordCorrector: Sendable {
    /// Whether a word the best path read as `text`, its least sure character read with probability
    /// `weakest` (0 to 1), is worth reading again.
    func doubts(_ text: String, weakest: Double) -> Bool
    /// The word's new text, or nil when its reading stands. `span` is the word's time steps, from
    /// half-way to the word before to half-way to the word after.
    func corrected(_ text: String, probabilities: LineProbabilities, span: Range<Int>) -> String?
    /// A page's lines, as read, with letters given back that the page as a whole shows were lost (each line the same
    /// number of characters); nil when nothing changes. Asked once a page, after its lines are read.
    func restoredPage(_ lines: [String]) -> [String]?
}

extension WordCorrector {
    public func restoredPage(_ lines: [String]) -> [String]? { nil }
}

/// An engine whose lines can be read again by a `LineDecoder` (PP-OCR). The pipeline sets
/// one for the pages or lines it judges handwritten, and takes it away after.
public protocol LineDecoding: AnyObject {
    var lineDecoder: (any LineDecoder)? { get set }

    /// The lines at `boxes` (boxes of the observations the engine returned for the page it
    /// read last), read again with the `lineDecoder` now set; nil where there is no such line
    /// or its new reading is empty. The page is not detected again.
    func reread(linesAt boxes: [BoundingBox]) throws -> [TextObservation?]
}
