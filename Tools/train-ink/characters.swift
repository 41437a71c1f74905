import Foundation
import ScanInk
import ScanModel

// `TrainInk characters`: the single-character shape classifier (CharacterShapeClassifier).
// Everything here is fitted on generated ink, never on a labelled set:
//   seed `trainSeed`: the networks (CharacterInkSynthesizer);  seed `trainSeed + 1`: the weight and
//   floor of their log-probabilities against the recognizer's scores (CharacterInkSynthesizer, and
//   Hershey-font characters with `--fit-hershey`);  seed `trainSeed + 2`: held out, reported.

struct ShapeNetwork {
    var classes: [Character]
    var mean: [Double], scale: [Double]
    var w1: [[Double]], b1: [Double], w2: [[Double]], b2: [Double]

    var network: CharacterShapeClassifier.Network {
        CharacterShapeClassifier.Network(
            mean: mean, scale: scale, hidden: w1, hiddenBias: b1, output: w2, outputBias: b2)
    }
}

/// Generated inks of every class, `perClass` each, with their labels.
func generatedCharacters(perClass: Int, seed: UInt64, mess: Double) -> [(Character, Ink)] {
    var rng = SeededGenerator(seed: seed)
    let synth = CharacterInkSynthesizer(mess: mess)
    var out: [(Character, Ink)] = []
    for _ in 0..<perClass {
        for c in CharacterInkSynthesizer.characters { out.append((c, synth.ink(c, rng: &rng))) }
    }
    return out
}

/// The Hershey fonts generated training ink is written in (Debian's hershey-fonts-data).
func hersheyTrainingFonts() throws -> [HersheyFont] {
    try ["cursive", "scripts", "futural", "timesr", "rowmans"].map { try HersheyFont(named: $0) }
}

/// Single characters drawn from the Hershey single-stroke fonts (`InkSynthesizer`), `perClass`
/// each: shapes and stroke orders `CharacterInkSynthesizer` never makes, as a real writer's are.
/// The networks never train on these; the weight may be fitted on them (`--fit-hershey`).
func hersheyCharacters(perClass: Int, seed: UInt64, mess: Double) throws -> [(Character, Ink)] {
    var rng = SeededGenerator(seed: seed)
    let fonts = try hersheyTrainingFonts()
    var out: [(Character, Ink)] = []
    for n in 0..<perClass {
        let synth = InkSynthesizer(font: fonts[n % fonts.count])
        for c in CharacterInkSynthesizer.characters {
            out.append((c, synth.ink(String(c), style: InkSynthesizer.messyStyle(&rng, level: mess), rng: &rng)))
        }
    }
    return out
}

/// A one-hidden-layer tanh network, softmax output, trained by Adam on cross-entropy with L2.
func trainShapeNetwork(_ samples: [(Character, [Double])], classes: [Character], hidden: Int, epochs: Int,
                       seed: UInt64, l2: Double = 1e-4) -> ShapeNetwork {
    let d = samples[0].1.count, k = classes.count
    var mean = [Double](repeating: 0, count: d), scale = [Double](repeating: 0, count: d)
    for (_, f) in samples { for i in 0..<d { mean[i] += f[i] } }
    mean = mean.map { $0 / Double(samples.count) }
    for (_, f) in samples { for i in 0..<d { scale[i] += (f[i] - mean[i]) * (f[i] - mean[i]) } }
    scale = scale.map { max(sqrt($0 / Double(samples.count)), 1e-3) }
    let xs = samples.map { s in (0..<d).map { (s.1[$0] - mean[$0]) / scale[$0] } }
    let ys = samples.map { s in classes.firstIndex(of: s.0)! }

    var rng = SeededGenerator(seed: seed)
    var w1 = (0..<hidden).map { _ in (0..<d).map { _ in rng.gaussian() / sqrt(Double(d)) } }
    var b1 = [Double](repeating: 0, count: hidden)
    var w2 = (0..<k).map { _ in (0..<hidden).map { _ in rng.gaussian() / sqrt(Double(hidden)) } }
    var b2 = [Double](repeating: 0, count: k)
    // Adam state, flattened: w1, b1, w2, b2.
    let n = hidden * d + hidden + k * hidden + k
    var m = [Double](repeating: 0, count: n), v = [Double](repeating: 0, count: n)
    let rate = 0.003, beta1 = 0.9, beta2 = 0.999
    var step = 0
    var order = Array(xs.indices)
    let batch = 32
    for _ in 0..<epochs {
        for i in stride(from: order.count - 1, to: 0, by: -1) { order.swapAt(i, Int(rng.next() % UInt64(i + 1))) }
        for start in stride(from: 0, to: order.count, by: batch) {
            var grad = [Double](repeating: 0, count: n)
            let members = order[start..<min(order.count, start + batch)]
            for idx in members {
                let x = xs[idx]
                let h = (0..<hidden).map { j in tanh(zip(w1[j], x).reduce(b1[j]) { $0 + $1.0 * $1.1 }) }
                let z = (0..<k).map { c in zip(w2[c], h).reduce(b2[c]) { $0 + $1.0 * $1.1 } }
                let top = z.max()!
                let e = z.map { exp($0 - top) }, sum = e.reduce(0, +)
                let dz = (0..<k).map { c in e[c] / sum - (c == ys[idx] ? 1 : 0) }
                var dh = [Double](repeating: 0, count: hidden)
                let o2 = hidden * d + hidden
                for c in 0..<k {
                    for j in 0..<hidden { grad[o2 + c * hidden + j] += dz[c] * h[j]; dh[j] += dz[c] * w2[c][j] }
                    grad[o2 + k * hidden + c] += dz[c]
                }
                for j in 0..<hidden {
                    let g = dh[j] * (1 - h[j] * h[j])
                    guard g != 0 else { continue }
                    for i in 0..<d { grad[j * d + i] += g * x[i] }
                    grad[hidden * d + j] += g
                }
            }
            step += 1
            let scaleBatch = 1 / Double(members.count)
            var p = 0
            func update(_ value: inout Double, decay: Bool) {
                let g = grad[p] * scaleBatch + (decay ? l2 * value : 0)
                m[p] = beta1 * m[p] + (1 - beta1) * g
                v[p] = beta2 * v[p] + (1 - beta2) * g * g
                let mh = m[p] / (1 - pow(beta1, Double(step))), vh = v[p] / (1 - pow(beta2, Double(step)))
                value -= rate * mh / (sqrt(vh) + 1e-8)
                p += 1
            }
            for j in 0..<hidden { for i in 0..<d { update(&w1[j][i], decay: true) } }
            for j in 0..<hidden { update(&b1[j], decay: false) }
            for c in 0..<k { for j in 0..<hidden { update(&w2[c][j], decay: true) } }
            for c in 0..<k { update(&b2[c], decay: false) }
        }
    }
    return ShapeNetwork(classes: classes, mean: mean, scale: scale, w1: w1, b1: b1, w2: w2, b2: b2)
}

