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
    public let inputs: [ONNXTensorInfo]
    public let outputs: [ONNXTensorInfo]
    let handle: OpaquePointer

    init(runtime: ONNXRuntime, modelPath: String, options: ONNXSessionOptions) throws {
        self.runtime = runtime
        self.modelPath = modelPath
        let api = runtime.api
        guard access(modelPath, R_OK) == 0 else {
            throw ScanError(.engine, "model file not found: \(modelPath)")
        }

        var opts: OpaquePointer?
        try api.check(api.createSessionOptions(&opts), "CreateSessionOptions")
        guard let opts else { throw ScanError(.engine, "ONNX Runtime CreateSessionOptions returned nothing") }
        defer { api.releaseSessionOptions(opts) }
        try api.check(api.setIntraOpNumThreads(opts, Int32(max(0, options.intraOpThreads))), "SetIntraOpNumThreads")
        try api.check(api.setInterOpNumThreads(opts, 1), "SetInterOpNumThreads")
        try api.check(api.setSessionGraphOptimizationLevel(opts, ORTFunctions.graphOptimizationAll),
                      "SetSessionGraphOptimizationLevel")
        if !options.memoryPattern {
            try api.check(api.disableMemPattern(opts), "DisableMemPattern")
        }
        if !options.cpuMemoryArena {
            try api.check(api.disableCpuMemArena(opts), "DisableCpuMemArena")
        }
        try api.check(api.addSessionConfigEntry(opts, "session.intra_op.allow_spinning",
                                                options.allowSpinning ? "1" : "0"), "AddSessionConfigEntry")

        var session: OpaquePointer?
        try api.check(api.createSession(runtime.env, modelPath, opts, &session), "CreateSession(\(modelPath))")
        guard let session else { throw ScanError(.engine, "ONNX Runtime CreateSession returned nothing for \(modelPath)") }
        self.handle = session
        do {
            inputs = try ONNXSession.describe(api: api, runtime: runtime, session: session, inputs: true)
            outputs = try ONNXSession.describe(api: api, runtime: runtime, session: session, inputs: false)
        } catch {
            api.releaseSession(session)
            throw error
        }
    }

    deinit {
        runtime.api.releaseSession(handle)
    }

    private static func describe(api: ORTFunctions, runtime: ONNXRuntime, session: OpaquePointer,
                                 inputs: Bool) throws -> [ONNXTensorInfo] {
        var count = 0
        try api.check(inputs ? api.sessionGetInputCount(session, &count) : api.sessionGetOutputCount(session, &count),
                      "SessionGet\(inputs ? "Input" : "Output")Count")
        var result: [ONNXTensorInfo] = []
        for i in 0..<count {
            var namePtr: UnsafeMutablePointer<CChar>?
            try api.check(inputs ? api.sessionGetInputName(session, i, runtime.allocator, &namePtr)
                                 : api.sessionGetOutputName(session, i, runtime.allocator, &namePtr), "SessionGetName")
            let name = runtime.takeString(namePtr) ?? ""

            var typeInfo: OpaquePointer?
            try api.check(inputs ? api.sessionGetInputTypeInfo(session, i, &typeInfo)
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
        try api.check(api.modelMetadataLookupCustomMetadataMap(meta, runtime.allocator, key, &value),
                      "ModelMetadataLookupCustomMetadataMap")
        return runtime.takeString(value)
    }

    /// Runs the model on one float tensor (the first input) and hands the first
    /// output to `body`. The output's memory is released when `body` returns.
    public func run<R>(input: [Float], shape: [Int], _ body: (ONNXTensorView) throws -> R) throws -> R {
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
            try api.check(api.createTensorWithDataAsOrtValue(runtime.cpuMemoryInfo,
                                                             UnsafeMutableRawPointer(mutating: raw.baseAddress!), raw.count,
                                                             dims, dims.count, ORTFunctions.elementTypeFloat, &value),
                          "CreateTensorWithDataAsOrtValue")
            defer { api.releaseValue(value) }
            let inputValues: [OpaquePointer?] = [value]
            try inputInfo.name.withCString { inName in
                try outputInfo.name.withCString { outName in
                    let inNames: [UnsafePointer<CChar>?] = [inName]
                    let outNames: [UnsafePointer<CChar>?] = [outName]
                    try api.check(api.run(handle, nil, inNames, inputValues, 1, outNames, 1, &output), "Run")
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
            if count == 0 { return try body(ONNXTensorView(shape: outShape, data: UnsafeBufferPointer(start: nil, count: 0))) }
            throw ScanError(.engine, "output tensor has no data")
        }
        let buffer = UnsafeBufferPointer(start: rawOut.assumingMemoryBound(to: Float.self), count: count)
        return try body(ONNXTensorView(shape: outShape, data: buffer))
    }
}
