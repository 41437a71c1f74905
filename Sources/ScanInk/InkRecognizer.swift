import Foundation
import ScanModel
import ScanRecognition

/// Recognizes handwriting given as digital ink: strokes in, ranked text candidates
/// out, like ML Kit's `DigitalInkRecognizer.recognize(ink:context:)`.
///
/// The ink is rendered as a pen draws it (`InkRenderer`), PP-OCR's line recognizer
/// reads the image into CTC probabilities, and two decoders propose candidates:
/// the word list of the language (exact best-first search over a trie) and a free
/// CTC beam search (numbers, codes, names). Both give CTC log-probabilities; a
/// word-list reading gets the learned `lexiconBonus` (`InkWeights`), and the
/// candidates are ranked by that score.
///
/// Not thread-safe (it owns an ONNX session): one instance per worker.
public final class InkRecognizer {
    public struct Options: Sendable, Hashable {
        public var candidateCount: Int = 5
        public var renderer = InkRenderer.Settings()
        /// Log-probability bonus of a word-list reading over a free one (learned), and
        /// its growth per character (a free reading of a long word strays more).
        public var lexiconBonus: Double = InkWeights.lexiconBonus
        public var lexiconBonusPerCharacter: Double = InkWeights.lexiconBonusPerCharacter
        /// How far (score units) below the best a word-list reading may be and still be offered
        /// among the candidates when none of them is listed (learned; `InkDecoder.withListedWord`).
        public var listedWordReach: Double = InkWeights.listedWordReach
        /// Free beam search width.
        public var beamWidth: Int = 16
        /// Further renderings of the ink (another slant, pen or scale), read when the main one
        /// leaves the choice open: every candidate's CTC log-probability is then the mean over
        /// all renderings (a product of experts), and candidates any of them proposes compete.
        public var extraRenderings: [InkRenderer.Settings] = InkEnsemble.extraRenderings
        /// The extra renderings are read only when the best candidate leads the second by less
        /// than this (natural-log score units): most inks are clear from one reading, which
        /// keeps the mean time low. `.infinity`: always.
        public var ensembleMargin: Double = InkEnsemble.margin
        /// With a charset, a lone character's candidates are rescored by how it was drawn
        /// (stroke order, loops, crossings): see `CharacterShapeClassifier`. nil: not.
        public var characterShapes: CharacterShapeClassifier? = CharacterShapeClassifier.shipped
        public init() {}
    }

    public let options: Options
    public let reader: PPOCRLineReader
    var lexicons: [String: WordList] = [:]

    /// The characters of the recognizer's alphabet that the word lists' languages are written in (`InkModel.all`:
    /// Latin letters with their accents, digits, punctuation and symbols): every class below the East Asian blocks,
    /// and the space. Made once, from the first ink's probabilities.
    private var writtenCharacters: Set<Character>?

    func written(in alphabet: [String]) -> Set<Character> {
        if let writtenCharacters { return writtenCharacters }
        var set: Set<Character> = [" "]
        for text in alphabet where text.count == 1 {
            if let c = text.first, c.unicodeScalars.allSatisfy({ $0.value < 0x2E80 }) { set.insert(c) }
        }
        writtenCharacters = set
        return set
    }
    public let defaultLanguage: String

    public init(reader: PPOCRLineReader, language: String = "en-US", options: Options = Options()) {
        self.reader = reader
        self.defaultLanguage = language
        self.options = options
    }

    /// Locates PP-OCR's models as the rest of scanextract does.
    public convenience init(language: String = "en-US", options: Options = Options()) throws {
        try self.init(reader: PPOCRLineReader(), language: language, options: options)
    }

    /// The word list for a language, loaded once. Throws when it is not installed,
    /// naming the command that installs it.
    public func lexicon(for language: String) throws -> (WordList, InkModel) {
        let model = try InkModel.forLanguage(language)
        if let l = lexicons[model.language] { return (l, model) }
        let l = try model.loadLexicon()
        lexicons[model.language] = l
        return (l, model)
    }

    /// Use an already loaded word list for a language (tests, custom vocabularies).
    public func setLexicon(_ lexicon: WordList, for language: String) throws {
        lexicons[try InkModel.forLanguage(language).language] = lexicon
    }

    /// The image the recognizer reads for this ink.
    public func render(_ ink: Ink, charset: String? = nil) -> RasterImage {
        InkRenderer(settings: rendererSettings(for: ink, charset: charset)).render(ink)
    }

    /// The renderer's settings for this ink; `charset` is the characters the candidates may use
    /// (nil: the ink's own).
    public func rendererSettings(for ink: Ink, charset: String? = nil) -> InkRenderer.Settings {
        Self.adapted(options.renderer, for: ink, charset: charset)
    }

