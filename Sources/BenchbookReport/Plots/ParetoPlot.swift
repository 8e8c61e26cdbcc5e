import BenchbookEvaluation
import BenchbookExport

/// Every configuration a tuned model tried, and every untuned model, by flat log-loss against what it costs an app
/// (the file size in the budget's format, Core ML by default, or one-row latency), with the front nothing beats for its cost. It shows what a budget gives
/// up, and whether tuning moved a model towards the front or only along it.
struct ParetoPlot: ReportPlot {
  enum Cost: Sendable { case size, latency }

  let cost: Cost

  var id: String { cost == .size ? "pareto-size" : "pareto-latency" }
  var title: String {
    cost == .size ? "Every configuration: log-loss against model size" : "Every configuration: log-loss against latency"
  }
  /// Latency is measured on this machine, and changes from run to run.
  var showsTimings: Bool { cost == .latency }

  /// One configuration, or one untuned model.
  struct Point {
    var x: Double
    var y: Double
    /// Index in the ranked models, so each model keeps the colour and mark it has in every plot.
    var model: Int
    var isFinal = false
    var isDefault = false
  }

  func applies(to results: ExperimentResults) -> Bool {
    results.models.contains { $0.tuning != nil }
      && !points(RankedTable.rank(results.models), format: results.budget?.sizeFormat ?? "coreml").isEmpty
  }

  func script(_ results: ExperimentResults, output: String) -> GnuplotScript {
    let models = RankedTable.rank(results.models)
    let styles = ModelSeries.styleIndices(results)
    let points = points(models, format: results.budget?.sizeFormat ?? "coreml")
    let limit: Double? =
      cost == .size ? results.budget?.modelSizeBytes.map(Double.init) : results.budget?.latencyMicrosecondsP99
    let x = LogAxis(points.map(\.x) + (limit.map { [$0] } ?? []))
    let y = LogAxis(points.map(\.y))
    let format = results.budget?.sizeFormat ?? "coreml"
    let heading =
      cost == .size
      ? "\(ExportFormats.named(format)?.name ?? format) file size" : "one-row latency (99th percentile)"
    var script = GnuplotScript(
      text: GnuplotScript.preamble(
        output: output, title: "Flat log-loss against \(heading), every configuration (lower left is better)",
        width: 860, height: 480))
    script.text += """
      set logscale xy
      set xlabel \(GnuplotScript.quoted("\(heading) (log scale)"))
      set ylabel "flat log-loss (nats, log scale)"

      """
    script.text += x.gnuplot("x") { cost == .size ? Format.bytes(Int($0.rounded())) : Format.microseconds($0) }
    script.text += y.gnuplot("y", label: Format.number)

    var series: [String] = []
    var blocks: [[[Double]]] = []
    for (index, model) in models.enumerated() {
      let own = points.filter { $0.model == index }.map { [$0.x, $0.y] }
      guard !own.isEmpty else { continue }
      series.append(
        "with points ps 1.3 \(GnuplotScript.style(styles[model.label]!)) title \(GnuplotScript.quoted(model.label))")
      blocks.append(own)
    }
    let front = Self.front(points)
    if let last = front.last {
      // The step line holds each best score until a bigger (or slower) configuration beats it.
      series.append("with steps lw 2 lc rgb \"#444444\" dt 1 title \"Pareto front\"")
      blocks.append(front.map { [$0.x, $0.y] } + [[x.ends.high, last.y]])
    }
    let finals = points.filter(\.isFinal)
    if !finals.isEmpty {
      series.append("with points pt 6 ps 3 lw 1.5 lc rgb \"#111111\" title \"final (shipped)\"")
      blocks.append(finals.map { [$0.x, $0.y] })
    }
    let defaults = points.filter(\.isDefault)
    if !defaults.isEmpty {
      series.append("with points pt 4 ps 2.4 lw 1 lc rgb \"#888888\" title \"defaults\"")
      blocks.append(defaults.map { [$0.x, $0.y] })
    }
    if let limit {
      let name = cost == .size ? Format.bytes(Int(limit)) : Format.microseconds(limit)
      series.append("with lines dt 2 lw 1.5 lc rgb \"#000000\" title \(GnuplotScript.quoted("budget (\(name))"))")
      blocks.append([[limit, y.ends.low], [limit, y.ends.high]])
    }
    script.text += "plot " + series.map { "'-' using 1:2 " + $0 }.joined(separator: ", \\\n  ") + "\n"
    script.blocks = blocks
    return script
  }

  /// Every point the results can place on this cost axis: all configurations of a tuned model (and its defaults,
  /// when the grid does not hold them and their cost is known), the one fit of an untuned model.
  /// - Parameter format: the format whose file size is the cost (the budget's).
  func points(_ models: [ModelResult], format: String) -> [Point] {
    var points: [Point] = []
    for (index, model) in models.enumerated() {
      guard let tuning = model.tuning else {
        let x = cost == .size ? model.sizeBytes(in: format).map(Double.init) : model.latencyMicroseconds?.p99
        if let x, let y = model.logLoss.mean { points.append(Point(x: x, y: y, model: index)) }
        continue
      }
      for (position, configuration) in tuning.configurations.enumerated() {
        let x =
          cost == .size
          ? configuration.sizeBytes(in: format).map(Double.init) : configuration.latencyMicroseconds?.p99
        guard let x, let y = configuration.flatLogLoss.mean else { continue }
        points.append(
          Point(
            x: x, y: y, model: index, isFinal: position == tuning.finalConfiguration,
            isDefault: position == tuning.defaults.configuration))
      }
      // Defaults outside the grid were scored once more; their latency was not measured.
      if tuning.defaults.configuration == nil, cost == .size, let size = tuning.defaults.sizeBytes(in: format),
        let y = tuning.defaults.flatLogLoss.mean
      {
        points.append(Point(x: Double(size), y: y, model: index, isDefault: true))
      }
    }
    return points.filter { $0.x > 0 && $0.x.isFinite && $0.y.isFinite }.map {
      var point = $0
      point.y = max(point.y, 1e-12)
      return point
    }
  }

  /// The points no other point beats at the same or lower cost, cheapest first: the lowest log-loss affordable at
  /// each cost.
  static func front(_ points: [Point]) -> [Point] {
    var front: [Point] = []
    for point in points.sorted(by: { ($0.x, $0.y) < ($1.x, $1.y) }) where point.y < (front.last?.y ?? .infinity) {
      front.append(point)
    }
    return front
  }
}
