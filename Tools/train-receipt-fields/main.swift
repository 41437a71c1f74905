// Writes the candidates of the receipt fields the parser chooses by learned scores, with their
// features, for `train.py` to learn from.
//
//   swift run -c release DumpReceiptFields OUT_DIR DIR...
//
// Every DIR holds scanextract Document JSON (recognized text with boxes: scanextract's own
// outputs, our PP-OCR JSON, or Tools/observations/to_document.py's). Each document goes through
// the same engine-free stages as `scanextract FILE.json` (upright, layout, detectors), then the
// receipt parser proposes its candidates. Writes OUT_DIR/candidates.jsonl, one candidate a line
// (`doc`, `field`, `value`, `lines`, `x`), and OUT_DIR/features.json (the feature names a field).
import Foundation
import ScanDetectors
import ScanExtraction
import ScanKit
import ScanModel

let args = Array(CommandLine.arguments.dropFirst())
guard args.count >= 2 else {
    FileHandle.standardError.write(Data("usage: DumpReceiptFields OUT_DIR DIR...\n".utf8))
    exit(2)
}
let outDir = URL(fileURLWithPath: args[0])
try FileManager.default.createDirectory(at: outDir, withIntermediateDirectories: true)
var configuration = ScanConfiguration()
configuration.extractFields = false
let locator = try DocumentProcessor.makeLocator(configuration)
let processor = DocumentProcessor(configuration: configuration, locator: locator, cancellation: CancellationToken())
let analyzer = LineAnalyzer(detector: try DataDetector(region: configuration.country))
let parser = ReceiptParser(fieldModel: .untrained)

var names: [String: [String]] = [:]
for field in ReceiptField.allCases { names[field.rawValue] = field.featureNames }
try JSONSerialization.data(withJSONObject: names, options: [.prettyPrinted, .sortedKeys])
    .write(to: outDir.appendingPathComponent("features.json"))

FileManager.default.createFile(atPath: outDir.appendingPathComponent("candidates.jsonl").path, contents: nil)
let out = try FileHandle(forWritingTo: outDir.appendingPathComponent("candidates.jsonl"))
var documents = 0, rows = 0
for dir in args.dropFirst() {
    let files =
        (try? FileManager.default.contentsOfDirectory(atPath: dir))?.filter { $0.hasSuffix(".json") }.sorted() ?? []
    for f in files {
        guard let data = FileManager.default.contents(atPath: dir + "/" + f),
              let doc = try? JSONDecoder().decode(Document.self, from: data) else { continue }
        let id = String(f.dropLast(5))
        let processed = try processor.reprocess(doc, source: f)
        let (_, _, candidates) = parser.parseWithCandidates(analyzer.analyze(processed))
        var chunk = ""
        for field in ReceiptField.allCases {
            for c in candidates[field] ?? [] {
                let row: [String: Any] = ["doc": id, "field": field.rawValue, "value": c.value,
                                          "lines": [c.lines.lowerBound, c.lines.upperBound], "x": c.features]
                chunk += String(decoding: try JSONSerialization.data(withJSONObject: row), as: UTF8.self) + "\n"
                rows += 1
            }
        }
        out.write(Data(chunk.utf8))
        documents += 1
    }
}
try out.close()
print("\(documents) documents, \(rows) candidates -> \(outDir.path)")
