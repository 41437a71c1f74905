import Foundation
import ScanDetectors
import ScanLayout
import ScanModel

// Tills that print each article's code, count and price on one line and its name on another: which name goes
// with which row.
extension ReceiptParser {
    /// A till that prints each article on two lines, a line of numbers alone (an article code, a count, a price:
    /// `100027 1 5.25  5.25`) and a line with its name, prints them in one order down the whole table; the model, which
    /// sees lines one by one, cannot tell the order from one line, since inside the table each line of numbers has a
    /// name above and below it. The table's ends tell it: names first when a name stands right above the first line of
    /// numbers and none right under the last (`ST-PRIVILEGE CARD` / `88888 1 10.00  10.00`, ..., then the summary);
    /// numbers first when the first line of numbers opens the table (under a heading's row or under no name) and a name
    /// stands right under the last. Every pair is then labelled so: the name starts the item and the numbers are its
    /// quantity line, or the numbers start it and the name goes on under them.
    ///
    /// It acts only on such a table: no priced item line with a name above its last line of numbers (`Coffee  2.50`,
    /// then `2 x 1.25` and `No sugar`: a count line and an option under a priced name). Those, and tables whose ends
    /// disagree, keep the model's labels. A name is a text line with no amount, no role, and no phone, date, time,
    /// e-mail or URL in it.
    static func mendArticlesOnTwoLines(
        _ lines: [AnalyzedLine], _ labels: inout [ItemLineLabel], headingRows: Set<Int>,
        wholeUnits: Bool
    ) {
        // Each line read once, however many of the checks below ask.
        var alone = [Bool?](repeating: nil, count: lines.count)
        func numbersAlone(_ k: Int) -> Bool {
            if let known = alone[k] { return known }
            let found = Self.numbersAlone(item(from: lines[k], wholeUnits: wholeUnits), of: lines[k])
            alone[k] = found
            return found
        }
        // Priced: a positive amount, or nothing to pay for an article with its code (a set's parts, `FG-Y00268 0.00`).
        let priced = lines.indices.filter { k in
            guard [.item, .quantity, .continuation].contains(labels[k]), lines[k].role == .none, let a = lines[k].amount
            else { return false }
            return a.minor > 0 || (a.minor == 0 && leadingArticleCode(lines[k]) != nil)
        }
        var numbers = priced.filter(numbersAlone)
        var paid = numbers.filter { (lines[$0].amount?.minor ?? 0) > 0 }
        guard let inFirst = paid.first, let inLast = paid.last else { return }
        // Where the table's amounts stand: the left edge of its paid rows' last amounts.
        let amountColumn = paid.compactMap { lines[$0].amountPlace?.minX }.min() ?? .infinity
        // A name that prints a number of its own, left of the amount column (`Bier 0,51`, a size misread): no price.
        func numberLeftOfAmounts(_ l: AnalyzedLine) -> Bool {
            guard let place = l.amountPlace else { return false }
            return l.trailing.count == 1 && place.maxX < amountColumn
        }
        func isName(_ k: Int) -> Bool {
            guard k >= 0, k < lines.count, !headingRows.contains(k) else { return false }
            if couldNameAnArticle(lines[k]) { return true }
            var l = lines[k]
            guard numberLeftOfAmounts(l) else { return false }
            l.trailing = []
            return Text.letterCount(l.label) >= 2 && couldNameAnArticle(l)
        }
        // A count line under the table (`Item(s) : 3 Qty(s)`) is no name: it prints column headings' words.
        func endsOnAName(_ k: Int) -> Bool {
            isName(k) && lines[k].key.split(separator: " ").filter { columnHeaderWords.contains(String($0)) }.count < 2
        }
        // A row of the table the model left out or took for an option (the first under a heading, a free part's at
        // 0,00 too; the last under the options of the article before it: `>> Extra kaas`, then `8882 1 1,20 1,20`): a
        // line of numbers alone that opens with an article code and has as many words as the table's row beside it is
        // the table's, whatever its label, right past either end or past the name and option lines there (up to three).
        // A card number, a heading or a total between keeps a line out.
        func leftOut(_ k: Int, beside row: Int) -> Bool {
            k >= 0 && k < lines.count && [.other, .modifier].contains(labels[k]) && lines[k].role == .none
                && (lines[k].amount?.minor ?? -1) >= 0 && leadingArticleCode(lines[k]) != nil && numbersAlone(k)
                && lines[k].line.words.count == lines[row].line.words.count
        }
        func pastEnd(_ row: Int, step: Int, across most: Int) -> Int? {
            var k = row + step
            for _ in 0...most {
                if leftOut(k, beside: row) { return k }
                guard isName(k) else { return nil }
                k += step
            }
            return nil
        }
        // (From the table's first and last rows, a part at 0.00 included: a free part may open it, `41223714 1 0 0`
        // under the row the model left out.)
        let firstRow = min(inFirst, numbers[0]), lastRow = max(inLast, numbers[numbers.count - 1])
        var joined = [pastEnd(firstRow, step: -1, across: 3), pastEnd(lastRow, step: 1, across: 3)].compactMap { $0 }
        // Inside the table, such a row taken for an option of the article above is one of its rows too.
        // (Its words counted against the table's row above it.)
        joined += (firstRow...lastRow).filter { k in
            !numbers.contains(k) && leftOut(k, beside: numbers.last { $0 < k } ?? firstRow)
        }
        numbers = (numbers + joined).sorted()
        paid = (paid + joined.filter { (lines[$0].amount?.minor ?? 0) > 0 }).sorted()
        // A priced line with a name above the table's end (`Chicken Caesar  12.00` over `Salad` and `2 x 6.00`) shows a
        // receipt that prints names beside their prices: its count lines are no table. A discount's line (`10% off
        // 2.34`, its minus lost) names no article, nor does a name whose number stands left of the amounts (`Bier
        // 0,51`).
        func namedArticle(_ k: Int) -> Bool {
            !numbersAlone(k) && !mayBeDiscount(lines[k]) && !numberLeftOfAmounts(lines[k])
        }
        guard !priced.contains(where: { $0 <= paid[paid.count - 1] && namedArticle($0) }) else { return }
        // What stands right past an end of the table: a name; a line that names no article (the page's edge, a
        // heading, a line of another role, a field, a contact or a date); or an unclear line, perhaps a name OCR
        // garbled (`01 0,5L` for `Øl 0,5L`). An end with no name past it decides the order when the other end is a
        // name. It also decides it when the other end is unclear, for a table cannot print its names first with no
        // name above its first row, nor last with none under its last; but only where the unclear line holds no
        // article code and each other row (two or more) has a name with no code on that side. A code line printed
        // between name and numbers (`PILLAR SINK TAP`, `0Z05 - 5/60`, `9074624 1 X 19.90 19.90`) fails that.
        // The ends of the whole table are read first, parts at 0.00 included (a free item may open it); when those
        // do not tell the order, the ends of its paid lines (a part at 0.00 may close a table whose name OCR lost).
        enum Past { case name, noName, unclear }
        func past(_ k: Int) -> Past {
            if endsOnAName(k) { return .name }
            guard k >= 0, k < lines.count, !headingRows.contains(k), lines[k].role == .none,
                !lines[k].holdsContactOrDate, !isFieldLine(lines[k])
            else { return .noName }
            return .unclear
        }
        var unclearEnd: Int?
        func order(_ rows: [Int]) -> (namesFirst: Bool, numbersFirst: Bool) {
            let first = rows[0], last = rows[rows.count - 1]
            var above = past(first - 1), below = past(last + 1)
            // No article code in it (`WA33 - 100/1000` is the code line of `NASCO SEAL TAPE`).
            func codeless(_ k: Int) -> Bool { leadingArticleCode(lines[k]) == nil }
            if above == .unclear, below == .noName, rows.count >= 2, codeless(first - 1),
                rows.dropFirst().allSatisfy({ isName($0 - 1) && codeless($0 - 1) })
            {
                above = .name
                unclearEnd = first - 1
            } else if above == .noName, below == .unclear, rows.count >= 2, codeless(last + 1),
                rows.dropLast().allSatisfy({ isName($0 + 1) && codeless($0 + 1) })
            {
                below = .name
                unclearEnd = last + 1
            }
            return (above == .name && below != .name, above != .name && below == .name)
        }
        var (namesFirst, numbersFirst) = order(numbers)
        if !namesFirst && !numbersFirst {
            unclearEnd = nil
            (namesFirst, numbersFirst) = order(paid)
        }
        func isNameOrUnclearEnd(_ k: Int) -> Bool { k == unclearEnd || isName(k) }
        if namesFirst {
            for k in numbers where isNameOrUnclearEnd(k - 1) {
                labels[k] = .quantity
                // A name that goes on from the line above stays so only when that line is a name too.
                if labels[k - 1] != .continuation || !isName(k - 2) { labels[k - 1] = .item }
            }
        } else if numbersFirst {
            for k in numbers where isNameOrUnclearEnd(k + 1) {
                labels[k] = .item
                labels[k + 1] = .continuation
            }
        }
    }
}

