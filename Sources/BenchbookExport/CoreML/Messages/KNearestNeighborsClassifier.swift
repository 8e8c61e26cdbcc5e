/// Core ML's `KNearestNeighborsClassifier` (specification version 4, iOS 13):
/// stored samples with one label each, a neighbour count, and a weighting.
public struct KNearestNeighborsClassifier: Sendable, Equatable, ProtobufMessage {
  public enum Weighting: Sendable, Equatable {
    /// Every neighbour votes 1.
    case uniform
    /// A neighbour votes 1/distance.
    case inverseDistance
  }

  public enum DefaultLabel: Sendable, Equatable {
    case string(String)
    case int64(Int64)
  }

  public var index: NearestNeighborsIndex
  public var numberOfNeighbors: Int64Parameter
  /// One label per stored sample, in sample order.
  public var labels: ClassLabels?
  /// What an empty model predicts.
  public var defaultLabel: DefaultLabel?
  public var weighting: Weighting?

  public init(
    index: NearestNeighborsIndex = NearestNeighborsIndex(numberOfDimensions: 0),
    numberOfNeighbors: Int64Parameter = Int64Parameter(defaultValue: 0),
    labels: ClassLabels? = nil, defaultLabel: DefaultLabel? = nil, weighting: Weighting? = nil
  ) {
    self.index = index
    self.numberOfNeighbors = numberOfNeighbors
    self.labels = labels
    self.defaultLabel = defaultLabel
    self.weighting = weighting
  }

  init() { self.init(index: NearestNeighborsIndex()) }

  func encode(to writer: inout ProtobufWriter) {
    writer.message(1, index)
    writer.message(3, numberOfNeighbors)
    labels?.encode(to: &writer)
    switch defaultLabel {
    case .string(let label):
      // A oneof member is written even when it holds the default value.
      writer.strings(110, [label])
    case .int64(let label):
      writer.writeKey(111, .varint)
      writer.writeVarint(UInt64(bitPattern: label))
    case nil: break
    }
    switch weighting {
    case .uniform: writer.emptyMessage(200)
    case .inverseDistance: writer.emptyMessage(210)
    case nil: break
    }
  }

  mutating func decodeField(_ field: Int, _ wire: WireType, from reader: inout ProtobufReader)
    throws(ModelFileError) -> Bool
  {
    switch field {
    case 1: index = try reader.message(wire)
    case 3: numberOfNeighbors = try reader.message(wire)
    case 110: defaultLabel = .string(try reader.string(wire))
    case 111: defaultLabel = .int64(try reader.int64(wire))
    case 200:
      _ = try reader.window(wire)
      weighting = .uniform
    case 210:
      _ = try reader.window(wire)
      weighting = .inverseDistance
    default: return try ClassLabels.decode(field, wire, from: &reader, into: &labels)
    }
    return true
  }
}
