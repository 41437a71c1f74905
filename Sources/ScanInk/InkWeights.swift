/// Weights learned from data; written by `swift run -c release TrainInk fit 600 --write`
/// (Tools/train-ink): fitted on 600 generated Hershey inks, 420 listed words and
/// 180 out-of-list strings (numbers, codes, made-up names). Do not edit by hand.
public enum InkWeights {
    /// Log-probability bonus of a word-list reading over a free CTC reading.
    public static let lexiconBonus: Double = 6.0
}
