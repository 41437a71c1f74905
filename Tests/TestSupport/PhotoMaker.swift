import Foundation
import ScanModel

/// A small deterministic random source (SplitMix64), so every generated photo can be made again from its seed.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    public mutating func uniform(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &self) }
}

/// Makes phone-like photos of documents with a known geometry: a page rendered with cairo,
/// seen through a pinhole camera at a known pose (so the true corners are known), on a
/// textured background, with a shadow, optional hand and crumpling, blur and noise.
public enum PhotoMaker {
    /// What is photographed.
    public enum PageKind: String, CaseIterable, Sendable {
        case receipt, longReceipt, page, card
    }

    /// A flat page: its pixels and the words printed on it.
    public struct FlatPage: Sendable {
        public var image: RasterImage
        public var words: [String]

        public init(image: RasterImage, words: [String]) {
            self.image = image
            self.words = words
        }
    }

    /// How the page is photographed.
    public struct Scene: Sendable {
        /// Photo size in pixels.
        public var width = 1000
        public var height = 750
        /// Rotation of the page in its plane, and tilts away from the camera, in degrees.
        public var roll = 0.0
        public var pitch = 0.0
        public var yaw = 0.0
        /// The page's projected size as a share of the frame's smaller dimension... roughly.
        public var fill = 0.7
        /// Where the page's centre sits, as a shift from the frame's centre in fractions of the frame.
        public var offsetX = 0.0
        public var offsetY = 0.0
        /// Focal length as a multiple of the photo's long side.
        public var focal = 1.0
        public var background = 0
        /// Darkening (0 to 1) at the dark end of a linear gradient across the photo, and its direction in degrees.
        public var shadow = 0.3
        public var shadowAngle = 30.0
        /// A soft-edged cast shadow (0: none) over part of the page.
        public var castShadow = 0.0
        public var hand = false
        /// Waviness of a crumpled page (0: flat), as a share of the page size.
        public var crumple = 0.0
        public var blurPasses = 1
        public var noise = 4.0
        public var seed: UInt64 = 1
        /// A second, smaller white card or note lying in the page's plane (on the page or beside it).
        public var distractor: Distractor?
        /// When true (the default) the page is moved back until it lies wholly inside the frame;
        /// when false it may run off the frame's edges.
        public var keepInFrame = true

        public init() {}
    }

    /// A small white card or sticky note lying flat in the page's plane, drawn over the page.
    public struct Distractor: Sendable {
        /// Its centre and size in page pixels (the centre may lie outside the page), and its turn in degrees.
        public var centerX: Double
        public var centerY: Double
        public var width: Double
        public var height: Double
        public var angle = 0.0
        /// What is printed on it (a few words, or nothing), and its paper's brightness (0 to 255).
        public var words: [String] = []
        public var brightness = 252.0

        public init(
            centerX: Double, centerY: Double, width: Double, height: Double, angle: Double = 0,
            words: [String] = [], brightness: Double = 252
        ) {
            self.centerX = centerX
            self.centerY = centerY
            self.width = width
            self.height = height
            self.angle = angle
            self.words = words
            self.brightness = brightness
        }

        /// Its corners in page pixels, clockwise from its own top-left.
        public var corners: [Point] {
            let a = angle * .pi / 180
            return [(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)].map { (fx, fy) in
                let x = fx * width, y = fy * height
                return Point(x: centerX + x * cos(a) - y * sin(a), y: centerY + x * sin(a) + y * cos(a))
            }
        }
    }

    /// A generated photo with its ground truth.
    public struct Photo: Sendable {
        public var image: RasterImage
        /// The page's true corners in photo pixels, top-left of the upright text first.
        public var quad: Quad
        /// Maps page pixels to photo pixels.
        public var pageToPhoto: Homography
        public var page: FlatPage
        public var kind: PageKind
        /// The distractor's corners in photo pixels, when the scene has one.
        public var distractorQuad: Quad?
        /// True when part of the page's printed area (the page less an 8% margin) lies outside the frame.
        public var textRunsOffFrame = false
        /// True when any corner of the page lies outside the frame.
        public var runsOffFrame = false
    }

