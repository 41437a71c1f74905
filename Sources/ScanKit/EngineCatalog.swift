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
        [TesseractRecognizer.catalogEntry()].map { Entry(name: $0.name, status: $0.status, version: $0.version, models: $0.models) }
    }
}
