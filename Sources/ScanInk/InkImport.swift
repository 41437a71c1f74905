import Foundation
import ScanModel

/// Ink from the files other tools write: UNIPEN (`.COORD`, `.PEN_DOWN`, `.SEGMENT`, the
/// format of the UNIPEN and pendigits sets) and W3C InkML (`<ink>`, `<trace>`, `<traceGroup>`).
/// Pure parsing: no engine.
///
/// A file with labelled segments (UNIPEN `.SEGMENT`, InkML trace groups with a `truth`
/// annotation) gives one ink per segment, with its label; a file without gives one ink of all
/// its strokes. Coordinates become screen coordinates (y down): UNIPEN's digitizer y grows
/// upwards, so it is turned over; InkML's Y is taken as growing downwards unless its channel says
/// `orientation="-ve"`.
public enum InkImport {
    public enum Format: String, Sendable { case json, unipen, inkML = "inkml" }

    /// One ink of a file and the label the file gives it, if any.
    public struct Item: Sendable, Hashable {
        public var ink: Ink
        public var label: String?
        /// Why this segment cannot be read (it names a stroke the file lacks, or none), while the file's other
        /// segments can: the segment fails alone. Its `ink` is then empty.
        public var problem: ScanError?
        public init(ink: Ink, label: String?, problem: ScanError? = nil) {
            self.ink = ink
            self.label = label
            self.problem = problem
        }
    }

    /// The largest file read (bytes): a pen file is small, and a hostile one must not exhaust memory.
    public static let maxBytes = 64 << 20

    /// What the bytes hold, by content (not by name): nil when none of the three.
    public static func format(of data: Data) -> Format? {
        let head = String(decoding: data.prefix(4096), as: UTF8.self)
        let start = head.drop { $0.isWhitespace || $0 == "\u{FEFF}" }
        if start.hasPrefix("{") { return .json }
        if start.hasPrefix("<"), head.range(of: "<ink", options: .caseInsensitive) != nil
            || head.range(of: ":ink", options: .caseInsensitive) != nil { return .inkML }
        if start.hasPrefix("."), [".PEN_DOWN", ".COORD", ".VERSION"].contains(where: head.contains) { return .unipen }
        if head.contains("\n.PEN_DOWN") { return .unipen }
        return nil
    }

    /// The inks of a UNIPEN or InkML file (by content). Throws `ScanError(.corrupt)` naming what
    /// is wrong, or `.unsupportedType` when the bytes are neither.
    /// `format`: what `format(of:)` already said of these bytes, when the caller asked.
    public static func items(_ data: Data, format known: Format? = nil) throws -> [Item] {
        guard data.count <= maxBytes else {
            throw ScanError(.tooLarge, "the ink file is larger than \(maxBytes >> 20) MiB")
        }
        let text = String(decoding: data, as: UTF8.self)
        switch known ?? format(of: data) {
        case .unipen: return try unipen(text)
        case .inkML: return try inkML(text)
        case .json: return [Item(ink: try InkJSON.decode(data), label: nil)]
        case nil: throw ScanError(.unsupportedType, "not an Ink JSON document, a UNIPEN file or an InkML file")
        }
    }

    // MARK: - UNIPEN

