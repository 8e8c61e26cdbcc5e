import ArgumentParser
import Foundation

/// Turns any error into one clear line on standard error and exit status 1.
enum CommandLineFailure {
  static func reporting(_ body: () throws -> Void) throws {
    do {
      try body()
    } catch let exit as ExitCode {
      throw exit
    } catch {
      FileHandle.standardError.write(Data("benchbook: error: \(error)\n".utf8))
      throw ExitCode.failure
    }
  }
}
