import XCTest
@testable import ScanRecognition

/// The start-up limit on glibc's malloc arenas.
final class MallocArenasTests: XCTestCase {
    /// The user's own `MALLOC_ARENA_MAX` is left in force.
    func testTheUsersVariableWins() {
        XCTAssertNil(MallocArenas.limitAtStartUp(environment: ["MALLOC_ARENA_MAX": "8"]))
    }

    /// A limit of zero or less is no limit, and is not passed to the C library.
    func testNoLimitIsNotSet() {
        XCTAssertNil(MallocArenas.limitAtStartUp(to: 0, environment: [:]))
    }

    /// On glibc (this project's Linux) the limit is set; elsewhere nothing happens.
    func testTheLimitIsSetOnGlibc() throws {
        #if os(Linux)
        XCTAssertNotNil(MallocArenas.mallopt, "glibc's mallopt should be found")
        XCTAssertEqual(MallocArenas.limitAtStartUp(environment: [:]), MallocArenas.defaultLimit)
        #else
        throw XCTSkip("glibc only")
        #endif
    }
}
