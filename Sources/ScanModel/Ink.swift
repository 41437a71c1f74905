/// Digital ink: what a pen or finger wrote, as strokes of timed points, in the
/// model of ML Kit's Digital Ink Recognition. Screen coordinates: top-left origin,
/// y grows downwards; times in milliseconds. (Schema: `Schemas/ink.schema.json`.)
public struct Ink: Codable, Hashable, Sendable {
    public struct Point: Codable, Hashable, Sendable {
        public var x: Double
        public var y: Double
        /// Milliseconds, from any origin; optional.
        public var t: Double?
        public init(x: Double, y: Double, t: Double? = nil) { self.x = x; self.y = y; self.t = t }
    }

    /// One pen-down to pen-up movement.
    public struct Stroke: Codable, Hashable, Sendable {
        public var points: [Point]
        public init(points: [Point]) { self.points = points }
    }

    /// The area the user could write in, in the strokes' units. It tells how big the
    /// ink is compared with a line of writing (lowercase against capital, dot against comma).
    public struct WritingArea: Codable, Hashable, Sendable {
        public var width: Double
        public var height: Double
        public init(width: Double, height: Double) { self.width = width; self.height = height }
    }

    public var strokes: [Stroke]
    public var writingArea: WritingArea?
    /// The text just before the ink (up to about 20 characters): decides whether a
    /// candidate starts with a space.
    public var preContext: String?
    /// A BCP-47 tag such as `en-US`; it chooses the word list.
    public var language: String?
    /// When set, candidates use only these characters (a number pad: `0123456789`).
    public var charset: String?

    public init(strokes: [Stroke], writingArea: WritingArea? = nil, preContext: String? = nil,
                language: String? = nil, charset: String? = nil) {
        self.strokes = strokes
        self.writingArea = writingArea
        self.preContext = preContext
        self.language = language
        self.charset = charset
    }

    /// Number of points over all strokes.
    public var pointCount: Int { strokes.reduce(0) { $0 + $1.points.count } }

    /// The bounding box of all points, or nil when there are none.
    public var bounds: (minX: Double, minY: Double, maxX: Double, maxY: Double)? {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for s in strokes {
            for p in s.points {
                minX = min(minX, p.x); maxX = max(maxX, p.x)
                minY = min(minY, p.y); maxY = max(maxY, p.y)
            }
        }
        return minX <= maxX ? (minX, minY, maxX, maxY) : nil
    }

    /// The largest coordinate (and writing area) an ink may have, in its own units.
    public static let coordinateLimit = 1e9

    /// Checks what the schema cannot: finite coordinates within ±``coordinateLimit``, at least one point, a
    /// positive writing area. Throws `ScanError(.corrupt)` with the reason.
    public func validate() throws {
        guard !strokes.isEmpty else { throw ScanError(.corrupt, "the ink has no strokes") }
        guard pointCount > 0 else { throw ScanError(.corrupt, "the ink's strokes have no points") }
        for (si, s) in strokes.enumerated() {
            for (pi, p) in s.points.enumerated() where !p.x.isFinite || !p.y.isFinite || !(p.t?.isFinite ?? true) {
                throw ScanError(
                    .corrupt, "stroke \(si + 1), point \(pi + 1) has a coordinate that is not a finite number")
            }
            // A pen's or a screen's units reach millions at the most; 1e308 is finite, but its distances are not.
            for (pi, p) in s.points.enumerated()
            where abs(p.x) > Self.coordinateLimit || abs(p.y) > Self.coordinateLimit {
                throw ScanError(
                    .corrupt, "stroke \(si + 1), point \(pi + 1) has a coordinate beyond ±1e9 (\(p.x), \(p.y))")
            }
        }
        if let a = writingArea,
           !(a.width > 0 && a.height > 0 && a.width <= Self.coordinateLimit && a.height <= Self.coordinateLimit) {
            throw ScanError(.corrupt, "writingArea needs a positive width and height of at most 1e9")
        }
    }
}

/// One reading of an ink, with a score comparable to the other candidates of the
/// same result (higher is better; a log-probability).
public struct InkCandidate: Codable, Hashable, Sendable {
    public var text: String
    public var score: Double
    public init(text: String, score: Double) { self.text = text; self.score = score }
}

/// What the ink recognizer returns: candidates best first (Schema: `Schemas/ink-result.schema.json`).
public struct InkResult: Codable, Hashable, Sendable {
    public struct Model: Codable, Hashable, Sendable {
        /// `ink-en-US`, ...
        public var id: String
        public var recognizer: String
        /// The word list file, or nil when candidates are not constrained by one.
        public var lexicon: String?
        public init(id: String, recognizer: String, lexicon: String?) {
            self.id = id; self.recognizer = recognizer; self.lexicon = lexicon
        }
    }
    public var schemaVersion: String
    public var candidates: [InkCandidate]
    public var language: String
    public var model: Model
    /// Which file, and which of its segments, the ink came from; nil for an ink given alone (a request's body, a
    /// line of `--jsonl`).
    public var source: InkSource?
    public init(candidates: [InkCandidate], language: String, model: Model, schemaVersion: String = "2.0.0",
                source: InkSource? = nil) {
        self.schemaVersion = schemaVersion
        self.candidates = candidates
        self.language = language
        self.model = model
        self.source = source
    }
}

/// Where an ink was read: the file as the user named it and, for a UNIPEN or InkML file of several labelled
/// segments, the segment's place in the file (from 1) and its label (the word the writer was asked to write).
public struct InkSource: Codable, Hashable, Sendable {
    public var file: String
    public var segment: Int?
    public var label: String?
    public init(file: String, segment: Int? = nil, label: String? = nil) {
        self.file = file
        self.segment = segment
        self.label = label
    }
}
