import Foundation
import ScanInput
import ScanModel

/// Turns the paths a user gave into the list of files to process.
public enum InputExpansion {
    public struct Result: Sendable {
        /// Files to process, in the order given; a folder's files sorted by path.
        public var files: [String] = []
        /// Files found in folders that are plainly something else: their content is no
        /// image, PDF or JSON document, and their name doesn't claim to be one.
        public var skipped: [String] = []
        /// Entries of folders that are not walked, with why: hidden ones (`.git`, `.DS_Store`) and links to folders.
        public var notWalked: [(path: String, reason: String)] = []
        /// Folders that could not be read (a folder given, or one inside it), with the system's reason: their
        /// files are not processed, and the run says so.
        public var unreadable: [ScanError] = []
    }

    /// Folders are walked recursively; hidden files and folders are left out, as is
    /// anything under `excluding` (the output folder). Files named explicitly are
    /// always kept, so that a bad one gets its own error later. In a folder, a file
    /// is kept when its content is an image, PDF or JSON document, or when its name
    /// says it is one (`x.png` holding text): that one fails later, naming the
    /// mismatch, rather than vanish. Anything else (a README, notes.txt) is skipped.
    public static func expand(_ paths: [String], excluding: String? = nil) -> Result {
        var result = Result()
        var seen = Set<String>()
        let fm = FileManager.default
        // Where the output folder really is: a folder walked is walked where its links lead, and the output folder
        // may be reached through a link too (`-o link-to-input/out`).
        let excluded = excluding.map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().standardizedFileURL.path }
        for path in paths {
            var isDir: ObjCBool = false
            guard fm.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue else {
                // One file named twice (`a.png`, `./a.png`) is read once.
                if seen.insert(URL(fileURLWithPath: path).standardizedFileURL.path).inserted {
                    result.files.append(path)
                }
                continue
            }
            var found: [String] = []
            // A folder given as a link to it is walked where the link leads; the paths reported keep the user's
            // spelling of it.
            let base = URL(fileURLWithPath: path).resolvingSymlinksInPath()
            func spelled(_ url: URL) -> String {
                let rel = String(url.standardizedFileURL.path.dropFirst(base.standardizedFileURL.path.count))
                    .drop { $0 == "/" }
                return path.hasSuffix("/") ? path + rel : path + "/" + rel
            }
            var failures: [URL: String] = [:]
            let e = fm.enumerator(
                at: base, includingPropertiesForKeys: [.isRegularFileKey, .isDirectoryKey], options: [],
                errorHandler: { url, error in
                    failures[url] = ScanError.systemReason(error)
                    return true
                })
            while let url = e?.nextObject() as? URL {
                let std = url.standardizedFileURL.path
                if let excluded, std == excluded || std.hasPrefix(excluded + "/") {
                    e?.skipDescendants()
                    continue
                }
                var entryIsDir: ObjCBool = false
                let exists = fm.fileExists(atPath: url.path, isDirectory: &entryIsDir)
                if url.lastPathComponent.hasPrefix(".") {
                    if exists && entryIsDir.boolValue { e?.skipDescendants() }
                    result.notWalked.append((spelled(url), "hidden"))
                    continue
                }
                // Follows symbolic links to files; a link to a folder is not walked (no cycles).
                // A link to nothing (or a loop of links) is kept, so that it fails naming itself rather than
                // vanish.
                guard !exists || !entryIsDir.boolValue else {
                    let link = (try? url.resourceValues(forKeys: [.isSymbolicLinkKey]))?.isSymbolicLink ?? false
                    if link { result.notWalked.append((spelled(url), "a link to a folder, not followed")) }
                    continue
                }
                found.append(spelled(url))
            }
            if e == nil { failures[base] = "cannot be listed" }
            for (url, reason) in failures.sorted(by: { $0.key.path < $1.key.path }) {
                let shown = url.standardizedFileURL.path == base.standardizedFileURL.path ? path : spelled(url)
                result.unreadable.append(ScanError(.unreadable, file: shown, "the folder cannot be read: \(reason)"))
            }
            for f in found.sorted() where seen.insert(URL(fileURLWithPath: f).standardizedFileURL.path).inserted {
                if isProcessable(f) { result.files.append(f) } else { result.skipped.append(f) }
            }
        }
        return result
    }

    /// Whether the first bytes say image, PDF or JSON, or the name claims one of them.
    static func isProcessable(_ path: String) -> Bool {
        let ext = URL(fileURLWithPath: path).pathExtension
        if InputKind.promise(ofExtension: ext) != nil { return true }
        guard let h = FileHandle(forReadingAtPath: path) else { return true }
        defer { try? h.close() }
        let head = (try? h.read(upToCount: 1024)) ?? Data()
        return InputKind.sniff([UInt8](head)) != nil
    }
}
