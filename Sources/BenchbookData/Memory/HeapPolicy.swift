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
/// array afresh: at 1 MiB the tuned flagship spent 14 s in the kernel and ran
/// 6% slower than at 8 MiB (78.3 s against 73.7 s wall, 257 against 283 MB).
///
/// Fixing the mmap threshold also freezes glibc's trim threshold at 128 kB: every free at the top of a
/// heap then hands pages back, and the next fit faults them in again (the tuned flagship made 5.1 million
/// page faults, 9.9 s of system time). Free space up to 32 MiB is therefore kept at the top of each heap:
/// 0.6 million faults and 1.3 s, for the same peak (300 against 302 MB). Both calls are looked up at run
/// time because Swift's Glibc module does not export `<malloc.h>`; elsewhere they do nothing.
public enum HeapPolicy {
  /// glibc's tunable that makes malloc ask for transparent huge pages (`madvise(MADV_HUGEPAGE)`) on the
  /// mappings it makes, where the kernel leaves them to the program (`enabled` set to `madvise`, as here).
  static let hugePagesTunable = "glibc.malloc.hugetlb"

  /// What the process's start-up environment must add for huge pages: `glibc.malloc.hugetlb=1` appended to
  /// `GLIBC_TUNABLES`, which glibc reads only at start-up (`ProcessRestart` applies it); empty when it is already
  /// set, the user's own setting included.
  ///
  /// Every fold's rows arrive in fresh mappings: with 4 kB pages the 3× flights run took a million page
  /// faults, 1.7 s of system time on 13 s of CPU; with 2 MB pages where they fit, a quarter of the faults and
  /// 1.2 s.
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
  /// Below it the arenas keep what a task freed for the next one, a few MB (digits' run peaked at 48 against 45
  /// MB, benefits' at 65 against 56), while each trim hands pages back by `madvise` calls that interrupt the other
  /// core to flush its address translations, and the next task faults them in again: digits made 727 trims,
  /// 7,476 `madvise` calls, and its audit took 0.25 s wall with them, 0.19 s without (3 alternating pairs). The
  /// flagship (10.5 MB) keeps trimming: without it its peak rose from 125 to 143 MB.
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
