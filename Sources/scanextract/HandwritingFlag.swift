import ScanKit

/// `--handwriting` alone means `on`, as it did when it was a flag; followed by a mode
/// (`HandwritingMode(spelling:)`: `auto`, `on`, `off`, or a flag's `true`/`false`) it takes it. ArgumentParser has no
/// option whose value may be left out, so the bare flag is spelled out before parsing.
enum HandwritingFlag {
    static func expanded(_ arguments: [String]) -> [String] {
        var out: [String] = []
        var i = 0
        while i < arguments.count {
            let a = arguments[i]
            if a == "--" { out += arguments[i...]; break }
            if a == "--handwriting" {
                let next = i + 1 < arguments.count ? arguments[i + 1] : nil
                if let next, !next.isEmpty, HandwritingMode(spelling: next) != nil {
                    out += [a, next]
                    i += 2
                    continue
                }
                out.append("--handwriting=on")
            } else {
                out.append(a)
            }
            i += 1
        }
        return out
    }
}
