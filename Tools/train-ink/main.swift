import Foundation
import ScanInk
import ScanModel
import ScanRecognition

// Learns the ink decoder's word-list bonus (InkWeights.lexiconBonus): the log-probability
// a word-list reading gets over a free CTC reading; then how far below the best a listed word
// may score and still be offered among five candidates (InkWeights.listedWordReach).
//
//   swift run -c release TrainInk fit [COUNT] [--seed N] [--write]  fit on generated Hershey ink: listed words
//                                                              and out-of-list strings (numbers, codes, names)
//   swift run -c release TrainInk kfold SET.jsonl [K]       k-fold check on a labelled Ink JSON Lines set
//   swift run -c release TrainInk eval SET.jsonl [BONUS]    top-1 / top-5 / CER of the decoder on a set
//
// The fit maximizes top-1 over a grid of bonuses (ties: the middle of the best range).

struct Case { var text: String; var proposals: [InkDecoder.Scored] }

func top(_ cases: [Case], bonus: Double, perCharacter: Double = 0, listedWordReach: Double = 0) -> (
    top1: Double, top5: Double
) {
    var t1 = 0, t5 = 0
    let decoder = InkDecoder(lexiconBonus: bonus, perCharacter: perCharacter)
    for c in cases {
        let five = InkDecoder.withListedWord(decoder.rank(c.proposals), count: 5, reach: listedWordReach)
            .map { $0.text.lowercased() }
        let want = c.text.lowercased()
        if five.first == want { t1 += 1 }
        if five.contains(want) { t5 += 1 }
    }
    return (Double(t1) / Double(max(1, cases.count)), Double(t5) / Double(max(1, cases.count)))
}

let grid = stride(from: 0.0, through: 30.0, by: 0.25).map { $0 }
let perCharacterGrid = stride(from: 0.0, through: 2.0, by: 0.1).map { $0 }
/// The (bonus, per-character) pair with the best top-1; ties: the middle of the best
/// run of bonuses, at the smallest per-character growth.
func fit(_ cases: [Case]) -> (Double, Double) {
    var best = (-1.0, 0.0, 0.0)
    for pc in perCharacterGrid {
        let scores = grid.map { top(cases, bonus: $0, perCharacter: pc).top1 }
        let m = scores.max() ?? 0
        guard m > best.0 + 1e-12 else { continue }
        let idx = grid.indices.filter { scores[$0] >= m - 1e-12 }
        var run = [idx[0]]
        for i in idx.dropFirst() where i == run.last! + 1 { run.append(i) }
        best = (m, grid[run[run.count / 2]], pc)
    }
    return (best.1, best.2)
}

/// The smallest reach with the best top-5 (`InkDecoder.withListedWord`), given the bonus.
func fitReach(_ cases: [Case], bonus: Double, perCharacter: Double) -> Double {
    let reaches = stride(from: 0.0, through: 30.0, by: 0.5).map { $0 }
    let scores = reaches.map { top(cases, bonus: bonus, perCharacter: perCharacter, listedWordReach: $0).top5 }
    let best = scores.max() ?? 0
    print(
        "top-5 by reach: "
            + stride(from: 0, to: reaches.count, by: 4).map { String(format: "%.0f:%.3f", reaches[$0], scores[$0]) }
            .joined(separator: " "))
    return reaches[scores.firstIndex { $0 >= best - 1e-12 } ?? 0]
}

func proposals(_ recognizer: InkRecognizer, _ lexicon: WordList, _ ink: Ink) throws -> [InkDecoder.Scored] {
    let charset = ProcessInfo.processInfo.environment["INK_CHARSET"]
    let renderings = try recognizer.allProbabilities(ink, charset: charset)
    if let charset {
        let restricted = renderings.map {
            $0.restricted(
                to: Set(charset), lookAlikes: InkContextRules.lookAlikes(for: ink),
                reassign: InkContextRules.reassignments(for: ink))
        }
        return InkDecoder(lexiconBonus: 0).proposals(restricted, lexicon: nil, count: 10)
    }
    return InkDecoder(lexiconBonus: 0).proposals(renderings, lexicon: lexicon, count: 10)
}

