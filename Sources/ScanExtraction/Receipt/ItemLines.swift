import Foundation
import ScanDetectors
import ScanLayout
import ScanModel

/// What a receipt line is to the line items: the start of an item, more of its description,
/// its quantity or weight line, a modifier under it (`- extra cheese`, `No onions 0.00`),
/// a discount under it, or no part of any item.
public enum ItemLineLabel: String, CaseIterable, Sendable {
    case other = "O"
    case item = "ITEM"
    case continuation = "CONT"
    case quantity = "QTY"
    case modifier = "SUB"
    case discount = "DISC"
}

/// A model over a receipt's lines: a score per label from each line's features (boosted
/// trees, one ensemble a label, or linear weights), plus a score for each pair of labels on
/// neighbouring lines; the most likely sequence is found with the Viterbi algorithm. Trees and
/// a logistic regression have zero transitions, so each line takes its best label; a CRF has
/// them. Learned by `Tools/train-items/train_items.py`, shipped as `Resources/ItemLines.json`.
public struct ItemLineModel: Sendable {
    public let labels: [ItemLineLabel]
    public let features: [String]
    /// `weights[label][feature]`, for a linear model (empty for trees).
    public let weights: [[Double]]
    /// `trees[label]`, for boosted trees (empty for a linear model).
    public let trees: [TreeEnsemble]
    /// `transitions[from][to]`, between the labels of a line and of the line under it.
    public let transitions: [[Double]]
    /// What the model learned from, as the training tool wrote it.
    public var trainedOn = ""

    public init(labels: [ItemLineLabel], features: [String], weights: [[Double]], transitions: [[Double]]) {
        precondition(weights.count == labels.count && weights.allSatisfy { $0.count == features.count },
                     "item line weights do not match their labels and features")
        precondition(transitions.count == labels.count && transitions.allSatisfy { $0.count == labels.count })
        self.labels = labels
        self.features = features
        self.weights = weights
        self.trees = []
        self.transitions = transitions
    }

    /// Boosted trees: a label's score is the sum of its ensemble's leaves (a log-odds). They learn no
    /// transitions, so the one rule of the sequence is given: the parts of an item (more of its
    /// description, its quantity line, a modifier, a discount) follow its start, never a line that is
    /// no part of an item. A name line the trees doubt above a quantity line with the amount is then
    /// the item's start.
    public init(labels: [ItemLineLabel], features: [String], trees: [TreeEnsemble]) {
        precondition(trees.count == labels.count, "item line trees do not match their labels")
        self.labels = labels
        self.features = features
        self.weights = []
        self.trees = trees
        self.transitions = labels.map { from in
            labels.map { to in from == .other && ![.other, .item].contains(to) ? -Self.forbidden : 0 }
        }
    }

    /// A transition's score that no line's scores outweigh.
    static let forbidden = 1e6

