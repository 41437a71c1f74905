import Foundation
import ScanCamera
import ScanInput
import ScanModel
import TestSupport

// The camera stage on generated photos (TestSupport's PhotoMaker, known corners):
//   CameraBenchmark accuracy [count] [--dump DIR]   share of photos with every corner within 2% of the page diagonal
//   CameraBenchmark time [repeats]                   CPU time per photo of `process(.auto)`, of its parts, and of
//   `located`
//                                                    (the PP-OCR path: find and check, never flatten) at several photo
//                                                    sizes
//   CameraBenchmark safety [count] [--no-checks] [--verbose] [--dump DIR]
//                                                    is `.auto`'s decision right? (PhotoMaker's situations: a note on
//                                                    the page, a card beside it, a page running off the frame, steep
//                                                    tilt)
//   CameraBenchmark examine FILE...                  what the checks measure on real photos, and `.auto`'s decision
// Build in release and run on one core: `taskset -c 0 .build/release/CameraBenchmark time`.

let arguments = Array(CommandLine.arguments.dropFirst())
/// `--no-checks`: the stage as it was before the plausibility checks (for a before/after figure).
let camera: DocumentCamera = {
    guard arguments.contains("--no-checks") else { return DocumentCamera() }
    var options = DocumentCamera.Options()
    options.checksPrint = false
    options.maximumSideRatio = .infinity
    options.maximumStretch = .infinity
    return DocumentCamera(options: options)
}()

func seconds(_ body: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func accuracy(count: Int, dump: String?) {
    if let dump { try? FileManager.default.createDirectory(atPath: dump, withIntermediateDirectories: true) }
    var good = 0
    var byKind: [String: (good: Int, total: Int)] = [:]
    var errors: [Double] = []
    for i in 0..<count {
        let kind = PhotoMaker.PageKind.allCases[i % PhotoMaker.PageKind.allCases.count]
        let photo = PhotoMaker.randomPhoto(kind, seed: UInt64(1000 + i))
        let diagonal = photo.quad.topLeft.distance(to: photo.quad.bottomRight)
        let found = camera.detect(photo.image)
        let error = found.map { PhotoMaker.cornerError($0.quad, photo.quad) / diagonal } ?? .infinity
        let ok = error <= 0.02
        errors.append(error)
        if ok { good += 1 }
        byKind[kind.rawValue, default: (0, 0)].total += 1
        if ok { byKind[kind.rawValue]!.good += 1 }
        if !ok {
            let conf = found.map { String(format: "%.2f", $0.confidence) } ?? "-"
            print(
                "miss #\(i) \(kind) seed \(1000 + i): error \(String(format: "%.3f", error)) of diagonal, confidence \(conf)"
            )
            if let dump, let png = encodePNG(photo.image) {
                try? Data(png).write(to: URL(fileURLWithPath: "\(dump)/miss-\(i)-\(kind).png"))
            }
        }
    }
    let finite = errors.filter(\.isFinite).sorted()
    let median = finite.isEmpty ? .nan : finite[finite.count / 2]
    for (kind, r) in byKind.sorted(by: { $0.key < $1.key }) { print("  \(kind): \(r.good)/\(r.total)") }
    print(String(format: "median corner error %.4f of the diagonal", median))
    print(
        String(
            format: "corners within 2%% of the diagonal: %d/%d = %.1f%%", good, count,
            100 * Double(good) / Double(count)))
}

/// CPU seconds of the calling thread spent in `body` (OpenCV runs on the calling thread:
/// `OpenCV.singleThreaded`), so that other processes on the machine do not count.
func cpuSeconds(_ body: () -> Void) -> Double {
    var a = timespec(), b = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a)
    body()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b)
    return Double(b.tv_sec - a.tv_sec) + Double(b.tv_nsec - a.tv_nsec) / 1e9
}

func timing(repeats: Int) {
    let sizes = [(1000, 750), (2000, 1500), (4000, 3000)]
    for (w, h) in sizes {
        var detect = 0.0, flatten = 0.0, light = 0.0, total = 0.0, wall = 0.0, locate = 0.0
        let photos = (0..<4).map {
            PhotoMaker.randomPhoto(PhotoMaker.PageKind.allCases[$0], seed: UInt64(50 + $0), width: w, height: h)
        }
        _ = camera.process(photos[0].image, mode: .auto)  // warm-up
        for _ in 0..<repeats {
            for p in photos {
                var found: (quad: Quad, confidence: Double)?
                detect += cpuSeconds { found = camera.detect(p.image) }
                if let found {
                    var flat: RasterImage?
                    flatten += cpuSeconds { flat = camera.flatten(p.image, quad: found.quad)?.image }
                    if let flat { light += cpuSeconds { _ = camera.evenLight(flat) } }
                }
                wall += seconds { total += cpuSeconds { _ = camera.process(p.image, mode: .auto) } }
                locate += cpuSeconds { _ = camera.located(p.image) }
            }
        }
        let n = Double(repeats * photos.count)
        print(
            String(
                format:
                    "%dx%d (%.1f MP): process(.auto) %.1f ms CPU per photo (%.1f ms wall); parts: detect %.1f, flatten %.1f, even light %.1f ms; located %.1f ms (%d photos)",
                w, h, Double(w * h) / 1e6, 1000 * total / n, 1000 * wall / n, 1000 * detect / n, 1000 * flatten / n,
                1000 * light / n, 1000 * locate / n, Int(n)))
    }
}

