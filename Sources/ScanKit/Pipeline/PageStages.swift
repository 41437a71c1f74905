import ScanLayout
import ScanModel

/// A page as the stages after recognition see it: upright, in the pixels its text was
/// read in, with the map from the user's pixels to those.
struct WorkingPage {
    var page: Page
    let sourceWidth: Double
    let sourceHeight: Double
    /// Maps the user's pixels to `page`'s.
    var transform: Homography
    /// What the stages found wrong on the page (`RecognizedRaster.findings`).
    var findings: [Finding] = []

    /// A page whose boxes are already in the user's pixels (a PDF text layer, a blank page).
    init(source page: Page) {
        self.page = page
        sourceWidth = page.width
        sourceHeight = page.height
        transform = .identity
    }

    init(recognized: RecognizedRaster, sourceWidth: Double, sourceHeight: Double) {
        page = recognized.page
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        transform = recognized.transform
        findings = recognized.findings
    }

    /// A page read from a scanextract document: back on the upright page its layout was worked
    /// out on, when the document says which (`upright`).
    init(imported page: Page) {
        self.init(source: page)
        guard let upright = page.upright, !upright.transform.isIdentity else { return }
        var p = page.mappingBoxes(upright.transform)
        p.width = upright.width
        p.height = upright.height
        p.upright = nil
        self.page = p
        transform = upright.transform
    }
}

/// The page stages after recognition: upright → filters → layout. Pure: no engine.
enum PageStages {
    /// Pages read with their lines running down, up or right to left turned upright on
    /// their coordinates (engines that read turned lines return such pages).
    static func upright(_ w: WorkingPage) -> WorkingPage {
        guard let (page, turn) = SidewaysPage.turnedUpright(w.page) else { return w }
        var out = w
        out.page = page
        out.transform = w.transform.then(turn)
        return out
    }

    /// The region of interest (for pages whose text was not recognized from a crop) and
    /// the minimum text height.
    static func filtered(_ w: WorkingPage, _ configuration: ScanConfiguration, regionApplied: Bool) -> WorkingPage {
        var out = w
        if !regionApplied, let roi = configuration.regionOfInterest {
            // In the user's pixels: take each observation's centre there.
            let r = roi.box(pageWidth: w.sourceWidth, pageHeight: w.sourceHeight)
            let back = w.transform.inverse ?? .identity
            out.page.observations = w.page.observations.filter { o in
                let c = back.apply(Point(x: o.boundingBox.midX, y: o.boundingBox.midY))
                return r.minX <= c.x && c.x <= r.maxX && r.minY <= c.y && c.y <= r.maxY
            }
        }
        if configuration.minimumTextHeight > 0, w.page.height > 0 {
            let minH = configuration.minimumTextHeight * w.page.height
            out.page.observations = out.page.observations.filter { $0.boundingBox.height >= minH }
        }
        return out
    }

    /// Blocks of lines of words in reading order, stored on the page once.
    static func laidOut(_ w: WorkingPage) -> WorkingPage {
        var out = w
        out.page = LayoutAnalyzer.withWords(w.page)
        out.page.layout = LayoutAnalyzer.layout(of: out.page, frame: documentFrame(w), doubtedFrame: doubtedFrame(w))
        return out
    }

    /// The quadrilateral of the document photographed on a page that was read as it is (not flattened),
    /// in the page's pixels; its upright rectangle is the layout's frame. It is the camera's quad, when
    /// that passed the camera's checks (a quad found on a card beside the receipt, or on its header
    /// block, would skew every row). The camera records it in the user's pixels; it is carried into the
    /// page's (a crop, a quarter turn to upright), its corners named again when a turn moved them.
    static func documentFrame(_ w: WorkingPage) -> Quad? { cameraQuad(w, checked: true) }

    /// The camera's quad on a page read as it is where its checks failed (`checked` false), in the page's pixels as
    /// `documentFrame` carries it: the layout frames the rows in it only when the lines inside it agree.
    static func doubtedFrame(_ w: WorkingPage) -> Quad? { cameraQuad(w, checked: false) }

    /// The quad of a page the camera found and did not flatten, whose checks gave `checked`, in the page's pixels.
    private static func cameraQuad(_ w: WorkingPage, checked: Bool) -> Quad? {
        guard let c = w.page.camera, !c.flattened, c.checked == checked else { return nil }
        return w.transform.isIdentity ? c.quad : w.transform.apply(c.quad).relabelledLevel()
    }

    /// The one place where boxes go back to the user's pixels: every box of the document
    /// (observations, words, layout, entities, fields' provenance) is mapped through the
    /// inverse of its page's transform; each page takes the user's size again and records
    /// the upright page it was read on.
    static func toSource(_ doc: Document, _ pages: [WorkingPage]) -> Document {
        var maps: [Int: Homography] = [:]
        for w in pages where !w.transform.isIdentity || w.page.textSource == .ocr {
            if let back = w.transform.inverse { maps[w.page.index] = back }
        }
        var out = doc.mappingBoxes(maps)
        let byIndex = Dictionary(pages.map { ($0.page.index, $0) }, uniquingKeysWith: { a, _ in a })
        out.pages = out.pages.map { page in
            // A crop at the page's corner moves nothing, yet the page read is smaller than the user's.
            guard let w = byIndex[page.index],
                !w.transform.isIdentity || w.page.width != w.sourceWidth || w.page.height != w.sourceHeight
            else { return page }
            var p = page
            p.upright = UprightPage(width: w.page.width, height: w.page.height, transform: w.transform)
            p.width = w.sourceWidth
            p.height = w.sourceHeight
            return p
        }
        return out
    }
}
