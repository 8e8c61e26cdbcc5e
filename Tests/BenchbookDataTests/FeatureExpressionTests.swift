import BenchbookData
import Testing

@Suite struct FeatureExpressionTests {
  @Test(arguments: [
    ("a + b * c", "(a + (b * c))"),
    ("a - b - c", "((a - b) - c)"),
    ("a / b / 2", "((a / b) / 2)"),
    ("(a + b) * c", "((a + b) * c)"),
    ("-a * -2", "(-a * -2)"),
    ("--a", "--a"),
    ("hour(time_hour)", "hour(time_hour)"),
    ("log(abs(x) + 1)", "log((abs(x) + 1))"),
    ("`dep time` - `sched-dep`", "(`dep time` - `sched-dep`)"),
    ("deadline - launched_at", "(deadline - launched_at)"),
    ("1.5e3 * .5", "(1500 * 0.5)"),
    (" year ( t ) ", "year(t)"),
    ("log", "log"),
    ("_x1", "_x1"),
  ])
  func parsesWithPrecedence(text: String, shape: String) throws {
    let expression = try FeatureExpression(parsing: text)
    #expect(expression.description == shape)
  }

  @Test func listsColumnsInOrderOnce() throws {
    let expression = try FeatureExpression(parsing: "(b - a) / (b + hour(`c d`))")
    #expect(expression.columns == ["b", "a", "c d"])
    #expect(try FeatureExpression(parsing: "2 * 3").columns.isEmpty)
  }

  @Test func buildsTheExpectedTree() throws {
    let expression = try FeatureExpression(parsing: "-x / weekday(t)")
    #expect(expression == .binary(.divide, .negate(.column("x")), .call(.weekday, .column("t"))))
  }

  @Test(arguments: [
    ("", 1, "empty"),
    ("a +", 4, "ends early"),
    ("a + * b", 5, "unexpected '*'"),
    ("(a + b", 7, "expected ')' to close the '(' at position 1"),
    ("a b", 3, "unexpected 'b'"),
    ("hour(t", 7, "expected ')' to close the '(' at position 5"),
    ("sqrt(x)", 1, "unknown function 'sqrt'"),
    ("`abc", 1, "never closed"),
    ("``", 1, "empty column name"),
    ("a # b", 3, "unexpected '#'"),
    ("a)", 2, "unexpected ')'"),
    ("é + 1", 1, "unexpected 'é'"),
  ])
  func reportsPositions(text: String, position: Int, words: String) {
    let location = SourceLocation(file: "spec.yaml", line: 12, column: 5)
    let error = dataError { () throws(DataError) in try FeatureExpression(parsing: text, location: location) }
    #expect(error?.kind == .invalidExpression)
    #expect(error?.location == location)
    #expect(error?.message.contains("at position \(position):") == true, "\(error?.message ?? "no error")")
    #expect(error?.message.contains(words) == true, "\(error?.message ?? "no error")")
  }
}
