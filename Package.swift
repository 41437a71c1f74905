// swift-tools-version:6.0
import PackageDescription

// One target per responsibility; see README.md ("Architecture").
// C libraries sit behind the C* system-library targets and are imported only
// by the safe wrappers in ScanInput and ScanRecognition.
let package = Package(
    name: "scanextract",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "scanextract", targets: ["scanextract"]),
        .library(name: "ScanKit", targets: ["ScanKit"]),
        .library(name: "ScanDetectors", targets: ["ScanDetectors"]),
        .library(name: "ScanExtraction", targets: ["ScanExtraction"]),
        .library(name: "ScanInk", targets: ["ScanInk"]),
        // The document model (Document, ScanError, Ink...) and its exports (CSV, vCard): `import ScanKit` brings both.
        .library(name: "ScanModel", targets: ["ScanModel"]),
        .library(name: "ScanExport", targets: ["ScanExport"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // `swift package generate-documentation --target ScanKit` (DocC).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // `scanextract serve`: the HTTP server (ScanService) and its SQLite job store (ScanJobs).
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // `serve --database postgres://...`: the same job store in PostgreSQL (ScanJobsPostgres).
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // Already under Hummingbird; named for graceful shutdown and the bound port.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        // `callbackUrl`: the POSTs to clients (async-http-client) and their HMAC-SHA256 signatures;
        // SHA-256 of a folder run's inputs and outputs (ScanKit's OutputManifest). swift-crypto is
        // already built for postgres-nio.
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
    ],
    targets: [
        // C libraries (Debian: libtesseract-dev, libleptonica-dev, libpoppler-glib-dev, libcairo2-dev).
        .systemLibrary(name: "CTesseract", pkgConfig: "tesseract",
                       providers: [.apt(["libtesseract-dev"])]),
        .systemLibrary(name: "CLeptonica", pkgConfig: "lept",
                       providers: [.apt(["libleptonica-dev"])]),
        .systemLibrary(name: "CPoppler", pkgConfig: "poppler-glib cairo",
                       providers: [.apt(["libpoppler-glib-dev", "libcairo2-dev"])]),
        // Tolerant JPEG/PNG decoding (libjpeg, libpng): C, because both report errors with longjmp.
        // HEIF (phones' HEIC photos, AVIF) through libheif (Debian: libheif-dev).
        .target(name: "CImageCodecs",
                linkerSettings: [.linkedLibrary("jpeg"), .linkedLibrary("png16"), .linkedLibrary("heif")]),

        // OpenCV (Debian: libopencv-imgproc-dev; no opencv4.pc without libopencv-dev) behind a
        // plain-C shim that catches every C++ exception. Only ScanCamera imports it.
        .target(name: "COpenCVShim",
                cxxSettings: [.unsafeFlags(["-I/usr/include/opencv4"])],
                linkerSettings: [.linkedLibrary("opencv_imgproc"), .linkedLibrary("opencv_core")]),

        // The calling thread's treatment of denormal floats (x86 MXCSR, Arm FPCR), switched
        // around model runs by ONNXRuntime.
        .target(name: "CDenormals"),

        // Value types shared by every stage. No C, no engines.
        .target(name: "ScanModel"),
        // Pure-Swift data detectors (phone, e-mail, URL, date, money, ...).
        .target(name: "ScanDetectors", dependencies: ["ScanModel"]),
        // Decoding images and PDFs into pages; preprocessing for recognition.
        .target(name: "ScanInput", dependencies: ["ScanModel", "CLeptonica", "CPoppler", "CImageCodecs"]),
        // The document camera: finds the page on a photo, flattens it, evens the light.
        .target(name: "ScanCamera", dependencies: ["ScanModel", "COpenCVShim"]),
        // Our dlopen binding of ONNX Runtime's C API: sessions and tensors. Used by the
        // PP-OCR engine, and by anything else that runs a model (ink, page finding).
        .target(name: "ONNXRuntime", dependencies: ["ScanModel", "CDenormals"]),
        // The TextRecognizer protocol and its engines.
        .target(name: "ScanRecognition", dependencies: ["ScanModel", "CTesseract", "ONNXRuntime"]),
        // Layout: pages turned upright on their coordinates, then blocks of lines of words
        // in reading order. Pure geometry, no document semantics.
        .target(name: "ScanLayout", dependencies: ["ScanModel"]),
        // Document classifier, receipt and business-card parsers. Pure logic.
        // Its knowledge ships as resources: one word file a language (Resources/Locales/*.json) and the learned
        // field scores (Resources/ReceiptFields.json, made by Tools/train-receipt-fields) and the item-line model
        // (Resources/ItemLines.json, made by Tools/train-items) and the characters OCR confuses
        // (Resources/OCRConfusions.json, made by Tools/learn-confusions).
        .target(name: "ScanExtraction", dependencies: ["ScanModel", "ScanDetectors", "ScanLayout"],
                resources: [.copy("Resources/Locales"), .copy("Resources/ReceiptFields.json"),
                            .copy("Resources/ItemLines.json"), .copy("Resources/OCRConfusions.json")]),
        // Digital ink: strokes -> rendering -> PP-OCR line recognizer -> CTC beam + word list -> candidates.
        // The single-character shape model (Resources/CharacterShapes.json) is made by `TrainInk characters`;
        // the handwriting judge's weights (Resources/HandwritingDetector.json) by Tools/train-handwriting.
        .target(name: "ScanInk", dependencies: ["ScanModel", "ScanRecognition"],
                resources: [.copy("Resources/CharacterShapes.json"), .copy("Resources/HandwritingDetector.json")]),
        // The structured invoice a PDF embeds (Factur-X, ZUGFeRD, XRechnung CII) as a receipt's fields. Pure
        // logic over the attachment's bytes (Foundation's XML parser).
        .target(name: "ScanEInvoice", dependencies: ["ScanModel", "ScanDetectors"]),
        // JSON / JSON Lines / text / CSV / vCard writers.
        .target(name: "ScanExport", dependencies: ["ScanModel"]),
        // The pipeline facade: input -> preprocess -> recognize -> detect -> export.
        .target(name: "ScanKit", dependencies: [
            "ScanModel", "ScanInput", "ScanCamera", "ScanRecognition", "ScanDetectors", "ScanLayout", "ScanExtraction", "ScanExport",
            "ScanInk", "ScanEInvoice",
            .product(name: "Crypto", package: "swift-crypto"),
        ]),
        // The job store and queue: jobs, their uploads and results, leases (SQLite through GRDB).
        // No HTTP, no engines: a job's configuration is an opaque JSON value here.
        .target(name: "ScanJobs", dependencies: [.product(name: "GRDB", package: "GRDB.swift")]),
        // The same JobStore protocol in PostgreSQL (postgres-nio), shared by several `serve` processes:
        // claims with FOR UPDATE SKIP LOCKED, leases, LISTEN/NOTIFY. Its own target so that the
        // embedded build's users of ScanJobs don't link a second database driver.
        .target(name: "ScanJobsPostgres", dependencies: [
            "ScanJobs",
            .product(name: "PostgresNIO", package: "postgres-nio"),
        ]),
        // `scanextract serve`: Hummingbird routes, auth, limits, problem+json, and the worker
        // processes that run the engines (none run in the server's own process).
        .target(name: "ScanService", dependencies: [
            "ScanJobs", "ScanModel", "ScanExport",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "Crypto", package: "swift-crypto"),
        ], resources: [.embedInCode("openapi.yaml")]),
        // The thin command line.
        .executableTarget(name: "scanextract", dependencies: [
            "ScanKit", "ScanDetectors", "ScanExport", "ScanModel", "ScanRecognition", "ScanCamera", "ScanInput", "ScanInk",
            "ScanService", "ScanJobs", "ScanJobsPostgres",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),

        .executableTarget(name: "DetectorsBenchmark", dependencies: ["ScanDetectors"], path: "Benchmarks/DetectorsBenchmark"),
        // Benchmark harness for the PP-OCR engine: a folder of images -> scanextract JSON per image.
        .executableTarget(name: "PPOCREval", dependencies: ["ScanModel", "ScanRecognition", "ScanInput"],
                          path: "Benchmarks/PPOCREval"),

        // Which images get contrast normalization, and the normalized pages for the tesseract CLI.
        .executableTarget(name: "ContrastCheck", dependencies: ["ScanInput"], path: "Benchmarks/ContrastCheck"),
        // The camera stage on generated photos: corner accuracy over many photos, and time per photo.
        .executableTarget(name: "CameraBenchmark", dependencies: ["ScanCamera", "ScanModel", "ScanInput", "TestSupport"],
                          path: "Benchmarks/CameraBenchmark"),
        // Ink: words per second and top-1 on generated Hershey ink, one core.
        .executableTarget(name: "InkBenchmark", dependencies: ["ScanInk", "ScanModel", "ScanRecognition"],
                          path: "Benchmarks/InkBenchmark"),
        // Handwriting on images: word accuracy of PP-OCR's best path and of the word-list line decoder.
        .executableTarget(name: "HandwritingBenchmark", dependencies: ["ScanInk", "ScanModel", "ScanRecognition"],
                          path: "Benchmarks/HandwritingBenchmark"),
        // Features of recognized lines on generated handwriting and printed pages, for Tools/train-handwriting.
        .executableTarget(name: "HandwritingFeatures", dependencies: ["ScanKit", "ScanInk", "ScanModel", "TestSupport"],
                          path: "Tools/train-handwriting", exclude: ["README.md", "train.py"]),
        // Learns the ink decoder's word-list bonus on generated ink (k-fold check on a labelled set).
        .executableTarget(name: "TrainInk", dependencies: ["ScanInk", "ScanModel", "ScanRecognition"],
                          path: "Tools/train-ink", exclude: ["ensemble.py", "README.md"]),
        .testTarget(name: "ScanInkTests", dependencies: ["ScanInk", "ScanModel", "ScanRecognition"]),
        .testTarget(name: "ScanModelTests", dependencies: ["ScanModel"]),
        .testTarget(name: "ScanCameraTests", dependencies: ["ScanCamera", "ScanRecognition", "TestSupport"]),
        .testTarget(name: "ScanExtractionTests", dependencies: ["ScanExtraction", "ScanLayout", "ScanExport", "TestSupport"]),
        // Learns the classifier's weights from folders of labelled documents.
        .executableTarget(name: "TrainClassifier", dependencies: ["ScanExtraction", "ScanLayout", "ScanModel", "ScanDetectors"], path: "Tools/train-classifier"),
        // Writes receipt lines with the item model's features, for Tools/train-items/train_items.py.
        .executableTarget(name: "ItemLines", dependencies: ["ScanExtraction", "ScanLayout", "ScanModel", "ScanDetectors"],
                          path: "Tools/train-items", exclude: ["train_items.py", "augment.py", "README.md"]),
        // Writes the receipt fields' candidates and features; Tools/train-receipt-fields/train.py learns their scores.
        .executableTarget(name: "DumpReceiptFields", dependencies: ["ScanExtraction", "ScanKit", "ScanModel", "ScanDetectors"],
                          path: "Tools/train-receipt-fields", exclude: ["train.py", "README.md", "kfold.py", "make_receipts.py", "cord_keys.py"]),
        .executableTarget(name: "ExtractionBenchmark", dependencies: ["ScanExtraction", "ScanLayout", "ScanModel", "ScanDetectors"], path: "Benchmarks/ExtractionBenchmark"),
        .testTarget(name: "ScanDetectorsTests", dependencies: ["ScanDetectors"]),
        .testTarget(name: "ScanInputTests", dependencies: ["ScanInput", "TestSupport"]),
        .testTarget(name: "ScanRecognitionTests", dependencies: ["ScanRecognition", "ONNXRuntime", "ScanInput", "TestSupport"]),
        .testTarget(name: "ScanExportTests", dependencies: ["ScanExport", "TestSupport"]),
        .testTarget(name: "ScanEInvoiceTests", dependencies: ["ScanEInvoice", "ScanModel"]),
        .testTarget(name: "ScanKitTests", dependencies: ["ScanKit", "ScanExport", "ScanInput", "TestSupport"]),
        .testTarget(name: "CLITests", dependencies: ["TestSupport"], exclude: ["Golden"]),
        // The JobStore contract on SQLite, and on a real PostgreSQL server.
        .testTarget(name: "ScanJobsTests", dependencies: ["ScanJobs", "JobStoreTestSupport",
                                                          .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(name: "ScanJobsPostgresTests",
                    dependencies: ["ScanJobs", "ScanJobsPostgres", "JobStoreTestSupport", "TestSupport"]),
        // What every JobStore must do (written once, run against each store), the test PostgreSQL
        // server (SCANEXTRACT_TEST_POSTGRES_URL) and a fresh database per test.
        .target(name: "JobStoreTestSupport", dependencies: [
            "ScanJobs", "ScanJobsPostgres", .product(name: "PostgresNIO", package: "postgres-nio"),
        ], path: "Tests/JobStoreTestSupport"),
        // Starts the built `scanextract serve` on loopback and talks HTTP to it (no in-process server).
        // ScanInk only writes the ink the tests send (Hershey strokes); nothing is recognized in process.
        .testTarget(name: "ScanServiceTests",
                    dependencies: ["ScanJobs", "ScanService", "TestSupport", "ScanInk", "ScanModel", "JobStoreTestSupport",
                                   .product(name: "Crypto", package: "swift-crypto")]),
        // Writes Samples/ (`swift run SampleMaker Samples`).
        .executableTarget(name: "SampleMaker", dependencies: ["TestSupport", "ScanModel"], path: "Tools/SampleMaker"),
        // Generates test images and PDFs with cairo, so no test needs a fixture from outside.
        .target(name: "TestSupport", dependencies: ["ScanModel", "CPoppler", "CLeptonica"], path: "Tests/TestSupport"),
    ]
)
