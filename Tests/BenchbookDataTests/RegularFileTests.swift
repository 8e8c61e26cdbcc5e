import BenchbookData
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Only regular files are read or replaced; anything else is refused without being opened to block.
@Suite struct RegularFileTests {
  let files = TemporaryFiles()

  func failure(_ path: String) -> RegularFile.Failure? {
    do {
      _ = try RegularFile.read(path, atMost: 1 << 20, what: "a test file")
      return nil
    } catch {
      return error
    }
  }

  @Test func readsARegularFileWhole() throws {
    let path = files.write("a,b\n1,2\n")
    #expect(try RegularFile.read(path, atMost: 1 << 20, what: "a test file") == Array("a,b\n1,2\n".utf8))
    #expect(RegularFile.otherKind(atPath: path) == nil)
  }

  /// A sparse file claiming 100 GB is refused by its size, before a byte is read or allocated.
  @Test func refusesAFileLargerThanItsLimitBeforeReading() throws {
    let path = files.write("")
    try #require(truncate(path, 100 << 30) == 0)
    let refused = failure(path)
    #expect(refused?.kind == .tooLarge)
    #expect(refused?.reason.contains("more than 1048576 bytes, the most a test file may have") == true, "\(refused!)")
  }

  @Test func refusesWhatIsNotARegularFile() throws {
    let pipe = files.directory + "/pipe"
    try #require(mkfifo(pipe, 0o600) == 0)
    #expect(failure(pipe)?.kind == .notRegular)
    #expect(failure(pipe)?.reason == "is a FIFO (named pipe), not a regular file")
    #expect(failure(files.directory)?.reason == "is a directory, not a regular file")
    #expect(failure("/dev/null")?.reason == "is a character device, not a regular file")
    #expect(failure(files.directory + "/absent")?.kind == .missing)
  }

  @Test func atomicWriteReplacesOnlyRegularFiles() throws {
    let path = files.write("old", name: "out.txt")
    try AtomicFile.write("new", to: path)
    #expect(try RegularFile.read(path, atMost: 1 << 20, what: "a test file") == Array("new".utf8))
    let pipe = files.directory + "/pipe.txt"
    try #require(mkfifo(pipe, 0o600) == 0)
    #expect(throws: AtomicFile.Failure.self) { try AtomicFile.write("x", to: pipe) }
    #expect(RegularFile.otherKind(atPath: pipe) == "a FIFO (named pipe)")
    let link = files.directory + "/link.txt"
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
    #expect(throws: AtomicFile.Failure.self) { try AtomicFile.write("x", to: link) }
    #expect(throws: AtomicFile.Failure.self) { try AtomicFile.write("x", to: files.directory) }
    #expect(try RegularFile.read(path, atMost: 1 << 20, what: "a test file") == Array("new".utf8))
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: files.directory).filter { $0.contains(".tmp-") }
    #expect(leftovers.isEmpty, "no temporary file is left behind")
  }
}
