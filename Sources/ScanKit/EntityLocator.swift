import ScanDetectors
import ScanModel

/// Runs the data detectors over a document's pages and places every hit on its
/// page: the union of the boxes of the words it covers.
public struct EntityLocator: Sendable {
    public let detector: DataDetector

    public init(detector: DataDetector) {
        self.detector = detector
    }

    /// A page's text, one observation per line, with the scalar range of each word
    /// (or of the whole line, when the engine gave no words).
    struct PageText {
        var text = ""
        var pieces: [(range: Range<Int>, box: BoundingBox)] = []
        private var length = 0

        init(_ page: Page) {
            for (n, o) in page.observations.enumerated() {
                if n > 0 { append("\n") }
                if o.words.isEmpty {
                    let start = length
                    append(o.text)
                    pieces.append((start..<length, o.boundingBox))
                } else {
                    for (k, w) in o.words.enumerated() {
                        if k > 0 { append(" ") }
                        let start = length
                        append(w.text)
                        pieces.append((start..<length, w.boundingBox))
                    }
                }
            }
        }

        private mutating func append(_ s: String) {
            text += s
            length += s.unicodeScalars.count
        }

        /// The box of the words overlapping `range`. Pieces are in text order, so the search
        /// starts at the first piece that ends after the range starts.
        func box(for range: Range<Int>) -> BoundingBox? {
            var low = 0, high = pieces.count
            while low < high {
                let mid = (low + high) / 2
                if pieces[mid].range.upperBound <= range.lowerBound { low = mid + 1 } else { high = mid }
            }
            var box: BoundingBox?
            var k = low
            while k < pieces.count && pieces[k].range.lowerBound < range.upperBound {
                if pieces[k].range.overlaps(range) { box = box.map { $0.union(pieces[k].box) } ?? pieces[k].box }
                k += 1
            }
            return box
        }
    }

    /// All entities of the document, page by page, each with its page and box.
    public func entities(in document: Document) -> [Entity] {
        let texts = document.pages.map(PageText.init)
        let context = detector.context(for: texts.map(\.text))
        var out: [Entity] = []
        for (page, t) in zip(document.pages, texts) where !t.text.isEmpty {
            for var e in detector.detect(in: t.text, context: context) {
                e.page = page.index
                e.boundingBox = t.box(for: e.range.start..<max(e.range.end, e.range.start + 1))?.rounded()
                out.append(e)
            }
        }
        return out
    }
}
