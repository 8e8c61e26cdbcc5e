import BenchbookData
import Yams

/// A YAML node together with its dotted key and place in the file, so every
/// reading error can name the file, line and key.
struct SpecNode {
  let node: Node
  /// Dotted path from the top, e.g. `resampling.folds` or `models[2]`.
  let key: String
  let file: String

  var location: SourceLocation {
    SourceLocation(file: file, line: node.mark?.line, column: node.mark?.column)
  }

  func error(_ message: String) -> SpecError {
    SpecError(message, at: location, key: key.isEmpty ? nil : key)
  }

  /// The scalar's text; an error for a list or mapping.
  func string() throws(SpecError) -> String {
    guard case .scalar(let scalar) = node else { throw error("expected a single value, found \(kindName)") }
    return scalar.string
  }

  /// True when the node is a null scalar (`~`, `null` or nothing).
  var isNull: Bool {
    guard case .scalar(let scalar) = node else { return false }
    return scalar.style == .plain && ["", "~", "null", "Null", "NULL"].contains(scalar.string)
  }

  /// A whole number of at least `minimum` and, when given, at most `maximum` (one of `Limits`, whose name the
  /// message gives as `limit`).
  func int(atLeast minimum: Int? = nil, atMost maximum: Int? = nil, limit: String? = nil) throws(SpecError) -> Int {
    let text = try string()
    guard let value = Int(text) else { throw error("expected a whole number, found '\(text)'") }
    if let minimum, value < minimum { throw error("must be at least \(minimum), found \(value)") }
    if let maximum, value > maximum {
      throw error("must be at most \(maximum)\(limit.map { " (\($0))" } ?? ""), found \(value)")
    }
    return value
  }

  func double() throws(SpecError) -> Double {
    let text = try string()
    guard let value = Double(text), value.isFinite else { throw error("expected a number, found '\(text)'") }
    return value
  }

  func bool() throws(SpecError) -> Bool {
    let text = try string()
    switch text.lowercased() {
    case "true", "yes", "on": return true
    case "false", "no", "off": return false
    default: throw error("expected true or false, found '\(text)'")
    }
  }

  /// A list's items; a single scalar counts as a one-item list.
  func items() throws(SpecError) -> [SpecNode] {
    switch node {
    case .sequence(let sequence):
      return sequence.enumerated().map { SpecNode(node: $1, key: "\(key)[\($0)]", file: file) }
    case .scalar:
      return [self]
    default:
      throw error("expected a list, found \(kindName)")
    }
  }

  /// The mapping's entries in file order, after checking every key is allowed.
  ///
  /// An unknown key is an error at its own line, with the nearest allowed key suggested.
  func entries(allowed: [String]? = nil) throws(SpecError) -> [(name: String, value: SpecNode)] {
    guard case .mapping(let mapping) = node else {
      throw error("expected a mapping of keys to values, found \(kindName)")
    }
    var result: [(name: String, value: SpecNode)] = []
    for (keyNode, valueNode) in mapping {
      guard case .scalar(let keyScalar) = keyNode else {
        throw SpecNode(node: keyNode, key: key, file: file).error("keys must be plain words")
      }
      let name = keyScalar.string
      let childKey = key.isEmpty ? name : "\(key).\(name)"
      if let allowed, !allowed.contains(name) {
        let here = SpecNode(node: keyNode, key: childKey, file: file)
        let hint = Suggestion.phrase(for: name, among: allowed)
        throw here.error("unknown key '\(name)'\(hint) (allowed: \(allowed.joined(separator: ", ")))")
      }
      result.append((name, SpecNode(node: valueNode, key: childKey, file: file)))
    }
    return result
  }

  /// The mapping as a dictionary, after the same checks as `entries`.
  func fields(allowed: [String]) throws(SpecError) -> [String: SpecNode] {
    var dictionary = [String: SpecNode]()
    for (name, value) in try entries(allowed: allowed) { dictionary[name] = value }
    return dictionary
  }

  var kindName: String {
    switch node {
    case .scalar: "a single value"
    case .mapping: "a mapping"
    case .sequence: "a list"
    case .alias: "an alias"
    }
  }
}

extension Dictionary where Key == String, Value == SpecNode {
  /// The value under `name`, or an error at `parent` saying it is required.
  func required(_ name: String, in parent: SpecNode) throws(SpecError) -> SpecNode {
    guard let value = self[name], !value.isNull else {
      let where_ = parent.key.isEmpty ? "the spec" : "'\(parent.key)'"
      throw parent.error("\(where_) needs '\(name)'")
    }
    return value
  }

  /// The value under `name` unless it is absent or null.
  func optional(_ name: String) -> SpecNode? {
    guard let value = self[name], !value.isNull else { return nil }
    return value
  }
}
