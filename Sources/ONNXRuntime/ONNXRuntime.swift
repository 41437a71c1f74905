import ScanModel
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The ONNX Runtime C library, loaded at run time with `dlopen`.
///
/// ONNX Runtime ships no Swift module and, in its PyPI wheel, no C header. Its C API
/// is a table of function pointers (`OrtApi`) reached through the one exported symbol
/// `OrtGetApiBase`. The table's layout is append-only across releases, so a slot index
/// read from the public header `onnxruntime_c_api.h` stays valid in every later
/// runtime. This type binds the few slots scanextract needs (see `ORTFunctions`),
/// owns the process's `OrtEnv`, and hands out `ONNXSession`s.
///
/// One instance can be shared by every worker: the `OrtEnv`, the function table and
/// the CPU memory description are immutable and thread-safe in ONNX Runtime.
/// Sessions are not shared; each worker creates its own.
public final class ONNXRuntime: @unchecked Sendable {
    /// The oldest `OrtApi` version whose table holds every slot used here
    /// (ONNX Runtime 1.16, the oldest release that loads IR 10 models).
    static let requestedAPIVersion: UInt32 = 16

    /// The path the library was loaded from.
    public let libraryPath: String
    /// The runtime's own version string, e.g. "1.31.1".
    public let version: String

    let api: ORTFunctions
    let env: OpaquePointer
    let cpuMemoryInfo: OpaquePointer
    /// The default CPU allocator. Owned by ONNX Runtime; never released.
    let allocator: UnsafeMutableRawPointer
    /// The configuration of the shared arena, once registered (`useSharedArena`). ONNX
    /// Runtime has one environment per process, whatever the number of `ONNXRuntime`s.
    nonisolated(unsafe) private static var registeredArena: ONNXArenaConfiguration?
    private static let registeredArenaLock = PThreadMutex()
    var sharedArena: ONNXArenaConfiguration? {
        Self.registeredArenaLock.lock()
        defer { Self.registeredArenaLock.unlock() }
        return Self.registeredArena
    }

    /// Loads the library at `libraryPath` and creates the environment.
    /// Throws `ScanError(.engine)` when the file is missing, is not a loadable
    /// library, does not export `OrtGetApiBase`, or is too old.
    public init(libraryPath: String) throws {
        self.libraryPath = libraryPath
        guard access(libraryPath, R_OK) == 0 else {
            throw ScanError(.engine, "ONNX Runtime library not found at \(libraryPath). \(ONNXRuntime.installHint)")
        }
        // RTLD_LOCAL keeps its symbols out of the global namespace. The library is
        // never unloaded: ONNX Runtime's thread pools and static state must outlive
        // every session, and unloading it is documented as unsafe.
        guard let handle = dlopen(libraryPath, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "unknown dlopen error"
            throw ScanError(
                .engine, "cannot load ONNX Runtime from \(libraryPath): \(reason). \(ONNXRuntime.installHint)")
        }
        guard let symbol = dlsym(handle, "OrtGetApiBase") else {
            dlclose(handle)
            throw ScanError(
                .engine,
                "\(libraryPath) is not ONNX Runtime: it does not export OrtGetApiBase. \(ONNXRuntime.installHint)")
        }
        typealias GetApiBaseFn = @convention(c) () -> UnsafeRawPointer?
        typealias GetApiFn = @convention(c) (UInt32) -> UnsafeRawPointer?
        typealias GetVersionFn = @convention(c) () -> UnsafePointer<CChar>?
        let getApiBase = unsafeBitCast(symbol, to: GetApiBaseFn.self)
        guard let base = getApiBase()?.assumingMemoryBound(to: UnsafeRawPointer?.self),
              let getApiPtr = base[0], let getVersionPtr = base[1] else {
            throw ScanError(.engine, "OrtGetApiBase in \(libraryPath) returned nothing")
        }
        let versionString =
            unsafeBitCast(getVersionPtr, to: GetVersionFn.self)().map { String(cString: $0) } ?? "unknown"
        guard let table = unsafeBitCast(getApiPtr, to: GetApiFn.self)(ONNXRuntime.requestedAPIVersion) else {
            throw ScanError(
                .engine,
                "ONNX Runtime \(versionString) at \(libraryPath) does not offer C API version \(ONNXRuntime.requestedAPIVersion); version 1.16 or newer is needed. \(ONNXRuntime.installHint)"
            )
        }
        self.version = versionString
        let api = try ORTFunctions(table: table.assumingMemoryBound(to: UnsafeRawPointer?.self))
        self.api = api

        var env: OpaquePointer?
        try api.check(api.createEnv(ORTFunctions.loggingLevelError, "scanextract", &env), "CreateEnv")
        guard let env else { throw ScanError(.engine, "ONNX Runtime CreateEnv returned no environment") }
        self.env = env

        var info: OpaquePointer?
        do {
            try api.check(api.createCpuMemoryInfo(ORTFunctions.arenaAllocator, ORTFunctions.memTypeDefault, &info),
                          "CreateCpuMemoryInfo")
        } catch {
            api.releaseEnv(env)
            throw error
        }
        guard let info else {
            api.releaseEnv(env)
            throw ScanError(.engine, "ONNX Runtime CreateCpuMemoryInfo returned nothing")
        }
        self.cpuMemoryInfo = info

        var alloc: UnsafeMutableRawPointer?
        do {
            try api.check(api.getAllocatorWithDefaultOptions(&alloc), "GetAllocatorWithDefaultOptions")
        } catch {
            api.releaseMemoryInfo(info)
            api.releaseEnv(env)
            throw error
        }
        guard let alloc else {
            api.releaseMemoryInfo(info)
            api.releaseEnv(env)
            throw ScanError(.engine, "ONNX Runtime has no default allocator")
        }
        self.allocator = alloc
    }

