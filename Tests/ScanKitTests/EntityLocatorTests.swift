import Foundation
import XCTest
@testable import ScanKit
import ScanModel

/// An entity's box is the union of the boxes of the words its text covers.
final class EntityLocatorTests: XCTestCase {
    func testAnEntityTakesTheBoxesOfTheWordsItCovers() {
        func word(_ t: String, _ x: Double, _ y: Double) -> RecognizedWord {
            RecognizedWord(
                text: t, confidence: 1, boundingBox: BoundingBox(x: x, y: y, width: 10 * Double(t.count), height: 10))
        }
        let lines = [
            TextObservation(
                text: "Call 555 0100", confidence: 1, boundingBox: BoundingBox(x: 0, y: 0, width: 200, height: 10),
                words: [word("Call", 0, 0), word("555", 50, 0), word("0100", 90, 0)]),
            TextObservation(
                text: "no words here", confidence: 1, boundingBox: BoundingBox(x: 0, y: 20, width: 130, height: 10)),
            TextObservation(
                text: " x", confidence: 1, boundingBox: BoundingBox(x: 0, y: 40, width: 50, height: 10),
                words: [word("", 0, 40), word("x", 30, 40)])
        ]
        let text = EntityLocator.PageText(
            Page(index: 0, width: 300, height: 100, textSource: .ocr, observations: lines))
        XCTAssertEqual(text.text, "Call 555 0100\nno words here\n x")
        // Every range gives what a look at every piece gives.
        let length = text.text.unicodeScalars.count
        for start in 0..<length {
            for end in (start + 1)...length {
                let range = start..<end
                let expected = BoundingBox.enclosing(text.pieces.filter { $0.range.overlaps(range) }.map(\.box))
                XCTAssertEqual(text.box(for: range), expected, "\(range)")
            }
        }
        XCTAssertEqual(text.box(for: 5..<13), BoundingBox(x: 50, y: 0, width: 80, height: 10))
        XCTAssertEqual(text.box(for: 14..<16), BoundingBox(x: 0, y: 20, width: 130, height: 10))
        XCTAssertNil(text.box(for: 13..<14))
    }
}
