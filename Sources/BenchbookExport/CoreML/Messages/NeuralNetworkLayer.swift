/// Core ML's `NeuralNetworkLayer`, for the layer kinds Benchbook uses: seven part of the format since
/// specification version 1 (iOS 11), and two added in version 4 (iOS 13), `notEqual` and `concatND`, which a
/// network may hold only with `EXACT_ARRAY_MAPPING` (`NeuralNetwork.exactArrayMapping`).
public struct NeuralNetworkLayer: Sendable, Equatable, ProtobufMessage {
  public enum Kind: Sendable, Equatable {
    /// out = W·x + b, W row-major [outputChannels, inputChannels].
    case innerProduct(InnerProduct)
    /// Softmax across channels.
    case softmax
    /// Element-wise product of the inputs (or the one input times `alpha`).
    case multiply(alpha: Float)
    /// The inputs stacked along the channel axis.
    case concat
    /// x · scale + bias, per channel (or one value for all channels).
    case scale(Scale)
    /// The same values under a new [C, H, W] shape.
    case reshape(Reshape)
    /// One reduction (a sum, say) over the channel, height or width axes, each left at size 1.
    case reduce(Reduce)
    /// 1 where the two inputs differ (or the one input differs from `alpha`), else 0 (`NotEqualLayerParams`,
    /// specification version 4). NaN differs from everything, itself included.
    case notEqual(alpha: Float)
    /// The inputs joined along `axis` (`ConcatNDLayerParams`, specification version 4).
    case concatND(axis: Int64)
    case unsupported(field: Int)

    /// Whether the layer needs specification version 4 (iOS 13) and `EXACT_ARRAY_MAPPING`.
    public var isIOS13: Bool {
      switch self {
      case .notEqual, .concatND: true
      case .innerProduct, .softmax, .multiply, .concat, .scale, .reshape, .reduce, .unsupported: false
      }
    }
  }

  /// `InnerProductLayerParams` with float32 weights (`WeightParams.floatValue`).
  public struct InnerProduct: Sendable, Equatable, ProtobufMessage {
    public var inputChannels: UInt64
    public var outputChannels: UInt64
    public var hasBias: Bool
    public var weights: [Float]
    public var bias: [Float]
    /// Whether training may change the weights and bias (`WeightParams.isUpdatable`).
    public var isUpdatable: Bool

    public init(
      inputChannels: UInt64, outputChannels: UInt64, hasBias: Bool, weights: [Float], bias: [Float],
      isUpdatable: Bool = false
    ) {
      self.inputChannels = inputChannels
      self.outputChannels = outputChannels
      self.hasBias = hasBias
      self.weights = weights
      self.bias = bias
      self.isUpdatable = isUpdatable
    }

    init() { self.init(inputChannels: 0, outputChannels: 0, hasBias: false, weights: [], bias: []) }

    func encode(to writer: inout ProtobufWriter) {
      writer.uint(1, inputChannels)
      writer.uint(2, outputChannels)
      writer.bool(10, hasBias)
      writer.message(20, WeightParams(floatValue: weights, isUpdatable: isUpdatable))
      if hasBias { writer.message(21, WeightParams(floatValue: bias, isUpdatable: isUpdatable)) }
    }

    mutating func decodeField(_ field: Int, _ wire: WireType, from reader: inout ProtobufReader)
      throws(ModelFileError) -> Bool
    {
      switch field {
      case 1: inputChannels = try reader.uint64(wire)
      case 2: outputChannels = try reader.uint64(wire)
      case 10: hasBias = try reader.bool(wire)
      case 20:
        let parameters = try reader.message(wire, as: WeightParams.self)
        weights = parameters.floatValue
        isUpdatable = parameters.isUpdatable
      case 21: bias = try reader.message(wire, as: WeightParams.self).floatValue
      default: return false
      }
      return true
    }
  }

  /// `ScaleLayerParams`, over channels only: shapeScale [channels] or [1] (one value for every channel), and
  /// likewise shapeBias; float32 `scale` and `bias` (empty without one).
  public struct Scale: Sendable, Equatable, ProtobufMessage {
    public var scaleShape: [UInt64]
    public var scale: [Float]
    public var biasShape: [UInt64]
    public var bias: [Float]

    /// One shape for the scale and the bias.
    public init(shape: [UInt64], scale: [Float], bias: [Float]) {
      self.init(scaleShape: shape, scale: scale, biasShape: bias.isEmpty ? [] : shape, bias: bias)
    }

