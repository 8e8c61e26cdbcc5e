/// Facts of TensorFlow Lite's FlatBuffers schema (`schema.fbs`, version 3,
/// file identifier `TFL3`), as the LiteRT 2.3 package bundles it: field ids
/// of the tables Benchbook writes, builtin operator codes, options union
/// types and tensor types. Each table's ids count its fields in schema
/// order; a union takes two ids (its type, then its value).
enum TFLiteSchema {
  static let version: UInt32 = 3
  static let identifier = "TFL3"

  /// `Model`.
  enum Model {
    static let version = 0, operatorCodes = 1, subgraphs = 2, description = 3, buffers = 4, metadata = 6
    static let signatureDefs = 7
  }
  /// `SubGraph`.
  enum SubGraph { static let tensors = 0, inputs = 1, outputs = 2, operators = 3, name = 4 }
  /// `Tensor`.
  enum Tensor { static let shape = 0, type = 1, buffer = 2, name = 3, shapeSignature = 7 }
  /// `Buffer`.
  enum Buffer { static let data = 0 }
  /// `Operator`.
  enum Operator { static let opcodeIndex = 0, inputs = 1, outputs = 2, builtinOptionsType = 3, builtinOptions = 4 }
  /// `OperatorCode`: the int8 code (deprecated, but read by older runtimes), the custom code, the version and
  /// the int32 code.
  enum OperatorCode { static let deprecatedBuiltinCode = 0, version = 2, builtinCode = 3 }
  /// `Metadata`: a named buffer.
  enum Metadata { static let name = 0, buffer = 1 }
  /// `SignatureDef` (id 3, the deprecated method name, is skipped).
  enum SignatureDef { static let inputs = 0, outputs = 1, signatureKey = 2, subgraphIndex = 4 }
  /// `TensorMap`.
  enum TensorMap { static let name = 0, tensorIndex = 1 }

  /// `TensorType`.
  static func tensorType(_ type: ElementType) -> Int8 {
    switch type {
    case .float32: 0
    case .int32: 2
    case .int64: 4
    case .string: 5
    case .bool: 6
    }
  }

  static func elementType(_ code: Int) -> ElementType? {
    switch code {
    case 0: .float32
    case 2: .int32
    case 4: .int64
    case 5: .string
    case 6: .bool
    default: nil
    }
  }

  /// `BuiltinOperator` codes of the operators Benchbook writes, and the `BuiltinOptions` union member of each
  /// operator's options table (0: none).
  enum Builtin: Int32, CaseIterable {
    case add = 0
    case concatenation = 2
    case fullyConnected = 9
    case multiply = 18
    case reshape = 22
    case softmax = 25
    case gather = 36
    case subtract = 41
    case divide = 42
    case topKV2 = 48
    case cast = 53
    case negate = 59
    case greater = 61
    case lessEqual = 63
    case equal = 71
    case sum = 74
    case squareRoot = 75
    case oneHot = 85
    case selectV2 = 123

    var optionsType: UInt8 {
      switch self {
      case .add: 11
      case .concatenation: 10
      case .fullyConnected: 8
      case .multiply: 21
      case .reshape: 17
      case .softmax: 9
      case .gather: 23
      case .subtract: 28
      case .divide: 29
      case .topKV2: 34
      case .cast: 37
      case .negate: 42
      case .greater: 44
      case .lessEqual: 46
      case .equal: 53
      case .sum: 27
      case .squareRoot: 0
      case .oneHot: 61
      case .selectV2: 98
      }
    }

    /// The operator's name in the schema (`FULLY_CONNECTED`).
    var schemaName: String {
      switch self {
      case .add: "ADD"
      case .concatenation: "CONCATENATION"
      case .fullyConnected: "FULLY_CONNECTED"
      case .multiply: "MUL"
      case .reshape: "RESHAPE"
      case .softmax: "SOFTMAX"
      case .gather: "GATHER"
      case .subtract: "SUB"
      case .divide: "DIV"
      case .topKV2: "TOPK_V2"
      case .cast: "CAST"
      case .negate: "NEG"
      case .greater: "GREATER"
      case .lessEqual: "LESS_EQUAL"
      case .equal: "EQUAL"
      case .sum: "SUM"
      case .squareRoot: "SQRT"
      case .oneHot: "ONE_HOT"
      case .selectV2: "SELECT_V2"
      }
    }
  }

  /// Option fields: `SoftmaxOptions.beta`, `ConcatenationOptions.axis`, `GatherOptions.axis/batch_dims`,
  /// `CastOptions.in/out_data_type`, `ReducerOptions.keep_dims`, `OneHotOptions.axis`.
  enum Options {
    static let softmaxBeta = 0
    static let concatenationAxis = 0
    static let gatherAxis = 0, gatherBatchDims = 1
    static let castIn = 0, castOut = 1
    static let reducerKeepDims = 0
    static let oneHotAxis = 0
  }

  /// The metadata buffer ML Kit and the TFLite Support library read, and the metadata schema's facts
  /// (`metadata_schema.fbs` 1.1.0, identifier `M001`).
  static let metadataName = "TFLITE_METADATA"
  enum ModelMetadata {
    static let identifier = "M001"
    static let name = 0, description = 1, version = 2, subgraphMetadata = 3, author = 4, license = 5
    static let associatedFiles = 6, minParserVersion = 7
  }
  enum SubGraphMetadata { static let name = 0, description = 1, inputTensorMetadata = 2, outputTensorMetadata = 3 }
  enum TensorMetadata {
    static let name = 0, description = 1, dimensionNames = 2, content = 3, stats = 5, associatedFiles = 6
  }
  /// `Content`: the `ContentProperties` union (type, value), then `range`. `FeatureProperties` is member 1.
  enum Content { static let propertiesType = 0, properties = 1, featureProperties: UInt8 = 1 }
  enum Stats { static let max = 0, min = 1 }
  enum AssociatedFile {
    static let name = 0, description = 1, type = 2
    /// `AssociatedFileType`: labels of a tensor's axis, labels of a tensor's values.
    static let tensorAxisLabels: Int8 = 2, tensorValueLabels: Int8 = 3
  }
}
