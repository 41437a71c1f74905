import Foundation

/// Decodes the recognizer's per-time-step class probabilities ([T, C], softmaxed,
/// class 0 = CTC blank) into text.
///
/// - Greedy: the most likely class at every step, repeats collapsed, blanks dropped.
/// - Beam: CTC prefix beam search, giving N-best readings with scores, and a bonus
///   for every completed word found in a lexicon (custom words).
///
/// Each emitted character keeps the time steps it was read at, so that callers can
/// place words along the line.
struct CTCDecoder: Sendable {
    /// Characters for classes 1..C-1 (class 0 is the blank, so `characters[0]` is unused).
    let characters: [String]
    /// The index of the space class, which separates words.
    let spaceClass: Int

    /// The dictionary as shipped in the model's `character` metadata: one entry a line.
    /// The blank is prepended and a space appended, as the model's classes expect.
    /// Classes of full-width and ideographic punctuation and letters (`（` `：` `，` `。` `Ａ`) and
    /// the class of their ASCII form, where the dictionary has both. The multilingual model
    /// reads `Ph:(562)` on a Latin receipt as `Ph:（562）` about as often as not.
    let asciiForm: [Int: Int]
    /// Per class: a character of a script written with full-width punctuation (Han, kana, Hangul).
    let wideScript: [Bool]
    /// Per class: its text when that is one character (`restricted(to:)` asks this of every class).
    let singleCharacter: [Character?]
    /// The classes of each text, in class order (a dictionary may list a character twice).
    let classesOfText: [String: [Int]]
    /// Per class: a kana (hiragana, katakana, half-width katakana), which marks a line as Japanese.
    let kana: [Bool]
    /// Per class: a Han character that Japanese does not write (`JapaneseKanji`: simplified forms such as `单`, `酱`).
    let notJapanese: [Bool]
    /// Per class: a Han character (the alternatives `japaneseAlternatives` may take).
    let han: [Bool]

    init(dictionary: [String]) {
        characters = [""] + dictionary + [" "]
        spaceClass = characters.count - 1
        var classes: [String: [Int]] = [:]
        for (k, c) in characters.enumerated() { classes[c, default: []].append(k) }
        classesOfText = classes
        singleCharacter = characters.map { $0.count == 1 ? $0.first : nil }
        var forms: [Int: Int] = [:]
        var wide = [Bool](repeating: false, count: characters.count)
        var kana = [Bool](repeating: false, count: characters.count)
        var notJapanese = [Bool](repeating: false, count: characters.count)
        var han = [Bool](repeating: false, count: characters.count)
        for (k, c) in characters.enumerated() {
            guard c.unicodeScalars.count == 1, let u = c.unicodeScalars.first else { continue }
            let v = u.value
            kana[k] = (0x3041...0x30FA).contains(v) || (0xFF66...0xFF9D).contains(v)
            han[k] = (0x3400...0x9FFF).contains(v) || (0xF900...0xFAFF).contains(v)
            notJapanese[k] = han[k] && !JapaneseKanji.all.contains(u)
            if let ascii = Self.asciiEquivalent(v), let a = classes[String(UnicodeScalar(ascii)!)]?.first {
                forms[k] = a
            }
            wide[k] =
                (0x2E80...0x2FFF).contains(v) || (0x3040...0x9FFF).contains(v) || (0xAC00...0xD7AF).contains(v)
                || (0xF900...0xFAFF).contains(v)
        }
        asciiForm = forms
        wideScript = wide
        self.kana = kana
        self.notJapanese = notJapanese
        self.han = han
    }

    /// For each token that is a Han character Japanese does not write, the most likely Han one it does over the steps
    /// the character was read at (`酱` for `醤`, `单` for `単`: the multilingual recognizer often gives the simplified
    /// Chinese form of a Japanese character), by token index; a character with no Japanese alternative of any weight
    /// has none.
    func japaneseAlternatives(_ tokens: [Token], probabilities probs: UnsafeBufferPointer<Float>) -> [Int: Token] {
        guard tokens.contains(where: { notJapanese[$0.classIndex] }) else { return [:] }
        let c = classCount
        var out: [Int: Token] = [:]
        for (i, t) in tokens.enumerated() where notJapanese[t.classIndex] {
            var best = -1
            var bestP: Float = 1e-3
            for step in t.firstStep...t.lastStep {
                let row = step * c
                for k in 1..<c where han[k] && !notJapanese[k] && probs[row + k] > bestP {
                    bestP = probs[row + k]; best = k
                }
            }
            if best > 0 { var a = t; a.classIndex = best; a.probability = bestP; out[i] = a }
        }
        return out
    }

