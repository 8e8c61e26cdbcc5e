import BenchbookData
import BenchbookModels

/// Writes a fitted Benchbook model as a Core ML pipeline classifier that an
/// app calls with raw feature values by name.
///
/// The pipeline, in order:
/// 1. a one-hot encoder per categorical input (int64 or string categories;
///    an unknown category is an error, since the model never saw one);
/// 2. a feature vectorizer concatenating the inputs in spec order, which is
///    the design matrix's column order;
/// 2½. an imputer, when the spec imputes: a string imputer before each imputed categorical input's one-hot
///    encoder (the app passes `""` for a missing category), and one over the vectorized columns (the app
///    passes `Double.nan` for a missing number), each with the training rows' fills; with missing indicators,
///    a one-hot encoder over `[""]` per indicated text input, a neural network computing every indicator from the
///    raw values (`MissingIndicators`), and a feature vectorizer appending them after the imputed columns;
/// 3. a scaler, when the spec standardises (or the classifier needs its
///    inputs conditioned), all standardisations folded into one;
/// 4. the classifier, outputting `classLabel` and `classProbability`.
///
/// The file declares the lowest specification version its models need. It
/// holds no timestamp, host or path, and every map is written in key order, so
/// the same fit gives the same bytes.
public enum CoreMLExporter {
  /// The predicted class output.
  public static let labelOutput = "classLabel"
  /// The class-probability dictionary output.
  public static let probabilityOutput = "classProbability"

