import Foundation
import TestSupport
import XCTest
@testable import ScanExport
@testable import ScanModel

final class ExportTests: XCTestCase {
    func obs(_ t: String, _ x: Double, _ y: Double) -> TextObservation {
        TextObservation(text: t, confidence: 1, boundingBox: BoundingBox(x: x, y: y, width: 50, height: 20))
    }

    func testReadingOrderJoinsSplitLabelAndAmount() {
        let page = Page(index: 0, width: 500, height: 500, textSource: .ocr,
                        observations: [obs("9.00", 300, 102), obs("Header", 10, 10), obs("TOTAL", 10, 100)])
        XCTAssertEqual(ReadingOrder.lines(of: page), ["Header", "TOTAL   9.00"])
    }

    func testJSONHasSchemaVersionAndIsStable() throws {
        let doc = Document(source: "a.png", engine: EngineInfo(name: "t", version: "1"), pages: [])
        let a = try DocumentWriter.json(doc, pretty: false)
        XCTAssertEqual(a, try DocumentWriter.json(doc, pretty: false))
        let s = String(decoding: a, as: UTF8.self)
        XCTAssertTrue(s.contains("\"schemaVersion\":\"\(Document.currentSchemaVersion)\""))
        XCTAssertEqual(s.filter { $0 == "\n" }.count, 1, "JSON Lines: one line per document")
    }

    func testNamerNeverReusesANameOrAnInputPath() {
        let dir = "/tmp/out"
        var n = OutputNamer(directory: dir, fileExtension: "json", inputs: ["/tmp/out/c.json"])
        XCTAssertEqual(n.path(for: "a/x.png"), "/tmp/out/x.json")
        XCTAssertEqual(n.path(for: "b/x.pdf"), "/tmp/out/x-2.json")
        XCTAssertEqual(n.path(for: "/tmp/out/c.json"), "/tmp/out/c-2.json", "an input is never overwritten")
    }

    func testAtomicWriteLeavesNoTemporaryFiles() throws {
        let dir = Drawing.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try AtomicFile.write(Data("one".utf8), to: dir + "/f.json")
        try AtomicFile.write(Data("two".utf8), to: dir + "/f.json")
        XCTAssertEqual(try String(contentsOfFile: dir + "/f.json", encoding: .utf8), "two")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), ["f.json"])
        XCTAssertThrowsError(try AtomicFile.write(Data(), to: dir + "/missing/f.json")) { e in
            XCTAssertEqual((e as? ScanError)?.code, .output)
        }
    }
}

final class CSVStreamTests: XCTestCase {
    func doc(_ name: String, card: Bool) -> Document {
        var d = Document(source: name, engine: EngineInfo(name: "t", version: "1"), pages: [])
        let p = Provenance(text: "x", page: 0, boundingBox: nil, confidence: 1)
        if card {
            d.businessCard = BusinessCard(name: BusinessCard.Name(full: "Ann \(name)"), phones: [])
        } else {
            var r = Receipt()
            r.items = [Receipt.Item(description: "Tea", amount: "2.00", source: p),
                       Receipt.Item(description: "Cake", amount: "3.50", source: p)]
            r.total = "5.50"
            d.receipt = r
        }
        return d
    }

    func text(_ o: CSVStream.Outcome) -> String? {
        if case .rows(let data, _) = o { return String(decoding: data, as: UTF8.self) }
        return nil
    }

