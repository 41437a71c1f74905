// PPOCREval: runs the PP-OCR engine over a folder of images with N workers and
// writes one scanextract-style JSON document per image, for the scorers in
// ../shared/eval. A benchmark harness, not part of the product; the CLI
// (`scanextract --engine ppocr`) replaces it once the pipeline is on main.
//
// usage: PPOCREval IMAGE_DIR OUT_DIR [--workers N] [--threads T] [--level fast|accurate]
//                  [--limit N] [--candidates N] [--words w1,w2] [--det-side N] [--det-long N]
//                  [--cls 0|1] [--cls-sample N] [--memory POLICY] [--noncjk 0|1] [--own-min-h PX] [--rec-width F]
//                  [--glyph-h PX]
//                  (settings, for measuring)
import ScanInput
import Foundation
import ScanModel
import ScanRecognition

/// Decodes the first page through the project's own input stage (Leptonica behind ScanInput).
func decode(_ path: String) -> RasterImage? {
    guard let doc = try? InputDocument(path: path), case .raster(let image, _, _)? = try? doc.page(0) else {
        return nil
    }
    return image
}

nonisolated(unsafe) var args = Array(CommandLine.arguments.dropFirst())
@MainActor func option(_ name: String) -> String? {
    guard let i = args.firstIndex(of: name), i + 1 < args.count else { return nil }
    let v = args[i + 1]
    args.removeSubrange(i...(i + 1))
    return v
}
let workers = Int(option("--workers") ?? "2") ?? 2
let threads = Int(option("--threads") ?? "1") ?? 1
let level = RecognitionLevel(rawValue: option("--level") ?? "accurate") ?? .accurate
let limit = Int(option("--limit") ?? "0") ?? 0
let candidates = Int(option("--candidates") ?? "0") ?? 0
// The SCANEXTRACT_PPOCR_* variables first; the options below win over them.
var settings = PPOCRRecognizer.Settings.forLevel(level)
settings.applyOverrides(from: ProcessInfo.processInfo.environment)
if let v = option("--det-side").flatMap(Int.init) { settings.detectionShortSide = v }
if let v = option("--rec-batch").flatMap(Int.init) { settings.recognitionBatch = v }
if let v = option("--min-rec-ratio").flatMap(Double.init) { settings.minRecognitionRatio = v }
if let v = option("--box").flatMap(Double.init) { settings.boxThreshold = v }
if let v = option("--min-conf").flatMap(Double.init) { settings.minLineConfidence = v }
if let v = option("--unclip").flatMap(Double.init) { settings.unclipRatio = v }
if let v = option("--cls") { settings.useClassifier = v == "1" }
if let v = option("--det-long").flatMap(Int.init) { settings.maxLongSide = v }
if let v = option("--cls-sample").flatMap(Int.init) { settings.classifierSample = v }
if let v = option("--own-min-h").flatMap(Double.init) { settings.ownSizeMinLineHeight = v }
if let v = option("--glyph-h").flatMap(Double.init) { settings.detectionGlyphHeight = v }
if let v = option("--rec-width").flatMap(Double.init) { settings.recognitionWidthScale = v }
if let v = option("--memory") {
    guard let policy = PPOCRRecognizer.Settings.MemoryPolicy(rawValue: v) else {
        FileHandle.standardError.write(
            "--memory: one of \(PPOCRRecognizer.Settings.MemoryPolicy.allCases.map(\.rawValue))\n".data(using: .utf8)!)
        exit(2)
    }
    settings.memory = policy
}
if let v = option("--noncjk") { settings.useNonCJKRecognizer = v == "1" }
let fixedSettings = settings
let words = option("--words").map { $0.split(separator: ",").map(String.init) } ?? []
guard args.count == 2 else {
    FileHandle.standardError.write(
        "usage: PPOCREval IMAGE_DIR OUT_DIR [--workers N] [--threads T] [--level fast|accurate] [--limit N]\n".data(
            using: .utf8)!)
    exit(2)
}
let inputDir = args[0], outputDir = args[1]
let exts: Set<String> = ["jpg", "jpeg", "png", "tif", "tiff", "bmp"]
var files = (try? FileManager.default.contentsOfDirectory(atPath: inputDir))?
    .filter { exts.contains(($0 as NSString).pathExtension.lowercased()) }.sorted() ?? []
if limit > 0 { files = Array(files.prefix(limit)) }
try? FileManager.default.createDirectory(atPath: outputDir, withIntermediateDirectories: true)

let start = Date()
let models: PPOCRModels
switch PPOCRModels.locate() {
case .success(let m): models = m
case .failure(let e): FileHandle.standardError.write("\(e)\n".data(using: .utf8)!); exit(1)
}
let options = RecognitionOptions(level: level, customWords: words, candidateCount: candidates)

final class Queue: @unchecked Sendable {
    let lock = NSLock()
    var next = 0
    var failures = 0
    var recognitionSeconds = 0.0
    func take(_ n: Int) -> Int? {
        lock.lock(); defer { lock.unlock() }
        guard next < n else { return nil }
        next += 1
        return next - 1
    }
}
let queue = Queue()
let encoder = JSONEncoder()
encoder.outputFormatting = [.sortedKeys]
let fileList = files

let group = DispatchGroup()
for _ in 0..<max(1, workers) {
    group.enter()
    Thread.detachNewThread {
        defer { group.leave() }
        let engine: PPOCRRecognizer
        do {
            engine = try PPOCRRecognizer(
                models: models, options: options, intraOpThreads: threads, settings: fixedSettings)
        } catch {
            FileHandle.standardError.write("\(error)\n".data(using: .utf8)!)
            queue.lock.lock(); queue.failures += 1; queue.lock.unlock()
            return
        }
        while let i = queue.take(fileList.count) {
            let path = (inputDir as NSString).appendingPathComponent(fileList[i])
            guard let image = decode(path) else {
                FileHandle.standardError.write("cannot decode \(path)\n".data(using: .utf8)!)
                continue
            }
            do {
                let t0 = Date()
                let obs = try engine.recognize(image)
                let dt = Date().timeIntervalSince(t0)
                queue.lock.lock(); queue.recognitionSeconds += dt; queue.lock.unlock()
                let doc = Document(source: path, engine: engine.info,
                                   pages: [Page(index: 0, width: Double(image.width), height: Double(image.height),
                                                textSource: .ocr, observations: obs)])
                let name = ((fileList[i] as NSString).deletingPathExtension) + ".json"
                try encoder.encode(doc).write(
                    to: URL(fileURLWithPath: (outputDir as NSString).appendingPathComponent(name)))
            } catch {
                FileHandle.standardError.write("\(path): \(error)\n".data(using: .utf8)!)
            }
        }
    }
}
group.wait()
let wall = Date().timeIntervalSince(start)
var usage = rusage()
getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
print("pages: \(files.count)  workers: \(workers)  intra-op threads: \(threads)  level: \(level.rawValue)")
print(
    String(
        format: "wall (models loaded, all pages): %.2f s  recognition time summed over workers: %.2f s", wall,
        queue.recognitionSeconds))
let cpu =
    Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec) + Double(
        usage.ru_stime.tv_usec) / 1e6
print(String(format: "process CPU: %.2f s  CPU s/page: %.3f", cpu, cpu / Double(max(1, files.count))))
print(String(format: "peak RSS: %.0f MiB", Double(usage.ru_maxrss) / 1024))
print(String(format: "s/page (wall, in-process): %.3f", wall / Double(max(1, files.count))))
