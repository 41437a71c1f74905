import ArgumentParser

struct ScanExtract: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scanextract",
        abstract: "Recognize scanned documents and extract structured data.",
        subcommands: [DetectCommand.self])
}

ScanExtract.main()
