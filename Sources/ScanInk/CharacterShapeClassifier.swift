import Foundation
import ScanModel

/// Tells single hand-drawn digits and `+ - /` apart by how they were drawn
/// (`CharacterShapeFeatures`: stroke order, closed loops, crossings, turning), and
/// lends that judgement to the line recognizer, which reads only the rendered image.
///
/// A few small networks (one hidden layer each) trained on generated ink only
/// (`CharacterInkSynthesizer`), shipped as `Resources/CharacterShapes.json` with the
/// weight its log-probabilities get against the recognizer's; both are written by
/// `TrainInk characters --write` (Tools/train-ink/README.md).
public struct CharacterShapeClassifier: Codable, Hashable, Sendable {
    /// One network: standardized features, a tanh hidden layer, a softmax over the classes.
    public struct Network: Codable, Hashable, Sendable {
        /// Feature standardization: (x - mean) / scale.
        public var mean: [Double]
        public var scale: [Double]
        /// Hidden layer: one row of `mean.count` weights per unit.
        public var hidden: [[Double]]
        public var hiddenBias: [Double]
        /// Output layer: one row of `hidden.count` weights per class.
        public var output: [[Double]]
        public var outputBias: [Double]
        public init(mean: [Double], scale: [Double], hidden: [[Double]], hiddenBias: [Double],
                    output: [[Double]], outputBias: [Double]) {
            self.mean = mean; self.scale = scale; self.hidden = hidden; self.hiddenBias = hiddenBias
            self.output = output; self.outputBias = outputBias
        }

        /// Log-probabilities of the classes for `features`.
        public func logProbabilities(features: [Double]) -> [Double] {
            let x = zip(features, zip(mean, scale)).map { ($0 - $1.0) / $1.1 }
            let h = zip(hidden, hiddenBias).map { row, bias in tanh(zip(row, x).reduce(bias) { $0 + $1.0 * $1.1 }) }
            return CharacterShapeClassifier.normalized(zip(output, outputBias).map { row, bias in
                zip(row, h).reduce(bias) { $0 + $1.0 * $1.1 }
            })
        }
    }

    /// The classes, one character each, in output order.
    public var classes: String
    /// Networks trained on different generated ink; their log-probabilities are averaged
    /// (a product of experts) and renormalized.
    public var networks: [Network]
    /// The weight of the shape's log-probability added to a single-character candidate's
    /// recognizer score (fitted on generated ink the networks were not trained on, some of it in
    /// shapes they never saw: Hershey-font characters).
    public var weight: Double
    /// Log-probabilities below this are raised to it: a shape the networks never saw, which they
    /// judge confidently wrong, does not veto a confident reading of the image.
    public var floor: Double
    /// How the model was made.
    public var provenance: String

    public init(classes: String, networks: [Network], weight: Double, floor: Double, provenance: String) {
        self.classes = classes; self.networks = networks; self.weight = weight; self.floor = floor;
        self.provenance = provenance
    }

    /// The shipped model.
    public static let shipped: CharacterShapeClassifier? = {
        guard let url = Bundle.module.url(forResource: "CharacterShapes", withExtension: "json"),
              let data = try? Data(contentsOf: url) else { return nil }
        return try? JSONDecoder().decode(CharacterShapeClassifier.self, from: data)
    }()

    static func normalized(_ z: [Double]) -> [Double] {
        let top = z.max() ?? 0
        let logSum = top + log(z.reduce(0) { $0 + exp($1 - top) })
        return z.map { $0 - logSum }
    }

    /// The log-probabilities of the classes for `features`, all networks together.
    public func logProbabilities(features: [Double]) -> [Double] {
        guard !networks.isEmpty else { return [] }
        var sum = [Double](repeating: 0, count: classes.count)
        for n in networks { for (k, lp) in n.logProbabilities(features: features).enumerated() { sum[k] += lp } }
        return Self.normalized(sum.map { $0 / Double(networks.count) })
    }

    /// Log-probability of each class for the ink, or nil when the ink has no extent.
    public func logProbabilities(_ ink: Ink) -> [Character: Double]? {
        guard let f = CharacterShapeFeatures.of(ink), let first = networks.first, f.count == first.mean.count else {
            return nil
        }
        return Dictionary(uniqueKeysWithValues: zip(classes, logProbabilities(features: f)))
    }

    /// The candidates rescored with the shape, best first, when they are about one
    /// character: the best candidate is one character this classifier knows. Each such
    /// single-character candidate gains `weight` times its shape log-probability
    /// (renormalized over the classes `allowed`, when given, and floored); any other
    /// candidate gains `weight` times the log of a uniform choice among those classes.
    /// Otherwise (a number of several digits, a word) the candidates are left as they are.
    public func rescore(_ candidates: [InkCandidate], ink: Ink, allowed: Set<Character>? = nil) -> [InkCandidate] {
        var known = Set(classes)
        if let allowed { known.formIntersection(allowed) }
        guard known.count >= 2, let best = candidates.first?.text, best.count == 1, known.contains(best.first!),
              let shape = logProbabilities(ink) else { return candidates }
        let logSum = log(known.reduce(0.0) { $0 + exp(shape[$1] ?? -.infinity) })
        let uniform = -log(Double(known.count))
        return candidates.map { c in
            var c = c
            if c.text.count == 1, let ch = c.text.first, known.contains(ch), let lp = shape[ch] {
                c.score += weight * max(floor, lp - logSum)
            } else {
                c.score += weight * uniform
            }
            return c
        }.sorted { $0.score != $1.score ? $0.score > $1.score : $0.text < $1.text }
    }
}
