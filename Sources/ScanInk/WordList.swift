import Foundation
import ScanRecognition

/// A word list as a trie over case-folded characters, searched against a line's CTC
/// probabilities for the words the recognizer most probably wrote.
///
/// The search is exact best-first: a trie node's CTC prefix probability (the
/// probability that the reading starts with it) bounds that of every word below it,
/// so nodes are expanded in decreasing bound order and the search stops once no
/// open node can beat the N-th best complete word.
public final class WordList: @unchecked Sendable {
    /// Word forms as listed, by id.
    public let words: [String]
    /// Case-folded form -> ids of its listed forms.
    let forms: [String: [Int32]]
    // Trie nodes (node 0 is the root).
    var nodeChar: [Character] = [" "]
    var firstChild: [Int32] = [0]
    var childCount: [Int32] = [0]
    /// Folded word id at this node, or -1.
    var terminal: [Int32] = [-1]
    var foldedWords: [String] = []

    /// Case folding used throughout: lowercase.
    @inline(__always) static func fold(_ s: String) -> String {
        // Most listed words are lower-case ASCII already: `lowercased()` on each was most of the cost
        // of reading a list of 200,000 words.
        s.utf8.allSatisfy { $0 < 0x80 && !(0x41...0x5A).contains($0) } ? s : s.lowercased()
    }

    public init(words list: [String]) {
        var forms: [String: [Int32]] = [:]
        var clean: [String] = []
        forms.reserveCapacity(list.count)
        clean.reserveCapacity(list.count)
        for w in list {
            // Trimmed only when an edge may be white space (Foundation's trimming per word was slow).
            func edge(_ b: UInt8?) -> Bool { b.map { $0 == 0x20 || $0 == 0x09 || $0 >= 0x80 } ?? false }
            let t = edge(w.utf8.first) || edge(w.utf8.last) ? w.trimmingCharacters(in: .whitespaces) : w
            guard !t.isEmpty, !t.utf8.contains(0x20) else { continue }
            forms[Self.fold(t), default: []].append(Int32(clean.count))
            clean.append(t)
        }
        words = clean
        self.forms = forms
        foldedWords = forms.keys.sorted()
        build()
    }

    /// Reads a word list file, one word a line (Debian's /usr/share/dict/*). Possessive
    /// forms ("'s") are left out: they double the list and are rarely handwritten alone.
    public convenience init(contentsOf path: String) throws {
        self.init(words: try Self.words(inFile: path))
    }

