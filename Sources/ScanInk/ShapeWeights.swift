/// Written by `swift run -c release TrainInk shapes 40 --write` (Tools/train-ink): the reject distance
/// that classifies best 40 generated inks per kind (seed 1); do not edit by hand.
public enum ShapeWeights {
    /// $P cloud distance above which an ink is "not a shape".
    public static let rejectDistance: Double = 0.9500000000000001
}
