import BenchbookData
import BenchbookModels

/// The settings a model is tuned over: the Cartesian product of the listed
/// values, in scikit-learn's `ParameterGrid` order (keys sorted, the last key
/// varying fastest), so ties go to the same configuration `GridSearchCV` picks.
public struct SearchSpace: Sendable {
  /// One searched setting and the values it takes, as declared.
  public struct Dimension: Sendable {
    /// scikit-learn's name for the setting.
    public var name: String
    public var values: [ParameterValue]
    public var location: SourceLocation

    public init(name: String, values: [ParameterValue], location: SourceLocation) {
      self.name = name
      self.values = values
      self.location = location
    }
  }

  /// Sorted by name.
  public var dimensions: [Dimension]
  /// Every configuration, fixed settings included, in grid order.
  public var configurations: [any Classifier]

  public init(dimensions: [Dimension], configurations: [any Classifier]) {
    self.dimensions = dimensions
    self.configurations = configurations
  }

  /// The searched settings of configuration `index`, by name.
  public func searchedParameters(_ index: Int) -> [String: ParameterValue] {
    let all = configurations[index].parameters
    return Dictionary(uniqueKeysWithValues: dimensions.map { ($0.name, all[$0.name] ?? .none) })
  }

  /// Indices of every combination, the last dimension varying fastest.
  public static func gridIndices(_ sizes: [Int]) -> [[Int]] {
    var combinations: [[Int]] = [[]]
    for size in sizes {
      combinations = combinations.flatMap { prefix in (0..<size).map { prefix + [$0] } }
    }
    return combinations
  }
}
