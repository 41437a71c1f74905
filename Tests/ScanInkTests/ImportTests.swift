import Foundation
import Testing
@testable import ScanInk
import ScanModel

/// UNIPEN and InkML files written here from generated ink: parsing only, no engine.
@Suite struct ImportTests {
    /// Two generated words, as screen-coordinate strokes.
    static func words() throws -> [(String, Ink)] {
        var rng = SeededGenerator(seed: 7)
        let font = try HersheyFont(named: "futural")
        return ["ink", "pen"].map { ($0, InkSynthesizer(font: font).ink($0, style: InkSynthesizer.Style(), rng: &rng)) }
    }

    /// A UNIPEN file of the words: y up, a pen-up component after every stroke, WORD segments,
    /// and a CHARACTER segment that the WORD level wins over.
    static func unipen(_ words: [(String, Ink)]) -> String {
        var lines = [".VERSION 1.0", ".COORD X Y T"]
        var component = 0
        for (text, ink) in words {
            let first = component
            for stroke in ink.strokes {
                lines.append(".PEN_DOWN")
                lines += stroke.points.map { "\($0.x) \(-$0.y) \($0.t ?? 0)" }
                lines += [".PEN_UP", "0 0 0"]
                component += 2
            }
            lines.append(".SEGMENT WORD \(first)-\(component - 1) OK \"\(text)\"")
        }
        lines.append(".SEGMENT CHARACTER 0 ? \"i\"")
        return lines.joined(separator: "\n") + "\n"
    }

    @Test func readsUNIPENWordsInScreenCoordinates() throws {
        let words = try Self.words()
        let items = try InkImport.items(Data(Self.unipen(words).utf8))
        #expect(InkImport.format(of: Data(Self.unipen(words).utf8)) == .unipen)
        #expect(items.map(\.label) == ["ink", "pen"])
        for (item, (_, ink)) in zip(items, words) {
            #expect(item.ink.strokes.count == ink.strokes.count)
            // Turned over, then shifted: the same shape, y still growing downwards.
            let a = try #require(item.ink.bounds), b = try #require(ink.bounds)
            #expect(abs((a.maxY - a.minY) - (b.maxY - b.minY)) < 1e-6)
            let first = item.ink.strokes[0].points, original = ink.strokes[0].points
            #expect(abs((first[1].y - first[0].y) - (original[1].y - original[0].y)) < 1e-6)
            #expect(first[0].t == original[0].t)
        }
        // Without segments: one ink of every pen-down stroke.
        let plain = Self.unipen(words).split(separator: "\n").filter { !$0.hasPrefix(".SEGMENT") }.joined(
            separator: "\n")
        let one = try InkImport.items(Data(plain.utf8))
        #expect(one.count == 1 && one[0].ink.strokes.count == words.map(\.1.strokes.count).reduce(0, +))
    }

    @Test func readsInkMLTraceGroupsAndDifferences() throws {
        let words = try Self.words()
        var xml = #"<?xml version="1.0"?><!-- made by a test --><inkml:ink xmlns:inkml="http://www.w3.org/2003/InkML">"#
        xml += #"<inkml:traceFormat><inkml:channel name="X"/><inkml:channel name="Y"/></inkml:traceFormat>"#
        var id = 0, groups = ""
        for (text, ink) in words {
            groups += "<inkml:traceGroup><inkml:annotation type=\"truth\">\(text)</inkml:annotation>"
            for stroke in ink.strokes {
                let p = stroke.points
                // Odd traces in first differences, the rest explicit.
                let values = id % 2 == 0
                    ? p.map { "\($0.x) \($0.y)" }.joined(separator: ", ")
                    : "\(p[0].x) \(p[0].y)"
                        + p.indices.dropFirst().map { ", '\(p[$0].x - p[$0 - 1].x) '\(p[$0].y - p[$0 - 1].y)" }.joined()
                xml += "<inkml:trace xml:id=\"t\(id)\">\(values)</inkml:trace>"
                groups += "<inkml:traceView traceDataRef=\"#t\(id)\"/>"
                id += 1
            }
            groups += "</inkml:traceGroup>"
        }
        xml += groups + "</inkml:ink>"
        #expect(InkImport.format(of: Data(xml.utf8)) == .inkML)
        let items = try InkImport.items(Data(xml.utf8))
        #expect(items.map(\.label) == ["ink", "pen"])
        for (item, (_, ink)) in zip(items, words) {
            #expect(item.ink.strokes.count == ink.strokes.count)
            for (a, b) in zip(item.ink.strokes.flatMap(\.points), ink.strokes.flatMap(\.points)) {
                #expect(abs(a.x - b.x) < 1e-6 && abs(a.y - b.y) < 1e-6)
            }
        }
    }

