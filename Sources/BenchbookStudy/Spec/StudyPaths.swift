import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Paths a study names: joined with the study file's folder, `.` and `..` resolved lexically, and patterns
/// (`*`, `?`, `[…]` within one path component) expanded to the regular files they match, in byte order of
/// their paths, so every machine and locale lists them alike.
enum StudyPaths {
  /// `entry` read relative to the folder of `studyPath` (or as is, when absolute).
  static func resolve(_ entry: String, relativeTo studyPath: String) -> String {
    if entry.hasPrefix("/") { return normalize(entry) }
    let folder = (studyPath as NSString).deletingLastPathComponent
    return normalize(folder.isEmpty ? entry : folder + "/" + entry)
  }

  /// Removes `.` components and `x/..` pairs without consulting the file system; keeps leading `..`.
  static func normalize(_ path: String) -> String {
    let absolute = path.hasPrefix("/")
    var parts: [Substring] = []
    for part in path.split(separator: "/", omittingEmptySubsequences: true) {
      if part == "." { continue }
      if part == "..", let last = parts.last, last != ".." {
        parts.removeLast()
        continue
      }
      if part == "..", absolute, parts.isEmpty { continue }
      parts.append(part)
    }
    let joined = parts.joined(separator: "/")
    return absolute ? "/" + joined : (joined.isEmpty ? "." : joined)
  }

  static func isPattern(_ path: String) -> Bool {
    path.contains { $0 == "*" || $0 == "?" || $0 == "[" }
  }

  /// The regular files a resolved pattern matches, sorted by their bytes; hidden names match only a pattern
  /// that spells the leading dot.
  static func expand(_ pattern: String) -> [String] {
    let absolute = pattern.hasPrefix("/")
    var candidates = [absolute ? "/" : ""]
    let parts = pattern.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    for (index, part) in parts.enumerated() {
      let last = index == parts.count - 1
      var next: [String] = []
      for base in candidates {
        let prefix = base.isEmpty ? "" : (base.hasSuffix("/") ? base : base + "/")
        if !isPattern(part) {
          next.append(prefix + part)
          continue
        }
        let folder = base.isEmpty ? "." : base
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { continue }
        for name in names where fnmatch(part, name, FNM_PERIOD) == 0 {
          next.append(prefix + name)
        }
      }
      candidates = next.filter { path in
        var status = stat()
        guard stat(path, &status) == 0 else { return false }
        let kind = status.st_mode & S_IFMT
        return last ? kind == S_IFREG : kind == S_IFDIR
      }
    }
    return candidates.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
  }
}
