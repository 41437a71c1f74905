import CDenormals
import Foundation
import ScanModel
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The declared name and shape of a model input or output. Dynamic dimensions are -1.
public struct ONNXTensorInfo: Sendable, Hashable {
    public var name: String
    public var shape: [Int]
    /// ONNX element type code (1 = float).
    public var elementType: Int32
}

/// A read-only view of an output tensor, valid only inside `ONNXSession.run`'s closure.
public struct ONNXTensorView {
    public let shape: [Int]
    public let data: UnsafeBufferPointer<Float>
}

/// One loaded model. Owns its `OrtSession` and releases it in `deinit`.
///
/// Not thread-safe by contract (ONNX Runtime allows concurrent `Run`, but scanextract
/// gives every worker its own sessions so that thread counts stay predictable).
public final class ONNXSession {
    public let runtime: ONNXRuntime
    public let modelPath: String
    /// The file the session was made from: `modelPath`, or its optimized copy in
    /// `ONNXSessionOptions.optimizedModelCache`.
    public let loadedFrom: String
    public let inputs: [ONNXTensorInfo]
    public let outputs: [ONNXTensorInfo]
    let handle: OpaquePointer
    let arena: ONNXArena
    let flushDenormals: Bool
    /// Run options that ask ONNX Runtime to hand the arena's free regions back after the run.
    private var shrinkingRunOptions: OpaquePointer?