/// One ink's recognizer candidates (with the shape left out) and its truth.
struct CharacterCase { var truth: Character; var ink: Ink; var candidates: [InkCandidate] }

func recognizerCases(_ set: [(Character, Ink)], recognizer: InkRecognizer, charset: String) throws -> [CharacterCase] {
    try set.enumerated().map { n, item in
        if n % 200 == 0 { FileHandle.standardError.write(Data("recognizer \(n)/\(set.count)\n".utf8)) }
        let result = try recognizer.recognize(ink: item.1, context: InkContext(charset: charset))
        return CharacterCase(truth: item.0, ink: item.1, candidates: result.candidates)
    }
}

func topOne(_ cases: [CharacterCase], _ model: CharacterShapeClassifier?, allowed: Set<Character>) -> Double {
    let hits = cases.filter { c in
        let ranked = model.map { $0.rescore(c.candidates, ink: c.ink, allowed: allowed) } ?? c.candidates
        return ranked.first?.text == String(c.truth)
    }.count
    return Double(hits) / Double(max(1, cases.count))
}

func shapeAccuracy(_ set: [(Character, Ink)], _ model: CharacterShapeClassifier) -> Double {
    let hits = set.filter { c, ink in
        guard let lp = model.logProbabilities(ink) else { return false }
        return lp.max { $0.value < $1.value }?.key == c
    }.count
    return Double(hits) / Double(max(1, set.count))
}