    /// A UNIPEN file: `.COORD` names the point fields (X Y by default), every `.PEN_DOWN` and
    /// `.PEN_UP` starts a component (numbered from 0, both kinds counted), `.SEGMENT LEVEL
    /// DELINEATION [QUALITY] ["LABEL"]` names components ("3-5", "0,2", "4:1-6:3"). Segments of
    /// level WORD are preferred; otherwise those of the level with the most segments.
    public static func unipen(_ text: String) throws -> [Item] {
        var fields = ["X", "Y"]
        var components: [(down: Bool, points: [(x: Double, y: Double, t: Double?)])] = []
        var segments: [Segment] = []
        var collecting = false
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty { continue }
            if line.hasPrefix(".") {
                let parts = line.split(maxSplits: 1, whereSeparator: \.isWhitespace)
                let keyword = parts[0].uppercased(), args = parts.count > 1 ? String(parts[1]) : ""
                collecting = false
                switch keyword {
                case ".COORD":
                    fields = args.split(whereSeparator: \.isWhitespace).map { $0.uppercased() }
                    guard fields.contains("X"), fields.contains("Y") else {
                        throw ScanError(.corrupt, "line \(index + 1): .COORD names no X and Y field")
                    }
                case ".PEN_DOWN", ".PEN_UP":
                    components.append((keyword == ".PEN_DOWN", []))
                    collecting = true
                case ".SEGMENT":
                    segments.append(try segment(args, line: index + 1))
                default: break
                }
                continue
            }
            guard collecting else { continue }
            let values = line.split(whereSeparator: \.isWhitespace).map { Double($0) }
            guard values.count >= fields.count, !values.contains(where: { $0 == nil }) else {
                throw ScanError(.corrupt, "line \(index + 1): a point needs \(fields.count) numbers "
                    + "(\(fields.joined(separator: " "))), not '\(line.prefix(60))'")
            }
            func field(_ name: String) -> Double? { fields.firstIndex(of: name).map { values[$0]! } }
            components[components.count - 1].points.append((field("X")!, field("Y")!, field("T")))
        }
        guard components.contains(where: { $0.down && !$0.points.isEmpty }) else {
            throw ScanError(.corrupt, "no .PEN_DOWN stroke with points")
        }
        // The digitizer's y grows upwards: turned over into screen coordinates.
        let top = components.flatMap { $0.points.map(\.y) }.max() ?? 0
        func strokes(_ indices: [Int]) -> [Ink.Stroke] {
            indices.compactMap { i in
                guard components[i].down, !components[i].points.isEmpty else { return nil }
                return Ink.Stroke(points: components[i].points.map { Ink.Point(x: $0.x, y: top - $0.y, t: $0.t) })
            }
        }
        guard !segments.isEmpty else {
            return [Item(ink: Ink(strokes: strokes(Array(components.indices))), label: nil)]
        }
        let counts = Dictionary(grouping: segments, by: \.level).mapValues(\.count)
        let level = counts["WORD"] != nil
            ? "WORD" : counts.max { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key }!.key
        return segments.filter { $0.level == level }.map { s in
            // Checked against the file before any range is walked: a hostile range costs nothing. A segment that
            // cannot be read fails alone; the file's other segments are read.
            if let bad = s.ranges.first(where: { $0.upperBound >= components.count }) {
                return Item(ink: Ink(strokes: []), label: s.label, problem: ScanError(
                    .corrupt, "line \(s.line): .SEGMENT names component \(bad.upperBound), "
                        + "but the file has \(components.count)"))
            }
            let found = strokes(s.ranges.flatMap { Array($0) })
            guard !found.isEmpty else {
                return Item(ink: Ink(strokes: []), label: s.label, problem: ScanError(
                    .corrupt, "line \(s.line): .SEGMENT names no pen-down stroke"))
            }
            return Item(ink: Ink(strokes: found), label: s.label)
        }
    }

    /// One `.SEGMENT`: its level, the components it spans, its label, and where it was.
    struct Segment {
        var level: String
        var ranges: [ClosedRange<Int>]
        var label: String?
        var line: Int
    }

    /// `LEVEL DELINEATION [QUALITY] ["LABEL"]`; the label may hold `\"`.
    static func segment(_ args: String, line: Int) throws -> Segment {
        var label: String?
        var rest = Substring(args)
        if let open = args.firstIndex(of: "\"") {
            var text = "", escaped = false
            for c in args[args.index(after: open)...] {
                if escaped {
                    text.append(c); escaped = false
                } else if c == "\\" {
                    escaped = true
                } else if c == "\"" {
                    break
                } else {
                    text.append(c)
                }
            }
            label = text
            rest = args[..<open]
        }
        let tokens = rest.split(whereSeparator: \.isWhitespace)
        guard tokens.count >= 2 else {
            throw ScanError(.corrupt, "line \(line): .SEGMENT needs a level and the components it spans")
        }
        let ranges = try tokens[1].split(separator: ",").map { item -> ClosedRange<Int> in
            // "4:1-6:3": components 4 to 6 (the point numbers after ':' are not used).
            let ends = item.split(separator: "-", omittingEmptySubsequences: false)
                .map { Int($0.split(separator: ":").first ?? "") }
            guard ends.count <= 2, let first = ends.first ?? nil, let last = ends.last ?? nil, first >= 0, last >= first
            else {
                throw ScanError(.corrupt, "line \(line): '\(tokens[1].prefix(60))' is not a list of components")
            }
            return first...last
        }
        return Segment(level: tokens[0].uppercased(), ranges: ranges, label: label, line: line)
    }

    // MARK: - InkML

    /// A W3C InkML document: the channels of the first `traceFormat` (X Y by default), the points of
    /// every `trace` ("x y, x y, ..."; values marked `!` explicit, `'` first and `"` second
    /// differences), and trace groups with an `annotation type="truth"` (their `trace`s or
    /// `traceView traceDataRef`s) as labelled inks.
    public static func inkML(_ text: String) throws -> [Item] {
        let root = try MiniXML.parse(text)
        guard let ink = root.first(named: "ink") else { throw ScanError(.corrupt, "no <ink> element") }
        var channels = ["X", "Y"]
        var flipY = false
        if let format = ink.first(named: "traceFormat") {
            // The regular channels only: intermittent ones (in <intermittentChannels>) may be left out.
            let named = format.children.filter { $0.name == "channel" }
            if !named.isEmpty { channels = named.map { ($0.attributes["name"] ?? "").uppercased() } }
            flipY = named.contains {
                ($0.attributes["name"] ?? "").uppercased() == "Y" && $0.attributes["orientation"] == "-ve"
            }
        }
        guard let xi = channels.firstIndex(of: "X"), let yi = channels.firstIndex(of: "Y") else {
            throw ScanError(.corrupt, "the traceFormat has no X and Y channel")
        }
        let ti = channels.firstIndex(of: "T")
        var byID: [String: Ink.Stroke] = [:], byElement: [ObjectIdentifier: Ink.Stroke] = [:]
        var ordered: [Ink.Stroke] = []
        for (n, trace) in ink.all(named: "trace").enumerated() where trace.attributes["type"] != "penUp" {
            let points = try traceValues(trace.text, channels: channels.count, trace: n).map { v in
                Ink.Point(x: v[xi], y: flipY ? -v[yi] : v[yi], t: ti.map { v[$0] })
            }
            guard !points.isEmpty else { continue }
            let stroke = Ink.Stroke(points: points)
            if let id = trace.attributes["xml:id"] ?? trace.attributes["id"] { byID[id] = stroke }
            byElement[ObjectIdentifier(trace)] = stroke
            ordered.append(stroke)
        }
        guard !ordered.isEmpty else { throw ScanError(.corrupt, "no <trace> with points") }
        var items: [Item] = []
        for group in ink.all(named: "traceGroup") {
            let truth = group.children.first { $0.name == "annotation" && $0.attributes["type"] == "truth" }
            guard let truth else { continue }
            let label = truth.text.trimmingCharacters(in: .whitespacesAndNewlines)
            var strokes: [Ink.Stroke] = []
            var problem: ScanError?
            for child in group.children {
                if child.name == "trace", let s = byElement[ObjectIdentifier(child)] { strokes.append(s) }
                if child.name == "traceView", let ref = child.attributes["traceDataRef"] {
                    let id = ref.hasPrefix("#") ? String(ref.dropFirst()) : ref
                    guard let s = byID[id] else {
                        problem = ScanError(.corrupt, "traceView refers to trace '\(id)', which is not in the file")
                        break
                    }
                    strokes.append(s)
                }
            }
            // A labelled group that cannot be read, or holds no stroke, fails alone; the others are read.
            if problem == nil && strokes.isEmpty { problem = ScanError(.empty, "the trace group holds no trace") }
            items.append(problem.map { Item(ink: Ink(strokes: []), label: label, problem: $0) }
                ?? Item(ink: Ink(strokes: strokes), label: label))
        }
        return items.isEmpty ? [Item(ink: Ink(strokes: ordered), label: nil)] : items
    }

    /// The points of a trace's text, `channels` values each, differences resolved.
    static func traceValues(_ text: String, channels: Int, trace: Int) throws -> [[Double]] {
        enum Mode { case explicit, first, second }
        var modes = [Mode](repeating: .explicit, count: channels)
        var last = [Double](repeating: 0, count: channels), velocity = [Double](repeating: 0, count: channels)
        var out: [[Double]] = []
        for (n, pointText) in text.split(separator: ",").enumerated() {
            var values: [Double] = []
            var chars = Substring(pointText)
            while let c = chars.first {
                if c.isWhitespace { chars.removeFirst(); continue }
                let k = values.count
                if c == "!" || c == "'" || c == "\"" {
                    if k < channels { modes[k] = c == "!" ? .explicit : c == "'" ? .first : .second }
                    chars.removeFirst(); continue
                }
                if c == "T" || c == "F" { values.append(c == "T" ? 1 : 0); chars.removeFirst(); continue }
                // "?" (unknown) and "*" (unchanged): the channel's last value, no change.
                if c == "?" || c == "*" {
                    values.append(.nan); chars.removeFirst(); continue
                }
                // A number: a sign only at its start (so "10-5" is two numbers), or after an exponent.
                var token = "", previous: Character = " "
                while let d = chars.first, d.isNumber || d == "." || d == "e" || d == "E"
                        || ((d == "-" || d == "+") && (token.isEmpty || previous == "e" || previous == "E")) {
                    token.append(d); previous = d; chars.removeFirst()
                }
                guard let v = Double(token), v.isFinite else {
                    throw ScanError(
                        .corrupt, "trace \(trace), point \(n): '\(pointText.prefix(40))' is not a list of numbers")
                }
                values.append(v)
            }
            guard values.count >= channels else {
                throw ScanError(.corrupt, "trace \(trace), point \(n): \(values.count) values for \(channels) channels")
            }
            for k in 0..<channels {
                if values[k].isNaN { velocity[k] = 0; continue }
                switch n == 0 ? .explicit : modes[k] {
                case .explicit: velocity[k] = n == 0 ? 0 : values[k] - last[k]; last[k] = values[k]
                case .first: velocity[k] = values[k]; last[k] += values[k]
                case .second: velocity[k] += values[k]; last[k] += velocity[k]
                }
            }
            out.append(Array(last))
        }
        return out
    }
}

