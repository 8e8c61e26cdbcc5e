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
