import ArgumentParser

/// `scanextract detect`: placeholder, replaced by the detectors work.
struct DetectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "detect", abstract: "Find entities in text.")
    func run() throws {}
}
