import Foundation
import ScanInk
import ScanModel
import ScanRecognition

// Time per ink on one core (ONNX Runtime with one thread), on generated Hershey words
// or on an Ink JSON Lines file:  swift run -c release InkBenchmark [SET.jsonl] [COUNT]
// CPU time of this thread is reported too, which load from other processes does not inflate.

func cpuMs() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) * 1000 + Double(ts.tv_nsec) / 1e6
}

let args = Array(CommandLine.arguments.dropFirst())
var inks: [(String, Ink)] = []
if let path = args.first, path.hasSuffix(".jsonl") {
    struct Labelled: Decodable { var text: String }
    for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") {
        let d = Data(line.utf8)
        inks.append(
            (
                (try? JSONDecoder().decode(Labelled.self, from: d).text) ?? "",
                try JSONDecoder().decode(Ink.self, from: d)
            ))
    }
} else {
    let count = Int(args.first ?? "") ?? 100
    var rng = SeededGenerator(seed: 7)
    let synth = InkSynthesizer(font: try HersheyFont(named: "cursive"))
    let words = ["handwriting", "recognition", "quick", "brown", "fox", "jumps", "over", "lazy", "dog", "letter",
                 "scanner", "morning", "garden", "window", "yellow", "number", "people", "travel", "coffee", "market"]
    for i in 0..<count {
        let w = words[i % words.count]
        inks.append((w, synth.ink(w, style: InkSynthesizer.randomStyle(&rng), rng: &rng)))
    }
}
let loadStart = Date()
// INK_SHAPES=0 leaves out the single-character shape classifier (the figure before it).
var recognizerOptions = InkRecognizer.Options()
if ProcessInfo.processInfo.environment["INK_SHAPES"] == "0" { recognizerOptions.characterShapes = nil }
/// Changes every rendering's settings, the main one and the extra ones (a sweep).
@MainActor func everyRendering(_ change: (inout InkRenderer.Settings) -> Void) {
    change(&recognizerOptions.renderer)
    recognizerOptions.extraRenderings = recognizerOptions.extraRenderings.map { var r = $0; change(&r); return r }
}
let environment = ProcessInfo.processInfo.environment
// INK_ZONE=R (and INK_ZONE_REACH) set the zone compression; INK_ZONE=off renders without it.
if let v = environment["INK_ZONE"] {
    let reach = environment["INK_ZONE_REACH"].flatMap(Double.init)
    everyRendering { $0.zoneCompression = Double(v); if let reach { $0.zoneReach = reach } }
}
// INK_SKEW=0 renders without levelling the writing line; INK_SKEW=N allows N degrees either way
// (INK_SKEW_GAIN: the sharpness gain it needs).
if let v = environment["INK_SKEW"].flatMap(Double.init) {
    let gain = environment["INK_SKEW_GAIN"].flatMap(Double.init)
    everyRendering { $0.correctSkew = v > 0; $0.maxSkew = v; if let gain { $0.minSkewGain = gain } }
}
let recognizer = try InkRecognizer(options: recognizerOptions)
_ = try recognizer.lexicon(for: "en-US")
print(String(format: "set-up (session + word list): %.0f ms", Date().timeIntervalSince(loadStart) * 1000))
// Warm-up.
_ = try recognizer.recognize(ink: inks[0].1)
var renderMs = 0.0, modelMs = 0.0, decodeMs = 0.0, hits = 0
let wallStart = Date(), cpuStart = cpuMs()
for (text, ink) in inks {
    let a = cpuMs()
    _ = recognizer.render(ink)
    let b = cpuMs()
    let probs = try recognizer.probabilities(ink)   // renders again: that time is taken off below
    let c = cpuMs()
    let (lexicon, _) = try recognizer.lexicon(for: "en-US")
    let cands = recognizer.decode([probs], lexicon: lexicon, count: 5)
    let d = cpuMs()
    renderMs += b - a; modelMs += (c - b) - (b - a); decodeMs += d - c
    if cands.first?.text.lowercased() == text.lowercased() { hits += 1 }
}
let n = Double(inks.count)
let wall = Date().timeIntervalSince(wallStart) * 1000 / n
// Each ink was rendered twice above; count it once.
let cpu = (cpuMs() - cpuStart) / n - renderMs / n
print(
    String(
        format:
            "one rendering, %d inks: %.1f ms wall, %.1f ms CPU per ink (render %.2f, recognizer %.1f, decode %.1f); top-1 %.3f",
        inks.count, wall, cpu, renderMs / n, modelMs / n, decodeMs / n, Double(hits) / n))

// The whole of `recognize(ink:)`, as the command and the service run it: the extra renderings
// (InkEnsemble) are read only for inks whose choice is open after the first.
// INK_CHARSET restricts the candidates as `--charset` does; INK_PREDICTIONS=FILE writes the results,
// one JSON line per ink, for `score_ink.py SET --predictions FILE`.
let context = InkContext(charset: environment["INK_CHARSET"])
var predictions = ""
var fullHits = 0, opened = 0
let fullWallStart = Date(), fullCpuStart = cpuMs()
for (text, ink) in inks {
    let result = try recognizer.recognize(ink: ink, context: context)
    if environment["INK_PREDICTIONS"] != nil {
        predictions += String(decoding: try JSONEncoder().encode(result), as: UTF8.self) + "\n"
    }
    if result.candidates.first?.text.trimmingCharacters(in: .whitespaces).lowercased() == text.lowercased() {
        fullHits += 1
    }
}
let fullCpu = (cpuMs() - fullCpuStart) / n, fullWall = Date().timeIntervalSince(fullWallStart) * 1000 / n
if !recognizer.options.extraRenderings.isEmpty, context.charset == nil {   // counted for the word-list path
    let (lexicon, _) = try recognizer.lexicon(for: "en-US")
    for (_, ink) in inks
    where InkRecognizer.isOpen(
        recognizer.decode([try recognizer.probabilities(ink)], lexicon: lexicon, count: 2),
        margin: recognizer.options.ensembleMargin)
    { opened += 1 }
}
if let path = environment["INK_PREDICTIONS"] { try predictions.write(toFile: path, atomically: true, encoding: .utf8) }
print(
    String(
        format:
            "recognize(ink:), %d inks: %.1f ms wall, %.1f ms CPU per ink; %d of them read %d extra renderings; top-1 %.3f",
        inks.count, fullWall, fullCpu, opened, recognizer.options.extraRenderings.count, Double(fullHits) / n))

// Where the decoder's time goes: the word-list search, the free beam, exact rescoring.
if ProcessInfo.processInfo.environment["INK_PROFILE"] != nil {
    let (lexicon, _) = try recognizer.lexicon(for: "en-US")
    let all = try inks.map { try recognizer.probabilities($0.1) }
    var a = cpuMs()
    for p in all { _ = lexicon.search(p, count: 5) }
    let searchMs = (cpuMs() - a) / n
    a = cpuMs()
    for p in all { _ = p.beam(count: 8, width: 16) }
    let beamMs = (cpuMs() - a) / n
    a = cpuMs()
    for p in all { _ = ctcLogProbability(p, classes: [1, 2, 3, 4, 5, 6, 7]) }
    let exactMs = (cpuMs() - a) / n
    print(
        String(
            format: "per ink: word-list search %.2f ms, free beam %.2f ms, one exact score %.3f ms", searchMs, beamMs,
            exactMs))
}
