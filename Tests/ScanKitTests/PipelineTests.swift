import Foundation
import TestSupport
import XCTest
@testable import ScanKit
@testable import ScanModel

final class PipelineTests: PipelineTestCase {

    func testSmallTextIsUpscaledAndBoxesComeBackInPagePixels() throws {
        let path = dir + "/small.png"
        // 12 px text: too small for Tesseract without upscaling.
        Drawing.writePNG(Drawing.receiptLines(scale: 0.5), width: 280, height: 190, to: path)
        let doc = try processor().process(path: path)
        let page = try XCTUnwrap(doc.pages.first)
        XCTAssertEqual(page.width, 280)
        XCTAssertEqual(page.height, 190)
        XCTAssertEqual(page.textSource, .ocr)
        let text = page.text
        XCTAssertTrue(text.contains("Croissant"), text)
        XCTAssertTrue(text.contains("6.25"), text)
        let total = try XCTUnwrap(page.observations.flatMap(\.words).first { $0.text == "TOTAL" })
        XCTAssertEqual(total.boundingBox.x, 30, accuracy: 3)
        XCTAssertEqual(total.boundingBox.maxY, 160, accuracy: 3)
        // Entities carry page and box.
        let date = try XCTUnwrap(doc.entities?.first { $0.type == .date })
        XCTAssertEqual(date.value.date, "2024-03-15")
        XCTAssertEqual(date.page, 0)
        let box = try XCTUnwrap(date.boundingBox)
        XCTAssertEqual(box.midY, 75, accuracy: 6)
    }

    func testUpsideDownPageIsTurnedUpright() throws {
        let path = dir + "/flipped.png"
        let lines = (0..<12).map {
            DrawnLine("Upside down pages are read after turning them \($0)", x: 30, y: Double(50 + 36 * $0), size: 24)
        }
        Drawing.writePNG(lines, width: 900, height: 500, rotation: 180, to: path)
        let doc = try processor().process(path: path)
        XCTAssertEqual(doc.pages[0].rotation, 180)
        XCTAssertTrue(doc.pages[0].text.contains("Upside down pages"), doc.pages[0].text)
        let off = try processor { $0.detectOrientation = false }.process(path: path)
        XCTAssertEqual(off.pages[0].rotation, 0)
    }

    /// Text-layer pages never load an engine (no model read, no ONNX session); the first page
    /// that needs OCR does.
    func testTextLayerPDFsLoadNoEngine() throws {
        let digital = dir + "/digital.pdf", scanned = dir + "/scanned.pdf"
        Drawing.writePDF([[DrawnLine("Digital page 42", x: 72, y: 100, size: 20)],
                          [DrawnLine("Second page", x: 72, y: 100, size: 20)]], to: digital)
        Drawing.writePDF([[DrawnLine("Scanned page seven", x: 72, y: 100, size: 20)]], asImage: true, to: scanned)
        let p = try processor { $0.engine = .tesseract }
        XCTAssertFalse(p.hasLoadedEngine)
        for _ in 0..<3 { XCTAssertEqual(try p.process(path: digital).pages.count, 2) }
        XCTAssertFalse(p.hasLoadedEngine, "a text layer needs no OCR engine")
        XCTAssertEqual(try p.process(path: scanned).pages[0].textSource, .ocr)
        XCTAssertTrue(p.hasLoadedEngine)
    }

    /// A page shown turned a quarter (`/Rotate 90` or `270`, as scanner apps save a sideways page) gives its text
    /// layer as shown, running down or up: it is turned upright on its coordinates, as a recognized page is, and
    /// reads as the same page unturned.
    func testATextLayerOfAPageTurnedAQuarterIsReadUpright() throws {
        let lines = ["Blue Harbor Trading Ltd", "Description  Qty  Amount", "Consulting hours  10  850.00",
                     "Travel expenses  1  120.50", "Total  970.50"]
        var texts: [Int: [String]] = [:]
        for rotate in [0, 90, 270] {
            let path = dir + "/turned-\(rotate).pdf"
            FileManager.default.createFile(
                atPath: path, contents: Data(Drawing.pdfBytes(lines: lines, rotate: rotate)))
            let doc = try processor().process(path: path)
            XCTAssertEqual(doc.pages[0].textSource, .pdfText)
            XCTAssertEqual(doc.pages[0].rotation, (360 - rotate) % 360, "\(rotate)")
            texts[rotate] = doc.pages[0].layout?.blocks.flatMap { $0.lines.map(\.text) } ?? []
        }
        XCTAssertEqual(texts[0]?.count, 5)
        XCTAssertEqual(texts[90], texts[0])
        XCTAssertEqual(texts[270], texts[0])
    }

