import Foundation
import Testing

/// Public data as it comes (`Fixtures/realdata/`, provenance in its README): each file runs with no edit,
/// and gives what scikit-learn gives on the file as published (`make_realdata.py` made the goldens), or what
/// Benchbook gives on the same data in another dialect, to the bit.
@Suite struct RealDataTests {
  static let folder = BenchbookBinary.packageRoot.appendingPathComponent("Tests/EndToEndTests/Fixtures/realdata")

  struct Goldens: Decodable {
    struct Case: Decodable {
      var `case`: String
      var rows: Int
      var models: [String: [Double]]
    }
    var cases: [Case]

    static let shared: Goldens = {
      let url = RealDataTests.folder.appendingPathComponent("realdata-goldens.json")
      return try! JSONDecoder().decode(Goldens.self, from: Data(contentsOf: url))
    }()

    static func named(_ name: String) -> Case { shared.cases.first { $0.case == name }! }
  }

  /// Runs a spec of the fixture folder; the results and the report.
  func run(_ spec: String, scratch: Scratch) throws -> (ResultsJSON, String) {
    let output = try BenchbookBinary.run(
      ["run", Self.folder.appendingPathComponent(spec).path, "--quiet", "--out", scratch.path("out")])
    #expect(output.status == 0, "\(spec): \(output.stderr)")
    return (
      try ResultsJSON(path: scratch.path("out/results.json")),
      try String(contentsOfFile: scratch.path("out/report.md"), encoding: .utf8)
    )
  }

  func expectFolds(_ actual: [Double], _ expected: [Double], relative tolerance: Double, _ what: String) {
    #expect(actual.count == expected.count, "\(what): fold count")
    for (fold, (a, e)) in zip(actual, expected).enumerated() {
      #expect(abs(a - e) <= tolerance * abs(e), "\(what) fold \(fold): \(a) vs scikit-learn \(e)")
    }
  }

  func data(_ results: ResultsJSON) -> [String: Any] { results.object["data"] as! [String: Any] }

  @Test func seattleWeatherWithItsOwnDateFormat() throws {
    let (results, report) = try run("seattle-weather.yaml", scratch: try Scratch())
    let golden = Goldens.named("seattle-weather time-series 5")
    #expect(data(results)["rows"] as? Int == golden.rows)
    for model in ["LDA", "NB"] {
      expectFolds(results.foldLogLoss(model), golden.models[model]!, relative: 1e-6, "seattle \(model)")
    }
    #expect(data(results)["formats"] as? [String: String] == ["date": "%Y/%m/%d"])
    let time = data(results)["time"] as? [String: String]
    #expect(time?["first"] == "2012-01-01T00:00:00Z")
    #expect(time?["last"] == "2015-12-31T00:00:00Z")
    #expect(report.contains("Timestamps read with declared formats: `date` as `%Y/%m/%d` (UTC)."))
  }

