/// Weights learned from data; written by `swift run -c release TrainInk fit 600 --mess 1.8 --write`
/// (Tools/train-ink): fitted on 600 generated Hershey inks (mess level 1.8, at which the
/// recognizer's greedy reading is right for 300 of them, as hard as real handwriting), 420 listed words and
/// 180 out-of-list strings (numbers, codes, made-up names). Do not edit by hand.
public enum InkWeights {
    /// Log-probability bonus of a word-list reading over a free CTC reading.
    public static let lexiconBonus: Double = 0.0
    /// Its growth per character of the word.
    public static let lexiconBonusPerCharacter: Double = 1.5
    /// How far below the best a listed word may score and still be offered among the candidates.
    public static let listedWordReach: Double = 5.0
}
