import Foundation
import TestSupport
import XCTest
@testable import ScanInput
@testable import ScanModel

final class SniffingTests: XCTestCase {
    func testKindsFromContentNotName() {
        XCTAssertEqual(InputKind.sniff([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0]), .png)
        XCTAssertEqual(InputKind.sniff([0xFF, 0xD8, 0xFF, 0xE0]), .jpeg)
        XCTAssertEqual(InputKind.sniff(Array("II*\0".utf8)), .tiff)
        XCTAssertEqual(InputKind.sniff(Array("MM\0*".utf8)), .tiff)
        XCTAssertEqual(InputKind.sniff(Array("RIFF\0\0\0\0WEBPVP8 ".utf8)), .webp)
        XCTAssertEqual(InputKind.sniff(Array("%PDF-1.7\n".utf8)), .pdf)
        XCTAssertEqual(InputKind.sniff(Array("\n\n%PDF-1.4".utf8)), .pdf)
        XCTAssertEqual(InputKind.sniff(Array("  {\"pages\": []}".utf8)), .json)
        XCTAssertEqual(InputKind.sniff(Array("BM".utf8) + [UInt8](repeating: 0, count: 40)), .bmp)
        XCTAssertNil(InputKind.sniff(Array("hello world".utf8)))
        XCTAssertNil(InputKind.sniff([UInt8]()))
    }
}

final class InputDocumentTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = Drawing.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func write(_ bytes: [UInt8], _ name: String) -> String {
        let p = dir + "/" + name
        FileManager.default.createFile(atPath: p, contents: Data(bytes))
        return p
    }

    func assertError(_ path: String, _ code: ScanError.Code, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try InputDocument(path: path), file: file, line: line) { e in
            let e = e as? ScanError
            XCTAssertEqual(e?.code, code, file: file, line: line)
            XCTAssertEqual(e?.file, path, "the error names the file", file: file, line: line)
        }
    }

    func testBadInputs() {
        assertError(dir + "/missing.png", .unreadable)
        assertError(write([], "empty.png"), .empty)
        assertError(write(Array("just some text".utf8), "notes.png"), .unsupportedType)
        assertError(write([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3], "cut.png"), .corrupt)
        assertError(write(Array("%PDF-1.4\ngarbage".utf8), "broken.pdf"), .corrupt)
        assertError(write(Array("{\"hello\": 1}".utf8), "other.json"), .unsupportedType)
        assertError(dir, .unreadable)
    }

    /// qpdf (installed by `make deps`) makes a password-protected copy.
    func testEncryptedPDFIsRefusedWithItsReason() throws {
        let plain = dir + "/plain.pdf", locked = dir + "/locked.pdf"
        Drawing.writePDF([[DrawnLine("secret", x: 72, y: 100)]], to: plain)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/qpdf")
        p.arguments = ["--encrypt", "user-pw", "owner-pw", "256", "--", plain, locked]
        try p.run()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0)
        assertError(locked, .encrypted)
    }

    func testImageOverThePixelLimitIsRefusedFromItsHeader() throws {
        let path = dir + "/big.png"
        Drawing.writePNG([DrawnLine("x", x: 10, y: 40)], width: 400, height: 300, to: path)
        XCTAssertThrowsError(try InputDocument(path: path, limits: InputLimits(maxPixels: 100_000))) { e in
            XCTAssertEqual((e as? ScanError)?.code, .tooLarge)
        }
        XCTAssertNoThrow(try InputDocument(path: path, limits: InputLimits(maxPixels: 120_000)))
    }

    func testPNGDecodesWithItsSizeWhateverItsName() throws {
        let path = dir + "/picture.dat"
        Drawing.writePNG(Drawing.receiptLines(), width: 500, height: 360, to: path)
        let doc = try InputDocument(path: path)
        XCTAssertEqual(doc.kind, .png)
        guard case .raster(let img, _) = try doc.page(0) else { return XCTFail("expected pixels") }
        XCTAssertEqual(img.width, 500)
        XCTAssertEqual(img.height, 360)
        // Text is dark on white.
        XCTAssertEqual(img.pixels.min(), 0)
        XCTAssertEqual(img.pixels.max(), 255)
    }

    func testMultipageTIFF() throws {
        let path = dir + "/pages.tif"
        let a = Drawing.raster([DrawnLine("one", x: 10, y: 40)], width: 200, height: 60)
        let b = Drawing.raster([DrawnLine("two", x: 10, y: 40)], width: 220, height: 70)
        Drawing.writeMultipageTIFF([a, b, a], to: path)
        let doc = try InputDocument(path: path)
        XCTAssertEqual(doc.kind, .tiff)
        XCTAssertEqual(doc.pageCount, 3)
        guard case .raster(let p2, _) = try doc.page(1) else { return XCTFail() }
        XCTAssertEqual(p2.width, 220)
        XCTAssertEqual(p2.height, 70)
        XCTAssertEqual(p2.channels, 1)
    }

    func testPDFTextLayerGivesWordsAndBoxesWithoutOCR() throws {
        let path = dir + "/digital.pdf"
        Drawing.writePDF([[DrawnLine("Invoice 2024-001", x: 72, y: 100, size: 20),
                           DrawnLine("Total due 118.00 EUR", x: 72, y: 200, size: 12)],
                          [DrawnLine("Second page", x: 100, y: 300, size: 14)]], to: path)
        let doc = try InputDocument(path: path)
        XCTAssertEqual(doc.pageCount, 2)
        guard case .text(let page) = try doc.page(0) else { return XCTFail("expected the text layer") }
        XCTAssertEqual(page.textSource, .pdfText)
        XCTAssertEqual(page.width, (595 * 300 / 72.0).rounded())
        XCTAssertEqual(page.observations.map(\.text), ["Invoice 2024-001", "Total due 118.00 EUR"])
        let total = page.observations[1].words[0]
        XCTAssertEqual(total.text, "Total")
        // 72 pt from the left at 300 dpi is 300 px; the baseline at 200 pt is 833 px.
        XCTAssertEqual(total.boundingBox.x, 300, accuracy: 3)
        XCTAssertEqual(total.boundingBox.maxY, 200 * 300 / 72, accuracy: 15)
        XCTAssertGreaterThan(total.boundingBox.height, 30)
        guard case .text(let p2) = try doc.page(1) else { return XCTFail() }
        XCTAssertEqual(p2.observations.first?.text, "Second page")
        // Forced OCR renders instead.
        guard case .raster(let img, let dpi) = try doc.page(0, forceOCR: true) else { return XCTFail() }
        XCTAssertEqual(dpi, 300)
        XCTAssertEqual(img.width, Int((595 * 300 / 72.0).rounded(.up)))
    }

    func testScannedPDFPageIsRendered() throws {
        let path = dir + "/scan.pdf"
        Drawing.writePDF([[DrawnLine("Scanned words", x: 72, y: 100, size: 20)]], asImage: true, to: path)
        let doc = try InputDocument(path: path)
        guard case .raster(let img, _) = try doc.page(0) else { return XCTFail("a page without text must be rendered") }
        XCTAssertGreaterThan(img.width, 2000)
        XCTAssertEqual(img.pixels.min(), 0)
    }

    func testRenderingOverThePixelLimitFailsThePage() throws {
        let path = dir + "/scan.pdf"
        Drawing.writePDF([[DrawnLine("x", x: 72, y: 100)]], asImage: true, to: path)
        let doc = try InputDocument(path: path, limits: InputLimits(maxPixels: 1_000_000))
        XCTAssertThrowsError(try doc.page(0)) { e in
            XCTAssertEqual((e as? ScanError)?.code, .tooLarge)
            XCTAssertEqual((e as? ScanError)?.page, 0)
        }
    }

    func testTIFFDirectoryCounterRejectsGarbage() {
        XCTAssertNil(TIFFDirectoryCounter.count([1, 2, 3]))
        XCTAssertNil(TIFFDirectoryCounter.count(Array("II*\0".utf8) + [0, 0, 0, 0]))
    }
}

