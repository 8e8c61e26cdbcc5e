import Foundation

/// The shipped flights data (`experiments/data/flights.csv.gz`), read once per test process
/// through `gzip -dc`, for tests that plant leaks in real data and write the result to a scratch CSV.
struct FlightsSample {
  /// One flight with an arrival delay (the rows the flagship keeps), with the columns the tests use.
  struct Flight {
    var month: Int
    var day: Int
    var schedDepTime: Int
    var distance: Int
    var depDelay: Int
    var arrDelay: Int
    var minute: Int
    var timeHour: String
    /// Seconds since 1970 of `timeHour`.
    var time: Double

    var late: Int { arrDelay > 15 ? 1 : 0 }
  }

  /// Every flight with an arrival delay, in file order (not time order).
  static let all: [Flight] = {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["gzip", "-dc", Scratch.shippedData("flights.csv.gz")]
    let pipe = Pipe()
    process.standardOutput = pipe
    try! process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let formatter = ISO8601DateFormatter()
    var flights: [Flight] = []
    var header: [String: Int] = [:]
    for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
      let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      if header.isEmpty {
        for (index, name) in fields.enumerated() { header[name] = index }
        continue
      }
      func int(_ name: String) -> Int? { Int(fields[header[name]!]) }
      guard let arrDelay = int("arr_delay"), let depDelay = int("dep_delay") else { continue }
      let timeHour = fields[header["time_hour"]!]
      flights.append(
        Flight(
          month: int("month")!, day: int("day")!, schedDepTime: int("sched_dep_time")!, distance: int("distance")!,
          depDelay: depDelay, arrDelay: arrDelay, minute: int("minute")!, timeHour: timeHour,
          time: formatter.date(from: timeHour)!.timeIntervalSince1970))
    }
    return flights
  }()

  /// Every `step`-th flight, in file order.
  static func every(_ step: Int) -> [Flight] {
    stride(from: 0, to: all.count, by: step).map { all[$0] }
  }

  /// A CSV of `flights` with the flagship's columns plus `extra` ones (name, value per row index).
  static func csv(_ flights: [Flight], extra: [(name: String, value: (Int) -> String)] = []) -> String {
    var text = "month,day,sched_dep_time,distance,dep_delay,arr_delay,minute,time_hour"
    text += extra.map { ",\($0.name)" }.joined() + "\n"
    for (index, flight) in flights.enumerated() {
      text += "\(flight.month),\(flight.day),\(flight.schedDepTime),\(flight.distance),\(flight.depDelay),"
      text += "\(flight.arrDelay),\(flight.minute),\(flight.timeHour)"
      text += extra.map { ",\($0.value(index))" }.joined() + "\n"
    }
    return text
  }

  /// The flagship's spec over `data.csv`, with other features or audit settings.
  static func spec(
    name: String, features: String = "[month, day, sched_dep_time, distance]", extra: String = "",
    models: String = "[LR, LDA, KNN, DT, NB]"
  ) -> String {
    """
    name: \(name)
    data: {path: data.csv, missing: drop}
    target: {column: arr_delay, when: "> 15"}
    time: time_hour
    features: \(features)
    resampling: {method: kfold, folds: 10}
    models: \(models)
    \(extra)
    """
  }
}

/// SplitMix64, for planting leaks at the same rows on every run.
struct PlantingGenerator {
  var state: UInt64

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// True with probability `p`.
  mutating func chance(_ p: Double) -> Bool { Double(next() >> 11) / Double(1 << 53) < p }

  mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}
