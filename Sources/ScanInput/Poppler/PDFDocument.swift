import CPoppler
import Foundation
import ScanModel

/// Owns a poppler-glib document. Internal: pages leave this module as
/// `RasterImage`s or as `Page`s built from the text layer.
///
/// Text is read from a copy whose catalog has no `/OutputIntents` (see
/// `withoutOutputIntents`): poppler builds colour transforms from that ICC profile for every
/// page it reads, text or not, which was most of the CPU of a PDF/A page's text layer. Pages
/// that must be rendered are rendered from the file as it is, opened only then.
final class PDFDocument {
    private let handle: OpaquePointer
    /// The file as it came, kept when the text copy differs from it, for rendering.
    private let original: [UInt8]?
    /// The document opened from `original`, on the first page that is rendered.
    private var renderDocument: PDFDocument?

    /// Whether the text layer is read from a copy without the catalog's output intents.
    var readsTextWithoutOutputIntents: Bool { original != nil }

    /// Opens a PDF from memory. Throws `encrypted` or `corrupt` with poppler's reason.
    convenience init(data: [UInt8]) throws {
        if let forText = PDFDocument.withoutOutputIntents(data) {
            try self.init(opening: forText, original: data)
        } else {
            try self.init(opening: data, original: nil)
        }
    }

    private init(opening data: [UInt8], original: [UInt8]?) throws {
        self.original = original
        let bytes = data.withUnsafeBufferPointer { buf in
            g_bytes_new(buf.baseAddress, gsize(buf.count))
        }
        defer { g_bytes_unref(bytes) }
        var error: UnsafeMutablePointer<GError>?
        guard let doc = poppler_document_new_from_bytes(bytes, nil, &error) else {
            var reason = "the PDF could not be opened"
            var code = ScanError.Code.corrupt
            if let e = error {
                if e.pointee.domain == poppler_error_quark()
                    && e.pointee.code == Int32(POPPLER_ERROR_ENCRYPTED.rawValue)
                {
                    code = .encrypted
                    reason = "the PDF is encrypted and needs a password"
                } else if let m = e.pointee.message {
                    reason += ": " + String(cString: m)
                }
                g_error_free(e)
            }
            throw ScanError(code, reason)
        }
        handle = doc
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(handle))
    }

    static var popplerVersion: String { String(cString: poppler_get_version()) }

    var pageCount: Int { Int(poppler_document_get_n_pages(handle)) }

    func page(_ index: Int) throws -> PDFPage {
        guard index >= 0, index < pageCount, let p = poppler_document_get_page(handle, Int32(index)) else {
            throw ScanError(.corrupt, page: index, "page \(index + 1) cannot be read")
        }
        return PDFPage(taking: p, document: self)
    }

    /// Page `index` for rendering: from the file as it is, so that its colours are managed as
    /// the file asks; `loaded` (the same page of this document) when this document is the file.
    func pageForRendering(_ index: Int, loaded: PDFPage) throws -> PDFPage {
        guard let original else { return loaded }
        if renderDocument == nil { renderDocument = try PDFDocument(opening: original, original: nil) }
        return try renderDocument!.page(index)
    }

    /// The name of the catalog key that makes poppler manage colour for every page it reads.
    static let outputIntentsKey = Array("/OutputIntents".utf8)

    /// A copy of `data` in which each `/OutputIntents` name, as PDF/A files carry it in their
    /// catalog, is renamed `/OutputIntent_` (as long, so every byte offset of the file stays
    /// right); nil when the file holds none in plain sight (e.g. its catalog is in a
    /// compressed object stream). poppler builds colour transforms from the output intent's
    /// ICC profile for each page it reads; text extraction uses no colour, so the words and
    /// boxes come out the same.
    static func withoutOutputIntents(_ data: [UInt8]) -> [UInt8]? {
        let key = outputIntentsKey
        var copy: [UInt8]?
        data.withUnsafeBufferPointer { buf in
            guard let base = buf.baseAddress, buf.count >= key.count else { return }
            var offset = 0
            // Each "/" found by memchr, then the rest of the name compared.
            while offset + key.count <= buf.count,
                  let slash = memchr(base + offset, Int32(key[0]), buf.count - offset - key.count + 1) {
                let at = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(slash))
                let end = at + key.count
                // The whole name, not the start of a longer one.
                if memcmp(base + at, key, key.count) == 0 && (end == buf.count || isNameDelimiter(buf[end])) {
                    if copy == nil { copy = data }
                    copy![end - 1] = UInt8(ascii: "_")
                    offset = end
                } else {
                    offset = at + 1
                }
            }
        }
        return copy
    }

    /// White space or a delimiter: what ends a PDF name (ISO 32000-1, 7.2.2).
    private static func isNameDelimiter(_ byte: UInt8) -> Bool {
        switch byte {
        case 0, 9, 10, 12, 13, 32: return true
        case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "["),
             UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "/"), UInt8(ascii: "%"):
            return true
        default: return false
        }
    }
}

/// One character of a page's text layer, with its box in PDF points (top-left origin).
struct PDFGlyph {
    var scalar: Unicode.Scalar
    var x0: Double, y0: Double, x1: Double, y1: Double
}

/// Owns a poppler page (and keeps its document alive).
final class PDFPage {
    private let handle: OpaquePointer
    private let document: PDFDocument

