import BenchbookEvaluation

/// Everything needed to make the same numbers again.
struct ReproduceSection: ReportSection {
  func render(_ context: ReportContext) -> String? {
    let results = context.results
    let environment = results.environment
    var text = "## Reproduce\n\n```sh\n\(results.command)\n```\n\n"
    var table = MarkdownTable([("", .left), ("", .left)])
    table.append(["spec", "`\(results.spec.path)`, SHA-256 `\(results.spec.sha256)`"])
    table.append(["data", "`\(results.data.path)`, SHA-256 `\(results.data.sha256)`"])
    table.append(["Benchbook", "\(results.benchbook), commit `\(environment.gitCommit)`"])
    table.append(["Swift", environment.swift])
    table.append(["OS", environment.os])
    table.append([
      "CPU",
      "\(environment.cpu), \(environment.cores) cores, \(environment.jobs) job\(environment.jobs == 1 ? "" : "s")",
    ])
    text += table.markdown
    text +=
      "\nThe same spec and data give the same scores, byte for byte, whatever the number of jobs; only timings differ.\n"
    return text
  }
}
