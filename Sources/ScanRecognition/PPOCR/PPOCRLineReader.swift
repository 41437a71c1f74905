import Foundation
import ONNXRuntime
import ScanModel

/// The recognizer's output for one line image: per time step, the probability of
/// every class (softmaxed; class 0 is the CTC blank, the last class the space).
/// Decoders outside this module (ink, lexicons) work on it.
public struct LineProbabilities: Sendable {
    /// Time steps (rows).
    public let steps: Int
    /// `alphabet[k]` is the text of class k; `alphabet[0]` is "" (blank).
    public let alphabet: [String]
    /// `steps` rows of `alphabet.count` probabilities.
    public var values: [Float]

    public var classCount: Int { alphabet.count }
    public var blankClass: Int { 0 }
    public var spaceClass: Int { alphabet.count - 1 }

    /// The decoder for `alphabet`, built once: building it indexes every class (about 18,000).
    let decoder: CTCDecoder

    /// `alphabet` is the blank (""), the model's dictionary, then the space.
    public init(steps: Int, alphabet: [String], values: [Float]) {
        precondition(alphabet.count >= 2 && alphabet.first == "" && alphabet.last == " ",
                     "an alphabet starts with the blank and ends with the space")
        self.init(steps: steps, values: values, decoder: CTCDecoder(dictionary: Array(alphabet.dropFirst().dropLast())))
    }

    init(steps: Int, values: [Float], decoder: CTCDecoder) {
        precondition(values.count == steps * decoder.characters.count, "probabilities size mismatch")
        self.steps = steps
        self.alphabet = decoder.characters
        self.values = values
        self.decoder = decoder
    }

    /// Other rows over the same alphabet (`steps` rows of `classCount` probabilities).
    public func withRows(steps: Int, values: [Float]) -> LineProbabilities {
        LineProbabilities(steps: steps, values: values, decoder: decoder)
    }

    /// The same probabilities with every class outside `allowed` (and the space,
    /// unless it is allowed) set to zero and each row renormalized. The blank stays.
    /// A class listed in `lookAlikes` whose target is allowed gives its probability to
    /// the target instead (the CJK "一" to "-", a full-width "５" to "5"); a class in
    /// `reassign` gives it even when it is allowed itself (what the caller knows better).
    public func restricted(to allowed: Set<Character>, lookAlikes: [String: Character] = [:],
                           reassign: [String: Character] = [:]) -> LineProbabilities {
        let c = classCount
        let single = decoder.singleCharacter
        // The first class of each allowed character.
        func index(_ ch: Character) -> Int? { decoder.classesOfText[String(ch)]?.first { $0 > 0 } }
        let keep: [Bool] = (0..<c).map { k in k == 0 || single[k].map(allowed.contains) == true }
        let kept = (0..<c).filter { keep[$0] }
        // Class -> the allowed class it reads as: every class of a reassigned text, and every
        // class left out whose text has a look-alike; in class order, as they are applied.
        var moves: [(from: Int, to: Int)] = []
        func move(_ text: String, to target: Character, only: (Int) -> Bool) {
            guard allowed.contains(target), let tk = index(target) else { return }
            for k in decoder.classesOfText[text] ?? [] where only(k) && k != tk { moves.append((k, tk)) }
        }
        for (text, target) in reassign { move(text, to: target) { _ in true } }
        for (text, target) in lookAlikes where reassign[text] == nil { move(text, to: target) { !keep[$0] } }
        moves.sort { $0.from < $1.from }
        var row = [Float](repeating: 0, count: c)
        var out = [Float](repeating: 0, count: values.count)
        for t in 0..<steps {
            let base = t * c
            for (k, _) in moves { row[k] = values[base + k] }
            for k in kept { row[k] = values[base + k] }
            for (from, to) in moves {
                row[to] += row[from]
                row[from] = 0
            }
            var sum: Float = 0
            for k in kept { sum += row[k] }
            if sum > 0 { for k in kept { out[base + k] = row[k] / sum } } else { out[base] = 1 }
            for (k, _) in moves { row[k] = 0 }
            for k in kept { row[k] = 0 }
        }
        return withRows(steps: steps, values: out)
    }

