import Foundation
import ScanDetectors
import ScanLayout
import ScanModel

// Line items: columns, descriptions over several lines, quantities, weights and discounts.
extension ReceiptParser {
    static let columnHeaderWords = ["QTY", "DESCRIPTION", "DESC", "ITEM", "ITEMS", "PRICE", "AMOUNT", "AMT", "TOTAL", "UNIT", "U P",
                                    "MENGE", "BEZEICHNUNG", "PREIS", "BETRAG", "ARTICLE", "PRIX", "MONTANT", "QTE", "PRODUCT", "RM"]

    static let amountHeaderWords: Set<String> = ["PRICE", "AMOUNT", "AMT", "TOTAL", "PREIS", "BETRAG", "PRIX", "MONTANT", "RM", "SUM"]

    /// A column heading line (`Item  Qty  Price`) among the first two thirds of the receipt, and the
    /// right edge of its rightmost price heading.
    static func priceHeading(_ lines: [AnalyzedLine]) -> (Int, Double)? {
        for (i, l) in lines.prefix(lines.count * 2 / 3 + 1).enumerated() where isColumnHeading(l) {
            if let right = l.line.words.last(where: isAmountHeading)?.box.maxX { return (i, right) }
        }
        return nil
    }

    /// A price column's heading word, with its currency glued on or not: `Amount`, `Amt(RM)`, `Price/EUR`.
    static func isAmountHeading(_ w: LayoutWord) -> Bool {
        Text.key(w.text).split(separator: " ").contains { amountHeaderWords.contains(String($0)) }
    }

    static func isColumnHeading(_ l: AnalyzedLine) -> Bool {
        let words = l.key.split(separator: " ").map(String.init)
        return words.count >= 2 && words.count <= 8 && words.filter({ columnHeaderWords.contains($0) }).count >= 2 && l.amount == nil
            && Text.digitCount(l.text) == 0
    }

    func parseItems(_ lines: [AnalyzedLine], roles: [Role], summaryStart: Int, into r: inout Receipt) {
        // Items start after the header: after a column header line, else at the first line ending in an amount.
        var start = 0
        var headerColumn: Double?
        for (i, l) in lines.prefix(summaryStart).enumerated() {
            if Self.isColumnHeading(l) {
                start = i + 1
                // The rightmost price heading (`Price`, `Amount`, `Total`) ends the amount column.
                headerColumn = l.line.words.last(where: Self.isAmountHeading)?.box.maxX
            }
        }
        var pending: [AnalyzedLine] = []
        var items: [Receipt.Item] = []
        var discounts: [Amount] = []
        let wholeUnits = lines.contains { $0.trailing.contains { $0.amount.scale == 0 } }
        let bare = Self.bareAmounts(lines)
        let column = headerColumn ?? Self.amountColumn(lines, roles: roles, from: summaryStart)
        for i in start..<summaryStart {
            var l = lines[i]
            if let column { Self.keepColumn(&l, right: column, wholeUnits: wholeUnits, bare: bare) }
            let role = roles[i]
            guard let amount = l.amount else {
                // A description line waiting for its numbers, unless it's header material.
                let contact = l.entities.contains { [.phone, .date, .time, .email, .url].contains($0.type) }
                if contact || role != .none || Text.letterCount(l.text) < 2 { pending.removeAll(); continue }
                // Only lines set tight together make one description.
                if let last = pending.last, l.line.box.minY - last.line.box.maxY > 0.8 * l.line.textHeight { pending.removeAll() }
                pending.append(l)
                if pending.count > 2 { pending.removeFirst() }
                continue
            }
            if l.entities.contains(where: { [.phone, .date, .time].contains($0.type) }) && Text.letterCount(l.label) > 0 {
                pending.removeAll(); continue
            }
            // A discount hanging under the item.
            if role == .discount || (amount.minor < 0 && !items.isEmpty) {
                let d = Amount(minor: -abs(amount.minor), scale: amount.scale)
                discounts.append(d)
                if !items.isEmpty, items[items.count - 1].discount == nil { items[items.count - 1].discount = d.decimalString }
                pending.removeAll()
                continue
            }
            if role != .none { pending.removeAll(); continue }
            var item = Self.item(from: l, wholeUnits: wholeUnits)
            if let last = pending.last, l.line.box.minY - last.line.box.maxY > 1.2 * l.line.textHeight { pending.removeAll() }
            if Text.letterCount(item.description) < 2, !pending.isEmpty {
                // Description printed on its own line(s) above the numbers.
                item.description = pending.map { Text.clean($0.text) }.joined(separator: " ")
                var src = item.source
                src.text = pending.map(\.text).joined(separator: "\n") + "\n" + l.text
                src.boundingBox = BoundingBox.enclosing(pending.map(\.line.box) + [l.line.box])?.rounded()
                item.source = src
            }
            pending.removeAll()
            guard Text.letterCount(item.description) >= 2 else { continue }
            _ = amount
            items.append(item)
        }
        r.items = Self.mergingRepeats(items)
        if !discounts.isEmpty {
            r.discounts = Amount(minor: discounts.reduce(0) { $0 + $1.cents }, scale: 2).decimalString
        }
    }

