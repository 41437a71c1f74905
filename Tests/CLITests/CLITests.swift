import Foundation
import TestSupport
import XCTest

/// Runs the built `scanextract` binary as a user would.
final class CLITests: XCTestCase {
    var dir = ""
    override func setUp() { dir = Drawing.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    /// The binary sits beside the test bundle in the build folder.
    var binary: String {
        if let p = ProcessInfo.processInfo.environment["SCANEXTRACT_BIN"] { return p }
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        if url.lastPathComponent.hasSuffix(".xctest") { url = url.deletingLastPathComponent() }
        return url.appendingPathComponent("scanextract").path
    }

    struct Run { var status: Int32; var stdout: String; var stderr: String }

    /// `stdoutTo`: a file standard output goes to instead of the returned text (`/dev/full`).
    func run(_ args: [String], stdin: String? = nil, environment: [String: String] = [:], stdoutTo: FileHandle? = nil,
             in folder: String? = nil)
        throws -> Run
    {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: binary)
        p.arguments = args
        if let folder { p.currentDirectoryURL = URL(fileURLWithPath: folder) }
        if !environment.isEmpty { p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        let out = Pipe(), err = Pipe(), inp = Pipe()
        p.standardOutput = stdoutTo ?? out
        if stdoutTo != nil { try out.fileHandleForWriting.close() }
        p.standardError = err
        p.standardInput = inp
        try p.run()
        if let stdin { inp.fileHandleForWriting.write(Data(stdin.utf8)) }
        try inp.fileHandleForWriting.close()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return Run(
            status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self),
            stderr: String(decoding: e, as: UTF8.self))
    }

    func pdf(_ name: String, _ text: String) -> String {
        let p = dir + "/" + name
        Drawing.writePDF([[DrawnLine(text, x: 72, y: 100, size: 16)]], to: p)
        return p
    }

    func testOneInputPrintsOneJSONDocument() throws {
        let r = try run([pdf("a.pdf", "Call (415) 555-0100 today")])
        XCTAssertEqual(r.status, 0, r.stderr)
        let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        XCTAssertNotNil(doc["schemaVersion"])
        let pages = try XCTUnwrap(doc["pages"] as? [[String: Any]])
        XCTAssertEqual(pages.first?["textSource"] as? String, "pdf-text")
        let entities = try XCTUnwrap(doc["entities"] as? [[String: Any]])
        XCTAssertTrue(entities.contains { $0["type"] as? String == "phone" })
    }

    /// `--engine auto` where PP-OCR is not installed (a copy of the binary outside the project, whose `.deps/` it
    /// then cannot see) reads with Tesseract and says why on stderr, unless `--quiet`.
    func testAutoEngineWithoutPPOCRSaysItReadsWithTesseract() throws {
        let alone = dir + "/bin/scanextract"
        try FileManager.default.createDirectory(atPath: dir + "/bin", withIntermediateDirectories: true)
        if (try? FileManager.default.linkItem(atPath: binary, toPath: alone)) == nil {
            try FileManager.default.copyItem(atPath: binary, toPath: alone)
        }
        let env = ["SCANEXTRACT_MODELS": "", "SCANEXTRACT_ONNXRUNTIME": ""]
        func runAlone(_ args: [String]) throws -> Run {
            let p = Process(), err = Pipe()
            p.executableURL = URL(fileURLWithPath: alone)
            p.arguments = args
            p.currentDirectoryURL = URL(fileURLWithPath: dir)
            p.environment = ProcessInfo.processInfo.environment.merging(env) { $1 }
            p.standardOutput = FileHandle.nullDevice
            p.standardError = err
            try p.run()
            let e = err.fileHandleForReading.readDataToEndOfFile()
            p.waitUntilExit()
            return Run(status: p.terminationStatus, stdout: "", stderr: String(decoding: e, as: UTF8.self))
        }
        let r = try runAlone([pdf("a.pdf", "Call (415) 555-0100 today")])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(
            r.stderr.contains("note: reading with Tesseract, because PP-OCR is not installed: PP-OCR models not found"),
            r.stderr)
        XCTAssertEqual(try runAlone(["-q", pdf("b.pdf", "Hello")]).stderr, "")
        XCTAssertFalse(try runAlone(["--engine", "tesseract", pdf("c.pdf", "Hello")]).stderr.contains("note:"))
    }

