import BenchbookReport
import Foundation
import Testing

@Suite struct GnuplotBridgeTests {
  @Test(.enabled(if: Gnuplot.executable() != nil, "gnuplot is installed"))
  func drawsAnSVGFromStreamedData() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bb-gnuplot-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let output = directory.appendingPathComponent("line.svg")
    let script = """
      set terminal svg size 400,300
      set output '\(output.path)'
      plot '-' using 1:2 with lines title 'alpha', '-' using 1:2 with points title 'beta'
      """
    try Gnuplot.run(script: script, blocks: [[[0, 1], [1, 3], [2, 2]], [[0, 2], [2, 0.5]]])
    let svg = try String(contentsOf: output, encoding: .utf8)
    #expect(svg.contains("<svg"))
    #expect(svg.contains("alpha"))
    #expect(svg.contains("beta"))
  }

  @Test(.enabled(if: Gnuplot.executable() != nil, "gnuplot is installed"))
  func reportsGnuplotErrors() {
    #expect(throws: Gnuplot.Failure.self) {
      try Gnuplot.run(script: "plot '-' using 1:2 with nonsense", blocks: [[[0, 1]]])
    }
  }

  /// A warning is returned, not thrown, and gnuplot's standard error leaves no file behind.
  @Test(.enabled(if: Gnuplot.executable() != nil, "gnuplot is installed"))
  func separatesWarningsFromFailuresAndLeavesNoScratchFile() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bb-gnuplot-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let output = directory.appendingPathComponent("flat.svg").path
    // Every y equal: gnuplot widens the empty y range and says so.
    let script = "set terminal svg\nset output '\(output)'\nplot '-' using 1:2 with lines\n"
    let warnings = try Gnuplot.run(script: script, blocks: [[[0, 1], [1, 1]]], scratch: directory.path)
    #expect(warnings.contains { $0.contains("empty y range") }, "\(warnings)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["flat.svg"])
    #expect(throws: Gnuplot.Failure.self) {
      try Gnuplot.run(script: "plot '-' using 1:2 with nonsense", blocks: [[[0, 1]]], scratch: directory.path)
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["flat.svg"])
  }
}
