import BenchbookData
import BenchbookSpec
import Yams

/// A YAML node of a study file with its dotted key and place, so every error names file, line and key.
struct StudyNode {
  let node: Node
  let key: String
  let file: String

  var location: SourceLocation {
    SourceLocation(file: file, line: node.mark?.line, column: node.mark?.column)
  }

  func error(_ message: String) -> SpecError {
    SpecError(message, at: location, key: key.isEmpty ? nil : key)
  }

  var isNull: Bool {
    guard case .scalar(let scalar) = node else { return false }
    return scalar.style == .plain && ["", "~", "null", "Null", "NULL"].contains(scalar.string)
  }

  func string() throws(SpecError) -> String {
    guard case .scalar(let scalar) = node else { throw error("expected a single value, found \(kindName)") }
    return scalar.string
  }

  func double() throws(SpecError) -> Double {
    let text = try string()
    guard let value = Double(text), value.isFinite else { throw error("expected a number, found '\(text)'") }
    return value
  }

  /// A list's items; a single scalar counts as a one-item list.
  func items() throws(SpecError) -> [StudyNode] {
    switch node {
    case .sequence(let sequence):
      return sequence.enumerated().map { StudyNode(node: $1, key: "\(key)[\($0)]", file: file) }
    case .scalar:
      return isNull ? [] : [self]
    default:
      throw error("expected a list, found \(kindName)")
    }
  }

  /// The mapping's values by key, after checking every key is allowed (an unknown one is an error at its line,
  /// with the nearest allowed key suggested) and none appears twice.
  func fields(allowed: [String]) throws(SpecError) -> [String: StudyNode] {
    guard case .mapping(let mapping) = node else {
      throw error("expected a mapping of keys to values, found \(kindName)")
    }
    var fields: [String: StudyNode] = [:]
    for (keyNode, valueNode) in mapping {
      let here = StudyNode(node: keyNode, key: key, file: file)
      guard case .scalar(let scalar) = keyNode else { throw here.error("keys must be plain words") }
      let name = scalar.string
      let childKey = key.isEmpty ? name : "\(key).\(name)"
      guard allowed.contains(name) else {
        let hint = Suggestion.phrase(for: name, among: allowed)
        throw StudyNode(node: keyNode, key: childKey, file: file).error(
          "unknown key '\(name)'\(hint) (allowed: \(allowed.joined(separator: ", ")))")
      }
      guard fields[name] == nil else {
        throw StudyNode(node: keyNode, key: childKey, file: file).error("appears twice")
      }
      fields[name] = StudyNode(node: valueNode, key: childKey, file: file)
    }
    return fields
  }

  var kindName: String {
    switch node {
    case .scalar: "a single value"
    case .mapping: "a mapping"
    case .sequence: "a list"
    case .alias: "an alias"
    }
  }

  /// The document's root; YAML syntax errors at their line and column.
  static func root(_ text: String, path: String) throws(SpecError) -> StudyNode {
    let node: Node?
    do {
      node = try Yams.compose(yaml: text)
    } catch let error as YamlError {
      switch error {
      case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _),
        .composer(_, let problem, let mark, _):
        throw SpecError(
          "not valid YAML: \(problem)", at: SourceLocation(file: path, line: mark.line, column: mark.column))
      case .duplicatedKeysInMapping(let duplicates, let context):
        throw SpecError(
          "key '\(duplicates.joined(separator: "', '"))' appears twice",
          at: SourceLocation(file: path, line: context.mark.line, column: context.mark.column))
      default:
        throw SpecError("not valid YAML: \(error)", at: SourceLocation(file: path))
      }
    } catch {
      throw SpecError("not valid YAML: \(error)", at: SourceLocation(file: path))
    }
    guard let node else {
      throw SpecError("the study is empty; it needs 'name' and 'experiments'", at: SourceLocation(file: path, line: 1))
    }
    return StudyNode(node: node, key: "", file: path)
  }
}