    /// Best-path decoding: the text and the path's natural-log probability.
    public func greedy() -> (text: String, logProbability: Double) {
        values.withUnsafeBufferPointer { buf in
            let r = decoder.greedy(buf, steps: steps)
            return (r.text, r.logProbability)
        }
    }

    /// The best path's words, with the steps each spans and its mean character probability.
    public func bestPathWords() -> [DecodedWord] {
        let tokens = values.withUnsafeBufferPointer { decoder.greedy($0, steps: steps).tokens }
        return PPOCRRecognizer.decodedWords(
            PPOCRRecognizer.wordGroups(tokens, spaceClass: spaceClass), characters: alphabet)
    }

    /// CTC prefix beam search without a lexicon: up to `count` texts, best first, each
    /// with the natural log of its probability (summed over its alignments).
    public func beam(count: Int, width: Int = 16, pruning: Float = 1e-3) -> [(text: String, logProbability: Double)] {
        values.withUnsafeBufferPointer { buf in
            decoder.beam(buf, steps: steps, width: width, count: count, lexicon: nil, pruning: pruning,
                         maxClassesPerStep: 8).map { ($0.text, $0.logProbability) }
        }
    }
}

/// PP-OCR's line recognizer alone, without detection: a line image in, its
/// `LineProbabilities` out. For inputs that are already one line (rendered ink).
/// Not thread-safe: one instance per worker.
public final class PPOCRLineReader {
    /// The height the recognizer reads lines at.
    public static let inputHeight = 48
    public let models: PPOCRModels
    public let alphabet: [String]
    /// `PP-OCRv6_rec_small`.
    public let modelName: String
    let session: ONNXSession
    let decoder: CTCDecoder

    public init(models: PPOCRModels, runtime: ONNXRuntime? = nil, intraOpThreads: Int = 1) throws {
        self.models = models
        let runtime = try runtime ?? ONNXRuntime.shared(libraryPath: models.runtimeLibrary)
        session = try runtime.makeSession(modelPath: models.recognizer,
                                          options: ONNXSessionOptions(intraOpThreads: intraOpThreads))
        guard let dict = try session.customMetadata("character"), !dict.isEmpty else {
            throw ScanError(.engine, "\(models.recognizer) has no `character` dictionary in its metadata")
        }
        var entries = dict.components(separatedBy: "\n")
        if entries.last == "" { entries.removeLast() }
        decoder = CTCDecoder(dictionary: entries)
        alphabet = decoder.characters
        modelName = ((models.recognizer as NSString).lastPathComponent as NSString).deletingPathExtension
    }

    /// Locates the models and runtime as `PPOCRModels.locate()` does.
    public convenience init(intraOpThreads: Int = 1) throws {
        try self.init(models: try PPOCRModels.locate().get(), intraOpThreads: intraOpThreads)
    }

    /// Reads one line image (any height: it is scaled to `inputHeight`, keeping its aspect).
    public func probabilities(of image: RasterImage) throws -> LineProbabilities {
        let h = Self.inputHeight
        let rgb = ImageOps.rgb(image)
        let width = max(8, Int((Double(h) * Double(rgb.width) / Double(max(1, rgb.height))).rounded(.up)))
        var tensor = [Float](repeating: 0, count: 3 * h * width)
        ImageOps.writeNormalized(rgb, width: width, height: h, stride: width, into: &tensor, offset: 0)
        let decoder = self.decoder
        return try session.run(input: tensor, shape: [1, 3, h, width]) { out in
            guard out.shape.count == 3, out.shape[0] == 1, out.shape[2] == decoder.characters.count else {
                throw ScanError(.engine, "unexpected recognizer output shape \(out.shape)")
            }
            return LineProbabilities(steps: out.shape[1], values: Array(out.data), decoder: decoder)
        }
    }
}
