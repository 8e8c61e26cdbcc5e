/// The type and shape of each operation's results, and the checks that its
/// inputs fit: what `TensorGraph.append` relies on. −1 is the batch dimension.
enum ShapeInference {
  typealias Result = (type: ElementType, shape: [Int])

  static func outputs(of operation: GraphOperation, inputs: [GraphTensor]) throws(GraphError) -> [Result] {
    func need(_ count: Int) throws(GraphError) {
      guard inputs.count == count else {
        throw GraphError("\(operation.name) takes \(count) inputs, not \(inputs.count)")
      }
    }
    func check(_ condition: Bool, _ message: @autoclosure () -> String) throws(GraphError) {
      guard condition else { throw GraphError("\(operation.name): \(message())") }
    }
    switch operation {
    case .fullyConnected:
      try need(3)
      let (x, w, b) = (inputs[0].shape, inputs[1].shape, inputs[2].shape)
      try check(x.count == 2 && w.count == 2 && b == [w[0]] && x[1] == w[1], "shapes \(x), \(w), \(b) do not fit")
      try check(inputs.allSatisfy { $0.type == .float32 }, "float32 only")
      return [(.float32, [x[0], w[0]])]
    case .softmax, .squareRoot, .negate:
      try need(1)
      return [(inputs[0].type, inputs[0].shape)]
    case .add, .subtract, .multiply, .divide:
      try need(2)
      try check(inputs[0].type == inputs[1].type, "\(inputs[0].type) with \(inputs[1].type)")
      return [(inputs[0].type, try broadcast(inputs[0].shape, inputs[1].shape, operation))]
    case .lessEqual, .equal, .greater:
      try need(2)
      try check(inputs[0].type == inputs[1].type, "\(inputs[0].type) with \(inputs[1].type)")
      return [(.bool, try broadcast(inputs[0].shape, inputs[1].shape, operation))]
    case .cast(let type):
      try need(1)
      return [(type, inputs[0].shape)]
    case .select:
      try need(3)
      try check(inputs[0].type == .bool && inputs[1].type == inputs[2].type, "a bool condition and two equal types")
      let shape = try broadcast(try broadcast(inputs[0].shape, inputs[1].shape, operation), inputs[2].shape, operation)
      return [(inputs[1].type, shape)]
    case .concatenate(let axis):
      try check(!inputs.isEmpty, "nothing to concatenate")
      let first = inputs[0].shape
      try check(axis >= 0 && axis < first.count, "axis \(axis) of rank \(first.count)")
      var total = 0
      for input in inputs {
        try check(input.type == inputs[0].type && input.shape.count == first.count, "inputs differ in type or rank")
        for d in first.indices where d != axis {
          try check(input.shape[d] == first[d], "shapes \(first) and \(input.shape) differ off axis \(axis)")
        }
        total += input.shape[axis]
      }
      var shape = first
      shape[axis] = total
      return [(inputs[0].type, shape)]
    case .gather(let axis, let batchDimensions):
      try need(2)
      let (params, indices) = (inputs[0].shape, inputs[1].shape)
      try check(inputs[1].type == .int32 || inputs[1].type == .int64, "integer indices")
      try check(axis >= batchDimensions && axis < params.count, "axis \(axis) of rank \(params.count)")
      try check(batchDimensions == 0 || (indices.count >= batchDimensions && indices[0] == params[0]), "batch rows")
      return [
        (inputs[0].type, Array(params[..<axis]) + Array(indices[batchDimensions...]) + Array(params[(axis + 1)...]))
      ]
    case .topK(let k, let indexType):
      try need(1)
      let shape = inputs[0].shape
      try check(!shape.isEmpty && (shape.last! < 0 || shape.last! >= k) && k >= 1, "k = \(k) of \(shape)")
      try check(indexType == .int32 || indexType == .int64, "integer indices")
      let out = Array(shape.dropLast()) + [k]
      return [(inputs[0].type, out), (indexType, out)]
    case .oneHot(let depth):
      try need(1)
      try check(inputs[0].type == .int32 || inputs[0].type == .int64, "integer indices")
      return [(.float32, inputs[0].shape + [depth])]
    case .sum(let axes, let keep):
      try need(1)
      let shape = inputs[0].shape
      try check(axes.allSatisfy { $0 >= 0 && $0 < shape.count }, "axes \(axes) of rank \(shape.count)")
      var out: [Int] = []
      for (d, size) in shape.enumerated() {
        if axes.contains(d) {
          if keep { out.append(1) }
        } else {
          out.append(size)
        }
      }
      return [(inputs[0].type, out)]
    case .reshape(let shape):
      try need(1)
      let from = inputs[0].shape
      let known = { (s: [Int]) in elementCount(s.filter { $0 >= 0 }) ?? -1 }
      try check(shape.count { $0 < 0 } == from.count { $0 < 0 } && shape.count { $0 < 0 } <= 1, "\(from) to \(shape)")
      try check(known(from) == known(shape), "\(from) to \(shape): element counts differ")
      return [(inputs[0].type, shape)]
    case .argMax(let axis):
      try need(1)
      var shape = inputs[0].shape
      try check(axis >= 0 && axis < shape.count, "axis \(axis) of rank \(shape.count)")
      shape.remove(at: axis)
      return [(.int64, shape)]
    case .oneHotEncoder(let categories):
      try need(1)
      try check(inputs[0].type == categories.type, "\(inputs[0].type) input, \(categories.type) categories")
      try check(inputs[0].shape.count == 2 && inputs[0].shape[1] == 1, "a [batch, 1] input")
      return [(.float32, inputs[0].shape + [categories.count])]
    case .treeEnsemble(let spec):
      try need(1)
      try check(inputs[0].type == .float32 && inputs[0].shape.count == 2, "float32 [batch, columns]")
      let columns = inputs[0].shape[1]
      try check(spec.branches.allSatisfy { $0.feature >= 0 && $0.feature < columns }, "a split on a missing column")
      return [(.float32, [inputs[0].shape[0], spec.targetCount])]
    }
  }

  /// The product of `dimensions`, or nil when one is negative or the product overflows (a crafted file).
  static func elementCount(_ dimensions: [Int]) -> Int? {
    var count = 1
    for dimension in dimensions {
      guard dimension >= 0 else { return nil }
      let (product, overflow) = count.multipliedReportingOverflow(by: dimension)
      guard !overflow else { return nil }
      count = product
    }
    return count
  }

  /// numpy broadcasting; the batch dimension (−1) broadcasts with itself and with 1.
  static func broadcast(_ a: [Int], _ b: [Int], _ operation: GraphOperation) throws(GraphError) -> [Int] {
    let rank = max(a.count, b.count)
    let a = Array(repeating: 1, count: rank - a.count) + a
    let b = Array(repeating: 1, count: rank - b.count) + b
    var out: [Int] = []
    for (x, y) in zip(a, b) {
      if x == y || y == 1 {
        out.append(x)
      } else if x == 1 {
        out.append(y)
      } else {
        throw GraphError("\(operation.name): shapes \(a) and \(b) do not broadcast")
      }
    }
    return out
  }
}