final class PreprocessorTests: XCTestCase {
    func testQuarterTurnsMapPixels() {
        // 2×1 image: [a b]
        let img = RasterImage(width: 2, height: 1, channels: 1, pixels: [1, 2])
        let r1 = Preprocessor.rotated(img, quarterTurns: 1)
        XCTAssertEqual([r1.width, r1.height], [1, 2])
        XCTAssertEqual(r1.pixels, [1, 2])
        let r2 = Preprocessor.rotated(img, quarterTurns: 2)
        XCTAssertEqual(r2.pixels, [2, 1])
        let r3 = Preprocessor.rotated(img, quarterTurns: 3)
        XCTAssertEqual(r3.pixels, [2, 1])
        XCTAssertEqual(Preprocessor.rotated(r1, quarterTurns: 3), img)
    }

    func testGlyphHeightAndUpscaleFactor() throws {
        let small = Drawing.raster(Drawing.receiptLines(scale: 0.5), width: 260, height: 180)
        let h = try XCTUnwrap(Preprocessor.medianGlyphHeight(small))
        XCTAssertTrue((5...14).contains(h), "glyphs of 12 px text measured \(h)")
        let p = Preprocessor()
        let f = p.upscaleFactor(for: small)
        XCTAssertGreaterThan(f, 2)
        let (big, exact) = p.upscaled(small, by: f)
        XCTAssertEqual(Double(big.width), Double(small.width) * exact, accuracy: 1)
        let large = Drawing.raster(Drawing.receiptLines(scale: 2), width: 1040, height: 720)
        XCTAssertEqual(p.upscaleFactor(for: large), 1, "large text is left alone")
        XCTAssertNil(Preprocessor.medianGlyphHeight(RasterImage(width: 50, height: 50, channels: 1)))
    }

    func testDeskewFindsAndCorrectsASmallRotation() {
        let lines = (0..<12).map { DrawnLine("The quick brown fox jumps over the lazy dog \($0)", x: 40, y: Double(60 + 40 * $0), size: 22) }
        let skewed = Drawing.raster(lines, width: 900, height: 560, rotation: 3)
        let (_, angle) = Preprocessor().deskewed(skewed)
        let a = try? XCTUnwrap(angle)
        XCTAssertNotNil(a)
        XCTAssertEqual(abs(a ?? 0), 3, accuracy: 0.6)
        let straight = Drawing.raster(lines, width: 900, height: 560)
        XCTAssertNil(Preprocessor().deskewed(straight).1, "a level page is not rotated")
    }
}
