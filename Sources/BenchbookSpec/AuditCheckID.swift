import BenchbookData

/// A leak-audit check's id. Ids are a contract: results files, `accept:` and `skip:` entries and other tools name
/// checks by them (`temporal-split`). Each check declares its own (`AuditCheck.id`); the audit lists the checks,
/// and checks a spec's names against them (`LeakAudit.validate`).
public struct AuditCheckID: RawRepresentable, Sendable, Hashable, Codable, Comparable {
  public let rawValue: String

  public init(rawValue: String) { self.rawValue = rawValue }

  /// A name as a spec writes it: any case, `_` for `-`.
  public init(spelling: String) { self.init(rawValue: spelling.lowercased().replacingOccurrences(of: "_", with: "-")) }

  public init(from decoder: any Decoder) throws {
    rawValue = try decoder.singleValueContainer().decode(String.self)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }

  public static func < (a: AuditCheckID, b: AuditCheckID) -> Bool { a.rawValue < b.rawValue }
}

extension AuditCheckID: CustomStringConvertible {
  /// The contract id, as results files and messages write it.
  public var description: String { rawValue }
}

/// A check a spec names in `audit.skip` or `audit.accept`, as written and where: the audit, which knows its checks,
/// says when the name is none of them.
public struct AuditCheckReference: Sendable, Hashable {
  public var check: AuditCheckID
  /// The name as the spec wrote it.
  public var text: String
  public var location: SourceLocation
  /// The dotted key it was written under (`audit.skip[0]`).
  public var key: String?

  public init(check: AuditCheckID, text: String, location: SourceLocation, key: String?) {
    self.check = check
    self.text = text
    self.location = location
    self.key = key
  }
}
