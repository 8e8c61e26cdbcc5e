/// Recursive-descent parser for `FeatureExpression`, over characters so error
/// positions count what a user sees.
struct ExpressionParser {
  private let text: String
  private let characters: [Character]
  private let location: SourceLocation
  private var index = 0

  init(text: String, location: SourceLocation) {
    self.text = text
    self.characters = Array(text)
    self.location = location
  }

  mutating func parseAll() throws(DataError) -> FeatureExpression {
    skipSpaces()
    guard index < characters.count else { throw failure("the expression is empty") }
    let expression = try parseSum()
    skipSpaces()
    guard index == characters.count else {
      throw failure("unexpected '\(characters[index])'; expected an operator (+ - * /) or the end")
    }
    return expression
  }

  private func failure(_ message: String, at position: Int? = nil) -> DataError {
    let column = (position ?? index) + 1
    return DataError(.invalidExpression, at: location, "invalid expression '\(text)' at position \(column): \(message)")
  }

  private mutating func skipSpaces() {
    while index < characters.count && characters[index].isWhitespace { index += 1 }
  }

  private mutating func parseSum() throws(DataError) -> FeatureExpression {
    var left = try parseProduct()
    while true {
      skipSpaces()
      guard index < characters.count, let op = FeatureExpression.Operator(rawValue: String(characters[index])),
        op == .add || op == .subtract
      else { return left }
      index += 1
      left = .binary(op, left, try parseProduct())
    }
  }

  private mutating func parseProduct() throws(DataError) -> FeatureExpression {
    var left = try parseUnary()
    while true {
      skipSpaces()
      guard index < characters.count, let op = FeatureExpression.Operator(rawValue: String(characters[index])),
        op == .multiply || op == .divide
      else { return left }
      index += 1
      left = .binary(op, left, try parseUnary())
    }
  }

  private mutating func parseUnary() throws(DataError) -> FeatureExpression {
    skipSpaces()
    if index < characters.count && characters[index] == "-" {
      index += 1
      return .negate(try parseUnary())
    }
    return try parsePrimary()
  }

  private mutating func parsePrimary() throws(DataError) -> FeatureExpression {
    skipSpaces()
    guard index < characters.count else {
      throw failure("the expression ends early; expected a number, a column or '('")
    }
    let start = index
    let c = characters[index]
    if c == "(" {
      index += 1
      let inner = try parseSum()
      try expectClosing(openedAt: start)
      return inner
    }
    if c == "`" {
      index += 1
      let nameStart = index
      while index < characters.count && characters[index] != "`" { index += 1 }
      guard index < characters.count else { throw failure("the backquoted column name is never closed", at: start) }
      let name = String(characters[nameStart..<index])
      index += 1
      guard !name.isEmpty else { throw failure("empty column name in backquotes", at: start) }
      return .column(name)
    }
    if c.isASCII && (c.isNumber || c == ".") {
      return .number(try parseNumber())
    }
    if c == "_" || (c.isASCII && c.isLetter) {
      while index < characters.count,
        characters[index] == "_"
          || (characters[index].isASCII && (characters[index].isLetter || characters[index].isNumber))
      {
        index += 1
      }
      let name = String(characters[start..<index])
      let afterName = index
      skipSpaces()
      guard index < characters.count && characters[index] == "(" else {
        index = afterName
        return .column(name)
      }
      guard let function = FeatureExpression.Function(rawValue: name) else {
        let known = FeatureExpression.Function.allCases.map(\.rawValue).joined(separator: ", ")
        throw failure("unknown function '\(name)'; known functions: \(known)", at: start)
      }
      let open = index
      index += 1
      let argument = try parseSum()
      try expectClosing(openedAt: open)
      return .call(function, argument)
    }
    throw failure("unexpected '\(c)'; expected a number, a column or '('")
  }

  private mutating func expectClosing(openedAt open: Int) throws(DataError) {
    skipSpaces()
    guard index < characters.count && characters[index] == ")" else {
      if index < characters.count {
        throw failure("expected ')' to close the '(' at position \(open + 1), found '\(characters[index])'")
      }
      throw failure("expected ')' to close the '(' at position \(open + 1)")
    }
    index += 1
  }

  /// `12`, `1.5`, `.5`, `2e3`, `1.5E-3`.
  private mutating func parseNumber() throws(DataError) -> Double {
    let start = index
    func isDigit(_ i: Int) -> Bool { i < characters.count && characters[i].isASCII && characters[i].isNumber }
    while isDigit(index) { index += 1 }
    if index < characters.count && characters[index] == "." {
      index += 1
      while isDigit(index) { index += 1 }
    }
    if index < characters.count && (characters[index] == "e" || characters[index] == "E") {
      var look = index + 1
      if look < characters.count && (characters[look] == "+" || characters[look] == "-") { look += 1 }
      if isDigit(look) {
        index = look
        while isDigit(index) { index += 1 }
      }
    }
    let literal = String(characters[start..<index])
    guard let value = NumberParser.parse(literal) else { throw failure("'\(literal)' is not a number", at: start) }
    return value
  }
}
