import ScanModel

/// Pages photographed or scanned a quarter or half turn off. PP-OCR reads such lines
/// anyway (it turns tall and upside-down line crops before reading them), but the boxes
/// it returns run down, up or right to left across the page, while the layout stage reads
/// lines top to bottom and words left to right. Such a page is turned upright here, on its coordinates: the
/// readings stay as they are, and `rotation` records the turn, as it does when the
/// raster itself was turned.
public enum SidewaysPage {
    /// The clockwise quarter turns that make the page's text run left to right (1, 2 or 3),
    /// or nil when it already does or can't be told: most of the text (by characters)
    /// must sit on lines much taller than wide, and their words must mostly run the
    /// same way, down (text turned clockwise) or up (counter-clockwise).
    public static func quarterTurns(_ observations: [TextObservation]) -> Int? {
        var all = 0, vertical = 0, down = 0, up = 0, rightward = 0, leftward = 0
        for o in observations {
            let n = o.text.count
            all += n
            guard n >= 3 else { continue }
            let tall = o.boundingBox.height > 1.8 * o.boundingBox.width
            if tall { vertical += n }
            guard o.words.count >= 2, let first = o.words.first?.boundingBox, let last = o.words.last?.boundingBox
            else { continue }
            if tall {
                if last.midY > first.midY { down += n } else if last.midY < first.midY { up += n }
            } else if o.boundingBox.width > 1.8 * o.boundingBox.height {
                if last.midX > first.midX { rightward += n } else if last.midX < first.midX { leftward += n }
            }
        }
        guard all > 0 else { return nil }
        if Double(vertical) >= 0.6 * Double(all), down + up > 0 {
            if Double(up) >= 2 * Double(down) { return 1 }
            if Double(down) >= 2 * Double(up) { return 3 }
            return nil
        }
        // Upside down: most multi-word lines run right to left.
        if leftward >= 3 * max(1, rightward), Double(leftward + rightward) >= 0.3 * Double(all) { return 2 }
        return nil
    }

    /// `page` turned upright when its text runs vertically or upside down; otherwise `page` unchanged.
    public static func upright(_ page: Page) -> Page {
        turnedUpright(page)?.page ?? page
    }

    /// The page turned upright on its coordinates, with the map from its old pixels to the
    /// new ones; nil when it already reads left to right (or can't be told).
    public static func turnedUpright(_ page: Page) -> (page: Page, transform: Homography)? {
        // A text layer is turned a quarter only: its words run right to left in Arabic or Hebrew, which is no page
        // upside down.
        guard page.textSource == .ocr || page.textSource == .pdfText, let q = quarterTurns(page.observations),
            page.textSource == .ocr || q != 2
        else { return nil }
        let turn = Homography.quarterTurns(q, width: page.width, height: page.height)
        var out = page.mappingBoxes(turn)
        if q != 2 {
            out.width = page.height
            out.height = page.width
        }
        out.rotation = (page.rotation + 90 * q) % 360
        return (out, turn)
    }
}
