import Foundation

/// Pairs of characters that OCR takes for one another in print (I and L, H and M, 0 and O, 5 and S). Learned from
/// our own OCR of annotated receipts by `Tools/learn-confusions` and shipped as `Resources/OCRConfusions.json`,
/// so that the mends which forgive one misread character (label words, legal forms, a card's look-alike e-mail
/// domain) share one table that data chose, not a list set by hand (only the few letter pairs OCR reads as one letter
/// are, `twoForOne`).
public struct OCRConfusions: Sendable {
    /// Each pair both ways, as the two upper-case ASCII bytes packed into one number.
    private let packed: Set<UInt16>

    /// - Parameter pairs: strings of two ASCII letters or digits (`"IL"`, `"0O"`); case is ignored.
    public init<S: Sequence>(pairs: S) where S.Element == String {
        var packed = Set<UInt16>()
        for pair in pairs {
            let b = Array(pair.uppercased().utf8)
            guard b.count == 2, b[0] != b[1] else { continue }
            packed.insert(UInt16(b[0]) << 8 | UInt16(b[1]))
            packed.insert(UInt16(b[1]) << 8 | UInt16(b[0]))
        }
        self.packed = packed
    }

    /// Whether OCR confuses the two characters (upper-case ASCII bytes).
    public func confusable(_ a: UInt8, _ b: UInt8) -> Bool { packed.contains(UInt16(a) << 8 | UInt16(b)) }

    /// Whether OCR confuses the two characters, in either case.
    public func confusable(_ a: Character, _ b: Character) -> Bool {
        let x = Array(a.uppercased().utf8), y = Array(b.uppercased().utf8)
        return x.count == 1 && y.count == 1 && confusable(x[0], y[0])
    }

    /// Whether two spellings of one length differ in exactly one place, by two characters OCR confuses (`SON` and
    /// `SDN`). Callers fold both to upper case first. The one test behind every mend that forgives a misread character.
    public func oneSlipApart<A: Collection, B: Collection>(_ a: A, _ b: B) -> Bool
    where A.Element == Character, B.Element == Character {
        Self.oneDifference(a, b).map { confusable($0, $1) } ?? false
    }

    /// Two letters that OCR reads as one: the learned table pairs single characters only, so these are set by hand.
    static let twoForOne = [("rn", "m"), ("cl", "d"), ("vv", "w")]

    /// Whether two spellings differ only by shapes OCR takes for one another: one character for another that the table
    /// pairs (`n` and `m`, `1` and `l`), or two letters read as one (`rn` as `m`, `cl` as `d`, `vv` as `w`).
    public func lookAlike(_ a: String, _ b: String) -> Bool {
        let x = Array(a.uppercased()), y = Array(b.uppercased())
        if x.count == y.count { return oneSlipApart(x, y) }
        func folded(_ s: String) -> String {
            var t = s.lowercased()
            for (pair, one) in Self.twoForOne { t = t.replacingOccurrences(of: pair, with: one) }
            return t
        }
        return folded(a) == folded(b)
    }

    /// `oneSlipApart` for spellings in upper-case ASCII bytes.
    public func oneSlipApart<A: Collection, B: Collection>(_ a: A, _ b: B) -> Bool
    where A.Element == UInt8, B.Element == UInt8 {
        Self.oneDifference(a, b).map { confusable($0, $1) } ?? false
    }

    /// The one pair of elements in which two sequences of one length differ; nil when they differ in none or more.
    private static func oneDifference<A: Collection, B: Collection>(_ a: A, _ b: B) -> (A.Element, A.Element)?
    where A.Element == B.Element, A.Element: Equatable {
        guard a.count == b.count else { return nil }
        var slip: (A.Element, A.Element)?
        for (x, y) in zip(a, b) where x != y {
            guard slip == nil else { return nil }
            slip = (x, y)
        }
        return slip
    }

    private struct File: Decodable {
        struct Pair: Decodable { var pair: String }
        var pairs: [Pair]
    }

    /// Reads the learner's file; every pair must be two distinct ASCII letters or digits.
    public init(json: Data) throws {
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: json)
        } catch {
            throw LexiconError(description: "the OCR confusion table is not valid: \(error)")
        }
        let bad = file.pairs.map(\.pair).filter { p in
            p.utf8.count != 2 || Set(p).count != 2 || !p.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
        }
        guard bad.isEmpty else {
            throw LexiconError(
                description: "the OCR confusion table has pairs that are not two ASCII letters or digits: "
                    + bad.joined(separator: ", "))
        }
        self.init(pairs: file.pairs.map(\.pair))
    }

    /// The shipped table, read once, or why it could not be read.
    public static let loaded = ResourceFiles.load("OCRConfusions.json") {
        try OCRConfusions(json: ResourceFiles.data($0, what: "OCR confusion table"))
    }

    /// The shipped table, once `loaded` was checked: a broken file stops the program here.
    public static let shipped = ResourceFiles.required(loaded)
}
