import Foundation
import Testing

@testable import BenchbookModels

@Suite struct OpenBLASSettingsTests {
  @Test func kernelsFollowTheInstructionSetsNotTheModel() {
    #expect(OpenBLASSettings.coreType([.avx2, .avx512]) == "SkylakeX")
    #expect(OpenBLASSettings.coreType(.avx2) == "Haswell")
    // Nothing OpenBLAS has newer kernels for: its own choice stands.
    #expect(OpenBLASSettings.coreType([]) == nil)
  }

  /// CPUID agrees with the flags Linux lists in /proc/cpuinfo (outside an emulator such as valgrind, which
  /// reports a processor of its own).
  @Test func theProcessorIsAskedForItsExtensions() throws {
    #if arch(x86_64) && os(Linux)
      let info = try String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)
      let line = try #require(info.split(separator: "\n").first { $0.hasPrefix("flags") })
      let flags = Set(line.split(separator: ":")[1].split(separator: " ").map(String.init))
      let extensions = OpenBLASSettings.processorExtensions
      #expect(extensions.contains(.avx2) == flags.isSuperset(of: ["avx2", "fma"]))
      #expect(
        extensions.contains(.avx512)
          == flags.isSuperset(of: ["avx2", "fma", "avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl"]))
    #endif
  }

  /// One thread always; the kernels unless the user chose them.
  @Test func startUpAsksForOneThreadAndTheKernels() {
    let settings = OpenBLASSettings.startupEnvironment()
    let environment = ProcessInfo.processInfo.environment
    #expect(settings["OPENBLAS_NUM_THREADS"] == (environment["OPENBLAS_NUM_THREADS"] == "1" ? nil : "1"))
    if environment["OPENBLAS_CORETYPE"] != nil {
      #expect(settings["OPENBLAS_CORETYPE"] == nil)
    } else {
      #expect(settings["OPENBLAS_CORETYPE"] == OpenBLASSettings.coreType(OpenBLASSettings.processorExtensions))
    }
  }

  @Test func theDescriptionNamesTheLibraryAndItsKernels() {
    let description = OpenBLASSettings.description
    #expect(description.hasPrefix("OpenBLAS "), "\(description)")
    #expect(description.hasSuffix(" kernels"), "\(description)")
  }
}
