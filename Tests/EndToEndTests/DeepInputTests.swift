import Foundation
import Testing

/// Generated inputs nested a million levels deep end in exit status 1 and a located message, never a signal.
@Suite struct DeepInputTests {
  static let csv = "a,b,y\n1,2,x\n3,4,z\n5,6,x\n7,8,z\n9,10,x\n11,12,z\n"

  /// Runs a spec whose fifth line is a feature with `expression`, and checks the failure is located there.
  func expectDeepExpressionRefused(_ expression: String) throws {
    let scratch = try Scratch()
    try scratch.write("data.csv", Self.csv)
    let spec = try scratch.write(
      "deep.yaml",
      "name: deep\ndata: {path: data.csv}\ntarget: y\nfeatures:\n  - deep: \"\(expression)\"\nresampling: {folds: 2}\n")
    let output = try BenchbookBinary.run(["run", spec, "--out", scratch.path("out"), "--quiet"], in: scratch.url)
    #expect(output.status == 1, "exit status, stderr: \(output.stderr.prefix(300))")
    #expect(output.stderr.contains("deep.yaml:5:"), "\(output.stderr.prefix(300))")
    #expect(output.stderr.contains("features[0].deep: invalid expression"), "\(output.stderr.prefix(300))")
    #expect(output.stderr.contains("nests more than 200 levels"), "\(output.stderr.prefix(300))")
    #expect(output.stderr.utf8.count < 1_000, "the message quotes only the start of the expression")
    #expect(!scratch.exists("out/results.json"))
  }

  @Test func millionNestedParentheses() throws {
    let count = 1_000_000
    try expectDeepExpressionRefused(String(repeating: "(", count: count) + "a" + String(repeating: ")", count: count))
  }

  @Test func sumOfTenThousandTerms() throws {
    try expectDeepExpressionRefused((0..<10_000).map { $0 % 2 == 0 ? "a" : "b" }.joined(separator: " + "))
  }

  @Test func millionUnaryMinuses() throws {
    try expectDeepExpressionRefused(String(repeating: "-", count: 1_000_000) + "a")
  }

  @Test func inspectMillionNestedPipelines() throws {
    let scratch = try Scratch()
    let path = scratch.path("Deep.mlmodel")
    let bytes = Self.nestedPipelines(levels: 1_000_000)
    #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
    let output = try BenchbookBinary.run(["inspect", path], in: scratch.url)
    #expect(output.status == 1, "exit status, stderr: \(output.stderr)")
    #expect(output.stderr.contains("Deep.mlmodel: not a Core ML model file"), "\(output.stderr)")
    #expect(output.stderr.contains("nest more than 100 levels deep (at byte "), "\(output.stderr)")
  }

  /// `Model` bytes with pipelines nested `levels` deep (Model.pipeline = 202, Pipeline.models = 1).
  static func nestedPipelines(levels: Int) -> [UInt8] {
    func varint(_ value: Int) -> [UInt8] {
      var bytes: [UInt8] = []
      var rest = value
      while rest >= 0x80 {
        bytes.append(UInt8(rest & 0x7F) | 0x80)
        rest >>= 7
      }
      return bytes + [UInt8(rest)]
    }
    let version: [UInt8] = [0x08, 0x01]
    let pipelineTag = varint((202 << 3) | 2)
    var modelSizes = [version.count]
    var pipelineSizes = [0]
    for level in 1...levels {
      let pipeline = 1 + varint(modelSizes[level - 1]).count + modelSizes[level - 1]
      pipelineSizes.append(pipeline)
      modelSizes.append(version.count + pipelineTag.count + varint(pipeline).count + pipeline)
    }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(modelSizes[levels])
    for level in stride(from: levels, to: 0, by: -1) {
      bytes += version + pipelineTag + varint(pipelineSizes[level]) + [0x0A] + varint(modelSizes[level - 1])
    }
    return bytes + version
  }
}