    /// Whether `tokens` hold kana, two or more, which marks their text as Japanese (one may be a look-alike misread in
    /// Chinese text: `ロ` for `口`).
    func holdsKana(_ tokens: [Token]) -> Bool { tokens.lazy.filter { kana[$0.classIndex] }.prefix(2).count == 2 }

    /// `reading` with the Japanese forms of `japaneseAlternatives` put in.
    func applying(_ alternatives: [Int: Token], to reading: Reading) -> Reading {
        guard !alternatives.isEmpty else { return reading }
        var out = reading
        for (i, t) in alternatives where i < out.tokens.count { out.tokens[i] = t }
        out.text = text(of: out.tokens)
        return out
    }

    /// `tokens` of a Japanese line (one holding kana) with the Japanese forms of `japaneseAlternatives`.
    func japaneseForms(_ tokens: [Token], probabilities probs: UnsafeBufferPointer<Float>) -> [Token] {
        guard holdsKana(tokens) else { return tokens }
        var out = tokens
        for (i, t) in japaneseAlternatives(tokens, probabilities: probs) { out[i] = t }
        return out
    }

    /// The ASCII character that a full-width form or an ideographic comma or full stop stands
    /// for, or nil.
    static func asciiEquivalent(_ v: UInt32) -> UInt32? {
        switch v {
        case 0xFF01...0xFF5E: return v - 0xFEE0
        case 0x3000: return 0x20
        case 0x3001: return 0x2C
        case 0x3002: return 0x2E
        default: return nil
        }
    }

    /// `tokens` with every full-width form read in Latin context put in its ASCII form: one
    /// whose nearest characters before and after (spaces and other such forms skipped) are
    /// not Han, kana or Hangul. Between Chinese or Japanese characters it stays as read.
    func latinForms(_ tokens: [Token]) -> [Token] {
        guard !asciiForm.isEmpty, tokens.contains(where: { asciiForm[$0.classIndex] != nil }) else { return tokens }
        func neighbourIsWide(from i: Int, step: Int) -> Bool {
            var j = i + step
            while j >= 0, j < tokens.count {
                let c = tokens[j].classIndex
                if c != spaceClass, asciiForm[c] == nil { return wideScript[c] }
                j += step
            }
            return false
        }
        var out = tokens
        for i in tokens.indices {
            guard let ascii = asciiForm[tokens[i].classIndex] else { continue }
            if !neighbourIsWide(from: i, step: -1), !neighbourIsWide(from: i, step: 1) { out[i].classIndex = ascii }
        }
        return out
    }

    var classCount: Int { characters.count }

    struct Token: Sendable, Hashable {
        var classIndex: Int
        /// First and last time step of the run that produced it.
        var firstStep: Int
        var lastStep: Int
        var probability: Float
    }

    struct Reading: Sendable {
        var text: String
        var tokens: [Token]
        /// Mean of the emitted tokens' probabilities (greedy), or the path's share of
        /// the beam's probability mass (beam), 0 to 1.
        var confidence: Double
        /// Natural log of the reading's probability (beam; for greedy the path's log probability).
        var logProbability: Double
    }

    func text(of tokens: [Token]) -> String {
        tokens.map { characters[$0.classIndex] }.joined()
    }

    /// Greedy (best path) decoding of one line: `probs` holds `steps` rows of `classCount`.
    func greedy(_ probs: UnsafeBufferPointer<Float>, steps: Int) -> Reading {
        let c = classCount
        var tokens: [Token] = []
        var previous = -1
        var logP = 0.0
        for t in 0..<steps {
            let row = t * c
            var best = 0
            var bestP = probs[row]
            for k in 1..<c where probs[row + k] > bestP {
                bestP = probs[row + k]; best = k
            }
            logP += log(Double(max(bestP, 1e-30)))
            if best != 0 {
                if best == previous, var last = tokens.last, last.lastStep == t - 1 {
                    last.lastStep = t
                    tokens[tokens.count - 1] = last
                } else {
                    tokens.append(Token(classIndex: best, firstStep: t, lastStep: t, probability: bestP))
                }
            }
            previous = best
        }
        let conf = tokens.isEmpty ? 0 : tokens.reduce(0.0) { $0 + Double($1.probability) } / Double(tokens.count)
        tokens = latinForms(japaneseForms(tokens, probabilities: probs))
        return Reading(text: text(of: tokens), tokens: tokens, confidence: conf, logProbability: logP)
    }

