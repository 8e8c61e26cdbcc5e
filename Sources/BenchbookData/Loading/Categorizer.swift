/// Turns category values into codes, ordered the way `np.unique` orders them
/// so one-hot columns and class indices line up with scikit-learn.
struct CategoryCoding {
  /// Category labels in code order.
  var categories: [String]
  /// The code of each row given, in the order given.
  var codes: [Int]

  /// The coding with `category` among the categories, in the place the categories' order gives it (by value
  /// when all are numbers, else by UTF-8 bytes), codes renumbered; unchanged when it is there already.
  func including(_ category: String) -> CategoryCoding {
    guard !categories.contains(category) else { return self }
    let numbers = categories.compactMap(Double.init)
    let position: Int
    if let value = Double(category), numbers.count == categories.count {
      position = numbers.firstIndex { $0 > value } ?? categories.count
    } else {
      position =
        categories.firstIndex { Array($0.utf8).lexicographicallyPrecedes(Array(category.utf8)) == false }
        ?? categories.count
    }
    var extended = categories
    extended.insert(category, at: position)
    return CategoryCoding(categories: extended, codes: codes.map { $0 >= position ? $0 + 1 : $0 })
  }
}

enum Categorizer {
  /// Codes the cells of `rows`. When every one of them is a number, categories
  /// are ordered by value and cells equal in value (`1`, `1.0`) share a
  /// category named as first written; otherwise by the UTF-8 bytes, which is
  /// Unicode code point order, as numpy compares strings.
  static func code(_ column: TextColumn, profile: ColumnProfile, rows: [Int]) -> CategoryCoding {
    if rows.allSatisfy({ !profile.numbers[$0].isNaN }) {
      return column.withCells { cells in
        code(values: rows.map { profile.numbers[$0] }) { index in
          String(decoding: cells[rows[index]], as: UTF8.self).trimmingSpaces()
        }
      }
    }
    var interner = ByteInterner()
    let ids = column.withCells { cells in rows.map { interner.id(of: cells[$0]) } }
    let order = (0..<interner.count).sorted { interner.bytes($0).lexicographicallyPrecedes(interner.bytes($1)) }
    var rank = [Int](repeating: 0, count: interner.count)
    for (position, id) in order.enumerated() { rank[id] = position }
    return CategoryCoding(categories: order.map { interner.string($0) }, codes: ids.map { rank[$0] })
  }

  /// Codes numbers by value; a category is named by `label(i)` of the first
  /// row `i` holding its value (by default the number printed briefly: `3`, `2.5`).
  static func code(values: [Double], label: ((Int) -> String)? = nil) -> CategoryCoding {
    var groupOfValue: [Double: Int] = [:]
    var groups: [Int] = []
    groups.reserveCapacity(values.count)
    var distinct: [Double] = []
    var firstRowOfGroup: [Int] = []
    for (row, value) in values.enumerated() {
      if let group = groupOfValue[value] {
        groups.append(group)
      } else {
        groupOfValue[value] = distinct.count
        groups.append(distinct.count)
        distinct.append(value)
        firstRowOfGroup.append(row)
      }
    }
    let order = distinct.indices.sorted { distinct[$0] < distinct[$1] }
    var rank = [Int](repeating: 0, count: distinct.count)
    for (position, group) in order.enumerated() { rank[group] = position }
    let categories = order.map { group in label?(firstRowOfGroup[group]) ?? formatNumber(distinct[group]) }
    return CategoryCoding(categories: categories, codes: groups.map { rank[$0] })
  }

  /// `3` rather than `3.0` for whole numbers, Swift's shortest form otherwise.
  static func formatNumber(_ value: Double) -> String {
    if value == value.rounded() && abs(value) < 1e15 { return String(Int(value)) }
    return "\(value)"
  }
}

extension String {
  func trimmingSpaces() -> String {
    var scalars = Substring(self)
    while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
    while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
    return String(scalars)
  }
}
