/// A derived feature's formula, e.g. `dep_time - sched_dep_time` or `hour(time_hour)`.
///
/// Grammar (usual precedence, left-associative):
/// ```
/// sum     := product (('+' | '-') product)*
/// product := unary (('*' | '/') unary)*
/// unary   := '-' unary | primary
/// primary := number | column | function '(' sum ')' | '(' sum ')'
/// column  := [A-Za-z_][A-Za-z0-9_]*  |  `any text but a backquote`
/// ```
/// Functions: `year month day weekday hour minute` (UTC parts of a
/// timestamp) and `log abs`. A name followed by `(` is a function call; any
/// other name is a column.
public indirect enum FeatureExpression: Sendable, Hashable, CustomStringConvertible {
  case number(Double)
  case column(String)
  case negate(FeatureExpression)
  case binary(Operator, FeatureExpression, FeatureExpression)
  case call(Function, FeatureExpression)

  /// The deepest tree the parser builds. Every walk over the tree recurses, so a bound keeps a generated
  /// expression (thousands of parentheses, a sum of thousands of terms) from exhausting the stack.
  public static let maximumDepth = 200

  public enum Operator: String, Sendable, Hashable, CaseIterable {
    case add = "+"
    case subtract = "-"
    case multiply = "*"
    case divide = "/"
  }

  public enum Function: String, Sendable, Hashable, CaseIterable {
    case year, month, day, weekday, hour, minute
    /// Natural logarithm; its argument must be positive.
    case log
    case abs
  }

  /// Parses an expression.
  /// - Parameter location: Where errors should point (the spec's feature entry).
  /// - Throws: `DataError` of kind `.invalidExpression`, giving the 1-based
  ///   character position of the problem.
  public init(parsing text: String, location: SourceLocation = SourceLocation(file: "<expression>")) throws(DataError) {
    var parser = ExpressionParser(text: text, location: location)
    self = try parser.parseAll()
  }

  /// Columns the expression reads, in order of first appearance.
  public var columns: [String] {
    var names: [String] = []
    func visit(_ node: FeatureExpression) {
      switch node {
      case .number: break
      case .column(let name): if !names.contains(name) { names.append(name) }
      case .negate(let inner), .call(_, let inner): visit(inner)
      case .binary(_, let left, let right):
        visit(left)
        visit(right)
      }
    }
    visit(self)
    return names
  }

  /// The expression written back with explicit parentheses around every operation.
  public var description: String {
    switch self {
    case .number(let value):
      return value == value.rounded() && Swift.abs(value) < 1e15 ? String(Int(value)) : "\(value)"
    case .column(let name):
      let plain =
        name.first.map { $0 == "_" || ($0.isASCII && $0.isLetter) } == true
        && name.allSatisfy { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
      return plain ? name : "`\(name)`"
    case .negate(let inner): return "-\(inner)"
    case .binary(let op, let left, let right): return "(\(left) \(op.rawValue) \(right))"
    case .call(let function, let argument): return "\(function.rawValue)(\(argument))"
    }
  }
}
