/// What a TensorFlow Lite file says about itself: the `TFLITE_METADATA`
/// buffer ML Kit and the TFLite Support library read (names, descriptions,
/// each input column's statistics, and the feature names, class labels and
/// category lists as associated files, packed in the file), plus Benchbook's
/// own `benchbook` buffer of key: value lines, like a Core ML file's
/// user-defined metadata.
public struct TFLiteMetadata: Sendable, Equatable {
  /// One column of the input tensor.
  public struct Feature: Sendable, Equatable {
    public var name: String
    /// For a categorical feature: its categories; the input holds the index of one.
    public var categories: [String]?
    public var minimum: Double?
    public var maximum: Double?

    public init(name: String, categories: [String]?, minimum: Double?, maximum: Double?) {
      self.name = name
      self.categories = categories
      self.minimum = minimum
      self.maximum = maximum
    }
  }

  public var name: String
  public var description: String
  public var version: String
  public var author: String
  public var features: [Feature]
  public var classes: [String]
  /// What the probabilities are of (`species`, `arr_delay > 15`).
  public var target: String
  /// Benchbook's key: value facts (`benchbook.algorithm`, `benchbook.tree_form`), sorted by key when written.
  public var facts: [String: String]

  public init(
    name: String, description: String, version: String, author: String, features: [Feature], classes: [String],
    target: String, facts: [String: String]
  ) {
    self.name = name
    self.description = description
    self.version = version
    self.author = author
    self.features = features
    self.classes = classes
    self.target = target
    self.facts = facts
  }

  /// The files the metadata names, packed after the FlatBuffer.
  var associatedFiles: [(name: String, contents: [UInt8])] {
    var files = [
      (Self.featureFile, Self.lines(features.map(\.name))),
      (Self.labelFile, Self.lines(classes)),
    ]
    for (column, feature) in features.enumerated() {
      if let categories = feature.categories { files.append((Self.categoryFile(column), Self.lines(categories))) }
    }
    return files
  }

  static let featureFile = "features.txt"
  static let labelFile = "labels.txt"
  static func categoryFile(_ column: Int) -> String { "categories_\(column).txt" }

  static func lines(_ items: [String]) -> [UInt8] { Array(items.map { $0 + "\n" }.joined().utf8) }

  var inputDescription: String {
    let columns = features.enumerated().map { column, feature in
      if let categories = feature.categories {
        let shown = categories.prefix(10).enumerated().map { "\($0.offset) = \($0.element)" }.joined(separator: ", ")
        return "\(column): \(feature.name), the index of its category (\(shown)"
          + (categories.count > 10 ? ", … \(categories.count) in \(Self.categoryFile(column)))" : ")")
      }
      return "\(column): \(feature.name)"
    }
    return "float32 [batch, \(features.count)], one row per prediction, columns in this order: "
      + columns.joined(separator: "; ") + ". An index outside a category list gives that feature no category."
  }

  var outputDescription: String {
    "float32 [batch, \(classes.count)]: the probability of each class of \(target), in this order: "
      + classes.joined(separator: ", ") + "."
  }

  /// The `benchbook` buffer's text.
  var factsText: String {
    facts.keys.sorted().map { "\($0): \(facts[$0]!)\n" }.joined()
  }