    /// The right edge of the amount column, from the amounts of the summary lines
    /// (subtotal, tax, total) under the items; nil when there are fewer than two.
    static func amountColumn(_ lines: [AnalyzedLine], roles: [Role], from start: Int) -> Double? {
        var edges: [Double] = []
        for i in start..<lines.count {
            guard let t = lines[i].trailing.last else { continue }
            switch roles[i] {
            case .subtotal, .tax, .total: edges.append(lines[i].line.words[t.word].box.maxX)
            default: continue
            }
        }
        guard edges.count >= 2 else { return nil }
        edges.sort()
        let right = edges[edges.count / 2]
        // Only a column the items' own amounts line up with: most of them end within two text heights of it.
        var near = 0, all = 0
        for l in lines[..<start] {
            guard let t = l.trailing.last else { continue }
            all += 1
            if abs(l.line.words[t.word].box.maxX - right) <= 2 * max(1, l.line.textHeight) { near += 1 }
        }
        return all > 0 && 2 * near >= all ? right : nil
    }

    /// Whether the analyzer read plain integers as amounts on this receipt (`AMOUNT DUE 27500`).
    static func bareAmounts(_ lines: [AnalyzedLine]) -> Bool {
        lines.contains { l in l.trailing.contains { t in t.amount.scale == 0 && l.line.words[t.word].text.allSatisfy { !",.' ".contains($0) } } }
    }

    /// Drops the words printed wholly right of the amount column (a tip table or a second
    /// column beside the items), so the line's amount is the one in the column.
    static func keepColumn(_ l: inout AnalyzedLine, right: Double, wholeUnits: Bool, bare: Bool = false) {
        let slack = max(1, l.line.textHeight)
        var kept = l.line.words.filter { $0.box.minX <= right + slack }
        guard kept.count < l.line.words.count, !kept.isEmpty else { return }
        // Debris left at the cut (`%`, `|`): no letters or digits.
        while kept.count > 1, let w = kept.last, !w.text.contains(where: { $0.isLetter || $0.isNumber }) { kept.removeLast() }
        // Read the line again without the words right of the column (`19.00 % 20%`: a tip table's cells).
        let line = LayoutLine(page: l.line.page, words: kept, level: l.line.level, ordered: true)
        let (count, trailing) = LineAnalyzer.trailingAmounts(line, wholeUnits: wholeUnits, bare: bare)
        let length = line.text.unicodeScalars.count
        l = AnalyzedLine(line: line, labelWordCount: count, trailing: trailing, entities: l.entities.filter { $0.range.end <= length })
    }

    /// Items printed more than once under the same description become one item with the
    /// counts and amounts added up (`1 rice 1.99` twice: `2 rice 3.98`), as long as neither
    /// carries a discount. The source spans every line read.
    static func mergingRepeats(_ items: [Receipt.Item]) -> [Receipt.Item] {
        var out: [Receipt.Item] = []
        var seen: [String: Int] = [:]
        for it in items {
            let key = Text.key(it.description)
            guard !key.isEmpty, it.discount == nil, let a = it.amount.flatMap({ Amount.parse($0[...]) }),
                  let k = seen[key], out[k].discount == nil, let b = out[k].amount.flatMap({ Amount.parse($0[...]) }),
                  let qa = Double(it.quantity ?? "1"), let qb = Double(out[k].quantity ?? "1"),
                  qa == qa.rounded(), qb == qb.rounded(), (a.minor < 0) == (b.minor < 0) else {
                if it.discount == nil, !Text.key(it.description).isEmpty, seen[Text.key(it.description)] == nil {
                    seen[Text.key(it.description)] = out.count
                }
                out.append(it)
                continue
            }
            var m = out[k]
            m.quantity = String(Int(qa + qb))
            m.amount = Amount.cents(a.cents + b.cents).decimalString
            if m.unitPrice == nil || m.unitPrice != it.unitPrice { m.unitPrice = nil }
            if a.cents * Int(qb) == b.cents * Int(qa), Int(qa) > 0 { m.unitPrice = Amount.cents(a.cents / Int(qa)).decimalString }
            var src = m.source
            src.text = [m.source.text, it.source.text].joined(separator: "\n")
            src.boundingBox = BoundingBox.enclosing([m.source.boundingBox, it.source.boundingBox].compactMap { $0 })?.rounded()
            src.confidence = min(m.source.confidence, it.source.confidence)
            m.source = src
            out[k] = m
        }
        return out
    }

