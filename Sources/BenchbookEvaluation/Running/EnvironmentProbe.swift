import BenchbookModels
import Foundation

/// Describes the machine and toolchain a run used, for the results' reproduce section.
public enum EnvironmentProbe {
  public static let benchbookVersion = "0.1.0"

  public static func record(jobs: Int, repositoryDirectory: String) -> EnvironmentRecord {
    EnvironmentRecord(
      swift: swiftVersion, os: operatingSystem, cpu: cpuModel,
      cores: ProcessInfo.processInfo.activeProcessorCount, jobs: jobs,
      gitCommit: gitCommit(in: repositoryDirectory) ?? "unknown",
      testRepeatFit: (try? FitRepeat.current.get())??.description, blas: OpenBLASSettings.description)
  }

  /// The compiler that built this binary.
  public static var swiftVersion: String {
    #if compiler(>=6.4)
      "6.4 or later"
    #elseif compiler(>=6.3)
      "6.3"
    #elseif compiler(>=6.2)
      "6.2"
    #else
      "6.1"
    #endif
  }

  static var operatingSystem: String {
    var name = "Linux"
    if let release = try? String(contentsOfFile: "/etc/os-release", encoding: .utf8) {
      for line in release.split(separator: "\n") where line.hasPrefix("PRETTY_NAME=") {
        name = String(line.dropFirst("PRETTY_NAME=".count)).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
      }
    }
    var system = utsname()
    uname(&system)
    let kernel = withUnsafeBytes(of: system.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    let machine = withUnsafeBytes(of: system.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    return "\(name), kernel \(kernel), \(machine)"
  }

  static var cpuModel: String {
    guard let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return "unknown" }
    for line in info.split(separator: "\n") where line.hasPrefix("model name") {
      if let colon = line.firstIndex(of: ":") {
        return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      }
    }
    return "unknown"
  }

  /// The processor's identity below its marketing name: vendor, family, model and
  /// stepping on x86, implementer, part and revision on Arm; nil when /proc/cpuinfo says neither.
  public static var cpuSignature: String? {
    guard let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return nil }
    var fields: [String: String] = [:]
    for line in info.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.trimmingCharacters(in: .whitespaces).isEmpty { break }
      guard let colon = line.firstIndex(of: ":") else { continue }
      let key = line[..<colon].trimmingCharacters(in: .whitespaces)
      if fields[key] == nil { fields[key] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces) }
    }
    let layouts = [
      [("vendor_id", ""), ("cpu family", "family "), ("model", "model "), ("stepping", "stepping ")],
      [
        ("CPU implementer", "implementer "), ("CPU part", "part "), ("CPU variant", "variant "),
        ("CPU revision", "revision "),
      ],
    ]
    for layout in layouts where layout.allSatisfy({ fields[$0.0] != nil }) {
      return layout.map { $0.1 + fields[$0.0]! }.joined(separator: " ")
    }
    return nil
  }

  /// HEAD of the git repository holding `directory`, if git and a repository are there.
  public static func gitCommit(in directory: String) -> String? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["git", "-C", directory, "rev-parse", "HEAD"]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    guard let termination = try? ProcessExit.run(process) else { return nil }
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    termination.wait()
    guard process.terminationStatus == 0 else { return nil }
    let text = String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    return text.isEmpty ? nil : text
  }
}
