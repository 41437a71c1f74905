import Foundation
import TestSupport
import XCTest
@testable import ScanInput
import CLeptonica
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
        // An ISO media file is HEIF when its major brand or a compatible one names a still image.
        func ftyp(_ brands: [String]) -> [UInt8] {
            let body =
                Array("ftyp".utf8) + Array(brands[0].utf8) + [0, 0, 0, 0]
                + brands.dropFirst().flatMap { Array($0.utf8) }
            return [0, 0, 0, UInt8(body.count + 4)] + body + [0, 0, 0, 8] + Array("meta".utf8)
        }
        XCTAssertEqual(InputKind.sniff(ftyp(["heic", "mif1", "heic"])), .heif)
        XCTAssertEqual(InputKind.sniff(ftyp(["avif", "avif", "mif1", "miaf"])), .heif)
        XCTAssertEqual(InputKind.sniff(ftyp(["isom", "iso2", "mif1"])), .heif)
        XCTAssertNil(InputKind.sniff(ftyp(["isom", "iso2", "avc1", "mp41"])), "a video")
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
        assertError(write(Array("{\"schemaVersion\": \"1.0\", \"pages\": [{\"obs".utf8), "cut.json"), .corrupt)
        assertError(dir, .unreadable)
        // What is not a regular file, and links to nothing, say so.
        XCTAssertEqual(mkfifo(dir + "/pipe.png", 0o600), 0)
        assertError(dir + "/pipe.png", .unreadable)
        XCTAssertThrowsError(try InputDocument(path: dir + "/pipe.png")) {
            XCTAssertTrue("\($0)".contains("not a regular file"), "\($0)")
        }
        try? FileManager.default.createSymbolicLink(
            atPath: dir + "/gone.png", withDestinationPath: dir + "/nowhere.png")
        XCTAssertThrowsError(try InputDocument(path: dir + "/gone.png")) {
            XCTAssertTrue("\($0)".contains("symbolic link"), "\($0)")
        }
    }

    /// A JSON document no reader made: a box of 1e308 would make outputs that are no JSON, and a page of more
    /// observations than any page holds would keep the layout busy for hours.
    func testAnImportedDocumentWithImpossibleNumbersIsRefused() throws {
        func page(_ observations: [String]) -> String {
            "{\"schemaVersion\": \"1.0\", \"pages\": [{\"index\": 0, \"width\": 600, \"height\": 800, \"observations\": ["
                + observations.joined(separator: ",") + "]}]}"
        }
        func observation(_ box: String) -> String { "{\"text\": \"x\", \"confidence\": 1, \"boundingBox\": \(box)}" }
        let fine = observation("{\"x\": 1, \"y\": 2, \"width\": 30, \"height\": 10}")
        XCTAssertNoThrow(try InputDocument(path: write(Array(page([fine]).utf8), "fine.json")))
        let huge = observation("{\"x\": -1e308, \"y\": 1e308, \"width\": 5, \"height\": 1e308}")
        assertError(write(Array(page([fine, huge]).utf8), "huge.json"), .corrupt)
        let crowded = page(Array(repeating: fine, count: InputDocument.maxObservationsPerPage + 1))
        assertError(write(Array(crowded.utf8), "crowded.json"), .tooLarge)
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

    func testADocumentOverThePageLimitIsRefusedBeforeAnyPageIsRead() throws {
        let path = dir + "/three.pdf"
        Drawing.writePDF((1...3).map { [DrawnLine("Page \($0)", x: 72, y: 100)] }, to: path)
        XCTAssertEqual(try InputDocument(path: path, limits: InputLimits(maxPages: 3)).pageCount, 3)
        XCTAssertThrowsError(try InputDocument(path: path, limits: InputLimits(maxPages: 2))) { e in
            XCTAssertEqual((e as? ScanError)?.code, .tooLarge)
            XCTAssertTrue("\(e)".contains("3 pages, over the limit of 2 pages"), "\(e)")
            XCTAssertTrue("\(e)".contains("three.pdf"), "the error names the file: \(e)")
        }
        // A configuration written before the limit existed still reads, with the default.
        let old = try JSONDecoder().decode(
            InputLimits.self, from: Data(#"{"maxPixels": 5, "maxFileBytes": 6, "renderDPI": 72}"#.utf8))
        XCTAssertEqual(old, InputLimits(maxPixels: 5, maxFileBytes: 6, renderDPI: 72))
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
        guard case .raster(let img, _, _) = try doc.page(0) else { return XCTFail("expected pixels") }
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
        guard case .raster(let p2, _, _) = try doc.page(1) else { return XCTFail() }
        XCTAssertEqual(p2.width, 220)
        XCTAssertEqual(p2.height, 70)
        XCTAssertEqual(p2.channels, 1)
    }

    /// A later page of a TIFF over the pixel limit is refused from its directory, before it is decoded, and the
    /// pages within the limit are read.
    func testATIFFPageOverThePixelLimitIsRefusedBeforeDecoding() throws {
        let path = dir + "/pages.tif"
        let small = Drawing.raster([DrawnLine("one", x: 10, y: 40)], width: 200, height: 60)
        let big = Drawing.raster([DrawnLine("two", x: 10, y: 40)], width: 400, height: 300)
        Drawing.writeMultipageTIFF([small, big], to: path)
        let doc = try InputDocument(path: path, limits: InputLimits(maxPixels: 100_000))
        XCTAssertEqual(doc.pageCount, 2)
        XCTAssertNoThrow(try doc.page(0))
        XCTAssertThrowsError(try doc.page(1)) { e in
            XCTAssertEqual((e as? ScanError)?.code, .tooLarge)
            XCTAssertTrue("\(e)".contains("not decoded"), "\(e)")
        }
        XCTAssertEqual(TIFFDirectoryCounter.walk(Array(try Data(contentsOf: URL(fileURLWithPath: path)))).pixels,
                       [0: 12_000, 1: 120_000])
    }

    /// A TIFF cut short keeps the pages that are whole, and its last one says the rest are lost.
    func testATIFFCutShortSaysItsLastPagesAreMissing() throws {
        let path = dir + "/pages.tif"
        let a = Drawing.raster([DrawnLine("one", x: 10, y: 40)], width: 200, height: 60)
        Drawing.writeMultipageTIFF([a, a, a], to: path)
        let whole = try Data(contentsOf: URL(fileURLWithPath: path))
        let cut = dir + "/cut.tif"
        FileManager.default.createFile(atPath: cut, contents: whole.prefix(whole.count * 3 / 4))
        let doc = try InputDocument(path: cut)
        XCTAssertLessThan(doc.pageCount, 3)
        guard case .raster(_, _, let findings) = try doc.page(doc.pageCount - 1) else {
            return XCTFail("expected pixels")
        }
        XCTAssertEqual(findings.map(\.code), ["pages-missing"])
        guard case .raster(_, _, let whole0) = try InputDocument(path: path).page(2) else {
            return XCTFail("expected pixels")
        }
        XCTAssertEqual(whole0.map(\.code), [], "a whole file says nothing")
    }

    func testPDFTextLayerGivesWordsAndBoxesWithoutOCR() throws {
        let path = dir + "/digital.pdf"
        Drawing.writePDF(
            [
                [
                    DrawnLine("Invoice 2024-001", x: 72, y: 100, size: 20),
                    DrawnLine("Total due 118.00 EUR", x: 72, y: 200, size: 12)
                ],
                [DrawnLine("Second page", x: 100, y: 300, size: 14)]
            ], to: path)
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
        guard case .raster(let img, let dpi, _) = try doc.page(0, forceOCR: true) else { return XCTFail() }
        XCTAssertEqual(dpi, 300)
        XCTAssertEqual(img.width, Int((595 * 300 / 72.0).rounded(.up)))
    }

    func testScannedPDFPageIsRendered() throws {
        let path = dir + "/scan.pdf"
        Drawing.writePDF([[DrawnLine("Scanned words", x: 72, y: 100, size: 20)]], asImage: true, to: path)
        let doc = try InputDocument(path: path)
        guard case .raster(let img, _, _) = try doc.page(0) else {
            return XCTFail("a page without text must be rendered")
        }
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
        XCTAssertEqual(TIFFDirectoryCounter.walk([1, 2, 3]).pages, 0)
        XCTAssertEqual(TIFFDirectoryCounter.walk(Array("II*\0".utf8) + [0, 0, 0, 0]).pages, 0)
        // One directory of no entries, then the offset of the next: none (0), or past the end of a file cut short.
        let header = Array("II*\0".utf8) + [8, 0, 0, 0] + [0, 0]
        XCTAssertEqual(TIFFDirectoryCounter.walk(header + [0, 0, 0, 0]).pages, 1)
        XCTAssertFalse(TIFFDirectoryCounter.walk(header + [0, 0, 0, 0]).cutShort)
        XCTAssertTrue(
            TIFFDirectoryCounter.walk(header + [0xE8, 0x03, 0, 0]).cutShort, "the next page's directory is at 1000")
        XCTAssertTrue(TIFFDirectoryCounter.walk(header + [0xE8, 0x03]).cutShort, "the file ends inside the offset")
    }

    /// A file whose name is not UTF-8 (Latin-1 `café.png`) is opened by the name Swift shows for it, U+FFFD for the bad
    /// byte; two such files that read the same are refused by name, not confused.
    func testANameThatIsNotUTF8IsOpened() throws {
        func create(_ name: [UInt8], _ bytes: [UInt8]) {
            let path = Array(dir.utf8) + [0x2F] + name + [0]
            let fd = path.withUnsafeBufferPointer {
                $0.baseAddress!.withMemoryRebound(to: CChar.self, capacity: path.count) {
                    open($0, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
                }
            }
            _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            close(fd)
        }
        let png = Drawing.pngBytes(Drawing.tallPage(width: 200, height: 100))
        create(Array("caf".utf8) + [0xE9] + Array(".png".utf8), png)
        let shown = dir + "/caf\u{FFFD}.png"
        let doc = try InputDocument(path: shown)
        XCTAssertEqual(doc.kind, .png)
        XCTAssertEqual(doc.path, shown)
        create(Array("caf".utf8) + [0xE8] + Array(".png".utf8), png)
        assertError(shown, .unreadable)
        XCTAssertThrowsError(try InputDocument(path: shown)) { error in
            XCTAssertTrue("\(error)".contains("read the same"), "\(error)")
        }
        assertError(dir + "/gone\u{FFFD}.png", .unreadable)
    }
}

/// A JPEG's EXIF orientation: the stored picture turned and mirrored as viewers show it.
final class ExifOrientationTests: XCTestCase {
    /// A 5×3 picture of distinct gray values: any turn or mirror moves some of them.
    let upright = RasterImage(width: 5, height: 3, channels: 1, pixels: (0..<15).map { UInt8($0 * 16) })

    /// What a camera stores for `o` when the scene is `display`: each stored pixel taken from where the EXIF
    /// specification puts it on display (written out per orientation, not composed as the code is).
    func stored(_ display: RasterImage, _ o: ExifOrientation) -> RasterImage {
        let W = display.width, H = display.height
        let swaps = o.rawValue >= 5
        let (sw, sh) = swaps ? (H, W) : (W, H)
        var out = [UInt8](repeating: 0, count: sw * sh)
        for Y in 0..<H {
            for X in 0..<W {
                let (sx, sy): (Int, Int)
                switch o {
                case .normal: (sx, sy) = (X, Y)
                case .mirrored: (sx, sy) = (W - 1 - X, Y)
                case .upsideDown: (sx, sy) = (W - 1 - X, H - 1 - Y)
                case .upsideDownMirrored: (sx, sy) = (X, H - 1 - Y)
                case .transposed: (sx, sy) = (Y, X)
                case .turnedRight: (sx, sy) = (Y, W - 1 - X)
                case .transverse: (sx, sy) = (H - 1 - Y, W - 1 - X)
                case .turnedLeft: (sx, sy) = (H - 1 - Y, X)
                }
                out[sy * sw + sx] = display.pixels[Y * W + X]
            }
        }
        return RasterImage(width: sw, height: sh, channels: 1, pixels: out)
    }

    func testEveryOrientationIsShownUpright() {
        for o in ExifOrientation.allCases {
            XCTAssertEqual(o.displayed(stored(upright, o)), upright, "\(o)")
        }
    }

    /// An APP1 segment holding an EXIF TIFF structure whose first directory has the orientation tag.
    static func exifSegment(_ value: Int, bigEndian: Bool) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { bigEndian ? [UInt8(v >> 8), UInt8(v & 255)] : [UInt8(v & 255), UInt8(v >> 8)] }
        func u32(_ v: Int) -> [UInt8] { bigEndian ? u16(v >> 16) + u16(v & 0xFFFF) : u16(v & 0xFFFF) + u16(v >> 16) }
        let software = u16(0x0131) + u16(2) + u32(4) + u32(0)  // an entry before it, as cameras write
        let tiff =
            (bigEndian ? Array("MM".utf8) : Array("II".utf8)) + u16(42) + u32(8)
            + u16(2) + software + u16(0x0112) + u16(3) + u32(1) + u16(value) + u16(0) + u32(0)
        let body = Array("Exif\0\0".utf8) + tiff
        return [0xFF, 0xE1, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 255)] + body
    }

    func testAPhonesPortraitJPEGComesOutUpright() throws {
        // Upright: dark top-left corner on a white page, 120 wide and 80 high.
        let page = RasterImage(
            width: 120, height: 80, channels: 1,
            pixels: (0..<(120 * 80)).map { i in i % 120 < 30 && i / 120 < 20 ? 0 : 255 })
        for (o, big) in [
            (ExifOrientation.turnedRight, false), (.turnedLeft, true), (.upsideDown, false), (.transverse, true)
        ] {
            let jpeg = Drawing.encodedBytes(stored(page, o), format: Int32(IFF_JFIF_JPEG))
            XCTAssertEqual(ExifOrientation.of(jpeg: jpeg), nil, "Leptonica writes no orientation")
            let tagged = Array(jpeg.prefix(2)) + Self.exifSegment(o.rawValue, bigEndian: big) + jpeg.dropFirst(2)
            XCTAssertEqual(ExifOrientation.of(jpeg: tagged), o)
            let doc = try InputDocument(bytes: tagged, name: "IMG_\(o.rawValue).jpg")
            guard case .raster(let img, _, _) = try doc.page(0) else { return XCTFail("not a raster") }
            let gray = img.grayscale()
            XCTAssertEqual([gray.width, gray.height], [120, 80], "\(o)")
            XCTAssertLessThan(gray.pixels[10 * 120 + 10], 60, "\(o): the dark corner is top left")
            XCTAssertGreaterThan(gray.pixels[70 * 120 + 110], 200, "\(o): the opposite corner is white")
        }
    }

    /// Each orientation names the side of the picture as shown where the stored bottom rows end up.
    func testEveryOrientationNamesWhereTheStoredBottomIsShown() {
        let marked = RasterImage(width: 4, height: 3, channels: 1, pixels: (0..<12).map { $0 >= 8 ? 0 : 255 })
        for o in [
            ExifOrientation.normal, .mirrored, .upsideDown, .upsideDownMirrored, .transposed, .turnedRight,
            .transverse, .turnedLeft
        ] {
            let shown = o.displayed(marked)
            let w = shown.width, h = shown.height
            func dark(_ xs: Range<Int>, _ ys: Range<Int>) -> Bool {
                ys.allSatisfy { y in xs.allSatisfy { shown.pixels[y * w + $0] == 0 } }
            }
            let side =
                dark(0..<w, (h - 1)..<h)
                ? "bottom"
                : dark(0..<1, 0..<h)
                    ? "left side"
                    : dark(0..<w, 0..<1) ? "top" : dark((w - 1)..<w, 0..<h) ? "right side" : "none"
            XCTAssertEqual(o.sideShowingTheStoredBottom, side, "\(o)")
        }
    }

    /// A phone's portrait JPEG (stored on its side, orientation 6) cut short: the rows that arrived are the stored
    /// picture's top, which shows as its right side. The message counts rows as stored and says which side is lost.
    func testACutShortTurnedJPEGSaysWhichSideIsLost() throws {
        let upright = Drawing.tallPage()
        let jpeg = Drawing.encodedBytes(stored(upright, .turnedRight), format: Int32(IFF_JFIF_JPEG))
        let tagged = Array(jpeg.prefix(2)) + Self.exifSegment(6, bigEndian: false) + jpeg.dropFirst(2)
        let doc = try InputDocument(bytes: Array(tagged.prefix(tagged.count * 6 / 10)), name: "IMG_6.jpg")
        guard case .raster(let img, _, let findings) = try doc.page(0) else { return XCTFail("not a raster") }
        XCTAssertEqual([img.width, img.height], [upright.width, upright.height])
        let message = try XCTUnwrap(findings.first?.message)
        XCTAssertTrue(message.hasPrefix("the JPEG data ends after row "), message)
        XCTAssertTrue(message.contains(" of \(upright.width) as stored"), message)
        XCTAssertTrue(message.hasSuffix("; the rest is blank (the left side of the picture as shown)"), message)
        // The stored rows that arrived are the columns at the right of the picture as shown; the whole file shows
        // ink on both sides of that edge.
        let rows = try XCTUnwrap(Int(message.split(separator: " ")[6]))
        let edge = upright.width - rows
        let whole = try InputDocument(bytes: tagged, name: "IMG_6.jpg")
        guard case .raster(let full, _, _) = try whole.page(0) else { return XCTFail("not a raster") }
        func inky(_ image: RasterImage, _ columns: Range<Int>) -> Bool {
            let g = image.grayscale()
            return columns.contains { x in (0..<g.height).contains { g.pixels[$0 * g.width + x] < 100 } }
        }
        XCTAssertTrue(inky(full, 0..<edge - 16) && inky(full, edge + 16..<upright.width), "edge at \(edge)")
        XCTAssertFalse(inky(img, 0..<edge - 16), "the left side is blank")
        XCTAssertTrue(inky(img, edge + 16..<upright.width), "the right side arrived")
    }

    /// Offsets that point past the segment or the file, a wrong type, an unknown value: no orientation, no crash.
    func testAHostileExifSegmentMeansNoOrientation() {
        let soi: [UInt8] = [0xFF, 0xD8], rest: [UInt8] = [0xFF, 0xD9]
        XCTAssertNil(
            ExifOrientation.of(jpeg: soi + Self.exifSegment(9, bigEndian: false) + rest), "no such orientation")
        var wrongType = Self.exifSegment(6, bigEndian: false)
        wrongType[4 + 6 + 10 + 12 + 2] = 4  // LONG, not SHORT
        XCTAssertNil(ExifOrientation.of(jpeg: soi + wrongType + rest))
        var farIFD = Self.exifSegment(6, bigEndian: true)
        farIFD.replaceSubrange((4 + 6 + 4)..<(4 + 6 + 8), with: [0x7F, 0xFF, 0xFF, 0xF0])
        XCTAssertNil(ExifOrientation.of(jpeg: soi + farIFD + rest))
        let whole = soi + Self.exifSegment(6, bigEndian: true) + rest
        for cut in 0..<whole.count { _ = ExifOrientation.of(jpeg: Array(whole.prefix(cut))) }
        var rng = SeededRandom(seed: 14)
        for _ in 0..<2000 {
            var bytes = whole
            for _ in 0..<3 {
                bytes[Int.random(in: 2..<bytes.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
            }
            _ = ExifOrientation.of(jpeg: bytes)
        }
    }
}

/// HEIC (what phones save photos as) and AVIF files, written here from a drawn page by libheif's `heif-enc`
/// (Debian's libheif-examples, which `make deps` installs).
final class HEIFInputTests: XCTestCase {
    var dir = ""
    override func setUp() { dir = Drawing.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    /// A drawn page as PNG, and the same page encoded as HEIC or (with `-A`) AVIF, at a high quality.
    func encoded(_ name: String, avif: Bool) throws -> (png: String, heif: String) {
        let png = dir + "/\(name).png", heif = dir + "/\(name)"
        Drawing.writePNG(
            [DrawnLine("TOTAL 12.50", x: 30, y: 60, size: 28), DrawnLine("Thank you", x: 30, y: 120, size: 20)],
            width: 320, height: 180, to: png)
        XCTAssertEqual(try Drawing.writeHEIF(from: png, to: heif, avif: avif, quality: 92), 0, "heif-enc \(name)")
        return (png, heif)
    }

    func picture(_ path: String) throws -> RasterImage {
        guard case .raster(let img, _, let findings) = try InputDocument(path: path).page(0) else {
            throw ScanError(.corrupt, "not a raster")
        }
        XCTAssertEqual(findings, [], path)
        return img.grayscale()
    }

    func testHEICAndAVIFDecodeToTheirPage() throws {
        // Named as a JPEG: the content decides.
        for (name, avif) in [("page.heic", false), ("page.avif", true), ("photo.jpg", false)] {
            let (png, heif) = try encoded(name, avif: avif)
            XCTAssertEqual(try InputDocument(path: heif).kind, .heif, name)
            let want = try picture(png), got = try picture(heif)
            XCTAssertEqual([got.width, got.height], [want.width, want.height], name)
            let diff = zip(got.pixels, want.pixels).map { abs(Int($0) - Int($1)) }
            XCTAssertLessThan(
                Double(diff.reduce(0, +)) / Double(diff.count), 4, "\(name): the same page, up to coding loss")
            let textRow = got.pixels[(50 * 320)..<(51 * 320)]
            XCTAssertLessThan(textRow.min() ?? 255, 100, "\(name): the text is there")
        }
    }

    /// A 10-bit picture (as phones' HDR photos are) comes out in 8 bits, and a transparent one on white.
    func testTenBitAndTransparentHEIFAreReadAsViewersShowThem() throws {
        let width = 64, height = 32
        func dark(_ i: Int) -> Bool { (8..<24).contains(i / width) && (8..<40).contains(i % width) }
        // 16-bit gray samples, big-endian: heif-enc makes a 10-bit file of them.
        let gray16: [UInt8] = (0..<(width * height)).flatMap { i -> [UInt8] in dark(i) ? [0x0B, 0xB8] : [0xEA, 0x60] }
        // Transparent black around an opaque dark block.
        let rgba: [UInt8] = (0..<(width * height)).flatMap { i -> [UInt8] in dark(i) ? [20, 20, 20, 255] : [0, 0, 0, 0]
        }
        for (name, png) in [
            (
                "ten-bit",
                DamagedInputTests.storedPNG(
                    width: width, height: height, colorType: 0, samples: gray16,
                    bitDepth: 16)
            ),
            ("alpha", DamagedInputTests.storedPNG(width: width, height: height, colorType: 6, samples: rgba))
        ] {
            let source = dir + "/\(name).png", heif = dir + "/\(name).heic"
            FileManager.default.createFile(atPath: source, contents: Data(png))
            XCTAssertEqual(try Drawing.writeHEIF(from: source, to: heif), 0, name)
            let got = try picture(heif)
            XCTAssertEqual([got.width, got.height], [width, height], name)
            XCTAssertLessThan(got.pixels[16 * width + 20], 50, "\(name): the block is dark")
            XCTAssertGreaterThan(got.pixels[2 * width + 60], 215, "\(name): the ground is light")
        }
    }

    /// A file cut short, a container with its image box gone, and sizes over the pixel limit and over libheif's
    /// own limit each fail with what is wrong, naming the file.
    func testABrokenHEIFSaysWhatIsWrong() throws {
        let whole = try [UInt8](Data(contentsOf: URL(fileURLWithPath: try encoded("page.heic", avif: false).heif)))
        func failure(_ bytes: [UInt8], _ name: String) -> ScanError? {
            let path = dir + "/" + name
            FileManager.default.createFile(atPath: path, contents: Data(bytes))
            do { _ = try InputDocument(path: path).page(0) } catch let e as ScanError {
                XCTAssertEqual(e.file, path, name)
                return e
            } catch { XCTFail("\(name): \(error)") }
            XCTFail("\(name) was read")
            return nil
        }
        let cut = failure(Array(whole.prefix(whole.count - 100)), "cut.heic")
        XCTAssertEqual(cut?.code, .corrupt)
        XCTAssertTrue(
            cut?.reason.contains("the HEIF file cannot be read (libheif: ") ?? false, "\(String(describing: cut))")
        XCTAssertFalse(cut?.reason.contains("\n") ?? true)
        XCTAssertEqual(failure(Array(whole.prefix(40)), "header.heic")?.code, .corrupt)
        // The picture's size is in its `ispe` box: 4 bytes of version and flags, then width and height.
        func sized(_ side: UInt32) -> [UInt8] {
            var bytes = whole
            let at = (0..<(bytes.count - 4)).first { Array(bytes[$0..<($0 + 4)]) == Array("ispe".utf8) }! + 8
            for k in 0..<8 { bytes[at + k] = UInt8(truncatingIfNeeded: side >> (24 - 8 * UInt32(k % 4))) }
            return bytes
        }
        let over = failure(sized(20_000), "large.heic")
        XCTAssertEqual(over?.code, .tooLarge)
        XCTAssertTrue(over?.reason.contains("20000×20000") ?? false, "\(String(describing: over))")
        XCTAssertEqual(failure(sized(100_000), "huge.heic")?.code, .corrupt, "over libheif's own limit")
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
        let lines = (0..<12).map {
            DrawnLine("The quick brown fox jumps over the lazy dog \($0)", x: 40, y: Double(60 + 40 * $0), size: 22)
        }
        let skewed = Drawing.raster(lines, width: 900, height: 560, rotation: 3)
        let (_, angle) = Preprocessor().deskewed(skewed)
        let a = try? XCTUnwrap(angle)
        XCTAssertNotNil(a)
        XCTAssertEqual(abs(a ?? 0), 3, accuracy: 0.6)
        let straight = Drawing.raster(lines, width: 900, height: 560)
        XCTAssertNil(Preprocessor().deskewed(straight).1, "a level page is not rotated")
    }
}

final class InputFromMemoryTests: XCTestCase {
    func testBytesAreSniffedAndErrorsNameTheGivenName() throws {
        let png = Drawing.pngBytes(Drawing.tallPage(width: 200, height: 120))
        let doc = try InputDocument(bytes: png, name: "upload/scan.bin")
        XCTAssertEqual(doc.kind, .png)
        XCTAssertEqual(doc.path, "upload/scan.bin")
        guard case .raster(let img, _, let findings) = try doc.page(0) else { return XCTFail("expected pixels") }
        XCTAssertEqual([img.width, img.height], [200, 120])
        XCTAssertEqual(findings, [])

        func reason(_ bytes: [UInt8], _ name: String, limits: InputLimits = InputLimits()) -> (ScanError.Code?, String)
        {
            do {
                _ = try InputDocument(bytes: bytes, name: name, limits: limits)
                return (nil, "")
            } catch let e as ScanError {
                XCTAssertEqual(e.file, name, "the error names the input")
                return (e.code, e.reason)
            } catch { return (nil, "\(error)") }
        }
        XCTAssertEqual(reason([], "a.png").0, .empty)
        XCTAssertEqual(reason(png, "big.png", limits: InputLimits(maxFileBytes: 10)).0, .tooLarge)
        XCTAssertEqual(reason(png, "big.png", limits: InputLimits(maxPixels: 1000)).0, .tooLarge)
        XCTAssertEqual(
            reason(Array("hello, these are notes\n".utf8), "cards/x.png").1, "named .png but holds text, not an image")
        XCTAssertEqual(
            reason(Array("<!DOCTYPE html><html>".utf8), "page.pdf").1, "named .pdf but holds HTML, not a PDF")
        XCTAssertEqual(
            reason([0x50, 0x4B, 0x03, 0x04, 0x14, 0], "scan.jpg").1, "named .jpg but holds a ZIP archive, not an image")
        let (code, text) = reason([0x00, 0x01, 0x02, 0xFE], "blob")
        XCTAssertEqual(code, .unsupportedType)
        XCTAssertTrue(text.hasSuffix("it holds binary data of an unknown kind"), text)
    }
}

/// Damaged files are decoded as far as they go, as image viewers show them.
final class DamagedInputTests: XCTestCase {
    let page = Drawing.tallPage()

    func open(_ bytes: [UInt8], _ name: String) throws -> (RasterImage, [Finding]) {
        let doc = try InputDocument(bytes: bytes, name: name)
        guard case .raster(let img, _, let findings) = try doc.page(0) else {
            throw ScanError(.corrupt, "not a raster")
        }
        return (img, findings)
    }

    /// Opens a damaged file: the page keeps the picture's size, and one `page-damaged` finding starting with `prefix`
    /// says what is wrong. Returns the picture and the message.
    func openDamaged(
        _ bytes: [UInt8], _ name: String, saying prefix: String,
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> (RasterImage, String) {
        let (img, findings) = try open(bytes, name)
        XCTAssertEqual([img.width, img.height], [page.width, page.height], name, file: file, line: line)
        XCTAssertEqual(findings.map(\.code), ["page-damaged"], name, file: file, line: line)
        let message = findings.first?.message ?? ""
        XCTAssertTrue(message.hasPrefix(prefix), message, file: file, line: line)
        return (img, message)
    }

    /// Whether row `y` holds any dark (text) pixel.
    func hasInk(_ img: RasterImage, rows: Range<Int>) -> Bool {
        rows.contains { y in (0..<img.width).contains { img.pixels[(y * img.width + $0) * img.channels] < 100 } }
    }

    func testTruncatedJPEGKeepsTheRowsThatArrived() throws {
        let jpeg = Drawing.jpegBytes(page)
        let (img, findings) = try open(Array(jpeg.prefix(jpeg.count * 6 / 10)), "cut.jpg")
        XCTAssertEqual([img.width, img.height], [page.width, page.height])
        XCTAssertEqual(findings.map(\.code), ["page-damaged"])
        XCTAssertEqual(findings.first?.page, 0)
        let message = try XCTUnwrap(findings.first?.message)
        XCTAssertTrue(message.hasPrefix("the JPEG data ends after row "), message)
        XCTAssertTrue(message.hasSuffix(" of 960 (premature end of JPEG file); the rest is blank"), message)
        let row = try XCTUnwrap(Int(message.split(separator: " ")[6]))
        XCTAssertTrue((300...700).contains(row), message)
        XCTAssertTrue(hasInk(img, rows: 0..<row / 2), "the top arrived")
        XCTAssertTrue(img.pixels[(row * img.width)...].allSatisfy { $0 == 255 }, "the rest is white")
    }

    /// The index of the start-of-scan marker: the entropy-coded data follows it.
    func startOfScan(_ jpeg: [UInt8]) -> Int {
        (0..<(jpeg.count - 1)).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xDA } ?? 0
    }

    func testJPEGWithABadHuffmanCodeIsDecodedWithAWarning() throws {
        var jpeg = Drawing.jpegBytes(page)
        XCTAssertGreaterThan(startOfScan(jpeg), 0)
        // All-ones bit runs (0xFF stuffed as FF 00) are never a valid Huffman code. libjpeg
        // reports them near the end of the data; elsewhere its fast path decodes them silently.
        let start = jpeg.count - 240
        for i in stride(from: start, to: start + 40, by: 2) { jpeg[i] = 0xFF; jpeg[i + 1] = 0x00 }
        let (img, message) = try openDamaged(jpeg, "receipt.jpg", saying: "the JPEG data is corrupt from row ")
        XCTAssertTrue(message.contains("(corrupt JPEG data: bad Huffman code)"), message)
        XCTAssertTrue(hasInk(img, rows: 0..<600), "the top is intact")
    }

    func testJPEGWithAStrayMarkerInItsDataIsDecodedWithAWarning() throws {
        var jpeg = Drawing.jpegBytes(page)
        let middle = (startOfScan(jpeg) + jpeg.count) / 2
        jpeg[middle] = 0xFF
        jpeg[middle + 1] = 0xD5
        let (img, findings) = try open(jpeg, "receipt.jpg")
        XCTAssertEqual(img.height, page.height)
        let message = findings.first?.message ?? ""
        XCTAssertTrue(message.hasPrefix("the JPEG data is corrupt after row "), message)
        XCTAssertTrue(
            message.hasSuffix(" of 960 (corrupt JPEG data: premature end of data segment); the rest is blank"), message)
        XCTAssertTrue(hasInk(img, rows: 0..<200), "the top is intact")
        let row = try XCTUnwrap(Int(message.split(separator: " ")[7]))
        XCTAssertTrue(img.pixels[(row * img.width)...].allSatisfy { $0 == 255 }, "the flat gray after it is white")
    }

    func testCleanJPEGDecodesAsLeptonicaDecodesIt() throws {
        let jpeg = Drawing.jpegBytes(Drawing.raster(Drawing.receiptLines(), width: 500, height: 360))
        guard case .decoded(let ours) = TolerantDecoder.decode(jpeg, kind: .jpeg, maxPixels: .max) else {
            return XCTFail("not decoded")
        }
        XCTAssertNil(ours.problem)
        let pix = try XCTUnwrap(jpeg.withUnsafeBufferPointer { Pix.wrap(pixReadMem($0.baseAddress, $0.count)) })
        XCTAssertEqual(ours.image, pix.rasterImage())
    }

    func testTruncatedProgressiveJPEGKeepsTheWholePicture() throws {
        let jpeg = Drawing.jpegBytes(page, progressive: true)
        let (img, findings) = try open(Array(jpeg.prefix(jpeg.count * 8 / 10)), "cut.jpg")
        XCTAssertEqual(img.height, page.height)
        XCTAssertTrue(
            findings.first?.message.hasPrefix("the progressive JPEG data is cut short") ?? false, "\(findings)")
        XCTAssertTrue(hasInk(img, rows: 800..<960), "later scans only sharpen the picture")
    }

    func testTruncatedPNGKeepsTheRowsThatArrived() throws {
        let png = Drawing.pngBytes(page)
        let (img, message) = try openDamaged(
            Array(png.prefix(png.count / 2)), "cut.png", saying: "the PNG data ends after row ")
        XCTAssertTrue(message.hasSuffix(" of 960; the rest is blank"), message)
        let row = try XCTUnwrap(Int(message.split(separator: " ")[6]))
        XCTAssertTrue((200...800).contains(row), message)
        XCTAssertTrue(hasInk(img, rows: 0..<row / 2))
        XCTAssertTrue(img.pixels[(row * img.width)...].allSatisfy { $0 == 255 })
    }

    func testPNGWithCorruptCompressedDataKeepsTheRowsBefore() throws {
        var png = Drawing.pngBytes(page)
        for i in (png.count / 2)..<(png.count / 2 + 16) { png[i] ^= 0x5A }
        // With its checksums wrong, and with them made right (which only the data's own check can tell).
        for bytes in [png, Self.withChunkChecksumsRight(png)] {
            let (img, findings) = try open(bytes, "bad.png")
            XCTAssertEqual(img.height, page.height)
            let message = findings.first?.message ?? ""
            XCTAssertTrue(message.hasPrefix("the PNG data is corrupt after row "), message)
        }
    }

    /// Every PNG goes through our libpng decoding, whole or not: on whole files it gives the pixels Leptonica gives,
    /// for gray, RGB, one-bit and palette pictures.
    func testWholePNGDecodesAsLeptonicaDecodesIt() throws {
        let image = Drawing.raster(Drawing.receiptLines(), width: 500, height: 360)
        let gray = try XCTUnwrap(Self.pix(image.grayscale()))
        var oneBit = pixThresholdToBinary(gray.handle, 128), palette = pixThresholdTo4bpp(gray.handle, 16, 1)
        defer { pixDestroy(&oneBit); pixDestroy(&palette) }
        var files = [Drawing.pngBytes(image), Drawing.pngBytes(image.grayscale())]
        for pix in [oneBit, palette] {
            var data: UnsafeMutablePointer<UInt8>?, size = 0
            XCTAssertEqual(pixWriteMemPng(&data, &size, pix, 0), 0)
            files.append(Array(UnsafeBufferPointer(start: data, count: size)))
            free(data)
        }
        for (k, png) in files.enumerated() {
            let (ours, findings) = try open(png, "page.png")
            XCTAssertEqual(findings, [], "file \(k)")
            let leptonica = try XCTUnwrap(
                png.withUnsafeBufferPointer { Pix.wrap(pixReadMem($0.baseAddress, $0.count)) })
            XCTAssertEqual(ours.rgb(), try XCTUnwrap(leptonica.rasterImage()).rgb(), "file \(k)")
        }
    }

    /// Transparent pixels are laid on white, as viewers show them: an exported page often has dark text on a
    /// transparent background whose colour is black, which read as a black page with no text.
    func testTransparentPixelsAreLaidOnWhite() throws {
        // Left half transparent black, right half opaque dark gray, one column half transparent.
        let width = 40, height = 10
        func rgba(_ x: Int) -> [UInt8] { x < 20 ? [0, 0, 0, 0] : x == 20 ? [0, 0, 0, 128] : [30, 30, 30, 255] }
        let rows = (0..<height).flatMap { _ in (0..<width).flatMap(rgba) }
        let grayAlpha = (0..<height).flatMap { _ in (0..<width).flatMap { [rgba($0)[0], rgba($0)[3]] } }
        let rgb = (0..<height).flatMap { _ in (0..<width).flatMap { Array(rgba($0).prefix(3)) } }
        let files: [(String, [UInt8])] = [
            ("rgba.png", Self.storedPNG(width: width, height: height, colorType: 6, samples: rows)),
            ("gray-alpha.png", Self.storedPNG(width: width, height: height, colorType: 4, samples: grayAlpha)),
            // An RGB picture whose black is marked transparent (a tRNS chunk).
            (
                "rgb-trns.png",
                Self.storedPNG(
                    width: width, height: height, colorType: 2, samples: rgb,
                    chunks: [("tRNS", [0, 0, 0, 0, 0, 0])])
            ),
            ("rgba.webp", try Self.leptonicaRGBA(width: width, height: height, rgba, format: Int32(IFF_WEBP))),
            ("rgba.tif", try Self.leptonicaRGBA(width: width, height: height, rgba, format: Int32(IFF_TIFF_ZIP))),
            (
                "transparent.gif",
                Self.withTransparentIndex(
                    Drawing.encodedBytes(
                        RasterImage(
                            width: width, height: height, channels: 1,
                            pixels: (0..<height).flatMap { _ in (0..<width).map { $0 < 20 ? 0 : 30 } }),
                        format: Int32(IFF_GIF)), gray: 0)
            )
        ]
        for (name, bytes) in files {
            let (img, findings) = try open(bytes, name)
            XCTAssertEqual(findings, [], name)
            let gray = img.grayscale()
            XCTAssertEqual([gray.width, gray.height], [width, height], name)
            XCTAssertGreaterThan(gray.pixels[5 * width + 3], 240, "\(name): transparent is white")
            XCTAssertLessThan(gray.pixels[5 * width + 30], 60, "\(name): opaque stays dark")
            if name.hasSuffix(".png"), !name.hasPrefix("rgb-") {
                XCTAssertEqual(gray.pixels[5 * width + 20], 127, "\(name): half transparent black is mid gray")
            }
        }
    }

    /// A whole interlaced PNG is no damaged one, whatever its height: libpng's last pass hands over no row for the
    /// rows it leaves alone, and a height of one row or an odd one ends on such a row.
    func testWholeInterlacedPNGIsNotDamaged() throws {
        for (width, height) in [(7, 5), (9, 6), (3, 1), (40, 33)] {
            let samples = (0..<(width * height)).map { UInt8(truncatingIfNeeded: $0 * 37 % 251) }
            let png = Self.storedPNG(width: width, height: height, colorType: 0, samples: samples, interlaced: true)
            let (img, findings) = try open(png, "interlaced.png")
            XCTAssertEqual(findings, [], "\(width)x\(height)")
            XCTAssertEqual(img.pixels, samples, "\(width)x\(height)")
        }
    }

    /// A PNG of 8-bit samples (`colorType` 0 gray, 2 RGB, 4 gray and alpha, 6 RGBA), written here with stored
    /// (uncompressed) deflate blocks, with `chunks` before its data.
    static func storedPNG(
        width: Int, height: Int, colorType: UInt8, samples: [UInt8],
        chunks: [(String, [UInt8])] = [], interlaced: Bool = false, bitDepth: UInt8 = 8
    ) -> [UInt8] {
        func u32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (24 - 8 * $0)) } }
        func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] { u32(body.count) + Array(type.utf8) + body + u32(0) }
        let bytes = samples.count / (width * height)
        func row(_ y: Int, _ xs: StrideTo<Int>) -> [UInt8] {
            var out: [UInt8] = [0]
            for x in xs {
                let start = (y * width + x) * bytes
                out += samples[start..<(start + bytes)]
            }
            return out
        }
        // Adam7: seven passes, each the pixels from (x0, y0) every dx columns and dy rows; a pass with none is left
        // out.
        let adam7: [(Int, Int, Int, Int)] = [
            (0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2),
            (0, 1, 1, 2)
        ]
        let passes: [(Int, Int, Int, Int)] = interlaced ? adam7 : [(0, 0, 1, 1)]
        let raw = passes.flatMap { x0, y0, dx, dy -> [UInt8] in
            guard x0 < width, y0 < height else { return [] }
            return stride(from: y0, to: height, by: dy).flatMap { row($0, stride(from: x0, to: width, by: dx)) }
        }
        var zlib: [UInt8] = [0x78, 0x01]
        var start = 0
        repeat {
            let n = min(65_535, raw.count - start), last: UInt8 = start + n == raw.count ? 1 : 0
            zlib +=
                [last, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8(~n >> 8 & 0xFF)]
                + raw[start..<(start + n)]
            start += n
        } while start < raw.count
        var a = 1, b = 0
        for byte in raw { a = (a + Int(byte)) % 65_521; b = (b + a) % 65_521 }
        zlib += u32(b << 16 | a)
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png += chunk("IHDR", u32(width) + u32(height) + [bitDepth, colorType, 0, 0, interlaced ? 1 : 0])
        for (type, body) in chunks { png += chunk(type, body) }
        png += chunk("IDAT", zlib) + chunk("IEND", [])
        return withChunkChecksumsRight(png)
    }

    /// A picture with alpha (`rgba(x)` for every row) written by Leptonica in `format`.
    static func leptonicaRGBA(width: Int, height: Int, _ rgba: (Int) -> [UInt8], format: Int32) throws -> [UInt8] {
        var pix = pixCreate(Int32(width), Int32(height), 32)
        defer { pixDestroy(&pix) }
        pixSetSpp(pix, 4)
        for y in 0..<height {
            for x in 0..<width {
                let c = rgba(x).map(UInt32.init)
                pixSetPixel(pix, Int32(x), Int32(y), c[0] << 24 | c[1] << 16 | c[2] << 8 | c[3])
            }
        }
        var data: UnsafeMutablePointer<UInt8>?, size = 0
        guard pixWriteMem(&data, &size, pix, format) == 0, let data else { throw ScanError(.corrupt, "not written") }
        defer { free(data) }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }

    /// `gif` with the palette entry of `gray` marked transparent, by a graphic control block before its picture.
    static func withTransparentIndex(_ gif: [UInt8], gray: UInt8) -> [UInt8] {
        let tableSize = gif[10] & 0x80 != 0 ? 3 * (2 << Int(gif[10] & 7)) : 0
        let index = (0..<(tableSize / 3)).first { gif[13 + 3 * $0] == gray && gif[14 + 3 * $0] == gray } ?? 0
        var out = gif
        out.insert(contentsOf: [0x21, 0xF9, 4, 1, 0, 0, UInt8(index), 0], at: 13 + tableSize)
        return out
    }

    /// The pixels of `image` in a Leptonica picture.
    static func pix(_ image: RasterImage) -> ScanInput.Pix? {
        let png = Drawing.pngBytes(image)
        return png.withUnsafeBufferPointer { Pix.wrap(pixReadMem($0.baseAddress, $0.count)) }
    }

    /// `png` with every chunk's CRC-32 computed again over its type and data.
    static func withChunkChecksumsRight(_ png: [UInt8]) -> [UInt8] {
        var out = png, o = 8
        func crc(_ bytes: ArraySlice<UInt8>) -> UInt32 {
            var c: UInt32 = 0xFFFF_FFFF
            for b in bytes {
                c ^= UInt32(b)
                for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
            }
            return ~c
        }
        while o + 12 <= out.count {
            let length = out[o..<(o + 4)].reduce(0) { $0 << 8 | Int($1) }
            guard o + 12 + length <= out.count else { break }
            let c = crc(out[(o + 4)..<(o + 8 + length)])
            for k in 0..<4 { out[o + 8 + length + k] = UInt8(truncatingIfNeeded: c >> (24 - 8 * k)) }
            o += 12 + length
        }
        return out
    }

    /// Our header reading agrees with the files Leptonica writes, and a header cut short has no size.
    func testHeadersGiveTheSizeWithoutDecoding() {
        let image = Drawing.raster(Drawing.receiptLines(), width: 517, height: 363)
        let formats: [(InputKind, Int32)] = [
            (.png, Int32(IFF_PNG)), (.jpeg, Int32(IFF_JFIF_JPEG)), (.bmp, Int32(IFF_BMP)),
            (.gif, Int32(IFF_GIF)), (.webp, Int32(IFF_WEBP))
        ]
        for (kind, format) in formats {
            for img in [image, image.grayscale()] {
                let bytes = Drawing.encodedBytes(img, format: format)
                XCTAssertEqual(InputKind.sniff(bytes), kind)
                let size = ImageHeader.dimensions(bytes, kind: kind)
                XCTAssertEqual(size?.width, 517, "\(kind)")
                XCTAssertEqual(size?.height, 363, "\(kind)")
                XCTAssertNil(ImageHeader.dimensions(Array(bytes.prefix(8)), kind: kind), "\(kind)")
            }
        }
    }

    /// Whole files: our readers give the pixels Leptonica gives, so a damaged file reads as a whole one would.
    func testWholeBMPAndGIFDecodeAsLeptonicaDecodesThem() throws {
        let image = Drawing.raster(Drawing.receiptLines(), width: 500, height: 360)
        for img in [image, image.grayscale()] {
            for (format, reader) in [
                (Int32(IFF_BMP), BMPReader.decode), (Int32(IFF_GIF), GIFReader.decode),
                (Int32(IFF_WEBP), WebPReader.decode)
            ] {
                let bytes = Drawing.encodedBytes(img, format: format)
                let ours = try XCTUnwrap(reader(bytes, .max), "\(format)")
                XCTAssertNil(ours.problem)
                let pix = try XCTUnwrap(
                    bytes.withUnsafeBufferPointer { Pix.wrap(pixReadMem($0.baseAddress, $0.count)) })
                let theirs = try XCTUnwrap(pix.rasterImage())
                XCTAssertEqual(ours.image.rgb(), theirs.rgb(), "format \(format), \(img.channels) channel(s)")
            }
        }
    }

    /// BMP keeps its rows bottom up: a file cut short keeps the bottom of the picture.
    func testTruncatedBMPKeepsTheRowsThatArrived() throws {
        let bmp = Drawing.encodedBytes(page, format: Int32(IFF_BMP))
        let (img, message) = try openDamaged(
            Array(bmp.prefix(bmp.count / 2)), "cut.bmp", saying: "the BMP data ends after ")
        XCTAssertTrue(message.contains("of 960 rows"), message)
        XCTAssertTrue(hasInk(img, rows: 600..<960), "the bottom arrived")
        XCTAssertFalse(hasInk(img, rows: 0..<400), "the top is blank")
    }

    /// A gray picture as a run-length coded BMP (`bits` 8: RLE8 with 256 grays; 4: RLE4 with 16), written here: runs of
    /// three or more pixels as runs, the rest in absolute mode, one end-of-row escape a row and the end-of-picture one.
    static func runLengthBMP(_ img: RasterImage, bits: Int) -> [UInt8] {
        let levels = 1 << bits
        func index(_ v: UInt8) -> Int { bits == 8 ? Int(v) : Int(v) >> 4 }
        var data: [UInt8] = []
        for y in stride(from: img.height - 1, through: 0, by: -1) {
            let row = (0..<img.width).map { index(img.pixels[(y * img.width + $0) * img.channels]) }
            var x = 0, literal: [Int] = []
            func flushLiteral() {
                var rest = literal[...]
                while !rest.isEmpty {
                    let part = rest.prefix(255)
                    rest = rest.dropFirst(part.count)
                    if part.count < 3 {
                        for v in part { data += [1, UInt8(bits == 8 ? v : v << 4 | v)] }
                        continue
                    }
                    data += [0, UInt8(part.count)]
                    var bytes: [UInt8] = []
                    if bits == 8 {
                        bytes = part.map(UInt8.init)
                    } else {
                        let a = Array(part)
                        bytes = stride(from: 0, to: a.count, by: 2).map {
                            UInt8(a[$0] << 4 | (($0 + 1 < a.count) ? a[$0 + 1] : 0))
                        }
                    }
                    data += bytes + (bytes.count % 2 == 1 ? [0] : [])
                }
                literal = []
            }
            while x < row.count {
                var run = 1
                while x + run < row.count, run < 255, row[x + run] == row[x] { run += 1 }
                if run >= 3 {
                    flushLiteral()
                    data += [UInt8(run), UInt8(bits == 8 ? row[x] : row[x] << 4 | row[x])]
                } else {
                    literal += row[x..<(x + run)]
                }
                x += run
            }
            flushLiteral()
            data += [0, 0]
        }
        data += [0, 1]
        func le(_ v: Int, _ n: Int) -> [UInt8] { (0..<n).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        let palette = (0..<levels).flatMap { i -> [UInt8] in
            let g = UInt8(i * 255 / (levels - 1)); return [g, g, g, 0]
        }
        let offset = 14 + 40 + palette.count
        let header =
            le(40, 4) + le(img.width, 4) + le(img.height, 4) + le(1, 2) + le(bits, 2) + le(bits == 8 ? 1 : 2, 4)
            + le(data.count, 4) + le(2835, 4) + le(2835, 4) + le(levels, 4) + le(0, 4)
        return Array("BM".utf8) + le(offset + data.count, 4) + le(0, 4) + le(offset, 4) + header + palette + data
    }

    /// Leptonica reads no run-length coded BMP; ours does, whole or cut short.
    func testRunLengthCodedBMPs() throws {
        for bits in [8, 4] {
            let bmp = Self.runLengthBMP(page, bits: bits)
            let (img, findings) = try open(bmp, "rle\(bits).bmp")
            XCTAssertEqual(findings.map(\.code), [], "RLE\(bits)")
            let expected = page.pixels.map { bits == 8 ? $0 : UInt8(Int($0 >> 4) * 17) }
            XCTAssertEqual(img.grayscale().pixels, expected, "RLE\(bits)")
            let (cut, message) = try openDamaged(
                Array(bmp.prefix(bmp.count / 2)), "cut-rle\(bits).bmp",
                saying: "the run-length coded BMP data ends in row ")
            XCTAssertTrue(message.contains("of 960"), message)
            XCTAssertTrue(hasInk(cut, rows: 600..<960), "the bottom arrived")
            XCTAssertFalse(hasInk(cut, rows: 0..<400), "the top is blank")
            // A run-length coded BMP must be stored bottom up; one that says top down is refused, not read as noise.
            var topDown = bmp
            let negative = withUnsafeBytes(of: Int32(-page.height).littleEndian, Array.init)
            topDown.replaceSubrange(22..<26, with: negative)
            XCTAssertThrowsError(try open(topDown, "topdown-rle\(bits).bmp"), "RLE\(bits)") { e in
                XCTAssertEqual((e as? ScanError)?.code, .corrupt, "\(e)")
            }
        }
    }

    /// Hostile BMPs (bytes changed, cut or added in run-length and plain files, header fields among them) never trap
    /// the reader: each gives a picture within its header's size, or nothing.
    func testMangledBMPsNeverTrapTheReader() {
        let small = Drawing.raster(Drawing.receiptLines(), width: 120, height: 60).grayscale()
        let seeds = [
            Self.runLengthBMP(small, bits: 8), Self.runLengthBMP(small, bits: 4),
            Drawing.encodedBytes(small, format: Int32(IFF_BMP))
        ]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ n: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(max(1, n)))
        }
        for round in 0..<3000 {
            var d = seeds[round % seeds.count]
            for _ in 0...next(6) where d.count > 20 {
                switch next(4) {
                case 0: d[next(d.count)] = UInt8(next(256))
                case 1: d.removeLast(next(d.count - 14))
                case 2: d.insert(contentsOf: (0..<(1 + next(8))).map { _ in UInt8(next(256)) }, at: next(d.count))
                default: d[min(d.count - 1, 14 + next(40))] = UInt8(next(256))
                }
            }
            if let out = BMPReader.decode(d, maxPixels: 1 << 20) {
                XCTAssertEqual(out.image.pixels.count, out.image.width * out.image.height * out.image.channels)
                XCTAssertLessThanOrEqual(out.image.width * out.image.height, 1 << 20)
            }
        }
    }

    func testTruncatedGIFAndWebPKeepTheRowsThatArrived() throws {
        for (format, name, prefix) in [
            (Int32(IFF_GIF), "cut.gif", "the GIF data ends after "),
            (Int32(IFF_WEBP), "cut.webp", "the WebP data ends after row ")
        ] {
            let bytes = Drawing.encodedBytes(page, format: format)
            let (img, _) = try openDamaged(Array(bytes.prefix(bytes.count * 6 / 10)), name, saying: prefix)
            XCTAssertTrue(hasInk(img, rows: 0..<300), "the top arrived: \(name)")
            XCTAssertFalse(hasInk(img, rows: 900..<960), "the bottom is blank: \(name)")
        }
        let webp = Drawing.encodedBytes(page, format: Int32(IFF_WEBP))
        XCTAssertThrowsError(try open(Array(webp.prefix(40)), "head.webp")) { e in
            XCTAssertEqual((e as? ScanError)?.code, .corrupt)
            XCTAssertTrue("\(e)".contains("cut short before its first row"), "\(e)")
        }
    }

    /// A TIFF whose directory arrived but whose strips did not. Leptonica reads an RGB one through libtiff's
    /// forgiving RGBA reader, which leaves the missing strips blank: the page says so. A gray one it reads row by
    /// row and gives up: the error says why.
    func testTIFFWithItsImageDataCutShortSaysSo() throws {
        let tiff = Drawing.tiffWithDirectoryFirst(page, rgb: true)
        let (whole, clean) = try open(tiff, "whole.tif")
        XCTAssertEqual(clean, [])
        XCTAssertTrue(hasInk(whole, rows: 800..<960))
        let (img, findings) = try open(Array(tiff.prefix(tiff.count / 2)), "cut.tif")
        XCTAssertEqual(img.height, page.height)
        XCTAssertEqual(findings.map(\.code), ["page-damaged"])
        XCTAssertTrue(hasInk(img, rows: 0..<300), "the strips that arrived are kept")
        XCTAssertFalse(hasInk(img, rows: 700..<960), "the rest is blank")

        let gray = Drawing.tiffWithDirectoryFirst(page)
        XCTAssertEqual(try open(gray, "gray.tif").1, [])
        XCTAssertThrowsError(try open(Array(gray.prefix(gray.count / 2)), "cut-gray.tif")) {
            XCTAssertEqual(($0 as? ScanError)?.code, .corrupt)
            XCTAssertTrue("\($0)".contains("reaches past the end of the file"), "\($0)")
        }
        // A TIFF whose first directory would lie past its end has nothing to read, and says why.
        XCTAssertThrowsError(
            try open(Array("II*\0".utf8) + [0xE8, 0x03, 0, 0] + [UInt8](repeating: 0, count: 100), "head.tif")
        ) {
            XCTAssertTrue("\($0)".contains("cut short"), "\($0)")
        }
    }

    /// The walk finds where an uncompressed strip was cut: its whole rows that arrived are kept.
    func testTheFirstLostRowOfAnUncompressedTIFF() throws {
        let tiff = Drawing.tiffWithDirectoryFirst(page)  // 480 × 960 gray, strips of 8 rows
        XCTAssertEqual(TIFFDirectoryCounter.walk(tiff).pagesWithDataCut.count, 0)
        let dataStart = tiff.count - 480 * 960
        let cut = Array(tiff.prefix(dataStart + 480 * 100 + 17))
        XCTAssertEqual(TIFFDirectoryCounter.walk(cut).pagesWithDataCut[0], 100, "rows 0–99 arrived whole")
        var image = RasterImage(width: 2, height: 3, channels: 1, pixels: [9, 9, 9, 9, 9, 9])
        XCTAssertEqual(ImageDecoder.blankLostRows(&image, from: 1), 1)
        XCTAssertEqual(image.pixels, [9, 9, 255, 255, 255, 255])
        XCTAssertNil(ImageDecoder.blankLostRows(&image, from: 3))
    }

    func testCorruptBeyondUseStillFailsNamingTheFile() {
        let jpeg = Drawing.jpegBytes(page), png = Drawing.pngBytes(page)
        let cuts = [
            (Array(jpeg.prefix(200)), "head.jpg"), (Array(jpeg.prefix(startOfScan(jpeg) + 20)), "scan.jpg"),
            (Array(png.prefix(60)), "head.png")
        ]
        for (bytes, name) in cuts {
            XCTAssertThrowsError(try open(bytes, name)) { e in
                XCTAssertEqual((e as? ScanError)?.code, .corrupt, name)
                XCTAssertEqual((e as? ScanError)?.file, name)
            }
        }
    }
}

