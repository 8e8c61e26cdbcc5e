import BenchbookModels
import Foundation
import Testing

@Suite struct ParameterValueTests {
  /// JSON turns 1.0 into `1`; the value must still equal, hash and print as before.
  @Test func numbersSurviveAJSONRoundTrip() throws {
    let original: [String: ParameterValue] = [
      "C": .double(1.0), "tol": .double(1e-12), "k": .int(5), "w": .string("uniform"),
    ]
    let decoded = try JSONDecoder().decode([String: ParameterValue].self, from: JSONEncoder().encode(original))
    #expect(decoded == original)
    #expect(decoded["C"]?.description == "1")
    #expect(ParameterValue.double(2.5).description == "2.5")
    #expect(Set([ParameterValue.int(1), .double(1.0)]).count == 1)
    #expect(ParameterValue.int(1) != .string("1"))
  }
}
