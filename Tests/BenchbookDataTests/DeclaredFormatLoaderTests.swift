import BenchbookData
import Testing

/// Declared timestamp formats in the loader: one declaration serves every use of the column as a time
/// (the time column, timestamp functions, `available_at`, `predict_at`), and a cell that does not match
/// points at its line, the column, the format and the declaration.
@Suite struct DeclaredFormatLoaderTests {
  let files = TemporaryFiles()

  private func declared(_ format: String, line: Int = 3) throws -> DeclaredTimestampFormat {
    DeclaredTimestampFormat(format: try TimestampFormat(format), location: spec(line))
  }

  @Test func oneFormatServesTheTimeColumnAndItsFunctions() throws {
    let path = files.write("date,y\n2012/01/01,1\n2012/02/29,0\n2013/12/31,1\n")
    var definition = BenchbookDataTests.definition(
      path, target: "y", features: [derived("month", "month(date)")], time: "date")
    definition.timeFormats = ["date": try declared("%Y/%m/%d")]
    let data = try Dataset.load(definition)
    #expect(data.time == [1_325_376_000, 1_330_473_600, 1_388_448_000])
    #expect(data.x.column(0) == [1, 2, 12])
  }

  /// A format reads cells that are numbers too, which without it would be Unix seconds.
  @Test func numericLookingCellsFollowTheFormat() throws {
    let path = files.write("day,y\n20120101,1\n20120102,0\n")
    var definition = BenchbookDataTests.definition(path, target: "y", features: [derived("d", "day(day)")], time: "day")
    definition.timeFormats = ["day": try declared("%Y%m%d")]
    let data = try Dataset.load(definition)
    #expect(data.time == [1_325_376_000, 1_325_462_400])
    #expect(data.x.column(0) == [1, 2])
  }

  @Test func availableAtAndPredictAtReadTheFormatToo() throws {
    let path = files.write("y,x,known,asked\n1,5,01.02.2013 10:00,01.02.2013 09:00\n0,6,NA,02.02.2013 09:00\n")
    var definition = BenchbookDataTests.definition(path, target: "y", features: [])
    definition.features = [
      FeatureDefinition(
        name: "x", source: .column("x"), location: spec(10),
        availableAt: AvailabilityTime(source: .column("known"), location: spec(11)))
    ]
    definition.predictAt = AvailabilityTime(source: .column("asked"), location: spec(12))
    definition.timeFormats = [
      "known": try declared("%d.%m.%Y %H:%M"), "asked": try declared("%d.%m.%Y %H:%M", line: 4),
    ]
    let data = try Dataset.load(definition)
    #expect(data.predictAt == [1_359_709_200, 1_359_795_600])
    #expect(data.availableAt["x"]?.first == 1_359_712_800)
    #expect(data.availableAt["x"]?.last?.isNaN == true, "a missing time never drops a row")
  }

