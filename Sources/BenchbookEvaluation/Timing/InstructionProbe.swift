/// Marks the work an instruction count covers: callgrind collects only inside
/// `benchbook_instruction_probe` (`--toggle-collect`) and writes one profile part
/// per call (`--dump-after`), so data loading and set-up never count.
public enum InstructionProbe {
  /// Fits counted per model, reported as their mean: every fit of a model costs the same
  /// instructions, and a planted fractional repeat (`BENCHBOOK_TEST_REPEAT_FIT=NB:1.2`,
  /// every fifth fit done twice) shows as its average rather than as one fit's luck.
  public static let fits = 5

  /// Predict batches counted per model, reported as their mean, like the fits.
  public static let predicts = 5

  /// The probe's symbol, fixed so that valgrind can name it.
  public static let symbol = "benchbook_instruction_probe"

  /// Runs `body` inside the probe.
  public static func measure(_ body: () -> Void) { benchbookInstructionProbe(body) }
}

@_silgen_name("benchbook_instruction_probe")
@inline(never)
func benchbookInstructionProbe(_ body: () -> Void) { body() }
