/// Builds a `Dataset` from a `DatasetDefinition`, in this order:
///
/// 1. Open the file, gunzip as it streams, parse the header as the dialect says
///    (a row-name column skipped); take the columns `all_except` takes.
/// 2. Parse derived-feature expressions (errors point at the feature entry);
///    every column the spec names must exist (errors point at the spec entry,
///    with a suggestion).
/// 3. Stream the records, hashing the stored bytes, and keep of each used
///    column its numbers (text only for categories, times where read as
///    times); check each role's values over all rows read: target, features
///    (declared or inferred type), expression inputs, time column.
/// 4. Apply the missing policy to every used column, in spec order (target,
///    features, time).
/// 5. Encode the kept rows: classes, numeric columns, one-hot columns,
///    derived features, times, and the rows' groups (`resampling.groups`,
///    whose missing values are an error whatever the policy: a row without a
///    group cannot be kept to one side of a split).
struct DatasetLoader {
  let definition: DatasetDefinition

  /// A column named by the spec, and the entry that named it.
  struct Reference {
    var column: String
    var location: SourceLocation
    var expression: String?
    /// Whether the reference is a column feature whose missing cells are imputed, and so keep their rows.
    var imputed = false
  }

  /// A feature after its type is settled.
  private enum Plan {
    case numericColumn(slot: Int)
    case categoricalColumn(slot: Int)
    /// `inputs` maps each column the expression reads to its values over all rows.
    case expression(FeatureExpression, text: String, inputs: [String: [Double]], categorical: Bool)
  }

  /// A feature's kept-row values, ready for the matrix.
  private enum Encoded {
    /// `NaN` where an imputed feature's value is missing.
    case numeric([Double])
    /// Code `-1` where an imputed feature's value is missing.
    case categorical(CategoryCoding)

    var width: Int {
      switch self {
      case .numeric: 1
      case .categorical(let coding): coding.categories.count
      }
    }
  }

  /// Everything `Dataset` needs, per kept row, before the matrix is laid
  /// out; the extracted text is gone by then, which lowers peak memory.
  private struct Prepared {
    var classes: [String]
    var labels: [Int]
    var features: [(definition: FeatureDefinition, encoded: Encoded, missingCount: Int)]
    var time: [Double]?
    var groups: [Int]?
    var lineNumbers: LineNumbers
    var provenance: DataProvenance
    var predictAt: [Double]?
    var availableAt: [String: [Double]]
  }

  /// Opens the file, resolves the features against its header and loads it.
  static func load(_ definition: DatasetDefinition) throws(DataError) -> Dataset {
    let stream = try CSVStream(
      path: definition.path, reportingAt: definition.pathLocation, dialect: definition.dialect)
    let resolved = try definition.resolvingFeatures(header: stream.header)
    return try DatasetLoader(definition: resolved).load(stream)
  }

