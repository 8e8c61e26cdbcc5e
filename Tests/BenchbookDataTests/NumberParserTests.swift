import BenchbookData
import Testing

@Suite struct NumberParserTests {
  /// Each must equal Swift's own correctly rounded conversion bit for bit,
  /// including cases where a naive digit-by-digit parse rounds wrongly.
  @Test(arguments: [
    "0", "-0", "+4", "1e5", "-3.25", "3.", ".5", "0.1", "0.3", "1E+05", "2.5e-3", "123456789012",
    "9007199254740993", "9007199254740992", "1e23", "8.98846567431158e307", "2.2250738585072014e-308",
    "4.9e-324", "1.7976931348623157e308", "123456789012345678901234567890", "0.000000000000000000000123",
    "3.141592653589793238462643383279", "1e-22", "1e22", "123e-20", "0.1000000000000000055511151231257827",
    "  42  ", "007",
  ])
  func agreesWithCorrectRounding(text: String) throws {
    let expected = try #require(Double(text.strippingSpaces()))
    let parsed = try #require(NumberParser.parse(text))
    #expect(parsed.bitPattern == expected.bitPattern, "\(text)")
  }

  @Test(arguments: [
    "", " ", "abc", "1e", "1e+", "--1", "+-1", "1.2.3", "inf", "nan", "NaN", "0x10", "1,000", "1 2", ".", "-", "e5",
    "1_000", "12a",
  ])
  func rejectsNonNumbers(text: String) {
    #expect(NumberParser.parse(text) == nil, "\(text)")
  }

  @Test func missingTokens() {
    for token in ["", "NA", "N/A", "NaN", "nan", "null", "NULL"] {
      #expect(MissingValue.isMissing(token), "\(token)")
    }
    for text in ["na", "Na", "None", " NA", "0", "-", "NULLS"] {
      #expect(!MissingValue.isMissing(text), "\(text)")
    }
    #expect(MissingValue.tokens.count == 7)
  }
}

extension String {
  fileprivate func strippingSpaces() -> String {
    String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
  }
}
