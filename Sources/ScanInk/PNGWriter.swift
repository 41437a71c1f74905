import ScanModel

/// A minimal PNG encoder (8-bit gray or RGB, zlib "stored" blocks, no compression):
/// enough to show what the recognizer sees, without a C library.
public enum PNGWriter {
    public static func encode(_ image: RasterImage) -> [UInt8] {
        var raw: [UInt8] = []
        raw.reserveCapacity((image.bytesPerRow + 1) * image.height)
        for y in 0..<image.height {
            raw.append(0)   // filter: none
            raw.append(contentsOf: image.pixels[(y * image.bytesPerRow)..<((y + 1) * image.bytesPerRow)])
        }
        var zlib: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let n = min(65535, raw.count - offset)
            let final: UInt8 = offset + n >= raw.count ? 1 : 0
            zlib += [final, UInt8(n & 0xff), UInt8(n >> 8), UInt8(~n & 0xff), UInt8((~n >> 8) & 0xff)]
            zlib += raw[offset..<(offset + n)]
            offset += n
        } while offset < raw.count
        var a: UInt32 = 1, b: UInt32 = 0
        for v in raw { a = (a + UInt32(v)) % 65521; b = (b + a) % 65521 }
        zlib += be32((b << 16) | a)
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header = be32(UInt32(image.width)) + be32(UInt32(image.height))
        header += [8, image.channels == 3 ? 2 : 0, 0, 0, 0]
        out += chunk("IHDR", header)
        out += chunk("IDAT", zlib)
        out += chunk("IEND", [])
        return out
    }

    static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xff), UInt8((v >> 8) & 0xff), UInt8(v & 0xff)] }

    static let crcTable: [UInt32] = (0..<256).map { n -> UInt32 in
        var c = UInt32(n)
        for _ in 0..<8 { c = (c & 1) != 0 ? 0xEDB88320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        var crc: UInt32 = 0xFFFFFFFF
        for v in body { crc = crcTable[Int((crc ^ UInt32(v)) & 0xff)] ^ (crc >> 8) }
        return be32(UInt32(data.count)) + body + be32(crc ^ 0xFFFFFFFF)
    }
}
