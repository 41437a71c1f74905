import Foundation
import ScanDetectors
import ScanLayout
import ScanModel

// Line items: the item region under its column heading, the line model's labels settled by what the lines show, and
// the items assembled from them (descriptions over several lines, quantity lines, options, discounts). One line's
// reading is in +ItemLine, the articles the sums prove in +ItemSums, two-line article tables in +ArticleTables.
extension ReceiptParser {
    /// Every locale's `columnHeading` and `amountHeading` words.
    static let columnHeaderWords = Set(lexicon.words(.columnHeading).phrases)
    static let amountHeaderWords = Set(lexicon.words(.amountHeading).phrases)

    /// A column heading line (`Item  Qty  Price`) among the first two thirds of the receipt, and the
    /// right edge of its price column (`priceColumnEnd`).
    static func priceHeading(_ lines: [AnalyzedLine]) -> (Int, Double)? {
        for (i, l) in lines.prefix(lines.count * 2 / 3 + 1).enumerated() where isColumnHeading(l) {
            if let right = priceColumnEnd(l) { return (i, right) }
        }
        return nil
    }

    /// The right edge of a column heading's price column: its rightmost price heading's. A word right of it with one
    /// letter of a price heading's changed is the heading of a further price column that OCR misread past the
    /// look-alikes `isAmountHeading` mends (`SKU QTY PRICE ANT`, `AMT` with an N); a tax code's heading (`Amount TX`)
    /// is no such word.
    static func priceColumnEnd(_ heading: AnalyzedLine) -> Double? {
        let words = heading.line.words
        guard let last = words.lastIndex(where: isAmountHeading) else { return nil }
        let misread = words[(last + 1)...].last { w in
            let key = Text.key(w.text)
            return key.count >= 3 && amountHeaderWords.contains { Text.oneLetterApart($0, key) }
        }
        return (misread ?? words[last]).place.maxX
    }

    /// A price column's heading word, with its currency glued on or not: `Amount`, `Amt(RM)`, `Price/EUR`, also misread
    /// in one look-alike letter (`Totai`).
    static func isAmountHeading(_ w: LayoutWord) -> Bool {
        lexicon.labelSpelling.mended(Text.key(w.text)).split(separator: " ").contains {
            amountHeaderWords.contains(String($0))
        }
    }

    /// The second row of a column heading: one to four heading words and nothing else, or one heading word that OCR
    /// cut with spaces (`Designat ion`, `Des ignat ion`).
    static func isHeadingRest(_ l: AnalyzedLine) -> Bool {
        let words = l.key.split(separator: " ").map(String.init)
        return (1...4).contains(words.count) && l.amount == nil
            && (words.allSatisfy(columnHeaderWords.contains) || words.count >= 2
                && columnHeaderWords.contains(words.joined()))
    }

    /// A column heading with a column other than a price's (`Description  Total`, not `Total  Amount`): the heading
    /// of a table of articles, never a total's label.
    static func namesItsColumns(_ l: AnalyzedLine) -> Bool {
        isColumnHeading(l)
            && l.key.split(separator: " ").contains {
                columnHeaderWords.contains(String($0)) && !amountHeaderWords.contains(String($0))
            }
    }

    static func isColumnHeading(_ l: AnalyzedLine) -> Bool {
        let words = l.key.split(separator: " ").map(String.init)
        return words.count >= 2 && words.count <= 8 && words.filter({ columnHeaderWords.contains($0) }).count >= 2
            && l.amount == nil
            && Text.digitCount(l.text) == 0
    }

    /// The lines the items are read from: above the summary, with the words right of the price
    /// column dropped (the heading's price column, else the summary's amount column), and the
    /// index of the column heading line, if any.
    static func itemRegion(_ lines: [AnalyzedLine], roles: [Role], summaryStart: Int, wholeUnits: Bool) -> (
        lines: [AnalyzedLine], heading: Int?
    ) {
        var heading: Int?
        var headerColumn: Double?
        for (i, l) in lines.prefix(summaryStart).enumerated() where isColumnHeading(l) {
            heading = i
            // The rightmost price heading (`Price`, `Amount`, `Total`) ends the amount column.
            headerColumn = priceColumnEnd(l)
        }
        // A heading set on two rows (`Item  Qty  Price  Total`, then `Description`): the second row holds
        // heading words only.
        while let h = heading, h + 1 < min(summaryStart, lines.count), isHeadingRest(lines[h + 1]) { heading = h + 1 }
        var out = lines
        guard let column = headerColumn ?? amountColumn(lines, roles: roles, from: summaryStart) else {
            return (out, heading)
        }
        let bare = bareAmounts(lines)
        for i in (heading.map { $0 + 1 } ?? 0)..<min(summaryStart, out.count) {
            keepColumn(&out[i], right: column, wholeUnits: wholeUnits, bare: bare)
        }
        return (out, heading)
    }

