// Which images would get contrast normalization before Tesseract, and what it makes of them;
// and which would be taken for light ink on a dark ground and inverted (`invert=yes`).
// Usage: ContrastCheck [--write DIR] [--all] IMAGE...
//   prints "<file> background=<b> ink=<i> contrast=<c> unevenness=<u> normalize=<yes|no>" per image
//   (and the decoder's findings, for a damaged file);
//   with --write, writes DIR/<name>.pgm: the normalized page for those that need it
//   (every page with --all), for running the tesseract CLI on.
import Foundation
import ScanInput

var args = Array(CommandLine.arguments.dropFirst())
var outDir: String?
var all = false
if let i = args.firstIndex(of: "--write"), i + 1 < args.count {
    outDir = args[i + 1]
    args.removeSubrange(i...(i + 1))
}
if let i = args.firstIndex(of: "--all") {
    all = true
    args.remove(at: i)
}
let pre = Preprocessor()
var fired = 0
var invertedCount = 0
for path in args {
    guard let doc = try? InputDocument(path: path), case .raster(let image, _, let findings)? = try? doc.page(0) else {
        print("\(path) unreadable")
        continue
    }
    let levels = Preprocessor.levels(image)
    let needs = pre.needsContrastNormalization(image)
    if needs { fired += 1 }
    let invert = Preprocessor.isLightOnDark(image)
    if invert { invertedCount += 1 }
    print(
        "\(path) background=\(levels.background) ink=\(levels.ink) contrast=\(levels.contrast) unevenness=\(levels.unevenness) normalize=\(needs ? "yes" : "no") invert=\(invert ? "yes" : "no")"
            + findings.map { " \($0.code): \($0.message)" }.joined())
    if let outDir, needs || all {
        let out = pre.contrastNormalized(image)
        var data = Data("P5\n\(out.width) \(out.height)\n255\n".utf8)
        data.append(contentsOf: out.pixels)
        let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        try data.write(to: URL(fileURLWithPath: outDir).appendingPathComponent(name + ".pgm"))
    }
}
print("normalize: \(fired) of \(args.count)")
print("invert: \(invertedCount) of \(args.count)")
