import ArgumentParser
import ScanModel

/// The documented exit statuses of `scanextract`.
enum ExitStatus {
    static let success: Int32 = 0
    /// At least one input failed, or was written with pages refused, missing or damaged; the others were processed
    /// and written.
    static let someFailed: Int32 = 1
    /// No input could be processed (or none was found).
    static let allFailed: Int32 = 2
    /// Bad command-line usage (ArgumentParser's validation status).
    static let usage: Int32 = 64
    /// The OCR engine, or a model or data file of the engine or the parsers, is missing.
    static let engineUnavailable: Int32 = 69
    /// An output could not be written.
    static let cannotWrite: Int32 = 73
    /// Interrupted (Ctrl-C); finished outputs are kept.
    static let interrupted: Int32 = 130

    /// The one table from an error code to the status of a command that fails with it as a
    /// whole (the service's counterpart is `ServiceStatus.forCode`). A run over several inputs
    /// reports `someFailed` or `allFailed` instead, unless an engine or an output failed.
    static func forCode(_ code: ScanError.Code) -> Int32 {
        switch code {
        case .invalidOption: return usage
        case .engine: return engineUnavailable
        case .output: return cannotWrite
        case .cancelled: return interrupted
        case .unreadable, .empty, .unsupportedType, .corrupt, .encrypted, .tooLarge, .emptyPage: return allFailed
        }
    }

    static let documentation = """
        Exit status: 0 all inputs processed; 1 some inputs failed or lost pages (the \
        rest were written); 2 no input could be processed; 64 usage error; 69 OCR engine or \
        a model missing; 73 an output could not be written; 130 interrupted.
        """
}