func loadSet(_ path: String) throws -> [(String, Ink)] {
    struct Labelled: Decodable { var text: String }
    let text = try String(contentsOfFile: path, encoding: .utf8)
    return try text.split(separator: "\n").map { line in
        let d = Data(line.utf8)
        return (try JSONDecoder().decode(Labelled.self, from: d).text, try JSONDecoder().decode(Ink.self, from: d))
    }
}

let args = Array(CommandLine.arguments.dropFirst())
/// The number after `flag` on the command line.
func number(after flag: String) -> Double? {
    args.firstIndex(of: flag).flatMap { args.count > $0 + 1 ? Double(args[$0 + 1]) : nil }
}
/// How messy the generated ink is (InkSynthesizer.messyStyle's level): `--mess 2.5`.
let messLevel = number(after: "--mess") ?? 1
/// Writers' ascenders and descenders up to this many times the font's (`--zones 3`; words-dump and dump-gen).
let zoneStretch = number(after: "--zones")
/// Writing lines at up to this many degrees either way (`--rotate 15`; words-dump and dump-gen).
let rotation = number(after: "--rotate")
// Renderer settings can be overridden for sweeps: INK_PEN, INK_VPAD, INK_HPAD, INK_SLANT (0/1),
// INK_SMOOTH, INK_STEP, INK_ASPECT, INK_ZONE (a ratio, or off) and INK_ZONE_REACH.
var options = InkRecognizer.Options()
// The bonus is fitted on one rendering (the ensemble's extra renderings are chosen afterwards, by ensemble.py).
options.extraRenderings = []
let env = ProcessInfo.processInfo.environment
if let v = env["INK_PEN"].flatMap(Double.init) { options.renderer.penWidth = v }
if let v = env["INK_VPAD"].flatMap(Double.init) { options.renderer.verticalPadding = v }
if let v = env["INK_HPAD"].flatMap(Double.init) { options.renderer.horizontalPadding = v }
if let v = env["INK_SLANT"].flatMap(Int.init) { options.renderer.correctSlant = v != 0 }
if let v = env["INK_SMOOTH"].flatMap(Int.init) { options.renderer.smoothing = v }
if let v = env["INK_STEP"].flatMap(Double.init) { options.renderer.resampleStep = v }
if let v = env["INK_SHRINK"].flatMap(Double.init) { options.renderer.shrinkAspect = v }
if let v = env["INK_ASPECT"].flatMap(Double.init) { options.renderer.minAspect = v }
if let v = env["INK_ZONE"] { options.renderer.zoneCompression = Double(v) }
if let v = env["INK_ZONE_REACH"].flatMap(Double.init) { options.renderer.zoneReach = v }
// INK_EXTRA="pen,slant;pen,slant": extra renderings (pen width share, deslant 0/1).
if let v = env["INK_EXTRA"] {
    options.extraRenderings = v.split(separator: ";").map { spec in
        let parts = spec.split(separator: ",").map { Double($0) ?? 0 }
        var r = options.renderer
        r.penWidth = parts[0]
        if parts.count > 1 { r.correctSlant = parts[1] != 0 }
        return r
    }
}
let recognizer = try InkRecognizer(options: options)
let (lexicon, model) = try recognizer.lexicon(for: "en-US")

