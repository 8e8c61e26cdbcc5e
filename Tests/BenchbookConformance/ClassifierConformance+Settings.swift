import BenchbookModels
import Testing

/// The settings schema against the configurations it builds: what the spec parser, tuning and help texts read.
extension ClassifierConformance {
  static func schemaDescribesExactlyTheParameters(_ model: ModelDescriptor) throws {
    let schema = model.settingsSchema
    let names = schema.map(\.name)
    #expect(Set(names).count == names.count, "setting names repeat: \(names)")
    // No spelling (name or alias) may stand for two settings, or twice for one.
    let spellings = schema.flatMap(\.spellings)
    #expect(Set(spellings).count == spellings.count, "spellings collide: \(spellings)")
    for setting in schema {
      for spelling in setting.spellings {
        #expect(model.setting(named: spelling) == setting, "'\(spelling)' finds another setting")
      }
    }
    #expect(model.setting(named: "no_such_setting") == nil)

    let classifier = try classifier(model, [:])
    #expect(classifier.descriptor == model)
    let parameters = classifier.parameters
    #expect(Set(parameters.keys) == Set(names), "parameters \(parameters.keys.sorted()) vs schema \(names.sorted())")
    for setting in schema {
      let value = try #require(parameters[setting.name], "no parameter '\(setting.name)'")
      #expect(
        identical(value, setting.defaultValue),
        "\(setting.name): default \(setting.defaultValue) in the schema, \(value) when constructed")
      #expect(fits(setting.defaultValue, setting.type), "\(setting.name): default \(setting.defaultValue)")
      #expect(fits(value, setting.type), "\(setting.name): parameter \(value) is not a \(setting.type)")
    }
  }

  static func aliasesReadAsTheirSetting(_ model: ModelDescriptor) throws {
    for setting in model.settingsSchema where !setting.aliases.isEmpty {
      let value = SettingDescriptor.specText(alternative(to: setting) ?? setting.defaultValue)
      let byName = try classifier(model, [setting.name: value]).parameters
      for alias in setting.aliases {
        let byAlias = try classifier(model, [alias: value]).parameters
        #expect(identical(byAlias, byName), "\(alias): \(value)")
      }
    }
  }

  /// `parameters` written as spec text and read back give the same configuration: the path a tuned model's
  /// chosen configuration takes (`NestedTuning`).
  static func settingsSurviveTheSpecTextRoundTrip(_ model: ModelDescriptor) throws {
    for configuration in Configuration.allCases {
      let original = try classifier(model, configuration.settings(model))
      let text = original.parameters.mapValues(SettingDescriptor.specText)
      let copy = try classifier(model, text)
      #expect(copy.descriptor == model)
      #expect(identical(copy.parameters, original.parameters), "\(configuration): read back from \(text)")
      // And again: the text of the copy is the text of the original.
      #expect(copy.parameters.mapValues(SettingDescriptor.specText) == text, "\(configuration)")
    }
  }

  /// The varied configuration really differs from the defaults in every setting that has another value.
  static func variedConfigurationChangesEverySetting(_ model: ModelDescriptor) throws {
    let parameters = try classifier(model, Configuration.varied.settings(model)).parameters
    for setting in model.settingsSchema {
      let value = try #require(parameters[setting.name])
      guard let chosen = alternative(to: setting) else {
        #expect(identical(value, setting.defaultValue), "\(setting.name) has no other value")
        continue
      }
      #expect(!identical(value, setting.defaultValue), "\(setting.name) stayed at its default")
      if case .word = setting.type {
        // A word may come back in scikit-learn's spelling (`kd-tree` as `kd_tree`).
        #expect(sameWord(value, chosen), "\(setting.name): asked for \(chosen), got \(value)")
      } else {
        #expect(identical(value, chosen), "\(setting.name): asked for \(chosen), got \(value)")
      }
    }
  }

  /// Every option a word setting lists is accepted, and reads as a listed option. Several may read alike:
  /// k-nearest neighbours lists `linear` beside scikit-learn's `brute`, and reports both as `brute`.
  static func everyListedWordIsAccepted(_ model: ModelDescriptor) throws {
    for setting in model.settingsSchema {
      guard case .word(let options) = setting.type else { continue }
      #expect(options.contains { sameWord(setting.defaultValue, .string($0)) }, "\(setting.name) default")
      for option in options {
        let value = try #require(try classifier(model, [setting.name: option]).parameters[setting.name])
        #expect(fits(value, setting.type), "\(setting.name): \(option) read as \(value)")
      }
    }
  }

  static func unknownSettingIsRejectedByItsKey(_ model: ModelDescriptor) {
    let unknown = ["no_such_setting": "1"]
    for settings in [unknown, Configuration.varied.settings(model).merging(unknown) { $1 }] {
      do {
        _ = try classifier(model, settings)
        Issue.record("accepted \(settings)")
      } catch {
        #expect(error.key == "no_such_setting")
        #expect(error.message.contains("no_such_setting"))
      }
    }
  }
}
