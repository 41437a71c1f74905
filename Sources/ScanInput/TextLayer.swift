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

        // The last visible glyph of the line, and whether the line's letters run down or up the page (a page turned a
        // quarter, `/Rotate 90`): there, a glyph that shares neither the last one's rows nor its columns starts
        // another line, as poppler may run two of its columns of text into one.
        var previous: BoundingBox?
        var runsVertically = false
        for g in glyphs {
            if g.scalar == "\n" || g.scalar == "\r" {
                endLine()
                (previous, runsVertically) = (nil, false)
            } else if g.scalar.properties.isWhitespace {
                endWord()
            } else {
                let b = BoundingBox(x: g.x0, y: g.y0, width: g.x1 - g.x0, height: g.y1 - g.y0)
                if let p = previous {
                    if runsVertically, !(b.minX < p.maxX && b.maxX > p.minX), !(b.minY < p.maxY && b.maxY > p.minY) {
                        endLine()
                        runsVertically = false
                    } else if wordBox != nil {
                        runsVertically = abs(b.midY - p.midY) > 2 * abs(b.midX - p.midX)
                    }
                }
                previous = b
                // A large horizontal jump inside a "word" is a column gap poppler did not mark; on a page turned a
                // quarter (`/Rotate 90`), whose lines run down or up, so is a large jump along the column.
                if let wb = wordBox, g.x0 - wb.maxX > max(wb.height, b.height) * 0.8 {
                    endWord()
                } else if let wb = wordBox, g.x0 < wb.maxX, g.x1 > wb.minX,
                    max(g.y0 - wb.maxY, wb.minY - g.y1) > max(wb.width, b.width) * 0.8
                {
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
