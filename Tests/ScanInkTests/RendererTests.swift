import Foundation
import Testing
@testable import ScanInk
import ScanModel

@Suite struct RendererTests {
    @Test func resampleSpacesPointsEvenly() {
        let pts = [InkRenderer.Vec(0, 0), InkRenderer.Vec(10, 0)]
        let r = InkRenderer.resample(pts, step: 1)
        #expect(r.count == 11)
        #expect(abs(r[5].x - 5) < 1e-9)
    }
}
