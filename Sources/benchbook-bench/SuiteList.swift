import Foundation
import Yams

/// The bench suite's list file (`experiments/bench/suite.yaml`): each dataset's experiment spec, by a
/// path relative to the list, and why it is in the suite. One spec per dataset: the list names the
/// study's specs rather than copying them.
struct SuiteList {
  struct Entry: Equatable {
    /// The spec's file name without `.yaml`: what `BENCH_SUITE=iris,diamonds` selects by.
    var name: String
    var spec: String
    var kind: String
  }

  /// The suite as `make bench` runs it.
  var entries: [Entry]
  /// Datasets run only when named (too slow for every bench today).
  var optional: [Entry] = []

  init(entries: [Entry], optional: [Entry] = []) {
    self.entries = entries
    self.optional = optional
  }

  init(file: String) throws {
    let text = try String(contentsOfFile: file, encoding: .utf8)
    try self.init(text: text, directory: URL(fileURLWithPath: file).deletingLastPathComponent(), file: file)
  }

  /// - Parameter file: the list's name in errors.
  init(text: String, directory: URL, file: String = "the suite list") throws {
    guard let root = try Yams.compose(yaml: text), let datasets = root["datasets"]?.sequence else {
      throw BenchFailure("\(file): no `datasets:` list")
    }
    func entry(_ node: Node) throws -> Entry {
      guard let spec = node["spec"]?.string else {
        throw BenchFailure("\(file), line \(node.mark?.line ?? 0): an entry without `spec:`")
      }
      let path = spec.hasPrefix("/") ? spec : directory.appendingPathComponent(spec).standardizedFileURL.path
      let name = URL(fileURLWithPath: spec).deletingPathExtension().lastPathComponent
      return Entry(name: name, spec: path, kind: node["why"]?.string ?? "")
    }
    entries = try datasets.map(entry)
    optional = try (root["optional"]?.sequence.map(Array.init) ?? []).map(entry)
  }

  /// The entries named in `only` (comma-separated names), in the list's order, optional ones included
  /// when named; every name must exist. Without names, the suite without its optional entries.
  func selecting(_ only: String?) throws -> [Entry] {
    guard let only, !only.isEmpty else { return entries }
    let names = only.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    let all = entries + optional
    let unknown = names.filter { name in !all.contains { $0.name == name } }
    guard unknown.isEmpty else {
      throw BenchFailure(
        "BENCH_SUITE names \(unknown.joined(separator: ", ")), not in the suite: "
          + all.map(\.name).joined(separator: ", "))
    }
    return all.filter { names.contains($0.name) }
  }
}
