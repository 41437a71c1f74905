import Foundation
import ScanModel

/// Reads a WebP as far as its data goes with libwebp's incremental decoder, which hands out the rows decoded so
/// far. Leptonica's one-shot `WebPDecode` refuses a file cut short. libwebp is already loaded with Leptonica, so
/// its functions are looked up at run time and no WebP headers are needed to build.
enum WebPReader {
    private typealias NewRGB = @convention(c) (Int32, UnsafeMutablePointer<UInt8>?, Int, Int32) -> OpaquePointer?
    private typealias Update = @convention(c) (OpaquePointer?, UnsafePointer<UInt8>?, Int) -> Int32
    private typealias GetRGB =
        @convention(c) (
            OpaquePointer?, UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?,
            UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?
        ) -> UnsafeMutablePointer<UInt8>?
    private typealias Delete = @convention(c) (OpaquePointer?) -> Void

    private struct API: @unchecked Sendable {
        let new: NewRGB, update: Update, get: GetRGB, delete: Delete
    }

    private static let api: API? = {
        func symbol<T>(_ name: String, as: T.Type) -> T? { dlsym(nil, name).map { unsafeBitCast($0, to: T.self) } }
        guard let new = symbol("WebPINewRGB", as: NewRGB.self), let update = symbol("WebPIUpdate", as: Update.self),
            let get = symbol("WebPIDecGetRGB", as: GetRGB.self), let delete = symbol("WebPIDelete", as: Delete.self)
        else { return nil }
        return API(new: new, update: update, get: get, delete: delete)
    }()

    static func decode(_ d: [UInt8], maxPixels: Int) -> TolerantDecoder.Partial? {
        guard let api, let decoder = api.new(0 /* MODE_RGB */, nil, 0, 0) else { return nil }
        defer { api.delete(decoder) }
        // 0: whole; 5: suspended, waiting for data that never comes (cut short); anything else: corrupt.
        let status = d.withUnsafeBufferPointer { api.update(decoder, $0.baseAddress, $0.count) }
        var lastRow: Int32 = 0, w: Int32 = 0, h: Int32 = 0, stride: Int32 = 0
        guard let rgb = api.get(decoder, &lastRow, &w, &h, &stride), w > 0, h > 0, Int(w) <= maxPixels / Int(h) else {
            return nil
        }
        let width = Int(w), height = Int(h), rows = min(Int(lastRow), height)
        guard rows > 0 else { return nil }
        var pixels = [UInt8](repeating: 255, count: width * height * 3)
        for y in 0..<rows {
            for k in 0..<(width * 3) { pixels[y * width * 3 + k] = rgb[y * Int(stride) + k] }
        }
        let image = RasterImage(width: width, height: height, channels: 3, pixels: pixels)
        guard status != 0 || rows < height else { return .init(image: image, problem: nil) }
        return .init(
            image: image,
            problem:
                "the WebP data \(status == 5 ? "ends" : "is corrupt") after row \(rows) of \(height); the rest is blank"
        )
    }
}
