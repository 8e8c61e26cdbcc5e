/// One tensor of a graph: an input, a constant, or an operation's result.
public struct GraphTensor: Sendable, Equatable {
  /// Unique within the graph; inputs and outputs keep the names an app uses.
  public var name: String
  public var type: ElementType
  /// Dimensions; −1 marks the batch dimension, resizable at run time.
  public var shape: [Int]
  /// The elements of a constant; nil for every other tensor.
  public var values: TensorValues?

  public init(name: String, type: ElementType, shape: [Int], values: TensorValues? = nil) {
    self.name = name
    self.type = type
    self.shape = shape
    self.values = values
  }

  public var isConstant: Bool { values != nil }
}
