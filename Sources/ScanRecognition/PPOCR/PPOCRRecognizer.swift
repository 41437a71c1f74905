import Foundation
import ONNXRuntime
import ScanModel

/// The PP-OCRv6 engine: DB text detection, a 0/180° line classifier and CTC line
/// recognition, each an ONNX model run by ONNX Runtime; all pre- and
/// post-processing is in Swift.
///
/// Sessions are created once in `init` and reused for every page. An instance is
/// not thread-safe: give every worker its own (they can share one `ONNXRuntime`).
public final class PPOCRRecognizer: TextRecognizer, LineDecoding {
    public let info: EngineInfo
    public let options: RecognitionOptions
    public let models: PPOCRModels

    /// Tunables, with RapidOCR 3.10's defaults for PP-OCRv6.
    public struct Settings: Sendable, Hashable {
        /// The detector's input has its short side scaled up to at least this.
        public var detectionShortSide: Int = 736
        /// Pages are first scaled down so that their long side is at most this. The detector
        /// costs in proportion to its input's pixels, but a cap of 1280 (a 1080 x 1527 receipt
        /// scan detected at 896 x 1280, -30% detector CPU) cost receipt fields on sroie-dev
        /// (0.852 -> 0.840, company 0.910 -> 0.870) though char3-F1 rose (0.939 -> 0.940).
        public var maxLongSide: Int = 2000
        /// Pages that `detectionShortSide` would enlarge are first detected at their own size
        /// (the long side still capped), and that detection is kept when the median detected
        /// line box is at least this many pixels high: enlarging tall text only costs detector
        /// CPU. Pages with smaller text are detected again at the enlarged size. 0: always
        /// detect at the enlarged size (RapidOCR's rule). Off: at 16 it read sroie-dev as well
        /// (char3-F1 0.939, fields the same) but saved only 7% of its detector pixels (21 of 100
        /// pages are enlarged), and it cost receipt photos fields (0.859 -> 0.828): on 348 x 348
        /// photos the own-size pass finds only the larger lines, whose median passes the test
        /// (Benchmarks/RESULTS.md, branch speed4).
        public var ownSizeMinLineHeight: Double = 0
        /// The detector's input is made smaller than `detectionSize` says when the page's
        /// characters (`GlyphHeight`, measured on the page's pixels before detection) would
        /// still be at least this many pixels high in it; never larger. 0: off. Off: at 12 it
        /// read sroie-dev as well (char3-F1 0.940) for about 30% less CPU, but cost receipt
        /// photos (fields 0.921 -> 0.890, items F1 0.886 -> 0.862); at 20 the photos were
        /// unchanged and sroie gained little (Benchmarks/RESULTS.md, nineteenth session).
        /// `SCANEXTRACT_PPOCR_GLYPH_HEIGHT` overrides it, for measurements.
        public var detectionGlyphHeight: Double = 0
        /// The text map's level above which a pixel is text. `SCANEXTRACT_PPOCR_THRESHOLD`
        /// overrides it, for measurements.
        public var threshold: Float = 0.3
        public var boxThreshold: Double = 0.5
        /// The higher levels a region that fails `boxThreshold` is cut again at, to find a line
        /// joined to fainter ink (`DBPostProcessor.rescued`); empty: never.
        /// `SCANEXTRACT_PPOCR_RESCUE` (levels joined by commas, or `off`) overrides it, for measurements.
        public var rescueLevels: [Float] = [0.5, 0.7]
        public var unclipRatio: Double = 1.6
        /// Lines read with a lower mean character probability are dropped.
        /// `SCANEXTRACT_PPOCR_MIN_LINE_CONFIDENCE` overrides it, for measurements.
        public var minLineConfidence: Double = 0.5
        /// A line of a sideways page, or of one that may be upside down (`isUpsideDown`), read
        /// with less confidence than this is read turned by 180° as well, and the surer reading is kept.
        public var sidewaysDoubt: Double = 0.9
        /// A line is turned when the classifier says 180° with more than this.
        public var classifierThreshold: Float = 0.9
        public var useClassifier: Bool = true
        /// The classifier first looks at this many of the page's widest lines; when it
        /// turns none of them the page is upright and the other lines are read as they
        /// lie (0: every line is classified).
        public var classifierSample: Int = 6
        /// How the model runs hold memory between pages (see `MemoryPolicy`). On 40 sroie-dev
        /// receipts with two workers (Benchmarks/RESULTS.md): `trim` 3.28 CPU-s/page and 990 MiB
        /// peak, `arenaPerSession` 2.38 s and 1442 MiB, `sharedArena` 2.43 s and 1255 MiB,
        /// `sharedArenaShrunk` 2.52 s and 1044 MiB, `arenaExceptDetector` 3.06 s and 1564 MiB;
        /// the same text from all.
        public var memory: MemoryPolicy = .sharedArenaShrunk
        /// Detector input pixels that the process's workers may detect at the same moment
        /// (0: no limit). A detection waits until its input fits beside the ones running, so
        /// two large pages are detected one after the other while small ones still run side by
        /// side; a page larger than the budget is detected alone. The detector's activations
        /// grow with its input, and were what drove a folder run's peak memory
        /// (Benchmarks/RESULTS.md, branch mem5). `SCANEXTRACT_PPOCR_DETECTION_BUDGET` (pixels)
        /// overrides it, for measurements.
        public var detectionPixelBudget: Int = 3_000_000
        /// The recognizer with an output layer for the scripts below the East Asian blocks
        /// (`PPOCRModels.nonCJKRecognizer`) when the languages need no Chinese, Japanese
        /// or Korean and that model is installed. Off by default: it cut recognition CPU by
        /// about 18% and read sroie-dev as well, but cost one card field (a logo read as "a"
        /// instead of "口", which the scorer drops: cards-dev 0.982 -> 0.979).
        public var useNonCJKRecognizer: Bool = false
        /// A space is put back between two characters where the best path dropped it, when the
        /// space class reached `droppedSpaceThreshold` between them and the second starts at least
        /// `droppedSpacePitchRatio` character pitches after the first (`CTCDecoder.withDroppedSpaces`;
        /// a threshold of 0: never). Chosen on the even-numbered receipts of `sroie-dev`'s annotated
        /// lines, checked on the odd-numbered ones (Benchmarks/RESULTS.md, fourteenth session).
        /// `SCANEXTRACT_PPOCR_SPACE_THRESHOLD` overrides the threshold, for measurements.
        public var droppedSpaceThreshold: Float = 0.05
        public var droppedSpacePitchRatio: Double = 1.25
        /// Lines per recognizer run (lines of one padded width; without buckets, sorted by width).
        public var recognitionBatch: Int = 6
        /// Batches are at least this many line heights wide. RapidOCR pads every batch
        /// to 320 px (6.67); padding only to the widest line of the batch reads the same
        /// (sroie-dev, 30 receipts: 0.917 against 0.918 char-trigram F1) with a third
        /// less recognizer time.
        public var minRecognitionRatio: Double = 1
        /// When above 0, each line is padded to its own width rounded up to a multiple of this
        /// many pixels (at the recognizer's 48 px height), and only lines of the same padded width
        /// share a run, so that a line reads the same whatever other lines the page has. When 0,
        /// width-sorted runs are padded to their widest line, and a line found or lost elsewhere on
        /// the page can change how its neighbours in the run read. That makes a change to detection
        /// hard to measure, so measurements of one set this (`SCANEXTRACT_PPOCR_BUCKET=32`). It stays
        /// 0 by default: 32 read a little worse (sroie-dev char3-F1 0.9429 -> 0.9423, the drawn
        /// receipt photos' fields 0.949 -> 0.944, 96 0.942) in the same time (Benchmarks/RESULTS.md).
        public var recognitionBucket: Int = 0
        /// Line images are resized to the recognizer's height and to this fraction of the width
        /// that keeps their proportions (1: as they are). The recognizer's cost is in proportion
        /// to the width. Stays 1: 0.8 cost accuracy on 30 sroie-dev receipts (char3-F1 0.918 ->
        /// 0.917, fields 0.767 -> 0.758).
        public var recognitionWidthScale: Double = 1
        public var classifierBatch: Int = 6
        /// Log-probability bonus per custom word found in a reading.
        public var customWordBonus: Double = 3.0
        public var beamWidth: Int = 8

