import BenchbookData

/// What one fold's test predictions give their model's calibration: the diagram's fixed bins, which add up fold by
/// fold, and the points the measures need pooled.
public struct FoldCalibration: Sendable, Hashable, Codable {
  public var bins: CalibrationBins
  public var points: CalibrationPoints

  public init(probabilities: Matrix, labels: [Int]) {
    bins = CalibrationBins(probabilities: probabilities, labels: labels)
    points = CalibrationPoints(probabilities: probabilities, labels: labels)
  }

  /// A model's `calibration` in results.json, from every outer fold's part (in plan order).
  /// - Parameter classes: the dataset's classes; with two, the second is the positive one.
  public static func record(_ folds: [(fold: Fold, part: FoldCalibration)], classes: [String]) -> CalibrationRecord {
    var bins = CalibrationBins()
    for entry in folds { bins.add(entry.part.bins) }
    let points = CalibrationPoints.pooled(folds.map { ($0.fold, $0.part.points) })
    return bins.record(
      positiveClass: classes.count == 2 ? classes[1] : nil,
      measures: CalibrationMeasures(points, twoClasses: classes.count == 2))
  }
}
