/// What the loader keeps of one CSV column after a streaming read: its profile,
/// its text only where categories need it, its times where a role reads it as
/// times, and the text of the few cells an error message may quote.
struct LoadedColumn {
  var name: String
  var profile: ColumnProfile
  /// Every cell's text; kept only for a categorical feature or an unbinarised target.
  var text: TextColumn?
  /// Seconds of every cell; made only for a column some role reads as times.
  var timestamps: TimestampScan?
  /// The text of the first missing, non-numeric, overflowing and unparsable-time cells, by row.
  var quotedCells: [Int: String]
  /// The declared format `timestamps` were parsed by; `nil` for ISO 8601 and Unix seconds.
  var timeFormat: DeclaredTimestampFormat?
  /// The day and month order the cells that are no time show, for the hint of a format to declare.
  var dateOrder = DateOrderEvidence()

  /// A column read as timestamps: seconds per row (`NaN` when missing), and
  /// the first non-missing cell that is neither ISO-8601 nor a number (or does not match the declared format).
  struct TimestampScan {
    let seconds: [Double]
    let firstFailure: Int?
  }
}