    @Test func secondDifferencesAndCompactSigns() throws {
        // x: 10, then +2 (velocity 2), then second difference +1: 12, 15. y: "5-3" is two numbers.
        let values = try InkImport.traceValues("10 5, '2 '-1, \"1 \"0", channels: 2, trace: 0)
        #expect(values == [[10, 5], [12, 4], [15, 3]])
        #expect(try InkImport.traceValues("1-2,3-4", channels: 2, trace: 0) == [[1, -2], [3, -4]])
    }

    @Test func hostileAndUnusualButValidInput() throws {
        // A huge range is refused against the file's components before it is walked: that segment fails alone.
        let huge = ".COORD X Y\n.PEN_DOWN\n1 2\n.SEGMENT WORD 0-999999999999,0-999999999999 OK \"x\"\n"
        #expect(try InkImport.items(Data(huge.utf8)).first?.problem?.reason.contains("999999999999") == true)
        // An escaped quote in a label.
        let quoted = try InkImport.items(
            Data(".COORD X Y\n.PEN_DOWN\n1 2\n3 4\n.SEGMENT WORD 0 OK \"say \\\"hi\\\"\"\n".utf8))
        #expect(quoted.map(\.label) == ["say \"hi\""])
        // Pen-up traces are not strokes; an intermittent channel may be missing; "*" repeats a value.
        let xml = """
        <ink><traceFormat><channel name="X"/><channel name="Y"/>\
        <intermittentChannels><channel name="F"/></intermittentChannels></traceFormat>\
        <trace>1 2, 3 *, '1 '1</trace><trace type="penUp">9 9, 8 8</trace></ink>
        """
        let items = try InkImport.items(Data(xml.utf8))
        #expect(items.count == 1 && items[0].ink.strokes.count == 1)
        #expect(items[0].ink.strokes[0].points.map { [$0.x, $0.y] } == [[1, 2], [3, 2], [4, 3]])
    }

    /// A labelled segment that cannot be read (a trace it names is not in the file, or it holds none) fails alone,
    /// with its reason; the file's other segments are read.
    @Test func aBadSegmentFailsAlone() throws {
        let xml = """
            <ink><trace id="t1">10 10, 10 60</trace><trace id="t2">40 85, 50 60</trace>\
            <traceGroup><annotation type="truth">lo</annotation><traceView traceDataRef="#t1"/>\
            <traceView traceDataRef="#t2"/></traceGroup>\
            <traceGroup><annotation type="truth">bad</annotation><traceView traceDataRef="#t9"/></traceGroup>\
            <traceGroup><annotation type="truth">none</annotation></traceGroup></ink>
            """
        let items = try InkImport.items(Data(xml.utf8))
        #expect(items.map(\.label) == ["lo", "bad", "none"])
        #expect(items[0].problem == nil && items[0].ink.strokes.count == 2)
        #expect(items[1].problem?.reason.contains("'t9'") == true)
        #expect(items[2].problem?.code == .empty)
        let unipen = ".COORD X Y\n.PEN_DOWN\n1 2\n3 4\n.SEGMENT WORD 0 OK \"a\"\n.SEGMENT WORD 0-3 OK \"b\"\n"
        let segments = try InkImport.items(Data(unipen.utf8))
        #expect(segments.map(\.label) == ["a", "b"])
        #expect(segments[0].problem == nil)
        #expect(segments[1].problem?.reason.contains("component 3") == true)
    }

    @Test func badFilesAreNamedErrors() {
        func reason(_ text: String) -> String? {
            // A segment that cannot be read fails alone: its item carries the reason.
            do {
                return try InkImport.items(Data(text.utf8)).compactMap(\.problem?.reason).first
            } catch let e as ScanError {
                return e.reason
            } catch { return "\(error)" }
        }
        #expect(reason(".COORD X Y\n.PEN_DOWN\n1 2\n3 x\n")?.contains("line 4") == true)
        #expect(
            reason(".COORD X Y\n.PEN_DOWN\n1 2\n.SEGMENT WORD 0-3 OK \"a\"\n")?.contains(
                "component 3, but the file has 1") == true)
        #expect(reason(".COORD P Q\n.PEN_DOWN\n1 2\n")?.contains("X and Y") == true)
        #expect(reason(".COORD X Y\n.PEN_UP\n1 2\n")?.contains("no .PEN_DOWN") == true)
        #expect(reason("<ink><trace>1 2, 3</trace></ink>")?.contains("1 values for 2 channels") == true)
        #expect(reason("<ink><trace>1 2</trace>")?.contains("not closed") == true)
        #expect(
            reason(
                "<ink><trace>1 2</trace><traceGroup><annotation type=\"truth\">a</annotation><traceView traceDataRef=\"#nope\"/></traceGroup></ink>"
            )?
            .contains("'nope'") == true)
        #expect(reason("hello")?.contains("not an Ink JSON document") == true)
        #expect(reason(String(repeating: "<a>", count: 300) + "<ink>")?.contains("deeper") == true)
    }
}
