import CTesseract
import Foundation
import ScanModel

/// Owns one `TessBaseAPI`. Not thread-safe: one per worker.
final class TesseractAPI {
    let handle: OpaquePointer

    /// Initializes with LSTM models for `languages` (e.g. "eng+deu").
    /// `variables` are set at init time (some, like `user_words_file`, only work then).
    init(languages: String, dataPath: String?, variables: [String: String] = [:]) throws {
        TesseractAPI.limitThreadsOnce
        guard let h = TessBaseAPICreate() else {
            throw ScanError(.engine, "Tesseract could not be created")
        }
        handle = h
        var vars = ["debug_file": "/dev/null"]
        vars.merge(variables) { _, new in new }
        let keys = Array(vars.keys)
        var cKeys: [UnsafeMutablePointer<CChar>?] = keys.map { strdup($0) }
        var cValues: [UnsafeMutablePointer<CChar>?] = keys.map { strdup(vars[$0]!) }
        defer {
            cKeys.forEach { free($0) }
            cValues.forEach { free($0) }
        }
        let rc = cKeys.withUnsafeMutableBufferPointer { k in
            cValues.withUnsafeMutableBufferPointer { v in
                TessBaseAPIInit4(handle, dataPath, languages, OEM_LSTM_ONLY, nil, 0,
                                 k.baseAddress, v.baseAddress, keys.count, 0)
            }
        }
        guard rc == 0 else {
            // `handle` is set, so deinit frees it.
            let packages = languages.split(separator: "+").map { "tesseract-\($0)" }.joined(separator: ", ")
            throw ScanError(.engine, "Tesseract has no trained data for \"\(languages)\": install it with "
                + "`scanextract models install ID` (\(packages); `scanextract models list` shows those offered), "
                + "or apt-get install tesseract-ocr-<lang>, or set TESSDATA_PREFIX")
        }
    }

    /// A separate instance for orientation and script detection (needs osd.traineddata).
    init(osdDataPath: String?) throws {
        TesseractAPI.limitThreadsOnce
        guard let h = TessBaseAPICreate() else { throw ScanError(.engine, "Tesseract could not be created") }
        handle = h
        guard TessBaseAPIInit2(handle, osdDataPath, "osd", OEM_TESSERACT_ONLY) == 0 else {
            // `handle` is set, so deinit frees it.
            throw ScanError(.engine, "Tesseract's osd.traineddata is missing (install tesseract-ocr-osd)")
        }
        TessBaseAPISetPageSegMode(handle, PSM_OSD_ONLY)
        _ = TessBaseAPISetVariable(handle, "debug_file", "/dev/null")
    }

    /// Tesseract's OpenMP threads spin and fight our own document-level workers
    /// (measured: 50% more CPU for the same pages on 2 cores), so one thread per
    /// engine unless the user asked otherwise.
    static let limitThreadsOnce: Void = {
        setenv("OMP_THREAD_LIMIT", "1", 0)
    }()

    deinit {
        TessBaseAPIEnd(handle)
        TessBaseAPIDelete(handle)
    }

    static var version: String { String(cString: TessVersion()) }

    @discardableResult
    func set(_ name: String, _ value: String) -> Bool {
        TessBaseAPISetVariable(handle, name, value) != 0
    }

    /// Hands an image to Tesseract. The pixel buffer must outlive recognition,
    /// so the caller keeps `image` alive until it has read the results.
    func setImage(_ pixels: UnsafeBufferPointer<UInt8>, width: Int, height: Int, channels: Int, dpi: Int) {
        TessBaseAPISetImage(
            handle, pixels.baseAddress, Int32(width), Int32(height), Int32(channels), Int32(width * channels))
        TessBaseAPISetSourceResolution(handle, Int32(dpi))
    }

    /// Runs recognition; returns false when it failed or was cancelled.
    func recognize(cancellation: CancellationToken?) -> Bool {
        guard let monitor = TessMonitorCreate() else { return TessBaseAPIRecognize(handle, nil) == 0 }
        defer { TessMonitorDelete(monitor) }
        if let cancellation {
            let token = Unmanaged.passUnretained(cancellation).toOpaque()
            TessMonitorSetCancelThis(monitor, token)
            TessMonitorSetCancelFunc(monitor) { ctx, _ in
                guard let ctx else { return false }
                return Unmanaged<CancellationToken>.fromOpaque(ctx).takeUnretainedValue().isCancelled
            }
        }
        return TessBaseAPIRecognize(handle, monitor) == 0
    }

    func clear() { TessBaseAPIClear(handle) }
}

/// Borrows a result iterator; frees it when done.
final class TesseractResults {
    let it: OpaquePointer

    init?(_ api: TesseractAPI) {
        guard let it = TessBaseAPIGetIterator(api.handle) else { return nil }
        self.it = it
    }

    deinit { TessResultIteratorDelete(it) }

    private var page: OpaquePointer { TessResultIteratorGetPageIterator(it) }

    func isAtBeginning(of level: TessPageIteratorLevel) -> Bool {
        TessPageIteratorIsAtBeginningOf(page, level) != 0
    }

    func next(_ level: TessPageIteratorLevel) -> Bool {
        TessResultIteratorNext(it, level) != 0
    }

    func text(_ level: TessPageIteratorLevel) -> String? {
        guard let c = TessResultIteratorGetUTF8Text(it, level) else { return nil }
        defer { TessDeleteText(c) }
        return String(cString: c)
    }

    /// 0 to 100.
    func confidence(_ level: TessPageIteratorLevel) -> Double {
        Double(TessResultIteratorConfidence(it, level))
    }

    func box(_ level: TessPageIteratorLevel) -> (left: Int, top: Int, right: Int, bottom: Int)? {
        var l: Int32 = 0, t: Int32 = 0, r: Int32 = 0, b: Int32 = 0
        guard TessPageIteratorBoundingBox(page, level, &l, &t, &r, &b) != 0 else { return nil }
        return (Int(l), Int(t), Int(r), Int(b))
    }

    /// The alternatives Tesseract considered for the current symbol, best first, with confidences 0–100.
    func symbolChoices() -> [(String, Double)] {
        guard let ci = TessResultIteratorGetChoiceIterator(it) else { return [] }
        defer { TessChoiceIteratorDelete(ci) }
        var out: [(String, Double)] = []
        repeat {
            if let t = TessChoiceIteratorGetUTF8Text(ci) {
                out.append((String(cString: t), Double(TessChoiceIteratorConfidence(ci))))
            }
        } while TessChoiceIteratorNext(ci) != 0 && out.count < 8
        return out
    }
}
