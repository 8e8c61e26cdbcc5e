import Foundation

/// Core ML's neural-network classifier for the layers Benchbook writes, run
/// over [C, H, W] blobs (the input a [d, 1, 1] vector, as Core ML maps a
/// one-dimensional array up to specification version 3) in double precision
/// with the file's float32 weights. (On a device Core ML computes in float32 on the
/// CPU, or float16 on the GPU and Neural Engine unless the app asks for the
/// CPU.)
struct CompiledNeuralNetwork: CompiledModel {
  let input: String
  let layers: [NeuralNetworkLayer]
  let probabilityBlob: String
  let output: ClassifierOutput

  init(_ network: NeuralNetworkClassifier, description: ModelDescription) throws(EvaluationError) {
    input = try ModelCompiler.onlyInput(description, of: "neural-network classifier").name
    output = try ClassifierOutput(labels: network.classLabels, description: description)
    let known = try Self.check(network.layers, inputs: [input])
    // The classifier mirror reads no shape mapping, so it holds only the layers of the rank-5 one.
    if let layer = network.layers.first(where: \.kind.isIOS13) {
      throw EvaluationError(
        "layer '\(layer.name)' needs the exact array mapping, which Benchbook evaluates in a neural-network transform only"
      )
    }
    let blob =
      network.labelProbabilityLayerName.isEmpty ? network.layers.last!.outputs[0] : network.labelProbabilityLayerName
    guard known.contains(blob) else { throw EvaluationError("no layer produces the probabilities '\(blob)'") }
    probabilityBlob = blob
    layers = network.layers
  }

  /// Checks each layer's inputs, sizes and kind, in order; the blobs known after the last one.
  static func check(_ layers: [NeuralNetworkLayer], inputs: Set<String>) throws(EvaluationError) -> Set<String> {
    guard !layers.isEmpty else { throw EvaluationError("the neural network has no layers") }
    var known = inputs
    for layer in layers {
      guard layer.outputs.count == 1 else { throw EvaluationError("layer '\(layer.name)' must have one output") }
      for blob in layer.inputs where !known.contains(blob) {
        throw EvaluationError("layer '\(layer.name)' reads '\(blob)', which nothing before it produces")
      }
      guard !known.contains(layer.outputs[0]) else {
        throw EvaluationError("layer '\(layer.name)' writes '\(layer.outputs[0])' a second time")
      }
      switch layer.kind {
      case .innerProduct(let parameters):
        guard layer.inputs.count == 1,
          parameters.weights.count == Int(parameters.inputChannels * parameters.outputChannels),
          !parameters.hasBias || parameters.bias.count == Int(parameters.outputChannels)
        else { throw EvaluationError("inner product layer '\(layer.name)' has inconsistent sizes") }
      case .softmax:
        guard layer.inputs.count == 1 else { throw EvaluationError("softmax layer '\(layer.name)' takes one input") }
      case .multiply, .concat:
        guard !layer.inputs.isEmpty else { throw EvaluationError("layer '\(layer.name)' has no inputs") }
      case .notEqual:
        guard (1...2).contains(layer.inputs.count) else {
          throw EvaluationError("not-equal layer '\(layer.name)' takes one or two inputs")
        }
      case .concatND(let axis):
        guard layer.inputs.count >= 2 else {
          throw EvaluationError("concatND layer '\(layer.name)' takes two or more inputs")
        }
        guard axis == -1 || axis == 0 else {
          throw EvaluationError(
            "concatND layer '\(layer.name)': Benchbook evaluates vectors joined end to end only (axis -1 or 0)")
        }
      case .scale(let parameters):
        func fits(_ shape: [UInt64], _ values: [Float]) -> Bool {
          shape.count == 1 && shape[0] >= 1 && values.count == Int(shape[0])
        }
        guard layer.inputs.count == 1, fits(parameters.scaleShape, parameters.scale),
          parameters.bias.isEmpty || fits(parameters.biasShape, parameters.bias)
        else { throw EvaluationError("scale layer '\(layer.name)' has inconsistent sizes (channels only)") }
      case .reshape(let parameters):
        let shape = parameters.targetShape
        guard layer.inputs.count == 1, shape.count == 3 || (shape.count == 4 && shape[0] == 1),
          shape.allSatisfy({ $0 >= 1 })
        else { throw EvaluationError("reshape layer '\(layer.name)' needs a target shape [C, H, W]") }
        guard parameters.order == .channelFirst else {
          throw EvaluationError("reshape layer '\(layer.name)': Benchbook evaluates channel-first reshapes only")
        }
      case .reduce(let parameters):
        guard layer.inputs.count == 1 else { throw EvaluationError("reduce layer '\(layer.name)' takes one input") }
        guard Self.reductions.contains(parameters.operation) else {
          throw EvaluationError("reduce layer '\(layer.name)': \(parameters.operation) is not evaluated by Benchbook")
        }
      case .unsupported(let field):
        throw EvaluationError("layer '\(layer.name)' is of a kind Benchbook does not evaluate (field \(field))")
      }
      known.insert(layer.outputs[0])
    }
    return known
  }

