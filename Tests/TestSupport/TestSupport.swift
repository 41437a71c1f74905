import CPoppler
import Foundation
import ScanModel

/// A line of text to draw: its baseline starts at (x, y) in points/pixels.
public struct DrawnLine: Sendable {
    public var text: String
    public var x: Double
    public var y: Double
    public var size: Double
    public var bold: Bool
    /// The font family cairo draws with.
    public var family = "DejaVu Sans"

    public init(_ text: String, x: Double, y: Double, size: Double = 24, bold: Bool = false) {
        self.text = text
        self.x = x
        self.y = y
        self.size = size
        self.bold = bold
    }
}

/// Draws test inputs with cairo, so no test needs a fixture from outside.
public enum Drawing {
    /// Draws `lines` black on white onto a cairo context.
    static func draw(_ cr: OpaquePointer, _ lines: [DrawnLine], width: Double, height: Double, rotation: Double) {
        cairo_set_source_rgb(cr, 1, 1, 1)
        cairo_paint(cr)
        if rotation != 0 {
            cairo_translate(cr, width / 2, height / 2)
            cairo_rotate(cr, rotation * Double.pi / 180)
            cairo_translate(cr, -width / 2, -height / 2)
        }
        cairo_set_source_rgb(cr, 0, 0, 0)
        for l in lines {
            cairo_select_font_face(cr, l.family, CAIRO_FONT_SLANT_NORMAL,
                                   l.bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL)
            cairo_set_font_size(cr, l.size)
            cairo_move_to(cr, l.x, l.y)
            cairo_show_text(cr, l.text)
        }
    }

    /// Writes a PNG of `lines` (gray text on white), optionally rotated by `rotation` degrees.
    public static func writePNG(_ lines: [DrawnLine], width: Int, height: Int, rotation: Double = 0, to path: String) {
        let s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width), Int32(height))!
        defer { cairo_surface_destroy(s) }
        let cr = cairo_create(s)!
        draw(cr, lines, width: Double(width), height: Double(height), rotation: rotation)
        cairo_destroy(cr)
        cairo_surface_write_to_png(s, path)
    }

    /// The PNG at `png` encoded as HEIC (or, with `avif`, as AVIF) at `quality` by libheif's `heif-enc` (Debian's
    /// libheif-examples, which `make deps` installs), written to `path`. Returns heif-enc's exit status.
    @discardableResult
    public static func writeHEIF(from png: String, to path: String, avif: Bool = false, quality: Int = 90) throws
        -> Int32
    {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/heif-enc")
        p.arguments = (avif ? ["-A"] : []) + ["-q", "\(quality)", png, "-o", path]
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        return p.terminationStatus
    }

    /// Renders `lines` into an RGB `RasterImage`.
    public static func raster(_ lines: [DrawnLine], width: Int, height: Int, rotation: Double = 0) -> RasterImage {
        let s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width), Int32(height))!
        defer { cairo_surface_destroy(s) }
        let cr = cairo_create(s)!
        draw(cr, lines, width: Double(width), height: Double(height), rotation: rotation)
        cairo_destroy(cr)
        cairo_surface_flush(s)
        let stride = Int(cairo_image_surface_get_stride(s))
        let data = cairo_image_surface_get_data(s)!
        var px = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            let row = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width {
                let v = row[x]
                px[(y * width + x) * 3] = UInt8(truncatingIfNeeded: v >> 16)
                px[(y * width + x) * 3 + 1] = UInt8(truncatingIfNeeded: v >> 8)
                px[(y * width + x) * 3 + 2] = UInt8(truncatingIfNeeded: v)
            }
        }
        return RasterImage(width: width, height: height, channels: 3, pixels: px)
    }

    /// Writes a PDF, one page per entry, in points. With `asImage`, each page is a
    /// picture of its text (a "scanned" PDF with no text layer).
    public static func writePDF(_ pages: [[DrawnLine]], width: Double = 595, height: Double = 842,
                                asImage: Bool = false, to path: String) {
        let s = cairo_pdf_surface_create(path, width, height)!
        defer { cairo_surface_destroy(s) }
        let cr = cairo_create(s)!
        for lines in pages {
            if asImage {
                // Rasterize at 200 dpi and paint it scaled back into the page.
                let k = 200.0 / 72
                let img = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width * k), Int32(height * k))!
                let icr = cairo_create(img)!
                cairo_scale(icr, k, k)
                draw(icr, lines, width: width, height: height, rotation: 0)
                cairo_destroy(icr)
                cairo_save(cr)
                cairo_scale(cr, 1 / k, 1 / k)
                cairo_set_source_surface(cr, img, 0, 0)
                cairo_paint(cr)
                cairo_restore(cr)
                cairo_surface_destroy(img)
            } else {
                draw(cr, lines, width: width, height: height, rotation: 0)
            }
            cairo_show_page(cr)
        }
        cairo_destroy(cr)
        cairo_surface_finish(s)
    }

    /// A fresh temporary folder for one test.
    public static func temporaryDirectory() -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "scanextract-tests-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir.path
    }
}