    deinit {
        api.releaseMemoryInfo(cpuMemoryInfo)
        api.releaseEnv(env)
    }

    /// What to tell a user whose runtime is missing.
    public static let installHint =
        "Install it with `make deps` or `scripts/install-onnx.sh` (pip installs onnxruntime==1.31.1 into .deps/onnxruntime), or set SCANEXTRACT_ONNXRUNTIME to a libonnxruntime.so file."

    /// Opens a model file in a new session.
    public func makeSession(modelPath: String, options: ONNXSessionOptions = ONNXSessionOptions()) throws -> ONNXSession
    {
        try ONNXSession(runtime: self, modelPath: modelPath, options: options)
    }

    /// Creates an `OrtStatus` with `message` and turns it into the error the binding
    /// throws, the way a failing call would. Exercises the status path in tests.
    func roundTripStatus(code: Int32, message: String) -> ScanError? {
        let status = api.createStatus(code, message)
        do {
            try api.check(status, "test")
            return nil
        } catch let error as ScanError {
            return error
        } catch {
            return nil
        }
    }

    /// Copies and frees a string that ONNX Runtime allocated with the default allocator.
    func takeString(_ pointer: UnsafeMutablePointer<CChar>?) -> String? {
        guard let pointer else { return nil }
        let s = String(cString: pointer)
        // AllocatorFree only fails for a null allocator; nothing to recover then.
        if let status = api.allocatorFree(allocator, UnsafeMutableRawPointer(pointer)) { api.releaseStatus(status) }
        return s
    }
}

/// Settings for one session.
public struct ONNXSessionOptions: Sendable, Hashable {
    /// Threads used inside one operator (0: ONNX Runtime's default, one per core).
    public var intraOpThreads: Int
    /// Whether idle intra-op threads spin while waiting for work. Spinning lowers
    /// latency for a lone session, but steals the core from another worker.
    public var allowSpinning: Bool
    /// Where the session's tensors live (see `ONNXArena`).
    public var arena: ONNXArena
    /// ONNX Runtime's memory-pattern planning caches an allocation plan per input
    /// shape. Page and line sizes vary, so the cache only grows; off by default.
    public var memoryPattern: Bool
    /// A folder where the model's optimized graph is written by the first session and read by
    /// later ones (`OptimizedModelCache`); nil: the graph is optimized at every start.
    public var optimizedModelCache: String?
    /// Whether the threads running the model treat denormal floats as zero (x86's FTZ and DAZ
    /// bits, Arm's FZ), as OpenVINO and PyTorch's CPU inference do. The detector's activations
    /// hold many of them: on an Intel Xeon it ran 3.4 times slower without this, with the same
    /// output (Benchmarks/RESULTS.md, twentieth session). On by default.
    public var flushDenormals: Bool = true

    /// ONNX Runtime's CPU arena per session (true) or none (false, the default).
    public var cpuMemoryArena: Bool {
        get { arena != .off }
        set { arena = newValue ? .perSession : .off }
    }