  /// The reductions evaluated.
  static let reductions: Set<NeuralNetworkLayer.Reduce.Operation> = [.sum, .average, .sumOfSquares, .max, .min]

  /// A blob: values in C·H·W order.
  struct Blob {
    var values: [Double]
    var channels: Int
    var height = 1
    var width = 1
    var plane: Int { height * width }
  }

  func run(_ features: inout [String: FeatureValue]) throws(EvaluationError) {
    let x = try ModelCompiler.vector(features[input], named: input)
    var blobs: [String: Blob] = [input: Blob(values: x, channels: x.count)]
    for layer in layers {
      let inputs = layer.inputs.map { blobs[$0]! }
      blobs[layer.outputs[0]] = try Self.evaluate(layer, inputs)
    }
    let probabilities = blobs[probabilityBlob]!.values
    guard probabilities.count == output.labels.count else {
      throw EvaluationError("the network gives \(probabilities.count) probabilities for \(output.labels.count) classes")
    }
    output.write(probabilities, to: &features)
  }

  static func evaluate(_ layer: NeuralNetworkLayer, _ inputs: [Blob]) throws(EvaluationError) -> Blob {
    switch layer.kind {
    case .innerProduct(let parameters):
      let x = inputs[0].values
      let inCount = Int(parameters.inputChannels)
      guard x.count == inCount else {
        throw EvaluationError("layer '\(layer.name)' takes \(inCount) channels, given \(x.count)")
      }
      let values = (0..<Int(parameters.outputChannels)).map { o in
        var sum = parameters.hasBias ? Double(parameters.bias[o]) : 0
        for i in 0..<inCount { sum += Double(parameters.weights[o * inCount + i]) * x[i] }
        return sum
      }
      return Blob(values: values, channels: values.count)
    case .softmax:
      // Across the channels, at every height and width.
      var out = inputs[0]
      let plane = out.plane
      for position in 0..<plane {
        let indices = stride(from: position, to: out.values.count, by: plane)
        let largest = indices.map { out.values[$0] }.max() ?? 0
        var total = 0.0
        for i in indices {
          out.values[i] = exp(out.values[i] - largest)
          total += out.values[i]
        }
        for i in indices { out.values[i] /= total }
      }
      return out
    case .multiply(let alpha):
      if inputs.count == 1 {
        var out = inputs[0]
        out.values = out.values.map { $0 * Double(alpha) }
        return out
      }
      guard inputs.allSatisfy({ $0.values.count == inputs[0].values.count }) else {
        throw EvaluationError("layer '\(layer.name)' multiplies blobs of different sizes")
      }
      var out = inputs[0]
      out.values = out.values.indices.map { i in inputs.reduce(1) { $0 * $1.values[i] } }
      return out
    case .concat:
      guard inputs.allSatisfy({ $0.height == inputs[0].height && $0.width == inputs[0].width }) else {
        throw EvaluationError("layer '\(layer.name)' concatenates blobs of different heights or widths")
      }
      return Blob(
        values: inputs.flatMap(\.values), channels: inputs.reduce(0) { $0 + $1.channels }, height: inputs[0].height,
        width: inputs[0].width)
    case .scale(let parameters):
      var out = inputs[0]
      let channels = out.channels
      for values in [parameters.scale, parameters.bias] where values.count != 1 && !values.isEmpty {
        guard values.count == channels else {
          throw EvaluationError("layer '\(layer.name)' scales \(values.count) channels, given \(channels)")
        }
      }
      func value(_ values: [Float], _ c: Int) -> Double {
        values.isEmpty ? 0 : Double(values[values.count == 1 ? 0 : c])
      }
      for i in out.values.indices {
        let c = i / out.plane
        out.values[i] = out.values[i] * value(parameters.scale, c) + value(parameters.bias, c)
      }
      return out
    case .reshape(let parameters):
      let shape = parameters.targetShape.suffix(3).map { Int($0) }
      guard shape.reduce(1, *) == inputs[0].values.count else {
        throw EvaluationError(
          "layer '\(layer.name)' reshapes \(inputs[0].values.count) values to \(shape.map(String.init).joined(separator: " × "))"
        )
      }
      // Channel-first: the values keep their C·H·W order.
      return Blob(values: inputs[0].values, channels: shape[0], height: shape[1], width: shape[2])
    case .reduce(let parameters):
      return reduce(inputs[0], parameters)
    case .notEqual(let alpha):
      var out = inputs[0]
      if inputs.count == 1 {
        out.values = out.values.map { $0 != Double(alpha) ? 1 : 0 }
        return out
      }
      let other = inputs[1].values
      // Broadcasting as far as Benchbook writes it: equal shapes, or one value against all.
      if other.count == out.values.count {
        out.values = zip(out.values, other).map { $0 != $1 ? 1 : 0 }
      } else if other.count == 1 {
        out.values = out.values.map { $0 != other[0] ? 1 : 0 }
      } else if out.values.count == 1 {
        out = inputs[1]
        out.values = other.map { inputs[0].values[0] != $0 ? 1 : 0 }
      } else {
        throw EvaluationError(
          "layer '\(layer.name)' compares \(out.values.count) values with \(other.count)")
      }
      return out
    case .concatND:
      // Vectors (rank 1, held as [C, 1, 1]) joined end to end.
      guard inputs.allSatisfy({ $0.plane == 1 }) else {
        throw EvaluationError("layer '\(layer.name)' joins blobs with a height or width; Benchbook joins vectors only")
      }
      let values = inputs.flatMap(\.values)
      return Blob(values: values, channels: values.count)
    case .unsupported:
      throw EvaluationError("layer '\(layer.name)' cannot be evaluated")
    }
  }

