import ScanModel

/// Builds lines and words from a PDF text layer: characters in reading order,
/// each with a box, and `\n` between lines. Pure logic, no poppler.
enum TextLayerBuilder {
    /// - Parameter scale: multiplies point coordinates into page pixels.
    static func observations(from glyphs: [PDFGlyph], scale: Double) -> [TextObservation] {
        var lines: [TextObservation] = []
        var words: [RecognizedWord] = []
        var word = ""
        var wordBox: BoundingBox?

        func endWord() {
            if !word.isEmpty, let b = wordBox {
                words.append(RecognizedWord(text: word, confidence: 1, boundingBox: b.scaled(by: scale).rounded()))
            }
            word = ""
            wordBox = nil
        }
        func endLine() {
            endWord()
            if let box = BoundingBox.enclosing(words.map(\.boundingBox)) {
                let text = words.map(\.text).joined(separator: " ")
                lines.append(TextObservation(text: text, confidence: 1, boundingBox: box, words: words))
            }
            words = []
        }

        for g in glyphs {
            if g.scalar == "\n" || g.scalar == "\r" {
                endLine()
            } else if g.scalar.properties.isWhitespace {
                endWord()
            } else {
                let b = BoundingBox(x: g.x0, y: g.y0, width: g.x1 - g.x0, height: g.y1 - g.y0)
                // A large horizontal jump inside a "word" is a column gap poppler did not mark.
                if let wb = wordBox, g.x0 - wb.maxX > max(wb.height, b.height) * 0.8 {
                    endWord()
                }
                word.unicodeScalars.append(g.scalar)
                wordBox = wordBox.map { $0.union(b) } ?? b
            }
        }
        endLine()
        return lines
    }

    /// Whether a page's glyphs hold any visible text.
    static func hasText(_ glyphs: [PDFGlyph]) -> Bool {
        glyphs.contains { !$0.scalar.properties.isWhitespace }
    }
}
