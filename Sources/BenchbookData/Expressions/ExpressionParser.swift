/// Recursive-descent parser for `FeatureExpression`, over characters so error
/// positions count what a user sees.
///
/// The tree it builds is at most `FeatureExpression.maximumDepth` levels deep,
/// and its own recursion is bounded by the same limit, so neither parsing nor
/// anything that walks the tree later (evaluation, hashing, printing, freeing)
/// can run out of stack on a hostile or generated expression.
struct ExpressionParser {
  private let text: String
  private let characters: [Character]
  private let location: SourceLocation
  private var index = 0
  /// Open parentheses and function calls around the current position.
  private var nesting = 0

  /// A parsed subtree and its depth (a leaf is 1), so the limit is checked as the tree grows.
  private struct Parsed {
    var expression: FeatureExpression
    var depth: Int
  }

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
    return expression.expression
  }

  private func failure(_ message: String, at position: Int? = nil) -> DataError {
    let column = (position ?? index) + 1
    let shown = characters.count > 60 ? "\(String(characters.prefix(60)))…" : text
    return DataError(
      .invalidExpression, at: location, "invalid expression '\(shown)' at position \(column): \(message)")
  }

  private func tooDeep(at position: Int) -> DataError {
    failure(
      "nests more than \(FeatureExpression.maximumDepth) levels deep (each parenthesis, function call, unary minus "
        + "and chained operator adds one); simplify it", at: position)
  }

  /// A node over `children`, refused when it would pass the depth limit.
  private func node(_ expression: FeatureExpression, over children: Parsed..., at position: Int) throws(DataError)
    -> Parsed
  {
    let depth = (children.map(\.depth).max() ?? 0) + 1
    guard depth <= FeatureExpression.maximumDepth else { throw tooDeep(at: position) }
    return Parsed(expression: expression, depth: depth)
  }

  private mutating func skipSpaces() {
    while index < characters.count && characters[index].isWhitespace { index += 1 }
  }

  private mutating func parseSum() throws(DataError) -> Parsed {
    var left = try parseProduct()
    while true {
      skipSpaces()
      guard index < characters.count, let op = FeatureExpression.Operator(rawValue: String(characters[index])),
        op == .add || op == .subtract
      else { return left }
      let position = index
      index += 1
      let right = try parseProduct()
      left = try node(.binary(op, left.expression, right.expression), over: left, right, at: position)
    }
  }

  private mutating func parseProduct() throws(DataError) -> Parsed {
    var left = try parseUnary()
    while true {
      skipSpaces()
      guard index < characters.count, let op = FeatureExpression.Operator(rawValue: String(characters[index])),
        op == .multiply || op == .divide
      else { return left }
      let position = index
      index += 1
      let right = try parseUnary()
      left = try node(.binary(op, left.expression, right.expression), over: left, right, at: position)
    }
  }

  /// A run of minus signs is counted in a loop rather than by recursion.
  private mutating func parseUnary() throws(DataError) -> Parsed {
    var signs: [Int] = []
    skipSpaces()
    while index < characters.count && characters[index] == "-" {
      guard signs.count < FeatureExpression.maximumDepth else { throw tooDeep(at: index) }
      signs.append(index)
      index += 1
      skipSpaces()
    }
    var operand = try parsePrimary()
    for position in signs.reversed() {
      operand = try node(.negate(operand.expression), over: operand, at: position)
    }
    return operand
  }

  /// Enters a parenthesis or call, refusing nesting past the depth limit before recursing.
  private mutating func nested(openedAt open: Int) throws(DataError) -> Parsed {
    guard nesting < FeatureExpression.maximumDepth else { throw tooDeep(at: open) }
    nesting += 1
    defer { nesting -= 1 }
    let inner = try parseSum()
    try expectClosing(openedAt: open)
    return inner
  }

  private mutating func parsePrimary() throws(DataError) -> Parsed {
    skipSpaces()
    guard index < characters.count else {
      throw failure("the expression ends early; expected a number, a column or '('")
    }
    let start = index
    let c = characters[index]
    if c == "(" {
      index += 1
      return try nested(openedAt: start)
    }
    if c == "`" {
      index += 1
      let nameStart = index
      while index < characters.count && characters[index] != "`" { index += 1 }
      guard index < characters.count else { throw failure("the backquoted column name is never closed", at: start) }
      let name = String(characters[nameStart..<index])
      index += 1
      guard !name.isEmpty else { throw failure("empty column name in backquotes", at: start) }
      return Parsed(expression: .column(name), depth: 1)
    }
    if c.isASCII && (c.isNumber || c == ".") {
      return Parsed(expression: .number(try parseNumber()), depth: 1)
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
        return Parsed(expression: .column(name), depth: 1)
      }
      guard let function = FeatureExpression.Function(rawValue: name) else {
        let known = FeatureExpression.Function.allCases.map(\.rawValue).joined(separator: ", ")
        throw failure("unknown function '\(name)'; known functions: \(known)", at: start)
      }
      let open = index
      index += 1
      let argument = try nested(openedAt: open)
      return try node(.call(function, argument.expression), over: argument, at: start)
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
    guard let value = NumberParser.parse(literal) else {
      let problem =
        NumberParser.overflows(literal) ? "is too large for a 64-bit floating-point number" : "is not a number"
      throw failure("'\(literal)' \(problem)", at: start)
    }
    return value
  }
}
