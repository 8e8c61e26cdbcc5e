import ArgumentParser
import BenchbookData
import BenchbookEvaluation
import BenchbookModels

@main
struct Benchbook: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "benchbook",
    abstract: "Compare classifiers by cross-validated log-loss, reproducibly.",
    discussion: """
      An experiment is a YAML spec naming a dataset, a target, features, preprocessing, a resampling plan \
      and models (`benchbook models` lists them). `benchbook run SPEC` scores every model on every fold \
      and writes reports/<name>/results.json.

      Data files are CSV, gzip CSV, or TSV (named .tsv or .tsv.gz). Other dialects are declared \
      under `data:` (delimiter: ";", decimal: ",", header: false with columns: [..]); a first \
      column of R's or pandas' row names is skipped. Timestamps are ISO 8601 or Unix seconds, or \
      follow a declared strptime format (data: {formats: {date: "%Y/%m/%d"}}). \
      `features: {all_except: [id]}` takes every other column. Missing values stop the run unless \
      `data: {missing: drop}` drops their rows or `preprocess: [{impute: {strategy: median, add_indicator: \
      true}}, standardize]` fills them inside the folds (mean, median, most_frequent or constant, also \
      under a feature's own entry); the report says what was imputed. See docs/spec.md.

      Every run ends with a leak audit; `benchbook audit SPEC` runs it alone. `benchbook check SPEC` \
      compares a run with a committed baseline. `benchbook study STUDY` compares the models across many \
      experiments' datasets.

      Exit status: 0 on success; 1 on any error (bad spec or data, I/O); 2 when `check` finds a \
      regression; 3 when the audit found an error-level finding the spec does not accept; 4 when \
      `check --require-baseline` (or `check` with $CI set) finds no comparable baseline; 64 on a command-line \
      usage error.
      """,
    version: EnvironmentProbe.benchbookVersion,
    subcommands: [
      RunCommand.self, AuditCommand.self, ReportCommand.self, IndexCommand.self, ExportCommand.self,
      InspectCommand.self, ModelsCommand.self, BaselineCommand.self, CheckCommand.self, MergeCommand.self,
      PlanCommand.self, StudyCommand.self,
      TimingWorkerCommand.self,
    ]
  )

  /// Restarts once with the settings read only at start-up (huge pages, OpenBLAS's kernels), sets the
  /// allocator's policy before anything is allocated, then runs the command line.
  static func main() {
    let startup = HeapPolicy.startupEnvironment().merging(OpenBLASSettings.startupEnvironment()) { $1 }
    ProcessRestart.restart(setting: startup)
    HeapPolicy.returnLargeBlocksOnFree()
    MemoryTrace.start()
    main(nil)
    // A command that succeeded but whose output could not be written (a full disk, `/dev/full`) did not
    // succeed; errors have already exited with their own status.
    if !StandardStream.flushOutput() {
      StandardStream.error("benchbook: error: cannot write to standard output\n")
      exit(withError: ExitCode.failure)
    }
  }
}