  @Test func anRdatasetsFileWithItsRowNames() throws {
    let (results, report) = try run("mtcars.yaml", scratch: try Scratch())
    let golden = Goldens.named("mtcars stratified 4")
    for model in ["LDA", "NB"] {
      expectFolds(results.foldLogLoss(model), golden.models[model]!, relative: 1e-6, "mtcars \(model)")
    }
    #expect(data(results)["row_names"] as? [String: String] == ["header": "", "writer": "R"])
    #expect(
      data(results)["features"] as? [String]
        == ["mpg", "cyl", "disp", "hp", "drat", "wt", "qsec", "gear", "carb"], "all_except [vs]: the rest in file order"
    )
    #expect(report.contains("The file's unnamed first column holds R's row names; it was skipped."))
  }

  /// The usual scikit-learn pipeline: numeric columns standardised, one-hot columns left as 0 and 1.
  @Test func numericOnlyStandardisationIsScikitLearnsColumnTransformer() throws {
    let (results, report) = try run("penguins.yaml", scratch: try Scratch())
    let golden = Goldens.named("penguins stratified 5 numeric standardized")
    #expect(data(results)["rows"] as? Int == golden.rows)
    expectFolds(results.foldLogLoss("LR"), golden.models["LR-converged"]!, relative: 1e-4, "penguins LR")
    let steps = results.object["preprocessing"] as? [[String: Any]]
    #expect(steps?.first?["columns"] as? String == "numeric")
    #expect(
      steps?.first?["unchanged"] as? [String]
        == ["island=Biscoe", "island=Dream", "island=Torgersen", "sex=female", "sex=male"])
    #expect(results.object["preprocess"] as? [String] == ["standardize"], "the existing key keeps its meaning")
    for model in results.models {
      #expect(model["coreml_error"] == nil, "\(model["label"]!) exports")
      #expect((model["model_size_bytes"] as? Int ?? 0) > 0)
    }
    #expect(report.contains("standardize the numeric features"))
  }

  /// A European spreadsheet's file and a TSV of the same penguins give penguins.csv's scores to the bit.
  @Test func aEuropeanSpreadsheetAndATSVReadAsThePublishedFile() throws {
    let (published, _) = try run("penguins.yaml", scratch: try Scratch())
    let (european, europeanReport) = try run("penguins-eu.yaml", scratch: try Scratch())
    let (tabbed, _) = try run("penguins-tsv.yaml", scratch: try Scratch())
    for model in ["LR", "LDA", "NB"] {
      #expect(european.foldLogLoss(model) == published.foldLogLoss(model), "\(model), ; and ,")
      #expect(tabbed.foldLogLoss(model) == published.foldLogLoss(model), "\(model), tabs")
    }
    for other in [european, tabbed] {
      #expect(data(other)["columns"] as? [String] == data(published)["columns"] as? [String])
      #expect(data(other)["rows"] as? Int == 333)
    }
    let dialect = data(european)["dialect"] as? [String: Any]
    #expect(dialect?["delimiter"] as? String == ";")
    #expect(dialect?["decimal"] as? String == ",")
    #expect(dialect?["header"] as? Bool == true)
    #expect(data(tabbed)["dialect"] == nil, "a .tsv read with tabs is its name's default")
    #expect(data(published)["dialect"] == nil)
    #expect(europeanReport.contains("Read as semicolon-separated text with decimal commas."))
  }

  /// 64 pixel columns without a list of 64 names: the same scores as the list.
  @Test func aWideTableViaAllExcept() throws {
    let scratch = try Scratch()
    let digits = BenchbookBinary.packageRoot.appendingPathComponent("Tests/EndToEndTests/Fixtures/digits.csv.gz").path
    let common =
      "data: {path: \(digits)}\ntarget: digit\nresampling: {method: stratified-kfold, folds: 5}\n"
      + "models: [NB]\naudit: {skip: [suspect-leak, cross-fold-duplicates]}\n"
    let listed = try scratch.write(
      "listed.yaml", "name: listed\n" + common + "features: [\((0..<64).map { "p\($0)" }.joined(separator: ", "))]\n")
    let wide = try scratch.write("wide.yaml", "name: wide\n" + common + "features: {all_except: []}\n")
    for (spec, out) in [(listed, "listed"), (wide, "wide")] {
      let output = try BenchbookBinary.run(["run", spec, "--quiet", "--out", scratch.path(out)])
      #expect(output.status == 0, "\(output.stderr)")
    }
    let a = try ResultsJSON(path: scratch.path("listed/results.json"))
    let b = try ResultsJSON(path: scratch.path("wide/results.json"))
    #expect(b.foldLogLoss("NB") == a.foldLogLoss("NB"))
    #expect((b.object["data"] as! [String: Any])["features"] as? [String] == (0..<64).map { "p\($0)" })
  }

  /// Penguins with every row: the measurements by the training fold's median with missing indicators, sex by its
  /// most frequent value, as scikit-learn's `SimpleImputer` and `MissingIndicator` in the same column order.
  @Test func penguinsImputedInsteadOfDropped() throws {
    let (results, report) = try run("penguins-impute.yaml", scratch: try Scratch())
    let golden = Goldens.named("penguins impute median indicator")
    #expect(data(results)["rows"] as? Int == 344, "no row dropped")
    #expect(data(results)["dropped_rows"] as? Int == 0)
    expectFolds(results.foldLogLoss("LR"), golden.models["LR-converged"]!, relative: 1e-4, "penguins LR")
    for model in ["LDA", "NB"] {
      expectFolds(results.foldLogLoss(model), golden.models[model]!, relative: 1e-6, "penguins \(model)")
    }
    let imputed = results.object["imputation"] as? [[String: Any]] ?? []
    let sex = imputed.first { $0["feature"] as? String == "sex" }
    #expect(sex?["strategy"] as? String == "most_frequent")
    #expect(sex?["missing"] as? Int == 11)
    let bill = imputed.first { $0["feature"] as? String == "bill_length_mm" }
    #expect(bill?["strategy"] as? String == "median")
    #expect(bill?["add_indicator"] as? Bool == true)
    #expect(bill?["missing"] as? Int == 2)
    #expect(results.object["preprocess"] as? [String] == ["impute", "standardize"])
    #expect(report.contains("`sex` (11 of 344 rows) with the training fold's most frequent value"))
    #expect(report.contains("`bill_length_mm` (2 of 344 rows) with the training fold's median and a missing indicator"))
  }

  /// The impute hint for a text column with missing values is one the next run accepts: `most_frequent`, never a
  /// median (which fills only numbers).
  @Test func theImputeHintForATextColumnRuns() throws {
    let scratch = try Scratch()
    try FileManager.default.copyItem(
      at: Self.folder.appendingPathComponent("penguins.csv"), to: scratch.url.appendingPathComponent("penguins.csv"))
    let spec = "name: hint\ndata: {path: penguins.csv}\ntarget: species\nfeatures: [sex]\nmodels: [NB]\n"
    let refused = try BenchbookBinary.run(
      ["run", try scratch.write("spec.yaml", spec), "--quiet", "--out", scratch.path("out")], in: scratch.url)
    #expect(refused.status == 1)
    let hinted = "preprocess: [{impute: {strategy: most_frequent}}]"
    #expect(refused.stderr.contains("`\(hinted)`"), "\(refused.stderr)")
    let followed = try BenchbookBinary.run(
      ["run", try scratch.write("followed.yaml", spec + hinted + "\n"), "--quiet", "--out", scratch.path("out")],
      in: scratch.url)
    #expect(followed.status == 0, "\(followed.stderr)")
  }

  /// ggplot2's movies, budget missing in 93% of the sample: every row kept, budget imputed with an indicator and
  /// the MPAA rating given a category of its own, each under its feature's entry.
  @Test func moviesKeepEveryRowWithABudgetIndicator() throws {
    let (results, report) = try run("movies.yaml", scratch: try Scratch())
    let golden = Goldens.named("movies impute budget median indicator")
    #expect(data(results)["rows"] as? Int == 600)
    expectFolds(results.foldLogLoss("LR"), golden.models["LR-converged"]!, relative: 1e-4, "movies LR")
    for model in ["LDA", "NB"] {
      expectFolds(results.foldLogLoss(model), golden.models[model]!, relative: 1e-6, "movies \(model)")
    }
    #expect((data(results)["columns"] as? [String])?.contains("mpaa=unrated") == true, "the constant's category")
    let imputed = results.object["imputation"] as? [[String: Any]] ?? []
    #expect(imputed.map { $0["feature"] as? String } == ["budget", "mpaa"], "only the features that ask")
    #expect(imputed.first?["missing"] as? Int == 558)
    #expect(imputed.last?["fill_value"] as? String == "unrated")
    #expect(report.contains("`budget` (558 of 600 rows) with the training fold's median and a missing indicator"))
    #expect(report.contains("`mpaa` (558 of 600 rows) with the constant `unrated`"))
  }

  /// Missingness that gives the answer away is screened like any feature: `flag` is missing exactly in the rows
  /// of class 1, so imputed with its indicator it is nearly sufficient alone, and the audit warns about it.
  @Test func theAuditScreensAMissingnessLeak() throws {
    let scratch = try Scratch()
    var generator = SplitMix(seed: 5)
    var csv = "x,z,flag,y\n"
    for _ in 0..<300 {
      let positive = generator.next() % 2 == 1
      let x = generator.unit() + (positive ? 0.3 : 0)
      csv += "\(x),\(generator.unit()),\(positive ? "" : "\(generator.unit())"),\(positive ? 1 : 0)\n"
    }
    _ = try scratch.write("leak.csv", csv)
    let spec = try scratch.write(
      "leak.yaml",
      """
      name: leak
      data: {path: leak.csv}
      target: y
      features: [x, z, flag]
      preprocess: [{impute: {strategy: median, add_indicator: true}}, standardize]
      resampling: {method: stratified-kfold, folds: 5}
      models: [LR, NB]

      """)
    let output = try BenchbookBinary.run(["run", spec, "--quiet", "--out", scratch.path("out")], in: scratch.url)
    #expect(output.status == 0, "\(output.stderr)")
    let report = try String(contentsOfFile: scratch.path("out/report.md"), encoding: .utf8)
    #expect(report.contains("Warning: `flag` is suspiciously predictive"), "\(report.prefix(3000))")
    #expect(!report.contains("Warning: `x`") && !report.contains("Warning: `z`"))
  }

  /// A small deterministic generator for the test's data.
  struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
    /// Uniform on [-1, 1), to three decimals.
    mutating func unit() -> Double { (Double(next() % 2000) - 1000) / 1000 }
  }

  /// Mistakes with the new keys end in one located message, exit status 1, and no results.
  @Test(arguments: [
    (
      "data: {path: penguins.csv, decimal: \",\"}\ntarget: species\nfeatures: [sex]",
      "spec.yaml:2:", "data.decimal: a decimal comma cannot be told from the delimiter"
    ),
    (
      "data: {path: seattle-weather.csv}\ntarget: weather\ntime: {column: date, format: \"%d/%m/%Y\"}\nfeatures: [wind]",
      "seattle-weather.csv:2: column 'date': '2012/01/01' does not match the format '%d/%m/%Y' declared at ",
      "spec.yaml:4:30: expected '/' at character 3 ('1')"
    ),
    (
      "data: {path: seattle-weather.csv}\ntarget: weather\ntime: date\nfeatures: [wind]",
      "seattle-weather.csv:2: column 'date': '2012/01/01' is not a timestamp", "format: \"%Y/%m/%d\"}"
    ),
    (
      "data: {path: penguins-eu.csv}\ntarget: species\nfeatures: [sex]", "penguins-eu.csv:1:",
      "declare it with `data: {delimiter: \";\"}`"
    ),
    (
      "data: {path: penguins.csv}\ntarget: species\nfeatures: {all_except: [yaer]}", "spec.yaml:4:",
      "unknown column 'yaer' in penguins.csv; did you mean 'year'?"
    ),
    (
      "data: {path: penguins.csv}\ntarget: species\nfeatures: [sex]", "penguins.csv:5: column 'sex': missing value",
      "or impute them inside the folds with `preprocess: [{impute: {strategy: most_frequent}}]` (the column is "
        + "categorical"
    ),
    (
      "data: {path: penguins.csv}\ntarget: species\nfeatures: [sex]\npreprocess: [{impute: {strategy: median}}]",
      "spec.yaml:5:23: feature 'sex' is categorical and misses 11 values, which strategy median cannot fill",
      "give it `impute: {strategy: most_frequent}`"
    ),
    (
      "data: {path: penguins.csv}\ntarget: species\nfeatures: [bill_length_mm]\n"
        + "preprocess: [{impute: {strategy: constant, fill_value: none}}]",
      "spec.yaml:5:23:", "its constant fill_value must be a finite number, not 'none'"
    ),
    (
      "data: {path: penguins.csv}\ntarget: species\nfeatures: [sex]\npreprocess: [{impute: {strategy: mode}}]",
      "spec.yaml:5:34:", "'mode' is not an imputation strategy"
    ),
  ])
  func mistakesAreLocated(spec: String, location: String, fragment: String) throws {
    let scratch = try Scratch()
    for file in ["penguins.csv", "penguins-eu.csv", "seattle-weather.csv"] {
      try FileManager.default.copyItem(
        at: Self.folder.appendingPathComponent(file), to: scratch.url.appendingPathComponent(file))
    }
    let path = try scratch.write("spec.yaml", "name: bad\n" + spec + "\n")
    let output = try BenchbookBinary.run(["run", path, "--quiet", "--out", scratch.path("out")], in: scratch.url)
    #expect(output.status == 1, "\(output.stderr)")
    #expect(output.stderr.contains(location), "\(output.stderr)")
    #expect(output.stderr.contains(fragment), "\(output.stderr)")
    #expect(!scratch.exists("out/results.json"))
  }
}
