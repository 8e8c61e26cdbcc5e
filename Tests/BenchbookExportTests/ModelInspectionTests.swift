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
}
