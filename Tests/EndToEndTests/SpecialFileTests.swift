import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Data, spec and results paths must be regular files: a FIFO, a device or a directory is refused at once
/// (never opened to block), and nothing but a regular file is ever replaced by a written file.
@Suite struct SpecialFileTests {
  static let csv = "a,b,y\n1,2,x\n3,4,z\n5,6,x\n7,8,z\n9,10,x\n11,12,z\n"
  /// Long enough for a correct refusal; a regression that blocks is killed and fails.
  static let timeout = 60.0

  func spec(data: String) -> String {
    "name: special\ndata: {path: \(data)}\ntarget: y\nfeatures: [a, b]\nresampling: {folds: 2}\nmodels: [NB]\n"
  }

  func fifo(_ scratch: Scratch, _ name: String) throws -> String {
    let path = scratch.path(name)
    try #require(mkfifo(path, 0o600) == 0, "mkfifo \(path)")
    return path
  }

  func run(_ arguments: [String], in scratch: Scratch) throws -> BenchbookBinary.Output {
    try BenchbookBinary.run(arguments, in: scratch.url, timeout: Self.timeout)
  }

  @Test func dataPathThatIsAFIFOWithNoWriter() throws {
    let scratch = try Scratch()
    _ = try fifo(scratch, "data.csv")
    let specPath = try scratch.write("special.yaml", spec(data: "data.csv"))
    let output = try run(["run", specPath, "--out", scratch.path("out"), "--quiet"], in: scratch)
    #expect(output.status == 1, "\(output.stderr)")
    #expect(output.stderr.contains("special.yaml:2:"), "\(output.stderr)")
    #expect(
      output.stderr.contains("data file 'data.csv' is a FIFO (named pipe), not a regular file"), "\(output.stderr)")
  }

  @Test func dataPathThatIsADirectoryOrADevice() throws {
    let scratch = try Scratch()
    try FileManager.default.createDirectory(atPath: scratch.path("folder"), withIntermediateDirectories: true)
    for (data, kind) in [("folder", "a directory"), ("/dev/null", "a character device")] {
      let specPath = try scratch.write("special.yaml", spec(data: data))
      let output = try run(["run", specPath, "--out", scratch.path("out"), "--quiet"], in: scratch)
      #expect(output.status == 1, "\(output.stderr)")
      #expect(output.stderr.contains("is \(kind), not a regular file"), "\(output.stderr)")
    }
  }

  @Test func specThatIsAFIFOOrADirectory() throws {
    let scratch = try Scratch()
    let pipe = try fifo(scratch, "spec.yaml")
    let fromPipe = try run(["run", pipe, "--quiet"], in: scratch)
    #expect(fromPipe.status == 1)
    #expect(fromPipe.stderr.contains("\(pipe): is a FIFO (named pipe), not a regular file"), "\(fromPipe.stderr)")
    let fromFolder = try run(["audit", scratch.url.path, "--quiet"], in: scratch)
    #expect(fromFolder.status == 1)
    #expect(
      fromFolder.stderr.contains("\(scratch.url.path): is a directory, not a regular file"), "\(fromFolder.stderr)")
  }

  @Test func resultsAndModelsThatAreFIFOs() throws {
    let scratch = try Scratch()
    let results = try fifo(scratch, "results.json")
    let report = try run(["report", results], in: scratch)
    #expect(report.status == 1)
    #expect(report.stderr.contains("\(results): is a FIFO (named pipe), not a regular file"), "\(report.stderr)")
    let model = try fifo(scratch, "Model.mlmodel")
    let inspect = try run(["inspect", model], in: scratch)
    #expect(inspect.status == 1)
    #expect(inspect.stderr.contains("\(model): is a FIFO (named pipe), not a regular file"), "\(inspect.stderr)")
  }

  @Test func exportNeverReplacesADeviceOrAFIFO() throws {
    let scratch = try Scratch()
    try scratch.write("data.csv", Self.csv)
    let specPath = try scratch.write("special.yaml", spec(data: "data.csv"))
    let pipe = try fifo(scratch, "out.mlmodel")
    for (out, kind) in [("/dev/null", "a character device"), (pipe, "a FIFO (named pipe)")] {
      let output = try run(["export", specPath, "--model", "NB", "--out", out], in: scratch)
      #expect(output.status == 1, "\(output.stderr)")
      #expect(output.stderr.contains("\(out): cannot write: it is \(kind), not a regular file"), "\(output.stderr)")
    }
    var status = stat()
    #expect(stat("/dev/null", &status) == 0 && (status.st_mode & S_IFMT) == S_IFCHR, "/dev/null is still a device")
    #expect(lstat(pipe, &status) == 0 && (status.st_mode & S_IFMT) == S_IFIFO, "the FIFO is still a FIFO")
  }

  @Test func runNeverReplacesAFIFOResultsFile() throws {
    let scratch = try Scratch()
    try scratch.write("data.csv", Self.csv)
    let specPath = try scratch.write("special.yaml", spec(data: "data.csv"))
    try FileManager.default.createDirectory(atPath: scratch.path("out"), withIntermediateDirectories: true)
    let pipe = try fifo(scratch, "out/results.json")
    let output = try run(["run", specPath, "--out", scratch.path("out"), "--quiet"], in: scratch)
    #expect(output.status == 1, "\(output.stderr)")
    #expect(output.stderr.contains("results.json: cannot write: it is a FIFO"), "\(output.stderr)")
    var status = stat()
    #expect(lstat(pipe, &status) == 0 && (status.st_mode & S_IFMT) == S_IFIFO)
  }
}
