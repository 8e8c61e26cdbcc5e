import BenchbookData

/// The spec's data side beyond the path: how the file is written (`data.delimiter`, `decimal`, `header`,
/// `columns`), declared timestamp formats (`data.formats`, `time: {format:}`), features as every column but
/// some (`features: {all_except:}`), and the columns a preprocessing step transforms.
extension SpecParser {
  static let dataKeys = ["path", "missing", "delimiter", "decimal", "header", "columns", "formats"]

  // MARK: - Dialect

  /// `delimiter`, `decimal`, `header` and `columns` under `data:`; what they leave unsaid follows the file's name.
  static func parseDialect(_ data: [String: SpecNode], path: String) throws(SpecError) -> CSVDialect {
    var dialect = CSVDialect(path: path)
    if let node = data.optional("delimiter") {
      dialect.delimiter = try parseDelimiter(node)
    }
    if let node = data.optional("decimal") {
      let text = try node.string()
      guard text == "." || text == "," else {
        throw node.error("the decimal separator is \".\" or \",\", not '\(text)'")
      }
      dialect.decimalSeparator = UInt8(ascii: text == "." ? "." : ",")
      if dialect.decimalSeparator == dialect.delimiter {
        throw node.error(
          "a decimal comma cannot be told from the delimiter of a comma-separated file; declare the file's "
            + "delimiter too, e.g. `delimiter: \";\"` as European spreadsheets write it")
      }
    }
    if let node = data.optional("header") { dialect.hasHeader = try node.bool() }
    if let node = data.optional("columns") {
      guard !dialect.hasHeader else {
        throw node.error(
          "'columns' names the columns of a file without a header row; declare `header: false`, or leave "
            + "'columns' out so the header names them")
      }
      var names: [String] = []
      for item in try node.items() {
        let name = try item.string()
        guard !name.isEmpty else { throw item.error("a column name cannot be empty") }
        guard !names.contains(name) else { throw item.error("column '\(name)' is named twice") }
        names.append(name)
      }
      dialect.columnNames = names
      dialect.columnNamesLocation = node.location
    }
    return dialect
  }

  /// One ASCII character that cannot be part of a number or a quoted field: `,` `;` `|` `:` a space, a tab
  /// (`"\t"` or `tab`).
  private static func parseDelimiter(_ node: SpecNode) throws(SpecError) -> UInt8 {
    let text = try node.string()
    if text.lowercased() == "tab" || text == "\\t" { return UInt8(ascii: "\t") }
    let scalars = Array(text.unicodeScalars)
    guard scalars.count == 1, let scalar = scalars.first, scalar.isASCII else {
      throw node.error(
        "a delimiter is one character, such as \",\", \";\", \"|\" or \"\\t\" (a tab), not '\(text)'")
    }
    let byte = UInt8(scalar.value)
    let character = Character(scalar)
    let refused = character.isLetter || character.isNumber || "\"'.+-\n\r".contains(character)
    guard !refused, CSVDialect.allowsDelimiter(byte) else {
      throw node.error(
        "'\(text)' cannot separate fields: it can be part of a value; use a character such as \",\", \";\", "
          + "\"|\" or \"\\t\"")
    }
    return byte
  }

  // MARK: - Timestamp formats

  /// `data.formats: {column: "%Y/%m/%d", …}`.
  static func parseFormats(_ node: SpecNode?) throws(SpecError) -> [String: DeclaredTimestampFormat] {
    guard let node else { return [:] }
    var formats: [String: DeclaredTimestampFormat] = [:]
    for (column, value) in try node.entries() {
      formats[column] = try parseFormat(value)
    }
    return formats
  }

  static func parseFormat(_ node: SpecNode) throws(SpecError) -> DeclaredTimestampFormat {
    let text = try node.string()
    do {
      return DeclaredTimestampFormat(format: try TimestampFormat(text), location: node.location)
    } catch {
      throw node.error(error.message)
    }
  }

  /// `time: column`, or `time: {column: date, format: "%Y/%m/%d"}`, whose format joins `formats`.
  static func parseTime(_ node: SpecNode?, formats: inout [String: DeclaredTimestampFormat]) throws(SpecError)
    -> ColumnReference?
  {
    guard let node else { return nil }
    if case .scalar = node.node { return ColumnReference(column: try node.string(), location: node.location) }
    let fields = try node.fields(allowed: ["column", "format"])
    let column = try fields.required("column", in: node)
    let reference = ColumnReference(column: try column.string(), location: column.location)
    if let formatNode = fields.optional("format") {
      let declared = try parseFormat(formatNode)
      if let earlier = formats[reference.column], earlier.format.text != declared.format.text {
        throw formatNode.error(
          "column '\(reference.column)' already has the format '\(earlier.format.text)' (\(earlier.location)); "
            + "a column has one format, declared once")
      }
      formats[reference.column] = declared
    }
    return reference
  }

  // MARK: - Features

  /// A list of features, or `{all_except: [...], types: {...}, also: [...]}`.
  static func parseFeatureSelection(_ node: SpecNode) throws(SpecError) -> (
    features: [FeatureDefinition], allExcept: AllColumnsExcept?
  ) {
    guard case .mapping = node.node else { return (try parseFeatureList(node), nil) }
    let fields = try node.fields(allowed: ["all_except", "types", "also"])
    guard let exceptNode = fields["all_except"] else {
      throw node.error(
        "features are a list, or `{all_except: [columns]}` for every column but those; 'all_except' is missing")
    }
    var excluded: [ColumnReference] = []
    if !exceptNode.isNull {
      for item in try exceptNode.items() {
        let name = try item.string()
        guard !excluded.contains(where: { $0.column == name }) else { throw item.error("'\(name)' is listed twice") }
        excluded.append(ColumnReference(column: name, location: item.location))
      }
    }
    var types: [AllColumnsExcept.TypedColumn] = []
    if let typesNode = fields.optional("types") {
      for (column, value) in try typesNode.entries() {
        types.append(
          AllColumnsExcept.TypedColumn(
            column: ColumnReference(column: column, location: value.location), type: try parseFeatureType(value)))
      }
    }
    let also = try fields.optional("also").map { node throws(SpecError) in try parseFeatureList(node) } ?? []
    return (also, AllColumnsExcept(excluded: excluded, types: types, location: exceptNode.location))
  }

