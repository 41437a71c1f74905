import Foundation
import TestSupport
import XCTest
@testable import ScanExport
import ScanModel

/// `JSONText` writes what `JSONEncoder` (sorted keys, slashes unescaped) writes, byte for byte.
final class JSONTextTests: XCTestCase {
    func foundation<T: Encodable>(_ value: T, pretty: Bool) throws -> Data {
        let e = JSONEncoder()
        e.outputFormatting =
            pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return try e.encode(value)
    }

    func assertSame<T: Encodable>(
        _ value: T, _ message: String = "", file: StaticString = #filePath, line: UInt = #line
    ) throws {
        for pretty in [true, false] {
            let want = try foundation(value, pretty: pretty), got = try JSONText.encode(value, pretty: pretty)
            XCTAssertEqual(String(decoding: got, as: UTF8.self), String(decoding: want, as: UTF8.self),
                           "\(message) pretty \(pretty)", file: file, line: line)
        }
    }

    /// Every golden document of the command's tests: OCR pages, a receipt, a card, an invoice.
    func testTheGoldenDocumentsAreWrittenAsJSONEncoderWritesThem() throws {
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../CLITests/Golden")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".json") }
        XCTAssertGreaterThanOrEqual(files.count, 5)
        for f in files {
            // The golden files leave out the engine's version (it changes from machine to machine).
            var json =
                try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent(f)))
                as! [String: Any]
            var engine = json["engine"] as! [String: Any]
            engine["version"] = "1.0"
            json["engine"] = engine
            let doc = try JSONDecoder().decode(Document.self, from: JSONSerialization.data(withJSONObject: json))
            try assertSame(doc, f)
        }
    }

    struct Mixed: Encodable {
        var numbers: [Double]
        var ints: [Int]
        var texts: [String]
        var keyed: [String: Int]
        var empty: [String] = []
        var emptyObject: [String: Int] = [:]
        var nested: [[String: [Int]]]
        var missing: String? = nil
        var flag = true
        var nothing: [Int?] = [nil, 1]
    }

    func testNumbersStringsKeysAndEmptyContainers() throws {
        var random = SeededRandom(seed: 3)
        var numbers: [Double] = [
            0, -0.0, 1, -1, 0.1, 1e-7, 1.5e-300, 123456789012345680000, 1e16, 1e15, 37.20000000000002, 0.631,
            Double.greatestFiniteMagnitude, Double.leastNonzeroMagnitude, 2.5e-5, 100, 1e21, 1e22
        ]
        for _ in 0..<300 {
            let m = Double(Int64.random(in: -1_000_000_000...1_000_000_000, using: &random))
            numbers.append(m / pow(10, Double(Int.random(in: -5...12, using: &random))))
        }
        let texts = ["", "plain", "quote \" and \\ backslash", "slash / kept", "é ß 合計 😀", "\u{7F}\u{80}",
                     String((0..<32).map { Character(Unicode.Scalar(UInt8($0))) }), "\u{2028}\u{2029}"]
        let letters = Array("aAbBzZ_09-é.")
        var keyed: [String: Int] = [:]
        for n in 0..<200 {
            let key = String(
                (0..<Int.random(in: 1...6, using: &random)).map { _ in letters.randomElement(using: &random)! })
            keyed[key] = n
        }
        for k in ["item2", "item10", "Item2", "item02", "textSource", "texts", "e164", "a1b22", "a1b3", "x9", "x10"] {
            keyed[k] = 1
        }
        try assertSame(Mixed(numbers: numbers, ints: [0, -5, Int.max, Int.min], texts: texts, keyed: keyed,
                             nested: [[:], ["a": []], ["b": [1, 2]]]))
    }

    /// A key written twice: the last value stays, where the key sorts.
    struct Twice: Encodable {
        enum K: String, CodingKey { case b, a }
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: K.self)
            try c.encode(1, forKey: .b)
            try c.encode(2, forKey: .a)
            try c.encode("three", forKey: .b)
        }
    }

    func testAKeyWrittenTwiceKeepsItsLastValue() throws {
        try assertSame(Twice())
    }

    func testValuesJSONEncoderWritesItsOwnWayAreRefused() {
        XCTAssertThrowsError(try JSONText.encode([Date()], pretty: true))
        XCTAssertThrowsError(try JSONText.encode(["u": URL(fileURLWithPath: "/tmp")], pretty: true))
        XCTAssertThrowsError(try JSONText.encode([Double.nan], pretty: true))
    }
}
