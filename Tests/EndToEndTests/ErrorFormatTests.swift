import Foundation
import Testing

/// Every spec error reads `file:line:col: message`, YAML and encoding errors included.
@Suite struct ErrorFormatTests {
  func runSpec(_ bytes: [UInt8]) throws -> (BenchbookBinary.Output, Scratch) {
    let scratch = try Scratch()
    let path = scratch.path("fmt.yaml")
    #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
    return (try BenchbookBinary.run(["run", "fmt.yaml", "--quiet"], in: scratch.url, timeout: 60), scratch)
  }

  @Test func yamlSyntaxErrorsAreLocated() throws {
    let (output, _) = try runSpec(Array("name: x\ndata: {path: d.csv\ntarget: y\n".utf8))
    #expect(output.status == 1)
    #expect(output.stderr.hasPrefix("benchbook: error: fmt.yaml:3:7: not valid YAML: "), "\(output.stderr)")
  }

  @Test func controlCharactersAreLocatedByLineAndColumn() throws {
    let (output, _) = try runSpec(Array("name: x\ndata: a".utf8) + [0x01] + Array("b\n".utf8))
    #expect(output.status == 1)
    #expect(
      output.stderr == "benchbook: error: fmt.yaml:2:8: not valid YAML: control characters are not allowed "
        + "(character 0x1)\n", "\(output.stderr)")
  }

  @Test func bytesThatAreNotUTF8AreLocatedByLineAndColumn() throws {
    let (output, _) = try runSpec(Array("name: x\ndescription: caf".utf8) + [0xE9] + Array("\n".utf8))
    #expect(output.status == 1)
    #expect(
      output.stderr
        == "benchbook: error: fmt.yaml:2:17: not UTF-8 text: invalid byte 0xE9 at byte offset 24\n",
      "\(output.stderr)")
  }
}
