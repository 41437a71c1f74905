import Foundation

/// Where scanextract finds what `make deps` and `scanextract models install` put in the
/// project: the `.deps/` folder of the checkout, found from the current directory or from the
/// running executable (so `.build/release/scanextract` finds it from anywhere). Models that
/// `models install` fetches live in `.deps/models/` (word lists in `dict/`, Tesseract's
/// language data in `tessdata/`); without a checkout, in `~/.local/share/scanextract/models`
/// (`$XDG_DATA_HOME`); `SCANEXTRACT_MODEL_FOLDER` names another folder.
public enum ModelFolder {
    /// The folders searched for `.deps/`: the current directory, then every ancestor of the
    /// running executable.
    public static func searchRoots() -> [String] {
        var roots = [FileManager.default.currentDirectoryPath]
        var dir = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
            .deletingLastPathComponent()
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            dir = URL(fileURLWithPath: exe).deletingLastPathComponent()
        }
        while dir.path != "/" && !dir.path.isEmpty {
            if !roots.contains(dir.path) { roots.append(dir.path) }
            dir = dir.deletingLastPathComponent()
        }
        return roots
    }

    /// The installed-models folder: `SCANEXTRACT_MODEL_FOLDER`, else `.deps/models` under the
    /// first search root that has a `.deps/`, else the user's data folder.
    public static func root(environment: [String: String] = ProcessInfo.processInfo.environment,
                            searchRoots: [String] = ModelFolder.searchRoots()) -> String {
        if let folder = environment["SCANEXTRACT_MODEL_FOLDER"], !folder.isEmpty { return folder }
        var isDirectory: ObjCBool = false
        if let project = searchRoots.first(where: {
            FileManager.default.fileExists(
                atPath: ($0 as NSString).appendingPathComponent(".deps"), isDirectory: &isDirectory)
                && isDirectory.boolValue
        }) {
            return (project as NSString).appendingPathComponent(".deps/models")
        }
        let data = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (NSHomeDirectory() as NSString).appendingPathComponent(".local/share")
        return (data as NSString).appendingPathComponent("scanextract/models")
    }

    /// Word lists (`models install ink-...`).
    public static func dictionaries(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        (root(environment: environment) as NSString).appendingPathComponent("dict")
    }

    /// Tesseract language data (`models install tesseract-...`).
    public static func tessdata(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        (root(environment: environment) as NSString).appendingPathComponent("tessdata")
    }
}
