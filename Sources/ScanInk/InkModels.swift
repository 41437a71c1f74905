import Foundation
import ScanModel
import ScanRecognition

/// The ink recognition models: the line recognizer shared by all, and one word
/// list per language (Debian's `w*` packages in /usr/share/dict).
public struct InkModel: Sendable, Hashable {
    /// `ink-en-US`.
    public var id: String { "ink-\(language)" }
    /// BCP-47 tag.
    public var language: String
    /// The word list file.
    public var lexiconPath: String
    /// The Debian package that installs it.
    public var aptPackage: String
    /// Why recognition is poor for this language, when it is.
    public var note: String?

    /// The word list in the project's model folder, where `scanextract models install` puts it.
    public var projectLexiconPath: String {
        (ModelFolder.dictionaries() as NSString).appendingPathComponent((lexiconPath as NSString).lastPathComponent)
    }
    /// The word list read: the project's copy, else the system's (`apt-get install`), else nil.
    public var installedPath: String? {
        [projectLexiconPath, lexiconPath].first { FileManager.default.isReadableFile(atPath: $0) }
    }
    public var isInstalled: Bool { installedPath != nil }
    public var installCommand: String { "scanextract models install \(id)   (or: apt-get install \(aptPackage))" }

    /// Languages with a word list and a recognizer that writes their script (PP-OCR's
    /// Latin dictionary, with accents).
    public static let all: [InkModel] = [
        InkModel(
            language: "en-US", lexiconPath: "/usr/share/dict/american-english-large", aptPackage: "wamerican-large"),
        InkModel(language: "en-GB", lexiconPath: "/usr/share/dict/british-english", aptPackage: "wbritish"),
        InkModel(language: "fr-FR", lexiconPath: "/usr/share/dict/french", aptPackage: "wfrench"),
        InkModel(language: "de-DE", lexiconPath: "/usr/share/dict/ngerman", aptPackage: "wngerman"),
        InkModel(language: "es-ES", lexiconPath: "/usr/share/dict/spanish", aptPackage: "wspanish"),
        InkModel(language: "it-IT", lexiconPath: "/usr/share/dict/italian", aptPackage: "witalian")
    ]

    /// Scripts for which no recognizer exists here (`TrainInk alphabet`: PP-OCRv6_rec_small has
    /// 0 Cyrillic and 0 Hebrew classes): listed so that users
    /// are told, not silently given Latin letters.
    public static let unsupported: [(language: String, reason: String)] = [
        ("he-IL", "no Hebrew recognizer: PP-OCRv6_rec_small has no Hebrew letters"),
        ("ru-RU", "no Cyrillic recognizer: PP-OCRv6_rec_small has no Cyrillic letters (only Latin look-alikes)"),
        ("uk-UA", "no Cyrillic recognizer: PP-OCRv6_rec_small has no Cyrillic letters (only Latin look-alikes)"),
    ]

    /// The model for a language tag: exact, then by primary language (`en` -> `en-US`,
    /// `fr-CA` -> `fr-FR`). Throws `invalidOption` for a language without one.
    public static func forLanguage(_ tag: String) throws -> InkModel {
        let norm = tag.replacingOccurrences(of: "_", with: "-")
        if let m = all.first(where: { $0.language.caseInsensitiveCompare(norm) == .orderedSame }) { return m }
        let primary = norm.split(separator: "-").first.map { String($0).lowercased() } ?? ""
        if let m = all.first(where: { $0.language.lowercased().hasPrefix(primary + "-") }) { return m }
        if let u = unsupported.first(where: { $0.language.lowercased().hasPrefix(primary + "-") }) {
            throw ScanError(.invalidOption, "ink recognition for \(tag) is not available: \(u.reason)")
        }
        throw ScanError(
            .invalidOption, "no ink model for language \(tag); `scanextract models list` shows those available")
    }

    /// Its word list, read once per process and shared (a `WordList` is immutable). Throws when
    /// it is not installed, naming the command that installs it.
    public func loadLexicon() throws -> WordList {
        Self.loadedLock.lock()
        defer { Self.loadedLock.unlock() }
        if let l = Self.loaded[language] { return l }
        guard let path = installedPath else {
            throw ScanError(
                .engine,
                "the word list for \(id) is not installed (neither \(projectLexiconPath) nor \(lexiconPath)); "
                    + "install it with: \(installCommand)")
        }
        let l = try WordList(contentsOf: path)
        Self.loaded[language] = l
        return l
    }

    private static let loadedLock = NSLock()
    nonisolated(unsafe) private static var loaded: [String: WordList] = [:]
}