    // MARK: Pages

    static let vocabulary = [
        "COFFEE", "BAGEL", "MUFFIN", "SALAD", "BURGER", "PASTA", "TEA", "JUICE", "SOUP", "WATER",
        "SANDWICH", "COOKIE", "PIZZA", "TACO", "LATTE", "NACHOS", "PRETZEL", "WAFFLE"
    ]

    /// Renders a page of `kind` with words picked from `seed`; with `headerBox`, a printed frame
    /// around the heading (a block that can pass for a small page of its own).
    public static func flatPage(_ kind: PageKind, seed: UInt64 = 1, headerBox: Bool) -> FlatPage {
        var page = flatPage(kind, seed: seed)
        guard headerBox else { return page }
        let w = page.image.width, h = page.image.height
        let (x0, y0, x1) = (14, 18, w - 14)
        let y1 = kind == .card ? h / 3 : (kind == .page ? 200 : 140)
        let stroke = 5
        for y in y0..<min(h, y1) {
            for x in x0..<x1 where y < y0 + stroke || y >= y1 - stroke || x < x0 + stroke || x >= x1 - stroke {
                let i = (y * w + x) * 3
                page.image.pixels[i] = 30; page.image.pixels[i + 1] = 30; page.image.pixels[i + 2] = 30
            }
        }
        return page
    }

    /// Renders a page of `kind` with words picked from `seed`.
    public static func flatPage(_ kind: PageKind, seed: UInt64 = 1) -> FlatPage {
        var rng = SeededRandom(seed: seed &* 31 &+ 7)
        var lines: [DrawnLine] = []
        var words: [String] = []
        func item(_ y: Double, size: Double, width: Double) {
            let w = vocabulary.randomElement(using: &rng)!
            let price = String(
                format: "%d.%02d", Int.random(in: 1...40, using: &rng), Int.random(in: 0...99, using: &rng))
            lines.append(DrawnLine(w, x: 30, y: y, size: size))
            lines.append(DrawnLine(price, x: width - 30 - size * 2.6, y: y, size: size))
            words.append(w)
        }
        switch kind {
        case .receipt, .longReceipt:
            let width = 420.0, height = kind == .receipt ? 1000.0 : 1900.0
            lines.append(DrawnLine("CORNER BAKERY", x: 60, y: 70, size: 34, bold: true))
            lines.append(DrawnLine("12 Market Street", x: 80, y: 115, size: 22))
            words += ["CORNER", "BAKERY", "Market"]
            var y = 190.0
            while y < height - 160 { item(y, size: 24, width: width); y += 44 }
            lines.append(DrawnLine("TOTAL", x: 30, y: height - 90, size: 30, bold: true))
            lines.append(DrawnLine("99.99", x: width - 120, y: height - 90, size: 30, bold: true))
            words.append("TOTAL")
            return FlatPage(image: Drawing.raster(lines, width: Int(width), height: Int(height)), words: words)
        case .page:
            let width = 850.0, height = 1200.0
            lines.append(DrawnLine("INVOICE 2024-117", x: 70, y: 110, size: 40, bold: true))
            lines.append(DrawnLine("Northwind Supplies", x: 70, y: 170, size: 26))
            words += ["INVOICE", "Northwind", "Supplies"]
            var y = 260.0
            while y < height - 200 { item(y, size: 26, width: width); y += 52 }
            lines.append(DrawnLine("TOTAL DUE", x: 70, y: height - 110, size: 34, bold: true))
            words.append("TOTAL")
            return FlatPage(image: Drawing.raster(lines, width: Int(width), height: Int(height)), words: words)
        case .card:
            let width = 700.0, height = 400.0
            lines.append(DrawnLine("Jane Miller", x: 50, y: 90, size: 44, bold: true))
            lines.append(DrawnLine("Sales Director", x: 50, y: 140, size: 28))
            lines.append(DrawnLine("Acme Robotics", x: 50, y: 200, size: 30, bold: true))
            lines.append(DrawnLine("+1 415 555 0134", x: 50, y: 290, size: 28))
            lines.append(DrawnLine("jane@acme.example", x: 50, y: 340, size: 28))
            words += ["Jane", "Miller", "Sales", "Director", "Acme", "Robotics"]
            return FlatPage(image: Drawing.raster(lines, width: Int(width), height: Int(height)), words: words)
        }
    }

