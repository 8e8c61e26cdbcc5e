/// Core ML's `TreeEnsembleParameters`: every node of every tree, the number of
/// prediction dimensions, and the base value each dimension starts from.
public struct TreeEnsembleParameters: Sendable, Equatable, ProtobufMessage {
  /// `TreeNode.TreeNodeBehavior`: how a branch compares its feature with its value.
  public enum NodeBehavior: Int, Sendable {
    case branchOnValueLessThanEqual = 0
    case branchOnValueLessThan = 1
    case branchOnValueGreaterThanEqual = 2
    case branchOnValueGreaterThan = 3
    case branchOnValueEqual = 4
    case branchOnValueNotEqual = 5
    case leafNode = 6
  }

  /// One node; a branch sends a row to its true child when the comparison holds.
  public struct TreeNode: Sendable, Equatable, ProtobufMessage {
    public var treeId: UInt64 = 0
    public var nodeId: UInt64 = 0
    public var behavior: NodeBehavior = .branchOnValueLessThanEqual
    public var branchFeatureIndex: UInt64 = 0
    public var branchFeatureValue: Double = 0
    public var trueChildNodeId: UInt64 = 0
    public var falseChildNodeId: UInt64 = 0
    /// Where a missing (NaN) value goes.
    public var missingValueTracksTrueChild = false
    /// A leaf's contribution: (dimension, value) pairs.
    public var evaluationInfo: [(index: UInt64, value: Double)] = []
    public var relativeHitRate: Double = 0

    public init() {}

    public static func == (a: TreeNode, b: TreeNode) -> Bool {
      a.treeId == b.treeId && a.nodeId == b.nodeId && a.behavior == b.behavior
        && a.branchFeatureIndex == b.branchFeatureIndex && a.branchFeatureValue == b.branchFeatureValue
        && a.trueChildNodeId == b.trueChildNodeId && a.falseChildNodeId == b.falseChildNodeId
        && a.missingValueTracksTrueChild == b.missingValueTracksTrueChild
        && a.evaluationInfo.elementsEqual(b.evaluationInfo, by: { $0.index == $1.index && $0.value == $1.value })
        && a.relativeHitRate == b.relativeHitRate
    }

    func encode(to writer: inout ProtobufWriter) {
      writer.uint(1, treeId)
      writer.uint(2, nodeId)
      writer.int(3, behavior.rawValue)
      writer.uint(10, branchFeatureIndex)
      writer.double(11, branchFeatureValue)
      writer.uint(12, trueChildNodeId)
      writer.uint(13, falseChildNodeId)
      writer.bool(14, missingValueTracksTrueChild)
      for entry in evaluationInfo { writer.message(20, EvaluationInfo(index: entry.index, value: entry.value)) }
      writer.double(30, relativeHitRate)
    }

    mutating func decodeField(_ field: Int, _ wire: WireType, from reader: inout ProtobufReader)
      throws(ModelFileError) -> Bool
    {
      switch field {
      case 1: treeId = try reader.uint64(wire)
      case 2: nodeId = try reader.uint64(wire)
      case 3: behavior = try reader.enumeration(wire, "tree node behaviour")
      case 10: branchFeatureIndex = try reader.uint64(wire)
      case 11: branchFeatureValue = try reader.double(wire)
      case 12: trueChildNodeId = try reader.uint64(wire)
      case 13: falseChildNodeId = try reader.uint64(wire)
      case 14: missingValueTracksTrueChild = try reader.bool(wire)
      case 20:
        let entry = try reader.message(wire, as: EvaluationInfo.self)
        evaluationInfo.append((entry.index, entry.value))
      case 30: relativeHitRate = try reader.double(wire)
      default: return false
      }
      return true
    }
  }

  /// `TreeNode.EvaluationInfo`: evaluationIndex = 1, evaluationValue = 2.
  struct EvaluationInfo: ProtobufMessage {
    var index: UInt64 = 0
    var value: Double = 0

    func encode(to writer: inout ProtobufWriter) {
      writer.uint(1, index)
      writer.double(2, value)
    }

    mutating func decodeField(_ field: Int, _ wire: WireType, from reader: inout ProtobufReader)
      throws(ModelFileError) -> Bool
    {
      switch field {
      case 1: index = try reader.uint64(wire)
      case 2: value = try reader.double(wire)
      default: return false
      }
      return true
    }
  }

  public var nodes: [TreeNode]
  public var numPredictionDimensions: UInt64
  public var basePredictionValue: [Double]

  public init(nodes: [TreeNode] = [], numPredictionDimensions: UInt64 = 0, basePredictionValue: [Double] = []) {
    self.nodes = nodes
    self.numPredictionDimensions = numPredictionDimensions
    self.basePredictionValue = basePredictionValue
  }

  init() { self.init(nodes: []) }

  func encode(to writer: inout ProtobufWriter) {
    writer.messages(1, nodes)
    writer.uint(2, numPredictionDimensions)
    writer.packedDoubles(3, basePredictionValue)
  }

  mutating func decodeField(_ field: Int, _ wire: WireType, from reader: inout ProtobufReader)
    throws(ModelFileError) -> Bool
  {
    switch field {
    case 1: nodes.append(try reader.message(wire))
    case 2: numPredictionDimensions = try reader.uint64(wire)
    case 3: try reader.appendDoubles(wire, to: &basePredictionValue)
    default: return false
    }
    return true
  }
}
