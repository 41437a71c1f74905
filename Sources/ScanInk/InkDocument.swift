import Foundation
import ScanModel
import ScanRecognition

/// What to do with an Ink document: the options of `scanextract ink`, which the service's
/// `POST /v1/ink` takes as its query. One set of rules, one set of messages for both.
public struct InkOptions: Codable, Hashable, Sendable {
    /// The word list's language when the ink names none.
    public var language = "en-US"
    public var candidates = 5
    public var charset: String?
    /// Classify the ink as a shape instead of reading text.
    public var shapes = false

    public init() {}


    /// Options from `name=value` pairs (a URL query); unknown names and bad values throw
    /// `invalid-option`. Checked as the command line checks them (``validate()``).
    public init(query: [(name: String, value: String)]) throws {
        self.init()
        for (name, value) in query {
            let bad = ScanError(.invalidOption, "'\(value)' is not a valid value for \(name)")
            switch name {
            case "language": language = value
            case "candidates":
                guard let count = Int(value) else { throw bad }
                candidates = count
            case "charset": charset = value
            case "shapes":
                switch value.lowercased() {
                case "", "true", "1", "yes": shapes = true
                case "false", "0", "no": shapes = false
                default: throw bad
                }
            default: throw ScanError(.invalidOption, "unknown option '\(name)'")
            }
        }
        try validate()
    }

    /// Throws `invalid-option` naming the option as the command line spells it.
    public func validate() throws {
        guard candidates >= 1 && candidates <= 100 else {
            throw ScanError(.invalidOption, "--candidates must be between 1 and 100")
        }
        if let charset, charset.isEmpty { throw ScanError(.invalidOption, "--charset needs at least one character") }
        _ = try InkModel.forLanguage(language)
    }
}

/// The `--shapes` result: the ink classified as a shape, best first (`Schemas/ink-result.schema.json`).
public struct ShapesResult: Codable, Hashable, Sendable {
    public var schemaVersion = "2.0.0"
    public var shapes: [ShapeCandidate]
    public var source: InkSource?
    public init(shapes: [ShapeCandidate], source: InkSource? = nil) {
        self.shapes = shapes
        self.source = source
    }
}

/// Ink documents in, results out, as JSON: what `scanextract ink` prints and the service's
/// workers answer. Keeps its recognizer between documents: created on first use, and made
/// again (on the same PP-OCR reader, so without loading the model twice) only when the number
/// of candidates changes. Not thread-safe: one per worker.
public final class InkReader {
    private var lineReader: PPOCRLineReader?
    private var recognizer: InkRecognizer?
    private let shapeRecognizer = ShapeRecognizer()

    public init() {}

    /// The text recognizer for `options`, created now if need be: throws `engine` when
    /// PP-OCR's models are missing.
    public func recognizer(for options: InkOptions) throws -> InkRecognizer {
        if let recognizer, recognizer.options.candidateCount == options.candidates { return recognizer }
        var settings = InkRecognizer.Options()
        settings.candidateCount = options.candidates
        let reader = try lineReader ?? PPOCRLineReader()
        lineReader = reader
        let made = InkRecognizer(reader: reader, language: options.language, options: settings)
        // The word lists already read stay: only the candidate count changed.
        made.lexicons = recognizer?.lexicons ?? [:]
        recognizer = made
        return made
    }

    /// The result for one Ink document, encoded. Throws `ScanError`: `corrupt` naming what
    /// is wrong with the document, `invalid-option`, or `engine`.
    public func answer(_ document: Data, options: InkOptions, source: InkSource? = nil) throws -> Data {
        try answer(ink: InkJSON.decode(document), options: options, source: source)
    }

    /// The result for one ink, encoded; `source` says where it was read, in the result.
    public func answer(ink: Ink, options: InkOptions, source: InkSource? = nil) throws -> Data {
        if options.shapes {
            try ink.validate()
            let shapes = shapeRecognizer.recognize(ink).prefix(options.candidates)
            return try InkJSON.encode(ShapesResult(shapes: Array(shapes), source: source))
        }
        // The ink's own language wins over the option's, as in `scanextract ink --language`;
        // passing it in the context lets one recognizer (and its loaded word lists) serve all.
        let context = InkContext(language: ink.language ?? options.language, charset: options.charset)
        var result = try recognizer(for: options).recognize(ink: ink, context: context)
        result.source = source
        return try InkJSON.encode(result)
    }
}

/// Decoding and encoding of ink JSON, with errors that say which field is wrong.
public enum InkJSON {
    /// An Ink document; a document that does not fit the schema throws `ScanError(.corrupt)`
    /// naming the field ("strokes[0].points is missing").
    public static func decode(_ data: Data) throws -> Ink {
        do {
            return try JSONDecoder().decode(Ink.self, from: data)
        } catch let error as DecodingError {
            throw ScanError(.corrupt, describe(error))
        }
    }

    /// Compact JSON, keys sorted, slashes as they are.
    public static func encode<T: Encodable>(_ value: T) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }

    /// A decoding error in words: which field, and what was wrong.
    public static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [CodingKey]) -> String {
            keys.isEmpty ? "the document" : keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
                .trimmingCharacters(in: CharacterSet(charactersIn: "."))
        }
        switch error {
        case .dataCorrupted(let c): return "not valid JSON (\(c.debugDescription))"
        case .keyNotFound(let key, let c): return "\(path(c.codingPath + [key])) is missing"
        case .typeMismatch(let type, let c): return "\(path(c.codingPath)) should be \(typeName(type))"
        case .valueNotFound(let type, let c): return "\(path(c.codingPath)) should be \(typeName(type)), not null"
        @unknown default: return "\(error)"
        }
    }

    static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is Double.Type, is Int.Type: return "a number"
        case is String.Type: return "a string"
        case is [Any].Type: return "an array"
        default: return "an object"
        }
    }
}
