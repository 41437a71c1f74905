import Foundation
import Testing
import ScanModel
@testable import ScanDetectors

/// `Amount.parse`, the token reader the receipt parser asks, and the money detector read numbers with
/// one grammar: the same printed number gives the same value from both. The strings are written for
/// these tests in the styles of several countries.
struct AmountTests {
    /// The letters a digit may be a misreading of are the letters forgiven in numbers, the other way round.
    @Test func letterLookAlikesAreTheDigitLookAlikesTurnedRound() {
        #expect(Amount.letterLookAlikes == ["0": ["O"], "1": ["I", "L"], "5": ["S"], "8": ["B"]])
        for (digit, letters) in Amount.letterLookAlikes {
            for letter in letters {
                // (In its capital or small form: the small l is the 1's look-alike.)
                #expect(
                    [String(letter), letter.lowercased()].contains { Amount.digitsForLookAlikes($0) == String(digit) },
                    "\(letter)")
            }
        }
    }

    /// Every currency's sign glued to its amount: the naira's (`Grand Total ₦73,683.75` was no amount), the lira's, the
    /// shekel's; the dong's in whole units.
    @Test func signsOfMoreCurrencies() {
        for (token, value) in [("₦73,683.75", "73683.75"), ("₺149,90", "149.90"), ("₪42.50", "42.50"),
                               ("৳1,250.00", "1250.00"), ("₨450.00", "450.00")] {
            #expect(Amount.parse(token[...])?.decimalString == value, "\(token)")
        }
        #expect(Amount.parse("45.000₫"[...], wholeUnits: true)?.decimalString == "45000")
    }

    @Test func negativeAmountsAndRefunds() {
        for token in ["-0.25", "0.25-", "(0.25)", "−0.25", "–0.25", "-$0.25", "$-0.25", "-RM0.25", "-€0,25", "0,25-"] {
            #expect(Amount.parse(token[...])?.decimalString == "-0.25", "\(token)")
        }
        #expect(Amount.parse("-12.00")?.decimal == Decimal(string: "-12")!)
        #expect(Amount.parse("(1,234.50)")?.decimalString == "-1234.50")
        #expect(Amount.parse("- 0.25") == nil, "a lone dash before a space is not a sign")
    }

    /// A stop OCR put before a number that has its own decimal separator (a column's edge, or a thin minus) is no
    /// part of it; the number keeps no sign from it. A stop before two digits alone is still cents.
    @Test func aStrayStopBeforeANumberIsDropped() {
        #expect(Amount.parse(".9.62")?.decimalString == "9.62")
        #expect(Amount.parse(".3,73")?.decimalString == "3.73")
        #expect(Amount.parse(".2.250", wholeUnits: true)?.decimalString == "2250")
        #expect(Amount.parse(".17")?.decimalString == "0.17")
        #expect(Amount.parse("$.17")?.decimalString == "0.17")
        #expect(Amount.parse("..9.62") == nil)
    }

    /// A size or a weight with its unit glued on is no amount, in whole units or with decimals; a tax code or a
    /// currency glued on still is.
    @Test func sizesAndWeightsAreNoAmounts() {
        for token in ["500ml", "500ML", "1.50kg", "250gr", "12oz", "330cl", "2,50kg", "6pcs"] {
            #expect(Amount.parse(token[...], wholeUnits: true, bare: true) == nil, "\(token)")
        }
        #expect(Amount.parse("9.00SR")?.decimalString == "9.00")
        #expect(Amount.parse("12,50EUR")?.decimalString == "12.50")
        #expect(Amount.parse("3.20A")?.decimalString == "3.20")
        #expect(Amount.parse("500円"[...], wholeUnits: true, bare: true)?.decimalString == "500")
    }

    /// In whole units, a number of one or two digits is an amount when a currency's sign or unit stands beside it
    /// (`¥54`, `80円`), and stays a count or a code without one (`54`).
    @Test func aSignMakesAShortWholeAmount() {
        for (token, value) in [("¥54", "54"), ("￥54", "54"), ("54円", "54"), ("8元", "8"), ("90원", "90"), ("₩90", "90"),
                               ("￥1,000", "1000")] {
            #expect(Amount.parse(token[...], wholeUnits: true)?.decimalString == value, "\(token)")
        }
        for token in ["54", "054", "¥054", "7"] {
            #expect(Amount.parse(token[...], wholeUnits: true, bare: true) == nil, "\(token)")
        }
    }

    /// What `decimalString` writes reads back as the same amount, whole units included (`25000` rupiah,
    /// which `parse` takes only when told the receipt prints whole units); a printed token does not.
    @Test func aStoredDecimalStringReadsBack() {
        for a in [
            Amount(minor: -25, scale: 2), Amount(minor: 25000, scale: 0), Amount(minor: 1999, scale: 2),
            Amount(minor: 0, scale: 0),
            Amount(minor: 15, scale: 1)
        ] {
            #expect(Amount(decimalString: a.decimalString) == a, "\(a.decimalString)")
        }
        for s in ["", "-", "1,234.50", "$9.99", "9.", ".5", "1.2.3", "12 000", "٣٤"] {
            #expect(Amount(decimalString: s) == nil, "\(s)")
        }
    }

    @Test func thousandsAndDecimalSeparatorsOfSeveralLocales() {
        let rows: [(String, String)] = [
            ("1,234.56", "1234.56"),    // en
            ("1.234,56", "1234.56"),    // de, es, it, nl, id
            ("1 234,56", "1234.56"),    // fr: a space groups thousands
            ("1'234.56", "1234.56"),    // ch
            ("12,50", "12.50"),
            ("€1.234,56", "1234.56"),
            ("1.234,56€", "1234.56"),
            ("CHF 1'234.50", "1234.50"),
            ("RM1,234.50", "1234.50"),
            ("$1,234,567.89", "1234567.89"),
            ("1.234.567,89", "1234567.89"),
            ("121.000.00", "121000.00"),  // decimals after the thousands separator itself, as some tills print
            ("1,04,199.00", "104199.00"),  // India: lakhs in pairs of digits before the last three
            ("₹1,23,45,678.50", "12345678.50"),
        ]
        for (token, value) in rows {
            #expect(Amount.parse(token[...])?.decimalString == value, "\(token)")
        }
    }

    @Test func wholeUnitCurrencies() {
        #expect(Amount.parse("25.000") == nil, "without decimals only where the receipt prints amounts so")
        #expect(Amount.parse("25.000", wholeUnits: true) == Amount(minor: 25000, scale: 0))
        #expect(Amount.parse("Rp116,000", wholeUnits: true)?.decimalString == "116000")
        #expect(Amount.parse("1.234.567", wholeUnits: true)?.decimalString == "1234567")
        #expect(Amount.parse("27500", wholeUnits: true) == nil)
        #expect(Amount.parse("27500", wholeUnits: true, bare: true)?.decimalString == "27500")
        #expect(Amount.parse("012", wholeUnits: true, bare: true) == nil)
        // A free item's price: a lone 0 where amounts are printed in whole units, and only there.
        #expect(Amount.parse("0", wholeUnits: true) == Amount(minor: 0, scale: 0))
        #expect(Amount.parse("Rp0", wholeUnits: true)?.decimalString == "0")
        // A zero that ends a word is a letter O misread, not a free item.
        #expect(Amount.parse("BAKS0", wholeUnits: true) == nil)
        #expect(Amount.parse("KOPI0", wholeUnits: true) == nil)
        #expect(Amount.parse("0") == nil)
        #expect(Amount.parse("00", wholeUnits: true) == nil)
        #expect(Amount.parse("7", wholeUnits: true) == nil)
    }

    /// Many US tills print an amount under one dollar without its leading zero.
    @Test func centsWithoutALeadingZero() throws {
        for (token, value) in [
            (".17", "0.17"), ("$.83", "0.83"), ("-.50", "-0.50"), ("(.25)", "-0.25"), (".00", "0.00"),
            ("RM.50", "0.50"), ("EUR.99", "0.99"), ("-$.05", "-0.05")
        ] {
            #expect(Amount.parse(token[...])?.decimalString == value, "\(token)")
        }
        // A currency abbreviated with a full stop before the amount (`Rp.290.400`, `Rs.150.00`).
        #expect(Amount.parse("Rp.290.400", wholeUnits: true)?.decimalString == "290400")
        #expect(Amount.parse("Rs.150.00")?.decimalString == "150.00")
        #expect(Amount.parse("No.150.00") == nil)
        // A code with a dot in it is no amount.
        for token in ["DPT.05", "NO.12", "RMO.65", "Rp.50", "JPY.50", "¥.50"] {
            #expect(Amount.parse(token[...]) == nil, "\(token)")
        }
        // The detector reads the form only after a currency.
        let detector = try DataDetector(types: [.money])
        for (text, value) in [("Change $.83", "0.83"), ("CHANGE RM .00", "0.00"), ("Refund -$.50", "-0.50"),
                              ("Rp.50", "50")] { // rupiah have no cents: the dotted marker `Rp.`
            #expect(detector.detect(in: text).compactMap(\.value.amount) == [value], "\(text)")
        }
        for text in ["No.12", "v.17", "$.123", "$.1"] { #expect(detector.detect(in: text).isEmpty, "\(text)") }
    }

    @Test func notAmounts() {
        for token in [
            "12/05/2024", "12:30", "15%", "12.5", "0,5", "1.5000", "0123456789", "12.34.56", "1,2345,67", "TOTAL", "",
            ".5", ".175", ".1.2", "..", "$.", ".1a", "1,04,19.00", "1,04,199", "1,04,199,00", "1.04.199,00", "1.04.199"
        ] {
            #expect(Amount.parse(token[...]) == nil, "\(token)")
        }
    }

    @Test func exactDecimalArithmetic() {
        let dime = Amount.parse("0.10")!
        let sum = (0..<10).reduce(Decimal(0)) { total, _ in total + dime.decimal }
        #expect(sum == Decimal(1))
        #expect(Amount.parse("1,99")!.decimal * Decimal(string: "1.5")! == Decimal(string: "2.985")!)
    }

    @Test func theDetectorLeavesAmbiguousSeparatorsAlone() throws {
        // In running text `1.234.56` may be a version or a reference; only a receipt token is read so.
        let hits = try DataDetector(types: [.money]).detect(in: "build 1.234.56").filter { $0.type == .money }
        #expect(hits.allSatisfy { $0.value.amount != "1234.56" })
    }

    /// Every number the detector reports as money on a line reads the same through `Amount.parse`.
    @Test func theDetectorAndTheTokenReaderAgree() throws {
        let detector = try DataDetector(types: [.money])
        let lines = [
            "TOTAL RM 1,234.50", "Summe EUR 1.234,56", "Total TTC 1 234,56 €", "Betrag CHF 1'234.50",
            "Refund -0.25", "Rabatt -1,50", "GRAND TOTAL $12.99", "Jumlah Rp 25.000",
            "Change $.83", "CHANGE RM.00", "Refund -$.50", "Grand Total ₹1,04,199.00", "Total ₹1,00,000",
        ]
        for line in lines {
            let hits = detector.detect(in: line).filter { $0.type == .money }
            #expect(hits.count == 1, "\(line)")
            guard let hit = hits.first, let value = hit.value.amount else { continue }
            let wholeUnits = !value.contains(".")
            #expect(Amount.parse(hit.text[...], wholeUnits: wholeUnits)?.decimalString == value, "\(line): \(hit.text)")
        }
    }
}
