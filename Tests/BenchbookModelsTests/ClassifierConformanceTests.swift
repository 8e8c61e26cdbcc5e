import BenchbookConformance
import BenchbookModels
import Testing

/// Every registered model through the conformance suite (`ConformanceCheck`): a model added to the registry is
/// held to the same contract without a line of test code.
@Suite struct ClassifierConformanceTests {
  @Test(arguments: ModelRegistry.all, ConformanceCheck.allCases)
  func conforms(_ model: ModelDescriptor, _ check: ConformanceCheck) throws {
    try check.run(model)
  }
}