    /// A folder of cards gives one header and a row per card, not a header per card.
    func testOneHeaderForTheWholeRun() throws {
        var stream = CSVStream()
        let first = try XCTUnwrap(text(stream.append(doc("a", card: true))))
        let second = try XCTUnwrap(text(stream.append(doc("b", card: true))))
        let all = (first + second).split(separator: "\r\n", omittingEmptySubsequences: true)
        XCTAssertEqual(all.count, 3)
        XCTAssertEqual(String(all[0]), CSVWriter.cardColumns.joined(separator: ","))
        XCTAssertTrue(all[1].hasPrefix("a,Ann a"))
        XCTAssertTrue(all[2].hasPrefix("b,Ann b"))
        XCTAssertFalse(second.contains("full_name"))
        // The count is the document's rows, the header not among them: a receipt of two items, the first of its run.
        var receipts = CSVStream()
        guard case .rows(let data, let count) = receipts.append(doc("r", card: false)) else {
            return XCTFail("a receipt gave no rows")
        }
        XCTAssertEqual(count, 2)
        XCTAssertEqual(String(decoding: data, as: UTF8.self).split(separator: "\r\n").count, 3)
    }

    /// An item's modifiers share one cell, and its article number is the last column, with the receipt's columns in
    /// their places.
    func testAnItemsModifiersShareOneCellAndItsCodeEndsTheRow() throws {
        var d = doc("r", card: false)
        d.receipt?.items[0].modifiers = ["No sugar", "Oat milk, hot"]
        d.receipt?.items[0].code = "4006381333931"
        let rows = CSVWriter.rows(d)
        XCTAssertEqual(rows.map(\.count), [CSVWriter.receiptColumns.count, CSVWriter.receiptColumns.count])
        let column = try XCTUnwrap(CSVWriter.receiptColumns.firstIndex(of: "item_modifiers"))
        XCTAssertEqual(rows.map { $0[column] }, ["No sugar; Oat milk, hot", ""])
        XCTAssertEqual(CSVWriter.receiptColumns.suffix(4), ["item_code", "rounding", "item_kind", "fees"])
        XCTAssertEqual(rows.map { $0[$0.count - 4] }, ["4006381333931", ""])
        XCTAssertTrue(
            String(decoding: CSVWriter.csv(d), as: UTF8.self).contains(
                ",\"No sugar; Oat milk, hot\",4006381333931,,article,\r\n"))
    }

    /// A discount line is a row of its own, marked in the last column, so the amounts of a receipt's rows add up
    /// to what its items cost; the article it takes off still names it in `item_discount`.
    func testADiscountLineIsARowOfItsOwn() throws {
        var d = doc("r", card: false)
        let p = Provenance(text: "Member Discount -0.50", page: 0, boundingBox: nil, confidence: 1)
        d.receipt?.items[0].discount = "-0.50"
        d.receipt?.items.insert(
            Receipt.Item(description: "Member Discount", amount: "-0.50", kind: .discount, source: p), at: 1)
        d.receipt?.discounts = "-0.50"
        let rows = CSVWriter.rows(d)
        let col = { (name: String) in try XCTUnwrap(CSVWriter.receiptColumns.firstIndex(of: name)) }
        XCTAssertEqual(try rows.map { $0[try col("item_kind")] }, ["article", "discount", "article"])
        XCTAssertEqual(try rows.map { $0[try col("description")] }, ["Tea", "Member Discount", "Cake"])
        XCTAssertEqual(try rows.map { $0[try col("item_discount")] }, ["-0.50", "", ""])
        let sum = try rows.compactMap { Decimal(string: $0[try col("amount")]) }.reduce(0, +)
        XCTAssertEqual(sum, Decimal(string: "5.00"))
        // A receipt without items keeps its one row, with every column.
        var none = doc("n", card: false)
        none.receipt?.items = []
        XCTAssertEqual(CSVWriter.rows(none).map(\.count), [CSVWriter.receiptColumns.count])
    }

    /// A line end inside a field is quoted whatever its form; `\r\n` is one Swift `Character`, so it is looked for
    /// among the scalars.
    func testAFieldWithALineEndIsQuoted() {
        for text in ["Milk\r\n2%", "Milk\n2%", "Milk\r2%", "a,b", "say \"hi\""] {
            XCTAssertEqual(CSVWriter.field(text).first, "\"", text.debugDescription)
        }
        XCTAssertEqual(CSVWriter.field("Milk\r\n2%"), "\"Milk\r\n2%\"")
        XCTAssertEqual(CSVWriter.field("Milk 2%"), "Milk 2%")
    }

