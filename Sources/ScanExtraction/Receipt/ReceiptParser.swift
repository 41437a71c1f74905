import Foundation
import ScanDetectors
import ScanModel

/// Reads a `Receipt` out of analyzed lines: merchant, date and time, line items,
/// subtotal, taxes, tip, discounts, total and payment. Every value is taken from
/// printed text, with its provenance; arithmetic that doesn't add up becomes a
/// warning rather than a correction.
public struct ReceiptParser: Sendable {
    /// Labels the lines for the line items (a model the training tools pass in, or the shipped one).
    public var itemModel: ItemLineModel
    /// The learned field scores; nil: the shipped model (`Resources/ReceiptFields.json`, or
    /// `$SCANEXTRACT_RECEIPT_MODEL`).
    let fieldModel: ReceiptFieldModel?
    /// The year that two-digit years are read around and that bounds a receipt's date (a date after the next year is a
    /// misread): the detectors' reference day (`--reference-date`), this year by default.
    public var referenceYear = NumericDate.referenceYear
    /// The region the document's text points to (`DataDetector.context`: a calling code, a country, a currency), or
    /// the user's `--country`; nil when nothing says. It orders numeric dates that read both ways.
    public var region: String?

    public init(itemModel: ItemLineModel = .shipped) {
        self.itemModel = itemModel
        fieldModel = nil
    }

    /// A parser that scores field candidates with `fieldModel` (`.untrained` keeps them in reading order: for
    /// training).
    public init(fieldModel: ReceiptFieldModel, itemModel: ItemLineModel = .shipped) {
        self.fieldModel = fieldModel
        self.itemModel = itemModel
    }

    /// `candidates` scored for `field` by the parser's model, best first.
    func ranked(_ candidates: [FieldCandidate], _ field: ReceiptField) -> [FieldCandidate] {
        ReceiptFieldFeatures.ranked(candidates, field, model: fieldModel ?? .shared)
    }

    /// The role a line plays in the summary part of a receipt.
    enum Role: Equatable {
        case total(strength: Double), subtotal, tax, tip, fee, discount, rounding, tendered, change, quantityTotal,
            taxId, none

        /// Money handed over or given back: what was paid, not what was bought.
        var isPayment: Bool { self == .tendered || self == .change }
    }

    // The label words of every shipped language (Resources/Locales/*.json), read once.
    static let lexicon = Lexicon.shared
    static let changeWords = lexicon.words(.change)
    static let tenderWords = lexicon.words(.tender)
    static let roundingWords = lexicon.words(.rounding)
    /// Labels of a date that is not the receipt's (`Printed`, `Valid until`, `EXP`).
    static let notIssueDateWords = lexicon.words(.notIssueDate)
    static let quantityWords = lexicon.words(.quantity)
    /// An optional unit word after a count, any case, with its dot and a space: `(?:(?i:STK|PZ|...)\.?\s*)?`.
    static let countUnitPattern: String = countUnitWord.isEmpty ? "" : "(?:" + countUnitWord + #"\.?\s*)?"#
    /// The count units alone, any case: `(?i:STK|PZ|...)`; empty when no locale file names one.
    static let countUnitWord: String = {
        let units = lexicon.words(.countUnits).filter { !$0.contains(" ") }.sorted { $0.count > $1.count }
        guard !units.isEmpty else { return "" }
        return "(?i:" + units.map(NSRegularExpression.escapedPattern(for:)).joined(separator: "|") + ")"
    }()
    static let countUnits = Set(lexicon.words(.countUnits))
    static let packUnits = Set(lexicon.words(.packUnits))
    static let discountWords = lexicon.words(.discount)
    static let subtotalWords = lexicon.words(.subtotal)
    static let tipWords = lexicon.words(.tip)
    static let feeWords = lexicon.words(.fee)
    static let serviceChargeWords = lexicon.words(.serviceCharge)
    static let tipSuggestionWords = lexicon.words(.tipSuggestion)
    static let taxWords = lexicon.words(.tax)
    static let taxIdWords = lexicon.words(.taxId)
    /// The heading of a tax table under the totals (`GST Summary`, `Tax Code`).
    static let taxSummaryWords = lexicon.words(.taxSummary)
    /// Tax-inclusive markers (`INCL`, `INKL`): `Total incl. GST` is the amount due, `incl. VAT 20%` the tax in it.
    static let inclusiveWords = lexicon.words(.taxInclusive)
    static let strongTotalWords = lexicon.words(.strongTotal) + inclusiveWords
    /// The plain total words of each language (`TOTAL`, `JUMLAH`, `SUMME`).
    static let plainTotalWords = lexicon.words(.total)
    /// Words that label a total only on a short line (`BALANCE`, `AMOUNT`, `BETRAG`).
    static let weakTotalWords = lexicon.words(.weakTotal)
    static let totalAbbreviations = lexicon.words(.totalAbbreviations)
    static let totalWords = plainTotalWords + weakTotalWords
    /// Single words that end a `Qty: 3 Amount: 262,000` label: the amount's own label.
    static let amountLabelWords = Set(totalWords.filter { !$0.contains(" ") })
    static let anyTotalWords = totalWords + strongTotalWords
    // Combinations `role(_:)` checks on every line, made once.
    static let inclusiveOrPlainTotalWords = inclusiveWords + plainTotalWords
    static let payableTotalWords = plainTotalWords + PhraseSet(strongTotalWords.filter { !inclusiveWords.contains($0) })
    static let nonInclusiveTotalWords = PhraseSet(anyTotalWords.filter { !inclusiveWords.contains($0) })