  /// Loads from `stream`, whose header is read; `definition` names its columns (no `allExcept` left).
  func load(_ stream: CSVStream) throws(DataError) -> Dataset {
    let prepared = try prepare(stream)
    MemoryTrace.mark("load: check and encode", rows: prepared.lineNumbers.count)
    // The extracted text and raw bytes are freed now, but glibc keeps freed
    // heap pages resident; hand them back before the matrix, the largest
    // allocation, so peak memory is the data's size and not twice it.
    HeapPolicy.releaseFreedMemory()
    let width = prepared.features.reduce(0) { $0 + $1.encoded.width }
    let rows = prepared.lineNumbers.count
    var values = [Double](repeating: 0, count: rows * width)
    var columnNames: [String] = []
    var summaries: [FeatureSummary] = []
    for (feature, encoding, missingCount) in prepared.features {
      let first = columnNames.count
      let imputation = definition.imputation(of: feature)
      switch encoding {
      case .numeric(let column):
        for (row, value) in column.enumerated() { values[row * width + first] = value }
        columnNames.append(feature.name)
        let present = imputation == nil ? column : column.filter { !$0.isNaN }
        summaries.append(
          FeatureSummary(
            name: feature.name, type: .numeric, columns: first..<(first + 1), minimum: present.min(),
            maximum: present.max(), missingCount: missingCount, imputation: imputation))
      case .categorical(let coding):
        let count = coding.categories.count
        for (row, code) in coding.codes.enumerated() {
          if code < 0 {
            for column in 0..<count { values[row * width + first + column] = .nan }
          } else {
            values[row * width + first + code] = 1
          }
        }
        columnNames += coding.categories.map { "\(feature.name)=\($0)" }
        summaries.append(
          FeatureSummary(
            name: feature.name, type: .categorical, columns: first..<(first + count),
            categories: coding.categories, missingCount: missingCount, imputation: imputation))
      }
    }
    return Dataset(
      x: Matrix(rows: rows, columns: width, values: values), columnNames: columnNames, features: summaries,
      labels: prepared.labels, classes: prepared.classes, time: prepared.time, lineNumbers: prepared.lineNumbers,
      provenance: prepared.provenance, predictAt: prepared.predictAt, availableAt: prepared.availableAt,
      groups: prepared.groups)
  }

