import Foundation
import Testing

/// Every kind of bad input ends in one clear message, exit status 1, and no results.json.
@Suite struct BadInputTests {
  static let goodCSV = "a,b,y\n1,2,x\n3,4,z\n5,6,x\n7,8,z\n9,10,x\n11,12,z\n"

  func spec(data: String = "data.csv", target: String = "y", features: String = "[a, b]", extra: String = "") -> String
  {
    "name: bad\ndata: {path: \(data)}\ntarget: \(target)\nfeatures: \(features)\nresampling: {folds: 2}\n\(extra)"
  }

  /// Runs the spec in a scratch folder and checks the failure contract.
  func expectFailure(spec: String, csv: String? = goodCSV, mentions fragments: [String]) throws {
    let scratch = try Scratch()
    let specPath = try scratch.write("bad.yaml", spec)
    if let csv { try scratch.write("data.csv", csv) }
    let output = try BenchbookBinary.run(["run", specPath, "--out", scratch.path("out"), "--quiet"], in: scratch.url)
    #expect(output.status == 1, "exit status")
    for fragment in fragments {
      #expect(output.stderr.contains(fragment), "stderr should mention \(fragment): \(output.stderr)")
    }
    #expect(!scratch.exists("out/results.json"), "no results.json is left behind")
    #expect(output.stderr.split(separator: "\n").count <= 3, "one clear message, not a dump: \(output.stderr)")
  }

  @Test func missingDataFile() throws {
    try expectFailure(spec: spec(data: "nowhere.csv"), csv: nil, mentions: ["nowhere.csv"])
  }

  @Test func missingSpecFile() throws {
    let output = try BenchbookBinary.run(["run", "/nonexistent/exp.yaml"])
    #expect(output.status == 1)
    #expect(output.stderr.contains("/nonexistent/exp.yaml"))
  }

  @Test func raggedRowNamesItsLine() throws {
    try expectFailure(spec: spec(), csv: "a,b,y\n1,2,x\n3,4,z\n5,6\n7,8,z\n", mentions: ["data.csv:4"])
  }

  @Test func nonNumericValueNamesLineAndColumn() throws {
    let csv = "a,b,y\n1,2,x\n3,4,z\n5,6,x\n7,oops,z\n9,10,x\n11,12,z\n"
    try expectFailure(
      spec: spec(features: "[a, {b: {type: numeric}}]"), csv: csv, mentions: ["data.csv:5", "'b'", "oops"])
  }

  @Test func overflowingNumberNamesLineAndColumn() throws {
    let csv = "a,b,y\n1,2,x\n3,4,z\n5,6,x\n7,1e309,z\n9,10,x\n11,12,z\n"
    try expectFailure(spec: spec(), csv: csv, mentions: ["data.csv:5", "'b'", "'1e309' is too large"])
    let digits = String(repeating: "7", count: 100_000)
    let long = "a,b,y\n1,2,x\n\(digits),4,z\n5,6,x\n7,8,z\n9,10,x\n11,12,z\n"
    try expectFailure(spec: spec(), csv: long, mentions: ["data.csv:3", "'a'", "is too large"])
  }

  @Test func endlessRepeatsAndLongNamesFailBeforeAnyWork() throws {
    let repeats = "resampling: {method: repeated-kfold, folds: 2, repeats: 999999999999}\n"
    let text = "name: bad\ndata: {path: data.csv}\ntarget: y\nfeatures: [a, b]\n\(repeats)"
    try expectFailure(spec: text, mentions: ["bad.yaml:5:", "resampling.repeats", "limit of 100000;", "max_fits"])
    let long = spec().replacingOccurrences(of: "name: bad", with: "name: " + String(repeating: "x", count: 5_000))
    try expectFailure(spec: long, mentions: ["bad.yaml:1:", "name: is 5000 characters long"])
  }

  @Test func unknownColumnSuggestsTheClosest() throws {
    try expectFailure(spec: spec(features: "[a, bb]"), mentions: ["bad.yaml:4", "'bb'", "did you mean 'b'?"])
  }

  @Test func unknownSpecKeyNamesItsLine() throws {
    try expectFailure(
      spec: spec(extra: "modles: [LR]\n"), mentions: ["bad.yaml:6", "modles", "did you mean 'models'?"])
  }

  /// The target listed among its own features is the plainest leak: refused at its line, before any data is read.
  @Test func theTargetIsNeverAFeature() throws {
    try expectFailure(
      spec: spec(features: "[a, y]"), mentions: ["bad.yaml:4", "features: feature 'y' is the target column 'y'"])
    let csv = "a,b,y\n1,2,20\n3,4,5\n5,6,30\n7,8,1\n9,10,40\n11,12,2\n"
    try expectFailure(
      spec: spec(target: "{column: y, when: \"> 15\"}", features: "[a, b, y]"), csv: csv,
      mentions: ["bad.yaml:4", "features: feature 'y' is the column the target binarises (y > 15.0)"])
  }

  @Test func targetWithOneClass() throws {
    try expectFailure(spec: spec(), csv: "a,b,y\n1,2,x\n3,4,x\n5,6,x\n", mentions: ["bad.yaml:3", "single class"])
  }

  @Test func moreFoldsThanRows() throws {
    let text = "name: bad\ndata: {path: data.csv}\ntarget: y\nfeatures: [a, b]\nresampling:\n  folds: 50\n"
    try expectFailure(spec: text, mentions: ["bad.yaml:6", "50 folds", "6"])
  }

  @Test func kBelowOne() throws {
    try expectFailure(spec: spec(extra: "models:\n  - KNN: {k: 0}\n"), mentions: ["bad.yaml:7", "at least 1"])
  }

  @Test func earlierResultsSurviveAFailedRun() throws {
    let scratch = try Scratch()
    try scratch.write("data.csv", Self.goodCSV)
    let good = try scratch.write("good.yaml", spec(extra: "models: [NB]\n"))
    let first = try BenchbookBinary.run(["run", good, "--out", scratch.path("out"), "--quiet"], in: scratch.url)
    #expect(first.status == 0, "\(first.stderr)")
    let before = try String(contentsOfFile: scratch.path("out/results.json"), encoding: .utf8)
    let bad = try scratch.write("bad.yaml", spec(features: "[a, nope]"))
    let second = try BenchbookBinary.run(["run", bad, "--out", scratch.path("out"), "--quiet"], in: scratch.url)
    #expect(second.status == 1)
    #expect(try String(contentsOfFile: scratch.path("out/results.json"), encoding: .utf8) == before)
  }
}
