import BenchbookModels

/// Lowers a fitted pipeline (its inputs, standardisation and classifier form)
/// to a `TensorGraph` that takes raw feature values and outputs
/// `probabilities`, float32 [batch, classes] in the dataset's class order.
///
/// The preprocessing is inside the graph: one-hot encoding from the inputs
/// the dialect takes, the spec's imputation (`GraphLowering+Imputation`),
/// then the spec's standardisation, applied as a float32
/// subtract and multiply (or folded into the split thresholds of a tree and
/// the stored rows' distances of k-nearest neighbours, where float32 would
/// otherwise move a row across a boundary).
struct GraphLowering {
  static let inputName = "features"
  static let probabilitiesName = "probabilities"
  static let labelName = "label"

  let layout: InputLayout
  let scalers: [FittedStandardScaler]
  /// The spec's fitted imputation, applied before the scalers; `nil` without `impute`.
  let imputer: FittedImputer?
  let classes: [String]
  let dialect: GraphDialect
  let algorithm: String
  var graph = TensorGraph()

  init(
    layout: InputLayout, scalers: [FittedStandardScaler], imputer: FittedImputer? = nil, classes: [String],
    dialect: GraphDialect, algorithm: String
  ) {
    self.layout = layout
    self.scalers = scalers
    self.imputer = imputer
    self.classes = classes
    self.dialect = dialect
    self.algorithm = algorithm
  }

  /// The graph for `form`.
  static func lower(
    _ form: ExportForm, layout: InputLayout, scalers: [FittedStandardScaler], imputer: FittedImputer? = nil,
    classes: [String], dialect: GraphDialect, algorithm: String
  ) throws(ExportError) -> TensorGraph {
    let columns = layout.width + (imputer?.indicated.count ?? 0)
    guard form.featureCount == columns else {
      throw ExportError(
        "the \(algorithm) reads \(form.featureCount) columns; the inputs give \(columns) columns")
    }
    if let imputer { try checkImputer(imputer, layout: layout, dialect: dialect) }
    guard form.classCount == classes.count else {
      throw ExportError("the \(algorithm) gives \(form.classCount) probabilities for \(classes.count) classes")
    }
    let outputs = [probabilitiesName] + (dialect.labelOutput ? [labelName] : [])
    if dialect.inputs == .typedFeatures, let clash = layout.inputs.first(where: { outputs.contains($0.name) }) {
      throw ExportError("feature '\(clash.name)' has the name of an output of the file; rename it in the spec")
    }
    var lowering = GraphLowering(
      layout: layout, scalers: scalers, imputer: imputer, classes: classes, dialect: dialect, algorithm: algorithm)
    do {
      let x = try lowering.designMatrix()
      var probabilities: Int
      switch form {
      case .linear(let linear): probabilities = try lowering.linear(linear, x: x)
      case .gaussian(let gaussian): probabilities = try lowering.gaussian(gaussian, x: x)
      case .tree(let tree): probabilities = try lowering.tree(tree, x: x)
      case .treeEnsemble(let ensemble): probabilities = try lowering.treeEnsemble(ensemble, x: x)
      case .neighbors(let neighbors): probabilities = try lowering.neighbors(neighbors, x: x)
      }
      probabilities = try lowering.named(probabilities, probabilitiesName)
      lowering.graph.outputs = [probabilities]
      if dialect.labelOutput { lowering.graph.outputs.append(try lowering.label(probabilities)) }
    } catch let error as GraphError {
      throw ExportError("could not build the \(algorithm)'s graph: \(error.message)")
    } catch let error as ExportError {
      throw error
    } catch {
      throw ExportError("\(error)")
    }
    return lowering.graph
  }

  /// `tensor`, renamed to an output name an app reads.
  mutating func named(_ tensor: Int, _ name: String) throws(GraphError) -> Int {
    graph.rename(tensor, to: name)
    return tensor
  }

  /// Columns the classifier reads: the design matrix's, then one per missing indicator.
  var columns: Int { layout.width + (imputer?.indicated.count ?? 0) }

  /// The spec's standardisations as one map, nil without any.
  var standardisation: Standardisation? {
    scalers.reduce(nil as Standardisation?) { combined, scaler in
      let next = Standardisation(scaler)
      return combined?.then(next) ?? next
    }
  }

  /// x ↦ (x − mean) · (1 / scale), in float32.
  mutating func affine(_ x: Int, _ map: Standardisation, name: String) throws(GraphError) -> Int {
    let centred = try graph.apply(
      .subtract, x, graph.constant("\(name)_mean", floats: map.mean.map { Float($0) }), name: "\(name)_centred")
    return try graph.apply(
      .multiply, centred, graph.constant("\(name)_inverse_scale", floats: map.scale.map { Float(1 / $0) }),
      name: name)
  }

