import BenchbookData
import Foundation
import Testing

/// Expected values for `Fixtures/small.csv(.gz)` were checked with pandas by
/// `Fixtures/make_fixtures.py` (run: `cd Fixtures && python3 make_fixtures.py`).
@Suite struct DatasetLoaderTests {
  let files = TemporaryFiles()

  @Test(arguments: ["small.csv.gz", "small.csv"])
  func loadsTheSmallFixture(name: String) throws {
    let path = Fixtures.path(name)
    let data = try Dataset.load(
      definition(
        path, target: "delay", when: Threshold(.greater, 15),
        features: [column("id"), column("carrier"), column("note", line: 11)], time: "time", missing: .drop))
    #expect(data.x.rows == 4)
    #expect(data.classes == ["0", "1"])
    #expect(data.labels == [1, 0, 1, 0])
    // Record 4 holds a quoted line break, so record 5 starts on line 7.
    #expect(data.lineNumbers == [2, 3, 5, 7])
    #expect(data.time == [1_357_034_400, 1_357_038_000, 1_362_092_400, 1_362_096_000])
    #expect(
      data.columnNames == [
        "id", "carrier=AA", "carrier=B6", "carrier=UA", "note=end", "note=has, comma", "note=plain",
        "note=two\nlines",
      ])
    #expect(data.x.row(0) == [1, 0, 0, 1, 0, 0, 1, 0])
    #expect(data.x.row(1) == [2, 1, 0, 0, 0, 1, 0, 0])
    #expect(data.x.row(2) == [4, 0, 1, 0, 0, 0, 0, 1])
    #expect(data.x.row(3) == [5, 1, 0, 0, 1, 0, 0, 0])
    #expect(
      data.features[0]
        == FeatureSummary(name: "id", type: .numeric, columns: 0..<1, minimum: 1, maximum: 5, missingCount: 0))
    #expect(
      data.features[1]
        == FeatureSummary(
          name: "carrier", type: .categorical, columns: 1..<4, categories: ["AA", "B6", "UA"], missingCount: 0))
    #expect(data.features[2].columns == 4..<8)
    let stored = try DataFile.storedBytes(atPath: path)
    #expect(
      data.provenance
        == DataProvenance(
          path: path, sha256: SHA256.hexDigest(stored), rowsRead: 5, droppedByColumn: ["delay": 1], droppedRows: 1))
    if name == "small.csv.gz" {
      #expect(data.provenance.sha256 == "29122613c69ee70d14cafb6fd344152ea50fd4473c950f87452aa5fc7f908e52")
    }
  }

  // MARK: Missing values

  private let withGaps = """
    t,a,b,when
    1,1,x,2013-01-01
    NA,,y,2013-01-02
    0,,null,2013-01-03
    1,2,N/A,
    0,3,z,
    1,4,x,2013-01-07
    0,5,NaN,2013-01-08
    0,6,y,2013-01-09

    """

  @Test func dropCountsEachRowOnceUnderItsFirstMissingColumn() throws {
    let data = try Dataset.load(
      definition(
        files.write(withGaps), target: "t", features: [column("b"), column("a")], time: "when", missing: .drop))
    #expect(data.lineNumbers == [2, 7, 9])
    #expect(data.provenance.rowsRead == 8)
    #expect(data.provenance.droppedRows == 5)
    #expect(data.provenance.droppedByColumn == ["t": 1, "b": 3, "when": 1])
    #expect(data.features.map(\.missingCount) == [3, 2])
    #expect(data.features[0].categories == ["x", "y"])
    #expect(data.classes == ["0", "1"])
    #expect(data.labels == [1, 1, 0])
    #expect(data.x == Matrix([[1, 0, 1], [1, 0, 4], [0, 1, 6]]))
  }

  @Test func errorPolicyNamesLineColumnAndTheFix() throws {
    let path = files.write(withGaps)
    let error = dataError { () throws(DataError) in
      try Dataset.load(definition(path, target: "t", features: [column("b"), column("a")], time: "when"))
    }
    #expect(error?.kind == .missingValue)
    #expect(error?.location == SourceLocation(file: path, line: 3))
    #expect(error?.column == "t")
    // The target is never imputed: the hint says so instead of offering an imputation the next run refuses.
    #expect(
      error?.description
        == "\(path):3: column 't': missing value ('NA'); set `missing: drop` to drop rows with missing values "
        + "(imputation fills only the column features it covers: not the target, the time column or expressions)")
    let empty = dataError { () throws(DataError) in
      try Dataset.load(definition(path, target: "a", features: [column("b")]))
    }
    #expect(empty?.description.hasPrefix("\(path):3: column 'a': missing value (an empty field)") == true)
  }

  /// The impute hint fits the column: a median for a number, `most_frequent` for a category (a median cannot fill
  /// one, so the next run would refuse it), none for a column only an expression reads.
  @Test func theImputeHintFitsTheColumnType() throws {
    let path = files.write("y,n,c,e\n1,1,x,1\n0,,,\n1,3,y,3\n")
    let numeric = dataError { () throws(DataError) in
      try Dataset.load(definition(path, target: "y", features: [column("n"), column("c")]))
    }
    #expect(numeric?.column == "n")
    #expect(
      numeric?.message.hasSuffix("`preprocess: [{impute: {strategy: median}}]`") == true,
      "\(String(describing: numeric))")
    let categorical = dataError { () throws(DataError) in
      try Dataset.load(definition(path, target: "y", features: [column("c"), column("n")]))
    }
    #expect(categorical?.column == "c")
    #expect(
      categorical?.message.contains(
        "or impute them inside the folds with `preprocess: [{impute: {strategy: most_frequent}}]` (the column is "
          + "categorical") == true, "\(String(describing: categorical))")
    #expect(categorical?.message.contains("median}") == false)
    let declared = dataError { () throws(DataError) in
      try Dataset.load(definition(path, target: "y", features: [column("n", type: .categorical)]))
    }
    #expect(declared?.message.contains("{strategy: most_frequent}") == true, "\(String(describing: declared))")
    let expression = dataError { () throws(DataError) in
      try Dataset.load(definition(path, target: "y", features: [derived("twice", "e * 2")]))
    }
    #expect(expression?.column == "e")
    #expect(expression?.message.contains("not the target, the time column or expressions") == true)
  }

  @Test func onlyUsedColumnsAreCheckedForMissingValues() throws {
    let path = files.write("y,x,unused\n1,1,\n0,2,NA\n")
    let data = try Dataset.load(definition(path, target: "y", features: [column("x")]))
    #expect(data.x.rows == 2)
  }

  // MARK: Types

  @Test func nonNumberInDeclaredNumericColumn() {
    let path = files.write("y,a\n1,1\n0,2\n1,abc\n")
    let error = dataError { () throws(DataError) in
      try Dataset.load(definition(path, target: "y", features: [column("a", type: .numeric)]))
    }
    #expect(error?.kind == .notANumber)
    #expect(error?.location == SourceLocation(file: path, line: 4))
    #expect(error?.column == "a")
    #expect(error?.description.hasPrefix("\(path):4: column 'a': 'abc' is not a number") == true)
  }

  @Test func mostlyNumericColumnIsAnErrorUnlessDeclaredCategorical() throws {
    let path = files.write("y,a\n1,1\n0,2\n1,3\n0,x\n")
    let error = dataError { () throws(DataError) in
      try Dataset.load(definition(path, target: "y", features: [column("a")]))
    }
    #expect(error?.kind == .notANumber)
    #expect(error?.location.line == 5)
    #expect(error?.message.contains("'x' is not a number") == true)
    #expect(error?.message.contains("`type: categorical`") == true)

    let data = try Dataset.load(definition(path, target: "y", features: [column("a", type: .categorical)]))
    #expect(data.features[0].categories == ["1", "2", "3", "x"])
    #expect(data.columnNames == ["a=1", "a=2", "a=3", "a=x"])
  }

  @Test func mostlyTextColumnIsCategorical() throws {
    let data = try Dataset.load(
      definition(files.write("y,a\n1,red\n0,blue\n1,7\n0,red\n"), target: "y", features: [column("a")]))
    #expect(data.features[0].type == .categorical)
    #expect(data.features[0].categories == ["7", "blue", "red"])
  }

  /// Numeric categories sort by value like `np.unique` on numbers; equal
  /// values share the first-written label.
  @Test func numericCategoriesSortByValue() throws {
    let path = files.write("y,k\n1,10\n0,9\n1,1.0\n0,1\n1,2\n0,-3\n")
    let data = try Dataset.load(definition(path, target: "y", features: [column("k", type: .categorical)]))
    #expect(data.features[0].categories == ["-3", "1.0", "2", "9", "10"])
    #expect(data.columnNames == ["k=-3", "k=1.0", "k=2", "k=9", "k=10"])
    #expect(data.x.column(1) == [0, 0, 1, 1, 0, 0])
    #expect(data.x.column(4) == [1, 0, 0, 0, 0, 0])
  }

  @Test func textCategoriesSortByCodePoint() throws {
    let path = files.write("y,c\n1,b\n0,a\n1,B\n0,é\n1,a\n0,Z\n")
    let data = try Dataset.load(definition(path, target: "y", features: [column("c")]))
    #expect(data.features[0].categories == ["B", "Z", "a", "b", "é"])
  }

  // MARK: Target and classes

  @Test func numericClassLabelsOrderByValue() throws {
    let path = files.write("y,x\n10,1\n9,2\n-1,3\n9,4\n2.5,5\n")
    let data = try Dataset.load(definition(path, target: "y", features: [column("x")]))
    #expect(data.classes == ["-1", "2.5", "9", "10"])
    #expect(data.labels == [3, 2, 0, 2, 1])
  }

  @Test func textClassLabelsOrderByCodePoint() throws {
    let path = files.write("y,x\nb,1\na,2\nB,3\né,4\na,5\n")
    let data = try Dataset.load(definition(path, target: "y", features: [column("x")]))
    #expect(data.classes == ["B", "a", "b", "é"])
    #expect(data.labels == [2, 1, 0, 3, 1])
  }

  @Test(arguments: [
    (Threshold(.greater, 15), [1, 0, 0, 1]), (Threshold(.greaterOrEqual, 15), [1, 1, 0, 1]),
    (Threshold(.less, 15), [0, 0, 1, 0]), (Threshold(.lessOrEqual, 15), [0, 1, 1, 0]),
    (Threshold(.equal, 15), [0, 1, 0, 0]),
  ])
  func thresholdsBinarise(when: Threshold, labels: [Int]) throws {
    let path = files.write("d,x\n20,1\n15,2\n-3,3\n1e3,4\n")
    let data = try Dataset.load(definition(path, target: "d", when: when, features: [column("x")]))
    #expect(data.classes == ["0", "1"])
    #expect(data.labels == labels)
  }

  @Test func constantTargetNamesItsClass() {
    let path = files.write("y,x\nyes,1\nyes,2\nyes,3\n")
    let error = dataError { () throws(DataError) in
      try Dataset.load(definition(path, target: "y", features: [column("x")]))
    }
    #expect(error?.kind == .invalidTarget)
    #expect(error?.location == spec(5))
    #expect(
      error?.description
        == "spec.yaml:5: target 'y' has a single class 'yes' in all 3 rows; a classifier needs at least two")

    let never = dataError { () throws(DataError) in
      try Dataset.load(definition(path, target: "x", when: Threshold(.greater, 15), features: []))
    }
    #expect(never?.message.contains("single class '0'") == true)
    #expect(never?.message.contains("never true") == true)
  }

  @Test func singleClassAfterDropping() {
    let path = files.write("y,x\na,1\nb,NA\na,3\nb,\n")
    let error = dataError { () throws(DataError) in
      try Dataset.load(definition(path, target: "y", features: [column("x")], missing: .drop))
    }
    #expect(error?.kind == .invalidTarget)
    #expect(error?.message.contains("single class 'a' in all 2 rows") == true)
    let allGone = files.write("y,x\na,NA\nb,\n", name: "gone.csv")
    let none = dataError { () throws(DataError) in
      try Dataset.load(definition(allGone, target: "y", features: [column("x")], missing: .drop))
    }
    #expect(none?.message.contains("all 2 rows were dropped") == true)
  }

  @Test func thresholdOnTextTargetIsAnError() {
    let path = files.write("y,x\n1,1\nlate,2\n")
    let error = dataError { () throws(DataError) in
      try Dataset.load(definition(path, target: "y", when: Threshold(.greater, 15), features: [column("x")]))
    }
    #expect(error?.kind == .notANumber)
    #expect(error?.location.line == 3)
    #expect(error?.message.contains("`when: > 15`") == true)
  }

  // MARK: Unknown columns

  @Test func unknownColumnSuggestsTheClosestHeaderName() {
    let path = files.write("arr_delay,dep_time,distance\n1,2,3\n", name: "flights.csv")
    let error = dataError { () throws(DataError) in
      try Dataset.load(definition(path, target: "arr_dela", features: [column("distance")]))
    }
    #expect(error?.kind == .unknownColumn)
    #expect(error?.column == "arr_dela")
    #expect(error?.description == "spec.yaml:5: unknown column 'arr_dela' in flights.csv; did you mean 'arr_delay'?")

    let feature = dataError { () throws(DataError) in
      try Dataset.load(definition(path, target: "arr_delay", features: [column("Distance", line: 14)]))
    }
    #expect(feature?.location == spec(14))
    #expect(feature?.message.hasSuffix("did you mean 'distance'?") == true)

    let far = dataError { () throws(DataError) in
      try Dataset.load(definition(path, target: "arr_delay", features: [column("origin")]))
    }
    #expect(
      far?.message == "unknown column 'origin' in flights.csv; its columns are 'arr_delay', 'dep_time', 'distance'")

    let inExpression = dataError { () throws(DataError) in
      try Dataset.load(definition(path, target: "arr_delay", features: [derived("gap", "dep_tme - 1")]))
    }
    #expect(inExpression?.location == spec(20))
    #expect(
      inExpression?.message
        == "unknown column 'dep_tme' in flights.csv (used in expression 'dep_tme - 1'); did you mean 'dep_time'?")

    let time = dataError { () throws(DataError) in
      try Dataset.load(definition(path, target: "arr_delay", features: [], time: "time_hour"))
    }
    #expect(time?.location == spec(30))
  }

  // MARK: Derived features

  private let timed = """
    y,deadline,launched_at,a,b,time_hour,unix
    1,2013-01-02T00:00:00Z,2013-01-01T12:00:00Z,4,2,2013-01-01T10:00:00Z,18000
    0,2013-01-03,2013-01-01,9,3,2013-06-15T23:30:00+02:00,1357034400

    """

  @Test func expressionsOverNumbersAndTimestamps() throws {
    let data = try Dataset.load(
      definition(
        files.write(timed), target: "y",
        features: [
          derived("duration", "deadline - launched_at"), derived("ratio", "a / b"), derived("hour", "hour(time_hour)"),
          derived("weekday", "weekday(time_hour)"), derived("month", "month(time_hour)"),
          derived("day", "day(time_hour)"), derived("minute", "minute(time_hour)"), derived("year", "year(deadline)"),
          derived("mix", "-a + abs(b - 10) * 2"), derived("log", "log(a)"), derived("unixHour", "hour(unix)"),
          derived("hours", "(deadline - launched_at) / 3600"),
        ]))
    #expect(data.x.column(0) == [43_200, 172_800])
    #expect(data.x.column(1) == [2, 3])
    #expect(data.x.column(2) == [10, 21])
    #expect(data.x.column(3) == [1, 5])
    #expect(data.x.column(4) == [1, 6])
    #expect(data.x.column(5) == [1, 15])
    #expect(data.x.column(6) == [0, 30])
    #expect(data.x.column(7) == [2013, 2013])
    #expect(data.x.column(8) == [12, 5])
    #expect(data.x.column(9) == [Double.log(4), Double.log(9)])
    #expect(data.x.column(10) == [5, 10])
    #expect(data.x.column(11) == [12, 48])
    #expect(data.features.allSatisfy { $0.type == .numeric })
    #expect(data.features[2].minimum == 10 && data.features[2].maximum == 21)
  }

  @Test func categoricalExpressionSortsByValue() throws {
    let data = try Dataset.load(
      definition(files.write(timed), target: "y", features: [derived("hour", "hour(unix)", type: .categorical)]))
    #expect(data.columnNames == ["hour=5", "hour=10"])
    #expect(data.x == Matrix([[1, 0], [0, 1]]))
  }

  @Test func divisionByZeroNamesTheLine() {
    let path = files.write("y,a,b\n1,1,2\n0,3,0\n")
    let error = dataError { () throws(DataError) in
      try Dataset.load(definition(path, target: "y", features: [derived("ratio", "a / b")]))
    }
    #expect(error?.kind == .evaluation)
    #expect(error?.description == "\(path):3: column 'ratio': division by zero in 'a / b'")
  }

  @Test func logOfNonPositiveIsAnError() {
    let path = files.write("y,a\n1,1\n0,0\n")
    let error = dataError { () throws(DataError) in
      try Dataset.load(definition(path, target: "y", features: [derived("l", "log(a)")]))
    }
    #expect(error?.kind == .evaluation)
    #expect(error?.location.line == 3)
  }

  @Test func missingInputMeansMissingOutput() throws {
    let path = files.write("y,a,b\n1,1,2\n0,NA,1\n1,3,\n0,4,4\n")
    let data = try Dataset.load(
      definition(path, target: "y", features: [derived("s", "b + a"), column("a")], missing: .drop))
    #expect(data.x == Matrix([[3, 1], [8, 4]]))
    #expect(data.provenance.droppedByColumn == ["b": 1, "a": 1])
    #expect(data.features[0].missingCount == 2)
    #expect(data.features[1].missingCount == 1)
    let error = dataError { () throws(DataError) in
      try Dataset.load(definition(path, target: "y", features: [derived("s", "b + a")]))
    }
    #expect(error?.kind == .missingValue)
    #expect(error?.column == "a")
    #expect(error?.location.line == 3)
  }

  @Test func expressionInputMustBeNumbersOrTimestamps() {
    let path = files.write("y,a,c\n1,1,red\n0,2,2013-01-01\n")
    let error = dataError { () throws(DataError) in
      try Dataset.load(definition(path, target: "y", features: [derived("d", "c - a")]))
    }
    #expect(error?.kind == .notANumber)
    #expect(error?.column == "c")
    #expect(error?.location.line == 2)
    #expect(error?.message.contains("neither a number nor a timestamp") == true)
  }

  @Test func expressionSyntaxErrorsPointAtTheFeature() {
    let path = files.write("y,a\n1,1\n0,2\n")
    let error = dataError { () throws(DataError) in
      try Dataset.load(definition(path, target: "y", features: [derived("d", "a +", line: 21)]))
    }
    #expect(error?.kind == .invalidExpression)
    #expect(error?.location == spec(21))
    #expect(error?.description.hasPrefix("spec.yaml:21: invalid expression 'a +' at position 4") == true)
  }

  // MARK: Time column and files

  @Test func timeColumnMayBeUnixSecondsAndMustParse() throws {
    let numeric = files.write("y,x,t\n1,1,100\n0,2,50.5\n")
    #expect(try Dataset.load(definition(numeric, target: "y", features: [column("x")], time: "t")).time == [100, 50.5])
    let bad = files.write("y,x,t\n1,1,2013-01-01\n0,2,soon\n", name: "bad.csv")
    let error = dataError { () throws(DataError) in
      try Dataset.load(definition(bad, target: "y", features: [column("x")], time: "t"))
    }
    #expect(error?.kind == .notATimestamp)
    #expect(error?.location == SourceLocation(file: bad, line: 3))
    #expect(error?.description.hasPrefix("\(bad):3: column 't': 'soon' is not a timestamp") == true)
  }

  @Test func missingFilePointsAtTheSpec() {
    let path = files.directory + "/absent.csv.gz"
    let error = dataError { () throws(DataError) in try Dataset.load(definition(path, target: "y", features: [])) }
    #expect(error?.kind == .unreadableFile)
    #expect(error?.location == spec(2))
    #expect(error?.description.hasPrefix("spec.yaml:2: cannot open data file '\(path)'") == true)
  }

  @Test func raggedFileStopsTheLoad() {
    let path = files.write("y,x,z\n1,2,3\n4,5\n")
    let error = dataError { () throws(DataError) in
      try Dataset.load(definition(path, target: "y", features: [column("x")]))
    }
    #expect(error?.description == "\(path):3: expected 3 fields as in the header, found 2")
  }

  @Test func columnsMayServeSeveralRoles() throws {
    let path = files.write("y,t\n1,2013-01-01T01:00:00Z\n0,2013-01-01T02:00:00Z\n")
    let data = try Dataset.load(
      definition(path, target: "y", features: [derived("h", "hour(t)"), column("t")], time: "t"))
    #expect(data.x.column(0) == [1, 2])
    #expect(data.features[1].categories == ["2013-01-01T01:00:00Z", "2013-01-01T02:00:00Z"])
    #expect(data.time == [1_356_998_400 + 3_600, 1_356_998_400 + 7_200])
  }

  @Test func crlfBomAndQuotesThroughTheLoader() throws {
    let path = files.write("\u{FEFF}y,\"x\"\r\n1,\"1\"\r\n0,2\r\n\r\n")
    let data = try Dataset.load(definition(path, target: "y", features: [column("x")]))
    #expect(data.x == Matrix([[1], [2]]))
    #expect(data.classes == ["0", "1"])
    #expect(data.lineNumbers == [2, 3])
  }
}

extension Double {
  fileprivate static func log(_ x: Double) -> Double { Foundation.log(x) }
}
