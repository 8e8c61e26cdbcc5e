import Foundation

/// The one way Benchbook's files (results, baselines, the gate's history) and the timing worker's messages turn
/// Swift values into JSON keys and back: a property's key is the snake_case of its name (`testRows` is
/// `test_rows`), so a type declares no `CodingKeys` unless some key is not that. Such a type lists its keys, and
/// writes an irregular one as the camelCase the strategy turns into it: `case latencyMicroseconds = "latencyUs"` is
/// `latency_us`. Dictionary keys (settings, column names) are kept as they are.
public enum JSONCoding {
  /// An encoder with the snake_case key strategy and `formatting`.
  public static func encoder(_ formatting: JSONEncoder.OutputFormatting = []) -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.keyEncodingStrategy = .convertToSnakeCase
    encoder.outputFormatting = formatting
    return encoder
  }

  /// A decoder with the snake_case key strategy.
  public static func decoder() -> JSONDecoder {
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    return decoder
  }

  /// A coding key as the files spell it: a property's camelCase name in snake_case, as the encoder writes it
  /// (`testRows` is `test_rows`, `rocAuc` is `roc_auc`); a key with no lower-case letter before an upper-case one (a
  /// dictionary's `C`, a key already in snake_case) as it is. For messages that name a key path.
  public static func fileKey(_ key: String) -> String {
    let characters = Array(key)
    guard zip(characters, characters.dropFirst()).contains(where: { $0.isLowercase && $1.isUppercase }) else {
      return key
    }
    var words: [String] = []
    var word = ""
    for (index, character) in characters.enumerated() {
      let previous = index > 0 ? characters[index - 1] : nil
      let next = index + 1 < characters.count ? characters[index + 1] : nil
      // A word starts at an upper-case letter after a lower-case one, or at the last capital of a run before a
      // lower-case letter (`URLValue` is `url_value`).
      let startsWord =
        character.isUppercase
        && (previous?.isLowercase == true || (previous?.isUppercase == true && next?.isLowercase == true))
      if startsWord && !word.isEmpty {
        words.append(word)
        word = ""
      }
      word.append(character)
    }
    words.append(word)
    return words.map { $0.lowercased() }.joined(separator: "_")
  }
}