/// PDF/A files name an output intent (an ICC profile) in their catalog; poppler builds colour
/// transforms from it for every page it reads, so the text layer is read from a copy without it.
final class OutputIntentTests: XCTestCase {
    /// A one-page PDF written by hand (offsets counted here), whose catalog has `/OutputIntents`
    /// when `intents` is true and whose page says `text` in Helvetica.
    static func pdf(text: String, intents: Bool) -> [UInt8] {
        let catalogExtra = intents ? " /OutputIntents [5 0 R]" : ""
        let content = "BT /F1 20 Tf 72 742 Td (\(text)) Tj ET"
        let profile = String(repeating: "p", count: 128)
        let objects = [
            "<< /Type /Catalog /Pages 2 0 R\(catalogExtra) >>",
            "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 6 0 R >>",
            "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
            "<< /Type /OutputIntent /S /GTS_PDFA1 /OutputConditionIdentifier (sRGB) /DestOutputProfile 7 0 R >>",
            "<< /Length \(content.utf8.count) >>\nstream\n\(content)\nendstream",
            "<< /N 3 /Length \(profile.utf8.count) >>\nstream\n\(profile)\nendstream"
        ]
        var out = "%PDF-1.4\n"
        var offsets: [Int] = []
        for (i, body) in objects.enumerated() {
            offsets.append(out.utf8.count)
            out += "\(i + 1) 0 obj\n\(body)\nendobj\n"
        }
        let xref = out.utf8.count
        out += "xref\n0 \(objects.count + 1)\n0000000000 65535 f \n"
        for o in offsets { out += String(format: "%010d 00000 n \n", o) }
        out += "trailer\n<< /Size \(objects.count + 1) /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n"
        return Array(out.utf8)
    }

