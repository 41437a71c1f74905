import XCTest
@testable import ScanService

/// Content negotiation: the most specific range decides an offered type's weight, and a weight of 0 turns it down.
final class AcceptHeaderTests: XCTestCase {
    let result = ["application/json", "text/plain", "text/csv", "text/vcard"]

    func testWildcardsPickTheServersPreference() {
        XCTAssertEqual(AcceptHeader.choose(result, for: nil), "application/json")
        XCTAssertEqual(AcceptHeader.choose(result, for: "*/*"), "application/json")
        XCTAssertEqual(AcceptHeader.choose(result, for: "text/*"), "text/plain")
        XCTAssertEqual(AcceptHeader.choose(result, for: "application/*"), "application/json")
    }

    func testWeightsAndTheOrderWritten() {
        XCTAssertEqual(AcceptHeader.choose(result, for: "text/csv, */*"), "text/csv")
        XCTAssertEqual(AcceptHeader.choose(result, for: "*/*, text/csv"), "application/json")
        XCTAssertEqual(AcceptHeader.choose(result, for: "text/csv;q=0.5, application/json;q=0.9"), "application/json")
        XCTAssertEqual(AcceptHeader.choose(result, for: "text/csv;q=0.5, text/*;q=0.2"), "text/csv")
        XCTAssertNil(AcceptHeader.choose(result, for: "image/png"))
        XCTAssertNil(AcceptHeader.choose(result, for: ";,"))
    }

    /// `q=0` is "not this", also when a wildcard would match it.
    func testAZeroWeightTurnsATypeDownBesideAWildcard() {
        XCTAssertEqual(AcceptHeader.choose(result, for: "application/json;q=0, */*"), "text/plain")
        XCTAssertEqual(AcceptHeader.choose(result, for: "text/plain;q=0, text/*"), "text/csv")
        XCTAssertEqual(AcceptHeader.choose(["text/csv", "text/vcard"], for: "text/csv;q=0, */*"), "text/vcard")
        XCTAssertNil(AcceptHeader.choose(["text/csv"], for: "text/csv;q=0, */*"))
        XCTAssertNil(AcceptHeader.choose(result, for: "*/*;q=0"))
    }
}
