import BenchbookSpec
import Testing

/// `regression:` keys of `check --against` and instruction counts.
@Suite struct RegressionSpecTests: SpecParsing {
  static let head = SpecParserTests.flights + "\n"

  @Test func instructionsAreOffUnlessAsked() throws {
    let spec = try parse(Self.head)
    #expect(!spec.regression.instructions)
    #expect(spec.regression.defaults.instructionsWarnRelative == 0.01)
    #expect(spec.regression.defaults.instructionsFailRelative == 0.05)
  }

  @Test func instructionsAndTheirLimitsParse() throws {
    let spec = try parse(
      Self.head
        + "regression: {instructions: true, instruction_count: {warn_relative: 0.02}, models: {NB: {instruction_count: {fail_relative: 0.1}}}}\n"
    )
    #expect(spec.regression.instructions)
    #expect(spec.regression.defaults.instructionsWarnRelative == 0.02)
    #expect(spec.regression.thresholds(for: "NB").instructionsFailRelative == 0.1)
    #expect(spec.regression.thresholds(for: "NB").instructionsWarnRelative == 0.02)
  }

  @Test func instructionsMustBeABoolean() {
    let error = specError(Self.head + "regression: {instructions: often}\n")
    #expect(error?.description.contains("/specs/exp.yaml:18:") == true, "\(String(describing: error))")
  }
}
