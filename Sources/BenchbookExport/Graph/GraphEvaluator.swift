import Foundation

/// Runs a `TensorGraph` in Swift, in float32 as the runtimes on a phone do,
/// so tests can check that a file written in any graph format predicts what
/// Benchbook's own fitted model predicts, without TensorFlow Lite or ONNX
/// Runtime. Semantics follow the operators' definitions (and `GraphOperation`'s
/// documentation); sums run in index order.
public struct GraphEvaluator: Sendable {
  /// A tensor's value: concrete dimensions and elements.
  public struct Value: Sendable, Equatable {
    public var shape: [Int]
    public var values: TensorValues

    public init(shape: [Int], values: TensorValues) {
      precondition(shape.reduce(1, *) == values.count, "\(values.count) values for shape \(shape)")
      self.shape = shape
      self.values = values
    }

    var floats: [Float] {
      if case .float32(let v) = values { return v }
      preconditionFailure("not float32")
    }
  }

  public let graph: TensorGraph

  public init(_ graph: TensorGraph) { self.graph = graph }

  /// The graph's outputs for `inputs`, one value per graph input, in order.
  public func run(_ inputs: [Value]) throws(GraphError) -> [Value] {
    guard inputs.count == graph.inputs.count else {
      throw GraphError("the graph takes \(graph.inputs.count) inputs, not \(inputs.count)")
    }
    var values = [Value?](repeating: nil, count: graph.tensors.count)
    for (index, tensor) in graph.tensors.enumerated() {
      if let constant = tensor.values { values[index] = Value(shape: tensor.shape, values: constant) }
    }
    for (slot, input) in zip(graph.inputs, inputs) {
      let declared = graph.tensors[slot]
      guard input.values.type == declared.type, input.shape.count == declared.shape.count,
        zip(input.shape, declared.shape).allSatisfy({ $1 < 0 || $0 == $1 })
      else {
        throw GraphError("input '\(declared.name)' is \(declared.type) \(declared.shape), not \(input.shape)")
      }
      values[slot] = input
    }
    // A graph read from a file is checked before anything runs: every node's inputs fit its operation.
    for node in graph.nodes {
      let results = try ShapeInference.outputs(of: node.operation, inputs: node.inputs.map { graph.tensors[$0] })
      guard results.count == node.outputs.count else {
        throw GraphError("\(node.operation.name) gives \(results.count) results, not \(node.outputs.count)")
      }
    }
    for node in graph.nodes {
      var arguments: [Value] = []
      for index in node.inputs {
        guard let value = values[index] else {
          throw GraphError("\(node.operation.name) reads '\(graph.tensors[index].name)' before it is written")
        }
        arguments.append(value)
      }
      let results = try Self.evaluate(
        node.operation, arguments, outputTypes: node.outputs.map { graph.tensors[$0].type })
      for (index, result) in zip(node.outputs, results) { values[index] = result }
    }
    var outputs: [Value] = []
    for index in graph.outputs {
      guard let value = values[index] else {
        throw GraphError("output '\(graph.tensors[index].name)' is never written")
      }
      outputs.append(value)
    }
    return outputs
  }

  // MARK: - Operations