        public init() {}

        /// How the engine's model runs hold memory between pages: the choice between page
        /// faults (memory handed back and taken again every page) and memory held.
        public enum MemoryPolicy: String, Sendable, Hashable, CaseIterable {
            /// No ONNX Runtime arena, and the freed C heap trimmed after every page.
            case trim
            /// An arena per model session, grown by powers of two and kept (ONNX Runtime's default).
            case arenaPerSession
            /// One arena for every session of the process, grown by what is asked and kept.
            case sharedArena
            /// `sharedArena`, with its wholly free regions handed back after each detection.
            case sharedArenaShrunk
            /// Arenas for the classifier and the recognizer; none for the detector, whose few
            /// large tensors go to and from the system with each page.
            case arenaExceptDetector
        }

        /// Applies the `SCANEXTRACT_PPOCR_*` variables of `environment` that set a tunable, for
        /// measurements (each is named at its setting). Values that do not parse are left out.
        /// The engine applies them only to the settings it picks itself (`init`'s `settings` nil).
        public mutating func applyOverrides(from environment: [String: String]) {
            if let pixels = environment["SCANEXTRACT_PPOCR_DETECTION_BUDGET"].flatMap(Int.init), pixels >= 0 {
                detectionPixelBudget = pixels
            }
            if let level = environment["SCANEXTRACT_PPOCR_THRESHOLD"].flatMap(Float.init), level > 0, level < 1 {
                threshold = level
            }
            if let height = environment["SCANEXTRACT_PPOCR_GLYPH_HEIGHT"].flatMap(Double.init), height >= 0 {
                detectionGlyphHeight = height
            }
            if let level = environment["SCANEXTRACT_PPOCR_SPACE_THRESHOLD"].flatMap(Float.init) {
                droppedSpaceThreshold = level
            }
            if let levels = environment["SCANEXTRACT_PPOCR_RESCUE"] {
                rescueLevels = levels == "off" ? [] : levels.split(separator: ",").compactMap { Float(String($0)) }
            }
            if let pixels = environment["SCANEXTRACT_PPOCR_BUCKET"].flatMap(Int.init), pixels >= 0 {
                recognitionBucket = pixels
            }
            if let level = environment["SCANEXTRACT_PPOCR_MIN_LINE_CONFIDENCE"].flatMap(Double.init), level >= 0,
                level <= 1
            {
                minLineConfidence = level
            }
        }

        /// The settings for a recognition level: `fast` skips the orientation
        /// classifier and detects on a smaller image.
        public static func forLevel(_ level: RecognitionLevel) -> Settings {
            var s = Settings()
            if level == .fast {
                s.useClassifier = false
                s.detectionShortSide = 640
            }
            return s
        }
    }
    public let settings: Settings

    let runtime: ONNXRuntime
    let detector: ONNXSession
    let recognizer: ONNXSession
    let classifier: ONNXSession?
    let decoder: CTCDecoder
    let postProcessor: DBPostProcessor
    let lexicon: CTCDecoder.Lexicon?
    /// Shared by every instance of the process with the same budget (`Settings.detectionPixelBudget`).
    let detectionBudget: MemoryBudget?
    /// Reads each line's words again from its probabilities (a word list for handwriting);
    /// nil: the best path (or the beam) stands.
    public var lineDecoder: (any LineDecoder)?
    /// Reads the doubtful words of each line again (word lists for print) when no `lineDecoder` is set.
    public var wordCorrector: (any WordCorrector)?
    /// The lines of the page read last (each emitted observation's box with its upright crop),
    /// for `reread(linesAt:)`; replaced at every page. A few megabytes: the crops are
    /// line-sized, and the page's own image is not kept.
    private var lastLines: [BoundingBox: (crop: LineCrop, tensorWidth: Int)] = [:]
    /// Whether the page's line crops are kept for `reread(linesAt:)`; off, it has nothing to
    /// read again. Only handwriting `auto` re-reads (`RecognizerFactory`).
    public var keepsLinesForRereading = true
    /// Class index of each character of the dictionary, for the line decoder's words.
    private lazy var classIndex: [String: Int] = {
        var index: [String: Int] = [:]
        for (k, c) in decoder.characters.enumerated() where k > 0 && index[c] == nil { index[c] = k }
        return index
    }()

