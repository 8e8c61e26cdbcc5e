import BenchbookData
import FuzzSupport

/// A small data file whose columns the seeds use: numbers with a missing value, a zero and negatives (for
/// division and `log`), and ISO timestamps (for the time functions).
private let table = Array(
  """
  y,a,b,t
  0,1.5,0,2013-01-01T10:00:00Z
  1,-2,3,2013-06-30T23:59:00Z
  0,NA,-1,2014-02-28T05:30:00Z
  1,1e300,0.5,1970-01-01T00:00:00Z

  """.utf8)
private let columns: Set<String> = ["y", "a", "b", "t"]
private let scratch = ScratchFile(named: "expression.csv")

/// Fuzzes the feature-expression parser through `FeatureExpression(parsing:location:)`, the call the spec
/// parser and the loader make, then walks the tree it returns (its columns, text and hash). An expression
/// over the table's columns is also evaluated on every row by `Dataset.load`, as a derived feature of a
/// run. A thrown `DataError` is a correct answer; only a crash, hang or leak is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzExpression(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  let location = SourceLocation(file: "spec.yaml", line: 7, column: 5)
  do throws(DataError) {
    let expression = try FeatureExpression(parsing: text, location: location)
    _ = expression.description
    _ = expression.hashValue
    guard expression.columns.allSatisfy(columns.contains) else { return 0 }
    let definition = DatasetDefinition(
      path: scratch.path, pathLocation: location, missing: .drop,
      target: TargetDefinition(column: ColumnReference(column: "y", location: location)),
      features: [FeatureDefinition(name: "derived", source: .expression(text), location: location)])
    try table.withUnsafeBufferPointer { (bytes) throws(DataError) in
      try scratch.with(bytes) { (_) throws(DataError) in _ = try Dataset.load(definition) }
    }
  } catch {
    _ = error.description
  }
  return 0
}
