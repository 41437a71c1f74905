import CLeptonica
import Foundation
import ScanModel

extension Drawing {
    /// Decodes a PNG, JPEG or other image Leptonica reads (a browser's screenshot, say) into
    /// an RGB `RasterImage`; nil when the bytes are not an image it can decode.
    public static func decodeImage(_ bytes: [UInt8]) -> RasterImage? {
        guard !bytes.isEmpty, let read = bytes.withUnsafeBufferPointer({ pixReadMem($0.baseAddress, $0.count) }) else {
            return nil
        }
        var original: UnsafeMutablePointer<PIX>? = read
        defer { pixDestroy(&original) }
        guard let rgb = pixConvertTo32(read) else { return nil }
        var converted: UnsafeMutablePointer<PIX>? = rgb
        defer { pixDestroy(&converted) }
        let width = Int(pixGetWidth(rgb)), height = Int(pixGetHeight(rgb))
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                var r: Int32 = 0, g: Int32 = 0, b: Int32 = 0
                pixGetRGBPixel(rgb, Int32(x), Int32(y), &r, &g, &b)
                let o = (y * width + x) * 3
                pixels[o] = UInt8(r)
                pixels[o + 1] = UInt8(g)
                pixels[o + 2] = UInt8(b)
            }
        }
        return RasterImage(width: width, height: height, channels: 3, pixels: pixels)
    }
}
