import XCTest
@testable import ScanRecognition

/// The start-up settings of glibc's malloc: the arena limit and the mmap threshold.
final class MallocTuningTests: XCTestCase {
    /// The user's own variables are left in force, each on its own.
    func testTheUsersVariablesWin() throws {
        try requireGlibc()
        let arenas = MallocTuning.applyAtStartUp(environment: ["MALLOC_ARENA_MAX": "8"])
        XCTAssertNil(arenas.arenaLimit)
        XCTAssertEqual(arenas.mmapThreshold, MallocTuning.defaultMmapThreshold)
        let threshold = MallocTuning.applyAtStartUp(environment: ["MALLOC_MMAP_THRESHOLD_": "65536"])
        XCTAssertEqual(threshold.arenaLimit, MallocTuning.defaultArenaLimit)
        XCTAssertNil(threshold.mmapThreshold)
    }

    /// Zero or less means "leave it", and is not passed to the C library.
    func testNoValueIsNotSet() {
        XCTAssertEqual(MallocTuning.applyAtStartUp(arenaLimit: 0, mmapThreshold: -1, environment: [:]),
                       MallocTuning.Applied(arenaLimit: nil, mmapThreshold: nil))
    }

    /// On glibc (this project's Linux) both are set.
    func testBothAreSetOnGlibc() throws {
        try requireGlibc()
        XCTAssertEqual(MallocTuning.applyAtStartUp(environment: [:]),
                       MallocTuning.Applied(arenaLimit: MallocTuning.defaultArenaLimit,
                                            mmapThreshold: MallocTuning.defaultMmapThreshold))
    }

    private func requireGlibc() throws {
        #if os(Linux)
        XCTAssertNotNil(MallocTuning.mallopt, "glibc's mallopt should be found")
        #else
        throw XCTSkip("glibc only")
        #endif
    }
}
