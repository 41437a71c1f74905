import Foundation
import ScanDetectors

// Throughput of the data detectors on receipt-like text, on one thread.
//   swift run -c release DetectorsBenchmark [FILE] [--mb N] [--long-line N]
// Without FILE it generates about N MB (default 8) of receipt-like text itself. With --long-line, one line of N
// phone numbers instead (a table of numbers, or a hostile upload): its time grows with N, not faster.
// On a busy machine compare instruction counts instead of times, e.g.
//   valgrind --tool=callgrind .build/release/DetectorsBenchmark --mb 0.3
// and read the inclusive cost of DataDetector.detect(in:) with callgrind_annotate --inclusive=yes.

/// A small deterministic generator (SplitMix64), so every run measures the same text.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

func receipt(_ g: inout SplitMix) -> String {
    let shops = [
        "KEDAI RUNCIT ABC SDN BHD", "Joe's Diner", "BÄCKEREI MÜLLER GmbH", "Café de la Gare", "SUPERMERCADO EL SOL",
        "7-ELEVEN"
    ]
    let streets = [
        "No. 12, Jalan Bukit Bintang", "123 Main St, Suite 4", "Hauptstraße 5", "12 rue de Rivoli", "Calle Mayor 8"
    ]
    let towns = ["55100 Kuala Lumpur", "Springfield, IL 62704", "10115 Berlin", "75001 Paris", "London SW1A 1AA"]
    let items = [
        "COFFEE LATTE", "Croissant", "MINERAL WATER 1.5L", "Chicken Rice", "Brötchen x6", "Tea (iced)", "SANDWICH TUNA",
        "Paper bag"
    ]
    var s = shops.randomElement(using: &g)! + "\n"
    s += streets.randomElement(using: &g)! + "\n" + towns.randomElement(using: &g)! + "\n"
    s +=
        "Tel: (0\(Int.random(in: 1...9, using: &g))) \(Int.random(in: 1000...9999, using: &g)) \(Int.random(in: 1000...9999, using: &g))  GST Reg No: 00\(Int.random(in: 1000000...9999999, using: &g))\n"
    s +=
        "Invoice #\(Int.random(in: 10000...99999, using: &g))   Date: \(Int.random(in: 1...28, using: &g))/0\(Int.random(in: 1...9, using: &g))/2019  \(Int.random(in: 10...23, using: &g)):\(Int.random(in: 10...59, using: &g)):05\n"
    s += "Cashier: Ann   Table 7   Pax 2\n"
    var total = 0
    for _ in 0..<Int.random(in: 4...12, using: &g) {
        let q = Int.random(in: 1...4, using: &g)
        let cents = Int.random(in: 100...4999, using: &g)
        total += q * cents
        s +=
            "\(q) x \(items.randomElement(using: &g)!)   \(cents / 100).\(String(format: "%02d", cents % 100))   \(q * cents / 100).\(String(format: "%02d", (q * cents) % 100))\n"
    }
    s +=
        "SUBTOTAL  \(total / 100).\(String(format: "%02d", total % 100))\nSST 6%  \(total * 6 / 10000).\(String(format: "%02d", (total * 6 / 100) % 100))\n"
    s +=
        "TOTAL  RM\(total / 100).\(String(format: "%02d", total % 100))\nVISA **** **** **** \(Int.random(in: 1000...9999, using: &g))\n"
    s += "Thank you! Visit www.example-shop.com.my or mail hello@example-shop.com.my\n\n"
    return s
}

var args = Array(CommandLine.arguments.dropFirst())
var megabytes = 8.0
if let k = args.firstIndex(of: "--mb"), k + 1 < args.count {
    megabytes = Double(args[k + 1]) ?? 8; args.removeSubrange(k...(k + 1))
}

var longLine: Int?
if let k = args.firstIndex(of: "--long-line"), k + 1 < args.count {
    longLine = Int(args[k + 1]); args.removeSubrange(k...(k + 1))
}

var documents: [String] = []
if let longLine {
    documents = [String(repeating: "555-123-4567 ", count: longLine)]
} else if let path = args.first {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
        FileHandle.standardError.write(Data("DetectorsBenchmark: cannot read \(path)\n".utf8))
        exit(2)
    }
    documents = text.components(separatedBy: "\n\n").filter { !$0.isEmpty }
} else {
    var g = SplitMix(state: 42)
    var size = 0
    while Double(size) < megabytes * 1_000_000 {
        let r = receipt(&g)
        size += r.utf8.count
        documents.append(r)
    }
}
let bytes = documents.reduce(0) { $0 + $1.utf8.count }
let detector = try DataDetector()

/// CPU time of this thread, so a busy machine does not distort the one-core figure.
func threadCPUSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

// Warm up, then keep the best of three passes.
var entities = 0
for d in documents.prefix(50) { entities += detector.detect(in: d).count }
var bestWall = Double.infinity, bestCPU = Double.infinity
for _ in 0..<3 {
    entities = 0
    let w0 = DispatchTime.now().uptimeNanoseconds
    let c0 = threadCPUSeconds()
    for d in documents { entities += detector.detect(in: d).count }
    bestCPU = min(bestCPU, threadCPUSeconds() - c0)
    bestWall = min(bestWall, Double(DispatchTime.now().uptimeNanoseconds - w0) / 1e9)
}
let mb = Double(bytes) / 1_000_000
print(String(format: "documents: %d  size: %.2f MB  entities: %d", documents.count, mb, entities))
print(String(format: "wall: %.3f s (%.2f MB/s)  cpu: %.3f s", bestWall, mb / bestWall, bestCPU))
print(String(format: "throughput: %.2f MB/s of CPU time on one thread (all types)", mb / bestCPU))