    init(runtime: ONNXRuntime, modelPath: String, options: ONNXSessionOptions) throws {
        self.runtime = runtime
        self.modelPath = modelPath
        self.arena = options.arena
        self.flushDenormals = options.flushDenormals
        let api = runtime.api
        guard access(modelPath, R_OK) == 0 else {
            throw ScanError(.engine, "model file not found: \(modelPath)")
        }

        // An optimized copy made before is loaded as it is; otherwise the session optimizes the
        // model and writes its copy, under a name of its own until it is complete.
        let cached = options.optimizedModelCache.flatMap {
            OptimizedModelCache.path(for: modelPath, in: $0, runtimeVersion: runtime.version)
        }
        if let cached, access(cached, R_OK) == 0,
            let session = try? Self.create(
                runtime: runtime, path: cached, options: options, optimize: false, saveTo: nil)
        {
            self.handle = session
            self.loadedFrom = cached
        } else {
            var pending: String?
            if let cached, let folder = options.optimizedModelCache,
                (try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)) != nil
            {
                pending = "\(cached).\(getpid()).\(UInt32.random(in: .min ... .max)).tmp"
            }
            if let saving = pending.flatMap({
                try? Self.create(
                    runtime: runtime, path: modelPath, options: options,
                    optimize: true, saveTo: $0)
            }) {
                self.handle = saving
                // Another process may have put its copy in place meanwhile: the same bytes.
                if let pending, let cached {
                    if rename(pending, cached) == 0 {
                        OptimizedModelCache.prune(keeping: cached)
                    } else {
                        unlink(pending)
                    }
                }
            } else {
                // No cache, or it could not be written (a read-only folder): optimize as always.
                if let pending { unlink(pending) }
                self.handle = try Self.create(
                    runtime: runtime, path: modelPath, options: options, optimize: true, saveTo: nil)
            }
            self.loadedFrom = modelPath
        }
        do {
            inputs = try ONNXSession.describe(api: api, runtime: runtime, session: handle, inputs: true)
            outputs = try ONNXSession.describe(api: api, runtime: runtime, session: handle, inputs: false)
        } catch {
            api.releaseSession(handle)
            throw error
        }
    }

    /// A session for the model at `path`: its graph optimized (and the result written to
    /// `saveTo`), or loaded as it is.
    private static func create(
        runtime: ONNXRuntime, path: String, options: ONNXSessionOptions, optimize: Bool,
        saveTo: String?
    ) throws -> OpaquePointer {
        let api = runtime.api
        var opts: OpaquePointer?
        try api.check(api.createSessionOptions(&opts), "CreateSessionOptions")
        guard let opts else { throw ScanError(.engine, "ONNX Runtime CreateSessionOptions returned nothing") }
        defer { api.releaseSessionOptions(opts) }
        try api.check(api.setIntraOpNumThreads(opts, Int32(max(0, options.intraOpThreads))), "SetIntraOpNumThreads")
        try api.check(api.setInterOpNumThreads(opts, 1), "SetInterOpNumThreads")
        try api.check(
            api.setSessionGraphOptimizationLevel(
                opts,
                optimize
                    ? ORTFunctions.graphOptimizationAll
                    : ORTFunctions.graphOptimizationNone),
            "SetSessionGraphOptimizationLevel")
        if let saveTo {
            try api.check(api.setOptimizedModelFilePath(opts, saveTo), "SetOptimizedModelFilePath")
        }
        if !options.memoryPattern {
            try api.check(api.disableMemPattern(opts), "DisableMemPattern")
        }
        switch options.arena {
        case .off:
            try api.check(api.disableCpuMemArena(opts), "DisableCpuMemArena")
        case .perSession:
            break
        case .shared:
            guard runtime.sharedArena != nil else {
                throw ScanError(
                    .engine, "a session asks for the shared arena before ONNXRuntime.useSharedArena set it up")
            }
            try api.check(api.addSessionConfigEntry(opts, "session.use_env_allocators", "1"), "AddSessionConfigEntry")
        }
        try api.check(
            api.addSessionConfigEntry(
                opts, "session.intra_op.allow_spinning",
                options.allowSpinning ? "1" : "0"), "AddSessionConfigEntry")
        // The intra-op pool's own threads; the calling thread is switched in `run`.
        try api.check(
            api.addSessionConfigEntry(
                opts, "session.set_denormal_as_zero",
                options.flushDenormals ? "1" : "0"), "AddSessionConfigEntry")

        var session: OpaquePointer?
        // With `session.set_denormal_as_zero` ONNX Runtime also switches the creating thread for
        // good; that thread's state is put back.
        let creator = scan_denormals_flush()
        defer { scan_denormals_restore(creator) }
        try api.check(api.createSession(runtime.env, path, opts, &session), "CreateSession(\(path))")
        guard let session else { throw ScanError(.engine, "ONNX Runtime CreateSession returned nothing for \(path)") }
        return session
    }

    deinit {
        runtime.api.releaseRunOptions(shrinkingRunOptions)
        runtime.api.releaseSession(handle)
    }

    /// The run options that shrink the CPU arena after a run, made on first use.
    private func shrinkOptions() throws -> OpaquePointer? {
        if let shrinkingRunOptions { return shrinkingRunOptions }
        let api = runtime.api
        var options: OpaquePointer?
        try api.check(api.createRunOptions(&options), "CreateRunOptions")
        guard let options else { throw ScanError(.engine, "ONNX Runtime CreateRunOptions returned nothing") }
        do {
            try api.check(
                api.addRunConfigEntry(options, "memory.enable_memory_arena_shrinkage", "cpu:0"),
                "AddRunConfigEntry")
        } catch {
            api.releaseRunOptions(options)
            throw error
        }
        shrinkingRunOptions = options
        return options
    }

    private static func describe(
        api: ORTFunctions, runtime: ONNXRuntime, session: OpaquePointer,
        inputs: Bool
    ) throws -> [ONNXTensorInfo] {
        var count = 0
        try api.check(
            inputs ? api.sessionGetInputCount(session, &count) : api.sessionGetOutputCount(session, &count),
            "SessionGet\(inputs ? "Input" : "Output")Count")
        var result: [ONNXTensorInfo] = []
        for i in 0..<count {
            var namePtr: UnsafeMutablePointer<CChar>?
            try api.check(
                inputs
                    ? api.sessionGetInputName(session, i, runtime.allocator, &namePtr)
                    : api.sessionGetOutputName(session, i, runtime.allocator, &namePtr), "SessionGetName")
            let name = runtime.takeString(namePtr) ?? ""

            var typeInfo: OpaquePointer?
            try api.check(
                inputs
                    ? api.sessionGetInputTypeInfo(session, i, &typeInfo)
                    : api.sessionGetOutputTypeInfo(session, i, &typeInfo), "SessionGetTypeInfo")
            guard let typeInfo else { throw ScanError(.engine, "ONNX Runtime gave no type for \(name)") }
            defer { api.releaseTypeInfo(typeInfo) }
            var tensorInfo: OpaquePointer?  // owned by typeInfo
            try api.check(api.castTypeInfoToTensorInfo(typeInfo, &tensorInfo), "CastTypeInfoToTensorInfo")
            guard let tensorInfo else {
                throw ScanError(.engine, "model \(inputs ? "input" : "output") \(name) is not a tensor")
            }
            var elementType: Int32 = 0
            try api.check(api.getTensorElementType(tensorInfo, &elementType), "GetTensorElementType")
            var rank = 0
            try api.check(api.getDimensionsCount(tensorInfo, &rank), "GetDimensionsCount")
            var dims = [Int64](repeating: 0, count: rank)
            if rank > 0 { try api.check(api.getDimensions(tensorInfo, &dims, rank), "GetDimensions") }
            result.append(ONNXTensorInfo(name: name, shape: dims.map { Int($0) }, elementType: elementType))
        }
        return result
    }

    /// The value stored under `key` in the model's custom metadata, or nil.
    public func customMetadata(_ key: String) throws -> String? {
        let api = runtime.api
        var meta: OpaquePointer?
        try api.check(api.sessionGetModelMetadata(handle, &meta), "SessionGetModelMetadata")
        guard let meta else { return nil }
        defer { api.releaseModelMetadata(meta) }
        var value: UnsafeMutablePointer<CChar>?
        try api.check(
            api.modelMetadataLookupCustomMetadataMap(meta, runtime.allocator, key, &value),
            "ModelMetadataLookupCustomMetadataMap")
        return runtime.takeString(value)
    }

    /// Runs the model on one float tensor (the first input) and hands the first
    /// output to `body`. The output's memory is released when `body` returns.
    /// - Parameter shrinkArena: with an arena, hand its wholly free regions back to the
    ///   system after the run (ONNX Runtime's arena shrinkage); ignored without one.
    public func run<R>(
        input: [Float], shape: [Int], shrinkArena: Bool = false,
        _ body: (ONNXTensorView) throws -> R
    ) throws -> R {
        guard let inputInfo = inputs.first, let outputInfo = outputs.first else {
            throw ScanError(.engine, "model \(modelPath) has no inputs or outputs")
        }
        let expected = shape.reduce(1, *)
        guard expected == input.count, shape.allSatisfy({ $0 > 0 }) else {
            throw ScanError(.engine, "tensor of \(input.count) values does not fill shape \(shape)")
        }
        let api = runtime.api
        let dims = shape.map { Int64($0) }
        var output: OpaquePointer?
        // ONNX Runtime only reads an input tensor, so the caller's buffer is lent as it is
        // (a mutable copy would cost a page-sized copy of the detector's input per page).
        try input.withUnsafeBytes { raw in
            var value: OpaquePointer?
            try api.check(
                api.createTensorWithDataAsOrtValue(
                    runtime.cpuMemoryInfo,
                    UnsafeMutableRawPointer(mutating: raw.baseAddress!), raw.count,
                    dims, dims.count, ORTFunctions.elementTypeFloat, &value),
                "CreateTensorWithDataAsOrtValue")
            defer { api.releaseValue(value) }
            let inputValues: [OpaquePointer?] = [value]
            try inputInfo.name.withCString { inName in
                try outputInfo.name.withCString { outName in
                    let inNames: [UnsafePointer<CChar>?] = [inName]
                    let outNames: [UnsafePointer<CChar>?] = [outName]
                    let runOptions = shrinkArena && arena != .off ? try shrinkOptions() : nil
                    // Only for the run: the caller's own arithmetic keeps IEEE denormals.
                    let saved = flushDenormals ? scan_denormals_flush() : nil
                    defer { saved.map(scan_denormals_restore) }
                    try api.check(api.run(handle, runOptions, inNames, inputValues, 1, outNames, 1, &output), "Run")
                }
            }
        }
        guard let output else { throw ScanError(.engine, "ONNX Runtime Run produced no output") }
        defer { api.releaseValue(output) }

        var shapeInfo: OpaquePointer?
        try api.check(api.getTensorTypeAndShape(output, &shapeInfo), "GetTensorTypeAndShape")
        guard let shapeInfo else { throw ScanError(.engine, "output has no shape") }
        defer { api.releaseTensorTypeAndShapeInfo(shapeInfo) }
        var elementType: Int32 = 0
        try api.check(api.getTensorElementType(shapeInfo, &elementType), "GetTensorElementType")
        guard elementType == ORTFunctions.elementTypeFloat else {
            throw ScanError(.engine, "output \(outputInfo.name) has element type \(elementType), not float")
        }
        var rank = 0
        try api.check(api.getDimensionsCount(shapeInfo, &rank), "GetDimensionsCount")
        var outDims = [Int64](repeating: 0, count: rank)
        if rank > 0 { try api.check(api.getDimensions(shapeInfo, &outDims, rank), "GetDimensions") }
        let outShape = outDims.map { Int($0) }
        let count = outShape.reduce(1, *)
        var rawOut: UnsafeMutableRawPointer?
        try api.check(api.getTensorMutableData(output, &rawOut), "GetTensorMutableData")
        guard let rawOut else {
            if count == 0 {
                return try body(ONNXTensorView(shape: outShape, data: UnsafeBufferPointer(start: nil, count: 0)))
            }
            throw ScanError(.engine, "output tensor has no data")
        }
        let buffer = UnsafeBufferPointer(start: rawOut.assumingMemoryBound(to: Float.self), count: count)
        return try body(ONNXTensorView(shape: outShape, data: buffer))
    }
}
