import Foundation
import Testing

@testable import BenchbookModels

@Suite struct BLASKernelsTests {
  @Test func kernelsFollowTheInstructionSetsNotTheModel() {
    #expect(BLASKernels.coreType([.avx2, .avx512]) == "SkylakeX")
    #expect(BLASKernels.coreType(.avx2) == "Haswell")
    // Nothing OpenBLAS has newer kernels for: its own choice stands.
    #expect(BLASKernels.coreType([]) == nil)
  }

  /// CPUID agrees with the flags Linux lists in /proc/cpuinfo (outside an emulator such as valgrind, which
  /// reports a processor of its own).
  @Test func theProcessorIsAskedForItsExtensions() throws {
    #if arch(x86_64) && os(Linux)
      let info = try String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)
      let line = try #require(info.split(separator: "\n").first { $0.hasPrefix("flags") })
      let flags = Set(line.split(separator: ":")[1].split(separator: " ").map(String.init))
      let extensions = BLASKernels.processorExtensions
      #expect(extensions.contains(.avx2) == flags.isSuperset(of: ["avx2", "fma"]))
      #expect(
        extensions.contains(.avx512)
          == flags.isSuperset(of: ["avx2", "fma", "avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl"]))
    #endif
  }

  @Test func theDescriptionNamesTheLibraryAndItsKernels() {
    let description = BLASKernels.description
    #expect(description.hasPrefix("OpenBLAS "), "\(description)")
    #expect(description.hasSuffix(" kernels"), "\(description)")
  }
}
