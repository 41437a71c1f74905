import Foundation
import ScanDetectors
import ScanLayout
import ScanModel

// One line read as an item: its count, unit price, weight, article code and description, and the shapes of
// its words (counts, sizes, units) that the other item stages ask about.
extension ReceiptParser {
    /// Whether a line opens with a locale's option opener followed by a word of letters (`NO onion`, `HOLD THE mayo`;
    /// not `NO 5`).
    static func opensWithOption(_ l: AnalyzedLine) -> Bool {
        let words = l.key.split(separator: " ")
        for n in 1...2 where words.count > n {
            if lexicon.optionOpeners.contains(words[0..<n].joined(separator: " ")),
                Text.letterCount(String(words[n])) >= 2
            {
                return true
            }
        }
        return false
    }

    /// The article code a line opens with, if it does: four digits or more (`4006381 2 1.20  2.40`), or a word of
    /// three or more letters, digits and dashes, two digits or more, at least half of it digits or one to three letters
    /// before the digits, one letter other than a times sign (`FG-A00019 1.50  1.50 SR`, `D15 8.90  8.90`, a menu's
    /// `BEN02`; not the counts `100` or `12x`, nor `100PLUS` or `MEAL10`).
    static func leadingArticleCode(_ l: AnalyzedLine) -> Substring? {
        guard let w = l.text.split(separator: " ").first, w.count >= 3,
            w.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") })
        else { return nil }
        let digits = w.filter(\.isNumber).count
        if digits == w.count { return digits >= 4 ? w : nil }
        // One to three letters, then the digits: a menu's code (`BEN02`), not a product's name (`MEAL10`, `COKE330`).
        let menuCode = w.prefix { $0.isLetter }.count <= 3 && w.drop { $0.isLetter }.allSatisfy(\.isNumber)
        return digits >= 2 && (2 * digits >= w.count || menuCode)
            && w.contains(where: { $0.isLetter && !"xX".contains($0) }) ? w : nil
    }

    /// A printed quantity as a decimal string: `1,500` and `1.500` before a weight unit are
    /// one and a half (`1.5`), `2` is `2`.
    static func quantityString(_ s: Substring) -> String? {
        let t = s.replacingOccurrences(of: ",", with: ".")
        guard !t.isEmpty, t.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
            t.filter({ $0 == "." }).count <= 1,
            let d = Decimal(string: t, locale: Locale(identifier: "en_US_POSIX"))
        else { return nil }
        return NSDecimalNumber(decimal: d).stringValue
    }

    static let weightUnits = "kg|g|lb|lbs|oz|l|lt|ltr"
    /// `1,500 kg x 1,99 EUR/kg`, `0.456 lb @ $2.99/lb`, `1,5kg * 2,49 €/kg`, `0,840 kg  1,99 €/kg`; a short word after
    /// the weight (`0.846 kg NET @ $4.90/kg`) and any currency's sign or letters before the price (`38.52 L @
    /// R23.45/L`).
    static let weighedPattern =
        #"(\d+(?:[.,]\d{1,3})?)\s*("# + weightUnits
        + #")\b(?:\s+[a-z]{1,5}\b\.?)?\s*(?:[x×@*]\s*)?(?:[$€£₱₹₦]|[a-z]{1,3}\$?)?\s*(\d+(?:[.,]\d{1,3})?)\s*"#
        + #"(?:[A-Z€$£]{1,3})?\s*/\s*("# + weightUnits + #")\b"#
    /// A weight and a times sign ending the words before a line's amounts: `0,842 kg x`, `0.850 kg @`.
    static let weightTimesPattern = #"(?:^|\s)(\d+[.,]\d{1,3}|\d+)\s*("# + weightUnits + #")\s*[x×@*]\s*$"#
    /// A weight, a times sign and a price, nothing else (`0,734 kg X 14,99`): a weighed article's line when the
    /// product rounds to its amount.
    static let weightPricePattern =
        #"^\s*(\d+[.,]\d{1,3})\s*("# + weightUnits + #")\b\s*[x×@*]\s*(?:[$€£₱₹₦]|[a-z]{1,3}\$?)?\s*(\d+[.,]\d{2})\s*$"#
    /// A count, a times sign and a price, a short word after allowed (`2 @ $5.50 each`, `2 @ 5,50 c/u`): a count line
    /// when the product is its amount.
    static let countPricePattern =
        #"^\s*(\d{1,3})\s*[x×@*]\s*(?:[$€£₱₹₦]|[a-z]{1,3}\$?)?\s*(\d+[.,]\d{2})(?:\s+[a-z/]{1,4}\.?)?\s*$"#
    /// The price per one unit written after it: `2.18 lb @ 1 lb /0.52`.
    static let perOneUnitPattern =
        #"(\d+(?:[.,]\d{1,3})?)\s*("# + weightUnits + #")\b\s*@\s*1\s*(?:"# + weightUnits
        + #")\b\s*/\s*[$€£]?\s*(\d+(?:[.,]\d{1,3})?)"#

