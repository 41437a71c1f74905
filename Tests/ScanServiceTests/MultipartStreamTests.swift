import Foundation
import XCTest
@testable import ScanService

/// The streaming multipart reader gives the same files whatever the chunks the body comes in.
final class MultipartStreamTests: XCTestCase {
    let boundary = "xYzBoundary42"

    /// A file name as the service keeps it: the last path component, without control characters, at most 255 bytes.
    func testFileNamesFromAHostileForm() {
        XCTAssertEqual(Multipart.filename(in: "form-data; name=\"file\"; filename=\"scans/a.png\""), "a.png")
        XCTAssertEqual(Multipart.filename(in: "form-data; filename=\"C:\\scans\\b.png\""), "b.png")
        XCTAssertEqual(
            Multipart.filename(in: "form-data; filename=\"re\u{0}ceipt.png\""), "receipt.png",
            "a NUL is dropped, not a cut")
        XCTAssertEqual(Multipart.filename(in: "form-data; filename=\"line\r\nbreak.png\""), "linebreak.png")
        XCTAssertNil(Multipart.filename(in: "form-data; filename=\"../..\""))
        XCTAssertNil(Multipart.filename(in: "form-data; filename=\"\u{0}\""))
        let long = Multipart.filename(in: "form-data; filename=\"\(String(repeating: "é", count: 300)).pdf\"")
        XCTAssertEqual(long?.hasSuffix(".pdf"), true)
        XCTAssertLessThanOrEqual(long?.utf8.count ?? 0, 255)
    }

    /// A name that is not ASCII sent as RFC 8187 asks (`filename*`, preferred to `filename`), and quoted names that
    /// hold the parameters' own separators.
    func testExtendedAndQuotedFileNames() {
        XCTAssertEqual(Multipart.filename(in: "attachment; filename*=UTF-8''na%C3%AFve%20receipt.png"), "naïve receipt.png")
        XCTAssertEqual(
            Multipart.filename(in: "attachment; filename=\"euro.png\"; filename*=utf-8'en'%E2%82%AC.png"), "€.png")
        XCTAssertEqual(Multipart.filename(in: "attachment; filename*=iso-8859-1''%A3rates.png"), "£rates.png")
        // Not decodable (a bad escape, bytes that are not UTF-8, an unknown charset): the plain name serves.
        XCTAssertEqual(Multipart.filename(in: "attachment; filename*=UTF-8''%ZZ.png; filename=ok.png"), "ok.png")
        XCTAssertEqual(Multipart.filename(in: "attachment; filename*=UTF-8''%C3.png; filename=ok.png"), "ok.png")
        XCTAssertEqual(Multipart.filename(in: "attachment; filename*=koi8-r''%C1.png; filename=ok.png"), "ok.png")
        XCTAssertEqual(Multipart.filename(in: "attachment; filename*=UTF-8''; filename=ok.png"), "ok.png")
        XCTAssertEqual(Multipart.filename(in: "form-data; name=\"file\"; filename=\"a;b=c.png\""), "a;b=c.png")
        XCTAssertEqual(Multipart.filename(in: "form-data; filename=\"say \\\"hi\\\".png\"; name=x"), "say \"hi\".png")
        XCTAssertEqual(Multipart.parameter("name", in: "form-data; filename=\"x;name=y\"; name=\"file\""), "file")
        XCTAssertEqual(Multipart.boundary(contentType: "multipart/form-data; charset=utf-8; boundary=\"a b\""), "a b")
    }

    /// File parts among thousands of small form fields, with transport padding after some delimiters.
    func body(fields: Int) -> (bytes: [UInt8], files: [[UInt8]]) {
        var out = Array("preamble to ignore\r\n".utf8)
        var files: [[UInt8]] = []
        for i in 0..<fields {
            out += Array(
                "--\(boundary)\(i % 7 == 0 ? " \t" : "")\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nvalue \(i)\r\n"
                    .utf8)
            if i % 1000 == 0 {
                // Content that holds most of a delimiter, CRLFs and dashes.
                let content =
                    Array("file \(i)\r\n--\(boundary.dropLast())\r\n-- end".utf8)
                    + [UInt8](repeating: UInt8(i % 251), count: 3000 + i)
                files.append(content)
                out += Array(
                    "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"dir/f\(i).png\"\r\n\r\n"
                        .utf8)
                out += content + Array("\r\n".utf8)
            }
        }
        out += Array("--\(boundary)--\r\nepilogue".utf8)
        return (out, files)
    }

    func parse(_ bytes: [UInt8], chunk: Int, dir: URL) throws -> [MultipartStream.File] {
        var parser = MultipartStream.Parser(boundary: boundary, field: "file",
                                            limits: .init(perFile: 1 << 20, total: 1 << 26, files: 100),
                                            newFileURL: { dir.appendingPathComponent(UUID().uuidString) })
        var i = 0
        while i < bytes.count {
            try parser.feed(bytes[i..<min(bytes.count, i + chunk)])
            i += chunk
        }
        try parser.finish()
        return parser.files
    }

    func testManySmallPartsInAnyChunksGiveTheSameFiles() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("multipart-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let (bytes, expected) = body(fields: 5000)
        for chunk in [bytes.count, 65536, 4096, 7, 1] {
            let files = try parse(bytes, chunk: chunk, dir: dir)
            XCTAssertEqual(files.count, expected.count, "chunk \(chunk)")
            for (file, want) in zip(files, expected) {
                XCTAssertEqual(Array(try Data(contentsOf: file.url)), want, "chunk \(chunk)")
                XCTAssertEqual(file.size, want.count)
                XCTAssertEqual(file.head, Array(want.prefix(1024)))
                XCTAssertEqual(file.filename?.hasPrefix("f"), true)
            }
        }
    }
}

/// The API's paths come from the OpenAPI document the server ships, however it is indented.
final class APIPathsTests: XCTestCase {
    func testPathsAndMethodsWhateverTheIndentation() {
        let yaml = """
        openapi: 3.1.0
        paths:

           # jobs
           "/v1/jobs/{id}":
                get:
                     summary: a job
                delete:
                     summary: cancel
           /v1/extractions:
                post: {}
        components:
           schemas: {}
        """
        let paths = APIPaths(openAPI: yaml)
        XCTAssertEqual(paths.methods(for: "/v1/jobs/abc"), ["GET", "DELETE"])
        XCTAssertEqual(paths.methods(for: "/v1/extractions"), ["POST"])
        XCTAssertNil(paths.methods(for: "/v1/other"))
        let shipped = APIPaths(openAPI: String(decoding: PackageResources.openapi_yaml, as: UTF8.self))
        XCTAssertEqual(shipped.methods(for: "/v1/extractions"), ["POST"])
        XCTAssertEqual(shipped.methods(for: "/v1/jobs/abc")?.sorted(), ["DELETE", "GET"])
    }
}

/// An error no route turned into a problem still answers with one: the store gone is 503 `not-ready` with
/// `Retry-After` (what `/readyz` says then), anything else 500 `internal`; neither shows the error to the client.
final class UnexpectedErrorsTests: XCTestCase {
    func testAnUnexpectedErrorIsAProblemWithACode() {
        let gone = Problem.unexpected(storeAnswers: false)
        XCTAssertEqual(gone.status.code, 503)
        XCTAssertEqual(gone.code, "not-ready")
        XCTAssertEqual(gone.retryAfter, 5)
        let other = Problem.unexpected(storeAnswers: true)
        XCTAssertEqual(other.status.code, 500)
        XCTAssertEqual(other.code, "internal")
        XCTAssertNil(other.retryAfter)
    }
}