func runCharacters(_ args: [String], recognizer: InkRecognizer) throws {
    func value(_ name: String, _ fallback: Double) -> Double {
        args.firstIndex(of: name).flatMap { args.count > $0 + 1 ? Double(args[$0 + 1]) : nil } ?? fallback
    }
    let perClass = Int(value("--per-class", 500)), fitPerClass = Int(value("--fit-per-class", 60))
    let hidden = Int(value("--hidden", 32)), epochs = Int(value("--epochs", 40))
    let seed = UInt64(value("--seed", 1)), mess = value("--mess", 1), fitMess = value("--fit-mess", mess)
    let charset = "0123456789+-/"
    let allowed = Set(charset)
    let classes = CharacterInkSynthesizer.characters

    // `--networks N`: each trained on its own generated ink (seeds seed, seed + 100, ...).
    let count = Int(value("--networks", 3))
    var networks: [CharacterShapeClassifier.Network] = []
    var trained = 0
    for n in 0..<count {
        let train = generatedCharacters(perClass: perClass, seed: seed + 100 * UInt64(n), mess: mess)
        let samples = train.compactMap { c, ink in CharacterShapeFeatures.of(ink).map { (c, $0) } }
        networks.append(
            trainShapeNetwork(samples, classes: classes, hidden: hidden, epochs: epochs, seed: seed + 100 * UInt64(n))
                .network)
        trained += samples.count
    }
    var model = CharacterShapeClassifier(
        classes: String(classes), networks: networks, weight: 0, floor: -7, provenance: "")
    // The weight is fitted on messier ink than the network learned from (`--fit-mess`): a real writer
    // draws shapes the generator never made, and the weight must not trust the network more than that allows.
    // `--fit-hershey N`: N Hershey-font inks per class join the fitting set, and N others (their
    // own seed) are reported: unfamiliar shapes, so that the weight and floor learn how far to
    // trust the networks on them.
    let hersheyPerClass = Int(value("--fit-hershey", 0))
    let fitSet = generatedCharacters(perClass: fitPerClass, seed: seed + 1, mess: fitMess)
        + (try hersheyCharacters(perClass: hersheyPerClass, seed: seed + 1, mess: fitMess))
    let testSet = generatedCharacters(perClass: fitPerClass, seed: seed + 2, mess: fitMess)
    let hersheyTest = try hersheyCharacters(perClass: max(hersheyPerClass, 20), seed: seed + 2, mess: fitMess)
    print(
        String(
            format:
                "%d networks %d-%d-%d trained on %d generated inks (seeds %d + 100 k, mess %.2f); shape alone: seed %d %.3f, seed %d %.3f",
            count, CharacterShapeFeatures.count, hidden, classes.count, trained, seed, mess,
            seed + 1, shapeAccuracy(fitSet, model), seed + 2, shapeAccuracy(testSet, model)))

    // The weight and floor: best top-1 on the fitting seed (ties: the middle of the best run of weights).
    let fitCases = try recognizerCases(fitSet, recognizer: recognizer, charset: charset)
    let weights = stride(from: 0.0, through: 6.0, by: 0.1).map { $0 }
    var best = (score: -1.0, weight: 0.0, floor: -7.0)
    for floor in [-0.5, -1.0, -1.5, -2.0, -3.0, -5.0, -7.0, -10.0] {
        let scores = weights.map { w -> Double in
            var m = model; m.weight = w; m.floor = floor
            return topOne(fitCases, m, allowed: allowed)
        }
        let top = scores.max()!
        guard top > best.score + 1e-12 else { continue }
        let run = weights.indices.filter { scores[$0] >= top - 1e-12 }
        var contiguous = [run[0]]
        for i in run.dropFirst() where i == contiguous.last! + 1 { contiguous.append(i) }
        best = (top, weights[contiguous[contiguous.count / 2]], floor)
    }
    model.weight = best.weight; model.floor = best.floor
    print(
        String(
            format: "seed %d (%d inks): recognizer alone top-1 %.3f; with the shape (weight %.2f, floor %.1f) %.3f",
            seed + 1, fitCases.count, topOne(fitCases, nil, allowed: allowed), best.weight, best.floor, best.score))
    let testCases = try recognizerCases(testSet, recognizer: recognizer, charset: charset)
    print(
        String(
            format: "held out, seed %d (%d inks): recognizer alone top-1 %.3f; with the shape %.3f",
            seed + 2, testCases.count, topOne(testCases, nil, allowed: allowed),
            topOne(testCases, model, allowed: allowed)))
    let hersheyCases = try recognizerCases(hersheyTest, recognizer: recognizer, charset: charset)
    print(
        String(
            format:
                "held out, Hershey fonts seed %d (%d inks): recognizer alone top-1 %.3f; with the shape %.3f; shape alone %.3f",
            seed + 2, hersheyCases.count, topOne(hersheyCases, nil, allowed: allowed),
            topOne(hersheyCases, model, allowed: allowed),
            shapeAccuracy(hersheyTest, model)))
    // A measurement only (nothing is chosen on it): `--report SET.jsonl`, e.g. a labelled dev set.
    if let i = args.firstIndex(of: "--report"), args.count > i + 1 {
        let set = try loadSet(args[i + 1]).compactMap { text, ink in text.count == 1 ? (text.first!, ink) : nil }
        let cases = try recognizerCases(set, recognizer: recognizer, charset: charset)
        print(
            String(
                format: "report on %@ (%d inks): recognizer alone top-1 %.3f; with the shape %.3f; shape alone %.3f",
                args[i + 1], cases.count, topOne(cases, nil, allowed: allowed), topOne(cases, model, allowed: allowed),
                shapeAccuracy(set, model)))
    }
    if args.contains("--write") {
        let argsText = args.joined(separator: " ")
        model.provenance =
            "TrainInk \(argsText): \(count) networks trained on \(trained) CharacterInkSynthesizer inks (seeds \(seed) + 100 k, "
            + "mess \(mess)); weight and floor fitted on \(fitCases.count) more (seed \(seed + 1), mess \(fitMess); \(hersheyPerClass) per class of them from Hershey fonts) against the recognizer with --charset \(charset)"
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try encoder.encode(model).write(to: URL(fileURLWithPath: "Sources/ScanInk/Resources/CharacterShapes.json"))
        print("wrote Sources/ScanInk/Resources/CharacterShapes.json")
    }
}
