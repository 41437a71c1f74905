import Foundation
import XCTest
@testable import ScanKit
import ScanModel

/// `--word-lists`: the word lists PP-OCR reads its doubtful printed words against.
final class WordListOptionTests: XCTestCase {
    private func tempList(_ words: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("wl-\(UUID().uuidString).txt")
        try words.write(to: url, atomically: true, encoding: .utf8)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url.path
    }

    func testAutoOffAndFilesMakeTheirConfiguration() throws {
        XCTAssertNil(try ScanOptions().makeConfiguration().wordLists, "auto: the standard lists")
        var off = ScanOptions()
        off.wordLists = "off"
        XCTAssertEqual(try off.makeConfiguration().wordLists, [])
        let a = try tempList("hardware\n"), b = try tempList("kedai\n")
        var files = ScanOptions()
        files.wordLists = "\(a),\(b)"
        XCTAssertEqual(try files.makeConfiguration().wordLists, [a, b])
        // A file that can't be read is named.
        files.wordLists = "\(a),/nonexistent/words"
        XCTAssertThrowsError(try files.validate()) { error in
            XCTAssertTrue("\(error)".contains("/nonexistent/words"), "\(error)")
        }
        // Files name a choice only PP-OCR can act on.
        files.wordLists = a
        files.engine = "tesseract"
        XCTAssertThrowsError(try files.validate()) { error in
            XCTAssertTrue("\(error)".contains("ppocr"), "\(error)")
        }
        // The configuration a job record stores keeps the choice.
        var c = ScanConfiguration()
        c.wordLists = [a]
        XCTAssertEqual(try JSONDecoder().decode(ScanConfiguration.self, from: JSONEncoder().encode(c)).wordLists, [a])
        XCTAssertNil(try JSONDecoder().decode(ScanConfiguration.self, from: Data("{}".utf8)).wordLists)
    }

    func testTheServiceTakesAutoOrOffButNoPath() throws {
        XCTAssertEqual(try ScanOptions(query: [("word-lists", "off")]).wordLists, "off")
        XCTAssertEqual(try ScanOptions(query: [("word-lists", "auto")]).wordLists, "auto")
        XCTAssertThrowsError(try ScanOptions(query: [("word-lists", "/etc/passwd")]))
    }

    func testTheListHoldsTheFilesTheLocaleWordsAndTheCustomWords() throws {
        XCTAssertNil(try PrintedWords.corrector(lists: []))
        let file = try tempList("hardware\nsubtotal\n")
        let corrector = try XCTUnwrap(PrintedWords.corrector(lists: [file], extraWords: ["Quixotry"]))
        XCTAssertTrue(corrector.lexicon.contains("HARDWARE"))
        XCTAssertTrue(corrector.lexicon.contains("jalan"), "a street word of the locale files")
        XCTAssertTrue(corrector.lexicon.contains("SDN"), "a legal form of the locale files")
        XCTAssertTrue(corrector.lexicon.contains("quixotry"), "a custom word")
        XCTAssertFalse(corrector.lexicon.contains("hardwake"))
        XCTAssertThrowsError(try PrintedWords.corrector(lists: ["/nonexistent/words"]))
    }

    /// With the standard lists, a page in a language the locale files tell by its words gets back the letters the
    /// recognizer read plain, from that language's installed list (`make deps`); an English page keeps its words.
    func testAPageGetsBackItsLanguagesLettersFromItsOwnList() throws {
        let corrector = try XCTUnwrap(PrintedWords.corrector(lists: nil))
        // (`KSIEGARNIA` too, though the locale file lists that spelling beside `KSIĘGARNIA`, to find it in a name.)
        let polish = ["NASZA KSIEGARNIA", "BULKA 2,49", "PACZEK 3,50", "SUMA PLN 5,99", "GOTOWKA 10,00"]
        XCTAssertEqual(
            corrector.restoredPage(polish),
            ["NASZA KSIĘGARNIA", "BUŁKA 2,49", "PĄCZEK 3,50", "SUMA PLN 5,99", "GOTOWKA 10,00"])
        // The accents PP-OCR reads are not given back: a Spanish word printed without one was printed so.
        XCTAssertNil(corrector.restoredPage(["EL RINCON", "PANADERIA 2,00", "TOTAL A PAGAR 2,00", "EFECTIVO 5,00"]))
        let danish = ["KVITTERING", "P0LSE 29,46", "RUGBROD 18,00", "I ALT 47,46", "HERAF MOMS 9,49", "BYTTEPENGE 2,54"]
        XCTAssertEqual(corrector.restoredPage(danish)?[1...2], ["PØLSE 29,46", "RUGBRØD 18,00"])
        XCTAssertNil(corrector.restoredPage(["CAFE LATTE 4.00", "TOTAL 4.00", "CASH 5.00", "CHANGE 1.00"]))
        // Sweden's list is Latin-1; its words give a Swedish slip its letters, and leave the change's label as read.
        let swedish = ["KVITTO", "SMORGAS 89,00", "ATT BETALA 89,00", "KONTANT 100,00", "Ater 11,00"]
        let restored = try XCTUnwrap(corrector.restoredPage(swedish))
        XCTAssertEqual(restored[1], "SMÖRGÅS 89,00")
        XCTAssertEqual(restored.last, "Ater 11,00")
        // A plain spelling the locale files list beside a marked one is left out of the main list, so that the marked
        // word read plain is doubted and given its letter back; a label's stays (`ATER` beside `ÅTER`, the change):
        // doubted, it would be read again as Swedish's `äter`, and the change lost.
        XCTAssertFalse(corrector.lexicon.contains("KSIEGARNIA"))
        XCTAssertTrue(corrector.lexicon.contains("ATER"))
    }
}