    /// The item region's lines as labelled by the item-line model: what the items were assembled from.
    struct ItemReading {
        var lines: [AnalyzedLine]
        var labels: [ItemLineLabel]
        var summaryStart: Int
        var wholeUnits: Bool
        /// The column heading's line (`QTY DESCRIPTION PRICE`), if any.
        var heading: Int? = nil
        /// The first line of this slip (`slipTop`): the lines above it are another slip's, no articles of this one.
        var top = 0
        /// The labels as `settledLabels` settled them, and the discount lines (items of kind `.discount`, in print
        /// order), when `setItems` last assembled the items from this reading.
        var settled: [ItemLineLabel] = []
        var discountLines: [Receipt.Item] = []
    }

    /// Labels every line with the learned item-line model, then assembles the items:
    /// an item line opens an item, continuation and quantity lines join it, a discount line
    /// hangs under the item before it.
    @discardableResult
    func parseItems(
        _ lines: [AnalyzedLine], roles: [Role], summaryStart: Int, tail: Int, top: Int = 0, wholeUnits: Bool,
        into r: inout Receipt
    ) -> ItemReading {
        let (lines, heading) = Self.itemRegion(lines, roles: roles, summaryStart: summaryStart, wholeUnits: wholeUnits)
        let rows = ItemLineFeatures.rows(lines, roles: roles, summaryStart: summaryStart, heading: heading)
        var outside = Self.summaryLines(lines, roles: roles, summaryStart: summaryStart, tail: tail)
        for i in 0..<min(top, outside.count) { outside[i] = true }
        var reading = ItemReading(
            lines: lines, labels: itemModel.decode(rows, outside: outside), summaryStart: summaryStart,
            wholeUnits: wholeUnits, heading: heading, top: top)
        Self.setItems(&reading, into: &r)
        return reading
    }

    /// The summary's own lines (its totals, taxes and payments, at or after its start, or above `tail` in the slip
    /// before's tail), and a line of payment words alone anywhere (`Efectivo  100,00` at the top, torn off with the
    /// slip before): no items, whatever the item model makes of them (`zu zahlen 142,45` under the last article). (A
    /// payment word among an article's own words, `CHOCOLATE BAR`, `CARTA IGIENICA`, does not count.)
    static func summaryLines(_ lines: [AnalyzedLine], roles: [Role], summaryStart: Int, tail: Int) -> [Bool] {
        roles.indices.map { i in
            if (i >= summaryStart || i < tail) && isSummaryRole(roles[i]) { return true }
            switch roles[i] {
            case .tendered, .change: return paysOnly(lines[i])
            default: return false
            }
        }
    }

    /// A line of payment words alone (`Efectivo 100,00`), not an article that holds one (`CHOCOLATE BAR`).
    static func paysOnly(_ l: AnalyzedLine) -> Bool {
        l.role.isPayment && lexicon.isLabelOnly(l.labelKey)
    }

    /// A role that only a summary line plays: a total, subtotal, tax, tip, fee, rounding or payment (a discount may
    /// hang under an item).
    static func isSummaryRole(_ role: Role) -> Bool {
        switch role {
        case .total, .subtotal, .tax, .tip, .fee, .rounding, .tendered, .change, .quantityTotal: return true
        case .discount, .taxId, .none: return false
        }
    }

    /// The priced lines the articles were read from (an article's line, or its quantity line, with an amount).
    static func articleLines(_ reading: ItemReading) -> Set<Int> {
        let settled = reading.settled
        return Set(
            settled.indices.filter { [.item, .quantity].contains(settled[$0]) && reading.lines[$0].amount != nil })
    }

    /// The articles and the sum of the discounts that `reading`'s labels give, put into `r`; the settled labels and
    /// the discount lines kept in `reading`, for the phone, the completion by the sums and `listDiscountLines`.
    static func setItems(_ reading: inout ItemReading, into r: inout Receipt) {
        let (lines, labels, wholeUnits) = (reading.lines, reading.labels, reading.wholeUnits)
        let settled = settledLabels(lines, labels: labels, wholeUnits: wholeUnits)
        let (items, discounts) = assembleSettled(lines, labels: settled, wholeUnits: wholeUnits, modifiersApart: false)
        let off = discounts.compactMap { decimalCents($0.amount) }.reduce(0, +)
        r.items = mergingRepeats(
            withoutRateColumn(
                pricedModifiersApart(
                    items, lines: lines, labels: labels, settled: settled,
                    summaryStart: reading.summaryStart,
                    off: off, wholeUnits: wholeUnits)))
        r.discounts = discounts.isEmpty ? nil : Amount(minor: off, scale: 2).decimalString
        reading.settled = settled
        reading.discountLines = discounts
    }