    /// - Parameters:
    ///   - intraOpThreads: ONNX Runtime threads inside one model run. Use 1 when the
    ///     pipeline already runs one document per core.
    ///   - settings: the engine's tunables, used as given; nil: those of `options.level`
    ///     (`Settings.forLevel`) with the process environment's `SCANEXTRACT_PPOCR_*`
    ///     measurement overrides (`Settings.applyOverrides`).
    public init(
        models: PPOCRModels, runtime: ONNXRuntime? = nil, options: RecognitionOptions = RecognitionOptions(),
        intraOpThreads: Int = 1, settings: Settings? = nil
    ) throws {
        self.models = models
        self.options = options
        let runtime = try runtime ?? ONNXRuntime.shared(libraryPath: models.runtimeLibrary)
        self.runtime = runtime
        var settings =
            settings
            ?? {
                var picked = Settings.forLevel(options.level)
                picked.applyOverrides(from: ProcessInfo.processInfo.environment)
                return picked
            }()
        var sessionOptions = ONNXSessionOptions(intraOpThreads: intraOpThreads, arena: .off)
        sessionOptions.optimizedModelCache = OptimizedModelCache.folder()
        var detectorOptions = sessionOptions
        switch settings.memory {
        case .trim:
            break
        case .arenaPerSession:
            sessionOptions.arena = .perSession
            detectorOptions.arena = .perSession
        case .sharedArena, .sharedArenaShrunk:
            try runtime.useSharedArena(ONNXArenaConfiguration(growth: .sameAsRequested))
            sessionOptions.arena = .shared
            detectorOptions.arena = .shared
        case .arenaExceptDetector:
            sessionOptions.arena = .perSession
        }
        detector = try runtime.makeSession(modelPath: models.detector, options: detectorOptions)
        let recognizerPath = Self.recognizerPath(
            models: models, languages: options.languages,
            allowNonCJK: settings.useNonCJKRecognizer)
        recognizer = try runtime.makeSession(modelPath: recognizerPath, options: sessionOptions)
        if settings.useClassifier, let cls = models.classifier {
            classifier = try runtime.makeSession(modelPath: cls, options: sessionOptions)
        } else {
            classifier = nil
            settings.useClassifier = false
        }
        self.settings = settings
        detectionBudget =
            settings.detectionPixelBudget > 0
            ? MemoryBudget.shared("ppocr-detection", capacity: settings.detectionPixelBudget) : nil

        guard let dict = try recognizer.customMetadata("character"), !dict.isEmpty else {
            throw ScanError(
                .engine,
                "\(recognizerPath) has no `character` dictionary in its metadata; is it a PP-OCR recognition model?")
        }
        var entries = dict.components(separatedBy: "\n")
        if entries.last == "" { entries.removeLast() }
        decoder = CTCDecoder(dictionary: entries)
        if let classes = recognizer.outputs.first?.shape.last, classes > 0, classes != decoder.classCount {
            throw ScanError(
                .engine, "\(recognizerPath) outputs \(classes) classes but its dictionary gives \(decoder.classCount)")
        }
        postProcessor = DBPostProcessor(
            threshold: settings.threshold, boxThreshold: settings.boxThreshold,
            unclipRatio: settings.unclipRatio, rescueLevels: settings.rescueLevels)
        lexicon =
            options.customWords.isEmpty ? nil : CTCDecoder.Lexicon(options.customWords, bonus: settings.customWordBonus)
        info = EngineInfo(
            name: "ppocr", version: "onnxruntime \(runtime.version)",
            model: [models.detector, recognizerPath, classifier == nil ? nil : models.classifier]
                .compactMap {
                    $0.map { ($0 as NSString).lastPathComponent.replacingOccurrences(of: ".onnx", with: "") }
                }
                .joined(separator: "+"))
    }

    /// Languages (Tesseract's codes, or PaddleOCR's) whose scripts lie in the East Asian
    /// blocks that the non-CJK recognizer leaves out.
    public static let eastAsianLanguages: Set<String> = [
        "chi_sim", "chi_tra", "chi_sim_vert", "chi_tra_vert", "jpn", "jpn_vert", "kor", "kor_vert",
        "ch", "chinese_cht", "japan", "korean", "zh", "ja", "ko"
    ]

    /// The recognizer for `languages`: the non-CJK one when it is installed, allowed, and no
    /// language needs the East Asian scripts; otherwise the full one.
    static func recognizerPath(models: PPOCRModels, languages: [String], allowNonCJK: Bool) -> String {
        guard allowNonCJK, let nonCJK = models.nonCJKRecognizer,
            !languages.contains(where: { eastAsianLanguages.contains($0.lowercased()) })
        else {
            return models.recognizer
        }
        return nonCJK
    }

    /// Convenience: locates the models and runtime (environment, then `.deps/`).
    public convenience init(options: RecognitionOptions = RecognitionOptions(), intraOpThreads: Int = 1) throws {
        let models = try PPOCRModels.locate().get()
        try self.init(models: models, options: options, intraOpThreads: intraOpThreads)
    }

    // MARK: - Recognition

    /// Colour, as it is: the engine sizes the page for its detector, and reads lines turned
    /// 90° or 180°, or in a photo's perspective, as quadrilaterals. (Flattening photos first
    /// gained nothing on receipt and card photos: fields 0.834 with and without.)
    public var capabilities: EngineCapabilities {
        EngineCapabilities(input: .color, preferredTextHeight: nil, wantsDeskew: false, readsPerspective: true)
    }

    public func recognize(_ image: RasterImage, context: RecognitionContext) throws -> [TextObservation] {
        lastLines = [:]
        guard image.width >= 4, image.height >= 4 else { return [] }
        let clock = StageClock(enabled: timing)
        let page = ImageOps.rgb(image)
        var detections = try detect(page, cancellation: context.cancellation)
        let sideways = Self.isSideways(detections.map { ImageOps.cropSize(of: $0.quad) })
        if sideways { detections = try detectedAcross(page, cancellation: context.cancellation) }
        clock.lap("detect")
        // Between the detector and the recognizer: the two halves of the page's time.
        try context.cancellation?.check()
        if detections.isEmpty { return [] }

        // Crop every line upright.
        var lines: [LineCrop] = detections.map { d in
            let size = ImageOps.cropSize(of: d.quad)
            var crop = ImageOps.perspectiveCrop(
                page, quad: d.quad, width: max(size.width, 1), height: max(size.height, 1))
            var turned90 = false
            if Double(crop.height) >= Double(crop.width) * 1.5 {
                crop = ImageOps.rotated90CounterClockwise(crop)
                turned90 = true
            }
            return LineCrop(quad: d.quad, image: crop, turned90: turned90, turned180: false)
        }
        clock.lap("crop")
        if settings.useClassifier, let classifier {
            try classify(&lines, with: classifier, sample: settings.classifierSample)
        }
        clock.lap("classify")
        var readings = try read(lines)
        clock.lap("read")
        // The classifier is wrong now and then on upright text (on receipts it turns
        // short lines such as "(M)" or "0.00"), and a wrong turn ruins the line. So a
        // turned line is read both ways, and the reading the recognizer is surer of wins.
        // So is a doubtful line of a sideways or upside-down page, which the classifier sometimes
        // leaves upside down (two card photos turned by 90° lost their e-mail and web lines so).
        let turnedPage = sideways || Self.isUpsideDown(lines.map(\.turned180))
        let flipped = Self.secondLook(
            lines.indices.map { (lines[$0].turned90 || turnedPage, lines[$0].turned180, readings[$0].best.confidence) },
            sidewaysDoubt: settings.sidewaysDoubt)
        if !flipped.isEmpty {
            let other = flipped.map { i -> LineCrop in
                var l = lines[i]
                l.image = ImageOps.rotated180(l.image)
                l.turned180.toggle()
                return l
            }
            let second = try read(other)
            for (k, i) in flipped.enumerated() where second[k].best.confidence > readings[i].best.confidence {
                lines[i] = other[k]
                readings[i] = second[k]
            }
            clock.lap("verify-turns")
        }

        var observations: [TextObservation] = []
        for (line, reading) in zip(lines, readings) {
            guard let obs = observation(line: line, reading: reading) else { continue }
            observations.append(obs)
            if keepsLinesForRereading { lastLines[obs.boundingBox] = (line, reading.tensorWidth) }
        }
        releaseFreedMemory()
        return observations
    }

