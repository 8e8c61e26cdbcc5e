/// One operation of a graph and the tensors it reads and writes (indices into `TensorGraph.tensors`).
public struct GraphNode: Sendable, Equatable {
  public var operation: GraphOperation
  public var inputs: [Int]
  public var outputs: [Int]

  public init(operation: GraphOperation, inputs: [Int], outputs: [Int]) {
    self.operation = operation
    self.inputs = inputs
    self.outputs = outputs
  }
}
