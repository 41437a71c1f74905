import Foundation
import ScanRecognition

/// What engines and models this machine has, for `scanextract models`.
public enum EngineCatalog {
    public struct Entry: Sendable {
        public var name: String
        /// "available" or why not.
        public var status: String
        public var version: String
        public var models: [String]
    }

    public static func available() -> [Entry] {
        var entries: [Entry] = []
        switch PPOCRModels.locate() {
        case .success(let m):
            let status = EngineKind.preferred() == .ppocr ? "available (default)" : "available"
            entries.append(
                Entry(
                    name: "ppocr", status: status, version: PPOCRModels.runtimePackage,
                    models: m.components.map {
                        "\($0.role)\t\($0.name)\t\($0.version)\tlanguages: \($0.languages)\t\($0.path)\t\($0.license)"
                    }))
        case .failure(let e):
            // (A variable that names PP-OCR's parts keeps it the default engine: each page then fails naming it.)
            let status = EngineKind.preferred() == .ppocr ? "not installed (default): " : "not installed: "
            entries.append(Entry(name: "ppocr", status: status + e.reason, version: "-", models: []))
        }
        let t = TesseractRecognizer.catalogEntry()
        let status = t.status == "available" && EngineKind.preferred() == .tesseract ? "available (default)" : t.status
        entries.append(Entry(name: t.name, status: status, version: t.version, models: t.models))
        return entries
    }
}