    func testMixedPDFUsesTextLayerAndOCRPerPage() throws {
        let path = dir + "/mixed.pdf"
        Drawing.writePDF([[DrawnLine("Digital page 42", x: 72, y: 100, size: 20)]], to: dir + "/a.pdf")
        Drawing.writePDF([[DrawnLine("Digital page 42", x: 72, y: 100, size: 20)],
                          [DrawnLine("Scanned page seven", x: 72, y: 100, size: 20)]], asImage: false, to: path)
        let digital = try processor().process(path: path)
        XCTAssertEqual(digital.pages.map(\.textSource), [.pdfText, .pdfText])
        XCTAssertEqual(digital.engine.name, "pdf-text")
        let scanned = dir + "/scanned.pdf"
        Drawing.writePDF([[DrawnLine("Scanned page seven", x: 72, y: 100, size: 20)]], asImage: true, to: scanned)
        let s = try processor().process(path: scanned)
        XCTAssertEqual(s.pages[0].textSource, .ocr)
        XCTAssertEqual(s.engine.name, "tesseract")
        XCTAssertTrue(s.pages[0].text.contains("Scanned page seven"), s.pages[0].text)
        let forced = try processor { $0.forceOCR = true }.process(path: path)
        XCTAssertEqual(forced.pages.map(\.textSource), [.ocr, .ocr])
        XCTAssertTrue(forced.pages[1].text.contains("Scanned page seven"), forced.pages[1].text)
    }

