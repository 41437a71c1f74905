import Foundation

/// Boosted regression trees that score the candidates of one receipt field (learned by
/// `Tools/train-receipt-fields/train.py` with LightGBM's ranking objective). A candidate's
/// score is the sum of one leaf value per tree; only the order of the scores matters.
public struct TreeEnsemble: Codable, Sendable {
    /// The names of the features, in the order the trees index them; they must equal the parser's.
    public var features: [String]
    public var trees: [Tree]

    /// One tree as flat arrays. An inner node `n` sends a candidate left when
    /// `x[feature[n]] <= threshold[n]`; a child `c < 0` is the leaf `-c - 1`.
    public struct Tree: Codable, Sendable {
        public var feature: [Int]
        public var threshold: [Double]
        public var left: [Int]
        public var right: [Int]
        public var leaf: [Double]
    }

    /// A tree as the training tools write it: each array packed into one string of numbers
    /// separated by spaces (tens of thousands of JSON numbers decoded one by one took over 40 ms).
    /// Decoded as a struct, not a dictionary: hashing its keys took a quarter of a one-receipt run.
    struct PackedTree: Decodable {
        var feature, threshold, left, right, leaf: String
    }

    struct Invalid: Error, CustomStringConvertible { var description: String }

    /// A tree unpacked and checked, so that scoring can neither trap nor loop: whole numbers where indices belong,
    /// one entry a node in each array, features among the `featureCount` the model has, and every child a leaf
    /// that exists or a node after its parent (trees are written root first).
    static func tree(packed: PackedTree, featureCount: Int) throws -> Tree {
        func indices(_ s: String, _ key: String) throws -> [Int] {
            try numbers(s, key).map { v in
                guard let i = Int(exactly: v) else {
                    throw Invalid(description: "'\(key)' holds \(v), not a whole number")
                }
                return i
            }
        }
        let t = Tree(
            feature: try indices(packed.feature, "feature"), threshold: try numbers(packed.threshold, "threshold"),
            left: try indices(packed.left, "left"), right: try indices(packed.right, "right"),
            leaf: try numbers(packed.leaf, "leaf"))
        let nodes = t.feature.count
        guard t.threshold.count == nodes, t.left.count == nodes, t.right.count == nodes, !t.leaf.isEmpty else {
            throw Invalid(description: "a tree's arrays differ in length, or it has no leaf")
        }
        guard t.feature.allSatisfy({ (0..<featureCount).contains($0) }) else {
            throw Invalid(description: "a tree splits on a feature the model does not have")
        }
        for n in 0..<nodes {
            for child in [t.left[n], t.right[n]]
            where child < 0 ? -child - 1 >= t.leaf.count : child <= n || child >= nodes {
                throw Invalid(description: "node \(n) of a tree points at \(child), which is no leaf or later node")
            }
        }
        return t
    }

    private static func numbers(_ s: String, _ key: String) throws -> [Double] {
        // strtod over the C string: `Double(Substring)` made this the most expensive part of a first parse.
        var out: [Double] = []
        let complete = s.withCString { start -> Bool in
            var cursor = start
            while true {
                while cursor.pointee == 0x20 { cursor += 1 }
                if cursor.pointee == 0 { return true }
                var end: UnsafeMutablePointer<CChar>?
                let v = strtod(cursor, &end)
                guard let end, end != UnsafeMutablePointer(mutating: cursor) else { return false }
                out.append(v)
                cursor = UnsafePointer(end)
            }
        }
        guard complete else { throw Invalid(description: "'\(key)' holds something other than numbers") }
        return out
    }

    public func score(_ x: [Double]) -> Double {
        var sum = 0.0
        for t in trees {
            if t.feature.isEmpty { sum += t.leaf.first ?? 0; continue }
            var n = 0
            while true {
                let next = x[t.feature[n]] <= t.threshold[n] ? t.left[n] : t.right[n]
                if next < 0 { sum += t.leaf[-next - 1]; break }
                n = next
            }
        }
        return sum
    }
}

/// The learned scores of every receipt field the parser chooses among candidates.
public struct ReceiptFieldModel: Codable, Sendable {
    /// What the model was trained on, and the command that made it.
    public var trainedOn: String
    public var fields: [String: TreeEnsemble]

    public func ensemble(_ field: ReceiptField) -> TreeEnsemble {
        guard let e = fields[field.rawValue] else {
            fatalError("scanextract: the receipt field model has no scores for '\(field.rawValue)'")
        }
        return e
    }

    /// The environment variable that names another model file (cross-validation runs one model a fold).
    public static let fileVariable = "SCANEXTRACT_RECEIPT_MODEL"

    public static func load(_ url: URL) throws -> ReceiptFieldModel {
        let data = try ResourceFiles.data(url, what: "receipt field model")
        let model: ReceiptFieldModel
        do { model = try decode(data) } catch {
            throw LexiconError(description: "the receipt field model \(url.path) is not valid: \(error)")
        }
        for field in ReceiptField.allCases {
            guard let e = model.fields[field.rawValue] else {
                throw LexiconError(
                    description: "the receipt field model \(url.path) has no scores for '\(field.rawValue)'")
            }
            guard e.features == field.featureNames else {
                throw LexiconError(
                    description:
                        "the receipt field model \(url.path) was trained on other '\(field.rawValue)' features "
                        + "than this build computes: train it again (Tools/train-receipt-fields)")
            }
        }
        return model
    }

    /// The file as written, its trees packed (`TreeEnsemble.tree(packed:)`).
    struct Packed: Decodable {
        struct Field: Decodable {
            var features: [String]
            var trees: [TreeEnsemble.PackedTree]
        }
        var trainedOn: String
        var fields: [String: Field]
    }

    static func decode(_ data: Data) throws -> ReceiptFieldModel {
        let packed = try JSONDecoder().decode(Packed.self, from: data)
        var out: [String: TreeEnsemble] = [:]
        for (name, field) in packed.fields {
            out[name] = TreeEnsemble(
                features: field.features,
                trees: try field.trees.map { try TreeEnsemble.tree(packed: $0, featureCount: field.features.count) })
        }
        return ReceiptFieldModel(trainedOn: packed.trainedOn, fields: out)
    }

    /// No scores: candidates keep their reading order (what the training tool parses with).
    public static let untrained = ReceiptFieldModel(trainedOn: "nothing", fields: [:])

    /// The shipped model (or `$SCANEXTRACT_RECEIPT_MODEL`'s), read once, or why it could not be read.
    public static let loaded = ResourceFiles.load("ReceiptFields.json", overriddenBy: fileVariable, load)

    /// The shipped model, once `loaded` was checked: a broken file stops the program here.
    public static let shared = ResourceFiles.required(loaded)
}