    public init(scaleShape: [UInt64], scale: [Float], biasShape: [UInt64], bias: [Float]) {
      self.scaleShape = scaleShape
      self.scale = scale
      self.biasShape = bias.isEmpty ? [] : biasShape
      self.bias = bias
    }

    init() { self.init(shape: [], scale: [], bias: []) }

    func encode(to writer: inout ProtobufWriter) {
      writer.packedInts(1, scaleShape.map { Int64($0) })
      writer.message(2, WeightParams(floatValue: scale))
      writer.bool(3, !bias.isEmpty)
      if !bias.isEmpty {
        writer.packedInts(4, biasShape.map { Int64($0) })
        writer.message(5, WeightParams(floatValue: bias))
      }
    }

    mutating func decodeField(_ field: Int, _ wire: WireType, from reader: inout ProtobufReader)
      throws(ModelFileError) -> Bool
    {
      switch field {
      case 1:
        var values: [Int64] = []
        try reader.appendInts(wire, to: &values)
        scaleShape += values.map { UInt64(bitPattern: $0) }
      case 2: scale = try reader.message(wire, as: WeightParams.self).floatValue
      case 3: _ = try reader.bool(wire)
      case 4:
        var values: [Int64] = []
        try reader.appendInts(wire, to: &values)
        biasShape += values.map { UInt64(bitPattern: $0) }
      case 5: bias = try reader.message(wire, as: WeightParams.self).floatValue
      default: return false
      }
      return true
    }
  }

  /// `ReshapeLayerParams`: targetShape [C, H, W] (or [Seq, C, H, W]) and the order, channel-first (the values
  /// keep their C·H·W order; the default) or channel-last.
  public struct Reshape: Sendable, Equatable, ProtobufMessage {
    public enum Order: Int64, Sendable, Equatable {
      case channelFirst = 0
      case channelLast = 1
    }

    public var targetShape: [Int64]
    public var order: Order

    public init(targetShape: [Int64], order: Order = .channelFirst) {
      self.targetShape = targetShape
      self.order = order
    }

    init() { self.init(targetShape: []) }

    func encode(to writer: inout ProtobufWriter) {
      writer.packedInts(1, targetShape)
      writer.int(2, order.rawValue)
    }

    mutating func decodeField(_ field: Int, _ wire: WireType, from reader: inout ProtobufReader)
      throws(ModelFileError) -> Bool
    {
      switch field {
      case 1: try reader.appendInts(wire, to: &targetShape)
      case 2: order = try reader.enumeration(wire, "reshape order")
      default: return false
      }
      return true
    }
  }

  /// `ReduceLayerParams`: the operation (mode), epsilon (for the logarithmic and L-norm reductions) and the axes.
  public struct Reduce: Sendable, Equatable, ProtobufMessage {
    public enum Operation: Int64, Sendable, Equatable, CaseIterable {
      case sum = 0, average, product, logSum, sumOfSquares, l1, l2, max, min, argMax
    }

    /// The axes reduced: all three, height and width, or one.
    public enum Axis: Int64, Sendable, Equatable, CaseIterable {
      case channelHeightWidth = 0, heightWidth, channel, height, width
    }

    public var operation: Operation
    public var axis: Axis
    public var epsilon: Float

    public init(operation: Operation, axis: Axis, epsilon: Float = 0) {
      self.operation = operation
      self.axis = axis
      self.epsilon = epsilon
    }

    init() { self.init(operation: .sum, axis: .channelHeightWidth) }

    func encode(to writer: inout ProtobufWriter) {
      writer.int(1, operation.rawValue)
      writer.float(2, epsilon)
      writer.int(3, axis.rawValue)
    }

    mutating func decodeField(_ field: Int, _ wire: WireType, from reader: inout ProtobufReader)
      throws(ModelFileError) -> Bool
    {
      switch field {
      case 1: operation = try reader.enumeration(wire, "reduce operation")
      case 2: epsilon = try reader.float(wire)
      case 3: axis = try reader.enumeration(wire, "reduce axis")
      default: return false
      }
      return true
    }
  }

  /// `WeightParams`, float32 values only (floatValue = 1, packed; isUpdatable = 50).
  struct WeightParams: ProtobufMessage {
    var floatValue: [Float] = []
    var isUpdatable = false

    func encode(to writer: inout ProtobufWriter) {
      writer.packedFloats(1, floatValue)
      writer.bool(50, isUpdatable)
    }