    /// `reading` with the spaces its best path dropped put back. A narrow printed word gap (a
    /// comma then a word, `53200,KUALA`) often loses to the blank, yet it shows twice: the space
    /// class's probability rises between the two characters, and the second character starts
    /// later than the line's usual pitch (the median step from one character's start to the
    /// next's). A space goes in where both hold: the probability reaches `threshold` at some step
    /// from the first character's last step to the second's first, and the step between their
    /// starts is at least `pitchRatio` pitches. Never inside a number (a digit or `.`/`,`
    /// before a digit), next to `@` or `/`, where a space would split an amount, an e-mail or a
    /// URL, nor where Latin typesetting has none: after an opening bracket, before a closing
    /// one, before `.` or `,`. `threshold` 0 or less changes nothing.
    func withDroppedSpaces(
        _ reading: Reading, probabilities probs: UnsafeBufferPointer<Float>, steps: Int,
        threshold: Float, pitchRatio: Double
    ) -> Reading {
        let old = reading.tokens
        guard threshold > 0, old.count > 1 else { return reading }
        var starts: [Int] = []
        for k in 1..<old.count where old[k].classIndex != spaceClass && old[k - 1].classIndex != spaceClass {
            starts.append(old[k].firstStep - old[k - 1].firstStep)
        }
        guard starts.count >= 3 else { return reading }
        starts.sort()
        let pitch = Double(starts[starts.count / 2])
        let c = classCount
        var tokens: [Token] = []
        tokens.reserveCapacity(old.count + 4)
        for (k, t) in old.enumerated() {
            tokens.append(t)
            guard k + 1 < old.count else { break }
            let next = old[k + 1]
            guard t.classIndex != spaceClass, next.classIndex != spaceClass,
                Double(next.firstStep - t.firstStep) >= pitchRatio * pitch,
                Self.spaceMayJoin(characters[t.classIndex], characters[next.classIndex])
            else { continue }
            var best: Float = 0, bestStep = t.lastStep
            for step in t.lastStep...min(max(t.lastStep, next.firstStep), steps - 1) {
                let p = probs[step * c + spaceClass]
                if p > best { best = p; bestStep = step }
            }
            if best >= threshold {
                tokens.append(Token(classIndex: spaceClass, firstStep: bestStep, lastStep: bestStep, probability: best))
            }
        }
        guard tokens.count > old.count else { return reading }
        var out = reading
        out.tokens = tokens
        out.text = text(of: tokens)
        return out
    }

    /// Whether a recovered space may stand between characters `a` and `b` (see `withDroppedSpaces`).
    static func spaceMayJoin(_ a: String, _ b: String) -> Bool {
        guard let l = a.unicodeScalars.last, let r = b.unicodeScalars.first else { return false }
        func digit(_ u: Unicode.Scalar) -> Bool { ("0"..."9").contains(u) }
        func mark(_ u: Unicode.Scalar) -> Bool { u == "." || u == "," }
        if digit(r), digit(l) || mark(l) { return false }
        if l == "@" || r == "@" || l == "/" || r == "/" { return false }
        if l == "(" || l == "[" || r == ")" || r == "]" || mark(r) { return false }
        return true
    }

    /// Lexicon for `beam`: upper-cased words and the log-probability bonus a reading
    /// gets for each of them it contains as a whole word.
    struct Lexicon: Sendable {
        var words: Set<String>
        var bonus: Double
        init(_ words: [String], bonus: Double = 3.0) {
            self.words = Set(words.map { $0.uppercased() }.filter { !$0.isEmpty })
            self.bonus = bonus
        }
        func score(word: String) -> Double { words.contains(word.uppercased()) ? bonus : 0 }
    }

    private struct Beam {
        var tokens: [Token]
        var logBlank: Double  // ends in blank
        var logNonBlank: Double  // ends in its last token
        var bonus: Double  // lexicon bonus of completed words
        var total: Double { logAdd(logBlank, logNonBlank) }
        var score: Double { total + bonus }
    }

