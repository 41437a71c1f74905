import Foundation
import ScanCamera
import ScanInput
import ScanModel
import TestSupport

// The camera stage on generated photos (TestSupport's PhotoMaker, known corners):
//   CameraBenchmark accuracy [count] [--dump DIR]   share of photos with every corner within 2% of the page diagonal
//   CameraBenchmark time [repeats]                   time per photo of `process(.auto)` at several photo sizes
// Build in release and run on one core: `taskset -c 0 .build/release/CameraBenchmark time`.

let arguments = Array(CommandLine.arguments.dropFirst())
let camera = DocumentCamera()

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
            print("miss #\(i) \(kind) seed \(1000 + i): error \(String(format: "%.3f", error)) of diagonal, confidence \(conf)")
            if let dump, let png = encodePNG(photo.image) {
                try? Data(png).write(to: URL(fileURLWithPath: "\(dump)/miss-\(i)-\(kind).png"))
            }
        }
    }
    let finite = errors.filter(\.isFinite).sorted()
    let median = finite.isEmpty ? .nan : finite[finite.count / 2]
    for (kind, r) in byKind.sorted(by: { $0.key < $1.key }) { print("  \(kind): \(r.good)/\(r.total)") }
    print(String(format: "median corner error %.4f of the diagonal", median))
    print(String(format: "corners within 2%% of the diagonal: %d/%d = %.1f%%", good, count, 100 * Double(good) / Double(count)))
}

func timing(repeats: Int) {
    let sizes = [(1000, 750), (2000, 1500), (4000, 3000)]
    for (w, h) in sizes {
        var detect = 0.0, total = 0.0
        let photos = (0..<4).map { PhotoMaker.randomPhoto(PhotoMaker.PageKind.allCases[$0], seed: UInt64(50 + $0), width: w, height: h) }
        _ = camera.process(photos[0].image, mode: .auto)  // warm-up
        for _ in 0..<repeats {
            for p in photos {
                detect += seconds { _ = camera.detect(p.image) }
                total += seconds { _ = camera.process(p.image, mode: .auto) }
            }
        }
        let n = Double(repeats * photos.count)
        print(String(format: "%dx%d (%.1f MP): detect %.1f ms, process(.auto) %.1f ms per photo (%d photos)",
                     w, h, Double(w * h) / 1e6, 1000 * detect / n, 1000 * total / n, Int(n)))
    }
}

switch arguments.first {
case "time":
    timing(repeats: arguments.count > 1 ? Int(arguments[1]) ?? 3 : 3)
default:
    let count = arguments.count > 1 ? Int(arguments[1]) ?? 200 : 200
    let dump = arguments.firstIndex(of: "--dump").flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
    accuracy(count: count, dump: dump)
}
