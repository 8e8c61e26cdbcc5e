import ArgumentParser
import BenchbookData
import BenchbookModels
import BenchbookSpec

struct ModelsCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "models",
    abstract: "List the models a spec may name, with their names and settings.",
    discussion: """
      Each model is listed under the label a spec gives it by default, with every name that selects it, the \
      scikit-learn class it reproduces, and its settings: their types, defaults and whether a search space may \
      vary them (marked *). A spec without `models:` compares the models marked as the default set.
      """
  )

  @Argument(help: "Show only this model (any of its names).")
  var name: String?

  @Flag(name: .long, help: "Print only the default labels, one a line (for scripts).")
  var labels = false

  @Flag(name: .long, help: "Only the models whose export can learn on device (`benchbook export --updatable`).")
  var updatable = false

  @Option(
    name: .customLong("in"),
    help: "With --labels: the labels this spec gives its models instead, in its order (`benchbook export --model`).")
  var spec: String?

  func run() throws {
    try CommandLineFailure.reporting {
      var models = ModelRegistry.all
      if let name {
        guard let model = ModelRegistry.descriptor(named: name) else {
          let known = ModelRegistry.names
          throw CommandError(
            "unknown model '\(name)'\(Suggestion.phrase(for: name, among: known)) (known: "
              + "\(known.joined(separator: ", ")))")
        }
        models = [model]
      }
      if updatable { models = models.filter(\.traits.updatable) }
      if let spec {
        guard labels, name == nil else { throw CommandError("--in lists a spec's labels; give it with --labels alone") }
        let experiment = try SpecParser.read(file: spec)
        for model in experiment.models where !updatable || model.descriptor.traits.updatable { print(model.label) }
        return
      }
      if labels {
        for model in models { print(model.defaultLabel) }
      } else {
        print(ModelCatalog.text(models), terminator: "")
      }
    }
  }
}
