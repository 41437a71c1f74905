import Foundation

/// A file whose name starts with a dash (`-h.png`, `-scan.pdf`), as a shell's `*.png` passes it, reads to the
/// argument parser as short options: `-h.png` printed the help and read nothing. Such an argument, when it names a
/// file or folder that exists and has a dot (no option has one), is passed as `./-h.png`. After `--` nothing is
/// changed.
enum DashedFileNames {
    static func protected(
        _ arguments: [String], exists: (String) -> Bool = { FileManager.default.fileExists(atPath: $0) }
    ) -> [String] {
        var out: [String] = []
        for (i, a) in arguments.enumerated() {
            if a == "--" { return out + arguments[i...] }
            let looksLikeOptions = a.hasPrefix("-") && !a.hasPrefix("--") && a.count > 2
            out.append(looksLikeOptions && a.contains(".") && exists(a) ? "./" + a : a)
        }
        return out
    }
}