    /// Reads again, with the `lineDecoder` now set, the lines of the last page that are at
    /// `boxes` (boxes of observations it returned): the crops it kept, turned and padded as
    /// they were read, without detecting the page again or reading its other lines. Nil for a box it
    /// did not return and for a line the new reading leaves empty or too doubtful.
    public func reread(linesAt boxes: [BoundingBox]) throws -> [TextObservation?] {
        let known = boxes.map { lastLines[$0] }
        let lines = known.compactMap { $0 }
        guard !lines.isEmpty else { return known.map { _ in nil } }
        var readings = try read(lines.map(\.crop), tensorWidths: lines.map(\.tensorWidth))[...]
        let out = known.map { line -> TextObservation? in
            guard let line, let reading = readings.popFirst() else { return nil }
            return observation(line: line.crop, reading: reading)
        }
        releaseFreedMemory()
        return out
    }

    /// Per-stage timings on stderr when SCANEXTRACT_PPOCR_TIMING is set (for benchmarks).
    let timing = ProcessInfo.processInfo.environment["SCANEXTRACT_PPOCR_TIMING"] != nil

    /// Measures the calling thread's CPU time, which load from other processes does
    /// not inflate (with one intra-op thread, ONNX Runtime computes on this thread).
    final class StageClock {
        let enabled: Bool
        var last: Double
        init(enabled: Bool) { self.enabled = enabled; last = enabled ? StageClock.now() : 0 }
        static func now() -> Double {
            var ts = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
            return Double(ts.tv_sec) * 1000 + Double(ts.tv_nsec) / 1e6
        }
        func lap(_ name: String) {
            guard enabled else { return }
            let now = StageClock.now()
            FileHandle.standardError.write("ppocr-cpu-ms \(name) \(now - last)\n".data(using: .utf8)!)
            last = now
        }
    }

    struct LineCrop {
        var quad: Quad
        var image: RasterImage
        var turned90: Bool
        var turned180: Bool
    }

    struct LineReading {
        var best: CTCDecoder.Reading
        var alternatives: [CTCDecoder.Reading]
        /// Tensor geometry, to place time steps on the crop: the line's pixels span
        /// `resizedWidth` of `tensorWidth`, over `steps` time steps.
        var resizedWidth: Int
        var tensorWidth: Int
        var steps: Int
    }

    /// Hands memory freed by this page back to the system. The model runs allocate
    /// and free tens of megabytes per page in sizes that change from page to page;
    /// glibc keeps such blocks in per-thread arenas, so without this a long run's
    /// resident size keeps growing with every worker.
    func releaseFreedMemory() {
        guard settings.memory == .trim else { return }
        if let trim = Self.mallocTrim { _ = trim(0) }
    }

    /// glibc's `malloc_trim`, which Swift's Glibc module does not export; nil elsewhere.
    static let mallocTrim: (@convention(c) (Int) -> Int32)? = {
        guard let sym = dlsym(nil, "malloc_trim") else { return nil }
        return unsafeBitCast(sym, to: (@convention(c) (Int) -> Int32).self)
    }()

    /// The detector's input size for a page: its long side first scaled down to `maxLongSide`,
    /// then its short side up to `shortSide` (RapidOCR's order).
    static func detectionSize(width: Int, height: Int, shortSide: Int, maxLongSide: Int) -> (width: Int, height: Int) {
        var w = Double(width), h = Double(height)
        let long = max(w, h)
        if long > Double(maxLongSide) { let r = Double(maxLongSide) / long; w *= r; h *= r }
        let short = min(w, h)
        if short < Double(shortSide) { let r = Double(shortSide) / short; w *= r; h *= r }
        return (multipleOf32(w), multipleOf32(h))
    }

    /// A detector side: `v`'s whole part rounded to the nearest multiple of 32, at least 32.
    /// Python rounds halves to even; so do we, to get the same sizes as RapidOCR.
    static func multipleOf32(_ v: Double) -> Int { max(32, Int((Double(Int(v)) / 32).rounded(.toNearestOrEven)) * 32) }

    /// The page's own size for the detector (only the long side capped, rounded to 32), or nil
    /// when `detectionSize` would not enlarge the page by at least a quarter of its pixels.
    static func ownDetectionSize(
        width: Int, height: Int, shortSide: Int,
        maxLongSide: Int
    ) -> (width: Int, height: Int)? {
        let enlarged = detectionSize(width: width, height: height, shortSide: shortSide, maxLongSide: maxLongSide)
        let own = detectionSize(width: width, height: height, shortSide: 0, maxLongSide: maxLongSide)
        guard own.width * own.height * 5 < enlarged.width * enlarged.height * 4 else { return nil }
        return own
    }

    /// The median height of the detected line boxes (each box's shorter side, so that lines
    /// running down count by their height too), in the pixels the quads are in; nil for none.
    static func medianLineHeight(_ detections: [DBPostProcessor.Detection]) -> Double? {
        guard !detections.isEmpty else { return nil }
        let heights = detections.map { d -> Double in
            let p = d.quad.points
            let across = (p[0].distance(to: p[1]) + p[3].distance(to: p[2])) / 2
            let down = (p[0].distance(to: p[3]) + p[1].distance(to: p[2])) / 2
            return min(across, down)
        }.sorted()
        return heights[heights.count / 2]
    }

