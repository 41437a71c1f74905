import ArgumentParser
import Foundation
import ScanInk
import ScanKit
import ScanModel
import ScanRecognition

/// `scanextract models [list|install ID|remove ID]`: which engines and models are
/// installed, and where; word lists for ink and Tesseract's languages can be installed into
/// the project's `.deps/models` and removed (`ModelInstaller`).
struct ModelsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "models", abstract: "List, install or remove OCR engines, models and ink models.",
        subcommands: [List.self, Install.self, Remove.self], defaultSubcommand: List.self)

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the engines and models available on this machine.")

        func run() throws {
            for e in EngineCatalog.available() {
                print("\(e.name)\t\(e.status)\t\(e.version)")
                for m in e.models { print("  \(m)") }
            }
            let recognizer = (try? PPOCRModels.locate().get()).map { _ in "PP-OCRv6_rec_small" }
            print(
                "ink\t\(recognizer == nil ? "recognizer missing (make deps)" : "available")\tstrokes -> \(recognizer ?? "PP-OCR rec") + word list"
            )
            for m in InkModel.all {
                let status = m.isInstalled ? "installed" : "not installed (scanextract models install \(m.id))"
                print("  \(m.id)\t\(status)\t\(m.installedPath ?? m.projectLexiconPath) [\(m.aptPackage)]")
            }
            for u in InkModel.unsupported {
                print("  ink-\(u.language)\tunavailable\t\(u.reason)")
            }
            print("installable Tesseract languages (into \(ModelFolder.tessdata()))")
            for m in ModelInstaller.catalog() where m.id.hasPrefix("tesseract-") {
                let path = ModelInstaller.installedPath(m)
                print(
                    "  \(m.id)\t\(path == nil ? "not installed (scanextract models install \(m.id))" : "installed")\t\(path ?? m.destination) [\(m.package)]"
                )
            }
        }
    }

    struct Install: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Install a model into the project's .deps/models (e.g. ink-fr-FR, tesseract-fra).",
            discussion: "Fetches the model's Debian package with apt-get download and keeps its file; no root needed.")
        @Argument(help: "The model id, as `models list` shows it (ink-fr-FR, tesseract-deu, ...).") var id: String
        func run() throws {
            try ModelsCommand.perform {
                let path = try ModelInstaller.install(try ModelInstaller.model(id))
                print("installed \(id): \(path)")
            }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a model from the project's .deps/models.")
        @Argument(help: "The model id (ink-fr-FR, tesseract-deu, ...).") var id: String
        func run() throws {
            try ModelsCommand.perform {
                try ModelInstaller.remove(try ModelInstaller.model(id))
                print("removed \(id)")
            }
        }
    }

    /// Runs `body`; a `ScanError` becomes its message on stderr and the matching exit status.
    static func perform(_ body: () throws -> Void) throws {
        do { try body() } catch let e as ScanError {
            FileHandle.standardError.write("scanextract: \(e.reason)\n".data(using: .utf8)!)
            throw ExitCode(ExitStatus.forCode(e.code))
        }
    }
}