  private func prepare(_ stream: CSVStream) throws(DataError) -> Prepared {
    precondition(definition.allExcept == nil, "resolve all_except against the header first")
    let path = DataFile.displayPath(definition.path)
    var expressions: [FeatureExpression?] = []
    var references = [Reference(column: definition.target.column.column, location: definition.target.column.location)]
    for feature in definition.features {
      switch feature.source {
      case .column(let name):
        expressions.append(nil)
        references.append(
          Reference(column: name, location: feature.location, imputed: definition.imputation(of: feature) != nil))
      case .expression(let text):
        let expression = try FeatureExpression(parsing: text, location: feature.location)
        expressions.append(expression)
        for name in expression.columns {
          references.append(Reference(column: name, location: feature.location, expression: text))
        }
      }
    }
    if let time = definition.time { references.append(Reference(column: time.column, location: time.location)) }
    // Read for the leak audit, but kept out of the missing-value check below.
    let availability = try AvailabilityColumns(definition)

    let groupsReference = definition.groups.map { Reference(column: $0.column, location: $0.location) }
    let (sha256, store) = try readColumns(
      stream, path: path, references: references, availability: availability.references, groups: groupsReference)
    MemoryTrace.mark("load: read columns", rows: store.rowCount)

    // 3. Values by role, over all rows read.
    try checkOverflow(store, numericReferences: references.filter { $0.expression != nil } + availability.references)
    let targetSlot = store.slot(definition.target.column.column)
    try checkTarget(store, slot: targetSlot)
    var plans: [Plan] = []
    for (feature, expression) in zip(definition.features, expressions) {
      plans.append(try plan(feature, expression: expression, store: store))
    }
    if let time = definition.time {
      let slot = store.slot(time.column)
      if let row = store.timestamps(slot).firstFailure {
        let hint = store.formatHint(slot, row: row) { "time: {column: \(time.column), format: \"\($0)\"}" }
        throw store.notATime(
          slot, row: row,
          use: "is not a timestamp (expected ISO 8601 such as 2013-01-01T10:00:00Z, or Unix seconds); "
            + "declare another format with \(hint)")
      }
    }

    try checkImputations(plans, store: store)

    // 4. Missing values, first missing column in spec order; imputed features keep their rows.
    var checkOrder: [Int] = []
    for reference in references where !reference.imputed {
      let slot = store.slot(reference.column)
      if !checkOrder.contains(slot) { checkOrder.append(slot) }
    }
    var columnFeatures: [Int: Bool] = [:]
    for plan in plans {
      switch plan {
      case .numericColumn(let slot): columnFeatures[slot] = columnFeatures[slot] ?? false
      case .categoricalColumn(let slot): columnFeatures[slot] = true
      case .expression: continue
      }
    }
    let missingRows = try MissingRows(
      definition.missing, store: store, columns: checkOrder, imputes: references.contains(where: \.imputed),
      columnFeatures: columnFeatures)
    let kept = missingRows.kept
    let droppedByColumn = missingRows.droppedByColumn
    let lineNumbers = store.lineNumbers.selecting(ascending: kept)
    try readInferredCategories(plans, store: store, sha256: sha256)
    // Before any encoding releases a column the groups may share with a feature.
    let groups = try definition.groups.map { reference throws(DataError) in
      try groupIndices(store, slot: store.slot(reference.column), rows: kept)
    }

    // 5. Encode kept rows. Each column is released after its last use, so the
    // kept rows' copies replace the columns read rather than pile on them.
    let missingCounts = plans.map { missingCount($0, store: store) }
    var uses: [Int: Int] = [targetSlot: 1]
    for plan in plans {
      if case .numericColumn(let slot) = plan { uses[slot, default: 0] += 1 }
      if case .categoricalColumn(let slot) = plan { uses[slot, default: 0] += 1 }
    }
    let timeSlot = definition.time.map { store.slot($0.column) }
    if let timeSlot { uses[timeSlot, default: 0] += 1 }
    let availabilitySlots = Set(availability.references.map { store.slot($0.column) })
    for slot in availabilitySlots { uses[slot, default: 0] += 1 }
    func used(_ slot: Int) {
      uses[slot, default: 1] -= 1
      if uses[slot] == 0 { store.release(slot) }
    }
    let (classes, labels) = try encodeTarget(store, slot: targetSlot, rows: kept)
    used(targetSlot)
    var features: [(definition: FeatureDefinition, encoded: Encoded, missingCount: Int)] = []
    for (index, (feature, plan)) in zip(definition.features, plans).enumerated() {
      var encoded = try encode(feature, plan: plan, store: store, rows: kept, lineNumbers: lineNumbers, path: path)
      if let imputation = definition.imputation(of: feature) {
        encoded = imputable(encoded, plan: plan, imputation: imputation, store: store, rows: kept)
      }
      features.append((feature, encoded, missingCounts[index]))
      if case .numericColumn(let slot) = plan { used(slot) }
      if case .categoricalColumn(let slot) = plan { used(slot) }
    }
    let times = try availability.evaluate(store: store, rows: kept, lineNumbers: lineNumbers, path: path)
    for slot in availabilitySlots { used(slot) }
    var time: [Double]?
    if let timeSlot {
      let seconds = store.timestamps(timeSlot).seconds
      time = kept.map { seconds[$0] }
    }
    return Prepared(
      classes: classes, labels: labels, features: features, time: time, groups: groups, lineNumbers: lineNumbers,
      provenance: DataProvenance(
        path: definition.path, sha256: sha256, rowsRead: store.rowCount, droppedByColumn: droppedByColumn,
        droppedRows: store.rowCount - kept.count, rowNames: stream.rowNames),
      predictAt: times.predictAt, availableAt: times.availableAt)
  }

