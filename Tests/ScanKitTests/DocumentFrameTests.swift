import Foundation
import XCTest
@testable import ScanKit
import ScanModel

/// The layout groups the rows of a photo read as it is in the frame of the page the camera found, and
/// only when the camera's checks passed: a quad from a document written before they were recorded, or
/// one that failed them, leaves the layout to the page's slant.
final class DocumentFrameTests: XCTestCase {
    private let quad = Quad(topLeft: Point(x: 120, y: 80), topRight: Point(x: 1100, y: 180),
                            bottomRight: Point(x: 1040, y: 760), bottomLeft: Point(x: 70, y: 650))

    private func working(_ camera: CameraInfo?) -> WorkingPage {
        var page = Page(index: 0, width: 1200, height: 900, textSource: .imported, observations: [])
        page.camera = camera
        return WorkingPage(imported: page)
    }

    func testACheckedQuadOfAnUnflattenedPageIsItsFrame() throws {
        let frame = try XCTUnwrap(PageStages.documentFrame(working(CameraInfo(quad: quad, confidence: 0.9, flattened: false, checked: true))))
        // The quad's corners go to the corners of an upright rectangle of the quad's own size.
        let tl = frame.apply(quad.topLeft), br = frame.apply(quad.bottomRight)
        XCTAssertEqual(tl.x, 0, accuracy: 1e-6)
        XCTAssertEqual(tl.y, 0, accuracy: 1e-6)
        XCTAssertEqual(br.x, quad.meanSides.width, accuracy: 1e-6)
        XCTAssertEqual(br.y, quad.meanSides.height, accuracy: 1e-6)
    }

    func testNoFrameWithoutPassedChecksOrOnAFlattenedPage() {
        XCTAssertNil(PageStages.documentFrame(working(nil)))
        XCTAssertNil(PageStages.documentFrame(working(CameraInfo(quad: quad, confidence: 0.95, flattened: false))),
                     "checks not recorded (an earlier version's document)")
        XCTAssertNil(PageStages.documentFrame(working(CameraInfo(quad: quad, confidence: 0.3, flattened: false, checked: false))))
        XCTAssertNil(PageStages.documentFrame(working(CameraInfo(quad: quad, confidence: 0.95, flattened: true, checked: true))),
                     "a flattened page is already upright")
    }
}