    mutating func decodeField(_ field: Int, _ wire: WireType, from reader: inout ProtobufReader)
      throws(ModelFileError) -> Bool
    {
      switch field {
      case 1: try reader.appendFloats(wire, to: &floatValue)
      case 50: isUpdatable = try reader.bool(wire)
      default: return false
      }
      return true
    }
  }

  /// `ConcatNDLayerParams`: axis = 1 (int64).
  struct AxisParams: ProtobufMessage {
    var axis: Int64 = 0

    func encode(to writer: inout ProtobufWriter) {
      writer.int(1, axis)
    }

    mutating func decodeField(_ field: Int, _ wire: WireType, from reader: inout ProtobufReader)
      throws(ModelFileError) -> Bool
    {
      guard field == 1 else { return false }
      axis = try reader.int64(wire)
      return true
    }
  }

  /// `MultiplyLayerParams` and `NotEqualLayerParams`, the same message: alpha = 1 (float).
  struct AlphaParams: ProtobufMessage {
    var alpha: Float = 0

    func encode(to writer: inout ProtobufWriter) {
      writer.float(1, alpha)
    }

    mutating func decodeField(_ field: Int, _ wire: WireType, from reader: inout ProtobufReader)
      throws(ModelFileError) -> Bool
    {
      guard field == 1 else { return false }
      var values: [Float] = []
      try reader.appendFloats(wire, to: &values)
      alpha = values.last ?? 0
      return true
    }
  }

  public var name: String
  public var inputs: [String]
  public var outputs: [String]
  public var kind: Kind
  /// Whether training may change this layer (an updatable inner product).
  public var isUpdatable: Bool

  public init(name: String, inputs: [String], outputs: [String], kind: Kind, isUpdatable: Bool = false) {
    self.name = name
    self.inputs = inputs
    self.outputs = outputs
    self.kind = kind
    self.isUpdatable = isUpdatable
  }

  init() { self.init(name: "", inputs: [], outputs: [], kind: .unsupported(field: 0)) }

  func encode(to writer: inout ProtobufWriter) {
    writer.string(1, name)
    writer.strings(2, inputs)
    writer.strings(3, outputs)
    writer.bool(10, isUpdatable)
    switch kind {
    case .innerProduct(let parameters): writer.message(140, parameters)
    case .softmax: writer.emptyMessage(175)
    case .multiply(let alpha): writer.message(231, AlphaParams(alpha: alpha))
    case .concat: writer.emptyMessage(320)
    case .scale(let parameters): writer.message(245, parameters)
    case .reduce(let parameters): writer.message(280, parameters)
    case .reshape(let parameters): writer.message(300, parameters)
    case .notEqual(let alpha): writer.message(820, AlphaParams(alpha: alpha))
    case .concatND(let axis): writer.message(980, AxisParams(axis: axis))
    case .unsupported: break
    }
  }

  mutating func decodeField(_ field: Int, _ wire: WireType, from reader: inout ProtobufReader)
    throws(ModelFileError) -> Bool
  {
    switch field {
    case 1: name = try reader.string(wire)
    case 2: inputs.append(try reader.string(wire))
    case 3: outputs.append(try reader.string(wire))
    case 10: isUpdatable = try reader.bool(wire)
    case 140: kind = .innerProduct(try reader.message(wire))
    case 175:
      _ = try reader.window(wire)
      kind = .softmax
    case 231: kind = .multiply(alpha: try reader.message(wire, as: AlphaParams.self).alpha)
    case 245: kind = .scale(try reader.message(wire))
    case 280: kind = .reduce(try reader.message(wire))
    case 300: kind = .reshape(try reader.message(wire))
    case 320:
      // `sequenceConcat` (field 100) is false for a channel concatenation; a true one is not supported.
      var parameters = try reader.window(wire)
      while let (inner, innerWire) = try parameters.nextField() {
        if inner == 100, try parameters.bool(innerWire) {
          throw ModelFileError("layer '\(name)': sequence concatenation is not supported")
        } else if inner != 100 {
          try parameters.skip(innerWire)
        }
      }
      kind = .concat
    case 820: kind = .notEqual(alpha: try reader.message(wire, as: AlphaParams.self).alpha)
    case 980: kind = .concatND(axis: try reader.message(wire, as: AxisParams.self).axis)
    case 100...1999 where wire == .lengthDelimited:
      kind = .unsupported(field: field)
      return false
    default: return false
    }
    return true
  }
}