  @Test func aCellThatDoesNotMatchIsALocatedError() throws {
    let path = files.write("date,y\n2012/01/01,1\n2012-01-02,0\n")
    var definition = BenchbookDataTests.definition(path, target: "y", features: [column("y")], time: "date")
    definition.timeFormats = ["date": try declared("%Y/%m/%d")]
    let error = dataError { () throws(DataError) in try Dataset.load(definition) }
    #expect(error?.kind == .notATimestamp)
    #expect(
      error?.description
        == "\(path):3: column 'date': '2012-01-02' does not match the format '%Y/%m/%d' declared at spec.yaml:3: "
        + "expected '/' at character 5 ('-')")
    // The same through an expression alone.
    var viaExpression = BenchbookDataTests.definition(path, target: "y", features: [derived("month", "month(date)")])
    viaExpression.timeFormats = definition.timeFormats
    let expressionError = dataError { () throws(DataError) in try Dataset.load(viaExpression) }
    #expect(expressionError?.location.line == 3)
    #expect(expressionError?.message.contains("does not match the format '%Y/%m/%d'") == true)
  }

  @Test func withoutAFormatTheErrorSaysHowToDeclareOne() throws {
    let path = files.write("date,y\n2012/01/01,1\n2012/01/02,0\n")
    let error = dataError { () throws(DataError) in
      try Dataset.load(definition(path, target: "y", features: [column("y")], time: "date"))
    }
    #expect(error?.location.line == 2)
    #expect(error?.message.contains("declare another format with `time: {column: date, format: \"%Y/%m/%d\"}`") == true)
  }

  /// The hint's day and month order comes from the values: a second field above 12 puts the month first, a first
  /// field above 12 the day; when no value tells, both orders are offered. A year written first is `%Y/%m/%d`.
  @Test(arguments: [
    ("03/21/2020\n04/02/2020", "\"%m/%d/%Y\""),
    ("04/02/2020\n03/21/2020", "\"%m/%d/%Y\""),
    ("21/03/2020\n04/02/2020", "\"%d/%m/%Y\""),
    ("03/21/2020\n21/03/2020", "\"%d/%m/%Y\"}"),
    ("3-21-20 14:05\n4-2-20 09:00", "\"%m-%d-%y %H:%M\""),
    ("21.03.2020 14:05:09\n01.04.2020 09:00:00", "\"%d.%m.%Y %H:%M:%S\""),
    ("2020/03/21\n2020/04/02", "\"%Y/%m/%d\""),
  ])
  func theHintTakesTheOrderFromTheValues(dates: String, expected: String) throws {
    let rows = dates.split(separator: "\n").enumerated().map { "\($1),\($0 % 2)" }.joined(separator: "\n")
    let path = files.write("date,y\n\(rows)\n")
    let viaExpression = dataError { () throws(DataError) in
      try Dataset.load(definition(path, target: "y", features: [derived("month", "month(date)")]))
    }
    #expect(viaExpression?.location.line == 2)
    #expect(
      viaExpression?.message.contains("declare the column's format with `data: {formats: {date: \(expected)") == true,
      "\(viaExpression?.description ?? "no error")")
    let asTime = dataError { () throws(DataError) in
      try Dataset.load(definition(path, target: "y", features: [column("y")], time: "date"))
    }
    #expect(
      asTime?.message.contains("declare another format with `time: {column: date, format: \(expected)") == true,
      "\(asTime?.description ?? "no error")")
  }

  /// Values that cannot tell the order (no field above 12) get both orders, never a guess.
  @Test func undecidedValuesOfferBothOrders() throws {
    let path = files.write("date,y\n03/04/2020,1\n05/06/2020,0\n")
    let error = dataError { () throws(DataError) in
      try Dataset.load(definition(path, target: "y", features: [derived("month", "month(date)")]))
    }
    #expect(
      error?.message.hasSuffix(
        "`data: {formats: {date: \"%d/%m/%Y\"}}` if its dates put the day first, or "
          + "`data: {formats: {date: \"%m/%d/%Y\"}}` if the month first (its values do not tell which)") == true,
      "\(error?.description ?? "no error")")
  }

  @Test func aFormatNothingReadsAsTimeIsAnError() throws {
    let path = files.write("date,y\n2012/01/01,1\n2012/01/02,0\n")
    var unused = definition(path, target: "y", features: [column("date")])
    unused.timeFormats = ["date": try declared("%Y/%m/%d", line: 7)]
    let error = dataError { () throws(DataError) in try Dataset.load(unused) }
    #expect(error?.location == spec(7))
    #expect(error?.message.contains("has a declared format, but the spec never reads it as a time") == true)
    var misspelt = definition(path, target: "y", features: [derived("m", "month(date)")])
    misspelt.timeFormats = ["dates": try declared("%Y/%m/%d", line: 7)]
    let unknown = dataError { () throws(DataError) in try Dataset.load(misspelt) }
    #expect(unknown?.description == "spec.yaml:7: unknown column 'dates' in data.csv; did you mean 'date'?")
  }
}
