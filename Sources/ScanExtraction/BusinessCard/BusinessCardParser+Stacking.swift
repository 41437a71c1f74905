import Foundation
import ScanDetectors
import ScanLayout
import ScanModel

/// How lines sit in a column: stacked as a wordmark's lines, or wrapped right under one another.
extension BusinessCardParser {
    /// Whether line `lower` is stacked right under line `upper` as a name's lines are in a wordmark or wrapped in a
    /// column: aligned on an edge or centred, at most about a line of the smaller print between them, the smaller
    /// print at least 0.4 of the larger (`NORTHBEAM` over a small `Analytics`, `MAISON` small over `Ferrand`).
    static func stacked(_ lines: [AnalyzedLine], _ upper: Int, _ lower: Int) -> Bool {
        let u = lines[upper].line, o = lines[lower].line
        let small = max(1, min(u.printHeight, o.printHeight)), large = max(u.printHeight, o.printHeight)
        return small >= 0.4 * large && o.level > u.level && setRightUnder(o, u, lineHeight: small)
    }

    /// The nearest line among `candidates` stacked under line `i` (see ``stacked(_:_:_:)``).
    static func stackedUnder(_ lines: [AnalyzedLine], _ i: Int, among candidates: [Int]) -> Int? {
        candidates.filter { stacked(lines, i, $0) }.min { lines[$0].line.place.minY < lines[$1].line.place.minY }
    }

    /// The nearest line among `candidates` that line `i` is stacked under.
    static func stackedOver(_ lines: [AnalyzedLine], _ i: Int, among candidates: [Int]) -> Int? {
        candidates.filter { stacked(lines, $0, i) }.max { lines[$0].line.place.minY < lines[$1].line.place.minY }
    }

    /// Whether `lower` is set right under `upper` as a wrapped line is, for print `lineHeight` high: less than a line
    /// between them, and starting, centred or ending where it does. (On a page photographed askew the boxes of lines
    /// set close overlap: their rows tell them apart.)
    static func setRightUnder(_ lower: LayoutLine, _ upper: LayoutLine, lineHeight h: Double) -> Bool {
        let gap = lower.place.minY - upper.place.maxY
        return (gap > -0.3 * h || lower.level - upper.level > 0.45 * h) && gap < 0.9 * h
            && (abs(lower.place.minX - upper.place.minX) < 0.6 * h || abs(lower.place.midX - upper.place.midX) < 0.6 * h
                || abs(lower.place.maxX - upper.place.maxX) < 0.6 * h)
    }

    /// The line right under line `i` in its column, among `candidates`: set as tight as wrapped lines are (less than a
    /// line's height between them), in print of the same size (within `sizeTolerance` of its height), starting,
    /// centred or ending where it does.
    static func wrappedUnder(_ lines: [AnalyzedLine], _ i: Int, among candidates: [Int], sizeTolerance: Double = 0.2)
        -> Int?
    {
        let l = lines[i].line, h = max(1, l.printHeight)
        return candidates.filter { j in
            abs(lines[j].line.printHeight - h) < sizeTolerance * h && setRightUnder(lines[j].line, l, lineHeight: h)
        }.min { lines[$0].line.place.minY < lines[$1].line.place.minY }
    }
}
