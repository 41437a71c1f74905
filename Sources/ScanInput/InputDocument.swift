import Foundation
import ScanModel

/// Limits that protect the machine from hostile or accidental inputs.
public struct InputLimits: Sendable, Hashable, Codable {
    /// Largest page, in pixels (width × height), decoded or rendered.
    public var maxPixels: Int
    /// Largest file, in bytes.
    public var maxFileBytes: Int
    /// Resolution at which PDF pages without a text layer are rendered.
    public var renderDPI: Double
    /// Most pages a document (PDF, multi-page TIFF, JSON) may have.
    public var maxPages: Int

    public init(maxPixels: Int = 150_000_000, maxFileBytes: Int = 512 << 20, renderDPI: Double = 300,
                maxPages: Int = 1000) {
        self.maxPixels = maxPixels
        self.maxFileBytes = maxFileBytes
        self.renderDPI = renderDPI
        self.maxPages = maxPages
    }

    private enum CodingKeys: String, CodingKey { case maxPixels, maxFileBytes, renderDPI, maxPages }

    /// A configuration written before `maxPages` existed (a job queued by an older server) still reads.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            maxPixels: try c.decode(Int.self, forKey: .maxPixels),
            maxFileBytes: try c.decode(Int.self, forKey: .maxFileBytes),
            renderDPI: try c.decode(Double.self, forKey: .renderDPI),
            maxPages: try c.decodeIfPresent(Int.self, forKey: .maxPages) ?? InputLimits().maxPages)
    }
}

/// A page as it comes out of its source: pixels to recognize, or text already
/// recognized (a PDF text layer).
public enum SourcePage {
    /// `findings` says what went wrong while decoding when the page came out only
    /// in part (code `page-damaged`); the pipeline adds them to the document's warnings.
    case raster(RasterImage, dpi: Double?, findings: [Finding])
    case text(Page)
}

/// An opened input file. Pages are decoded or rendered one at a time, on demand,
/// so a long PDF never sits in memory as pixels all at once.
public final class InputDocument {
    /// The name given when opening: the path, or the name of bytes from memory.
    /// Errors name it, and documents take it as their source.
    public let path: String
    public let kind: InputKind
    public let pageCount: Int
    /// For `.json` inputs: the document as it was read.
    public let importedDocument: Document?

    private let data: [UInt8]
    private let pdf: PDFDocument?
    /// A TIFF whose chain of pages runs past the end of the file: its last page readable says so.
    private var pagesCutShort = false
    /// TIFF pages whose image data reaches past the end of the file, with the first row lost when known.
    private var pagesWithDataCut: [Int: Int?] = [:]
    /// A TIFF's pages' sizes in pixels, from their directories.
    private var tiffPagePixels: [Int: Int] = [:]
    private let limits: InputLimits

