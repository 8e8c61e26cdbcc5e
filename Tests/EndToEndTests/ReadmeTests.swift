import Foundation
import Testing

/// The README's front page tells the truth: its quick start runs as written and prints what the README shows,
/// every command in its table is one the binary has, and every page it links to exists.
@Suite struct ReadmeTests {
  static let readme: String = {
    let url = BenchbookBinary.packageRoot.appendingPathComponent("README.md")
    return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
  }()

  /// The lines of the README section whose heading is `## title`.
  static func section(_ title: String) -> [String] {
    var lines: [String] = []
    var inside = false
    var fenced = false
    for line in readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
      if line.hasPrefix("```") { fenced.toggle() }
      if !fenced && line.hasPrefix("## ") {
        inside = line == "## \(title)"
        continue
      }
      if inside { lines.append(line) }
    }
    return lines
  }

  /// The fenced blocks of a section, each as its lines, with the fence's info string.
  static func blocks(_ lines: [String]) -> [(info: String, lines: [String])] {
    var blocks: [(info: String, lines: [String])] = []
    var current: (info: String, lines: [String])?
    for line in lines {
      if line.hasPrefix("```") {
        if let block = current {
          blocks.append(block)
          current = nil
        } else {
          current = (String(line.dropFirst(3)), [])
        }
      } else if current != nil {
        current?.lines.append(line)
      }
    }
    return blocks
  }

  /// A shell line without its trailing comment.
  static func command(_ line: String) -> String {
    let text = line.range(of: " #").map { String(line[..<$0.lowerBound]) } ?? line
    return text.trimmingCharacters(in: .whitespaces)
  }

  @Test func quickStartRunsAsWrittenAndPrintsWhatTheReadmeShows() throws {
    let blocks = Self.blocks(Self.section("Quick start"))
    let shell = try #require(blocks.first { $0.info == "sh" }).lines.map(Self.command).filter { !$0.isEmpty }
    #expect(shell.first == "make build", "the quick start builds first: \(shell)")
    let runs = shell.filter { $0.hasPrefix(".build/release/benchbook ") }
    #expect(runs.count == 1, "\(shell)")
    let shown = try #require(blocks.first { $0.info.isEmpty }).lines

    // The command as written, from a copy of the repository's layout (the run writes reports/iris/).
    let scratch = try Scratch()
    let spec = try String(
      contentsOf: BenchbookBinary.packageRoot.appendingPathComponent("experiments/iris.yaml"), encoding: .utf8)
    try scratch.write("experiments/iris.yaml", spec)
    try scratch.write(
      "experiments/data/iris.csv",
      try String(contentsOfFile: Scratch.shippedData("iris.csv"), encoding: .utf8))
    for run in runs {
      let arguments = run.split(separator: " ").dropFirst().map(String.init)
      let output = try BenchbookBinary.run(arguments, in: scratch.url, timeout: 300)
      #expect(output.status == 0, "\(run): \(output.stderr)")
      let printed = output.stdout.split(separator: "\n").map(String.init)
      // Every line the README shows, but the ellipsis, is printed as shown.
      for line in shown where line != "…" {
        #expect(printed.contains(line), "README shows a line the run does not print: \(line)")
      }
      #expect(scratch.exists("reports/iris/report.md"))
      #expect(scratch.exists("reports/iris/log-loss-box.svg"))
    }
  }

  @Test func everyCommandInTheTableIsOneTheBinaryHas() throws {
    let rows = Self.section("Commands").filter { $0.hasPrefix("| `benchbook ") }
    #expect(rows.count >= 8, "\(rows)")
    var subcommands = Set<String>()
    for row in rows {
      let cell = row.split(separator: "|").first.map(String.init) ?? ""
      for part in cell.components(separatedBy: "`benchbook ").dropFirst() {
        if let word = part.split(separator: " ").first?.split(separator: "`").first { subcommands.insert(String(word)) }
      }
    }
    let listed = try HelpTextTests.commands().compactMap(\.first).filter { $0.first?.isLowercase == true }
    for subcommand in subcommands.sorted() {
      #expect(listed.contains(subcommand), "README names `benchbook \(subcommand)`, which --help does not list")
    }
    #expect(Set(listed).isSubset(of: subcommands), "--help lists commands the README's table leaves out")
  }

  @Test func everyLinkedPageExists() {
    let pattern = /\]\(([^)#]+)\)/
    let links = Self.readme.matches(of: pattern).map { String($0.output.1) }.filter { !$0.hasPrefix("http") }
    #expect(links.count >= 10)
    for link in links {
      let path = BenchbookBinary.packageRoot.appendingPathComponent(link).path
      #expect(FileManager.default.fileExists(atPath: path), "README links to \(link), which does not exist")
    }
  }

  @Test func theFrontPageStaysShort() {
    #expect(Self.readme.split(separator: "\n", omittingEmptySubsequences: false).count <= 250)
  }
}
