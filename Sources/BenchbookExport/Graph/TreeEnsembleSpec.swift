import BenchbookModels

/// The trees of an ONNX-ML `TreeEnsemble` node: branch nodes comparing one
/// input column with a float32 split (`x <= split` takes the true branch),
/// leaves adding one weight to one target.
public struct TreeEnsembleSpec: Sendable, Equatable {
  /// Where a branch leads.
  public enum Child: Sendable, Equatable {
    case node(Int)
    case leaf(Int)
  }

  public struct Branch: Sendable, Equatable {
    public var feature: Int
    public var split: Float
    public var whenTrue: Child
    public var whenFalse: Child
    /// Whether a missing (NaN) value takes the true branch.
    public var missingTracksTrue: Bool

    public init(feature: Int, split: Float, whenTrue: Child, whenFalse: Child, missingTracksTrue: Bool) {
      self.feature = feature
      self.split = split
      self.whenTrue = whenTrue
      self.whenFalse = whenFalse
      self.missingTracksTrue = missingTracksTrue
    }
  }

  public struct Leaf: Sendable, Equatable {
    public var target: Int
    public var weight: Float

    public init(target: Int, weight: Float) {
      self.target = target
      self.weight = weight
    }
  }

  public var targetCount: Int
  /// Each tree's root branch (a tree of one leaf is a branch whose two children are that leaf).
  public var roots: [Int]
  public var branches: [Branch]
  public var leaves: [Leaf]

  public init(targetCount: Int, roots: [Int], branches: [Branch], leaves: [Leaf]) {
    self.targetCount = targetCount
    self.roots = roots
    self.branches = branches
    self.leaves = leaves
  }
}

extension TreeEnsembleSpec {
  /// Appends one tree adding to `target`: its branches in node order (true child left), its leaves weighing
  /// `leafWeight(node)`. A lone leaf becomes a branch whose two children are it, as the operator needs a root branch.
  mutating func append(tree nodes: [TreeForm.Node], thresholds: [Float], target: Int, leafWeight: (Int) -> Float) {
    var branchOf = [Int](repeating: -1, count: nodes.count)
    var leafOf = [Int](repeating: -1, count: nodes.count)
    let firstBranch = branches.count
    var branchCount = 0
    for i in nodes.indices {
      if nodes[i].isLeaf {
        leafOf[i] = leaves.count
        leaves.append(.init(target: target, weight: leafWeight(i)))
      } else {
        branchOf[i] = firstBranch + branchCount
        branchCount += 1
      }
    }
    func child(_ node: Int) -> Child {
      nodes[node].isLeaf ? .leaf(leafOf[node]) : .node(branchOf[node])
    }
    if nodes[0].isLeaf {
      roots.append(branches.count)
      branches.append(
        .init(feature: 0, split: 0, whenTrue: .leaf(leafOf[0]), whenFalse: .leaf(leafOf[0]), missingTracksTrue: true))
      return
    }
    roots.append(firstBranch)
    for (i, node) in nodes.enumerated() where !node.isLeaf {
      branches.append(
        .init(
          feature: node.feature, split: thresholds[i], whenTrue: child(node.left), whenFalse: child(node.right),
          missingTracksTrue: node.missingGoesLeft))
    }
  }
}
