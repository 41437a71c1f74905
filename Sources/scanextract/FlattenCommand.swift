import ArgumentParser
import Foundation
import ScanCamera
import ScanExport
import ScanInput
import ScanModel

extension CameraMode: ExpressibleByArgument {}

/// `scanextract flatten photo.jpg -o page.png`: the document-camera stage on its own.
/// Finds the page on a photo, flattens it, evens its light, writes a PNG, and prints one JSON
/// line saying what it did.
struct FlattenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flatten",
        abstract: "Find the page on a photo, flatten its perspective and even its light (PNG out).",
        discussion: """
        Prints one JSON line: {"input", "output", "found", "flattened", "confidence", "quad", "width", \
        "height", "transform"}, where quad holds the page's corners in the photo's pixels and transform \
        maps photo pixels to output pixels. With --mode auto, a flat scan (the page fills the frame) is \
        written unchanged, and so is a photo where no page stands out clearly. With --mode on, a photo \
        where no page is found is an error (exit status 1).
        """)

    @Argument(help: "The photo (any image type scanextract reads; page 1 of a PDF).")
    var input: String

    @Option(name: [.short, .customLong("output")], help: "The PNG to write.")
    var output: String

    @Option(
        name: .long,
        help: "auto: flatten only a confidently found page that does not fill the frame; on: whenever a page is found.")
    var mode: CameraMode = .auto

    @Flag(name: .customLong("no-light"), help: "Do not even the light of the flattened page.")
    var noLight = false

    @Flag(name: .customLong("force"), help: "Replace the output file when it exists (never the input photo itself).")
    var force = false

    func validate() throws {
        if mode == .off { throw ValidationError("--mode must be auto or on") }
        // The user's photo is never written over, and another existing file only when asked.
        try OutputFileRule.check(output, inputs: [input], force: force) { _ in
            "\(output) is the input photo itself; give another file to write the flattened page to"
        }
    }

    /// What the command prints.
    struct Report: Encodable {
        var input: String
        var output: String
        var found: Bool
        var flattened: Bool
        var confidence: Double?
        var quad: Quad?
        var width: Int
        var height: Int
        var transform: [Double]
    }

    func run() throws {
        let image: RasterImage
        do {
            let document = try InputDocument(path: input)
            guard case .raster(let raster, _, _) = try document.page(0, forceOCR: true) else {
                throw ScanError(.unsupportedType, file: input, "has no image to flatten")
            }
            image = raster
        } catch let error as ScanError {
            FileHandle.standardError.write(Data("scanextract: \(error)\n".utf8))
            throw ExitCode(ExitStatus.allFailed)
        }
        var options = DocumentCamera.Options()
        options.evenLight = !noLight
        let result = DocumentCamera(options: options).process(image, mode: mode)
        let flattened = result.info?.flattened ?? false
        if mode == .on, !flattened {
            FileHandle.standardError.write(Data("scanextract: \(input): no page found on the photo\n".utf8))
            throw ExitCode(ExitStatus.someFailed)
        }
        if !flattened {
            let why =
                result.info == nil
                ? "no page stands out (a flat scan?)"
                : "the page was not found with enough confidence or fills the frame"
            FileHandle.standardError.write(Data("scanextract: \(input): written unchanged: \(why)\n".utf8))
        }
        guard let png = encodePNG(result.image) else {
            FileHandle.standardError.write(Data("scanextract: \(output): the image could not be encoded as PNG\n".utf8))
            throw ExitCode(ExitStatus.cannotWrite)
        }
        do {
            try AtomicFile.write(Data(png), to: output)
        } catch {
            FileHandle.standardError.write(
                Data("scanextract: \(output): cannot be written (\(error.localizedDescription))\n".utf8))
            throw ExitCode(ExitStatus.cannotWrite)
        }
        let report = Report(input: input, output: output, found: result.info != nil, flattened: flattened,
                            confidence: result.info.map { ($0.confidence * 1000).rounded() / 1000 },
                            quad: result.info?.quad.rounded(), width: result.image.width, height: result.image.height,
                            transform: result.transform.m)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        print(String(decoding: try encoder.encode(report), as: UTF8.self))
    }
}