import CLeptonica

extension Drawing {
    /// Writes a multi-page TIFF, one page per image (through Leptonica).
    public static func writeMultipageTIFF(_ pages: [RasterImage], to path: String) {
        for (i, img) in pages.enumerated() {
            let gray = img.grayscale()
            guard let pix = pixCreate(Int32(gray.width), Int32(gray.height), 8) else { continue }
            for y in 0..<gray.height {
                for x in 0..<gray.width {
                    pixSetPixel(pix, Int32(x), Int32(y), UInt32(gray.pixels[y * gray.width + x]))
                }
            }
            pixWriteTiff(path, pix, Int32(IFF_TIFF_ZIP), i == 0 ? "w" : "a")
            var p: UnsafeMutablePointer<PIX>? = pix
            pixDestroy(&p)
        }
    }

    /// Lines of a small receipt, drawn at `scale` (1: about 24 px text).
    public static func receiptLines(scale: Double = 1) -> [DrawnLine] {
        let s = scale
        return [
            DrawnLine("CORNER BAKERY", x: 60 * s, y: 60 * s, size: 32 * s, bold: true),
            DrawnLine("12 Market Street", x: 60 * s, y: 110 * s, size: 24 * s),
            DrawnLine("Date: 03/15/2024", x: 60 * s, y: 160 * s, size: 24 * s),
            DrawnLine("Croissant", x: 60 * s, y: 220 * s, size: 24 * s),
            DrawnLine("3.50", x: 420 * s, y: 220 * s, size: 24 * s),
            DrawnLine("Coffee", x: 60 * s, y: 260 * s, size: 24 * s),
            DrawnLine("2.75", x: 420 * s, y: 260 * s, size: 24 * s),
            DrawnLine("TOTAL", x: 60 * s, y: 320 * s, size: 28 * s, bold: true),
            DrawnLine("6.25", x: 420 * s, y: 320 * s, size: 28 * s, bold: true),
        ]
    }
}

extension Drawing {
    /// Encodes `image` (gray or RGB) as JPEG (baseline unless `progressive`) through Leptonica.
    public static func jpegBytes(_ image: RasterImage, quality: Int = 85, progressive: Bool = false) -> [UInt8] {
        encode(image) { data, size, pix in pixWriteMemJpeg(data, size, pix, Int32(quality), progressive ? 1 : 0) }
    }

    /// Encodes `image` (gray or RGB) as PNG through Leptonica.
    public static func pngBytes(_ image: RasterImage) -> [UInt8] {
        encode(image) { data, size, pix in pixWriteMemPng(data, size, pix, 0) }
    }

    /// Encodes `image` in a format Leptonica writes (`IFF_BMP`, `IFF_GIF`, `IFF_WEBP`...).
    public static func encodedBytes(_ image: RasterImage, format: Int32) -> [UInt8] {
        encode(image) { data, size, pix in pixWriteMem(data, size, pix, format) }
    }

