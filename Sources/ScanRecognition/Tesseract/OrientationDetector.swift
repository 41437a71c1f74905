import CTesseract
import ScanModel

/// Tesseract's orientation and script detection (OSD), on its own: it loads only
/// `osd.traineddata`. One per worker, created on first use.
public final class OrientationDetector {
    private let dataPath: String?
    private var osd: TesseractAPI?
    private var unavailable = false

    public init(dataPath: String? = nil) {
        self.dataPath = dataPath
    }

    /// Page orientation as clockwise quarter turns needed to make text upright, with
    /// Tesseract's confidence; nil when OSD data is missing or the page has too little text.
    public func detect(_ image: RasterImage) -> (quarterTurns: Int, confidence: Double)? {
        if osd == nil && !unavailable {
            do { osd = try TesseractAPI(osdDataPath: dataPath) } catch { unavailable = true }
        }
        guard let osd else { return nil }
        defer { osd.clear() }
        var deg: Int32 = 0
        var conf: Float = 0
        var script: UnsafePointer<CChar>?
        var scriptConf: Float = 0
        let ok = image.pixels.withUnsafeBufferPointer { buf -> Bool in
            osd.setImage(buf, width: image.width, height: image.height, channels: image.channels, dpi: 300)
            return TessBaseAPIDetectOrientationScript(osd.handle, &deg, &conf, &script, &scriptConf) != 0
        }
        // The script name is owned by Tesseract's static table; nothing to free.
        guard ok else { return nil }
        // Tesseract reports the page's current rotation counter-clockwise; turning it
        // clockwise by the same amount makes it upright.
        return ((Int(deg) / 90) % 4, Double(conf))
    }

}
