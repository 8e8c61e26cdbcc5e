// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "Benchbook",
  platforms: [.macOS(.v14)],
  products: [
    .executable(name: "benchbook", targets: ["benchbook"]),
    // Libraries for the micro-benchmarks in Sources/Benchmarks (and anyone who wants the models alone).
    .library(name: "BenchbookData", targets: ["BenchbookData"]),
    .library(name: "BenchbookModels", targets: ["BenchbookModels"]),
    // Libraries for the fuzz targets in Tests/Fuzz (`make fuzz`).
    .library(name: "BenchbookSpec", targets: ["BenchbookSpec"]),
    .library(name: "BenchbookExport", targets: ["BenchbookExport"]),
    .library(name: "BenchbookEvaluation", targets: ["BenchbookEvaluation"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
  ],
  targets: [
    // System libraries, each behind a thin module map.
    .systemLibrary(name: "CZlib", path: "Sources/CZlib"),
    .systemLibrary(name: "COpenBLAS", path: "Sources/COpenBLAS"),
    // Streams Swift-built plot scripts and data to gnuplot through gnuplot-iostream.
    .target(
      name: "CGnuplotBridge",
      path: "Sources/CGnuplotBridge",
      cxxSettings: [.unsafeFlags(["-Wno-deprecated-declarations"])],
      linkerSettings: [
        .linkedLibrary("boost_iostreams"), .linkedLibrary("boost_filesystem"),
      ]
    ),

    .target(name: "BenchbookData", dependencies: ["CZlib"]),
    .target(name: "BenchbookModels", dependencies: ["BenchbookData", "COpenBLAS"]),
    .target(
      name: "BenchbookSpec",
      dependencies: ["BenchbookData", "BenchbookModels", "BenchbookExport", .product(name: "Yams", package: "Yams")]
    ),
    .target(
      name: "BenchbookEvaluation",
      dependencies: ["BenchbookData", "BenchbookModels", "BenchbookSpec", "BenchbookExport"]
    ),
    .target(name: "BenchbookExport", dependencies: ["BenchbookData", "BenchbookModels"]),
    // Studies: many experiments compared across datasets (spec, shards, statistics, study.json).
    .target(
      name: "BenchbookStudy",
      dependencies: ["BenchbookData", "BenchbookSpec", "BenchbookEvaluation", .product(name: "Yams", package: "Yams")]
    ),
    .target(
      name: "BenchbookReport",
      dependencies: [
        "BenchbookData", "BenchbookModels", "BenchbookSpec", "BenchbookEvaluation", "BenchbookExport", "BenchbookStudy",
        "CGnuplotBridge",
      ]),
    .executableTarget(
      name: "benchbook",
      dependencies: [
        "BenchbookData", "BenchbookModels", "BenchbookSpec", "BenchbookExport", "BenchbookEvaluation",
        "BenchbookReport", "BenchbookStudy",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),

    // `make bench`: Benchbook against scikit-learn on the flights reference and on the bench suite.
    .executableTarget(
      name: "benchbook-bench", dependencies: ["BenchbookModels", .product(name: "Yams", package: "Yams")],
      exclude: ["sklearn_flights.py", "sklearn_flights_tuned.py", "replicate_flights.py", "sklearn_suite.py"]),

    .testTarget(name: "BenchbookDataTests", dependencies: ["BenchbookData"], exclude: ["Fixtures"]),
    // The conformance suite every registered model passes, for any test target (a test target's own models too).
    .target(
      name: "BenchbookConformance",
      dependencies: ["BenchbookData", "BenchbookModels", "BenchbookSpec", "BenchbookEvaluation", "BenchbookExport"],
      path: "Tests/BenchbookConformance"),

    .testTarget(
      name: "BenchbookModelsTests", dependencies: ["BenchbookData", "BenchbookModels", "BenchbookConformance"],
      exclude: ["Fixtures"]),
    .testTarget(name: "BenchbookSpecTests", dependencies: ["BenchbookData", "BenchbookModels", "BenchbookSpec"]),
    .testTarget(
      name: "BenchbookEvaluationTests",
      dependencies: ["BenchbookData", "BenchbookModels", "BenchbookSpec", "BenchbookEvaluation"], exclude: ["Fixtures"]),
    .testTarget(
      name: "BenchbookExportTests",
      dependencies: ["BenchbookData", "BenchbookModels", "BenchbookSpec", "BenchbookExport", "BenchbookEvaluation"],
      exclude: ["Fixtures"]),
    .testTarget(
      name: "BenchbookStudyTests", dependencies: ["BenchbookSpec", "BenchbookEvaluation", "BenchbookStudy"]),
    .testTarget(
      name: "BenchbookReportTests",
      dependencies: ["BenchbookData", "BenchbookSpec", "BenchbookEvaluation", "BenchbookReport"],
      exclude: ["Fixtures", "ReportRendererTests.golden.md"]),
    // The bench's own arithmetic (medians, ratios, targets, phases), with fixed inputs and no timing.
    .testTarget(name: "BenchbookBenchTests", dependencies: ["benchbook-bench"]),
    // A model defined only in a test target, run end to end through the registry.
    .testTarget(
      name: "FeaturelessModelTests",
      dependencies: [
        "BenchbookConformance", "BenchbookData", "BenchbookEvaluation", "BenchbookModels", "BenchbookReport",
        "BenchbookSpec",
      ],
      exclude: ["Fixtures"]),
    .testTarget(
      name: "EndToEndTests", dependencies: ["BenchbookModels", .product(name: "Yams", package: "Yams")],
      exclude: ["Fixtures"]),
  ],
  cxxLanguageStandard: .cxx17
)
