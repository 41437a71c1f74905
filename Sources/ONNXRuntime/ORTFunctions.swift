import ScanModel

/// The slots of ONNX Runtime's `OrtApi` function table that scanextract calls.
///
/// Indices are positions in `struct OrtApi` of the public header
/// `include/onnxruntime/core/session/onnxruntime_c_api.h` (microsoft/onnxruntime),
/// counted from 0. The table only ever grows at its end, so these positions hold
/// for every runtime that offers the requested API version. Handles are opaque
/// (`OpaquePointer`); C enums are 32-bit integers.
struct ORTFunctions {
    // Slot indices, in header order.
    enum Slot: Int, CaseIterable {
        case createStatus = 0
        case getErrorCode = 1
        case getErrorMessage = 2
        case createEnv = 3
        case createSession = 7
        case run = 9
        case createSessionOptions = 10
        case setOptimizedModelFilePath = 11
        case disableMemPattern = 17
        case disableCpuMemArena = 19
        case setSessionGraphOptimizationLevel = 23
        case setIntraOpNumThreads = 24
        case setInterOpNumThreads = 25
        case sessionGetInputCount = 30
        case sessionGetOutputCount = 31
        case sessionGetInputTypeInfo = 33
        case sessionGetOutputTypeInfo = 34
        case sessionGetInputName = 36
        case sessionGetOutputName = 37
        case createRunOptions = 39
        case createTensorWithDataAsOrtValue = 49
        case getTensorMutableData = 51
        case castTypeInfoToTensorInfo = 55
        case getTensorElementType = 60
        case getDimensionsCount = 61
        case getDimensions = 62
        case getTensorTypeAndShape = 65
        case createCpuMemoryInfo = 69
        case allocatorFree = 76
        case getAllocatorWithDefaultOptions = 78
        case releaseEnv = 92
        case releaseStatus = 93
        case releaseMemoryInfo = 94
        case releaseSession = 95
        case releaseValue = 96
        case releaseRunOptions = 97
        case releaseTypeInfo = 98
        case releaseTensorTypeAndShapeInfo = 99
        case releaseSessionOptions = 100
        case sessionGetModelMetadata = 111
        case modelMetadataLookupCustomMetadataMap = 116
        case releaseModelMetadata = 118
        case addSessionConfigEntry = 130
        case createAndRegisterAllocator = 144
        case releaseArenaCfg = 157
        case createArenaCfgV2 = 164
        case addRunConfigEntry = 165
    }

    // C enum values from the same header.
    static let loggingLevelError: Int32 = 3          // ORT_LOGGING_LEVEL_ERROR
    static let arenaAllocator: Int32 = 1             // OrtArenaAllocator
    static let memTypeDefault: Int32 = 0             // OrtMemTypeDefault
    static let elementTypeFloat: Int32 = 1           // ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT
    static let graphOptimizationAll: Int32 = 99      // ORT_ENABLE_ALL
    static let graphOptimizationNone: Int32 = 0      // ORT_DISABLE_ALL
    static let errorCodeFail: Int32 = 1              // ORT_FAIL

    typealias Status = OpaquePointer?
    typealias CString = UnsafePointer<CChar>

