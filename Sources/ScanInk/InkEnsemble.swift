/// The test-time ensemble of renderings (`InkRecognizer.Options.extraRenderings` and
/// `ensembleMargin`), chosen on generated ink: see `Tools/train-ink/ensemble.py`.
public enum InkEnsemble {
    /// Renderings read besides the default one when the choice is open.
    public static let extraRenderings: [InkRenderer.Settings] = []
    /// The lead of the best candidate over the second under which the choice is open.
    public static let margin: Double = 0
}
