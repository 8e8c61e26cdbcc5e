import BenchbookSpec
import FuzzSupport

/// The spec file of the fuzz input, as every command that takes a spec reads it.
private let scratch = ScratchFile(named: "spec.yaml")

/// Fuzzes `SpecParser.parse(file:)`, the entry point of `run`, `check`, `plan`, `audit`, `export` and
/// `merge`: UTF-8 checking, YAML, every key and value, then the canonical definition text that results and
/// baselines record. A thrown `SpecError` (and its message) is a correct answer; only a crash, hang or leak
/// is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSpec(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  scratch.with(UnsafeBufferPointer(start: data, count: size)) { path in
    do throws(SpecError) {
      let spec = try SpecParser.parse(file: path)
      _ = spec.definitionText
    } catch {
      _ = error.description
    }
  }
  return 0
}
