import Foundation
import Testing
import TestSupport
@testable import ScanExtraction

/// The indexed phrase matcher answers exactly as the plain scan it replaces.
@Suite struct TextMatchingTests {
    @Test func aPhraseSetFindsWhatTheScanFinds() {
        var random = SeededRandom(seed: 7)
        // Words that share first letters, last letters and lengths, so the filter's slots collide.
        let vocabulary = [
            "TOTAL", "TOTAL DUE", "SUB", "SUB TOTAL", "SUBTOTAL", "TAX", "TAXE", "GST", "GST ID", "T", "TT",
            "DUE", "AMOUNT DUE", "CASH", "CHANGE", "STRASSE", "ÉTÉ", "合計", "TOTAL ", "A B C"
        ]
        let keyWords = [
            "TOTAL", "DUE", "SUB", "SUBTOTAL", "TAX", "TAXES", "GST", "ID", "T", "TT", "AMOUNT", "CASH", "CHANGE",
            "STRASSE", "ÉTÉ", "合計", "A", "B", "C", "12", "X"
        ]
        var checked = 0, found = 0
        for _ in 0..<400 {
            let phrases = (0..<Int.random(in: 1...6, using: &random)).map { _ in
                vocabulary.randomElement(using: &random)!
            }
            let set = PhraseSet(phrases)
            #expect(Array(set) == phrases)
            for _ in 0..<20 {
                let key = (0..<Int.random(in: 0...6, using: &random)).map { _ in keyWords.randomElement(using: &random)!
                }
                .joined(separator: " ")
                let expected = Text.hasAny(key, phrases)
                #expect(Text.hasAny(key, set) == expected, "\(key) in \(phrases)")
                checked += 1
                if expected { found += 1 }
            }
        }
        // Both answers occur often enough for the comparison to mean something.
        #expect(found > checked / 10 && found < checked * 9 / 10)
        #expect(!PhraseSet([]).isFound(in: "TOTAL"))
        #expect(!PhraseSet([""]).isFound(in: ""))
    }

    /// Words of scripts written without spaces are found inside a run of their script, as the scan finds them; a
    /// one-letter word still stands alone, and Latin words never match inside a word.
    @Test func aPhraseOfAnUnspacedScriptIsFoundInsideAWord() {
        let taxes = ["消費税等", "税", "부가세", "세액", "TAX", "현금"]
        let set = PhraseSet(taxes)
        for key in ["内消費税等 8%", "(内消費税等", "消費税等", "부가세액", "税", "합계 부가세", "消費税等（8%）"] {
            #expect(set.isFound(in: key) && Text.hasAny(key, taxes), "\(key)")
        }
        // A phrase at the start of a longer word is another word: the head of these compounds comes last.
        for key in ["税込", "消費", "SALESTAX", "TAXES", "内税", "현금영수증 123456789", "消費税等額"] {
            #expect(!set.isFound(in: key) && !Text.hasAny(key, taxes), "\(key)")
        }
        // A receipt justifies a short label with spaces between its letters: they are no word breaks there.
        #expect(PhraseSet(["小計"]).isFound(in: "小 計") && Text.hasAny("小 計", ["小計"]))
        #expect(PhraseSet(["합계"]).isFound(in: "합 계") && PhraseSet(["合計金額"]).isFound(in: "合 計金額"))
        #expect(!PhraseSet(["금영수"]).isFound(in: "현금 영수증"))
        #expect(!PhraseSet(["TOTAL"]).isFound(in: "TO TAL"))
        #expect(!PhraseSet(["合計"]).begins("合計点数 4"))
        #expect(PhraseSet(["合計"]).begins("合計 ¥500"))
        #expect(!PhraseSet(["合計"]).begins("お買上合計"))
        #expect(PhraseSet(["合計"]).isFound(in: "お買上合計"))
    }

    @Test func aPhraseSetKnowsAKeyThatBeginsWithAPhrase() {
        let forms = PhraseSet(["SDN BHD", "SDN", "CO", "GMBH CO KG"])
        #expect(forms.begins("CO M SDN BHD"))
        #expect(forms.begins("SDN BHD"))
        #expect(forms.begins("GMBH CO KG"))
        #expect(forms.begins("CO"))
        // Whole words at the start only.
        #expect(!forms.begins("COFFEE BEAN"))
        #expect(!forms.begins("POPULAR BOOK CO M SDN BHD"))
        #expect(!forms.begins("GMBH CO"))
        #expect(!forms.begins(""))
        #expect(!PhraseSet([]).begins("CO"))
        // The same answer as asking whether a phrase is the key or its first words.
        var random = SeededRandom(seed: 11)
        let words = ["SDN", "BHD", "CO", "GMBH", "KG", "X"]
        for _ in 0..<500 {
            let key = (0..<Int.random(in: 1...4, using: &random)).map { _ in words.randomElement(using: &random)! }
                .joined(separator: " ")
            let expected = forms.contains { key == $0 || key.hasPrefix($0 + " ") }
            #expect(forms.begins(key) == expected, "\(key)")
        }
    }