    /// A rendering's settings adapted to the ink: a writing area sets the smallest ink height;
    /// with only digits and symbols allowed (`charset`, else the ink's) there is no x-height band,
    /// so no zones are compressed.
    public static func adapted(_ settings: InkRenderer.Settings, for ink: Ink,
                               charset: String?) -> InkRenderer.Settings {
        var s = settings
        if let area = ink.writingArea { s.minimumInkHeight = area.height * 0.25 }
        if let allowed = charset ?? ink.charset, !allowed.isEmpty, !allowed.contains(where: \.isLowercase) {
            s.zoneCompression = nil
        }
        return s
    }

    /// The CTC probabilities of the rendered ink (for decoders and training).
    public func probabilities(_ ink: Ink, charset: String? = nil) throws -> LineProbabilities {
        try reader.probabilities(of: render(ink, charset: charset))
    }

    /// The probabilities of every rendering (`options.renderer`, then `extraRenderings`).
    public func allProbabilities(_ ink: Ink, charset: String? = nil) throws -> [LineProbabilities] {
        [try probabilities(ink, charset: charset)] + (try extraProbabilities(ink, charset: charset))
    }

    /// The probabilities of the `extraRenderings`, drawn with the main rendering's smallest ink height.
    public func extraProbabilities(_ ink: Ink, charset: String? = nil) throws -> [LineProbabilities] {
        let minimumInkHeight = rendererSettings(for: ink, charset: charset).minimumInkHeight
        return try options.extraRenderings.map { extra in
            var settings = Self.adapted(extra, for: ink, charset: charset)
            settings.minimumInkHeight = minimumInkHeight
            return try reader.probabilities(of: InkRenderer(settings: settings).render(ink))
        }
    }

    /// Whether ranked candidates leave the choice open: the second within `margin` of the first.
    public static func isOpen(_ ranked: [InkCandidate], margin: Double) -> Bool {
        guard ranked.count >= 2 else { return false }
        return ranked[0].score - ranked[1].score < margin
    }

    /// Candidates for the ink, best first. `context` overrides the ink's own
    /// `preContext`, `language` and `charset` where they are set.
    public func recognize(ink: Ink, context: InkContext = InkContext()) throws -> InkResult {
        try ink.validate()
        let language = context.language ?? ink.language ?? defaultLanguage
        let charset = context.charset ?? ink.charset
        let preContext = context.preContext ?? ink.preContext
        var words: WordList?
        let model: InkModel
        let restrict: (LineProbabilities) -> LineProbabilities
        if let charset, !charset.isEmpty {
            let lookAlikes = InkContextRules.lookAlikes(for: ink), reassign = InkContextRules.reassignments(for: ink)
            restrict = { $0.restricted(to: Set(charset), lookAlikes: lookAlikes, reassign: reassign) }
            model = try InkModel.forLanguage(language)
        } else {
            let (l, m) = try lexicon(for: language)
            words = l; model = m
            // Candidates in the language's script: without a charset, a lone stroke came out as `一` or `丁` of the
            // recognizer's Chinese classes. What those classes held goes to their look-alikes (`一` to `-` or `1`).
            let lookAlikes = InkContextRules.lookAlikes(for: ink)
            restrict = { [self] in $0.restricted(to: written(in: $0.alphabet), lookAlikes: lookAlikes) }
        }
        let count = max(1, options.candidateCount), severalWords = InkContextRules.hasWordGap(ink)
        var renderings = [restrict(try probabilities(ink, charset: charset))]
        var kept = max(2, count)
        var ranked = decoder.ranked(renderings, lexicon: words, count: kept, severalWords: severalWords)
        if !options.extraRenderings.isEmpty, Self.isOpen(ranked.map(\.candidate), margin: options.ensembleMargin) {
            renderings += try extraProbabilities(ink, charset: charset).map(restrict)
            kept = count
            ranked = decoder.ranked(renderings, lexicon: words, count: kept, severalWords: severalWords)
        }
        var candidates = InkDecoder.withListedWord(ranked, count: kept, reach: decoder.listedWordReach).map(\.candidate)
        if let charset, !charset.isEmpty, let shapes = options.characterShapes {
            candidates = shapes.rescore(candidates, ink: ink, allowed: Set(charset))
        }
        candidates = Array(candidates.prefix(count))
        candidates = InkContextRules.applySizeCues(candidates, ink: ink, charset: charset)
        candidates = InkContextRules.applyPreContext(candidates, preContext: preContext, lexicon: words)
        return InkResult(candidates: candidates, language: model.language,
                         model: .init(id: model.id, recognizer: reader.modelName,
                                      lexicon: words == nil ? nil : model.installedPath ?? model.lexiconPath))
    }