switch env["INK_DEBUG"] == nil ? args.first : "debug" {
case "fit":
    let count = args.count > 1 ? Int(args[1]) ?? 400 : 400
    var rng = SeededGenerator(seed: UInt64(number(after: "--seed") ?? 2024))
    let fonts = try hersheyTrainingFonts()
    // Listed words of 2-12 letters, lower case; out-of-list strings: numbers, codes, names.
    let words = lexicon.words.filter { $0.count >= 2 && $0.count <= 12 && $0.allSatisfy(\.isLowercase) }
    var cases: [Case] = []
    var greedyHits = 0
    for i in 0..<count {
        let text: String
        if i % 10 < 7 {
            text = words[Int(rng.next() % UInt64(words.count))]
        } else {
            let kind = rng.next() % 3
            let digits = "0123456789", letters = "abcdefghijklmnopqrstuvwxyz"
            func pick(_ s: String, _ n: Int) -> String { String((0..<n).map { _ in s.randomElement(using: &rng)! }) }
            switch kind {
            case 0: text = pick(digits, Int(rng.next() % 5) + 2)
            case 1: text = pick(letters.uppercased(), 2) + pick(digits, Int(rng.next() % 3) + 1)
            default:
                // A pronounceable made-up name.
                var s = ""
                for _ in 0..<(Int(rng.next() % 2) + 2) { s += pick("bcdfgklmnprstvz", 1) + pick("aeiou", 1) }
                text = lexicon.contains(s) ? s + "x" : s
            }
        }
        let synth = InkSynthesizer(font: fonts[i % fonts.count])
        let ink = synth.ink(text, style: InkSynthesizer.messyStyle(&rng, level: messLevel), rng: &rng)
        cases.append(Case(text: text, proposals: try proposals(recognizer, lexicon, ink)))
        if try recognizer.probabilities(ink).greedy().text.trimmingCharacters(in: .whitespaces).lowercased()
            == text.lowercased()
        {
            greedyHits += 1
        }
    }
    let inList = cases.filter { lexicon.contains($0.text) }.count
    let (bonus, perCharacter) = fit(cases)
    let reach = fitReach(cases, bonus: bonus, perCharacter: perCharacter)
    let r = top(cases, bonus: bonus, perCharacter: perCharacter, listedWordReach: reach), r0 = top(cases, bonus: 0)
    let unreached = top(cases, bonus: bonus, perCharacter: perCharacter)
    print("generated \(cases.count) (\(inList) listed words, \(cases.count - inList) out of the list), \(model.id)")
    print(String(format: "mess level %.2f: greedy top-1 %.3f", messLevel, Double(greedyHits) / Double(cases.count)))
    print(
        String(
            format: "bonus %.2f + %.2f per character: top-1 %.3f top-5 %.3f  (bonus 0: top-1 %.3f)", bonus,
            perCharacter, r.top1, r.top5, r0.top1))
    print(
        String(
            format: "listed word offered within %.2f: top-5 %.3f (none offered: %.3f)", reach, r.top5, unreached.top5))
    if args.contains("--write") {
        let seedFlag = number(after: "--seed").map { " --seed \(Int($0))" } ?? ""
        let src = """
        /// Weights learned from data; written by `swift run -c release TrainInk fit \(count) --mess
        /// \(messLevel)\(seedFlag) --write` (Tools/train-ink): fitted on \(cases.count) generated Hershey inks (mess
        /// level \(messLevel), at which the recognizer's greedy reading is right for \(greedyHits) of them, as hard as
        /// real handwriting), \(inList) listed words and \(cases.count - inList) out-of-list strings (numbers, codes,
        /// made-up names). Do not edit by hand.
        public enum InkWeights {
            /// Log-probability bonus of a word-list reading over a free CTC reading.
            public static let lexiconBonus: Double = \(bonus)
            /// Its growth per character of the word.
            public static let lexiconBonusPerCharacter: Double = \(perCharacter)
            /// How far below the best a listed word may score and still be offered among the candidates.
            public static let listedWordReach: Double = \(reach)
        }

        """
        try src.write(toFile: "Sources/ScanInk/InkWeights.swift", atomically: true, encoding: .utf8)
        print("wrote Sources/ScanInk/InkWeights.swift")
    }
case "kfold", "eval":
    guard args.count > 1 else { fatalError("give SET.jsonl") }
    let set = try loadSet(args[1])
    let cases = try set.map { Case(text: $0.0, proposals: try proposals(recognizer, lexicon, $0.1)) }
    if args[0] == "eval" {
        let bonus = args.count > 2 ? Double(args[2]) ?? InkWeights.lexiconBonus : InkWeights.lexiconBonus
        let perCharacter =
            args.count > 3 ? Double(args[3]) ?? 0 : (args.count > 2 ? 0 : InkWeights.lexiconBonusPerCharacter)
        let r = top(cases, bonus: bonus, perCharacter: perCharacter), free = top(cases, bonus: -100)
        let greedy = try set.filter {
            try recognizer.probabilities($0.1).greedy().text.trimmingCharacters(in: .whitespaces).lowercased()
                == $0.0.lowercased()
        }.count
        print(
            String(
                format: "cases %d bonus %.2f top-1 %.3f top-5 %.3f  (free only %.3f, greedy %.3f)", cases.count, bonus,
                r.top1, r.top5,
                free.top1, Double(greedy) / Double(set.count)))
    } else {
        let k = args.count > 2 ? Int(args[2]) ?? 5 : 5
        var hits1 = 0.0, hits5 = 0.0
        for fold in 0..<k {
            let train = cases.indices.filter { $0 % k != fold }.map { cases[$0] }
            let test = cases.indices.filter { $0 % k == fold }.map { cases[$0] }
            let b = fit(train)
            let r = top(test, bonus: b.0, perCharacter: b.1)
            hits1 += r.top1 * Double(test.count); hits5 += r.top5 * Double(test.count)
            print(String(format: "fold %d: bonus %.2f + %.2f/char test top-1 %.3f", fold, b.0, b.1, r.top1))
        }
        print(
            String(
                format: "%d-fold: top-1 %.3f top-5 %.3f", k, hits1 / Double(cases.count), hits5 / Double(cases.count)))
    }
case "dump", "dump-gen":
    // Rescoring experiments outside Swift: for each ink, every candidate any rendering variant
    // proposes (free beam, word list, single characters), with its exact CTC log-probability on
    // each variant, as JSON Lines.
    //   TrainInk dump SET.jsonl OUT.jsonl              a labelled Ink set
    //   TrainInk dump-gen COUNT SEED OUT.jsonl --mess M  generated Hershey ink (as `fit` makes it)
    // INK_VARIANTS="pen=0.05,soff=0.1;xs=1.2;..." lists the variants (the first is the default renderer).
    let variants = variantSettings(env["INK_VARIANTS"] ?? "", base: options.renderer)
    var items: [(String, Ink)] = []
    let outPath: String
    if args[0] == "dump" {
        items = try loadSet(args[1]); outPath = args[2]
    } else {
        items = try generatedWords(count: Int(args[1]) ?? 400, seed: UInt64(args[2]) ?? 1)
        outPath = args[3]
    }
    var classIndex: [String: Int] = [:]
    var out = ""
    for (n, (text, ink)) in items.enumerated() {
        let charset = env["INK_CHARSET"]
        let probs = try variants.map { v -> LineProbabilities in
            let v = InkRecognizer.adapted(v, for: ink, charset: charset)
            let p = try recognizer.reader.probabilities(of: InkRenderer(settings: v).render(ink))
            guard let charset else { return p }
            return p.restricted(to: Set(charset), lookAlikes: InkContextRules.lookAlikes(for: ink),
                                reassign: InkContextRules.reassignments(for: ink))
        }
        if classIndex.isEmpty {
            for (k, a) in probs[0].alphabet.enumerated() where k > 0 && classIndex[a] == nil { classIndex[a] = k }
        }
        var found: [String: Bool] = [:]
        for p in probs {
            for s in InkDecoder(lexiconBonus: 0).proposals(p, lexicon: charset == nil ? lexicon : nil, count: 10) {
                found[s.text] = s.inLexicon
            }
        }
        var cands: [[Any]] = []
        for (t, listed) in found {
            let cls = t.compactMap { classIndex[String($0)] }
            guard cls.count == t.count else { continue }
            cands.append([t, listed, probs.map { ctcLogProbability($0, classes: cls) }])
        }
        let row: [String: Any] = [
            "text": text, "greedy": probs.map { $0.greedy().text.trimmingCharacters(in: .whitespaces) },
            "steps": probs.map(\.steps), "cands": cands
        ]
        out += String(decoding: try JSONSerialization.data(withJSONObject: row), as: UTF8.self) + "\n"
        if n % 50 == 0 { FileHandle.standardError.write(Data("\(n)/\(items.count)\n".utf8)) }
    }
    try out.write(toFile: outPath, atomically: true, encoding: .utf8)
    print("wrote \(items.count) inks x \(variants.count) variants to \(outPath)")
case "debug": break
case "characters-dump":
    // Generated single characters as a labelled Ink JSON Lines set (for InkBenchmark and score_ink.py):
    //   TrainInk characters-dump PER_CLASS SEED OUT.jsonl [--mess M]
    let perClass = Int(args[1]) ?? 20, seed = UInt64(args[2]) ?? 1
    let characters = generatedCharacters(perClass: perClass, seed: seed, mess: messLevel)
    try writeSet(characters.map { (String($0.0), $0.1) }, to: args[3])
    print("wrote \(perClass * CharacterInkSynthesizer.characters.count) inks (seed \(seed)) to \(args[3])")
case "words-dump":
    // Generated words, numbers, codes and names (as dump-gen makes them) as a labelled Ink JSON Lines set:
    //   TrainInk words-dump COUNT SEED OUT.jsonl [--mess M] [--zones Z] [--rotate D]
    let set = try generatedWords(count: Int(args[1]) ?? 400, seed: UInt64(args[2]) ?? 1)
    try writeSet(set, to: args[3])
    print("wrote \(set.count) inks (seed \(args[2])) to \(args[3])")
case "characters-eval":
    // The shipped shape classifier alone on a labelled set (a measurement; nothing is fitted):
    //   TrainInk characters-eval SET.jsonl
    guard let model = CharacterShapeClassifier.shipped else { fatalError("no shipped CharacterShapes.json") }
    let set = try loadSet(args[1])
    var confusions: [String: Int] = [:]
    var hits = 0
    for (text, ink) in set {
        let guess = model.logProbabilities(ink)?.max { $0.value < $1.value }?.key
        if guess.map(String.init) == text {
            hits += 1
        } else {
            confusions["\(text)->\(guess.map(String.init) ?? "?")", default: 0] += 1
        }
    }
    print(String(format: "shape alone: %d of %d (%.3f)", hits, set.count, Double(hits) / Double(max(1, set.count))))
    print(confusions.sorted { $0.value > $1.value }.prefix(15).map { "\($0.key) \($0.value)" }.joined(separator: ", "))
case "characters":
    // The single-character shape classifier, on generated ink only (characters.swift):
    //   TrainInk characters [--per-class 500] [--fit-per-class 60] [--hidden 32] [--epochs 40] [--seed 1] [--mess 1]
    //   [--write]
    var plain = InkRecognizer.Options()
    plain.characterShapes = nil
    try runCharacters(args, recognizer: try InkRecognizer(options: plain))
case "shapes":
    // Fits the reject distance on generated shapes and scribbles (seed 1), then measures
    // on others (seed 2): accuracy over the 8 classes.
    let synth = ShapeSynthesizer()
    let font = try HersheyFont(named: "futural")
    let perKind = args.count > 1 ? Int(args[1]) ?? 40 : 40
    func sample(_ seed: UInt64) -> [(ShapeKind, [ShapeCandidate])] {
        var rng = SeededGenerator(seed: seed)
        let recognizer = ShapeRecognizer(rejectDistance: .infinity)
        return ShapeKind.allCases.flatMap { kind in
            (0..<perKind).map { _ in (kind, recognizer.recognize(synth.ink(kind, rng: &rng, scribbleFont: font))) }
        }
    }
    // With an infinite reject distance, candidates are the kinds ranked by distance; the
    // best distance decides the rejection. Recompute it here from the same clouds.
    func distances(_ seed: UInt64) -> [(ShapeKind, ShapeKind, Double)] {
        var rng = SeededGenerator(seed: seed)
        let recognizer = ShapeRecognizer(rejectDistance: .infinity)
        return ShapeKind.allCases.flatMap { kind in
            (0..<perKind).map { _ -> (ShapeKind, ShapeKind, Double) in
                let ink = synth.ink(kind, rng: &rng, scribbleFont: font)
                let (best, d) = recognizer.nearest(ink)
                return (kind, best, d)
            }
        }
    }
    func accuracy(_ rows: [(ShapeKind, ShapeKind, Double)], _ reject: Double) -> Double {
        Double(rows.filter { ($0.2 > reject ? ShapeKind.notAShape : $0.1) == $0.0 }.count) / Double(rows.count)
    }
    let train = distances(1), test = distances(2)
    let grid = stride(from: 0.5, through: 12, by: 0.05).map { $0 }
    let scores = grid.map { accuracy(train, $0) }
    let bestIndex = scores.indices.max { scores[$0] < scores[$1] }!
    let reject = grid[bestIndex]
    print(String(format: "reject distance %.2f: train accuracy %.3f, test accuracy %.3f (%d per kind, %d kinds)",
                 reject, scores[bestIndex], accuracy(test, reject), perKind, ShapeKind.allCases.count))
    for kind in ShapeKind.allCases {
        let rows = test.filter { $0.0 == kind }
        var confusions: [String: Int] = [:]
        for r in rows {
            let got = r.2 > reject ? ShapeKind.notAShape : r.1
            if got != kind { confusions[got.rawValue, default: 0] += 1 }
        }
        let listed = confusions.sorted { $0.value > $1.value }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        print(
            "  \(kind.rawValue): \(String(format: "%.3f", accuracy(rows, reject)))"
                + (listed.isEmpty ? "" : " (as \(listed))"))
    }
    if args.contains("--write") {
        try """
        /// Written by `swift run -c release TrainInk shapes \(perKind) --write` (Tools/train-ink): the reject distance
        /// that classifies best \(perKind) generated inks per kind (seed 1); do not edit by hand.
        public enum ShapeWeights {
            /// $P cloud distance above which an ink is "not a shape".
            public static let rejectDistance: Double = \(reject)
        }

        """.write(toFile: "Sources/ScanInk/ShapeWeights.swift", atomically: true, encoding: .utf8)
    }
    _ = sample
case "alphabet":
    // Which scripts the recognizer can write: letters per Unicode block.
    let alphabet = try PPOCRLineReader().alphabet
    func count(_ lo: UInt32, _ hi: UInt32) -> Int {
        alphabet.filter { $0.unicodeScalars.count == 1 && (lo...hi).contains($0.unicodeScalars.first!.value) }.count
    }
    print(
        "classes \(alphabet.count); Latin-1 letters \(count(0xC0, 0xFF)), Greek \(count(0x370, 0x3FF)), Cyrillic \(count(0x400, 0x4FF)), Hebrew \(count(0x590, 0x5FF)), Arabic \(count(0x600, 0x6FF))"
    )
default:
    print("usage: TrainInk fit [COUNT] [--write] | kfold SET.jsonl [K] | eval SET.jsonl [BONUS]")
}

