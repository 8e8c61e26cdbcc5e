import BenchbookModels

extension GraphLowering {
  /// k-nearest neighbours: squared distances to every stored row, the k nearest by `topK` (equal distances in
  /// stored order, as the fitted model takes them), their labels one-hot, summed with their weights.
  ///
  /// Distances are taken between raw values, (x − s)·(1/scale) per column, with the stored rows mapped back
  /// to raw units: a row equal to a training row then lies at distance exactly zero in float32, which
  /// inverse-distance weighting treats apart, and raw differences of whole numbers are exact.
  mutating func neighbors(_ form: NeighborsForm, x: Int) throws(ExportError) -> Int {
    let d = columns
    let n = form.sampleCount
    let map = standardisation
    var stored = [Float]()
    stored.reserveCapacity(n * d)
    for r in 0..<n {
      for c in 0..<d {
        var value = form.samples.values[r * d + c]
        for scaler in scalers.reversed() { value = value * scaler.scale[c] + scaler.mean[c] }
        let single = Float(value)
        guard single.isFinite else {
          throw ExportError("a stored row's value (\(value)) does not fit in float32, which the file stores rows as")
        }
        stored.append(single)
      }
    }
    guard form.k <= n else { throw ExportError("k = \(form.k) of \(n) stored rows") }
    do {
      let rows = try graph.apply(.reshape(shape: [-1, 1, d]), x, name: "query")
      let differences = try graph.apply(
        .subtract, rows, graph.constant("stored_rows", floats: stored, shape: [n, d]), name: "differences")
      let scaled =
        try map.map { map throws(GraphError) in
          try graph.apply(
            .multiply, differences, graph.constant("inverse_scale", floats: map.scale.map { Float(1 / $0) }),
            name: "scaled_differences")
        } ?? differences
      let squares = try graph.apply(.multiply, scaled, scaled, name: "squares")
      let distances = try graph.apply(.sum(axes: [2], keepDimensions: false), squares, name: "squared_distances")
      let closeness = try graph.apply(.negate, distances, name: "closeness")
      let nearest = try graph.append(.topK(k: form.k, indexType: dialect.indexType), [closeness], name: "nearest")
      // int32 labels in every format: half the bytes of int64 for every stored row.
      let labels = TensorValues.int32(form.labels.map { Int32($0) })
      let neighbourLabels = try graph.apply(
        .gather(axis: 0, batchDimensions: 0), graph.constant("stored_labels", labels), nearest[1],
        name: "neighbour_labels")
      let votes = try graph.apply(.oneHot(depth: form.classCount), neighbourLabels, name: "votes")
      switch form.weighting {
      case .uniform:
        let counts = try graph.apply(.sum(axes: [1], keepDimensions: false), votes, name: "counts")
        return try graph.apply(.divide, counts, graph.scalar("k", Float(form.k)), name: "shares")
      case .inverseDistance:
        // 1/distance; when some of the k lie at distance zero, they weigh 1 and the others 0.
        let squared = try graph.apply(.negate, nearest[0], name: "neighbour_squared_distances")
        let distance = try graph.apply(.squareRoot, squared, name: "neighbour_distances")
        let atZero = try graph.apply(.equal, distance, graph.scalar("zero", 0), name: "at_zero")
        let atZeroNumbers = try graph.apply(.cast(.float32), atZero, name: "at_zero_number")
        let zeros = try graph.apply(.sum(axes: [1], keepDimensions: true), atZeroNumbers, name: "zero_count")
        let anyAtZero = try graph.apply(.greater, zeros, graph.scalar("none", 0), name: "any_at_zero")
        let inverse = try graph.apply(.divide, graph.scalar("one", 1), distance, name: "inverse_distances")
        let weights = try graph.apply(.select, anyAtZero, atZeroNumbers, inverse, name: "weights")
        let column = try graph.apply(.reshape(shape: [-1, form.k, 1]), weights, name: "weight_column")
        let weighted = try graph.apply(.multiply, votes, column, name: "weighted_votes")
        let totals = try graph.apply(.sum(axes: [1], keepDimensions: false), weighted, name: "class_weights")
        let all = try graph.apply(.sum(axes: [1], keepDimensions: true), totals, name: "total_weight")
        return try graph.apply(.divide, totals, all, name: "shares")
      }
    } catch {
      throw ExportError("could not build the \(algorithm)'s graph: \(error.message)")
    }
  }
}
