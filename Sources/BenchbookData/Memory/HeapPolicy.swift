#if canImport(Glibc)
  import Glibc
#endif

/// How the process asks glibc's allocator to hand memory back.
///
/// By default glibc raises its mmap threshold each time a large block is
/// freed, so later fold-sized arrays come from the heap and stay resident
/// after they are freed: a run's resident size then follows the sum of what
/// each thread ever held, not what is alive. A fixed threshold keeps every
/// array of 8 MiB or more (a fold's matrix from about 250,000 rows of four
/// features) in its own mapping, returned to the system on `free`. A lower
/// one saves a little more memory but maps and faults in every mid-sized
/// array afresh: at 1 MiB a long run spends much of its time in the kernel
/// and runs slower, for a small saving in peak memory.
///
/// Fixing the mmap threshold also freezes glibc's trim threshold at 128 kB: every free at the top of a
/// heap then hands pages back, and the next fit faults them in again, at a large cost in system time. Free
/// space up to 32 MiB is therefore kept at the top of each heap: far fewer faults, for about the same peak.
/// Both calls are looked up at run time because Swift's Glibc module does not export `<malloc.h>`; elsewhere they
/// do nothing.
public enum HeapPolicy {
  /// glibc's tunable that makes malloc ask for transparent huge pages (`madvise(MADV_HUGEPAGE)`) on the
  /// mappings it makes, where the kernel leaves them to the program (`enabled` set to `madvise`, as here).
  static let hugePagesTunable = "glibc.malloc.hugetlb"

  /// What the process's start-up environment must add for huge pages: `glibc.malloc.hugetlb=1` appended to
  /// `GLIBC_TUNABLES`, which glibc reads only at start-up (`ProcessRestart` applies it); empty when it is already
  /// set, the user's own setting included.
  ///
  /// Every fold's rows arrive in fresh mappings: with 4 kB pages a large run spends a noticeable share of its
  /// CPU time on page faults; with 2 MB pages where they fit, the faults fall to about a quarter.
  public static func startupEnvironment() -> [String: String] {
    #if canImport(Glibc)
      let current = getenv("GLIBC_TUNABLES").map { String(cString: $0) } ?? ""
      guard !current.contains(hugePagesTunable) else { return [:] }
      return ["GLIBC_TUNABLES": (current.isEmpty ? "" : current + ":") + hugePagesTunable + "=1"]
    #else
      return [:]
    #endif
  }

  /// Fixes the mmap threshold at 8 MiB and the trim threshold at 32 MiB. Call once, first thing in `main`.
  public static func returnLargeBlocksOnFree() {
    #if canImport(Glibc)
      typealias SetOption = @convention(c) (Int32, Int32) -> Int32
      let trimThreshold: Int32 = -1  // M_TRIM_THRESHOLD in <malloc.h>
      let mmapThreshold: Int32 = -3  // M_MMAP_THRESHOLD in <malloc.h>
      if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") {
        let setOption = unsafeBitCast(symbol, to: SetOption.self)
        _ = setOption(mmapThreshold, 8 << 20)
        _ = setOption(trimThreshold, 32 << 20)
      }
    #endif
  }

  /// The size of a dataset's matrix from which every finished task of a run trims the heap
  /// (`releaseFreedMemory(afterTaskOn:)`): 4 MiB, half a million values.
  ///
  /// Below it the arenas keep what a task freed for the next one, which raises the peak by a few MB, while each
  /// trim hands pages back by `madvise` calls that interrupt the other core to flush its address translations,
  /// and the next task faults them in again: on a small dataset's many short tasks, trimming costs more time
  /// than it saves memory. Above it trimming keeps the peak markedly lower.
  public static let taskTrimFloor = 4 << 20

  /// `releaseFreedMemory` at the end of one task of many (a fold's fit, an audit screen) on `data`, when its
  /// values take at least `taskTrimFloor`.
  public static func releaseFreedMemory(afterTaskOn data: Matrix) {
    guard data.values.count * MemoryLayout<Double>.stride >= taskTrimFloor else { return }
    releaseFreedMemory()
  }

  /// Returns freed heap pages to the system (`malloc_trim(0)`), before an
  /// allocation that would otherwise sit on top of them.
  public static func releaseFreedMemory() {
    #if canImport(Glibc)
      typealias Trim = @convention(c) (Int) -> Int32
      if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") {
        _ = unsafeBitCast(symbol, to: Trim.self)(0)
      }
    #endif
  }
}
