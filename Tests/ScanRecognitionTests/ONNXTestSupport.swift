import Foundation
import XCTest
@testable import ONNXRuntime
@testable import ScanRecognition

/// Where the tests find the installed runtime and models: the same lookup the
/// engine uses (environment, then `.deps/` under the package root).
enum ONNXTestEnvironment {
    static let packageRoot: URL = {
        // Tests/ScanRecognitionTests/<file> -> package root
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }()

    static func locate() -> PPOCRModels? {
        try? PPOCRModels.locate(environment: ProcessInfo.processInfo.environment,
                                searchRoots: [packageRoot.path]).get()
    }

    /// The runtime, or a skip that says how to install it.
    static func runtime() throws -> ONNXRuntime {
        guard let models = locate() else {
            throw XCTSkip("ONNX Runtime / PP-OCR models not installed; run scripts/install-onnx.sh")
        }
        return try ONNXRuntime.shared(libraryPath: models.runtimeLibrary)
    }

    static func models() throws -> PPOCRModels {
        guard let models = locate() else {
            throw XCTSkip("ONNX Runtime / PP-OCR models not installed; run scripts/install-onnx.sh")
        }
        return models
    }
}

/// Writes a tiny ONNX model by hand (protobuf wire format), so that the binding can
/// be tested with exact numbers and without the PP-OCR files.
enum TinyONNXModel {
    private static func varint(_ v: UInt64) -> [UInt8] {
        var v = v, out: [UInt8] = []
        repeat {
            var byte = UInt8(v & 0x7f); v >>= 7
            if v != 0 { byte |= 0x80 }
            out.append(byte)
        } while v != 0
        return out
    }
    private static func field(_ number: UInt64, _ bytes: [UInt8]) -> [UInt8] {
        varint(number << 3 | 2) + varint(UInt64(bytes.count)) + bytes
    }
    private static func field(_ number: UInt64, _ s: String) -> [UInt8] { field(number, Array(s.utf8)) }
    private static func field(_ number: UInt64, int v: Int) -> [UInt8] { varint(number << 3) + varint(UInt64(v)) }

    /// A float tensor value description with dimensions (nil: a named dynamic dimension).
    private static func valueInfo(_ name: String, _ dims: [Int?]) -> [UInt8] {
        let shape = dims.enumerated().flatMap { i, d in
            field(1, d.map { field(1, int: $0) } ?? field(2, "d\(i)"))
        }
        let tensor = field(1, int: 1) + field(2, shape)
        return field(1, name) + field(2, field(1, tensor))
    }

    /// `y = op(x)` for a unary operator such as "Relu", with x and y of shape `dims`,
    /// and custom metadata entries.
    static func unary(_ op: String, dims: [Int?], metadata: [(String, String)] = []) -> Data {
        let node = field(1, "x") + field(2, "y") + field(3, "n0") + field(4, op)
        let graph =
            field(1, node) + field(2, "tiny") + field(11, valueInfo("x", dims)) + field(12, valueInfo("y", dims))
        var model = field(1, int: 8) + field(2, "scanextract-tests") + field(7, graph)
        model += field(8, field(1, "") + field(2, int: 13))
        for (k, v) in metadata { model += field(14, field(1, k) + field(2, v)) }
        return Data(model)
    }

    static func write(_ data: Data, name: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("scanextract-\(getpid())-\(name)")
        try data.write(to: url)
        return url.path
    }
}
