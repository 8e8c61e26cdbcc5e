import Foundation

/// The job file `sklearn_suite.py` reads: what Benchbook's results.json says it did (the CSV, the
/// target and its test, the features and their types, the missing-value policy, standardisation, the
/// resampling, each fold's test class counts, the models by label and algorithm id), so that scikit-learn does the
/// same work.
enum SklearnJob {
  static func write(_ entry: SuiteList.Entry, results: [String: Any], to path: URL) throws {
    guard let data = results["data"] as? [String: Any], let dataPath = data["path"] as? String,
      let resampling = results["resampling"] as? [String: Any]
    else { throw BenchFailure("\(entry.spec): results.json lacks data or resampling") }
    let csv =
      dataPath.hasPrefix("/")
      ? dataPath
      : URL(fileURLWithPath: entry.spec).deletingLastPathComponent().appendingPathComponent(dataPath)
        .standardizedFileURL.path
    let summaries = data["feature_summaries"] as? [[String: Any]] ?? []
    let features: [[String: Any]] = (data["features"] as? [String] ?? []).map { name in
      let type = summaries.first { $0["name"] as? String == name }?["type"] as? String ?? "numeric"
      return ["name": name, "type": type]
    }
    let splits = (resampling["splits"] as? [[String: Any]] ?? []).sorted {
      ($0["repeat"] as? Int ?? 0, $0["fold"] as? Int ?? 0) < ($1["repeat"] as? Int ?? 0, $1["fold"] as? Int ?? 0)
    }
    let job: [String: Any] = [
      "name": entry.name,
      "csv": csv,
      "target": data["target"] as? String ?? "",
      "target_when": data["target_when"] as? String ?? NSNull(),
      "time": data["time"] as? String ?? NSNull(),
      "features": features,
      "missing": data["missing_policy"] as? String ?? "error",
      "standardize": (results["preprocess"] as? [String] ?? []).contains("standardize"),
      "resampling": [
        "method": resampling["method"] as? String ?? "",
        "folds": resampling["folds"] as? Int ?? 0,
        "shuffle": resampling["shuffle"] as? Bool ?? false,
      ],
      "classes": data["classes"] as? [String] ?? [],
      "columns": (data["columns"] as? [Any])?.count ?? 0,
      "test_class_counts": splits.map { $0["test_class_counts"] as? [Int] ?? [] },
      "models": (results["models"] as? [[String: Any]] ?? []).map { model in
        ["label": model["label"] as? String ?? "", "algorithm": model["algorithm"] as? String ?? ""]
      },
    ]
    try JSONSerialization.data(withJSONObject: job, options: [.prettyPrinted, .sortedKeys]).write(to: path)
  }
}