    init(taking handle: OpaquePointer, document: PDFDocument) {
        self.handle = handle
        self.document = document
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(handle))
    }

    /// Size in PDF points (1/72 inch), rotation applied.
    var size: (width: Double, height: Double) {
        var w = 0.0, h = 0.0
        poppler_page_get_size(handle, &w, &h)
        return (w, h)
    }

    /// The characters of the text layer in poppler's reading order, each with its box.
    /// Line breaks come through as `\n` glyphs.
    func glyphs() -> [PDFGlyph] {
        guard let cText = poppler_page_get_text(handle) else { return [] }
        defer { g_free(cText) }
        let text = String(cString: cText)
        var rects: UnsafeMutablePointer<PopplerRectangle>?
        var count: guint = 0
        guard poppler_page_get_text_layout(handle, &rects, &count) != 0, let rects else {
            return []
        }
        defer { g_free(rects) }
        var out: [PDFGlyph] = []
        out.reserveCapacity(Int(count))
        var i = 0
        for s in text.unicodeScalars {
            guard i < Int(count) else { break }
            let r = rects[i]
            out.append(PDFGlyph(scalar: s, x0: min(r.x1, r.x2), y0: min(r.y1, r.y2),
                                x1: max(r.x1, r.x2), y1: max(r.y1, r.y2)))
            i += 1
        }
        return out
    }

    /// Renders the page at `dpi` onto white, as RGB.
    func render(dpi: Double, maxPixels: Int) throws -> RasterImage {
        let (wPt, hPt) = size
        let scale = dpi / 72
        let w = Int((wPt * scale).rounded(.up)), h = Int((hPt * scale).rounded(.up))
        guard w > 0, h > 0 else { throw ScanError(.emptyPage, "the page has no area") }
        guard w * h <= maxPixels else {
            throw ScanError(
                .tooLarge,
                "the page would render to \(w)×\(h) pixels at \(Int(dpi)) dpi, over the limit of \(maxPixels) pixels")
        }
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(w), Int32(h)) else {
            throw ScanError(.tooLarge, "no memory to render the page")
        }
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let cr = cairo_create(surface) else {
            throw ScanError(.tooLarge, "no memory to render the page")
        }
        cairo_set_source_rgb(cr, 1, 1, 1)
        cairo_paint(cr)
        cairo_scale(cr, scale, scale)
        poppler_page_render_for_printing(handle, cr)
        cairo_destroy(cr)
        cairo_surface_flush(surface)
        guard let data = cairo_image_surface_get_data(surface) else {
            throw ScanError(.corrupt, "the page could not be rendered")
        }
        let stride = Int(cairo_image_surface_get_stride(surface))
        var out = [UInt8](repeating: 0, count: w * h * 3)
        data.withMemoryRebound(to: UInt8.self, capacity: stride * h) { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<h {
                    let row = UnsafeRawPointer(src + y * stride).assumingMemoryBound(to: UInt32.self)
                    for x in 0..<w {
                        let v = row[x]  // native-endian 0x00RRGGBB
                        let o = (y * w + x) * 3
                        dst[o] = UInt8(truncatingIfNeeded: v >> 16)
                        dst[o + 1] = UInt8(truncatingIfNeeded: v >> 8)
                        dst[o + 2] = UInt8(truncatingIfNeeded: v)
                    }
                }
            }
        }
        return RasterImage(width: w, height: h, channels: 3, pixels: out)
    }
}

extension PDFDocument {
    /// The XML files embedded in the PDF (its `/EmbeddedFiles`, by their names), each read up to `maxBytes`, at most
    /// `maxCount` of them and `maxBytes` twice over in all: a larger one is left out, as is one poppler cannot read,
    /// and a file of many attachments cannot take the memory. PDF/A-3 invoices carry their structured twin so
    /// (Factur-X, ZUGFeRD, XRechnung).
    func attachments(maxBytes: Int, maxCount: Int = 8) -> [(name: String, bytes: [UInt8])] {
        guard poppler_document_has_attachments(handle) != 0 else { return [] }
        let list = poppler_document_get_attachments(handle)
        defer { g_list_free_full(list) { g_object_unref($0) } }
        final class Sink {
            var bytes: [UInt8] = []
            let limit: Int
            init(limit: Int) { self.limit = limit }
        }
        var out: [(name: String, bytes: [UInt8])] = []
        var node = list
        while let n = node {
            defer { node = n.pointee.next }
            guard let raw = n.pointee.data else { continue }
            let attachment = raw.assumingMemoryBound(to: PopplerAttachment.self)
            let name = poppler_attachment_get_name(attachment).map { String(cString: $0) } ?? ""
            guard name.lowercased().hasSuffix(".xml"), out.count < maxCount else { continue }
            let budget = 2 * maxBytes - out.reduce(0) { $0 + $1.bytes.count }
            guard budget > 0 else { break }
            let sink = Sink(limit: min(maxBytes, budget))
            let box = Unmanaged.passUnretained(sink).toOpaque()
            var error: UnsafeMutablePointer<GError>?
            let save: PopplerAttachmentSaveFunc = { buf, count, data, _ in
                let sink = Unmanaged<Sink>.fromOpaque(data!).takeUnretainedValue()
                guard sink.bytes.count + Int(count) <= sink.limit else { return 0 }
                buf.map { sink.bytes.append(contentsOf: UnsafeRawBufferPointer(start: $0, count: Int(count))) }
                return 1
            }
            let saved = withExtendedLifetime(sink) {
                poppler_attachment_save_to_callback(attachment, save, box, &error)
            }
            if let error { g_error_free(error) }
            if saved != 0 { out.append((name, sink.bytes)) }
        }
        return out
    }
}