    /// Whether the median line of `detections` (quads in page pixels) was at least
    /// `minLineHeight` pixels high in the detector's input, `detectorWidth` pixels wide.
    static func textIsTallEnough(
        _ detections: [DBPostProcessor.Detection], detectorWidth: Int, pageWidth: Int,
        minLineHeight: Double
    ) -> Bool {
        guard let median = medianLineHeight(detections), pageWidth > 0 else { return false }
        return median * Double(detectorWidth) / Double(pageWidth) >= minLineHeight
    }

    /// The detector's input for a page whose characters are `glyphHeight` pixels high: scaled so
    /// that they are `target` pixels high there (rounded to 32), when that is smaller than
    /// `standard`; otherwise `standard`.
    static func textSizedDetection(
        width: Int, height: Int, glyphHeight: Double, target: Double,
        standard: (width: Int, height: Int)
    ) -> (width: Int, height: Int) {
        guard glyphHeight > 0, target > 0 else { return standard }
        let r = target / glyphHeight
        let sized = (width: multipleOf32(Double(width) * r), height: multipleOf32(Double(height) * r))
        return sized.width * sized.height < standard.width * standard.height ? sized : standard
    }

    /// Detects at the page's own size when that is enough for its text (see
    /// `Settings.ownSizeMinLineHeight`), otherwise at `detectionSize`, or smaller when the
    /// page's characters are taller than the detector needs (`Settings.detectionGlyphHeight`).
    func detect(_ page: RasterImage, cancellation: CancellationToken? = nil) throws -> [DBPostProcessor.Detection] {
        var enlarged = Self.detectionSize(
            width: page.width, height: page.height,
            shortSide: settings.detectionShortSide, maxLongSide: settings.maxLongSide)
        if settings.detectionGlyphHeight > 0, let glyphs = GlyphHeight.estimate(page) {
            enlarged = Self.textSizedDetection(
                width: page.width, height: page.height, glyphHeight: glyphs.height,
                target: settings.detectionGlyphHeight, standard: enlarged)
            if timing {
                let line = "ppocr-glyph \(glyphs.height) \(glyphs.count) \(enlarged.width)x\(enlarged.height)\n"
                FileHandle.standardError.write(Data(line.utf8))
            }
        }
        if settings.ownSizeMinLineHeight > 0,
            let own = Self.ownDetectionSize(
                width: page.width, height: page.height,
                shortSide: settings.detectionShortSide, maxLongSide: settings.maxLongSide)
        {
            let detections = try detect(page, size: own, cancellation: cancellation)
            if Self.textIsTallEnough(
                detections, detectorWidth: own.width, pageWidth: page.width,
                minLineHeight: settings.ownSizeMinLineHeight)
            {
                return detections
            }
        }
        return try detect(page, size: enlarged, cancellation: cancellation)
    }

    /// Detects at `size`, holding that many pixels of the detection budget from the input
    /// tensor's allocation until the detector's output is read and its arena shrunk.
    func detect(
        _ page: RasterImage, size: (width: Int, height: Int),
        cancellation: CancellationToken? = nil
    ) throws -> [DBPostProcessor.Detection] {
        guard let detectionBudget else { return try detectUnbudgeted(page, size: size) }
        return try detectionBudget.withReservation(size.width * size.height, cancellation: cancellation) {
            try detectUnbudgeted(page, size: size)
        }
    }

    func detectUnbudgeted(_ page: RasterImage, size: (width: Int, height: Int)) throws -> [DBPostProcessor.Detection] {
        var tensor = [Float](repeating: 0, count: 3 * size.width * size.height)
        ImageOps.writeNormalized(
            page, width: size.width, height: size.height, stride: size.width, into: &tensor, offset: 0)
        return try detector.run(
            input: tensor, shape: [1, 3, size.height, size.width],
            shrinkArena: settings.memory == .sharedArenaShrunk
        ) { out in
            guard out.shape.count == 4, out.shape[2] > 0, out.shape[3] > 0 else {
                throw ScanError(.engine, "unexpected detector output shape \(out.shape)")
            }
            let mh = out.shape[2], mw = out.shape[3]
            let map = UnsafeBufferPointer(rebasing: out.data[0..<(mh * mw)])
            return postProcessor.detect(map: map, width: mw, height: mh, pageWidth: page.width, pageHeight: page.height)
        }
    }

    /// Whether the page lies sideways: at least four of its detected lines run down or up it (their
    /// crops are clearly taller than wide), four times as many as lie across.
    static func isSideways(_ sizes: [(width: Int, height: Int)]) -> Bool {
        let tall = sizes.filter { Double($0.height) >= Double($0.width) * 1.5 }.count
        let wide = sizes.filter { Double($0.width) >= Double($0.height) * 1.5 }.count
        return tall >= 4 && tall >= 4 * wide
    }

    /// Whether the page may lie upside down: the classifier turned at least two of its lines, and
    /// at least one in five. (It leaves a line as it lies unless it is sure, so on a photo turned
    /// upside down it may leave most lines upside down; on an upright page it now and then turns a
    /// short line or two.) Only doubtful lines are read again, so a wrong guess costs time, not text.
    static func isUpsideDown(_ turned180: [Bool]) -> Bool {
        let turned = turned180.filter { $0 }.count
        return turned >= 2 && 5 * turned >= turned180.count
    }

    /// A sideways page's lines, detected again on the page turned a quarter counter-clockwise, where
    /// they lie across as the detector learned them: it finds more of them there (a quantity's lone
    /// digit, a short word such as `CV`, a line's end). The corners come back in the page's pixels in
    /// the order they had on the turned page, so each line's crop comes out with its text lying across.
    func detectedAcross(_ page: RasterImage, cancellation: CancellationToken?) throws -> [DBPostProcessor.Detection] {
        let turned = ImageOps.rotated90CounterClockwise(page)
        // The turn takes (x, y) to (y, W - x); back: (x', y') to (W - y', x').
        let width = Double(page.width)
        return try detect(turned, cancellation: cancellation).map { d in
            var back = d
            back.quad = Quad(d.quad.points.map { Point2D(width - $0.y, $0.x) })
            return back
        }
    }

