// Time per document of the engine-free stages (layout, detectors per line, classifier,
// parser) over folders of scanextract JSON documents:
//
//   swift run -c release ExtractionBenchmark DIR...
import Foundation
import ScanDetectors
import ScanExtraction
import ScanModel

let extractor = DocumentExtractor(detector: try DataDetector())
var docs: [Document] = []
for dir in CommandLine.arguments.dropFirst() {
    for f in ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted() where f.hasSuffix(".json") {
        if let data = FileManager.default.contents(atPath: dir + "/" + f), let d = try? JSONDecoder().decode(Document.self, from: data) {
            docs.append(d)
        }
    }
}
guard !docs.isEmpty else { print("usage: ExtractionBenchmark DIR..."); exit(2) }
var times: [Double] = []
for d in docs {
    let t0 = DispatchTime.now().uptimeNanoseconds
    _ = extractor.extract(d)
    times.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6)
}
times.sort()
let mean = times.reduce(0, +) / Double(times.count)
print(String(format: "documents %d  mean %.2f ms  median %.2f ms  p95 %.2f ms  max %.2f ms", times.count, mean,
             times[times.count / 2], times[min(times.count - 1, times.count * 95 / 100)], times.last!))
