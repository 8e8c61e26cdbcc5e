import BenchbookData
import BenchbookEvaluation
import BenchbookStudy
import Foundation

/// `benchbook merge` on the folders of a study's shards: checks every shard belongs to the same study and every
/// experiment's cells are all there (or the experiment is up to date in the output folder) before anything is
/// written, then assembles each experiment as `merge` does one, and finishes the study as `study` does.
enum StudyMerge {
  static func run(
    _ markers: [(path: String, file: StudyShardFile)], directories: [String], out: String?, jobs: Int, quiet: Bool
  ) throws {
    try StudyShardFile.checkAgreement(markers)
    let marker = markers[0].file
    guard marker.benchbook == EnvironmentProbe.benchbookVersion else {
      throw CommandError(
        "\(markers[0].path) was made by Benchbook \(marker.benchbook), this is \(EnvironmentProbe.benchbookVersion)")
    }
    let study = try StudySpecParser.parse(file: marker.study)
    guard SHA256.hexDigest(try DataFile.storedBytes(atPath: study.path)) == marker.studySha256 else {
      throw CommandError("\(study.path) changed since its shards were computed (\(markers[0].path)); run them again")
    }
    let destination = out ?? "reports/\(study.name)"
    StagedFolder.removeAbandoned(beside: destination)
    // Everything is checked before anything is written.
    var shards: [String: [(path: String, file: ShardFile)]] = [:]
    var reused: [String: ExperimentResults] = [:]
    for experiment in study.experiments {
      let name = experiment.spec.name
      if marker.computed.contains(name) {
        let found = try ShardMerge.read(directories.map { URL(fileURLWithPath: $0).appendingPathComponent(name).path })
        try ShardMerge.checkAgreement(found)
        guard found[0].file.identity.shards == marker.shards else {
          throw CommandError(
            "\(found[0].path) is one of \(found[0].file.identity.shards) shards, the study's of \(marker.shards)")
        }
        shards[name] = found
      } else if marker.reused.contains(name) {
        switch ExperimentFreshness.check(experiment, in: destination, models: study.models) {
        case .success(let results): reused[name] = results
        case .failure(let stale):
          throw CommandError(
            "\(name) was up to date when the shards were planned, so they did not compute it, but its results in "
              + "\(ExperimentFreshness.folder(experiment, in: destination)) are not (\(stale.reason)); run the "
              + "study's shards again with --reuse \(destination)")
        }
      } else {
        throw CommandError("the shards in \(markers[0].path) know nothing of \(name); run them again")
      }
    }
    var results: [ExperimentResults] = []
    for experiment in study.experiments {
      let name = experiment.spec.name
      if let fresh = reused[name] {
        results.append(fresh)
        continue
      }
      let folder = ExperimentFreshness.folder(experiment, in: destination)
      let plan = try RunPlan(experiment.spec, jobs: jobs)
      let outputs = try ShardMerge.outputs(plan, shards: shards[name]!, jobs: jobs, progress: nil)
      var options = ExperimentRunner.Options(jobs: jobs)
      options.command = StudyOutput.experimentCommand(experiment, folder: folder)
      let run = try ExperimentRunner.assemble(plan, outputs: outputs, options: options)
      try StudyOutput.publish(run.results, to: folder, quiet: quiet)
      results.append(run.results)
      if !quiet { StudyOutput.note("\(name): merged \(shards[name]!.count) shards") }
    }
    // The command that reproduces the study on one machine.
    try StudyOutput.finish(
      study, results: results, destination: destination, command: StudyOutput.studyCommand(study.path, out: out),
      jobs: jobs, quiet: quiet)
  }
}
