import BenchbookData
import BenchbookExport
import BenchbookModels
import Foundation
import Yams

/// Reads an experiment spec from YAML, checking every key and value and
/// pointing each error at its file, line and key.
public enum SpecParser {
  static let topLevelKeys = [
    "name", "description", "data", "target", "time", "predict_at", "features", "preprocess", "resampling", "models",
    "regression", "audit", "tune", "budget", "export",
  ]

  /// `resampling:` takes `method`, `seed`, `max_fits` and every key some method reads.
  static var resamplingKeys: [String] { ["method"] + ResamplingRegistry.keys + ["seed", "max_fits"] }

  /// Reads and parses the spec file at `path` (relative to the working directory, or absolute).
  public static func parse(file path: String) throws(SpecError) -> ExperimentSpec {
    let bytes: [UInt8]
    do {
      bytes = try RegularFile.read(path, atMost: Limits.specBytes, what: "a spec")
    } catch {
      throw SpecError(error.reason, at: SourceLocation(file: path))
    }
    return try parse(yaml: try text(bytes, path: path), path: path)
  }

  /// The spec's text; bytes that are not UTF-8 are an error at their line and column.
  static func text(_ bytes: [UInt8], path: String) throws(SpecError) -> String {
    if let text = String(validating: bytes, as: UTF8.self) { return text }
    var parser = Unicode.UTF8.ForwardParser()
    var iterator = bytes.makeIterator()
    var offset = 0
    var line = 1
    var column = 1
    while true {
      switch parser.parseScalar(from: &iterator) {
      case .valid(let encoded):
        offset += encoded.count
        if encoded.count == 1 && encoded.first == UInt8(ascii: "\n") {
          line += 1
          column = 1
        } else {
          column += 1
        }
      case .error:
        throw SpecError(
          "not UTF-8 text: invalid byte 0x\(String(bytes[offset], radix: 16, uppercase: true)) "
            + "at byte offset \(offset)",
          at: SourceLocation(file: path, line: line, column: column))
      case .emptyInput:
        throw SpecError("not UTF-8 text", at: SourceLocation(file: path))
      }
    }
  }

  /// Parses spec text; `path` locates errors and anchors relative data paths.
  public static func parse(yaml text: String, path: String) throws(SpecError) -> ExperimentSpec {
    let root = try compose(text, path: path)
    let top = try root.fields(allowed: topLevelKeys)
    let directory = URL(fileURLWithPath: path).deletingLastPathComponent()

    let name = try parseName(top["name"], path: path)
    let description = try top.optional("description")?.string()
    let data = try top.required("data", in: root).fields(allowed: dataKeys)
    let dataPathNode = try data.required("path", in: root.child("data", top))
    let dataPath = try dataPathNode.string()
    let missing = try parseMissing(data.optional("missing"))
    let dialect = try parseDialect(data, path: dataPath)
    var timeFormats = try parseFormats(data.optional("formats"))
    let target = try parseTarget(top.required("target", in: root))
    let time = try parseTime(top.optional("time"), formats: &timeFormats)
    let predictAt = try top.optional("predict_at").map { node throws(SpecError) in
      AvailabilityTime(source: try checkedSource(node), location: node.location)
    }
    let (features, allExcept) = try parseFeatureSelection(top.required("features", in: root))
    try checkTargetIsNoFeature(target, features: features)
    if predictAt == nil, let timed = features.first(where: { $0.availableAt != nil }), let at = timed.availableAt {
      throw SpecError(
        "'available_at' is compared with the moment of prediction; declare it with a top-level 'predict_at:'",
        at: at.location, key: "features.\(timed.name).available_at")
    }
    var preprocessing = try parsePreprocessing(top.optional("preprocess"))
    // A feature's own imputation implies the step, first, when the spec lists none.
    if features.contains(where: { $0.impute != nil }), !preprocessing.contains(where: { $0.kind == .impute }) {
      preprocessing.insert(PreprocessingStep(.impute), at: 0)
    }
    let resampling = try parseResampling(top.optional("resampling"), hasTime: time != nil)
    let groups = resampling.groups
    let models = try parseModels(top.optional("models"))
    try checkWork(resampling, models: models, node: top.optional("resampling"), modelsNode: top.optional("models"))
    let regression = try parseRegression(top.optional("regression"), labels: models.map(\.label))
    let audit = try parseAudit(top.optional("audit"))
    let tune = try parseTune(top.optional("tune"), outer: resampling, hasTime: time != nil)
    let exportFormats = try parseExport(top.optional("export"))
    let measured = ExperimentSpec.measured(exportFormats)
    let budget = try parseBudget(top.optional("budget"), measured: measured)

    let resolved = URL(fileURLWithPath: dataPath, relativeTo: directory).standardizedFileURL.path
    let dataset = DatasetDefinition(
      path: resolved, pathLocation: dataPathNode.location, missing: missing, target: target,
      features: features, time: time, predictAt: predictAt, dialect: dialect, allExcept: allExcept,
      timeFormats: timeFormats, imputation: preprocessing.first { $0.kind == .impute }?.imputation, groups: groups)
    return ExperimentSpec(
      name: name, description: description, path: path, dataPath: dataPath, dataset: dataset,
      preprocessing: preprocessing, resampling: resampling, models: models, regression: regression, audit: audit,
      tune: tune, budget: budget, exportFormats: exportFormats)
  }

