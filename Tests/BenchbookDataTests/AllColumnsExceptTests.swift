import BenchbookData
import Testing

/// `features: {all_except: […]}`: every other column in file order, the target, time and availability
/// columns left out unless listed, types declared per column, and errors at the spec entries.
@Suite struct AllColumnsExceptTests {
  let files = TemporaryFiles()

  private func definition(
    _ path: String, except: [String], types: [(String, FeatureType)] = [], also: [FeatureDefinition] = [],
    time: String? = nil
  ) -> DatasetDefinition {
    var definition = BenchbookDataTests.definition(path, target: "y", features: also, time: time)
    definition.allExcept = AllColumnsExcept(
      excluded: except.enumerated().map { ColumnReference(column: $1, location: spec(40 + $0)) },
      types: types.enumerated().map {
        AllColumnsExcept.TypedColumn(column: ColumnReference(column: $1.0, location: spec(50 + $0)), type: $1.1)
      }, location: spec(39))
    return definition
  }

  let wide = "id,a,y,b,when,c\n1,2,1,x,2013-01-01,5\n2,3,0,y,2013-01-02,6\n3,4,1,x,2013-01-03,7\n"

  @Test func takesTheOtherColumnsInFileOrder() throws {
    let path = files.write(wide)
    let data = try Dataset.load(definition(path, except: ["id"], time: "when"))
    #expect(data.features.map(\.name) == ["a", "b", "c"])
    #expect(data.features.map(\.type) == [.numeric, .categorical, .numeric])
    #expect(data.columnNames == ["a", "b=x", "b=y", "c"])
    // The same as listing them.
    let listed = try Dataset.load(
      BenchbookDataTests.definition(path, target: "y", features: [column("a"), column("b"), column("c")], time: "when"))
    #expect(data.x == listed.x)
    #expect(data.features.map(\.name) == listed.features.map(\.name))
  }

  @Test func typesAndListedFeatures() throws {
    let path = files.write(wide)
    let data = try Dataset.load(
      definition(
        path, except: ["id", "when"], types: [("a", .categorical)], also: [derived("later", "c * 2"), column("when")]))
    #expect(data.features.map(\.name) == ["a", "b", "c", "later", "when"])
    #expect(data.features[0].type == .categorical)
    let renamed = FeatureDefinition(name: "renamed_when", source: .column("when"), location: spec(12))
    let resolved = try definition(path, except: ["id"], also: [renamed])
      .resolvingFeatures(header: ["id", "a", "y", "b", "when", "c"])
    #expect(resolved.allExcept == nil)
    #expect(resolved.features.map(\.name) == ["a", "b", "c", "renamed_when"], "a listed column is not taken again")
  }

  @Test func availabilityColumnsAreLeftOut() throws {
    var definition = definition(files.write(wide), except: ["id"])
    definition.predictAt = AvailabilityTime(source: .column("when"), location: spec(60))
    definition.features = [
      FeatureDefinition(
        name: "c", source: .column("c"), location: spec(61),
        availableAt: AvailabilityTime(source: .expression("when + 60 * a"), location: spec(62)))
    ]
    let resolved = try definition.resolvingFeatures(header: ["id", "a", "y", "b", "when", "c"])
    // `a` is read by c's available_at, `when` by predict_at, `c` is listed: only `b` is taken.
    #expect(resolved.features.map(\.name) == ["b", "c"])
  }

  @Test func unknownNamesPointAtTheirEntryWithTheNearestColumn() throws {
    let path = files.write(wide)
    let error = dataError { () throws(DataError) in try Dataset.load(definition(path, except: ["id", "whne"])) }
    #expect(error?.description == "spec.yaml:41: unknown column 'whne' in data.csv; did you mean 'when'?")
    let typed = dataError { () throws(DataError) in
      try Dataset.load(definition(path, except: ["id"], types: [("bb", .numeric)]))
    }
    #expect(typed?.location == spec(50))
    #expect(typed?.message.contains("did you mean 'b'?") == true)
    let excluded = dataError { () throws(DataError) in
      try Dataset.load(definition(path, except: ["id"], types: [("y", .categorical)]))
    }
    #expect(excluded?.location == spec(50))
    #expect(excluded?.message.contains("it is the target") == true)
  }

  @Test func nothingLeftOrANameTakenTwiceIsAnError() throws {
    let path = files.write("y,x\n1,2\n0,3\n")
    let empty = dataError { () throws(DataError) in try Dataset.load(definition(path, except: ["x"])) }
    #expect(empty?.location == spec(39))
    #expect(empty?.message.contains("all_except leaves no column of data.csv to use as a feature") == true)
    let twice = dataError { () throws(DataError) in
      try Dataset.load(definition(path, except: [], also: [derived("x", "x * 2", line: 21)]))
    }
    #expect(twice?.location == spec(21))
    #expect(twice?.message.contains("feature 'x' is also a column all_except takes") == true)
  }

  @Test func rowNamesAreNeverTaken() throws {
    let path = files.write("\"\",y,x\n\"a\",1,2\n\"b\",0,3\n")
    let data = try Dataset.load(definition(path, except: []))
    #expect(data.features.map(\.name) == ["x"])
  }
}
