import Foundation

/// Every ceiling Benchbook puts on a size or count it is given, in one place (docs/commands.md lists them).
///
/// Each is checked before the work or the allocation it bounds, so a hostile or mistyped number ends in an error
/// that names its file, line or option instead of a trap, a hang or memory exhausted. Each value is far above what
/// real use needs and far below what breaks the machine.
public enum Limits {
  /// Bytes of a spec or study file. The largest shipped spec is under 2 kB; a spec is written by hand, and a
  /// thousand times more is still a spec, while a sparse multi-gigabyte file would otherwise be read whole.
  public static let specBytes = 4 << 20

  /// Bytes of a JSON file Benchbook reads back (results.json, a baseline, a shard, a study's results). The largest
  /// shipped results.json (flights, tuned) is about 100 kB; these files hold scores per fold and configuration,
  /// never rows, so 256 MiB is thousands of times the largest real one and still parses within 1 GB of memory.
  public static let jsonFileBytes = 256 << 20

  /// Bytes of a model file `inspect` reads. A kNN model stores its training rows (the flagship's is a few MB);
  /// 512 MiB holds millions of rows of tens of features, and the file is parsed in memory.
  public static let modelFileBytes = 512 << 20

  /// Shards of one run (`--shard I/N`, `plan --shards N`). A shard is a process, usually a job-array task; Slurm's
  /// default array ceiling is 1,001 tasks, and a run has no more shards with work than it has cells (models ×
  /// folds), so 10,000 covers any real split while the per-shard tables stay small.
  public static let shards = 10_000

  /// Interleaved rounds of the timing pass (`regression.rounds`, at least 3, 7 by default). Each round times
  /// every model once more; past 1,000 the median no longer moves and the pass would run for hours.
  public static let timingRounds = 1_000

  /// The highest `resampling.max_fits` a spec may set (the default ceiling is 100,000). Every fit's scores stay in
  /// memory until the report is written, and ten million fits would take weeks on the machines Benchbook targets.
  public static let maximumFits = 10_000_000

  /// Configurations of one model's grid (`search:`), computed as the product of its settings' value counts with
  /// overflow checks before any configuration is built. Each configuration is a classifier object in memory, and
  /// the default `max_fits` (100,000) already refuses any larger grid over two or more splits; scikit-learn
  /// searches rarely pass ten thousand.
  public static let gridConfigurations = 100_000

  /// kNN's `leaf_size` (scikit-learn's default is 30). A leaf of a million rows already makes the kd-tree a
  /// brute-force search on all but the largest data; above it, only the tree's own arithmetic (2·leaf_size)
  /// would change, towards overflow.
  public static let leafSize = 1_000_000

  /// Bytes of a data file read whole: the machine's physical memory, since the data is held in memory as columns
  /// and a larger file (a sparse one claiming 100 GB) cannot be loaded anyway.
  public static var dataFileBytes: Int {
    Int(clamping: ProcessInfo.processInfo.physicalMemory)
  }

  /// A count read back from results.json (rows, bytes, parameters, selections). A trillion is far beyond any real
  /// run (the flagship has about a million rows) and keeps sums and products of a few such counts within `Int`.
  public static let recordedCount = 1 << 40

  /// A duration in seconds read back from results.json: about 31 years, far past any fit, and small enough that
  /// axes and sums over it stay finite.
  public static let recordedSeconds = 1e9

  /// A latency in microseconds read back from results.json: the same 31 years.
  public static let recordedMicroseconds = 1e15

  /// A log-loss read back from results.json. A clipped log-loss is at most −ln of the smallest positive double
  /// (about 745), so anything above 1,000 is not one.
  public static let recordedLogLoss = 1000.0

  /// Bytes of one record (line) of a data file. The reader holds a window of the file that grows to fit the
  /// longest record, so an endless line (a gzip bomb that inflates to one line, or to NULs) would grow it without
  /// end; real records, even of thousands of columns, are hundreds of kB, and a window this size stays far within
  /// 1 GB of memory.
  public static let recordBytes = 64 << 20
}
