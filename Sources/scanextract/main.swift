import ArgumentParser
import ScanKit
import ScanRecognition

/// The root command. With no subcommand, `scan` runs, so `scanextract receipt.pdf` works.
struct ScanExtract: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scanextract",
        abstract: "Recognize scanned documents and extract structured data.",
        discussion: ExitStatus.documentation,
        version: "0.1.0",
        subcommands: [ScanCommand.self, DetectCommand.self, ModelsCommand.self, FlattenCommand.self, InkCommand.self,
                      ServeCommand.self, WorkerCommand.self],
        defaultSubcommand: ScanCommand.self)
}

extension HandwritingMode: ExpressibleByArgument {
    public init?(argument: String) { self.init(spelling: argument) }
    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}

// Before any worker thread starts (see MallocTuning).
MallocTuning.applyAtStartUp()
ScanExtract.main(HandwritingFlag.expanded(DashedFileNames.protected(Array(CommandLine.arguments.dropFirst()))))
