import Foundation
import ScanDetectors
import ScanModel

// Summary: subtotal, taxes, tip, total and payment, and the arithmetic check.
extension ReceiptParser {
    func parseSummary(_ lines: [AnalyzedLine], roles: [Role], from start: Int, into r: inout Receipt) {
        var totals: [(amount: Amount, strength: Double, index: Int, prov: Provenance)] = []
        var tendered: (Amount, Provenance)?, change: (Amount, Provenance)?
        var taxes: [Receipt.Tax] = []
        var tips: [(Amount, Provenance)] = []
        var method: String?
        // The value of a line: its own amount, else the amount alone on the next line.
        func value(_ i: Int) -> (Amount, Provenance)? {
            if let a = lines[i].amount, let p = lines[i].amountProvenance { return (a, p) }
            if i + 1 < lines.count, Self.valueOnly(lines[i + 1]), roles[i + 1] == .none,
               let a = lines[i + 1].amount, let p = lines[i + 1].amountProvenance { return (a, p) }
            return nil
        }
        // Payment words can appear anywhere (a card slip under the receipt).
        for (i, l) in lines.enumerated() {
            let k = l.key
            if method == nil {
                if Text.hasAny(k, ["VISA", "MASTERCARD", "MASTER", "AMEX", "AMERICAN EXPRESS", "DEBIT", "CREDIT", "DISCOVER", "EFTPOS",
                                   "MAESTRO", "CARD", "KARTE", "CARTE", "CB", "EC KARTE", "GIROCARD", "JCB", "UNIONPAY"]) {
                    method = "card"
                } else if roles[i] == .tendered && Text.hasAny(k, ["CASH", "TUNAI", "BAR", "ESPECES", "EFECTIVO", "CONTANTI"]) {
                    method = "cash"
                }
            }
            for e in l.entities(.paymentCard) where r.payment?.cardLast4 == nil {
                if r.payment == nil { r.payment = Receipt.Payment() }
                r.payment?.cardLast4 = e.value.last4
                r.payment?.cardBrand = e.value.brand
                r.provenance["payment.cardLast4"] = l.provenance(of: e)
            }
            if r.payment?.cardLast4 == nil, let m = Text.range(l.text, #"(?:[X*•#]{2,}[\s\-]?){1,3}(\d{4})\b"#) {
                if r.payment == nil { r.payment = Receipt.Payment() }
                r.payment?.cardLast4 = String(l.text[m].suffix(4))
                r.provenance["payment.cardLast4"] = l.line.provenance()
            }
        }
        let from = max(0, min(start, lines.count))
        for i in from..<lines.count {
            let l = lines[i]
            switch roles[i] {
            case .total(let s):
                // A refund's total is negative (`TOTAL -3.50`); it counts when no positive total is printed (below).
                if let (a, p) = value(i), a.minor != 0 { totals.append((a, s, i, p)) }
            case .subtotal:
                if r.subtotal == nil, let (a, p) = value(i) { r.subtotal = a.decimalString; r.provenance["subtotal"] = p }
            case .tax:
                if let (a, p) = value(i) {
                    let rate = l.entities(.percentage).first?.value.percent
                    let t = Receipt.Tax(rate: rate, amount: a.decimalString, source: p)
                    if !taxes.contains(where: { $0.amount == t.amount && $0.rate == t.rate }) { taxes.append(t) }
                }
            case .tip:
                if let (a, p) = value(i) { tips.append((a, p)) }
            case .tendered:
                if tendered == nil, let (a, p) = value(i) { tendered = (a, p) }
            case .change:
                if change == nil, let (a, p) = value(i) { change = (a, p) }
            default: break
            }
        }
        // A tax breakdown table (`GST SUMMARY`, `TAX CODE  AMOUNT  TAX`) repeats `TOTAL` over the tax columns.
        if let table = lines.indices.first(where: { i in i >= from && (Text.hasAny(lines[i].key, ["GST SUMMARY", "TAX SUMMARY", "VAT SUMMARY", "SST SUMMARY", "TAX CODE", "MWST SATZ"])) }) {
            totals = totals.map { $0.index > table ? ($0.amount, $0.strength - 1.5, $0.index, $0.prov) : $0 }
        }
        // A total printed just under a rounding line is the rounded amount due (`Total RM Incl. GST 49.39`,
        // `Rounding Adj 0.01`, `Total RM 49.40`): it outranks the total before rounding.
        if let rounding = (from..<lines.count).last(where: { roles[$0] == .rounding }) {
            totals = totals.map { t in
                t.index > rounding && t.index <= rounding + 2 ? (t.amount, max(t.strength, 2.25), t.index, t.prov) : t
            }
        }
        // Money handed over less change is what was due: when a printed amount agrees, it is strong evidence.
        if let (t, tp) = tendered, let (c, _) = change, c.minor >= 0, t.cents > c.cents {
            let due = t.cents - c.cents
            if !totals.contains(where: { $0.amount.cents == due && $0.strength >= 1 }) {
                if c.minor == 0 {
                    totals.append((t, 1.75, lines.count, tp))
                } else {
                    for i in from..<lines.count {
                        if case .tendered = roles[i] { continue }
                        if case .change = roles[i] { continue }
                        if let a = lines[i].amount, a.cents == due, let p = lines[i].amountProvenance { totals.append((a, 1.75, i, p)); break }
                    }
                }
            }
        }
        if totals.contains(where: { $0.amount.minor > 0 }) { totals.removeAll { $0.amount.minor < 0 } }
        // Totals above the summary (a total printed at the top, as some tills do).
        if totals.isEmpty {
            for i in 0..<from { if case .total(let s) = roles[i], let (a, p) = value(i), a.minor > 0 { totals.append((a, s - 0.5, i, p)) } }
        }
        var chosen: (amount: Amount, strength: Double, index: Int, prov: Provenance)?
        if let (t, _) = tendered, let (c, _) = change, c.minor >= 0 {
            let due = t.cents - c.cents
            chosen = totals.filter { $0.amount.cents == due }.max { $0.strength < $1.strength }
        }
        if chosen == nil {
            let topStrength = totals.map(\.strength).max() ?? 0
            chosen = totals.filter { $0.strength >= topStrength - 0.01 }.max { a, b in
                a.amount < b.amount || (a.amount == b.amount && a.index < b.index)
            }
        }
        if let c = chosen {
            r.total = c.amount.decimalString
            var p = c.prov
            p.confidence = (p.confidence * min(1, 0.6 + 0.2 * c.strength) * 1000).rounded() / 1000
            r.provenance["total"] = p
        } else if r.subtotal == nil, taxes.isEmpty, let due = Self.itemsSumPrinted(lines, roles: roles, items: r.items) {
            // No total label, but the items add up to an amount printed below them (`CASH` / `RM 170.00`): that is what was due.
            r.total = due.0.decimalString
            var q = due.1
            q.confidence = (q.confidence * 0.8 * 1000).rounded() / 1000
            r.provenance["total"] = q
        } else {
            // No total label: the largest amount that isn't money handed over or back.
            var best: (Amount, Provenance)?
            for (i, l) in lines.enumerated() {
                switch roles[i] { case .tendered, .change, .quantityTotal, .taxId, .discount, .rounding, .subtotal, .tax, .tip: continue; default: break }
                if let a = l.amount, let p = l.amountProvenance, a.minor > 0, best == nil || a > best!.0 { best = (a, p) }
            }
            if let (a, p) = best {
                r.total = a.decimalString
                var q = p
                q.confidence = (q.confidence * 0.5 * 1000).rounded() / 1000
                r.provenance["total"] = q
            }
        }
        // No subtotal label, but a weaker total-like line above the total (`AMOUNT : 31.12`, then `TAX 2.80`,
        // then `TOTAL : 33.92`) that the taxes bring up to the total is the subtotal.
        if r.subtotal == nil, let c = chosen, !taxes.isEmpty {
            let taxSum = taxes.compactMap { Amount.parse($0.amount[...]) }.reduce(0) { $0 + $1.cents }
            if let sub = totals.first(where: { $0.index < c.index && $0.strength < c.strength && $0.amount.cents + taxSum == c.amount.cents }) {
                r.subtotal = sub.amount.decimalString
                r.provenance["subtotal"] = sub.prov
            }
        }
        r.tax = taxes
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

    /// An amount printed after the last item that equals the items' sum (two items at least), with its provenance.
    static func itemsSumPrinted(_ lines: [AnalyzedLine], roles: [Role], items: [Receipt.Item]) -> (Amount, Provenance)? {
        let amounts = items.compactMap { $0.amount.flatMap { Amount.parse($0[...]) } }
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
        func c(_ s: String?) -> Int? { s.flatMap { Amount.parse($0[...], wholeUnits: true) ?? Amount.parse($0[...]) }?.cents }
        let total = c(r.total), subtotal = c(r.subtotal)
        let tax = r.tax.compactMap { c($0.amount) }.reduce(0, +)
        let tip = c(r.tip) ?? 0
        let discounts = c(r.discounts) ?? 0
        let itemAmounts = r.items.compactMap { c($0.amount) }
        let items = itemAmounts.reduce(0, +) + discounts
        let tolerance = 5 // cents: rounding to 0.05 is common
        if let total {
            let base = subtotal ?? (itemAmounts.isEmpty ? nil : items)
            if let base {
                // Taxes may be added, or already included (VAT- and GST-inclusive prices).
                let added = base + tax + tip, included = base + tip
                let withDiscount = added + discounts
                if abs(added - total) > tolerance && abs(included - total) > tolerance && abs(withDiscount - total) > tolerance {
                    let what = subtotal != nil ? "subtotal" : "items"
                    out.append(Finding(code: "receipt-total-mismatch",
                                       message: "\(what) \(fmt(base)) + tax \(fmt(tax)) + tip \(fmt(tip)) = \(fmt(added)), but the total is \(fmt(total))",
                                       page: r.provenance["total"]?.page, field: "receipt.total"))
                }
            }
        }
        if let subtotal, !itemAmounts.isEmpty, abs(items - subtotal) > tolerance, abs(itemAmounts.reduce(0, +) - subtotal) > tolerance {
            out.append(Finding(code: "receipt-subtotal-mismatch",
                               message: "the items add up to \(fmt(items)), but the subtotal is \(fmt(subtotal))",
                               page: r.provenance["subtotal"]?.page, field: "receipt.subtotal"))
        }
        if r.total == nil {
            out.append(Finding(code: "receipt-no-total", message: "no total was found on the receipt", field: "receipt.total"))
        }
        return out
    }

    private func fmt(_ cents: Int) -> String { Amount.cents(cents).decimalString }
}
