import BenchbookData
import BenchbookModels
import Testing

/// Fitted models: distributions over the full class set, reproducible, computed without touching the caller's
/// data, and as indifferent to row order and to shared work as the model's traits claim.
extension ClassifierConformance {
  static func probabilitiesAreDistributions(_ model: ModelDescriptor) throws {
    for dataset in ConformanceDataset.allCases {
      let data = try dataset.load()
      for configuration in Configuration.allCases {
        let classifier = try classifier(model, configuration.settings(model))
        let fitted = try classifier.fit(data.x, labels: data.labels, classCount: data.classCount)
        #expect(fitted.classCount == data.classCount)
        #expect(fitted.parameterCount > 0)
        let probabilities = fitted.predictProbabilities(data.x)
        expectDistributions(
          probabilities, rows: data.x.rows, classCount: data.classCount, "\(dataset) \(configuration)")
      }
    }
  }

  static func absentClassGetsAZeroColumn(_ model: ModelDescriptor) throws {
    let (x, labels, classCount) = try ConformanceDataset.iris.load()
    #expect(classCount == 3)
    let rows = labels.indices.filter { labels[$0] != 1 }  // setosa and virginica; no versicolor
    let train = x.selecting(rows: rows)
    for configuration in Configuration.allCases {
      let classifier = try classifier(model, configuration.settings(model))
      let fitted = try classifier.fitPresentClasses(train, labels: rows.map { labels[$0] }, classCount: 3)
      #expect(fitted.classCount == 3)
      let probabilities = fitted.predictProbabilities(x)
      expectDistributions(probabilities, rows: x.rows, classCount: 3, "\(configuration)")
      #expect(probabilities.column(1).allSatisfy { $0 == 0 }, "\(configuration): the absent class has probability")
    }
  }

