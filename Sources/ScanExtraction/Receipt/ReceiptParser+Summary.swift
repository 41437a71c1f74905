import Foundation
import ScanDetectors
import ScanModel

// Summary: subtotal, taxes, tip, total and payment, and the arithmetic check.
extension ReceiptParser {
    /// The total is the best-scored of the amounts printed on the receipt (`ReceiptFieldFeatures.totalCandidates`):
    /// its label, its place, and whether it agrees with the subtotal and taxes, the items, and the money handed over
    /// less the change. The other amounts are read by their labels.
    func parseSummary(
        _ lines: [AnalyzedLine], roles: [Role], from start: Int, tail: Int, vatBreakdown breakdown: VATBreakdown?,
        features: ReceiptFieldFeatures,
        into r: inout Receipt,
        candidates: inout [ReceiptField: [FieldCandidate]]
    ) {
        var tendered: (Amount, Provenance)?, change: (Amount, Provenance)?, tenderedLine = 0
        var taxes: [Receipt.Tax] = []
        var taxLines: [(line: Int, label: (words: Set<String>, rest: [Substring]))] = []  // each tax's line and label
        var tips: [(Amount, Provenance, line: Int)] = []
        var fees: [Receipt.Fee] = []
        var method: String?
        let from = max(0, min(start, lines.count))
        // The rows of a VAT breakdown: their amounts are no subtotal, tax or tip of a label above them.
        var vatRows: [Int: [(rate: String, tax: Amount, source: Provenance)]] = [:]
        for i in from..<lines.count {
            if let row = Self.vatRow(lines[i]) { vatRows[i] = [row] } else if let halves = Self.halvesRow(lines[i]) {
                vatRows[i] = halves
            } else if i > 0, Text.hasAny(lines[i - 1].key, Self.taxWords), let row = Self.rowOfGarbledRate(lines[i]) {
                vatRows[i] = [row]
            }
        }
        // A breakdown a row to a line: its net and gross amounts are no taxes, though their labels name the tax they
        // leave out or take in (`TOTALT 20% (exkl. moms)`, `TOTAL 22% (c/ IVA)`).
        let untaxed = Set([breakdown?.net, breakdown?.gross].compactMap { $0 })
        // The value of a line: its own amount, else the amount alone on the next line.
        func value(_ i: Int) -> (Amount, Provenance)? {
            if let a = lines[i].amount, let p = lines[i].amountProvenance { return (a, p) }
            if i + 1 < lines.count, Self.valueOnly(lines[i + 1]), roles[i + 1] == .none, vatRows[i + 1] == nil,
                let a = lines[i + 1].amount, let p = lines[i + 1].amountProvenance
            {
                return (a, p)
            }
            return nil
        }
        // How it was paid: said from the summary down (a card slip under the receipt), else anywhere under the slip
        // before's tail (whose payment is that slip's). Above the summary a card is as likely something sold
        // (`ST-PRIVILEGE CARD`, a birthday card) and cash part of a shop's name (`CASH & CARRY`). A wallet, a voucher
        // or a cheque says so on a payment's line only (`PAYPAL TOPUP` among the articles is something sold), and
        // before the card words its own may hold (`CARTE CADEAU`). The label as the roles read it counts too
        // (`Go-Pay` is `GOPAY` cut by a stroke).
        // A tax number's label (`KRA PIN`, Dutch `PIN`) or a closing (`AČIŪ, KAD APSIPIRKOTE!`, Malay `KAD`) that holds
        // another language's card word pays nothing.
        func paymentMethod(_ i: Int) -> String? {
            let l = lines[i], paid = roles[i] == .tendered
            guard roles[i] != .taxId, paid || !Text.hasAny(l.key, Self.lexicon.closings) else { return nil }
            return Self.paymentMethods.first { m in
                (paid || !m.onPaymentLineOnly) && (Text.hasAny(l.key, m.words) || Text.hasAny(l.labelKey, m.words))
            }?.method
        }
        method =
            (from..<lines.count).lazy.compactMap(paymentMethod).first
            ?? (min(tail, from)..<from).lazy.compactMap(paymentMethod).first
        for l in lines {
            for e in l.entities(.paymentCard) where r.payment?.cardLast4 == nil {
                if r.payment == nil { r.payment = Receipt.Payment() }
                r.payment?.cardLast4 = e.value.last4
                r.payment?.cardBrand = e.value.brand
                r.provenance["payment.cardLast4"] = l.provenance(of: e)
            }
            if r.payment?.cardLast4 == nil, Self.holdsMaskedDigits(l.text),
                let m = Text.range(l.text, #"(?:[X*•#]{2,}[\s\-]?){1,3}(\d{4})\b"#)
            {
                if r.payment == nil { r.payment = Receipt.Payment() }
                r.payment?.cardLast4 = String(l.text[m].suffix(4))
                r.provenance["payment.cardLast4"] = l.line.provenance()
            }
        }
        for i in from..<lines.count where vatRows[i] == nil {
            let l = lines[i]
            switch roles[i] {
            case .subtotal:
                if r.subtotal == nil, let (a, p) = value(i) {
                    r.subtotal = a.decimalString; r.provenance["subtotal"] = p
                }
            case .tax:
                if !untaxed.contains(i), let (a, p) = value(i) {
                    let rate = l.entities(.percentage).first?.value.percent
                    let t = Receipt.Tax(rate: rate, amount: a.decimalString, source: p)
                    // The same tax printed twice (`GST 6%`, then `Total GST` or a tax table's row) is one. Two taxes
                    // of one rate and amount on lines one under the other, whose labels differ in their tax word
                    // alone and the two words name parts of one tax (India's `CGST 9%` and `SGST 9%`), are two;
                    // `GST 6%` over `TAX 6%` is one.
                    let label = Self.taxLabel(l.labelKey)
                    let printed = taxes.indices.contains { k in
                        taxes[k].amount == t.amount && taxes[k].rate == t.rate
                            && !(taxLines[k].line == i - 1 && label.rest == taxLines[k].label.rest
                                && !label.words.isEmpty && !taxLines[k].label.words.isEmpty
                                && Self.partsOfOneTax(label.words, taxLines[k].label.words))
                    }
                    if !printed { taxes.append(t); taxLines.append((i, label)) }
                }
            case .tip:
                if let (a, p) = value(i) { tips.append((a, p, i)) }
            case .fee:
                // (`Delivery Fee  Free`: no amount, no fee.)
                if let (a, p) = value(i), a.cents != 0 {
                    fees.append(Receipt.Fee(description: l.label.trimmingCharacters(in: .whitespaces),
                                            amount: a.decimalString, source: p))
                }
            case .tendered:
                if tendered == nil, let (a, p) = value(i) { (tendered, tenderedLine) = ((a, p), i) }
            case .change:
                if change == nil, let (a, p) = value(i) { change = (a, p) }
            default: break
            }
        }
        // A VAT breakdown, when printed, is the whole of the taxes.
        if !vatRows.isEmpty {
            taxes = []
            for (_, rows) in vatRows.sorted(by: { $0.key < $1.key }) {
                // (A row printed twice is one; a row's two halves are two: India's `CGST` and `SGST`.)
                guard let first = rows.first,
                    !taxes.contains(where: { $0.rate == first.rate && $0.amount == first.tax.decimalString })
                else { continue }
                for row in rows {
                    taxes.append(Receipt.Tax(rate: row.rate, amount: row.tax.decimalString, source: row.source))
                }
            }
            // The breakdown's own total row under its rows holds every row's tax, also a row's that OCR garbled (`218`
            // for `21%`, `L9%` glued): where the rows read add up to less, its tax is the taxes'.
            if let last = vatRows.keys.max(),
                let (tax, source) = Self.breakdownTotalRow(lines, roles: roles, after: last),
                taxes.compactMap({ Amount(decimalString: $0.amount)?.cents }).reduce(0, +) < tax.cents
            {
                taxes = [Receipt.Tax(amount: tax.decimalString, source: source)]
            }
        }
        let amounts = r.items.compactMap { $0.amount.flatMap(Amount.init(decimalString:)) }
        let context = ReceiptFieldFeatures.SummaryContext(
            summaryStart: from, tail: tail, tendered: tendered?.0, change: change?.0,
            subtotal: r.subtotal.flatMap(Amount.init(decimalString:)),
            taxSum: taxes.isEmpty
                ? nil : taxes.compactMap { Amount(decimalString: $0.amount) }.reduce(0) { $0 + $1.cents },
            itemsSum: amounts.count >= 2 && amounts.count == r.items.count ? amounts.reduce(0) { $0 + $1.cents } : nil)
        var totals = ranked(features.totalCandidates(roles: roles, context: context), .total)
        if let bill = Self.billBeforeTip(totals, tips: tips.map { ($0.0, $0.line) }, roles: roles) {
            totals.removeAll { $0.value == bill.value && $0.lines == bill.lines }
            totals.insert(bill, at: 0)
        }
        candidates[.total] = totals
        if let best = totals.first {
            r.total = best.value
            r.provenance["total"] = Self.scored(best, over: totals.dropFirst().first { $0.value != best.value })
            // No subtotal label, but a total-like line above the total (`AMOUNT : 31.12`, then `TAX 2.80`,
            // then `TOTAL : 33.92`) that the taxes bring up to the total is the subtotal.
            if r.subtotal == nil, let taxSum = context.taxSum, let total = Amount.parse(best.value[...]),
                let sub = totals.first(where: { c in
                    guard c.lines.lowerBound < best.lines.lowerBound, let a = Amount.parse(c.value[...]) else {
                        return false
                    }
                    // `Total 4 item(s)  $27.48` counts the items and sums them: a subtotal too.
                    switch roles[c.lines.lowerBound] {
                    case .total, .quantityTotal: return a.cents + taxSum == total.cents
                    default: return false
                    }
                })
            {
                r.subtotal = sub.value
                r.provenance["subtotal"] = sub.provenance
            }
        }
        if let best = totals.first {
            Self.currencies(of: best, among: totals, lines: lines, roles: roles, context: context, into: &r)
        }
        // No payment label that a locale file knows: the cash and the change under the total, by their arithmetic.
        if tendered == nil, change == nil, let best = totals.first, let total = Amount(decimalString: best.value),
            let paid = Self.tenderAndChange(lines, after: best.lines.upperBound, total: total)
        {
            (tendered, change) = (paid.tendered, paid.change)
        }
        // The money handed over labelled and the change not (`Tiền thối lại` misread): the tender less the total, on
        // one of the three lines of an amount under the tender's.
        if let (t, _) = tendered, change == nil, let best = totals.first, let total = Amount(decimalString: best.value),
            t.cents > total.cents
        {
            let below = (tenderedLine + 1..<lines.count).filter { lines[$0].amount != nil }.prefix(3)
            let owed = t.cents - total.cents
            if let i = below.first(where: { roles[$0] == .none && abs(lines[$0].amount!.cents - owed) <= 1 }),
                let a = lines[i].amount, let p = lines[i].amountProvenance
            {
                change = (a, p)
            }
        }
        r.tax = taxes
        r.fees = fees.isEmpty ? nil : fees
        if !tips.isEmpty {
            r.tip = tips.last!.0.decimalString
            r.provenance["tip"] = tips.last!.1
        }
        if tendered != nil || change != nil || method != nil {
            if r.payment == nil { r.payment = Receipt.Payment() }
            r.payment?.method = method ?? (tendered != nil ? "cash" : nil)
            if let (a, p) = tendered { r.payment?.tendered = a.decimalString; r.provenance["payment.tendered"] = p }
            if let (a, p) = change { r.payment?.change = a.decimalString; r.provenance["payment.change"] = p }
        }
    }

    /// The bill's total where a receipt prints it, then a tip, then the total with the tip (`Total 41.31`, `Gratuity
    /// 3.00`, `Total 44.31`, a card slip's `Amount`, `Tip`, `Total`): the total is what was billed and the tip stands
    /// apart, whichever of the two totals the ranker put first. Nil when the receipt prints no such pair.
    static func billBeforeTip(_ totals: [FieldCandidate], tips: [(amount: Amount, line: Int)], roles: [Role])
        -> FieldCandidate?
    {
        // The candidates' values are decimal strings, also of whole units (`38500`), which `Amount.parse` reads only
        // when told the receipt prints them so.
        guard let best = totals.first, let paid = Amount(decimalString: best.value) else { return nil }
        for tip in tips where tip.amount.cents > 0 && tip.line < best.lines.lowerBound {
            let bill = totals.first { c in
                guard c.lines.upperBound <= tip.line, case .total = roles[c.lines.lowerBound],
                    let a = Amount(decimalString: c.value)
                else { return false }
                return abs(a.cents + tip.amount.cents - paid.cents) <= 1
            }
            if let bill { return bill }
        }
        return nil
    }

    /// Whether two mask characters of a card number (`X`, `*`, `•`, `#`) stand together: the cheap test before
    /// the card number's regular expression, which runs on every line.
    static func holdsMaskedDigits(_ text: String) -> Bool {
        var previous = false
        for u in text.unicodeScalars {
            let mask = u == "X" || u == "*" || u == "•" || u == "#"
            if mask && previous { return true }
            previous = mask
        }
        return false
    }

    /// The money handed over and the change under a total, whatever their labels say: among the three amounts after
    /// line `after`, one larger than `total`, and among the three after it, their difference (to a cent).
    static func tenderAndChange(_ lines: [AnalyzedLine], after: Int, total: Amount)
        -> (tendered: (Amount, Provenance), change: (Amount, Provenance))?
    {
        guard after < lines.count else { return nil }
        let below = (after..<lines.count).compactMap { i in
            lines[i].amount.flatMap { a in lines[i].amountProvenance.map { (amount: a, source: $0) } }
        }
        guard let (t, c) = paidWithChange([total.cents] + below.map(\.amount.cents), due: 0) else { return nil }
        return ((below[t - 1].amount, below[t - 1].source), (below[c - 1].amount, below[c - 1].source))
    }

    /// Where the amount `cents[due]` (above zero) is paid with change: the index of a larger amount among the three
    /// after it, and of their difference (to a cent) among the three after that one. Amounts in cents, in line order.
    static func paidWithChange(_ cents: [Int], due: Int) -> (tendered: Int, change: Int)? {
        let amount = cents[due]
        guard amount > 0 else { return nil }
        for t in (due + 1)..<min(cents.count, due + 4) where cents[t] > amount {
            for c in (t + 1)..<min(cents.count, t + 4) where cents[c] > 0 && abs(cents[t] - amount - cents[c]) <= 1 {
                return (t, c)
            }
        }
        return nil
    }

    /// Totals printed in two or more currencies (`TOTAL CHF 25.00`, then `TOTAL EUR 26.10`): the
    /// receipt's total is the one the receipt's own arithmetic gives (the items' sum, tendered less
    /// change, subtotal and tax), else the best-ranked; its currency is the receipt's, and the
    /// best-ranked total of each other currency is listed beside it.
    static func currencies(
        of ranked: FieldCandidate, among totals: [FieldCandidate], lines: [AnalyzedLine], roles: [Role],
        context: ReceiptFieldFeatures.SummaryContext, into r: inout Receipt
    ) {
        var priced: [(candidate: FieldCandidate, currency: String)] = []
        for c in totals {
            guard case .total = roles[c.lines.lowerBound], let currency = printedCurrency(lines[c.lines]),
                !priced.contains(where: { $0.currency == currency })
            else { continue }
            priced.append((c, currency))
        }
        guard priced.count >= 2 else {
            if let own = printedCurrency(lines[ranked.lines]) { r.currency = own }
            return
        }
        func agrees(_ c: FieldCandidate) -> Bool {
            guard let v = Amount.parse(c.value[...])?.cents else { return false }
            if context.itemsSum == v { return true }
            if let t = context.tendered, let ch = context.change, t.cents - ch.cents == v { return true }
            if let s = context.subtotal, s.cents + (context.taxSum ?? 0) == v { return true }
            return false
        }
        let chosen =
            priced.first(where: { agrees($0.candidate) })
            ?? priced.first(where: { $0.candidate.value == ranked.value && $0.candidate.lines == ranked.lines })
            ?? priced[0]
        if chosen.candidate.value != ranked.value || chosen.candidate.lines != ranked.lines {
            r.total = chosen.candidate.value
            r.provenance["total"] = chosen.candidate.provenance
        }
        r.currency = chosen.currency
        let others = priced.filter { $0.currency != chosen.currency }
            .map {
                Receipt.OtherCurrencyTotal(
                    amount: $0.candidate.value, currency: $0.currency, source: $0.candidate.provenance)
            }
        r.otherCurrencyTotals = others.isEmpty ? nil : others
    }

    /// The currency printed with the last amount of `lines` that names one.
    static func printedCurrency(_ lines: ArraySlice<AnalyzedLine>) -> String? {
        lines.reversed().lazy.compactMap {
            $0.entities(.money).last(where: { $0.value.currency != nil })?.value.currency
        }.first
    }

    /// A row of a VAT breakdown (`B= 7,0%  6,29  0,45  6,74`, `20% HT 10,00 TVA 2,00 TTC 12,00`): a
    /// printed rate and amounts of which two add up to a third, the smaller of the two being that rate
    /// of the other (net + tax = gross). Arithmetic, so no language's column words are needed.
    static func vatRow(_ l: AnalyzedLine) -> (rate: String, tax: Amount, source: Provenance)? {
        guard let (rateText, rate, amounts) = rateRow(l) else { return nil }
        // A refund's row is negative throughout (`A= 19,0%  -0,42  -0,08  -0,50`): read by its size.
        // A row of two amounts is a base and its tax (`10%  8,14  0,81`, as Spanish and Italian tills print it), read
        // with a tighter tolerance than a row whose gross proves the pair.
        guard amounts.count >= 2,
            amounts.allSatisfy({ $0.amount.minor > 0 }) || amounts.allSatisfy({ $0.amount.minor < 0 })
        else { return nil }
        let pairOnly = amounts.count == 2
        for net in amounts {
            for tax in amounts where tax.word != net.word && abs(tax.amount.cents) < abs(net.amount.cents) {
                guard
                    pairOnly
                        || amounts.contains(where: {
                            $0.word != net.word && $0.word != tax.word
                                && $0.amount.cents == net.amount.cents + tax.amount.cents
                        })
                else { continue }
                let expected = net.amount.decimal * rate / 100
                let slack =
                    pairOnly ? Decimal(string: "0.006")! : max(Decimal(string: "0.011")!, abs(net.amount.decimal) / 200)
                // A pair may also be the tax and the gross that holds it (`13.5%  1.88  15.80`, Ireland's `VAT %  VAT
                // Gross`): the tax is then the rate's share of the gross.
                let ofGross = pairOnly && abs(net.amount.decimal * rate / (100 + rate) - tax.amount.decimal) <= slack
                if abs(expected - tax.amount.decimal) <= slack || ofGross {
                    return (rateText, tax.amount, l.line.provenance(words: tax.word..<(tax.word + 1)))
                }
            }
        }
        return nil
    }

    /// The total row of a VAT breakdown, on one of the two lines after its last row `last`: labelled as a total, no
    /// rate, and three amounts that are a net, its tax and their gross (`Totaal 26.02 3.10 29.12`, `Total 60,60 12,60
    /// 73,20`). The tax, and where it is printed.
    static func breakdownTotalRow(_ lines: [AnalyzedLine], roles: [Role], after last: Int) -> (Amount, Provenance)? {
        for j in (last + 1)..<min(lines.count, last + 3) {
            guard case .total = roles[j], lines[j].entities(.percentage).isEmpty else { continue }
            let amounts = lines[j].line.words.enumerated().compactMap { n, w in
                Amount.parse(w.text[...]).map { (amount: $0, word: n) }
            }
            guard amounts.count == 3, amounts.allSatisfy({ $0.amount.minor > 0 }),
                amounts[0].amount.cents + amounts[1].amount.cents == amounts[2].amount.cents,
                amounts[1].amount.cents < amounts[0].amount.cents
            else { continue }
            let tax = amounts[1]
            return (tax.amount, lines[j].line.provenance(words: tax.word..<(tax.word + 1)))
        }
        return nil
    }

    /// A tax table's row: its printed rate (above 0 and under 100), and its amounts other than nought with the words
    /// they stand in.
    static func rateRow(_ l: AnalyzedLine) -> (text: String, rate: Decimal, amounts: [(amount: Amount, word: Int)])? {
        guard let text = l.entities(.percentage).first?.value.percent, let rate = Decimal(string: text),
            rate > 0, rate < 100
        else { return nil }
        var amounts: [(amount: Amount, word: Int)] = []
        for (i, w) in l.line.words.enumerated() where !w.text.contains("%") {
            if let a = Amount.parse(w.text[...]), a.minor != 0 { amounts.append((a, i)) }
        }
        return (text, rate, amounts)
    }

    /// A row of a tax split in two equal halves (`5%  1,076.19  26.91  26.91`, India's rate, taxable value, CGST and
    /// SGST): a printed rate, a base, and two equal amounts after it that each are half the rate of the base (to a
    /// cent, or a two-hundredth of the base). The two halves, each at half the rate.
    static func halvesRow(_ l: AnalyzedLine) -> [(rate: String, tax: Amount, source: Provenance)]? {
        guard let (_, rate, amounts) = rateRow(l), amounts.count == 3, amounts.allSatisfy({ $0.amount.minor > 0 }),
            amounts[1].amount.cents == amounts[2].amount.cents,
            amounts[0].amount.cents > amounts[1].amount.cents
        else { return nil }
        let base = amounts[0].amount.decimal, half = amounts[1].amount.decimal
        let slack = max(Decimal(string: "0.011")!, base / 200)
        guard abs(base * rate / 200 - half) <= slack else { return nil }
        let halfRate = NSDecimalNumber(decimal: rate / 2).stringValue
        return amounts.dropFirst().map {
            (halfRate, $0.amount, l.line.provenance(words: $0.word..<($0.word + 1)))
        }
    }

    /// A VAT table's row whose rate OCR garbled (`A 238  29.64  6.82  36.46` under `VAT  Net  VAT  Gross`, 23% read as
    /// `238`): a net, its tax and their gross, the tax a whole or half percent of the net (within a cent) up to 30%.
    /// The caller asks it only right under a line that names the tax.
    static func rowOfGarbledRate(_ l: AnalyzedLine) -> (rate: String, tax: Amount, source: Provenance)? {
        guard l.entities(.percentage).isEmpty else { return nil }
        let amounts = l.trailing
        guard amounts.count == 3, amounts.allSatisfy({ $0.amount.minor > 0 && $0.amount.scale == 2 }),
            amounts[0].amount.cents + amounts[1].amount.cents == amounts[2].amount.cents,
            amounts[1].amount.cents < amounts[0].amount.cents
        else { return nil }
        let net = Double(amounts[0].amount.cents), tax = Double(amounts[1].amount.cents)
        let rate = (200 * tax / net).rounded() / 2
        guard rate > 0, rate <= 30, abs(net * rate / 100 - tax) <= 1 else { return nil }
        let printed = rate == rate.rounded() ? String(Int(rate)) : String(rate)
        return (printed, amounts[1].amount, l.line.provenance(words: amounts[1].word..<(amounts[1].word + 1)))
    }

    /// A VAT breakdown printed a row to a line (`Borde 16% (Tenberg)  106.46`, `Torpet  17.03`,
    /// `Borde 16% (Torpet)  123.49`), in whatever language: a net amount with its rate, within two lines under it the
    /// tax the rate makes of it (to a cent), and within two lines under that their sum. Its first row, taken up over
    /// the rate rows right above it (`Borde 0%  147.00`), and the lines of the net amount, the tax and the gross
    /// amount; nil without one.
    static func vatRowsOnLines(_ lines: [AnalyzedLine]) -> VATBreakdown? {
        let cent = Decimal(string: "0.011")!
        func amount(_ k: Int) -> Amount? { lines.indices.contains(k) ? lines[k].amount : nil }
        for (i, l) in lines.enumerated() {
            guard let rateText = l.entities(.percentage).first?.value.percent, let rate = Decimal(string: rateText),
                rate > 0, rate < 100, let net = l.amount, net.minor > 0
            else { continue }
            let expected = net.decimal * rate / 100
            for j in (i + 1)...(i + 2) {
                guard let tax = amount(j), tax.minor > 0, abs(tax.decimal - expected) <= cent else { continue }
                guard let gross = ((j + 1)...(j + 2)).first(where: { amount($0)?.cents == net.cents + tax.cents })
                else { continue }
                var start = i
                while start > 0, lines[start - 1].amount != nil, !lines[start - 1].entities(.percentage).isEmpty,
                    sameTableRow(lines[start - 1], as: l)
                {
                    start -= 1
                }
                return (start, i, j, gross)
            }
        }
        return nil
    }

    /// Whether a line with a rate above a VAT breakdown's first proven row `row` is a row of that breakdown: its label
    /// is a code alone (`A 7%`), names a role, or shares a word with the row's, also one misread in one letter
    /// (`SUMA 0%` over `SUMA 7% (bez VAT)`); an article whose name holds a percentage (`Mleko 2% 1L`) is none.
    static func sameTableRow(_ above: AnalyzedLine, as row: AnalyzedLine) -> Bool {
        func words(_ l: AnalyzedLine) -> Set<Substring> {
            Set(l.labelKey.split(separator: " ").filter { Text.letterCount(String($0)) >= 2 })
        }
        let own = words(above), theirs = words(row)
        // (A word OCR misread in one letter is the same word: `Tenquinbor 0%` over `Tenquinber 8% (Tenberg)`.)
        func alike(_ a: Substring, _ b: Substring) -> Bool { a == b || a.count >= 4 && Text.oneLetterApart(a, b) }
        return own.isEmpty || above.role != .none || own.contains { a in theirs.contains { alike(a, $0) } }
    }

    static let cardWords = lexicon.words(.card)
    static let cashWords = lexicon.words(.cash)
    /// The payment methods a line's words name, in the order they are asked (`paymentMethod` in `parseSummary`): a
    /// voucher's and a wallet's words before the card words their names may hold (`CARTE CADEAU`), and every method
    /// but the card on a payment's line only.
    static let paymentMethods: [(words: PhraseSet, onPaymentLineOnly: Bool, method: String)] = [
        (lexicon.words(.voucher), true, "voucher"), (lexicon.words(.mobile), true, "mobile"), (cardWords, false, "card"),
        (cashWords, true, "cash"), (lexicon.words(.cheque), true, "other"),
    ]

    /// An amount printed after the last item that equals the items' sum (two items at least), with its provenance.
    static func itemsSumPrinted(_ lines: [AnalyzedLine], roles: [Role], items: [Receipt.Item]) -> (Amount, Provenance)?
    {
        let amounts = items.compactMap { $0.amount.flatMap(Amount.init(decimalString:)) }
        guard amounts.count >= 2, amounts.count == items.count else { return nil }
        let sum = amounts.reduce(0) { $0 + $1.cents }
        guard sum > 0, let lastItem = items.last?.source.boundingBox else { return nil }
        for (i, l) in lines.enumerated() where l.line.box.minY > lastItem.maxY - 1 {
            guard roles[i] == .none || roles[i] == .tendered else { continue }
            if let a = l.amount, a.cents == sum, let p = l.amountProvenance { return (a, p) }
        }
        return nil
    }

    // MARK: - Arithmetic

    /// Disagreements between the items, subtotal, taxes, tip and total, as warnings.
    func check(_ r: Receipt) -> [Finding] {
        var out: [Finding] = []
        let c = Self.decimalCents
        let total = c(r.total), subtotal = c(r.subtotal)
        let tax = Self.taxCents(r), tip = c(r.tip) ?? 0, fees = Self.feeCents(r)
        let discounts = c(r.discounts) ?? 0
        let itemAmounts = r.items.compactMap { c($0.amount) }
        let items = itemAmounts.reduce(0, +) + discounts
        let tolerance = 5  // cents: rounding to 0.05 is common
        if let total {
            let base = subtotal ?? (itemAmounts.isEmpty ? nil : items)
            if let base {
                // Taxes may be added, or already included (VAT- and GST-inclusive prices); a tip printed after the
                // bill's total is not in it (`billBeforeTip`).
                let (added, included) = Self.totalsOver(base, of: r)
                let withDiscount = added + discounts
                if abs(added - total) > tolerance && abs(included - total) > tolerance
                    && abs(withDiscount - total) > tolerance
                    && (tip == 0 || abs(added - tip - total) > tolerance && abs(included - tip - total) > tolerance)
                {
                    let what = subtotal != nil ? "subtotal" : "items"
                    out.append(
                        Finding(
                            code: "receipt-total-mismatch",
                            message:
                                "\(what) \(fmt(base))" + (fees == 0 ? "" : " + fees \(fmt(fees))")
                                + " + tax \(fmt(tax)) + tip \(fmt(tip)) = \(fmt(added)), but the total is \(fmt(total))",
                            page: r.provenance["total"]?.page, field: "receipt.total"))
                }
            }
        }
        if let subtotal, !itemAmounts.isEmpty, abs(items - subtotal) > tolerance,
            abs(itemAmounts.reduce(0, +) - subtotal) > tolerance
        {
            out.append(
                Finding(
                    code: "receipt-subtotal-mismatch",
                    message: "the items add up to \(fmt(items)), but the subtotal is \(fmt(subtotal))",
                    page: r.provenance["subtotal"]?.page, field: "receipt.subtotal"))
        }
        if r.total == nil {
            out.append(
                Finding(code: "receipt-no-total", message: "no total was found on the receipt", field: "receipt.total"))
        }
        return out
    }

    private func fmt(_ cents: Int) -> String { Amount.cents(cents).decimalString }

    /// Taxes the others prove to be none: a rate's base printed beside its tax (`Základ DPH 20% 31,50` with `DPH 20%
    /// 6,30`, 20% of 31.50), and a line that adds up the other taxes (`TOTAL TVA 14,71` under `TVA A 4,07` and `TVA B
    /// 10,64`; printing no rate of its own). Arithmetic, in any language.
    static func dropTaxesTheOthersProve(_ r: inout Receipt) {
        let amounts = r.tax.compactMap { Amount(decimalString: $0.amount) }
        // A zero tax (`CESS 0.00`) makes any tax the sum of the others and a base of nothing: none is dropped then.
        guard amounts.count == r.tax.count, amounts.count >= 2, amounts.allSatisfy({ $0.cents > 0 }) else { return }
        var dropped = Set<Int>()
        for i in r.tax.indices {
            guard let rate = r.tax[i].rate.flatMap({ Decimal(string: $0) }), rate > 0 else { continue }
            let base = Decimal(amounts[i].cents)
            if r.tax.indices.contains(where: { j in
                // A tax rounds to its unit: a cent, or a whole unit where it prints none.
                j != i && r.tax[j].rate == r.tax[i].rate && amounts[j].cents < amounts[i].cents
                    && abs(base * rate / 100 - Decimal(amounts[j].cents)) <= Decimal(amounts[j].scale == 0 ? 100 : 1)
            }) {
                dropped.insert(i)
            }
        }
        let kept = r.tax.indices.filter { !dropped.contains($0) }
        if kept.count >= 3, let sum = kept.first(where: { i in
            r.tax[i].rate == nil && kept.filter { $0 != i }.reduce(0) { $0 + amounts[$1].cents } == amounts[i].cents
        }) {
            dropped.insert(sum)
        }
        guard !dropped.isEmpty else { return }
        r.tax = r.tax.indices.filter { !dropped.contains($0) }.map { r.tax[$0] }
    }

    /// A tax as large as the total is the total's own line read for the tax it names (`Total (inc GST)  $38.38`): it
    /// goes where the subtotal and the other taxes make the total. Arithmetic, in any language.
    static func dropTaxThatIsTheTotal(_ r: inout Receipt) {
        guard r.tax.count >= 2, let total = r.total.flatMap(Self.cents), let sub = r.subtotal.flatMap(Self.cents),
            let k = r.tax.firstIndex(where: { Self.cents($0.amount) == total })
        else { return }
        let others = r.tax.indices.filter { $0 != k }.map { Self.cents(r.tax[$0].amount) }
        guard others.allSatisfy({ $0 != nil }), abs(sub + others.reduce(0) { $0 + $1! } - total) <= 1 else { return }
        r.tax.remove(at: k)
    }

    /// The last item, when it is no article but the tax on the others, under a label no locale file knows (`Torpet
    /// 47.68` after items of 227.03, then `274.71`): no tax was read, the items before it and it make the total, and
    /// it is their sum at the rate printed on its line, or else at a whole-number rate from 1 to 27%, the nearest,
    /// rounded to the unit its amounts print (a cent, or a whole yen). A round amount (a multiple of half a unit, or of
    /// 50 where amounts print no decimals: an article at 1.00 after items of 10.00) is taken for no tax: prices are
    /// round far more often than taxes. The rate is kept only when printed. Only where no line's role (`roles`) is a
    /// total, subtotal or tax: a till that labels its total in a known language labels its tax too, and there a last
    /// article can cost a whole share of the others by chance (`Burger 10.00`, `Fries 1.00`).
    static func taxByItsRate(_ r: inout Receipt, roles: [Role]) {
        let labelled = roles.contains { role in
            switch role {
            case .total, .subtotal, .tax: return true;
            default: return false
            }
        }
        guard !labelled, r.tax.isEmpty, r.items.count >= 2, let total = r.total.flatMap(Amount.init(decimalString:)),
            let last = r.items.last,
            last.quantity == nil, last.discount == nil, let tax = last.amount.flatMap(Amount.init(decimalString:)),
            tax.cents > 0
        else { return }
        let others = r.items.dropLast().map { $0.amount.flatMap(Amount.init(decimalString:)) }
        guard others.allSatisfy({ $0 != nil }) else { return }
        let base = others.reduce(0) { $0 + $1!.cents } + (r.discounts.flatMap(Amount.init(decimalString:))?.cents ?? 0)
        let unit = tax.scale == 0 ? 100 : 1
        guard base > 0, abs(base + tax.cents - total.cents) <= unit, tax.cents % (50 * unit) != 0 else { return }
        let text = last.source.text
        let printed = Text.range(text, #"(?<![\d.,])\d{1,2}(?:[.,]\d{1,3})?(?=\s*%)"#).map {
            text[$0].replacingOccurrences(of: ",", with: ".")
        }
        let rates = printed.flatMap { Decimal(string: $0) }.map { [$0] } ?? (1...27).map { Decimal($0) }
        let misses = rates.map { abs(Decimal(base) * $0 / 100 - Decimal(tax.cents)) }
        guard let best = misses.indices.min(by: { misses[$0] < misses[$1] }),
            misses[best] <= Decimal(unit) * Decimal(string: "0.6")!
        else { return }
        r.items.removeLast()
        r.tax = [Receipt.Tax(rate: printed, amount: last.amount!, source: last.source)]
    }

    /// Whether two labels' tax words are different parts of one tax: different words with the same last three
    /// letters (`CGST` and `SGST`, `SGST` and `UTGST`), not synonyms (`GST` and `TAX`).
    static func partsOfOneTax(_ a: Set<String>, _ b: Set<String>) -> Bool {
        guard a.count == 1, b.count == 1, let x = a.first, let y = b.first, x != y, x.count >= 3, y.count >= 3 else {
            return false
        }
        return x.suffix(3) == y.suffix(3)
    }

    static let taxWordSet = Set(taxWords.phrases)

    /// A tax line's label: its one-word tax names (`CGST`) and its other words (`9`).
    static func taxLabel(_ key: String) -> (words: Set<String>, rest: [Substring]) {
        let words = key.split(separator: " ")
        let named = Set(words.map(String.init).filter { taxWordSet.contains($0) })
        return (named, words.filter { !named.contains(String($0)) })
    }
}
