import ScanModel

/// The orientation a camera wrote into a JPEG's EXIF data (tag 0x0112): how the stored pixels are turned and
/// mirrored for display. Phones store a portrait photo as the sensor saw it, lying on its side, with
/// orientation 6; viewers and browsers turn it upright. Read by our own code from the APP1 segment.
public enum ExifOrientation: Int, Sendable, CaseIterable {
    case normal = 1, mirrored, upsideDown, upsideDownMirrored, transposed, turnedRight, transverse, turnedLeft

    /// The orientation of `jpeg`'s EXIF data, nil when it has none (or none that can be read). Every offset is
    /// checked against the file's end, so a hostile segment only means no orientation.
    public static func of(jpeg d: [UInt8]) -> ExifOrientation? {
        var o = 2
        // The segments before the first scan; the EXIF segment, when there is one, comes first or second.
        for _ in 0..<32 {
            guard o + 3 < d.count, d[o] == 0xFF else { return nil }
            let marker = d[o + 1]
            if marker == 0xFF { o += 1; continue }
            guard marker != 0xDA, marker != 0xD9, let length = ImageHeader.be(d, o + 2, 2), length >= 2 else {
                return nil
            }
            let body = o + 4
            if marker == 0xE1, length >= 16, Array(d[body..<min(d.count, body + 6)]) == Array("Exif\0\0".utf8) {
                return fromTIFF(d, at: body + 6, end: min(d.count, o + 2 + length))
            }
            o += 2 + length
        }
        return nil
    }

    /// The orientation entry of the first image directory of the TIFF structure at `start`.
    static func fromTIFF(_ d: [UInt8], at start: Int, end: Int) -> ExifOrientation? {
        guard start + 8 <= end else { return nil }
        let little: Bool
        switch (d[start], d[start + 1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u(_ offset: Int, _ n: Int) -> Int? {
            guard offset >= start, offset + n <= end else { return nil }
            return little ? ImageHeader.le(d, offset, n) : ImageHeader.be(d, offset, n)
        }
        guard u(start + 2, 2) == 42, let ifd = u(start + 4, 4), let count = u(start + ifd, 2) else { return nil }
        for k in 0..<min(count, 512) {
            let entry = start + ifd + 2 + 12 * k
            guard let tag = u(entry, 2) else { return nil }
            // A SHORT, held in the first two bytes of the entry's value field.
            if tag == 0x0112 {
                guard u(entry + 2, 2) == 3, let value = u(entry + 8, 2) else { return nil }
                return ExifOrientation(rawValue: value)
            }
        }
        return nil
    }

    /// Whether the picture is mirrored left to right before its quarter turns.
    var mirrors: Bool { [.mirrored, .upsideDownMirrored, .transposed, .transverse].contains(self) }

    /// The clockwise quarter turns after the mirroring.
    var quarterTurns: Int {
        switch self {
        case .normal, .mirrored: return 0
        case .turnedRight, .transverse: return 1
        case .upsideDown, .upsideDownMirrored: return 2
        case .turnedLeft, .transposed: return 3
        }
    }

    /// Where the stored picture's bottom rows end up once it is displayed: mirroring left to right keeps
    /// them at the bottom, and each clockwise quarter turn moves them on to the left, the top, the right.
    var sideShowingTheStoredBottom: String {
        ["bottom", "left side", "top", "right side"][quarterTurns]
    }

    /// `stored` as it is displayed.
    public func displayed(_ stored: RasterImage) -> RasterImage {
        guard self != .normal else { return stored }
        return Preprocessor.rotated(mirrors ? Self.mirroredLeftToRight(stored) : stored, quarterTurns: quarterTurns)
    }

    static func mirroredLeftToRight(_ image: RasterImage) -> RasterImage {
        let w = image.width, c = image.channels
        var out = image.pixels
        for y in 0..<image.height {
            let row = y * w * c
            for x in 0..<w {
                for k in 0..<c { out[row + x * c + k] = image.pixels[row + (w - 1 - x) * c + k] }
            }
        }
        return RasterImage(width: w, height: image.height, channels: c, pixels: out)
    }
}
