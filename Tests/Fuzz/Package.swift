// swift-tools-version: 6.1
// libFuzzer targets over the parsers that read user files, kept in their own package so that building and
// testing Benchbook never builds them. `make fuzz` builds them with `--sanitize=fuzzer --sanitize=address` and
// runs each one; see the fuzz rule in the Makefile.
import PackageDescription

/// libFuzzer supplies `main`; a driver only defines `LLVMFuzzerTestOneInput`.
let driver: [SwiftSetting] = [.unsafeFlags(["-parse-as-library"])]

let package = Package(
  name: "BenchbookFuzz",
  platforms: [.macOS(.v14)],
  dependencies: [
    .package(name: "Benchbook", path: "../..")
  ],
  targets: [
    .target(name: "FuzzSupport", path: "Support"),
    .executableTarget(
      name: "fuzz-csv",
      dependencies: ["FuzzSupport", .product(name: "BenchbookData", package: "Benchbook")],
      path: "csv", exclude: ["corpus"], swiftSettings: driver),
    .executableTarget(
      name: "fuzz-spec",
      dependencies: ["FuzzSupport", .product(name: "BenchbookSpec", package: "Benchbook")],
      path: "spec", exclude: ["corpus"], swiftSettings: driver),
    .executableTarget(
      name: "fuzz-expression",
      dependencies: ["FuzzSupport", .product(name: "BenchbookData", package: "Benchbook")],
      path: "expression", exclude: ["corpus"], swiftSettings: driver),
    .executableTarget(
      name: "fuzz-coreml",
      dependencies: [.product(name: "BenchbookExport", package: "Benchbook")],
      path: "coreml", exclude: ["corpus"], swiftSettings: driver),
    .executableTarget(
      name: "fuzz-results",
      dependencies: ["FuzzSupport", .product(name: "BenchbookEvaluation", package: "Benchbook")],
      path: "results", exclude: ["corpus"], swiftSettings: driver),
  ]
)
