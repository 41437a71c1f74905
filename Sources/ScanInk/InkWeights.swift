/// Weights learned from data; written by `swift run TrainInk` (Tools/train-ink), which
/// says how they were fitted. Do not edit by hand.
public enum InkWeights {
    /// Log-probability bonus of a word-list reading over a free CTC reading.
    public static let lexiconBonus: Double = 4.0
}
