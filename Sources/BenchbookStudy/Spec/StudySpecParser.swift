import BenchbookData
import BenchbookSpec
import Foundation

/// Reads a study from YAML:
///
/// ```yaml
/// name: classic
/// description: Which of the five classifiers should be a default for small tabular problems?
/// experiments: [../iris.yaml, ../breast-cancer.yaml, classic/*.yaml]   # relative to this file; globs allowed
/// metric: log_loss     # the only one for now
/// rope: 0.01           # practical equivalence, in the metric's units
/// alpha: 0.05
/// models: [LR, KNN]    # optional: compare only these labels
/// ```
///
/// Every experiment spec is parsed here, so a study that cannot run fails before anything is run or written,
/// with an error naming the file (the study's or the experiment's), line and key.
public enum StudySpecParser {
  static let topLevelKeys = ["name", "description", "experiments", "metric", "rope", "alpha", "models"]
  static let maximumNameLength = 100

  public static func parse(file path: String) throws(SpecError) -> StudySpec {
    let bytes: [UInt8]
    do {
      bytes = try RegularFile.read(path, atMost: Limits.specBytes, what: "a study spec")
    } catch {
      throw SpecError(error.reason, at: SourceLocation(file: path))
    }
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw SpecError("not UTF-8 text", at: SourceLocation(file: path))
    }
    return try parse(yaml: text, path: path)
  }

  public static func parse(yaml text: String, path: String) throws(SpecError) -> StudySpec {
    let root = try StudyNode.root(text, path: path)
    let top = try root.fields(allowed: topLevelKeys)
    let name = try parseName(top["name"], root: root)
    let description = try top["description"].flatMap { $0.isNull ? nil : $0 }?.string()
    let metric = try parseMetric(top["metric"])
    let rope = try parseRope(top["rope"])
    let alpha = try parseAlpha(top["alpha"])
    guard let experimentsNode = top["experiments"], !experimentsNode.isNull else {
      throw root.error("the study needs 'experiments': the experiment specs it compares, one per dataset")
    }
    let entries = try expand(experimentsNode, studyPath: path)
    if entries.isEmpty {
      throw experimentsNode.error("lists no experiments; a study compares models across at least two datasets")
    }
    var experiments: [StudySpec.Experiment] = []
    var names: [String: String] = [:]
    for (entryPath, node) in entries {
      let spec = try SpecParser.parse(file: entryPath)
      if let other = names[spec.name] {
        throw node.error(
          "\(entryPath) names its experiment '\(spec.name)', as \(other) does; each experiment's report gets a "
            + "folder of its name, so names must differ")
      }
      names[spec.name] = entryPath
      experiments.append(StudySpec.Experiment(path: entryPath, spec: spec, location: node.location))
    }
    if experiments.count == 1 {
      throw experimentsNode.error(
        "lists one experiment (\(experiments[0].path)); a study needs at least two, since it compares models "
          + "across datasets (for one dataset, `benchbook run` compares them)")
    }
    let (models, filtered) = try parseModels(top["models"], experiments: experiments, entries: entries)
    return StudySpec(
      name: name, description: description, path: path, experiments: experiments, metric: metric, rope: rope,
      alpha: alpha, models: models, modelsFiltered: filtered)
  }

  private static func parseName(_ node: StudyNode?, root: StudyNode) throws(SpecError) -> String {
    guard let node, !node.isNull else { throw root.error("the study needs 'name': it names the report folder") }
    let name = try node.string()
    guard name.count <= maximumNameLength else {
      throw node.error("is \(name.count) characters long; keep a name to \(maximumNameLength) or fewer")
    }
    let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
    guard let first = name.first, first != ".", first != "-", name.allSatisfy({ allowed.contains($0) }) else {
      throw node.error("'\(name)' cannot name a report folder; use letters, digits, '.', '_' and '-'")
    }
    return name
  }

  private static func parseMetric(_ node: StudyNode?) throws(SpecError) -> StudySpec.Metric {
    guard let node, !node.isNull else { return .logLoss }
    let text = try node.string()
    guard let metric = StudySpec.Metric(rawValue: text) else {
      let known = StudySpec.Metric.allCases.map(\.rawValue)
      throw node.error(
        "'\(text)' is not a metric a study can compare; for now it compares \(known.joined(separator: ", ")) only")
    }
    return metric
  }

  private static func parseRope(_ node: StudyNode?) throws(SpecError) -> Double {
    guard let node, !node.isNull else { return StudySpec.defaultRope }
    let rope = try node.double()
    guard rope >= 0 else { throw node.error("must be at least 0, found \(rope)") }
    return rope
  }

  private static func parseAlpha(_ node: StudyNode?) throws(SpecError) -> Double {
    guard let node, !node.isNull else { return StudySpec.defaultAlpha }
    let alpha = try node.double()
    guard alpha > 0 && alpha < 1 else { throw node.error("must be between 0 and 1 (exclusive), found \(alpha)") }
    return alpha
  }

  /// The entries' paths, patterns expanded, each with the entry that named it.
  private static func expand(_ node: StudyNode, studyPath: String) throws(SpecError) -> [(String, StudyNode)] {
    var result: [(String, StudyNode)] = []
    var seen: [String: String] = [:]
    for item in try node.items() {
      let written = try item.string()
      let resolved = StudyPaths.resolve(written, relativeTo: studyPath)
      let paths: [String]
      if StudyPaths.isPattern(resolved) {
        paths = StudyPaths.expand(resolved)
        if paths.isEmpty { throw item.error("'\(written)' matches no file (looked for \(resolved))") }
      } else {
        guard FileManager.default.fileExists(atPath: resolved) else {
          throw item.error("no experiment spec at '\(written)' (looked for \(resolved))")
        }
        paths = [resolved]
      }
      for path in paths {
        if let earlier = seen[path] {
          throw item.error("\(path) is already in the study (from \(earlier)); each dataset counts once")
        }
        seen[path] = item.key
        result.append((path, item))
      }
    }
    return result
  }

  /// The labels compared: every experiment must list the same ones, or a `models:` filter picks labels every
  /// experiment has.
  private static func parseModels(
    _ node: StudyNode?, experiments: [StudySpec.Experiment], entries: [(String, StudyNode)]
  ) throws(SpecError) -> ([String], Bool) {
    let first = experiments[0]
    let firstLabels = first.spec.models.map(\.label)
    if let node, !node.isNull {
      var labels: [String] = []
      for item in try node.items() {
        let label = try item.string()
        if labels.contains(label) { throw item.error("'\(label)' is listed twice") }
        for experiment in experiments where !experiment.spec.models.contains(where: { $0.label == label }) {
          let known = experiment.spec.models.map(\.label).joined(separator: ", ")
          throw item.error("\(experiment.path) has no model labelled '\(label)' (its models: \(known))")
        }
        labels.append(label)
      }
      if labels.count < 2 { throw node.error("a study compares at least two models; this lists \(labels.count)") }
      return (labels, true)
    }
    for (index, experiment) in experiments.enumerated().dropFirst() {
      let labels = experiment.spec.models.map(\.label)
      let entry = entries[index].1
      if let missing = firstLabels.first(where: { !labels.contains($0) }) {
        throw entry.error(
          "\(experiment.path) has no model labelled '\(missing)', which \(first.path) lists; every experiment of a "
            + "study must list the same model labels (or pick the common ones with 'models:')")
      }
      if let extra = labels.first(where: { !firstLabels.contains($0) }) {
        throw entry.error(
          "\(experiment.path) lists the model '\(extra)', which \(first.path) does not; every experiment of a "
            + "study must list the same model labels (or pick the common ones with 'models:')")
      }
    }
    if firstLabels.count < 2 {
      throw SpecError(
        "a study compares at least two models; \(first.path) lists \(firstLabels.count)", at: first.location)
    }
    return (firstLabels, false)
  }
}
