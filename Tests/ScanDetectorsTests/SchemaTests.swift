import Foundation
import XCTest
import ScanModel
@testable import ScanDetectors

/// The JSON the detectors write must stay inside `Schemas/entity.schema.json`: every key
/// it writes is one the schema allows, and every key the schema requires is written.
final class SchemaTests: XCTestCase {
    private static let schemas = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Schemas")

    private func loadSchema(_ name: String) throws -> [String: Any] {
        let data = try Data(contentsOf: SchemaTests.schemas.appendingPathComponent(name))
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any], name)
    }

    private func encode(_ e: Entity) throws -> [String: Any] {
        let data = try JSONEncoder().encode(e)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// One entity of every type, each with every value field its detector can set.
    private var samples: [Entity] {
        let r = EntityRange(start: 0, end: 4)
        let box = BoundingBox(x: 10, y: 20, width: 30, height: 8)
        return [
            Entity(
                type: .phone, text: "+44 20 7946 0958 x12", range: r,
                value: EntityValue(e164: "+442079460958", national: "2079460958", region: "GB", extension: "12"),
                page: 0, boundingBox: box),
            Entity(type: .email, text: "a@b.co", range: r, value: EntityValue(address: "a@b.co")),
            Entity(type: .url, text: "b.co", range: r, value: EntityValue(url: "http://b.co")),
            Entity(
                type: .date, text: "03/04/2020", range: r, value: EntityValue(date: "2020-03-04"),
                ambiguous: true, alternatives: ["2020-04-03"], page: 1, boundingBox: box),
            Entity(type: .time, text: "6pm", range: r, value: EntityValue(time: "18:00")),
            Entity(type: .money, text: "RM 5.00", range: r, value: EntityValue(amount: "-5.00", currency: "MYR")),
            Entity(type: .percentage, text: "6%", range: r, value: EntityValue(percent: "6")),
            Entity(
                type: .postalCode, text: "62704", range: r,
                value: EntityValue(region: "IL", postalCode: "62704", country: "US")),
            Entity(
                type: .address, text: "1 Main St", range: r,
                value: EntityValue(
                    region: "IL", postalCode: "62704", street: "1 Main St", city: "Springfield", country: "US")),
            Entity(
                type: .iban, text: "DE89 3704 0044 0532 0130 00", range: r,
                value: EntityValue(country: "DE", iban: "DE89370400440532013000")),
            Entity(
                type: .paymentCard, text: "**** 1234", range: r,
                value: EntityValue(brand: "visa", last4: "1234", masked: true))
        ]
    }

    /// Checks one encoded entity against the schema: top-level keys, range, box, and the
    /// value fields of its type.
    private func check(
        _ json: [String: Any], against schema: [String: Any], file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let props = try XCTUnwrap(schema["properties"] as? [String: Any])
        let required = try XCTUnwrap(schema["required"] as? [String])
        let defs = try XCTUnwrap(schema["$defs"] as? [String: Any])
        let type = try XCTUnwrap(json["type"] as? String, file: file, line: line)
        XCTAssertTrue(
            Set(json.keys).isSubset(of: props.keys), "\(type): keys \(json.keys.sorted()) not all in the schema",
            file: file, line: line)
        XCTAssertTrue(
            Set(required).isSubset(of: json.keys), "\(type): a required key is missing", file: file, line: line)

        let range = try XCTUnwrap(json["range"] as? [String: Any])
        let rangeDef = try XCTUnwrap(defs["range"] as? [String: Any])
        XCTAssertEqual(Set(range.keys), Set(try XCTUnwrap(rangeDef["required"] as? [String])), file: file, line: line)
        if let box = json["boundingBox"] as? [String: Any] {
            let boxDef = try XCTUnwrap(defs["boundingBox"] as? [String: Any])
            XCTAssertEqual(Set(box.keys), Set(try XCTUnwrap(boxDef["required"] as? [String])), file: file, line: line)
        }
        let valueDef = try XCTUnwrap(
            defs["\(type)Value"] as? [String: Any], "no value definition for \(type)", file: file, line: line)
        XCTAssertEqual(valueDef["additionalProperties"] as? Bool, false, file: file, line: line)
        let allowed = Set(try XCTUnwrap(valueDef["properties"] as? [String: Any]).keys)
        let value = try XCTUnwrap(json["value"] as? [String: Any])
        XCTAssertTrue(
            Set(value.keys).isSubset(of: allowed),
            "\(type): value keys \(value.keys.sorted()) not all in \(allowed.sorted())", file: file, line: line)
        let valueRequired = Set(valueDef["required"] as? [String] ?? [])
        XCTAssertTrue(
            valueRequired.isSubset(of: value.keys), "\(type): value lacks one of \(valueRequired.sorted())", file: file,
            line: line)
        // The conditional that ties the type to its value definition must exist.
        let rules = try XCTUnwrap(schema["allOf"] as? [[String: Any]])
        let tied = rules.contains { rule in
            let cond = (rule["if"] as? [String: Any])?["properties"] as? [String: Any]
            let then = (rule["then"] as? [String: Any])?["properties"] as? [String: Any]
            return (cond?["type"] as? [String: Any])?["const"] as? String == type
                && (then?["value"] as? [String: Any])?["$ref"] as? String == "#/$defs/\(type)Value"
        }
        XCTAssertTrue(tied, "\(type): no if/then rule for its value", file: file, line: line)
    }

    func testSchemaHeaderAndTypes() throws {
        let schema = try loadSchema("entity.schema.json")
        XCTAssertEqual(schema["$schema"] as? String, "https://json-schema.org/draft/2020-12/schema")
        XCTAssertEqual(schema["$id"] as? String, "https://scanextract.dev/schemas/3.0.0/entity.schema.json")
        XCTAssertEqual(schema["additionalProperties"] as? Bool, false)
        let typeEnum = try XCTUnwrap(
            ((schema["properties"] as? [String: Any])?["type"] as? [String: Any])?["enum"] as? [String])
        XCTAssertEqual(Set(typeEnum), Set(EntityType.allCases.map(\.rawValue)))
    }

    func testEveryTypeEncodesWithinTheSchema() throws {
        let schema = try loadSchema("entity.schema.json")
        let entities = samples
        XCTAssertEqual(Set(entities.map(\.type)), Set(EntityType.allCases), "a sample per type")
        for e in entities { try check(try encode(e), against: schema) }
    }

    func testEveryValueFieldIsDescribedSomewhere() throws {
        // A value with every field set: each key it writes must belong to some type's value.
        let schema = try loadSchema("entity.schema.json")
        let defs = try XCTUnwrap(schema["$defs"] as? [String: Any])
        var described = Set<String>()
        for t in EntityType.allCases {
            let def = try XCTUnwrap(defs["\(t.rawValue)Value"] as? [String: Any])
            described.formUnion(try XCTUnwrap(def["properties"] as? [String: Any]).keys)
        }
        let full = EntityValue(
            e164: "+1", national: "1", region: "US", extension: "1", address: "a", url: "u", date: "d",
            time: "t", amount: "1", currency: "USD", percent: "1", postalCode: "p", street: "s",
            city: "c", country: "US", iban: "i", brand: "b", last4: "1234", masked: false)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: JSONEncoder().encode(full)) as? [String: Any])
        XCTAssertEqual(json.count, 19)
        XCTAssertEqual(Set(json.keys).subtracting(described), [])
    }

    func testDetectedEntitiesStayWithinTheSchema() throws {
        let schema = try loadSchema("entity.schema.json")
        let text = """
        Corner Deli, 500 Main St
        Springfield, IL 62704
        Tel (217) 555-0100 ext 12 | deli@example.com | www.example.com
        Date 03/04/2024 6:30 pm
        Subtotal $10.00  Tax 6%  Total $10.60
        IBAN DE89 3704 0044 0532 0130 00
        VISA **** **** **** 1234
        """
        let entities = try DataDetector(referenceDate: CalendarDay(year: 2024, month: 6, day: 1)).detect(in: text)
        XCTAssertEqual(Set(entities.map(\.type)), Set(EntityType.allCases), "every type in the sample text")
        for e in entities { try check(try encode(e), against: schema) }
    }

    func testDetectOutputSchema() throws {
        let schema = try loadSchema("detect-output.schema.json")
        XCTAssertEqual(schema["$schema"] as? String, "https://json-schema.org/draft/2020-12/schema")
        XCTAssertEqual(schema["required"] as? [String], ["entities"])
        let entities = try XCTUnwrap((schema["properties"] as? [String: Any])?["entities"] as? [String: Any])
        XCTAssertEqual((entities["items"] as? [String: Any])?["$ref"] as? String, "entity.schema.json")
        // The document schema refers to the same file.
        let document = try String(
            contentsOf: SchemaTests.schemas.appendingPathComponent("document.schema.json"), encoding: .utf8)
        XCTAssertTrue(document.contains("\"entity.schema.json\""))
    }
}
