import BenchbookModels

extension GraphLowering {
  /// Linear scores and a softmax: the spec's standardisation, one fully connected layer holding every class's
  /// row (a sigmoid's single row z becomes the rows 0 and z, since softmax(0, z) = (1 − σ(z), σ(z))), softmax.
  mutating func linear(_ form: LinearForm, x: Int) throws(ExportError) -> Int {
    guard form.weights.values.allSatisfy(\.isFinite), form.intercepts.allSatisfy(\.isFinite) else {
      throw ExportError("the \(algorithm) has weights that are not finite")
    }
    let (weights, intercepts) = form.softmaxRows
    do {
      let input = try standardisation.map { map throws(GraphError) in try affine(x, map, name: "standardized") } ?? x
      let scores = try graph.apply(
        .fullyConnected, input,
        graph.constant("weights", floats: weights.values.map { Float($0) }, shape: [weights.rows, weights.columns]),
        graph.constant("intercepts", floats: intercepts.map { Float($0) }), name: "scores")
      return try graph.apply(.softmax, scores, name: "softmax")
    } catch {
      throw ExportError("could not build the \(algorithm)'s graph: \(error.message)")
    }
  }

  /// Gaussian naive Bayes: the standardisation and the expansion's conditioning as one float32 affine map
  /// (every value near 1 after it), [u, u²], one fully connected layer, softmax (`GaussianExpansion`).
  mutating func gaussian(_ form: GaussianForm, x: Int) throws(ExportError) -> Int {
    let expansion = try GaussianExpansion(form, width: layout.width)
    let conditioning = (standardisation ?? .identity(width: layout.width)).then(expansion.conditioning)
    let d = layout.width
    do {
      let u = try affine(x, conditioning, name: "conditioned")
      let squares = try graph.apply(.multiply, u, u, name: "squares")
      let expanded = try graph.apply(.concatenate(axis: 1), [u, squares], name: "expanded")
      let scores = try graph.apply(
        .fullyConnected, expanded,
        graph.constant("weights", floats: expansion.weights, shape: [form.classCount, 2 * d]),
        graph.constant("bias", floats: expansion.bias), name: "joint_log_likelihood")
      return try graph.apply(.softmax, scores, name: "softmax")
    } catch {
      throw ExportError("could not build the \(algorithm)'s graph: \(error.message)")
    }
  }
}
