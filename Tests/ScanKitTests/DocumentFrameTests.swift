import Foundation
import XCTest
@testable import ScanKit
import ScanModel

/// The layout groups the rows of a photo read as it is in the frame of the page the camera found, and
/// only when the camera's checks passed: a quad from a document written before they were recorded, or
/// one that failed them, leaves the layout to the page's slant. The quad is carried into a page that was
/// cropped or turned upright.
final class DocumentFrameTests: XCTestCase {
    private let quad = Quad(topLeft: Point(x: 120, y: 80), topRight: Point(x: 1100, y: 180),
                            bottomRight: Point(x: 1040, y: 760), bottomLeft: Point(x: 70, y: 650))

    private func working(_ camera: CameraInfo?) -> WorkingPage {
        var page = Page(index: 0, width: 1200, height: 900, textSource: .imported, observations: [])
        page.camera = camera
        return WorkingPage(imported: page)
    }

    func testACheckedQuadOfAnUnflattenedPageIsItsFrame() throws {
        let frame = try XCTUnwrap(
            PageStages.documentFrame(working(CameraInfo(quad: quad, confidence: 0.9, flattened: false, checked: true)))
                .flatMap(Homography.rectifying))
        // The quad's corners go to the corners of an upright rectangle of the quad's own size.
        let tl = frame.apply(quad.topLeft), br = frame.apply(quad.bottomRight)
        XCTAssertEqual(tl.x, 0, accuracy: 1e-6)
        XCTAssertEqual(tl.y, 0, accuracy: 1e-6)
        XCTAssertEqual(br.x, quad.meanSides.width, accuracy: 1e-6)
        XCTAssertEqual(br.y, quad.meanSides.height, accuracy: 1e-6)
    }

    func testTheFrameFollowsTheQuadIntoATurnedOrCroppedPage() throws {
        let camera = CameraInfo(quad: quad, confidence: 0.9, flattened: false, checked: true)
        for transform in [
            Homography.quarterTurns(1, width: 1200, height: 900), .quarterTurns(3, width: 1200, height: 900),
            .translation(dx: -40, dy: -25)
        ] {
            var w = working(camera)
            w.transform = transform
            let frame = try XCTUnwrap(PageStages.documentFrame(w).flatMap(Homography.rectifying))
            // The quad's corners, carried into the page, go to an upright rectangle's corners, the page's
            // top-left one (smallest x + y) to the origin: rows of the turned page stay rows in the frame.
            let corners = quad.corners.map { transform.apply($0) }
            let origin = corners.min { $0.x + $0.y < $1.x + $1.y }!
            XCTAssertEqual(frame.apply(origin).x, 0, accuracy: 1e-6)
            XCTAssertEqual(frame.apply(origin).y, 0, accuracy: 1e-6)
            let mapped = corners.map { frame.apply($0) }
            let width = mapped.map(\.x).max()!, height = mapped.map(\.y).max()!
            for p in mapped {
                XCTAssertTrue(abs(p.x) < 1e-6 || abs(p.x - width) < 1e-6, "\(p) off the frame's sides")
                XCTAssertTrue(abs(p.y) < 1e-6 || abs(p.y - height) < 1e-6, "\(p) off the frame's top and bottom")
            }
            // A quarter turn swaps which sides are long.
            let turned = abs(transform.m[0]) < 0.5
            XCTAssertEqual(width > height, turned ? quad.meanSides.width < quad.meanSides.height
                                                  : quad.meanSides.width > quad.meanSides.height)
        }
    }

    func testNoFrameWithoutPassedChecksOrOnAFlattenedPage() {
        XCTAssertNil(PageStages.documentFrame(working(nil)))
        XCTAssertNil(PageStages.documentFrame(working(CameraInfo(quad: quad, confidence: 0.95, flattened: false))),
                     "checks not recorded (an earlier version's document)")
        XCTAssertNil(
            PageStages.documentFrame(working(CameraInfo(quad: quad, confidence: 0.3, flattened: false, checked: false)))
        )
        XCTAssertNil(
            PageStages.documentFrame(working(CameraInfo(quad: quad, confidence: 0.95, flattened: true, checked: true))),
            "a flattened page is already upright")
    }
}
