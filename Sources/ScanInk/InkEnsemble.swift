/// The test-time ensemble of renderings (`InkRecognizer.Options.extraRenderings` and
/// `ensembleMargin`), chosen by `Tools/train-ink/ensemble.py` on 150 generated Hershey inks
/// (`TrainInk dump-gen 150 77 gen2.jsonl --mess 1.8`, nine variants offered, at most two extra
/// renderings, budget 0.5 per ink): top-1 0.747 -> 0.773 there. On 300 other generated inks
/// (seed 2024) top-1 stays 0.787 -> 0.783 and CER falls 0.095 -> 0.085.
public enum InkEnsemble {
    /// Renderings read besides the default one when the choice is open: the slant taken out
    /// with 0.15 more lean, and the ink smaller in its line (padding 0.2 of the height).
    public static let extraRenderings: [InkRenderer.Settings] = {
        var leaning = InkRenderer.Settings()
        leaning.slantOffset = 0.15
        var smaller = InkRenderer.Settings()
        smaller.verticalPadding = 0.2
        return [leaning, smaller]
    }()
    /// The lead of the best candidate over the second (natural-log score) under which the
    /// choice is open.
    public static let margin: Double = 1
}
