/// A request the command line cannot carry out, reported as one line by `CommandLineFailure`.
struct CommandError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