    func testRegionOfInterestAndMinimumHeight() throws {
        let path = dir + "/r.png"
        Drawing.writePNG(Drawing.receiptLines(), width: 560, height: 380, to: path)
        // The right-hand column of amounts only.
        let roi = try processor { $0.regionOfInterest = RegionOfInterest(x: 400, y: 180, width: 160, height: 160) }
            .process(path: path)
        let t = roi.pages[0].text
        XCTAssertTrue(t.contains("6.25"), t)
        XCTAssertFalse(t.contains("Croissant"), t)
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(roi.pages[0].observations.first).boundingBox.x, 400)
        // A 48 px title is taller than 8% of a 380 px page; 18 px lines are not.
        let sizes = dir + "/sizes.png"
        Drawing.writePNG([DrawnLine("HEADLINE", x: 30, y: 80, size: 48, bold: true),
                          DrawnLine("small print one", x: 30, y: 200, size: 18),
                          DrawnLine("small print two", x: 30, y: 260, size: 18)], width: 560, height: 380, to: sizes)
        let all = try processor().process(path: sizes)
        XCTAssertTrue(all.pages[0].text.contains("small print"), all.pages[0].text)
        let big = try processor { $0.minimumTextHeight = 0.08 }.process(path: sizes)
        XCTAssertFalse(big.pages[0].text.contains("small"), big.pages[0].text)
        XCTAssertTrue(big.pages[0].text.contains("HEADLINE"), big.pages[0].text)
    }

    func testReimportingOurJSONSkipsRecognition() throws {
        let json = dir + "/prior.json"
        let doc = Document(source: "x.png", engine: EngineInfo(name: "other-ocr", version: "9"),
                           pages: [Page(index: 0, width: 100, height: 100, textSource: .ocr, observations: [
                               TextObservation(text: "Call +44 20 7946 0958", confidence: 0.9,
                                               boundingBox: BoundingBox(x: 0, y: 0, width: 100, height: 10))])])
        try JSONEncoder().encode(doc).write(to: URL(fileURLWithPath: json))
        let out = try processor().process(path: json)
        XCTAssertEqual(out.engine.name, "other-ocr")
        XCTAssertEqual(out.source, json)
        XCTAssertEqual(out.entities?.first { $0.type == .phone }?.value.e164, "+442079460958")
    }

    func testEmptyPageWarnsAndBadPageOfManyDoesNotSinkTheDocument() throws {
        let blank = dir + "/blank.png"
        Drawing.writePNG([], width: 300, height: 200, to: blank)
        let doc = try processor().process(path: blank)
        XCTAssertEqual(doc.pages[0].observations.count, 0)
        XCTAssertEqual(doc.warnings.map(\.code), ["no-text"])
    }

    func testBatchKeepsOrderAndReportsFailuresByFile() throws {
        var files: [String] = []
        for i in 0..<3 {
            let p = dir + "/doc\(i).pdf"
            Drawing.writePDF([[DrawnLine("Document number \(i)", x: 72, y: 100)]], to: p)
            files.append(p)
        }
        let bad = dir + "/bad.png"
        FileManager.default.createFile(atPath: bad, contents: Data("not an image".utf8))
        files.insert(bad, at: 1)
        var seen: [(Int, String, Bool)] = []
        try BatchRunner(configuration: ScanConfiguration(), jobs: 2).run(files) { i, f, r in
            if case .failure(let e) = r {
                XCTAssertEqual(e.file, bad)
                XCTAssertEqual(e.code, .unsupportedType)
            }
            seen.append((i, f, (try? r.get()) != nil))
        }
        XCTAssertEqual(seen.map(\.0), [0, 1, 2, 3])
        XCTAssertEqual(seen.map(\.1), files)
        XCTAssertEqual(seen.map(\.2), [true, false, true, true])
    }

    func testCancelledBatchStopsStartingFiles() throws {
        let p = dir + "/a.pdf"
        Drawing.writePDF([[DrawnLine("x", x: 72, y: 100)]], to: p)
        let token = CancellationToken()
        token.cancel()
        var codes: [ScanError.Code?] = []
        try BatchRunner(configuration: ScanConfiguration(), jobs: 2, cancellation: token).run([p, p]) { _, _, r in
            if case .failure(let e) = r { codes.append(e.code) } else { codes.append(nil) }
        }
        XCTAssertEqual(codes, [.cancelled, .cancelled])
    }

    func testBadCountryIsRefusedUpFront() {
        var c = ScanConfiguration()
        c.country = "USA"
        XCTAssertThrowsError(try BatchRunner(configuration: c, jobs: 1)) { e in
            XCTAssertEqual((e as? ScanError)?.code, .invalidOption)
        }
    }

    func testFolderExpansionIsRecursiveSortedAndSkipsHiddenAndOutput() throws {
        let fm = FileManager.default
        try fm.createDirectory(atPath: dir + "/in/sub", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: dir + "/in/out", withIntermediateDirectories: true)
        for f in ["in/b.pdf", "in/sub/a.pdf", "in/.hidden.pdf", "in/out/old.pdf"] {
            Drawing.writePDF([[DrawnLine("x", x: 72, y: 100)]], to: dir + "/" + f)
        }
        fm.createFile(atPath: dir + "/in/notes.txt", contents: Data("hello".utf8))
        fm.createFile(atPath: dir + "/in/README", contents: Data("hello".utf8))
        // Named as an image but holding text: kept, so that it fails with its reason.
        fm.createFile(atPath: dir + "/in/sub/x.PNG", contents: Data("hello".utf8))
        // Content decides: a PDF under any name is kept.
        try fm.copyItem(atPath: dir + "/in/b.pdf", toPath: dir + "/in/scan.dat")
        let r = InputExpansion.expand([dir + "/in"], excluding: dir + "/in/out")
        XCTAssertEqual(r.files, [dir + "/in/b.pdf", dir + "/in/scan.dat", dir + "/in/sub/a.pdf", dir + "/in/sub/x.PNG"])
        XCTAssertEqual(r.skipped, [dir + "/in/README", dir + "/in/notes.txt"])
        // A file named explicitly is always kept, even if it is bad.
        XCTAssertEqual(InputExpansion.expand([dir + "/in/notes.txt"]).files, [dir + "/in/notes.txt"])
        // The output folder reached through a link to the input folder is still the output folder.
        try fm.createSymbolicLink(atPath: dir + "/link", withDestinationPath: dir + "/in")
        let linked = InputExpansion.expand([dir + "/in"], excluding: dir + "/link/out")
        XCTAssertFalse(linked.files.contains { $0.hasSuffix("old.pdf") }, "\(linked.files)")
    }

    func testRegionParsing() {
        XCTAssertEqual(RegionOfInterest(parsing: "0.1,0.2,0.5,0.5")?.isNormalized, true)
        XCTAssertEqual(RegionOfInterest(parsing: "10,20,300,400")?.box(pageWidth: 1000, pageHeight: 1000),
                       BoundingBox(x: 10, y: 20, width: 300, height: 400))
        XCTAssertEqual(RegionOfInterest(parsing: "0,0,0.5,0.5")?.box(pageWidth: 200, pageHeight: 100),
                       BoundingBox(x: 0, y: 0, width: 100, height: 50))
        XCTAssertNil(RegionOfInterest(parsing: "1,2,3"))
        XCTAssertNil(RegionOfInterest(parsing: "1,2,0,3"))
        XCTAssertNil(RegionOfInterest(parsing: "a,b,c,d"))
    }
}
