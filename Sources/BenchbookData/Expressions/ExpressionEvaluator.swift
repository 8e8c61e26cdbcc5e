#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Computes a `FeatureExpression` for many rows at once, one operation over
/// whole arrays at a time, so the tree is walked once rather than per row.
///
/// `NaN` stands for a missing value and propagates: a row missing an input is
/// missing in the result.
struct ExpressionEvaluator {
  /// The text as the user wrote it, for messages.
  let text: String
  /// The derived feature's name, for messages.
  let featureName: String
  /// The data file as errors name it.
  let path: String
  /// Line of each evaluated row.
  let lineNumbers: LineNumbers
  /// Every input column's values (numbers, or timestamps in seconds) for the evaluated rows.
  let inputs: [String: [Double]]

  func evaluate(_ expression: FeatureExpression) throws(DataError) -> [Double] {
    switch expression {
    case .number(let value):
      return [Double](repeating: value, count: lineNumbers.count)
    case .column(let name):
      guard let values = inputs[name] else { preconditionFailure("column '\(name)' was not loaded") }
      return values
    case .negate(let inner):
      return try evaluate(inner).map { -$0 }
    case .binary(let op, let leftNode, let rightNode):
      var left = try evaluate(leftNode)
      let right = try evaluate(rightNode)
      switch op {
      case .add: for i in left.indices { left[i] += right[i] }
      case .subtract: for i in left.indices { left[i] -= right[i] }
      case .multiply: for i in left.indices { left[i] *= right[i] }
      case .divide:
        for i in left.indices {
          if right[i] == 0 && !left[i].isNaN {
            throw failure(row: i, "division by zero in '\(text)'")
          }
          left[i] /= right[i]
        }
      }
      return left
    case .call(let function, let argument):
      var values = try evaluate(argument)
      switch function {
      case .log:
        for i in values.indices where !values[i].isNaN {
          guard values[i] > 0 else { throw failure(row: i, "log of \(values[i]) (not positive) in '\(text)'") }
          values[i] = Double.log(values[i])
        }
      case .abs:
        for i in values.indices { values[i] = Swift.abs(values[i]) }
      case .year, .month, .day, .weekday, .hour, .minute:
        for i in values.indices where !values[i].isNaN {
          guard Timestamp.partsRange.contains(values[i]) else {
            throw failure(row: i, "\(values[i]) is not a time (more than 2^53 seconds from 1970) in '\(text)'")
          }
          let parts = Timestamp.parts(ofSeconds: values[i])
          let part: Int
          switch function {
          case .year: part = parts.year
          case .month: part = parts.month
          case .day: part = parts.day
          case .weekday: part = parts.weekday
          case .hour: part = parts.hour
          default: part = parts.minute
          }
          values[i] = Double(part)
        }
      }
      return values
    }
  }

  private func failure(row: Int, _ message: String) -> DataError {
    DataError(.evaluation, at: SourceLocation(file: path, line: lineNumbers[row]), column: featureName, message)
  }
}

extension Double {
  /// Natural logarithm without Foundation.
  static func log(_ x: Double) -> Double {
    #if canImport(Glibc)
      Glibc.log(x)
    #else
      Darwin.log(x)
    #endif
  }
}
