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
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // C libraries (Debian: libtesseract-dev, libleptonica-dev, libpoppler-glib-dev, libcairo2-dev).
        .systemLibrary(name: "CTesseract", pkgConfig: "tesseract",
                       providers: [.apt(["libtesseract-dev"])]),
        .systemLibrary(name: "CLeptonica", pkgConfig: "lept",
                       providers: [.apt(["libleptonica-dev"])]),
        .systemLibrary(name: "CPoppler", pkgConfig: "poppler-glib cairo",
                       providers: [.apt(["libpoppler-glib-dev", "libcairo2-dev"])]),

        // OpenCV (Debian: libopencv-imgproc-dev; no opencv4.pc without libopencv-dev) behind a
        // plain-C shim that catches every C++ exception. Only ScanCamera imports it.
        .target(name: "COpenCVShim",
                cxxSettings: [.unsafeFlags(["-I/usr/include/opencv4"])],
                linkerSettings: [.linkedLibrary("opencv_imgproc"), .linkedLibrary("opencv_core")]),

        // Value types shared by every stage. No C, no engines.
        .target(name: "ScanModel"),
        // Pure-Swift data detectors (phone, e-mail, URL, date, money, ...).
        .target(name: "ScanDetectors", dependencies: ["ScanModel"]),
        // Decoding images and PDFs into pages; preprocessing for recognition.
        .target(name: "ScanInput", dependencies: ["ScanModel", "CLeptonica", "CPoppler"]),
        // The document camera: finds the page on a photo, flattens it, evens the light.
        .target(name: "ScanCamera", dependencies: ["ScanModel", "COpenCVShim"]),
        // The TextRecognizer protocol and its engines.
        .target(name: "ScanRecognition", dependencies: ["ScanModel", "CTesseract"]),
        // Layout, document classifier, receipt and business-card parsers. Pure logic.
        .target(name: "ScanExtraction", dependencies: ["ScanModel", "ScanDetectors"]),
        // JSON / JSON Lines / text / CSV / vCard writers.
        .target(name: "ScanExport", dependencies: ["ScanModel"]),
        // The pipeline facade: input -> preprocess -> recognize -> detect -> export.
        .target(name: "ScanKit", dependencies: [
            "ScanModel", "ScanInput", "ScanRecognition", "ScanDetectors", "ScanExtraction", "ScanExport",
        ]),
        // The thin command line.
        .executableTarget(name: "scanextract", dependencies: [
            "ScanKit", "ScanDetectors", "ScanExport", "ScanModel", "ScanRecognition", "ScanCamera", "ScanInput",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),

        .executableTarget(name: "DetectorsBenchmark", dependencies: ["ScanDetectors"], path: "Benchmarks/DetectorsBenchmark"),
        // Benchmark harness for the PP-OCR engine: a folder of images -> scanextract JSON per image.
        .executableTarget(name: "PPOCREval", dependencies: ["ScanModel", "ScanRecognition", "ScanInput"],
                          path: "Benchmarks/PPOCREval"),

        // The camera stage on generated photos: corner accuracy over many photos, and time per photo.
        .executableTarget(name: "CameraBenchmark", dependencies: ["ScanCamera", "ScanModel", "ScanInput", "TestSupport"],
                          path: "Benchmarks/CameraBenchmark"),

        .testTarget(name: "ScanModelTests", dependencies: ["ScanModel"]),
        .testTarget(name: "ScanCameraTests", dependencies: ["ScanCamera", "ScanRecognition", "TestSupport"]),
        .testTarget(name: "ScanExtractionTests", dependencies: ["ScanExtraction", "ScanExport"]),
        // Learns the classifier's weights from folders of labelled documents.
        .executableTarget(name: "TrainClassifier", dependencies: ["ScanExtraction", "ScanModel", "ScanDetectors"], path: "Tools/train-classifier"),
        .executableTarget(name: "ExtractionBenchmark", dependencies: ["ScanExtraction", "ScanModel", "ScanDetectors"], path: "Benchmarks/ExtractionBenchmark"),
        .testTarget(name: "ScanDetectorsTests", dependencies: ["ScanDetectors"]),
        .testTarget(name: "ScanInputTests", dependencies: ["ScanInput", "TestSupport"]),
        .testTarget(name: "ScanRecognitionTests", dependencies: ["ScanRecognition", "ScanInput", "TestSupport"]),
        .testTarget(name: "ScanExportTests", dependencies: ["ScanExport", "TestSupport"]),
        .testTarget(name: "ScanKitTests", dependencies: ["ScanKit", "TestSupport"]),
        .testTarget(name: "CLITests", dependencies: ["TestSupport"]),
        // Writes Samples/ (`swift run SampleMaker Samples`).
        .executableTarget(name: "SampleMaker", dependencies: ["TestSupport", "ScanModel"], path: "Tools/SampleMaker"),
        // Generates test images and PDFs with cairo, so no test needs a fixture from outside.
        .target(name: "TestSupport", dependencies: ["ScanModel", "CPoppler", "CLeptonica"], path: "Tests/TestSupport"),
    ]
)
