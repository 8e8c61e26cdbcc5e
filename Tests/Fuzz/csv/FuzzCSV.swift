import BenchbookData
import FuzzSupport

/// The data file of the fuzz input, as `benchbook run` reads a spec's `data.path`.
private let scratch = ScratchFile(named: "data.csv")

/// Fuzzes the CSV reader and the loader behind it: gzip detection, the header, every record's fields, then
/// `Dataset.load` with the first column as the target and the next ones (up to eight) as features, types
/// inferred, as a spec naming those columns would. A column named `time` is the time column. The input's
/// size picks the missing-value policy and whether the target is binarised, so both branches are reached.
/// The dialect follows the first line: its first `,` `;` tab or `|` is the delimiter (a comma when it has
/// none), and with another delimiter than the comma an odd-sized input reads decimal commas.
/// A thrown `DataError` is a correct answer; only a crash, hang or leak is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCSV(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let input = UnsafeBufferPointer(start: data, count: size)
  let firstLine = input.prefix { $0 != UInt8(ascii: "\n") }
  let delimiter = firstLine.first { [",", ";", "\t", "|"].map { UInt8(ascii: $0) }.contains($0) } ?? UInt8(ascii: ",")
  let decimal = delimiter != UInt8(ascii: ",") && size % 2 == 1 ? UInt8(ascii: ",") : UInt8(ascii: ".")
  let dialect = CSVDialect(delimiter: delimiter, decimalSeparator: decimal)
  scratch.with(input) { path in
    do throws(DataError) {
      let reader = try CSVReader(path: path, dialect: dialect)
      _ = try reader.read(columns: reader.header)
      guard reader.header.count >= 2 else { return }
      let location = SourceLocation(file: "spec.yaml", line: 1, column: 1)
      let time = reader.header.dropFirst().first { $0 == "time" }
      let features = reader.header.dropFirst().filter { $0 != "time" }.prefix(8).map { name in
        FeatureDefinition(name: name, source: .column(name), location: location)
      }
      // The spec parser refuses an empty feature list, so the loader never sees one.
      guard !features.isEmpty else { return }
      let definition = DatasetDefinition(
        path: path, pathLocation: location, missing: size % 2 == 0 ? .error : .drop,
        target: TargetDefinition(
          column: ColumnReference(column: reader.header[0], location: location),
          when: size % 3 == 0 ? Threshold(.greater, 0) : nil),
        features: features, time: time.map { ColumnReference(column: $0, location: location) }, dialect: dialect)
      let dataset = try Dataset.load(definition)
      _ = dataset.x.values.count
    } catch {
      _ = error.description
    }
  }
  return 0
}
