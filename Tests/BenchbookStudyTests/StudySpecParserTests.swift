import BenchbookSpec
import Foundation
import Testing

@testable import BenchbookStudy

/// Study files: defaults, globs in a stable order, paths resolved against the study's folder, and the errors.
@Suite struct StudySpecParserTests {
  /// A folder with a data file and experiment specs named as given, each listing `models`.
  final class Folder {
    let url: URL

    init(_ specs: [String: String]) throws {
      url = FileManager.default.temporaryDirectory.appendingPathComponent("benchbook-study-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
      try write("data.csv", "x,label\n1,a\n2,b\n3,a\n4,b\n")
      for (path, models) in specs {
        let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        let depth = path.split(separator: "/").count - 1
        let data = String(repeating: "../", count: depth) + "data.csv"
        try write(path, "name: \(name)\ndata: {path: \(data)}\ntarget: label\nfeatures: [x]\nmodels: \(models)\n")
      }
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
      let file = url.appendingPathComponent(name)
      try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
      try text.write(to: file, atomically: true, encoding: .utf8)
      return file.path
    }
  }

  @Test func globsExpandInByteOrderAfterTheListedOnesWithDefaults() throws {
    let folder = try Folder([
      "a.yaml": "[LR, NB]", "set/Zeta.yaml": "[NB, LR]", "set/alpha.yaml": "[LR, NB]", "set/beta.yaml": "[LR, NB]",
    ])
    let path = try folder.write("studies/s.yaml", "name: s\nexperiments: [../a.yaml, ../set/*.yaml]\n")
    let study = try StudySpecParser.parse(file: path)
    #expect(study.experiments.map(\.spec.name) == ["a", "Zeta", "alpha", "beta"], "'Z' sorts before 'a' by bytes")
    #expect(study.experiments[1].path == folder.url.appendingPathComponent("set/Zeta.yaml").path)
    #expect(study.models == ["LR", "NB"] && !study.modelsFiltered)
    #expect(study.rope == 0.01 && study.alpha == 0.05 && study.metric == .logLoss)
  }

  @Test func aFilterPicksTheCommonLabelsInItsOrder() throws {
    let folder = try Folder(["a.yaml": "[LR, NB, DT]", "b.yaml": "[DT, LR]"])
    let path = try folder.write("s.yaml", "name: s\nexperiments: [a.yaml, b.yaml]\nmodels: [DT, LR]\nrope: 0\n")
    let study = try StudySpecParser.parse(file: path)
    #expect(study.models == ["DT", "LR"] && study.modelsFiltered && study.rope == 0)
  }

  @Test func aFileListedTwiceIsRefused() throws {
    let folder = try Folder(["a.yaml": "[LR, NB]", "b.yaml": "[LR, NB]"])
    let path = try folder.write("s.yaml", "name: s\nexperiments: [a.yaml, b.yaml, ./a.yaml]\n")
    #expect {
      try StudySpecParser.parse(file: path)
    } throws: { error in
      let error = error as! SpecError
      return error.location.line == 2 && error.key == "experiments[2]" && error.message.contains("already in the study")
    }
  }

  @Test func twoExperimentsOfOneNameAreRefused() throws {
    let folder = try Folder(["a.yaml": "[LR, NB]", "other/a.yaml": "[LR, NB]"])
    let path = try folder.write("s.yaml", "name: s\nexperiments: [a.yaml, other/a.yaml]\n")
    #expect(throws: SpecError.self) { try StudySpecParser.parse(file: path) }
  }

  @Test(arguments: [
    ("rope: -1", "must be at least 0"), ("alpha: 1", "between 0 and 1"), ("alpha: x", "expected a number"),
    ("name: ../up", "cannot name a report folder"),
  ])
  func badSettingsAreLocated(line: String, message: String) throws {
    let folder = try Folder(["a.yaml": "[LR, NB]", "b.yaml": "[LR, NB]"])
    let text =
      line.hasPrefix("name:")
      ? "\(line)\nexperiments: [a.yaml, b.yaml]\n" : "name: s\nexperiments: [a.yaml, b.yaml]\n\(line)\n"
    let path = try folder.write("s.yaml", text)
    #expect {
      try StudySpecParser.parse(file: path)
    } throws: { error in
      let error = error as! SpecError
      return error.message.contains(message) && error.location.line != nil
    }
  }

  @Test func pathsNormaliseLexically() {
    #expect(
      StudyPaths.resolve("../iris.yaml", relativeTo: "experiments/studies/classic.yaml") == "experiments/iris.yaml")
    #expect(StudyPaths.resolve("./a/../b.yaml", relativeTo: "s.yaml") == "b.yaml")
    #expect(StudyPaths.resolve("../../x.yaml", relativeTo: "s.yaml") == "../../x.yaml")
    #expect(StudyPaths.resolve("/abs/./x.yaml", relativeTo: "dir/s.yaml") == "/abs/x.yaml")
  }
}
