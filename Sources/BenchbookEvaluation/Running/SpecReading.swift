import BenchbookSpec

extension SpecParser {
  /// `parse(file:)`, then what only the evaluation knows of a spec: that every audit check it names is one the
  /// audit has (`LeakAudit.validate`). What every command reads a spec with.
  public static func read(file path: String) throws(SpecError) -> ExperimentSpec {
    let spec = try parse(file: path)
    try LeakAudit.validate(spec)
    return spec
  }
}
