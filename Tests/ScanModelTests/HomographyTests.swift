import XCTest
@testable import ScanModel

final class HomographyTests: XCTestCase {
    func assertClose(_ a: Point, _ b: Point, _ tol: Double = 1e-6, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(a.x, b.x, accuracy: tol, file: file, line: line)
        XCTAssertEqual(a.y, b.y, accuracy: tol, file: file, line: line)
    }

    func testFourPointMappingAndItsInverse() throws {
        let quad = Quad(topLeft: Point(x: 112, y: 80), topRight: Point(x: 530, y: 121),
                        bottomRight: Point(x: 498, y: 710), bottomLeft: Point(x: 70, y: 650))
        let h = try XCTUnwrap(Homography.rectifying(quad, width: 400, height: 600))
        assertClose(h.apply(quad.topLeft), Point(x: 0, y: 0))
        assertClose(h.apply(quad.topRight), Point(x: 400, y: 0))
        assertClose(h.apply(quad.bottomRight), Point(x: 400, y: 600))
        assertClose(h.apply(quad.bottomLeft), Point(x: 0, y: 600))
        XCTAssertFalse(h.isAffine)
        let back = try XCTUnwrap(h.inverse)
        let p = Point(x: 123.4, y: 456.7)
        assertClose(back.apply(h.apply(p)), p)
        XCTAssertEqual(
            back.apply(Quad(BoundingBox(x: 0, y: 0, width: 400, height: 600))).maxCornerDistance(to: quad), 0,
            accuracy: 1e-6)
    }

    func testCollinearPointsHaveNoMapping() {
        let line = [Point(x: 0, y: 0), Point(x: 1, y: 1), Point(x: 2, y: 2), Point(x: 0, y: 5)]
        XCTAssertNil(Homography.mapping(line, to: line))
    }

    func testCompositionOrder() {
        let t = Homography.translation(dx: 10, dy: 0)
        let s = Homography.scale(2)
        // First translate, then scale: (1, 1) -> (11, 1) -> (22, 2).
        assertClose(t.then(s).apply(Point(x: 1, y: 1)), Point(x: 22, y: 2))
        assertClose(s.after(t).apply(Point(x: 1, y: 1)), Point(x: 22, y: 2))
        assertClose(s.then(t).apply(Point(x: 1, y: 1)), Point(x: 12, y: 2))
    }

    /// The quarter-turn maps agree with the way rasters are turned, pixel for pixel.
    func testQuarterTurnsMatchTurnedRasters() {
        let w = 7.0, h = 4.0
        // The pixel (2, 1) covers [2, 3) × [1, 2); its centre is (2.5, 1.5).
        let c = Point(x: 2.5, y: 1.5)
        assertClose(Homography.quarterTurns(1, width: w, height: h).apply(c), Point(x: h - 1 - 1 + 0.5, y: 2.5))
        assertClose(
            Homography.quarterTurns(2, width: w, height: h).apply(c), Point(x: w - 1 - 2 + 0.5, y: h - 1 - 1 + 0.5))
        assertClose(Homography.quarterTurns(3, width: w, height: h).apply(c), Point(x: 1.5, y: w - 1 - 2 + 0.5))
        let full = Homography.quarterTurns(1, width: w, height: h).then(.quarterTurns(3, width: h, height: w))
        XCTAssertTrue(full.isIdentity)
    }

    func testRelabellingAQuadTurnedAQuarterNamesItsCornersFromTheLevelTopEdge() {
        let quad = Quad(topLeft: Point(x: 120, y: 80), topRight: Point(x: 1100, y: 180),
                        bottomRight: Point(x: 1040, y: 760), bottomLeft: Point(x: 70, y: 650))
        XCTAssertEqual(quad.relabelledLevel(), quad, "an upright quad keeps its names")
        for turns in 1...3 {
            let turned = Homography.quarterTurns(turns, width: 1200, height: 900).apply(quad)
            let level = turned.relabelledLevel()
            // Still the same four corners, clockwise, and the top edge now runs left to right.
            XCTAssertEqual(Set(level.corners.map { "\($0.x),\($0.y)" }), Set(turned.corners.map { "\($0.x),\($0.y)" }))
            XCTAssertGreaterThan(level.area, 0)
            XCTAssertGreaterThan(level.topRight.x - level.topLeft.x, abs(level.topRight.y - level.topLeft.y))
            XCTAssertLessThan(level.topLeft.y, level.bottomLeft.y)
        }
    }

    func testCodableAsNineNumbers() throws {
        let h = Homography.rotation(degrees: 30, about: Point(x: 5, y: 5))
        let data = try JSONEncoder().encode(h)
        let array = try JSONDecoder().decode([Double].self, from: data)
        XCTAssertEqual(array.count, 9)
        let back = try JSONDecoder().decode(Homography.self, from: data)
        assertClose(back.apply(Point(x: 1, y: 2)), h.apply(Point(x: 1, y: 2)), 1e-6)
        XCTAssertThrowsError(try JSONDecoder().decode(Homography.self, from: Data("[1,2,3]".utf8)))
    }

