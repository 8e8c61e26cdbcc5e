import Foundation
import Testing

/// `--help` texts wrap cleanly: ArgumentParser wraps each paragraph to the width of a terminal (lines under 80
/// columns in a pipe), so a discussion must give it whole paragraphs; a line break written inside one shows as a
/// short line in the middle of a sentence.
@Suite struct HelpTextTests {
  static let width = 80

  /// Every subcommand `benchbook --help` lists, and the top level.
  static func commands() throws -> [[String]] {
    let help = try BenchbookBinary.run(["--help"]).stdout
    let listed = help.components(separatedBy: "SUBCOMMANDS:").last?.split(separator: "\n").compactMap { line in
      line.hasPrefix("  ") && !line.hasPrefix("   ") ? line.split(separator: " ").first.map(String.init) : nil
    }
    return [[]] + (listed ?? []).map { [$0] }
  }

  /// The lines of every paragraph of the overview and discussion (before `USAGE:`) that end early: a line whose
  /// next line's first word would have fitted after it.
  static func brokenLines(_ help: String) -> [String] {
    let prose = help.components(separatedBy: "\nUSAGE:").first ?? help
    var broken: [String] = []
    for paragraph in prose.components(separatedBy: "\n\n") {
      let lines = paragraph.split(separator: "\n").map(String.init)
      for (line, next) in zip(lines, lines.dropFirst()) {
        let word = next.split(separator: " ").first.map(String.init) ?? ""
        if line.count + 1 + word.count < width { broken.append(line) }
      }
      broken += lines.filter { $0.count >= width }
    }
    return broken
  }

  @Test func everyParagraphWrapsWhole() throws {
    let commands = try Self.commands()
    #expect(commands.count > 8, "subcommands found: \(commands)")
    for command in commands {
      let output = try BenchbookBinary.run(command + ["--help"])
      #expect(output.status == 0, "\(command)")
      #expect(Self.brokenLines(output.stdout) == [], "benchbook \(command.joined(separator: " ")) --help")
    }
  }

  /// `--jobs` states its default once, as "all cores": not also ArgumentParser's "(default: <this machine's cores>)".
  @Test(arguments: ["run", "audit", "study", "check", "baseline", "merge", "plan"])
  func jobsStatesOneDefault(command: String) throws {
    let output = try BenchbookBinary.run(["help", command])
    #expect(output.status == 0, "\(output.stderr)")
    let lines = output.stdout.split(separator: "\n", omittingEmptySubsequences: false)
    let first = try #require(lines.firstIndex { $0.hasPrefix("  --jobs <jobs>") }, "\(output.stdout)")
    // The entry: its first line and the deeper-indented lines that continue it, up to the next option.
    let entry = ([lines[first]] + lines[(first + 1)...].prefix { $0.hasPrefix("   ") && !$0.hasPrefix("  -") })
      .joined(separator: " ")
    #expect(entry.components(separatedBy: "(default: ").count - 1 == 1, "\(entry)")
    #expect(entry.contains("(default: all cores)"), "\(entry)")
  }

  /// The check itself: a paragraph broken mid-sentence is found.
  @Test func aBrokenParagraphIsFound() {
    #expect(
      Self.brokenLines(
        "OVERVIEW: x\n\nThe file is a pipeline classifier: the app passes each spec feature by name\n(double for\nnumeric features.\n\nUSAGE: y"
      ) == ["(double for"])
    #expect(Self.brokenLines("OVERVIEW: x\n\nA short paragraph.\n\nUSAGE: y") == [])
  }
}
