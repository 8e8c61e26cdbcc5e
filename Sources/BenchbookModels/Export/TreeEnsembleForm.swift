import BenchbookData
import Foundation

/// Many binary trees whose leaf values are added into scores, which a final transform turns into probabilities:
/// a random forest (each tree's class shares, divided by the number of trees, summed) or gradient boosting (raw
/// scores from a baseline, then a sigmoid or a softmax).
///
/// Every tree routes a row as `TreeForm` does, left when `Float(x[feature]) <= threshold` and a missing (NaN) value
/// where `missingGoesLeft` sends it, unless the form compares unrounded values (`comparesFloat32` false: histogram
/// boosting's bin thresholds, which scikit-learn compares in double). One shape serves both ensembles so that each file format lowers it once: Core
/// ML's and ONNX's tree ensembles hold it as it is (base values, a post transform), and the graph formats walk every
/// tree at once.
public struct TreeEnsembleForm: Sendable, Equatable {
  /// What turns the summed scores into probabilities.
  public enum Transform: String, Sendable, Equatable {
    /// The scores are the probabilities (a forest whose leaves hold class shares over the tree count).
    case none
    /// One score s for two classes: the probabilities are 1 − σ(s) and σ(s).
    case logistic
    /// One score per class: their softmax.
    case softmax
  }

  /// One tree: `valueCount` numbers per node (a leaf's are what it adds), added to the scores
  /// `firstScore ..< firstScore + valueCount`.
  public struct Tree: Sendable, Equatable {
    /// The nodes; the root is node 0, and every child index is larger than its parent's.
    public let nodes: [TreeForm.Node]
    /// `valueCount` values per node, node-major.
    public let values: [Double]
    public let valueCount: Int
    /// The first score this tree adds to.
    public let firstScore: Int

    public init(nodes: [TreeForm.Node], values: [Double], valueCount: Int, firstScore: Int) {
      precondition(!nodes.isEmpty, "a tree has a root")
      precondition(valueCount >= 1 && values.count == nodes.count * valueCount, "values for every node")
      self.nodes = nodes
      self.values = values
      self.valueCount = valueCount
      self.firstScore = firstScore
    }

    /// One node's values.
    public func values(ofNode node: Int) -> ArraySlice<Double> {
      values[(node * valueCount)..<((node + 1) * valueCount)]
    }

    public var leafCount: Int { nodes.count { $0.isLeaf } }

    /// Edges from the root to the deepest leaf (0 for a lone leaf).
    public var depth: Int { TreeForm.depth(of: nodes) }

    /// The leaf a row lands in: values rounded to float32 first when `float32`, NaN by `missingGoesLeft`.
    public func leaf(_ row: UnsafePointer<Double>, float32: Bool = true) -> Int {
      var node = 0
      while !nodes[node].isLeaf {
        let split = nodes[node]
        let value = float32 ? Double(Float(row[split.feature])) : row[split.feature]
        let left = value.isNaN ? split.missingGoesLeft : value <= split.threshold
        node = left ? split.left : split.right
      }
      return node
    }
  }

  public let trees: [Tree]
  /// Scores the trees add into: the class count, or 1 for two classes under `.logistic`.
  public let scoreCount: Int
  /// Each score's starting value (boosting's baseline; zeros for a forest).
  public let baseScores: [Double]
  public let transform: Transform
  public let classCount: Int
  public let featureCount: Int
  /// Whether a split compares the value rounded to float32 (scikit-learn's trees and forests) or the value itself
  /// (histogram boosting). A format restates each threshold so that every float32 input goes where the fit sends it.
  public let comparesFloat32: Bool

  public init(
    trees: [Tree], scoreCount: Int, baseScores: [Double], transform: Transform, classCount: Int, featureCount: Int,
    comparesFloat32: Bool = true
  ) {
    precondition(!trees.isEmpty, "an ensemble has a tree")
    precondition(baseScores.count == scoreCount, "a base value per score")
    precondition(
      trees.allSatisfy { $0.firstScore >= 0 && $0.firstScore + $0.valueCount <= scoreCount },
      "every tree adds to scores that exist")
    switch transform {
    case .logistic:
      precondition(scoreCount == 1 && classCount == 2, "a logistic transform turns one score into two classes")
    case .none, .softmax: precondition(scoreCount == classCount, "a score per class")
    }
    self.trees = trees
    self.scoreCount = scoreCount
    self.baseScores = baseScores
    self.transform = transform
    self.classCount = classCount
    self.featureCount = featureCount
    self.comparesFloat32 = comparesFloat32
  }

  /// Nodes over all trees.
  public var nodeCount: Int { trees.reduce(0) { $0 + $1.nodes.count } }

  /// The deepest tree's depth.
  public var depth: Int { trees.map(\.depth).max() ?? 0 }

  /// The summed scores of one row, before the transform, added in tree order.
  public func scores(_ row: UnsafePointer<Double>) -> [Double] {
    var scores = baseScores
    for tree in trees {
      let leaf = tree.leaf(row, float32: comparesFloat32)
      for j in 0..<tree.valueCount { scores[tree.firstScore + j] += tree.values[leaf * tree.valueCount + j] }
    }
    return scores
  }

  /// The probabilities the form states for each row of `x` (the design matrix it reads), in double: what every
  /// exported file computes, up to its own precision.
  public func probabilities(_ x: Matrix) -> Matrix {
    precondition(x.columns == featureCount, "the form reads \(featureCount) columns, given \(x.columns)")
    var out = [Double](repeating: 0, count: x.rows * classCount)
    x.values.withUnsafeBufferPointer { values in
      for r in 0..<x.rows {
        let scores = scores(values.baseAddress! + r * featureCount)
        let probabilities = Self.apply(transform, to: scores)
        for c in 0..<classCount { out[r * classCount + c] = probabilities[c] }
      }
    }
    return Matrix(rows: x.rows, columns: classCount, values: out)
  }

  /// The transform on one row's scores.
  public static func apply(_ transform: Transform, to scores: [Double]) -> [Double] {
    switch transform {
    case .none:
      return scores
    case .logistic:
      let p = 1 / (1 + exp(-scores[0]))
      return [1 - p, p]
    case .softmax:
      let top = scores.max() ?? 0
      let exps = scores.map { exp($0 - top) }
      let total = exps.reduce(0, +)
      return exps.map { $0 / total }
    }
  }
}
