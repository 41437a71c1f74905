import Foundation
import ScanModel
import XCTest
@testable import ONNXRuntime
@testable import ScanRecognition

final class ONNXRuntimeTests: XCTestCase {
    /// The tiny models and fake libraries a test wrote to the temporary folder go with it.
    override func tearDown() {
        let dir = FileManager.default.temporaryDirectory
        let prefix = "scanextract-\(getpid())-"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? [] where name.hasPrefix(prefix)
        {
            try? FileManager.default.removeItem(at: dir.appendingPathComponent(name))
        }
        super.tearDown()
    }

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
        let path = try TinyONNXModel.write(
            TinyONNXModel.unary("Relu", dims: [nil, 3], metadata: [("character", "a\nb\nc")]),
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

    func testDenormalsAreZeroInsideARunOnly() throws {
        let runtime = try ONNXTestEnvironment.runtime()
        let path = try TinyONNXModel.write(TinyONNXModel.unary("Sqrt", dims: [nil]), name: "sqrt.onnx")
        let tiny = Float(bitPattern: 0x0000_0400)  // about 1.4e-42, a denormal
        XCTAssertTrue(tiny.isSubnormal)
        func sqrt(flushing: Bool) throws -> [Float] {
            var options = ONNXSessionOptions()
            options.flushDenormals = flushing
            let session = try runtime.makeSession(modelPath: path, options: options)
            return try session.run(input: [tiny, 4], shape: [2]) { Array($0.data) }
        }
        let kept = try sqrt(flushing: false)
        XCTAssertEqual(kept[1], 2)
        XCTAssertEqual(Double(kept[0]), Double(tiny).squareRoot(), accuracy: 1e-24, "IEEE: the denormal is read")
        XCTAssertEqual(try sqrt(flushing: true), [0, 2], "the run read the denormal as zero")
        // The caller's own arithmetic is IEEE again after the run.
        let half = [Float(0.5)]
        XCTAssertTrue((tiny * half[0]).isSubnormal, "the thread still keeps denormals outside the run")
    }

    func testOptimizedGraphIsWrittenOnceAndLoadedAfter() throws {
        let runtime = try ONNXTestEnvironment.runtime()
        let path = try TinyONNXModel.write(TinyONNXModel.unary("Relu", dims: [nil, 3]), name: "relu-cached.onnx")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("scanextract-cache-\(getpid())").path
        try? FileManager.default.removeItem(atPath: folder)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var options = ONNXSessionOptions()
        options.optimizedModelCache = folder
        func relu(_ session: ONNXSession) throws -> [Float] {
            try session.run(input: [-1, 2, -3, 4, 0.5, -0.25], shape: [2, 3]) { Array($0.data) }
        }

        let first = try runtime.makeSession(modelPath: path, options: options)
        XCTAssertEqual(first.loadedFrom, path)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder)
        XCTAssertEqual(files.count, 1, "one copy, and no half-written file left: \(files)")
        let copy = (folder as NSString).appendingPathComponent(files[0])
        XCTAssertTrue(files[0].contains("relu-cached-") && files[0].contains("-ort\(runtime.version)-"), files[0])

        let second = try runtime.makeSession(modelPath: path, options: options)
        XCTAssertEqual(second.loadedFrom, copy)
        XCTAssertEqual(try relu(second), try relu(first))
        XCTAssertEqual(try relu(second), [0, 2, 0, 4, 0.5, 0])

        // A damaged copy is not used: the model is optimized again and the copy replaced.
        try Data("not a model".utf8).write(to: URL(fileURLWithPath: copy))
        let third = try runtime.makeSession(modelPath: path, options: options)
        XCTAssertEqual(third.loadedFrom, path)
        XCTAssertEqual(try relu(third), [0, 2, 0, 4, 0.5, 0])
        XCTAssertEqual(try runtime.makeSession(modelPath: path, options: options).loadedFrom, copy)

        // A changed model file gets a copy of its own, also when it is reached through a link,
        // which replaces the old one; so does a half-written copy left behind long ago.
        let link = path + ".link.onnx"
        try? FileManager.default.removeItem(atPath: link)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
        defer { try? FileManager.default.removeItem(atPath: link) }
        XCTAssertEqual(try runtime.makeSession(modelPath: link, options: options).loadedFrom, copy)
        try TinyONNXModel.unary("Abs", dims: [nil, 3]).write(to: URL(fileURLWithPath: path))
        let changed = try runtime.makeSession(modelPath: link, options: options)
        XCTAssertEqual(changed.loadedFrom, link)
        XCTAssertEqual(try relu(changed), [1, 2, 3, 4, 0.5, 0.25], "the new model, not the old copy")
        let renewed = try FileManager.default.contentsOfDirectory(atPath: folder)
        XCTAssertEqual(renewed.count, 1, "\(renewed)")
        XCTAssertNotEqual(renewed.first, files[0])
        let abandoned = (folder as NSString).appendingPathComponent(renewed[0] + ".4242.7.tmp")
        let writing = (folder as NSString).appendingPathComponent(renewed[0] + ".4243.8.tmp")
        let otherModel = (folder as NSString).appendingPathComponent("det-0123-ort1.0-4567.onnx")
        for file in [abandoned, writing, otherModel] { try Data("x".utf8).write(to: URL(fileURLWithPath: file)) }
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: abandoned)
        try TinyONNXModel.unary("Neg", dims: [nil, 3]).write(to: URL(fileURLWithPath: path))
        XCTAssertEqual(try relu(try runtime.makeSession(modelPath: path, options: options)), [1, -2, 3, -4, -0.5, 0.25])
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: folder))
        XCTAssertEqual(left.count, 3, "the new copy, a file still being written, another model's copy: \(left)")
        XCTAssertTrue(left.contains((writing as NSString).lastPathComponent))
        XCTAssertTrue(left.contains((otherModel as NSString).lastPathComponent))

        // A folder that cannot be made: sessions still start, uncached.
        var unwritable = ONNXSessionOptions()
        unwritable.optimizedModelCache = "/proc/scanextract-no-such-folder"
        XCTAssertEqual(try runtime.makeSession(modelPath: path, options: unwritable).loadedFrom, path)
    }

    func testCacheFolderAndKeys() {
        XCTAssertEqual(OptimizedModelCache.folder(environment: ["SCANEXTRACT_ONNX_CACHE": "/c", "HOME": "/h"]), "/c")
        XCTAssertNil(OptimizedModelCache.folder(environment: ["SCANEXTRACT_ONNX_CACHE": "off", "HOME": "/h"]))
        XCTAssertNil(OptimizedModelCache.folder(environment: ["SCANEXTRACT_ONNX_CACHE": "", "HOME": "/h"]))
        XCTAssertEqual(
            OptimizedModelCache.folder(environment: ["XDG_CACHE_HOME": "/x", "HOME": "/h"]), "/x/scanextract/onnx")
        XCTAssertEqual(OptimizedModelCache.folder(environment: ["HOME": "/h"]), "/h/.cache/scanextract/onnx")
        XCTAssertNil(OptimizedModelCache.folder(environment: [:]))

        func name(_ path: String = "/m/det.onnx", _ identity: String = "1:2:10:1.0:1.0", _ version: String = "1.31.1",
                  _ machine: String = "a") -> String {
            OptimizedModelCache.fileName(modelPath: path, identity: identity, runtimeVersion: version, machine: machine)
        }
        XCTAssertTrue(name().hasPrefix("det-") && name().contains("-ort1.31.1-") && name().hasSuffix(".onnx"), name())
        func slot(_ fileName: String) -> Substring { fileName[..<fileName.range(of: "-ort")!.lowerBound] }
        XCTAssertEqual(
            slot(name("/m/det.onnx", "1:2:11:1.0:1.0", "1.32.0")), slot(name()), "the same model path and CPU")
        XCTAssertNotEqual(slot(name("/n/det.onnx")), slot(name()))
        XCTAssertNotEqual(slot(name("/m/det.onnx", "1:2:10:1.0:1.0", "1.31.1", "b")), slot(name()))
        for other in [
            name("/n/det.onnx"), name("/m/det.onnx", "1:2:11:1.0:1.0"), name("/m/det.onnx", "1:2:10:1.0:2.0"),
            name("/m/det.onnx", "1:2:10:1.0:1.0", "1.32.0"), name("/m/det.onnx", "1:2:10:1.0:1.0", "1.31.1", "b")
        ] {
            XCTAssertNotEqual(other, name())
        }
        let cpu =
            "processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Xeon\nflags\t\t: avx2 avx512_vnni\nbogomips\t: 4000\n"
            + "processor\t: 1\nvendor_id\t: GenuineIntel\nmodel name\t: Xeon\nflags\t\t: avx2 avx512_vnni\nbogomips\t: 4001\n"
        XCTAssertEqual(
            OptimizedModelCache.machine(cpuinfo: cpu), "flags=avx2 avx512_vnni;model name=Xeon;vendor_id=GenuineIntel")
        let arm = "processor\t: 0\nFeatures\t: fp asimd sve\nCPU implementer\t: 0x41\nCPU part\t: 0xd0c\n"
        XCTAssertEqual(
            OptimizedModelCache.machine(cpuinfo: arm), "CPU implementer=0x41;CPU part=0xd0c;Features=fp asimd sve")
        XCTAssertNotEqual(OptimizedModelCache.machine(cpuinfo: cpu.replacingOccurrences(of: " avx512_vnni", with: "")),
                          OptimizedModelCache.machine(cpuinfo: cpu))
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
            XCTAssertEqual(
                try shared.run(input: [-1, 2, -3, 4, 0.5, -0.25], shape: [2, 3], shrinkArena: shrink) {
                    Array($0.data)
                },
                [0, 2, 0, 4, 0.5, 0])
            XCTAssertEqual(
                try own.run(input: [1, -2, 3], shape: [1, 3], shrinkArena: shrink) { Array($0.data) }, [1, 0, 3])
        }
    }
}