    /// Every box of a document goes through the map: observations, words (with quads when
    /// the map is not axis-aligned), layout, entities and fields' provenance.
    func testMappingBoxesVisitsEveryBox() {
        let box = BoundingBox(x: 10, y: 20, width: 30, height: 10)
        var page = Page(index: 0, width: 100, height: 100, textSource: .ocr, observations: [
            TextObservation(text: "a", confidence: 1, boundingBox: box,
                            words: [RecognizedWord(text: "a", confidence: 1, boundingBox: box)])])
        page.layout = PageLayout(
            blocks: [
                .init(
                    boundingBox: box,
                    lines: [
                        .init(
                            text: "a", boundingBox: box,
                            words: [.init(observation: 0, word: 0)])
                    ])
            ],
            frame: Quad(box))
        var doc = Document(source: "x", engine: EngineInfo(name: "t", version: "1"), pages: [page])
        doc.entities = [
            Entity(type: .email, text: "a", range: EntityRange(start: 0, end: 1), page: 0, boundingBox: box)
        ]
        var receipt = Receipt()
        receipt.provenance["total"] = Provenance(text: "a", page: 0, boundingBox: box, confidence: 1)
        receipt.items = [
            Receipt.Item(description: "a", source: Provenance(text: "a", page: 0, boundingBox: box, confidence: 1))
        ]
        doc.receipt = receipt

        let shift = Homography.translation(dx: 5, dy: 7)
        let moved = doc.mappingBoxes([0: shift])
        let expected = box.offsetBy(dx: 5, dy: 7)
        XCTAssertEqual(moved.pages[0].observations[0].boundingBox, expected)
        XCTAssertEqual(moved.pages[0].observations[0].words[0].boundingBox, expected)
        XCTAssertNil(moved.pages[0].observations[0].quad, "a translation keeps boxes axis-aligned")
        XCTAssertEqual(moved.pages[0].layout?.blocks[0].lines[0].boundingBox, expected)
        XCTAssertEqual(moved.pages[0].layout?.frame, Quad(expected), "the document's quad the rows were grouped in")
        XCTAssertEqual(moved.entities?[0].boundingBox, expected)
        XCTAssertEqual(moved.receipt?.provenance["total"]?.boundingBox, expected)
        XCTAssertEqual(moved.receipt?.items[0].source.boundingBox, expected)

        let tilt = Homography.rotation(degrees: 10, about: Point(x: 50, y: 50))
        let tilted = doc.mappingBoxes([0: tilt])
        let quad = tilted.pages[0].observations[0].quad
        XCTAssertNotNil(quad)
        XCTAssertEqual(quad?.topLeft.x ?? 0, tilt.apply(Point(x: 10, y: 20)).x, accuracy: 0.06)
        XCTAssertEqual(tilted.pages[0].observations[0].boundingBox, quad?.boundingBox.rounded())
        // The frame's corners keep naming the document's corners, wherever the map takes them.
        XCTAssertEqual(tilted.pages[0].layout?.frame, tilt.apply(Quad(box)).rounded())
        // Pages without a map are untouched.
        XCTAssertEqual(doc.mappingBoxes([1: shift]), doc)
    }

    /// The layout's frame is written only when there is one; a layout written before it existed reads without.
    func testALayoutsFrameIsOptionalInJSON() throws {
        let box = BoundingBox(x: 10, y: 20, width: 30, height: 10)
        let framed = PageLayout(blocks: [], frame: Quad(box))
        XCTAssertEqual(try JSONDecoder().decode(PageLayout.self, from: JSONEncoder().encode(framed)), framed)
        XCTAssertEqual(
            String(data: try JSONEncoder().encode(PageLayout(blocks: [])), encoding: .utf8), #"{"blocks":[]}"#)
        XCTAssertNil(try JSONDecoder().decode(PageLayout.self, from: Data(#"{"blocks":[]}"#.utf8)).frame)
    }

    func testLayoutWordReferencesEncodeAsPairs() throws {
        let ref = PageLayout.WordReference(observation: 3, word: 1)
        XCTAssertEqual(String(data: try JSONEncoder().encode(ref), encoding: .utf8), "[3,1]")
        XCTAssertEqual(try JSONDecoder().decode(PageLayout.WordReference.self, from: Data("[3,1]".utf8)), ref)
    }
}

final class HexadecimalTests: XCTestCase {
    func testTwoLowercaseDigitsAByte() {
        XCTAssertEqual([UInt8]([0x00, 0x0f, 0xa0, 0xff]).hexadecimal, "000fa0ff")
        XCTAssertEqual([UInt8]().hexadecimal, "")
    }
}