    /// The decoder with this recognizer's learned bonus and beam width.
    public var decoder: InkDecoder {
        InkDecoder(
            lexiconBonus: options.lexiconBonus, perCharacter: options.lexiconBonusPerCharacter,
            beamWidth: options.beamWidth,
            listedWordReach: options.listedWordReach)
    }

    /// Free and word-list candidates merged by score (pure: no engine).
    public func decode(_ renderings: [LineProbabilities], lexicon: WordList?, count: Int, severalWords: Bool = false)
        -> [InkCandidate]
    {
        decoder.decode(renderings, lexicon: lexicon, count: count, severalWords: severalWords).map(\.candidate)
    }
}

/// What ML Kit calls the recognition context: overrides for one call.
public struct InkContext: Sendable, Hashable {
    public var preContext: String?
    public var language: String?
    public var charset: String?
    public init(preContext: String? = nil, language: String? = nil, charset: String? = nil) {
        self.preContext = preContext; self.language = language; self.charset = charset
    }
}

/// The decoding half of `InkRecognizer`: probabilities in, scored candidates out.
public struct InkDecoder: Sendable {
    public struct Scored: Sendable, Hashable {
        public var text: String
        /// Free-path CTC log-probability, plus the bonus for a word-list reading.
        public var score: Double
        public var logProbability: Double
        public var inLexicon: Bool
        public var candidate: InkCandidate { InkCandidate(text: text, score: score) }
    }
    public var lexiconBonus: Double
    public var perCharacter: Double
    public var beamWidth: Int
    /// See `withListedWord`; 0 offers none in practice.
    public var listedWordReach: Double
    public init(lexiconBonus: Double, perCharacter: Double = 0, beamWidth: Int = 16, listedWordReach: Double = 0) {
        self.lexiconBonus = lexiconBonus; self.perCharacter = perCharacter; self.beamWidth = beamWidth
        self.listedWordReach = listedWordReach
    }

    /// The bonus of a listed word of `length` characters.
    public static func bonus(length: Int, base: Double, perCharacter: Double) -> Double {
        base + perCharacter * Double(length)
    }

    /// Every candidate found (free beam and word list), with its log-probability and
    /// whether it is a listed word; not yet ranked. Training fits the bonus on these.
    ///
    /// With several renderings of the same ink, candidates are gathered from each, and
    /// every candidate is scored exactly (CTC forward) on every rendering: its
    /// log-probability is the mean (a product of experts).
    public func proposals(_ renderings: [LineProbabilities], lexicon: WordList?, count: Int) -> [Scored] {
        guard let first = renderings.first else { return [] }
        let classIndex = WordList.ClassMap.for(first.alphabet).index
        var texts: [String: Bool] = [:]   // text -> listed
        for probs in renderings {
            for (text, _) in probs.beam(count: max(count, 8), width: max(beamWidth, count)) {
                let t = text.trimmingCharacters(in: .whitespaces)
                if !t.isEmpty { texts[t] = lexicon?.contains(t) ?? false }
            }
            if let lexicon {
                for match in lexicon.search(probs, count: max(count, 5)) {
                    // The case as written: the listed forms, lower, Capitalized and UPPER.
                    let lower = match.folded
                    var variants = lexicon.listedForms(of: lower)
                    variants += [lower, lower.prefix(1).uppercased() + lower.dropFirst(), lower.uppercased()]
                    for v in variants { texts[v] = true }
                }
            }
        }
        // Single characters: the classes most probable at some step. A lone mark that the
        // beam reads as nothing ("-" on its own is mostly blank) still gets candidates.
        var peaks: [(Int, Float)] = []
        for k in 1..<first.classCount where k != first.spaceClass {
            var m: Float = 0
            for t in 0..<first.steps { m = max(m, first.values[t * first.classCount + k]) }
            if m > 0.01 { peaks.append((k, m)) }
        }
        for (k, _) in peaks.sorted(by: { $0.1 > $1.1 }).prefix(count) where texts[first.alphabet[k]] == nil {
            texts[first.alphabet[k]] = lexicon?.contains(first.alphabet[k]) ?? false
        }
        var out: [Scored] = []
        for (text, listed) in texts {
            let classes = text.map { classIndex[String($0)] }
            guard !classes.contains(where: { $0 == nil }) else { continue }
            let seq = classes.map { $0! }
            let lp = renderings.reduce(0.0) { $0 + ctcLogProbability($1, classes: seq) } / Double(renderings.count)
            guard lp > -.infinity else { continue }
            out.append(Scored(text: text, score: lp, logProbability: lp, inLexicon: listed))
        }
        return out
    }

