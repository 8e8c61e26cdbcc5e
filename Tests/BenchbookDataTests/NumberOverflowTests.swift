import BenchbookData
import Testing

/// A number too large for a `Double` is never infinity in the data: it is an error at its line and column.
@Suite struct NumberOverflowTests {
  let files = TemporaryFiles()
  static let hugeDigits = "9" + String(repeating: "1", count: 99_999)

  @Test(arguments: ["1e309", "-1e309", "1.8e308", hugeDigits, "0.5e400"])
  func overflowIsNotANumber(text: String) {
    #expect(NumberParser.parse(text) == nil)
    #expect(NumberParser.overflows(text))
  }

  @Test func theLargestDoubleAndUnderflowStillParse() {
    #expect(NumberParser.parse("1.7976931348623157e308") == .greatestFiniteMagnitude)
    #expect(NumberParser.parse("1e-400") == 0)
    #expect(!NumberParser.overflows("abc") && !NumberParser.overflows("inf") && !NumberParser.overflows("12"))
  }

  func loadError(_ csv: String, features: [FeatureDefinition], time: String? = nil) -> DataError? {
    let path = files.write(csv)
    return dataError { () throws(DataError) in
      try Dataset.load(definition(path, target: "y", features: features, time: time))
    }
  }

  @Test func overflowInAFeatureNamesLineAndColumn() {
    let csv = "a,b,y\n1,2,x\n3,4,z\n5,1e309,x\n7,8,z\n"
    for feature in [column("b"), column("b", type: .numeric)] {
      let error = loadError(csv, features: [column("a"), feature])
      #expect(error?.kind == .notANumber)
      #expect(error?.description.contains("data.csv:4: column 'b': '1e309' is too large") == true, "\(error!)")
    }
  }

  @Test func aHundredThousandDigitNumberIsShortenedInTheMessage() {
    let csv = "a,y\n1,x\n\(Self.hugeDigits),z\n3,x\n"
    let error = loadError(csv, features: [column("a")])
    #expect(error?.location.line == 3)
    #expect(error?.column == "a")
    #expect((error?.message.count ?? .max) < 200)
  }

  @Test func overflowInAnExpressionInputOrTheTarget() {
    let inExpression = loadError(
      "a,b,y\n1,2,x\n3,-2e400,z\n", features: [derived("d", "a - b")])
    #expect(inExpression?.description.contains("data.csv:3: column 'b': '-2e400' is too large") == true)
    let inTarget = loadError("a,y\n1,0\n2,1e999\n3,1\n", features: [column("a")])
    #expect(inTarget?.description.contains("data.csv:3: column 'y': '1e999' is too large") == true)
  }

  @Test func aCategoricalColumnKeepsItsTextAsALabel() throws {
    let path = files.write("a,c,y\n1,1e309,x\n2,2,z\n3,1e309,x\n4,2,z\n")
    let data = try Dataset.load(
      definition(path, target: "y", features: [column("a"), column("c", type: .categorical)]))
    #expect(data.columnNames.contains("c=1e309"))
  }

  @Test func anExpressionLiteralThatOverflows() {
    let error = dataError { () throws(DataError) in try FeatureExpression(parsing: "a * 1e999") }
    #expect(error?.message.contains("'1e999' is too large for a 64-bit floating-point number") == true)
  }
}