    // MARK: Scenes

    /// A random scene for `kind`: pose, framing, background, light, hand and crumpling vary with `seed`.
    public static func randomScene(_ kind: PageKind, seed: UInt64, width: Int = 1000, height: Int = 750) -> Scene {
        var rng = SeededRandom(seed: seed)
        var s = Scene()
        s.seed = seed
        s.width = width
        s.height = height
        s.roll = rng.uniform(-30...30)
        s.pitch = rng.uniform(-30...30)
        s.yaw = rng.uniform(-25...25)
        s.focal = rng.uniform(0.8...1.4)
        switch kind {
        case .card: s.fill = rng.uniform(0.25...0.5)
        case .longReceipt: s.fill = rng.uniform(0.8...0.95)
        default: s.fill = rng.uniform(0.55...0.85)
        }
        s.offsetX = rng.uniform(-0.12...0.12)
        s.offsetY = rng.uniform(-0.12...0.12)
        s.background = Int.random(in: 0..<6, using: &rng)
        s.shadow = rng.uniform(0...0.5)
        s.shadowAngle = rng.uniform(0...360)
        s.castShadow = rng.uniform(0...1) < 0.3 ? rng.uniform(0.15...0.4) : 0
        s.hand = kind != .card && rng.uniform(0...1) < 0.2
        s.crumple =
            kind == .receipt || kind == .longReceipt ? (rng.uniform(0...1) < 0.3 ? rng.uniform(0.002...0.008) : 0) : 0
        s.blurPasses = Int.random(in: 0...2, using: &rng)
        s.noise = rng.uniform(1...7)
        return s
    }

    /// Photographs `page` as `scene` says.
    public static func photo(of page: FlatPage, kind: PageKind, scene: Scene) -> Photo {
        let pw = Double(page.image.width), ph = Double(page.image.height)
        let W = Double(scene.width), H = Double(scene.height)
        let f = scene.focal * max(W, H)
        // Page plane in 3-D: centred, rotated by roll (in plane), pitch (about x), yaw (about y).
        func rotate(_ p: (Double, Double, Double)) -> (Double, Double, Double) {
            let r = scene.roll * .pi / 180, a = scene.pitch * .pi / 180, b = scene.yaw * .pi / 180
            var (x, y, z) = p
            (x, y) = (x * cos(r) - y * sin(r), x * sin(r) + y * cos(r))
            (y, z) = (y * cos(a) - z * sin(a), y * sin(a) + z * cos(a))
            (x, z) = (x * cos(b) + z * sin(b), -x * sin(b) + z * cos(b))
            return (x, y, z)
        }
        // Page units: its pixels, centred.
        let local = [(-pw / 2, -ph / 2), (pw / 2, -ph / 2), (pw / 2, ph / 2), (-pw / 2, ph / 2)]
        var depth = f * max(pw, ph) / (scene.fill * min(W, H))
        var corners: [Point] = []
        for _ in 0..<40 {
            let cx = scene.offsetX * W * depth / f, cy = scene.offsetY * H * depth / f
            corners = local.map { (x, y) in
                let (X, Y, Z) = rotate((x, y, 0))
                let z = Z + depth
                return Point(x: W / 2 + f * (X + cx) / z, y: H / 2 + f * (Y + cy) / z)
            }
            let margin = 0.02 * min(W, H)
            if !scene.keepInFrame { break }
            if corners.allSatisfy({ $0.x > margin && $0.y > margin && $0.x < W - margin && $0.y < H - margin }) {
                break
            }
            depth *= 1.08
        }
        let quad = Quad(corners: corners)!
        let pageToPhoto = Homography.mapping(
            [Point(x: 0, y: 0), Point(x: pw, y: 0), Point(x: pw, y: ph), Point(x: 0, y: ph)],
            to: corners)!
        let image = render(page: page.image, pageToPhoto: pageToPhoto, scene: scene)
        var photo = Photo(image: image, quad: quad, pageToPhoto: pageToPhoto, page: page, kind: kind)
        photo.distractorQuad = scene.distractor.flatMap { Quad(corners: $0.corners.map(pageToPhoto.apply)) }
        func outside(_ p: Point) -> Bool { p.x < 0 || p.y < 0 || p.x > W || p.y > H }
        photo.runsOffFrame = corners.contains(where: outside)
        let inset = [(0.08, 0.08), (0.92, 0.08), (0.92, 0.92), (0.08, 0.92)].map { Point(x: $0.0 * pw, y: $0.1 * ph) }
        photo.textRunsOffFrame = inset.map(pageToPhoto.apply).contains(where: outside)
        return photo
    }

