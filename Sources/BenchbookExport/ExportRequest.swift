import BenchbookData
import BenchbookModels

/// Everything an export needs: the app-facing inputs, the fitted preprocessing
/// and classifier, the classes, and what to say about the model.
public struct ExportRequest: Sendable {
  /// The spec's features in spec order (`Dataset.features`): each becomes one
  /// input the app passes by name, and together they describe the design matrix.
  public var features: [FeatureSummary]
  /// Class labels in the classifier's column order (`Dataset.classes`).
  public var classes: [String]
  /// Standardisations fitted with the classifier, applied in order to the encoded columns.
  public var scalers: [FittedStandardScaler]
  /// The imputation fitted with the classifier, applied to the encoded columns before the standardisations;
  /// `nil` when the spec does not impute. A format that cannot carry it refuses the export
  /// (`ExportFormat.carriesImputation`) rather than write a file that does not impute.
  public var imputer: FittedImputer?
  public var classifier: any FittedClassifier
  public var metadata: ExportMetadata
  /// Write an updatable model (k-nearest neighbours, logistic regression) that an app can extend with its user's
  /// examples.
  public var updatable: Bool
  /// How an updatable logistic regression learns on the device.
  public var updateSettings: UpdateSettings

  public init(
    features: [FeatureSummary], classes: [String], scalers: [FittedStandardScaler], classifier: any FittedClassifier,
    metadata: ExportMetadata, updatable: Bool = false, updateSettings: UpdateSettings = UpdateSettings(),
    imputer: FittedImputer? = nil
  ) {
    self.imputer = imputer
    self.features = features
    self.classes = classes
    self.scalers = scalers
    self.classifier = classifier
    self.metadata = metadata
    self.updatable = updatable
    self.updateSettings = updateSettings
  }
}

extension ExportRequest {
  /// The checks every format makes of the classes and the scalers before writing.
  func checkClasses(width: Int) throws(ExportError) {
    guard classes.count >= 2 else { throw ExportError("a classifier needs at least two classes") }
    guard Set(classes).count == classes.count else { throw ExportError("class labels repeat") }
    for scaler in scalers where scaler.mean.count != width {
      throw ExportError("a fitted scaler has \(scaler.mean.count) columns; the inputs give \(width)")
    }
    guard classifier.classCount == classes.count else {
      throw ExportError(
        "the classifier predicts \(classifier.classCount) classes but the data has \(classes.count); "
          + "a model fitted on some of the classes only cannot be exported")
    }
  }
}

extension ExportRequest {
  /// Columns the classifier reads: the inputs' design-matrix columns, then one per missing indicator.
  func columns(_ layout: InputLayout) -> Int {
    layout.width + (imputer?.indicated.count ?? 0)
  }

  /// `facts` with, when the spec imputes, the imputed features (`benchbook.imputed`), the indicated ones
  /// (`benchbook.missing_indicators`) and what an app passes for a missing value (`benchbook.missing_value`).
  func missingValueFacts(_ facts: [String: String], sentinel: String) -> [String: String] {
    guard let imputer else { return facts }
    var facts = facts
    facts["benchbook.imputed"] = imputer.fills.map(\.name).joined(separator: ", ")
    facts["benchbook.missing_value"] = sentinel
    if !imputer.indicated.isEmpty {
      facts["benchbook.missing_indicators"] = imputer.indicated.map(\.name).joined(separator: ", ")
    }
    return facts
  }

  /// A sentence for a file's description saying how to pass a missing value; empty without imputation.
  func missingValueSentence(numbers: String, categories: String) -> String {
    guard let imputer else { return "" }
    let names = imputer.fills.map(\.name)
    let anyCategory = imputer.fills.contains { fill in
      features.first { $0.name == fill.name }?.type == .categorical
    }
    return " Missing values of \(ExportMetadata.list(names)) are imputed as when fitted: pass \(numbers) for a missing "
      + "number" + (anyCategory ? ", \(categories) for a missing category" : "") + "."
  }
}
