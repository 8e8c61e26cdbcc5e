import BenchbookData
import BenchbookEvaluation
import BenchbookExport
import BenchbookModels
import BenchbookSpec
import Foundation
import Testing

/// An exported pipeline carries the imputer: on the penguins that miss measurements or a sex, the Core ML file
/// (read back and run by the interpreter, missing numbers passed as NaN and a missing category as "") gives
/// Benchbook's own probabilities.
@Suite struct ImputerExportTests {
  static let penguins = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../EndToEndTests/Fixtures/realdata/penguins.csv").standardizedFileURL.path

  /// - Parameter year: an extra feature entry for `year`, such as `{year: {type: categorical}}`.
  static func spec(_ preprocess: String, sexIndicator: Bool = false, year: String? = nil) throws -> ExperimentSpec {
    try SpecParser.parse(
      yaml: """
        name: penguins-export
        data: {path: "\(penguins)"}
        target: species
        features: [island, bill_length_mm, bill_depth_mm, flipper_length_mm, body_mass_g,
                   {sex: {impute: {strategy: most_frequent, add_indicator: \(sexIndicator)}}}\(year.map { ", " + $0 } ?? "")]
        preprocess: \(preprocess)
        models: [LR, LDA, DT, NB, KNN]

        """, path: "export.yaml")
  }

  static func export(_ spec: ExperimentSpec, _ model: ModelSpec) throws -> (Dataset, FittedPipeline, ExportedModel) {
    let dataset = try Dataset.load(spec.dataset)
    let pipeline = try FoldEvaluator(dataset: dataset, preprocessing: spec.preprocessing).fitAllRows(model)
    let exported = try OnDeviceCost.export(
      spec, dataset: dataset, model: model, pipeline: pipeline, crossValidatedLogLoss: nil)
    return (dataset, pipeline, exported)
  }

