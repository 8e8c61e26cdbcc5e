import BenchbookData
import BenchbookEvaluation
import Foundation
import Testing

/// The calibration measures against numpy's and scikit-learn's computation from the same out-of-fold predictions
/// (`Fixtures/make_calibration_goldens.py`), and the rules that decide them: equal-count bins, ties kept in
/// pooled order, the pooled order itself, and no slope where the fit has no finite optimum.
@Suite struct CalibrationMeasuresTests {
  struct Golden: Decodable {
    struct Model: Decodable {
      var probabilities: [Double]
      var outcomes: [Bool]
      var measures: [String: Double]
    }
    struct Case: Decodable {
      var `case`: String
      var two_classes: Bool
      var models: [String: Model]
    }
    var cases: [Case]

    static let shared: Golden = {
      let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/calibration-goldens.json")
      do {
        return try JSONDecoder().decode(Golden.self, from: Data(contentsOf: url))
      } catch {
        fatalError("cannot read \(url.path): \(error)")
      }
    }()
  }

  /// Breast cancer (two classes) and wine (three): ECE and the decomposition within 1e-9, slope and intercept
  /// within 1e-5, for each of the seven models' out-of-fold predictions.
  @Test(arguments: Golden.shared.cases.map(\.case))
  func equalsTheReference(_ name: String) throws {
    let golden = try #require(Golden.shared.cases.first { $0.case == name })
    #expect(golden.models.count == 7)
    for (label, model) in golden.models.sorted(by: { $0.key < $1.key }) {
      let points = CalibrationPoints(probabilities: model.probabilities, outcomes: model.outcomes)
      let measures = try #require(CalibrationMeasures(points, twoClasses: golden.two_classes))
      let binned: [(String, Double?)] = [
        ("ece", measures.ece), ("mean_gap", measures.meanGap), ("reliability", measures.reliability),
        ("resolution", measures.resolution), ("uncertainty", measures.uncertainty),
      ]
      for (key, value) in binned {
        guard let expected = model.measures[key] else {
          #expect(value == nil, "\(name) \(label) \(key): none expected")
          continue
        }
        #expect(
          value.map { abs($0 - expected) <= 1e-9 } == true, "\(name) \(label) \(key): \(value as Any) vs \(expected)")
      }
      for (key, value) in [("slope", measures.slope), ("intercept", measures.intercept)] {
        guard let expected = model.measures[key] else {
          #expect(value == nil, "\(name) \(label) \(key): none expected")
          continue
        }
        #expect(
          value.map { abs($0 - expected) <= 1e-5 * max(1, abs(expected)) } == true,
          "\(name) \(label) \(key): \(value as Any) vs \(expected)")
      }
    }
  }

  /// 23 rows cut as `array_split` cuts them: three bins of 3, then seven of 2. Every row's probability equals its
  /// outcome except row 2, so only the first bin is off, by 1/3 at a share of 3/23: ECE 1/23 and reliability
  /// 3/23 · (1/3)² = 1/69 (smaller bins first would put row 2 in a bin of two: reliability 2/23 · (1/2)² = 1/46).
  @Test func binsAreEqualCountLargerFirst() throws {
    var probabilities = (0..<23).map { Double($0 % 2) }
    var outcomes = probabilities.map { $0 == 1 }
    probabilities.sort()
    outcomes.sort { !$0 && $1 }
    outcomes[2] = true
    let measures = try #require(
      CalibrationMeasures(CalibrationPoints(probabilities: probabilities, outcomes: outcomes), twoClasses: true))
    #expect(abs(measures.ece - 1.0 / 23) < 1e-15)
    #expect(abs(measures.reliability! - 1.0 / 69) < 1e-15)
  }

  /// Equal probabilities keep their pooled order, so a tie across a bin edge splits as the rows came: the first ten
  /// of twenty rows at 0.5 form the lower bins' rows. Sorting them by outcome instead would move the figure.
  @Test func tiesKeepPooledOrder() throws {
    let probabilities = [Double](repeating: 0.5, count: 20)
    let outcomes = (0..<20).map { $0 < 10 }
    let measures = try #require(
      CalibrationMeasures(CalibrationPoints(probabilities: probabilities, outcomes: outcomes), twoClasses: true))
    // Every bin of two rows is pure: all hits (rate 1) or all misses (rate 0), each 0.5 off.
    #expect(abs(measures.ece - 0.5) < 1e-15)
    let shuffled = (0..<20).map { $0 % 2 == 0 }
    let mixed = try #require(
      CalibrationMeasures(CalibrationPoints(probabilities: probabilities, outcomes: shuffled), twoClasses: true))
    #expect(mixed.ece == 0)
  }

  /// Pooled points run repeat by repeat and, within a repeat, by dataset row, whatever order the folds came in.
  @Test func poolingOrdersByRepeatThenRow() {
    let folds = [
      Fold(index: 0, repeatIndex: 0, train: [0, 2], test: [3, 1]),
      Fold(index: 1, repeatIndex: 0, train: [1, 3], test: [0, 2]),
      Fold(index: 2, repeatIndex: 1, train: [1, 2], test: [0]),
    ]
    let points = [
      CalibrationPoints(probabilities: [0.3, 0.1], outcomes: [true, false]),
      CalibrationPoints(probabilities: [0.0, 0.2], outcomes: [false, true]),
      CalibrationPoints(probabilities: [0.9], outcomes: [true]),
    ]
    let pooled = CalibrationPoints.pooled([(folds[2], points[2]), (folds[0], points[0]), (folds[1], points[1])])
    #expect(pooled.probabilities == [0.0, 0.1, 0.2, 0.3, 0.9])
    #expect(pooled.outcomes == [false, false, true, true, true])
  }

  /// Outcomes the probability separates perfectly have no finite slope; nor do probabilities all equal.
  @Test func noSlopeWithoutAFiniteFit() throws {
    let separated = CalibrationPoints(
      probabilities: [0.1, 0.2, 0.3, 0.7, 0.8, 0.9],
      outcomes: [
        false, false, false, true, true, true,
      ])
    let constant = CalibrationPoints(probabilities: [0.4, 0.4, 0.4, 0.4], outcomes: [false, true, false, true])
    for points in [separated, constant] {
      let measures = try #require(CalibrationMeasures(points, twoClasses: true))
      #expect(measures.slope == nil && measures.intercept == nil)
    }
    let overlapping = CalibrationPoints(
      probabilities: [0.1, 0.2, 0.3, 0.7, 0.8, 0.9],
      outcomes: [
        false, true, false, true, false, true,
      ])
    #expect(try #require(CalibrationMeasures(overlapping, twoClasses: true)).slope != nil)
  }

  /// Two classes judge the second class's probability; more classes the top label's, the first among equals.
  @Test func judgedProbability() {
    let binary = CalibrationPoints(
      probabilities: Matrix(rows: 2, columns: 2, values: [0.8, 0.2, 0.3, 0.7]), labels: [1, 1])
    #expect(binary.probabilities == [0.2, 0.7] && binary.outcomes == [true, true])
    let three = CalibrationPoints(
      probabilities: Matrix(rows: 2, columns: 3, values: [0.4, 0.4, 0.2, 0.1, 0.3, 0.6]), labels: [1, 2])
    #expect(three.probabilities == [0.4, 0.6] && three.outcomes == [false, true])
  }
}
