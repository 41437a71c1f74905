import Foundation

/// Where ONNX Runtime's optimized copy of a model is kept between processes.
///
/// Creating a session optimizes the model's graph (fusing operators, choosing layouts for this
/// CPU), which cost the three PP-OCR models 179 ms of CPU at every worker's start, against 84 ms
/// for loading graphs optimized before (Benchmarks/RESULTS.md, nineteenth session). The first
/// session of a model writes its optimized graph here; later ones load it with optimization off.
/// A copy is only valid for the model file, the runtime version and the CPU it was made with
/// (the layouts are the CPU's), so all three are in its name: a new model, runtime or machine
/// makes a new copy, never a wrong one.
public enum OptimizedModelCache {
    /// The cache folder: `SCANEXTRACT_ONNX_CACHE` (`off` or empty: no cache), else
    /// `$XDG_CACHE_HOME/scanextract/onnx`, else `~/.cache/scanextract/onnx`; nil when none is known.
    public static func folder(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let set = environment["SCANEXTRACT_ONNX_CACHE"] {
            return set.isEmpty || set == "off" ? nil : set
        }
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            return (xdg as NSString).appendingPathComponent("scanextract/onnx")
        }
        if let home = environment["HOME"], home.hasPrefix("/") {
            return (home as NSString).appendingPathComponent(".cache/scanextract/onnx")
        }
        return nil
    }

    /// The cached copy's file name for a model file of `size` bytes last modified at `modified`
    /// (seconds since 1970), for `runtimeVersion` on the processor `machine` describes.
    static func fileName(modelPath: String, size: Int, modified: Double, runtimeVersion: String, machine: String) -> String {
        let base = ((modelPath as NSString).lastPathComponent as NSString).deletingPathExtension
        let key = "\(modelPath)|\(size)|\(modified)|\(runtimeVersion)|\(machine)"
        return "\(base)-ort\(runtimeVersion)-\(fnv1a(key)).onnx"
    }

    /// The lines of `/proc/cpuinfo` that say which processor this is and what it can do: its
    /// first `vendor_id`, `model name`, `cpu family`, `model` and `flags`.
    static func machine(cpuinfo: String) -> String {
        var seen: [String: String] = [:]
        for line in cpuinfo.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let key = line[..<colon].trimmingCharacters(in: .whitespaces)
            guard ["vendor_id", "model name", "cpu family", "model", "flags"].contains(key), seen[key] == nil else { continue }
            seen[key] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return seen.keys.sorted().map { "\($0)=\(seen[$0]!)" }.joined(separator: ";")
    }

    static let thisMachine: String = {
        (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)).map(machine(cpuinfo:)) ?? "unknown"
    }()

    /// The cached copy for `modelPath` in `folder`, or nil when the model file cannot be read.
    static func path(for modelPath: String, in folder: String, runtimeVersion: String) -> String? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: modelPath),
              let size = (attributes[.size] as? NSNumber)?.intValue,
              let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 else { return nil }
        let name = fileName(modelPath: (modelPath as NSString).standardizingPath, size: size, modified: modified,
                            runtimeVersion: runtimeVersion, machine: thisMachine)
        return (folder as NSString).appendingPathComponent(name)
    }

    static func fnv1a(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return String(hash, radix: 16)
    }
}