    /// A model as `train_items.py --write` writes it: `{"trainedOn", "labels", "features"}` with either
    /// `"trees"` (per label, a list of packed trees) or `"weights"` and `"transitions"`. Its features must be
    /// the ones this version computes, in the same order.
    public init(json data: Data) throws {
        struct File: Decodable {
            var trainedOn: String?
            var labels: [String]
            var features: [String]
            var weights: [[Double]]?
            var transitions: [[Double]]?
            var trees: [[TreeEnsemble.PackedTree]]?
        }
        func invalid(_ why: String) -> DecodingError {
            DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "item line model: " + why))
        }
        let file = try JSONDecoder().decode(File.self, from: data)
        let labels = file.labels.compactMap(ItemLineLabel.init(rawValue:))
        guard labels.count == file.labels.count else { throw invalid("unknown labels \(file.labels)") }
        guard file.features == ItemLineFeatures.names else {
            throw invalid("trained on other features than this version computes: train it again (Tools/train-items)")
        }
        if let trees = file.trees {
            guard trees.count == labels.count else {
                throw invalid("\(trees.count) ensembles for \(labels.count) labels")
            }
            let ensembles = try trees.map { packed in
                do {
                    return TreeEnsemble(
                        features: file.features,
                        trees: try packed.map { try TreeEnsemble.tree(packed: $0, featureCount: file.features.count) })
                } catch let e as TreeEnsemble.Invalid { throw invalid(e.description) }
            }
            self.init(labels: labels, features: file.features, trees: ensembles)
        } else if let weights = file.weights, let transitions = file.transitions,
                  weights.count == labels.count, weights.allSatisfy({ $0.count == file.features.count }),
                  transitions.count == labels.count, transitions.allSatisfy({ $0.count == labels.count }) {
            self.init(labels: labels, features: file.features, weights: weights, transitions: transitions)
        } else {
            throw invalid("neither trees nor weights and transitions of the labels' and features' sizes")
        }
        trainedOn = file.trainedOn ?? ""
    }

    /// The environment variable that names another model file (a k-fold run reads one model a fold).
    public static let fileVariable = "SCANEXTRACT_ITEM_MODEL"

    /// The shipped model (or `$SCANEXTRACT_ITEM_MODEL`'s), read once, or why it could not be read.
    public static let loaded = ResourceFiles.load("ItemLines.json", overriddenBy: fileVariable) {
        try ItemLineModel(json: ResourceFiles.data($0, what: "item line model"))
    }

    /// The shipped model, once `loaded` was checked: a broken file stops the program here.
    public static let shipped = ResourceFiles.required(loaded)

    /// Each label's score for one line's features.
    func scores(_ row: [Double]) -> [Double] { labels.indices.map { score(row, label: $0) } }

    /// One label's score for one line's features.
    func score(_ row: [Double], label l: Int) -> Double {
        if !trees.isEmpty { return trees[l].score(row) }
        let w = weights[l]
        var s = 0.0
        for f in 0..<min(row.count, w.count) where row[f] != 0 { s += w[f] * row[f] }
        return s
    }

    /// The label of each line, as the best-scoring sequence. A line marked in `outside` is labelled `.other`.
    public func decode(_ rows: [[Double]], outside: [Bool] = []) -> [ItemLineLabel] {
        let n = rows.count, k = labels.count
        guard n > 0 else { return [] }
        var emission = [Double](repeating: 0, count: n * k)
        let other = labels.firstIndex(of: .other)
        for (i, row) in rows.enumerated() {
            if i < outside.count && outside[i] {
                // Only `.other` is open to such a line: no other label's trees are walked.
                for l in 0..<k { emission[i * k + l] = l == other ? score(row, label: l) : -.infinity }
            } else {
                for (l, v) in scores(row).enumerated() { emission[i * k + l] = v }
            }
        }
        // The line before the first is no part of an item.
        var score = (0..<k).map { to in emission[to] + (other.map { transitions[$0][to] } ?? 0) }
        var back = [Int](repeating: 0, count: n * k)
        for i in 1..<max(1, n) {
            var next = [Double](repeating: -.infinity, count: k)
            for to in 0..<k {
                var best = -Double.infinity, arg = 0
                for from in 0..<k where score[from] + transitions[from][to] > best {
                    best = score[from] + transitions[from][to]
                    arg = from
                }
                next[to] = best + emission[i * k + to]
                back[i * k + to] = arg
            }
            score = next
        }
        var last = score.indices.max { score[$0] < score[$1] } ?? 0
        var out = [ItemLineLabel](repeating: .other, count: n)
        for i in stride(from: n - 1, through: 0, by: -1) {
            out[i] = labels[last]
            last = back[i * k + last]
        }
        return out
    }
}

/// One line as the item model sees it, for the training tools: its text, its box and its features.
public struct ItemLineRow: Sendable {
    public var text: String
    public var box: BoundingBox
    public var words: [BoundingBox]
    public var features: [Double]
}

