import BenchbookData
import BenchbookEvaluation
import BenchbookExport
import BenchbookModels
import BenchbookSpec
import Foundation
import Testing

/// Naive Bayes in Core ML holds O(k·d) values: per class and column the scale layer's scale and shift (two
/// float32), per class a label, a concat input and a constant. The inner product of −1 blocks it replaced held
/// k²·d float32, 29,160 B of zeros and minus ones alone at 27 classes and 10 columns.
@Suite struct NaiveBayesSizeTests {
  static let columns = 10

  /// `classes` overlapping Gaussian clouds over `columns` numeric columns, 12 rows each, fitted on all rows.
  static func fit(classes: Int) throws -> (Dataset, FittedPipeline, ExperimentSpec, ModelSpec) {
    var generator = SeededGenerator(seed: UInt64(classes))
    var csv = (0..<columns).map { "x\($0)" }.joined(separator: ",") + ",class\n"
    for c in 0..<classes {
      for _ in 0..<12 {
        let row = (0..<columns).map { j in
          // Class means a unit or two apart, spreads from 0.5 to 2, so that probabilities are far from 0 and 1.
          let mean = Double((c * (j + 3)) % 7) * 0.6 - 2
          let spread = 0.5 + Double((c + j) % 4) * 0.5
          let u = Double.random(in: -1...1, using: &generator) + Double.random(in: -1...1, using: &generator)
          return String(mean + spread * u)
        }
        csv += row.joined(separator: ",") + ",c\(c)\n"
      }
    }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "benchbook-nb-size-\(classes)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let path = directory.appendingPathComponent("classes.csv")
    try csv.write(to: path, atomically: true, encoding: .utf8)
    let spec = try SpecParser.parse(
      yaml: """
        name: nb-\(classes)-classes
        data: {path: "\(path.path)"}
        target: class
        features: [\((0..<columns).map { "x\($0)" }.joined(separator: ", "))]
        preprocess: [standardize]
        models: [NB]

        """, path: directory.appendingPathComponent("nb.yaml").path)
    let dataset = try Dataset.load(spec.dataset)
    let model = spec.models[0]
    let pipeline = try FoldEvaluator(dataset: dataset, preprocessing: spec.preprocessing).fitAllRows(model)
    return (dataset, pipeline, spec, model)
  }

  static func coreMLBytes(classes: Int) throws -> Int {
    let (dataset, pipeline, spec, model) = try fit(classes: classes)
    let file = try OnDeviceCost.export(
      spec, dataset: dataset, model: model, pipeline: pipeline, format: CoreMLFormat(), crossValidatedLogLoss: nil)
    return file.bytes.count
  }

  /// From 9 to 27 classes the file grows by at most 3.5 times what it grows from 3 to 9 (linear growth gives 3,
  /// the k²·d block matrix gave 9); every class beyond 3 costs at most 8·d + 64 B (the scale layer's two float32
  /// per column, and the label, concat input, constant and description text); 27 classes × 10 columns stay under
  /// 8 KB, where the block matrix's weights alone took 4·27²·10 = 29,160 B. Measured when written: 3,947, 4,622
  /// and 6,685 B, 114 B per class.
  @Test func coreMLSizeGrowsLinearlyWithTheClasses() throws {
    let sizes = try [3, 9, 27].map { try Self.coreMLBytes(classes: $0) }
    let (early, late) = (sizes[1] - sizes[0], sizes[2] - sizes[1])
    #expect(Double(late) <= 3.5 * Double(early), "sizes \(sizes): +\(early) B from 3 to 9 classes, +\(late) B to 27")
    let perClass = Double(sizes[2] - sizes[0]) / 24
    #expect(perClass <= Double(8 * Self.columns + 64), "sizes \(sizes): \(perClass) B per class")
    #expect(sizes[2] < 8_192, "27 classes: \(sizes[2]) B")
  }

  /// Benchbook's own evaluators of the three files (for Core ML its interpreter of the network's layers) give the
  /// model's probabilities at 27 classes.
  @Test func manyClassesGiveTheModelsProbabilities() throws {
    let (dataset, pipeline, spec, model) = try Self.fit(classes: 27)
    let expected = pipeline.predictProbabilities(dataset.x)
    // Probabilities spread over classes, not 0 and 1 only: the check would be weak otherwise.
    let uncertain = (0..<expected.rows).filter { r in (0..<27).allSatisfy { expected[r, $0] < 0.99 } }.count
    #expect(uncertain >= expected.rows / 10, "\(uncertain) of \(expected.rows) rows without a class at 0.99")
    for format in ExportFormats.all {
      let file = try OnDeviceCost.export(
        spec, dataset: dataset, model: model, pipeline: pipeline, format: format, crossValidatedLogLoss: nil)
      let got = try format.probabilities(
        file.bytes, rows: dataset.x, features: dataset.features, classes: dataset.classes)
      let worst = got.largestDifference(from: expected)
      #expect(worst <= 1e-5, "\(format.name): largest difference \(worst)")
    }
  }
}
