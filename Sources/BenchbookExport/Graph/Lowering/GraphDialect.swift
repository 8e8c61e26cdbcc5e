/// How a graph format wants the common graph built: the shape of its inputs,
/// its index type, how it holds a tree, and its outputs.
struct GraphDialect: Sendable, Equatable {
  enum Inputs: Sendable, Equatable {
    /// One float32 [batch, features] tensor; a categorical feature enters as its category's index
    /// (TensorFlow Lite, which has no string inputs worth an app's trouble).
    case categoryIndices
    /// `features` float32 [batch, features] when every feature is numeric, otherwise one [batch, 1]
    /// input per feature, typed like the data: float32, or int64 / string categories (ONNX).
    case typedFeatures
  }

  /// How a tree is written.
  enum TreeLayout: String, Sendable, Equatable {
    /// A matrix form: every split compared at once, a leaf found by one matrix product; grows with
    /// internal nodes × leaves.
    case matrix
    /// A traversal: one step per level, each gathering the current node's split; grows with the nodes.
    case traversal
    /// ONNX-ML's `TreeEnsemble` operator.
    case ensemble
  }

  var inputs: Inputs
  /// TensorFlow Lite's indices are int32, ONNX's int64.
  var indexType: ElementType
  var treeLayout: TreeLayout
  /// Whether the graph also outputs `label`, the most probable class (ONNX).
  var labelOutput: Bool

  static let tensorFlowLite = GraphDialect(
    inputs: .categoryIndices, indexType: .int32, treeLayout: .traversal, labelOutput: false)
  static let onnx = GraphDialect(inputs: .typedFeatures, indexType: .int64, treeLayout: .ensemble, labelOutput: true)
}
