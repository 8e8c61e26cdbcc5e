/// What a graph node computes. The operations are the small common ground of
/// TensorFlow Lite's builtin operators and ONNX's: each writer maps every
/// case to one operator of its own (`oneHotEncoder` and `treeEnsemble` are
/// ONNX-ML's and only the ONNX lowering emits them). Binary arithmetic and
/// comparisons broadcast as numpy does.
public enum GraphOperation: Sendable, Equatable {
  /// x [b, n], weights [m, n], bias [m] → x·weightsᵀ + bias [b, m].
  case fullyConnected
  /// Along the last axis.
  case softmax
  case add
  case subtract
  case multiply
  case divide
  case squareRoot
  case negate
  /// → bool.
  case lessEqual
  case equal
  case greater
  case cast(ElementType)
  /// condition, a, b → a where condition, else b.
  case select
  case concatenate(axis: Int)
  /// params, indices → params gathered along `axis`; with `batchDimensions` 1, row i of
  /// indices picks from row i of params.
  case gather(axis: Int, batchDimensions: Int)
  /// The k largest along the last axis, largest first, equal values in index order → values, indices
  /// (`indexType`: int32 or int64).
  case topK(k: Int, indexType: ElementType)
  /// Integer indices → float32 one-hot vectors of `depth` along a new last axis (out of range: zeros).
  case oneHot(depth: Int)
  case sum(axes: [Int], keepDimensions: Bool)
  /// To `shape`, in which one −1 takes the remaining elements.
  case reshape(shape: [Int])
  /// Index (int64) of the largest along `axis`, which is removed (the first among equals).
  case argMax(axis: Int)
  /// ONNX-ML `OneHotEncoder`: [b, 1] int64 or string → [b, 1, categories] float32; an unknown category is an error.
  case oneHotEncoder(categories: TensorValues)
  /// ONNX-ML `TreeEnsemble`: float32 [b, d] → the sum of each tree's leaf weight per target [b, targets].
  case treeEnsemble(TreeEnsembleSpec)

  /// The name inspections print (`fullyConnected`, `topK`).
  public var name: String {
    switch self {
    case .fullyConnected: "fullyConnected"
    case .softmax: "softmax"
    case .add: "add"
    case .subtract: "subtract"
    case .multiply: "multiply"
    case .divide: "divide"
    case .squareRoot: "squareRoot"
    case .negate: "negate"
    case .lessEqual: "lessEqual"
    case .equal: "equal"
    case .greater: "greater"
    case .cast: "cast"
    case .select: "select"
    case .concatenate: "concatenate"
    case .gather: "gather"
    case .topK: "topK"
    case .oneHot: "oneHot"
    case .sum: "sum"
    case .reshape: "reshape"
    case .argMax: "argMax"
    case .oneHotEncoder: "oneHotEncoder"
    case .treeEnsemble: "treeEnsemble"
    }
  }
}
