import Foundation
import ScanDetectors
import ScanLayout
import ScanModel

// Items the printed sums prove: priced lines the line model left out, a discount whose minus OCR lost, a last
// line that adds the items up, and priced options billed apart.
extension ReceiptParser {
    /// Priced lines above the last item that the line model left out (a deposit `PFAND 0,25 A *`, a bottle return
    /// `LEERGUT -0,75`, an article of a refund slip) are items when the printed sums say so: with all of them
    /// the items and discounts add up to the subtotal, or to the total with or without the tax and tip, and
    /// without them they add up to none of these. Where else it looks, in order, is `completionTries`'s: priced lines
    /// between the last item and the summary (a service charge, `SERV.CHARGE(2%) 0.61`) for the printed subtotal, and
    /// for the total only with no label word and an amount that is none of the taxes printed apart, since a tax or a
    /// total under the items (`I.V.A.`, a total label OCR garbled) makes the total too but no subtotal holds it; with
    /// no item found, the lines under a column heading, then every line above the summary. An amount
    /// printed alone under a text line is that line's item (`completedLabels`). Runs once the summary is read.
    ///
    /// With `dollarMends` (a second pass once the summary's own misreads are mended, on a receipt that prints `$`), a
    /// completion may also need one item's leading 5 read as the `$` it was (`Salmon R 5.50` left out and `HiChk Steak
    /// 522.95`): the sums must hold with both and with exactly one such item.
    @discardableResult
    static func completeItemsBySums(_ reading: inout ItemReading, into r: inout Receipt, dollarMends: Bool = false)
        -> [Finding]
    {
        let cents = decimalCents, sum = itemsAndDiscounts
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
        let taxes = Set(r.tax.compactMap { cents($0.amount) })
        for (region, wanted, anyLine) in completionTries(
            reading, settled: settled, subtotal: cents(r.subtotal),
            total: cents(r.total), rounding: cents(r.rounding), targets: targets, taxes: taxes)
        {
            let labels = completedLabels(reading, settled: settled, region: region, anyLine: anyLine)
            guard labels != settled,
                !labels.indices.contains(where: {
                    labels[$0] != settled[$0] && taxes.contains(reading.lines[$0].amount?.cents ?? -1)
                })
            else { continue }
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

    /// An article whose line amount is not its count times its unit price (`3  34,47  203,42`, OCR's reading of
    /// `103,41`; `1  4.40  4.48`, one unit read two ways) takes the product when the printed sums prove it: with the
    /// product the items and discounts make one of them, with the amount as read none, and no other article's product
    /// would do the same. A weighed article (a unit printed, or a product in fractions of a cent), whose product the
    /// till rounds, is left alone.
    static func amountsByTheirProducts(_ r: inout Receipt) -> [Finding] {
        let cents = decimalCents
        guard let targets = itemSumTargets(r) else { return [] }
        let made = itemsAndDiscounts(r)
        guard !targets.contains(made) else { return [] }
        let fixes = r.items.indices.compactMap { i -> (item: Int, cents: Int)? in
            let item = r.items[i]
            guard item.kind == nil, item.unit == nil, let amount = cents(item.amount), amount > 0,
                let count = item.quantity.flatMap({ Decimal(string: $0) }), count >= 1,
                let price = item.unitPrice.flatMap({ Decimal(string: $0) }), price > 0
            else { return nil }
            let product = count * price * 100
            guard let whole = Int(exactly: NSDecimalNumber(decimal: product).doubleValue.rounded()),
                Decimal(whole) == product, whole != amount, targets.contains(made - amount + whole)
            else { return nil }
            return (i, whole)
        }
        guard fixes.count == 1, let fix = fixes.first, let old = r.items[fix.item].amount else { return [] }
        let value = decimalString(cents: fix.cents, like: old)
        r.items[fix.item].amount = value
        return [mended("receipt.items[\(fix.item)].amount", old, value)]
    }

    /// What the receipt's item amounts and bill discounts add up to, in cents (an item without an amount adds none).
    static func itemsAndDiscounts(_ r: Receipt) -> Int {
        r.items.compactMap { decimalCents($0.amount) }.reduce(0, +) + (decimalCents(r.discounts) ?? 0)
    }

    /// The sums a receipt's items and discounts may make: its subtotal, its total, and the total less its taxes and
    /// tip, less its tip, or less its taxes (a bill's total before a tip printed under it, `billBeforeTip`), each also
    /// before the cash rounding. Nil without a total.
    static func itemSumTargets(_ r: Receipt) -> Set<Int>? {
        let cents = decimalCents
        guard let total = cents(r.total) else { return nil }
        let tax = taxCents(r), tip = cents(r.tip) ?? 0
        let sums = [total, total - tax - tip, total - tip, total - tax]
        var targets = Set(sums + (cents(r.rounding).map { off in sums.map { $0 - off } } ?? []))
        if let subtotal = cents(r.subtotal) { targets.insert(subtotal) }
        return targets
    }

    /// A discount on the bill printed under the subtotal (`Subtotal $23.47`, `Promotion -$5.00`, fees, taxes, `Total
    /// $32.25`), its minus printed or not: a discount line of the receipt when the sums prove it, the subtotal with the
    /// fees, the taxes (added or included) and the tip and it making the total, and without it not. A recap of the
    /// discounts already taken off the articles (`YOU SAVED 3.20` under the total) makes no sum, and is none.
    static func billDiscountUnderTheSubtotal(
        _ lines: [AnalyzedLine], roles: [Role], summaryStart: Int, totalLine: Int?, reading: inout ItemReading,
        into r: inout Receipt
    ) {
        let cents = decimalCents
        guard let subtotal = cents(r.subtotal), let total = cents(r.total), let totalLine else { return }
        let sums = totalsOver(subtotal, of: r), off = cents(r.discounts) ?? 0
        let made = [sums.taxesAdded, sums.taxesIncluded].map { $0 + off }
        guard !made.contains(where: { abs($0 - total) <= 1 }) else { return }
        let found = (min(summaryStart, totalLine)..<totalLine).filter { i in
            roles[i] == .discount && (lines[i].amount?.cents ?? 0) != 0
        }
        guard found.count == 1, let i = found.first, let a = lines[i].amount,
            made.contains(where: { abs($0 - abs(a.cents) - total) <= 1 }),
            let source = lines[i].amountProvenance
        else { return }
        let amount = decimalString(cents: -abs(a.cents), like: a.decimalString)
        reading.discountLines.append(
            Receipt.Item(description: lines[i].label.trimmingCharacters(in: .whitespaces), amount: amount,
                         kind: .discount, source: source))
        r.discounts = decimalString(cents: off - abs(a.cents), like: a.decimalString)
    }

    /// An amount of the receipt model (a decimal string) in cents.
    static func decimalCents(_ s: String?) -> Int? { s.flatMap(Amount.init(decimalString:))?.cents }

    /// The receipt's taxes, added up, in cents.
    static func taxCents(_ r: Receipt) -> Int { r.tax.compactMap { decimalCents($0.amount) }.reduce(0, +) }

    /// The receipt's fees, added up, in cents.
    static func feeCents(_ r: Receipt) -> Int { (r.fees ?? []).compactMap { decimalCents($0.amount) }.reduce(0, +) }

    /// The totals `base` (the subtotal, or the items' sum) makes with the receipt's fees and tip, in cents: with its
    /// taxes added, and with them already in the prices (VAT- and GST-inclusive prices).
    static func totalsOver(_ base: Int, of r: Receipt) -> (taxesAdded: Int, taxesIncluded: Int) {
        let fees = feeCents(r), tip = decimalCents(r.tip) ?? 0
        return (base + fees + taxCents(r) + tip, base + fees + tip)
    }

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
        targets: Set<Int>, taxes: Set<Int> = []
    ) -> [(region: Range<Int>, targets: Set<Int>, anyLine: Bool)] {
        let end = min(reading.summaryStart, settled.count), top = min(reading.top, end)
        var tries: [(region: Range<Int>, targets: Set<Int>, anyLine: Bool)] = []
        if let lastItem = settled.lastIndex(where: { $0 != .other }) {
            tries.append((min(top, lastItem)..<lastItem, targets, true))
            if lastItem + 1 < end, let sub = subtotal { tries.append(((lastItem + 1)..<end, [sub], true)) }
            // Below it, only lines without a label word, and with a sum that takes a tax or tip printed apart off the
            // total (`Bakso 87.000` over `PB1 10%` and no subtotal); the total alone would take in a tax line whose
            // label no locale knows (`TX1 10,727`).
            var bare = Set([subtotal, total].compactMap { $0 })
            if let total, let rounding { bare.insert(total - rounding) }
            let net = targets.subtracting(bare)
            if lastItem + 1 < end, !net.isEmpty { tries.append(((lastItem + 1)..<end, net, false)) }
            // The total alone, when the tax is printed apart and the line's amount is none of it: an article whose
            // name holds a percentage (`Vollmilch 3,5%  14,05`, the model took it for a tax rate's line) over a
            // summary that prints no subtotal and a tax included in the total.
            if lastItem + 1 < end, !taxes.isEmpty, let total { tries.append(((lastItem + 1)..<end, [total], false)) }
        } else {
            if let h = reading.heading, h + 1 < end, !Text.hasAny(reading.lines[h].key, taxSummaryWords) {
                // (Not under a tax summary's heading, `GST Summary Amount (RM) Tax (RM)`, whose rows are no articles.)
                tries.append(((h + 1)..<end, targets, true))
            }
            // No heading either: every line above the summary (`Soep 9,71` over `TOTAAL EUR 9,71`), but no line with a
            // label word of any locale (`21-otal Sales 21.20`, `(RM) 7.00`: a total OCR garbled, a column's heading).
            if end > top { tries.append((top..<end, targets, false)) }
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
            let l = reading.lines[i], label = labels[i]
            // (An amount alone labelled an item has no name to give it: the line above may be its name.)
            let shortLabel = Text.letterCount(l.label) < 2
            guard label == .other || label == .item && shortLabel || label == .quantity else { continue }
            let parsed = item(from: l, wholeUnits: reading.wholeUnits)
            let nameless = shortLabel && Text.letterCount(parsed.description) < 2
            // (A line the model took for the count under an article may print a name, `01 14,10` for `Øl 14,10`.)
            let namedCount = label == .quantity && !nameless && !numbersAlone(parsed, of: l)
            guard label == .other || label == .item && nameless || namedCount else { continue }
            // (A payment word among an article's own words, `CHOCOLATE BAR`, `GIFT CARD`, gives the line a payment's
            // role but leaves it an article the sums may prove.)
            let roleFree = l.role == .none || l.role.isPayment && !paysOnly(l)
            guard let a = l.amount, a.minor != 0, roleFree, !l.holdsContactOrDate else { continue }
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
                a.minor > 0, parsed.quantity != nil,
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
}