/// Features of receipt lines that hold in any country and language: where the line sits,
/// whether it ends in an amount and whether that amount lines up with the others, the
/// line's shape (letters, digits, height, indent), a quantity or weight pattern, the
/// summary role of its label, and the same for the lines above and below.
enum ItemLineFeatures {
    /// Features of the line itself.
    static let own = [
        "bias", "position", "beforeSummary", "afterHeading", "heading", "hasAmount", "twoAmounts", "aligned",
        "columnOffset",
        "negative", "largest", "amountShare", "labelLetters", "noLabel", "letterShare", "digitShare", "words",
        "height", "indent", "gapAbove", "quantity", "leadingCount", "weight", "percent", "bullet", "contact",
        "roleTotal", "roleSubtotal", "roleTax", "roleDiscount", "rolePayment", "roleCount", "roleOther", "first",
        "last",
        "zeroAmount"
    ]
    /// Features copied from the neighbouring lines (`prev.` and `next.`).
    static let neighbourOwn = [
        "hasAmount", "aligned", "labelLetters", "noLabel", "quantity", "leadingCount", "indent", "digitShare",
        "heading", "roleTotal", "roleSubtotal", "beforeSummary", "bullet", "height"
    ]
    static let names = own + neighbourOwn.map { "prev." + $0 } + neighbourOwn.map { "next." + $0 }

    /// A count, perhaps its unit word (`Stk`, `PZ`: the locales' `countUnits`), then `x` or `@` and a price.
    static let quantityPattern = #"(?:^|\s)\d{1,4}(?:[.,]\d{1,3})?\s*"# + ReceiptParser.countUnitPattern
        + #"(?:[xX×*@]|pcs?\b|PCS?\b)\s*\S*\d"#
    static let weightPattern = #"\d(?:[.,]\d{1,3})?\s*(?:kg|g|lb|lbs|oz|l|ltr)\b"#

    /// The right edge of the amount column: the median right edge of the line amounts above
    /// the summary (of all lines, when fewer than two are there).
    static func column(_ lines: [AnalyzedLine], summaryStart: Int) -> Double? {
        func edges(_ range: Range<Int>) -> [Double] {
            range.compactMap { lines[$0].amountPlace?.maxX }.sorted()
        }
        var e = edges(0..<min(summaryStart, lines.count))
        if e.count < 2 { e = edges(0..<lines.count) }
        return e.isEmpty ? nil : e[e.count / 2]
    }

    static func median(_ xs: [Double]) -> Double {
        guard !xs.isEmpty else { return 0 }
        let s = xs.sorted()
        return s[s.count / 2]
    }

