import Foundation

/// The one way Benchbook's files and worker messages turn Swift values into JSON keys and back: a property's key is
/// the snake_case of its name (`testRows` is `test_rows`), so a type declares no `CodingKeys` unless some key is not
/// that. Such a type lists its keys, and writes an irregular one as the camelCase the strategy turns into it:
/// `case latencyMicroseconds = "latencyUs"` is `latency_us`. Dictionary keys (settings, column names) are kept as
/// they are.
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
}
