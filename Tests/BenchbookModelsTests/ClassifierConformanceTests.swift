import BenchbookConformance
import BenchbookModels
import Testing

/// Every model in the registry's list through the conformance suite (`ConformanceCheck`): a model added to it is
/// held to the same contract without a line of test code. A model a test target registers at run time runs the
/// same checks in its own target (`FeaturelessModelTests`), so which suite sees it never depends on test order.
@Suite struct ClassifierConformanceTests {
  @Test(arguments: ModelRegistry.builtIn, ConformanceCheck.allCases)
  func conforms(_ model: ModelDescriptor, _ check: ConformanceCheck) throws {
    try check.run(model)
  }
}
