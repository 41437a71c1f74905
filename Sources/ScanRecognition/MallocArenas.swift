import Foundation

/// glibc's limit on its malloc arenas, set once at start-up.
///
/// glibc gives threads that contend for the allocator arenas of their own (up to eight per
/// core) and keeps memory freed in an arena for that arena's later use. A folder run's workers
/// and ONNX Runtime's threads free tens of megabytes a page, so those arenas held memory
/// between pages that no thread was using: with two arenas, a 100-page engine run's resident
/// size between pages fell from 687 to 484 MiB at the same CPU (Benchmarks/RESULTS.md, mem5).
public enum MallocArenas {
    /// The limit `limitAtStartUp` sets.
    public static let defaultLimit = 2

    /// Sets the limit unless the user set `MALLOC_ARENA_MAX` (which glibc reads itself and
    /// which then stays in force). Call it before any thread starts. Returns the limit set, or
    /// nil when it was left alone: the variable was set, or the C library is not glibc.
    @discardableResult
    public static func limitAtStartUp(to limit: Int = defaultLimit,
                                      environment: [String: String] = ProcessInfo.processInfo.environment) -> Int? {
        guard environment["MALLOC_ARENA_MAX"] == nil, limit > 0, let set = mallopt else { return nil }
        // M_ARENA_MAX in glibc's malloc.h; mallopt answers 1 on success.
        return set(-8, Int32(limit)) == 1 ? limit : nil
    }

    /// glibc's `mallopt`, which Swift's Glibc module does not export; nil elsewhere.
    static let mallopt: (@convention(c) (Int32, Int32) -> Int32)? = {
        guard let sym = dlsym(nil, "mallopt") else { return nil }
        return unsafeBitCast(sym, to: (@convention(c) (Int32, Int32) -> Int32).self)
    }()
}