    /// Where a weight and its price per unit stand in `text`, and the weight, unit and price as printed.
    static func weighed(_ text: String) -> (Range<String.Index>, [String])? {
        // The weight's unit is the price's (`100 g Tafel 12,90/kg` is a pack's size and its price a kilo).
        func unit(_ u: String) -> String { ["lt", "ltr"].contains(u.lowercased()) ? "l" : u.lowercased() }
        for pattern in [weighedPattern, perOneUnitPattern] {
            if let m = Text.range(text, pattern, caseInsensitive: true),
                let groups = Text.groups(text, pattern, caseInsensitive: true), groups.count >= 3,
                pattern != weighedPattern || groups.count < 4 || unit(groups[1]) == unit(groups[3])
            {
                return (m, groups)
            }
        }
        return nil
    }

    /// The number read as the price before a line's amount when it belongs to the name instead: a size whose unit OCR
    /// took for a digit (`Bier 0,5l` read `Bier 0,51`). The engine boxed it with the name's last word, and the line's
    /// amount in a box of its own, so it stands apart from the price column; and no whole count of it makes the
    /// amount, so it is no unit price either. Under a count that opens the line it must also be less than the
    /// amount: `3 WATER / TEA 40.50  1.50` is a unit price misread (`@0.50`), not a size.
    static func sizeInName(_ l: AnalyzedLine) -> String? {
        guard l.trailing.count == 2, l.trailing[1].word == l.trailing[0].word + 1, boxedWithName(l) else { return nil }
        let words = l.line.words
        guard let b = words[l.trailing[0].word].reference, let c = words[l.trailing[1].word].reference,
            b.observation != c.observation
        else { return nil }
        let price = l.trailing[0].amount.cents, total = l.trailing[1].amount.cents
        guard price > 0, total > 0, total % price != 0 else { return nil }
        if countDigits(words[0].text) != nil, price >= total { return nil }
        return words[l.trailing[0].word].text
    }

    /// Whether `words` open with a row's index padded with noughts before an article's code (`001 7896079900016
    /// LEITE`, Brazil's NFC-e): no count and no name.
    static func isRowIndex(_ words: [String]) -> Bool {
        words.count > 2 && (2...4).contains(words[0].count) && words[0].hasPrefix("0")
            && words[0].allSatisfy(\.isNumber) && words[1].count >= 8 && words[1].allSatisfy(\.isNumber)
    }

    /// A line that may be a discount whatever its amount's sign: a discount word or a percentage in it (`10% off`).
    static func mayBeDiscount(_ l: AnalyzedLine) -> Bool {
        l.role == .discount || l.entities.contains { $0.type == .percentage }
    }

    /// Whether the line's amount was printed with a stop before its number (`.8.30`), which `Amount.parse` drops: the
    /// mark a minus read thin leaves, or a column's edge. Only the sums can tell which.
    static func minusReadAsStop(_ l: AnalyzedLine) -> Bool {
        guard let t = l.trailing.last, l.line.words.indices.contains(t.word) else { return false }
        let word = l.line.words[t.word].text
        return word.first == "." && word.dropFirst().first?.isNumber == true
    }

    /// The digits of a word that prints a count: one to three digits, a times sign or `@` beside them allowed (`2`,
    /// `2x`, `x2`, `1@`).
    static func countDigits(_ word: String) -> String? {
        let digits = word.trimmingCharacters(in: CharacterSet(charactersIn: "xX×@*"))
        return !digits.isEmpty && digits.count <= 3 && digits.allSatisfy(\.isNumber) ? digits : nil
    }