    /// A field a spreadsheet would run as a formula (a client's file name, a printed line) is shown as text; a
    /// phone, an amount or a date as printed keeps its sign.
    func testAFormulaIsDefusedAndANumberKeepsItsSign() {
        XCTAssertEqual(CSVWriter.field("=HYPERLINK(\"http://x\")"), "\"'=HYPERLINK(\"\"http://x\"\")\"")
        XCTAssertEqual(CSVWriter.field("@SUM(A1)"), "'@SUM(A1)")
        XCTAssertEqual(CSVWriter.field("-2+3+cmd|' /C calc'!A0"), "'-2+3+cmd|' /C calc'!A0")
        XCTAssertEqual(CSVWriter.field("+A1"), "'+A1")
        XCTAssertEqual(CSVWriter.field("\t=1"), "'\t=1")
        XCTAssertEqual(CSVWriter.field("+1 ext(A1)"), "'+1 ext(A1)")
        XCTAssertEqual(CSVWriter.field("+1 x42; +2+cmd|x"), "'+1 x42; +2+cmd|x")
        for plain in [
            "+49 (0)30 1234-56", "-1.50", "-1,50", "+1 555 0100", "2026-12-06", "Milk", "+12125550187 ext. 42",
            "+44 20 7946 0958; +44 7700 900123", "+33 1 23 45 67 89 x204",
        ] {
            XCTAssertEqual(CSVWriter.field(plain), plain.contains(",") ? "\"\(plain)\"" : plain)
        }
        let csv = String(decoding: CSVWriter.csv(doc("=cmd|x.png", card: true)), as: UTF8.self)
        XCTAssertTrue(csv.contains("\r\n'=cmd|x.png,"), csv)
    }

    /// The tax and fee columns add amounts up and keep their decimals, as the other amount columns print them.
    func testTaxesAndFeesAddedUpKeepTheirDecimals() throws {
        var d = doc("r", card: false)
        let p = Provenance(text: "", page: 0, boundingBox: nil, confidence: 1)
        d.receipt?.tax = [Receipt.Tax(amount: "0.20", source: p), Receipt.Tax(amount: "0.60", source: p)]
        d.receipt?.fees = [Receipt.Fee(description: "Delivery", amount: "3.90", source: p),
                           Receipt.Fee(description: "Service", amount: "1.10", source: p)]
        let row = try XCTUnwrap(CSVWriter.rows(d).first)
        let col = { (name: String) in try XCTUnwrap(CSVWriter.receiptColumns.firstIndex(of: name)) }
        XCTAssertEqual(row[try col("tax")], "0.80")
        XCTAssertEqual(row[try col("fees")], "5.00")
        d.receipt?.tax = [Receipt.Tax(amount: "0.00", source: p)]
        d.receipt?.fees = nil
        let zero = try XCTUnwrap(CSVWriter.rows(d).first)
        XCTAssertEqual(zero[try col("tax")], "0.00")
        XCTAssertEqual(zero[try col("fees")], "")
        XCTAssertEqual(CSVWriter.sum(["1500", "-0.125", "2.5"]), "1502.375")
        XCTAssertEqual(CSVWriter.sum(["-1.10", "0.10"]), "-1.00")
    }

    func testADocumentOfTheOtherTableIsLeftOutAndSaid() {
        var stream = CSVStream()
        let rows = text(stream.append(doc("r", card: false)))
        XCTAssertEqual(rows?.split(separator: "\r\n").count, 3, "header and two items")
        guard case .otherTable(.contacts) = stream.append(doc("c", card: true)) else {
            return XCTFail("a card in a receipts CSV")
        }
        let other = Document(source: "o", engine: EngineInfo(name: "t", version: "1"), pages: [])
        guard case .nothing = stream.append(other) else { return XCTFail("neither kind") }
    }
}