    func testOnlyTheWholeNameIsRenamedAndTheLengthKept() {
        let bytes = Array("<< /OutputIntents [5 0 R] /OutputIntentsX 1 /OutputIntents/x >>".utf8)
        let copy = PDFDocument.withoutOutputIntents(bytes)
        XCTAssertEqual(
            copy.map { String(decoding: $0, as: UTF8.self) },
            "<< /OutputIntent_ [5 0 R] /OutputIntentsX 1 /OutputIntent_/x >>")
        XCTAssertNil(PDFDocument.withoutOutputIntents(Array("<< /Type /Catalog /OutputIntentsY 1 >>".utf8)))
        XCTAssertNil(PDFDocument.withoutOutputIntents(Array("/OutputIntent".utf8)))
        XCTAssertEqual(PDFDocument.withoutOutputIntents(Array("x /OutputIntents".utf8)).map { $0.count }, 16)
    }

    func testTextLayerOfAPDFAFileIsReadWithoutItsOutputIntentAndComesOutTheSame() throws {
        let plain = try InputDocument(bytes: Self.pdf(text: "Invoice 2024-001", intents: false), name: "plain.pdf")
        let pdfa = try InputDocument(bytes: Self.pdf(text: "Invoice 2024-001", intents: true), name: "pdfa.pdf")
        XCTAssertFalse(plain.readsTextWithoutOutputIntents)
        XCTAssertTrue(pdfa.readsTextWithoutOutputIntents)
        guard case .text(let a) = try plain.page(0), case .text(let b) = try pdfa.page(0) else {
            return XCTFail("expected text layers")
        }
        XCTAssertEqual(b.observations.map(\.text), ["Invoice 2024-001"])
        XCTAssertEqual(a, b)
        // Rendering goes through the file as it is, and still gives the page.
        guard case .raster(let image, _, _) = try pdfa.page(0, forceOCR: true) else { return XCTFail() }
        XCTAssertEqual(image.width, Int((595 * 300 / 72.0).rounded(.up)))
        XCTAssertEqual(image.pixels.min(), 0)
    }
}

private extension RasterImage {
    /// Three channels whatever it had, to compare a gray picture with an RGB one of the same values.
    func rgb() -> [UInt8] {
        channels == 3 ? pixels : pixels.flatMap { [$0, $0, $0] }
    }
}