    /// Quantity, unit, unit price and amount of one item line.
    static func item(from l: AnalyzedLine, wholeUnits: Bool) -> Receipt.Item {
        var words = Array(l.line.words.prefix(l.labelWordCount).map(\.text))
        var quantity: String?, unit: String?, unitPrice: String?
        let amounts = l.trailing.map(\.amount)
        if amounts.count >= 2 { unitPrice = amounts[amounts.count - 2].decimalString }
        // `1,500 kg x 1,99 EUR/kg`, `2 x 3.50`, `2 @ 3.50`, `x2`.
        let joined = words.joined(separator: " ")
        let weight = #"(\d+(?:[.,]\d{1,3})?)\s*(kg|g|lb|lbs|oz|l)\b\s*[x×@*]\s*([\d.,]+)\s*(?:[A-Z€$£]{1,3})?\s*/\s*(kg|g|lb|lbs|oz|l)\b"#
        if let m = Text.range(joined, weight, caseInsensitive: true) {
            let s = String(joined[m])
            let parts = s.split(whereSeparator: { $0 == " " || $0 == "x" || $0 == "×" || $0 == "@" || $0 == "*" || $0 == "/" })
            if let q = parts.first {
                var qs = String(q)
                var u: String? = nil
                if let idx = qs.firstIndex(where: { $0.isLetter }) { u = String(qs[idx...]); qs = String(qs[..<idx]) }
                quantity = qs.replacingOccurrences(of: ",", with: ".")
                unit = (u ?? (parts.count > 1 ? String(parts[1]) : nil))?.lowercased()
            }
            if let p = parts.dropFirst().first(where: { Amount.parse($0) != nil }) { unitPrice = Amount.parse(p)!.decimalString }
            var rest = joined
            rest.removeSubrange(m)
            words = rest.split(separator: " ").map(String.init)
        } else if let m = Text.range(joined, #"\s*\(\s*(\d{1,3})\s*(?:[xX×@*]\s*[$€£]?\s*(?:\d[\d.,]*)?\s*)?\)?\s*$"#),
                  m.lowerBound != joined.startIndex {
            // A count in parentheses after the description: `Chang (2@$3.50)`, `Rye 10yr (2 @20.00)`, `(2` cut off by the amounts.
            let s = joined[m].drop { $0 == " " || $0 == "(" }
            let q = s.prefix { $0.isNumber }
            quantity = String(q)
            let rest = s.dropFirst(q.count).drop { $0 == " " || $0 == "x" || $0 == "X" || $0 == "×" || $0 == "@" || $0 == "*" }
            let price = rest.drop { $0 == "$" || $0 == "€" || $0 == "£" || $0 == " " }.prefix { $0.isNumber || $0 == "." || $0 == "," }
            if let a = Amount.parse(price, wholeUnits: wholeUnits) { unitPrice = a.decimalString }
            words = String(joined[..<m.lowerBound]).split(separator: " ").map(String.init)
        } else if let m = Text.range(joined, #"(?:^|\s)(\d{1,3}(?:[.,]\d{1,3})?)\s*[xX×@*]\s*(?:\S*\d[\d.,]*)?\s*$"#) {
            let s = String(joined[m]).trimmingCharacters(in: .whitespaces)
            let q = s.prefix { $0.isNumber || $0 == "." || $0 == "," }
            quantity = q.replacingOccurrences(of: ",", with: ".")
            if let p = s.split(whereSeparator: { $0 == "x" || $0 == "X" || $0 == "×" || $0 == "@" || $0 == "*" || $0 == " " }).dropFirst().last,
               let a = Amount.parse(p, wholeUnits: wholeUnits) { unitPrice = a.decimalString }
            words = String(joined[..<m.lowerBound]).split(separator: " ").map(String.init)
        }
        // A leading count: `2 Lunch`, `2x Coffee`, `1 @`.
        if quantity == nil, let f = words.first {
            let digits = f.trimmingCharacters(in: CharacterSet(charactersIn: "xX×@*"))
            if !digits.isEmpty, digits.count <= 3, digits.allSatisfy(\.isNumber), words.count > 1, let n = Int(digits), n > 0, n < 1000 {
                quantity = String(n)
                words.removeFirst()
            }
        }
        // A count printed just before the amounts: `Coffee  2  6.00`.
        if quantity == nil, words.count > 1, let last = words.last, last.count <= 3, last.allSatisfy(\.isNumber), let n = Int(last), n > 0 {
            quantity = String(n)
            words.removeLast()
        }
        // Strip OCR debris before the description: `|`, `•`, lone punctuation.
        while let f = words.first, !f.contains(where: { $0.isLetter || $0.isNumber }) { words.removeFirst() }
        let desc = Text.clean(words.joined(separator: " "))
        let amountWord = l.trailing.last!.word
        let src = l.line.provenance(words: 0..<(amountWord + 1))
        return Receipt.Item(description: desc, quantity: quantity, unit: unit, unitPrice: unitPrice,
                            amount: l.trailing.last!.amount.decimalString, source: src)
    }
}