extension ReceiptParser {
    /// A table's row of numbers: its article code, its count, its unit price and its amount as printed (either
    /// may be lost or misread), and what the row costs: the amount, else the count times the unit price.
    struct CodeRow {
        let line: Int
        let code: String
        let count: Int
        let unitPrice: Amount?
        let amount: Amount?
        /// What the row costs: the amount printed, else the count times the unit price.
        var cost: Amount? { amount ?? unitPrice.map { Amount(minor: $0.minor * count, scale: $0.scale) } }
    }

    /// A row of numbers alone: an article code, a count of 1 to 999, then one or two prices (`517426 1 4.29`,
    /// `213982 1 3.29 3.29`); a price OCR garbled (`B.46`) is none, so long as the other one is read.
    static func codeRow(_ lines: [AnalyzedLine], _ i: Int, wholeUnits: Bool) -> CodeRow? {
        let words = lines[i].line.words.map(\.text)
        guard (3...4).contains(words.count), let code = leadingArticleCode(lines[i]), code == words[0],
            words[1].count <= 3, words[1].allSatisfy(\.isNumber), let count = Int(words[1]), count > 0
        else { return nil }
        // Three words print the unit price (the amount of one, or the row's amount moved off it).
        let prices = words.dropFirst(2).map { Amount.parse($0[...], wholeUnits: wholeUnits) }
        let amount = prices.count == 2 ? prices[1] : nil
        guard prices[0] != nil || amount != nil else { return nil }
        return CodeRow(line: i, code: String(code), count: count, unitPrice: prices[0], amount: amount)
    }