  /// A model that handles missing values itself (`NativeMissingValues`) instead fits them, as scikit-learn's does
  /// (infinities too), and predicts distributions.
  static func nonFiniteFeaturesAreRejected(_ model: ModelDescriptor) throws {
    let (clean, labels, classCount) = try ConformanceDataset.iris.load()
    for value in [Double.nan, .infinity, -.infinity] {
      var x = clean
      x[7, 2] = value
      let classifier = try classifier(model, [:])
      if model.classifierType is any NativeMissingValues.Type {
        let p = try classifier.fit(x, labels: labels, classCount: classCount).predictProbabilities(x)
        for r in 0..<p.rows {
          let row = (0..<p.columns).map { p[r, $0] }
          #expect(row.allSatisfy(\.isFinite) && abs(row.reduce(0, +) - 1) < 1e-9, "\(value): row \(r) is \(row)")
        }
        continue
      }
      #expect(throws: ModelError.self, "fit, \(value)") {
        try classifier.fit(x, labels: labels, classCount: classCount)
      }
      #expect(throws: ModelError.self, "fitPresentClasses, \(value)") {
        try classifier.fitPresentClasses(x, labels: labels, classCount: classCount)
      }
    }
  }

  static func fittingIsDeterministicAndLeavesItsInputsAlone(_ model: ModelDescriptor) throws {
    for dataset in ConformanceDataset.allCases {
      let data = try dataset.load()
      let (x, labels) = (data.x, data.labels)
      for configuration in Configuration.allCases {
        let classifier = try classifier(model, configuration.settings(model))
        let first = try classifier.fit(x, labels: labels, classCount: data.classCount).predictProbabilities(x)
        let second = try classifier.fit(x, labels: labels, classCount: data.classCount).predictProbabilities(x)
        #expect(bitwiseEqual(first, second), "\(dataset) \(configuration): two fits differ")
        #expect(bitwiseEqual(x, data.x), "\(dataset) \(configuration): the features changed")
        #expect(labels == data.labels, "\(dataset) \(configuration): the labels changed")
      }
    }
  }

  /// A model that claims not to depend on the order of its training rows (`RowOrderDependence.independent`) may
  /// be handed them in whichever order is cheaper to gather: the same rows reversed and interleaved give the same
  /// predictions, to the tolerance it declares (0: to the bit, as a tree's splits depend on the values alone;
  /// rounding for the models that sum over rows; a solver's tolerance).
  static func rowOrderChangesOnlyWhatItClaims(_ model: ModelDescriptor) throws {
    guard case .independent(let tolerance) = model.traits.rowOrder else { return }
    for dataset in ConformanceDataset.allCases {
      let data = try dataset.load()
      let rows = Array(0..<data.x.rows)
      let shuffled = rows.filter { $0 % 2 == 1 }.reversed() + rows.filter { $0 % 2 == 0 }
      for configuration in Configuration.allCases {
        let classifier = try classifier(model, configuration.settings(model))
        let inOrder = try classifier.fit(data.x, labels: data.labels, classCount: data.classCount)
          .predictProbabilities(data.x)
        let reordered = try classifier.fit(
          data.x.selecting(rows: shuffled), labels: shuffled.map { data.labels[$0] }, classCount: data.classCount
        ).predictProbabilities(data.x)
        if tolerance == 0 {
          #expect(bitwiseEqual(inOrder, reordered), "\(dataset) \(configuration): the fit changed")
        } else {
          #expect(inOrder.largestDifference(from: reordered) <= tolerance, "\(dataset) \(configuration)")
        }
      }
    }
  }

  /// Tuning fits configurations together where they can share work; the result must be that of separate fits, to
  /// the bit or to the tolerance the model declares (`sharedFitTolerance`). The grid varies every searchable setting
  /// over its default, its alternative and (for whole numbers) a third value, so kNN's shared query and the tree's
  /// cut-back are exercised across k and depth. Fits for an export alone (`exportFits`) predict and export exactly as
  /// the shared fits do.
  static func sharedFitsEqualSeparateFits(_ model: ModelDescriptor) throws {
    for dataset in ConformanceDataset.allCases {
      let data = try dataset.load()
      let train = Array(0..<data.x.rows).filter { $0 % 4 != 0 }
      let test = Array(stride(from: 0, to: data.x.rows, by: 4))
      let (x, labels) = (data.x.selecting(rows: train), train.map { data.labels[$0] })
      let testX = data.x.selecting(rows: test)
      var grid: [[String: String]] = [[:]]
      // Each setting's values; an extra value the model rejects (a `max_leaf_nodes` of 1) is left out.
      var oneAtATime: [[String: String]] = [[:]]
      for setting in model.settingsSchema where setting.searchable {
        var values = [setting.defaultValue]
        if let alternative = alternative(to: setting) { values.append(alternative) }
        var extra: [ParameterValue] = []
        if case .optionalWholeNumber = setting.type { extra.append(.int(1)) }
        if case .wholeNumber = setting.type, case .int(let base) = setting.defaultValue {
          extra.append(.int(base + 5))
        }
        values += extra.filter { (try? classifier(model, [setting.name: SettingDescriptor.specText($0)])) != nil }
        grid = grid.flatMap { prefix in
          values.map { value in prefix.merging([setting.name: SettingDescriptor.specText(value)]) { $1 } }
        }
        oneAtATime += values.dropFirst().map { [setting.name: SettingDescriptor.specText($0)] }
      }
      // A model with many searchable settings (histogram gradient boosting has eight) is checked on each setting
      // varied alone: their every combination would be hundreds of fits.
      if grid.count > 128 { grid = oneAtATime }
      let configurations = try grid.map { try classifier(model, $0) }
      let shared = try sharedPredictions(configurations, x, labels, data.classCount, testX)
      let fits = try sharedFits(configurations, x, labels, data.classCount)
      let exportFits = try exportFits(configurations, x, labels, data.classCount)
      #expect(shared.count == configurations.count)
      #expect(fits.count == configurations.count)
      #expect(exportFits.count == configurations.count)
      for (c, (fit, exportFit)) in zip(fits, exportFits).enumerated() {
        let comment = "\(dataset) \(configurations[c].parameters)"
        #expect(bitwiseEqual(exportFit.predictProbabilities(testX), fit.predictProbabilities(testX)), "\(comment)")
        #expect((try? exportFit.exportForm()) == (try? fit.exportForm()), "\(comment)")
      }
      let tolerance = model.traits.sharedFitTolerance
      for (c, configuration) in configurations.enumerated() {
        let alone = try configuration.fit(x, labels: labels, classCount: data.classCount).predictProbabilities(testX)
        for probabilities in [shared[c], fits[c].predictProbabilities(testX)] {
          if tolerance > 0 {
            #expect(probabilities.largestDifference(from: alone) <= tolerance, "\(dataset) \(configuration.parameters)")
          } else {
            #expect(bitwiseEqual(probabilities, alone), "\(dataset) \(configuration.parameters)")
          }
        }
      }
    }
  }
}