/// Just enough XML for InkML: elements with attributes, their children and text. Comments,
/// processing instructions, DOCTYPE and CDATA are handled; namespaces are dropped from names
/// (`inkml:trace` is `trace`), except `xml:id`. Malformed nesting throws.
enum MiniXML {
    final class Element {
        let name: String
        var attributes: [String: String]
        var children: [Element] = []
        var text = ""
        init(name: String, attributes: [String: String]) { self.name = name; self.attributes = attributes }

        /// The first element of this name at any depth (this one included), in document order.
        func first(named n: String) -> Element? {
            if name == n { return self }
            for c in children { if let found = c.first(named: n) { return found } }
            return nil
        }

        /// Every element of this name below this one, in document order.
        func all(named n: String) -> [Element] {
            var found: [Element] = []
            var pending = children.reversed() as [Element]
            while let e = pending.popLast() {
                if e.name == n { found.append(e) }
                pending += e.children.reversed()
            }
            return found
        }
    }

    static let maxDepth = 256
    /// A pen file has thousands of elements; a hostile one may not have millions.
    static let maxElements = 1_000_000

    static func parse(_ text: String) throws -> Element {
        let root = Element(name: "#document", attributes: [:])
        var stack = [root]
        var count = 0
        var s = Substring(text)
        while !s.isEmpty {
            guard let lt = s.firstIndex(of: "<") else { stack.last!.text += decode(s); break }
            stack.last!.text += decode(s[..<lt])
            s = s[lt...]
            if s.hasPrefix("<!--") {
                guard let end = s.firstRange(of: "-->") else {
                    throw ScanError(.corrupt, "an XML comment is not closed")
                }
                s = s[end.upperBound...]; continue
            }
            if s.hasPrefix("<![CDATA[") {
                guard let end = s.firstRange(of: "]]>") else {
                    throw ScanError(.corrupt, "a CDATA section is not closed")
                }
                stack.last!.text += s[s.index(s.startIndex, offsetBy: 9)..<end.lowerBound]
                s = s[end.upperBound...]; continue
            }
            guard let gt = s.firstIndex(of: ">") else { throw ScanError(.corrupt, "an XML tag is not closed") }
            let tag = s[s.index(after: s.startIndex)..<gt]
            s = s[s.index(after: gt)...]
            if tag.hasPrefix("?") || tag.hasPrefix("!") { continue }
            if tag.hasPrefix("/") {
                let name = localName(tag.dropFirst().trimmingCharacters(in: .whitespaces))
                guard stack.count > 1, stack.last!.name == name else {
                    throw ScanError(.corrupt, "</\(name)> closes nothing open")
                }
                stack.removeLast(); continue
            }
            let selfClosing = tag.hasSuffix("/")
            let body = selfClosing ? tag.dropLast() : tag
            let nameEnd = body.firstIndex { $0.isWhitespace } ?? body.endIndex
            let element = Element(name: localName(String(body[..<nameEnd])), attributes: attributes(body[nameEnd...]))
            stack.last!.children.append(element)
            count += 1
            guard count <= maxElements else { throw ScanError(.corrupt, "more than \(maxElements) XML elements") }
            if !selfClosing {
                stack.append(element)
                guard stack.count <= maxDepth else { throw ScanError(.corrupt, "XML nested deeper than \(maxDepth)") }
            }
        }
        guard stack.count == 1 else { throw ScanError(.corrupt, "<\(stack.last!.name)> is not closed") }
        return root
    }

    static func localName(_ name: String) -> String {
        name.hasPrefix("xml:") ? name : String(name.split(separator: ":").last ?? Substring(name))
    }

    static func attributes(_ text: Substring) -> [String: String] {
        var out: [String: String] = [:]
        var s = text
        while let eq = s.firstIndex(of: "=") {
            let name = localName(s[..<eq].trimmingCharacters(in: .whitespaces))
            var rest = s[s.index(after: eq)...].drop { $0.isWhitespace }
            guard let quote = rest.first, quote == "\"" || quote == "'" else { break }
            rest = rest.dropFirst()
            guard let close = rest.firstIndex(of: quote) else { break }
            out[name] = decode(rest[..<close])
            s = rest[rest.index(after: close)...]
        }
        return out
    }

    static func decode(_ text: Substring) -> String {
        guard text.contains("&") else { return String(text) }
        return text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}