    /// A path to PP-OCR's parts that the user names and that holds none is the run's error, naming the variable,
    /// even under `auto` and `--quiet`: Tesseract read quietly in its place reads cards and photos far worse. A page
    /// with a text layer needs no engine and is still read.
    func testANamedPPOCRPathThatHoldsNothingIsAnError() throws {
        let png = dir + "/total.png"
        Drawing.writePNG([DrawnLine("TOTAL 12.50", x: 20, y: 40)], width: 400, height: 300, to: png)
        let env = ["SCANEXTRACT_ONNXRUNTIME": dir + "/no-runtime"]
        let r = try run(["-q", png], environment: env)
        XCTAssertNotEqual(r.status, 0, r.stdout)
        XCTAssertTrue(r.stderr.contains("SCANEXTRACT_ONNXRUNTIME=\(dir)/no-runtime"), r.stderr)
        XCTAssertFalse(r.stderr.contains("Tesseract,"), r.stderr)
        let text = try run(["-q", pdf("a.pdf", "Call (415) 555-0100 today")], environment: env)
        XCTAssertEqual(text.status, 0, text.stderr)
    }

    func testSeveralInputsPrintJSONLinesAndABadOneFailsAlone() throws {
        let bad = dir + "/bad.pdf"
        FileManager.default.createFile(atPath: bad, contents: Data("%PDF-1.4 truncated".utf8))
        let r = try run(["--quiet", pdf("a.pdf", "First"), bad, pdf("b.pdf", "Second")])
        XCTAssertEqual(r.status, 1, "some inputs failed")
        let lines = r.stdout.split(separator: "\n")
        XCTAssertEqual(lines.count, 2)
        for l in lines { XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(l.utf8))) }
        XCTAssertTrue(r.stderr.contains(bad), r.stderr)
        XCTAssertTrue(r.stderr.contains("[corrupt]"), r.stderr)
    }

    func testADocumentThatLostPagesIsWrittenAndTheStatusSaysSo() throws {
        let whole = dir + "/whole.png"
        Drawing.writePNG([DrawnLine("TOTAL 12.50", x: 20, y: 40)], width: 400, height: 300, to: whole)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: whole))
        let cut = dir + "/cut.png"
        FileManager.default.createFile(atPath: cut, contents: bytes.prefix(bytes.count * 2 / 3))
        // Even with --quiet the damage is said, naming the file, and the status is 1; the document is written.
        let r = try run(["-q", "--engine", "tesseract", cut])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("cut.png") && r.stderr.contains("[page-damaged]"), r.stderr)
        XCTAssertTrue(r.stdout.contains("\"page-damaged\""), r.stdout)
        XCTAssertEqual(try run(["-q", "--engine", "tesseract", whole]).status, 0)
        // A page without any text is a note, not a failure.
        let blank = dir + "/blank.png"
        Drawing.writePNG([], width: 300, height: 200, to: blank)
        let empty = try run(["--engine", "tesseract", blank])
        XCTAssertEqual(empty.status, 0, empty.stderr)
        XCTAssertTrue(empty.stderr.contains("blank.png: no text was found on any page"), empty.stderr)
    }

    func testInkAndDetectReadTheirInputWithACeiling() throws {
        // A JSON Lines line past 8 MiB is refused alone, its line paired with an error; the next line is read.
        let ink = #"{"strokes": [{"points": [{"x": 10, "y": 10}, {"x": 60, "y": 40}, {"x": 110, "y": 12}]}]}"#
        let huge = "{\"strokes\": [], \"preContext\": \"" + String(repeating: "a", count: 9 << 20) + "\"}"
        let r = try run(["ink", "--jsonl"], stdin: huge + "\n" + ink + "\n")
        XCTAssertEqual(r.status, 1, r.stderr)
        let lines = r.stdout.split(separator: "\n")
        XCTAssertEqual(lines.count, 2, r.stdout)
        XCTAssertTrue(lines[0].contains("too-large") && lines[0].contains("8 MiB"), String(lines[0]))
        XCTAssertTrue(lines[1].contains("candidates"), String(lines[1]))
        XCTAssertTrue(r.stderr.contains("<stdin> line 1: larger than the limit of 8 MiB"), r.stderr)
        // A folder or a missing file says which it is.
        let folder = try run(["ink", dir])
        XCTAssertEqual(folder.status, 2)
        XCTAssertTrue(folder.stderr.contains("is a folder, not a file"), folder.stderr)
        XCTAssertTrue(try run(["ink", dir + "/none.json"]).stderr.contains("none.json: no such file"))
        let detected = try run(["detect", "--jsonl"], stdin: String(repeating: "9", count: 9 << 20) + "\n\"a@b.co\"\n")
        XCTAssertEqual(detected.status, 1, detected.stderr)
        XCTAssertTrue(detected.stdout.hasSuffix("a@b.co\"}]}\n") || detected.stdout.contains("a@b.co"), detected.stdout)
        XCTAssertTrue(detected.stderr.contains("line 1: larger than the limit of 8 MiB"), detected.stderr)
    }

    func testOutputDirWritesOneFilePerInputAndKeepsInputs() throws {
        let a = pdf("same.pdf", "One")
        try FileManager.default.createDirectory(atPath: dir + "/sub", withIntermediateDirectories: true)
        let b = dir + "/sub/same.pdf"
        try FileManager.default.copyItem(atPath: a, toPath: b)
        let out = dir + "/out"
        let r = try run(["-q", "--output-dir", out, a, b])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out).sorted(),
                       [".scanextract-manifest.jsonl", "same-2.json", "same.json"])
        // Re-running on one of our outputs (imported JSON) into the same folder never
        // overwrites that input, nor the output another input still has there (`same-2.json`, sub/same.pdf's).
        let before = try Data(contentsOf: URL(fileURLWithPath: out + "/same.json"))
        let second = try Data(contentsOf: URL(fileURLWithPath: out + "/same-2.json"))
        let again = try run(["-q", "--output-dir", out, out + "/same.json"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: out + "/same.json")), before)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: out + "/same-2.json")), second)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out).sorted(),
                       [".scanextract-manifest.jsonl", "same-2.json", "same-3.json", "same.json"])
    }

    func testFolderFileNamedAsAnImageButHoldingTextFailsWithItsReason() throws {
        let cards = dir + "/cards"
        try FileManager.default.createDirectory(atPath: cards, withIntermediateDirectories: true)
        Drawing.writePDF([[DrawnLine("Jane Doe", x: 72, y: 100, size: 16)]], to: cards + "/a.pdf")
        FileManager.default.createFile(atPath: cards + "/x.png", contents: Data("not a picture\n".utf8))
        FileManager.default.createFile(atPath: cards + "/README", contents: Data("notes\n".utf8))
        FileManager.default.createFile(atPath: cards + "/list.txt", contents: Data("notes\n".utf8))
        let r = try run(["-q", "--output-dir", dir + "/out", cards])
        XCTAssertEqual(r.status, 1, "the others are still processed: \(r.stderr)")
        XCTAssertTrue(
            r.stderr.contains(
                "scanextract: \(cards)/x.png: named .png but holds text, not an image [unsupported-type]"),
            r.stderr)
        XCTAssertTrue(r.stderr.contains("skipped 2 file(s)"), r.stderr)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: dir + "/out").sorted(),
            [".scanextract-manifest.jsonl", "a.json"])
        let verbose = try run(["-q", "-v", "--output-dir", dir + "/out", cards])
        let skipped = verbose.stderr.split(separator: "\n").filter {
            $0.hasSuffix("skipped, not an image, PDF or JSON document")
        }
        XCTAssertEqual(skipped, ["scanextract: \(cards)/README: skipped, not an image, PDF or JSON document",
                                 "scanextract: \(cards)/list.txt: skipped, not an image, PDF or JSON document"])
    }

    /// A folder given as a link to it is walked; inside a folder, hidden entries and links to folders are not, and
    /// `--verbose` names each of them with why.
    func testALinkToAFolderIsWalkedAndVerboseNamesWhatIsNot() throws {
        let fm = FileManager.default
        let docs = dir + "/docs"
        try fm.createDirectory(atPath: docs + "/.cache", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: dir + "/elsewhere", withIntermediateDirectories: true)
        Drawing.writePDF([[DrawnLine("Jane Doe", x: 72, y: 100, size: 16)]], to: docs + "/a.pdf")
        Drawing.writePDF([[DrawnLine("John Roe", x: 72, y: 100, size: 16)]], to: docs + "/.b.pdf")
        Drawing.writePDF([[DrawnLine("Hidden", x: 72, y: 100, size: 16)]], to: docs + "/.cache/c.pdf")
        Drawing.writePDF([[DrawnLine("Far away", x: 72, y: 100, size: 16)]], to: dir + "/elsewhere/d.pdf")
        try fm.createSymbolicLink(atPath: docs + "/more", withDestinationPath: dir + "/elsewhere")
        try fm.createSymbolicLink(atPath: dir + "/docs-link", withDestinationPath: docs)
        let r = try run(["-v", "--format", "text", dir + "/docs-link"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("Jane Doe"), "the link's folder is read: \(r.stdout)")
        XCTAssertFalse(r.stdout.contains("Far away") || r.stdout.contains("Hidden"), r.stdout)
        for line in ["\(dir)/docs-link/.b.pdf: skipped, hidden", "\(dir)/docs-link/.cache: skipped, hidden",
                     "\(dir)/docs-link/more: skipped, a link to a folder, not followed"] {
            XCTAssertTrue(r.stderr.contains("scanextract: " + line), "\(line) in:\n\(r.stderr)")
        }
        XCTAssertFalse(try run(["--format", "text", dir + "/docs-link"]).stderr.contains("skipped, hidden"))
    }

    /// A broken receipt model fails the receipts with a message that names the file, and only them: a card needs no
    /// receipt model and is still read, in the same run as in a run of its own.
    func testABrokenReceiptModelFailsOnlyTheReceipts() throws {
        let broken = dir + "/fields.json"
        FileManager.default.createFile(atPath: broken, contents: Data("{\"trainedOn\": ".utf8))
        let env = ["SCANEXTRACT_RECEIPT_MODEL": broken]
        let card = pdf("card.pdf", "Jane Doe")
        let alone = try run(["-q", "--type", "businessCard", card], environment: env)
        XCTAssertEqual(alone.status, 0, alone.stderr)
        XCTAssertTrue(alone.stdout.contains("\"businessCard\""), alone.stdout)

        let receipt = pdf("receipt.pdf", "TOTAL 12.50")
        let out = dir + "/out"
        let both = try run(["-q", "--type", "receipt", "--output-dir", out, receipt], environment: env)
        XCTAssertEqual(both.status, 69, "a model, like an engine's data, is missing: \(both.stderr)")
        XCTAssertTrue(both.stderr.contains("\(receipt): the receipt field model \(broken) is not valid"), both.stderr)
        XCTAssertTrue(both.stderr.contains("Check what SCANEXTRACT_RECEIPT_MODEL names [engine]"), both.stderr)
        XCTAssertFalse(both.stderr.contains("Fatal error"), both.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out + "/receipt.json"))

        // Together in one run, without --type: the card is written, the receipt fails, and the run says some failed.
        let cardLines = dir + "/card-lines.pdf"
        Drawing.writePDF(
            [
                [
                    DrawnLine("Jane Doe", x: 72, y: 100, size: 22),
                    DrawnLine("Senior Engineer", x: 72, y: 130, size: 12),
                    DrawnLine("jane.doe@example.com", x: 72, y: 150, size: 12),
                    DrawnLine("+1 415 555 0100", x: 72, y: 170, size: 12)
                ]
            ],
            to: cardLines)
        let summary = dir + "/till.pdf"
        Drawing.writePDF(
            [
                [
                    DrawnLine("CORNER CAFE", x: 72, y: 80, size: 16),
                    DrawnLine("12 Main Street", x: 72, y: 100, size: 11),
                    DrawnLine("Coffee                 3.00", x: 72, y: 140, size: 11),
                    DrawnLine("Bagel                  9.50", x: 72, y: 160, size: 11),
                    DrawnLine("TOTAL                 12.50", x: 72, y: 190, size: 11),
                    DrawnLine("CASH                  20.00", x: 72, y: 210, size: 11)
                ]
            ], to: summary)
        let mixed = try run(["-q", "--output-dir", dir + "/mixed", cardLines, summary], environment: env)
        XCTAssertEqual(mixed.status, 1, mixed.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/mixed/card-lines.json"), mixed.stderr)
        XCTAssertTrue(mixed.stderr.contains("till.pdf: the receipt field model"), mixed.stderr)

        let fixed = try run(["-q", "--type", "receipt", receipt])
        XCTAssertEqual(fixed.status, 0, fixed.stderr)
        XCTAssertTrue(fixed.stdout.contains("\"total\" : \"12.50\""), fixed.stdout)
    }

    /// A phone's HEIC photo in a folder is read like any image (encoded here by libheif's `heif-enc`).
    func testAHEICPhotoInAFolderIsRead() throws {
        let photos = dir + "/photos"
        try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
        let png = dir + "/note.png"
        Drawing.writePNG(
            [DrawnLine("Remember to water the garden", x: 20, y: 60, size: 24)], width: 520, height: 100, to: png)
        XCTAssertEqual(try Drawing.writeHEIF(from: png, to: photos + "/IMG_0001.HEIC"), 0)
        let r = try run(["-q", "--format", "text", photos])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("Remember") && r.stdout.contains("garden"), r.stdout)
    }

    func testTextFormat() throws {
        let r = try run(["--format", "text", pdf("t.pdf", "Plain words here")])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "Plain words here")
    }

    /// `flatten` never writes over the photo it reads, and over another existing file only with --force.
    func testFlattenKeepsTheUsersFiles() throws {
        let photo = dir + "/card.jpg"
        try FileManager.default.copyItem(
            atPath: GoldenTests.root.appendingPathComponent("Samples/business-card-photo.jpg").path,
            toPath: photo)
        let original = try Data(contentsOf: URL(fileURLWithPath: photo))
        for target in [photo, dir + "/./card.jpg"] {
            let r = try run(["flatten", photo, "-o", target, "--force"])
            XCTAssertEqual(r.status, 64, r.stderr)
            XCTAssertTrue(r.stderr.contains("input photo itself"), r.stderr)
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: photo)), original, "the photo is untouched")
        let page = dir + "/page.png"
        XCTAssertEqual(try run(["flatten", photo, "-o", page]).status, 0)
        let again = try run(["flatten", photo, "-o", page])
        XCTAssertEqual(again.status, 64, again.stderr)
        XCTAssertTrue(again.stderr.contains("--force"), again.stderr)
        XCTAssertEqual(try run(["flatten", photo, "-o", page, "--force"]).status, 0)
    }

    /// A file named twice is read once; a link to nothing in a folder is named, not dropped; a vCard is a card's.
    func testFolderWalkNamesBrokenLinksAndReadsAFileOnce() throws {
        let folder = dir + "/in"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let a = pdf("in/a.pdf", "Some text")
        try FileManager.default.createSymbolicLink(
            atPath: folder + "/gone.png", withDestinationPath: dir + "/nowhere.png")
        let r = try run(["--quiet", folder])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("gone.png") && r.stderr.contains("symbolic link"), r.stderr)
        let twice = try run(["--quiet", a, dir + "/in/./a.pdf"])
        // One input prints one JSON document (several print JSON lines).
        XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(twice.stdout.utf8)), twice.stdout)
        // The output folder given as the input: said so, not just "no input files".
        let same = try run(["--quiet", "-o", folder, folder])
        XCTAssertEqual(same.status, 2)
        XCTAssertTrue(same.stderr.contains("is the output folder"), same.stderr)
        // A run's CSV where no document is a receipt or a card is the receipts header alone, not an empty file.
        let letters = try run(["-q", "--format", "csv", "--type", "other", a, pdf("in/b.pdf", "More plain words")])
        XCTAssertEqual(letters.status, 0, letters.stderr)
        XCTAssertTrue(letters.stdout.hasPrefix("source,merchant_name,") && letters.stdout.hasSuffix("\r\n"), letters.stdout)
        XCTAssertEqual(letters.stdout.split(separator: "\r\n").count, 1, letters.stdout)
        let vcard = try run(["--format", "vcard", "--type", "receipt", a])
        XCTAssertEqual(vcard.status, 0, vcard.stderr)
        XCTAssertTrue(vcard.stdout.isEmpty)
        XCTAssertTrue(vcard.stderr.contains("not a business card; no vCard"), vcard.stderr)
        // Into a folder with a card, run again: the card is finished, and so is the receipt, which the first run read
        // and found no card in (the manifest says so), until its content changes: then it is read again, and the
        // summary says that nothing was written for it rather than count it written.
        let card = GoldenTests.root.appendingPathComponent("Samples/business-card.png").path
        let receipt = dir + "/receipt.png"
        try FileManager.default.copyItem(
            atPath: GoldenTests.root.appendingPathComponent("Samples/receipt.png").path, toPath: receipt)
        let first = try run(["--format", "vcard", "-o", dir + "/vcards", receipt, card])
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir + "/vcards").filter { $0.hasSuffix(".vcf") },
                       ["business-card.vcf"])
        let again = try run(["--format", "vcard", "-v", "-o", dir + "/vcards", receipt, card])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stderr.contains("2 input(s) skipped"), again.stderr)
        XCTAssertTrue(again.stderr.contains("receipt.png: already done (nothing to write), skipped"), again.stderr)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: receipt))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("changed".utf8))  // after the PNG's end: the same picture, other bytes
        try handle.close()
        let changed = try run(["--format", "vcard", "-o", dir + "/vcards", receipt, card])
        XCTAssertEqual(changed.status, 0, changed.stderr)
        XCTAssertTrue(
            changed.stderr.contains("1 input(s) skipped") && changed.stderr.contains(
                "0 written now, 1 read again with nothing to write"), changed.stderr)
    }

    func testAllInputsFailingAndUsageErrors() throws {
        let r = try run([dir + "/nothing.png"])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.contains("nothing.png"), r.stderr)
        XCTAssertTrue(r.stderr.contains("no such file"), r.stderr)
        XCTAssertEqual(try run(["--format", "xml", dir]).status, 64)
        XCTAssertEqual(try run(["--region", "1,2", dir]).status, 64)
        XCTAssertEqual(try run(["--country", "XX", dir]).status, 64)
        XCTAssertEqual(try run(["detect", "--region", "ZZ", "call 020 7946 0958"]).status, 64)
        XCTAssertEqual(try run(["--country", "Narnia", pdf("c.pdf", "x")]).status, 64)
    }

    func testHandwritingDecodesWithTheWordListAndNeedsPPOCR() throws {
        let png = dir + "/note.png"
        Drawing.writePNG(
            [DrawnLine("Remember to water the garden", x: 20, y: 60, size: 24)], width: 520, height: 100, to: png)
        // Printed words are in the word list: the word-list decoder reads them as the best path does.
        let r = try run(["--handwriting", "--engine", "ppocr", "--format", "text", png])
        XCTAssertEqual(r.status, 0, r.stderr)
        let plain = try run(["--engine", "ppocr", "--format", "text", png])
        XCTAssertEqual(r.stdout, plain.stdout)
        XCTAssertTrue(r.stdout.contains("Remember to water"), r.stdout)
        let tesseract = try run(["--handwriting", "--engine", "tesseract", png])
        XCTAssertEqual(tesseract.status, 64)
        XCTAssertTrue(tesseract.stderr.contains("--handwriting needs the ppocr engine"), tesseract.stderr)
        let hebrew = try run(["--handwriting", "--handwriting-language", "he-IL", png])
        XCTAssertEqual(hebrew.status, 64)
        XCTAssertTrue(hebrew.stderr.contains("Hebrew"), hebrew.stderr)
    }

    /// A file whose name starts with a dash (`-h.png`, as `scanextract *.png` passes it) is read as the file, not as
    /// options (`-h` printed the help and read nothing).
    func testAFileNamedLikeAnOptionIsReadAsAFile() throws {
        let name = "-h.png"
        Drawing.writePNG([DrawnLine("TOTAL 12.50", x: 20, y: 40)], width: 400, height: 80, to: dir + "/" + name)
        let r = try run(["-q", "--engine", "tesseract", name], in: dir)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("\"source\""), r.stdout)
        XCTAssertFalse(r.stdout.contains("USAGE"), r.stdout)
    }

    func testInkRenderWritesThePNGTheRecognizerSees() throws {
        let ink = dir + "/stroke.json"
        try #"{"strokes": [{"points": [{"x": 10, "y": 10}, {"x": 60, "y": 40}, {"x": 110, "y": 12}]}]}"#
            .write(toFile: ink, atomically: true, encoding: .utf8)
        let png = dir + "/stroke.png"
        let r = try run(["ink", "--render", ink, "-o", png])
        XCTAssertEqual(r.status, 0, r.stderr)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: png)))
        XCTAssertEqual(Array(bytes.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        // 48 rows high, as the line recognizer reads (the IHDR height, big-endian).
        XCTAssertEqual(bytes[20...23].reduce(0) { $0 << 8 | Int($1) }, 48)
        // The PNG is there now: it is replaced only with --force, and an input never.
        let again = try run(["ink", "--render", ink, "-o", png])
        XCTAssertEqual(again.status, 64)
        XCTAssertTrue(again.stderr.contains("exists; give --force"), again.stderr)
        XCTAssertEqual(try run(["ink", "--render", "--force", ink, "-o", png]).status, 0)
        let onItself = try run(["ink", "--render", "--force", ink, "-o", ink])
        XCTAssertEqual(onItself.status, 64)
        XCTAssertTrue(try String(contentsOfFile: ink, encoding: .utf8).contains("strokes"), "the ink is kept")
    }

    func testInkReadsUNIPENSegmentsAsResultLines() throws {
        // Two WORD segments (a stroke each, a pen-up between), y growing upwards as UNIPEN's does.
        let unipen = dir + "/two.unipen"
        try """
        .VERSION 1.0
        .COORD X Y
        .PEN_DOWN
        0 0
        50 0
        100 0
        .PEN_UP
        100 0
        .PEN_DOWN
        0 100
        0 50
        0 0
        .SEGMENT WORD 0 OK "across"
        .SEGMENT WORD 7 OK "lost"
        .SEGMENT WORD 2 OK "down"

        """.write(toFile: unipen, atomically: true, encoding: .utf8)
        let r = try run(["ink", "--shapes", unipen])
        XCTAssertEqual(r.status, 1, r.stderr)  // some inputs failed
        // One line a segment, in the file's order, each naming its file and segment; the one that names a stroke the
        // file lacks is an error line in its place.
        let lines = r.stdout.split(separator: "\n")
        XCTAssertEqual(lines.count, 3, r.stdout)
        struct Line: Decodable {
            struct Shape: Decodable { var shape: String }
            struct Source: Decodable { var file: String; var segment: Int?; var label: String? }
            struct Failure: Decodable { var code: String }
            var shapes: [Shape]?
            var error: Failure?
            var source: Source?
        }
        let decoded = try lines.map { try JSONDecoder().decode(Line.self, from: Data($0.utf8)) }
        XCTAssertEqual(decoded.map { $0.source?.file }, [unipen, unipen, unipen])
        XCTAssertEqual(decoded.map { $0.source?.segment }, [1, 2, 3])
        XCTAssertEqual(decoded.map { $0.source?.label }, ["across", "lost", "down"])
        XCTAssertEqual(decoded.map { $0.shapes?.first?.shape }, ["line", nil, "line"])
        XCTAssertNotNil(decoded[1].error, r.stdout)
        XCTAssertTrue(r.stderr.contains("segment 2 (lost)"), r.stderr)
        let bad = dir + "/bad.unipen"
        try ".COORD X Y\n.PEN_DOWN\n1 2\n.SEGMENT WORD 0-4 OK \"x\"\n".write(
            toFile: bad, atomically: true, encoding: .utf8)
        let failed = try run(["ink", "--shapes", bad])
        XCTAssertNotEqual(failed.status, 0)
        XCTAssertTrue(failed.stderr.contains("bad.unipen") && failed.stderr.contains("component 4"), failed.stderr)
    }

    func testModelsInstallIntoTheProjectFolderAndRemove() throws {
        // A real fetch from the Debian registry that `make deps` uses, into a folder of our own.
        let env = ["SCANEXTRACT_MODEL_FOLDER": dir + "/models"]
        let installed = try run(["models", "install", "ink-en-GB"], environment: env)
        XCTAssertEqual(installed.status, 0, installed.stderr)
        let file = dir + "/models/dict/british-english"
        let words = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n")
        XCTAssertGreaterThan(words.count, 50_000)
        XCTAssertTrue(words.contains("colour"))
        let list = try run(["models", "list"], environment: env)
        XCTAssertTrue(list.stdout.contains("ink-en-GB\tinstalled\t\(file)"), list.stdout)
        XCTAssertEqual(try run(["models", "remove", "ink-en-GB"], environment: env).status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: file))
        let again = try run(["models", "remove", "ink-en-GB"], environment: env)
        XCTAssertEqual(again.status, 64)
        XCTAssertTrue(again.stderr.contains("not installed"), again.stderr)
        let unknown = try run(["models", "install", "ink-xx-YY"], environment: env)
        XCTAssertEqual(unknown.status, 64)
        XCTAssertTrue(unknown.stderr.contains("unknown model ink-xx-YY"), unknown.stderr)
    }

    func testInkWithAWordListThatIsNotInstalledIsStatus69() throws {
        // A language whose list is neither in the (empty) model folder nor in /usr/share/dict.
        let lists = ["de-DE": "ngerman", "fr-FR": "french", "it-IT": "italian", "es-ES": "spanish"]
        guard let language = lists.keys.sorted().first(where: {
            !FileManager.default.fileExists(atPath: "/usr/share/dict/" + lists[$0]!)
        }) else { throw XCTSkip("every word list is installed on this machine (make deps installs none of these)") }
        let ink = #"{"strokes": [{"points": [{"x": 10, "y": 10}, {"x": 60, "y": 40}]}], "language": "\#(language)"}"#
        let r = try run(["ink"], stdin: ink, environment: ["SCANEXTRACT_MODEL_FOLDER": dir + "/no-models"])
        XCTAssertEqual(r.status, 69, r.stderr)
        XCTAssertTrue(r.stderr.contains("is not installed"), r.stderr)
    }

    func testDetectSubcommand() throws {
        let r = try run(["detect", "--region", "GB", "Ring 020 7946 0958"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("+442079460958"), r.stdout)
        let lines = try run(["detect", "--jsonl"], stdin: "{\"text\": \"mail me: A@Example.com\"}\n\"nothing here\"\n")
        XCTAssertEqual(lines.stdout.split(separator: "\n").count, 2)
        XCTAssertTrue(lines.stdout.contains("a@example.com"), lines.stdout)
        // A blank line gets its empty line of output, so the lines stay paired with the input's.
        let blank = try run(["detect", "--jsonl"], stdin: "\"a@b.co\"\n\n   \n\"c@d.co\"\n")
        XCTAssertEqual(blank.status, 0, blank.stderr)
        let answers = blank.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        XCTAssertEqual(answers.count, 4, blank.stdout)
        XCTAssertEqual(answers[1], "{\"entities\":[]}")
        XCTAssertTrue(answers[3].contains("c@d.co"), blank.stdout)
        // `--types` takes one value, so the text after it is still the text.
        let typed = try run(["detect", "--types", "date", "Call 020 7946 0958 on 3 May 2021"])
        XCTAssertEqual(typed.status, 0, typed.stderr)
        XCTAssertTrue(typed.stdout.contains("2021-05-03") && !typed.stdout.contains("phone"), typed.stdout)
        let two = try run([
            "detect", "--types", "date", "--types", "phone", "--region", "GB", "Call 020 7946 0958 on 3 May 2021"
        ])
        XCTAssertTrue(two.stdout.contains("2021-05-03") && two.stdout.contains("+442079460958"), two.stdout)
    }

    /// Standard output that takes nothing more (a full disk) is status 73 with the reason, not a crash.
    func testAFullStandardOutputIsStatus73() throws {
        let full = try XCTUnwrap(FileHandle(forWritingAtPath: "/dev/full"), "this test needs Linux's /dev/full")
        defer { try? full.close() }
        let found = try run(["detect", "x@y.com"], stdoutTo: full)
        XCTAssertEqual(found.status, 73, found.stderr)
        XCTAssertTrue(found.stderr.contains("standard output: cannot be written: No space left on device"), found.stderr)
        let scanned = try run(["-q", pdf("full.pdf", "Call (415) 555-0100 today")], stdoutTo: full)
        XCTAssertEqual(scanned.status, 73, scanned.stderr)
        XCTAssertTrue(scanned.stderr.contains("standard output"), scanned.stderr)
        XCTAssertFalse(scanned.stderr.contains("Fatal error"), scanned.stderr)
    }

    func testCtrlCKeepsFinishedOutputsAndLeavesNoPartialFile() throws {
        // Scanned pages need OCR, so the run lasts long enough to interrupt.
        for i in 0..<8 {
            Drawing.writePDF([[DrawnLine("Scanned page number \(i) with some words", x: 72, y: 100, size: 14)]],
                             asImage: true, to: dir + "/scan\(i).pdf")
        }
        let out = dir + "/out"
        let p = Process()
        p.executableURL = URL(fileURLWithPath: binary)
        p.arguments = ["-q", "-j", "1", "--output-dir", out, dir]
        p.standardError = Pipe()
        try p.run()
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline
            && ((try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []).filter({ $0.hasSuffix(".json") })
                .isEmpty
        {
            usleep(50_000)
        }
        p.interrupt()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 130)
        // Besides the outputs, the folder's manifest of finished inputs (for a resumed run).
        let files = try FileManager.default.contentsOfDirectory(atPath: out).filter {
            $0 != ".scanextract-manifest.jsonl"
        }
        XCTAssertFalse(files.isEmpty)
        XCTAssertLessThan(files.count, 8, "stopped early")
        for f in files {
            XCTAssertTrue(f.hasSuffix(".json") && !f.hasPrefix("."), "no temporary file left: \(f)")
            XCTAssertNoThrow(
                try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/" + f))))
        }
    }

    func testModelsListsTesseract() throws {
        let r = try run(["models"])
        XCTAssertEqual(r.status, 0)
        XCTAssertTrue(r.stdout.contains("tesseract"), r.stdout)
        XCTAssertTrue(r.stdout.contains("eng"), r.stdout)
    }
}

/// The OpenAPI document the service serves is valid OpenAPI 3.1 (checked by the
/// openapi-spec-validator package that `make deps` installs).
final class OpenAPIDocumentTests: XCTestCase {
    func testOpenAPIDocumentIsValid() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", "-c", """
            import sys
            from openapi_spec_validator import validate
            from openapi_spec_validator.readers import read_from_filename
            validate(read_from_filename(sys.argv[1])[0])
            """, root.appendingPathComponent("Schemas/openapi.yaml").path]
        let err = Pipe()
        p.standardError = err
        try p.run()
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, String(message.suffix(1500)))
    }
}
