import ArgumentParser
import Foundation

/// The rule of the commands that write one file the user names (`flatten`, `ink --render`): an input is never written
/// over, a folder is no file, and another existing file is replaced only with `--force`.
enum OutputFileRule {
    /// Throws the usage error that breaks the rule; `itself` says what writing over `input` would have lost.
    static func check(_ output: String, inputs: [String], force: Bool, itself: (String) -> String) throws {
        if let input = inputs.first(where: { sameFile($0, output) }) { throw ValidationError(itself(input)) }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: output, isDirectory: &isFolder) {
            if isFolder.boolValue { throw ValidationError("\(output) is a folder; give the PNG file to write") }
            if !force { throw ValidationError("\(output) exists; give --force to replace it") }
        }
    }

    /// Whether two paths name one file (links and `./` spellings included).
    static func sameFile(_ a: String, _ b: String) -> Bool {
        var sa = stat(), sb = stat()
        guard stat(a, &sa) == 0, stat(b, &sb) == 0 else { return false }
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino
    }
}
