/// Core ML's top-level `Model` message: a specification version, the
/// interface the app sees, and one model of a given kind.
///
/// Field numbers are facts of Apple's format (`Model.proto`); this mirror
/// holds only the kinds Benchbook writes, and reads anything else as
/// `.unsupported` so a foreign file can still be described.
public struct CoreMLModel: Sendable, Equatable {
  /// The model itself: `oneof Type` in `Model.proto`.
  public enum Kind: Sendable, Equatable {
    case pipelineClassifier(Pipeline)
    case pipeline(Pipeline)
    case glmClassifier(GLMClassifier)
    case treeEnsembleClassifier(TreeEnsembleClassifier)
    case neuralNetworkClassifier(NeuralNetworkClassifier)
    case kNearestNeighborsClassifier(KNearestNeighborsClassifier)
    /// A network as a transform: array inputs to array outputs.
    case neuralNetwork(NeuralNetwork)
    case oneHotEncoder(OneHotEncoder)
    case imputer(Imputer)
    case featureVectorizer(FeatureVectorizer)
    case scaler(Scaler)
    /// A kind this mirror does not hold, by its field number.
    case unsupported(field: Int)
    case none

    /// The name `Model.proto` gives the field.
    public var name: String {
      switch self {
      case .pipelineClassifier: "pipelineClassifier"
      case .pipeline: "pipeline"
      case .glmClassifier: "glmClassifier"
      case .treeEnsembleClassifier: "treeEnsembleClassifier"
      case .neuralNetworkClassifier: "neuralNetworkClassifier"
      case .kNearestNeighborsClassifier: "kNearestNeighborsClassifier"
      case .neuralNetwork: "neuralNetwork"
      case .oneHotEncoder: "oneHotEncoder"
      case .imputer: "imputer"
      case .featureVectorizer: "featureVectorizer"
      case .scaler: "scaler"
      case .unsupported(let field): "unsupported model type (field \(field))"
      case .none: "no model"
      }
    }
  }

  public var specificationVersion: Int
  public var description: ModelDescription
  public var isUpdatable: Bool
  public var kind: Kind

  public init(
    specificationVersion: Int, description: ModelDescription, isUpdatable: Bool = false, kind: Kind
  ) {
    self.specificationVersion = specificationVersion
    self.description = description
    self.isUpdatable = isUpdatable
    self.kind = kind
  }

  /// Decodes a `.mlmodel` file's bytes.
  public init(serializedBytes bytes: [UInt8]) throws(ModelFileError) {
    var reader = ProtobufReader(bytes)
    self = try CoreMLModel(from: &reader)
  }

  /// The `.mlmodel` file's bytes: fields in number order, nothing that varies between runs.
  public func serializedBytes() -> [UInt8] { ProtobufWriter.serialize(self) }

  /// The models a pipeline runs, in order; empty for any other kind.
  public var stages: [(name: String, model: CoreMLModel)] {
    switch kind {
    case .pipelineClassifier(let pipeline), .pipeline(let pipeline):
      pipeline.models.enumerated().map { index, model in
        (index < pipeline.names.count ? pipeline.names[index] : "model \(index)", model)
      }
    default: []
    }
  }
}

extension CoreMLModel: ProtobufMessage {
  public init() {
    self.init(specificationVersion: 0, description: ModelDescription(), kind: .none)
  }

  func encode(to writer: inout ProtobufWriter) {
    writer.int(1, specificationVersion)
    writer.message(2, description)
    writer.bool(10, isUpdatable)
    switch kind {
    case .pipelineClassifier(let pipeline): writer.message(200, PipelineClassifierMessage(pipeline: pipeline))
    case .pipeline(let pipeline): writer.message(202, pipeline)
    case .glmClassifier(let model): writer.message(400, model)
    case .treeEnsembleClassifier(let model): writer.message(402, model)
    case .neuralNetworkClassifier(let model): writer.message(403, model)
    case .kNearestNeighborsClassifier(let model): writer.message(404, model)
    case .neuralNetwork(let model): writer.message(500, model)
    case .oneHotEncoder(let model): writer.message(600, model)
    case .imputer(let model): writer.message(601, model)
    case .featureVectorizer(let model): writer.message(602, model)
    case .scaler(let model): writer.message(604, model)
    case .unsupported, .none: break
    }
  }

  mutating func decodeField(_ field: Int, _ wire: WireType, from reader: inout ProtobufReader)
    throws(ModelFileError) -> Bool
  {
    switch field {
    case 1: specificationVersion = try reader.int32(wire)
    case 2: description = try reader.message(wire)
    case 10: isUpdatable = try reader.bool(wire)
    case 200: kind = .pipelineClassifier(try reader.message(wire, as: PipelineClassifierMessage.self).pipeline)
    case 202: kind = .pipeline(try reader.message(wire))
    case 400: kind = .glmClassifier(try reader.message(wire))
    case 402: kind = .treeEnsembleClassifier(try reader.message(wire))
    case 403: kind = .neuralNetworkClassifier(try reader.message(wire))
    case 404: kind = .kNearestNeighborsClassifier(try reader.message(wire))
    case 500: kind = .neuralNetwork(try reader.message(wire))
    case 600: kind = .oneHotEncoder(try reader.message(wire))
    case 601: kind = .imputer(try reader.message(wire))
    case 602: kind = .featureVectorizer(try reader.message(wire))
    case 604: kind = .scaler(try reader.message(wire))
    case 200...999 where wire == .lengthDelimited:
      // Another member of `oneof Type` (image models, SVMs, ML programs, …).
      kind = .unsupported(field: field)
      return false
    default: return false
    }
    return true
  }
}

/// `PipelineClassifier`: a pipeline (field 1) whose last model is a classifier.
struct PipelineClassifierMessage: ProtobufMessage {
  var pipeline = Pipeline()

  func encode(to writer: inout ProtobufWriter) { writer.message(1, pipeline) }

  mutating func decodeField(_ field: Int, _ wire: WireType, from reader: inout ProtobufReader)
    throws(ModelFileError) -> Bool
  {
    guard field == 1 else { return false }
    pipeline = try reader.message(wire)
    return true
  }
}
