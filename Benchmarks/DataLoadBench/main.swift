// Hand-run benchmark of Dataset.load on the flights data (not a test; not a
// package target, so it never slows the build). To run it, add temporarily to
// Package.swift's targets:
//
//   .executableTarget(name: "DataLoadBench", dependencies: ["BenchbookData"],
//                     path: "Benchmarks/DataLoadBench", exclude: ["verify_flights.py"]),
//
// then:
//
//   swift build -c release --product DataLoadBench
//   /usr/bin/time -f "%e s, %M KB peak RSS" .build/release/DataLoadBench \
//       ../shared/datasets/flights.csv.gz numeric 1
//
// Scenarios: numeric (month, day, sched_dep_time, distance), categorical
// (+ origin, carrier), expression (+ hour(time_hour), dep_time - sched_dep_time),
// all, phases (read / SHA-256 / gunzip / CSV separately). Target arr_delay > 15,
// time column time_hour, missing: drop. The third argument repeats the load and
// reports the best time (peak RSS then covers two datasets alive at once).
// `python3 verify_flights.py` prints pandas' figures for the same data.
import BenchbookData

#if canImport(Glibc)
  import Glibc
#endif

func now() -> Double {
  var t = timespec()
  clock_gettime(CLOCK_MONOTONIC, &t)
  return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
}

func milliseconds(_ seconds: Double) -> String { "\(Int((seconds * 1000).rounded())) ms" }

let arguments = CommandLine.arguments
let path = arguments.count > 1 ? arguments[1] : "../shared/datasets/flights.csv.gz"
let scenario = arguments.count > 2 ? arguments[2] : "numeric"
let repeats = arguments.count > 3 ? Int(arguments[3]) ?? 1 : 1
let here = SourceLocation(file: "bench.yaml", line: 1)

func columns(_ names: [String]) -> [FeatureDefinition] {
  names.map { FeatureDefinition(name: $0, source: .column($0), location: here) }
}
let derived = [
  FeatureDefinition(name: "hour", source: .expression("hour(time_hour)"), location: here),
  FeatureDefinition(name: "dep_gap", source: .expression("dep_time - sched_dep_time"), location: here),
]
var features = columns(["month", "day", "sched_dep_time", "distance"])
switch scenario {
case "numeric": break
case "categorical": features += columns(["origin", "carrier"])
case "expression": features += derived
case "all": features += columns(["origin", "carrier"]) + derived
case "phases":
  for _ in 0..<max(repeats, 1) {
    let t0 = now()
    let bytes = try DataFile.storedBytes(atPath: path)
    let t1 = now()
    let digest = SHA256.hexDigest(bytes)
    let t2 = now()
    let raw = Gzip.isCompressed(bytes) ? try Gzip.decompress(bytes, path: path) : bytes
    let t3 = now()
    let reader = try CSVReader(bytes: raw, path: path)
    let table = try reader.read(columns: ["arr_delay", "month", "day", "sched_dep_time", "distance", "time_hour"])
    let t4 = now()
    print(
      "read \(milliseconds(t1 - t0)), sha256 \(milliseconds(t2 - t1)) (\(digest.prefix(12))…),",
      "gunzip \(milliseconds(t3 - t2)) (\(raw.count) bytes), csv \(milliseconds(t4 - t3)) (\(table.rowCount) rows)")
  }
  exit(0)
default:
  print("unknown scenario \(scenario)")
  exit(2)
}

let definition = DatasetDefinition(
  path: path, pathLocation: here, missing: .drop,
  target: TargetDefinition(column: ColumnReference(column: "arr_delay", location: here), when: Threshold(.greater, 15)),
  features: features, time: ColumnReference(column: "time_hour", location: here))
var best = Double.infinity
var loaded: Dataset?
for _ in 0..<max(repeats, 1) {
  let start = now()
  loaded = try Dataset.load(definition)
  best = min(best, now() - start)
}
let data = loaded!
print("\(scenario): best of \(repeats) loads \(milliseconds(best))")
print("rows \(data.x.rows), columns \(data.x.columns), classes \(data.classes), class 1: \(data.labels.reduce(0, +))")
print("provenance \(data.provenance)")
for (index, name) in data.columnNames.enumerated() {
  let column = data.x.column(index)
  print("  \(name): sum \(column.reduce(0, +)), first \(Array(column.prefix(3))), last \(column.last ?? .nan)")
}
print("time: first \(data.time?.first ?? .nan), last \(data.time?.last ?? .nan)")
