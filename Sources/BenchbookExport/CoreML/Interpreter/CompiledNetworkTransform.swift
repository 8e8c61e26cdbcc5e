/// Core ML's plain neural network as a pipeline stage: array inputs, by name, through the layers to array outputs,
/// each the blob of its name, in double precision with the file's float32 weights (`CompiledNeuralNetwork`'s layer
/// semantics). An input array [d] is a vector either way: a [d, 1, 1] blob under the rank-5 mapping, the rank-1
/// tensor [d] under the exact one, which the layers Benchbook writes treat alike.
struct CompiledNetworkTransform: CompiledModel {
  let inputs: [String]
  let outputs: [String]
  let layers: [NeuralNetworkLayer]

  init(_ network: NeuralNetwork, description: ModelDescription) throws(EvaluationError) {
    inputs = description.inputs.map(\.name)
    outputs = description.outputs.map(\.name)
    guard !inputs.isEmpty, !outputs.isEmpty else {
      throw EvaluationError("a neural network needs at least one input and one output")
    }
    // As Core ML's validator: a layer added in specification version 4 needs the exact array mapping.
    if network.arrayShapeMapping == .rank5, let layer = network.layers.first(where: \.kind.isIOS13) {
      throw EvaluationError(
        "layer '\(layer.name)' was added in specification version 4 and needs the exact array mapping")
    }
    let known = try CompiledNeuralNetwork.check(network.layers, inputs: Set(inputs))
    for output in outputs where !known.contains(output) {
      throw EvaluationError("no layer of the neural network produces its output '\(output)'")
    }
    layers = network.layers
  }

  func run(_ features: inout [String: FeatureValue]) throws(EvaluationError) {
    var blobs: [String: CompiledNeuralNetwork.Blob] = [:]
    for input in inputs {
      let x = try ModelCompiler.vector(features[input], named: input)
      blobs[input] = .init(values: x, channels: x.count)
    }
    for layer in layers {
      let given = layer.inputs.map { blobs[$0]! }
      blobs[layer.outputs[0]] = try CompiledNeuralNetwork.evaluate(layer, given)
    }
    for output in outputs { features[output] = .array(blobs[output]!.values) }
  }
}
