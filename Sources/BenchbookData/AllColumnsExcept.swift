/// Every column of the file as a feature but those named (`features: {all_except: [id, …]}`), so a wide
/// table needs no list of hundreds of names.
///
/// The columns are taken in file order, after the header is read. Never taken: the target, the time
/// column, the groups column (`resampling.groups`), the columns `predict_at` and `available_at` read (each is a time, not an input), and a column a
/// listed feature (`also:`) reads as it is; `also:` is how one of them is made a feature after all.
public struct AllColumnsExcept: Sendable, Hashable {
  /// The columns named under `all_except`.
  public var excluded: [ColumnReference]
  /// Declared types of taken columns (`types: {col: categorical}`); the others are inferred.
  public var types: [TypedColumn]
  /// Where `all_except` was written: taken features point there.
  public var location: SourceLocation

  /// A column and the type the spec gives it.
  public struct TypedColumn: Sendable, Hashable {
    public var column: ColumnReference
    public var type: FeatureType

    public init(column: ColumnReference, type: FeatureType) {
      self.column = column
      self.type = type
    }
  }

  public init(excluded: [ColumnReference], types: [TypedColumn] = [], location: SourceLocation) {
    self.excluded = excluded
    self.types = types
    self.location = location
  }

  /// The features this takes from `header`, in file order, for `definition`.
  /// - Throws: `DataError` at the spec entry for a name that is no column (with the nearest), a type for a
  ///   column not taken, or nothing left to take.
  func features(header: [String], definition: DatasetDefinition, fileName: String) throws(DataError)
    -> [FeatureDefinition]
  {
    let known = Set(header)
    for reference in excluded + types.map(\.column) where !known.contains(reference.column) {
      throw DataError(
        .unknownColumn, at: reference.location, column: reference.column,
        "unknown column '\(reference.column)' in \(fileName)\(Suggestion.phrase(for: reference.column, among: header))")
    }
    var left: [String: String] = [:]
    for reference in excluded { left[reference.column] = "listed under all_except" }
    left[definition.target.column.column] = "the target"
    if let time = definition.time { left[time.column] = "the time column" }
    if let groups = definition.groups, left[groups.column] == nil { left[groups.column] = "the groups column" }
    for (name, use) in timeColumns(definition) where left[name] == nil { left[name] = use }
    for feature in definition.features {
      if case .column(let name) = feature.source { left[name] = "listed as feature '\(feature.name)'" }
    }
    var declared: [String: FeatureType] = [:]
    for typed in types {
      if let reason = left[typed.column.column] {
        throw DataError(
          .unknownColumn, at: typed.column.location, column: typed.column.column,
          "'\(typed.column.column)' is not one of the columns all_except takes (it is \(reason)); "
            + "declare types only for the columns taken")
      }
      declared[typed.column.column] = typed.type
    }
    let taken = header.filter { left[$0] == nil }.map { name in
      FeatureDefinition(name: name, source: .column(name), type: declared[name], location: location)
    }
    guard !taken.isEmpty || !definition.features.isEmpty else {
      throw DataError(
        .unknownColumn, at: location,
        "all_except leaves no column of \(fileName) to use as a feature (its columns: "
          + header.prefix(25).map { "'\($0)'" }.joined(separator: ", ") + (header.count > 25 ? ", …)" : ")"))
    }
    return taken
  }

  /// The columns `predict_at` and `available_at` read, with how.
  private func timeColumns(_ definition: DatasetDefinition) -> [(String, String)] {
    var times: [(AvailabilityTime, String)] = definition.predictAt.map { [($0, "read by predict_at")] } ?? []
    for feature in definition.features {
      if let availableAt = feature.availableAt { times.append((availableAt, "read by \(feature.name)'s available_at")) }
    }
    return times.flatMap { time, use -> [(String, String)] in
      switch time.source {
      case .column(let name): return [(name, use)]
      case .expression(let text):
        let columns = (try? FeatureExpression(parsing: text, location: time.location))?.columns ?? []
        return columns.map { ($0, use) }
      }
    }
  }
}

extension DatasetDefinition {
  /// The definition with `allExcept` turned into features for a file whose columns are `header`: the columns it
  /// takes, then the listed ones. A definition without it is returned as it is.
  public func resolvingFeatures(header: [String]) throws(DataError) -> DatasetDefinition {
    guard let allExcept else { return self }
    var resolved = self
    let taken = try allExcept.features(header: header, definition: self, fileName: DataFile.fileName(path))
    for feature in features where taken.contains(where: { $0.name == feature.name }) {
      throw DataError(
        .unknownColumn, at: feature.location,
        "feature '\(feature.name)' is also a column all_except takes; name the derived feature otherwise")
    }
    resolved.features = taken + features
    resolved.allExcept = nil
    return resolved
  }
}