  static func evaluate(_ operation: GraphOperation, _ a: [Value], outputTypes: [ElementType]) throws(GraphError)
    -> [Value]
  {
    switch operation {
    case .fullyConnected:
      let (x, w, b) = (a[0].floats, a[1].floats, a[2].floats)
      let (rows, n, m) = (a[0].shape[0], a[0].shape[1], a[1].shape[0])
      var out = [Float](repeating: 0, count: rows * m)
      for r in 0..<rows {
        for o in 0..<m {
          var sum: Float = 0
          for c in 0..<n { sum += x[r * n + c] * w[o * n + c] }
          out[r * m + o] = sum + b[o]
        }
      }
      return [Value(shape: [rows, m], values: .float32(out))]
    case .softmax:
      let x = a[0].floats
      let width = a[0].shape.last ?? 1
      var out = x
      for start in stride(from: 0, to: x.count, by: max(width, 1)) {
        let row = start..<(start + width)
        let largest = x[row].max() ?? 0
        var total: Float = 0
        for i in row {
          out[i] = Float(exp(Double(x[i] - largest)))
          total += out[i]
        }
        for i in row { out[i] /= total }
      }
      return [Value(shape: a[0].shape, values: .float32(out))]
    case .add, .subtract, .multiply, .divide:
      return [try arithmetic(operation, a[0], a[1])]
    case .squareRoot:
      return [Value(shape: a[0].shape, values: .float32(a[0].floats.map { $0.squareRoot() }))]
    case .negate:
      switch a[0].values {
      case .float32(let v): return [Value(shape: a[0].shape, values: .float32(v.map { -$0 }))]
      case .int32(let v): return [Value(shape: a[0].shape, values: .int32(v.map { 0 &- $0 }))]
      case .int64(let v): return [Value(shape: a[0].shape, values: .int64(v.map { 0 &- $0 }))]
      default: throw GraphError("negate: \(a[0].values.type)")
      }
    case .lessEqual, .equal, .greater:
      return [try comparison(operation, a[0], a[1])]
    case .cast(let type):
      return [try cast(a[0], to: type)]
    case .select:
      let shape = try ShapeInference.broadcast(
        try ShapeInference.broadcast(a[0].shape, a[1].shape, operation), a[2].shape, operation)
      guard case .bool(let condition) = a[0].values else { throw GraphError("select: a bool condition") }
      let (ci, xi, yi) = (
        BroadcastIndex(a[0].shape, to: shape), BroadcastIndex(a[1].shape, to: shape),
        BroadcastIndex(a[2].shape, to: shape)
      )
      let picks = (0..<shape.reduce(1, *)).map { condition[ci[$0]] ? (true, xi[$0]) : (false, yi[$0]) }
      return [Value(shape: shape, values: choose(picks, a[1].values, a[2].values))]
    case .concatenate(let axis):
      let outer = a[0].shape[..<axis].reduce(1, *)
      var shape = a[0].shape
      shape[axis] = a.reduce(0) { $0 + $1.shape[axis] }
      var order: [(input: Int, index: Int)] = []
      for o in 0..<outer {
        for (i, value) in a.enumerated() {
          let block = value.shape[axis...].reduce(1, *)
          for j in 0..<block { order.append((i, o * block + j)) }
        }
      }
      return [Value(shape: shape, values: try pick(order, from: a.map(\.values)))]
    case .gather(let axis, let batchDimensions):
      return [try gather(a[0], a[1], axis: axis, batchDimensions: batchDimensions)]
    case .topK(let k, let indexType):
      let x = a[0].floats
      let width = a[0].shape.last!
      var values: [Float] = []
      var indices: [Int] = []
      for start in stride(from: 0, to: x.count, by: width) {
        let order = (0..<width).sorted { i, j in x[start + i] != x[start + j] ? x[start + i] > x[start + j] : i < j }
        for i in order.prefix(k) {
          values.append(x[start + i])
          indices.append(i)
        }
      }
      let shape = Array(a[0].shape.dropLast()) + [k]
      return [
        Value(shape: shape, values: .float32(values)),
        Value(shape: shape, values: integers(indices, as: indexType)),
      ]
    case .oneHot(let depth):
      guard let indices = a[0].values.integers else { throw GraphError("oneHot: integer indices") }
      var out = [Float](repeating: 0, count: indices.count * depth)
      for (i, index) in indices.enumerated() where index >= 0 && index < depth { out[i * depth + index] = 1 }
      return [Value(shape: a[0].shape + [depth], values: .float32(out))]
    case .sum(let axes, let keep):
      return [try sum(a[0], axes: axes, keepDimensions: keep)]
    case .reshape(let target):
      let count = a[0].values.count
      let known = target.filter { $0 >= 0 }.reduce(1, *)
      let shape = target.map { $0 < 0 ? (known == 0 ? 0 : count / known) : $0 }
      guard shape.reduce(1, *) == count else { throw GraphError("reshape: \(a[0].shape) to \(target)") }
      return [Value(shape: shape, values: a[0].values)]
    case .argMax(let axis):
      let x = a[0].floats
      let shape = a[0].shape
      let (outer, size, inner) = (shape[..<axis].reduce(1, *), shape[axis], shape[(axis + 1)...].reduce(1, *))
      var out: [Int64] = []
      for o in 0..<outer {
        for i in 0..<inner {
          var best = 0
          for j in 1..<max(size, 1) where x[(o * size + j) * inner + i] > x[(o * size + best) * inner + i] { best = j }
          out.append(Int64(best))
        }
      }
      var result = shape
      result.remove(at: axis)
      return [Value(shape: result, values: .int64(out))]
    case .oneHotEncoder(let categories):
      let rows = a[0].shape[0]
      var out = [Float](repeating: 0, count: rows * categories.count)
      for r in 0..<rows {
        let position: Int? =
          switch (a[0].values, categories) {
          case (.string(let v), .string(let c)): c.firstIndex(of: v[r])
          case (.int64(let v), .int64(let c)): c.firstIndex(of: v[r])
          default: nil
          }
        guard let position else { throw GraphError("oneHotEncoder: row \(r) holds a category the model never saw") }
        out[r * categories.count + position] = 1
      }
      return [Value(shape: [rows, 1, categories.count], values: .float32(out))]
    case .treeEnsemble(let spec):
      let x = a[0].floats
      let (rows, columns) = (a[0].shape[0], a[0].shape[1])
      var out = [Float](repeating: 0, count: rows * spec.targetCount)
      for r in 0..<rows {
        for root in spec.roots {
          var child = TreeEnsembleSpec.Child.node(root)
          var steps = 0
          while case .node(let index) = child {
            steps += 1
            guard steps <= spec.branches.count else { throw GraphError("treeEnsemble: a tree loops") }
            let branch = spec.branches[index]
            let value = x[r * columns + branch.feature]
            let goesTrue = value.isNaN ? branch.missingTracksTrue : value <= branch.split
            child = goesTrue ? branch.whenTrue : branch.whenFalse
          }
          if case .leaf(let leaf) = child {
            out[r * spec.targetCount + spec.leaves[leaf].target] += spec.leaves[leaf].weight
          }
        }
      }
      return [Value(shape: [rows, spec.targetCount], values: .float32(out))]
    }
  }