    /// The lines to read turned by 180° as well: those the classifier turned, and those turned
    /// by 90° or on a page that lies sideways or may lie upside down (`turned90`, as the caller
    /// passes it) whose reading is less sure than `sidewaysDoubt`.
    static func secondLook(_ lines: [(turned90: Bool, turned180: Bool, confidence: Double)], sidewaysDoubt: Double)
        -> [Int]
    {
        lines.indices.filter { lines[$0].turned180 || (lines[$0].turned90 && lines[$0].confidence < sidewaysDoubt) }
    }

    /// Turns lines the classifier reads as upside down. With a `sample`, the widest lines
    /// (the classifier's surest) are looked at first, and the rest only if one of them was
    /// turned: on an upright page the others are left as they are.
    func classify(_ lines: inout [LineCrop], with session: ONNXSession, sample: Int) throws {
        let order = Self.classifierOrder(lines.map { ($0.image.width, $0.image.height) }, sample: sample)
        let turned = try classify(&lines, order[0], with: session)
        if !order[1].isEmpty && turned > 0 { _ = try classify(&lines, order[1], with: session) }
    }

    /// The lines to classify first (the `sample` widest, by pixel width), then the others,
    /// each sorted by aspect ratio for batching. With no sample, all lines come first.
    static func classifierOrder(_ sizes: [(width: Int, height: Int)], sample: Int) -> [[Int]] {
        func byRatio(_ a: Int, _ b: Int) -> Bool { sizes[a].width * sizes[b].height < sizes[b].width * sizes[a].height }
        guard sample > 0, sizes.count > sample else { return [sizes.indices.sorted(by: byRatio), []] }
        let widest = sizes.indices.sorted {
            sizes[$0].width != sizes[$1].width ? sizes[$0].width > sizes[$1].width : $0 < $1
        }
        return [Array(widest[..<sample]).sorted(by: byRatio), Array(widest[sample...]).sorted(by: byRatio)]
    }

    /// Classifies the lines at `order` and turns those upside down; returns how many were turned.
    func classify(_ lines: inout [LineCrop], _ order: [Int], with session: ONNXSession) throws -> Int {
        let h = 48, w = 192
        var turnedCount = 0
        for start in stride(from: 0, to: order.count, by: settings.classifierBatch) {
            let batch = Array(order[start..<min(order.count, start + settings.classifierBatch)])
            var tensor = [Float](repeating: 0, count: batch.count * 3 * h * w)
            for (n, i) in batch.enumerated() {
                let img = lines[i].image
                let rw = min(w, Int((Double(h) * Double(img.width) / Double(img.height)).rounded(.up)))
                ImageOps.writeNormalized(
                    img, width: max(1, rw), height: h, stride: w, into: &tensor, offset: n * 3 * h * w)
            }
            let flips: [Bool] = try session.run(input: tensor, shape: [batch.count, 3, h, w]) { out in
                guard out.shape.count == 2, out.shape[0] == batch.count, out.shape[1] >= 2 else {
                    throw ScanError(.engine, "unexpected classifier output shape \(out.shape)")
                }
                let k = out.shape[1]
                return (0..<batch.count).map { n in
                    out.data[n * k + 1] > out.data[n * k] && out.data[n * k + 1] > settings.classifierThreshold
                }
            }
            for (n, i) in batch.enumerated() where flips[n] {
                lines[i].image = ImageOps.rotated180(lines[i].image)
                lines[i].turned180 = true
                turnedCount += 1
            }
        }
        return turnedCount
    }

    /// Runs the recognizer over all lines, each padded to its width's bucket
    /// (`Settings.recognitionBucket`; with none, in width-sorted batches padded to their widest
    /// line). With `tensorWidths` (one per line), each line is padded to its given width instead,
    /// as it was in an earlier reading: the recognizer's reading of a line depends on the padding
    /// around it.
    func read(_ lines: [LineCrop], tensorWidths: [Int]? = nil) throws -> [LineReading] {
        let h = 48
        let useBeam = options.candidateCount > 0 || lexicon != nil
        func ratio(_ i: Int) -> Double {
            settings.recognitionWidthScale * Double(lines[i].image.width) / Double(max(1, lines[i].image.height))
        }
        let size = max(1, settings.recognitionBatch)
        var batches: [(lines: [Int], tensorWidth: Int)] = []
        var tensorWidths = tensorWidths
        if tensorWidths == nil, settings.recognitionBucket > 0 {
            let bucket = Double(settings.recognitionBucket)
            tensorWidths = lines.indices.map { i in
                let own = (Double(h) * max(settings.minRecognitionRatio, ratio(i))).rounded(.up)
                return Int((own / bucket).rounded(.up) * bucket)
            }
        }
        if let tensorWidths {
            for (width, members) in Dictionary(grouping: lines.indices, by: { tensorWidths[$0] }).sorted(by: {
                $0.key < $1.key
            }) {
                for start in stride(from: 0, to: members.count, by: size) {
                    batches.append((Array(members[start..<min(members.count, start + size)]), width))
                }
            }
        } else {
            let order = lines.indices.sorted { ratio($0) < ratio($1) }
            for start in stride(from: 0, to: order.count, by: size) {
                let batch = Array(order[start..<min(order.count, start + size)])
                let maxRatio = max(settings.minRecognitionRatio, batch.map(ratio).max() ?? 1)
                batches.append((batch, Int(Double(h) * maxRatio)))
            }
        }
        var results = [LineReading?](repeating: nil, count: lines.count)
        // Per line: the Japanese forms of its characters that Japanese does not write, put in when the page is
        // Japanese.
        var japaneseForms = [[Int: CTCDecoder.Token]](repeating: [:], count: lines.count)
        for (batch, tensorWidth) in batches {
            var tensor = [Float](repeating: 0, count: batch.count * 3 * h * tensorWidth)
            var widths: [Int] = []
            for (n, i) in batch.enumerated() {
                let rw = max(1, min(tensorWidth, Int((Double(h) * ratio(i)).rounded(.up))))
                widths.append(rw)
                ImageOps.writeNormalized(
                    lines[i].image, width: rw, height: h, stride: tensorWidth,
                    into: &tensor, offset: n * 3 * h * tensorWidth)
            }
            try recognizer.run(input: tensor, shape: [batch.count, 3, h, tensorWidth]) { out in
                guard out.shape.count == 3, out.shape[0] == batch.count, out.shape[2] == decoder.classCount else {
                    throw ScanError(.engine, "unexpected recognizer output shape \(out.shape)")
                }
                let steps = out.shape[1], per = steps * out.shape[2]
                for (n, i) in batch.enumerated() {
                    let probs = UnsafeBufferPointer(rebasing: out.data[(n * per)..<((n + 1) * per)])
                    func spaced(_ r: CTCDecoder.Reading) -> CTCDecoder.Reading {
                        decoder.withDroppedSpaces(
                            r, probabilities: probs, steps: steps, threshold: settings.droppedSpaceThreshold,
                            pitchRatio: settings.droppedSpacePitchRatio)
                    }
                    var best = spaced(decoder.greedy(probs, steps: steps))
                    var alternatives: [CTCDecoder.Reading] = []
                    if useBeam {
                        alternatives = decoder.beam(
                            probs, steps: steps, width: max(settings.beamWidth, options.candidateCount),
                            count: max(1, options.candidateCount), lexicon: lexicon)
                        // The confidence is the beam's own reading's: a space put back is no character read.
                        if let first = alternatives.first, case let top = spaced(first), top.text != best.text {
                            let conf =
                                first.tokens.isEmpty
                                ? 0
                                : first.tokens.reduce(0.0) { $0 + Double($1.probability) } / Double(first.tokens.count)
                            best = CTCDecoder.Reading(
                                text: top.text, tokens: top.tokens, confidence: conf,
                                logProbability: top.logProbability)
                        }
                    }
                    if let lineDecoder {
                        best = redecoded(best, probabilities: probs, steps: steps, with: lineDecoder)
                    } else if let wordCorrector {
                        best = Self.corrected(
                            best, probabilities: probs, steps: steps, decoder: decoder, classIndex: classIndex,
                            with: wordCorrector)
                    }
                    japaneseForms[i] = decoder.japaneseAlternatives(best.tokens, probabilities: probs)
                    results[i] = LineReading(
                        best: best, alternatives: alternatives, resizedWidth: widths[n],
                        tensorWidth: tensorWidth, steps: steps)
                }
            }
        }
        // Letters the page as a whole shows lost (a Danish page's `SMOR`), given back character for character.
        if lineDecoder == nil, let wordCorrector,
            let restored = wordCorrector.restoredPage(results.map { $0!.best.text })
        {
            for i in results.indices where restored[i] != results[i]!.best.text {
                results[i]!.best = Self.respelled(
                    results[i]!.best, as: restored[i], decoder: decoder, classIndex: classIndex)
            }
        }
        // A page with two lines or more that hold kana is Japanese: its lines without kana (`醤油 1L`, `単三電池 4本`) take
        // the Japanese forms too, as its lines with kana did when decoded.
        let japanesePage = results.reduce(0) { $0 + ($1.map { decoder.holdsKana($0.best.tokens) ? 1 : 0 } ?? 0) } >= 2
        if japanesePage {
            for i in results.indices where !japaneseForms[i].isEmpty {
                results[i]!.best = decoder.applying(japaneseForms[i], to: results[i]!.best)
            }
        }
        return results.map { $0! }
    }

