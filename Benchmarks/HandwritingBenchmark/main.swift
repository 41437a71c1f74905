import Foundation
import ScanInk
import ScanModel
import ScanRecognition

// Handwriting on images: pages of generated handwriting (Hershey cursive and script fonts,
// random writers) read by PP-OCR, with its best path and with the word-list line decoder
// that `scanextract --handwriting` plugs in. Prints word accuracy for both and the time
// the decoder adds:  swift run -c release HandwritingBenchmark [PAGES] [SEED] [MESS]
// (MESS scales how unsteady the generated writers are; default 1.5).
//
// The sentences are this project's own; most of their words are in the word list, as in
// most handwriting, and some are not (numbers, names, codes).

let sentences = [
    "Please call the office before noon", "The meeting moved to Thursday at 3",
    "Buy milk bread and seven oranges", "Remember to water the garden plants",
    "Dinner with Clara on Friday evening", "The train leaves from platform 12",
    "Send the signed contract back soon", "Our new address is 48 Mill Lane",
    "Thank you for the lovely flowers", "Pick up the children after school",
    "The library closes early on Sunday", "Check the tyres before the long drive",
    "Ask about the invoice from March", "Meet me outside the old cinema",
    "Bring a warm jacket and an umbrella", "The recipe needs two cups of flour",
    "Return the books by next Tuesday", "Book a table for four people",
    "The doctor said rest for a week", "Paint the kitchen a pale yellow",
]

func cpuMs() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) * 1000 + Double(ts.tv_nsec) / 1e6
}

/// Words of `truth` found in `read`, each counted at most as often as it was written.
func matched(_ truth: [String], _ read: [String]) -> Int {
    var pool: [String: Int] = [:]
    for w in read { pool[w, default: 0] += 1 }
    var n = 0
    for w in truth where (pool[w] ?? 0) > 0 { pool[w]! -= 1; n += 1 }
    return n
}

let args = Array(CommandLine.arguments.dropFirst())
let pages = Int(args.first ?? "") ?? 12
var rng = SeededGenerator(seed: UInt64(args.dropFirst().first ?? "") ?? 11)
let mess = Double(args.dropFirst(2).first ?? "") ?? 1.5
let fonts = [try HersheyFont(named: "cursive"), try HersheyFont(named: "scripts")]
let engine = try PPOCRRecognizer()
let lexicon = try InkModel.forLanguage("en-US").loadLexicon()
let decoder = HandwritingLineDecoder(lexicon: lexicon)
var words = 0, plain = 0, decoded = 0, plainMs = 0.0, decodedMs = 0.0
for p in 0..<pages {
    let lines = (0..<4).map { _ in sentences[Int(rng.next() % UInt64(sentences.count))] }
    let style = InkSynthesizer.messyStyle(&rng, level: mess)
    let page = HandwrittenPage.make(lines, synthesizer: InkSynthesizer(font: fonts[p % fonts.count]), style: style,
                                    rng: &rng, capHeight: rng.uniform(22, 40))
    let truth = lines.flatMap { $0.split(separator: " ").map(String.init) }
    engine.lineDecoder = nil
    var t = cpuMs()
    let a = try engine.recognize(page).flatMap { $0.text.split(separator: " ").map(String.init) }
    plainMs += cpuMs() - t
    engine.lineDecoder = decoder
    t = cpuMs()
    let b = try engine.recognize(page).flatMap { $0.text.split(separator: " ").map(String.init) }
    decodedMs += cpuMs() - t
    words += truth.count
    plain += matched(truth, a)
    decoded += matched(truth, b)
    if CommandLine.arguments.contains("-v") {
        print("page \(p):\n  best path: \(a.joined(separator: " "))\n  word list: \(b.joined(separator: " "))")
    }
}
print(
    String(
        format:
            "%d pages, %d words: word accuracy best path %.3f, word list %.3f; CPU %.0f ms/page best path, %.0f ms/page with the word list",
        pages, words, Double(plain) / Double(words), Double(decoded) / Double(words),
        plainMs / Double(pages), decodedMs / Double(pages)))