    /// The words of a word list file: one a line (Debian's /usr/share/dict/*), or a Hunspell dictionary
    /// (`.dic`: a count first, then `word/FLAGS`, read without its affixes). Each line UTF-8, else
    /// Latin-1. Possessive forms ("'s") are left out.
    /// `markedOnly`: only the words with a byte outside ASCII, tested before any is decoded (most words of a list are
    /// left out so, cheaply).
    public static func words(inFile path: String, markedOnly: Bool = false) throws -> [String] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let hunspell = path.hasSuffix(".dic")
        let encoding = hunspell ? hunspellEncoding(ofDictionary: path) : nil
        func space(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0D }
        // Line by line on the bytes: splitting the decoded text into Characters took half a second
        // for a list of 170,000 words.
        var out: [String] = []
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            let bytes = raw.bindMemory(to: UInt8.self)
            for (n, line) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
                if markedOnly, !line.contains(where: { $0 >= 0x80 }) { continue }
                var word = line[...]
                if hunspell, let slash = word.firstIndex(of: UInt8(ascii: "/")) { word = word[..<slash] }
                while let b = word.first, space(b) { word = word.dropFirst() }
                while let b = word.last, space(b) { word = word.dropLast() }
                if word.isEmpty || word.count >= 2 && word.suffix(2).elementsEqual("'s".utf8) { continue }
                // A Hunspell dictionary starts with its word count.
                if hunspell, n == 0, word.allSatisfy({ (0x30...0x39).contains($0) }) { continue }
                if let encoding, let decoded = String(bytes: word, encoding: encoding) {
                    out.append(decoded)
                    continue
                }
                out.append(
                    String(validating: word, as: UTF8.self) ?? String(word.map { Character(Unicode.Scalar($0)) }))
            }
        }
        return out
    }

    /// The encoding a Hunspell dictionary's affix file names (`SET ISO8859-2` in Debian's Polish one), for the
    /// encodings other than UTF-8 and Latin-1 that decide its bytes; nil without such a line or file.
    static func hunspellEncoding(ofDictionary path: String) -> String.Encoding? {
        let aff = String(path.dropLast(4)) + ".aff"
        guard let handle = FileHandle(forReadingAtPath: aff) else { return nil }
        defer { try? handle.close() }
        let head = String(decoding: handle.readData(ofLength: 4096), as: UTF8.self)
        guard let line = head.split(separator: "\n").first(where: { $0.hasPrefix("SET ") }) else { return nil }
        switch line.dropFirst(4).trimmingCharacters(in: .whitespaces).uppercased() {
        case "ISO8859-2": return .isoLatin2
        case "CP1250": return .windowsCP1250
        default: return nil
        }
    }

    public var count: Int { words.count }

    /// True when the word, case-folded, is in the list.
    public func contains(_ word: String) -> Bool { forms[Self.fold(word)] != nil }

    /// The listed forms of a word, compared case-folded.
    public func listedForms(of word: String) -> [String] { (forms[Self.fold(word)] ?? []).map { words[Int($0)] } }

    private func build() {
        // Breadth-first over the sorted folded words: children of a node are contiguous.
        let chars = foldedWords.map { Array($0) }
        // Each queue entry: node id, range of words sharing its prefix, depth.
        var queue: [(node: Int, lo: Int, hi: Int, depth: Int)] = [(0, 0, chars.count, 0)]
        var head = 0
        while head < queue.count {
            let (node, lo, hi, depth) = queue[head]; head += 1
            var i = lo
            // A word that ends here comes first in sorted order.
            if i < hi, chars[i].count == depth { terminal[node] = Int32(i); i += 1 }
            firstChild[node] = Int32(nodeChar.count)
            var groups: [(Character, Int, Int)] = []
            while i < hi {
                let c = chars[i][depth]
                var j = i + 1
                while j < hi, chars[j][depth] == c { j += 1 }
                groups.append((c, i, j))
                i = j
            }
            childCount[node] = Int32(groups.count)
            for (c, a, b) in groups {
                let id = nodeChar.count
                nodeChar.append(c); firstChild.append(0); childCount.append(0); terminal.append(-1)
                queue.append((id, a, b, depth + 1))
            }
        }
    }

    // MARK: - Search

    /// A word found in the probabilities: its folded form and the natural log of its
    /// CTC probability with either case of each letter allowed.
    public struct Match: Sendable, Hashable {
        public var folded: String
        public var logProbability: Double
    }

    /// Class lookup for an alphabet: for each folded character, the classes that read as it.
    /// Built once per alphabet (PP-OCR's has some 18,000 classes) and shared.
    final class ClassMap: @unchecked Sendable {
        private var cache: [Character: [Int]] = [:]
        let index: [String: Int]
        let alphabet: [String]
        private let lock = NSLock()
        init(alphabet: [String]) {
            var index: [String: Int] = [:]
            for (k, s) in alphabet.enumerated() where k > 0 && index[s] == nil { index[s] = k }
            self.index = index
            self.alphabet = alphabet
        }
        func classes(_ c: Character) -> [Int] {
            lock.lock(); defer { lock.unlock() }
            if let v = cache[c] { return v }
            let s = String(c)
            var out: [Int] = []
            for v in [s, s.uppercased(), s.lowercased()] { if let k = index[v], !out.contains(k) { out.append(k) } }
            cache[c] = out
            return out
        }

        private static let sharedLock = NSLock()
        nonisolated(unsafe) private static var shared: ClassMap?
        /// The map for `alphabet`, reused while the alphabet stays the same.
        static func `for`(_ alphabet: [String]) -> ClassMap {
            sharedLock.lock(); defer { sharedLock.unlock() }
            if let m = shared, m.alphabet.count == alphabet.count, m.alphabet == alphabet { return m }
            let m = ClassMap(alphabet: alphabet)
            shared = m
            return m
        }
    }

    private struct Open: Comparable {
        var bound: Double
        var node: Int32
        var slot: Int32   // index into the forward-variable store
        static func < (a: Open, b: Open) -> Bool { a.bound < b.bound }
    }

    /// The `count` most probable words, best first. `floor` is a log-probability under
    /// which nothing is returned (a bound that also stops hopeless searches early);
    /// `maxExpansions` caps the work on a very ambiguous line.
    ///
    /// Words more than `window` below the best one found are not wanted (a reading
    /// e^-window times less probable), so the search drops them too.
    public func search(_ probs: LineProbabilities, count: Int, floor: Double = -40, window: Double = 12,
                       maxExpansions: Int = 20000) -> [Match] {
        let steps = probs.steps, c = probs.classCount
        guard steps > 0, count > 0 else { return [] }
        let classMap = ClassMap.for(probs.alphabet)
        let y = probs.values
        // Forward variables of open nodes: blank-ending and symbol-ending, per step.
        var storeB: [[Double]] = []
        var storeN: [[Double]] = []
        var lastClasses: [[Int]] = []
        // Root: the empty prefix.
        var rootB = [Double](repeating: 0, count: steps)
        var acc = 1.0
        for t in 0..<steps { acc *= Double(y[t * c]); rootB[t] = acc }
        storeB.append(rootB); storeN.append([Double](repeating: 0, count: steps)); lastClasses.append([])
        var heap = Heap<Open>()
        heap.push(Open(bound: 0, node: 0, slot: 0))
        var best: [Match] = []
        let floorP = exp(floor)
        var kth: Double {
            let k = best.count >= count ? best[count - 1].logProbability : floor
            return max(k, (best.first?.logProbability ?? -.infinity) - window)
        }
        var expansions = 0
        var emit = [Double](repeating: 0, count: steps)
        while let open = heap.pop() {
            if open.bound < kth { break }
            expansions += 1
            if expansions > maxExpansions { break }
            let node = Int(open.node), slot = Int(open.slot)
            let pb = storeB[slot], pn = storeN[slot], last = lastClasses[slot]
            // Steps before the parent has any mass contribute nothing: start one before.
            var startStep = 0
            if node != 0 {
                while startStep < steps - 1 && pb[startStep] + pn[startStep] < 1e-30 { startStep += 1 }
                startStep = max(0, startStep)
            }
            let first = Int(firstChild[node]), n = Int(childCount[node])
            for child in first..<(first + n) {
                let classes = classMap.classes(nodeChar[child])
                if classes.isEmpty { continue }   // the recognizer cannot write it
                for t in startStep..<steps {
                    var e = 0.0
                    for k in classes { e += Double(y[t * c + k]) }
                    emit[t] = e
                }
                let same = !last.isEmpty && last == classes
                var nb = [Double](repeating: 0, count: steps)
                var nn = [Double](repeating: 0, count: steps)
                var prefix = 0.0
                let isRoot = node == 0
                for t in startStep..<steps {
                    // Probability mass from which the new symbol may start at t.
                    let from: Double
                    if t == 0 { from = isRoot ? 1 : 0 } else { from = same ? pb[t - 1] : pb[t - 1] + pn[t - 1] }
                    let start = emit[t] * from
                    prefix += start
                    nn[t] = start + (t > startStep ? emit[t] * nn[t - 1] : 0)
                    nb[t] = t > startStep ? Double(y[t * c]) * (nb[t - 1] + nn[t - 1]) : 0
                }
                guard prefix > floorP else { continue }
                let bound = log(prefix)
                if bound < kth { continue }
                let term = terminal[child]
                if term >= 0 {
                    let p = nb[steps - 1] + nn[steps - 1]
                    if p > 0 {
                        let lp = log(p)
                        if lp > kth {
                            best.append(Match(folded: foldedWords[Int(term)], logProbability: lp))
                            best.sort { $0.logProbability > $1.logProbability }
                            if best.count > count { best.removeLast() }
                        }
                    }
                }
                if childCount[child] > 0 {
                    storeB.append(nb); storeN.append(nn); lastClasses.append(classes)
                    heap.push(Open(bound: bound, node: Int32(child), slot: Int32(storeB.count - 1)))
                }
            }
        }
        return best
    }
}