    /// The observation for a read line, or nil when it is empty or too doubtful.
    func observation(line: LineCrop, reading: LineReading) -> TextObservation? {
        let text = reading.best.text.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty, reading.best.confidence >= settings.minLineConfidence else { return nil }
        let bb = line.quad.boundingBox
        let lineBox = BoundingBox(x: bb.minX, y: bb.minY, width: bb.maxX - bb.minX, height: bb.maxY - bb.minY)
        let words = Self.words(
            tokens: reading.best.tokens, decoder: decoder, line: line,
            stepToU: { step in
                Double(step) * Double(reading.tensorWidth) / Double(max(1, reading.steps))
                    / Double(reading.resizedWidth)
            })
        var candidates: [TextCandidate] = []
        if options.candidateCount > 0 {
            candidates = reading.alternatives.prefix(options.candidateCount).map {
                TextCandidate(
                    text: $0.text.trimmingCharacters(in: .whitespaces), confidence: min(1, max(0, $0.confidence)))
            }
            if candidates.first?.text != text {
                candidates.insert(TextCandidate(text: text, confidence: reading.best.confidence), at: 0)
                candidates = Array(candidates.prefix(options.candidateCount))
            }
        }
        return TextObservation(
            text: text, confidence: min(1, max(0, reading.best.confidence)),
            boundingBox: lineBox, words: words, candidates: candidates,
            quad: Self.textQuad(line.quad.points, line: line))
    }

    /// The detected corners (the crop's, top-left first, clockwise) as the text's own. A line turned before reading
    /// starts at another corner: the quarter turn counter-clockwise makes the crop's top-right the text's top-left, the
    /// half turn its bottom-right, both its bottom-left.
    static func textQuad(_ corners: [Point2D], line: LineCrop) -> ScanModel.Quad? {
        guard corners.count == 4 else { return nil }
        let shift = (line.turned90 ? 1 : 0) + (line.turned180 ? 2 : 0)
        let p = (0..<4).map { corners[($0 + shift) % 4] }.map { Point(x: $0.x, y: $0.y) }
        return ScanModel.Quad(topLeft: p[0], topRight: p[1], bottomRight: p[2], bottomLeft: p[3]).rounded()
    }

    /// `reading`'s words read again by `lineDecoder`. Each new word's characters are spread
    /// over the steps the decoder gives it, so that `words(tokens:...)` still places it.
    func redecoded(
        _ reading: CTCDecoder.Reading, probabilities probs: UnsafeBufferPointer<Float>, steps: Int,
        with lineDecoder: any LineDecoder
    ) -> CTCDecoder.Reading {
        let groups = Self.wordGroups(reading.tokens, spaceClass: decoder.spaceClass)
        guard !groups.isEmpty else { return reading }
        let bestPath = Self.decodedWords(groups, characters: decoder.characters)
        let line = LineProbabilities(steps: steps, values: Array(probs), decoder: decoder)
        var tokens: [CTCDecoder.Token] = []
        var confidence = 0.0
        let decoded = lineDecoder.decode(line, bestPath: bestPath).filter { !$0.text.isEmpty }
        guard !decoded.isEmpty else { return reading }
        for (n, w) in decoded.enumerated() {
            let first = max(0, min(w.firstStep, steps - 1)), last = max(first, min(w.lastStep, steps - 1))
            if n > 0 {
                tokens.append(
                    CTCDecoder.Token(classIndex: decoder.spaceClass, firstStep: first, lastStep: first, probability: 1))
            }
            tokens += Self.spread(
                w.text.compactMap { classIndex[String($0)] }, first: first, last: last,
                probability: Float(w.confidence))
            confidence += w.confidence
        }
        return CTCDecoder.Reading(
            text: decoder.text(of: tokens), tokens: tokens, confidence: confidence / Double(decoded.count),
            logProbability: reading.logProbability)
    }

