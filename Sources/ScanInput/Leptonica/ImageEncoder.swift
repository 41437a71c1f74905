import Foundation
import CLeptonica
import ScanModel

/// Encodes a `RasterImage` as PNG (through Leptonica), for writing a stage's output
/// image, such as a flattened page. Nil when Leptonica cannot encode it.
public func encodePNG(_ image: RasterImage) -> [UInt8]? {
    guard let pix = Pix(image) else { return nil }
    var data: UnsafeMutablePointer<UInt8>?
    var size = 0
    guard pixWriteMem(&data, &size, pix.handle, Int32(IFF_PNG)) == 0, let bytes = data else { return nil }
    defer { free(bytes) }
    return Array(UnsafeBufferPointer(start: bytes, count: size))
}
