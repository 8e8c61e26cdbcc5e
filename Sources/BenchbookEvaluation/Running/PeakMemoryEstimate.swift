/// The peak resident memory a run, a shard or a merge is expected to reach, estimated before it runs so a user can
/// ask a scheduler for that much (`benchbook plan`, the Slurm recipe's `--mem`).
///
/// The peak is the largest of three phases, each a sum of sizes the plan knows without fitting anything: the
/// columns read, the encoded matrix and the per-row arrays beside it, the stored fold indices, the working copies
/// the `jobs` largest fits in flight hold (their descriptors' `workingCopies`), the shared kd-trees and sorted
/// features. What the arithmetic cannot see (the Swift runtime, OpenBLAS, glibc's arenas, the share of the worst
/// case that is resident at the same moment) is in the few constants below, calibrated against peaks measured on
/// the flagship and the tuned flagship at 1×, 3× and 10× rows (docs/memory.md gives the figures and the error).
public struct PeakMemoryEstimate: Sendable, Hashable {
  /// What the estimate is computed from.
  public struct Inputs: Sendable, Hashable {
    /// Data rows in the file, and rows kept after dropping missing values.
    public var rowsRead: Int
    public var rows: Int
    /// Bytes a row of the columns read takes while they are parsed (8 a number or time, 16 a text value).
    public var bytesPerRowRead: Int
    /// Bytes a row of the encoded matrix takes (8 per encoded column).
    public var encodedRowBytes: Int
    /// Bytes per kept row beside the matrix: the label, the time and availability columns.
    public var sideRowBytes: Int
    /// Row numbers the folds store (outer folds, and the inner folds every tuned model shares), 4 bytes each.
    public var storedFoldIndices: Int
    /// Threads fitting at once (`--jobs`).
    public var jobs: Int
    /// Per fold or fit on all rows this process runs: bytes its working copies hold.
    public var taskBytes: [Int]
    /// Per tuning split this process runs: bytes the working copies of every configuration it scores hold.
    public var tuningTaskBytes: [Int]
    /// Shared work held beside the fits while they run: kd-trees over every row, sorted features.
    public var sharedBytes: Int
    /// Whether the leak audit runs in this process, and what each of its refits holds (0 when it does not run).
    public var audits: Bool
    public var auditTaskBytes: [Int]

    public init(
      rowsRead: Int, rows: Int, bytesPerRowRead: Int, encodedRowBytes: Int, sideRowBytes: Int,
      storedFoldIndices: Int, jobs: Int, taskBytes: [Int], tuningTaskBytes: [Int], sharedBytes: Int, audits: Bool,
      auditTaskBytes: [Int]
    ) {
      self.rowsRead = rowsRead
      self.rows = rows
      self.bytesPerRowRead = bytesPerRowRead
      self.encodedRowBytes = encodedRowBytes
      self.sideRowBytes = sideRowBytes
      self.storedFoldIndices = storedFoldIndices
      self.jobs = jobs
      self.taskBytes = taskBytes
      self.tuningTaskBytes = tuningTaskBytes
      self.sharedBytes = sharedBytes
      self.audits = audits
      self.auditTaskBytes = auditTaskBytes
    }
  }

  // MARK: - Calibration (docs/memory.md)

  /// Resident before any data: the binary, the Swift runtime and Foundation, OpenBLAS, a thread's arena.
  static let floorBytes = 40_000_000
  /// Added while fits run: glibc's per-thread arenas and the allocator's slack once several threads allocate.
  static let fittingFloorBytes = 45_000_000
  /// Parsed columns grow by doubling, so on average they hold this many times their bytes (in tenths).
  static let readGrowthTenths = 10
  /// The share of the in-flight fits' working copies and the shared work that is resident at the same moment, in
  /// hundredths: a fit's copies are not all alive for its whole length, nor are the largest fits always paired.
  static let residentShareHundredths = 58
  /// The same share for tuning splits, whose configurations are fitted one after another, not all held at once.
  static let tuningResidentShareHundredths = 37
  /// The same share for the audit's refits, which gather their rows in ascending order and free them sooner.
  static let auditResidentShareHundredths = 61

  // MARK: - Phases

  public let inputs: Inputs
  /// Reading and encoding the data.
  public let loadBytes: Int
  /// Cross-validation, tuning and the fits on all rows (a shard's cells; a merge's fits on all rows).
  public let fitBytes: Int
  /// The leak audit's refits (0 when the audit does not run here).
  public let auditBytes: Int

  public init(_ inputs: Inputs) {
    self.inputs = inputs
    let data = inputs.rows * (inputs.encodedRowBytes + inputs.sideRowBytes)
    let indices = 4 * inputs.storedFoldIndices
    loadBytes =
      Self.floorBytes + inputs.rowsRead * inputs.bytesPerRowRead * Self.readGrowthTenths / 10 + data
    let resident = data + indices + Self.floorBytes + Self.fittingFloorBytes
    // Tuning splits run before the folds and fits on all rows (`RunPlan.execute`), so the larger of the two counts.
    let folds = (Self.largest(inputs.jobs, of: inputs.taskBytes) + inputs.sharedBytes) * Self.residentShareHundredths
    let tuning =
      inputs.tuningTaskBytes.isEmpty
      ? 0
      : (Self.largest(inputs.jobs, of: inputs.tuningTaskBytes) + inputs.sharedBytes)
        * Self.tuningResidentShareHundredths
    fitBytes = resident + max(folds, tuning) / 100
    auditBytes =
      inputs.audits
      ? resident + (Self.largest(inputs.jobs, of: inputs.auditTaskBytes) + inputs.sharedBytes)
        * Self.auditResidentShareHundredths / 100
      : 0
  }

  /// The estimated peak: the largest phase.
  public var peakBytes: Int { max(loadBytes, fitBytes, auditBytes) }

  /// The sum of the `count` largest values: what the fits running at once hold together at their largest.
  static func largest(_ count: Int, of values: [Int]) -> Int {
    values.sorted(by: >).prefix(max(count, 0)).reduce(0, +)
  }
}