  @Test(arguments: ["LR", "LDA", "DT", "NB"])
  func rowsWithMissingValuesPredictAsBenchbook(_ label: String) throws {
    let spec = try Self.spec("[{impute: {strategy: median}}, standardize]")
    let model = try #require(spec.models.first { $0.label == label })
    let (dataset, pipeline, exported) = try Self.export(spec, model)
    let missing = (0..<dataset.x.rows).filter { r in (0..<dataset.x.columns).contains { dataset.x[r, $0].isNaN } }
    #expect(missing.count == 11, "the rows without a sex, two of them without measurements too")
    let x = dataset.x.selecting(rows: RowIndices(missing))
    let rows = RawFeatureRows.rows(x, features: dataset.features)
    #expect(
      rows.contains { row in
        if case .double(let value) = row["bill_length_mm"] { value.isNaN } else { false }
      }, "a missing number is passed as NaN")
    #expect(rows.allSatisfy { $0["sex"] == .string("") })
    let evaluator = try CoreMLEvaluator(serializedBytes: exported.bytes)
    let fromFile = try evaluator.probabilities(rows, classes: dataset.classes)
    let fromBenchbook = pipeline.predictProbabilities(x)
    for r in 0..<x.rows {
      for c in 0..<fromFile.columns {
        #expect(abs(fromFile[r, c] - fromBenchbook[r, c]) <= 1e-9, "\(label) row \(missing[r]) class \(c)")
      }
    }
    let kinds = exported.model.stages.map(\.model.kind.name)
    #expect(kinds.filter { $0 == "imputer" }.count == 2, "\(kinds): sex's string imputer and the numbers' array one")
    // The file reads back as written.
    #expect(try CoreMLModel(serializedBytes: exported.bytes).serializedBytes() == exported.bytes)
  }

  @Test func aStandardisationFirstIsAnExportError() throws {
    for (preprocess, message) in [
      ("[standardize, {impute: {strategy: median}}]", "list `impute` before `standardize`")
    ] {
      let spec = try Self.spec(preprocess)
      #expect {
        _ = try Self.export(spec, spec.models[0])
      } throws: { error in
        (error as? ExportError).map { "\($0)".contains(message) } ?? false
      }
    }
  }

  /// With missing indicators, the Core ML file computes them in a network (notEqual, concatND, inner product) of
  /// specification version 4, and gives Benchbook's probabilities (to 1e-9; naive Bayes's float32 network 1e-5,
  /// kNN's float32 rows 1e-4) for the rows that miss values and as many that do not; without them the file keeps
  /// its version (1; kNN 4).
  @Test(arguments: ["LR", "LDA", "DT", "NB", "KNN"])
  func coreMLComputesTheMissingIndicators(_ label: String) throws {
    let spec = try Self.spec("[{impute: {strategy: median, add_indicator: true}}, standardize]", sexIndicator: true)
    let model = try #require(spec.models.first { $0.label == label })
    let (dataset, pipeline, exported) = try Self.export(spec, model)
    #expect(pipeline.preprocessing.imputer?.indicated.map(\.name).last == "sex", "the numbers' indicators, then sex's")
    #expect(exported.specificationVersion == .iOS13, "notEqual and concatND are layers of version 4")
    let kinds = exported.model.stages.map(\.model.kind.name)
    #expect(kinds.contains("neuralNetwork"), "\(kinds)")
    guard
      case .neuralNetwork(let network)? = exported.model.stages.first(where: { $0.name == "missingIndicators" })?
        .model.kind
    else {
      Issue.record("no missingIndicators network: \(kinds)")
      return
    }
    #expect(network.arrayShapeMapping == .exact)
    #expect(network.layers.map(\.kind.isIOS13) == [true, true, false], "notEqual, concatND, inner product")
    // Every row with a missing value, and as many without.
    let missing = (0..<dataset.x.rows).filter { r in (0..<dataset.x.columns).contains { dataset.x[r, $0].isNaN } }
    let complete = (0..<dataset.x.rows).filter { !missing.contains($0) }.prefix(missing.count)
    let x = dataset.x.selecting(rows: RowIndices(missing + complete))
    let fromFile = try CoreMLEvaluator(serializedBytes: exported.bytes)
      .probabilities(RawFeatureRows.rows(x, features: dataset.features), classes: dataset.classes)
    let fromBenchbook = pipeline.predictProbabilities(x)
    let worst = fromFile.largestDifference(from: fromBenchbook)
    #expect(worst <= (label == "KNN" ? 1e-4 : label == "NB" ? 1e-5 : 1e-9), "\(label): largest difference \(worst)")
    #expect(try CoreMLModel(serializedBytes: exported.bytes).serializedBytes() == exported.bytes)
    let text = ModelInspection.text(exported.model, fileName: "penguins.mlmodel", sizeBytes: exported.sizeBytes)
    #expect(
      text.contains("isNaN (notEqual) → withTextFlags (concatND on axis -1) → indicators (innerProduct)"), "\(text)")

    let plain = try Self.spec("[{impute: {strategy: median}}, standardize]")
    let (_, _, withoutIndicators) = try Self.export(plain, try #require(plain.models.first { $0.label == label }))
    #expect(withoutIndicators.specificationVersion == (label == "KNN" ? .iOS13 : .iOS11))
  }

  /// With text indicators only (sex's), the file needs no network: the encoder over `[""]` gives the indicator,
  /// a vectorizer appends it, and the file keeps specification version 1.
  @Test(arguments: ["LR", "DT"])
  func aTextIndicatorAloneNeedsNoNetwork(_ label: String) throws {
    let spec = try Self.spec("[{impute: {strategy: median}}, standardize]", sexIndicator: true)
    let model = try #require(spec.models.first { $0.label == label })
    let (dataset, pipeline, exported) = try Self.export(spec, model)
    #expect(pipeline.preprocessing.imputer?.indicated.map(\.name) == ["sex"])
    #expect(exported.specificationVersion == .iOS11)
    let kinds = exported.model.stages.map(\.model.kind.name)
    #expect(!kinds.contains("neuralNetwork"), "\(kinds)")
    let missing = (0..<dataset.x.rows).filter { r in (0..<dataset.x.columns).contains { dataset.x[r, $0].isNaN } }
    let complete = (0..<dataset.x.rows).filter { !missing.contains($0) }.prefix(missing.count)
    let x = dataset.x.selecting(rows: RowIndices(missing + complete))
    let fromFile = try CoreMLEvaluator(serializedBytes: exported.bytes)
      .probabilities(RawFeatureRows.rows(x, features: dataset.features), classes: dataset.classes)
    let worst = fromFile.largestDifference(from: pipeline.predictProbabilities(x))
    #expect(worst <= 1e-9, "\(label): largest difference \(worst)")
  }

  /// An integer category (penguins' year, declared categorical: 2007, 2008, 2009) is imputed too. The app passes
  /// `Int64.min` for a missing one: Core ML fills it with an int64 imputer before the one-hot encoder and flags it
  /// with a one-hot encoder over the sentinel alone; ONNX with `Equal` and `Where`. Every format gives Benchbook's
  /// probabilities for rows whose year is missing (the data miss none, so the test blanks them).
  @Test(arguments: ["LR", "DT", "NB"])
  func integerCategoriesAreImputedWithTheirSentinel(_ label: String) throws {
    let spec = try Self.spec(
      "[{impute: {strategy: median}}, standardize]",
      year: "{year: {type: categorical, impute: {strategy: most_frequent, add_indicator: true}}}")
    let chosen = try #require(spec.models.first { $0.label == label })
    let dataset = try Dataset.load(spec.dataset)
    let year = try #require(dataset.features.first { $0.name == "year" })
    #expect(year.categories == ["2007", "2008", "2009"])
    let pipeline = try FoldEvaluator(dataset: dataset, preprocessing: spec.preprocessing).fitAllRows(chosen)
    var x = dataset.x.selecting(rows: RowIndices(Array(stride(from: 0, to: dataset.x.rows, by: 17))))
    for r in 0..<x.rows where r % 2 == 0 {
      for column in year.columns { x[r, column] = .nan }
    }
    #expect(
      RawFeatureRows.rows(x, features: dataset.features)[0]["year"] == .int64(Int64.min), "the sentinel passed")
    let expected = pipeline.predictProbabilities(x)
    for format in ExportFormats.all {
      let file = try OnDeviceCost.export(
        spec, dataset: dataset, model: chosen, pipeline: pipeline, format: format, crossValidatedLogLoss: nil)
      let got = try format.probabilities(file.bytes, rows: x, features: dataset.features, classes: dataset.classes)
      let worst = got.largestDifference(from: expected)
      #expect(worst <= (format.id == "coreml" && label != "NB" ? 1e-9 : 1e-4), "\(label) \(format.name): \(worst)")
      if let coreML = file.coreML {
        let kinds = coreML.model.stages.map(\.model.kind.name)
        #expect(kinds.filter { $0 == "imputer" }.count == 3, "\(kinds): sex's string, year's int64, the numbers'")
      }
    }
  }

  /// A feature whose integer categories include the sentinel itself cannot be imputed: the app could not tell
  /// the file a category is missing.
  @Test func anIntegerCategoryEqualToTheSentinelIsRefused() throws {
    let refused = MissingSentinel.refusal(["3", String(Int64.min)], feature: "code")
    #expect(
      refused?.description.contains("feature 'code' is imputed and has -9223372036854775808 as a category") == true)
    #expect(MissingSentinel.refusal(["3", "-1"], feature: "code") == nil)
  }

  /// An imputed input's description, which Xcode shows the app's developer, names the sentinel to pass and what
  /// the file puts in its place; an input the file does not impute says nothing of missing values.
  @Test func inputDescriptionsNameTheSentinelAndTheFill() throws {
    let spec = try Self.spec("[{impute: {strategy: median}}, standardize]")
    let (_, pipeline, exported) = try Self.export(spec, spec.models[0])
    let descriptions = Dictionary(
      uniqueKeysWithValues: exported.model.description.inputs.map { ($0.name, $0.shortDescription) })
    // palmerpenguins: the median bill length is 44.45 mm; 168 of the 333 sexed penguins are male.
    #expect(
      descriptions["bill_length_mm"]
        == "Numeric; 32.1 to 59.6 in the training data. When missing, pass NaN: the model uses 44.45, the training "
        + "rows' median.")
    #expect(
      descriptions["sex"]?.hasSuffix(". Any other value is an error. When missing, pass \"\": the model uses 'male'.")
        == true, "\(descriptions["sex"] ?? "")")
    let imputed = Set(try #require(pipeline.preprocessing.imputer).fills.map(\.name))
    for (name, description) in descriptions {
      #expect(description.contains("When missing") == imputed.contains(name), "\(name): \(description)")
    }
  }

  /// Every format carries the imputer; through the registry, Core ML writes the same bytes as its own exporter,
  /// and every format, with missing indicators too, predicts Benchbook's probabilities for the rows that miss
  /// values (fed NaN, and "" for Core ML's and ONNX's text category).
  @Test(arguments: ["LR", "LDA", "DT", "NB", "KNN"])
  func everyFormatCarriesTheImputer(_ label: String) throws {
    for preprocess in [
      "[{impute: {strategy: median}}, standardize]", "[{impute: {strategy: median, add_indicator: true}}, standardize]",
    ] {
      let spec = try Self.spec(preprocess)
      let chosen = try #require(spec.models.first { $0.label == label })
      let dataset = try Dataset.load(spec.dataset)
      let pipeline = try FoldEvaluator(dataset: dataset, preprocessing: spec.preprocessing).fitAllRows(chosen)
      let missing = (0..<dataset.x.rows).filter { r in (0..<dataset.x.columns).contains { dataset.x[r, $0].isNaN } }
      let x = dataset.x.selecting(rows: RowIndices(missing))
      let expected = pipeline.predictProbabilities(x)
      for format in ExportFormats.all {
        #expect(format.carriesImputation, "\(format.name)")
        let file = try OnDeviceCost.export(
          spec, dataset: dataset, model: chosen, pipeline: pipeline, format: format, crossValidatedLogLoss: nil)
        let got = try format.probabilities(file.bytes, rows: x, features: dataset.features, classes: dataset.classes)
        let worst = got.largestDifference(from: expected)
        #expect(worst <= 1e-4, "\(label) \(format.name) \(preprocess): largest difference \(worst)")
      }
    }
  }
}
