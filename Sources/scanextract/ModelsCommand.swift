import ArgumentParser
import Foundation
import ScanInk
import ScanKit
import ScanRecognition

/// `scanextract models [list|install ID|remove ID]`: which engines and models are
/// installed, and where; ink models (a recognizer and a word list per language) can be
/// installed and removed (word lists are Debian packages).
struct ModelsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "models", abstract: "List, install or remove OCR engines, models and ink models.",
        subcommands: [List.self, Install.self, Remove.self], defaultSubcommand: List.self)

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the engines and models available on this machine.")

        func run() throws {
            for e in EngineCatalog.available() {
                print("\(e.name)\t\(e.status)\t\(e.version)")
                for m in e.models { print("  \(m)") }
            }
            let recognizer = (try? PPOCRModels.locate().get()).map { _ in "PP-OCRv6_rec_small" }
            print("ink\t\(recognizer == nil ? "recognizer missing (make deps)" : "available")\tstrokes -> \(recognizer ?? "PP-OCR rec") + word list")
            for m in InkModel.all {
                let status = m.isInstalled ? "installed" : "not installed (scanextract models install \(m.id))"
                print("  \(m.id)\t\(status)\t\(m.lexiconPath) [\(m.aptPackage)]")
            }
            for u in InkModel.unsupported {
                print("  ink-\(u.language)\tunavailable\t\(u.reason)")
            }
        }
    }

    struct Install: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Install an ink model's word list (apt-get), e.g. ink-fr-FR.")
        @Argument(help: "The model id, as `models list` shows it (ink-en-US, ink-fr-FR, ...).") var id: String
        func run() throws { try ModelsCommand.apt("install", id: id) }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove an ink model's word list (apt-get remove).")
        @Argument(help: "The model id (ink-en-US, ink-fr-FR, ...).") var id: String
        func run() throws { try ModelsCommand.apt("remove", id: id) }
    }

    static func model(_ id: String) throws -> InkModel {
        if id == "ppocr" || id.hasPrefix("PP-OCR") {
            throw ValidationError("the PP-OCR recognizer is installed with `make deps` or scripts/install-onnx.sh")
        }
        guard let m = InkModel.all.first(where: { $0.id.caseInsensitiveCompare(id) == .orderedSame }) else {
            if let u = InkModel.unsupported.first(where: { "ink-\($0.language)".caseInsensitiveCompare(id) == .orderedSame }) {
                throw ValidationError("\(id) is not available: \(u.reason)")
            }
            throw ValidationError("unknown model \(id); known: \(InkModel.all.map(\.id).joined(separator: ", "))")
        }
        return m
    }

    /// Runs apt-get for the model's package (with sudo when not root).
    static func apt(_ verb: String, id: String) throws {
        let m = try model(id)
        var args = ["apt-get", verb, "-y", m.aptPackage]
        if getuid() != 0 { args.insert("sudo", at: 0) }
        FileHandle.standardError.write("scanextract: \(args.joined(separator: " "))\n".data(using: .utf8)!)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = args
        try p.run()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else {
            FileHandle.standardError.write("scanextract: apt-get \(verb) \(m.aptPackage) failed (status \(p.terminationStatus))\n".data(using: .utf8)!)
            throw ExitCode(ExitStatus.engineUnavailable)
        }
    }
}
