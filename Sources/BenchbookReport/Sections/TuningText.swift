import BenchbookEvaluation
import BenchbookModels
import BenchbookSpec

/// The phrases the headline and the tuning section share, so a configuration or a run of folds reads the same
/// everywhere: only the searched settings, folds counted from 1.
enum TuningText {
  /// The searched settings' names, in name order: a dictionary keeps no spec order, and a fixed one keeps
  /// reports byte-identical between runs.
  static func searchedKeys(_ tuning: TuningRecord) -> [String] { tuning.space.keys.sorted() }

  /// "n_neighbors=15, weights=distance": the searched settings of `params`, without the fixed ones every
  /// configuration shares.
  static func settings(_ params: [String: ParameterValue]?, of tuning: TuningRecord) -> String {
    guard let params else { return "–" }
    let keys = searchedKeys(tuning).filter { params[$0] != nil }
    return keys.isEmpty ? "–" : keys.map { "\($0)=\(params[$0]!)" }.joined(separator: ", ")
  }

  /// "C in {0.01, 0.1, 1}, max_depth in {2, none}".
  static func space(_ tuning: TuningRecord) -> String {
    searchedKeys(tuning).map { key in
      "\(key) in {" + tuning.space[key]!.map(\.description).joined(separator: ", ") + "}"
    }.joined(separator: ", ")
  }

  /// "5-fold stratified k-fold": how each outer training set was split to choose.
  static func inner(_ inner: InnerRecord) -> String {
    ResamplingRegistry.innerMethods.first { $0.id == inner.method }?.describeInner(folds: inner.folds)
      ?? "\(inner.folds)-fold \(inner.method)"
  }

  /// "folds 1–4, 6 and 8–10" from zero-based fold numbers: consecutive folds collapse into a range.
  static func folds(_ indices: [Int]) -> String {
    var runs: [(Int, Int)] = []
    for index in indices.sorted() {
      if let last = runs.last, last.1 + 1 == index {
        runs[runs.count - 1].1 = index
      } else {
        runs.append((index, index))
      }
    }
    let names = runs.map { $0.0 == $0.1 ? "\($0.0 + 1)" : "\($0.0 + 1)–\($0.1 + 1)" }
    let plural = indices.count > 1
    return (plural ? "folds " : "fold ") + names.joined(separator: ", ")
  }

  /// "folds 1–4, 6–10: n_neighbors=15; fold 5: n_neighbors=5": the outer folds grouped by what they chose,
  /// in the order each choice first appears. `none` names the folds where nothing could be chosen.
  static func choices(_ choices: [ChoiceRecord], of tuning: TuningRecord, none: String) -> String {
    var order: [Int?] = []
    var folds: [Int?: [Int]] = [:]
    for choice in choices {
      if folds[choice.configuration] == nil { order.append(choice.configuration) }
      folds[choice.configuration, default: []].append(choice.fold)
    }
    return order.map { configuration in
      let what =
        configuration.map {
          tuning.configurations.indices.contains($0)
            ? settings(tuning.configurations[$0].params, of: tuning) : "configuration \($0 + 1)"
        } ?? none
      return "\(Self.folds(folds[configuration]!)): \(what)"
    }.joined(separator: "; ")
  }

  /// The lowest flat mean of the grid: picked and scored on the same folds, so optimistic.
  static func bestFlat(_ tuning: TuningRecord) -> (index: Int, mean: Double)? {
    tuning.configurations.enumerated().compactMap { index, configuration in
      configuration.flatLogLoss.mean.map { (index: index, mean: $0) }
    }.min { $0.mean < $1.mean }
  }
}