    let createStatus: @convention(c) (Int32, CString) -> Status
    let getErrorCode: @convention(c) (OpaquePointer) -> Int32
    let getErrorMessage: @convention(c) (OpaquePointer) -> CString?
    let createEnv: @convention(c) (Int32, CString, UnsafeMutablePointer<OpaquePointer?>) -> Status
    let createSession:
        @convention(c) (OpaquePointer, CString, OpaquePointer, UnsafeMutablePointer<OpaquePointer?>) -> Status
    let run: @convention(c) (OpaquePointer, OpaquePointer?, UnsafePointer<CString?>, UnsafePointer<OpaquePointer?>, Int,
                             UnsafePointer<CString?>, Int, UnsafeMutablePointer<OpaquePointer?>) -> Status
    let createSessionOptions: @convention(c) (UnsafeMutablePointer<OpaquePointer?>) -> Status
    let setOptimizedModelFilePath: @convention(c) (OpaquePointer, CString) -> Status
    let disableMemPattern: @convention(c) (OpaquePointer) -> Status
    let disableCpuMemArena: @convention(c) (OpaquePointer) -> Status
    let setSessionGraphOptimizationLevel: @convention(c) (OpaquePointer, Int32) -> Status
    let setIntraOpNumThreads: @convention(c) (OpaquePointer, Int32) -> Status
    let setInterOpNumThreads: @convention(c) (OpaquePointer, Int32) -> Status
    let sessionGetInputCount: @convention(c) (OpaquePointer, UnsafeMutablePointer<Int>) -> Status
    let sessionGetOutputCount: @convention(c) (OpaquePointer, UnsafeMutablePointer<Int>) -> Status
    let sessionGetInputTypeInfo: @convention(c) (OpaquePointer, Int, UnsafeMutablePointer<OpaquePointer?>) -> Status
    let sessionGetOutputTypeInfo: @convention(c) (OpaquePointer, Int, UnsafeMutablePointer<OpaquePointer?>) -> Status
    let sessionGetInputName:
        @convention(c) (OpaquePointer, Int, UnsafeMutableRawPointer, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>)
            -> Status
    let sessionGetOutputName:
        @convention(c) (OpaquePointer, Int, UnsafeMutableRawPointer, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>)
            -> Status
    let createTensorWithDataAsOrtValue:
        @convention(c) (
            OpaquePointer, UnsafeMutableRawPointer, Int, UnsafePointer<Int64>, Int, Int32,
            UnsafeMutablePointer<OpaquePointer?>
        ) -> Status
    let getTensorMutableData: @convention(c) (OpaquePointer, UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> Status
    let castTypeInfoToTensorInfo: @convention(c) (OpaquePointer, UnsafeMutablePointer<OpaquePointer?>) -> Status
    let getTensorElementType: @convention(c) (OpaquePointer, UnsafeMutablePointer<Int32>) -> Status
    let getDimensionsCount: @convention(c) (OpaquePointer, UnsafeMutablePointer<Int>) -> Status
    let getDimensions: @convention(c) (OpaquePointer, UnsafeMutablePointer<Int64>, Int) -> Status
    let getTensorTypeAndShape: @convention(c) (OpaquePointer, UnsafeMutablePointer<OpaquePointer?>) -> Status
    let createCpuMemoryInfo: @convention(c) (Int32, Int32, UnsafeMutablePointer<OpaquePointer?>) -> Status
    let allocatorFree: @convention(c) (UnsafeMutableRawPointer, UnsafeMutableRawPointer?) -> Status
    let getAllocatorWithDefaultOptions: @convention(c) (UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> Status
    let releaseEnv: @convention(c) (OpaquePointer?) -> Void
    let releaseStatus: @convention(c) (OpaquePointer?) -> Void
    let releaseMemoryInfo: @convention(c) (OpaquePointer?) -> Void
    let releaseSession: @convention(c) (OpaquePointer?) -> Void
    let releaseValue: @convention(c) (OpaquePointer?) -> Void
    let releaseTypeInfo: @convention(c) (OpaquePointer?) -> Void
    let releaseTensorTypeAndShapeInfo: @convention(c) (OpaquePointer?) -> Void
    let releaseSessionOptions: @convention(c) (OpaquePointer?) -> Void
    let sessionGetModelMetadata: @convention(c) (OpaquePointer, UnsafeMutablePointer<OpaquePointer?>) -> Status
    let modelMetadataLookupCustomMetadataMap:
        @convention(c) (
            OpaquePointer, UnsafeMutableRawPointer, CString,
            UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
        ) -> Status
    let releaseModelMetadata: @convention(c) (OpaquePointer?) -> Void
    let addSessionConfigEntry: @convention(c) (OpaquePointer, CString, CString) -> Status
    let createRunOptions: @convention(c) (UnsafeMutablePointer<OpaquePointer?>) -> Status
    let releaseRunOptions: @convention(c) (OpaquePointer?) -> Void
    let addRunConfigEntry: @convention(c) (OpaquePointer, CString, CString) -> Status
    let createArenaCfgV2: @convention(c) (UnsafePointer<CString?>, UnsafePointer<Int>, Int,
                                          UnsafeMutablePointer<OpaquePointer?>) -> Status
    let releaseArenaCfg: @convention(c) (OpaquePointer?) -> Void
    let createAndRegisterAllocator: @convention(c) (OpaquePointer, OpaquePointer, OpaquePointer?) -> Status

    init(table: UnsafePointer<UnsafeRawPointer?>) throws {
        func slot<F>(_ s: Slot) throws -> F {
            guard let p = table[s.rawValue] else {
                throw ScanError(.engine, "ONNX Runtime's C API table has no entry \(s.rawValue) (\(s))")
            }
            return unsafeBitCast(p, to: F.self)
        }
        createStatus = try slot(.createStatus)
        getErrorCode = try slot(.getErrorCode)
        getErrorMessage = try slot(.getErrorMessage)
        createEnv = try slot(.createEnv)
        createSession = try slot(.createSession)
        run = try slot(.run)
        createSessionOptions = try slot(.createSessionOptions)
        setOptimizedModelFilePath = try slot(.setOptimizedModelFilePath)
        disableMemPattern = try slot(.disableMemPattern)
        disableCpuMemArena = try slot(.disableCpuMemArena)
        setSessionGraphOptimizationLevel = try slot(.setSessionGraphOptimizationLevel)
        setIntraOpNumThreads = try slot(.setIntraOpNumThreads)
        setInterOpNumThreads = try slot(.setInterOpNumThreads)
        sessionGetInputCount = try slot(.sessionGetInputCount)
        sessionGetOutputCount = try slot(.sessionGetOutputCount)
        sessionGetInputTypeInfo = try slot(.sessionGetInputTypeInfo)
        sessionGetOutputTypeInfo = try slot(.sessionGetOutputTypeInfo)
        sessionGetInputName = try slot(.sessionGetInputName)
        sessionGetOutputName = try slot(.sessionGetOutputName)
        createTensorWithDataAsOrtValue = try slot(.createTensorWithDataAsOrtValue)
        getTensorMutableData = try slot(.getTensorMutableData)
        castTypeInfoToTensorInfo = try slot(.castTypeInfoToTensorInfo)
        getTensorElementType = try slot(.getTensorElementType)
        getDimensionsCount = try slot(.getDimensionsCount)
        getDimensions = try slot(.getDimensions)
        getTensorTypeAndShape = try slot(.getTensorTypeAndShape)
        createCpuMemoryInfo = try slot(.createCpuMemoryInfo)
        allocatorFree = try slot(.allocatorFree)
        getAllocatorWithDefaultOptions = try slot(.getAllocatorWithDefaultOptions)
        releaseEnv = try slot(.releaseEnv)
        releaseStatus = try slot(.releaseStatus)
        releaseMemoryInfo = try slot(.releaseMemoryInfo)
        releaseSession = try slot(.releaseSession)
        releaseValue = try slot(.releaseValue)
        releaseTypeInfo = try slot(.releaseTypeInfo)
        releaseTensorTypeAndShapeInfo = try slot(.releaseTensorTypeAndShapeInfo)
        releaseSessionOptions = try slot(.releaseSessionOptions)
        sessionGetModelMetadata = try slot(.sessionGetModelMetadata)
        modelMetadataLookupCustomMetadataMap = try slot(.modelMetadataLookupCustomMetadataMap)
        releaseModelMetadata = try slot(.releaseModelMetadata)
        addSessionConfigEntry = try slot(.addSessionConfigEntry)
        createRunOptions = try slot(.createRunOptions)
        releaseRunOptions = try slot(.releaseRunOptions)
        addRunConfigEntry = try slot(.addRunConfigEntry)
        createArenaCfgV2 = try slot(.createArenaCfgV2)
        releaseArenaCfg = try slot(.releaseArenaCfg)
        createAndRegisterAllocator = try slot(.createAndRegisterAllocator)
    }

    /// Throws the status's message (and frees the status) when `status` is not null.
    func check(_ status: Status, _ call: String) throws {
        guard let status else { return }
        let code = getErrorCode(status)
        let message = getErrorMessage(status).map { String(cString: $0) } ?? "no message"
        releaseStatus(status)
        throw ScanError(.engine, "ONNX Runtime \(call) failed (code \(code)): \(message)")
    }
}