  /// The target is never a feature. A feature that reads the target's column (as it is, renamed, or in an
  /// expression) hands every model the answer: it scores perfectly in cross-validation and predicts nothing in use,
  /// and the audit's screens see only a good feature. A `when:` target reads its column too, so the column it
  /// binarises is refused alike.
  static func checkTargetIsNoFeature(_ target: TargetDefinition, features: [FeatureDefinition]) throws(SpecError) {
    let column = target.column.column
    let role =
      target.when.map { "the column the target binarises (\(column) \($0))" } ?? "the target column '\(column)'"
    for feature in features {
      let reads: Bool
      let how: String
      switch feature.source {
      case .column(let name):
        reads = name == column
        how = feature.name == name ? "is" : "renames"
      case .expression(let text):
        // The expression parsed when its feature did; a failure here cannot happen, and reads nothing.
        reads = (try? FeatureExpression(parsing: text))?.columns.contains(column) ?? false
        how = "reads `\(text)`, which reads"
      }
      guard reads else { continue }
      throw SpecError(
        "feature '\(feature.name)' \(how) \(role): a model given the answer scores perfectly and predicts "
          + "nothing; remove it from the features (the target is never a feature)",
        at: feature.location, key: "features")
    }
  }

  static func parseFeatureType(_ node: SpecNode) throws(SpecError) -> FeatureType {
    let text = try node.string()
    guard let parsed = FeatureType(rawValue: text) else {
      throw node.error("must be numeric or categorical, not '\(text)'")
    }
    return parsed
  }

  // MARK: - Preprocessing

  /// `standardize`, `{standardize: {columns: numeric}}`, `impute` or `{impute: {strategy: median, …}}`.
  static func parsePreprocessingStep(_ item: SpecNode) throws(SpecError) -> PreprocessingStep {
    let known = PreprocessingStep.Kind.allCases.map(\.rawValue)
    func kind(_ text: String, at node: SpecNode) throws(SpecError) -> PreprocessingStep.Kind {
      switch text.lowercased() {
      case "standardize", "standardise", "standard_scaler", "standardscaler": return .standardize
      case "impute", "simple_imputer", "simpleimputer": return .impute
      default:
        throw node.error("unknown preprocessing step '\(text)'\(Suggestion.phrase(for: text, among: known))")
      }
    }
    if case .scalar = item.node {
      let step = PreprocessingStep(try kind(try item.string(), at: item))
      guard step.kind == .impute else { return step }
      return PreprocessingStep(.impute, imputation: Imputation(strategy: .mean, location: item.location))
    }
    let entries = try item.entries()
    guard entries.count == 1, let (name, settings) = entries.first else {
      throw item.error("a preprocessing step is a name or one 'name: {settings}' pair, found \(entries.count) keys")
    }
    var step = PreprocessingStep(try kind(name, at: settings))
    if step.kind == .impute {
      step.imputation = try parseImputation(settings, at: item)
      return step
    }
    guard !settings.isNull else { return step }
    let fields = try settings.fields(allowed: ["columns"])
    if let columns = fields.optional("columns") {
      let text = try columns.string()
      guard let parsed = PreprocessingStep.Columns(rawValue: text) else {
        let options = PreprocessingStep.Columns.allCases.map(\.rawValue)
        throw columns.error(
          "'\(text)' is not a set of columns\(Suggestion.phrase(for: text, among: options)) (one of "
            + "\(options.joined(separator: ", ")): all columns, or the numeric features only)")
      }
      step.columns = parsed
    }
    return step
  }

  /// `{strategy: mean | median | most_frequent | constant, fill_value: …, add_indicator: true}`; every key optional
  /// (scikit-learn's defaults: the mean, no indicator).
  static func parseImputation(_ settings: SpecNode, at item: SpecNode) throws(SpecError) -> Imputation {
    var imputation = Imputation(strategy: .mean, location: item.location)
    guard !settings.isNull else { return imputation }
    imputation.location = settings.location
    let fields = try settings.fields(allowed: ["strategy", "fill_value", "add_indicator"])
    if let strategy = fields.optional("strategy") {
      let text = try strategy.string()
      let normalized = text.lowercased().replacingOccurrences(of: "-", with: "_")
      guard let parsed = Imputation.Strategy(rawValue: normalized) else {
        let options = Imputation.Strategy.allCases.map(\.rawValue)
        throw strategy.error(
          "'\(text)' is not an imputation strategy\(Suggestion.phrase(for: text, among: options)) (one of "
            + "\(options.joined(separator: ", ")))")
      }
      imputation.strategy = parsed
    }
    if let fill = fields.optional("fill_value") {
      guard imputation.strategy == .constant else {
        throw fill.error(
          "fill_value is the constant of `strategy: constant`; strategy \(imputation.strategy.rawValue) computes its own"
        )
      }
      imputation.fillValue = try fill.string()
    }
    if let indicator = fields.optional("add_indicator") { imputation.addIndicator = try indicator.bool() }
    return imputation
  }
}