  /// Streams, hashes and parses the file, keeping of each used column only
  /// what its roles read: numbers for all, text for categories, times for
  /// times. Unknown columns are reported before the records are read.
  private func readColumns(
    _ stream: CSVStream, path: String, references: [Reference], availability: [Reference], groups: Reference?
  ) throws(DataError) -> (String, ColumnStore) {
    let known = Set(stream.header)
    var requests: [ColumnBuilder.Request] = []
    var slots: [String: Int] = [:]
    for reference in references + availability + (groups.map { [$0] } ?? []) {
      guard known.contains(reference.column) else {
        throw unknownColumn(reference, stream: stream)
      }
      if slots[reference.column] == nil {
        slots[reference.column] = requests.count
        requests.append(ColumnBuilder.Request(name: reference.column))
      }
    }
    if definition.target.when == nil { requests[slots[definition.target.column.column]!].keepsText = true }
    if let groups { requests[slots[groups.column]!].keepsText = true }
    for feature in definition.features where feature.type == .categorical {
      if case .column(let name) = feature.source { requests[slots[name]!].keepsText = true }
    }
    // Times: the time column, every expression's inputs (a non-numeric input is read as times) and the audit's.
    var timed = availability.map(\.column) + references.filter { $0.expression != nil }.map(\.column)
    if let time = definition.time { timed.append(time.column) }
    for name in timed { requests[slots[name]!].readsTimes = true }
    // A format declared for a column nothing reads as times would change nothing: a misspelt name or a
    // misunderstanding, either way worth an error at the declaration.
    for name in definition.timeFormats.keys.sorted() {
      let format = definition.timeFormats[name]!
      guard known.contains(name) else {
        throw unknownColumn(Reference(column: name, location: format.location), stream: stream)
      }
      guard timed.contains(name), let slot = slots[name] else {
        throw DataError(
          .notATimestamp, at: format.location, column: name,
          "has a declared format, but the spec never reads it as a time (as `time:`, in year(), month(), day(), "
            + "weekday(), hour(), minute() or arithmetic of an expression, or by `available_at` or `predict_at`)")
      }
      requests[slot].timeFormat = format
    }
    let (columns, lineNumbers) = try stream.read(requests)
    return (try stream.sha256(), ColumnStore(path: path, columns: columns, lineNumbers: lineNumbers))
  }

  /// Each kept row's group: the groups column's cells compared as text, byte for byte (`1` and `1.0` are two
  /// groups), numbered in the order of their UTF-8 bytes, which is how `numpy.unique` orders strings.
  /// - Throws: `DataError` at the first row read (kept or not) whose group is missing.
  private func groupIndices(_ store: ColumnStore, slot: Int, rows: [Int]) throws(DataError) -> [Int] {
    let profile = store.profile(slot)
    if let row = profile.missing.firstIndex(of: true) {
      let text = store.cellText(slot, row: row)
      throw DataError(
        .missingValue, at: store.location(row: row), column: store.name(slot),
        "missing group (\(text.isEmpty ? "an empty field" : "'\(text)'")) in the `resampling.groups` column: "
          + "every row needs a group, whatever `missing:` says, so that it is kept to one side of each split")
    }
    let column = store.text(slot)
    return column.withCells { cells in
      var numbers: [[UInt8]: Int] = [:]
      var firstRows: [Int] = []
      var codes = [Int](repeating: 0, count: rows.count)
      for (position, row) in rows.enumerated() {
        let bytes = Array(cells[row])
        if let code = numbers[bytes] {
          codes[position] = code
        } else {
          numbers[bytes] = firstRows.count
          codes[position] = firstRows.count
          firstRows.append(row)
        }
      }
      // Renumber by the groups' bytes.
      let order = firstRows.indices.sorted {
        Array(cells[firstRows[$0]]).lexicographicallyPrecedes(cells[firstRows[$1]])
      }
      var rank = [Int](repeating: 0, count: order.count)
      for (place, code) in order.enumerated() { rank[code] = place }
      return codes.map { rank[$0] }
    }
  }

  /// A feature of no declared type turns out categorical only once all its cells are seen, when the
  /// first pass has kept none of its text: a second pass reads that text. Files whose features are
  /// numbers or declare their type are read once.
  private func readInferredCategories(_ plans: [Plan], store: ColumnStore, sha256: String) throws(DataError) {
    var names: [String] = []
    for plan in plans {
      if case .categoricalColumn(let slot) = plan, !store.hasText(slot), !names.contains(store.name(slot)) {
        names.append(store.name(slot))
      }
    }
    guard !names.isEmpty else { return }
    let stream = try CSVStream(
      path: definition.path, reportingAt: definition.pathLocation, dialect: definition.dialect)
    let (columns, lineNumbers) = try stream.read(names.map { ColumnBuilder.Request(name: $0, keepsText: true) })
    guard try stream.sha256() == sha256, lineNumbers == store.lineNumbers else {
      throw DataError(
        .unreadableFile, at: definition.pathLocation,
        "data file '\(store.path)' changed while it was being read; run again once it is complete")
    }
    for column in columns { store.setText(column.text!, slot: store.slot(column.name)) }
  }

