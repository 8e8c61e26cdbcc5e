import BenchbookData
import Testing

@Suite struct SuggestionTests {
  @Test func suggestsTheNearestName() {
    #expect(Suggestion.closest(to: "arr_dela", among: ["dep_delay", "arr_delay", "arr_time"]) == "arr_delay")
    #expect(Suggestion.closest(to: "FOLDS", among: ["folds", "method"]) == "folds")
  }

  @Test func staysQuietForUnrelatedNames() {
    #expect(Suggestion.closest(to: "banana", among: ["month", "day"]) == nil)
    #expect(Suggestion.phrase(for: "banana", among: ["month"]) == "")
  }
}
