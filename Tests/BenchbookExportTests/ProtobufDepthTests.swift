import BenchbookExport
import Testing

/// A file of pipelines nested in pipelines is read up to a limit and refused past it, at a byte offset.
@Suite struct ProtobufDepthTests {
  @Test func shallowNestingReads() throws {
    let model = try CoreMLModel(serializedBytes: NestedPipelines.bytes(levels: 30))
    var levels = 0
    var current = model
    while case .pipeline(let pipeline) = current.kind, let inner = pipeline.models.first {
      levels += 1
      current = inner
    }
    #expect(levels == 30)
  }

  @Test(arguments: [60, 10_000, 1_000_000])
  func deepNestingIsAnErrorAtAnOffset(levels: Int) {
    do {
      _ = try CoreMLModel(serializedBytes: NestedPipelines.bytes(levels: levels))
      Issue.record("expected an error")
    } catch {
      #expect(error.message.contains("nest more than 100 levels"), "\(error)")
      #expect(error.offset != nil && error.offset! > 0, "\(error)")
    }
  }
}
