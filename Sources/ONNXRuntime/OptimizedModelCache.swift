import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// Where ONNX Runtime's optimized copy of a model is kept between processes.
///
/// Creating a session optimizes the model's graph (fusing operators, choosing layouts for this
/// CPU), which cost the three PP-OCR models 179 ms of CPU at every worker's start, against 84 ms
/// for loading graphs optimized before (Benchmarks/RESULTS.md, nineteenth session). The first
/// session of a model writes its optimized graph here; later ones load it with optimization off.
/// A copy is only valid for the model file, the runtime version and the CPU it was made with
/// (the layouts are the CPU's), so all three are in its name: the model file as `stat` sees it
/// through any symbolic link (its path, device, inode, size, and modification and change times
/// to the nanosecond), the runtime's version, and the processor's identity and flags. A copy
/// written for a model path on a processor replaces the one from before (`prune`), so a model
/// file or runtime that is updated leaves no stale copy behind.
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

    /// The cached copy's file name for the model at `modelPath` whose file `identity` describes,
    /// for `runtimeVersion` on the processor `machine` describes: `slotPrefix` (the path and the
    /// processor), then the runtime version and a hash of the file's identity and that version.
    static func fileName(modelPath: String, identity: String, runtimeVersion: String, machine: String) -> String {
        slotPrefix(modelPath: modelPath, machine: machine)
            + "ort\(runtimeVersion)-\(fnv1a("\(identity)|\(runtimeVersion)")).onnx"
    }

    /// What the names of every copy ever made for the model at `modelPath` on the processor
    /// `machine` begin with: only the newest of them is of use.
    static func slotPrefix(modelPath: String, machine: String) -> String {
        let base = ((modelPath as NSString).lastPathComponent as NSString).deletingPathExtension
        return "\(base)-\(fnv1a("\(modelPath)|\(machine)"))-"
    }

    /// How old a half-written copy (`*.tmp`) must be before another process takes it for one
    /// left behind by a crash and removes it.
    static let abandonedAfter: TimeInterval = 600

    /// Removes the copies beside the copy `kept` that were made for the same model path and
    /// processor (an older model file or runtime), and their abandoned half-written files. The
    /// slot is read back from `kept`'s name: everything before the last `-ort` (`fileName`).
    static func prune(keeping kept: String, now: Date = Date()) {
        let folder = (kept as NSString).deletingLastPathComponent, keptName = (kept as NSString).lastPathComponent
        guard let dash = keptName.range(of: "-ort", options: .backwards),
            let names = try? FileManager.default.contentsOfDirectory(atPath: folder)
        else { return }
        let prefix = String(keptName[..<dash.lowerBound]) + "-"
        for name in names where name != keptName && name.hasPrefix(prefix) {
            let path = (folder as NSString).appendingPathComponent(name)
            if name.hasSuffix(".onnx") {
                unlink(path)
            } else if name.hasSuffix(".tmp"),
                let modified = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date,
                now.timeIntervalSince(modified) > abandonedAfter
            {
                unlink(path)
            }
        }
    }

    /// What tells one file from another at `path`, through symbolic links; nil when it cannot be read.
    static func identity(ofFileAt path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return "\(info.st_dev):\(info.st_ino):\(info.st_size):\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
            + ":\(info.st_ctim.tv_sec).\(info.st_ctim.tv_nsec)"
    }

    /// The lines of `/proc/cpuinfo` that say which processor this is and what it can do, each
    /// key's first: x86's `vendor_id`, `model name`, `cpu family`, `model` and `flags`, and
    /// Arm's `CPU implementer`, `CPU part` and `Features`.
    static func machine(cpuinfo: String) -> String {
        let keys: Set<String> = [
            "vendor_id", "model name", "cpu family", "model", "flags",
            "CPU implementer", "CPU part", "Features"
        ]
        var seen: [String: String] = [:]
        for line in cpuinfo.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let key = line[..<colon].trimmingCharacters(in: .whitespaces)
            guard keys.contains(key), seen[key] == nil else { continue }
            seen[key] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return seen.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ";")
    }

    /// This processor: its architecture and its `/proc/cpuinfo` identity.
    static let thisMachine: String = {
        var names = utsname()
        uname(&names)
        let architecture = withUnsafeBytes(of: &names.machine) {
            String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
        }
        let cpu = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)).map(machine(cpuinfo:)) ?? "unknown"
        return "\(architecture);\(cpu)"
    }()

    /// The cached copy for `modelPath` in `folder`, or nil when the model file cannot be read.
    static func path(for modelPath: String, in folder: String, runtimeVersion: String) -> String? {
        let resolved = (modelPath as NSString).resolvingSymlinksInPath
        guard let identity = identity(ofFileAt: resolved) else { return nil }
        let name = fileName(
            modelPath: resolved, identity: identity, runtimeVersion: runtimeVersion, machine: thisMachine)
        return (folder as NSString).appendingPathComponent(name)
    }

    static func fnv1a(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return String(hash, radix: 16)
    }
}
