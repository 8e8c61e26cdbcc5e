import BenchbookModels

/// The spec's fitted imputation in a graph (TensorFlow Lite and ONNX alike), mirroring
/// `FittedImputer.transform`: every missing cell of an imputed feature takes the training rows' fill, then one
/// 0/1 column per indicated feature is appended after the design matrix's columns, in feature order.
///
/// The app marks a missing value with NaN: a missing number, and in TensorFlow Lite a missing category index.
/// In the design matrix such a row holds NaN in every column of the feature (a one-hot of NaN is NaN here, as in
/// Benchbook's own matrix), and one `select` puts the fills in: `equal(x, x)` is false exactly for NaN, so
/// `select(equal(x, x), x, fill)` needs no IS_NAN, which TensorFlow Lite's builtins lack, and the same two
/// generic operators serve ONNX. One mechanism for both formats rather than ONNX-ML's `Imputer` there: the same
/// lowering, read back and evaluated by the same code, and the indicators need the `equal` anyway. A column the
/// imputer leaves alone has NaN as its "fill", so a NaN there stays NaN, as Benchbook's own pipeline leaves it.
///
/// ONNX takes categories as they are: the app passes `""` for a missing text category and `Int64.min` for a
/// missing integer one (`MissingSentinel`, Core ML's sentinels too), which `select(equal(c, sentinel), fill, c)`
/// replaces before the one-hot encoder.
extension GraphLowering {
  /// What a graph cannot carry of `imputer`: columns other than the inputs', a fill the training rows could not
  /// compute, an ONNX int64 category to impute that has the sentinel among its categories.
  static func checkImputer(_ imputer: FittedImputer, layout: InputLayout, dialect: GraphDialect)
    throws(ExportError)
  {
    guard imputer.inputWidth == layout.width else {
      throw ExportError("the fitted imputer has \(imputer.inputWidth) columns; the inputs give \(layout.width)")
    }
    if let unfitted = imputer.unfitted {
      throw ExportError("feature '\(unfitted.name)' has no fill: the training rows hold no value to compute it from")
    }
    for fill in imputer.fills {
      guard let input = layout.inputs.first(where: { $0.name == fill.name }), input.summary.columns == fill.columns
      else { throw ExportError("the imputer fills '\(fill.name)', which is no input of the file") }
      if dialect.inputs == .typedFeatures, input.labelType == .int64 {
        try MissingSentinel.checkIntegerCategories(input.summary.categories ?? [], feature: fill.name)
      }
    }
  }

  /// A category input (text, or int64 when `labelType` says so) with its sentinel (`MissingSentinel`) replaced by
  /// the fill's category, and the bool [batch, 1] rows that missed it.
  mutating func filledCategory(
    _ input: Int, _ fill: FittedImputer.Fill, categories: [String], labelType: LabelType, name: String
  ) throws(GraphError) -> (filled: Int, missing: Int) {
    // The fill is a training row's one-hot columns: its category is the hot one.
    let chosen = categories[fill.hotColumn ?? 0]
    let (sentinel, filler): (TensorValues, TensorValues) =
      switch labelType {
      case .string: (.string([MissingSentinel.text]), .string([chosen]))
      case .int64: (.int64([MissingSentinel.integer]), .int64([LabelType.int64(from: chosen) ?? 0]))
      }
    let missing = try graph.apply(
      .equal, input, graph.constant("\(name)_missing_value", sentinel, shape: []), name: "\(name)_missing")
    let filled = try graph.apply(
      .select, missing, graph.constant("\(name)_fill", filler, shape: []), input, name: "\(name)_imputed")
    return (filled, missing)
  }

  /// `x` [batch, design columns] with the fills in and the indicator columns appended.
  mutating func imputed(_ x: Int, _ imputer: FittedImputer, missingCategories: [String: Int]) throws(GraphError)
    -> Int
  {
    let width = layout.width
    // Fills the design matrix takes: every one but those of string categories filled before their encoder.
    var fillRow = [Float](repeating: .nan, count: width)
    var inMatrix = false
    for fill in imputer.fills where missingCategories[fill.name] == nil {
      for (offset, column) in fill.columns.enumerated() { fillRow[column] = Float(fill.values[offset]) }
      inMatrix = true
    }
    var filled = x
    var present: Int?
    if inMatrix {
      let isPresent = try graph.apply(.equal, x, x, name: "present")
      present = isPresent
      filled = try graph.apply(
        .select, isPresent, x, graph.constant("imputed_fill", floats: fillRow), name: "imputed")
    }
    let indicated = imputer.indicated
    guard !indicated.isEmpty else { return filled }
    // One indicator per feature, in feature order: runs of design-matrix features gathered at once.
    var pieces: [Int] = []
    var run: [Int32] = []
    var presentNumbers: Int?
    func flush(_ lowering: inout GraphLowering) throws(GraphError) {
      guard !run.isEmpty, let present else { return }
      let numbers: Int
      if let presentNumbers {
        numbers = presentNumbers
      } else {
        numbers = try lowering.graph.apply(.cast(.float32), present, name: "present_number")
        presentNumbers = numbers
      }
      let picked = try lowering.graph.apply(
        .gather(axis: 1, batchDimensions: 0), numbers,
        lowering.graph.constant("indicator_column", .int32(run)), name: "indicated_present")
      pieces.append(
        try lowering.graph.apply(.subtract, lowering.graph.scalar("one", 1), picked, name: "missing_indicator"))
      run = []
    }
    for fill in indicated {
      if let missing = missingCategories[fill.name] {
        try flush(&self)
        pieces.append(try graph.apply(.cast(.float32), missing, name: "\(fill.name)_indicator"))
      } else {
        run.append(Int32(fill.columns.lowerBound))
      }
    }
    try flush(&self)
    return try graph.apply(.concatenate(axis: 1), [filled] + pieces, name: "imputed_with_indicators")
  }
}
