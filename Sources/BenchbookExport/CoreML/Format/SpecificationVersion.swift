/// Core ML specification versions and the first OS releases that run them.
///
/// A file declares the lowest version whose features it uses; an app whose
/// deployment target is older cannot load it.
public struct SpecificationVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
  public var rawValue: Int

  public init(_ rawValue: Int) { self.rawValue = rawValue }

  /// GLM, tree ensemble, neural-network (iOS 11 layers), one-hot encoder,
  /// feature vectorizer, scaler and pipeline models.
  public static let iOS11 = SpecificationVersion(1)
  /// k-nearest-neighbour classifiers and updatable models.
  public static let iOS13 = SpecificationVersion(4)

  /// The first iOS release that loads this version (`iOS 13`), or nil when unknown.
  public var iOSRelease: String? {
    switch rawValue {
    case 1: "iOS 11"
    case 2: "iOS 11.2"
    case 3: "iOS 12"
    case 4: "iOS 13"
    case 5: "iOS 14"
    case 6: "iOS 15"
    case 7: "iOS 16"
    case 8: "iOS 17"
    case 9: "iOS 18"
    default: nil
    }
  }

  /// The matching macOS release (`macOS 10.15`), or nil when unknown.
  public var macOSRelease: String? {
    switch rawValue {
    case 1: "macOS 10.13"
    case 2: "macOS 10.13.2"
    case 3: "macOS 10.14"
    case 4: "macOS 10.15"
    case 5: "macOS 11"
    case 6: "macOS 12"
    case 7: "macOS 13"
    case 8: "macOS 14"
    case 9: "macOS 15"
    default: nil
    }
  }

  /// `4 (iOS 13, macOS 10.15)`.
  public var description: String {
    let releases = [iOSRelease, macOSRelease].compactMap { $0 }
    return releases.isEmpty ? "\(rawValue)" : "\(rawValue) (\(releases.joined(separator: ", ")))"
  }

  public static func < (a: SpecificationVersion, b: SpecificationVersion) -> Bool { a.rawValue < b.rawValue }
}