// Debug: INK_DEBUG=N prints the top classes per step of case N of a set.
if let n = env["INK_DEBUG"].flatMap(Int.init), args.count > 1 {
    let set = try loadSet(args[1])
    let p = try recognizer.probabilities(set[n].1)
    print("want", set[n].0, "steps", p.steps)
    for t in 0..<p.steps {
        let row = (0..<p.classCount).map { (p.alphabet[$0], p.values[t * p.classCount + $0]) }.sorted { $0.1 > $1.1 }
            .prefix(4)
        print(t, row.map { "\($0.0.isEmpty ? "_" : $0.0):\(String(format: "%.3f", $0.1))" }.joined(separator: " "))
    }
}

/// Renderer variants from "key=value,...;..." (keys: pen, vpad, hpad, slant, soff, xs, shrink, step);
/// the first is always the base renderer.
func variantSettings(_ spec: String, base: InkRenderer.Settings) -> [InkRenderer.Settings] {
    var out = [base]
    for part in spec.split(separator: ";") {
        var r = base
        for kv in part.split(separator: ",") {
            let pair = kv.split(separator: "=")
            guard pair.count == 2, let v = Double(pair[1]) else { continue }
            switch pair[0] {
            case "pen": r.penWidth = v
            case "vpad": r.verticalPadding = v
            case "hpad": r.horizontalPadding = v
            case "slant": r.correctSlant = v != 0
            case "soff": r.slantOffset = v
            case "xs": r.horizontalScale = v
            case "shrink": r.shrinkAspect = v
            case "step": r.resampleStep = v
            default: break
            }
        }
        out.append(r)
    }
    return out
}