    /// Whether the line's first trailing number follows its name's last word in the same box of the engine, a word
    /// space after it: part of the name's print rather than of a price column.
    static func boxedWithName(_ l: AnalyzedLine) -> Bool {
        guard let first = l.trailing.first, l.labelWordCount >= 1, first.word == l.labelWordCount else { return false }
        let name = l.line.words[l.labelWordCount - 1], number = l.line.words[first.word]
        guard name.text.contains(where: \.isLetter), let a = name.reference, let b = number.reference,
            a.observation == b.observation
        else { return false }
        return number.place.minX - name.place.maxX < 1.5 * max(1, l.line.printHeight)
    }

    /// Whether a discount line that states its rate (`Rabatt 5 %  -52,35`) takes that share of one of the article's
    /// `prices` (its amount, its unit price), to the cent, or states none. A rate that makes another sum is a discount
    /// on more than the article above it (a group of articles, the whole bill), not that article's.
    static func rateAgrees(_ l: AnalyzedLine, discount d: Amount, on prices: [Decimal]) -> Bool {
        // The rate printed before the amount: one after it is a VAT column's (`Rabatt -52,35 € 19 %`).
        let amountWord = l.trailing.last?.word ?? l.line.words.count
        guard let text = l.entities(.percentage).first(where: { l.wordRange(of: $0).upperBound <= amountWord })?
            .value.percent,
            let rate = Decimal(string: text), rate > 0
        else { return true }
        // The article's amount may be printed with the discount taken off already (`2× 26.50`, `47.70`, `Disc. 10%
        // -5.30`): then the rate is of the amount before it.
        return prices.flatMap { [$0, $0 - d.decimal] }.contains { price in
            var share = price * rate / 100 + d.decimal, rounded = Decimal()
            NSDecimalRound(&rounded, &share, 2, .plain)
            return abs(rounded) <= Decimal(string: "0.01")!
        }
    }

