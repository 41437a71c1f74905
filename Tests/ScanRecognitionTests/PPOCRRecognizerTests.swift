import CPoppler
import Foundation
import ScanInput
import ScanModel
import XCTest
@testable import ONNXRuntime
@testable import ScanRecognition

/// End-to-end recognition with the real PP-OCRv6 models on images the test draws
/// itself with cairo. Skipped (with the install command) when the models or the
/// runtime are not installed.
final class PPOCRRecognizerTests: XCTestCase {
    /// Black text lines on white, drawn with cairo's toy font API (DejaVu Sans).
    static func render(lines: [String], width: Int = 720, lineHeight: Int = 60, fontSize: Double = 30,
                       upsideDown: Bool = false) -> RasterImage {
        let height = lineHeight * lines.count + 40
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width), Int32(height)),
              let cr = cairo_create(surface) else { fatalError("cairo") }
        cairo_set_source_rgb(cr, 1, 1, 1)
        cairo_paint(cr)
        if upsideDown {
            cairo_translate(cr, Double(width), Double(height))
            cairo_rotate(cr, Double.pi)
        }
        cairo_set_source_rgb(cr, 0, 0, 0)
        cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(cr, fontSize)
        for (i, line) in lines.enumerated() {
            cairo_move_to(cr, 30, Double(20 + lineHeight * i) + fontSize)
            cairo_show_text(cr, line)
        }
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = cairo_image_surface_get_data(surface)!
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                // RGB24: native-endian 32-bit words 0x00RRGGBB.
                let v = data.advanced(by: y * stride + x * 4).withMemoryRebound(to: UInt32.self, capacity: 1) {
                    $0.pointee
                }
                pixels[(y * width + x) * 3] = UInt8((v >> 16) & 0xff)
                pixels[(y * width + x) * 3 + 1] = UInt8((v >> 8) & 0xff)
                pixels[(y * width + x) * 3 + 2] = UInt8(v & 0xff)
            }
        }
        cairo_destroy(cr)
        cairo_surface_destroy(surface)
        return RasterImage(width: width, height: height, channels: 3, pixels: pixels)
    }

    static let lines = ["INVOICE 2024-118", "Total due: 1,234.50 EUR", "Grüße aus Köln: ß ö ç ê £ €"]

    private func squash(_ s: String) -> String { s.filter { !$0.isWhitespace } }

    func testReadsRenderedLinesWithWordsAndBoxes() throws {
        let engine = try PPOCRRecognizer(models: ONNXTestEnvironment.models())
        let image = Self.render(lines: Self.lines)
        let obs = try engine.recognize(image)
        XCTAssertEqual(obs.count, 3, "\(obs.map(\.text))")
        XCTAssertEqual(obs.map { squash($0.text) }, Self.lines.map(squash))
        XCTAssertEqual(engine.info.name, "ppocr")

        for (o, truth) in zip(obs, Self.lines) {
            XCTAssertGreaterThan(o.confidence, 0.8)
            // Words: the line's text split at spaces, left to right, inside the line box.
            // A space between two single narrow glyphs ("ö ç") can fall inside one CTC
            // step, so only the words' letters and their order are pinned down exactly.
            XCTAssertEqual(squash(o.words.map(\.text).joined()), squash(truth))
            XCTAssertGreaterThanOrEqual(o.words.count, truth.split(separator: " ").count - 3)
            var lastX = -1.0
            for w in o.words {
                XCTAssertGreaterThan(w.boundingBox.midX, lastX)
                lastX = w.boundingBox.midX
                XCTAssertGreaterThanOrEqual(w.boundingBox.minX, o.boundingBox.minX - 0.5)
                XCTAssertLessThanOrEqual(w.boundingBox.maxX, o.boundingBox.maxX + 0.5)
            }
        }
        // Line boxes in reading order and in the image: y 20 + 60 i ... with font size 30.
        for (i, o) in obs.enumerated() {
            XCTAssertEqual(o.boundingBox.midY, Double(20 + 60 * i) + 20, accuracy: 12)
            XCTAssertGreaterThanOrEqual(o.boundingBox.minX, 0)
            XCTAssertLessThanOrEqual(o.boundingBox.maxX, Double(image.width))
        }
        // "1,234.50" sits in the middle of line 2: its box must start right of "due:".
        let due = obs[1].words[1], amount = obs[1].words[2]
        XCTAssertLessThan(due.boundingBox.maxX, amount.boundingBox.midX)
    }

    func testTurnsUpsideDownLinesAndReadsGray() throws {
        let engine = try PPOCRRecognizer(models: ONNXTestEnvironment.models(),
                                         options: RecognitionOptions(level: .accurate))
        let image = Self.render(lines: Array(Self.lines.prefix(2)), upsideDown: true).grayscale()
        let obs = try engine.recognize(image)
        // The page is upside down, so the last line comes first.
        XCTAssertEqual(obs.map { squash($0.text) }, Self.lines.prefix(2).reversed().map(squash))
    }

    func testUpsideDownPageWithMoreLinesThanTheClassifierSample() throws {
        // Eight lines, more than the six the classifier samples first: the sample finds the
        // page upside down, so the two narrower lines are classified and turned as well.
        let lines = ["Coffee 3.50", "Bagel with cream cheese 4.25", "Orange juice 2.80", "Subtotal 10.55",
                     "Tax 0.84", "Total 11.39", "Card **** 4821", "Thank you"]
        let engine = try PPOCRRecognizer(models: ONNXTestEnvironment.models())
        XCTAssertEqual(engine.settings.classifierSample, 6)
        let obs = try engine.recognize(Self.render(lines: lines, lineHeight: 50, upsideDown: true))
        XCTAssertEqual(obs.map { squash($0.text) }, lines.reversed().map(squash))
    }

    func testEveryMemoryPolicyReadsTheSame() throws {
        let models = try ONNXTestEnvironment.models()
        let image = Self.render(lines: Self.lines)
        var readings: [PPOCRRecognizer.Settings.MemoryPolicy: [String]] = [:]
        for policy in PPOCRRecognizer.Settings.MemoryPolicy.allCases {
            var settings = PPOCRRecognizer.Settings()
            settings.memory = policy
            let engine = try PPOCRRecognizer(models: models, settings: settings)
            // Twice: the second page runs on what the first left behind (arena, shrunk or trimmed).
            _ = try engine.recognize(image)
            readings[policy] = try engine.recognize(image).map(\.text)
        }
        let expected = try XCTUnwrap(readings[.trim])
        XCTAssertEqual(expected.map(squash), Self.lines.map(squash))
        for (policy, texts) in readings { XCTAssertEqual(texts, expected, "\(policy)") }
    }

    func testWithBucketsALineReadsTheSameWhateverElseThePageHolds() throws {
        // The same line image, read alone and among eight lines of other widths (two runs of
        // the recognizer's batch size, so its neighbours in a run differ): padded only to its
        // own width's bucket, it gets the same tensor and so the same reading. (Only the run's
        // batch size may differ, which moves the probabilities by float rounding, about 1e-8.)
        // Without buckets (the default), it is padded to the widest line of its run, and reads
        // differently (confidence 0.982 alone, 0.979 among the others).
        var settings = PPOCRRecognizer.Settings()
        settings.recognitionBucket = 32
        let engine = try PPOCRRecognizer(models: ONNXTestEnvironment.models(), settings: settings)
        func crop(_ text: String, width: Int) -> PPOCRRecognizer.LineCrop {
            let image = Self.render(lines: [text], width: width, lineHeight: 40)
            let w = Double(width), h = Double(image.height)
            let quad = ScanRecognition.Quad([Point2D(0, 0), Point2D(w, 0), Point2D(w, h), Point2D(0, h)])
            return PPOCRRecognizer.LineCrop(quad: quad, image: image, turned90: false, turned180: false)
        }
        let line = crop("Total due: 1,234.50 EUR", width: 460)
        let others = ["Tax 0.84", "Orange juice 2.80", "Bagel with cream cheese and a long name 4.25", "Thank you",
                      "Card **** 4821", "Subtotal 10.55", "Visit us again at example.com"]
            .enumerated().map { crop($1, width: 200 + 90 * $0) }
        let alone = try XCTUnwrap(engine.read([line]).first)
        let among = try engine.read(others.prefix(4) + [line] + others.dropFirst(4))[4]
        XCTAssertEqual(squash(alone.best.text), squash("Total due: 1,234.50 EUR"))
        XCTAssertEqual(among.best.text, alone.best.text)
        XCTAssertEqual(among.best.confidence, alone.best.confidence, accuracy: 1e-5)
        XCTAssertEqual(among.tensorWidth, alone.tensorWidth)
    }

    func testOwnSizeDetectionForTallTextAndEnlargedForSmall() throws {
        let models = try ONNXTestEnvironment.models()
        var own = PPOCRRecognizer.Settings()
        own.ownSizeMinLineHeight = 16
        var enlarged = own
        enlarged.ownSizeMinLineHeight = 0
        let ownEngine = try PPOCRRecognizer(models: models, settings: own)
        let enlargedEngine = try PPOCRRecognizer(models: models, settings: enlarged)
        // 720 x 220 with 30 px type: enlarged to 2400 x 736 by default; its own size (704 x 224)
        // sees lines about 40 px high, and reads them as well.
        let tall = Self.render(lines: Self.lines)
        XCTAssertEqual(try ownEngine.recognize(tall).map { squash($0.text) }, Self.lines.map(squash))
        // 11 px type: lines below 16 px at the page's own size, so it is detected again enlarged,
        // with the very same boxes as when it is always enlarged.
        let small = Self.render(lines: ["INVOICE 2024-118", "Total due: 1,234.50 EUR"], width: 300, lineHeight: 20,
                                fontSize: 11)
        let smallOwn = try ownEngine.recognize(small), smallEnlarged = try enlargedEngine.recognize(small)
        XCTAssertEqual(smallOwn.count, 2, "\(smallOwn.map(\.text))")
        XCTAssertEqual(smallOwn.map(\.text), smallEnlarged.map(\.text))
        XCTAssertEqual(smallOwn.map(\.boundingBox), smallEnlarged.map(\.boundingBox))
    }

    func testNonCJKRecognizerReadsLikeTheFullOne() throws {
        let models = try ONNXTestEnvironment.models()
        var slicedSettings = PPOCRRecognizer.Settings()
        slicedSettings.useNonCJKRecognizer = true
        guard models.nonCJKRecognizer != nil else {
            // `make deps` does not write the sliced model (`make noncjk-recognizer` does): asked
            // for it without it, the engine reads with the full recognizer.
            let engine = try PPOCRRecognizer(models: models, settings: slicedSettings)
            XCTAssertEqual(engine.decoder.classCount, 18710)
            XCTAssertFalse(engine.info.model?.contains("noncjk") == true, engine.info.model ?? "no model")
            XCTAssertEqual(
                try engine.recognize(Self.render(lines: Self.lines)).map { squash($0.text) }, Self.lines.map(squash))
            return
        }
        let sliced = try PPOCRRecognizer(models: models, settings: slicedSettings)
        let full = try PPOCRRecognizer(models: models)
        let chinese = try PPOCRRecognizer(models: models, options: RecognitionOptions(languages: ["eng", "chi_sim"]),
                                          settings: slicedSettings)
        XCTAssertEqual(sliced.decoder.classCount, 1750)
        XCTAssertEqual(full.decoder.classCount, 18710)
        XCTAssertEqual(chinese.decoder.classCount, 18710)
        XCTAssertTrue(sliced.info.model?.contains("noncjk") == true, sliced.info.model ?? "no model")
        let image = Self.render(lines: Self.lines)
        let a = try sliced.recognize(image), b = try full.recognize(image)
        XCTAssertEqual(a.map(\.text), b.map(\.text))
        XCTAssertEqual(a.map { squash($0.text) }, Self.lines.map(squash))
        for (x, y) in zip(a, b) { XCTAssertEqual(x.confidence, y.confidence, accuracy: 0.01) }
    }

    func testCandidatesAndCustomWords() throws {
        let engine = try PPOCRRecognizer(models: ONNXTestEnvironment.models(),
                                         options: RecognitionOptions(customWords: ["Köln"], candidateCount: 3))
        let obs = try engine.recognize(Self.render(lines: Self.lines))
        XCTAssertEqual(obs.count, 3)
        for o in obs {
            XCTAssertFalse(o.candidates.isEmpty)
            XCTAssertLessThanOrEqual(o.candidates.count, 3)
            XCTAssertEqual(o.candidates.first?.text, o.text)
            XCTAssertTrue(o.candidates.allSatisfy { (0...1).contains($0.confidence) })
            XCTAssertEqual(Set(o.candidates.map(\.text)).count, o.candidates.count, "candidates are distinct")
        }
        XCTAssertEqual(squash(obs[2].text), squash(Self.lines[2]))
    }

    func testSidewaysPagesReadBothWays() throws {
        // A card photographed turned by 90°, either way: every line is read, whichever
        // way the classifier takes the lines.
        let lines = ["Mark McDonald", "mark.mcdonald@example.com.au", "www.example.com.au", "P (02) 4842 1827"]
        let engine = try PPOCRRecognizer(models: ONNXTestEnvironment.models())
        let upright = Self.render(lines: lines, lineHeight: 44, fontSize: 24)
        for turns in [1, 3] {
            let obs = try engine.recognize(Preprocessor.rotated(upright, quarterTurns: turns))
            XCTAssertEqual(Set(obs.map { squash($0.text) }), Set(lines.map(squash)), "turned \(turns * 90)°")
        }
    }

    func testASidewaysReceiptKeepsItsShortLines() throws {
        // A receipt photographed turned by 90°: its one-word and one-digit lines lie across the
        // page's lines. The detector, trained on text that lies across, misses such short lines
        // on the page as it lies; found again on the page turned, they are read with the rest.
        // Upside down, too, every line is read.
        let lines = [
            "KOPI TIGA SAUDARA", "CV", "Jalan Merdeka 12", "1", "Nasi Goreng 25.000", "2", "Es Teh 16.000",
            "Total 41.000"
        ]
        let engine = try PPOCRRecognizer(models: ONNXTestEnvironment.models())
        let upright = Self.render(lines: lines, width: 480, lineHeight: 40, fontSize: 22)
        for turns in [1, 2, 3] {
            let obs = try engine.recognize(Preprocessor.rotated(upright, quarterTurns: turns))
            XCTAssertEqual(Set(obs.map { squash($0.text) }), Set(lines.map(squash)), "turned \(turns * 90)°")
        }
    }

    func testAPageIsSidewaysWhenMostOfItsLinesRunDownIt() {
        let down = [
            (width: 30, height: 200), (width: 28, height: 90), (width: 31, height: 160), (width: 30, height: 60)
        ]
        XCTAssertTrue(PPOCRRecognizer.isSideways(down))
        XCTAssertTrue(PPOCRRecognizer.isSideways(down + [(width: 30, height: 35)]), "a short word is neither way")
        XCTAssertFalse(
            PPOCRRecognizer.isSideways(down + [(width: 200, height: 30), (width: 180, height: 30)]),
            "four to one is needed")
        XCTAssertFalse(PPOCRRecognizer.isSideways(Array(down.prefix(3))), "three lines are too few to tell")
        XCTAssertFalse(PPOCRRecognizer.isSideways(down.map { (width: $0.height, height: $0.width) }))
    }

    func testAPageMayBeUpsideDownWhenTheClassifierTurnedAFifthOfItsLines() {
        func lines(_ turned: Int, of count: Int) -> [Bool] { (0..<count).map { $0 < turned } }
        XCTAssertTrue(
            PPOCRRecognizer.isUpsideDown(lines(5, of: 20)), "a photo upside down: the classifier sure of a quarter")
        XCTAssertTrue(PPOCRRecognizer.isUpsideDown(lines(2, of: 10)))
        XCTAssertFalse(PPOCRRecognizer.isUpsideDown(lines(1, of: 3)), "one short line turned on an upright page")
        XCTAssertFalse(PPOCRRecognizer.isUpsideDown(lines(3, of: 20)))
        XCTAssertFalse(PPOCRRecognizer.isUpsideDown(lines(0, of: 0)))
    }

    func testSecondLookAtTurnedAndDoubtfulSidewaysLines() {
        let lines: [(turned90: Bool, turned180: Bool, confidence: Double)] = [
            (false, false, 0.5),   // upright and doubtful: the classifier's call stands
            (false, true, 0.99),   // turned by the classifier: always read both ways
            (true, false, 0.95),   // sideways and sure
            (true, false, 0.6),    // sideways and doubtful
            (true, true, 0.6),
        ]
        XCTAssertEqual(PPOCRRecognizer.secondLook(lines, sidewaysDoubt: 0.9), [1, 3, 4])
        XCTAssertEqual(PPOCRRecognizer.secondLook(lines, sidewaysDoubt: 0), [1, 4])
    }

    func testBlankPageHasNoLines() throws {
        let engine = try PPOCRRecognizer(
            models: ONNXTestEnvironment.models(), options: RecognitionOptions(level: .fast))
        XCTAssertEqual(
            try engine.recognize(RasterImage(width: 300, height: 200, channels: 1, filledWith: 255)).count, 0)
        XCTAssertEqual(try engine.recognize(RasterImage(width: 2, height: 2, channels: 3, filledWith: 0)).count, 0)
    }

    func testMissingModelsSayHowToInstall() {
        let result = PPOCRModels.locate(environment: ["SCANEXTRACT_MODELS": "/nonexistent/models"], searchRoots: [])
        guard case .failure(let error) = result else { return XCTFail("found models in /nonexistent") }
        XCTAssertEqual(error.code, .engine)
        XCTAssertTrue(error.reason.contains("scripts/install-onnx.sh"))
        XCTAssertTrue(error.reason.contains("SCANEXTRACT_MODELS=/nonexistent/models"))

        let noRuntime = PPOCRModels.locate(environment: [:], searchRoots: ["/nonexistent-root"])
        guard case .failure(let e2) = noRuntime else { return XCTFail() }
        XCTAssertTrue(e2.reason.contains("make deps"))
    }

    func testMeasurementOverridesApplyOnlyToTheEnginesOwnSettings() throws {
        var picked = PPOCRRecognizer.Settings()
        picked.applyOverrides(from: ["SCANEXTRACT_PPOCR_THRESHOLD": "0.45", "SCANEXTRACT_PPOCR_GLYPH_HEIGHT": "16",
                                     "SCANEXTRACT_PPOCR_DETECTION_BUDGET": "not a number"])
        XCTAssertEqual(picked.threshold, 0.45)
        XCTAssertEqual(picked.detectionGlyphHeight, 16)
        XCTAssertEqual(picked.detectionPixelBudget, PPOCRRecognizer.Settings().detectionPixelBudget, "left out")
        var more = PPOCRRecognizer.Settings()
        more.applyOverrides(from: ["SCANEXTRACT_PPOCR_RESCUE": "0.6", "SCANEXTRACT_PPOCR_BUCKET": "32",
                                   "SCANEXTRACT_PPOCR_MIN_LINE_CONFIDENCE": "0.25"])
        XCTAssertEqual(more.rescueLevels, [0.6])
        XCTAssertEqual(more.recognitionBucket, 32)
        XCTAssertEqual(more.minLineConfidence, 0.25)
        more.applyOverrides(from: ["SCANEXTRACT_PPOCR_RESCUE": "off"])
        XCTAssertEqual(more.rescueLevels, [])

        // Settings given in code are used as they are, whatever the environment says.
        setenv("SCANEXTRACT_PPOCR_THRESHOLD", "0.45", 1)
        defer { unsetenv("SCANEXTRACT_PPOCR_THRESHOLD") }
        let models = try ONNXTestEnvironment.models()
        var given = PPOCRRecognizer.Settings()
        given.threshold = 0.35
        XCTAssertEqual(try PPOCRRecognizer(models: models, settings: given).settings.threshold, 0.35)
        XCTAssertEqual(try PPOCRRecognizer(models: models).settings.threshold, 0.45)
    }

    func testEnvironmentOverridesAreHonoured() throws {
        let models = try ONNXTestEnvironment.models()
        let dir = (models.runtimeLibrary as NSString).deletingLastPathComponent
        let found = try PPOCRModels.locate(environment: ["SCANEXTRACT_MODELS": models.modelsDirectory,
                                                         "SCANEXTRACT_ONNXRUNTIME": dir],
                                           searchRoots: []).get()
        XCTAssertEqual(found.detector, models.detector)
        XCTAssertTrue(found.runtimeLibrary.hasPrefix(dir))
        let bad = PPOCRModels.locate(environment: ["SCANEXTRACT_MODELS": models.modelsDirectory,
                                                   "SCANEXTRACT_ONNXRUNTIME": "/nonexistent/lib.so"], searchRoots: [])
        if case .success = bad { XCTFail("a missing runtime path must not be accepted") }
    }

    /// The folder the onnxruntime wheel unpacks to (`.deps/onnxruntime`, as the guides name it) holds the library in
    /// `onnxruntime/capi/`: that folder is found too.
    func testTheWheelsFolderFindsItsLibrary() throws {
        let models = try ONNXTestEnvironment.models()
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("wheel-\(UUID().uuidString)")
        let capi = root.appendingPathComponent("onnxruntime/capi")
        try FileManager.default.createDirectory(at: capi, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createSymbolicLink(
            atPath: capi.appendingPathComponent("libonnxruntime.so.1").path, withDestinationPath: models.runtimeLibrary)
        let found = try PPOCRModels.locate(
            environment: ["SCANEXTRACT_MODELS": models.modelsDirectory, "SCANEXTRACT_ONNXRUNTIME": root.path],
            searchRoots: []
        ).get()
        XCTAssertEqual(found.runtimeLibrary, capi.appendingPathComponent("libonnxruntime.so.1").path)
    }
}