  private func unknownColumn(_ reference: Reference, stream: CSVStream) -> DataError {
    let header = stream.header
    var message = "unknown column '\(reference.column)' in \(DataFile.fileName(definition.path))"
    if let expression = reference.expression { message += " (used in expression '\(expression)')" }
    if let rowNames = stream.rowNames, rowNames.header == reference.column {
      message += "; '\(rowNames.header)' is the file's first column, \(rowNames.writer)' row index, which is skipped"
    } else if header.count == 1, let advice = Self.delimiterAdvice(header[0], dialect: stream.dialect) {
      message += advice
    } else if let suggestion = Suggestion.closest(to: reference.column, among: header) {
      message += "; did you mean '\(suggestion)'?"
    } else {
      let shown = header.prefix(25).map { "'\($0)'" }.joined(separator: ", ")
      message += "; its columns are \(shown)\(header.count > 25 ? ", …" : "")"
    }
    return DataError(.unknownColumn, at: reference.location, column: reference.column, message)
  }

  /// For a header read as one column that holds another common delimiter: the likely dialect.
  static func delimiterAdvice(_ name: String, dialect: CSVDialect) -> String? {
    for candidate in CSVHeader.commonDelimiters where candidate != dialect.delimiter {
      guard name.utf8.contains(candidate) else { continue }
      let spelled = CSVDialect.spelling(candidate)
      return "; the header reads as one column, '\(name.count > 60 ? "\(name.prefix(60))…" : name)', which holds "
        + "'\(spelled)': declare the file's delimiter with `data: {delimiter: \"\(spelled)\"}`"
    }
    return nil
  }

  /// A number that overflows a `Double` is an error at its line wherever its column is read as numbers: every
  /// use but a feature declared categorical, whose values are labels.
  private func checkOverflow(_ store: ColumnStore, numericReferences: [Reference]) throws(DataError) {
    var numericUses = [definition.target.column.column] + numericReferences.map(\.column)
    for feature in definition.features where feature.type != .categorical {
      if case .column(let name) = feature.source { numericUses.append(name) }
    }
    if let time = definition.time { numericUses.append(time.column) }
    var first: (row: Int, slot: Int)?
    for name in Set(numericUses).sorted() {
      let slot = store.slot(name)
      let profile = store.profile(slot)
      guard let row = profile.firstOverflowRow, profile.isNumeric || profile.isMostlyNumeric else { continue }
      if first == nil || row < first!.row { first = (row, slot) }
    }
    guard let (row, slot) = first else { return }
    throw DataError(
      .notANumber, at: store.location(row: row), column: store.name(slot),
      "\(store.quoted(slot, row: row)) is too large for a 64-bit floating-point number (beyond ±1.8e308)")
  }

  /// A target compared with `when` must be all numbers; an unbinarised target
  /// may be numbers or text, but not numbers with a few stray words.
  private func checkTarget(_ store: ColumnStore, slot: Int) throws(DataError) {
    let profile = store.profile(slot)
    let name = definition.target.column.column
    guard let row = profile.firstTextRow else { return }
    if let when = definition.target.when {
      throw DataError(
        .notANumber, at: store.location(row: row), column: name,
        "\(store.quoted(slot, row: row)) is not a number, but the target's `when: \(when.comparison.rawValue) \(Categorizer.formatNumber(when.value))` compares numbers"
      )
    }
    if profile.isMostlyNumeric {
      throw DataError(
        .notANumber, at: store.location(row: row), column: name,
        "\(store.quoted(slot, row: row)) is not a number, unlike \(profile.numericCount) other values of the target column"
      )
    }
  }