    /// The feature rows of `lines`, in the order of `names`.
    static func rows(_ lines: [AnalyzedLine], roles: [ReceiptParser.Role], summaryStart: Int, heading: Int?)
        -> [[Double]]
    {
        let n = lines.count
        guard n > 0 else { return [] }
        let column = Self.column(lines, summaryStart: summaryStart)
        let height = max(1, median(lines.map(\.line.textHeight)))
        let left = median(lines.map(\.line.place.minX).sorted().prefix(max(1, n / 4)).map { $0 })
        let largest = lines.compactMap { $0.amount?.cents }.map(abs).max() ?? 0
        var base: [[Double]] = []
        base.reserveCapacity(n)
        for (i, l) in lines.enumerated() {
            let h = max(1, l.line.textHeight)
            var f = [Double](repeating: 0, count: own.count)
            func set(_ name: String, _ v: Double) { f[ownIndex[name]!] = v }
            func set(_ name: String, _ v: Bool) { f[ownIndex[name]!] = v ? 1 : 0 }
            set("bias", 1.0)
            set("position", n > 1 ? Double(i) / Double(n - 1) : 0)
            set("beforeSummary", i < summaryStart)
            set("afterHeading", heading.map { i > $0 } ?? false)
            set("heading", heading == i)
            set("first", i == 0)
            set("last", i == n - 1)
            if let t = l.trailing.last, let place = l.amountPlace {
                set("hasAmount", true)
                set("twoAmounts", l.trailing.count >= 2)
                let offset = column.map { abs(place.maxX - $0) / h } ?? 3
                set("aligned", offset <= 1.5)
                set("columnOffset", min(3, offset) / 3)
                set("negative", t.amount.minor < 0)
                // Free items and bags cost 0, and so do the choices printed under an item.
                set("zeroAmount", t.amount.minor == 0)
                set("largest", largest > 0 && abs(t.amount.cents) == largest)
                set("amountShare", largest > 0 ? Double(abs(t.amount.cents)) / Double(largest) : 0)
            }
            let label = l.label
            let labelLetters = Text.letterCount(label)
            set("labelLetters", min(20, Double(labelLetters)) / 20)
            // A count's unit and the times sign are no label (`3개 x 4,400`, `2 Stk x 0,89`).
            set("noLabel", ReceiptParser.lettersBesideCount(label) < 2)
            // Not the share of capitals: CORD's tills print in capitals only, other tills don't.
            var letters = 0, digits = 0, other = 0
            for c in l.text where c != " " {
                if c.isLetter { letters += 1 } else if c.isNumber { digits += 1 } else { other += 1 }
            }
            let chars = max(1, letters + digits + other)
            set("letterShare", Double(letters) / Double(chars))
            set("digitShare", Double(digits) / Double(chars))
            set("words", min(10, Double(l.line.words.count)) / 10)
            set("height", min(1, max(-1, l.line.textHeight / height - 1)))
            set("indent", min(5, max(0, (l.line.place.minX - left) / h)) / 5)
            if i > 0 { set("gapAbove", min(3, max(0, (l.line.place.minY - lines[i - 1].line.place.maxY) / h)) / 3) }
            set("quantity", Text.range(l.text, quantityPattern) != nil)
            if let w = l.line.words.first?.text, l.line.words.count > 1 {
                set("leadingCount", ReceiptParser.countDigits(w) != nil)
            }
            set("weight", Text.range(l.text, weightPattern, caseInsensitive: true) != nil)
            set("percent", l.text.contains("%"))
            // A bullet opens the line, or follows its count (`1 - Less ice 0`).
            let words = l.line.words.map(\.text)
            func bullet(_ w: String?) -> Bool { w?.first.map { "-+*•>".contains($0) } ?? false }
            set("bullet", bullet(words.first)
                || (words.count > 2 && f[ownIndex["leadingCount"]!] == 1 && bullet(words[1])))
            set("contact", l.holdsContactOrDate)
            switch roles[i] {
            case .total: set("roleTotal", true)
            case .subtotal: set("roleSubtotal", true)
            case .tax: set("roleTax", true)
            case .discount: set("roleDiscount", true)
            case .tendered, .change: set("rolePayment", true)
            case .quantityTotal: set("roleCount", true)
            case .tip, .fee, .rounding, .taxId: set("roleOther", true)
            case .none: break
            }
            base.append(f)
        }
        let picks = neighbourOwn.map { ownIndex[$0]! }
        return (0..<n).map { i in
            var row = base[i]
            row.reserveCapacity(names.count)
            for p in picks { row.append(i > 0 ? base[i - 1][p] : 0) }
            for p in picks { row.append(i + 1 < n ? base[i + 1][p] : 0) }
            return row
        }
    }

    static let ownIndex: [String: Int] = Dictionary(uniqueKeysWithValues: own.enumerated().map { ($1, $0) })
}

extension ReceiptParser {
    /// The names of the item model's features, in the order of `ItemLineRow.features`.
    public static var itemLineFeatureNames: [String] { ItemLineFeatures.names }

    /// Each line of a receipt as the item model sees it, with its features: what the training
    /// tool (`Tools/train-items`) reads.
    public static func itemLineRows(_ analyzed: [AnalyzedLine]) -> [ItemLineRow] {
        let p = prepared(analyzed)
        let (itemLines, heading) = itemRegion(
            p.lines, roles: p.roles, summaryStart: p.summaryStart, wholeUnits: p.wholeUnits)
        let rows = ItemLineFeatures.rows(itemLines, roles: p.roles, summaryStart: p.summaryStart, heading: heading)
        return zip(itemLines, rows).map { l, f in
            ItemLineRow(text: l.text, box: l.line.box, words: l.line.words.map(\.box), features: f)
        }
    }
}
