import BenchbookModels
import Testing

/// One check of the conformance suite that every registered model passes (scikit-learn's `check_estimator`,
/// mlr3's learner checks): its descriptor is sound, its settings schema describes exactly its `parameters`,
/// settings survive the spec-text round trip the tuner relies on, its probabilities are distributions over the
/// full class set, reproducible and computed without touching the caller's data, its traits hold, and its fold
/// strategy gives the fits gathered rows give; its fits take the export form it declares and predict the same in
/// every format that holds that form, missing values imputed too.
///
/// A test target runs every check on every model it knows: `@Test(arguments: ModelRegistry.all,
/// ConformanceCheck.allCases) func conforms(_ model: ModelDescriptor, _ check: ConformanceCheck) throws
/// { try check.run(model) }`, and a model it registers itself gets the same checks.
public enum ConformanceCheck: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case soundDescriptor = "sound descriptor"
  case schemaDescribesExactlyTheParameters = "schema describes exactly the parameters"
  case aliasesReadAsTheirSetting = "aliases read as their setting"
  case settingsSurviveTheSpecTextRoundTrip = "settings survive the spec-text round trip"
  case variedConfigurationChangesEverySetting = "varied configuration changes every setting"
  case everyListedWordIsAccepted = "every listed word is accepted"
  case unknownSettingIsRejectedByItsKey = "unknown setting is rejected by its key"
  case probabilitiesAreDistributions = "probabilities are distributions"
  case absentClassGetsAZeroColumn = "absent class gets a zero column"
  case nonFiniteFeaturesAreRejected = "non-finite features are rejected"
  case fittingIsDeterministicAndLeavesItsInputsAlone = "fitting is deterministic and leaves its inputs alone"
  case rowOrderChangesOnlyWhatItClaims = "row order changes only what it claims"
  case sharedFitsEqualSeparateFits = "shared fits equal separate fits"
  case foldStrategyGivesTheGatheredFit = "fold strategy gives the gathered fit"
  case exportFormIsTheDeclaredOne = "export form is the declared one"
  case exportsAgreeInEveryFormat = "exports agree in every format"
  case exportsImputeMissingValuesInEveryFormat = "exports impute missing values in every format"
  case updatableFormatsAreTheOnesThatCanUpdate = "updatable formats are the ones that can update"

  public var testDescription: String { rawValue }

  /// Runs the check on `model`, recording every failure as a test issue.
  public func run(_ model: ModelDescriptor) throws {
    switch self {
    case .soundDescriptor: ClassifierConformance.soundDescriptor(model)
    case .schemaDescribesExactlyTheParameters: try ClassifierConformance.schemaDescribesExactlyTheParameters(model)
    case .aliasesReadAsTheirSetting: try ClassifierConformance.aliasesReadAsTheirSetting(model)
    case .settingsSurviveTheSpecTextRoundTrip: try ClassifierConformance.settingsSurviveTheSpecTextRoundTrip(model)
    case .variedConfigurationChangesEverySetting:
      try ClassifierConformance.variedConfigurationChangesEverySetting(model)
    case .everyListedWordIsAccepted: try ClassifierConformance.everyListedWordIsAccepted(model)
    case .unknownSettingIsRejectedByItsKey: ClassifierConformance.unknownSettingIsRejectedByItsKey(model)
    case .probabilitiesAreDistributions: try ClassifierConformance.probabilitiesAreDistributions(model)
    case .absentClassGetsAZeroColumn: try ClassifierConformance.absentClassGetsAZeroColumn(model)
    case .nonFiniteFeaturesAreRejected: try ClassifierConformance.nonFiniteFeaturesAreRejected(model)
    case .fittingIsDeterministicAndLeavesItsInputsAlone:
      try ClassifierConformance.fittingIsDeterministicAndLeavesItsInputsAlone(model)
    case .rowOrderChangesOnlyWhatItClaims: try ClassifierConformance.rowOrderChangesOnlyWhatItClaims(model)
    case .sharedFitsEqualSeparateFits: try ClassifierConformance.sharedFitsEqualSeparateFits(model)
    case .foldStrategyGivesTheGatheredFit: try ClassifierConformance.foldStrategyGivesTheGatheredFit(model)
    case .exportFormIsTheDeclaredOne: try ClassifierConformance.exportFormIsTheDeclaredOne(model)
    case .exportsAgreeInEveryFormat: try ClassifierConformance.exportsAgreeInEveryFormat(model)
    case .exportsImputeMissingValuesInEveryFormat:
      try ClassifierConformance.exportsImputeMissingValuesInEveryFormat(model)
    case .updatableFormatsAreTheOnesThatCanUpdate:
      try ClassifierConformance.updatableFormatsAreTheOnesThatCanUpdate(model)
    }
  }
}

extension ModelDescriptor: CustomTestStringConvertible {
  public var testDescription: String { id }
}