  private func plan(_ feature: FeatureDefinition, expression: FeatureExpression?, store: ColumnStore) throws(DataError)
    -> Plan
  {
    switch feature.source {
    case .column(let name):
      let slot = store.slot(name)
      let profile = store.profile(slot)
      let named = feature.name == name ? "" : " (feature '\(feature.name)')"
      switch feature.type {
      case .categorical:
        return .categoricalColumn(slot: slot)
      case .numeric:
        if let row = profile.firstTextRow {
          throw DataError(
            .notANumber, at: store.location(row: row), column: name,
            "\(store.quoted(slot, row: row)) is not a number\(named), and the feature is declared `type: numeric`")
        }
        return .numericColumn(slot: slot)
      case nil:
        if profile.isNumeric { return .numericColumn(slot: slot) }
        if profile.isMostlyNumeric, let row = profile.firstTextRow {
          throw DataError(
            .notANumber, at: store.location(row: row), column: name,
            "\(store.quoted(slot, row: row)) is not a number, unlike \(profile.numericCount) other values\(named); declare the feature `type: categorical` if its values are categories"
          )
        }
        return .categoricalColumn(slot: slot)
      }
    case .expression(let text):
      guard let expression else { preconditionFailure("expression not parsed") }
      var inputs: [String: [Double]] = [:]
      for name in expression.columns {
        let slot = store.slot(name)
        let profile = store.profile(slot)
        if profile.isNumeric && !store.hasTimeFormat(slot) {
          inputs[name] = profile.numbers
          continue
        }
        let scan = store.timestamps(slot)
        if let row = scan.firstFailure {
          let hint = store.formatHint(slot, row: row) { "data: {formats: {\(name): \"\($0)\"}}" }
          throw store.notATime(
            slot, row: row, kind: .notANumber,
            use: "is neither a number nor a timestamp, so expression '\(text)' (feature '\(feature.name)') cannot "
              + "use it; if it is a time, declare the column's format with \(hint)")
        }
        inputs[name] = scan.seconds
      }
      return .expression(expression, text: text, inputs: inputs, categorical: feature.type == .categorical)
    }
  }

  /// Classes in `np.unique` order and each kept row's class index.
  private func encodeTarget(_ store: ColumnStore, slot: Int, rows: [Int]) throws(DataError) -> ([String], [Int]) {
    let target = definition.target
    var classes: [String]
    var labels: [Int]
    if let when = target.when {
      let numbers = store.profile(slot).numbers
      labels = rows.map { when.holds(for: numbers[$0]) ? 1 : 0 }
      let ones = labels.reduce(0, +)
      classes = ["0", "1"]
      if ones == 0 { classes = ["0"] }
      if ones == labels.count {
        classes = ["1"]
        labels = labels.map { _ in 0 }
      }
    } else {
      let coding = Categorizer.code(store.text(slot), profile: store.profile(slot), rows: rows)
      classes = coding.categories
      labels = coding.codes
    }
    guard classes.count >= 2 else {
      let column = target.column.column
      if rows.isEmpty {
        let read = store.rowCount
        let why = read == 0 ? "the data file has no rows" : "all \(read) rows were dropped for missing values"
        throw DataError(.invalidTarget, at: target.column.location, column: column, "no rows to learn from: \(why)")
      }
      var message = "target '\(column)' has a single class '\(classes[0])' in all \(rows.count) rows"
      if let when = target.when {
        message += " (`\(column) \(when.comparison.rawValue) \(Categorizer.formatNumber(when.value))` is "
        message += classes[0] == "1" ? "always true)" : "never true)"
      }
      throw DataError(
        .invalidTarget, at: target.column.location, column: column, message + "; a classifier needs at least two")
    }
    return (classes, labels)
  }

