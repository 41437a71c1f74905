// Learns the document classifier's weights from folders of scanextract JSON documents.
//
//   swift run -c release TrainClassifier receipt=DIR... businessCard=DIR... other=DIR... [--out FILE] [--holdout 0.2]
//                                        [test:receipt=DIR... test:other=DIR...]
//
// `test:` folders are only scored, never trained on: use them for documents of kinds the
// training folders don't hold, to see how the weights carry over.
// Every folder holds Document JSON (as `scanextract -o DIR` writes it, or as
// Tools/observations/to_document.py makes it). The data is read at train time;
// only the weights are written (as Swift source, to Sources/ScanExtraction/Classifier/ClassifierWeights.swift).
// The model is a multinomial logistic regression with L2 regularization, trained by
// full-batch gradient descent; each class is weighted by the inverse of its size so
// that 800 receipts don't drown 20 invoices (the square root of it, so
// that the rare classes don't swallow the borderline receipts either). The L2 weight is
// 0.0001 and the steps 6,000 (`TRAIN_LAMBDA`, `TRAIN_STEPS`): with 0.01 and 3,000 the weights
// stayed too small to tell a two-line CORD fragment or a letterhead from a card once
// generated cards joined the training (held-out accuracy 0.992 against 0.997).
//
// The shipped weights (E=../shared/eval; the JSON folders as scanextract -q -o writes them):
//   TrainClassifier receipt=CORD_DOCS receipt=$E/sroie-train/ocr receipt=PHOTOS_JSON receipt=MADE_UP_LANGUAGE_DOCS \
//     businessCard=CARDS_DEV_JSON businessCard=GEN_CARDS_SEED3_JSON \
//     other=OTHER_DOCS other=INVOICES_JSON other=LETTERS_SEED5_DOCS \
//     test:receipt=SROIE_DEV_JSON test:businessCard=GEN_CARDS_SEED11_JSON test:other=LETTERS_SEED9_DOCS \
//     test:receipt=MADE_UP_LANGUAGE_SEED72_DOCS
// (CORD_DOCS: Tools/observations/to_document.py cord; OTHER_DOCS: other_texts.sh then to_document.py text;
// GEN_CARDS: Tools/make-cards/make_cards.py OUT --count 400 --seed 3 (150, seed 11 for the test), then scanextract over
// OUT/img; LETTERS: Tools/observations/make_letters.py OUT --count 120 --seed 5, then to_document.py text;
// MADE_UP_LANGUAGE_DOCS: Tools/train-receipt-fields/make_receipts.py OUT --count 400 --seed 71 --locales xx --modifiers
// 0.3, its OUT/docs: receipts in a language no locale file knows, so that a receipt whose label words are all unknown
// is still told by its amounts and layout; the test's are --count 300 --seed 72 --locales xx.)
import Foundation
import ScanDetectors
import ScanExtraction
import ScanLayout
import ScanModel