  /// The metadata FlatBuffer (identifier `M001`).
  func flatBuffer() -> [UInt8] {
    typealias Schema = TFLiteSchema
    var builder = FlatBufferBuilder()
    func file(_ name: String, _ description: String, _ type: Int8) -> FlatBufferBuilder.Offset {
      let (n, d) = (builder.string(name), builder.string(description))
      builder.startTable()
      builder.add(Schema.AssociatedFile.name, n)
      builder.add(Schema.AssociatedFile.description, d)
      builder.add(Schema.AssociatedFile.type, type)
      return builder.endTable()
    }
    func featureContent() -> FlatBufferBuilder.Offset {
      builder.startTable()
      let properties = builder.endTable()
      builder.startTable()
      builder.add(Schema.Content.propertiesType, Schema.Content.featureProperties)
      builder.add(Schema.Content.properties, properties)
      return builder.endTable()
    }
    func tensor(
      _ name: String, _ description: String, dimensions: [String], files: [FlatBufferBuilder.Offset],
      stats: FlatBufferBuilder.Offset?
    ) -> FlatBufferBuilder.Offset {
      let content = featureContent()
      let (n, d) = (builder.string(name), builder.string(description))
      let dimensionNames = builder.vector(offsets: dimensions.map { builder.string($0) })
      let fileVector = builder.vector(offsets: files)
      builder.startTable()
      builder.add(Schema.TensorMetadata.name, n)
      builder.add(Schema.TensorMetadata.description, d)
      builder.add(Schema.TensorMetadata.dimensionNames, dimensionNames)
      builder.add(Schema.TensorMetadata.content, content)
      if let stats { builder.add(Schema.TensorMetadata.stats, stats) }
      builder.add(Schema.TensorMetadata.associatedFiles, fileVector)
      return builder.endTable()
    }

    var inputFiles = [
      file(
        Self.featureFile, "The feature of each input column, one per line, in column order.",
        Schema.AssociatedFile.tensorAxisLabels)
    ]
    for (column, feature) in features.enumerated() where feature.categories != nil {
      inputFiles.append(
        file(
          Self.categoryFile(column),
          "The categories of \(feature.name) (input column \(column)): column \(column) holds the index of one, "
            + "counting lines from 0.", Schema.AssociatedFile.tensorValueLabels))
    }
    let lows = features.map { feature in Float(feature.categories.map { _ in 0 } ?? feature.minimum ?? -.infinity) }
    let highs = features.map { feature in
      Float(feature.categories.map { Double($0.count - 1) } ?? feature.maximum ?? .infinity)
    }
    let (maxVector, minVector) = (builder.vector(floats: highs), builder.vector(floats: lows))
    builder.startTable()
    builder.add(Schema.Stats.max, maxVector)
    builder.add(Schema.Stats.min, minVector)
    let stats = builder.endTable()
    let input = tensor(
      GraphLowering.inputName, inputDescription, dimensions: ["batch", "feature"], files: inputFiles, stats: stats)
    let labels = file(
      Self.labelFile, "The classes of \(target), one per line, in the order of the probabilities.",
      Schema.AssociatedFile.tensorAxisLabels)
    let output = tensor(
      GraphLowering.probabilitiesName, outputDescription, dimensions: ["batch", "class"], files: [labels], stats: nil)
    let (inputs, outputs) = (builder.vector(offsets: [input]), builder.vector(offsets: [output]))
    let subgraphName = builder.string("classifier")
    builder.startTable()
    builder.add(Schema.SubGraphMetadata.name, subgraphName)
    builder.add(Schema.SubGraphMetadata.inputTensorMetadata, inputs)
    builder.add(Schema.SubGraphMetadata.outputTensorMetadata, outputs)
    let subgraph = builder.endTable()
    let subgraphs = builder.vector(offsets: [subgraph])
    let strings = [name, description, version, author, "1.0.0"].map { builder.string($0) }
    builder.startTable()
    builder.add(Schema.ModelMetadata.name, strings[0])
    builder.add(Schema.ModelMetadata.description, strings[1])
    builder.add(Schema.ModelMetadata.version, strings[2])
    builder.add(Schema.ModelMetadata.subgraphMetadata, subgraphs)
    builder.add(Schema.ModelMetadata.author, strings[3])
    builder.add(Schema.ModelMetadata.minParserVersion, strings[4])
    let root = builder.endTable()
    return builder.finish(root: root, identifier: Schema.ModelMetadata.identifier)
  }

  /// Reads what `flatBuffer` wrote, the `benchbook` buffer's text, and the packed files (which give the
  /// features, classes and categories).
  static func read(metadata: ArraySlice<UInt8>?, facts: ArraySlice<UInt8>?, files: [(name: String, contents: [UInt8])])
    throws(ModelFileError) -> TFLiteMetadata
  {
    typealias Schema = TFLiteSchema
    var result = TFLiteMetadata(
      name: "", description: "", version: "", author: "", features: [], classes: [], target: "", facts: [:])
    if let metadata {
      let reader = FlatBufferReader(Array(metadata))
      guard reader.identifier == Schema.ModelMetadata.identifier else {
        throw ModelFileError("the \(Schema.metadataName) buffer is not TFLite metadata (no M001 identifier)")
      }
      let root = try reader.root()
      result.name = try reader.string(root, Schema.ModelMetadata.name) ?? ""
      result.description = try reader.string(root, Schema.ModelMetadata.description) ?? ""
      result.version = try reader.string(root, Schema.ModelMetadata.version) ?? ""
      result.author = try reader.string(root, Schema.ModelMetadata.author) ?? ""
    }
    if let facts {
      for line in String(decoding: facts, as: UTF8.self).split(separator: "\n") {
        guard let colon = line.firstRange(of: ": ") else { continue }
        result.facts[String(line[..<colon.lowerBound])] = String(line[colon.upperBound...])
      }
    }
    func lines(_ name: String) -> [String]? {
      files.first { $0.name == name }.map {
        String(decoding: $0.contents, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
          .dropLast().map(String.init)
      }
    }
    result.classes = lines(labelFile) ?? []
    result.features = (lines(featureFile) ?? []).enumerated().map { column, name in
      Feature(name: name, categories: lines(categoryFile(column)), minimum: nil, maximum: nil)
    }
    return result
  }
}
