import BenchbookData
import BenchbookExport
import BenchbookModels
import Foundation

extension SpecParser {
  /// `LR`, `KNN: {k: 15, weights: distance, label: KNN-15}`, or with search spaces:
  /// `KNN: {k: [5, 15], weights: [uniform, distance]}`, `LR: {C: {log_range: [0.001, 1000], points: 7}}`.
  static func parseModel(_ item: SpecNode) throws(SpecError) -> ModelSpec {
    let nameNode: SpecNode
    var settingNodes: [(name: String, value: SpecNode)] = []
    if case .scalar = item.node {
      nameNode = item
    } else {
      let entries = try item.entries()
      guard entries.count == 1, let (_, value) = entries.first else {
        throw item.error("a model is a name, or one 'name: {settings}' pair; found \(entries.count) keys")
      }
      guard case .mapping(let mapping) = item.node, let keyNode = mapping.keys.first else {
        throw item.error("expected a model name")
      }
      nameNode = SpecNode(node: keyNode, key: item.key, file: item.file)
      if !value.isNull { settingNodes = try value.entries() }
    }
    let name = try nameNode.string()
    guard let kind = ModelRegistry.descriptor(named: name) else {
      let known = ModelRegistry.names
      throw nameNode.error(
        "unknown model '\(name)'\(Suggestion.phrase(for: name, among: known)) (known: \(known.joined(separator: ", ")))"
      )
    }
    var label = kind.defaultLabel
    var fixed: [String: String] = [:]
    var locations: [String: SpecNode] = [:]
    var searched: [SearchedSetting] = []
    for (key, value) in settingNodes {
      if key == "label" {
        label = try value.string()
        guard !label.isEmpty else { throw value.error("label must not be empty") }
        continue
      }
      locations[key] = value
      if case .scalar = value.node {
        fixed[key] = value.isNull ? "none" : try value.string()
      } else {
        searched.append(try parseSearchedSetting(key, value, kind: kind))
      }
    }

    /// Builds one configuration; an error points at `blame` when it is about `blamedKey`.
    func build(_ raw: [String: String], blamedKey: String? = nil, blame: SpecNode? = nil) throws(SpecError)
      -> any Classifier
    {
      var settings = SettingsReader(raw)
      do {
        return try kind.makeClassifier(settings: &settings)
      } catch {
        let at = (error.key == blamedKey ? blame : nil) ?? locations[error.key] ?? nameNode
        throw SpecError(error.message, at: at.location, key: at.key)
      }
    }

    guard !searched.isEmpty else {
      return ModelSpec(label: label, classifier: try build(fixed), location: nameNode.location)
    }
    // The grid's size is multiplied out, with overflow checks, before any configuration is built, so a grid of
    // 1e12 is refused at once rather than after its product fills memory.
    var gridSize = 1
    for setting in searched {
      let (product, overflow) = gridSize.multipliedReportingOverflow(by: setting.values.count)
      guard !overflow, product <= Limits.gridConfigurations else {
        let counts = searched.map { "\($0.values.count) \($0.key)" }.joined(separator: " × ")
        throw nameNode.error(
          "\(label)'s search grid (\(counts)) holds more than \(Limits.gridConfigurations) configurations, "
            + "the limit on grid size; search fewer values")
      }
      gridSize = product
    }
    // Every listed value is checked on its own first, so an error names the value's line.
    var dimensions: [SearchSpace.Dimension] = []
    for setting in searched {
      var values: [ParameterValue] = []
      for (text, node) in setting.values {
        var raw = fixed
        raw[setting.key] = text
        let classifier = try build(raw, blamedKey: setting.key, blame: node)
        let value = classifier.parameters[setting.descriptor.name] ?? .string(text)
        if values.contains(value) { throw node.error("\(setting.key) lists \(value) twice") }
        values.append(value)
      }
      dimensions.append(
        SearchSpace.Dimension(name: setting.descriptor.name, values: values, location: setting.node.location))
    }
    let order = searched.indices.sorted { searched[$0].descriptor.name < searched[$1].descriptor.name }
    let sortedSettings = order.map { searched[$0] }
    let sortedDimensions = order.map { dimensions[$0] }
    var configurations: [any Classifier] = []
    for combination in SearchSpace.gridIndices(sortedSettings.map(\.values.count)) {
      var raw = fixed
      for (setting, valueIndex) in zip(sortedSettings, combination) {
        raw[setting.key] = setting.values[valueIndex].text
      }
      configurations.append(try build(raw))
    }
    return ModelSpec(
      label: label, classifier: configurations[0], location: nameNode.location,
      search: SearchSpace(dimensions: sortedDimensions, configurations: configurations))
  }

  /// A setting given as a list or a range: the values to try, as spec text, with the node of each.
  struct SearchedSetting {
    var key: String
    var descriptor: SettingDescriptor
    var node: SpecNode
    var values: [(text: String, node: SpecNode)]
  }