  private static func arithmetic(_ operation: GraphOperation, _ x: Value, _ y: Value) throws(GraphError) -> Value {
    let shape = try ShapeInference.broadcast(x.shape, y.shape, operation)
    let (xi, yi) = (BroadcastIndex(x.shape, to: shape), BroadcastIndex(y.shape, to: shape))
    let count = shape.reduce(1, *)
    switch (x.values, y.values) {
    case (.float32(let p), .float32(let q)):
      let f: (Float, Float) -> Float =
        switch operation {
        case .add: (+)
        case .subtract: (-)
        case .multiply: (*)
        default: (/)
        }
      return Value(shape: shape, values: .float32((0..<count).map { f(p[xi[$0]], q[yi[$0]]) }))
    case (.int32(let p), .int32(let q)):
      let f: (Int32, Int32) -> Int32 =
        switch operation {
        case .add: (&+)
        case .subtract: (&-)
        case .multiply: (&*)
        default: { $1 == 0 ? 0 : $0 / $1 }
        }
      return Value(shape: shape, values: .int32((0..<count).map { f(p[xi[$0]], q[yi[$0]]) }))
    default:
      throw GraphError("\(operation.name): \(x.values.type) arithmetic is not supported")
    }
  }

  private static func comparison(_ operation: GraphOperation, _ x: Value, _ y: Value) throws(GraphError) -> Value {
    let shape = try ShapeInference.broadcast(x.shape, y.shape, operation)
    let (xi, yi) = (BroadcastIndex(x.shape, to: shape), BroadcastIndex(y.shape, to: shape))
    let count = shape.reduce(1, *)
    func compare<T: Comparable>(_ p: [T], _ q: [T]) -> [Bool] {
      (0..<count).map { i in
        switch operation {
        case .lessEqual: p[xi[i]] <= q[yi[i]]
        case .equal: p[xi[i]] == q[yi[i]]
        default: p[xi[i]] > q[yi[i]]
        }
      }
    }
    switch (x.values, y.values) {
    case (.float32(let p), .float32(let q)): return Value(shape: shape, values: .bool(compare(p, q)))
    case (.int32(let p), .int32(let q)): return Value(shape: shape, values: .bool(compare(p, q)))
    case (.int64(let p), .int64(let q)): return Value(shape: shape, values: .bool(compare(p, q)))
    case (.string(let p), .string(let q)): return Value(shape: shape, values: .bool(compare(p, q)))
    default: throw GraphError("\(operation.name): \(x.values.type) with \(y.values.type)")
    }
  }

  private static func cast(_ x: Value, to type: ElementType) throws(GraphError) -> Value {
    let doubles: [Double]
    switch x.values {
    case .float32(let v): doubles = v.map(Double.init)
    case .int32(let v): doubles = v.map(Double.init)
    case .int64(let v): doubles = v.map(Double.init)
    case .bool(let v): doubles = v.map { $0 ? 1 : 0 }
    case .string: throw GraphError("cast: strings are not supported")
    }
    let values: TensorValues =
      switch type {
      case .float32: .float32(doubles.map { Float($0) })
      case .int32: .int32(doubles.map { Int32(clamping: Int64($0.isFinite ? $0 : 0)) })
      case .int64: .int64(doubles.map { Int64($0.isFinite ? $0 : 0) })
      case .bool: .bool(doubles.map { $0 != 0 })
      case .string: .string(doubles.map { "\($0)" })
      }
    return Value(shape: x.shape, values: values)
  }

