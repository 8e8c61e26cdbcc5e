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
  /// - Parameter blocks: each block's rows must all have the same length.
  /// - Throws: `Failure` when gnuplot is missing, cannot be started, or reports an error.
  public static func run(script: String, blocks: [[[Double]]], executable: String? = nil) throws(Failure) {
    guard let gnuplot = executable ?? Self.executable() else {
      throw Failure(description: notInstalled)
    }
    let errorFile = FileManager.default.temporaryDirectory
      .appendingPathComponent("benchbook-gnuplot-\(getpid())-\(UUID().uuidString).err")
    defer { try? FileManager.default.removeItem(at: errorFile) }
    let command = "'\(gnuplot)' 2>'\(errorFile.path)'"

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
    let errors = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
    let trimmed = errors.trimmingCharacters(in: .whitespacesAndNewlines)
    if !trimmed.isEmpty {
      throw Failure(description: "gnuplot reported: \(trimmed)")
    }
  }

  /// Draws one SVG into `directory`: gnuplot writes a temporary file, renamed into place only when
  /// it succeeded, so a failed plot never leaves a half-written figure or replaces a good one.
  ///
  /// - Parameter script: the script for a given output path.
  public static func drawSVG(
    named fileName: String, into directory: String, executable: String, script: (String) -> GnuplotScript
  ) throws(Failure) {
    let final = URL(fileURLWithPath: directory).appendingPathComponent(fileName).path
    let temporary = URL(fileURLWithPath: directory).appendingPathComponent(".\(fileName).tmp-\(getpid())").path
    do {
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    } catch {
      throw Failure(description: "cannot create \(directory): \(error.localizedDescription)")
    }
    do throws(Failure) {
      let drawn = script(temporary)
      try run(script: drawn.text, blocks: drawn.blocks, executable: executable)
      guard rename(temporary, final) == 0 else {
        throw Failure(description: "cannot move the SVG into place: \(String(cString: strerror(errno)))")
      }
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
