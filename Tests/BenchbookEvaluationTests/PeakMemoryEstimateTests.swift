import BenchbookData
import BenchbookSpec
import Foundation
import Testing

@testable import BenchbookEvaluation

/// The arithmetic of the peak memory estimate (`benchbook plan`), on fixed inputs worked out by hand, and the inputs
/// a plan gives it. How close it comes to measured peaks is `make bench`'s to check, not a unit test's.
@Suite struct PeakMemoryEstimateTests {
  static func inputs(
    jobs: Int = 2, taskBytes: [Int] = [10_000_000, 30_000_000, 20_000_000], tuningTaskBytes: [Int] = [],
    audits: Bool = true
  ) -> PeakMemoryEstimate.Inputs {
    PeakMemoryEstimate.Inputs(
      rowsRead: 1_100_000, rows: 1_000_000, bytesPerRowRead: 56, encodedRowBytes: 32, sideRowBytes: 16,
      storedFoldIndices: 2_000_000, jobs: jobs, taskBytes: taskBytes, tuningTaskBytes: tuningTaskBytes,
      sharedBytes: 4_000_000, audits: audits, auditTaskBytes: [40_000_000, 50_000_000, 60_000_000])
  }

  @Test func phasesAddTheSizesTheyHold() {
    let estimate = PeakMemoryEstimate(Self.inputs())
    // Load: 40 MB floor + 1.1 M rows read × 56 B + 1 M rows × (32 + 16) B.
    #expect(estimate.loadBytes == 40_000_000 + 61_600_000 + 48_000_000)
    // Resident while fitting: data 48 MB, indices 8 MB, floors 40 + 45 MB = 141 MB; in flight the two largest
    // tasks (30 + 20 MB) and the shared work (4 MB), 58% of 54 MB.
    #expect(estimate.fitBytes == 141_000_000 + 31_320_000)
    // The audit: the two largest refits (60 + 50 MB) and the shared work, 61% of 114 MB.
    #expect(estimate.auditBytes == 141_000_000 + 69_540_000)
    #expect(estimate.peakBytes == 210_540_000)
  }

  @Test func jobsChooseHowManyFitsAreInFlight() {
    let one = PeakMemoryEstimate(Self.inputs(jobs: 1))
    #expect(one.fitBytes == 141_000_000 + (30_000_000 + 4_000_000) * 58 / 100)
    let all = PeakMemoryEstimate(Self.inputs(jobs: 8))
    #expect(all.fitBytes == 141_000_000 + (60_000_000 + 4_000_000) * 58 / 100)
    #expect(PeakMemoryEstimate.largest(2, of: [5, 1, 9, 7]) == 16)
    #expect(PeakMemoryEstimate.largest(0, of: [5]) == 0)
  }

  @Test func tuningAndFoldsDoNotRunTogether() {
    // Tuning splits of 200 MB each: 37% of (400 + 4) MB outweighs the folds' 58% of 54 MB.
    let tuned = PeakMemoryEstimate(Self.inputs(tuningTaskBytes: [200_000_000, 200_000_000, 100_000_000]))
    #expect(tuned.fitBytes == 141_000_000 + 404_000_000 * 37 / 100)
    let small = PeakMemoryEstimate(Self.inputs(tuningTaskBytes: [1_000_000]))
    #expect(small.fitBytes == PeakMemoryEstimate(Self.inputs()).fitBytes)
  }

  @Test func aShardWithoutTheAuditCountsNone() {
    let shard = PeakMemoryEstimate(Self.inputs(audits: false))
    #expect(shard.auditBytes == 0)
    #expect(shard.peakBytes == shard.fitBytes)
  }

  /// From a plan: the data's sizes and folds as loaded, one task per (model, fold) and fit on all rows, and a
  /// whole run estimated at least as high as any shard or a merge of it.
  @Test func aPlanGivesTheSizesItKnows() throws {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("experiments")
    let plan = try RunPlan(SpecParser.read(file: folder.appendingPathComponent("iris.yaml").path))
    let all = Array(plan.tasks.indices)
    let inputs = plan.memoryInputs(all, jobs: 2, audits: true)
    #expect(inputs.rows == 150)
    #expect(inputs.encodedRowBytes == 8 * plan.dataset.x.columns)
    #expect(inputs.taskBytes.count == plan.tasks.count)
    #expect(inputs.tuningTaskBytes.isEmpty)
    #expect(inputs.auditTaskBytes.count == plan.spec.models.count * plan.plan.folds.count)
    let stored = plan.plan.folds.reduce(0) { $0 + $1.train.storedIndexCount + $1.test.storedIndexCount }
    #expect(inputs.storedFoldIndices == stored)
    let whole = plan.memoryEstimate(all, jobs: 2, audits: true).peakBytes
    let partition = ShardPartition(plan, shards: 3)
    for shard in 0..<3 {
      #expect(plan.memoryEstimate(partition.taskIndices(plan, shard: shard), jobs: 2, audits: false).peakBytes <= whole)
    }
    #expect(plan.memoryEstimate(all, jobs: 1, audits: true).peakBytes <= whole)
  }
}
