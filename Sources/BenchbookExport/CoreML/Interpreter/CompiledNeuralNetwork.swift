import Foundation

/// Core ML's neural-network classifier for the layers Benchbook writes, run
/// over one-dimensional blobs (channels only) in double precision with the
/// file's float32 weights. (On a device Core ML computes in float32 on the
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
    guard !network.layers.isEmpty else { throw EvaluationError("the neural network has no layers") }
    var known: Set<String> = [input]
    for layer in network.layers {
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
      case .scale(let parameters):
        let channels = parameters.shape.count == 1 ? Int(parameters.shape[0]) : -1
        guard layer.inputs.count == 1, channels >= 1, parameters.scale.count == channels,
          parameters.bias.isEmpty || parameters.bias.count == channels
        else { throw EvaluationError("scale layer '\(layer.name)' has inconsistent sizes (channels only)") }
      case .unsupported(let field):
        throw EvaluationError("layer '\(layer.name)' is of a kind Benchbook does not evaluate (field \(field))")
      }
      known.insert(layer.outputs[0])
    }
    let blob =
      network.labelProbabilityLayerName.isEmpty ? network.layers.last!.outputs[0] : network.labelProbabilityLayerName
    guard known.contains(blob) else { throw EvaluationError("no layer produces the probabilities '\(blob)'") }
    probabilityBlob = blob
    layers = network.layers
  }

  func run(_ features: inout [String: FeatureValue]) throws(EvaluationError) {
    var blobs: [String: [Double]] = [input: try ModelCompiler.vector(features[input], named: input)]
    for layer in layers {
      let inputs = layer.inputs.map { blobs[$0]! }
      let result: [Double]
      switch layer.kind {
      case .innerProduct(let parameters):
        let x = inputs[0]
        let inCount = Int(parameters.inputChannels)
        guard x.count == inCount else {
          throw EvaluationError("layer '\(layer.name)' takes \(inCount) channels, given \(x.count)")
        }
        result = (0..<Int(parameters.outputChannels)).map { o in
          var sum = parameters.hasBias ? Double(parameters.bias[o]) : 0
          for i in 0..<inCount { sum += Double(parameters.weights[o * inCount + i]) * x[i] }
          return sum
        }
      case .softmax:
        let largest = inputs[0].max() ?? 0
        let exponentials = inputs[0].map { exp($0 - largest) }
        let total = exponentials.reduce(0, +)
        result = exponentials.map { $0 / total }
      case .multiply(let alpha):
        if inputs.count == 1 {
          result = inputs[0].map { $0 * Double(alpha) }
        } else {
          guard Set(inputs.map(\.count)).count == 1 else {
            throw EvaluationError("layer '\(layer.name)' multiplies blobs of different sizes")
          }
          result = inputs[0].indices.map { i in inputs.reduce(1) { $0 * $1[i] } }
        }
      case .concat:
        result = inputs.flatMap { $0 }
      case .scale(let parameters):
        let x = inputs[0]
        let channels = parameters.scale.count
        guard channels == 1 || x.count == channels else {
          throw EvaluationError("layer '\(layer.name)' scales \(channels) channels, given \(x.count)")
        }
        result = x.indices.map { i in
          let c = channels == 1 ? 0 : i
          return x[i] * Double(parameters.scale[c]) + (parameters.bias.isEmpty ? 0 : Double(parameters.bias[c]))
        }
      case .unsupported:
        throw EvaluationError("layer '\(layer.name)' cannot be evaluated")
      }
      blobs[layer.outputs[0]] = result
    }
    let probabilities = blobs[probabilityBlob]!
    guard probabilities.count == output.labels.count else {
      throw EvaluationError("the network gives \(probabilities.count) probabilities for \(output.labels.count) classes")
    }
    output.write(probabilities, to: &features)
  }
}
