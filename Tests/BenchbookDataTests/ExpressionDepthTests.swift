import BenchbookData
import Testing

/// Generated expressions deeper than the limit are located errors, never a stack overflow.
@Suite struct ExpressionDepthTests {
  let location = SourceLocation(file: "spec.yaml", line: 7, column: 9)

  func depthError(_ text: String) -> DataError? {
    dataError { () throws(DataError) in try FeatureExpression(parsing: text, location: location) }
  }

  func expectTooDeep(_ text: String) {
    let error = depthError(text)
    #expect(error?.kind == .invalidExpression)
    #expect(error?.location == location)
    #expect(error?.message.contains("nests more than 200 levels") == true, "\(error?.message ?? "no error")")
    #expect((error?.message.count ?? 0) < 400, "the message quotes only the start of a huge expression")
  }

  @Test func atTheLimitParses() throws {
    let parentheses = String(repeating: "(", count: 200) + "a" + String(repeating: ")", count: 200)
    #expect(try FeatureExpression(parsing: parentheses) == .column("a"))
    let sum = (0..<200).map { "x\($0)" }.joined(separator: " + ")
    #expect(try FeatureExpression(parsing: sum).columns.count == 200)
    let minus = String(repeating: "-", count: 199) + "a"
    #expect(try FeatureExpression(parsing: minus).columns == ["a"])
  }

  @Test func deepParentheses() {
    expectTooDeep(String(repeating: "(", count: 5_000) + "a" + String(repeating: ")", count: 5_000))
    expectTooDeep(String(repeating: "(", count: 1_000_000) + "a" + String(repeating: ")", count: 1_000_000))
  }

  @Test func deepFunctionCalls() {
    expectTooDeep(String(repeating: "abs(", count: 10_000) + "a" + String(repeating: ")", count: 10_000))
  }

  @Test func longSumsAndProducts() {
    expectTooDeep((0..<201).map { "x\($0)" }.joined(separator: " + "))
    expectTooDeep((0..<10_000).map { _ in "a" }.joined(separator: " + "))
    expectTooDeep((0..<10_000).map { _ in "2" }.joined(separator: "*"))
  }

  @Test func longRunsOfUnaryMinus() {
    expectTooDeep(String(repeating: "-", count: 201) + "a")
    expectTooDeep(String(repeating: "-", count: 1_000_000) + "a")
    expectTooDeep(String(repeating: "- ", count: 100_000) + "a")
  }

  @Test func positionPointsAtTheLevelThatPassesTheLimit() {
    let text = String(repeating: "(", count: 300) + "a" + String(repeating: ")", count: 300)
    #expect(depthError(text)?.message.contains("at position 201:") == true)
  }
}