    /// A random photo of a random page of `kind`.
    public static func randomPhoto(_ kind: PageKind, seed: UInt64, width: Int = 1000, height: Int = 750) -> Photo {
        photo(
            of: flatPage(kind, seed: seed), kind: kind,
            scene: randomScene(kind, seed: seed, width: width, height: height))
    }

    // MARK: Situations where flattening can go wrong

    /// Photos that test the decision to flatten, each with its truth in `Photo`.
    public enum Situation: String, CaseIterable, Sendable {
        /// A whole page on a table, as `randomPhoto` makes: flatten it.
        case plain
        /// A small white card or sticky note lying on the page: flatten the page, not the note.
        case noteOnPage
        /// A small white card beside or half over the page, often on a light tray close to the
        /// paper's colour: flatten the page or leave the photo alone, never flatten the card.
        case cardBeside
        /// The page runs off one or two edges of the frame (often a long receipt, sometimes with a
        /// framed heading or a shadow across it): leave the photo alone.
        case runsOffFrame
        /// A whole page at a steep but real tilt (40 to 55 degrees, wide lens): flatten it.
        case steep
    }

    /// A random photo of `situation`.
    public static func situationPhoto(_ situation: Situation, seed: UInt64, width: Int = 1000, height: Int = 750)
        -> Photo
    {
        var rng = SeededRandom(seed: seed &* 7919 &+ 17)
        let kinds: [PageKind]
        switch situation {
        case .plain, .steep: kinds = PageKind.allCases
        case .noteOnPage, .cardBeside: kinds = [.receipt, .page, .longReceipt]
        case .runsOffFrame: kinds = [.longReceipt, .longReceipt, .receipt, .page]
        }
        let kind = kinds[Int(seed % UInt64(kinds.count))]
        var scene = randomScene(kind, seed: seed, width: width, height: height)
        let headerBox = situation == .runsOffFrame && rng.uniform(0...1) < 0.5
        let page = flatPage(kind, seed: seed, headerBox: headerBox)
        let pw = Double(page.image.width), ph = Double(page.image.height)
        let noteWords = [[], ["VISA"], ["4929 1234"], ["call Sam"], ["BANK", "5412 7500"]]
        switch situation {
        case .plain:
            break
        case .noteOnPage:
            let w = pw * rng.uniform(0.35...0.6)
            scene.distractor = Distractor(
                centerX: pw * rng.uniform(0.3...0.7), centerY: ph * rng.uniform(0.25...0.75),
                width: w, height: w * rng.uniform(0.63...1.0), angle: rng.uniform(-25...25),
                words: noteWords.randomElement(using: &rng)!, brightness: rng.uniform(248...255))
        case .cardBeside:
            scene.background = rng.uniform(0...1) < 0.6 ? 6 + Int.random(in: 0..<2, using: &rng) : scene.background
            scene.fill = rng.uniform(0.45...0.65)
            scene.hand = false
            let w = min(pw, ph) * rng.uniform(0.5...0.9)
            let side = rng.uniform(0...1) < 0.5 ? -1.0 : 1.0
            // Beside the page's right or left edge, from just touching it to a third over it.
            let centerX = pw / 2 + side * (pw / 2 + w * rng.uniform(0.15...0.6))
            scene.offsetX = -side * 0.12
            scene.distractor = Distractor(
                centerX: centerX, centerY: ph * rng.uniform(0.25...0.75), width: w,
                height: w * rng.uniform(0.63...1.0), angle: rng.uniform(-30...30),
                words: noteWords.randomElement(using: &rng)!, brightness: rng.uniform(248...255))
        case .runsOffFrame:
            scene.keepInFrame = false
            scene.hand = false
            scene.fill = kind == .page ? rng.uniform(0.95...1.3) : rng.uniform(0.9...1.2)
            scene.roll = rng.uniform(-15...15)
            // Off the bottom or the top, and sometimes a side as well.
            scene.offsetY = (rng.uniform(0...1) < 0.5 ? -1 : 1) * rng.uniform(0.2...0.4)
            scene.offsetX =
                rng.uniform(0...1) < 0.35
                ? (rng.uniform(0...1) < 0.5 ? -1 : 1) * rng.uniform(0.3...0.45)
                : rng.uniform(-0.1...0.1)
            if rng.uniform(0...1) < 0.5 { scene.castShadow = rng.uniform(0.25...0.45) }
        case .steep:
            let tilt = rng.uniform(40...55) * (rng.uniform(0...1) < 0.5 ? -1 : 1)
            if rng.uniform(0...1) < 0.5 {
                scene.pitch = tilt; scene.yaw = rng.uniform(-15...15)
            } else {
                scene.yaw = tilt; scene.pitch = rng.uniform(-15...15)
            }
            scene.focal = rng.uniform(0.6...0.9)
        }
        var photo = photo(of: page, kind: kind, scene: scene)
        // A page meant to run off the frame must lose some of its print.
        var tries = 0
        while situation == .runsOffFrame, !photo.textRunsOffFrame, tries < 6 {
            scene.fill *= 1.15
            photo = self.photo(of: page, kind: kind, scene: scene)
            tries += 1
        }
        return photo
    }

