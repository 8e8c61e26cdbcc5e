/// Builds `Model` bytes with `levels` pipelines nested one in the next, without a protobuf library.
///
/// Lengths are computed from the inside out first, so even a million levels are written in one pass.
enum NestedPipelines {
  static func bytes(levels: Int) -> [UInt8] {
    func varintSize(_ value: Int) -> Int {
      var size = 1
      var rest = value >> 7
      while rest > 0 {
        size += 1
        rest >>= 7
      }
      return size
    }
    func appendVarint(_ value: Int, to bytes: inout [UInt8]) {
      var rest = value
      while rest >= 0x80 {
        bytes.append(UInt8(rest & 0x7F) | 0x80)
        rest >>= 7
      }
      bytes.append(UInt8(rest))
    }
    let version: [UInt8] = [0x08, 0x01]  // specificationVersion = 1
    let pipelineTag = (202 << 3) | 2  // Model.pipeline
    // modelSizes[i]: a Model holding i nested pipelines; pipelineSizes[i]: the Pipeline inside it.
    var modelSizes = [version.count]
    var pipelineSizes = [0]
    for level in 1...max(levels, 1) {
      let inner = modelSizes[level - 1]
      let pipeline = 1 + varintSize(inner) + inner
      pipelineSizes.append(pipeline)
      modelSizes.append(version.count + varintSize(pipelineTag) + varintSize(pipeline) + pipeline)
    }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(modelSizes[levels])
    for level in stride(from: levels, to: 0, by: -1) {
      bytes += version
      appendVarint(pipelineTag, to: &bytes)
      appendVarint(pipelineSizes[level], to: &bytes)
      bytes.append(0x0A)  // Pipeline.models
      appendVarint(modelSizes[level - 1], to: &bytes)
    }
    bytes += version
    return bytes
  }
}