    /// Opens `path`, deciding its kind from its content. Throws a `ScanError`
    /// naming the file and the reason when it can't be used.
    public convenience init(path: String, limits: InputLimits = InputLimits()) throws {
        let url = URL(fileURLWithPath: path)
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
            if path == "-" {
                throw ScanError(.unreadable, file: path, "standard input is not read; save it to a file and name that")
            }
            if path.contains("\u{FFFD}") {
                // A name that is not UTF-8: found again by its raw bytes, read whole, and named as it reads here.
                let bytes: [UInt8]?
                do {
                    bytes = try RawFileName.read(try RawFileName.resolve(path), maxBytes: limits.maxFileBytes)
                } catch RawFileName.Failure.ambiguous {
                    throw ScanError(
                        .unreadable, file: path,
                        "its name is not valid UTF-8, and other files of its folder read the same; rename it")
                } catch RawFileName.Failure.readFailed(let code) {
                    throw ScanError(.unreadable, file: path, "reading it failed: \(String(cString: strerror(code)))")
                } catch let e as RawFileName.InputLimitExceeded {
                    throw ScanError(
                        .tooLarge, file: path, "the file is \(e.size) bytes, over the limit of \(limits.maxFileBytes)")
                } catch {
                    throw ScanError(.unreadable, file: path, "no such file (its name is not valid UTF-8)")
                }
                guard let bytes else { throw ScanError(.unreadable, file: path, "is not a regular file; give a file") }
                try self.init(bytes: bytes, name: path, limits: limits)
                return
            }
            var link = stat()
            if lstat(path, &link) == 0 {
                // The name is there, but what it points to is not: a link to nothing, or a loop of links.
                throw ScanError(
                    .unreadable, file: path, "is a symbolic link to a file that does not exist (or a loop of links)")
            }
            throw ScanError(.unreadable, file: path, "no such file")
        }
        guard !isDir.boolValue else { throw ScanError(.unreadable, file: path, "is a folder") }
        var info = stat()
        if stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
            throw ScanError(
                .unreadable, file: path, "is not a regular file (a pipe, a device or a socket); give a file")
        }
        if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber,
           size.intValue > limits.maxFileBytes {
            throw ScanError(
                .tooLarge, file: path, "the file is \(size.intValue) bytes, over the limit of \(limits.maxFileBytes)")
        }
        let bytes: [UInt8]
        do {
            bytes = [UInt8](try Data(contentsOf: url))
        } catch {
            throw ScanError(.unreadable, file: path, "cannot be read (\((error as NSError).localizedDescription))")
        }
        try self.init(bytes: bytes, name: path, limits: limits)
    }

    /// Opens a file held in memory, deciding its kind from its content. `name` is
    /// used in errors and as the document's source; its extension is only used to
    /// say what the content should have been.
    public init(bytes: [UInt8], name: String, limits: InputLimits = InputLimits()) throws {
        self.path = name
        self.limits = limits
        guard bytes.count <= limits.maxFileBytes else {
            throw ScanError(
                .tooLarge, file: name, "the file is \(bytes.count) bytes, over the limit of \(limits.maxFileBytes)")
        }
        guard !bytes.isEmpty else { throw ScanError(.empty, file: name, "the file is empty") }
        guard let kind = InputKind.sniff(bytes) else {
            throw ScanError(.unsupportedType, file: name, Self.unsupportedReason(bytes, name: name))
        }
        self.kind = kind
        self.data = bytes
        switch kind {
        case .pdf:
            do {
                let doc = try PDFDocument(data: bytes)
                pdf = doc
                pageCount = doc.pageCount
                importedDocument = nil
            } catch let e as ScanError {
                throw e.attributed(to: name)
            }
            guard pageCount > 0 else {
                throw ScanError(.emptyPage, file: name, "the PDF shows no pages (none, or its page tree is damaged)")
            }
        case .json:
            pdf = nil
            do {
                let doc = try JSONDecoder().decode(Document.self, from: Data(bytes))
                try Self.checkImported(doc, name: name)
                importedDocument = doc
                pageCount = doc.pages.count
            } catch let error as ScanError {
                throw error
            } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty {
                // Not JSON at all past its first byte: a damaged file rather than another kind of JSON.
                throw ScanError(.corrupt, file: name, "the JSON document cannot be parsed (cut short or damaged)")
            } catch {
                throw ScanError(
                    .unsupportedType, file: name, "JSON, but not a scanextract document (\(Self.describe(error)))")
            }
        default:
            pdf = nil
            importedDocument = nil
            // A TIFF's chain of pages, walked once: its page count and what a file cut short lost.
            let tiff = kind == .tiff ? TIFFDirectoryCounter.walk(bytes) : nil
            guard let dims = ImageDecoder.dimensions(of: bytes, kind: kind) else {
                if tiff?.cutShort == true {
                    throw ScanError(.corrupt, file: name, "the TIFF file is cut short: its first page's directory "
                                    + "would lie past the end of the file")
                }
                if kind == .heif, case .failure(let e) = TolerantDecoder.heifSize(bytes) {
                    throw ScanError(.corrupt, file: name, "the HEIF file cannot be read (libheif: \(e.complaint))")
                }
                throw ScanError(.corrupt, file: name, "the \(kind.displayName) header cannot be read")
            }
            guard dims.width * dims.height <= limits.maxPixels else {
                throw ScanError(
                    .tooLarge, file: name,
                    "the image is \(dims.width)×\(dims.height) pixels, over the limit of \(limits.maxPixels) pixels")
            }
            // Leptonica has no in-memory page counter: the walk gives it (1 for every other kind).
            pageCount = max(1, tiff?.pages ?? 1)
            pagesCutShort = tiff?.cutShort ?? false
            pagesWithDataCut = tiff?.pagesWithDataCut ?? [:]
            tiffPagePixels = tiff?.pixels ?? [:]
        }
        guard pageCount <= limits.maxPages else {
            throw ScanError(
                .tooLarge, file: name, "the document has \(pageCount) pages, over the limit of \(limits.maxPages) pages"
            )
        }
    }

    /// Why content that is none of our kinds is refused, saying what it looks like
    /// and, when the name promised something else, what that was.
    static func unsupportedReason(_ bytes: [UInt8], name: String) -> String {
        let content = InputKind.describeContent(bytes)
        let ext = name.split(separator: "/").last.flatMap { $0.contains(".") ? $0.split(separator: ".").last : nil }
        if let ext, let promise = InputKind.promise(ofExtension: String(ext)) {
            return "named .\(ext) but holds \(content ?? "something else"), not \(promise)"
        }
        let supported =
            "not a supported image (PNG, JPEG, TIFF, WebP, BMP, GIF, HEIC, AVIF), PDF or scanextract JSON document"
        return content.map { "\(supported); it holds \($0)" } ?? supported
    }

    /// Loads page `index`. With `forceOCR`, PDF pages are rendered even when they have text.
    public func page(_ index: Int, forceOCR: Bool = false) throws -> SourcePage {
        do {
            switch kind {
            case .json:
                guard let doc = importedDocument, index < doc.pages.count else {
                    throw ScanError(.emptyPage, page: index, "no such page")
                }
                return .text(doc.pages[index])
            case .pdf:
                guard let pdf else { throw ScanError(.corrupt, page: index, "the PDF is not open") }
                let page = try pdf.page(index)
                let scale = limits.renderDPI / 72
                if !forceOCR {
                    let glyphs = page.glyphs()
                    if TextLayerBuilder.hasText(glyphs) {
                        let (w, h) = page.size
                        let obs = TextLayerBuilder.observations(from: glyphs, scale: scale)
                        return .text(Page(index: index, width: (w * scale).rounded(), height: (h * scale).rounded(),
                                          dpi: limits.renderDPI, textSource: .pdfText, observations: obs))
                    }
                }
                return .raster(
                    try pdf.pageForRendering(index, loaded: page).render(
                        dpi: limits.renderDPI, maxPixels: limits.maxPixels),
                    dpi: limits.renderDPI,
                    findings: [])
            default:
                var image: RasterImage, findings: [Finding]
                // A later page of a TIFF is as big as its directory says, which the first page's header doesn't.
                if let pixels = tiffPagePixels[index], pixels > limits.maxPixels {
                    throw ScanError(
                        .tooLarge, page: index,
                        "the page's directory gives it more than \(limits.maxPixels) pixels, the limit; it is not decoded")
                }
                do {
                    (image, findings) = try ImageDecoder.decode(
                        data, kind: kind, page: index, maxPixels: limits.maxPixels)
                } catch let e as ScanError where e.code == .corrupt && pagesWithDataCut[index] != nil {
                    throw ScanError(.corrupt, page: index, "the page's image data reaches past the end of the file "
                                    + "(it was cut short), and the part that arrived cannot be read on its own")
                }
                guard image.width * image.height <= limits.maxPixels else {
                    throw ScanError(
                        .tooLarge, page: index,
                        "the image is \(image.width)×\(image.height) pixels, over the limit of \(limits.maxPixels) pixels"
                    )
                }
                if let lost = pagesWithDataCut[index] {
                    let blank: String
                    if let row = lost, let first = ImageDecoder.blankLostRows(&image, from: row) {
                        blank = "it ends after row \(first) of \(image.height); the rest is blank"
                    } else {
                        blank = "the parts that are missing may be black"
                    }
                    findings.append(
                        Finding(
                            code: "page-damaged",
                            message: "the page's image data reaches past the end of the file "
                                + "(it was cut short): \(blank)", page: index))
                }
                if pagesCutShort && index == pageCount - 1 {
                    findings.append(
                        Finding(
                            code: "pages-missing",
                            message: "the file ends where the directory of page \(pageCount + 1) "
                                + "should be: it was cut short, and any pages after \(pageCount) are lost", page: index)
                    )
                }
                return .raster(image, dpi: nil, findings: findings)
            }
        } catch var e as ScanError {
            e.file = e.file ?? path
            e.page = e.page ?? index
            throw e
        }
    }

    /// Observations one page of a JSON document may hold: a dense printed page has a few thousand lines and words.
    public static let maxObservationsPerPage = 20_000
    /// Observations a whole JSON document may hold: a thousand pages of a hundred lines. The layout and the outputs
    /// take about 10 KB for each, so this keeps a document under about a gigabyte of memory.
    public static let maxObservationsPerDocument = 100_000

    /// Refuses a document whose pages no reader could have made: more observations than any page holds (the
    /// layout's work grows with their square), or a page, box or confidence whose numbers are not finite or beyond any
    /// page's size, which would make outputs that are no valid JSON. JSON bytes are checked so when they are read; a
    /// `Document` built in code is checked so before it is processed again.
    public static func checkImported(_ doc: Document, name: String) throws {
        let far = 10_000_000.0
        func sane(_ v: Double) -> Bool { v.isFinite && abs(v) <= far }
        func sane(_ b: BoundingBox) -> Bool { sane(b.x) && sane(b.y) && sane(b.width) && sane(b.height) }
        let major = { (version: String) in Int(version.prefix { $0 != "." }) }
        if let theirs = major(doc.schemaVersion), let ours = major(Document.currentSchemaVersion), theirs > ours {
            throw ScanError(
                .unsupportedType, file: name,
                "the document has schema \(doc.schemaVersion), from a newer scanextract (this one reads up to"
                    + " \(ours).x)")
        }
        guard !doc.pages.isEmpty else { throw ScanError(.emptyPage, file: name, "the JSON document has no pages") }
        let observations = doc.pages.reduce(0) { $0 + $1.observations.count }
        guard observations <= maxObservationsPerDocument else {
            throw ScanError(
                .tooLarge, file: name,
                "the document holds \(observations) observations, over the limit of \(maxObservationsPerDocument)")
        }
        for (n, page) in doc.pages.enumerated() {
            // A size of 0 is one not given (another engine's output need not say it); below 0 is none.
            guard sane(page.width), sane(page.height), page.width >= 0, page.height >= 0 else {
                throw ScanError(
                    .corrupt, file: name, page: n, "the page's size (\(page.width) × \(page.height)) is out of range")
            }
            guard page.observations.count <= maxObservationsPerPage else {
                throw ScanError(
                    .tooLarge, file: name, page: n,
                    "the page holds \(page.observations.count) observations, over the limit of \(maxObservationsPerPage)"
                )
            }
            for (k, o) in page.observations.enumerated()
            where !sane(o.boundingBox) || !o.words.allSatisfy({ sane($0.boundingBox) }) {
                throw ScanError(
                    .corrupt, file: name, page: n, "observation \(k + 1) has a box out of range (\(o.boundingBox))")
            }
            for (k, o) in page.observations.enumerated()
            where !o.confidence.isFinite || !o.words.allSatisfy({ $0.confidence.isFinite }) {
                throw ScanError(.corrupt, file: name, page: n, "observation \(k + 1) has a confidence that is no number")
            }
        }
    }

    private static func describe(_ error: Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): return "missing \"\(key.stringValue)\""
        case DecodingError.typeMismatch(_, let ctx), DecodingError.valueNotFound(_, let ctx):
            return "bad value at \(ctx.codingPath.map(\.stringValue).joined(separator: "."))"
        case DecodingError.dataCorrupted(let ctx):
            return "bad value at \(ctx.codingPath.map(\.stringValue).joined(separator: "."))"
        default: return "unreadable"
        }
    }
}

extension InputDocument {
    /// Whether this PDF's text layer is read from a copy without its catalog's output intents
    /// (PDF/A), so that poppler builds no colour transforms for pages it only reads text from.
    var readsTextWithoutOutputIntents: Bool { pdf?.readsTextWithoutOutputIntents ?? false }

    /// The files a PDF embeds, each of at most `maxBytes` (a larger one is left out); none for other kinds.
    public func attachments(maxBytes: Int = 16 << 20) -> [(name: String, bytes: [UInt8])] {
        pdf?.attachments(maxBytes: maxBytes) ?? []
    }

    /// The poppler version that reads PDFs.
    public static var popplerVersion: String { PDFDocument.popplerVersion }
}