    // MARK: Rendering

    static let backgrounds: [(Double, Double, Double)] = [
        (150, 100, 60),  // wood
        (90, 60, 40),  // dark wood
        (120, 125, 130),  // gray desk
        (40, 50, 80),  // dark blue cloth
        (70, 110, 70),  // green mat
        (175, 160, 140)  // light laminate
    ]

    /// Light surfaces close to paper (`Scene.background` 6 and up): a tray, a white desk.
    static let lightBackgrounds: [(Double, Double, Double)] = [
        (205, 205, 200),  // light gray tray
        (215, 210, 200)  // off-white desk
    ]

    static func render(page: RasterImage, pageToPhoto: Homography, scene: Scene) -> RasterImage {
        let W = scene.width, H = scene.height
        var rng = SeededRandom(seed: scene.seed &* 977 &+ 13)
        guard let photoToPage = pageToPhoto.inverse else { return RasterImage(width: W, height: H, channels: 3) }
        let base =
            scene.background >= backgrounds.count
            ? lightBackgrounds[(scene.background - backgrounds.count) % lightBackgrounds.count]
            : backgrounds[scene.background % backgrounds.count]
        let stripeFrequency = rng.uniform(0.03...0.12), stripeAngle = rng.uniform(0...Double.pi)
        let stripeCos = cos(stripeAngle), stripeSin = sin(stripeAngle)
        // A second colour: a mat or a sheet partly in the frame.
        let second = backgrounds[(scene.background + 1 + Int.random(in: 0..<4, using: &rng)) % backgrounds.count]
        let secondCenter = Point(x: rng.uniform(0...Double(W)), y: rng.uniform(0...Double(H)))
        let secondRadius = rng.uniform(0.1...0.35) * Double(W)
        let shadowAngle = scene.shadowAngle * .pi / 180
        let sdx = cos(shadowAngle), sdy = sin(shadowAngle)
        let diag = Double(W + H)
        // Cast shadow: a soft half-plane through a random point.
        let castAngle = rng.uniform(0...(2 * Double.pi))
        let castPoint = Point(x: rng.uniform(0.3...0.7) * Double(W), y: rng.uniform(0.3...0.7) * Double(H))
        // Hand: an ellipse over one side of the page.
        let handSide = Int.random(in: 0..<4, using: &rng)
        let handT = rng.uniform(0.3...0.7)
        let paper = (rng.uniform(236...252), rng.uniform(234...250), rng.uniform(225...246))
        let pw = Double(page.width), ph = Double(page.height)
        let crumplePhase = (rng.uniform(0...6.28), rng.uniform(0...6.28), rng.uniform(0...6.28))
        let handCenter: Point = {
            let q = pageToPhoto.apply(
                Quad(
                    topLeft: Point(x: 0, y: 0), topRight: Point(x: pw, y: 0),
                    bottomRight: Point(x: pw, y: ph), bottomLeft: Point(x: 0, y: ph))
            ).corners
            let a = q[handSide], b = q[(handSide + 1) % 4]
            return Point(x: a.x + (b.x - a.x) * handT, y: a.y + (b.y - a.y) * handT)
        }()
        let handRadius = 0.07 * Double(min(W, H))
        // The distractor: its own small print, and the map from page pixels to its pixels.
        let note: (image: RasterImage, toLocal: Homography, brightness: Double)? = scene.distractor.map { d in
            let lines = d.words.enumerated().map { i, word in
                DrawnLine(word, x: 0.1 * d.width, y: d.height * (0.3 + 0.25 * Double(i)), size: d.height * 0.13)
            }
            let image = Drawing.raster(lines, width: max(8, Int(d.width)), height: max(8, Int(d.height)))
            let local = [
                Point(x: 0, y: 0), Point(x: d.width, y: 0), Point(x: d.width, y: d.height), Point(x: 0, y: d.height)
            ]
            return (image, Homography.mapping(d.corners, to: local)!, d.brightness)
        }

        var out = [UInt8](repeating: 0, count: W * H * 3)
        page.pixels.withUnsafeBufferPointer { src in
            for y in 0..<H {
                for x in 0..<W {
                    let fx = Double(x) + 0.5, fy = Double(y) + 0.5
                    // Background: wood-like stripes, a second colour, grain.
                    let along = fx * stripeCos + fy * stripeSin
                    let across = -fx * stripeSin + fy * stripeCos
                    let stripe = 0.85 + 0.15 * sin(along * stripeFrequency + 3 * sin(across * 0.01))
                    let inSecond = Point(x: fx, y: fy).distance(to: secondCenter) < secondRadius
                    let bg = inSecond ? second : base
                    var r = bg.0 * stripe, g = bg.1 * stripe, b = bg.2 * stripe
                    // Page.
                    let p = photoToPage.apply(Point(x: fx, y: fy))
                    var u = p.x, v = p.y
                    var shade = 1.0
                    if scene.crumple > 0 {
                        let k = scene.crumple * max(pw, ph)
                        u += k * sin(v / ph * 9 + crumplePhase.0)
                        v += k * sin(u / pw * 7 + crumplePhase.1)
                        shade = 1 - 0.12 * max(0, sin(u / pw * 11 + v / ph * 13 + crumplePhase.2))
                    }
                    if u >= 0, v >= 0, u < pw, v < ph {
                        let sx = min(max(u - 0.5, 0), pw - 1.001), sy = min(max(v - 0.5, 0), ph - 1.001)
                        let x0 = Int(sx), y0 = Int(sy)
                        let ax = sx - Double(x0), ay = sy - Double(y0)
                        let i00 = (y0 * page.width + x0) * 3, i10 = i00 + 3
                        let i01 = i00 + page.width * 3, i11 = i01 + 3
                        func sample(_ c: Int) -> Double {
                            let top = Double(src[i00 + c]) * (1 - ax) + Double(src[i10 + c]) * ax
                            let bottom = Double(src[i01 + c]) * (1 - ax) + Double(src[i11 + c]) * ax
                            return (top * (1 - ay) + bottom * ay) / 255
                        }
                        r = sample(0) * paper.0 * shade
                        g = sample(1) * paper.1 * shade
                        b = sample(2) * paper.2 * shade
                    }
                    if let note {
                        let q = note.toLocal.apply(photoToPage.apply(Point(x: fx, y: fy)))
                        let nx = Int(q.x), ny = Int(q.y)
                        if q.x >= 0, q.y >= 0, nx < note.image.width, ny < note.image.height {
                            let i = (ny * note.image.width + nx) * 3
                            let ink = Double(note.image.pixels[i]) / 255
                            r = ink * note.brightness; g = ink * note.brightness; b = ink * note.brightness * 0.99
                        }
                    }
                    if scene.hand, Point(x: fx, y: fy).distance(to: handCenter) < handRadius {
                        r = 215; g = 165; b = 135
                    }
                    // Light: a gradient and an optional cast shadow.
                    let t = ((fx - Double(W) / 2) * sdx + (fy - Double(H) / 2) * sdy) / diag + 0.5
                    var light = 1 - scene.shadow * min(1, max(0, t))
                    if scene.castShadow > 0 {
                        let d = (fx - castPoint.x) * cos(castAngle) + (fy - castPoint.y) * sin(castAngle)
                        light *= 1 - scene.castShadow / (1 + exp(-d / 12))
                    }
                    let o = (y * W + x) * 3
                    out[o] = UInt8(max(0, min(255, r * light)))
                    out[o + 1] = UInt8(max(0, min(255, g * light)))
                    out[o + 2] = UInt8(max(0, min(255, b * light)))
                }
            }
        }
        for _ in 0..<scene.blurPasses { boxBlur(&out, width: W, height: H) }
        if scene.noise > 0 {
            for i in 0..<out.count {
                // Sum of uniforms: roughly Gaussian.
                let n = (Double(rng.next() & 0xFFFF) + Double(rng.next() & 0xFFFF)) / 65535 - 1
                out[i] = UInt8(max(0, min(255, Double(out[i]) + n * scene.noise * 1.7)))
            }
        }
        return RasterImage(width: W, height: H, channels: 3, pixels: out)
    }

    /// A 3 × 3 box blur of an RGB buffer (edges kept).
    static func boxBlur(_ px: inout [UInt8], width: Int, height: Int) {
        let src = px
        for y in 1..<(height - 1) {
            for x in 1..<(width - 1) {
                for c in 0..<3 {
                    var s = 0
                    for dy in -1...1 { for dx in -1...1 { s += Int(src[((y + dy) * width + x + dx) * 3 + c]) } }
                    px[(y * width + x) * 3 + c] = UInt8(s / 9)
                }
            }
        }
    }

    /// The largest corner distance between two quads over the four ways of naming the corners
    /// (a detector cannot know which corner is the text's top-left on a page turned over 45°).
    public static func cornerError(_ found: Quad, _ truth: Quad) -> Double {
        let c = found.corners
        return (0..<4).map { shift in
            Quad(corners: (0..<4).map { c[($0 + shift) % 4] })!.maxCornerDistance(to: truth)
        }.min()!
    }
}
