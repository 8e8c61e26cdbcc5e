/// Core ML's `GLMClassifier`: linear scores turned into class probabilities.
///
/// With `referenceClass` encoding there are K − 1 weight rows, scoring classes
/// 1…K−1 against class 0, whose score is fixed at zero; two classes take one
/// row and P(class 1) = σ(w·x + b). With `oneVsRest` there are K rows (one when
/// K = 2), each scored on its own and normalised.
public struct GLMClassifier: Sendable, Equatable, ProtobufMessage {
  public enum PostEvaluationTransform: Int, Sendable {
    case logit = 0
    case probit = 1
  }

  public enum ClassEncoding: Int, Sendable {
    case referenceClass = 0
    case oneVsRest = 1
  }

  /// One row per score, each as long as the input vector.
  public var weights: [[Double]]
  /// One per row of `weights`.
  public var offsets: [Double]
  public var postEvaluationTransform: PostEvaluationTransform
  public var classEncoding: ClassEncoding
  public var classLabels: ClassLabels?

  public init(
    weights: [[Double]] = [], offsets: [Double] = [], postEvaluationTransform: PostEvaluationTransform = .logit,
    classEncoding: ClassEncoding = .referenceClass, classLabels: ClassLabels? = nil
  ) {
    self.weights = weights
    self.offsets = offsets
    self.postEvaluationTransform = postEvaluationTransform
    self.classEncoding = classEncoding
    self.classLabels = classLabels
  }

  init() { self.init(weights: []) }

  func encode(to writer: inout ProtobufWriter) {
    for row in weights { writer.message(1, DoubleVector(vector: row)) }
    writer.packedDoubles(2, offsets)
    writer.int(3, postEvaluationTransform.rawValue)
    writer.int(4, classEncoding.rawValue)
    classLabels?.encode(to: &writer)
  }

  mutating func decodeField(_ field: Int, _ wire: WireType, from reader: inout ProtobufReader)
    throws(ModelFileError) -> Bool
  {
    switch field {
    case 1: weights.append(try reader.message(wire, as: DoubleVector.self).vector)
    case 2: try reader.appendDoubles(wire, to: &offsets)
    case 3: postEvaluationTransform = try reader.enumeration(wire, "GLM post-evaluation transform")
    case 4: classEncoding = try reader.enumeration(wire, "GLM class encoding")
    default: return try ClassLabels.decode(field, wire, from: &reader, into: &classLabels)
    }
    return true
  }
}
