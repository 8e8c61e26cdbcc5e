import BenchbookData

/// The test rows of one fold as calibration judges them: the probability in question and whether its event
/// happened. Two classes: the second class's probability, and whether the row is of that class. More classes: the
/// top-label confidence (the highest probability, the first class among equals), and whether that class was right.
///
/// The diagram's fixed bins (`CalibrationBins`) can be summed fold by fold; the expected calibration error's
/// equal-count bins cannot, since they cut the pooled predictions sorted, so each fold keeps its points until every
/// fold is in (`pooled`).
public struct CalibrationPoints: Sendable, Hashable, Codable {
  /// One per test row, in the fold's test order.
  public private(set) var probabilities: [Double]
  public private(set) var outcomes: [Bool]

  public init(probabilities: [Double], outcomes: [Bool]) {
    precondition(probabilities.count == outcomes.count, "a probability per outcome")
    self.probabilities = probabilities
    self.outcomes = outcomes
  }

  public init(probabilities: Matrix, labels: [Int]) {
    var judged = [Double]()
    var happened = [Bool]()
    judged.reserveCapacity(probabilities.rows)
    happened.reserveCapacity(probabilities.rows)
    for row in 0..<probabilities.rows {
      if probabilities.columns == 2 {
        judged.append(probabilities[row, 1])
        happened.append(labels[row] == 1)
      } else {
        let top = Accuracy.predictedClass(probabilities, row: row)
        judged.append(probabilities[row, top])
        happened.append(labels[row] == top)
      }
    }
    self.init(probabilities: judged, outcomes: happened)
  }

  public var count: Int { probabilities.count }

  /// Reads points back from a shard file: a probability from 0 to 1 for every outcome, so the measures never meet
  /// lists of two lengths or a probability a model cannot give.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    probabilities = try container.decode([Double].self, forKey: .probabilities)
    outcomes = try container.decode([Bool].self, forKey: .outcomes)
    guard probabilities.count == outcomes.count else {
      throw DecodingError.dataCorruptedError(
        forKey: .outcomes, in: container,
        debugDescription: "holds \(outcomes.count) outcomes for \(probabilities.count) probabilities")
    }
    if let bad = probabilities.first(where: { !($0 >= 0 && $0 <= 1) }) {
      throw DecodingError.dataCorruptedError(
        forKey: .probabilities, in: container, debugDescription: "holds \(bad), not a probability from 0 to 1")
    }
  }

  /// Every fold's points as one list: repeat by repeat, and within a repeat by dataset row (as `cross_val_predict`
  /// returns a repeat's predictions), a row tested twice in one repeat in fold order. The order decides which of
  /// equal probabilities fall on either side of a bin edge, so it is fixed whatever order the folds finished in.
  public static func pooled(_ folds: [(fold: Fold, points: CalibrationPoints)]) -> CalibrationPoints {
    var keys: [(repeatIndex: Int, row: Int, fold: Int, position: Int)] = []
    for (f, entry) in folds.enumerated() {
      precondition(entry.fold.test.count == entry.points.count, "a point per test row")
      for (position, row) in entry.fold.test.enumerated() {
        keys.append((entry.fold.repeatIndex, row, f, position))
      }
    }
    keys.sort { ($0.repeatIndex, $0.row, $0.fold) < ($1.repeatIndex, $1.row, $1.fold) }
    return CalibrationPoints(
      probabilities: keys.map { folds[$0.fold].points.probabilities[$0.position] },
      outcomes: keys.map { folds[$0.fold].points.outcomes[$0.position] })
  }
}
