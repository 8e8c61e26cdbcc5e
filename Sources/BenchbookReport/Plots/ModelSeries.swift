import BenchbookEvaluation
import BenchbookModels

/// Which series style (colour, mark, dash) each model's series gets: the same for a model in every report, so LR is
/// the same blue circle whether it wins one report or comes last in the next.
enum ModelSeries {
  /// A style index per model label, whatever the plot's order or selection. Models are taken in the spec's order:
  /// the first of each built-in algorithm takes its algorithm's place in the registry; a second model of an
  /// algorithm (a seeded tree beside the default one), or one the registry does not know, the first free index
  /// past the registry's.
  static func styleIndices(_ results: ExperimentResults) -> [String: Int] {
    var taken = Set<Int>()
    var next = ModelRegistry.builtIn.count
    let indices = results.models.map { model in
      if let place = ModelRegistry.builtIn.firstIndex(where: { $0.id == model.algorithm }), !taken.contains(place) {
        taken.insert(place)
        return place
      }
      while taken.contains(next) { next += 1 }
      taken.insert(next)
      return next
    }
    return Dictionary(zip(results.models.map(\.label), indices), uniquingKeysWith: { first, _ in first })
  }
}