  private func encode(
    _ feature: FeatureDefinition, plan: Plan, store: ColumnStore, rows: [Int], lineNumbers: LineNumbers, path: String
  ) throws(DataError) -> Encoded {
    switch plan {
    case .numericColumn(let slot):
      let numbers = store.profile(slot).numbers
      return .numeric(rows.map { numbers[$0] })
    case .categoricalColumn(let slot):
      return .categorical(Categorizer.code(store.text(slot), profile: store.profile(slot), rows: rows))
    case .expression(let expression, let text, let inputs, let categorical):
      let evaluator = ExpressionEvaluator(
        text: text, featureName: feature.name, path: path, lineNumbers: lineNumbers,
        inputs: inputs.mapValues { values in rows.map { values[$0] } })
      let values = try evaluator.evaluate(expression)
      return categorical ? .categorical(Categorizer.code(values: values)) : .numeric(values)
    }
  }

  /// A categorical feature's missing cells, coded `-1` for the imputer to fill, and categories from the values
  /// present; a constant imputation's category among them, in its place in the order (numeric cells are `NaN`
  /// already).
  private func imputable(_ encoded: Encoded, plan: Plan, imputation: Imputation, store: ColumnStore, rows: [Int])
    -> Encoded
  {
    guard case .categoricalColumn(let slot) = plan else { return encoded }
    let missing = store.profile(slot).missing
    let present = rows.filter { !missing[$0] }
    guard present.count < rows.count || imputation.strategy == .constant else { return encoded }
    var coding = Categorizer.code(store.text(slot), profile: store.profile(slot), rows: present)
    if imputation.strategy == .constant { coding = coding.including(imputation.categoricalFill) }
    var codes = [Int](repeating: -1, count: rows.count)
    var next = 0
    for (index, row) in rows.enumerated() where !missing[row] {
      codes[index] = coding.codes[next]
      next += 1
    }
    return .categorical(CategoryCoding(categories: coding.categories, codes: codes))
  }

  /// Each imputed feature's strategy fits its type: a categorical feature with missing values takes
  /// `most_frequent` or a `constant` category; a numeric one's constant is a number.
  private func checkImputations(_ plans: [Plan], store: ColumnStore) throws(DataError) {
    for (feature, plan) in zip(definition.features, plans) {
      guard let imputation = definition.imputation(of: feature) else { continue }
      switch plan {
      case .categoricalColumn(let slot):
        guard !imputation.strategy.fillsCategories, store.profile(slot).missingCount > 0 else { continue }
        throw DataError(
          .invalidImputation, at: imputation.location, column: store.name(slot),
          "feature '\(feature.name)' is categorical and misses \(store.profile(slot).missingCount) values, which "
            + "strategy \(imputation.strategy.rawValue) cannot fill; give it `impute: {strategy: most_frequent}` "
            + "or `{strategy: constant, fill_value: …}` under its own entry")
      case .numericColumn(let slot):
        guard imputation.strategy == .constant, imputation.numericFill == nil else { continue }
        throw DataError(
          .invalidImputation, at: imputation.location, column: store.name(slot),
          "feature '\(feature.name)' is numeric, so its constant fill_value must be a finite number, not "
            + "'\(imputation.fillValue ?? "")'")
      case .expression:
        continue
      }
    }
  }

  /// Rows read (before dropping) where the feature has no value.
  private func missingCount(_ plan: Plan, store: ColumnStore) -> Int {
    switch plan {
    case .numericColumn(let slot), .categoricalColumn(let slot):
      return store.profile(slot).missingCount
    case .expression(_, _, let inputs, _):
      let masks = inputs.keys.map { store.profile(store.slot($0)).missing }
      return (0..<store.rowCount).reduce(0) { count, row in
        count + (masks.contains { $0[row] } ? 1 : 0)
      }
    }
  }
}