  // MARK: - Document

  private static func compose(_ text: String, path: String) throws(SpecError) -> SpecNode {
    let node: Node?
    do {
      node = try Yams.compose(yaml: text)
    } catch let error as YamlError {
      throw yamlError(error, path: path)
    } catch {
      throw SpecError("not valid YAML: \(error)", at: SourceLocation(file: path))
    }
    guard let node else { throw SpecError("the spec is empty", at: SourceLocation(file: path, line: 1)) }
    return SpecNode(node: node, key: "", file: path)
  }

  private static func yamlError(_ error: YamlError, path: String) -> SpecError {
    switch error {
    case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _),
      .composer(_, let problem, let mark, _):
      return SpecError(
        "not valid YAML: \(problem)", at: SourceLocation(file: path, line: mark.line, column: mark.column))
    case .reader(let problem, let offset, let value, let yaml):
      // The reader reports a byte offset; turn it into the line and column every other error gives.
      var line = 1
      var column = 1
      for byte in yaml.utf8.prefix(offset ?? 0) where byte & 0xC0 != 0x80 {
        if byte == UInt8(ascii: "\n") {
          line += 1
          column = 1
        } else {
          column += 1
        }
      }
      let shown = value >= 0 ? " (character 0x\(String(value, radix: 16, uppercase: true)))" : ""
      return SpecError(
        "not valid YAML: \(problem)\(shown)",
        at: SourceLocation(file: path, line: offset == nil ? nil : line, column: offset == nil ? nil : column))
    case .duplicatedKeysInMapping(let duplicates, let context):
      return SpecError(
        "key '\(duplicates.joined(separator: "', '"))' appears twice",
        at: SourceLocation(file: path, line: context.mark.line, column: context.mark.column))
    default:
      return SpecError("not valid YAML: \(error)", at: SourceLocation(file: path))
    }
  }

  // MARK: - Sections

  private static func parseName(_ node: SpecNode?, path: String) throws(SpecError) -> String {
    guard let node, !node.isNull else {
      let fromFile = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
      guard fromFile.count <= maximumNameLength else {
        throw SpecError(
          "the file name is \(fromFile.count) characters long; give the experiment a 'name:' of at most "
            + "\(maximumNameLength)", at: SourceLocation(file: path, line: 1))
      }
      return fromFile
    }
    let name = try node.string()
    guard name.count <= maximumNameLength else {
      throw node.error(
        "is \(name.count) characters long; a name becomes a folder and file names, so keep it to "
          + "\(maximumNameLength) or fewer")
    }
    let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
    guard let first = name.first, first != ".", first != "-", name.allSatisfy({ allowed.contains($0) }) else {
      throw node.error("'\(name)' cannot name a report folder; use letters, digits, '.', '_' and '-'")
    }
    return name
  }

  private static func parseMissing(_ node: SpecNode?) throws(SpecError) -> MissingPolicy {
    guard let node else { return .error }
    let text = try node.string()
    guard let policy = MissingPolicy(rawValue: text) else {
      throw node.error(
        "must be one of \(MissingPolicy.allCases.map(\.rawValue).joined(separator: ", ")), not '\(text)'")
    }
    return policy
  }

  private static func parseTarget(_ node: SpecNode) throws(SpecError) -> TargetDefinition {
    if case .scalar = node.node {
      return TargetDefinition(column: ColumnReference(column: try node.string(), location: node.location))
    }
    let fields = try node.fields(allowed: ["column", "when"])
    let column = try fields.required("column", in: node)
    let threshold = try fields.optional("when").map { node throws(SpecError) in try parseThreshold(node) }
    return TargetDefinition(
      column: ColumnReference(column: try column.string(), location: column.location), when: threshold)
  }

  /// `"> 15"`, `">= 0.5"`, `"== 1"`.
  static func parseThreshold(_ node: SpecNode) throws(SpecError) -> Threshold {
    let text = try node.string().trimmingCharacters(in: .whitespaces)
    let comparisons = Threshold.Comparison.allCases.sorted { $0.rawValue.count > $1.rawValue.count }
    guard let comparison = comparisons.first(where: { text.hasPrefix($0.rawValue) }) else {
      throw node.error("expected a comparison such as \"> 15\" (one of >, >=, <, <=, ==), found '\(text)'")
    }
    let number = text.dropFirst(comparison.rawValue.count).trimmingCharacters(in: .whitespaces)
    guard let value = Double(number), value.isFinite else {
      throw node.error("expected a number after '\(comparison.rawValue)', found '\(number)'")
    }
    return Threshold(comparison, value)
  }

  static func parseFeatureList(_ node: SpecNode) throws(SpecError) -> [FeatureDefinition] {
    var features: [FeatureDefinition] = []
    for item in try node.items() {
      let feature = try parseFeature(item)
      if features.contains(where: { $0.name == feature.name }) {
        throw item.error("feature '\(feature.name)' is listed twice")
      }
      features.append(feature)
    }
    if features.isEmpty { throw node.error("list at least one feature") }
    return features
  }

  /// `month`, `duration: deadline - launched_at`, `origin: {type: categorical}`, or
  /// `dep_delay: {known: after-prediction}`.
  private static func parseFeature(_ item: SpecNode) throws(SpecError) -> FeatureDefinition {
    if case .scalar = item.node {
      let name = try item.string()
      return FeatureDefinition(name: name, source: .column(name), location: item.location)
    }
    let entries = try item.entries()
    guard entries.count == 1, let (name, value) = entries.first else {
      throw item.error("a feature is a column name or one 'name: expression' pair, found \(entries.count) keys")
    }
    if value.isNull {
      return FeatureDefinition(name: name, source: .column(name), location: value.location)
    }
    if case .scalar = value.node {
      return FeatureDefinition(name: name, source: try checkedSource(value), location: value.location)
    }
    let fields = try value.fields(allowed: ["column", "expr", "type", "known", "available_at", "impute"])
    if fields["column"] != nil && fields["expr"] != nil {
      throw value.error("give either 'column' or 'expr', not both")
    }
    var featureSource = FeatureDefinition.Source.column(name)
    if let column = fields.optional("column") { featureSource = .column(try column.string()) }
    if let expression = fields.optional("expr") { featureSource = try checkedSource(expression) }
    let type = try fields.optional("type").map { node throws(SpecError) in try parseFeatureType(node) }
    var known: FeatureAvailability?
    if let knownNode = fields.optional("known") {
      let text = try knownNode.string()
      let normalized = text.lowercased().replacingOccurrences(of: "_", with: "-")
      guard let parsed = FeatureAvailability(rawValue: normalized) else {
        let options = FeatureAvailability.allCases.map(\.rawValue)
        throw knownNode.error(
          "'\(text)' is not a time a feature becomes known\(Suggestion.phrase(for: text, among: options)) (one of \(options.joined(separator: ", ")))"
        )
      }
      known = parsed
    }
    let availableAt = try fields.optional("available_at").map { node throws(SpecError) in
      AvailabilityTime(source: try checkedSource(node), location: node.location)
    }
    var impute: Imputation?
    if let imputeNode = fields.optional("impute") {
      guard case .column = featureSource else {
        throw imputeNode.error(
          "an expression is not imputed (a missing input follows `missing:`); impute the columns it reads instead")
      }
      impute = try parseImputation(imputeNode, at: imputeNode)
    }
    return FeatureDefinition(
      name: name, source: featureSource, type: type, location: value.location, known: known, availableAt: availableAt,
      impute: impute)
  }

  /// The node's column or expression; an expression is parsed now, so a bad one is an error at its key
  /// before any data is read.
  private static func checkedSource(_ node: SpecNode) throws(SpecError) -> FeatureDefinition.Source {
    let source = source(for: try node.string())
    if case .expression(let text) = source {
      do {
        _ = try FeatureExpression(parsing: text, location: node.location)
      } catch {
        throw node.error(error.message)
      }
    }
    return source
  }

  /// A bare column name renames that column; anything else is an expression.
  private static func source(for text: String) -> FeatureDefinition.Source {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    let isIdentifier =
      trimmed.first.map { $0.isLetter || $0 == "_" } == true
      && trimmed.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
    return isIdentifier ? .column(trimmed) : .expression(trimmed)
  }

  private static func parsePreprocessing(_ node: SpecNode?) throws(SpecError) -> [PreprocessingStep] {
    guard let node else { return [] }
    var steps: [PreprocessingStep] = []
    for item in try node.items() {
      let step = try parsePreprocessingStep(item)
      if step.kind == .impute, steps.contains(where: { $0.kind == .impute }) {
        throw item.error("impute is listed twice; one step imputes every feature (a feature may set its own `impute:`)")
      }
      steps.append(step)
    }
    return steps
  }

  /// `resampling: {method, seed, max_fits, ...}`: the method by name, then its own keys, read by the method
  /// (`ResamplingMethod`); a key no method reads is unknown, one another method reads does not apply.
  private static func parseResampling(_ node: SpecNode?, hasTime: Bool) throws(SpecError) -> any ResamplingMethod {
    guard let node else { return try ResamplingRegistry.defaultMethod.init(settings: .none) }
    let fields = try node.fields(allowed: resamplingKeys)
    var method = ResamplingRegistry.defaultMethod
    let methodNode = fields.optional("method")
    if let methodNode {
      let text = try methodNode.string()
      guard let named = ResamplingRegistry.method(named: text) else {
        let known = ResamplingRegistry.methods.map { $0.id }
        throw methodNode.error(
          "unknown method '\(text)'\(Suggestion.phrase(for: text, among: known)) (one of \(known.joined(separator: ", ")))"
        )
      }
      method = named
      if method.ordersByTime && !hasTime {
        throw methodNode.error(
          "\(method.id) resampling orders rows by time; declare the time column with 'time:'")
      }
    }
    if method.ordersByTime, let groups = fields.optional("groups") {
      throw groups.error(
        "\(method.id) resampling cannot also keep groups apart: scikit-learn's TimeSeriesSplit ignores groups and "
          + "Benchbook matches no other published definition; use group-kfold, stratified-group-kfold, "
          + "leave-one-group-out or group-holdout for grouped rows, or drop 'groups' to split by time")
    }
    // Rejects a setting that means nothing for the chosen method, rather than ignoring it.
    for key in ResamplingRegistry.keys where !method.keys.contains(key) {
      if let value = fields.optional(key) { throw value.error("'\(key)' does not apply to \(method.id) resampling") }
    }
    return try method.init(settings: ResamplingSettings(fields: fields, methodLocation: methodNode?.location))
  }

  private static func parseModels(_ node: SpecNode?) throws(SpecError) -> [ModelSpec] {
    guard let node else {
      return ModelRegistry.defaultSet.map { model in
        ModelSpec(
          label: model.defaultLabel, classifier: model.defaultClassifier(), location: SourceLocation(file: "defaults"))
      }
    }
    var models: [ModelSpec] = []
    for item in try node.items() {
      let model = try parseModel(item)
      if let twin = models.first(where: { $0.label == model.label }) {
        let advice =
          twin.descriptor == model.descriptor ? "; give each a distinct 'label'" : ""
        throw item.error("model label '\(model.label)' is used twice\(advice)")
      }
      models.append(model)
    }
    if models.isEmpty { throw node.error("list at least one model") }
    return models
  }

  /// `regression: {rounds, log_loss: {…}, time_ratio: {…}, model_size: {…}, models: {LABEL: {…}}}`.
  private static func parseRegression(_ node: SpecNode?, labels: [String]) throws(SpecError) -> RegressionSpec {
    var spec = RegressionSpec()
    guard let node else { return spec }
    let fields = try node.fields(
      allowed: ["rounds", "log_loss", "time_ratio", "model_size", "instruction_count", "instructions", "models"])
    if let rounds = fields.optional("rounds") {
      spec.rounds = try rounds.int(atLeast: 3, atMost: Limits.timingRounds, limit: "the limit on timing rounds")
    }
    if let instructions = fields.optional("instructions") { spec.instructions = try instructions.bool() }
    spec.defaults = try parseThresholds(fields, over: spec.defaults)
    if let models = fields.optional("models") {
      for (label, value) in try models.entries() {
        guard labels.contains(label) else {
          throw value.error("no model is labelled '\(label)'\(Suggestion.phrase(for: label, among: labels))")
        }
        let overrides = try value.fields(allowed: ["log_loss", "time_ratio", "model_size", "instruction_count"])
        spec.perModel[label] = try parseThresholds(overrides, over: spec.defaults)
      }
    }
    return spec
  }

  private static func parseThresholds(
    _ fields: [String: SpecNode], over base: RegressionThresholds
  ) throws(SpecError) -> RegressionThresholds {
    var limits = base
    func positive(_ node: SpecNode) throws(SpecError) -> Double {
      let value = try node.double()
      guard value >= 0 else { throw node.error("must not be negative") }
      return value
    }
    if let logLoss = fields.optional("log_loss") {
      let f = try logLoss.fields(allowed: ["warn", "warn_relative", "fail", "fail_relative"])
      if let v = f.optional("warn") { limits.logLossWarn = try positive(v) }
      if let v = f.optional("warn_relative") { limits.logLossWarnRelative = try positive(v) }
      if let v = f.optional("fail") { limits.logLossFail = try positive(v) }
      if let v = f.optional("fail_relative") { limits.logLossFailRelative = try positive(v) }
    }
    if let time = fields.optional("time_ratio") {
      let f = try time.fields(allowed: ["warn", "fail", "fail_regardless", "p"])
      if let v = f.optional("warn") { limits.timeWarn = try positive(v) }
      if let v = f.optional("fail") { limits.timeFail = try positive(v) }
      if let v = f.optional("fail_regardless") { limits.timeFailRegardless = try positive(v) }
      if let v = f.optional("p") { limits.timeSignificance = try positive(v) }
    }
    if let size = fields.optional("model_size") {
      let f = try size.fields(allowed: ["warn_relative", "fail_relative"])
      if let v = f.optional("warn_relative") { limits.sizeWarnRelative = try positive(v) }
      if let v = f.optional("fail_relative") { limits.sizeFailRelative = try positive(v) }
    }
    if let count = fields.optional("instruction_count") {
      let f = try count.fields(allowed: ["warn_relative", "fail_relative"])
      if let v = f.optional("warn_relative") { limits.instructionsWarnRelative = try positive(v) }
      if let v = f.optional("fail_relative") { limits.instructionsFailRelative = try positive(v) }
    }
    return limits
  }
}

extension SpecNode {
  /// A pseudo-node for a section, used only to place "needs key" errors.
  fileprivate func child(_ name: String, _ fields: [String: SpecNode]) -> SpecNode {
    fields[name] ?? self
  }
}