  private static func gather(_ params: Value, _ indices: Value, axis: Int, batchDimensions: Int) throws(GraphError)
    -> Value
  {
    guard let picks = indices.values.integers else { throw GraphError("gather: integer indices") }
    let p = params.shape
    let size = p[axis]
    let inner = p[(axis + 1)...].reduce(1, *)
    let batches = batchDimensions == 0 ? 1 : p[0]
    let outerPerBatch = p[batchDimensions..<axis].reduce(1, *)
    let indicesPerBatch = picks.count / max(batches, 1)
    var order: [(input: Int, index: Int)] = []
    for b in 0..<batches {
      for o in 0..<outerPerBatch {
        for i in 0..<indicesPerBatch {
          var index = picks[b * indicesPerBatch + i]
          if index < 0 { index += size }
          guard index >= 0 && index < size else { throw GraphError("gather: index \(index) of \(size)") }
          for j in 0..<inner { order.append((0, ((b * outerPerBatch + o) * size + index) * inner + j)) }
        }
      }
    }
    let shape = Array(p[..<axis]) + Array(indices.shape[batchDimensions...]) + Array(p[(axis + 1)...])
    return Value(shape: shape, values: try pick(order, from: [params.values]))
  }

  private static func sum(_ x: Value, axes: [Int], keepDimensions: Bool) throws(GraphError) -> Value {
    guard case .float32(let v) = x.values else { throw GraphError("sum: float32 only") }
    let shape = x.shape
    let reducedShape = shape.enumerated().map { axes.contains($0.offset) ? 1 : $0.element }
    var out = [Float](repeating: 0, count: reducedShape.reduce(1, *))
    let target = BroadcastIndex(reducedShape, to: shape)
    for i in v.indices { out[target[i]] += v[i] }
    let outShape =
      keepDimensions ? reducedShape : shape.enumerated().filter { !axes.contains($0.offset) }.map(\.element)
    return Value(shape: outShape, values: .float32(out))
  }

  private static func integers(_ values: [Int], as type: ElementType) -> TensorValues {
    type == .int64 ? .int64(values.map(Int64.init)) : .int32(values.map { Int32($0) })
  }

  /// Elements picked from `sources` by (source, index), in order.
  private static func pick(_ order: [(input: Int, index: Int)], from sources: [TensorValues]) throws(GraphError)
    -> TensorValues
  {
    switch sources[0] {
    case .float32:
      let all: [[Float]] = sources.map { if case .float32(let v) = $0 { v } else { [] } }
      return .float32(order.map { all[$0.input][$0.index] })
    case .int32:
      let all: [[Int32]] = sources.map { if case .int32(let v) = $0 { v } else { [] } }
      return .int32(order.map { all[$0.input][$0.index] })
    case .int64:
      let all: [[Int64]] = sources.map { if case .int64(let v) = $0 { v } else { [] } }
      return .int64(order.map { all[$0.input][$0.index] })
    case .bool:
      let all: [[Bool]] = sources.map { if case .bool(let v) = $0 { v } else { [] } }
      return .bool(order.map { all[$0.input][$0.index] })
    case .string:
      let all: [[String]] = sources.map { if case .string(let v) = $0 { v } else { [] } }
      return .string(order.map { all[$0.input][$0.index] })
    }
  }

  private static func choose(_ picks: [(Bool, Int)], _ x: TensorValues, _ y: TensorValues) -> TensorValues {
    switch (x, y) {
    case (.float32(let p), .float32(let q)): .float32(picks.map { $0.0 ? p[$0.1] : q[$0.1] })
    case (.int32(let p), .int32(let q)): .int32(picks.map { $0.0 ? p[$0.1] : q[$0.1] })
    case (.int64(let p), .int64(let q)): .int64(picks.map { $0.0 ? p[$0.1] : q[$0.1] })
    case (.bool(let p), .bool(let q)): .bool(picks.map { $0.0 ? p[$0.1] : q[$0.1] })
    case (.string(let p), .string(let q)): .string(picks.map { $0.0 ? p[$0.1] : q[$0.1] })
    default: preconditionFailure("select of two types")
    }
  }
}

/// Maps each flat index of a broadcast result to the flat index of an input of shape `from`.
struct BroadcastIndex {
  private let strides: [Int]
  private let shape: [Int]

  init(_ from: [Int], to shape: [Int]) {
    let padded = Array(repeating: 1, count: shape.count - from.count) + from
    var strides = [Int](repeating: 0, count: shape.count)
    var stride = 1
    for d in (0..<shape.count).reversed() {
      strides[d] = padded[d] == 1 && shape[d] != 1 ? 0 : stride
      stride *= padded[d]
    }
    self.strides = strides
    self.shape = shape
  }

  subscript(_ flat: Int) -> Int {
    var rest = flat
    var index = 0
    for d in (0..<shape.count).reversed() {
      index += (rest % shape[d]) * strides[d]
      rest /= shape[d]
    }
    return index
  }
}
