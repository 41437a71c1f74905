// Writes the files in Samples/ (see Samples/README.md). Run: swift run SampleMaker Samples
import Foundation
import ScanModel
import TestSupport

let out = CommandLine.arguments.dropFirst().first ?? "Samples"
try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)

// A till receipt at low resolution (about 11 px text), as cheap scanners give.
let receipt: [DrawnLine] = {
    var l: [DrawnLine] = []
    var y = 30.0
    func add(_ t: String, _ x: Double = 20, size: Double = 13, bold: Bool = false, gap: Double = 19) {
        l.append(DrawnLine(t, x: x, y: y, size: size, bold: bold)); y += gap
    }
    add("GREENLEAF GROCERS LTD", 70, size: 16, bold: true, gap: 22)
    add("221 Harbour Road, Leith EH6 7BL", 45)
    add("Tel: 0131 496 0321   VAT GB 123 4567 89", 20, gap: 26)
    add("Date: 14/03/2025   Time: 18:42")
    add("Receipt No: 000482", gap: 26)
    for (item, price) in [("Sourdough loaf", "3.20"), ("Free range eggs x6", "2.45"),
                          ("Apples 1.250 kg @ 2.10/kg", "2.63"), ("Oat milk 1L", "1.85")] {
        l.append(DrawnLine(item, x: 20, y: y, size: 13)); add(price, 290)
    }
    y += 6
    l.append(DrawnLine("SUBTOTAL", x: 20, y: y, size: 13)); add("10.13", 290)
    l.append(DrawnLine("VAT 0%", x: 20, y: y, size: 13)); add("0.00", 290)
    l.append(DrawnLine("TOTAL", x: 20, y: y, size: 15, bold: true)); add("£10.13", 282, size: 15, bold: true, gap: 26)
    add("VISA **** **** **** 4821")
    add("Thank you for shopping with us", 45)
    return l
}()
Drawing.writePNG(receipt, width: 360, height: 460, to: out + "/receipt.png")

// The same receipt photographed upside down and a little askew, as a TIFF.
let flipped = Drawing.raster(receipt.map { var d = $0; d.x *= 2; d.y *= 2; d.size *= 2; return d },
                             width: 720, height: 920, rotation: 182)
Drawing.writeMultipageTIFF([flipped], to: out + "/receipt-upside-down.tif")

// A business card at 300 dpi (3.5 × 2 in).
let card = [
    DrawnLine("Dr. Maria Lindqvist", x: 60, y: 120, size: 54, bold: true),
    DrawnLine("Head of Research", x: 60, y: 180, size: 34),
    DrawnLine("Northwind Analytics GmbH", x: 60, y: 230, size: 34),
    DrawnLine("Tel. +49 (0)30 1234567", x: 60, y: 380, size: 30),
    DrawnLine("Mobil +49 171 2345678", x: 60, y: 425, size: 30),
    DrawnLine("maria.lindqvist@northwind-analytics.de", x: 60, y: 470, size: 30),
    DrawnLine("www.northwind-analytics.de", x: 60, y: 515, size: 30),
    DrawnLine("Friedrichstraße 68, 10117 Berlin", x: 60, y: 560, size: 30),
]
Drawing.writePNG(card, width: 1050, height: 600, to: out + "/business-card.png")

// The same card photographed by a phone on a table, at an angle and in uneven light: a JPEG
// for the document camera (PhotoMaker's pinhole camera; the pose is fixed, so the file is too).
var scene = PhotoMaker.Scene()
scene.width = 1600; scene.height = 1200
scene.roll = 9; scene.pitch = 18; scene.yaw = -14; scene.focal = 1.1
scene.fill = 0.62; scene.background = 2; scene.shadow = 0.35; scene.shadowAngle = 60; scene.seed = 7
let shot = PhotoMaker.photo(of: PhotoMaker.FlatPage(image: Drawing.raster(card, width: 1050, height: 600), words: []),
                            kind: .card, scene: scene)
FileManager.default.createFile(
    atPath: out + "/business-card-photo.jpg", contents: Data(Drawing.jpegBytes(shot.image, quality: 88)))

// A digital invoice: a PDF with a text layer (no OCR needed).
Drawing.writePDF([[
    DrawnLine("INVOICE", x: 72, y: 90, size: 26, bold: true),
    DrawnLine("Invoice no. 2025-0117      Date: 2025-02-03", x: 72, y: 130, size: 11),
    DrawnLine("Bill to: Acme Corp, 500 Market St, San Francisco, CA 94105", x: 72, y: 150, size: 11),
    DrawnLine("Consulting services, January", x: 72, y: 210, size: 11),
    DrawnLine("$4,800.00", x: 460, y: 210, size: 11),
    DrawnLine("Travel expenses", x: 72, y: 230, size: 11),
    DrawnLine("$312.40", x: 460, y: 230, size: 11),
    DrawnLine("Total due", x: 72, y: 270, size: 12, bold: true),
    DrawnLine("$5,112.40", x: 460, y: 270, size: 12, bold: true),
    DrawnLine("Questions? billing@example.com or (415) 555-0100", x: 72, y: 320, size: 10),
]], to: out + "/invoice.pdf")

// A two-page "scanned" letter: pictures of text, no text layer.
Drawing.writePDF([
    [DrawnLine("Dear customer,", x: 72, y: 100, size: 14),
     DrawnLine("your order of 12 March 2025 has shipped.", x: 72, y: 125, size: 14),
     DrawnLine("Tracking: www.parcel-example.com/track", x: 72, y: 150, size: 14)],
    [DrawnLine("Page two: questions? Call 020 7946 0958.", x: 72, y: 100, size: 14)],
], width: 420, height: 300, asImage: true, to: out + "/scanned-letter.pdf")

print("wrote samples to \(out)/")
