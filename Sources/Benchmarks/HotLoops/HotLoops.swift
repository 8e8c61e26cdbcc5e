import BenchbookData
import BenchbookModels
import Benchmark
import Foundation

/// Where the time of a flights run goes: reading the CSV, the kd-tree, the tree builder and the
/// L-BFGS solver, each on the flagship's own data (experiments/data/flights.csv.gz).
let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = .init(
    metrics: [.wallClock, .peakMemoryResident], timeUnits: .milliseconds, warmupIterations: 1,
    maxDuration: .seconds(3), maxIterations: 10)

  Benchmark("CSV: load flights (8.2 MB gzip, 336,776 rows)") { benchmark in
    for _ in benchmark.scaledIterations { blackHole(try Dataset.load(Flights.definition).x.rows) }
  }

  Benchmark("kd-tree: build on 294,611 rows, 32,735 queries, k = 5") { benchmark in
    let (train, test) = Flights.split
    benchmark.startMeasurement()
    let tree = KDTree(points: train.x, leafSize: 30)
    blackHole(tree.nearest(test.x, k: 5).rows.count)
  }

  Benchmark("tree builder: fully grown CART on 294,611 rows") { benchmark in
    let (train, _) = Flights.split
    benchmark.startMeasurement()
    blackHole(try DecisionTree().fit(train.x, labels: train.labels, classCount: 2).nodes.count)
  }

  Benchmark("L-BFGS: logistic regression on 294,611 unscaled rows") { benchmark in
    let (train, _) = Flights.split
    benchmark.startMeasurement()
    blackHole(try LogisticRegression().fit(train.x, labels: train.labels, classCount: 2).iterations)
  }
}

/// The flagship's data, loaded once, and its first unshuffled fold.
enum Flights {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  static let definition = DatasetDefinition(
    path: root.appendingPathComponent("experiments/data/flights.csv.gz").path,
    pathLocation: SourceLocation(file: "HotLoops.swift"), missing: .drop,
    target: TargetDefinition(
      column: ColumnReference(column: "arr_delay", location: SourceLocation(file: "HotLoops.swift")),
      when: Threshold(.greater, 15)),
    features: ["month", "day", "sched_dep_time", "distance"].map {
      FeatureDefinition(name: $0, source: .column($0), location: SourceLocation(file: "HotLoops.swift"))
    })

  nonisolated(unsafe) static let dataset = try! Dataset.load(definition)

  /// Fold 0 of unshuffled 10-fold k-fold: the test block is the first tenth of the rows.
  nonisolated(unsafe) static let split: (train: (x: Matrix, labels: [Int]), test: (x: Matrix, labels: [Int])) = {
    let n = dataset.x.rows
    let testCount = n / 10 + (n % 10 > 0 ? 1 : 0)
    let test = Array(0..<testCount)
    let train = Array(testCount..<n)
    return (
      (dataset.x.selecting(rows: train), train.map { dataset.labels[$0] }),
      (dataset.x.selecting(rows: test), test.map { dataset.labels[$0] })
    )
  }()
}