    /// A table of rows of numbers, each with its name on the line under it or over it (`517426 1 4.29` / `Pen
    /// Blue`), read again from its rows alone when the items as read make none of the printed sums and that reading
    /// makes one: each row's name is the line on one side of it, its amount the row's own (the amount printed, else
    /// its count times its unit price), and the amounts that the names' lines carry are dropped. On a photo whose
    /// rows slope, the amount column drifts a row off its numbers (`Pen Blue  27.55` over `682069 1 27.55`), and the
    /// names and amounts are read a row apart. Only when exactly one side holds a name for every row (a line of text
    /// with no role, contact, date or field on it, under the table's column heading: `Designation`, the heading's
    /// second row over `Code Qte PU Montant`'s rows, names no article).
    static func articleTableBySums(_ reading: ItemReading, into r: inout Receipt) {
        guard let targets = itemSumTargets(r), !targets.contains(itemsAndDiscounts(r)) else { return }
        let lines = reading.lines
        let end = min(reading.summaryStart, lines.count), top = min(reading.top, end)
        let rows = (top..<end).compactMap { codeRow(lines, $0, wholeUnits: reading.wholeUnits) }
        guard rows.count >= 3, rows.allSatisfy({ $0.cost != nil }),
            zip(rows, rows.dropFirst()).allSatisfy({ $1.line - $0.line >= 2 })
        else { return }
        let rowLines = Set(rows.map(\.line))
        func name(_ k: Int) -> String? {
            guard k >= top, k < end, !rowLines.contains(k), k > (reading.heading ?? -1) else { return nil }
            let l = lines[k]
            guard l.role == .none, !l.holdsContactOrDate, !isFieldLine(l) else { return nil }
            let description = item(from: l, wholeUnits: reading.wholeUnits).description
            return Text.letterCount(description) >= 2 ? description : nil
        }
        // The items read outside the table's lines (the lines of its rows and of the names on either side).
        let region = max(top, rows[0].line - 1)...min(end - 1, rows[rows.count - 1].line + 1)
        let boxes = region.map { lines[$0].line.box }
        let (minY, maxY) = (boxes.map(\.minY).min() ?? 0, boxes.map(\.maxY).max() ?? 0)
        let outside = r.items.filter { item in
            guard let b = item.source.boundingBox else { return true }
            return b.midY < minY || b.midY > maxY
        }
        let outsideCents =
            outside.compactMap { decimalCents($0.amount) }.reduce(0, +) + (decimalCents(r.discounts) ?? 0)
        let tableCents = rows.compactMap { $0.cost?.cents }.reduce(0, +)
        guard targets.contains(outsideCents + tableCents) else { return }
        // Which side holds every row's name; exactly one.
        let sides = [1, -1].map { step in rows.compactMap { name($0.line + step) } }.filter { $0.count == rows.count }
        guard sides.count == 1 else { return }
        let table = zip(rows, sides[0]).map { row, name in
            Receipt.Item(
                description: name, quantity: String(row.count),
                unitPrice: row.amount != nil ? row.unitPrice?.decimalString : nil,
                amount: row.cost?.decimalString, code: row.code,
                source: lines[row.line].line.provenance())
        }
        let firstAfter = outside.firstIndex { ($0.source.boundingBox?.midY ?? 0) > maxY } ?? outside.count
        r.items = Array(outside[..<firstAfter]) + table + Array(outside[firstAfter...])
    }
}
