// Writes each receipt line as the item-line model sees it, for Tools/train-items/train_items.py:
//
//   swift run -c release ItemLines DIR... > lines.jsonl
//
// Every folder holds Document JSON (as `scanextract -o DIR` writes it, or as
// Tools/observations/to_document.py makes it). One JSON object per document:
// `{"file", "features": [names], "lines": [{"text", "box": [x, y, w, h], "words": [[x, y, w, h]...], "f": [...]}]}`
// (the feature names only on the first). Nothing here is shipped.
import Foundation
import ScanDetectors
import ScanExtraction
import ScanLayout
import ScanModel

// `--labels`: print each line with the label the shipped model gives it, instead of the JSON.
// `--model FILE --out DIR`: parse each receipt with the model in FILE (as `train_items.py --write` writes it)
// and write the documents with their receipts to DIR, for the scorers (k-fold checks of a model).
var dirs = Array(CommandLine.arguments.dropFirst())
var printLabels = false
var model: ItemLineModel? // the shipped one unless given (read only when needed: a dump must work while it is stale)
var outDir: String?
while let a = dirs.first, a.hasPrefix("--") {
    dirs.removeFirst()
    switch a {
    case "--labels": printLabels = true
    case "--model": model = try ItemLineModel(json: try Data(contentsOf: URL(fileURLWithPath: dirs.removeFirst())))
    case "--out": outDir = dirs.removeFirst()
    default:
        FileHandle.standardError.write(Data("usage: ItemLines [--labels | --model FILE --out DIR] DIR...\n".utf8));
        exit(2)
    }
}
if let outDir { try FileManager.default.createDirectory(atPath: outDir, withIntermediateDirectories: true) }
let analyzer = LineAnalyzer(detector: try DataDetector())
var first = true
func box(_ b: BoundingBox) -> [Double] { [b.x, b.y, b.width, b.height].map { ($0 * 10).rounded() / 10 } }
for dir in dirs {
    let files = ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).filter { $0.hasSuffix(".json") }
        .sorted()
    for f in files {
        guard let data = FileManager.default.contents(atPath: dir + "/" + f),
              var doc = try? JSONDecoder().decode(Document.self, from: data) else { continue }
        // As the pipeline sees it: sideways pages turned upright.
        doc.pages = doc.pages.map(SidewaysPage.upright)
        let analyzed = analyzer.analyze(doc)
        if let outDir {
            var out = doc
            out.receipt = ReceiptParser(itemModel: model ?? .shipped).parse(analyzed).0
            let encoder = JSONEncoder()
            try encoder.encode(out).write(to: URL(fileURLWithPath: outDir + "/" + f))
            continue
        }
        let rows = ReceiptParser.itemLineRows(analyzed)
        if printLabels {
            print("== " + f)
            for (r, label) in zip(rows, (model ?? .shipped).decode(rows.map(\.features))) {
                print(label.rawValue.padding(toLength: 5, withPad: " ", startingAt: 0) + r.text)
            }
            continue
        }
        var object: [String: Any] = ["file": dir + "/" + f]
        if first { object["features"] = ReceiptParser.itemLineFeatureNames; first = false }
        object["lines"] = rows.map { r -> [String: Any] in
            [
                "text": r.text, "box": box(r.box), "words": r.words.map(box),
                "f": r.features.map { ($0 * 10000).rounded() / 10000 }
            ]
        }
        let out = try JSONSerialization.data(withJSONObject: object)
        FileHandle.standardOutput.write(out)
        FileHandle.standardOutput.write(Data("\n".utf8))
    }
}
