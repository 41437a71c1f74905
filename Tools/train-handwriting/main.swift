// Writes the features `HandwritingDetector` sees, one JSON line per recognized line, for
// Tools/train-handwriting/train.py. See README.md beside this file.
//
//   HandwritingFeatures handwritten PAGES SEED OUT.jsonl   generated handwriting (label 1)
//   HandwritingFeatures printed PAGES SEED OUT.jsonl       pages rendered with cairo fonts, a third of them
//                                                          photographed (TestSupport's PhotoMaker) (label 0)
//   HandwritingFeatures images LABEL OUT.jsonl FILE...     image files (Samples/), labelled as given
//   HandwritingFeatures inkpages INK.jsonl PAGES SEED OUT.jsonl
//                                                          pages of real on-line handwriting: the words of an
//                                                          Ink JSON Lines file (ink-dev's UNIPEN words, for
//                                                          measuring only) drawn in lines by InkRenderer (label 1)
//   HandwritingFeatures names OUT.json                     the feature names, in order (features.json)
//
// Pages are read by the pipeline (PP-OCR, handwriting off), as `scanextract` reads them, and
// each line's features are taken on the image with the document's boxes.
import Foundation
import ScanInk
import ScanKit
import ScanModel
import TestSupport

let args = Array(CommandLine.arguments.dropFirst())
if args.first == "names", args.count == 2 {
    let data = try JSONSerialization.data(withJSONObject: HandwritingDetector.featureNames)
    try (data + Data("\n".utf8)).write(to: URL(fileURLWithPath: args[1]))
    exit(0)
}
guard args.count >= 3 else {
    FileHandle.standardError.write(
        Data(
            ("usage: HandwritingFeatures handwritten|printed PAGES SEED OUT | images LABEL OUT FILE..."
                + " | inkpages INK.jsonl PAGES SEED OUT | names OUT\n").utf8))
    exit(2)
}

/// Texts for both kinds of page, so that what a line says cannot tell them apart: receipt
/// lines (SROIE's training annotations, read in place when present), word-list phrases,
/// numbers, dates and prices.
struct Texts {
    var receiptLines: [String] = []
    var words: [String] = []

    init() {
        let box = "/work/shared/eval/sroie-train/box"
        if let files = try? FileManager.default.contentsOfDirectory(atPath: box) {
            for f in files.sorted() where f.hasSuffix(".csv") {
                guard let text = try? String(contentsOfFile: "\(box)/\(f)", encoding: .utf8) else { continue }
                for line in text.split(whereSeparator: \.isNewline) {
                    let parts = line.split(separator: ",", maxSplits: 8, omittingEmptySubsequences: false)
                    if parts.count == 9 { receiptLines.append(String(parts[8]).trimmingCharacters(in: .whitespaces)) }
                }
            }
        }
        if let list = try? String(contentsOfFile: "/usr/share/dict/american-english", encoding: .utf8) {
            words = list.split(whereSeparator: \.isNewline).map(String.init).filter {
                $0.count >= 2 && !$0.contains("'")
            }
        }
        if words.isEmpty { words = ["note", "call", "meeting", "total", "paid", "cash", "bread", "milk", "office"] }
    }

    func line(_ rng: inout SeededGenerator) -> String {
        func pick<T>(_ a: [T]) -> T { a[Int(rng.next() % UInt64(a.count))] }
        switch rng.next() % 10 {
        case 0...3 where !receiptLines.isEmpty:
            return pick(receiptLines)
        case 4:
            return String(
                format: "%d/%02d/%d", Int(rng.uniform(1, 29)), Int(rng.uniform(1, 13)), Int(rng.uniform(2015, 2027)))
                + (rng.next() % 2 == 0 ? "  " + pick(words) : "")
        case 5:
            return pick(words).capitalized + " " + String(format: "%.2f", rng.uniform(0.5, 300))
        default:
            let n = Int(rng.uniform(1, 7))
            var ws = (0..<n).map { _ in pick(words) }
            switch rng.next() % 4 {
            case 0: ws = ws.map { $0.uppercased() }
            case 1: ws[0] = ws[0].capitalized
            default: break
            }
            return ws.joined(separator: " ")
        }
    }
}

