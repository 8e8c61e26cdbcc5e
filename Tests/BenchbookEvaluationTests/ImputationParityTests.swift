import BenchbookData
import BenchbookEvaluation
import BenchbookModels
import BenchbookSpec
import Foundation
import Testing

/// Imputation fitted inside the folds against scikit-learn's `make_pipeline(SimpleImputer(…), StandardScaler(),
/// model)`: every strategy, with and without missing indicators, on two public tables that miss values in
/// several columns (`Fixtures/imputation/`, goldens by `make_imputation_goldens.py`). Fold by fold, to the
/// tolerances of the other parity tests: 1e-6 relative for LDA and NB, 1e-4 for LR against a fully converged fit.
@Suite struct ImputationParityTests {
  struct Goldens: Decodable {
    struct Case: Decodable {
      var `case`: String
      var path: String
      var target: String
      var features: [String]
      var rows: Int
      var missing: [String: Int]
      var strategy: String
      var fill_value: Double?
      var add_indicator: Bool
      var models: [String: [Double]]
    }
    var cases: [Case]

    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Fixtures/imputation")
    static let shared: Goldens = {
      let url = folder.appendingPathComponent("imputation-goldens.json")
      return try! JSONDecoder().decode(Goldens.self, from: Data(contentsOf: url))
    }()
  }

  static let tolerances = ["LR": 1e-4, "LDA": 1e-6, "NB": 1e-6]

  /// The spec a case stands for: the table as published, its features, one impute step, then standardize.
  static func spec(_ golden: Goldens.Case) throws -> ExperimentSpec {
    let path = Goldens.folder.appendingPathComponent(golden.path).path
    var settings = "strategy: \(golden.strategy)"
    if let fill = golden.fill_value { settings += ", fill_value: \(fill)" }
    if golden.add_indicator { settings += ", add_indicator: true" }
    let yaml = """
      name: parity
      data: {path: "\(path)", missing: drop}
      target: \(golden.target)
      features: [\(golden.features.map { "\"\($0)\"" }.joined(separator: ", "))]
      preprocess:
        - impute: {\(settings)}
        - standardize
      resampling: {method: stratified-kfold, folds: 5}
      models: [LR, LDA, NB]

      """
    return try SpecParser.parse(yaml: yaml, path: "parity.yaml")
  }

  @Test(arguments: Goldens.shared.cases.map(\.case))
  func foldLogLossIsScikitLearns(_ name: String) throws {
    let golden = Goldens.shared.cases.first { $0.case == name }!
    let spec = try Self.spec(golden)
    let (dataset, plan) = try RunPlan.load(spec)
    #expect(dataset.x.rows == golden.rows, "\(name): every row with a target kept")
    for feature in dataset.features {
      let column = feature.columns.lowerBound
      let missing = (0..<dataset.x.rows).filter { dataset.x[$0, column].isNaN }.count
      #expect(missing == golden.missing[feature.name], "\(name): \(feature.name) missing cells")
    }
    let evaluator = FoldEvaluator(dataset: dataset, preprocessing: spec.preprocessing)
    for model in spec.models {
      let expected = try #require(golden.models[model.label])
      let tolerance = Self.tolerances[model.label]!
      #expect(plan.folds.count == expected.count)
      for (fold, reference) in zip(plan.folds, expected) {
        let actual = try evaluator.evaluate(model, on: fold).scores.logLoss
        #expect(
          abs(actual - reference) <= tolerance * reference,
          "\(name) \(model.label) fold \(fold.index): \(actual) vs scikit-learn \(reference)")
      }
    }
  }

  /// The indicator columns are the training fold's: one per feature it misses, none for a feature it holds.
  @Test func indicatorsFollowTheTrainingFold() throws {
    let golden = Goldens.shared.cases.first { $0.case == "airquality median indicator" }!
    let spec = try Self.spec(golden)
    let (dataset, _) = try RunPlan.load(spec)
    let evaluator = FoldEvaluator(dataset: dataset, preprocessing: spec.preprocessing)
    let ozone = dataset.features.first { $0.name == "Ozone" }!.columns.lowerBound
    let solar = dataset.features.first { $0.name == "Solar.R" }!.columns.lowerBound
    // Rows that hold Solar.R: its indicator is not appended, Ozone's is.
    let holding = RowIndices((0..<dataset.x.rows).filter { !dataset.x[$0, solar].isNaN })
    let (fitted, prepared) = evaluator.fitPreprocessing(GatheredRows(dataset, rows: holding))
    let imputer = try #require(fitted.imputer)
    #expect(imputer.indicated.map(\.name) == ["Ozone"])
    #expect(prepared.columns == dataset.x.columns + 1)
    // A test row missing Solar.R still gets the training median, and no column for it.
    let test = dataset.x.selecting(rows: RowIndices((0..<dataset.x.rows).filter { dataset.x[$0, solar].isNaN }))
    let filled = imputer.transform(test)
    let median = imputer.fills.first { $0.name == "Solar.R" }!.values[0]
    #expect((0..<filled.rows).allSatisfy { filled[$0, solar] == median })
    #expect(
      (0..<filled.rows).allSatisfy { filled[$0, dataset.x.columns] == (test[$0, ozone].isNaN ? 1 : 0) },
      "the one indicator is Ozone's")
  }

  /// A training fold where a feature has no value stops the fit at the impute step, unless the strategy is
  /// `constant`.
  @Test func aFeatureAbsentFromATrainingFoldIsALocatedError() throws {
    for (strategy, fails) in [("median", true), ("constant", false)] {
      var golden = Goldens.shared.cases.first { $0.case == "airquality \(strategy)" }!
      golden.fill_value = strategy == "constant" ? 0 : nil
      let spec = try Self.spec(golden)
      let (dataset, _) = try RunPlan.load(spec)
      let ozone = dataset.features.first { $0.name == "Ozone" }!.columns.lowerBound
      let rows = RowIndices((0..<dataset.x.rows).filter { dataset.x[$0, ozone].isNaN })
      let evaluator = FoldEvaluator(dataset: dataset, preprocessing: spec.preprocessing)
      do {
        _ = try evaluator.fit(spec.models[1], GatheredRows(dataset, rows: rows), fold: 2)
        #expect(!fails, "\(strategy) fitted a feature with no value")
      } catch {
        #expect(fails, "\(strategy): \(error)")
        let text = error.description
        #expect(text.hasPrefix("parity.yaml:6:"), "\(text)")
        #expect(text.contains("(fold 3): feature 'Ozone' has no value in any of the \(rows.count) training rows"))
        #expect(text.contains("use `strategy: constant`"))
      }
    }
  }
}
