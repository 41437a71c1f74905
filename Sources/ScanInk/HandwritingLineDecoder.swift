import ScanRecognition

/// Reads the words of a line of handwriting on an image with a word list, as ink is
/// read: each word of the recognizer's best path is decoded again over its own time
/// steps by `InkDecoder`, which weighs the word list's readings against a free beam
/// with the learned bonus. Names, numbers and codes keep their free reading.
///
/// Plugged into PP-OCR as its `LineDecoder` by `scanextract --handwriting`. Pure: no engine.
public struct HandwritingLineDecoder: LineDecoder {
    public let lexicon: WordList
    public var decoder: InkDecoder

    public init(lexicon: WordList, lexiconBonus: Double = InkWeights.lexiconBonus,
                perCharacter: Double = InkWeights.lexiconBonusPerCharacter, beamWidth: Int = 16) {
        self.lexicon = lexicon
        decoder = InkDecoder(lexiconBonus: lexiconBonus, perCharacter: perCharacter, beamWidth: beamWidth)
    }

    public func decode(_ probabilities: LineProbabilities, bestPath: [DecodedWord]) -> [DecodedWord] {
        let spans = DecodedWord.spans(of: bestPath, steps: probabilities.steps)
        return zip(bestPath, spans).map { word, span in
            // A word list knows letters: a number, a price or a mark keeps its free reading.
            guard word.text.contains(where: \.isLetter) else { return word }
            let slice = Self.slice(probabilities, steps: span)
            guard let best = decoder.decode(slice, lexicon: lexicon, count: 1).first, !best.text.isEmpty else {
                return word
            }
            var out = word
            out.text = best.text
            return out
        }
    }

    /// The rows of `span`, with the space's probability given to the blank: inside one word's
    /// span a space can only be the gap around it.
    static func slice(_ p: LineProbabilities, steps span: Range<Int>) -> LineProbabilities {
        let c = p.classCount
        var values = Array(p.values[(span.lowerBound * c)..<(span.upperBound * c)])
        for t in 0..<span.count {
            values[t * c + p.blankClass] += values[t * c + p.spaceClass]
            values[t * c + p.spaceClass] = 0
        }
        return p.withRows(steps: span.count, values: values)
    }
}