    /// `key` without the tax-included phrases it holds (`BAR AF VSK` of `BAR AF VSK 11`).
    static func withoutInclusivePhrases(_ key: String) -> String {
        var k = " " + key + " "
        for p in inclusiveWords.phrases where k.contains(" " + p + " ") {
            k = k.replacingOccurrences(of: " " + p + " ", with: " ")
        }
        return k.trimmingCharacters(in: .whitespaces)
    }

    /// The role of a line, from its label.
    static func role(_ rawKey: String) -> Role {
        if rawKey.isEmpty { return .none }
        // A tax line's number glued on (`TAX1`, `GST2`): the word is still the label.
        let rawKey = rawKey.contains(where: \.isNumber) ? splittingGluedNumbers(rawKey) : rawKey
        // `lnclusive`, `1nclusive`: OCR's reading of a small capital I.
        let key =
            Text.contains(rawKey, "NCLUSIVE") || Text.contains(rawKey, "NCLUDING") || Text.contains(rawKey, "NCL ")
            ? Text.replacing(rawKey, #"\b[L1I|]NCL"#, with: "INCL") : rawKey
        if Text.hasAny(key, taxIdWords) && !Text.hasAny(key, inclusiveOrPlainTotalWords) { return .taxId }
        if Text.hasAny(key, changeWords) { return .change }
        if Text.hasAny(key, tipWords) {
            // `Suggested Tip: 15% (3.65)`: what a tip would be, not one paid; its amounts are no part of the sums.
            if Text.hasAny(key, tipSuggestionWords) { return .none }
            if isTip(key) && !Text.hasAny(key, inclusiveWords) { return .tip }
        }
        if Text.hasAny(key, roundingWords) && !Text.hasAny(key, plainTotalWords) { return .rounding }
        if Text.hasAny(key, discountWords) { return .discount }
        let totalish = Text.hasAny(key, anyTotalWords) || fuzzyTotal(key)
        if Text.hasAny(key, feeWords) && !totalish { return .fee }
        // `Service Charge 10%`, `Svc Chg`, `Service 5%`: a charge added to the bill, labelled by its words alone (not
        // `Room Service` or `Customer Service`, nor a `Service Tax`).
        if isServiceCharge(key), !totalish, !Text.hasAny(key, taxWords) { return .fee }
        if totalish && Text.hasAny(key, quantityWords) {
            // `Qty: 3 Amount: 262,000`: the count comes first, the amount's own label last.
            if let last = key.split(separator: " ").last, amountLabelWords.contains(String(last)),
               key.split(separator: " ").count >= 3, key.contains(where: \.isNumber) { return .total(strength: 1.5) }
            return .quantityTotal
        }
        if isSubtotal(key) && !Text.hasAny(key, strongTotalWords) { return .subtotal }
        // A payment word inside a tax-included phrase is the phrase's (`BAR AF VSK`, Iceland's `þar af VSK` with its
        // thorn read as a b, holds German's `BAR`); one beside it still pays (`VISA (INCL GST)`).
        if Text.hasAny(key, tenderWords) && !Text.hasAny(key, payableTotalWords)
            && Text.hasAny(withoutInclusivePhrases(key), tenderWords) {
            return .tendered
        }
        // `VAT-Exempt Sales 498.75`: a tax's name on a line of what it is not on.
        if Text.hasAny(key, taxWords), Text.hasAny(key, lexicon.untaxed) { return .none }
        if Text.hasAny(key, taxWords) && !Text.hasAny(key, strongTotalWords) { return .tax }
        // `(Inclusive) GST 6%`, `incl. VAT 20%`: the tax contained in the total, not the total itself.
        if Text.hasAny(key, taxWords), !Text.hasAny(key, nonInclusiveTotalWords),
           !fuzzyTotal(key) { return .tax }
        if Text.hasAny(key, strongTotalWords) && totalish { return .total(strength: 2) }
        if Text.hasAny(key, plainTotalWords) { return .total(strength: 1.5) }
        if fuzzyTotal(key) { return .total(strength: 1) }
        // `TOT`, `TTL`: the till's abbreviation, as a word of its own.
        if Text.hasAny(key, totalAbbreviations) && key.split(separator: " ").count <= 3 { return .total(strength: 1) }
        if Text.hasAny(key, weakTotalWords) && key.split(separator: " ").count <= 3 {
            return .total(strength: 0.5)
        }
        if isCountLabel(key) { return .quantityTotal }
        return .none
    }

    static let quantityPhrases = Set(quantityWords.phrases)

    /// The words of every locale's `serviceCharge` phrases (`SERVICE`, `CHARGE`, `SVC`, `CHG`, `COPERTO`).
    static let serviceChargeParts = Set(serviceChargeWords.phrases.flatMap { $0.split(separator: " ").map(String.init) })

    /// A service charge's label: service-charge words, numbers and single letters only, four words at most
    /// (`SERVICE CHARGE 10`, `SVC CHG`, `S SERVICE CHARGE 40`, `SERVICE`).
    static func isServiceCharge(_ key: String) -> Bool {
        let words = key.split(separator: " ")
        guard words.count <= 4, Text.hasAny(key, serviceChargeWords) else { return false }
        // (A word cut short or misread in one letter still counts: `SERVICE CH`, `Service Charce`.)
        return words.allSatisfy { w in
            serviceChargeParts.contains(String(w)) || !w.contains(where: \.isLetter) || w.count == 1
                || serviceChargeParts.contains { w.count >= 2 && $0.hasPrefix(w) || Text.oneLetterApart($0, String(w)) }
        }
    }

    /// A count's label standing alone: quantity words, units and numbers, two words at most (`ARTIKEL 5`, `ITEMS`,
    /// `ANZAHL ARTIKEL`, `NB ARTICLES`, `JML LITER`). A quantity word beside a word of its own names an article
    /// (`Artikel A`, `Item B`).
    static func isCountLabel(_ key: String) -> Bool {
        let words = key.split(separator: " ").map(String.init)
        guard words.count <= 2, Text.hasAny(key, quantityWords) else { return false }
        return quantityPhrases.contains(key)
            || words.allSatisfy { quantityPhrases.contains($0) || isUnitWord($0) || !$0.contains(where: \.isLetter) }
    }

    /// Labels a till glues a one-digit number to (`TAX1`, `GST2`, `TOTAL2`, `MWST1`): every locale's one-word tax and
    /// total labels.
    static let gluedNumberLabels: Set<Substring> = {
        let phrases: [String] = taxWords.phrases + lexicon.words(.total).phrases
        return Set(phrases.filter { !$0.contains(" ") }.map { Substring($0) })
    }()

    /// `key` with each word that is such a label and one decimal digit split in two (`TAX1` -> `TAX 1`).
    static func splittingGluedNumbers(_ key: String) -> String {
        var changed = false
        let words = key.split(separator: " ", omittingEmptySubsequences: false).map { w -> Substring in
            guard w.count >= 4, let d = w.last, d.unicodeScalars.count == 1,
                  d.unicodeScalars.first!.properties.numericType == .decimal,
                  gluedNumberLabels.contains(w.dropLast()) else { return w }
            changed = true
            return w.dropLast() + " " + String(d)
        }
        return changed ? words.joined(separator: " ") : key
    }

    /// A subtotal label. A bare `SUB` counts only on its own or before a total's abbreviation
    /// (`SUB TTL`, `Sub/Tt1`): `1 SUB ZUCCHINI` is an item (a substitution), not a subtotal.
    /// A tip label: the tip word first or last (`TIP`, `18% TIPS`, `Suggested Gratuity`, `Tip Amount`);
    /// in the middle of a description it names a dish (`Steak Tip Skewers`).
    static func isTip(_ key: String) -> Bool {
        let words = key.split(separator: " ")
        guard let first = words.first, let last = words.last else { return false }
        if tipWordSet.contains(first) { return true }
        // `Total con propina`, `Grand Total with Tip`: the total a tip is in, when a word joins the two.
        if tipWordSet.contains(last) {
            return !Text.hasAny(words.dropLast(2).joined(separator: " "), plainTotalWords)
        }
        // `TIP 18 %`, `TIP AMOUNT`, `GRATUITY 15`: the word before a rate or a value label.
        return words.dropLast().enumerated().contains { i, w in
            tipWordSet.contains(w)
                && words[(i + 1)...].allSatisfy {
                    $0.allSatisfy(\.isNumber) || ["AMOUNT", "AMT", "ADDED", "DUE"].contains($0)
                }
        }
    }

    static let tipWordSet = Set(tipWords.map { Substring($0) })

    static let subtotalPhrases = PhraseSet(subtotalWords.filter { $0 != "SUB" })
    static func isSubtotal(_ key: String) -> Bool {
        if Text.hasAny(key, subtotalPhrases) { return true }
        let words = key.split(separator: " ")
        guard let i = words.firstIndex(of: "SUB") else { return false }
        // Last on an article's line, after its count and its name, `SUB` is a sandwich (`1 Italian Combo Sub 13.95`;
        // not `3 ITEMS SUB`, `2 SUB`); before a word, only a total's word makes it one (`SUB TTL`, `SUB T0TAL`,
        // `Sub/Tt1` as OCR reads it; not `1 Turkey Sub Toasted`).
        if i + 1 == words.count {
            let named = i >= 2 && words[0].allSatisfy(\.isNumber)
                && !words[1..<i].contains { Text.hasAny(String($0), quantityWords) }
            return !named
        }
        let next = words[i + 1]
        return next.hasPrefix("T") && next.count <= 3 || next.hasPrefix("TOT") || Text.oneLetterApart(next, "TOTAL")
    }

    /// `TOTAL` read with one wrong letter (`JOTAL`, `TOTAI`, `T0TAL`).
    static func fuzzyTotal(_ key: String) -> Bool {
        for w in key.split(separator: " ") where Text.oneLetterApart(w, "TOTAL") {
            let second = w[w.index(after: w.startIndex)]
            if second == "O" || second == "0" { return true }
        }
        return false
    }

    static let headerNoise = lexicon.headerNoise
    static let companySuffixes = lexicon.legalForms + lexicon.businessTypes
    /// Words that end a line of a company name's header, or stop an address: contact, document and tax labels.
    static let addressStop =
        lexicon.words(.contact) + lexicon.words(.document) + lexicon.words(.date) + taxWords + taxIdWords
    /// Labels that never belong to an address.
    static let strongStop = lexicon.words(.contact) + lexicon.words(.document) + lexicon.words(.date) + taxIdWords
    static let labelPattern =
        #"\s+(?:DOCUMENT\s*NO|DOC\s*NO|ROC\s*NO|GST\s*(?:ID|NO|REG)|COMPANY\s*NO|CO\.?\s*REG|TEL|FAX|PHONE|RECEIPT|INVOICE|CASHIER|DATE)\b"#

    /// Where a label (`Document No`, `GST ID`, `TEL`) starts inside a line, in scalars.
    static func labelCut(_ text: String) -> Int? {
        guard let r = Text.range(text, labelPattern, caseInsensitive: true) else { return nil }
        return text.unicodeScalars[..<r.lowerBound].count
    }

    /// Words that name a street, never a shop (`CITY`, `PLAZA`, `MARKET` can).
    static let thoroughfareWords = lexicon.thoroughfares
    /// Street words and the other words of an address (units, floors, buildings, districts). No place names:
    /// a town's name is no knowledge of addresses.
    static let streetWords = lexicon.thoroughfares + lexicon.addressParts
    static let countryWords = lexicon.countries

    public func parse(_ analyzed: [AnalyzedLine]) -> (Receipt, [Finding]) {
        let (r, findings, _) = parseWithCandidates(analyzed)
        return (r, findings)
    }

    /// The receipt, and for each learned field its candidates as scored (best first): what
    /// `Tools/train-receipt-fields` learns from.
    public func parseWithCandidates(_ analyzed: [AnalyzedLine]) -> (
        Receipt, [Finding], [ReceiptField: [FieldCandidate]]
    ) {
        var r = Receipt()
        var findings: [Finding] = []
        var candidates: [ReceiptField: [FieldCandidate]] = [:]
        guard !analyzed.isEmpty else { return (r, findings, candidates) }
        let prepared = Self.prepared(analyzed), lines = prepared.lines
        var (roles, summaryStart, tail) = (prepared.roles, prepared.summaryStart, prepared.tail)
        let (wholeUnits, breakdown) = (prepared.wholeUnits, prepared.vatBreakdown)

        let features = ReceiptFieldFeatures(lines)
        // --- Header: merchant name and address (the phone once the article lines are known).
        let header = parseMerchant(
            lines, features: features, limit: summaryStart, into: &r, candidates: &candidates)
        // Lines over the header with amounts no role reads are the slip before's too, and add up none of this slip's
        // items.
        let top = Self.slipTop(lines, header: header, tail: tail, wholeUnits: wholeUnits)
        if top > tail {
            (roles, summaryStart, tail) = Self.summaryBounds(
                lines, top: top, wholeUnits: wholeUnits, vatBreakdown: breakdown)
        }

        // --- Date, time, receipt number, currency.
        parseDateTime(lines, features: features, into: &r, findings: &findings, candidates: &candidates)
        parseReferences(lines, into: &r)

        // --- Items.
        var itemReading = parseItems(
            lines, roles: roles, summaryStart: summaryStart, tail: tail, top: top, wholeUnits: wholeUnits, into: &r)
        Self.setMerchantPhone(lines, limit: summaryStart, address: header.address,
                              articleLines: Self.articleLines(itemReading), into: &r)

        // --- Summary.
        parseSummary(
            lines, roles: roles, from: summaryStart, tail: top, vatBreakdown: breakdown, features: features, into: &r,
            candidates: &candidates)
        if let totalLine = candidates[.total]?.first?.lines.lowerBound {
            Self.endItemsAtTotal(&itemReading, totalLine: totalLine, into: &r)
        }
        Self.dropItemsSumLine(&r)
        Self.completeItemsBySums(&itemReading, into: &r)
        Self.billDiscountUnderTheSubtotal(
            lines, roles: roles, summaryStart: summaryStart, totalLine: candidates[.total]?.first?.lines.lowerBound,
            reading: &itemReading, into: &r)
        Self.articleTableBySums(itemReading, into: &r)
        Self.dropTaxesTheOthersProve(&r)
        Self.dropTaxThatIsTheTotal(&r)
        Self.taxByItsRate(&r, roles: roles)

        // --- Amounts the sums prove misread, then the checks.
        let dollars = Self.printsDollars(lines)
        findings += mendMisreadAmounts(lines, roles: roles, dollars: dollars, into: &r)
        findings += mendSplitTotal(lines, roles: roles, into: &r)
        let rounding = Self.rounding(lines, roles: roles)
        findings += mendTotalOneDigitOff(rounding: rounding, into: &r)
        mendRoundedTotal(lines, roles: roles, rounding: rounding, into: &r)
        Self.setRounding(lines, rounding: rounding, into: &r)
        findings += mendTotalByPayment(rounding: rounding, into: &r)
        findings += Self.mendSlippedTotal(lines, total: candidates[.total]?.first, into: &r)
        findings += Self.amountsByTheirProducts(&r)
        if dollars { findings += Self.completeItemsBySums(&itemReading, into: &r, dollarMends: true) }
        findings += check(r)
        Self.listDiscountLines(itemReading.discountLines, into: &r)
        return (r, findings, candidates)
    }

    /// The line that adds up the items, in whatever language its label is: a line whose amount, above zero, is the
    /// sum (to a cent) of the amounts of every line above it, at least two of them not zero. Of several such lines the
    /// last: `Tea 3.00`, `Tea 3.00`, `Cake 6.00`, `Subtotal 12.00` has two, and the cake is an item. Never a line with
    /// a phone number or a date (`or call 03-56360199 12.37`).
    /// With one item its amount printed again could be a second one (`Tee 3.00`, `Tee 3.00`), so a line repeating the
    /// one amount above it adds up the items only when a later line, the largest amount so far, adds it to the amounts
    /// between, each of them small beside it, as a tax or a service charge is (`Tenberg 45.63`, `Kelzo 10% 8.67`,
    /// `Labergol 54.30`: a subtotal, its tax and the total).
    /// A count and a unit price printed under or over the item they price (`Laan 61.80` / `3 × 20.60`) add nothing:
    /// their amount is inside the item's.
    /// Lines above `top` are another slip's (`slipTop`) and add nothing.
    static func sumLine(_ lines: [AnalyzedLine], top: Int = 0, wholeUnits: Bool) -> Int? {
        var sum = 0, count = 0, found: Int?
        var amounts: [(line: Int, cents: Int)] = []
        for (i, l) in lines.enumerated() where i >= top {
            guard let cents = l.amount?.cents, !pricesANeighbour(lines, i, wholeUnits: wholeUnits) else { continue }
            if count >= 2, cents > 0, abs(sum - cents) <= 1, !l.holdsContactOrDate { found = i }
            sum += cents
            if cents != 0 { count += 1 }
            amounts.append((i, cents))
        }
        if found != nil { return found }
        // The one-item case: the first two amounts (not zero) equal, and a later amount is the second plus those
        // between, each between at most three tenths of it, and no amount before it larger.
        let priced = amounts.filter { $0.cents != 0 }
        guard priced.count >= 4, priced[0].cents > 0, priced[0].cents == priced[1].cents else { return nil }
        var running = priced[1].cents, largest = priced[1].cents
        for k in 2..<priced.count {
            if k >= 3, priced[k].cents > largest, abs(priced[k].cents - running) <= 1 { return priced[1].line }
            guard abs(priced[k].cents) * 10 <= priced[1].cents * 3 else { return nil }
            running += priced[k].cents
            largest = max(largest, priced[k].cents)
        }
        return nil
    }

    /// Where this slip starts under the tail of the one before, which a scan of a till's roll catches over the header
    /// (`Grand Total 12.35`, `Please come again`, then this slip's shop): the line after the first closing phrase of a
    /// locale file (`THANK YOU`, `VIELEN DANK`) in the top third, with an amount above it and two under it; 0 without
    /// one.
    static func slipBeforesTail(_ lines: [AnalyzedLine]) -> Int {
        let top = lines.count / 3
        guard top > 0, let c = lines.prefix(top).firstIndex(where: { Text.hasAny($0.key, lexicon.closings) }),
              lines[..<c].contains(where: { $0.amount != nil }),
              lines[(c + 1)...].filter({ $0.amount != nil }).count >= 2 else { return 0 }
        return c + 1
    }

    /// Whether line `i` is only a count and a unit price (`3 × 20.60`) whose product is the amount of the line
    /// above or below it, to a cent.
    static func pricesANeighbour(_ lines: [AnalyzedLine], _ i: Int, wholeUnits: Bool) -> Bool {
        let parsed = item(from: lines[i], wholeUnits: wholeUnits)
        guard parsed.amount == nil, let q = parsed.quantity.flatMap({ Decimal(string: $0) }),
              let unit = parsed.unitPrice.flatMap(Amount.init(decimalString:)) else { return false }
        let product = q * Decimal(unit.cents)
        return [i - 1, i + 1].contains { k in
            guard lines.indices.contains(k), let a = lines[k].amount?.cents, a != 0 else { return false }
            return abs(Decimal(a) - product) <= 1
        }
    }

    /// Whether the slip prints amounts in whole units (no decimals), as rupiah and won are.
    static func printsWholeUnits(_ lines: [AnalyzedLine]) -> Bool {
        lines.contains { $0.trailing.contains { $0.amount.scale == 0 } }
    }

    /// A VAT breakdown printed a row to a line (`vatRowsOnLines`): its first row, and the lines of its net amount, its
    /// tax and its gross amount.
    typealias VATBreakdown = (start: Int, net: Int, tax: Int, gross: Int)

    /// The lines as the field parsers read them, and what is read once from all of them.
    struct Prepared {
        /// The lines with the words right of a price column dropped (`withinPriceColumn`).
        var lines: [AnalyzedLine]
        /// Each line's summary role.
        var roles: [Role]
        /// The first summary line; `lines.count` when there is none.
        var summaryStart: Int
        /// Where this slip starts under the tail of the one before (`slipBeforesTail`, or under that tail's total); 0
        /// without one.
        var tail: Int
        /// Whether the slip prints its amounts in whole units (`printsWholeUnits`).
        var wholeUnits: Bool
        /// The VAT breakdown a row to a line that its arithmetic proves (`vatRowsOnLines`), if any.
        var vatBreakdown: VATBreakdown?
    }

    /// The lines as the field parsers read them (`Prepared`), before the header is read (`summaryBounds` again with
    /// `slipTop` after it).
    static func prepared(_ analyzed: [AnalyzedLine]) -> Prepared {
        let wholeUnits = printsWholeUnits(analyzed)
        let lines = withinPriceColumn(analyzed, wholeUnits: wholeUnits)
        let breakdown = vatRowsOnLines(lines)
        let (roles, summaryStart, tail) = summaryBounds(lines, wholeUnits: wholeUnits, vatBreakdown: breakdown)
        return Prepared(
            lines: lines, roles: roles, summaryStart: summaryStart, tail: tail, wholeUnits: wholeUnits,
            vatBreakdown: breakdown)
    }

    /// The lines with the words printed right of a column heading's price column dropped.
    static func withinPriceColumn(_ analyzed: [AnalyzedLine], wholeUnits: Bool) -> [AnalyzedLine] {
        var lines = analyzed
        // Under a column heading with a price column, words printed right of that column (a suggested-tip
        // table beside the items and totals) are no part of the receipt's lines.
        if let (headerIndex, column) = Self.priceHeading(lines) {
            let bare = Self.bareAmounts(lines)
            // A table of its own under the totals (a tax summary's `Code  %  Net Amt  GST  Total`) has its own
            // columns: the cut ends at its heading, or else its last column would be cut off and its tax read as a
            // total.
            var totalled = false
            for i in (headerIndex + 1)..<lines.count {
                if totalled,
                    isColumnHeading(lines[i]) || lines[i].amount == nil && Text.hasAny(lines[i].key, taxSummaryWords)
                {
                    break
                }
                switch lines[i].role {
                case .total, .subtotal: totalled = totalled || lines[i].amount != nil
                default: break
                }
                Self.keepColumn(&lines[i], right: column, wholeUnits: wholeUnits, bare: bare)
            }
        }
        return lines
    }

    /// The prepared lines' summary roles, the first summary line and where this slip starts (`prepared`).
    static func summaryBounds(
        _ lines: [AnalyzedLine], top: Int = 0, wholeUnits: Bool, vatBreakdown: VATBreakdown?
    ) -> (roles: [Role], summaryStart: Int, tail: Int) {
        var roles = lines.map(\.role)

        // The summary starts at the first subtotal or total line that carries an amount, under the tail of the slip
        // before when the scan caught one. A total in the top fifth with no amount above it, and priced lines of no
        // role between it and a later total, is that tail's too though no closing words end it (`A PAYER 121,98`,
        // `www.almo.fr`, then this slip's shop), and so no item of this one.
        var summaryStart = lines.count
        var tail = slipBeforesTail(lines)
        var first: Int?, pricedSince = false
        for (i, l) in lines.enumerated() where i >= tail {
            switch roles[i] {
            case .subtotal, .total:
                // Its amount on the line, under it, or cut by OCR into number tokens (`Te betalen 23,7 3`). Not a
                // column heading that names an article's column (`Description  Total` over `1 0st  32,52`, whose
                // short name makes it look like a value alone).
                guard l.amount != nil || (i + 1 < lines.count && Self.valueOnly(lines[i + 1]) && !namesItsColumns(l))
                    || (Self.numberTokens(l.line.words.map(\.text))?.count ?? 0) >= 2 else { break }
                if let f = first, !pricedSince { summaryStart = f; break }
                if first == nil, 5 * i < lines.count, !lines[tail..<i].contains(where: { $0.amount != nil }) {
                    first = i
                } else {
                    summaryStart = i
                }
            case .none: pricedSince = pricedSince || (first != nil && l.amount != nil)
            default: break
            }
            if summaryStart < lines.count { break }
        }
        if summaryStart == lines.count, let first { summaryStart = first }
        if let first, first < summaryStart { tail = first + 1 }
        // No subtotal or total label that a locale file knows: the items end where a line adds them up (`sumLine`: a
        // line whose amount is the sum of the amounts above it).
        // That line adds up the items, so it is no tax, whatever its words say (a total OCR glued into one word beside
        // a tax word, `TotalSales (Inclusive GST)`).
        if summaryStart == lines.count, let sum = sumLine(lines, top: top, wholeUnits: wholeUnits) {
            summaryStart = sum
            if case .tax = roles[sum] { roles[sum] = .none }
        }
        // A VAT breakdown whose rows the sums prove is summary, whatever its labels' language, and its tax line a tax.
        if let vat = vatBreakdown, vat.start < summaryStart {
            summaryStart = vat.start
            if case .none = roles[vat.tax] { roles[vat.tax] = .tax }
        }
        // Tax and tip lines printed right above the first total (no subtotal line) are part of the summary.
        while summaryStart > 0, summaryStart < lines.count, summaryStart > lines.count / 3,
              [.tax, .tip].contains(roles[summaryStart - 1]), lines[summaryStart - 1].amount != nil
        {
            summaryStart -= 1
        }
        return (roles, summaryStart, tail)
    }

    /// A line with an amount and (almost) no letters: the value of a label printed above it.
    static func valueOnly(_ l: AnalyzedLine) -> Bool {
        l.amount != nil && Text.letterCount(l.label) <= 3
    }
}