/// Sometimes stored as a JPEG of middling quality, as photos and scans are.
func stored(_ image: RasterImage, _ rng: inout SeededGenerator) -> [UInt8] {
    if rng.next() % 3 == 0 {
        let jpeg = Drawing.jpegBytes(image, quality: Int(rng.uniform(35, 90)))
        return jpeg
    }
    return Drawing.pngBytes(image)
}

func processor() throws -> DocumentProcessor {
    var options = ScanOptions()
    options.engine = "ppocr"
    options.handwriting = .off
    options.noEntities = true
    var config = try options.makeConfiguration()
    config.extractFields = false
    return try DocumentProcessor(configuration: config)
}

let outPath =
    args[0] == "images" ? args[2] : args[0] == "inkpages" ? args[min(4, args.count - 1)] : args[min(3, args.count - 1)]
guard FileManager.default.createFile(atPath: outPath, contents: nil), let out = FileHandle(forWritingAtPath: outPath)
else {
    fatalError("cannot write \(outPath)")
}

func write(_ doc: Document, image: RasterImage, label: Int, kind: String, source: String) {
    for page in doc.pages.prefix(1) {
        let rows = HandwritingDetector.lineFeatures(page.observations, image: image)
        for (line, row) in zip(page.observations, rows) {
            let record: [String: Any] = ["kind": kind, "source": source, "page": page.index, "label": label,
                                         "text": line.text, "features": row]
            let data = try! JSONSerialization.data(withJSONObject: record, options: [.sortedKeys])
            out.write(data + Data("\n".utf8))
        }
    }
}