    /// `reading` spelled as `text`, which has as many characters, each token given the class of its new character;
    /// `reading` itself when they differ in length or a character has no class.
    static func respelled(
        _ reading: CTCDecoder.Reading, as text: String, decoder: CTCDecoder, classIndex: [String: Int]
    ) -> CTCDecoder.Reading {
        let chars = Array(text)
        guard chars.count == reading.tokens.count, decoder.text(of: reading.tokens) == reading.text else {
            return reading
        }
        var changes: [Int: CTCDecoder.Token] = [:]
        for (k, c) in chars.enumerated() where decoder.characters[reading.tokens[k].classIndex] != String(c) {
            guard let cls = classIndex[String(c)] else { return reading }
            changes[k] = reading.tokens[k]
            changes[k]!.classIndex = cls
        }
        return decoder.applying(changes, to: reading)
    }

    /// `reading` with the words `corrector` doubts read again; every other word keeps its tokens, so
    /// its place on the page does not move. A changed word's characters are spread over its steps.
    static func corrected(
        _ reading: CTCDecoder.Reading, probabilities probs: UnsafeBufferPointer<Float>, steps: Int,
        decoder: CTCDecoder, classIndex: [String: Int], with corrector: any WordCorrector
    ) -> CTCDecoder.Reading {
        let words = wordRanges(reading.tokens, spaceClass: decoder.spaceClass)
        let texts = words.map { r in reading.tokens[r].map { decoder.characters[$0.classIndex] }.joined() }
        let doubted = words.indices.filter { w in
            corrector.doubts(texts[w], weakest: Double(reading.tokens[words[w]].map(\.probability).min() ?? 1))
        }
        guard !doubted.isEmpty else { return reading }
        let line = LineProbabilities(steps: steps, values: Array(probs), decoder: decoder)
        let spans = DecodedWord.spans(
            of: decodedWords(words.map { Array(reading.tokens[$0]) }, characters: decoder.characters),
            steps: steps)
        var tokens = reading.tokens
        // Right to left, so that the ranges of the words still to do stay valid.
        for w in doubted.reversed() {
            let r = words[w]
            guard let text = corrector.corrected(texts[w], probabilities: line, span: spans[w]), text != texts[w],
                !text.isEmpty
            else { continue }
            let classes = text.compactMap { classIndex[String($0)] }
            guard classes.count == text.count else { continue }
            tokens.replaceSubrange(
                r,
                with: spread(
                    classes, first: reading.tokens[r.lowerBound].firstStep,
                    last: reading.tokens[r.upperBound - 1].lastStep,
                    probability: reading.tokens[r].map(\.probability).reduce(0, +) / Float(r.count)))
        }
        return CTCDecoder.Reading(
            text: decoder.text(of: tokens), tokens: tokens, confidence: reading.confidence,
            logProbability: reading.logProbability)
    }

    /// Tokens for a word's `classes`, spread evenly over its steps `first...last`, each with `probability`.
    static func spread(_ classes: [Int], first: Int, last: Int, probability: Float) -> [CTCDecoder.Token] {
        classes.enumerated().map { k, c in
            let a = first + (last - first + 1) * k / classes.count
            let b = max(a, first + (last - first + 1) * (k + 1) / classes.count - 1)
            return CTCDecoder.Token(classIndex: c, firstStep: a, lastStep: b, probability: probability)
        }
    }

    /// Word groups as `DecodedWord`s: their text, steps and mean character probability.
    static func decodedWords(_ groups: [[CTCDecoder.Token]], characters: [String]) -> [DecodedWord] {
        groups.map { g in
            DecodedWord(
                text: g.map { characters[$0.classIndex] }.joined(), firstStep: g.first!.firstStep,
                lastStep: g.last!.lastStep, confidence: g.reduce(0.0) { $0 + Double($1.probability) } / Double(g.count))
        }
    }

    /// A line's tokens grouped into words at spaces.
    static func wordGroups(_ tokens: [CTCDecoder.Token], spaceClass: Int) -> [[CTCDecoder.Token]] {
        wordRanges(tokens, spaceClass: spaceClass).map { Array(tokens[$0]) }
    }

    /// Where each word's tokens are in `tokens`: the runs between spaces.
    static func wordRanges(_ tokens: [CTCDecoder.Token], spaceClass: Int) -> [Range<Int>] {
        var out: [Range<Int>] = []
        var start: Int?
        for (i, t) in tokens.enumerated() {
            if t.classIndex == spaceClass {
                if let s = start { out.append(s..<i); start = nil }
            } else if start == nil {
                start = i
            }
        }
        if let s = start { out.append(s..<tokens.count) }
        return out
    }

    /// Splits a line's tokens into words at spaces and places each word on the page:
    /// its horizontal extent on the crop comes from the time steps of its first and
    /// last character, and the crop maps back onto the detected quad.
    static func words(
        tokens: [CTCDecoder.Token], decoder: CTCDecoder, line: LineCrop,
        stepToU: (Double) -> Double
    ) -> [RecognizedWord] {
        let groups = wordGroups(tokens, spaceClass: decoder.spaceClass)
        let map = PerspectiveMap(quad: line.quad, width: 1, height: 1)
        var words: [RecognizedWord] = []
        for (gi, g) in groups.enumerated() {
            // Half a step of margin before the first character's run, and after the last's.
            var u0 = gi == 0 ? 0 : stepToU(Double(g.first!.firstStep) - 0.5)
            var u1 = gi == groups.count - 1 ? 1 : stepToU(Double(g.last!.lastStep) + 1.5)
            u0 = min(max(u0, 0), 1); u1 = min(max(u1, u0), 1)
            // Undo the turns made before recognition (180° first, as it was applied last).
            if line.turned180 { (u0, u1) = (1 - u1, 1 - u0) }
            let corners: [Point2D]
            if line.turned90 {
                // The recognized row ran down the original crop: u is its v.
                corners = [map.map(0, u0), map.map(1, u0), map.map(1, u1), map.map(0, u1)]
            } else {
                corners = [map.map(u0, 0), map.map(u1, 0), map.map(u1, 1), map.map(u0, 1)]
            }
            let xs = corners.map(\.x), ys = corners.map(\.y)
            let box = BoundingBox(
                x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
            let conf = g.reduce(0.0) { $0 + Double($1.probability) } / Double(g.count)
            words.append(
                RecognizedWord(
                    text: decoder.text(of: g), confidence: min(1, max(0, conf)), boundingBox: box,
                    quad: textQuad(corners, line: line)))
        }
        return words
    }
}
