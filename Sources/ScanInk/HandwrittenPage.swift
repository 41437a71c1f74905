import ScanModel

/// Pages of generated handwriting, for tests and benchmarks of reading handwriting on
/// images: each text is one line written with `InkSynthesizer` and drawn with the pen
/// of `InkRenderer`, black on white, at a known size.
public enum HandwrittenPage {
    /// A page with one line per text. `capHeight` is the height of a capital in pixels;
    /// lines are `lineSpacing` capital heights apart.
    public static func make(_ lines: [String], synthesizer: InkSynthesizer, style: InkSynthesizer.Style,
                            rng: inout SeededGenerator, capHeight: Double = 28, lineSpacing: Double = 2.6,
                            margin: Double = 40) -> RasterImage {
        var style = style
        // A Hershey capital is about 21 font units high.
        style.scale = capHeight / 21
        var placed: [[InkRenderer.Vec]] = []
        var width = 2 * margin
        for (n, text) in lines.enumerated() {
            let ink = synthesizer.ink(text, style: style, rng: &rng)
            guard let b = ink.bounds else { continue }
            let top = margin + Double(n) * capHeight * lineSpacing
            // Each line starts at the margin, its highest stroke on the line's top.
            let dx = margin - b.minX, dy = top - b.minY
            for s in ink.strokes {
                placed.append(s.points.map { InkRenderer.Vec($0.x + dx, $0.y + dy) })
            }
            width = max(width, b.maxX - b.minX + 2 * margin)
        }
        let height = 2 * margin + Double(max(1, lines.count)) * capHeight * lineSpacing
        return InkRenderer.rasterize(placed, width: Int(width.rounded(.up)), height: Int(height.rounded(.up)),
                                     radius: max(1, capHeight * 0.05))
    }
}
