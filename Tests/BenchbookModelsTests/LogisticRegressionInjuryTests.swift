import BenchbookData
import BenchbookModels
import Foundation
import Testing

/// An ill-conditioned fit: 3,000 rows of a household survey, a 194-level commune one-hot encoded beside nine
/// numbers, and a rare target (injuries, about 1%). Many communes have no injury in a training fold, so only the
/// penalty holds their weights and the loss is nearly flat along them: a small gradient still leaves the
/// solution measurably short of the optimum. L-BFGS stopping at a gradient of 1e-12 missed the reference's
/// test log-loss by 3.9e-11 to 1.4e-10 (relative) and its probabilities by up to 2.1e-10; trust-region Newton
/// comes within 5.1e-14 and 1.5e-14. Goldens: `cd Fixtures && python3 make_injury_goldens.py` (scikit-learn
/// 1.9.1 newton-cg, tol 1e-14, which newton-cholesky matches to 4.8e-14).
@Suite struct LogisticRegressionInjuryTests {
  struct Goldens: Decodable {
    struct Fold: Decodable {
      var fold: Int
      var proba: [Double]
      var logLoss: Double
    }
    var columns: Int
    var rows: Int
    var folds: [Fold]
  }

  /// The design `make_injury_goldens.py` builds: nine numeric columns as given, then a 0/1 column per sex
  /// and per commune present, each in ascending order.
  static func injuryDesign() throws -> (x: Matrix, labels: [Int]) {
    let table = try FixtureTable("injury-survey.csv")
    let numeric = ["pharvis", "lnhhexp", "age", "married", "educ", "illness", "illdays", "actdays", "insurance"]
    let sexes = table.rows.map { $0[table.index(of: "sex")] }
    let communes = table.numbers("commune")
    let sexLevels = Set(sexes).sorted()
    let communeLevels = Set(communes).sorted()
    let numbers = numeric.map { table.numbers($0) }
    var values: [Double] = []
    for r in table.rows.indices {
      for column in numbers { values.append(column[r]) }
      for level in sexLevels { values.append(sexes[r] == level ? 1 : 0) }
      for level in communeLevels { values.append(communes[r] == level ? 1 : 0) }
    }
    let columns = numeric.count + sexLevels.count + communeLevels.count
    return (
      Matrix(rows: table.rows.count, columns: columns, values: values), table.numbers("injury").map { Int($0) }
    )
  }

  static func goldens() throws -> Goldens {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Fixtures/injury-goldens.json")
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    return try decoder.decode(Goldens.self, from: Data(contentsOf: url))
  }

  /// Each fold's test log-loss within 1e-12 of the reference's (relative), every probability within 1e-12:
  /// the optimum itself, not a point near it.
  @Test(arguments: 0..<5)
  func reachesTheOptimumOnAnIllConditionedFit(fold: Int) throws {
    let (x, labels) = try Self.injuryDesign()
    let goldens = try Self.goldens()
    #expect(x.columns == goldens.columns && x.rows == goldens.rows)
    let golden = goldens.folds[fold]
    let test = (0..<x.rows).filter { $0 % 5 == fold }
    let train = (0..<x.rows).filter { $0 % 5 != fold }
    let fitted = try LogisticRegression().fit(
      x.selecting(rows: train), labels: train.map { labels[$0] }, classCount: 2)
    #expect(fitted.converged)
    let probabilities = fitted.predictProbabilities(x.selecting(rows: test))
    var loss = 0.0
    var gap = 0.0
    for (i, row) in test.enumerated() {
      loss -= log(probabilities[i, labels[row]])
      gap = max(gap, abs(probabilities[i, 1] - golden.proba[i]))
    }
    loss /= Double(test.count)
    #expect(abs(loss / golden.logLoss - 1) <= 1e-12, "log-loss \(loss) against \(golden.logLoss)")
    #expect(gap <= 1e-12, "largest probability gap \(gap)")
  }
}
