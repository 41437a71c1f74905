import Foundation

/// How glibc's malloc holds memory, set once at start-up.
///
/// - **Arenas.** glibc gives threads that contend for the allocator arenas of their own (up to
///   eight per core) and keeps memory freed in an arena for that arena's later use. A folder
///   run's workers and ONNX Runtime's threads free tens of megabytes a page, so those arenas held
///   memory between pages that no thread was using: with two arenas, a 100-page engine run's
///   resident size between pages fell from 687 to 484 MiB at the same CPU (Benchmarks/RESULTS.md,
///   mem5).
/// - **The mmap threshold.** A block of at least this size is mapped on its own and handed back
///   to the system when freed. glibc raises the threshold each time such a block is freed (up
///   to 32 MiB), so after the first pages a page's images and tensors came from the heap, where
///   freed pieces stay resident and two workers' large pages stacked up. A fixed 1 MiB threshold
///   took a 250-receipt folder run's peak from 981 to 791 MiB at the same CPU and with the same
///   outputs (Benchmarks/RESULTS.md, eleventh session).
public enum MallocTuning {
    /// The arena limit `applyAtStartUp` sets.
    public static let defaultArenaLimit = 2
    /// The mmap threshold `applyAtStartUp` sets, in bytes.
    public static let defaultMmapThreshold = 1 << 20

    /// What `applyAtStartUp` set; nil for a setting it left alone.
    public struct Applied: Equatable, Sendable {
        public var arenaLimit: Int?
        public var mmapThreshold: Int?
    }

    /// Sets both, each unless the user set its glibc variable (`MALLOC_ARENA_MAX`,
    /// `MALLOC_MMAP_THRESHOLD_`, which glibc reads itself and which then stay in force), and
    /// unless its value is zero or less. Call it before any thread starts. Outside glibc
    /// nothing is set.
    @discardableResult
    public static func applyAtStartUp(arenaLimit: Int = defaultArenaLimit, mmapThreshold: Int = defaultMmapThreshold,
                                      environment: [String: String] = ProcessInfo.processInfo.environment) -> Applied {
        // The parameter numbers of glibc's malloc.h; mallopt answers 1 on success.
        func set(_ parameter: Int32, _ value: Int, unless variable: String) -> Int? {
            guard environment[variable] == nil, value > 0, value <= Int(Int32.max), let mallopt else { return nil }
            return mallopt(parameter, Int32(value)) == 1 ? value : nil
        }
        return Applied(arenaLimit: set(-8, arenaLimit, unless: "MALLOC_ARENA_MAX"),            // M_ARENA_MAX
                       mmapThreshold: set(-3, mmapThreshold, unless: "MALLOC_MMAP_THRESHOLD_"))  // M_MMAP_THRESHOLD
    }

    /// glibc's `mallopt`, which Swift's Glibc module does not export; nil elsewhere.
    static let mallopt: (@convention(c) (Int32, Int32) -> Int32)? = {
        guard let sym = dlsym(nil, "mallopt") else { return nil }
        return unsafeBitCast(sym, to: (@convention(c) (Int32, Int32) -> Int32).self)
    }()
}
