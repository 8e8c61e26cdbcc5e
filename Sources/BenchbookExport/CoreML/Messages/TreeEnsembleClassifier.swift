/// Core ML's `TreeEnsembleClassifier`: trees whose leaf values are summed per
/// prediction dimension, then transformed into class probabilities.
///
/// With `noTransform` the sums are the probabilities: one dimension holds
/// P(class 1) of a two-class model, otherwise one dimension per class.
public struct TreeEnsembleClassifier: Sendable, Equatable, ProtobufMessage {
  public enum PostEvaluationTransform: Int, Sendable {
    case noTransform = 0
    case softMax = 1
    case logistic = 2
    case softMaxWithZeroClassReference = 3
  }

  public var treeEnsemble: TreeEnsembleParameters
  public var postEvaluationTransform: PostEvaluationTransform
  public var classLabels: ClassLabels?

  public init(
    treeEnsemble: TreeEnsembleParameters = TreeEnsembleParameters(nodes: []),
    postEvaluationTransform: PostEvaluationTransform = .noTransform, classLabels: ClassLabels? = nil
  ) {
    self.treeEnsemble = treeEnsemble
    self.postEvaluationTransform = postEvaluationTransform
    self.classLabels = classLabels
  }

  init() { self.init(treeEnsemble: TreeEnsembleParameters()) }

  func encode(to writer: inout ProtobufWriter) {
    writer.message(1, treeEnsemble)
    writer.int(2, postEvaluationTransform.rawValue)
    classLabels?.encode(to: &writer)
  }

  mutating func decodeField(_ field: Int, _ wire: WireType, from reader: inout ProtobufReader)
    throws(ModelFileError) -> Bool
  {
    switch field {
    case 1: treeEnsemble = try reader.message(wire)
    case 2: postEvaluationTransform = try reader.enumeration(wire, "tree ensemble post-evaluation transform")
    default: return try ClassLabels.decode(field, wire, from: &reader, into: &classLabels)
    }
    return true
  }
}