    public init(intraOpThreads: Int = 1, allowSpinning: Bool = false, cpuMemoryArena: Bool = false,
                memoryPattern: Bool = false) {
        self.init(intraOpThreads: intraOpThreads, allowSpinning: allowSpinning,
                  arena: cpuMemoryArena ? .perSession : .off, memoryPattern: memoryPattern)
    }

    public init(intraOpThreads: Int = 1, allowSpinning: Bool = false, arena: ONNXArena, memoryPattern: Bool = false) {
        self.intraOpThreads = intraOpThreads
        self.allowSpinning = allowSpinning
        self.arena = arena
        self.memoryPattern = memoryPattern
    }
}

/// Where a session's tensors are allocated on the CPU.
///
/// An arena keeps freed blocks for the next run instead of handing them back, which
/// spares the page faults of fresh memory on every run; with input shapes that change
/// from page to page it grows to what the largest page needed and holds it.
public enum ONNXArena: Sendable, Hashable {
    /// No arena: every tensor is allocated and freed with the C heap.
    case off
    /// ONNX Runtime's default: an arena per session, grown by powers of two and never shrunk.
    case perSession
    /// One arena for every session of the process that asks for it, configured once with
    /// `ONNXRuntime.useSharedArena(_:)` before the first such session is made.
    case shared
}

/// The settings of the process's shared CPU arena (ONNX Runtime's `OrtArenaCfg`).
public struct ONNXArenaConfiguration: Sendable, Hashable {
    /// How the arena grows when no free block fits.
    public enum Growth: Int, Sendable, Hashable {
        /// Each new region is the next power of two of what the arena holds (ONNX Runtime's
        /// default): few regions, up to twice the memory needed.
        case nextPowerOfTwo = 0
        /// Each new region has the size asked for (`kSameAsRequested`).
        case sameAsRequested = 1
    }
    public var growth: Growth

    public init(growth: Growth = .sameAsRequested) {
        self.growth = growth
    }
}

extension ONNXRuntime {
    /// Registers the process's shared CPU arena with `configuration`, once; sessions made
    /// with `ONNXArena.shared` then allocate from it. Later calls with the same configuration
    /// do nothing; a different one throws, since ONNX Runtime keeps the first.
    public func useSharedArena(_ configuration: ONNXArenaConfiguration) throws {
        Self.registeredArenaLock.lock()
        defer { Self.registeredArenaLock.unlock() }
        if let registered = Self.registeredArena {
            guard registered == configuration else {
                throw ScanError(
                    .engine,
                    "the shared ONNX Runtime arena is already set up to grow by \(registered.growth), not by \(configuration.growth)"
                )
            }
            return
        }
        let keys = ["arena_extend_strategy"]
        let values = [configuration.growth.rawValue]
        var config: OpaquePointer?
        try keys.withCStrings { names in
            try api.check(api.createArenaCfgV2(names, values, keys.count, &config), "CreateArenaCfgV2")
        }
        defer { api.releaseArenaCfg(config) }
        try api.check(api.createAndRegisterAllocator(env, cpuMemoryInfo, config), "CreateAndRegisterAllocator")
        Self.registeredArena = configuration
    }
}

extension Array where Element == String {
    /// Calls `body` with the strings as a C array of C strings, valid during the call.
    func withCStrings<R>(_ body: (UnsafePointer<UnsafePointer<CChar>?>) throws -> R) rethrows -> R {
        let copies = map { strdup($0) }
        defer { copies.forEach { free($0) } }
        let pointers: [UnsafePointer<CChar>?] = copies.map { $0.map { UnsafePointer($0) } }
        return try pointers.withUnsafeBufferPointer { try body($0.baseAddress!) }
    }
}

extension ONNXRuntime {
    nonisolated(unsafe) private static var loaded: [String: ONNXRuntime] = [:]
    private static let loadedLock = PThreadMutex()

    /// The runtime for `libraryPath`, loaded once per process and shared by every
    /// engine (ONNX Runtime wants a single environment per process).
    public static func shared(libraryPath: String) throws -> ONNXRuntime {
        loadedLock.lock()
        defer { loadedLock.unlock() }
        if let r = loaded[libraryPath] { return r }
        let r = try ONNXRuntime(libraryPath: libraryPath)
        loaded[libraryPath] = r
        return r
    }
}

/// A pthread mutex, so that this file needs no Foundation.
final class PThreadMutex: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    init() { pthread_mutex_init(&mutex, nil) }
    deinit { pthread_mutex_destroy(&mutex) }
    func lock() { pthread_mutex_lock(&mutex) }
    func unlock() { pthread_mutex_unlock(&mutex) }
}
