/// Core ML's `NearestNeighborsIndex`: the stored samples as float32 vectors,
/// the search structure to build over them, and the distance (squared
/// Euclidean, the only one the format defines).
public struct NearestNeighborsIndex: Sendable, Equatable, ProtobufMessage {
  public enum IndexType: Sendable, Equatable {
    case linear
    /// A single kd-tree whose leaves hold about `leafSize` samples.
    case kdTree(leafSize: Int)
  }

  public var numberOfDimensions: Int
  /// Samples row-major, `numberOfDimensions` values each (one `FloatVector` per sample in the file).
  public var samples: [Float]
  public var sampleCount: Int
  public var indexType: IndexType?
  public var usesSquaredEuclideanDistance: Bool
  /// Length of every sample vector read, when they differ (a malformed file).
  public private(set) var sampleLengths: Set<Int> = []

  public init(
    numberOfDimensions: Int = 0, samples: [Float] = [], sampleCount: Int = 0, indexType: IndexType? = nil,
    usesSquaredEuclideanDistance: Bool = true
  ) {
    self.numberOfDimensions = numberOfDimensions
    self.samples = samples
    self.sampleCount = sampleCount
    self.indexType = indexType
    self.usesSquaredEuclideanDistance = usesSquaredEuclideanDistance
  }

  init() { self.init(numberOfDimensions: 0, usesSquaredEuclideanDistance: false) }

  /// Equal content; `sampleLengths` only records how a file was read.
  public static func == (a: NearestNeighborsIndex, b: NearestNeighborsIndex) -> Bool {
    a.numberOfDimensions == b.numberOfDimensions && a.sampleCount == b.sampleCount && a.samples == b.samples
      && a.indexType == b.indexType && a.usesSquaredEuclideanDistance == b.usesSquaredEuclideanDistance
  }

  func encode(to writer: inout ProtobufWriter) {
    writer.int(1, numberOfDimensions)
    writer.floatVectors(2, samples, dimension: numberOfDimensions, count: sampleCount)
    switch indexType {
    case .linear: writer.emptyMessage(100)
    case .kdTree(let leafSize): writer.message(110, SingleKdTreeIndex(leafSize: leafSize))
    case nil: break
    }
    if usesSquaredEuclideanDistance { writer.emptyMessage(200) }
  }

  mutating func decodeField(_ field: Int, _ wire: WireType, from reader: inout ProtobufReader)
    throws(ModelFileError) -> Bool
  {
    switch field {
    case 1: numberOfDimensions = try reader.int32(wire)
    case 2:
      let vector = try reader.message(wire, as: FloatVector.self).vector
      samples.append(contentsOf: vector)
      sampleCount += 1
      sampleLengths.insert(vector.count)
    case 100:
      _ = try reader.window(wire)
      indexType = .linear
    case 110: indexType = .kdTree(leafSize: try reader.message(wire, as: SingleKdTreeIndex.self).leafSize)
    case 200:
      _ = try reader.window(wire)
      usesSquaredEuclideanDistance = true
    default: return false
    }
    return true
  }

  /// `SingleKdTreeIndex`: leafSize = 1.
  struct SingleKdTreeIndex: ProtobufMessage {
    var leafSize = 0

    func encode(to writer: inout ProtobufWriter) { writer.int(1, leafSize) }

    mutating func decodeField(_ field: Int, _ wire: WireType, from reader: inout ProtobufReader)
      throws(ModelFileError) -> Bool
    {
      guard field == 1 else { return false }
      leafSize = try reader.int32(wire)
      return true
    }
  }
}
