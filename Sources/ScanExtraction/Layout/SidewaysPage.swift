import ScanModel

/// Pages photographed or scanned a quarter turn off. PP-OCR reads such lines anyway
/// (it turns every tall line crop before reading it), but the boxes it returns run
/// down the page, and the layout stage groups words into lines left to right. A page
/// whose text runs mostly vertically is turned upright here, on its coordinates: the
/// readings stay as they are, and `rotation` records the turn, as it does when the
/// raster itself was turned.
public enum SidewaysPage {
    /// The clockwise quarter turns that make the page's text run left to right (1 or 3),
    /// or nil when it already does or can't be told: most of the text (by characters)
    /// must sit on lines much taller than wide, and their words must mostly run the
    /// same way, down (text turned clockwise) or up (counter-clockwise).
    public static func quarterTurns(_ observations: [TextObservation]) -> Int? {
        var all = 0, vertical = 0, down = 0, up = 0
        for o in observations {
            let n = o.text.count
            all += n
            guard n >= 3, o.boundingBox.height > 1.8 * o.boundingBox.width else { continue }
            vertical += n
            guard o.words.count >= 2, let first = o.words.first?.boundingBox, let last = o.words.last?.boundingBox else { continue }
            if last.midY > first.midY { down += n } else if last.midY < first.midY { up += n }
        }
        guard all > 0, Double(vertical) >= 0.6 * Double(all), down + up > 0 else { return nil }
        if Double(up) >= 2 * Double(down) { return 1 }
        if Double(down) >= 2 * Double(up) { return 3 }
        return nil
    }

    /// `page` turned upright when its text runs vertically; otherwise `page` unchanged.
    public static func upright(_ page: Page) -> Page {
        guard page.textSource == .ocr, let q = quarterTurns(page.observations) else { return page }
        let w = page.width, h = page.height
        func turn(_ b: BoundingBox) -> BoundingBox {
            q == 1 ? BoundingBox(x: h - b.maxY, y: b.minX, width: b.height, height: b.width)
                   : BoundingBox(x: b.minY, y: w - b.maxX, width: b.height, height: b.width)
        }
        var out = page
        out.width = h
        out.height = w
        out.rotation = (page.rotation + 90 * q) % 360
        out.observations = page.observations.map { o in
            var t = o
            t.boundingBox = turn(o.boundingBox)
            t.words = o.words.map { var w = $0; w.boundingBox = turn($0.boundingBox); return w }
            return t
        }
        return out
    }
}
