import Foundation
import Testing

@testable import benchbook_bench

/// Phases from a fixed `BENCHBOOK_PHASE_TIMES` log, the suite list, and the memory estimate's contract.
@Suite struct PhaseTimesTests {
  static let log = """
    {"phase": "load: read columns", "monotonic_seconds": 101.0, "cpu_seconds": 0.5}
    {"phase": "load: check and encode", "monotonic_seconds": 101.5, "cpu_seconds": 0.75}
    {"phase": "load", "monotonic_seconds": 102.0, "cpu_seconds": 1.0}
    {"phase": "fold plan", "monotonic_seconds": 102.25, "cpu_seconds": 1.25}
    {"phase": "cross-validation", "monotonic_seconds": 106.0, "cpu_seconds": 8.0}
    {"phase": "results and on-device cost", "monotonic_seconds": 107.0, "cpu_seconds": 9.0}
    {"phase": "leak audit: plans", "monotonic_seconds": 107.5, "cpu_seconds": 9.5}
    {"phase": "something new", "monotonic_seconds": 108.0, "cpu_seconds": 10.0}
    {"phase": "leak audit", "monotonic_seconds": 110.0, "cpu_seconds": 14.0}
    {"phase": "write", "monotonic_seconds": 110.5, "cpu_seconds": 14.25}

    """

  @Test func phasesAreDifferencesBetweenMarks() throws {
    let marks = try PhaseTimes.parse(Self.log)
    #expect(marks.count == 10)
    // Started at 100 s; the process ended 11 s later with 14.5 CPU seconds.
    let phases = PhaseTimes(marks: marks, startedAt: 100, wallSeconds: 11, cpuSeconds: 14.5)
    #expect(phases.wallSeconds["load"] == 2)
    #expect(phases.cpuSeconds["load"] == 1)
    #expect(phases.wallSeconds["cross-validation"] == 4)
    #expect(phases.cpuSeconds["cross-validation"] == 7)
    #expect(phases.wallSeconds["on-device cost"] == 1)
    #expect(phases.wallSeconds["audit"] == 2.5)
    #expect(phases.cpuSeconds["audit"] == 4.5)
    #expect(phases.wallSeconds["write"] == 0.5)
    // The unknown mark (0.5 s, 0.5 CPU s) and the exit after writing (0.5 s, 0.25 CPU s).
    #expect(phases.wallSeconds["other"] == 1)
    #expect(phases.cpuSeconds["other"] == 0.75)
    #expect(phases.wallSeconds.values.reduce(0, +) == 11)
    #expect(phases.cpuSeconds.values.reduce(0, +) == 14.5)
  }

  @Test func noLogPutsTheWholeRunInOther() throws {
    let phases = PhaseTimes(marks: try PhaseTimes.parse(""), startedAt: 5, wallSeconds: 3, cpuSeconds: 2)
    #expect(phases.wallSeconds["other"] == 3 && phases.cpuSeconds["other"] == 2)
    #expect(phases.wallSeconds["audit"] == 0)
  }

  @Test func aBadLineIsAnError() {
    #expect(throws: BenchFailure.self) { try PhaseTimes.parse("{\"phase\": \"load\"}\n") }
  }

  @Test func suiteListResolvesSpecsAndSelectsByName() throws {
    let list = try SuiteList(
      text: """
        datasets:
          - {spec: ../iris.yaml, why: tiny}
          - spec: ../studies/classic/diamonds.yaml
            why: large
        optional:
          - {spec: slow.yaml, why: slow}
        """, directory: URL(fileURLWithPath: "/repo/experiments/bench"))
    #expect(
      list.entries == [
        .init(name: "iris", spec: "/repo/experiments/iris.yaml", kind: "tiny"),
        .init(name: "diamonds", spec: "/repo/experiments/studies/classic/diamonds.yaml", kind: "large"),
      ])
    #expect(try list.selecting("diamonds").map(\.name) == ["diamonds"])
    #expect(try list.selecting("diamonds, iris").map(\.name) == ["iris", "diamonds"])
    #expect(try list.selecting(nil).count == 2)
    #expect(list.optional == [.init(name: "slow", spec: "/repo/experiments/bench/slow.yaml", kind: "slow")])
    #expect(try list.selecting("slow,iris").map(\.name) == ["iris", "slow"])
    #expect(throws: BenchFailure.self) { try list.selecting("iris,nope") }
  }

  @Test func anEntryWithoutSpecIsNamedByItsLine() {
    let error = #expect(throws: BenchFailure.self) {
      try SuiteList(
        text: "datasets:\n  - {spec: a.yaml}\n  - {why: nothing}\n", directory: URL(fileURLWithPath: "/"),
        file: "suite.yaml")
    }
    #expect(error?.description == "suite.yaml, line 3: an entry without `spec:`")
  }

  @Test func memoryEstimateContract() {
    #expect(MemoryEstimate.peakBytes(in: ["estimated_peak_bytes": 1000]) == 1000)
    #expect(
      MemoryEstimate.peakBytes(in: ["shards": [["estimated_peak_bytes": 300], ["estimated_peak_bytes": 700]]]) == 700)
    #expect(MemoryEstimate.peakBytes(in: ["cells": 4]) == nil)
    #expect(MemoryEstimate.error(predicted: nil, measured: 100) == nil)
    #expect(MemoryEstimate.error(predicted: 125, measured: 100)?.met == true)
    #expect(MemoryEstimate.error(predicted: 74, measured: 100)?.met == false)
    #expect(MemoryEstimate.cell(predicted: nil, measured: 100) == "no estimate")
    #expect(MemoryEstimate.cell(predicted: 120_000_000, measured: 100_000_000) == "120 MB (+20%)")
  }
}
