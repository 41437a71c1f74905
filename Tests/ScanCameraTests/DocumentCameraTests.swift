import Foundation
import ScanCamera
import ScanModel
import ScanRecognition
import TestSupport
import XCTest

/// The camera stage on photos made by `PhotoMaker`: a page seen through a pinhole camera at a
/// known pose on a textured, shaded background, so the true corners are known exactly.
final class DocumentCameraTests: XCTestCase {
    let camera = DocumentCamera()

    private func photo(_ kind: PhotoMaker.PageKind, seed: UInt64) -> PhotoMaker.Photo {
        PhotoMaker.randomPhoto(kind, seed: seed, width: 800, height: 600)
    }

    func testFindsTheCornersOfEveryKindOfPage() {
        for kind in PhotoMaker.PageKind.allCases {
            for seed: UInt64 in [11, 12] {
                let p = photo(kind, seed: seed)
                guard let found = camera.detect(p.image) else {
                    XCTFail("\(kind) seed \(seed): no page found"); continue
                }
                let diagonal = p.quad.topLeft.distance(to: p.quad.bottomRight)
                let error = PhotoMaker.cornerError(found.quad, p.quad)
                XCTAssertLessThanOrEqual(error, 0.02 * diagonal, "\(kind) seed \(seed): corner off by \(error) px")
                XCTAssertGreaterThan(found.confidence, 0.6, "\(kind) seed \(seed)")
            }
        }
    }

    func testFindsAPageHeldInAHandAndACrumpledReceipt() {
        var scene = PhotoMaker.randomScene(.page, seed: 21, width: 800, height: 600)
        scene.hand = true
        scene.castShadow = 0.3
        var p = PhotoMaker.photo(of: PhotoMaker.flatPage(.page, seed: 21), kind: .page, scene: scene)
        var found = camera.detect(p.image)
        XCTAssertNotNil(found)
        if let found {
            XCTAssertLessThanOrEqual(
                PhotoMaker.cornerError(found.quad, p.quad), 0.02 * p.quad.topLeft.distance(to: p.quad.bottomRight))
        }
        scene = PhotoMaker.randomScene(.receipt, seed: 22, width: 800, height: 600)
        scene.crumple = 0.004
        p = PhotoMaker.photo(of: PhotoMaker.flatPage(.receipt, seed: 22), kind: .receipt, scene: scene)
        found = camera.detect(p.image)
        XCTAssertNotNil(found)
        if let found {
            XCTAssertLessThanOrEqual(
                PhotoMaker.cornerError(found.quad, p.quad), 0.02 * p.quad.topLeft.distance(to: p.quad.bottomRight))
        }
    }

    func testFlatScansAreLeftAlone() {
        let scan = Drawing.raster(Drawing.receiptLines(), width: 600, height: 800)
        XCTAssertNil(camera.detect(scan))
        let result = camera.process(scan, mode: .auto)
        XCTAssertTrue(result.transform.isIdentity)
        XCTAssertNil(result.info)
        XCTAssertEqual(result.image, scan)
        // A gray copy too, and with the camera off nothing is even looked at.
        XCTAssertNil(camera.detect(scan.grayscale()))
        let photo = photo(.receipt, seed: 3)
        let off = camera.process(photo.image, mode: .off)
        XCTAssertEqual(off.image, photo.image)
        XCTAssertNil(off.info)
    }

    func testFlattenedPageHasThePagesProportionsAndMapsPointsBack() throws {
        for kind in PhotoMaker.PageKind.allCases {
            let p = photo(kind, seed: 31)
            let result = camera.process(p.image, mode: .auto)
            let info = try XCTUnwrap(result.info, "\(kind)")
            XCTAssertTrue(info.flattened, "\(kind)")
            let pageAspect = Double(p.page.image.width) / Double(p.page.image.height)
            let aspect = Double(result.image.width) / Double(result.image.height)
            // Allow for the corners being named from another side (a quarter turn).
            let ratio = min(abs(log(aspect / pageAspect)), abs(log(aspect * pageAspect)))
            XCTAssertLessThan(ratio, log(1.06), "\(kind): aspect \(aspect), page \(pageAspect)")

            // A point on the page: page -> photo -> flattened output -> back to the photo.
            let onPage = Point(x: Double(p.page.image.width) * 0.3, y: Double(p.page.image.height) * 0.6)
            let onPhoto = p.pageToPhoto.apply(onPage)
            let onOutput = result.transform.apply(onPhoto)
            XCTAssertTrue(onOutput.x >= 0 && onOutput.y >= 0
                          && onOutput.x <= Double(result.image.width) && onOutput.y <= Double(result.image.height))
            let back = try XCTUnwrap(result.transform.inverse).apply(onOutput)
            XCTAssertLessThan(back.distance(to: onPhoto), 0.01, "\(kind)")
            // The output corners are the found quad's corners.
            let corners = result.transform.apply(info.quad)
            XCTAssertLessThan(corners.topLeft.distance(to: Point(x: 0, y: 0)), 0.01)
            XCTAssertLessThan(
                corners.bottomRight.distance(to: Point(x: Double(result.image.width), y: Double(result.image.height))),
                0.01)
        }
    }

    func testEvenLightWhitensAShadowedPage() {
        // Paper under a strong gradient: 250 on the left falling to 120 on the right, with print.
        let w = 400, h = 300
        var px = [UInt8](repeating: 0, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                let paper = 250 - 130 * Double(x) / Double(w)
                let ink = (y % 40 < 4 && x % 60 < 40) ? 0.2 : 1.0
                px[y * w + x] = UInt8(paper * ink)
            }
        }
        let image = RasterImage(width: w, height: h, channels: 1, pixels: px)
        let even = camera.evenLight(image)
        XCTAssertEqual(even.channels, 1)
        XCTAssertEqual(even.width, w)
        let paperRight = even.pixels[150 * w + 390], paperLeft = even.pixels[150 * w + 10]
        XCTAssertGreaterThan(paperRight, 235)
        XCTAssertGreaterThan(paperLeft, 235)
        XCTAssertLessThan(even.pixels[81 * w + 310], 100, "print stays dark")
    }

    func testFlattenedPhotoIsReadable() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        guard let models = try? PPOCRModels.locate(environment: ProcessInfo.processInfo.environment,
                                                   searchRoots: [root.path]).get() else {
            throw XCTSkip("ONNX Runtime / PP-OCR models not installed; run scripts/install-onnx.sh")
        }
        let engine = try PPOCRRecognizer(models: models)
        for kind in [PhotoMaker.PageKind.receipt, .card] {
            var scene = PhotoMaker.randomScene(kind, seed: 41, width: 1200, height: 900)
            scene.roll = 20
            scene.pitch = 20
            scene.yaw = -15
            let photo = PhotoMaker.photo(of: PhotoMaker.flatPage(kind, seed: 41), kind: kind, scene: scene)
            let result = camera.process(photo.image, mode: .auto)
            XCTAssertEqual(result.info?.flattened, true, "\(kind)")
            let text = try engine.recognize(result.image).map(\.text).joined(separator: " ").uppercased()
            let expected = Set(photo.page.words.map { $0.uppercased() })
            let read = expected.filter { text.contains($0) }
            XCTAssertGreaterThanOrEqual(Double(read.count), 0.8 * Double(expected.count),
                                        "\(kind): read \(read.sorted()) of \(expected.sorted()) in \(text)")
        }
    }
}
