import BenchbookEvaluation
import FuzzSupport

/// The results file of the fuzz input, as `report`, `index` and `export --results` read it.
private let scratch = ScratchFile(named: "results.json")

/// Fuzzes `ResultsFile.read`, the decoder of results.json behind `report`, `index` and `export --results`,
/// and encodes whatever it accepts again, since anything read may be written back. A thrown error (and its
/// message) is a correct answer; only a crash, hang or leak is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzResults(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  scratch.with(UnsafeBufferPointer(start: data, count: size)) { path in
    do {
      let results = try ResultsFile.read(path)
      _ = try ResultsFile.encode(results)
    } catch {
      _ = "\(error)"
    }
  }
  return 0
}
