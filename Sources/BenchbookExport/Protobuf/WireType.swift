/// The four protobuf wire types Core ML files use (groups are obsolete).
enum WireType: UInt8, Sendable {
  case varint = 0
  case fixed64 = 1
  case lengthDelimited = 2
  case fixed32 = 5
}
