import BenchbookSpec
import Testing

/// The `export:` section (the formats `run` measures) and `budget.format`.
@Suite struct ExportSpecTests: SpecParsing {
  static let header = "data: {path: a.csv}\ntarget: y\nfeatures: [a]\n"

  @Test func withoutAnExportSectionCoreMLAloneIsMeasured() throws {
    let spec = try parse(Self.header)
    #expect(spec.exportFormats == nil)
    #expect(spec.measuredFormats == ["coreml"])
    #expect(!spec.definitionText.contains("export"))
  }

  @Test func formatsAreMeasuredWithCoreMLInRegistryOrder() throws {
    let spec = try parse(Self.header + "export: {formats: [onnx, tflite]}\n")
    #expect(spec.exportFormats == ["onnx", "tflite"])
    #expect(spec.measuredFormats == ["coreml", "tflite", "onnx"])
    #expect(spec.definitionText.hasSuffix("export formats=coreml,tflite,onnx\n"))
  }

  @Test func unknownFormatIsLocated() throws {
    let error = try #require(specError(Self.header + "export:\n  formats: [coreml, tflit]\n"))
    expectSpecError(error, line: 5, key: "export.formats[1]", says: "unknown format 'tflit'; did you mean 'tflite'?")
  }

  @Test func formatsAreListedOnce() throws {
    let error = try #require(specError(Self.header + "export:\n  formats: [onnx, onnx]\n"))
    expectSpecError(error, line: 5, key: "export.formats[1]", says: "listed twice")
  }

  @Test func exportNeedsFormats() throws {
    let error = try #require(specError(Self.header + "export: {format: onnx}\n"))
    expectSpecError(error, line: 4, key: "export.format", says: "unknown key 'format'; did you mean 'formats'?")
  }

  @Test func budgetFormatMustBeMeasured() throws {
    let spec = try parse(
      Self.header + "export: {formats: [tflite]}\nbudget: {model_size_bytes: 5000, format: tflite}\n")
    #expect(spec.budget == BudgetSpec(modelSizeBytes: 5000, format: "tflite"))
    #expect(spec.budget?.sizeFormat == "tflite")
    #expect(spec.definitionText.contains("budget model_size_bytes=5000 latency_us_p99=- format=tflite\n"))
    let error = try #require(specError(Self.header + "budget:\n  model_size_bytes: 5000\n  format: onnx\n"))
    expectSpecError(error, line: 6, key: "budget.format", says: "does not measure; list it in export.formats")
    #expect(try parse(Self.header + "budget: {model_size_bytes: 5000}\n").budget?.sizeFormat == "coreml")
  }
}