    /// An uncompressed 8-bit TIFF (gray, or RGB with `rgb`) whose directory comes before its pixels, in strips
    /// of 8 rows (as many writers lay it out), so that a file cut short keeps its directory and loses image data.
    public static func tiffWithDirectoryFirst(_ image: RasterImage, rgb: Bool = false) -> [UInt8] {
        let pixels =
            rgb
            ? (image.channels == 3 ? image.pixels : image.pixels.flatMap { [$0, $0, $0] }) : image.grayscale().pixels
        let samples = rgb ? 3 : 1, rowBytes = image.width * samples, rowsPerStrip = 8
        let strips = (image.height + rowsPerStrip - 1) / rowsPerStrip
        func u16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { u16(v & 0xFFFF) + u16(v >> 16) }
        let entries = 10, ifdSize = 2 + entries * 12 + 4
        // After the directory: the three bits-per-sample of RGB (which do not fit in an entry), then the strip tables.
        let bits = 8 + ifdSize, arrays = bits + 8, dataStart = arrays + 8 * strips
        func entry(_ tag: Int, _ type: Int, _ count: Int, _ value: Int) -> [UInt8] {
            u16(tag) + u16(type) + u32(count) + (type == 3 && count == 1 ? u16(value) + [0, 0] : u32(value))
        }
        var out = Array("II*\0".utf8) + u32(8) + u16(entries)
        out += entry(256, 4, 1, image.width) + entry(257, 4, 1, image.height)
        out += rgb ? entry(258, 3, 3, bits) : entry(258, 3, 1, 8)
        out +=
            entry(259, 3, 1, 1) + entry(262, 3, 1, rgb ? 2 : 1) + entry(273, 4, strips, arrays)
            + entry(277, 3, 1, samples)
        out +=
            entry(278, 4, 1, rowsPerStrip) + entry(279, 4, strips, arrays + 4 * strips) + entry(284, 3, 1, 1) + u32(0)
        out += u16(8) + u16(8) + u16(8) + [0, 0]
        for k in 0..<strips { out += u32(dataStart + k * rowsPerStrip * rowBytes) }
        for k in 0..<strips { out += u32(min(rowsPerStrip, image.height - k * rowsPerStrip) * rowBytes) }
        return out + pixels
    }

    private static func encode(_ image: RasterImage,
                               _ write: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, UnsafeMutablePointer<Int>,
                                         UnsafeMutablePointer<PIX>) -> Int32) -> [UInt8] {
        let gray = image.channels == 1
        guard let pix = pixCreate(Int32(image.width), Int32(image.height), gray ? 8 : 32) else { return [] }
        var p: UnsafeMutablePointer<PIX>? = pix
        defer { pixDestroy(&p) }
        for y in 0..<image.height {
            for x in 0..<image.width {
                let o = (y * image.width + x) * image.channels
                let v: UInt32 =
                    gray
                    ? UInt32(image.pixels[o])
                    : UInt32(image.pixels[o]) << 24 | UInt32(image.pixels[o + 1]) << 16 | UInt32(image.pixels[o + 2])
                        << 8
                pixSetPixel(pix, Int32(x), Int32(y), v)
            }
        }
        var data: UnsafeMutablePointer<UInt8>?
        var size = 0
        guard write(&data, &size, pix) == 0, let data else { return [] }
        defer { lept_free(data) }
        return [UInt8](UnsafeBufferPointer(start: data, count: size))
    }

    /// A tall page of numbered text lines from top to bottom, gray, to damage in tests.
    public static func tallPage(width: Int = 480, height: Int = 960) -> RasterImage {
        let lines = stride(from: 40, to: height - 10, by: 40).map {
            DrawnLine("Line \($0) of the page", x: 20, y: Double($0), size: 24)
        }
        return raster(lines, width: width, height: height).grayscale()
    }
}

