import Foundation

/// Files that ship in ScanExtraction's resource bundle.
enum ResourceFiles {
    static let bundleName = "scanextract_ScanExtraction.resources"

    /// A resource by name: beside the executable first (an installed binary), else SwiftPM's bundle (the build tree).
    static func url(_ name: String) -> URL {
        let beside = Bundle.main.bundleURL.appendingPathComponent(bundleName)
        if FileManager.default.fileExists(atPath: beside.appendingPathComponent(name).path) {
            return beside.appendingPathComponent(name)
        }
        return Bundle.module.bundleURL.appendingPathComponent(name)
    }

    /// A model or table the program cannot work without, read once: the shipped file `name`, or the file the
    /// environment variable `variable` names instead, read by `read`; or the reader's error, which names the file
    /// (and, for a shipped one, where the bundle belongs). Loading a broken file does not stop the program, so a
    /// model is only fatal to the documents that need it.
    static func load<T>(_ name: String, overriddenBy variable: String? = nil, _ read: (URL) throws -> T) -> Result<
        T, LexiconError
    > {
        let named = variable.flatMap { v in ProcessInfo.processInfo.environment[v].map { (variable: v, path: $0) } }
            .flatMap { $0.path.isEmpty ? nil : $0 }
        let file = named.map { URL(fileURLWithPath: $0.path) } ?? url(name)
        do { return .success(try read(file)) } catch {
            let hint =
                named.map { "Check what \($0.variable) names" }
                ?? "Install the folder \(bundleName) beside the scanextract binary"
                + (variable.map { ", or set \($0)" } ?? "")
            var said = "\(error)"
            // Every message names the file: the model readers' do; a table's or a locale file's may not.
            if !said.contains(file.path) { said = file.path + ": " + said }
            while said.hasSuffix(".") { said.removeLast() }
            return .failure(LexiconError(description: said + ". " + hint))
        }
    }

    /// The value of a load whose success was checked before (`DocumentExtractor` checks every one a document needs
    /// before it reads it; the locales' load checks the confusion table first). Reached with a failure, it stops the
    /// program with the load's message.
    static func required<T>(_ loaded: Result<T, LexiconError>) -> T {
        switch loaded {
        case .success(let value): return value
        case .failure(let error): fatalError("scanextract: \(error)")
        }
    }

    /// The bytes of `file`, or an error that names it as the `what` that could not be read.
    static func data(_ file: URL, what: String) throws -> Data {
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw LexiconError(description: "cannot read the \(what) \(file.path)")
        }
        return data
    }
}
