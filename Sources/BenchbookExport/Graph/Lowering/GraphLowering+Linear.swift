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

  /// Gaussian naive Bayes (`GaussianDistances`): the rows [batch, 1, columns] less each class's means [classes,
  /// columns], times its scales, squared and summed over the columns [batch, classes]; the class constants less
  /// those sums; softmax. The standardisation is folded into the means and scales, so the distances are taken
  /// between raw values: a row at a class-constant feature's value gives exactly zero there.
  mutating func gaussian(_ form: GaussianForm, x: Int) throws(ExportError) -> Int {
    let d = columns
    let k = form.classCount
    let distances = try GaussianDistances(form, width: d).before(standardisation)
    let means = try GaussianDistances.single(distances.means, "means")
    let scales = try GaussianDistances.single(distances.scales, "scales")
    let constants = try GaussianDistances.single(distances.constants, "class constants")
    do {
      let rows = try graph.apply(.reshape(shape: [-1, 1, d]), x, name: "rows")
      let centred = try graph.apply(
        .subtract, rows, graph.constant("class_means", floats: means, shape: [k, d]), name: "class_differences")
      let scaled = try graph.apply(
        .multiply, centred, graph.constant("class_scales", floats: scales, shape: [k, d]), name: "scaled_differences")
      let squares = try graph.apply(.multiply, scaled, scaled, name: "squares")
      let sums = try graph.apply(.sum(axes: [2], keepDimensions: false), squares, name: "scaled_distances")
      let scores = try graph.apply(
        .subtract, graph.constant("class_constants", floats: constants), sums, name: "joint_log_likelihood")
      return try graph.apply(.softmax, scores, name: "softmax")
    } catch {
      throw ExportError("could not build the \(algorithm)'s graph: \(error.message)")
    }
  }
}