    @inline(__always)
    private static func logAdd(_ a: Double, _ b: Double) -> Double {
        if a == -.infinity { return b }
        if b == -.infinity { return a }
        return max(a, b) + log1p(exp(-abs(a - b)))
    }
    private func logAdd(_ a: Double, _ b: Double) -> Double { Self.logAdd(a, b) }

    /// The word that ends `tokens` (after the last space).
    private func lastWord(_ tokens: [Token]) -> String {
        var chars: [String] = []
        for t in tokens.reversed() {
            if t.classIndex == spaceClass { break }
            chars.append(characters[t.classIndex])
        }
        return chars.reversed().joined()
    }

    /// CTC prefix beam search. Per step, only classes with probability >= `pruning`
    /// (at most `maxClassesPerStep` of them) are expanded.
    /// Returns up to `count` readings, best first.
    func beam(
        _ probs: UnsafeBufferPointer<Float>, steps: Int, width: Int = 8, count: Int = 1,
        lexicon: Lexicon? = nil, pruning: Float = 1e-3, maxClassesPerStep: Int = 8
    ) -> [Reading] {
        let c = classCount
        let beamWidth = max(width, count)
        var beams: [[Int]: Beam] = [[]: Beam(tokens: [], logBlank: 0, logNonBlank: -.infinity, bonus: 0)]
        var candidates: [(Int, Float)] = []
        for t in 0..<steps {
            let row = t * c
            candidates.removeAll(keepingCapacity: true)
            for k in 1..<c where probs[row + k] >= pruning { candidates.append((k, probs[row + k])) }
            if candidates.count > maxClassesPerStep {
                candidates.sort { $0.1 > $1.1 }
                candidates.removeLast(candidates.count - maxClassesPerStep)
            }
            let logBlankP = log(Double(max(probs[row], 1e-30)))
            var next: [[Int]: Beam] = [:]
            for (key, beam) in beams {
                // Stay with a blank.
                var stay =
                    next[key]
                    ?? Beam(tokens: beam.tokens, logBlank: -.infinity, logNonBlank: -.infinity, bonus: beam.bonus)
                stay.logBlank = logAdd(stay.logBlank, beam.total + logBlankP)
                // Repeat the last token without a blank between: same prefix.
                if let last = key.last {
                    let p = probs[row + last]
                    if p >= pruning {
                        stay.logNonBlank = logAdd(stay.logNonBlank, beam.logNonBlank + log(Double(p)))
                        if var tok = stay.tokens.last, tok.lastStep < t {
                            tok.lastStep = t; stay.tokens[stay.tokens.count - 1] = tok
                        }
                    }
                }
                next[key] = stay
                // Extend with a new token.
                for (k, p) in candidates {
                    let lp = log(Double(p))
                    // After the same token, only a path that ended in blank may extend.
                    let from = (key.last == k) ? beam.logBlank : beam.total
                    guard from > -.infinity else { continue }
                    let newKey = key + [k]
                    var ext =
                        next[newKey]
                        ?? {
                            var bonus = beam.bonus
                            if k == spaceClass, let lexicon { bonus += lexicon.score(word: lastWord(beam.tokens)) }
                            return Beam(
                                tokens: beam.tokens + [Token(classIndex: k, firstStep: t, lastStep: t, probability: p)],
                                logBlank: -.infinity, logNonBlank: -.infinity, bonus: bonus)
                        }()
                    ext.logNonBlank = logAdd(ext.logNonBlank, from + lp)
                    next[newKey] = ext
                }
            }
            // Keep the best.
            if next.count > beamWidth {
                let kept = next.sorted { $0.value.score > $1.value.score }.prefix(beamWidth)
                beams = Dictionary(uniqueKeysWithValues: kept.map { ($0.key, $0.value) })
            } else {
                beams = next
            }
        }
        // Final scores include the bonus for the last word.
        var finals: [(Beam, Double)] = beams.values.map { b in
            let endBonus = lexicon?.score(word: lastWord(b.tokens)) ?? 0
            return (b, b.score + endBonus)
        }
        finals.sort { $0.1 > $1.1 }
        let norm = finals.reduce(-Double.infinity) { logAdd($0, $1.1) }
        return finals.prefix(count).map { b, s in
            let tokens = latinForms(b.tokens)
            return Reading(text: text(of: tokens), tokens: tokens, confidence: exp(s - norm), logProbability: b.total)
        }
    }
}
