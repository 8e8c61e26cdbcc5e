import BenchbookData

/// One binary decision tree. A row goes to a node's left child when
/// `Float(x[feature]) <= threshold`: the comparison is made on the value
/// rounded to float32, as scikit-learn's trees make it, so an exporter must
/// reproduce float32 semantics exactly. A leaf predicts its class shares.
public struct TreeForm: Sendable, Equatable {
  /// One node; a leaf has `left == right == -1`.
  public struct Node: Sendable, Equatable {
    /// Design-matrix column tested (unused at a leaf).
    public var feature: Int
    /// Left when `Float(x[feature]) <= threshold`.
    public var threshold: Double
    public var left: Int
    public var right: Int
    /// Where a missing (NaN) value goes: the child that saw more training rows.
    public var missingGoesLeft: Bool

    public init(feature: Int, threshold: Double, left: Int, right: Int, missingGoesLeft: Bool) {
      self.feature = feature
      self.threshold = threshold
      self.left = left
      self.right = right
      self.missingGoesLeft = missingGoesLeft
    }

    /// A leaf.
    public static let leaf = Node(feature: -1, threshold: 0, left: -1, right: -1, missingGoesLeft: true)

    public var isLeaf: Bool { left < 0 }
  }

  /// The nodes; the root is node 0, and every child index is larger than its parent's.
  public let nodes: [Node]
  /// Class shares per node, node-major (`classCount` per node; what a leaf predicts).
  public let shares: [Double]
  public let classCount: Int
  public let featureCount: Int

  public init(nodes: [Node], shares: [Double], classCount: Int, featureCount: Int) {
    precondition(!nodes.isEmpty, "a tree has a root")
    precondition(shares.count == nodes.count * classCount, "class shares for every node")
    self.nodes = nodes
    self.shares = shares
    self.classCount = classCount
    self.featureCount = featureCount
  }

  /// One node's class shares.
  public func shares(ofNode node: Int) -> ArraySlice<Double> {
    shares[(node * classCount)..<((node + 1) * classCount)]
  }

  public var leafCount: Int { nodes.count { $0.isLeaf } }

  /// Edges from the root to the deepest leaf (0 for a lone leaf).
  public var depth: Int { Self.depth(of: nodes) }

  /// Edges from the root to the deepest leaf of `nodes` (children after their parents).
  public static func depth(of nodes: [Node]) -> Int {
    var depths = [Int](repeating: 0, count: nodes.count)
    var deepest = 0
    for (i, node) in nodes.enumerated() where !node.isLeaf {
      depths[node.left] = depths[i] + 1
      depths[node.right] = depths[i] + 1
      deepest = max(deepest, depths[i] + 1)
    }
    return deepest
  }
}
