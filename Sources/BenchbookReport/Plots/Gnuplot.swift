import CGnuplotBridge
import Foundation

/// Runs gnuplot on a script Swift wrote, streaming the script's inline data
/// (`'-'`) through the C++ gnuplot-iostream bridge.
public enum Gnuplot {
  /// Why a plot could not be drawn, in words for the report.
  public struct Failure: Error, Sendable, CustomStringConvertible {
    public var description: String
  }

  /// Why nothing was drawn when `executable` finds no gnuplot.
  public static let notInstalled = "gnuplot is not installed (Debian: apt-get install gnuplot-nox)"

  /// The gnuplot executable on `PATH`, if any.
  public static func executable(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
    let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
    for directory in path.split(separator: ":") {
      let candidate = "\(directory)/gnuplot"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }

  /// Runs `script`, feeding `blocks` in order to its `'-'` data sources.
  ///
  /// gnuplot's standard error goes to a scratch file in `scratch` that is unlinked as soon as it is
  /// opened, so no path of it outlives this call, even when the process is killed.
  /// - Parameters:
  ///   - blocks: each block's rows must all have the same length.
  ///   - scratch: the folder for that file (default: the system's temporary folder).
  /// - Returns: gnuplot's warnings, one per message, when it reported nothing worse.
  /// - Throws: `Failure` when gnuplot is missing, cannot be started, or reports an error.
  @discardableResult
  public static func run(
    script: String, blocks: [[[Double]]], executable: String? = nil, scratch: String? = nil
  ) throws(Failure) -> [String] {
    guard let gnuplot = executable ?? Self.executable() else {
      throw Failure(description: notInstalled)
    }
    let folder = scratch ?? FileManager.default.temporaryDirectory.path
    var template = Array("\(folder)/.benchbook-gnuplot-XXXXXX".utf8CString)
    let errors = mkstemp(&template)
    guard errors >= 0 else {
      throw Failure(description: "cannot create a scratch file in \(folder): \(String(cString: strerror(errno)))")
    }
    unlink(template)
    defer { close(errors) }
    // Through /dev/fd: a shell redirects only descriptors 0 to 9 by number. gnuplot writes nothing
    // useful to standard output (an SVG whose folder vanished would land there).
    let command = "'\(gnuplot)' 2>/dev/fd/\(errors) >/dev/null"

    let flattened: [[Double]] = blocks.map { $0.flatMap { $0 } }
    var message = [CChar](repeating: 0, count: 1024)
    let status: Int32 = flattened.withUnsafeBlockPointers { pointers in
      var descriptors = zip(pointers, blocks).map { pointer, rows in
        bb_data_block(values: pointer, rows: rows.count, columns: rows.first?.count ?? 0)
      }
      return descriptors.withUnsafeMutableBufferPointer { buffer in
        bb_gnuplot_run(command, script, buffer.baseAddress, buffer.count, &message, message.count)
      }
    }
    if status != 0 {
      let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      throw Failure(description: "gnuplot could not be run: \(text)")
    }
    let (warnings, failures) = messages(readAll(errors))
    if !failures.isEmpty {
      throw Failure(description: "gnuplot reported: \(failures.joined(separator: "; "))")
    }
    return warnings
  }

  /// gnuplot's standard error split into messages: a message is a line that starts at the margin
  /// (`"-", line 3: warning: …`), with the indented lines before it that echo the command and point
  /// at the fault. A message is a warning when its own line says `warning:` (or `Warning:`).
  static func messages(_ text: String) -> (warnings: [String], failures: [String]) {
    var warnings: [String] = []
    var failures: [String] = []
    var context: [String] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if trimmed.isEmpty { continue }
      if line.first == " " || line.first == "\t" {
        if trimmed.range(of: #"line \d+:"#, options: .regularExpression) == nil {
          context.append(trimmed)
          continue
        }
      }
      let whole = (context + [trimmed]).joined(separator: " ")
      if trimmed.lowercased().contains("warning:") { warnings.append(trimmed) } else { failures.append(whole) }
      context = []
    }
    if !context.isEmpty { failures.append(context.joined(separator: " ")) }
    return (warnings, failures)
  }

  private static func readAll(_ descriptor: Int32) -> String {
    guard lseek(descriptor, 0, SEEK_SET) == 0 else { return "" }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let got = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
      if got < 0 && errno == EINTR { continue }
      if got <= 0 { break }
      bytes += chunk[0..<got]
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Draws one SVG into `directory`: gnuplot writes a temporary file, renamed into place only when
  /// it succeeded, so a failed plot never leaves a half-written figure or replaces a good one.
  ///
  /// - Parameter script: the script for a given output path.
  /// - Returns: gnuplot's warnings.
  @discardableResult
  public static func drawSVG(
    named fileName: String, into directory: String, executable: String, script: (String) -> GnuplotScript
  ) throws(Failure) -> [String] {
    let final = URL(fileURLWithPath: directory).appendingPathComponent(fileName).path
    let temporary = URL(fileURLWithPath: directory).appendingPathComponent(".\(fileName).tmp-\(getpid())").path
    do {
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    } catch {
      throw Failure(description: "cannot create \(directory): \(error.localizedDescription)")
    }
    do throws(Failure) {
      let drawn = script(temporary)
      let warnings = try run(script: drawn.text, blocks: drawn.blocks, executable: executable, scratch: directory)
      var status = stat()
      guard stat(temporary, &status) == 0, status.st_size > 0 else {
        throw Failure(
          description: "gnuplot wrote no figure\(warnings.isEmpty ? "" : ": " + warnings.joined(separator: "; "))")
      }
      guard rename(temporary, final) == 0 else {
        throw Failure(description: "cannot move the SVG into place: \(String(cString: strerror(errno)))")
      }
      return warnings
    } catch {
      try? FileManager.default.removeItem(atPath: temporary)
      throw error
    }
  }
}

extension Array where Element == [Double] {
  /// Hands out a stable base pointer for every inner array at once.
  fileprivate func withUnsafeBlockPointers<R>(_ body: ([UnsafePointer<Double>?]) -> R) -> R {
    func recurse(_ index: Int, _ collected: [UnsafePointer<Double>?]) -> R {
      if index == count { return body(collected) }
      return self[index].withUnsafeBufferPointer { recurse(index + 1, collected + [$0.baseAddress]) }
    }
    return recurse(0, [])
  }
}