/// For each generated photo, whether `.auto` decided right: flatten the page (corners within 2% of its
/// diagonal) when the whole page is in the frame; leave the photo alone when the page's print runs off
/// the frame. A wrong flatten is a flattened quad more than 5% off the page, or any flatten of a page
/// whose print runs off the frame; a missed flatten is a whole page left alone; a loose flatten is 2-5% off.
func safety(count: Int, verbose: Bool, dump: String?) {
    if let dump { try? FileManager.default.createDirectory(atPath: dump, withIntermediateDirectories: true) }
    struct Tally { var total = 0, right = 0, wrong = 0, missed = 0, loose = 0 }
    var bySituation: [PhotoMaker.Situation: Tally] = [:]
    var doubts: [String: Int] = [:]
    let situations = PhotoMaker.Situation.allCases
    for i in 0..<count {
        let situation = situations[i % situations.count]
        let seed = UInt64(5000 + i)
        let photo = PhotoMaker.situationPhoto(situation, seed: seed)
        let result = camera.process(photo.image, mode: .auto)
        let diagonal = photo.quad.topLeft.distance(to: photo.quad.bottomRight)
        let error = result.info.map { PhotoMaker.cornerError($0.quad, photo.quad) / diagonal } ?? .infinity
        let flattened = result.info?.flattened == true
        var tally = bySituation[situation, default: Tally()]
        tally.total += 1
        let verdict: String
        if photo.textRunsOffFrame {
            verdict = flattened ? "wrong" : "right"
        } else if flattened {
            verdict = error <= 0.02 ? "right" : (error <= 0.05 ? "loose" : "wrong")
        } else {
            verdict = "missed"
        }
        switch verdict {
        case "right": tally.right += 1
        case "wrong": tally.wrong += 1
        case "loose": tally.loose += 1
        default: tally.missed += 1
        }
        bySituation[situation] = tally
        doubts[result.doubt?.rawValue ?? (result.info == nil ? "not found" : "flattened"), default: 0] += 1
        if verbose || verdict == "wrong" || verdict == "missed" {
            let e = camera.examine(photo.image)
            let coverage = e?.printCoverage.map { String(format: "%.2f", $0) } ?? "-"
            let figures = String(format: "error %.3f, confidence %.2f, marks %d, sides %.2f, stretch %.2f", error,
                                 result.info?.confidence ?? 0, e?.marks ?? 0, e?.sideRatio ?? 0, e?.stretch ?? 0)
            print("\(verdict) #\(i) \(situation.rawValue) \(photo.kind.rawValue) seed \(seed): \(figures), "
                  + "coverage \(coverage), doubt \(result.doubt?.rawValue ?? "-")")
            if let dump, verdict != "right", let png = encodePNG(photo.image) {
                try? Data(png).write(to: URL(fileURLWithPath: "\(dump)/\(verdict)-\(i)-\(situation.rawValue).png"))
            }
        }
    }
    var all = Tally()
    for situation in situations {
        guard let t = bySituation[situation] else { continue }
        print(
            "  \(situation.rawValue): \(t.right)/\(t.total) right, \(t.wrong) wrong flattens, \(t.missed) missed, \(t.loose) loose"
        )
        all.total += t.total; all.right += t.right; all.wrong += t.wrong; all.missed += t.missed; all.loose += t.loose
    }
    print("  decisions: " + doubts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
    let pct = { (n: Int) in 100 * Double(n) / Double(max(all.total, 1)) }
    print(
        String(
            format: "right %d/%d = %.1f%%, wrong flattens %d = %.1f%%, missed flattens %d = %.1f%%, loose %d = %.1f%%",
            all.right, all.total, pct(all.right), all.wrong, pct(all.wrong), all.missed, pct(all.missed),
            all.loose, pct(all.loose)))
}

func examine(_ paths: [String]) {
    for path in paths {
        guard let document = try? InputDocument(path: path), case .raster(let image, _, _)? = try? document.page(0)
        else {
            print("\(path): cannot read"); continue
        }
        guard let e = camera.examine(image) else { print("\(path): no page"); continue }
        let coverage = e.printCoverage.map { String(format: "%.2f", $0) } ?? "-"
        print("\(path): " + String(format: "confidence %.2f, marks %d, sides %.2f, stretch %.2f", e.confidence, e.marks,
                                   e.sideRatio, e.stretch)
              + ", coverage \(coverage), runs off \(e.runsOffFrame), doubt \(e.doubt?.rawValue ?? "-")")
    }
}

switch arguments.first {
case "examine":
    examine(Array(arguments.dropFirst()))
case "safety":
    let count = arguments.count > 1 ? Int(arguments[1]) ?? 200 : 200
    let dump = arguments.firstIndex(of: "--dump").flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
    safety(count: count, verbose: arguments.contains("--verbose"), dump: dump)
case "time":
    timing(repeats: arguments.count > 1 ? Int(arguments[1]) ?? 3 : 3)
default:
    let count = arguments.count > 1 ? Int(arguments[1]) ?? 200 : 200
    let dump = arguments.firstIndex(of: "--dump").flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
    accuracy(count: count, dump: dump)
}