extension Drawing {
    /// A faded thermal receipt: `image`'s ink only `contrast` levels darker than its paper,
    /// the paper yellowed unevenly from `paper.lowerBound` (bottom right) to `paper.upperBound`
    /// (top left), with blotches of `blotches` levels and a little grain. Deterministic.
    public static func faded(_ image: RasterImage, contrast: Double = 40, paper: ClosedRange<Double> = 186...234,
                             blotches: Double = 0) -> RasterImage {
        let gray = image.grayscale()
        var out = gray.pixels
        var seed: UInt32 = 12345
        let w = Double(gray.width), h = Double(gray.height)
        for y in 0..<gray.height {
            for x in 0..<gray.width {
                seed = seed &* 1_664_525 &+ 1_013_904_223
                let grain = Double(seed >> 24) / 255 * 10 - 5
                let along = (Double(x) / w + Double(y) / h) / 2
                let blotch = blotches * sin(Double(x) / 41) * cos(Double(y) / 29)
                let local = paper.upperBound - (paper.upperBound - paper.lowerBound) * along + blotch
                let v = local - contrast * (1 - Double(gray.pixels[y * gray.width + x]) / 255) + grain
                out[y * gray.width + x] = UInt8(max(0, min(255, v.rounded())))
            }
        }
        return RasterImage(width: gray.width, height: gray.height, channels: 1, pixels: out)
    }
}

extension Drawing {
    /// A one-page PDF written byte by byte, with lines of text (Helvetica, 12 pt, from the top) and one embedded file
    /// under `/EmbeddedFiles`, as a PDF/A-3 invoice carries its XML. Cairo writes no attachments.
    public static func pdfWithAttachment(lines: [String], attachment name: String, bytes: [UInt8]) -> [UInt8] {
        pdfBytes(lines: lines, attachment: (name, bytes))
    }

    /// A one-page PDF written byte by byte: lines of text (Helvetica, 12 pt, from the top), the page shown turned by
    /// `rotate` degrees (`/Rotate`), and optionally one embedded file.
    public static func pdfBytes(lines: [String], rotate: Int = 0, attachment: (name: String, bytes: [UInt8])? = nil)
        -> [UInt8]
    {
        let name = attachment?.name ?? "none.xml", bytes = attachment?.bytes ?? []
        func escaped(_ s: String) -> String {
            s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "(", with: "\\(")
                .replacingOccurrences(of: ")", with: "\\)")
        }
        let text = "BT /F1 12 Tf 14 TL 72 770 Td " + lines.map { "(\(escaped($0))) Tj T* " }.joined() + "ET"
        let names = attachment == nil ? "" : " /Names << /EmbeddedFiles << /Names [(\(escaped(name))) 5 0 R] >> >>"
        let objects: [[UInt8]] = [
            Array("<< /Type /Catalog /Pages 2 0 R\(names) >>".utf8),
            Array("<< /Type /Pages /Kids [3 0 R] /Count 1 >>".utf8),
            Array(("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Rotate \(rotate)"
                + " /Resources << /Font << /F1 4 0 R >> >> /Contents 7 0 R >>").utf8),
            Array("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>".utf8),
            Array(("<< /Type /Filespec /F (\(escaped(name))) /UF (\(escaped(name))) /AFRelationship /Data"
                + " /EF << /F 6 0 R >> >>").utf8),
            Array("<< /Type /EmbeddedFile /Subtype /text#2Fxml /Length \(bytes.count) >>\nstream\n".utf8) + bytes
                + Array("\nendstream".utf8),
            Array("<< /Length \(text.utf8.count) >>\nstream\n\(text)\nendstream".utf8),
        ]
        var out = Array("%PDF-1.7\n%\u{E2}\u{E3}\n".utf8)
        var offsets: [Int] = []
        for (n, body) in objects.enumerated() {
            offsets.append(out.count)
            out += Array("\(n + 1) 0 obj\n".utf8) + body + Array("\nendobj\n".utf8)
        }
        let xref = out.count
        out += Array("xref\n0 \(objects.count + 1)\n0000000000 65535 f \n".utf8)
        for o in offsets { out += Array(String(format: "%010d 00000 n \n", o).utf8) }
        out += Array("trailer\n<< /Size \(objects.count + 1) /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n".utf8)
        return out
    }
}