  /// The reduced axes left at size 1.
  static func reduce(_ x: Blob, _ parameters: NeuralNetworkLayer.Reduce) -> Blob {
    let (overC, overH, overW): (Bool, Bool, Bool) =
      switch parameters.axis {
      case .channelHeightWidth: (true, true, true)
      case .heightWidth: (false, true, true)
      case .channel: (true, false, false)
      case .height: (false, true, false)
      case .width: (false, false, true)
      }
    var out = Blob(
      values: [], channels: overC ? 1 : x.channels, height: overH ? 1 : x.height, width: overW ? 1 : x.width)
    var groups = [[Double]](repeating: [], count: out.channels * out.height * out.width)
    for c in 0..<x.channels {
      for h in 0..<x.height {
        for w in 0..<x.width {
          let target = ((overC ? 0 : c) * out.height + (overH ? 0 : h)) * out.width + (overW ? 0 : w)
          groups[target].append(x.values[(c * x.height + h) * x.width + w])
        }
      }
    }
    out.values = groups.map { group in
      switch parameters.operation {
      case .sum: group.reduce(0, +)
      case .average: group.reduce(0, +) / Double(group.count)
      case .sumOfSquares: group.reduce(0) { $0 + $1 * $1 }
      case .max: group.max()!
      case .min: group.min()!
      // Refused when the network is compiled.
      case .product, .logSum, .l1, .l2, .argMax: .nan
      }
    }
    return out
  }
}
