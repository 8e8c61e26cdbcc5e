/// Numbers as descriptions print them: integers without `.0`, others in
/// Swift's shortest round-tripping form, so the text is the same on every machine.
enum NumberText {
  static func short(_ value: Double) -> String {
    if value == value.rounded() && abs(value) < 1e15 { return String(Int64(value)) }
    return "\(value)"
  }
}