  /// - Parameter limit: the largest file allowed; the size is counted before any bytes are written.
  public static func export(_ request: ExportRequest, limit: Int = CoreMLFormat().sizeLimit) throws(ExportError)
    -> ExportedModel
  {
    let layout = try InputLayout(features: request.features)
    guard request.classes.count >= 2 else { throw ExportError("a classifier needs at least two classes") }
    guard Set(request.classes).count == request.classes.count else { throw ExportError("class labels repeat") }
    if let imputer = request.imputer {
      guard imputer.inputWidth == layout.width else {
        throw ExportError("the fitted imputer has \(imputer.inputWidth) columns; the inputs give \(layout.width)")
      }
    }
    // The classifier's columns: the design matrix's, then one per missing indicator.
    let width = request.columns(layout)
    for scaler in request.scalers where scaler.mean.count != width {
      throw ExportError("a fitted scaler has \(scaler.mean.count) columns; the inputs give \(width)")
    }
    var stage = try ClassifierStage.convert(
      request.classifier, width: width, classes: request.classes, algorithm: request.metadata.algorithmName,
      updatable: request.updatable, updateSettings: request.updateSettings)

    var names = FeatureNames(reserved: layout.inputs.map(\.name))
    let labelName = names.claim(labelOutput)
    let probabilityName = names.claim(probabilityOutput)
    let labelType = LabelType(labels: request.classes)
    let target = request.metadata.target
    let labelOutputDescription = FeatureDescription(
      name: labelName,
      shortDescription:
        "The most probable class of \(target): \(ExportMetadata.list(request.classes).replacingLastAnd()).",
      type: labelType.featureType)
    let probabilityOutputDescription = FeatureDescription(
      name: probabilityName, shortDescription: "The probability of each class of \(target).",
      type: labelType.dictionaryType)

    var models: [CoreMLModel] = []
    var stageNames: [String] = []
    let indicated = Set(request.imputer?.indicated.map(\.name) ?? [])
    // Per indicated text input, its [1] array: 1 where the app passed "".
    var missingTexts: [String: FeatureDescription] = [:]

    // 1. One-hot encoders.
    var vectorizerInputs: [(description: FeatureDescription, dimensions: Int)] = []
    let appInputs = layout.featureDescriptions(imputer: request.imputer)
    for (input, description) in zip(layout.inputs, appInputs) {
      guard let categoryType = input.labelType else {
        vectorizerInputs.append((description, 1))
        continue
      }
      var encoderInput = description
      if let fill = request.imputer?.fills.first(where: { $0.name == input.summary.name }),
        let chosen = fill.hotColumn,
        let categories = input.summary.categories
      {
        let sentinel: Imputer.Replaced
        let fillValue: Imputer.Imputed
        switch categoryType {
        case .string:
          (sentinel, fillValue) = (.string(MissingSentinel.text), .string(categories[chosen]))
        case .int64:
          try MissingSentinel.checkIntegerCategories(categories, feature: input.name)
          (sentinel, fillValue) = (
            .int64(MissingSentinel.integer), .int64(LabelType.int64(from: categories[chosen]) ?? 0)
          )
        }
        let imputed = FeatureDescription(
          name: names.claim("\(input.name)Imputed"),
          shortDescription:
            "\(input.name), \(MissingSentinel.written(for: categoryType)) (missing) replaced by '\(categories[chosen])'.",
          type: description.type)
        models.append(
          CoreMLModel(
            specificationVersion: SpecificationVersion.iOS11.rawValue,
            description: ModelDescription(inputs: [description], outputs: [imputed]),
            kind: .imputer(Imputer(imputed: fillValue, replaced: sentinel))))
        stageNames.append(names.stage("imputer_\(input.name)"))
        encoderInput = imputed
      }
      let encoded = FeatureDescription(
        name: names.claim("\(input.name)OneHot"),
        shortDescription: "\(input.name), one-hot over its \(input.width) categories.",
        type: array(input.width))
      let encoder = OneHotEncoder(
        categories: categoryType.classLabels(input.summary.categories ?? []), outputSparse: false,
        handleUnknown: .errorOnUnknown)
      models.append(
        CoreMLModel(
          specificationVersion: SpecificationVersion.iOS11.rawValue,
          description: ModelDescription(inputs: [encoderInput], outputs: [encoded]), kind: .oneHotEncoder(encoder)))
      stageNames.append(names.stage("oneHot_\(input.name)"))
      vectorizerInputs.append((encoded, input.width))
      if indicated.contains(input.summary.name) {
        let missing = FeatureDescription(
          name: names.claim("\(input.name)Missing"),
          shortDescription:
            "1 where \(input.name) is missing (\(MissingSentinel.written(for: categoryType))), else 0.", type: array(1))
        models.append(
          CoreMLModel(
            specificationVersion: SpecificationVersion.iOS11.rawValue,
            description: ModelDescription(inputs: [description], outputs: [missing]),
            kind: .oneHotEncoder(
              OneHotEncoder(
                categories: categoryType == .string
                  ? .strings([MissingSentinel.text]) : .int64s([MissingSentinel.integer]), outputSparse: false,
                handleUnknown: .ignoreUnknown))))
        stageNames.append(names.stage("missing_\(input.name)"))
        missingTexts[input.summary.name] = missing
      }
    }

    // 2. Feature vectorizer.
    let vectorized = FeatureDescription(
      name: names.claim("features"),
      shortDescription: "The encoded inputs in the model's column order (\(layout.width) columns).",
      type: array(layout.width))
    models.append(
      CoreMLModel(
        specificationVersion: SpecificationVersion.iOS11.rawValue,
        description: ModelDescription(inputs: vectorizerInputs.map(\.description), outputs: [vectorized]),
        kind: .featureVectorizer(
          FeatureVectorizer(
            inputList: vectorizerInputs.map {
              .init(inputColumn: $0.description.name, inputDimensions: UInt64($0.dimensions))
            }
          ))))
    stageNames.append(names.stage("featureVectorizer"))

    var classifierInput = vectorized
    // 2½. The missing indicators, from the raw columns, before they are imputed: the text inputs' encoders' columns
    // when only text inputs are indicated, else a network's output.
    var indicators: [(description: FeatureDescription, dimensions: Int)] = []
    if let imputer = request.imputer, !imputer.indicated.isEmpty {
      if imputer.indicated.allSatisfy({ missingTexts[$0.name] != nil }) {
        indicators = imputer.indicated.compactMap { missingTexts[$0.name].map { ($0, 1) } }
      } else {
        let output = FeatureDescription(
          name: names.claim("missingIndicators"),
          shortDescription:
            "1 where an input is missing, else 0: \(ExportMetadata.list(imputer.indicated.map(\.name))), in order.",
          type: array(imputer.indicated.count))
        models.append(
          try MissingIndicators.network(
            imputer, columns: layout.width, vectorized: vectorized, texts: missingTexts, output: output,
            names: &names))
        stageNames.append(names.stage("missingIndicators"))
        indicators = [(output, imputer.indicated.count)]
      }
    }

    // The numeric columns' imputer.
    if let imputer = request.imputer, imputer.fills.contains(where: { $0.values.count == 1 }) {
      var fills = [Double](repeating: 0, count: layout.width)
      for fill in imputer.fills where fill.values.count == 1 { fills[fill.columns.lowerBound] = fill.values[0] }
      let imputed = FeatureDescription(
        name: names.claim("imputedFeatures"),
        shortDescription: "The encoded inputs, a missing number (NaN) replaced by the training rows' fill.",
        type: array(layout.width))
      models.append(
        CoreMLModel(
          specificationVersion: SpecificationVersion.iOS11.rawValue,
          description: ModelDescription(inputs: [vectorized], outputs: [imputed]),
          kind: .imputer(Imputer(imputed: .doubleArray(fills), replaced: .double(.nan)))))
      stageNames.append(names.stage("imputer"))
      classifierInput = imputed
    }
    if !indicators.isEmpty {
      let completed = FeatureDescription(
        name: names.claim("completedFeatures"),
        shortDescription: "The imputed columns, then \(width - layout.width) missing indicators (\(width) columns).",
        type: array(width))
      let pieces = [(description: classifierInput, dimensions: layout.width)] + indicators
      models.append(
        CoreMLModel(
          specificationVersion: SpecificationVersion.iOS11.rawValue,
          description: ModelDescription(inputs: pieces.map(\.description), outputs: [completed]),
          kind: .featureVectorizer(
            FeatureVectorizer(
              inputList: pieces.map { .init(inputColumn: $0.description.name, inputDimensions: UInt64($0.dimensions)) }
            ))))
      stageNames.append(names.stage("appendIndicators"))
      classifierInput = completed
    }

    // 3. Scaler.
    var standardisation: Standardisation?
    for scaler in request.scalers {
      let next = Standardisation(scaler)
      standardisation = standardisation?.then(next) ?? next
    }
    let conditioned =
      stage.conditioning.map { (standardisation ?? .identity(width: width)).then($0) } ?? standardisation
    if let conditioned {
      let what =
        stage.conditioning == nil
        ? "Standardised features: (x − training mean) / training standard deviation."
        : "Features centred and scaled for the network: "
          + (standardisation == nil ? "" : "the spec's standardisation, then ")
          + "(x − pooled class mean) / pooled standard deviation."
      let scaled = FeatureDescription(
        name: names.claim("scaledFeatures"), shortDescription: what, type: array(width))
      models.append(
        CoreMLModel(
          specificationVersion: SpecificationVersion.iOS11.rawValue,
          description: ModelDescription(inputs: [classifierInput], outputs: [scaled]),
          kind: .scaler(conditioned.scaler)))
      stageNames.append(names.stage("scaler"))
      classifierInput = scaled
    }

    // 4. The classifier.
    stage.bindInput(classifierInput.name, label: labelName)
    var classifierDescription = ModelDescription(
      inputs: [classifierInput], outputs: [labelOutputDescription, probabilityOutputDescription],
      predictedFeatureName: labelName, predictedProbabilitiesName: probabilityName)
    if request.updatable {
      classifierDescription.trainingInputs = [classifierInput, trainingLabel(labelOutputDescription, target: target)]
    }
    models.append(
      CoreMLModel(
        specificationVersion: stage.specificationVersion.rawValue, description: classifierDescription,
        isUpdatable: request.updatable, kind: stage.kind))
    stageNames.append(names.stage(stage.name))

    // The pipeline the app sees.
    var version = models.map(\.specificationVersion).max() ?? SpecificationVersion.iOS11.rawValue
    if request.updatable { version = max(version, SpecificationVersion.iOS13.rawValue) }
    var metadata = ModelMetadata(
      shortDescription: request.metadata.shortDescription(features: layout.inputs.map(\.name)),
      versionString: request.metadata.benchbookVersion.map { "Benchbook \($0)" } ?? "", author: "Benchbook")
    metadata.userDefined = userDefined(request, scaled: standardisation != nil)
    var description = ModelDescription(
      inputs: appInputs, outputs: [labelOutputDescription, probabilityOutputDescription],
      predictedFeatureName: labelName, predictedProbabilitiesName: probabilityName, metadata: metadata)
    if request.updatable {
      description.trainingInputs = appInputs + [trainingLabel(labelOutputDescription, target: target)]
    }
    let model = CoreMLModel(
      specificationVersion: version, description: description, isUpdatable: request.updatable,
      kind: .pipelineClassifier(Pipeline(models: models, names: stageNames)))
    let (bytes, size) = ProtobufWriter.serialize(model, limit: limit)
    guard let bytes else { throw ExportError.overLimit(format: "Core ML", bytes: size, limit: limit) }
    return ExportedModel(model: model, bytes: bytes)
  }

  private static func array(_ width: Int) -> CoreMLFeatureType {
    CoreMLFeatureType(.multiArray(shape: [Int64(width)], dataType: .double))
  }

  private static func trainingLabel(_ output: FeatureDescription, target: String) -> FeatureDescription {
    FeatureDescription(
      name: output.name, shortDescription: "The true class of \(target) for an example the app adds.",
      type: output.type)
  }

  /// Machine-readable facts for tools that inspect the file; sorted by key when written.
  private static func userDefined(_ request: ExportRequest, scaled: Bool) -> [String: String] {
    request.metadata.facts(scaled: scaled)
  }
}

extension String {
  /// `a, b and c` → `a, b or c`: the one class out of several.
  fileprivate func replacingLastAnd() -> String {
    guard let range = range(of: " and ", options: .backwards) else { return self }
    return replacingCharacters(in: range, with: " or ")
  }
}
