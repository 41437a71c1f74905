import Foundation
import Testing
@testable import ScanExtraction
import ScanDetectors
import ScanModel

/// The locale files (one a language) and the learned field model that ship as resources.
@Suite struct LexiconTests {
    @Test func everyShippedLocaleParsesWithEveryLabel() throws {
        let folder = ResourceFiles.url("Locales")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }
            .sorted()
        #expect(
            Set(files).isSuperset(of: [
                "en.json", "ms.json", "id.json", "de.json", "fr.json", "es.json", "it.json", "nl.json",
                "pt.json", "pl.json", "sv.json", "da.json", "nb.json"
            ]))
        for file in files {
            let data = try #require(FileManager.default.contents(atPath: folder.appendingPathComponent(file).path))
            let locale = try Lexicon.decode(data, file: file)
            #expect(locale.language + ".json" == file)
            for label in LocaleLexicon.Label.allCases {
                #expect(locale.labels[label.rawValue] != nil, "\(file): \(label)")
            }
            // What every receipt in any language prints: a total and a tax, and legal forms and streets to find the
            // merchant.
            #expect(!locale.words(.total).isEmpty && !locale.words(.tax).isEmpty, "\(file)")
            #expect(!locale.legalForms.isEmpty && !locale.thoroughfares.isEmpty, "\(file)")
            #expect(!locale.numbers.decimal.isEmpty && !locale.dateOrders.isEmpty, "\(file)")
        }
    }

    /// The receipt parser's column headings, summary labels and address abbreviations come from the files, in
    /// every language that lists them, not from the code.
    @Test func theParsersReadTheirWordsFromTheFiles() {
        let lexicon = Lexicon.shared
        for locale in lexicon.locales {
            for w in locale.words(.columnHeading) {
                #expect(ReceiptParser.columnHeaderWords.contains(Text.key(w)), "\(locale.language): \(w)")
            }
            for w in locale.words(.amountHeading) {
                #expect(ReceiptParser.amountHeaderWords.contains(Text.key(w)), "\(locale.language): \(w)")
            }
            for w in locale.words(.serviceCharge) + locale.words(.change) {
                #expect(LineAnalyzer.summaryLabels.isFound(in: Text.key(w)), "\(locale.language): \(w)")
            }
            for w in locale.addressAbbreviations ?? [] {
                #expect(ReceiptParser.longAbbreviations.contains(Text.key(w)))
            }
        }
        #expect(ReceiptParser.addressPunctuation("12 Avda. Central. 28013 Madrid") == "12 Avda. Central, 28013 Madrid")
    }

    @Test func aFileWithoutALabelIsRefusedByName() throws {
        var json =
            try JSONSerialization.jsonObject(
                with: try #require(
                    FileManager.default.contents(
                        atPath: ResourceFiles.url("Locales").appendingPathComponent("en.json").path))) as! [String: Any]
        var labels = json["labels"] as! [String: Any]
        labels["change"] = nil
        json["labels"] = labels
        let data = try JSONSerialization.data(withJSONObject: json)
        #expect(throws: LexiconError.self) { try Lexicon.decode(data, file: "xx.json") }
        do { _ = try Lexicon.decode(data, file: "xx.json") } catch { #expect("\(error)".contains("change")) }
        #expect(throws: LexiconError.self) { try Lexicon.decode(Data("{".utf8), file: "bad.json") }
    }

    @Test func aNewLocaleIsANewFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lexicon-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let shipped = ResourceFiles.url("Locales")
        try FileManager.default.copyItem(
            at: shipped.appendingPathComponent("en.json"), to: folder.appendingPathComponent("en.json"))
        var sv = LocaleLexicon(
            language: "sv", name: "Svenska", labels: [:], headerNoise: ["KVITTO"], legalForms: ["AB"],
            businessTypes: ["BAGERI"], thoroughfares: ["GATAN", "VÄGEN"], addressParts: [], countries: ["SVERIGE"],
            months: [], numbers: .init(decimal: ",", grouping: " "), dateOrders: ["YMD"])
        for label in LocaleLexicon.Label.allCases { sv.labels[label.rawValue] = [] }
        sv.labels["total"] = ["Att betala", "SUMMA"]
        sv.labels["tax"] = ["MOMS"]
        sv.card = .init(mobileLabels: ["Mobilnr."], organizationWords: ["Konsult"], honorifics: ["Fru"])
        try JSONEncoder().encode(sv).write(to: folder.appendingPathComponent("sv.json"))
        let lexicon = try Lexicon.load(directory: folder)
        #expect(lexicon.locales.map(\.language) == ["en", "sv"])
        // Words are kept as the parser compares them: upper case, punctuation and spaces as one space.
        #expect(lexicon.words(.total).contains("ATT BETALA"))
        #expect(lexicon.words(.tax).contains("MOMS") && lexicon.words(.tax).contains("VAT"))
        #expect(lexicon.legalForms.contains("AB"))
        // Card words too: a new language's phone labels and organization words join the others, legal forms included.
        #expect(lexicon.mobileLabels.contains("MOBILNR") && lexicon.mobileLabels.contains("MOBILE"))
        #expect(lexicon.honorifics.contains("FRU") && lexicon.faxLabels.contains("FAX"))
        #expect(
            Text.hasAny("SVENSSON KONSULT", lexicon.organizationWords)
                && Text.hasAny("VOLVO AB", lexicon.organizationWords))
        #expect(!Text.hasAny("ANNA SVENSSON", lexicon.organizationWords))
    }

    /// A label word names something alone: a label of one word, or a word of three letters or more of a longer one.
    /// The short words phrases are built with are any line's words.
    @Test func aLabelPhrasesShortWordsAreNoLabelWords() {
        let lexicon = ReceiptParser.lexicon
        #expect(lexicon.hasLabelWord("TOTAL SALES") && lexicon.hasLabelWord("RM 5") && lexicon.hasLabelWord("QTY"))
        for line in ["PIZZA DE CASA", "DOOR GUARD FOOT AW D48 S", "VITAMIN C", "SET A"] {
            #expect(!lexicon.hasLabelWord(line), "\(line)")
        }
        // A whole phrase is still labels only.
        #expect(lexicon.isLabelOnly("TOTAL TO PAY") && lexicon.isLabelOnly("A PAGAR"))
    }

    @Test func aLineOfRegionAndCountryNamesIsAPlaceOnly() {
        let lexicon = ReceiptParser.lexicon
        for line in [
            "Selangor", "SELANGOR D.E.", "Johor", "MALAYSIA", "Baden-Württemberg", "BADEN-WURTTEMBERG",
            "Ontario, Canada",
            "Negeri Sembilan"
        ] {
            #expect(lexicon.isPlaceOnly(Text.key(line)), "\(line)")
        }
        for line in ["47100 Puchong, Selangor", "Selangor Cafe", "DE", "TEXAS ROADHOUSE", "", "Jalan Johor 5"] {
            #expect(!lexicon.isPlaceOnly(Text.key(line)), "\(line)")
        }
    }

    @Test func theLanguageWhoseOwnWordsALeadsIsTheDocuments() {
        let lexicon = ReceiptParser.lexicon
        let swedish = ["KVITTO", "KASSÖR ANNA", "MJÖLK 12 50", "DELSUMMA 37 50", "MOMS 25 7 50", "ATT BETALA 45 00",
                       "KONTANT 50 00", "VÄXEL 5 00"]
        #expect(lexicon.leadingLocale(of: swedish)?.language == "sv")
        let danish = ["KVITTERING", "EKSPEDIENT ANNA", "MÆLK 12 50", "I ALT 45 00", "HERAF MOMS 9 00", "DANKORT 45 00"]
        #expect(lexicon.leadingLocale(of: danish)?.language == "da")
        // Words many languages share tell none apart.
        #expect(lexicon.leadingLocale(of: ["TOTAL 45 00", "CASH 50 00"]) == nil)
        #expect(lexicon.leadingLocale(of: []) == nil)
    }

    /// The languages a page's receipt words lead in, ties all kept: what tells the letters a recognizer may have read
    /// plain on it.
    @Test func thePagesLeadingLocalesAreTheOnesItsWordsTell() {
        let lexicon = ReceiptParser.lexicon
        func languages(_ lines: [String]) -> [String] {
            lexicon.localesLeading(onThePageOf: lines).map(\.language).sorted()
        }
        // Danish words, every `ø` read as `o`.
        let danish = ["KVITTERING", "SMOR 21,92", "I ALT 45,00", "HERAF MOMS 9,00", "DANKORT 45,00", "BYTTEPENGE 0,00"]
        #expect(languages(danish) == ["da"])
        #expect(Set(lexicon.localesLeading(onThePageOf: danish).first?.letters ?? "") == ["æ", "ø", "å"])
        let swedish = ["KVITTO", "MJOLK 12,50", "ATT BETALA 45,00", "KONTANT 50,00", "VAXEL 5,00"]
        #expect(languages(swedish) == ["sv"])
        // Words English shares with the others lead in all of them; one line of a language's words is too little.
        #expect(languages(["TOTAL 45.00", "CASH 50.00", "CHANGE 5.00"]).contains("en"))
        #expect(languages(["SMOR 21,92", "BYTTEPENGE 0,00"]).isEmpty)
        #expect(languages([]).isEmpty)
    }

    @Test func accentsOCRPutOnPlainWordsComeOffAndRealOnesStay() {
        let lexicon = ReceiptParser.lexicon
        // Words of languages written without accents, read with one: the mark goes, the case stays.
        #expect(lexicon.withoutStrayAccents("TSH POWER HARDWÀRE TRADING") == "TSH POWER HARDWARE TRADING")
        #expect(lexicon.withoutStrayAccents("19 & 19A, JÁLAN MERANTI 2A") == "19 & 19A, JALAN MERANTI 2A")
        #expect(lexicon.withoutStrayAccents("Gerbang Alaf Restäurants Sdn Bhd") == "Gerbang Alaf Restaurants Sdn Bhd")
        // Accents a locale writes, words of accented languages, and unknown words are left as read.
        for kept in [
            "CAFÉ DE FLORE", "Genève", "De Gouden Eetcafé", "Harpet CafeteríaS.A.", "Bäckerei Müller", "Ørsted",
            "São Paulo", "plain text"
        ] {
            #expect(lexicon.withoutStrayAccents(kept) == kept, "\(kept)")
        }
    }

    @Test func anEmptyOrMissingFolderIsAnError() {
        let missing = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)")
        #expect(throws: LexiconError.self) { try Lexicon.load(directory: missing) }
    }

    @Test func placeNamesAreNoKnowledge() {
        let lexicon = Lexicon.shared
        let words = Set(lexicon.thoroughfares + lexicon.addressParts + lexicon.legalForms + lexicon.businessTypes)
        for town in [
            "PUCHONG", "KAJANG", "SELANGOR", "KUALA", "LUMPUR", "KLANG", "PETALING", "JAYA", "JOHOR", "SHAH", "ALAM"
        ] {
            #expect(!words.contains(town), "\(town)")
        }
        #expect(ReceiptParser.streetWords.contains("JALAN") && ReceiptParser.streetWords.contains("STRASSE"))
    }

    @Test func theShippedFieldModelScoresEveryField() throws {
        let model = try ReceiptFieldModel.load(ResourceFiles.url("ReceiptFields.json"))
        for field in ReceiptField.allCases {
            let trees = model.ensemble(field)
            #expect(trees.features == field.featureNames)
            #expect(!trees.trees.isEmpty)
            for t in trees.trees {
                #expect(t.feature.allSatisfy { $0 >= 0 && $0 < trees.features.count })
                #expect(
                    t.left.count == t.feature.count && t.right.count == t.feature.count
                        && t.leaf.count == t.feature.count + 1)
            }
        }
        #expect(model.trainedOn.contains("train.py"))
    }

    @Test func treesSendACandidateLeftAtOrBelowTheThreshold() {
        // x0 <= 0.5 ? (x1 <= 2 ? 1 : 2) : 3
        let tree = TreeEnsemble.Tree(
            feature: [0, 1], threshold: [0.5, 2], left: [1, -1], right: [-3, -2], leaf: [1, 2, 3])
        let e = TreeEnsemble(features: ["a", "b"], trees: [tree, tree])
        #expect(e.score([0.5, 2]) == 2)
        #expect(e.score([0, 3]) == 4)
        #expect(e.score([1, 0]) == 6)
    }
    @Test func labelWordsMisreadInOneLookAlikeLetterAreSpelledAgain() {
        let spelling = LabelSpelling(phrases: ["TOTAL", "CHANGE", "AMOUNT PAYABLE", "ROUNDING ADJ", "SUBTOTAL"])
        #expect(spelling.mended("TOTEL AMT PEYABLE") == "TOTAL AMT PAYABLE")
        #expect(spelling.mended("CHENGE") == "CHANGE")
        #expect(spelling.mended("RCUNDING ADJ") == "ROUNDING ADJ")
        #expect(spelling.mended("SUBTOTAI") == "SUBTOTAL")
        // Not a look-alike, too short, a label already, or two letters off: left alone.
        #expect(spelling.mended("SERVICE CHARGE") == "SERVICE CHARGE")
        #expect(spelling.mended("TOTA") == "TOTA")
        #expect(spelling.mended("TOTAL") == "TOTAL")
        #expect(spelling.mended("HOTEL") == "HOTEL")
        // A label word OCR cut with a space is joined again; label words side by side stay apart.
        #expect(spelling.mended("SUBT OTAL") == "SUBTOTAL")
        #expect(spelling.mended("AMOUNT PAY ABLE") == "AMOUNT PAYABLE")
        #expect(spelling.mended("CHA N GE DUE") == "CHANGE DUE")
        #expect(spelling.mended("TOTAL CHANGE") == "TOTAL CHANGE")
        #expect(spelling.mended("SUB TOTAL") == "SUBTOTAL")   // the same label either way
    }

    @Test func aLabelLineIsKnownWithOrWithoutTheSpacesOfItsPhrase() {
        let lexicon = Lexicon.shared
        let labels = ["TAX INVOICE", "TAXINVOICE", "CASHIER", "GRANDTOTAL", "RECHNUNG", "CASHIERSTAFF"]
        #expect(labels.filter { !lexicon.isLabelOnly($0) } == [])
        // A street is no label, nor a word that only starts with a label word, nor a label word with a name after it.
        let others = ["JOHOR BAHRU", "TAXI", "TAXIS", "TOTALE MARKT", "SUBTOTALS 12", "TABLETOP"]
        #expect(others.filter { lexicon.isLabelOnly($0) } == [])
    }

    @Test func theConfusionTableIsReadBothWaysAndInEitherCase() throws {
        let table = try OCRConfusions(json: Data(#"{"pairs": [{"pair": "IL"}, {"pair": "0O"}]}"#.utf8))
        #expect(table.confusable(Character("l"), Character("I")))
        #expect(table.confusable(Character("O"), Character("0")))
        #expect(!table.confusable(Character("I"), Character("O")))
        #expect(!table.confusable(Character("É"), Character("E")))
        // A table that would let a mend change anything is refused, naming the pair.
        #expect(throws: LexiconError.self) { try OCRConfusions(json: Data(#"{"pairs": [{"pair": "I-"}]}"#.utf8)) }
        #expect(throws: LexiconError.self) { try OCRConfusions(json: Data("[]".utf8)) }
    }

    /// A zero inside a word of letters is the letter O when the table pairs them; codes and numbers keep their zeros,
    /// and a table without the pair changes nothing.
    @Test func aZeroInsideAWordIsReadAsTheLetterO() {
        let table = OCRConfusions(pairs: ["0O"])
        #expect(ReceiptParser.lettersForZerosInName("S0EP BR00DJE Kr0ket", confusions: table) == "SOEP BROODJE Kroket")
        // A zero that opens a word of letters (`0ST` for `OST`), and two in a long word (`SM0RREBR0D`).
        #expect(ReceiptParser.lettersForZerosInName("0ST 0live SM0RREBR0D", confusions: table) == "OST olive SMORREBROD")
        for kept in [
            "G.C0B(333)", "A0B", "B000M", "00ST", "0L", "B0X0", "SHOE0", "MILK 1.00", "A4 100X", "PAPER 80GSM", "0.5L",
        ] {
            #expect(ReceiptParser.lettersForZerosInName(kept, confusions: table) == kept, "\(kept)")
        }
        #expect(ReceiptParser.lettersForZerosInName("S0EP", confusions: OCRConfusions(pairs: ["IL"])) == "S0EP")
    }

    @Test func aLabelWordIsMendedOnlyThroughThePairsItIsGiven() {
        let none = LabelSpelling(phrases: ["TOTAL", "CHANGE"], confusions: OCRConfusions(pairs: []))
        #expect(none.mended("TOTEL") == "TOTEL")
        let ea = LabelSpelling(phrases: ["TOTAL", "CHANGE"], confusions: OCRConfusions(pairs: ["EA"]))
        #expect(ea.mended("TOTEL CHENGE") == "TOTAL CHANGE")
        #expect(ea.mended("CHARGE") == "CHARGE")
    }

    @Test func aMisreadLabelKeepsItsLinesRole() throws {
        let detector = try DataDetector(referenceDate: CalendarDay(year: 2024, month: 1, day: 1))
        let analyzer = LineAnalyzer(detector: detector)
        let lines = analyzer.analyze(Fixture.document(Fixture.page([
            (140, 16, [(20, "Totel"), (90, "Amt"), (140, "Peyable"), (480, "8.50")]),
            (180, 16, [(20, "Chenge"), (480, "91.50")]),
            (220, 16, [(20, "Service"), (90, "Charge"), (480, "1.00")]),
            (260, 16, [(20, "Langevoort"), (140, "&"), (160, "de"), (200, "Korte")]),
        ])))
        #expect(lines.map(\.labelKey) == ["TOTAL AMT PAYABLE", "CHANGE", "SERVICE CHARGE", "LANGEVOORT DE KORTE"])
        #expect(lines[1].role == .change)
        #expect(lines[2].role != .change)
    }
}
