import BenchbookData
import Foundation
import Testing

/// Outputs staged beside their folder move in together: the staging folder takes the folder's place when
/// that keeps everything else in it, otherwise the files move in order; blocked targets move nothing; the
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

  /// The identity of the file or folder at `path` itself (not of what a link points to).
  func inode(_ path: String) -> UInt64? {
    var status = stat()
    return lstat(path, &status) == 0 ? UInt64(status.st_ino) : nil
  }

  /// An earlier report folder: outputs, a plot this commit no longer draws, and a file of the user's.
  func earlierOutputs(in folder: String = "out") throws -> String {
    try FileManager.default.createDirectory(atPath: files.directory + "/" + folder, withIntermediateDirectories: true)
    for name in ["plot.svg", "stale.svg", "report.md", "results.json", "notes.txt"] {
      _ = files.write("old \(name)", name: "\(folder)/\(name)")
    }
    return files.directory + "/" + folder
  }

  func stageOutputs(_ staged: StagedFolder) {
    for name in ["plot.svg", "report.md", "results.json"] {
      _ = FileManager.default.createFile(atPath: staged.file(name), contents: Data("new \(name)".utf8))
    }
  }

  @Test func aFolderOfRegularFilesIsSwappedWholeKeepingTheUsersFiles() throws {
    let destination = try earlierOutputs()
    chmod(destination, 0o750)
    let folderBefore = try #require(inode(destination))
    let notesBefore = try #require(inode(destination + "/notes.txt"))
    let staged = try StagedFolder(destination: destination)
    stageOutputs(staged)
    try staged.commit(["plot.svg", "report.md", "results.json"], removing: ["stale.svg"])
    // The staging folder took the destination's place: the same file by a second link, the same mode.
    #expect(inode(destination) != folderBefore)
    #expect(inode(destination + "/notes.txt") == notesBefore)
    #expect(read(destination + "/notes.txt") == "old notes.txt")
    var status = stat()
    #expect(stat(destination, &status) == 0 && status.st_mode & 0o7777 == 0o750)
    let names = try FileManager.default.contentsOfDirectory(atPath: destination).sorted()
    #expect(names == ["notes.txt", "plot.svg", "report.md", "results.json"])
    for name in ["plot.svg", "report.md", "results.json"] { #expect(read(destination + "/" + name) == "new \(name)") }
    #expect(!entries().contains { $0.hasPrefix(StagedFolder.prefix) })
  }

  @Test func aFolderWithASubfolderTakesTheFilesOneByOne() throws {
    let destination = try earlierOutputs()
    try FileManager.default.createDirectory(atPath: destination + "/mine", withIntermediateDirectories: true)
    _ = files.write("kept", name: "out/mine/kept.txt")
    let folderBefore = try #require(inode(destination))
    let staged = try StagedFolder(destination: destination)
    stageOutputs(staged)
    try staged.commit(["plot.svg", "report.md", "results.json"], removing: ["stale.svg"])
    #expect(inode(destination) == folderBefore)
    #expect(read(destination + "/mine/kept.txt") == "kept")
    #expect(read(destination + "/notes.txt") == "old notes.txt")
    let names = try FileManager.default.contentsOfDirectory(atPath: destination).sorted()
    #expect(names == ["mine", "notes.txt", "plot.svg", "report.md", "results.json"])
    for name in ["plot.svg", "report.md", "results.json"] { #expect(read(destination + "/" + name) == "new \(name)") }
    #expect(!entries().contains { $0.hasPrefix(StagedFolder.prefix) })
  }

  @Test func aLinkedDestinationStaysALink() throws {
    let real = try earlierOutputs(in: "real")
    try FileManager.default.createSymbolicLink(atPath: files.directory + "/out", withDestinationPath: real)
    let staged = try StagedFolder(destination: files.directory + "/out")
    stageOutputs(staged)
    try staged.commit(["plot.svg", "report.md", "results.json"], removing: ["stale.svg"])
    var status = stat()
    #expect(lstat(files.directory + "/out", &status) == 0 && status.st_mode & S_IFMT == S_IFLNK)
    #expect(read(real + "/results.json") == "new results.json")
    #expect(read(real + "/notes.txt") == "old notes.txt")
    #expect(!FileManager.default.fileExists(atPath: real + "/stale.svg"))
  }

  @Test func aNewDestinationIsTheStagingFolderRenamed() throws {
    let destination = files.directory + "/new/out"
    let staged = try StagedFolder(destination: destination)
    let stagedFolder = try #require(inode(staged.path))
    stageOutputs(staged)
    try staged.commit(["plot.svg", "report.md", "results.json"])
    #expect(inode(destination) == stagedFolder)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: destination).sorted() == [
        "plot.svg", "report.md", "results.json",
      ])
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
