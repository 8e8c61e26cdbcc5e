import ArgumentParser
import BenchbookData
import Foundation

/// Turns any error into one clear line on standard error and exit status 1.
enum CommandLineFailure {
  static func reporting(_ body: () throws -> Void) throws {
    do {
      try body()
    } catch let exit as ExitCode {
      throw exit
    } catch {
      StandardStream.error("benchbook: error: \(error)\n")
      throw ExitCode.failure
    }
  }
}
