// swift-tools-version: 6.1
// Micro-benchmarks of Benchbook's hot loops (ordo-one/benchmark), kept in their own package so
// that building and testing Benchbook never builds the benchmark tooling. Run with `make bench`.
import PackageDescription

let package = Package(
  name: "BenchbookBenchmarks",
  platforms: [.macOS(.v14)],
  dependencies: [
    .package(name: "Benchbook", path: "../.."),
    .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
  ],
  targets: [
    .executableTarget(
      name: "HotLoops",
      dependencies: [
        .product(name: "BenchbookData", package: "Benchbook"),
        .product(name: "BenchbookModels", package: "Benchbook"),
        .product(name: "Benchmark", package: "benchmark"),
      ],
      path: "HotLoops",
      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    )
  ]
)
