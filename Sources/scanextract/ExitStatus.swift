import ArgumentParser
import ScanModel

/// The documented exit statuses of `scanextract`.
enum ExitStatus {
    static let success: Int32 = 0
    /// At least one input failed; the others were processed and written.
    static let someFailed: Int32 = 1
    /// No input could be processed (or none was found).
    static let allFailed: Int32 = 2
    /// Bad command-line usage (ArgumentParser's validation status).
    static let usage: Int32 = 64
    /// The OCR engine or its data is missing.
    static let engineUnavailable: Int32 = 69
    /// An output could not be written.
    static let cannotWrite: Int32 = 73
    /// Interrupted (Ctrl-C); finished outputs are kept.
    static let interrupted: Int32 = 130

    static let documentation = """
        Exit status: 0 all inputs processed; 1 some inputs failed (the rest were \
        written); 2 no input could be processed; 64 usage error; 69 OCR engine or \
        its data missing; 73 an output could not be written; 130 interrupted.
        """
}