    public func proposals(_ probs: LineProbabilities, lexicon: WordList?, count: Int) -> [Scored] {
        proposals([probs], lexicon: lexicon, count: count)
    }

    /// The best `count` candidates (`ranked`, then `withListedWord`).
    public func decode(_ renderings: [LineProbabilities], lexicon: WordList?, count: Int, severalWords: Bool = false)
        -> [Scored]
    {
        Self.withListedWord(
            ranked(renderings, lexicon: lexicon, count: count, severalWords: severalWords), count: count,
            reach: listedWordReach)
    }

    /// Every candidate found, ranked by score, one per text ignoring case; `count` sets how many
    /// the searches propose. With `severalWords` (the ink has a gap as wide as a space between
    /// words, `InkContextRules.hasWordGap`), a reading of the whole line word by word with the
    /// word list competes too (`lineProposal`).
    public func ranked(_ renderings: [LineProbabilities], lexicon: WordList?, count: Int, severalWords: Bool = false)
        -> [Scored]
    {
        var found = proposals(renderings, lexicon: lexicon, count: count)
        if severalWords, let line = lineProposal(renderings, lexicon: lexicon),
            !found.contains(where: { $0.text == line.text })
        {
            found.append(line)
        }
        return rank(found)
    }

    /// Proposals scored (a listed word gets its bonus) and ranked, one per text ignoring case.
    /// Training ranks its stored proposals with this too, under other bonuses.
    public func rank(_ found: [Scored]) -> [Scored] {
        let ranked = found.map { s -> Scored in
            var s = s
            let letters = s.text.filter { $0 != " " }.count
            s.score =
                s.logProbability
                + (s.inLexicon ? Self.bonus(length: letters, base: lexiconBonus, perCharacter: perCharacter) : 0)
            return s
        }.sorted { $0.score != $1.score ? $0.score > $1.score : $0.text < $1.text }
        // Variants of one word that differ only in case: keep the best.
        var out: [Scored] = []
        var seen = Set<String>()
        for s in ranked where seen.insert(s.text.lowercased()).inserted { out.append(s) }
        return out
    }

    /// The first `count` of `ranked` (best first), with a word-list reading among them when none
    /// is but one scores within `reach` of the best: that word then takes the last place (when
    /// `count` is at least 2). A misread letter repeated across the free readings ("2lggbua",
    /// "Alggbua", ...) can push every listed word out of the list; the nearest real word is still
    /// offered. `reach` is learned with the word-list bonus (`InkWeights.listedWordReach`).
    public static func withListedWord(_ ranked: [Scored], count: Int, reach: Double) -> [Scored] {
        var top = Array(ranked.prefix(count))
        guard count >= 2, top.count == count, !top.contains(where: \.inLexicon),
              let word = ranked.dropFirst(count).first(where: \.inLexicon),
              top[0].score - word.score <= reach else { return top }
        top[count - 1] = word
        return top
    }

    public func decode(_ probs: LineProbabilities, lexicon: WordList?, count: Int) -> [Scored] {
        decode([probs], lexicon: lexicon, count: count)
    }

    /// For ink of several words (the best path reads spaces): each word decoded over its own
    /// steps with the word list (`HandwritingLineDecoder`), scored exactly on the whole line.
    /// It counts as listed only when every word with letters is, and then gets one bonus for
    /// its letters, as a single listed word of that length would: splitting a word in two
    /// earns nothing.
    func lineProposal(_ renderings: [LineProbabilities], lexicon: WordList?) -> Scored? {
        guard let lexicon, let first = renderings.first else { return nil }
        let bestPath = first.bestPathWords()
        guard bestPath.count >= 2 else { return nil }
        let words = HandwritingLineDecoder(lexicon: lexicon, lexiconBonus: lexiconBonus, perCharacter: perCharacter,
                                           beamWidth: beamWidth).decode(first, bestPath: bestPath)
        let text = words.map(\.text).joined(separator: " ")
        let classIndex = WordList.ClassMap.for(first.alphabet).index
        let classes = text.compactMap { $0 == " " ? first.spaceClass : classIndex[String($0)] }
        guard classes.count == text.count else { return nil }
        let lp = renderings.reduce(0.0) { $0 + ctcLogProbability($1, classes: classes) } / Double(renderings.count)
        guard lp > -.infinity else { return nil }
        let listed = words.allSatisfy { !$0.text.contains(where: \.isLetter) || lexicon.contains($0.text) }
        return Scored(text: text, score: lp, logProbability: lp, inLexicon: listed)
    }
}