  // MARK: - Inputs

  /// The design matrix, float32 [batch, columns], unstandardised: numeric features as given, categorical
  /// ones one-hot, then the imputation's fills and missing indicators when the spec imputes.
  mutating func designMatrix() throws(GraphError) -> Int {
    var missingCategories: [String: Int] = [:]
    let encoded = try encodedInputs(missingCategories: &missingCategories)
    guard let imputer else { return encoded }
    return try imputed(encoded, imputer, missingCategories: missingCategories)
  }

  /// The inputs encoded as the design matrix's columns (a missing value still NaN in every column of its
  /// feature). `missingCategories`: per string category input the imputer fills before its one-hot encoding,
  /// its bool [batch, 1] tensor of rows that miss it.
  private mutating func encodedInputs(missingCategories: inout [String: Int]) throws(GraphError) -> Int {
    let allNumeric = layout.inputs.allSatisfy { $0.labelType == nil }
    switch dialect.inputs {
    case .categoryIndices:
      let input = graph.input(Self.inputName, type: .float32, shape: [-1, layout.inputs.count])
      guard !allNumeric else { return input }
      // Each design column gathers its feature; a categorical column is (feature == its category's index).
      var source: [Int32] = []
      var codes: [Float] = []
      var numeric: [Float] = []
      for (f, feature) in layout.inputs.enumerated() {
        for c in 0..<feature.width {
          source.append(Int32(f))
          codes.append(feature.labelType == nil ? .nan : Float(c))
          numeric.append(feature.labelType == nil ? 1 : 0)
        }
      }
      let spread = try graph.apply(
        .gather(axis: 1, batchDimensions: 0), input, graph.constant("feature_of_column", .int32(source)),
        name: "columns")
      let matches = try graph.apply(
        .equal, spread, graph.constant("category_of_column", floats: codes), name: "is_category")
      let oneHot = try graph.apply(.cast(.float32), matches, name: "one_hot")
      let numbers = try graph.apply(
        .multiply, spread, graph.constant("numeric_column", floats: numeric), name: "numbers")
      return try graph.apply(.add, numbers, oneHot, name: "design")
    case .typedFeatures:
      if allNumeric { return graph.input(Self.inputName, type: .float32, shape: [-1, layout.inputs.count]) }
      // Every input first, so each keeps its spec name whatever the intermediate tensors are called.
      let inputs = layout.inputs.map { feature in
        let type: ElementType = feature.labelType.map { $0 == .int64 ? .int64 : .string } ?? .float32
        return graph.input(feature.name, type: type, shape: [-1, 1])
      }
      var parts: [Int] = []
      for (feature, input) in zip(layout.inputs, inputs) {
        guard let labelType = feature.labelType else {
          parts.append(input)
          continue
        }
        let categories = feature.summary.categories ?? []
        let values: TensorValues =
          labelType == .int64
          ? .int64(categories.map { LabelType.int64(from: $0) ?? 0 }) : .string(categories)
        var category = input
        if let imputer, let fill = imputer.fills.first(where: { $0.name == feature.name }) {
          let (filled, missing) = try filledCategory(
            input, fill, categories: categories, labelType: labelType, name: feature.name)
          category = filled
          missingCategories[feature.name] = missing
        }
        let encoded = try graph.apply(.oneHotEncoder(categories: values), category, name: "\(feature.name)_one_hot")
        parts.append(
          try graph.apply(.reshape(shape: [-1, categories.count]), encoded, name: "\(feature.name)_columns"))
      }
      return try graph.apply(.concatenate(axis: 1), parts, name: "design")
    }
  }

  // MARK: - Outputs

  /// `label`: the class of the largest probability, typed like the classes (int64 or string).
  mutating func label(_ probabilities: Int) throws(GraphError) -> Int {
    let index = try graph.apply(.argMax(axis: 1), probabilities, name: "class_index")
    let labels: TensorValues =
      LabelType(labels: classes) == .int64
      ? .int64(classes.map { LabelType.int64(from: $0) ?? 0 }) : .string(classes)
    let label = try graph.apply(
      .gather(axis: 0, batchDimensions: 0), graph.constant("class_labels", labels), index, name: Self.labelName)
    return label
  }
}

extension TensorGraph {
  /// `apply` with a list of inputs.
  mutating func apply(_ operation: GraphOperation, _ inputs: [Int], name: String) throws(GraphError) -> Int {
    try append(operation, inputs, name: name)[0]
  }
}