  static func parseSearchedSetting(_ key: String, _ value: SpecNode, kind: ModelDescriptor) throws(SpecError)
    -> SearchedSetting
  {
    guard let descriptor = kind.setting(named: key) else {
      let known = kind.settingsSchema.flatMap(\.spellings)
      throw value.error(
        "unknown setting '\(key)'\(Suggestion.phrase(for: key, among: known)); known settings are \(known.joined(separator: ", "))"
      )
    }
    guard descriptor.searchable else {
      let searchable = kind.settingsSchema.filter(\.searchable).map(\.name)
      let advice =
        searchable.isEmpty
        ? "\(kind.displayName) has no setting to search" : "searchable: \(searchable.joined(separator: ", "))"
      throw value.error("'\(key)' cannot be searched; give one value (\(advice))")
    }
    var values: [(text: String, node: SpecNode)] = []
    switch value.node {
    case .sequence:
      for item in try value.items() {
        guard case .scalar = item.node else {
          throw item.error("a search list holds single values, found \(item.kindName)")
        }
        values.append((item.isNull ? "none" : try item.string(), item))
      }
      if values.isEmpty { throw value.error("list at least one value to search") }
    case .mapping:
      values = try rangeValues(value, descriptor: descriptor).map { ($0, value) }
    default:
      throw value.error("expected a value, a list of values, or a range, found \(value.kindName)")
    }
    return SearchedSetting(key: key, descriptor: descriptor, node: value, values: values)
  }

  /// `{log_range: [a, b], points: n}` (geometric, as numpy's `geomspace`) or
  /// `{range: [a, b], step: s}` (arithmetic, both ends included when reached).
  static func rangeValues(_ node: SpecNode, descriptor: SettingDescriptor) throws(SpecError) -> [String] {
    let fields = try node.fields(allowed: ["log_range", "points", "range", "step"])
    let whole: Bool
    switch descriptor.type {
    case .number, .wordOrNumber: whole = false
    case .wholeNumber, .optionalWholeNumber: whole = true
    case .flag, .word: throw node.error("'\(descriptor.name)' takes words, not numbers; list the values to search")
    }
    func ends(_ endsNode: SpecNode) throws(SpecError) -> (Double, Double) {
      let items = try endsNode.items()
      guard items.count == 2 else { throw endsNode.error("give two ends, [low, high]; found \(items.count) values") }
      let (low, high) = (try items[0].double(), try items[1].double())
      guard low <= high else { throw endsNode.error("the low end \(low) is above the high end \(high)") }
      guard !whole || max(abs(low), abs(high)) < 1e15 else {
        throw endsNode.error("'\(descriptor.name)' is a whole number; give ends below 1e15")
      }
      return (low, high)
    }
    func text(_ value: Double) -> String {
      whole ? String(Int(value.rounded())) : "\(value)"
    }
    var values: [String]
    if let logRange = fields.optional("log_range") {
      if let step = fields["step"] { throw step.error("'step' belongs to 'range'; a log_range takes 'points'") }
      if let range = fields["range"] { throw range.error("give either 'range' or 'log_range', not both") }
      let (low, high) = try ends(logRange)
      guard low > 0 else { throw logRange.error("a log_range needs ends above 0, found \(low)") }
      let pointsNode = try fields.required("points", in: node)
      let points = try pointsNode.int(atLeast: 1)
      guard points <= 1000 else { throw pointsNode.error("at most 1000 points, found \(points)") }
      // numpy's geomspace: 10^(evenly spaced exponents), both ends exact.
      let (first, last) = (log10(low), log10(high))
      let step = points > 1 ? (last - first) / Double(points - 1) : 0
      values = (0..<points).map { i in
        let value = i == 0 ? low : (i == points - 1 ? high : pow(10, Double(i) * step + first))
        return text(value)
      }
    } else if let range = fields.optional("range") {
      if let points = fields["points"] { throw points.error("'points' belongs to 'log_range'; a range takes 'step'") }
      let (low, high) = try ends(range)
      let stepNode = try fields.required("step", in: node)
      let step = try stepNode.double()
      guard step > 0 else { throw stepNode.error("step must be above 0, found \(step)") }
      if whole && (low != low.rounded() || high != high.rounded() || step != step.rounded()) {
        throw range.error("'\(descriptor.name)' is a whole number; give whole ends and step")
      }
      let steps = ((high - low) / step * (1 + 1e-12)).rounded(.down)
      guard steps < 1000 else { throw stepNode.error("this range holds more than 1000 values; at most 1000") }
      let count = Int(steps) + 1
      // The last point is the high end when it is within rounding of it (0.1 + 2 × 0.1 is not 0.3).
      values = (0..<count).map { i in
        let value = low + Double(i) * step
        return text(abs(value - high) <= 1e-12 * max(abs(high), step) ? high : value)
      }
    } else {
      throw node.error("a range is {log_range: [low, high], points: n} or {range: [low, high], step: s}")
    }
    var seen = Set<String>()
    for value in values where !seen.insert(value).inserted {
      throw node.error(
        whole
          ? "the range gives \(value) twice once rounded to a whole number; use fewer points"
          : "the range gives \(value) twice; widen it or use fewer points")
    }
    return values
  }