var out = "Sources/ScanExtraction/Classifier/ClassifierWeights.swift"
var holdout = 0.0
var sets: [(DocumentKind, String)] = []
var testSets: [(DocumentKind, String)] = []
var args = CommandLine.arguments.dropFirst()
while let a = args.popFirst() {
    if a == "--out" { out = args.popFirst() ?? out; continue }
    if a == "--holdout" { holdout = Double(args.popFirst() ?? "0") ?? 0; continue }
    let scoredOnly = a.hasPrefix("test:")
    let parts = (scoredOnly ? String(a.dropFirst(5)) : a).split(separator: "=", maxSplits: 1).map(String.init)
    guard parts.count == 2, let k = DocumentKind(rawValue: parts[0]) else {
        FileHandle.standardError.write(
            Data("usage: TrainClassifier receipt=DIR businessCard=DIR other=DIR [--out FILE] [--holdout F]\n".utf8))
        exit(2)
    }
    if scoredOnly { testSets.append((k, parts[1])) } else { sets.append((k, parts[1])) }
}
let labels: [DocumentKind] = [.receipt, .businessCard, .other]
let analyzer = LineAnalyzer(detector: try DataDetector())
var xs: [[Double]] = [], ys: [Int] = [], names: [String] = []
var external: [Int] = []
for (n, (kind, dir)) in (sets + testSets).enumerated() {
    let files =
        (try? FileManager.default.contentsOfDirectory(atPath: dir))?.filter { $0.hasSuffix(".json") }.sorted() ?? []
    for f in files {
        guard let data = FileManager.default.contents(atPath: dir + "/" + f),
              var doc = try? JSONDecoder().decode(Document.self, from: data) else { continue }
        // As the pipeline sees it: sideways pages turned upright.
        doc.pages = doc.pages.map(SidewaysPage.upright)
        if n >= sets.count { external.append(xs.count) }
        xs.append(DocumentClassifier.features(doc, lines: analyzer.analyze(doc)))
        ys.append(labels.firstIndex(of: kind)!)
        names.append(dir + "/" + f)
    }
}
// A deterministic split: every k-th document held out.
var train: [Int] = [], test: [Int] = []
let every = holdout > 0 ? max(2, Int((1 / holdout).rounded())) : 0
let externalSet = Set(external)
for i in xs.indices where !externalSet.contains(i) {
    if every > 0 && i % every == 0 { test.append(i) } else { train.append(i) }
}
let d = DocumentClassifier.featureNames.count
var counts = [Double](repeating: 0, count: labels.count)
for i in train { counts[ys[i]] += 1 }
let classWeight = counts.map { $0 > 0 ? (Double(train.count) / (Double(labels.count) * $0)).squareRoot() : 0 }
var w = [[Double]](repeating: [Double](repeating: 0, count: d), count: labels.count)
let lambda = Double(ProcessInfo.processInfo.environment["TRAIN_LAMBDA"] ?? "") ?? 0.0001, rate = 0.5
let steps = Int(ProcessInfo.processInfo.environment["TRAIN_STEPS"] ?? "") ?? 6000
@MainActor func probs(_ x: [Double]) -> [Double] {
    let z = w.map { r in zip(r, x).reduce(0) { $0 + $1.0 * $1.1 } }
    let m = z.max()!
    let e = z.map { exp($0 - m) }
    let s = e.reduce(0, +)
    return e.map { $0 / s }
}
let norm = train.reduce(0.0) { $0 + classWeight[ys[$1]] }
for _ in 0..<steps {
    var g = [[Double]](repeating: [Double](repeating: 0, count: d), count: labels.count)
    for i in train {
        let p = probs(xs[i])
        let cw = classWeight[ys[i]]
        for c in 0..<labels.count {
            let err = (p[c] - (ys[i] == c ? 1 : 0)) * cw
            for j in 0..<d { g[c][j] += err * xs[i][j] }
        }
    }
    for c in 0..<labels.count {
        for j in 0..<d { w[c][j] -= rate * (g[c][j] / norm + (j == 0 ? 0 : lambda * w[c][j])) }
    }
}
@MainActor func accuracy(_ idx: [Int]) -> (Double, [String]) {
    var ok = 0
    var wrong: [String] = []
    for i in idx {
        let p = probs(xs[i])
        let best = p.indices.max { p[$0] < p[$1] }!
        if best == ys[i] { ok += 1 } else { wrong.append("\(names[i]) -> \(labels[best].rawValue)") }
    }
    return (Double(ok) / Double(max(1, idx.count)), wrong)
}
let (trainAcc, trainWrong) = accuracy(train)
print("train: \(train.count) documents, accuracy \(String(format: "%.4f", trainAcc))")
for s in trainWrong.prefix(20) { print("  wrong: \(s)") }
if !test.isEmpty {
    let (testAcc, testWrong) = accuracy(test)
    print("held out: \(test.count) documents, accuracy \(String(format: "%.4f", testAcc))")
    for s in testWrong.prefix(20) { print("  wrong: \(s)") }
}
if !external.isEmpty {
    let (a, wrong) = accuracy(external)
    print("test folders (never trained on): \(external.count) documents, accuracy \(String(format: "%.4f", a))")
    for s in wrong.prefix(40) { print("  wrong: \(s)") }
}
func fmt(_ v: Double) -> String { String(format: "%.4f", v) }
var src = "// Generated by `swift run TrainClassifier`; do not edit by hand.\n"
src +=
    "// Trained on \(train.count) documents: "
    + labels.enumerated().map { "\(Int(counts[$0.offset])) \($0.element.rawValue)" }.joined(separator: ", ") + ".\n"
src +=
    "extension ClassifierModel {\n    public static let shipped = ClassifierModel(\n        labels: [.receipt, .businessCard, .other],\n"
src += "        features: DocumentClassifier.featureNames,\n        weights: [\n"
for r in w { src += "            [" + r.map(fmt).joined(separator: ", ") + "],\n" }
src += "        ])\n}\n"
try src.write(toFile: out, atomically: true, encoding: .utf8)
print("wrote \(out)")