switch args[0] {
case "handwritten", "printed":
    let pages = Int(args[1]) ?? 10
    var rng = SeededGenerator(seed: UInt64(args[2]) ?? 1)
    _ = rng.next()
    let texts = Texts()
    let proc = try processor()
    let fonts = try ["cursive", "scripts", "scriptc", "futural", "futuram"].map { try HersheyFont(named: $0) }
    let families = ["DejaVu Sans", "DejaVu Serif", "DejaVu Sans Mono", "Liberation Sans", "Liberation Serif",
                    "Liberation Mono", "Liberation Sans Narrow", "DejaVu Sans Condensed"]
    for p in 0..<pages {
        let count = 1 + Int(rng.next() % 10)
        let lines = (0..<count).map { _ in texts.line(&rng) }
        var image: RasterImage
        if args[0] == "handwritten" {
            let style = rng.next() % 4 == 0 ? InkSynthesizer.randomStyle(&rng)
                : InkSynthesizer.messyStyle(&rng, level: rng.uniform(0.5, 2))
            image = HandwrittenPage.make(
                lines, synthesizer: InkSynthesizer(font: fonts[Int(rng.next() % UInt64(fonts.count))]),
                style: style, rng: &rng, capHeight: rng.uniform(16, 44),
                lineSpacing: rng.uniform(1.8, 3.2))
        } else {
            let size = rng.uniform(9, 30)
            let family = families[Int(rng.next() % UInt64(families.count))]
            let gap = size * rng.uniform(1.25, 2.2)
            var drawn: [DrawnLine] = []
            var widest = 0.0
            for (n, text) in lines.enumerated() {
                var l = DrawnLine(text, x: rng.uniform(10, 60), y: 20 + size + Double(n) * gap, size: size,
                                  bold: rng.next() % 6 == 0)
                l.family = family
                drawn.append(l)
                widest = max(widest, l.x + Double(text.count) * size * 0.75)
            }
            let width = Int(max(200, widest + 40)), height = Int(40 + size + Double(count) * gap)
            image = Drawing.raster(drawn, width: width, height: height,
                                   rotation: rng.next() % 3 == 0 ? rng.uniform(-3, 3) : 0)
            if rng.next() % 3 == 0 { image = Drawing.faded(image) }
        }
        if args[0] == "printed" && rng.next() % 3 == 0 {
            // A photo of a printed receipt, page or card on a table (its own text).
            let kinds: [PhotoMaker.PageKind] = [.receipt, .page, .card]
            image = PhotoMaker.randomPhoto(kinds[Int(rng.next() % 3)], seed: rng.next() % 100_000).image
        }
        if rng.next() % 6 == 0 { image = image.inverted() }
        let name = "\(args[0])-\(args[2])-\(p)"
        let bytes = stored(image, &rng)
        let doc = try proc.process(.bytes(bytes, name: name))
        // Features on the pixels the pipeline decoded (a JPEG's, not the drawing's).
        let decoded = Drawing.decodeImage(bytes) ?? image
        write(doc, image: decoded, label: args[0] == "handwritten" ? 1 : 0, kind: args[0], source: name)
    }
case "images":
    // Also times the shipped judge on each page (features and probabilities, once the page is read).
    let label = Int(args[1]) ?? 0
    let proc = try processor()
    let detector = try? HandwritingDetector.shipped()
    var judged = 0, judgeMs = 0.0, flagged = 0, lineCount = 0
    for path in args.dropFirst(3) {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        guard let image = Drawing.decodeImage(bytes) else { continue }
        let doc = try proc.process(.bytes(bytes, name: path))
        write(doc, image: image, label: label, kind: "images", source: path)
        if let detector, let page = doc.pages.first {
            let start = DispatchTime.now().uptimeNanoseconds
            let judgement = detector.judge(page.observations, image: image)
            judgeMs += Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
            judged += 1
            flagged += judgement.lines.count
            lineCount += page.observations.count
        }
    }
    if judged > 0 {
        FileHandle.standardError.write(Data(String(format: "judge: %d pages, %d lines, %d flagged, %.1f ms/page\n",
                                                   judged, lineCount, flagged, judgeMs / Double(judged)).utf8))
    }
case "inkpages":
    // Real writers' words, laid out as a note: 1 to 8 lines of 2 to 6 words, one scale a page,
    // each word's lowest point on the line's baseline give or take a little.
    let words = try String(contentsOfFile: args[1], encoding: .utf8).split(whereSeparator: \.isNewline)
        .map { try JSONDecoder().decode(Ink.self, from: Data($0.utf8)) }
        .filter { $0.bounds != nil }
    guard args.count >= 5, !words.isEmpty else { fatalError("inkpages INK.jsonl PAGES SEED OUT") }
    let pages = Int(args[2]) ?? 10
    var rng = SeededGenerator(seed: UInt64(args[3]) ?? 1)
    let proc = try processor()
    let heights = words.map { $0.bounds!.maxY - $0.bounds!.minY }.sorted()
    let medianHeight = heights[heights.count / 2]
    for p in 0..<pages {
        let wordHeight = rng.uniform(22, 60)
        let scale = wordHeight / medianHeight
        let margin = 40.0, lineGap = wordHeight * rng.uniform(1.6, 2.6)
        var placed: [[InkRenderer.Vec]] = []
        var width = 0.0
        let lineCount = 1 + Int(rng.next() % 8)
        for n in 0..<lineCount {
            var x = margin
            let baseline = margin + wordHeight * 1.2 + Double(n) * lineGap
            for _ in 0..<(2 + Int(rng.next() % 5)) {
                let word = words[Int(rng.next() % UInt64(words.count))]
                let b = word.bounds!
                let dy = baseline + rng.uniform(-0.1, 0.1) * wordHeight - b.maxY * scale
                let dx = x - b.minX * scale
                for s in word.strokes {
                    placed.append(s.points.map { InkRenderer.Vec($0.x * scale + dx, $0.y * scale + dy) })
                }
                x += (b.maxX - b.minX) * scale + wordHeight * rng.uniform(0.5, 1.0)
            }
            width = max(width, x + margin)
        }
        let height = margin * 2 + wordHeight * 1.2 + Double(lineCount) * lineGap
        var image = InkRenderer.rasterize(placed, width: Int(width.rounded(.up)), height: Int(height.rounded(.up)),
                                          radius: max(1, wordHeight * rng.uniform(0.03, 0.06)))
        if rng.next() % 6 == 0 { image = image.inverted() }
        let name = "inkpages-\(args[3])-\(p)"
        let bytes = stored(image, &rng)
        let doc = try proc.process(.bytes(bytes, name: name))
        write(doc, image: Drawing.decodeImage(bytes) ?? image, label: 1, kind: "inkpages", source: name)
    }
default:
    FileHandle.standardError.write(Data("unknown command \(args[0])\n".utf8))
    exit(2)
}
