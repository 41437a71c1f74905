import Foundation
import ScanDetectors
import ScanModel

// Amounts the receipt's own arithmetic proves misread, mended: a dollar sign read as a 5
// (`$22.95` as `522.95`), and a decimal point read as a space (`$86 65`). Each mend needs the
// sums to agree after it and not before, and the receipt to print its amounts with `$`.
extension ReceiptParser {
    /// `dollars`: whether the receipt prints its amounts with `$` (`printsDollars`); nothing is mended on one that does
    /// not.
    func mendMisreadAmounts(_ lines: [AnalyzedLine], roles: [Role], dollars: Bool, into r: inout Receipt) -> [Finding] {
        guard let total = r.total.flatMap({ Self.cents($0) }), dollars else { return [] }
        var findings: [Finding] = []
        let sums = Self.printedSums(r)
        let tip = sums.tip
        var itemsSum = r.items.count >= 2 ? sums.items : nil

        // The items against the subtotal, or else the total less tip and taxes (a tax may hold the same
        // misread): one item's leading 5 a `$`.
        let taxSum = r.tax.compactMap { Self.cents($0.amount) }.reduce(0, +)
        // Each tax whose leading 5 may be a `$`: the amount mended, and what that adds to the taxes' sum.
        let taxFixes = r.tax.indices.compactMap { i -> (i: Int, fixed: String, delta: Int)? in
            guard let fixed = Self.withoutMisreadDollar(r.tax[i].amount, printedIn: r.tax[i].source.text),
                let c = Self.cents(fixed), let old = Self.cents(r.tax[i].amount)
            else { return nil }
            return (i, fixed, c - old)
        }
        // The taxes' sum as read, and with one tax's leading 5 taken for a `$`.
        let taxSums = [taxSum] + taxFixes.map { taxSum + $0.delta }
        var targets: Set<Int> = []
        if let sub = r.subtotal.flatMap({ Self.cents($0) }) {
            targets = [sub]
        } else if !r.tax.isEmpty {
            targets = Set(taxSums.map { total - tip - $0 })
        }
        if let sum = itemsSum, !targets.isEmpty, !targets.contains(sum),
            let (finding, made) = Self.mendOneDollar(&r.items, sum: sum, targets: targets)
        {
            findings.append(finding)
            itemsSum = made
        }

        // No subtotal read, but a subtotal line whose amount lost its decimal point (`$86 65`): it is the
        // subtotal when it gives the items' sum, or when with the taxes and tip it makes the total.
        if r.subtotal == nil {
            for (i, l) in lines.enumerated() where roles[i] == .subtotal && l.amount == nil {
                guard let m = Text.range(l.text, #"\$?\s?\d{1,6} \d{2}\s*$"#),
                    let c = Int(l.text[m].filter(\.isNumber)),
                    c == itemsSum || !r.tax.isEmpty && taxSums.contains(total - tip - c)
                else { continue }
                let value = Amount.cents(c).decimalString
                r.subtotal = value
                r.provenance["subtotal"] = l.line.provenance()
                findings.append(
                    Self.mended("receipt.subtotal", String(l.text[m]).trimmingCharacters(in: .whitespaces), value))
                break
            }
        }

        // One tax against the subtotal (or the items' sum) and the total: its leading 5 a `$`.
        if let sub = r.subtotal.flatMap({ Self.cents($0) }) ?? itemsSum, !r.tax.isEmpty, sub + taxSum + tip != total {
            let fixes = taxFixes.filter { sub + taxSum + $0.delta + tip == total }
            if fixes.count == 1, let (i, fixed, _) = fixes.first {
                findings.append(Self.mended("receipt.tax[\(i)].amount", r.tax[i].amount, fixed))
                r.tax[i].amount = fixed
            }
        }
        return findings
    }

    /// A total that OCR cut with a space (`2 14.72`, `213,3 7`, `2 76 .52`) or read with a letter for a digit (`B9.73`,
    /// `3S.66`), mended: the last one to three number tokens of a total line (or of the value line under its label)
    /// joined, look-alike letters read as digits, when that gives the amount the receipt's own sums
    /// make (subtotal, taxes and tip; tendered less change, or tendered when no change is printed; the items' sum
    /// of two items or more, alone or with taxes and tip) and the total as read makes none of the printed ones (or,
    /// where none is printed, none of the items'). A currency sign glued to the first token is no part of the number
    /// (`TOTAL  R$93, 41`).
    func mendSplitTotal(_ lines: [AnalyzedLine], roles: [Role], into r: inout Receipt) -> [Finding] {
        var printed: Set<Int> = [], fromItems: Set<Int> = []
        let sums = Self.printedSums(r)
        if let sub = sums.subtotal, let taxes = sums.taxes { printed.insert(sub + taxes + sums.tip) }
        if let t = sums.tendered { printed.insert(t - (sums.change ?? 0)) }
        if let items = sums.items, r.items.count >= 2 {
            fromItems.insert(items)
            if let taxes = sums.taxes { fromItems.insert(items + taxes + sums.tip) }
        }
        // The total as read must make none of the printed sums, or, where none is printed, none of the items' (a total
        // read as the subtotal is the items' sum too, and still mended when the taxes or the payment say otherwise).
        let expected = printed.union(fromItems)
        let witnesses = printed.isEmpty ? fromItems : printed
        guard !expected.isEmpty, r.total.flatMap({ Self.cents($0) }).map({ !witnesses.contains($0) }) ?? true else {
            return []
        }
        var found: [(line: Int, amount: Amount, printed: String)] = []
        for (i, role) in roles.enumerated() {
            guard case .total = role else { continue }
            for k in [i, i + 1] where k < lines.count && (k == i || Text.letterCount(lines[k].text) <= 3) {
                guard let tokens = Self.numberTokens(lines[k].line.words.map(\.text)) else { continue }
                for n in [1, 2, 3] where tokens.count >= n {
                    let tail = tokens.suffix(n)
                    let joined = tail.joined()
                    let digits = Amount.digitsForLookAlikes(joined)
                    // One token is the reading itself unless a letter in it stood for a digit.
                    guard n > 1 || digits != joined, let a = Amount.parse(digits[...]), expected.contains(a.cents)
                    else { continue }
                    found.append((k, a, tail.joined(separator: " ")))
                }
            }
        }
        guard let first = found.first, found.allSatisfy({ $0.amount.cents == first.amount.cents }) else { return [] }
        let value = first.amount.decimalString
        let finding = Self.mended("receipt.total", first.printed, value)
        r.total = value
        r.provenance["total"] = lines[first.line].line.provenance()
        return [finding]
    }

    /// A total one digit off the amount that two of the receipt's sums agree on (`Total Amount 24.79`, read for
    /// `14.79`): the items add up to the subtotal (two items or more), the subtotal with the taxes and tip makes that
    /// amount, it has as many digits as the total read, and they differ in one place only. The payment, where it makes
    /// the total as read, keeps it; so does a rounding, which the sums do not count.
    func mendTotalOneDigitOff(rounding: (line: Int, cents: Int)?, into r: inout Receipt) -> [Finding] {
        let sums = Self.printedSums(r)
        guard r.items.count >= 2, rounding == nil, let sub = sums.subtotal, sums.items == sub,
            let taxes = sums.taxes, taxes > 0, let printed = r.total, let total = Self.cents(printed)
        else { return [] }
        let made = sub + taxes + sums.tip
        if let t = sums.tendered, t - (sums.change ?? 0) == total { return [] }
        // The bill's total before a tip printed under it agrees without the tip (`billBeforeTip`).
        if sums.tip > 0 && sub + taxes == total { return [] }
        let a = Array(String(total)), b = Array(String(made))
        guard total != made, total > 0, a.count == b.count, zip(a, b).filter({ $0 != $1 }).count == 1 else {
            return []
        }
        let value = Self.decimalString(cents: made, like: printed)
        r.total = value
        return [Self.mended("receipt.total", printed, value)]
    }

    /// The total when the receipt rounds it (`ROUNDING ADJ. -0.01`): the total picked plus the rounding, when the
    /// rounding line follows the total (or the subtotal the total was taken from: `Sub Total 2,771.39`, `Round Off
    /// -0.39`, `NET AMOUNT 2,771.00`) and that amount is printed under it: within two lines on a labelled line of any
    /// role but the change's (`Total After Adj 42.50`), or, with no total line under the rounding, on a line of no
    /// role (`RM 60.30`).
    func mendRoundedTotal(
        _ lines: [AnalyzedLine], roles: [Role], rounding: (line: Int, cents: Int)?, into r: inout Receipt
    ) {
        guard let total = r.total.flatMap({ Self.cents($0) }), let (k, rounding) = rounding else { return }
        let rounded = total + rounding
        let totalAbove = (0..<k).contains { i in
            switch roles[i] {
            case .total, .subtotal: break
            default: return false
            }
            return lines[i].amount?.cents == total
                || i + 1 < k && Self.valueOnly(lines[i + 1]) && lines[i + 1].amount?.cents == total
        }
        guard totalAbove else { return }
        // The amount due printed right under the rounding with a label, whatever the label's role but the change's
        // (`Total After Adj Incl GST 42.50`, read as a tax line for its `GST`; `Amount To Be Paid : 25.45`, a
        // payment's for its `PAID`; cash handed over that is just the rounded amount says it too).
        if let due = ((k + 1)..<min(lines.count, k + 3)).first(where: { i in
            roles[i] != .change && Text.letterCount(lines[i].label) >= 2 && lines[i].amount?.cents == rounded
        }) {
            r.total = Amount.cents(rounded).decimalString
            r.provenance["total"] = lines[due].amountProvenance ?? lines[due].line.provenance()
            return
        }
        // Further down, only on a line of no role, and with no total line under the rounding, which states the
        // amount due itself.
        let totalBelow = ((k + 1)..<lines.count).contains { i in
            guard case .total = roles[i] else { return false }
            return lines[i].amount != nil || i + 1 < lines.count && Self.valueOnly(lines[i + 1])
        }
        guard !totalBelow,
            let i = ((k + 1)..<lines.count).first(where: { roles[$0] == .none && lines[$0].amount?.cents == rounded })
        else { return }
        r.total = Amount.cents(rounded).decimalString
        r.provenance["total"] = lines[i].amountProvenance ?? lines[i].line.provenance()
    }

    /// The receipt's amounts as the sums read them, in cents: the taxes' sum only when every tax was read, the tip 0
    /// when none is printed, the items' sum (their discounts taken off) only when every item has its amount.
    struct PrintedSums {
        var subtotal: Int?
        var taxes: Int?
        var tip: Int
        var tendered: Int?
        var change: Int?
        var items: Int?
    }

    static func printedSums(_ r: Receipt) -> PrintedSums {
        let taxes = r.tax.compactMap { cents($0.amount) }
        let items = r.items.compactMap { $0.amount.flatMap { cents($0) } }
        return PrintedSums(
            subtotal: r.subtotal.flatMap { cents($0) },
            taxes: !taxes.isEmpty && taxes.count == r.tax.count ? taxes.reduce(0, +) : nil,
            tip: r.tip.flatMap { cents($0) } ?? 0,
            tendered: r.payment?.tendered.flatMap { cents($0) }, change: r.payment?.change.flatMap { cents($0) },
            items: !items.isEmpty && items.count == r.items.count
                ? items.reduce(0, +) + (r.discounts.flatMap { cents($0) } ?? 0) : nil)
    }

    /// The last rounding line with an amount under a whole unit, and that amount in cents, signed. A till that prints
    /// the rounding without its sign shows it by the amounts around it: taken off when an amount under the line is one
    /// above it less the rounding and none is one above it plus it (`Total Incl GST 60.32`, `Rounding 0.02`, `Total
    /// 60.30` is -0.02); as printed otherwise.
    static func rounding(_ lines: [AnalyzedLine], roles: [Role]) -> (line: Int, cents: Int)? {
        guard let k = lines.indices.last(where: { roles[$0] == .rounding && lines[$0].amount != nil }),
            let c = lines[k].amount?.cents, c != 0, abs(c) < 100
        else { return nil }
        let above = Set(lines[..<k].compactMap { $0.amount?.cents })
        let below = lines[(k + 1)...].compactMap { $0.amount?.cents }
        let added = below.contains { above.contains($0 - c) }, takenOff = below.contains { above.contains($0 + c) }
        return (k, takenOff && !added ? -c : c)
    }

    /// The receipt's `rounding`, as `rounding(_:roles:)` signed it.
    static func setRounding(_ lines: [AnalyzedLine], rounding: (line: Int, cents: Int)?, into r: inout Receipt) {
        guard let (k, c) = rounding else { return }
        r.rounding = Amount.cents(c).decimalString
        r.provenance["rounding"] = lines[k].amountProvenance ?? lines[k].line.provenance()
    }

    /// A total that makes none of the receipt's sums gives way to what was paid (tendered less change, both printed)
    /// when the subtotal makes that: with the taxes and tip added, or alone (taxes included), with the rounding or
    /// without (`Total 112.46` under `Sub Total 106.10`, `GST 6.37`, `Rounding -0.02`, paid `112.45`, change `0.00`;
    /// `Net Total 25. J` misread and the cash `50.00` picked, under `SubTotal 25.00`, change `25.00`). With no subtotal
    /// read, the items' sum stands for it (`Total R525,29`, `R$25,20` misread, under one item of `25.20`, paid `30,00`
    /// with `4,80` back). `rounding` is the receipt's rounding line and amount (`rounding(_:roles:)`).
    func mendTotalByPayment(rounding: (line: Int, cents: Int)?, into r: inout Receipt) -> [Finding] {
        let printed = Self.printedSums(r)
        guard let total = r.total.flatMap({ Self.cents($0) }), let sub = printed.subtotal ?? printed.items,
            let tendered = printed.tendered,
            let change = printed.change
        else { return [] }
        let due = tendered - change
        var sums: Set<Int> = [sub]
        // (A tip printed after the bill's total is not in it: `billBeforeTip`.)
        if let taxes = printed.taxes { sums.formUnion([sub + taxes + printed.tip, sub + taxes]) }
        if let (_, rounding) = rounding { sums.formUnion(sums.map { $0 + rounding }) }
        guard due > 0, sums.contains(due), total != due, !sums.contains(total) else { return [] }
        let picked = r.total ?? ""
        r.total = Amount.cents(due).decimalString
        return [
            Finding(
                code: "receipt-total-from-sums",
                message:
                    "the total read, \(picked), makes none of the receipt's sums; the "
                    + (printed.subtotal == nil ? "items make" : "subtotal makes")
                    + " \(r.total!), and so does the payment less its change",
                field: "receipt.total")
        ]
    }

    /// A summary whose amounts stand a row above their labels, as on a sloping photo (`Total 8% (Inc. Tax)  62.32`,
    /// `Amount Due  65.00`, `Cash  2.68`, the change's amount under the cash's label): the total picked is the money
    /// handed over when it pays for the amount right above it with change, printed within three amounts under it on a
    /// payment's line (65.00 less 62.32 is 2.68), and no change under the total picked says it was paid itself. The
    /// amount above is then the total.
    static func mendSlippedTotal(_ lines: [AnalyzedLine], total best: FieldCandidate?, into r: inout Receipt)
        -> [Finding]
    {
        guard let best, let total = r.total.flatMap(Amount.init(decimalString:)), total.minor > 0,
            let line = best.lines.last(where: { lines[$0].amount?.cents == total.cents })
        else { return [] }
        let amounted = lines.indices.filter { lines[$0].amount != nil }
        let cents = amounted.map { lines[$0].amount!.cents }
        guard let at = amounted.firstIndex(of: line), at > 0, paidWithChange(cents, due: at) == nil else { return [] }
        let above = cents[at - 1]
        guard above > 0, above < total.cents,
            ((at + 1)..<min(cents.count, at + 4)).contains(where: { k in
                abs(cents[k] - (total.cents - above)) <= 1 && lines[amounted[k]].role.isPayment
            })
        else { return [] }
        let picked = r.total ?? ""
        r.total = Amount.cents(above).decimalString
        r.provenance["total"] = lines[amounted[at - 1]].amountProvenance
        return [
            Finding(
                code: "receipt-total-from-sums",
                message: "the total read, \(picked), pays \(r.total!) printed above it with the change printed under it",
                field: "receipt.total")
        ]
    }

    /// The number tokens that end a line (`213,3`, `7`; `B9.73`, a digit OCR read as a look-alike letter), its
    /// currency words after them left out (`EUR`, `€`), and a currency sign glued to the first of them (`R$93,` of
    /// `R$93, 41`); nil when the line ends in none.
    static func numberTokens(_ words: [String]) -> [String]? {
        var ws = words[...]
        while let w = ws.last, LineAnalyzer.currencyTokens.contains(w.uppercased()) { ws = ws.dropLast() }
        func isNumber(_ w: Substring) -> Bool {
            w.contains(where: \.isNumber)
                && w.allSatisfy { $0.isNumber || $0 == "." || $0 == "," || Amount.isDigitLookAlike($0) }
        }
        var tail = Array(ws.reversed().prefix { isNumber($0[...]) }.reversed())
        // The word before them: a currency sign and a number in one (`R$93,`, `€12,`, `RM4.`).
        if tail.count < ws.count {
            let word = ws[ws.index(ws.endIndex, offsetBy: -tail.count - 1)]
            if let digit = word.firstIndex(where: \.isNumber), isNumber(word[digit...]) {
                let sign = word[..<digit]
                let isCurrency = sign.count <= 3 && sign.contains(where: Amount.currencySigns.contains)
                    || LineAnalyzer.currencyTokens.contains(sign.uppercased())
                if !sign.isEmpty, isCurrency { tail.insert(String(word[digit...]), at: 0) }
            }
        }
        return tail.isEmpty ? nil : tail
    }

    static func cents(_ s: String) -> Int? { Amount.parse(s[...])?.cents }

    /// Whether the receipt prints its amounts with `$` (two lines at least), so that a `$` may have been read as a 5.
    static func printsDollars(_ lines: [AnalyzedLine]) -> Bool {
        // Most receipts print no `$`: a byte search rules them out before any pattern runs.
        lines.lazy.filter { Text.contains($0.text, "$") && Text.range($0.text, #"\$\s?\d"#) != nil }.prefix(2).count
            >= 2
    }

    /// The one item whose leading 5, read as the `$` it was, makes the items' sum (`sum`, as read) one of `targets`,
    /// mended, with its unit price when that was read from the same amount: the finding and the sum the items now
    /// make. Nil, and nothing mended, unless exactly one item does.
    static func mendOneDollar(_ items: inout [Receipt.Item], sum: Int, targets: Set<Int>) -> (Finding, Int)? {
        let fixes = items.indices.compactMap { i -> (index: Int, fixed: String, made: Int)? in
            guard let a = items[i].amount, let old = cents(a),
                let fixed = withoutMisreadDollar(a, printedIn: items[i].source.text),
                let new = cents(fixed), targets.contains(sum - old + new)
            else { return nil }
            return (i, fixed, sum - old + new)
        }
        guard fixes.count == 1, let fix = fixes.first else { return nil }
        let finding = mended("receipt.items[\(fix.index)].amount", items[fix.index].amount!, fix.fixed)
        if items[fix.index].unitPrice == items[fix.index].amount { items[fix.index].unitPrice = fix.fixed }
        items[fix.index].amount = fix.fixed
        return (finding, fix.made)
    }

    /// `522.95` → `22.95` when the printed text has the amount without a `$` before it.
    static func withoutMisreadDollar(_ amount: String, printedIn text: String) -> String? {
        guard amount.hasPrefix("5"), amount.count >= 5, !text.contains("$" + amount), !text.contains("$ " + amount),
            let dot = amount.firstIndex(of: "."), amount.distance(from: amount.startIndex, to: dot) >= 2
        else { return nil }
        let rest = String(amount.dropFirst())
        return rest.hasPrefix("0") && !rest.hasPrefix("0.") ? nil : rest
    }

    /// An amount in cents as the receipt model writes it, in the form of the amount it replaces: whole units stay
    /// whole (`882000`), others get their cents (`14.79`).
    static func decimalString(cents: Int, like printed: String) -> String {
        let value = Amount.cents(cents).decimalString
        return !printed.contains(".") && value.hasSuffix(".00") ? String(value.dropLast(3)) : value
    }

    static func mended(_ field: String, _ printed: String, _ value: String) -> Finding {
        Finding(
            code: "receipt-amount-mended",
            message:
                "'\(printed)' was read as \(value): a misread '$', decimal point, space or digit, which the receipt's sums prove",
            field: field)
    }
}
