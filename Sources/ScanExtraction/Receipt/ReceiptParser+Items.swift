import Foundation
import ScanDetectors
import ScanLayout
import ScanModel

// Line items: columns, descriptions over several lines, quantities, weights and discounts.
extension ReceiptParser {
    /// Every locale's `columnHeading` and `amountHeading` words.
    static let columnHeaderWords = Set(lexicon.words(.columnHeading).phrases)
    static let amountHeaderWords = Set(lexicon.words(.amountHeading).phrases)

    /// A column heading line (`Item  Qty  Price`) among the first two thirds of the receipt, and the
    /// right edge of its rightmost price heading.
    static func priceHeading(_ lines: [AnalyzedLine]) -> (Int, Double)? {
        for (i, l) in lines.prefix(lines.count * 2 / 3 + 1).enumerated() where isColumnHeading(l) {
            if let right = l.line.words.last(where: isAmountHeading)?.place.maxX { return (i, right) }
        }
        return nil
    }

    /// A price column's heading word, with its currency glued on or not: `Amount`, `Amt(RM)`, `Price/EUR`, also misread
    /// in one look-alike letter (`Totai`).
    static func isAmountHeading(_ w: LayoutWord) -> Bool {
        lexicon.labelSpelling.mended(Text.key(w.text)).split(separator: " ").contains {
            amountHeaderWords.contains(String($0))
        }
    }

