import Foundation
import ScanModel
import XCTest
@testable import ONNXRuntime
@testable import ScanRecognition

final class ONNXRuntimeTests: XCTestCase {
    func testMissingLibraryIsAClearEngineError() {
        XCTAssertThrowsError(try ONNXRuntime(libraryPath: "/nonexistent/libonnxruntime.so.1")) { error in
            let e = error as? ScanError
            XCTAssertEqual(e?.code, .engine)
            XCTAssertTrue(e?.reason.contains("install-onnx.sh") ?? false, "\(error)")
        }
    }

    func testLibraryWithoutOrtGetApiBaseIsRejected() throws {
        // libm is a real shared library that is not ONNX Runtime.
        let candidates = ["/lib/x86_64-linux-gnu/libm.so.6", "/usr/lib/x86_64-linux-gnu/libm.so.6",
                          "/lib/aarch64-linux-gnu/libm.so.6", "/usr/lib/aarch64-linux-gnu/libm.so.6"]
        guard let libm = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }) else {
            throw XCTSkip("no libm.so.6 found")
        }
        XCTAssertThrowsError(try ONNXRuntime(libraryPath: libm)) { error in
            XCTAssertTrue("\(error)".contains("OrtGetApiBase"), "\(error)")
        }
    }

    func testFileThatIsNotALibraryIsRejected() throws {
        let path = try TinyONNXModel.write(Data("not an ELF file".utf8), name: "fake.so")
        XCTAssertThrowsError(try ONNXRuntime(libraryPath: path)) { error in
            XCTAssertEqual((error as? ScanError)?.code, .engine)
            XCTAssertTrue("\(error)".contains("cannot load"), "\(error)")
        }
    }

    func testStatusMessagesComeBackAsErrors() throws {
        let runtime = try ONNXTestEnvironment.runtime()
        XCTAssertFalse(runtime.version.isEmpty)
        let error = runtime.roundTripStatus(code: ORTFunctions.errorCodeFail, message: "made-up failure")
        XCTAssertNotNil(error)
        XCTAssertTrue(error?.reason.contains("made-up failure") ?? false)
        XCTAssertTrue(error?.reason.contains("code 1") ?? false)
    }

    func testRunsAHandWrittenModelAndReadsMetadata() throws {
        let runtime = try ONNXTestEnvironment.runtime()
        let path = try TinyONNXModel.write(TinyONNXModel.unary("Relu", dims: [nil, 3], metadata: [("character", "a\nb\nc")]),
                                           name: "relu.onnx")
        let session = try runtime.makeSession(modelPath: path)
        XCTAssertEqual(session.inputs.map(\.name), ["x"])
        XCTAssertEqual(session.inputs.first?.shape, [-1, 3])
        XCTAssertEqual(session.outputs.map(\.name), ["y"])
        XCTAssertEqual(try session.customMetadata("character"), "a\nb\nc")
        XCTAssertNil(try session.customMetadata("no-such-key"))

        let out = try session.run(input: [-1, 2, -3, 4, 0.5, -0.25], shape: [2, 3]) { view in
            (view.shape, Array(view.data))
        }
        XCTAssertEqual(out.0, [2, 3])
        XCTAssertEqual(out.1, [0, 2, 0, 4, 0.5, 0])
    }

    func testCorruptModelFileIsAnEngineError() throws {
        let runtime = try ONNXTestEnvironment.runtime()
        let path = try TinyONNXModel.write(Data(repeating: 0xAB, count: 64), name: "corrupt.onnx")
        XCTAssertThrowsError(try runtime.makeSession(modelPath: path)) { error in
            XCTAssertEqual((error as? ScanError)?.code, .engine)
            XCTAssertTrue("\(error)".contains("CreateSession"), "\(error)")
        }
        XCTAssertThrowsError(try runtime.makeSession(modelPath: "/nonexistent/model.onnx")) { error in
            XCTAssertTrue("\(error)".contains("not found"), "\(error)")
        }
    }

    func testWrongInputShapeFailsInRunNotInACrash() throws {
        let runtime = try ONNXTestEnvironment.runtime()
        let path = try TinyONNXModel.write(TinyONNXModel.unary("Relu", dims: [2, 3]), name: "relu-fixed.onnx")
        let session = try runtime.makeSession(modelPath: path)
        // Declared [2,3]; a [3,2] tensor must be refused by ONNX Runtime with a status.
        XCTAssertThrowsError(try session.run(input: [1, 2, 3, 4, 5, 6], shape: [3, 2]) { _ in () }) { error in
            XCTAssertTrue("\(error)".contains("Run failed"), "\(error)")
        }
        // A buffer that does not fill its shape is refused before reaching C.
        XCTAssertThrowsError(try session.run(input: [1, 2, 3], shape: [2, 3]) { _ in () })
        // The session still works afterwards.
        let ok = try session.run(input: [1, -2, 3, -4, 5, -6], shape: [2, 3]) { Array($0.data) }
        XCTAssertEqual(ok, [1, 0, 3, 0, 5, 0])
    }

    func testSharedArenaIsSetUpOnceAndServesSessionsThatShrinkIt() throws {
        let runtime = try ONNXTestEnvironment.runtime()
        let path = try TinyONNXModel.write(TinyONNXModel.unary("Relu", dims: [nil, 3]), name: "relu-shared.onnx")
        // The engine's own choice, so that the order of tests does not matter.
        let configuration = ONNXArenaConfiguration(growth: .sameAsRequested)
        try runtime.useSharedArena(configuration)
        try runtime.useSharedArena(configuration)
        XCTAssertEqual(runtime.sharedArena, configuration)
        XCTAssertThrowsError(try runtime.useSharedArena(ONNXArenaConfiguration(growth: .nextPowerOfTwo))) { error in
            XCTAssertEqual((error as? ScanError)?.code, .engine)
            XCTAssertTrue("\(error)".contains("already set up"), "\(error)")
        }
        let shared = try runtime.makeSession(modelPath: path, options: ONNXSessionOptions(arena: .shared))
        let own = try runtime.makeSession(modelPath: path, options: ONNXSessionOptions(arena: .perSession))
        for shrink in [false, true, false] {
            XCTAssertEqual(try shared.run(input: [-1, 2, -3, 4, 0.5, -0.25], shape: [2, 3], shrinkArena: shrink) { Array($0.data) },
                           [0, 2, 0, 4, 0.5, 0])
            XCTAssertEqual(try own.run(input: [1, -2, 3], shape: [1, 3], shrinkArena: shrink) { Array($0.data) }, [1, 0, 3])
        }
    }
}