/// Generated Hershey inks of `generatedText`, in the `--mess`, `--zones` and `--rotate` writers' styles.
func generatedWords(count: Int, seed: UInt64) throws -> [(String, Ink)] {
    var rng = SeededGenerator(seed: seed)
    let fonts = try hersheyTrainingFonts()
    let words = lexicon.words.filter { $0.count >= 2 && $0.count <= 12 && $0.allSatisfy(\.isLowercase) }
    return (0..<count).map { i in
        let text = generatedText(i, words: words, lexicon: lexicon, rng: &rng)
        var style = InkSynthesizer.messyStyle(&rng, level: messLevel)
        if let z = zoneStretch { style.zoneStretch = rng.uniform(1, z) }
        if let r = rotation { style.baselineAngle = rng.uniform(-r, r) * .pi / 180 }
        return (text, InkSynthesizer(font: fonts[i % fonts.count]).ink(text, style: style, rng: &rng))
    }
}

/// A labelled Ink JSON Lines set (each Ink object with its `text`).
func writeSet(_ set: [(String, Ink)], to path: String) throws {
    var lines = ""
    for (text, ink) in set {
        let object = try JSONSerialization.jsonObject(with: try JSONEncoder().encode(ink)) as! [String: Any]
        lines += String(decoding: try JSONSerialization.data(withJSONObject: object.merging(["text": text]) { $1 }),
                        as: UTF8.self) + "\n"
    }
    try lines.write(toFile: path, atomically: true, encoding: .utf8)
}

/// The text of generated case `i`: seven in ten a listed word, else a number, a code or a made-up name.
func generatedText(_ i: Int, words: [String], lexicon: WordList, rng: inout SeededGenerator) -> String {
    if i % 10 < 7 { return words[Int(rng.next() % UInt64(words.count))] }
    let digits = "0123456789", letters = "abcdefghijklmnopqrstuvwxyz"
    func pick(_ s: String, _ n: Int) -> String { String((0..<n).map { _ in s.randomElement(using: &rng)! }) }
    switch rng.next() % 3 {
    case 0: return pick(digits, Int(rng.next() % 5) + 2)
    case 1: return pick(letters.uppercased(), 2) + pick(digits, Int(rng.next() % 3) + 1)
    default:
        var s = ""
        for _ in 0..<(Int(rng.next() % 2) + 2) { s += pick("bcdfgklmnprstvz", 1) + pick("aeiou", 1) }
        return lexicon.contains(s) ? s + "x" : s
    }
}
