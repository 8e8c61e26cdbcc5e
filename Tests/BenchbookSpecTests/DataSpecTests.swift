import BenchbookData
import BenchbookSpec
import Testing

/// The data side's keys: the dialect under `data:`, declared timestamp formats, `features: {all_except:}` and
/// the columns of `standardize`, each checked like every other key.
@Suite struct DataSpecTests: SpecParsing {
  func spec(data: String = "{path: d.csv}", time: String? = nil, features: String = "[a]", preprocess: String? = nil)
    -> String
  {
    var text = "data: \(data)\ntarget: y\n"
    if let time { text += "time: \(time)\n" }
    text += "features: \(features)\n"
    if let preprocess { text += "preprocess: \(preprocess)\n" }
    return text
  }

  @Test func theDefaultDialectFollowsTheFileName() throws {
    #expect(try parse(spec()).dataset.dialect == .standard)
    #expect(try parse(spec(data: "{path: d.tsv.gz}")).dataset.dialect.delimiter == UInt8(ascii: "\t"))
  }

  @Test func aEuropeanSpreadsheet() throws {
    let dialect = try parse(spec(data: "{path: d.csv, delimiter: \";\", decimal: \",\", header: true}")).dataset.dialect
    #expect(dialect == CSVDialect(delimiter: UInt8(ascii: ";"), decimalSeparator: UInt8(ascii: ",")))
    // A tab file may use decimal commas too.
    #expect(
      try parse(spec(data: "{path: d.tsv, decimal: \",\"}")).dataset.dialect.decimalSeparator == UInt8(ascii: ","))
  }

  @Test(arguments: [("\"\\t\"", "\t"), ("tab", "\t"), ("'|'", "|"), ("\":\"", ":"), ("\" \"", " ")])
  func delimiters(written: String, byte: Character) throws {
    let dialect = try parse(spec(data: "{path: d.csv, delimiter: \(written)}")).dataset.dialect
    #expect(dialect.delimiter == UInt8(ascii: byte.unicodeScalars.first!))
  }

  @Test(arguments: [
    ("delimiter: \";;\"", "data.delimiter", "a delimiter is one character"),
    ("delimiter: \".\"", "data.delimiter", "'.' cannot separate fields"),
    ("delimiter: x", "data.delimiter", "'x' cannot separate fields"),
    ("delimiter: \"é\"", "data.delimiter", "a delimiter is one character"),
    ("decimal: \";\"", "data.decimal", "the decimal separator is \".\" or \",\""),
    ("decimal: \",\"", "data.decimal", "a decimal comma cannot be told from the delimiter"),
    ("delimiter: \",\"\n  decimal: \",\"", "data.decimal", "declare the file's delimiter too"),
    ("header: maybe", "data.header", "expected true or false"),
    ("columns: [a, b]", "data.columns", "declare `header: false`"),
    ("header: false\n  columns: [a, a]", "data.columns[1]", "column 'a' is named twice"),
    ("header: false\n  columns: [a, \"\"]", "data.columns[1]", "a column name cannot be empty"),
    ("delimeter: \";\"", "data.delimeter", "did you mean 'delimiter'?"),
    ("formats: {d: \"%Y/%q\"}", "data.formats.d", "unknown directive '%q'"),
    ("formats: {d: \"%I:%M\"}", "data.formats.d", "without AM or PM"),
    ("formats: [a]", "data.formats", "expected a mapping"),
  ])
  func dialectErrorsNameTheirKeyAndLine(entry: String, key: String, fragment: String) {
    let error = specError("data:\n  path: d.csv\n  \(entry)\ntarget: y\nfeatures: [a]\n")
    #expect(error?.key == key, "\(entry)")
    #expect(error?.location.line != nil)
    #expect(error?.message.contains(fragment) == true, "\(error?.description ?? "no error")")
  }

  @Test func aFileWithoutAHeader() throws {
    let dialect = try parse("data:\n  path: d.csv\n  header: false\n  columns: [a, y]\ntarget: y\nfeatures: [a]\n")
      .dataset.dialect
    #expect(!dialect.hasHeader)
    #expect(dialect.columnNames == ["a", "y"])
    #expect(dialect.columnNamesLocation?.line == 4)
    #expect(try parse(spec(data: "{path: d.csv, header: false}")).dataset.dialect.columnNames == nil)
  }

  @Test func formatsAreDeclaredOncePerColumn() throws {
    let data = try parse(
      spec(data: "{path: d.csv, formats: {when: \"%d.%m.%Y\"}}", time: "{column: date, format: \"%Y/%m/%d\"}")
    )
    .dataset
    #expect(data.time?.column == "date")
    #expect(data.timeFormats.mapValues(\.format.text) == ["date": "%Y/%m/%d", "when": "%d.%m.%Y"])
    #expect(data.timeFormats["date"]?.location.line == 3)
    // The same format twice is harmless; two formats for one column are not.
    _ = try parse(
      spec(data: "{path: d.csv, formats: {date: \"%Y/%m/%d\"}}", time: "{column: date, format: \"%Y/%m/%d\"}"))
    let error = specError(
      spec(data: "{path: d.csv, formats: {date: \"%Y-%m-%d\"}}", time: "{column: date, format: \"%Y/%m/%d\"}"))
    #expect(error?.key == "time.format")
    #expect(error?.message.contains("column 'date' already has the format '%Y-%m-%d'") == true)
    #expect(specError(spec(time: "{column: date, formt: x}"))?.message.contains("did you mean 'format'?") == true)
    #expect(specError(spec(time: "{format: \"%Y\"}"))?.message.contains("'time' needs 'column'") == true)
  }

  @Test func allExcept() throws {
    let data = try parse(
      spec(
        features:
          "\n  all_except: [id, notes]\n  types: {zip: categorical}\n  also:\n    - ratio: a / b\n    - when: {type: categorical}"
      )
    ).dataset
    let allExcept = try #require(data.allExcept)
    #expect(allExcept.excluded.map(\.column) == ["id", "notes"])
    #expect(allExcept.excluded.map(\.location.line) == [4, 4])
    #expect(
      allExcept.types == [
        AllColumnsExcept.TypedColumn(
          column: ColumnReference(column: "zip", location: allExcept.types[0].column.location), type: .categorical)
      ])
    #expect(data.features.map(\.name) == ["ratio", "when"])
    #expect(try parse(spec(features: "{all_except: []}")).dataset.allExcept?.excluded == [])
    #expect(try parse(spec(features: "{all_except: target}")).dataset.allExcept?.excluded.map(\.column) == ["target"])
  }

  @Test(arguments: [
    ("{al_except: [id]}", "features.al_except", "did you mean 'all_except'?"),
    ("{types: {a: numeric}}", "features", "'all_except' is missing"),
    ("{all_except: [id, id]}", "features.all_except[1]", "'id' is listed twice"),
    ("{all_except: [id], types: {a: text}}", "features.types.a", "must be numeric or categorical"),
    ("{all_except: [id], also: []}", "features.also", "list at least one feature"),
  ])
  func allExceptErrors(features: String, key: String, fragment: String) {
    let error = specError(spec(features: features))
    #expect(error?.key == key, "\(features)")
    #expect(error?.message.contains(fragment) == true, "\(error?.description ?? "no error")")
  }

  @Test func standardizeColumns() throws {
    #expect(try parse(spec(preprocess: "[standardize]")).preprocessing == [.standardize])
    let numeric = try parse(spec(preprocess: "[{standardize: {columns: numeric}}]")).preprocessing
    #expect(numeric == [PreprocessingStep(.standardize, columns: .numeric)])
    #expect(numeric[0].rawValue == "standardize")
    #expect(try parse(spec(preprocess: "[{standardize: {columns: all}}]")).preprocessing == [.standardize])
    #expect(try parse(spec(preprocess: "[{standardize: }]")).preprocessing == [.standardize])
    let wrong = specError(spec(preprocess: "[{standardize: {columns: numerical}}]"))
    #expect(wrong?.key == "preprocess[0].standardize.columns")
    #expect(wrong?.message.contains("did you mean 'numeric'?") == true)
    let key = specError(spec(preprocess: "[{standardize: {column: numeric}}]"))
    #expect(key?.key == "preprocess[0].standardize.column")
    let step = specError(spec(preprocess: "[{standardise_all: {columns: numeric}}]"))
    #expect(step?.message.contains("unknown preprocessing step 'standardise_all'") == true)
    let two = specError(spec(preprocess: "[{standardize: {}, other: {}}]"))
    #expect(two?.message.contains("found 2 keys") == true)
  }

  /// Only specs that use the new keys have new definition lines, so every other definition (and its hash in
  /// results.json) reads as before.
  @Test func definitionTextGrowsOnlyForTheNewKeys() throws {
    let plain = try parse(spec(preprocess: "[standardize]")).definitionText
    #expect(
      plain == "target y\nfeature a = column a\ntime -\nmissing error\npreprocess standardize\n" + plain.split(
        separator: "\n"
      ).last! + "\n")
    #expect(try parse(spec(data: "{path: d.tsv}")).definitionText == (try parse(spec()).definitionText))
    let european = try parse(spec(data: "{path: d.csv, delimiter: \";\", decimal: \",\"}")).definitionText
    #expect(european.contains("dialect delimiter=; decimal=, header=true\n"))
    let formatted = try parse(spec(time: "{column: d, format: \"%Y/%m/%d\"}")).definitionText
    #expect(formatted.contains("format d %Y/%m/%d\n"))
    let wide = try parse(spec(features: "{all_except: [id], types: {z: categorical}}")).definitionText
    #expect(wide.contains("features all_except id types z=categorical\n"))
    let numeric = try parse(spec(preprocess: "[{standardize: {columns: numeric}}]")).definitionText
    #expect(numeric.contains("preprocess standardize(columns=numeric)\n"))
  }
}
