import BenchbookModels

/// The missing indicators as a Core ML network, computed from the raw vectorized columns before the imputer fills
/// them, as `FittedImputer.transform` appends them: one 0/1 column per indicated feature, in feature order.
///
/// A missing number reaches the network as NaN, and `notEqual(x, x)` is 1 exactly there (NaN differs from
/// itself; a comparison, since NaN would pass through any arithmetic). A missing text category never reaches the
/// vectorized columns (its imputer fills it first); its indicator is a one-hot encoder over `[""]` of the raw
/// input, which the network joins (`concatND`) after the columns' flags. One inner product with 0/1 weights then
/// picks each indicated feature's flag in feature order; its inputs are 0 or 1, so it computes them exactly in any
/// precision (float16 on the GPU included). `notEqual` and `concatND` were added in specification version 4 (iOS
/// 13) and need the exact array mapping, so the network, and a file holding it, declares version 4.
enum MissingIndicators {
  /// - Parameters:
  ///   - columns: the vectorized columns' count (the design matrix's width).
  ///   - vectorized: the raw vectorized columns, NaN where a number is missing.
  ///   - texts: per indicated text input, its [1] one-hot over `[""]`.
  ///   - output: the network's output, one column per indicated feature.
  static func network(
    _ imputer: FittedImputer, columns: Int, vectorized: FeatureDescription, texts: [String: FeatureDescription],
    output: FeatureDescription, names: inout FeatureNames
  ) throws(ExportError) -> CoreMLModel {
    let indicated = imputer.indicated
    let textInputs = indicated.compactMap { texts[$0.name] }
    let flags = names.claim("missingFlags")
    var layers = [
      NeuralNetworkLayer(
        name: "isNaN", inputs: [vectorized.name, vectorized.name], outputs: [flags], kind: .notEqual(alpha: 0))
    ]
    var candidates = flags
    if !textInputs.isEmpty {
      candidates = names.claim("missingCandidates")
      layers.append(
        NeuralNetworkLayer(
          name: "withTextFlags", inputs: [flags] + textInputs.map(\.name), outputs: [candidates],
          kind: .concatND(axis: -1)))
    }
    // Row i picks indicated feature i's flag: its first column's, or its text flag after the columns.
    let width = columns + textInputs.count
    var weights = [Float](repeating: 0, count: indicated.count * width)
    var nextText = columns
    for (i, fill) in indicated.enumerated() {
      let source: Int
      if texts[fill.name] != nil {
        source = nextText
        nextText += 1
      } else {
        guard fill.columns.lowerBound < columns else {
          throw ExportError(
            "the imputer indicates '\(fill.name)', whose column \(fill.columns.lowerBound) is no input's")
        }
        source = fill.columns.lowerBound
      }
      weights[i * width + source] = 1
    }
    layers.append(
      NeuralNetworkLayer(
        name: "indicators", inputs: [candidates], outputs: [output.name],
        kind: .innerProduct(
          .init(
            inputChannels: UInt64(width), outputChannels: UInt64(indicated.count), hasBias: false, weights: weights,
            bias: []))))
    return CoreMLModel(
      specificationVersion: SpecificationVersion.iOS13.rawValue,
      description: ModelDescription(inputs: [vectorized] + textInputs, outputs: [output]),
      kind: .neuralNetwork(NeuralNetwork(layers: layers, arrayShapeMapping: .exact)))
  }
}
