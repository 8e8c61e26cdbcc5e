/// A column's timestamp format as the spec declares it (`data.formats`, or `time: {format:}`), with where,
/// so a cell that does not match can point both at its line and at the declaration.
public struct DeclaredTimestampFormat: Sendable, Hashable {
  public var format: TimestampFormat
  public var location: SourceLocation

  public init(format: TimestampFormat, location: SourceLocation) {
    self.format = format
    self.location = location
  }
}