    /// No article is printed at or under the total's line: what the model made items there is the summary or the
    /// payment of a slip whose labels no locale file knows (`Mersan 3.62`, the change under `Borde 91.38`). Only where
    /// the total is known for one: it sits in the summary that labels or sums found, or the cash paid less the change
    /// makes it. (A total picked among the articles may be an article: `Bife 46,74` over `TOTAL R$93, 41`.) And only
    /// under an article: an invoice may print its total at the top, over the table of what it bills.
    static func endItemsAtTotal(_ reading: inout ItemReading, totalLine: Int, into r: inout Receipt) {
        let count = reading.lines.count
        let cents = decimalCents
        let paid = cents(r.payment?.tendered).flatMap { t in cents(r.payment?.change).map { t - $0 } }
        let known =
            reading.summaryStart < count && totalLine >= reading.summaryStart || paid != nil && paid == cents(r.total)
        guard known, totalLine < count, reading.labels[..<totalLine].contains(.item),
            reading.labels[totalLine...].contains(where: { $0 != .other })
        else { return }
        for i in totalLine..<count { reading.labels[i] = .other }
        setItems(&reading, into: &r)
    }

    /// The discount lines join the list of items, each after the last article printed above it (the one it takes
    /// off, or the last one for a discount on the bill), so that the items' amounts add up to what they cost after
    /// their discounts and the list reads as the slip does. Run last: every sum before it counts the articles and
    /// `discounts` apart.
    static func listDiscountLines(_ discountLines: [Receipt.Item], into r: inout Receipt) {
        // Without an article read there is nothing for them to take off in the list: `discounts` alone holds them.
        guard r.items.contains(where: { $0.kind == nil }) else { return }
        // Where a line is printed: its page, then its top. A discount goes after every line printed above it, the
        // discounts placed before it included, so that two under one article keep their order.
        func place(_ source: Provenance, unknown: Double) -> (Int, Double) {
            (source.page, source.boundingBox?.y ?? unknown)
        }
        for d in discountLines {
            let top = place(d.source, unknown: .infinity)
            let after = r.items.lastIndex { place($0.source, unknown: 0) <= top }
            r.items.insert(d, at: after.map { r.items.index(after: $0) } ?? r.items.endIndex)
        }
    }