    /// The second row of a column heading: one to four heading words and nothing else.
    static func isHeadingRest(_ l: AnalyzedLine) -> Bool {
        let words = l.key.split(separator: " ").map(String.init)
        return (1...4).contains(words.count) && words.allSatisfy(columnHeaderWords.contains) && l.amount == nil
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
    static func itemRegion(_ lines: [AnalyzedLine], roles: [Role], summaryStart: Int) -> (
        lines: [AnalyzedLine], heading: Int?
    ) {
        var heading: Int?
        var headerColumn: Double?
        for (i, l) in lines.prefix(summaryStart).enumerated() where isColumnHeading(l) {
            heading = i
            // The rightmost price heading (`Price`, `Amount`, `Total`) ends the amount column.
            headerColumn = l.line.words.last(where: isAmountHeading)?.place.maxX
        }
        // A heading set on two rows (`Item  Qty  Price  Total`, then `Description`): the second row holds
        // heading words only.
        while let h = heading, h + 1 < min(summaryStart, lines.count), isHeadingRest(lines[h + 1]) { heading = h + 1 }
        var out = lines
        guard let column = headerColumn ?? amountColumn(lines, roles: roles, from: summaryStart) else {
            return (out, heading)
        }
        let wholeUnits = printsWholeUnits(lines)
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
        /// The labels as `settledLabels` settled them, and the discount lines (items of kind `.discount`, in print
        /// order), when `setItems` last assembled the items from this reading.
        var settled: [ItemLineLabel] = []
        var discountLines: [Receipt.Item] = []
    }

    /// Labels every line with the learned item-line model, then assembles the items:
    /// an item line opens an item, continuation and quantity lines join it, a discount line
    /// hangs under the item before it.
    @discardableResult
    func parseItems(_ lines: [AnalyzedLine], roles: [Role], summaryStart: Int, tail: Int, into r: inout Receipt)
        -> ItemReading
    {
        let (lines, heading) = Self.itemRegion(lines, roles: roles, summaryStart: summaryStart)
        let rows = ItemLineFeatures.rows(lines, roles: roles, summaryStart: summaryStart, heading: heading)
        let outside = Self.summaryLines(lines, roles: roles, summaryStart: summaryStart, tail: tail)
        var reading = ItemReading(
            lines: lines, labels: itemModel.decode(rows, outside: outside), summaryStart: summaryStart,
            wholeUnits: Self.printsWholeUnits(lines), heading: heading)
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
            case .tendered, .change: return lexicon.isLabelOnly(lines[i].labelKey)
            default: return false
            }
        }
    }

    /// A role that only a summary line plays: a total, subtotal, tax, tip, rounding or payment (a discount may hang
    /// under an item).
    static func isSummaryRole(_ role: Role) -> Bool {
        switch role {
        case .total, .subtotal, .tax, .tip, .rounding, .tendered, .change, .quantityTotal: return true
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

    /// Priced lines above the last item that the line model left out (a deposit `PFAND 0,25 A *`, a bottle return
    /// `LEERGUT -0,75`, an article of a refund slip) are items when the printed sums say so: with all of them
    /// the items and discounts add up to the subtotal, or to the total with or without the tax and tip, and
    /// without them they add up to none of these. Where else it looks, in order, is `completionTries`'s: priced lines
    /// between the last item and the summary (a service charge, `SERV.CHARGE(2%) 0.61`) only for the printed subtotal,
    /// since a tax or a total under the items (`I.V.A.`, a total label OCR garbled) makes the total too but no subtotal
    /// holds it; with no item found, the lines under a column heading, then every line above the summary. An amount
    /// printed alone under a text line is that line's item (`completedLabels`). Runs once the summary is read.
    ///
    /// With `dollarMends` (a second pass once the summary's own misreads are mended, on a receipt that prints `$`), a
    /// completion may also need one item's leading 5 read as the `$` it was (`Salmon R 5.50` left out and `HiChk Steak
    /// 522.95`): the sums must hold with both and with exactly one such item.
    @discardableResult
    static func completeItemsBySums(_ reading: inout ItemReading, into r: inout Receipt, dollarMends: Bool = false)
        -> [Finding]
    {
        let cents = decimalCents
        func sum(_ x: Receipt) -> Int {
            x.items.compactMap { cents($0.amount) }.reduce(0, +) + (cents(x.discounts) ?? 0)
        }
        guard let targets = itemSumTargets(r), !targets.contains(sum(r)) else { return [] }
        let settled = reading.settled
        // A discount whose minus OCR lost (`10% off  2.34`, the minus read as a stop): an article's line with a
        // percentage or a discount word, or whose amount opens with the stop a thin minus leaves (`Kampagne .8.30`),
        // that the sums prove is taken off.
        for i in settled.indices where settled[i] == .item {
            let l = reading.lines[i]
            guard (l.amount?.minor ?? 0) > 0, mayBeDiscount(l) || minusReadAsStop(l) else { continue }
            var completed = r, read = reading
            read.labels = settled
            read.labels[i] = .discount
            setItems(&read, into: &completed)
            if targets.contains(sum(completed)) { (r, reading) = (completed, read); return [] }
        }
        for (region, wanted, anyLine) in completionTries(
            reading, settled: settled, subtotal: cents(r.subtotal),
            total: cents(r.total), rounding: cents(r.rounding), targets: targets)
        {
            let labels = completedLabels(reading, settled: settled, region: region, anyLine: anyLine)
            guard labels != settled else { continue }
            var completed = r, read = reading
            read.labels = labels
            setItems(&read, into: &completed)
            let made = sum(completed)
            if wanted.contains(made) { (r, reading) = (completed, read); return [] }
            guard dollarMends, let (finding, _) = mendOneDollar(&completed.items, sum: made, targets: wanted) else {
                continue
            }
            (r, reading) = (completed, read)
            return [finding]
        }
        return []
    }

    /// The sums a receipt's items and discounts may make: its subtotal, its total, and the total less its taxes and tip
    /// or less its tip, each also before the cash rounding. Nil without a total.
    static func itemSumTargets(_ r: Receipt) -> Set<Int>? {
        let cents = decimalCents
        guard let total = cents(r.total) else { return nil }
        let tax = r.tax.compactMap { cents($0.amount) }.reduce(0, +), tip = cents(r.tip) ?? 0
        // (A total before a tip printed under it, `billBeforeTip`, less its taxes too.)
        let sums = [total, total - tax - tip, total - tip, total - tax]
        var targets = Set(sums + (cents(r.rounding).map { off in sums.map { $0 - off } } ?? []))
        if let subtotal = cents(r.subtotal) { targets.insert(subtotal) }
        return targets
    }

    /// An amount of the receipt model (a decimal string) in cents.
    static func decimalCents(_ s: String?) -> Int? { s.flatMap(Amount.init(decimalString:))?.cents }

    /// A last item whose amount is the sum of the items above it is the line that adds them up (an unlabelled or
    /// garbled subtotal, `ST 225,000` under `1.5 JAM 225,000`), when the printed sums say so: the items make one of
    /// them without it and none with it. (Without that proof a last item may add up the others by chance: `Kopi 3.00`,
    /// `Teh 3.00`, `Roti Set 6.00`, with a service charge the sums do not count.)
    static func dropItemsSumLine(_ r: inout Receipt) {
        let cents = decimalCents
        guard r.items.count >= 2, let targets = itemSumTargets(r), let last = cents(r.items.last?.amount), last > 0
        else { return }
        let off = cents(r.discounts) ?? 0
        let above = r.items.dropLast().compactMap { cents($0.amount) }.reduce(0, +)
        guard last == above || last == above + off, targets.contains(above + off), !targets.contains(above + last + off)
        else { return }
        r.items.removeLast()
    }

    /// Where `completeItemsBySums` looks for left-out items, in order, with the sums that prove them and whether a
    /// line with a label word may be one. Only lines above the last item the model found, for every sum, then those
    /// between it and the summary for the subtotal, then those of them without a label word for the total less a tax
    /// or tip. With no item found, the lines between a column heading and
    /// the summary (`QTY DESCRIPTION PRICE`, `Brötchen 25,32`, `Summe 25,32`), then every line above the summary.
    static func completionTries(
        _ reading: ItemReading, settled: [ItemLineLabel], subtotal: Int?, total: Int?, rounding: Int?,
        targets: Set<Int>
    ) -> [(region: Range<Int>, targets: Set<Int>, anyLine: Bool)] {
        let end = min(reading.summaryStart, settled.count)
        var tries: [(region: Range<Int>, targets: Set<Int>, anyLine: Bool)] = []
        if let lastItem = settled.lastIndex(where: { $0 != .other }) {
            tries.append((0..<lastItem, targets, true))
            if lastItem + 1 < end, let sub = subtotal { tries.append(((lastItem + 1)..<end, [sub], true)) }
            // Below it, only lines without a label word, and with a sum that takes a tax or tip printed apart off the
            // total (`Bakso 87.000` over `PB1 10%` and no subtotal); the total alone would take in a tax line whose
            // label no locale knows (`TX1 10,727`).
            var bare = Set([subtotal, total].compactMap { $0 })
            if let total, let rounding { bare.insert(total - rounding) }
            let net = targets.subtracting(bare)
            if lastItem + 1 < end, !net.isEmpty { tries.append(((lastItem + 1)..<end, net, false)) }
        } else {
            if let h = reading.heading, h + 1 < end, !Text.hasAny(reading.lines[h].key, taxSummaryWords) {
                // (Not under a tax summary's heading, `GST Summary Amount (RM) Tax (RM)`, whose rows are no articles.)
                tries.append(((h + 1)..<end, targets, true))
            }
            // No heading either: every line above the summary (`Soep 9,71` over `TOTAAL EUR 9,71`), but no line with a
            // label word of any locale (`21-otal Sales 21.20`, `(RM) 7.00`: a total OCR garbled, a column's heading).
            if end > 0 { tries.append((0..<end, targets, false)) }
        }
        return tries
    }

    /// `settled` with the priced lines of `region` that the line model left out (or read as an item without a name)
    /// labelled as items; with `anyLine` false, no line with a label word of any locale.
    static func completedLabels(
        _ reading: ItemReading, settled: [ItemLineLabel], region: Range<Int>,
        anyLine: Bool
    ) -> [ItemLineLabel] {
        // What the sums alone make a name: a line that may name an article, with no entity at all and no label word.
        func provedName(_ l: AnalyzedLine) -> Bool {
            couldNameAnArticle(l) && l.entities.isEmpty && !lexicon.hasLabelWord(l.key)
        }
        var labels = settled
        for i in region {
            let l = reading.lines[i]
            // (An amount alone labelled an item has no name to give it: the line above may be its name.)
            let nameless = Text.letterCount(l.label) < 2
            guard labels[i] == .other || labels[i] == .item && nameless else { continue }
            guard let a = l.amount, a.minor != 0, l.role == .none, !l.holdsContactOrDate else { continue }
            guard anyLine || !lexicon.hasLabelWord(Text.key(l.label)) else { continue }
            if !nameless {
                labels[i] = .item
            } else if i > region.lowerBound, labels[i - 1] == .other || labels[i - 1] == .modifier,
                provedName(reading.lines[i - 1])
            {
                // An amount printed alone under its name (`BIER` / `10,40`; `3 FRIET` read as the modifier of the item
                // above, `101,88` as an item without a name).
                labels[i - 1] = .item
                labels[i] = .quantity
            } else if i + 1 < region.upperBound && labels[i + 1] == .other
                || i + 1 < labels.count && labels[i + 1] == .item,
                a.minor > 0, item(from: l, wholeUnits: reading.wholeUnits).quantity != nil,
                provedName(reading.lines[i + 1])
            {
                // A count and its amount printed over the name (`1x 22.000  Rp. 22.000` / `Ice t grentea`), also over a
                // name the model took for an item of no price (`7393728066426 2 27.52  55.04` / `Batteries AA`).
                labels[i] = .item
                labels[i + 1] = .continuation
            }
        }
        return labels
    }

    /// A modifier that prints its own price (`*american ch*  0.70` under a burger) is billed like an item: it
    /// becomes an item of its own after the one it modifies, unless the summary prints the sum the items give
    /// without it and not the sum with it (then the price is already inside its item's, as CORD's sets print it).
    /// `labels` are the model's, `settled` as `settledLabels` settled them.
    static func pricedModifiersApart(
        _ items: [Receipt.Item], lines: [AnalyzedLine], labels: [ItemLineLabel],
        settled: [ItemLineLabel], summaryStart: Int, off: Int, wholeUnits: Bool
    ) -> [Receipt.Item] {
        guard labels.indices.contains(where: { labels[$0] == .modifier && pricesItself(lines[$0]) }) else {
            return items
        }
        let (apart, _) = assembleSettled(lines, labels: settled, wholeUnits: wholeUnits, modifiersApart: true)
        guard apart.count != items.count else { return items }
        let printed = Set(lines[min(summaryStart, lines.count)...].compactMap { $0.amount?.cents })
        func sum(_ its: [Receipt.Item]) -> Int { its.compactMap { decimalCents($0.amount) }.reduce(off, +) }
        return printed.contains(sum(items)) && !printed.contains(sum(apart)) ? items : apart
    }

    /// A modifier line that bills itself: a name and a price other than 0.
    static func pricesItself(_ l: AnalyzedLine) -> Bool {
        (l.amount.map { $0.minor != 0 } ?? false) && Text.letterCount(l.label) >= 2
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
        // EUR/kg`), is its quantity line, whatever its label says: arithmetic.
        for i in lines.indices.dropFirst()
        where [.other, .modifier, .continuation].contains(labels[i]) && labels[i - 1] == .item {
            let parsed = item(from: lines[i], wholeUnits: wholeUnits)
            guard let amount = lines[i - 1].amount, lines[i].role == .none, parsed.amount == nil || labels[i] == .other,
                let q = parsed.quantity.flatMap({ Decimal(string: $0) }),
                let price = parsed.unitPrice.flatMap(Amount.init(decimalString:)),
                lettersBesideCount(parsed.description) < 2
            else { continue }
            let made =
                parsed.unit != nil
                ? weighedPriceRounds(q * price.decimal, to: amount)
                : labels[i] == .other && q > 1 && q * price.decimal == amount.decimal
            if made { labels[i] = .quantity }
        }
        // A line under an item whose own price and count make its amount (`김밥  3,500  1  3,500`, a table's row of name,
        // price, count and amount) is an item too, whatever its label says: arithmetic.
        for i in lines.indices.dropFirst()
        where labels[i] == .other && [.item, .continuation, .quantity, .modifier].contains(labels[i - 1]) {
            guard lines[i].role == .none, let amount = lines[i].amount, amount.minor > 0 else { continue }
            let parsed = item(from: lines[i], wholeUnits: wholeUnits)
            guard let q = parsed.quantity.flatMap({ Decimal(string: $0) }), q >= 1,
                let price = parsed.unitPrice.flatMap(Amount.init(decimalString:)), q * price.decimal == amount.decimal,
                Text.letterCount(parsed.description) >= 2
            else { continue }
            labels[i] = .item
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
        mendArticlesOnTwoLines(lines, &labels, headingRows: headingRows, wholeUnits: wholeUnits)
        // A negative amount right under an item takes something off it, whatever its label says. So does a line of one
        // or two discount words alone with its amount, though OCR lost its minus or read it as a stop (`Korting
        // .3,73`): the words say the sign. (`Sub Total Before Discount` is more.)
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
        var joined = [pastEnd(inFirst, step: -1, across: 3), pastEnd(inLast, step: 1, across: 3)].compactMap { $0 }
        // Inside the table, such a row taken for an option of the article above is one of its rows too.
        joined += (inFirst...inLast).filter { !numbers.contains($0) && leftOut($0, beside: inFirst) }
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
                if let o = open, priced, o.contains(where: { lines[$0].amount != nil }), i + 1 < lines.count,
                    labels[i + 1] == .item, lines[i + 1].amount == nil
                {
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
                if let g = groups.indices.last, discountOf[g] == nil, let above, -d.decimal <= above {
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
        var kept = l.line.words.filter { $0.place.minX <= right + slack }
        guard kept.count < l.line.words.count, !kept.isEmpty else { return }
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

    static let weightUnits = "kg|g|lb|lbs|oz|l"
    /// `1,500 kg x 1,99 EUR/kg`, `0.456 lb @ $2.99/lb`, `1,5kg * 2,49 €/kg`, `0,840 kg  1,99 €/kg`.
    static let weighedPattern =
        #"(\d+(?:[.,]\d{1,3})?)\s*("# + weightUnits
        + #")\b\s*(?:[x×@*]\s*)?[$€£]?\s*(\d+(?:[.,]\d{1,3})?)\s*(?:[A-Z€$£]{1,3})?\s*/\s*("#
        + weightUnits + #")\b"#
    /// The price per one unit written after it: `2.18 lb @ 1 lb /0.52`.
    static let perOneUnitPattern =
        #"(\d+(?:[.,]\d{1,3})?)\s*("# + weightUnits + #")\b\s*@\s*1\s*(?:"# + weightUnits
        + #")\b\s*/\s*[$€£]?\s*(\d+(?:[.,]\d{1,3})?)"#

    /// Where a weight and its price per unit stand in `text`, and the weight, unit and price as printed.
    static func weighed(_ text: String) -> (Range<String.Index>, [String])? {
        for pattern in [weighedPattern, perOneUnitPattern] {
            if let m = Text.range(text, pattern, caseInsensitive: true),
                let groups = Text.groups(text, pattern, caseInsensitive: true), groups.count >= 3
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

    /// Quantity, unit, unit price and amount of one item line (the amount is nil when the line
    /// prints none, or only a unit price: `2 x 3.50`).
    static func item(from l: AnalyzedLine, wholeUnits: Bool) -> Receipt.Item {
        var words = Array(l.line.words.prefix(l.labelWordCount).map(\.text))
        var quantity: String?, unit: String?, unitPrice: String?
        var amounts = l.trailing.map(\.amount)
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
            } else {
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
        } else if let m = Text.range(
            joined,
            #"(?:^|\s)(\d{1,3}(?:[.,]\d{1,3})?)\s*"# + countUnitPattern
                + #"[xX×@*]\s*(?:\S*\d[\d.,]*)?\s*$"#)
        {
            let s = String(joined[m]).trimmingCharacters(in: .whitespaces)
            let q = s.prefix { $0.isNumber || $0 == "." || $0 == "," }
            quantity = quantityString(q)
            if let p = s.split(whereSeparator: {
                $0 == "x" || $0 == "X" || $0 == "×" || $0 == "@" || $0 == "*" || $0 == " "
            }).dropFirst().last,
                let a = Amount.parse(p, wholeUnits: wholeUnits)
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
        // A leading count: `2 Lunch`, `2x Coffee`, `1 @`.
        if quantity == nil, words.count > 1, let digits = countDigits(words[0]), let n = Int(digits), n > 0 {
            quantity = String(n)
            words.removeFirst()
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
        if quantity == nil, words.count > 1, let last = words.last, last.count <= 3, last.allSatisfy(\.isNumber),
            let n = Int(last), n > 0
        {
            quantity = String(n)
            words.removeLast()
            if unitPrice == nil, words.count > 1, let amount = amounts.last,
                let price = unitPriceColumn(words.last!, amount: amount, quantity: quantity, wholeUnits: wholeUnits)
            {
                unitPrice = price.decimalString
                words.removeLast()
            }
        }
        // Strip OCR debris before the description: `|`, `•`, lone punctuation.
        while let f = words.first, !f.contains(where: { $0.isLetter || $0.isNumber }) { words.removeFirst() }
        let code = articleCode(&words)
        let desc = lettersForZerosInName(Text.clean(words.joined(separator: " ")))
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
    static func articleCode(_ words: inout [String]) -> String? {
        func isCode(_ w: String) -> Bool { (8...14).contains(w.count) && w.allSatisfy { $0.isASCII && $0.isNumber } }
        var rest = words
        let code: String
        if rest.count >= 2, isCode(rest[0]) {
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

    /// Whether the line `k`, read as more of the item right above it, is rather an item of its own whose price the till
    /// wrapped onto the next line (`Salmon - Sashimi  $10.00`, `3 Sockeye Salmon - Sashimi`, `$36.00`): it prints no
    /// amount, and the item line above it has its own already. (Under a longer run of continuations it is not known
    /// where the new name starts, and nothing changes.)
    static func wrapsItsPrice(_ k: Int, lines: [AnalyzedLine], labels: [ItemLineLabel]) -> Bool {
        guard k > 0, labels[k] == .continuation, lines[k].amount == nil else { return false }
        return labels[k - 1] == .item && lines[k - 1].amount != nil
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
        l.amount == nil && l.role == .none && Text.letterCount(l.text) >= 2 && !isFieldLine(l) && !l.holdsContactOrDate
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
    static func unitPriceColumn(_ word: String, amount: Amount, quantity: String?, wholeUnits: Bool) -> Amount? {
        guard amount.minor > 0, word.first?.isNumber == true,
            let price = Amount.parse(word[...], wholeUnits: wholeUnits, bare: true)
        else { return nil }
        let count = quantity.flatMap { Decimal(string: $0) } ?? 1
        guard count > 0, price.decimal * count == amount.decimal else { return nil }
        return price
    }
}