/// Natural log of the CTC probability of `classes` (a class sequence, blanks
/// excluded) given the probabilities: the forward algorithm, scaled per step.
public func ctcLogProbability(_ probs: LineProbabilities, classes: [Int]) -> Double {
    let steps = probs.steps, c = probs.classCount
    let l = classes.count
    guard steps > 0 else { return l == 0 ? 0 : -.infinity }
    let s = 2 * l + 1
    // Extended label: blank, l1, blank, l2, ..., blank.
    var label = [Int](repeating: 0, count: s)
    for i in 0..<l { label[2 * i + 1] = classes[i] }
    var alpha = [Double](repeating: 0, count: s)
    var next = alpha
    var logScale = 0.0
    let v = probs.values
    alpha[0] = Double(v[label[0]])
    if s > 1 { alpha[1] = Double(v[label[1]]) }
    for t in 0..<steps {
        if t > 0 {
            for i in 0..<s {
                var a = alpha[i]
                if i >= 1 { a += alpha[i - 1] }
                if i >= 2, label[i] != 0, label[i] != label[i - 2] { a += alpha[i - 2] }
                next[i] = a * Double(v[t * c + label[i]])
            }
            swap(&alpha, &next)
        }
        let sum = alpha.reduce(0, +)
        guard sum > 0 else { return -.infinity }
        for i in 0..<s { alpha[i] /= sum }
        logScale += log(sum)
    }
    let end = alpha[s - 1] + (s > 1 ? alpha[s - 2] : 0)
    return end > 0 ? logScale + log(end) : -.infinity
}

/// A binary max-heap.
struct Heap<Element: Comparable> {
    private var items: [Element] = []
    var isEmpty: Bool { items.isEmpty }
    mutating func push(_ e: Element) {
        items.append(e)
        var i = items.count - 1
        while i > 0 {
            let p = (i - 1) / 2
            if items[p] < items[i] { items.swapAt(p, i); i = p } else { break }
        }
    }
    mutating func pop() -> Element? {
        guard !items.isEmpty else { return nil }
        items.swapAt(0, items.count - 1)
        let top = items.removeLast()
        var i = 0
        while true {
            let l = 2 * i + 1, r = l + 1
            var m = i
            if l < items.count, items[m] < items[l] { m = l }
            if r < items.count, items[m] < items[r] { m = r }
            if m == i { break }
            items.swapAt(i, m); i = m
        }
        return top
    }
}