  /// `tune: {inner: {method, folds}, metric: log_loss}`.
  static func parseTune(_ node: SpecNode?, outer: any ResamplingMethod, hasTime: Bool) throws(SpecError) -> TuneSpec {
    // Time-ordered outer folds get time-ordered inner folds: tuning must not see the future either.
    var spec = TuneSpec(inner: ResamplingRegistry.defaultInner(forOuter: outer))
    guard let node else { return spec }
    spec.innerFoldsLocation = node.location
    let fields = try node.fields(allowed: ["inner", "metric"])
    if let inner = fields.optional("inner") {
      spec.innerFoldsLocation = inner.location
      let innerFields = try inner.fields(allowed: ["method", "folds"])
      if let method = innerFields.optional("method") {
        let text = try method.string()
        let known = ResamplingRegistry.innerMethods
        guard let parsed = known.first(where: { $0.id == text.lowercased().replacingOccurrences(of: "_", with: "-") })
        else {
          let names = known.map { $0.id }
          throw method.error(
            "unknown inner method '\(text)'\(Suggestion.phrase(for: text, among: names)) (one of \(names.joined(separator: ", ")))"
          )
        }
        if parsed.ordersByTime && !hasTime {
          throw method.error("\(parsed.id) inner folds order rows by time; declare the time column with 'time:'")
        }
        if parsed.usesGroups && outer.groups == nil {
          throw method.error(
            "\(parsed.id) inner folds split by the groups of `resampling.groups`, which the outer resampling "
              + "does not name; use a group method there")
        }
        if parsed.ordersByTime && outer.groups != nil {
          throw method.error(
            "\(parsed.id) inner folds cannot keep the groups of `resampling.groups` apart; use group-kfold or "
              + "stratified-group-kfold inside group folds")
        }
        if type(of: outer).ordersByTime && !parsed.ordersByTime {
          throw method.error(
            "the outer folds are \(type(of: outer).id), so the inner folds must be too: tuning must not train on the future"
          )
        }
        spec.inner = parsed
      }
      if let folds = innerFields.optional("folds") {
        spec.innerFolds = try folds.int(atLeast: 2)
        spec.innerFoldsLocation = folds.location
      }
    }
    if let metric = fields.optional("metric") {
      let text = try metric.string()
      guard text == "log_loss" else { throw metric.error("the only tuning metric is log_loss, not '\(text)'") }
    }
    return spec
  }

  /// `budget: {model_size_bytes: 100000, latency_us_p99: 50, format: tflite}`; the format must be measured.
  static func parseBudget(_ node: SpecNode?, measured: [String]) throws(SpecError) -> BudgetSpec? {
    guard let node else { return nil }
    let fields = try node.fields(allowed: ["model_size_bytes", "latency_us_p99", "format"])
    var budget = BudgetSpec()
    if let format = fields.optional("format") {
      let id = try format.string()
      guard ExportFormats.named(id) != nil else {
        throw format.error(
          "unknown format '\(id)'\(Suggestion.phrase(for: id, among: ExportFormats.ids)) "
            + "(formats: \(ExportFormats.ids.joined(separator: ", ")))")
      }
      guard measured.contains(id) else {
        throw format.error("the budget limits \(id) files, which the spec does not measure; list it in export.formats")
      }
      budget.format = id
    }
    if let size = fields.optional("model_size_bytes") { budget.modelSizeBytes = try size.int(atLeast: 1) }
    if let latency = fields.optional("latency_us_p99") {
      let value = try latency.double()
      guard value > 0 else { throw latency.error("must be above 0, found \(value)") }
      budget.latencyMicrosecondsP99 = value
    }
    guard budget.modelSizeBytes != nil || budget.latencyMicrosecondsP99 != nil else {
      throw node.error("a budget needs model_size_bytes or latency_us_p99")
    }
    return budget
  }

  /// `export: {formats: [coreml, tflite, onnx]}`: the formats `run` measures (Core ML is always measured).
  static func parseExport(_ node: SpecNode?) throws(SpecError) -> [String]? {
    guard let node else { return nil }
    let fields = try node.fields(allowed: ["formats"])
    let list = try fields.required("formats", in: node)
    var formats: [String] = []
    for item in try list.items() {
      let id = try item.string()
      guard ExportFormats.named(id) != nil else {
        throw item.error(
          "unknown format '\(id)'\(Suggestion.phrase(for: id, among: ExportFormats.ids)) "
            + "(formats: \(ExportFormats.ids.joined(separator: ", ")))")
      }
      guard !formats.contains(id) else { throw item.error("format '\(id)' is listed twice") }
      formats.append(id)
    }
    guard !formats.isEmpty else { throw list.error("list at least one format") }
    return formats
  }
}
