import ArgumentParser
import ScanKit

/// `scanextract models`: which engines and models are installed, and where.
struct ModelsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "models", abstract: "List the OCR engines and models available on this machine.")

    func run() throws {
        for e in EngineCatalog.available() {
            print("\(e.name)\t\(e.status)\t\(e.version)")
            for m in e.models { print("  \(m)") }
        }
    }
}
