import BenchbookData
import BenchbookModels

/// Whether a written file predicts what the fitted model predicts: the file is
/// written in a format, read back by Benchbook's own reader of that format and
/// evaluated (`ExportFormat.probabilities`: Core ML's interpreter, or the graph
/// evaluator's float32 arithmetic), and compared with the model's own
/// probabilities on the same rows. For tests, including a conformance suite
/// that checks every registered model in every format it can be written in
/// (`ExportFormats.formats(for:)`).
public enum ExportFidelity {
  /// The largest absolute difference between the file's and the model's probabilities on `x` (infinity for a
  /// NaN or a shape that differs: `Matrix.largestDifference`).
  /// - Parameter x: design-matrix rows as `Dataset.x` holds them (encoded, unscaled).
  public static func largestDifference(_ request: ExportRequest, rows x: Matrix, format: any ExportFormat) throws
    -> Double
  {
    let file = try Exporter.export(request, as: format)
    let fromFile = try format.probabilities(file.bytes, rows: x, features: request.features, classes: request.classes)
    let imputed = request.imputer?.transform(x) ?? x
    let scaled = request.scalers.reduce(imputed) { $1.transform($0) }
    let expected = request.classifier.predictProbabilities(scaled)
    return fromFile.largestDifference(from: expected)
  }
}
