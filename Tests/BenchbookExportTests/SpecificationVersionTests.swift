import BenchbookExport
import Testing

@Suite struct SpecificationVersionTests {
  @Test func specificationVersionsNameTheirReleases() {
    #expect(SpecificationVersion.iOS11.iOSRelease == "iOS 11")
    #expect(SpecificationVersion.iOS13.iOSRelease == "iOS 13")
    #expect(SpecificationVersion(4).description == "4 (iOS 13, macOS 10.15)")
    #expect(SpecificationVersion(42).iOSRelease == nil)
  }
}
