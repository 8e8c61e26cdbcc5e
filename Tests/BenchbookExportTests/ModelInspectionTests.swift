import BenchbookEvaluation
import BenchbookExport
import Testing

/// `benchbook inspect`'s text names everything an app developer checks before shipping.
@Suite struct ModelInspectionTests {
  @Test func binaryKNearestNeighbours() throws {
    let trained = try ExportFixtures.train(.binaryStandardized, model: "KNN")
    let text = ModelInspection.text(
      trained.exported.model, fileName: "Binary.mlmodel", sizeBytes: trained.exported.sizeBytes)
    let lines = text.split(separator: "\n").map(String.init)
    #expect(lines[0].hasPrefix("Binary.mlmodel: ") && lines[0].hasSuffix(" bytes"))
    #expect(lines.contains("type: pipelineClassifier"))
    #expect(lines.contains("specification version: 4 (iOS 13, macOS 10.15)"))
    #expect(lines.contains { $0.hasPrefix("  region ") && $0.contains("string") && $0.contains("One of: east, north") })
    #expect(lines.contains { $0.hasPrefix("  weekday ") && $0.contains("int64") })
    #expect(lines.contains { $0.hasPrefix("  classProbability ") && $0.contains("dictionary(int64 → double)") })
    #expect(lines.contains { $0.contains("oneHotEncoder") })
    #expect(
      lines.contains { $0.contains("180 samples × 13 float32, k = 5, uniform weighting, kd-tree index (leaf size 30)") }
    )
  }

  /// Naive Bayes's network: its reshape and reduce layers are named with their shape and axis, and the weights
  /// counted are the scale layers' (2·k·d + 1 + k), not a k²·d matrix.
  @Test func naiveBayesLayers() throws {
    let (dataset, pipeline, spec, model) = try NaiveBayesSizeTests.fit(classes: 27)
    let exported = try OnDeviceCost.export(
      spec, dataset: dataset, model: model, pipeline: pipeline, crossValidatedLogLoss: nil)
    let text = ModelInspection.text(exported.model, fileName: "NB.mlmodel", sizeBytes: exported.sizeBytes)
    let d = NaiveBayesSizeTests.columns
    #expect(
      text.contains(
        "7 layers: perClass (concat) → scaledDistances (scale) → squares (multiply) → squaresPerClass (reshape to "
          + "27×1×\(d)) → sumsOfSquares (reduce sum over width) → jointLogLikelihood (scale) → softmax (softmax); "
          + "\(2 * 27 * d + 1 + 27) float32 weights"), "\(text)")
  }
}
