/// A GitHub-flavoured Markdown table, for the report and the audit checks' evidence.
public struct MarkdownTable: Sendable {
  public enum Alignment: Sendable { case left, right }

  public var header: [String]
  public var alignments: [Alignment]
  public var rows: [[String]] = []

  public init(_ columns: [(String, Alignment)]) {
    header = columns.map(\.0)
    alignments = columns.map(\.1)
  }

  public mutating func append(_ row: [String]) {
    precondition(row.count == header.count, "row has \(row.count) cells, table has \(header.count) columns")
    rows.append(row)
  }

  public var markdown: String {
    func line(_ cells: [String]) -> String {
      "| " + cells.map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |"
    }
    let rule = "|" + alignments.map { $0 == .right ? "---:|" : "---|" }.joined()
    return ([line(header), rule] + rows.map(line)).joined(separator: "\n") + "\n"
  }

  /// The same table for a terminal: columns padded to width, emphasis dropped.
  public var plainText: String {
    let cells = ([header] + rows).map { $0.map { $0.replacingOccurrences(of: "**", with: "") } }
    let widths = header.indices.map { column in cells.map { $0[column].count }.max() ?? 0 }
    return cells.map { row in
      row.enumerated().map { column, cell in
        let padding = String(repeating: " ", count: widths[column] - cell.count)
        return alignments[column] == .right ? padding + cell : cell + padding
      }.joined(separator: "  ").replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
    }.joined(separator: "\n") + "\n"
  }
}
