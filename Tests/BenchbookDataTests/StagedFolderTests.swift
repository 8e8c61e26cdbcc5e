import BenchbookData
import Foundation
import Testing

/// Outputs staged beside their folder move in together, in order; blocked targets move nothing; the
/// staging folders of dead processes are removed, nothing else.
@Suite struct StagedFolderTests {
  let files = TemporaryFiles()

  func read(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }

  func entries() -> [String] { (try? FileManager.default.contentsOfDirectory(atPath: files.directory)) ?? [] }

  @Test func commitMovesEverythingAndRemovesObsoleteFiles() throws {
    let destination = files.directory + "/out"
    try FileManager.default.createDirectory(atPath: destination, withIntermediateDirectories: true)
    for name in ["old.svg", "mine.txt", "b.txt"] { _ = files.write("old \(name)", name: "out/\(name)") }
    let staged = try StagedFolder(destination: destination)
    #expect(staged.path.hasPrefix(files.directory + "/" + StagedFolder.prefix + "out-\(getpid())-"))
    for name in ["a.txt", "b.txt"] {
      _ = FileManager.default.createFile(atPath: staged.file(name), contents: Data(name.utf8))
    }
    try staged.commit(["a.txt", "b.txt"], removing: ["old.svg", "absent.svg"])
    #expect(read(destination + "/a.txt") == "a.txt")
    #expect(read(destination + "/b.txt") == "b.txt")
    #expect(read(destination + "/mine.txt") == "old mine.txt")
    #expect(!FileManager.default.fileExists(atPath: destination + "/old.svg"))
    #expect(!entries().contains { $0.hasPrefix(StagedFolder.prefix) })
  }

  @Test func aBlockedTargetMovesNothing() throws {
    let destination = files.directory + "/out"
    try FileManager.default.createDirectory(atPath: destination + "/b.txt", withIntermediateDirectories: true)
    _ = files.write("old a", name: "out/a.txt")
    let staged = try StagedFolder(destination: destination)
    for name in ["a.txt", "b.txt"] {
      _ = FileManager.default.createFile(atPath: staged.file(name), contents: Data(name.utf8))
    }
    #expect(throws: AtomicFile.Failure.self) { try staged.commit(["a.txt", "b.txt"]) }
    #expect(read(destination + "/a.txt") == "old a")
    #expect(!entries().contains { $0.hasPrefix(StagedFolder.prefix) })
  }

  @Test func removesOnlyTheStagingFoldersOfDeadProcesses() throws {
    // A process id far above any pid_max names no process; our own is alive.
    let dead = files.directory + "/\(StagedFolder.prefix)out-999999999-1f"
    let alive = files.directory + "/\(StagedFolder.prefix)out-\(getppid())-2e"
    let other = files.directory + "/.benchbook-other-999999999-3d"
    for folder in [dead, alive, other] {
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }
    _ = files.write("x", name: "\(StagedFolder.prefix)out-999999999-1f/results.json")
    StagedFolder.removeAbandoned(beside: files.directory + "/out")
    #expect(!FileManager.default.fileExists(atPath: dead))
    #expect(FileManager.default.fileExists(atPath: alive))
    #expect(FileManager.default.fileExists(atPath: other))
  }

  @Test func aDestinationThatIsAFileIsRefused() throws {
    let path = files.write("x", name: "out")
    #expect(throws: AtomicFile.Failure.self) { try StagedFolder(destination: path) }
  }
}
