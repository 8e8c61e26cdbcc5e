import BenchbookModels
import Foundation
import Testing

/// `benchbook models`: the registry as the binary holds it, for users and for `make coreml-check`.
@Suite struct ModelsCommandTests {
  /// The binary knows exactly the built-in models, in registry order: a model a test target registers in its own
  /// process never shows up in it.
  @Test func labelsAreTheBuiltInModels() throws {
    let output = try BenchbookBinary.run(["models", "--labels"])
    #expect(output.status == 0, "\(output.stderr)")
    #expect(output.stdout.split(separator: "\n").map(String.init) == ModelRegistry.builtIn.map(\.defaultLabel))
    let updatable = try BenchbookBinary.run(["models", "--labels", "--updatable"])
    #expect(
      updatable.stdout.split(separator: "\n").map(String.init)
        == ModelRegistry.builtIn.filter(\.traits.updatable).map(\.defaultLabel))
  }

  /// Every model with its names, scikit-learn class and every spelling of every setting.
  @Test func listingShowsNamesAndSettings() throws {
    let output = try BenchbookBinary.run(["models"])
    #expect(output.status == 0, "\(output.stderr)")
    for model in ModelRegistry.builtIn {
      #expect(
        output.stdout.contains("\(model.defaultLabel): \(model.displayName), scikit-learn's \(model.scikitLearnName)"))
      #expect(output.stdout.contains("names: \(model.names.joined(separator: ", "))"))
      for setting in model.settingsSchema {
        #expect(output.stdout.contains(setting.spellings.joined(separator: " | ")), "\(model.id) \(setting.name)")
      }
    }
  }

  @Test func oneModelByAnyName() throws {
    let output = try BenchbookBinary.run(["models", "gnb"])
    #expect(output.status == 0, "\(output.stderr)")
    #expect(output.stdout.hasPrefix("NB: Gaussian naive Bayes"))
    #expect(!output.stdout.contains("LR:"))
  }

  @Test func unknownModelNamesTheNearest() throws {
    let output = try BenchbookBinary.run(["models", "KNM"])
    #expect(output.status == 1)
    #expect(output.stderr.contains("unknown model 'KNM'; did you mean 'KNN'?"), "\(output.stderr)")
  }
}
