/// A dataflow graph of tensors: what a fitted pipeline computes, lowered once
/// for the formats that take operator graphs (TensorFlow Lite and ONNX), and
/// read back from their files for `inspect` and for the fidelity tests, which
/// run it with `GraphEvaluator`.
///
/// Nodes are in execution order; every tensor is written by at most one node.
/// `append` infers each result's type and shape, so a malformed graph fails
/// where it is built, not in a runtime on a phone.
public struct TensorGraph: Sendable, Equatable {
  public private(set) var tensors: [GraphTensor] = []
  public private(set) var nodes: [GraphNode] = []
  public var inputs: [Int] = []
  public var outputs: [Int] = []
  private var names: Set<String> = []

  public init() {}

  /// A graph whose parts were read from a file; `GraphError` when they do not fit together.
  public init(tensors: [GraphTensor], nodes: [GraphNode], inputs: [Int], outputs: [Int]) throws(GraphError) {
    self.tensors = tensors
    self.nodes = nodes
    self.inputs = inputs
    self.outputs = outputs
    names = Set(tensors.map(\.name))
    guard names.count == tensors.count else { throw GraphError("tensor names repeat") }
    let valid = 0..<tensors.count
    for index in inputs + outputs + nodes.flatMap({ $0.inputs + $0.outputs }) where !valid.contains(index) {
      throw GraphError("a tensor index (\(index)) is out of range")
    }
  }

  // MARK: - Building

  /// `wanted`, or `wanted_1`, `wanted_2`… when taken.
  private mutating func claim(_ wanted: String) -> String {
    var name = wanted
    var suffix = 1
    while names.contains(name) {
      name = "\(wanted)_\(suffix)"
      suffix += 1
    }
    names.insert(name)
    return name
  }

  /// A new input the app feeds.
  public mutating func input(_ name: String, type: ElementType, shape: [Int]) -> Int {
    tensors.append(GraphTensor(name: claim(name), type: type, shape: shape))
    inputs.append(tensors.count - 1)
    return tensors.count - 1
  }

  /// A constant; `shape` defaults to a vector of the values.
  public mutating func constant(_ name: String, _ values: TensorValues, shape: [Int]? = nil) -> Int {
    let shape = shape ?? [values.count]
    precondition(shape.reduce(1, *) == values.count, "constant \(name): \(values.count) values for shape \(shape)")
    tensors.append(GraphTensor(name: claim(name), type: values.type, shape: shape, values: values))
    return tensors.count - 1
  }

  public mutating func constant(_ name: String, floats: [Float], shape: [Int]? = nil) -> Int {
    constant(name, .float32(floats), shape: shape)
  }

  /// A float32 scalar (shape []).
  public mutating func scalar(_ name: String, _ value: Float) -> Int {
    constant(name, .float32([value]), shape: [])
  }

  /// Appends `operation` on `inputs`; returns its outputs, named after `name`.
  @discardableResult
  public mutating func append(_ operation: GraphOperation, _ inputs: [Int], name: String) throws(GraphError) -> [Int] {
    let shapes = try ShapeInference.outputs(of: operation, inputs: inputs.map { tensors[$0] })
    var outputs: [Int] = []
    for (i, result) in shapes.enumerated() {
      let suffix = shapes.count > 1 ? (i == 0 ? "" : "_\(i)") : ""
      tensors.append(GraphTensor(name: claim(name + suffix), type: result.type, shape: result.shape))
      outputs.append(tensors.count - 1)
    }
    nodes.append(GraphNode(operation: operation, inputs: inputs, outputs: outputs))
    return outputs
  }

  /// Appends `operation` with results named exactly `names` (a file read back); the names must be free.
  @discardableResult
  public mutating func append(_ operation: GraphOperation, _ inputs: [Int], outputNames names: [String])
    throws(GraphError) -> [Int]
  {
    let shapes = try ShapeInference.outputs(of: operation, inputs: inputs.map { tensors[$0] })
    guard shapes.count == names.count else {
      throw GraphError("\(operation.name) gives \(shapes.count) results, not \(names.count)")
    }
    var outputs: [Int] = []
    for (name, result) in zip(names, shapes) {
      guard self.names.insert(name).inserted else { throw GraphError("tensor '\(name)' is written twice") }
      tensors.append(GraphTensor(name: name, type: result.type, shape: result.shape))
      outputs.append(tensors.count - 1)
    }
    nodes.append(GraphNode(operation: operation, inputs: inputs, outputs: outputs))
    return outputs
  }

  /// A constant or input read back from a file, under its exact name.
  public mutating func add(_ tensor: GraphTensor, isInput: Bool) throws(GraphError) -> Int {
    guard names.insert(tensor.name).inserted else { throw GraphError("tensor '\(tensor.name)' is defined twice") }
    tensors.append(tensor)
    if isInput { inputs.append(tensors.count - 1) }
    return tensors.count - 1
  }

  /// `append` of an operation with one result.
  public mutating func apply(_ operation: GraphOperation, _ inputs: Int..., name: String) throws(GraphError) -> Int {
    try append(operation, inputs, name: name)[0]
  }

  /// Renames a tensor (an output an app reads by name); the name must be free.
  public mutating func rename(_ tensor: Int, to name: String) {
    precondition(!names.contains(name), "tensor name \(name) is taken")
    names.remove(tensors[tensor].name)
    names.insert(name)
    tensors[tensor].name = name
  }

  /// Bytes of every constant's elements: most of a file's size.
  public var constantBytes: Int {
    tensors.reduce(0) { $0 + ($1.values?.storedBytes ?? 0) }
  }

  /// How many nodes run each operation, by name, sorted by name.
  public var operationCounts: [(name: String, count: Int)] {
    var counts: [String: Int] = [:]
    for node in nodes { counts[node.operation.name, default: 0] += 1 }
    return counts.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
  }
}
