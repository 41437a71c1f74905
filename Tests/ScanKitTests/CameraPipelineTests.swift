import Foundation
import ScanCamera
import ScanModel
import TestSupport
import XCTest
@testable import ScanKit

/// Photos go through the camera stage: the page is found, flattened for an engine that
/// needs a flat page, and every box comes back in the photo's own pixels.
final class CameraPipelineTests: PipelineTestCase {
    func photo(_ kind: PhotoMaker.PageKind, seed: UInt64) -> PhotoMaker.Photo {
        var scene = PhotoMaker.randomScene(kind, seed: seed, width: 1200, height: 900)
        scene.roll = 12
        scene.pitch = 18
        scene.yaw = -10
        scene.hand = false
        scene.crumple = 0
        return PhotoMaker.photo(of: PhotoMaker.flatPage(kind, seed: seed), kind: kind, scene: scene)
    }

    func process(_ photo: PhotoMaker.Photo, _ edit: (inout ScanConfiguration) -> Void = { _ in }) throws -> Document {
        try processor { c in
            c.engine = .tesseract
            edit(&c)
        }.process(data: Data(Drawing.pngBytes(photo.image)), name: "photo.png")
    }

    func testCardPhotoIsFlattenedAndItsWordsMapBackIntoThePhoto() throws {
        let shot = photo(.card, seed: 5)
        let doc = try process(shot)
        let page = doc.pages[0]
        XCTAssertEqual(page.width, Double(shot.image.width))
        XCTAssertEqual(page.height, Double(shot.image.height))
        let camera = try XCTUnwrap(page.camera)
        XCTAssertTrue(camera.flattened)
        let diagonal = (page.width * page.width + page.height * page.height).squareRoot()
        XCTAssertLessThan(camera.quad.maxCornerDistance(to: shot.quad) / diagonal, 0.02)
        XCTAssertNotNil(page.upright)

        // "Miller" is drawn at a known place on the card; the photo's homography says where that is.
        let miller = try XCTUnwrap(page.observations.flatMap(\.words).first { $0.text.contains("Miller") }, page.text)
        let quad = try XCTUnwrap(miller.quad, "a word on a flattened photo has its corners in the photo")
        let centre = Point(x: quad.corners.map(\.x).reduce(0, +) / 4, y: quad.corners.map(\.y).reduce(0, +) / 4)
        // The name's line is drawn from x = 50 with a 44 pt bold face, baseline at y = 90.
        let flat = shot.page.image
        let truth = shot.pageToPhoto.apply(Point(x: 50 + 0.7 * Double(flat.width) * 0.25, y: 75))
        XCTAssertEqual(centre.x, truth.x, accuracy: 0.06 * Double(shot.image.width))
        XCTAssertEqual(centre.y, truth.y, accuracy: 0.03 * Double(shot.image.height))
        XCTAssertEqual(doc.businessCard?.name?.family, "Miller")

        // Off: the photo goes to the engine as it is, and no page is recorded.
        let off = try process(shot) { $0.camera = .off }
        XCTAssertNil(off.pages[0].camera)
        XCTAssertEqual(off.pages[0].upright?.transform.isAffine ?? true, true, "no perspective without the camera")
    }

    /// A flat scan (the page fills the frame) is left as it is in auto.
    func testFlatScanIsLeftAlone() throws {
        let flat = PhotoMaker.flatPage(.receipt, seed: 3)
        let doc = try DocumentProcessor(configuration: ScanConfiguration())
            .process(data: Data(Drawing.pngBytes(flat.image)), name: "scan.png")
        XCTAssertNotEqual(doc.pages[0].camera?.flattened, true)
        XCTAssertEqual(doc.pages[0].upright?.transform.isAffine ?? true, true, "enlarged for Tesseract at most")
        XCTAssertTrue(doc.pages[0].text.contains("TOTAL"), doc.pages[0].text)
    }
}
