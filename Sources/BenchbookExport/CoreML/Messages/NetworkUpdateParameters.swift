/// Core ML's `NetworkUpdateParameters` (specification version 4): how an app
/// trains a neural network's updatable layers on its own examples. Benchbook
/// writes one categorical cross-entropy loss and plain SGD:
/// lossLayers = 1 (`LossLayer`: name = 1, categoricalCrossEntropyLossLayer =
/// 10 with input = 1 and target = 2), optimizer = 2 (`Optimizer`:
/// sgdOptimizer = 10 with learningRate = 1, miniBatchSize = 2, momentum = 3),
/// epochs = 3, shuffle = 10 (`BoolParameter`: defaultValue = 1).
public struct NetworkUpdateParameters: Sendable, Equatable, ProtobufMessage {
  /// The loss layer's name.
  public var lossName: String
  /// The probabilities the loss reads (a softmax layer's output).
  public var lossInput: String
  /// The training input holding the true class.
  public var lossTarget: String
  public var learningRate: DoubleParameter
  public var miniBatchSize: Int64Parameter
  public var momentum: DoubleParameter
  public var epochs: Int64Parameter
  public var shuffle: Bool

  public init(
    lossName: String, lossInput: String, lossTarget: String, learningRate: DoubleParameter,
    miniBatchSize: Int64Parameter, momentum: DoubleParameter, epochs: Int64Parameter, shuffle: Bool
  ) {
    self.lossName = lossName
    self.lossInput = lossInput
    self.lossTarget = lossTarget
    self.learningRate = learningRate
    self.miniBatchSize = miniBatchSize
    self.momentum = momentum
    self.epochs = epochs
    self.shuffle = shuffle
  }

  init() {
    self.init(
      lossName: "", lossInput: "", lossTarget: "", learningRate: .init(), miniBatchSize: .init(), momentum: .init(),
      epochs: .init(), shuffle: false)
  }

  func encode(to writer: inout ProtobufWriter) {
    writer.message(1, LossLayer(name: lossName, input: lossInput, target: lossTarget))
    writer.message(
      2, OptimizerMessage(sgd: SGD(learningRate: learningRate, miniBatchSize: miniBatchSize, momentum: momentum)))
    writer.message(3, epochs)
    if shuffle { writer.message(10, BoolParameter(defaultValue: true)) }
  }

  mutating func decodeField(_ field: Int, _ wire: WireType, from reader: inout ProtobufReader)
    throws(ModelFileError) -> Bool
  {
    switch field {
    case 1:
      let loss = try reader.message(wire, as: LossLayer.self)
      (lossName, lossInput, lossTarget) = (loss.name, loss.input, loss.target)
    case 2:
      let sgd = try reader.message(wire, as: OptimizerMessage.self).sgd
      (learningRate, miniBatchSize, momentum) = (sgd.learningRate, sgd.miniBatchSize, sgd.momentum)
    case 3: epochs = try reader.message(wire)
    case 10: shuffle = try reader.message(wire, as: BoolParameter.self).defaultValue
    default: return false
    }
    return true
  }

  struct LossLayer: ProtobufMessage {
    var name = ""
    var input = ""
    var target = ""

    func encode(to writer: inout ProtobufWriter) {
      writer.string(1, name)
      writer.message(10, CrossEntropy(input: input, target: target))
    }

    mutating func decodeField(_ field: Int, _ wire: WireType, from reader: inout ProtobufReader)
      throws(ModelFileError) -> Bool
    {
      switch field {
      case 1: name = try reader.string(wire)
      case 10:
        let loss = try reader.message(wire, as: CrossEntropy.self)
        (input, target) = (loss.input, loss.target)
      default: return false
      }
      return true
    }
  }

  struct CrossEntropy: ProtobufMessage {
    var input = ""
    var target = ""

    func encode(to writer: inout ProtobufWriter) {
      writer.string(1, input)
      writer.string(2, target)
    }

    mutating func decodeField(_ field: Int, _ wire: WireType, from reader: inout ProtobufReader)
      throws(ModelFileError) -> Bool
    {
      switch field {
      case 1: input = try reader.string(wire)
      case 2: target = try reader.string(wire)
      default: return false
      }
      return true
    }
  }

  struct OptimizerMessage: ProtobufMessage {
    var sgd = SGD()

    func encode(to writer: inout ProtobufWriter) { writer.message(10, sgd) }

    mutating func decodeField(_ field: Int, _ wire: WireType, from reader: inout ProtobufReader)
      throws(ModelFileError) -> Bool
    {
      guard field == 10 else { return false }
      sgd = try reader.message(wire)
      return true
    }
  }

  struct SGD: ProtobufMessage {
    var learningRate = DoubleParameter()
    var miniBatchSize = Int64Parameter()
    var momentum = DoubleParameter()

    func encode(to writer: inout ProtobufWriter) {
      writer.message(1, learningRate)
      writer.message(2, miniBatchSize)
      writer.message(3, momentum)
    }

    mutating func decodeField(_ field: Int, _ wire: WireType, from reader: inout ProtobufReader)
      throws(ModelFileError) -> Bool
    {
      switch field {
      case 1: learningRate = try reader.message(wire)
      case 2: miniBatchSize = try reader.message(wire)
      case 3: momentum = try reader.message(wire)
      default: return false
      }
      return true
    }
  }

  /// `BoolParameter`: defaultValue = 1.
  struct BoolParameter: ProtobufMessage {
    var defaultValue = false

    func encode(to writer: inout ProtobufWriter) { writer.bool(1, defaultValue) }

    mutating func decodeField(_ field: Int, _ wire: WireType, from reader: inout ProtobufReader)
      throws(ModelFileError) -> Bool
    {
      guard field == 1 else { return false }
      defaultValue = try reader.bool(wire)
      return true
    }
  }
}