    @Test func aLabelGluedToOneDigitIsSplit() {
        #expect(ReceiptParser.splittingGluedNumbers("TAX1") == "TAX 1")
        // Any locale's one-word tax or total label (`MWST` of de.json, `TOTAAL` of nl.json).
        #expect(ReceiptParser.splittingGluedNumbers("MWST1 TOTAAL2") == "MWST 1 TOTAAL 2")
        #expect(ReceiptParser.splittingGluedNumbers("SUB TOTAL2 GST3") == "SUB TOTAL 2 GST 3")
        // Two digits, another word, a digit first: left as they are.
        #expect(ReceiptParser.splittingGluedNumbers("TAX12") == "TAX12")
        #expect(ReceiptParser.splittingGluedNumbers("XTAX1") == "XTAX1")
        #expect(ReceiptParser.splittingGluedNumbers("1TAX") == "1TAX")
        #expect(ReceiptParser.role("TAX1") == .tax)
    }

    @Test func containsComparesBytes() {
        #expect(Text.contains("TOTAL INCLUSIVE GST", "NCLUSIVE"))
        #expect(Text.contains("ABC", ""))
        #expect(!Text.contains("NCL", "NCL "))
        #expect(Text.contains("ÉTÉ 合計", "合計"))
    }

    /// `ends` answers as a hasSuffix over every phrase, whatever the phrases' lengths and the key's words.
    @Test func aPhraseSetKnowsAKeyThatEndsWithAPhrase() {
        var random = SeededRandom(seed: 11)
        let forms = PhraseSet(["SDN BHD", "BHD", "S B", "GMBH", "CO KG", "GMBH CO KG", "SP Z O O", "株式会社"])
        let words = ["SDN", "BHD", "S", "B", "GMBH", "CO", "KG", "SP", "Z", "O", "ACME", "12", "株式会社"]
        var found = 0
        for _ in 0..<600 {
            let key = (0..<Int.random(in: 0...5, using: &random)).map { _ in words.randomElement(using: &random)! }
                .joined(separator: " ")
            for least in 1...3 {
                let expected = forms.contains { key.hasSuffix(" " + $0) && $0.split(separator: " ").count >= least }
                #expect(forms.ends(key, minWords: least) == expected, "\(key) \(least)")
                if expected { found += 1 }
            }
        }
        #expect(found > 100)
        #expect(!PhraseSet([]).ends("ACME BHD"))
        #expect(!forms.ends("BHD") && forms.ends("SDN BHD"), "a form alone ends no name; the form of a form does")
    }

    /// The byte paths for ASCII text give what the Unicode paths give.
    @Test func asciiTextIsKeyedAndCountedAsUnicodeTextIs() {
        var random = SeededRandom(seed: 12)
        let pieces = [
            "a", "Z", "m", "0", "9", " ", "  ", ".", "-", "\t", "\r\n", "\n", "(", ")", "_", "~", "@", "[", "`", "{"
        ]
        func plainKey(_ s: String) -> String {
            var out = "", space = true
            for c in s.uppercased() {
                if c.isLetter || c.isNumber {
                    out.append(c); space = false
                } else if !space {
                    out.append(" "); space = true
                }
            }
            if out.hasSuffix(" ") { out.removeLast() }
            return out
        }
        for _ in 0..<500 {
            let s = (0..<Int.random(in: 0...12, using: &random)).map { _ in pieces.randomElement(using: &random)! }
                .joined()
            #expect(Text.key(s) == plainKey(s), "\(s.debugDescription)")
            #expect(Text.letterCount(s) == s.filter(\.isLetter).count)
            #expect(Text.digitCount(s) == s.filter(\.isNumber).count)
            #expect(
                Text.clean(s)
                    == s.trimmingCharacters(
                        in: CharacterSet.whitespaces.union(CharacterSet(charactersIn: "|:;_~=*•·«»＊※"))))
            for c in s { #expect(Text.isLetter(c) == c.isLetter && Text.isNumber(c) == c.isNumber) }
        }
        #expect(Text.key("Straße 12, Köln") == "STRASSE 12 KÖLN")
        #expect(Text.letterCount("Köln ٣") == 4 && Text.digitCount("Köln ٣٤") == 2)
    }

    /// The cheap tests that run before two regular expressions never say no where the expression finds something.
    @Test func theTestsBeforeTheExpressionsLetEveryMatchThrough() {
        var random = SeededRandom(seed: 21)
        let pieces = [
            "(", ")", "CO. REG", "ROC", "GST", ":", "123", "45678", "9", "U", "k", "-", "·", ".", " ", "\n", "ACME",
            "SDN BHD"
        ]
        let masked = ["X", "*", "•", "#", "x", " ", "-", "4321", "12", "A"]
        var registrations = 0, cards = 0
        for _ in 0..<3000 {
            let s = (0..<Int.random(in: 1...7, using: &random)).map { _ in pieces.randomElement(using: &random)! }
                .joined()
            if Text.range(s, ReceiptParser.registrationSuffix, caseInsensitive: true) != nil {
                registrations += 1
                #expect(ReceiptParser.mayEndWithRegistration(s), "\(s.debugDescription)")
            }
            let m = (0..<Int.random(in: 1...7, using: &random)).map { _ in masked.randomElement(using: &random)! }
                .joined()
            if Text.range(m, #"(?:[X*•#]{2,}[\s\-]?){1,3}(\d{4})\b"#) != nil {
                cards += 1
                #expect(ReceiptParser.holdsMaskedDigits(m), "\(m.debugDescription)")
            }
        }
        #expect(registrations > 100 && cards > 50)
        #expect(!ReceiptParser.mayEndWithRegistration("TRIPLE SIX POINT ENTERPRISE 66"))
        #expect(!ReceiptParser.holdsMaskedDigits("X1234 *5"))
    }
}
