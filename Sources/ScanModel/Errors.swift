import Foundation

/// A failure that stops processing of one input (or one page of it).
/// Carries a stable code, the file and the page; never the recognized text.
public struct ScanError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Code: String, Codable, Hashable, Sendable, CaseIterable {
        /// The file does not exist or cannot be read.
        case unreadable = "unreadable"
        /// The file is empty.
        case empty = "empty"
        /// The content is neither a supported image, a PDF nor a scanextract JSON document.
        case unsupportedType = "unsupported-type"
        /// The content claims a supported type but cannot be decoded.
        case corrupt = "corrupt"
        /// The PDF is encrypted and cannot be opened without a password.
        case encrypted = "encrypted"
        /// The image or page exceeds the configured pixel limit.
        case tooLarge = "too-large"
        /// The page has no pixels or no content.
        case emptyPage = "empty-page"
        /// The OCR engine, or a model or data file of the engine or the parsers, is missing or failed.
        case engine = "engine"
        /// Writing an output failed.
        case output = "output"
        /// The user cancelled the run.
        case cancelled = "cancelled"
        /// An option value is not valid.
        case invalidOption = "invalid-option"
    }

    public var code: Code
    public var file: String?
    public var page: Int?
    public var reason: String
    /// The same input fails again on every try, whatever the engine's state (a broken model file): a service
    /// answers it at once rather than restarting its worker and trying again.
    public var lasting = false

    public init(_ code: Code, file: String? = nil, page: Int? = nil, _ reason: String) {
        self.code = code
        self.file = file
        self.page = page
        self.reason = reason
    }

    /// The same error, attributed to `file` when it has no file yet.
    public func attributed(to file: String) -> ScanError {
        var copy = self
        if copy.file == nil { copy.file = file }
        return copy
    }

    /// The system's words for what went wrong under a Foundation error (`Permission denied`, `No space left on
    /// device`): its POSIX error's, where it wraps one, else its own description.
    public static func systemReason(_ error: Error) -> String {
        let ns = error as NSError
        let posix = ns.userInfo[NSUnderlyingErrorKey] as? NSError ?? ns
        guard posix.domain == NSPOSIXErrorDomain else { return ns.localizedDescription }
        return String(cString: strerror(Int32(posix.code)))
    }

    public var description: String {
        var where_ = file ?? "<input>"
        if let page { where_ += " (page \(page + 1))" }
        return "\(where_): \(reason) [\(code.rawValue)]"
    }
}