    /// Items whose descriptions end in a tax rate printed as a column (`LATTE INTERO 1L  4%`, `MOZZARELLA  10%`, as
    /// Italian and Spanish tills print the VAT rate of each line) lose that rate from the description, when at least
    /// two items and half of them end in one; a single `MILK 2%` keeps its name.
    static func withoutRateColumn(_ items: [Receipt.Item]) -> [Receipt.Item] {
        // No VAT rate reaches 30% (a `SOUP 50%` is a price cut, and keeps it).
        func rateAtEnd(_ d: String) -> Range<String.Index>? { Text.range(d, #"\s+(?:[12]?\d)(?:[.,]\d{1,2})?\s?%$"#) }
        let rated = items.filter { rateAtEnd($0.description) != nil }.count
        guard rated >= 2, rated * 2 >= items.count else { return items }
        return items.map { item in
            guard let m = rateAtEnd(item.description) else { return item }
            var out = item
            let rest = String(item.description[..<m.lowerBound])
            if Text.letterCount(rest) >= 2 { out.description = rest }
            return out
        }
    }

    /// Items from labelled lines, and the discount lines among them (items of kind `.discount`, negative, in print
    /// order: those under an item, which also becomes its `discount`, and those on the bill). With `modifiersApart`, a
    /// modifier line with a price other than 0 gives an item of its own, after the item it modifies.
    static func assembleItems(
        _ lines: [AnalyzedLine], labels given: [ItemLineLabel], wholeUnits: Bool,
        modifiersApart: Bool = false
    ) -> ([Receipt.Item], [Receipt.Item]) {
        assembleSettled(
            lines, labels: settledLabels(lines, labels: given, wholeUnits: wholeUnits), wholeUnits: wholeUnits,
            modifiersApart: modifiersApart)
    }

    /// The model's labels mended by what the lines themselves show: column headings are no items, a line of
    /// numbers under a name is its quantity line, counts and weights whose arithmetic makes the amount above,
    /// bracketed options, and negative amounts under an item.
    static func settledLabels(_ lines: [AnalyzedLine], labels given: [ItemLineLabel], wholeUnits: Bool)
        -> [ItemLineLabel]
    {
        var labels = given
        // A column heading's rows are no item, whatever the model says of a row it has not seen (`Description`).
        var headingRows = Set<Int>()
        for i in lines.indices where isColumnHeading(lines[i]) {
            headingRows.insert(i)
            var k = i + 1
            while k < lines.count, isHeadingRest(lines[k]) { headingRows.insert(k); k += 1 }
        }
        for i in headingRows { labels[i] = .other }
        // Nor is a line that states a field (`No. Nota: 28537`, `Table: 12`): its number is the field's value.
        for i in lines.indices where labels[i] != .other && isFieldLine(lines[i]) { labels[i] = .other }
        // An item line that prints only numbers (`1,500 kg x 1,99 EUR/kg  2,99`, `2 x 5.00  10.00`) is the quantity
        // line of the text line above it, when that line has no amount and belongs to nothing else; a priced weight
        // opens an item of its own, so the name above it is that item's even when it was read as a modifier or more
        // of the name before (`1 PLATANO`, then `0,840 kg  1,99 €/kg  1,67`).
        // Not from a heading's row, nor when a line that opens with an article code has its name going on under it
        // (`100027 1 5.25  5.25` / `PARIS`); a count line's continuation (`2 x 4.50  9.00` / `with fries`) is no name.
        for i in lines.indices.dropFirst()
        where labels[i] == .item && !headingRows.contains(i - 1)
            && !(i + 1 < lines.count && labels[i + 1] == .continuation && leadingArticleCode(lines[i]) != nil)
        {
            let above = lines[i - 1]
            let parsed = item(from: lines[i], wholeUnits: wholeUnits)
            let weighedPriced = parsed.unit != nil && parsed.amount != nil
            // (Also a name read as an item of no price over a count that opens with no article code: `KCL SOH HOON
            // 5KG`, then `1 CTN  31.50`.)
            let unpricedName = labels[i - 1] == .item && leadingArticleCode(lines[i]) == nil && parsed.quantity != nil
            guard
                labels[i - 1] == .other || unpricedName
                    || (weighedPriced && [.modifier, .continuation].contains(labels[i - 1]))
                    || (Text.letterCount(parsed.description) == 0 && parsed.quantity == nil && parsed.unit == nil
                        && parsed.unitPrice == nil && (lines[i].amount?.minor ?? 0) > 0
                        && wrapsItsPrice(i - 1, lines: lines, labels: labels)),
                numbersAlone(parsed, of: lines[i]), couldNameAnArticle(above)
            else { continue }
            labels[i - 1] = .item
            labels[i] = .quantity
        }
        // A priced line right above the first item, its amount in the same column, that no label, contact or
        // date claims, is an item too: the items are one block, and the trees, which see lines one by one,
        // sometimes leave its first line out.
        if let first = labels.firstIndex(of: .item), first > 0, labels[first - 1] == .other {
            let above = lines[first - 1], below = lines[first]
            if let a = above.amount, let aPlace = above.amountPlace, let bPlace = below.amountPlace, a.minor > 0,
                above.role == .none,
                Text.letterCount(above.label) >= 2, !above.holdsContactOrDate,
                abs(aPlace.maxX - bPlace.maxX) <= 1.5 * max(1, below.line.textHeight)
            {
                labels[first - 1] = .item
            }
        }
        // A count and a price under an item whose amount they make (`BUTTER 1,78`, then `2 Stk x 0,89`), or a
        // weight and its price per unit whose product rounds to it (`BIO BANANE 1,49`, then `1,242 kg x 1,20
        // EUR/kg`), is its quantity line, whatever its label says: arithmetic. (Read as an item of its own, it has no
        // amount: an app's e-receipt prints the weight small under the name, as a line of its own.)
        for i in lines.indices.dropFirst()
        where [.other, .modifier, .continuation, .item].contains(labels[i]) && labels[i - 1] == .item {
            let parsed = item(from: lines[i], wholeUnits: wholeUnits)
            guard let amount = lines[i - 1].amount, lines[i].role == .none, parsed.amount == nil || labels[i] == .other,
                let q = parsed.quantity.flatMap({ Decimal(string: $0) }),
                let price = parsed.unitPrice.flatMap(Amount.init(decimalString:)),
                lettersBesideCount(parsed.description) < 2
            else { continue }
            let made =
                parsed.unit != nil
                ? weighedPriceRounds(q * price.decimal, to: amount)
                : [.other, .item].contains(labels[i]) && q > 1 && q * price.decimal == amount.decimal
            if made { labels[i] = .quantity }
        }
        // A line whose own count and price make its own amount is an article of its own, whatever its label says:
        // arithmetic. Under an item, as a table's row of name, price, count and amount (`김밥  3,500  1  3,500`).
        // And read as more of the item above or as its count, when it names an article of its own and the item above
        // has an amount of its own (`CK Manhattan (2 @5.00) 10.00`, then `Whistle Pig Rye 10yr (2 @20.00) 40.00`):
        // an item's name does not go on with another count, price and amount, and a count line's amount is its item's.
        for i in lines.indices.dropFirst() where lines[i].role == .none {
            guard let amount = lines[i].amount, amount.minor > 0 else { continue }
            let row = labels[i] == .other && [.item, .continuation, .quantity, .modifier].contains(labels[i - 1])
            let named = [.continuation, .quantity].contains(labels[i]) && labels[i - 1] == .item
                && lines[i - 1].amount.map { $0.minor > 0 && $0.cents != amount.cents } == true
            guard row || named else { continue }
            let parsed = item(from: lines[i], wholeUnits: wholeUnits)
            guard let q = parsed.quantity.flatMap({ Decimal(string: $0) }), q >= 1,
                let price = parsed.unitPrice.flatMap(Amount.init(decimalString:)), q * price.decimal == amount.decimal
            else { continue }
            if row ? Text.letterCount(parsed.description) >= 2
                : q > 1 && parsed.unit == nil && lettersBesideCount(parsed.description, packs: true) >= 3
                    && leadingArticleCode(lines[i]) == nil
            {
                labels[i] = .item
            }
        }
        // A line wholly in brackets under an item (`[Chicken][Small][Brown Rice]`, `(no ice)`) states its options: a
        // modifier, not more of its name.
        for i in lines.indices where labels[i] == .continuation && lines[i].amount == nil {
            let t = lines[i].text.trimmingCharacters(in: .whitespaces)
            if let f = t.first, let l = t.last, (f == "[" && l == "]") || (f == "(" && l == ")") {
                labels[i] = .modifier
            }
        }
        // So does a line that opens with a word of leaving out or changing (`NO onion`, `Sin hielo`, `Kurang gula`): no
        // product's name goes on that way.
        for i in lines.indices where labels[i] == .continuation && lines[i].amount == nil && opensWithOption(lines[i]) {
            labels[i] = .modifier
        }
        // A count line with a name of its own and an amount (`卵 10個 * ¥248`, `2 x Coffee 5.00`) under an item priced
        // otherwise (`ラーメン * ¥850`) is no count of that item: a count under a priced name either makes its amount
        // or prints a unit price (`Coffee 2.50`, then `2 x 2.50  5.00`). It is an article of its own.
        for i in lines.indices.dropFirst() where labels[i] == .quantity && labels[i - 1] == .item {
            guard lines[i].role == .none, let a = lines[i].amount, a.minor > 0, let above = lines[i - 1].amount,
                above.minor > 0, above.cents != a.cents
            else { continue }
            let parsed = item(from: lines[i], wholeUnits: wholeUnits)
            guard parsed.unitPrice == nil, parsed.unit == nil, lettersBesideCount(parsed.description) >= 1,
                leadingArticleCode(lines[i]) == nil
            else { continue }
            labels[i] = .item
        }
        mendArticlesOnTwoLines(lines, &labels, headingRows: headingRows, wholeUnits: wholeUnits)
        // A negative amount right under an item takes something off it, whatever its label says (under an article
        // taken back, it is another one: the assembly decides). So does a line of one or two discount words alone with
        // its amount, though OCR lost its minus or read it as a stop (`Korting .3,73`): the words say the sign. (`Sub
        // Total Before Discount` is more.)
        for i in lines.indices.dropFirst() where [.item, .continuation, .quantity, .modifier].contains(labels[i - 1]) {
            let l = lines[i]
            guard let a = l.amount else { continue }
            let negative = labels[i] == .other && a.minor < 0 && (l.role == .none || l.role == .discount)
            let discountWords =
                [.item, .other].contains(labels[i]) && a.minor > 0 && l.role == .discount && l.trailing.count == 1
                && lexicon.isLabelOnly(l.labelKey) && l.labelKey.split(separator: " ").count <= 2
            if negative || discountWords { labels[i] = .discount }
        }
        return labels
    }

    /// Whether a quantity line's count, or its weight (a unit or a fraction: `0,35 x 3 490`), times its unit price
    /// makes `amount` (a weight's product rounded as tills round it).
    static func quantityMakes(_ line: AnalyzedLine, _ amount: Amount, wholeUnits: Bool) -> Bool {
        let parsed = item(from: line, wholeUnits: wholeUnits)
        guard let q = parsed.quantity.flatMap({ Decimal(string: $0) }),
              let price = parsed.unitPrice.flatMap(Amount.init(decimalString:))
        else { return false }
        let weighed = parsed.unit != nil || parsed.quantity?.contains(".") == true
        return weighed ? weighedPriceRounds(q * price.decimal, to: amount) : q * price.decimal == amount.decimal
    }

    /// Items from lines whose labels `settledLabels` has settled.
    static func assembleSettled(
        _ lines: [AnalyzedLine], labels: [ItemLineLabel], wholeUnits: Bool,
        modifiersApart: Bool
    ) -> ([Receipt.Item], [Receipt.Item]) {
        var groups: [[Int]] = []
        var discountOf: [Int: Amount] = [:]
        var discounts: [Receipt.Item] = []
        func discountLine(_ i: Int, _ d: Amount) -> Receipt.Item {
            let read = item(from: lines[i], wholeUnits: wholeUnits)
            return Receipt.Item(
                description: Text.letterCount(read.description) >= 2 ? read.description : "",
                amount: d.decimalString, kind: .discount, source: read.source)
        }
        var open: [Int]?
        var waiting: [Int] = []  // quantity lines printed above their item
        func close() {
            if let o = open { groups.append(o) }
            open = nil
        }
        for i in lines.indices {
            switch labels[i] {
            case .item:
                close()
                open = waiting + [i]
                waiting = []
            case .continuation:
                if open != nil { open!.append(i) } else { open = waiting + [i]; waiting = [] }
            case .quantity:
                // Tills that print the code, count and price above the item's name: a priced quantity line
                // under an item that has its amount, over an item line without one, belongs to the line below.
                let priced = lines[i].amount != nil
                // Tills that print the count and unit price over the article (`3 x 389`, then `TEJ 1L 1 167`): an
                // unpriced count whose product is the amount of the item below, not of the item above, is the
                // lower one's: arithmetic.
                let below = i + 1 < lines.count && labels[i + 1] == .item ? lines[i + 1].amount : nil
                let aboveAmount = open.flatMap { o in o.compactMap { lines[$0].amount }.last }
                let makesBelow = !priced && below.map { quantityMakes(lines[i], $0, wholeUnits: wholeUnits) } == true
                    && aboveAmount.map { quantityMakes(lines[i], $0, wholeUnits: wholeUnits) } != true
                if let o = open, priced, o.contains(where: { lines[$0].amount != nil }), i + 1 < lines.count,
                    labels[i + 1] == .item, lines[i + 1].amount == nil
                {
                    close()
                    waiting = [i]
                } else if open != nil, makesBelow {
                    close()
                    waiting = [i]
                } else if open != nil {
                    open!.append(i)
                } else {
                    waiting.append(i)
                }
            case .modifier:
                if open != nil { open!.append(i) } else { waiting = [] }
            case .discount:
                close()
                waiting = []
                guard let a = lines[i].amount else { continue }
                let d = Amount(minor: -abs(a.minor), scale: a.scale)
                // More off than the item above costs is taken off the whole bill (`rice 1.99`, then `Online Offer
                // -8.99`).
                let above = groups.last.flatMap { $0.compactMap { lines[$0].amount?.decimal }.max() }
                if let above, above < 0, a.minor < 0 {
                    // Under an article taken back (a refund slip), a negative line is another one.
                    groups.append([i])
                } else if let g = groups.indices.last, discountOf[g] == nil, let above, -d.decimal <= above,
                    Self.rateAgrees(
                        lines[i], discount: d, on: groups[g].flatMap { lines[$0].trailing.map(\.amount.decimal) })
                {
                    discountOf[g] = d
                    discounts.append(discountLine(i, d))
                } else if groups.isEmpty {
                    // Nothing above to take it off: a returned article (a refund), an item of its own.
                    groups.append([i])
                } else {
                    discounts.append(discountLine(i, d))
                }
            case .other:
                close()
                waiting = []
            }
        }
        close()
        var items: [Receipt.Item] = []
        for (g, group) in groups.enumerated() {
            let priced = !modifiersApart ? [] : group.filter { labels[$0] == .modifier && pricesItself(lines[$0]) }
            let rest = group.filter { !priced.contains($0) }
            guard var item = item(from: rest.map { lines[$0] }, labels: rest.map { labels[$0] }, wholeUnits: wholeUnits)
            else { continue }
            item.discount = discountOf[g]?.decimalString
            items.append(item)
            items += priced.compactMap { self.item(from: [lines[$0]], labels: [.item], wholeUnits: wholeUnits) }
        }
        return (items, discounts)
    }

    /// One item from its lines: the description from the item and continuation lines, the
    /// quantity and unit price from the first line that prints them, the amount from the
    /// item line, else from its quantity line, else from a continuation line (a modifier's
    /// text and amount stay out of it). Nil without an amount or a description.
    static func item(from group: [AnalyzedLine], labels: [ItemLineLabel], wholeUnits: Bool) -> Receipt.Item? {
        let parsed = group.map { item(from: $0, wholeUnits: wholeUnits) }
        var amountAt: Int?
        for want in [ItemLineLabel.item, .discount, .quantity, .continuation] {
            if let k = parsed.indices.first(where: { labels[$0] == want && parsed[$0].amount != nil }) {
                amountAt = k; break
            }
        }
        guard let amountAt else { return nil }
        var found = parsed[amountAt]
        var described = parsed.indices.filter {
            [.item, .continuation].contains(labels[$0]) && Text.letterCount(parsed[$0].description) >= 2
        }
        // A line of numbers (`6736 1.00 SET`) adds nothing to a name printed on another line.
        let named = described.filter { !numbersAlone(parsed[$0], of: group[$0]) }
        if !named.isEmpty { described = named }
        // A name line whose number is no price, since the item's amount stands on another line, keeps it when it
        // is printed as part of the name (`Bier 0,51` under `293822 1 39,28  39,28`).
        let description = described.map { k in
            guard k != amountAt, group[k].trailing.count == 1, boxedWithName(group[k]) else {
                return parsed[k].description
            }
            return parsed[k].description + " " + group[k].line.words[group[k].trailing[0].word].text
        }.joined(separator: " ")
        if !description.isEmpty { found.description = description }
        found.code =
            found.code
            ?? parsed.indices.lazy.filter { [.item, .continuation].contains(labels[$0]) }.compactMap { parsed[$0].code }
            .first
        // A weight or count line with no name to go with it (`0,480 KG x 16,90  8,11` under a line that names none) is
        // still an article, named by its own words.
        if Text.letterCount(found.description) < 2, Text.letterCount(group[amountAt].label) >= 2 {
            found.description = Text.clean(group[amountAt].label)
        }
        guard Text.letterCount(found.description) >= 2 else { return nil }
        // A weight counts before a count (`1 PLATANO` over its weight line).
        let countable = parsed.indices.filter { k in
            parsed[k].quantity != nil && (k == amountAt || labels[k] == .quantity || labels[k] == .item)
        }
        let counted = countable.first { parsed[$0].unit != nil } ?? countable.first
        if let k = counted {
            found.quantity = parsed[k].quantity
            found.unit = parsed[k].unit
            if found.unitPrice == nil || k != amountAt { found.unitPrice = parsed[k].unitPrice ?? found.unitPrice }
        }
        // Modifier lines without a price of their own (a priced one either became an item or is part of this one's
        // price).
        let modifiers = parsed.indices.filter {
            labels[$0] == .modifier && Text.letterCount(parsed[$0].description) >= 2
        }
        .map { parsed[$0].description }
        found.modifiers = modifiers.isEmpty ? nil : modifiers
        if group.count > 1 {
            var src = found.source
            src.text = group.map(\.text).joined(separator: "\n")
            src.boundingBox = BoundingBox.enclosing(group.map(\.line.box))?.rounded()
            found.source = src
        }
        return found
    }

    /// The right edge of the amount column, from the amounts of the summary lines
    /// (subtotal, tax, total) under the items; nil when there are fewer than two.
    static func amountColumn(_ lines: [AnalyzedLine], roles: [Role], from start: Int) -> Double? {
        var edges: [Double] = []
        for i in start..<lines.count {
            guard let place = lines[i].amountPlace else { continue }
            switch roles[i] {
            case .subtotal, .tax, .total: edges.append(place.maxX)
            default: continue
            }
        }
        guard edges.count >= 2 else { return nil }
        edges.sort()
        let right = edges[edges.count / 2]
        // Only a column the items' own amounts line up with: most of them end within two text heights of it.
        var near = 0, all = 0
        for l in lines[..<start] {
            guard let place = l.amountPlace else { continue }
            all += 1
            if abs(place.maxX - right) <= 2 * max(1, l.line.textHeight) { near += 1 }
        }
        return all > 0 && 2 * near >= all ? right : nil
    }

    /// Whether the analyzer read plain integers as amounts on this receipt (`AMOUNT DUE 27500`).
    static func bareAmounts(_ lines: [AnalyzedLine]) -> Bool {
        lines.contains { l in
            l.trailing.contains { t in
                t.amount.scale == 0 && l.line.words[t.word].text.allSatisfy { !",.' ".contains($0) }
            }
        }
    }

    /// Drops the words printed wholly right of the amount column (a tip table or a second
    /// column beside the items), so the line's amount is the one in the column. A line whose
    /// words there hold a date or a time (a till's `16:58 19/05/18` under the totals) stays whole.
    static func keepColumn(_ l: inout AnalyzedLine, right: Double, wholeUnits: Bool, bare: Bool = false) {
        let slack = max(1, l.line.textHeight)
        let words = l.line.words
        var kept = words.filter { $0.place.minX <= right + slack }
        // An amount's currency printed after it and past the column (`TOTAL 13,10 EUR` under a heading's `Total`) is
        // the amount's: a money hit that starts on the kept words keeps the words it covers when they are a code or a
        // sign, no figures (a tax column's `SR` or `A` after an article's price is a tax code more often than a
        // currency; a further column's figures are that column's).
        if !kept.isEmpty, kept.count < words.count, kept.elementsEqual(words.prefix(kept.count)) {
            var end = kept.reduce(kept.count - 1) { $0 + $1.text.unicodeScalars.count }
            if let money = l.entities.first(where: { $0.type == .money && $0.range.start < end && end < $0.range.end })
            {
                var n = kept.count
                while n < words.count, end < money.range.end {
                    end += 1 + words[n].text.unicodeScalars.count
                    n += 1
                }
                if words[kept.count..<n].allSatisfy({ w in
                    !w.text.contains(where: \.isNumber) && !(1...2).contains(w.text.filter(\.isLetter).count)
                }) {
                    kept = Array(words.prefix(n))
                }
            }
        }
        guard kept.count < words.count, !kept.isEmpty else { return }
        // A line whose amount right of the column is its count times its price is an item's whole row (`0412638  2
        // 14.90  29.80` under `Qty  Price  Ant.`, an amount heading OCR misread): arithmetic, in any language.
        let whole = item(from: l, wholeUnits: wholeUnits)
        if let q = whole.quantity.flatMap({ Decimal(string: $0) }), q > 1,
            let price = whole.unitPrice.flatMap(Amount.init(decimalString:)),
            let amount = whole.amount.flatMap(Amount.init(decimalString:)),
            q * price.decimal == amount.decimal
        {
            return
        }
        // Debris left at the cut (`%`, `|`): no letters or digits.
        while kept.count > 1, let w = kept.last, !w.text.contains(where: { $0.isLetter || $0.isNumber }) {
            kept.removeLast()
        }
        // Read the line again without the words right of the column (`19.00 % 20%`: a tip table's cells).
        let line = LayoutLine(page: l.line.page, words: kept, level: l.line.level, ordered: true)
        let length = line.text.unicodeScalars.count
        if l.entities.contains(where: { ($0.type == .date || $0.type == .time) && $0.range.end > length }) { return }
        let (count, trailing) = LineAnalyzer.trailingAmounts(line, wholeUnits: wholeUnits, bare: bare)
        l = AnalyzedLine(
            line: line, labelWordCount: count, trailing: trailing,
            entities: l.entities.filter { $0.range.end <= length })
    }

    /// Items printed more than once under the same description at the same price a piece become one item
    /// with the counts and amounts added up (`1 rice 1.99` twice: `2 rice 3.98`), as long as neither
    /// carries a discount and their article numbers, when printed, agree. The source spans every line read.
    /// Another price is another item: two weighings, or a small and a large one of the same drink.
    static func mergingRepeats(_ items: [Receipt.Item]) -> [Receipt.Item] {
        var out: [Receipt.Item] = []
        var seen: [String: Int] = [:]
        for it in items {
            // `Amount.parse`, not `Amount(decimalString:)`: it reads no whole units, so rupiah or yen repeats stay
            // apart, as CORD's keys list them (merging them too cost its item recall 0.957 -> 0.936).
            let amount = it.amount.flatMap { Amount.parse($0[...]) }
            let count = Double(it.quantity ?? "1")
            // What makes a line the same order again: its description and its price a piece.
            var key: String?
            if it.discount == nil, case let name = Text.key(it.description), !name.isEmpty, let a = amount,
                let q = count,
                q == q.rounded(), q > 0
            {
                key = name + "\u{1}" + String(Double(a.cents) / q)
            }
            guard let key, let k = seen[key], out[k].discount == nil, let a = amount, let qa = count,
                let b = out[k].amount.flatMap({ Amount.parse($0[...]) }), let qb = Double(out[k].quantity ?? "1"),
                it.code == nil || out[k].code == nil || it.code == out[k].code
            else {
                if let key, seen[key] == nil { seen[key] = out.count }
                out.append(it)
                continue
            }
            var m = out[k]
            m.quantity = String(Int(qa + qb))
            m.amount = Amount.cents(a.cents + b.cents).decimalString
            m.unitPrice = a.cents % Int(qa) == 0 ? Amount.cents(a.cents / Int(qa)).decimalString : nil
            let modifiers = (m.modifiers ?? []) + (it.modifiers ?? [])
            m.modifiers = modifiers.isEmpty ? nil : modifiers
            var src = m.source
            src.text = [m.source.text, it.source.text].joined(separator: "\n")
            src.boundingBox = BoundingBox.enclosing([m.source.boundingBox, it.source.boundingBox].compactMap { $0 })?
                .rounded()
            src.confidence = min(m.source.confidence, it.source.confidence)
            m.source = src
            out[k] = m
        }
        return out
    }

    /// Whether the line `k`, read as more of the item right above it, is rather an item of its own whose price the till
    /// wrapped onto the next line (`Salmon - Sashimi  $10.00`, `3 Sockeye Salmon - Sashimi`, `$36.00`): it prints no
    /// amount, and the item line above it has its own already. (Under a longer run of continuations it is not known
    /// where the new name starts, and nothing changes.)
    static func wrapsItsPrice(_ k: Int, lines: [AnalyzedLine], labels: [ItemLineLabel]) -> Bool {
        guard k > 0, labels[k] == .continuation, lines[k].amount == nil else { return false }
        return labels[k - 1] == .item && lines[k - 1].amount != nil
    }
}
