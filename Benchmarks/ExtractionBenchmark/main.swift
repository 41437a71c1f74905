// Time per document of the engine-free stages (layout, detectors per line, classifier,
// parser) over folders of scanextract JSON documents:
//
//   swift run -c release ExtractionBenchmark [--passes N] DIR...
//
// The first pass includes loading the models (the first document pays for it). With
// `--passes N` the documents are extracted N times and the fastest pass is printed too: on a
// shared machine the slowest passes measure the neighbours more than the code.
import Foundation
import ScanDetectors
import ScanExtraction
import ScanModel

var arguments = Array(CommandLine.arguments.dropFirst())
var passes = 1
if let i = arguments.firstIndex(of: "--passes"), i + 1 < arguments.count, let n = Int(arguments[i + 1]), n >= 1 {
    passes = n
    arguments.removeSubrange(i...(i + 1))
}
let extractor = DocumentExtractor(detector: try DataDetector())
var docs: [Document] = []
for dir in arguments {
    for f in ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted() where f.hasSuffix(".json") {
        if let data = FileManager.default.contents(atPath: dir + "/" + f),
            let d = try? JSONDecoder().decode(Document.self, from: data)
        {
            docs.append(d)
        }
    }
}
guard !docs.isEmpty else { print("usage: ExtractionBenchmark [--passes N] DIR..."); exit(2) }

func report(_ label: String, _ unsorted: [Double]) {
    let times = unsorted.sorted()
    let mean = times.reduce(0, +) / Double(times.count)
    print(
        String(
            format: "%@documents %d  mean %.2f ms  median %.2f ms  p95 %.2f ms  max %.2f ms", label, times.count, mean,
            times[times.count / 2], times[min(times.count - 1, times.count * 95 / 100)], times.last!))
}

var best: [Double] = []
for pass in 1...passes {
    var times: [Double] = []
    for d in docs {
        let t0 = DispatchTime.now().uptimeNanoseconds
        _ = try extractor.extract(d)
        times.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6)
    }
    if pass == 1 { report(passes > 1 ? "first pass: " : "", times) }
    if pass > 1, best.isEmpty || times.reduce(0, +) < best.reduce(0, +) { best = times }
}
if passes > 1 { report("fastest of passes 2-\(passes): ", best) }
