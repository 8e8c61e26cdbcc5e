import COpenBLAS
import Foundation

/// What OpenBLAS must be told before it loads: which of its kernels compute Benchbook's dense products, chosen by
/// the instruction sets the processor offers, not by its model number; and that it runs one thread.
///
/// **Threads.** Every fit runs its products on its own thread (`LAPACK` pins OpenBLAS to one, so that no
/// threaded reduction makes a result depend on the thread count). Told only then, OpenBLAS had already started a
/// worker per core when it loaded, which spun on `sched_yield` for a while: on few cores, a core taken from
/// loading the data, and system time that is a visible share of a small dataset's run.
/// `OPENBLAS_NUM_THREADS=1` at start-up starts none.
///
/// **Kernels.**
/// OpenBLAS picks its kernels by processor model and falls back to its oldest ones (Prescott, SSE3 only) on a
/// model it does not know. Debian 12's OpenBLAS 0.3.21 does not know the Intel Xeon of family 6 model 207, so
/// every product there ran on the fallback: brute-force kNN ran several times slower, and logistic regression
/// and LDA came out different in their last bits from the same run on an AMD EPYC, since kernels sum in
/// different orders. Asked for by instruction set, the same kernels run on every processor that has it, and the
/// results are the same bits.
///
/// OpenBLAS reads both (`OPENBLAS_NUM_THREADS`, `OPENBLAS_CORETYPE`) only when it loads, so `ProcessRestart`
/// applies them at start-up.
public enum OpenBLASSettings {
  /// The vector extensions the choice depends on.
  public struct Extensions: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// AVX2 with FMA: OpenBLAS's Haswell kernels.
    public static let avx2 = Extensions(rawValue: 1)
    /// AVX-512 F, CD, BW, DQ and VL: its SkylakeX kernels.
    public static let avx512 = Extensions(rawValue: 2)
  }

  /// OpenBLAS's name for the kernels to use with these extensions; `nil` leaves the choice to OpenBLAS (none
  /// of them, or not x86).
  public static func coreType(_ extensions: Extensions) -> String? {
    if extensions.contains([.avx2, .avx512]) { return "SkylakeX" }
    if extensions.contains(.avx2) { return "Haswell" }
    return nil
  }

  /// The kernels every processor of this architecture runs (OpenBLAS's x86-64 baseline, Prescott); `nil` leaves
  /// the choice to OpenBLAS elsewhere. For counting instructions, which must not depend on the processor.
  public static var baselineCoreType: String? {
    #if arch(x86_64)
      "Prescott"
    #else
      nil
    #endif
  }

  /// The extensions this process's processor reports and its operating system enables (CPUID and XGETBV); empty
  /// off x86.
  public static var processorExtensions: Extensions {
    #if arch(x86_64)
      Extensions(rawValue: benchbook_vector_extensions())
    #else
      []
    #endif
  }

  /// What the process's start-up environment must add: `OPENBLAS_NUM_THREADS=1` unless it says so already, and
  /// `OPENBLAS_CORETYPE` for this processor unless the user set it (their choice stands) or the processor has no
  /// extension chosen by.
  public static func startupEnvironment() -> [String: String] {
    var settings: [String: String] = [:]
    if getenv("OPENBLAS_NUM_THREADS").map({ String(cString: $0) }) != "1" { settings["OPENBLAS_NUM_THREADS"] = "1" }
    if getenv("OPENBLAS_CORETYPE") == nil, let core = coreType(processorExtensions) {
      settings["OPENBLAS_CORETYPE"] = core
    }
    return settings
  }

  /// The library and the kernels computing this process's products, as OpenBLAS names them, e.g.
  /// "OpenBLAS 0.3.21, SkylakeX kernels".
  public static var description: String {
    let config = String(cString: openblas_get_config())
    let version = config.split(separator: " ").prefix(2).joined(separator: " ")
    return "\(version), \(String(cString: openblas_get_corename())) kernels"
  }
}
