#if canImport(Glibc)
  import Glibc
#endif

/// Restarts the process once with settings that libraries read only when a process starts: glibc's tunables
/// (`HeapPolicy`), and the kernels and threads OpenBLAS starts with (`OpenBLASSettings`). Each policy states what
/// it adds to the environment; one restart applies them all, so a run pays for one `exec` at most.
public enum ProcessRestart {
  /// Sets `variables` and restarts the executable with the same arguments; returns at once when there is nothing
  /// to set, and returns (running on with the environment as it was at start-up) when the restart fails.
  ///
  /// A restarted process asks its policies again and finds nothing to add, so it never restarts twice. Call first
  /// thing in `main`, before any thread starts.
  public static func restart(setting variables: [String: String]) {
    #if canImport(Glibc)
      guard !variables.isEmpty else { return }
      // Sorted, so the environment a run restarts with does not depend on a dictionary's order.
      for (name, value) in variables.sorted(by: { $0.key < $1.key }) {
        guard setenv(name, value, 1) == 0 else { return }
      }
      // The executable's own path, not /proc/self/exe, so the process keeps its name ("benchbook", not "exe").
      var path = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
      let length = readlink("/proc/self/exe", &path, path.count - 1)
      guard length > 0 else { return }
      execv(path, CommandLine.unsafeArgv)
    // Still here: the restart failed; run on as started. Values read at start-up keep their old meaning.
    #endif
  }
}
