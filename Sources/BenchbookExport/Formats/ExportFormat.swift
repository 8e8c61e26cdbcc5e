import BenchbookData
import BenchbookModels

/// One file format Benchbook writes models in. Each format is one type,
/// registered once in `ExportFormats.all`; the command line, the runner and
/// the tests choose a format through the registry, never by its type.
public protocol ExportFormat: Sendable {
  /// The id specs and the command line use (`coreml`, `tflite`, `onnx`), and results.json's key.
  var id: String { get }
  /// The name in prose (`Core ML`, `TensorFlow Lite`, `ONNX`).
  var name: String { get }
  /// The file name extension, without the dot (`mlmodel`).
  var fileExtension: String { get }
  /// The largest file the format can hold, in bytes.
  var sizeLimit: Int { get }
  /// Whether an app passes a categorical feature as its category's index (else as the category itself).
  var takesCategoryIndices: Bool { get }
  /// Whether the file can carry the spec's fitted imputation (`ExportRequest.imputer`), so an app passes a
  /// missing value and the file fills it. A format that cannot is refused an imputing export: a file that
  /// does not impute would predict something else for a row with a missing value.
  var carriesImputation: Bool { get }

  /// Whether the format can hold a model whose fits take this shape (`ModelDescriptor.exportForm`).
  func canWrite(_ kind: ExportForm.Kind) -> Bool
  /// Whether the format can write this form so that an app updates it with its user's examples.
  func canUpdate(_ form: ExportForm) -> Bool

  /// The file for `request`, whose classifier has `form`, at most `limit` bytes.
  func write(_ request: ExportRequest, form: ExportForm, limit: Int) throws(ExportError) -> ExportedFile

  /// Whether `bytes` look like a file of this format (a file identifier, or a message that parses as one).
  func recognises(_ bytes: [UInt8]) -> Bool
  /// `benchbook inspect`'s account of a file.
  func inspect(_ bytes: [UInt8], fileName: String) throws(ModelFileError) -> String
  /// What a file predicts for design-matrix rows `x` (as `Dataset.x` holds them, unscaled), fed to the file as
  /// an app feeds it: one row of probabilities per row of `x`, one column per class of `classes`.
  func probabilities(_ bytes: [UInt8], rows x: Matrix, features: [FeatureSummary], classes: [String]) throws
    -> Matrix
}
