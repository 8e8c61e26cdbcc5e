import BenchbookData
@_spi(Testing) import BenchbookModels
import Testing

/// Newton's design (standardised rows and a column of ones) is written into the rows' own storage when they come
/// with room for the column (`Matrix.selecting(rows:roomForColumns:)`), and into a new array otherwise; both must
/// give the same fit bit for bit, with one output (sigmoid) and with several (softmax).
@Suite struct LogisticDesignInPlaceTests {
  /// Rows of `features` values from a fixed generator, with labels that depend on them and on the noise.
  static func data(rows: Int, features: Int, classes: Int) -> (x: Matrix, labels: [Int]) {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next() -> Double {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Double(state >> 11) / Double(1 << 53)
    }
    var values: [Double] = []
    var labels: [Int] = []
    for _ in 0..<rows {
      let row = (0..<features).map { c in next() * Double(c % 7 + 1) - 0.5 }
      values += row
      labels.append((Int(next() * Double(classes)) + (row[0] > 0 ? 1 : 0)) % classes)
    }
    return (Matrix(rows: rows, columns: features, values: values), labels)
  }

  @Test(arguments: [(classes: 2, features: 60), (classes: 4, features: 30)])
  func widenedInPlaceEqualsCopied(_ shape: (classes: Int, features: Int)) throws {
    #expect(LogisticRegression.solver(classCount: shape.classes, features: shape.features) == .newton)
    let (x, labels) = Self.data(rows: 400, features: shape.features, classes: shape.classes)
    let rows = Array(0..<x.rows)
    let roomy = x.selecting(rows: rows, roomForColumns: 1)
    #expect(roomy.hasRoom(forColumns: 1))
    #expect(!x.selecting(rows: rows).hasRoom(forColumns: 1))
    let model = LogisticRegression()
    let widened = try model.fit(roomy, labels: labels, classCount: shape.classes)
    let copied = try model.fit(x.selecting(rows: rows), labels: labels, classCount: shape.classes)
    #expect(widened.coefficients.values.map(\.bitPattern) == copied.coefficients.values.map(\.bitPattern))
    #expect(widened.intercepts.map(\.bitPattern) == copied.intercepts.map(\.bitPattern))
  }
}