    /// Quantity, unit, unit price and amount of one item line (the amount is nil when the line
    /// prints none, or only a unit price: `2 x 3.50`).
    static func item(from l: AnalyzedLine, wholeUnits: Bool) -> Receipt.Item {
        var words = Array(l.line.words.prefix(l.labelWordCount).map(\.text))
        var quantity: String?, unit: String?, unitPrice: String?
        var amounts = l.trailing.map(\.amount)
        // `Qty 2 @ $5.50 each`, `Menge: 3 x 1,99`: the quantity's own label before a count and its times sign.
        if words.count >= 3, quantityPhrases.contains(Text.key(words[0])), countDigits(words[1]) != nil,
            words[1].count > countDigits(words[1])!.count || ["x", "X", "×", "@", "*"].contains(words[2])
                || words[2].first.map({ "@×*".contains($0) }) == true
        {
            words.removeFirst()
        }
        // `2 x 3.50` on a line of its own: the amount read last is the unit price, not the line's amount.
        if let op = words.last, ["x", "X", "×", "@", "*"].contains(op) || op.hasSuffix("@") || op.hasSuffix("x"),
            words.count >= 2 || op.count > 1, amounts.count == 1 || (amounts.count >= 1 && op.count > 1)
        {
            var ahead = op.count > 1 ? String(op.dropLast()) : words[words.count - 2]
            var taken = op.count > 1 ? 1 : 2
            // A unit word between the count and the operator: `2 Stk x 0,89`.
            if op.count == 1, words.count >= 3, isUnitWord(ahead) {
                ahead = words[words.count - 3]
                taken = 3
            }
            if let q = quantityString(ahead[...].trimmingCharacters(in: .whitespaces)[...]) {
                quantity = q
                unitPrice = amounts[0].decimalString
                amounts.removeFirst()
                words.removeLast(taken)
            }
        }
        if amounts.count >= 2 {
            if quantity == nil, let size = sizeInName(l) {
                // `Bier 0,51 | 21,40`: a number the engine boxed with the name, not with the prices, is the name's.
                words.append(size)
                amounts.remove(at: amounts.count - 2)
            } else if amounts[amounts.count - 2].cents >= 0 || amounts[amounts.count - 1].cents < 0 {
                // (A bracketed figure before a positive amount is no price of it: Argentina's VAT rate, `(21,00)`.)
                unitPrice = amounts[amounts.count - 2].decimalString
            }
        }
        let joined = words.joined(separator: " ")
        if quantity != nil {
            // Read above: the count and price in front of the amount.
        } else if let (m, groups) = weighed(joined) {
            quantity = quantityString(groups[0][...])
            unit = groups[1].lowercased()
            unitPrice = Amount.parse(groups[2][...]).map(\.decimalString) ?? quantityString(groups[2][...])
            var rest = joined
            rest.removeSubrange(m)
            words = rest.split(separator: " ").map(String.init)
        } else if let a = amounts.last, let g = Text.groups(joined, weightPricePattern, caseInsensitive: true),
            g.count >= 3, let q = quantityString(g[0][...]), let p = Amount.parse(g[2][...]),
            weighedPriceRounds((Decimal(string: q) ?? 0) * p.decimal, to: a)
        {
            (quantity, unit, unitPrice, words) = (q, g[1].lowercased(), p.decimalString, [])
        } else if let a = amounts.last, let g = Text.groups(joined, countPricePattern, caseInsensitive: true),
            g.count >= 2, let q = Decimal(string: g[0]), q > 1, let p = Amount.parse(g[1][...]),
            q * p.decimal == a.decimal
        {
            (quantity, unitPrice, words) = (g[0], p.decimalString, [])
        } else if let m = Text.range(joined, #"\s*\(\s*(\d{1,3})\s*(?:[xX×@*]\s*[$€£]?\s*(?:\d[\d.,]*)?\s*)?\)?\s*$"#),
            m.lowerBound != joined.startIndex
        {
            // A count in parentheses after the description: `Chang (2@$3.50)`, `Rye 10yr (2 @20.00)`, `(2` cut off by
            // the amounts.
            let s = joined[m].drop { $0 == " " || $0 == "(" }
            let q = s.prefix { $0.isNumber }
            quantity = String(q)
            let rest = s.dropFirst(q.count).drop {
                $0 == " " || $0 == "x" || $0 == "X" || $0 == "×" || $0 == "@" || $0 == "*"
            }
            let price = rest.drop { $0 == " " || Amount.currencySigns.contains($0) }.prefix {
                $0.isNumber || $0 == "." || $0 == ","
            }
            if let a = Amount.parse(price, wholeUnits: wholeUnits) { unitPrice = a.decimalString }
            words = String(joined[..<m.lowerBound]).split(separator: " ").map(String.init)
        } else if unitPrice != nil, let m = Text.range(joined, weightTimesPattern, caseInsensitive: true),
            let groups = Text.groups(joined, weightTimesPattern, caseInsensitive: true), groups.count >= 2
        {
            // A weight and the operator, the price per unit read as the amount before the line's own (`0,842 kg x
            // 1,99  1,68`, `0.850 kg @ 1680.00  1428.00`): a weighed article's line.
            quantity = quantityString(groups[0][...])
            unit = groups[1].lowercased()
            words = String(joined[..<m.lowerBound]).split(separator: " ").map(String.init)
        } else if let m = Text.range(
            joined,
            #"(?:^|\s)(\d{1,3}(?:[.,]\d{1,3})?)\s*"# + countUnitPattern
                + #"[xX×@*]\s*(?:\S*\d[\d.,]*(?: \d{3})*)?"#
                + (countUnitWord.isEmpty ? "" : #"(?:\s+/?\s*"# + countUnitWord + #"\.?)?"#) + #"\s*$"#)
        {
            let s = String(joined[m]).trimmingCharacters(in: .whitespaces)
            let q = s.prefix { $0.isNumber || $0 == "." || $0 == "," }
            quantity = quantityString(q)
            // The price after the operator, its thousands maybe grouped by spaces (`0,35 x 3 490`); in whole units a
            // plain number of two digits or more there is a price by its place after a plain count (`3 x 389`;
            // `25.000 x1` and `0 x1` are a price and its count).
            let operators: Set<Character> = ["x", "X", "×", "@", "*"]
            let p = s.dropFirst(q.count).drop { $0 == " " || operators.contains($0) || !$0.isNumber && $0 != "-" }
            let plainCount = q.allSatisfy(\.isNumber) && (Int(q) ?? 0) >= 1 && p.count >= 2
            if !p.isEmpty, let a = Amount.parse(p, wholeUnits: wholeUnits)
                ?? (wholeUnits && plainCount ? LineAnalyzer.plainWhole(String(p)) : nil)
            {
                unitPrice = a.decimalString
            }
            words = String(joined[..<m.lowerBound]).split(separator: " ").map(String.init)
        }
        // A line of numbers alone: an article code, then the count and perhaps its unit (`2597 1.00 PCS`, `4006381 2`;
        // the code stays). A number after a code that a name follows is the name's (`2471 888 LYCHEES`).
        if quantity == nil, words.count >= 2, let code = leadingArticleCode(l), words[0] == code,
            let q = quantityString(words[1][...]), let n = Int(q), n > 0, n < 1000
        {
            let unit = words.count >= 3 && isUnitWord(words[2]) ? 1 : 0
            if lettersBesideCount(words[(2 + unit)...].joined(separator: " "), packs: true) < 2 {
                quantity = q
                words.removeSubrange(1..<(2 + unit))
            }
        }
        // A leading count: `2 Lunch`, `2x Coffee`, `1 @`, and with its times sign apart (`2 x Coffee`). Not a short
        // name read as digits before its size (`01 0,5L`, `Øl 0,5L`).
        if quantity == nil, words.count > 1, let digits = countDigits(words[0]), let n = Int(digits), n > 0,
            !isRowIndex(words), shortNameReadAsDigits(words.joined(separator: " ")) == nil
        {
            quantity = String(n)
            words.removeFirst()
            if words.count > 1, ["x", "X", "×"].contains(words[0]) { words.removeFirst() }
        }
        if quantity == nil, unitPrice == nil, let amount = amounts.last,
            let row = invoiceRow(words, amount: amount, wholeUnits: wholeUnits)
        {
            (quantity, unitPrice) = (row.quantity, row.unitPrice.decimalString)
            words.removeSubrange(row.start...)
        }
        // A unit price column the amounts' reading left in the description (`CB PR SIRLOIN
        // 162000 162,000`, `2 TEA 8000 16,000`, `TEA 2 8000 16,000`): a last number that is the
        // amount per unit, with the count before it when the line starts with none.
        if unitPrice == nil, words.count > 1, let amount = amounts.last {
            if let price = unitPriceColumn(words.last!, amount: amount, quantity: quantity, wholeUnits: wholeUnits) {
                unitPrice = price.decimalString
                words.removeLast()
            } else if quantity == nil, words.count > 2, let n = Int(words[words.count - 2]), n > 1, n < 1000,
                let price = unitPriceColumn(words.last!, amount: amount, quantity: String(n), wholeUnits: wholeUnits)
            {
                quantity = String(n)
                unitPrice = price.decimalString
                words.removeLast(2)
            }
        }
        // A count printed just before the amounts: `Coffee  2  6.00`; and the unit price before that count, when they
        // make the amount (`떡볶이  4,500  3  13,500`: a table of name, price, count and amount).
        // A number of three digits there is a model's or a size's (`Sun Odyssey 490`, `Filter 100`) unless a unit price
        // makes the amount with it.
        if quantity == nil, words.count > 1, let last = words.last, last.count <= 3, last.allSatisfy(\.isNumber),
            let n = Int(last), n > 0
        {
            let amount = amounts.last
            let column = unitPrice == nil && words.count > 2 ? amount.flatMap {
                unitPriceColumn(words[words.count - 2], amount: $0, quantity: String(n), wholeUnits: wholeUnits)
            } : nil
            // (A unit price printed to the cent may be rounded: `100  0.73  73.14`.)
            let printed = unitPrice.flatMap { Decimal(string: $0) }.map { u in
                amount.map { abs(u * Decimal(n) - $0.decimal) <= Decimal(n) * Decimal(string: "0.005")! } ?? false
            } ?? false
            if n < 100 || column != nil || printed {
                quantity = String(n)
                words.removeLast()
                if let column {
                    unitPrice = column.decimalString
                    words.removeLast()
                }
            }
        }
        if isRowIndex(words) { words.removeFirst() }
        // Strip OCR debris before the description: `|`, `•`, lone punctuation.
        while let f = words.first, !f.contains(where: { $0.isLetter || $0.isNumber }) { words.removeFirst() }
        let code = articleCode(&words)
        let name = Text.clean(words.joined(separator: " "))
        let desc = shortNameReadAsDigits(name) ?? lettersForZerosInName(name)
        let src: Provenance
        if let amountWord = l.trailing.last?.word {
            src = l.line.provenance(words: 0..<(amountWord + 1))
        } else {
            src = l.line.provenance()
        }
        return Receipt.Item(
            description: desc, quantity: quantity, unit: unit, unitPrice: unitPrice,
            amount: amounts.last?.decimalString, code: code, source: src)
    }

    /// The article number among an item line's words, taken out of them: a word of 8 to 14 digits that opens
    /// the line (`9556939040118 KF MODELLING CLAY`), ends it, or ends it before a one-letter tax flag (`BANANAS
    /// 000000004011 F`). Nil, and the words as they were, when none is there or nothing else would be left.
    ///
    /// A store's article number of five to seven digits before the name is one too (`690094 WD-40 12OZ`), unless a
    /// measure follows it (`100000 MAH POWER BANK`) or it is a round figure (`20000 LEAGUES`).
    static func articleCode(_ words: inout [String]) -> String? {
        func digits(_ w: String) -> Bool { w.allSatisfy { $0.isASCII && $0.isNumber } }
        func isCode(_ w: String) -> Bool { (8...14).contains(w.count) && digits(w) }
        func storeNumber(_ ws: [String]) -> Bool {
            guard ws.count >= 2, (5...7).contains(ws[0].count), digits(ws[0]), !ws[0].hasSuffix("000"),
                ws[1].contains(where: \.isLetter), Text.letterCount(ws[1...].joined()) >= 3
            else { return false }
            let measure = ws[1].lowercased().filter(\.isLetter)
            return !(weightUnits.split(separator: "|").contains { $0 == measure }
                || ["mah", "mg", "ml", "w", "v", "mm", "cm", "m", "gb", "tb", "pcs", "pc"].contains(measure))
        }
        var rest = words
        let code: String
        if rest.count >= 2, isCode(rest[0]) || storeNumber(rest) {
            code = rest.removeFirst()
        } else if rest.count >= 2, isCode(rest[rest.count - 1]) {
            code = rest.removeLast()
        } else if rest.count >= 3, isCode(rest[rest.count - 2]), let flag = rest.last, flag.count == 1,
            flag.first!.isUppercase
        {
            code = rest[rest.count - 2]
            rest.removeLast(2)
        } else {
            return nil
        }
        guard Text.letterCount(rest.joined()) >= 2 else { return nil }
        words = rest
        return code
    }

    /// Whether a weight times its price per unit gives `amount` as a till prints it: rounded or cut to the
    /// amount's last digit (`1,242 kg x 1,20` is 1.4904, printed `1,49`).
    static func weighedPriceRounds(_ product: Decimal, to amount: Amount) -> Bool {
        guard product > 0, amount.minor > 0 else { return false }
        var step = Decimal(1)
        for _ in 0..<amount.scale { step /= 10 }
        let gap = product - amount.decimal
        return gap > -step && gap < step
    }

    /// The letters of a line's text that are no count unit (`Stk`, `個`, `개`: the locales' `countUnits`) and no times
    /// sign (`x`, `×`): none, or one, on a line of a count, its unit and a price (`x2個`, `1,700X3개`, `2 Stk x 0,89`).
    /// With `packs`, packaging right after a number is no letters either (`6736 1.00 SET`, `2 CTN`: the locales'
    /// `packUnits`); elsewhere it is a name's word (`PLASTIC BAG`, `SET A`). The item-line model's features read it
    /// without.
    static func lettersBesideCount(_ text: String, packs: Bool = false) -> Int {
        let chars = Array(text)
        var n = 0, i = 0
        while i < chars.count {
            guard chars[i].isLetter else { i += 1; continue }
            var end = i
            while end < chars.count, chars[end].isLetter { end += 1 }
            let run = String(chars[i..<end])
            let w = String(run.drop { "xX×".contains($0) }.reversed().drop { "xX×".contains($0) }.reversed())
            var before = i - 1
            while before >= 0, chars[before] == " " || "xX×".contains(chars[before]) { before -= 1 }
            let pack =
                packs && before >= 0 && chars[before].isNumber
                && (packUnits.contains(run.uppercased()) || packUnits.contains(w.uppercased()))
            if !(w.isEmpty || countUnits.contains(w) || countUnits.contains(w.uppercased()) || pack) { n += w.count }
            i = end
        }
        return n
    }

    /// A word a count is sold by, right after it: a count unit or packaging (`Stk`, `PCS`, `CTN`, `SET`).
    static func isUnitWord(_ w: String) -> Bool { countUnits.contains(Text.key(w)) || packUnits.contains(Text.key(w)) }

    /// Whether an item line is numbers alone: its count, perhaps with its unit or packaging, and an article code it
    /// opens with, if any (the description leaves a trailing tax code out already: `11028 1 150.00  159.00 SR`,
    /// `6736 1.00 SET`, `2 PKT  5.00`).
    static func numbersAlone(_ parsed: Receipt.Item, of line: AnalyzedLine) -> Bool {
        var rest = parsed.description
        if let code = leadingArticleCode(line), rest.hasPrefix(code) { rest = String(rest.dropFirst(code.count)) }
        return lettersBesideCount((parsed.quantity.map { $0 + " " } ?? "") + rest, packs: true) < 2
    }

    /// A line that may name an article printed on two lines: text of two letters or more without an amount, with no
    /// role on the receipt, no contact or date, and no field it states.
    static func couldNameAnArticle(_ l: AnalyzedLine) -> Bool {
        l.amount == nil && l.role == .none && (Text.letterCount(l.text) >= 2 || shortNameReadAsDigits(l.text) != nil)
            && !isFieldLine(l) && !l.holdsContactOrDate
    }

    /// A line that states a field, a label word then a colon (`Cashier: Anna`, `Table: 12`, `Kasse: 3`): no item's
    /// name.
    static func isFieldLine(_ l: AnalyzedLine) -> Bool {
        guard let colon = l.text.firstIndex(of: ":") else { return false }
        return lexicon.isLabelOnly(Text.key(String(l.text[..<colon])))
    }

    /// `word` read as the price of one unit of an item whose line amount is `amount`: a number
    /// (also a bare integer) equal to the amount divided by the quantity (1 when none is
    /// printed). Arithmetic, so a model number or a size in the description (`600ML`, `0.3`)
    /// stays where it is unless it happens to be exactly that price. Zero amounts prove nothing.
    /// An invoice's row between the name and the amount: a count, a unit price (its currency after it, apart or
    /// glued) and a VAT rate (`Bürostuhl Comfort 3 349,00 € 19 % 1.047,00 €`, `Ramettes 10 4,50 € 20% 45,00`), when
    /// the count times the price is the amount. Returns them and where in `words` the count stands; a description must
    /// stay.
    static func invoiceRow(_ words: [String], amount: Amount, wholeUnits: Bool)
        -> (quantity: String, unitPrice: Amount, start: Int)?
    {
        func isRate(_ w: Substring) -> Bool {
            quantityString(w).flatMap { Decimal(string: $0) }.map { $0 >= 0 && $0 < 100 } ?? false
        }
        var k = words.count
        if k >= 2, words[k - 1] == "%", isRate(words[k - 2][...]) {
            k -= 2
        } else if k >= 1, words[k - 1].hasSuffix("%"), isRate(words[k - 1].dropLast()) {
            k -= 1
        }
        if k >= 1, LineAnalyzer.isCurrencyToken(words[k - 1]) { k -= 1 }
        // The rate or the currency, at least, says this is such a row; the count and the price need a name before them.
        guard k < words.count, k >= 3, let q = quantityString(words[k - 2][...]), let count = Decimal(string: q),
            count > 0, let price = Amount.parse(words[k - 1][...], wholeUnits: wholeUnits), price.minor != 0,
            price.decimal * count == amount.decimal
        else { return nil }
        return (q, price, k - 2)
    }

    static func unitPriceColumn(_ word: String, amount: Amount, quantity: String?, wholeUnits: Bool) -> Amount? {
        guard amount.minor > 0, word.first?.isNumber == true,
            let price = Amount.parse(word[...], wholeUnits: wholeUnits, bare: true)
        else { return nil }
        let count = quantity.flatMap { Decimal(string: $0) } ?? 1
        guard count > 0, price.decimal * count == amount.decimal else { return nil }
        return price
    }
}
