import BenchbookData

/// Share of rows whose most probable class is the true one (ties go to the
/// first class, as numpy's `argmax` breaks them).
public enum Accuracy {
  public static func evaluate(_ probabilities: Matrix, labels: [Int]) -> Double {
    var correct = 0
    for (row, label) in labels.enumerated() where predictedClass(probabilities, row: row) == label {
      correct += 1
    }
    return Double(correct) / Double(labels.count)
  }

  public static func predictedClass(_ probabilities: Matrix, row: Int) -> Int {
    var best = 0
    for c in 1..<probabilities.columns where probabilities[row, c] > probabilities[row, best] { best = c }
    return best
  }
}
