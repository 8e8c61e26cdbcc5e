import Synchronization

/// The algorithms Benchbook knows: the built-in ones in one list, and any a program (a test target, say) adds
/// with `register(_:)`. Specs select models by their names, results name them by id, and every stage that needs
/// to know something about a model asks its descriptor here.
public enum ModelRegistry {
  /// The models Benchbook ships, in the order specs, reports and `benchbook models` list them.
  public static let builtIn: [ModelDescriptor] = [
    LogisticRegression.descriptor,
    LinearDiscriminantAnalysis.descriptor,
    KNearestNeighbors.descriptor,
    DecisionTree.descriptor,
    GaussianNaiveBayes.descriptor,
    RandomForest.descriptor,
    HistGradientBoosting.descriptor,
  ]

  private static let registered = Mutex<[ModelDescriptor]>([])

  /// Every known model: the built-in ones, then those registered, in registration order.
  public static var all: [ModelDescriptor] { builtIn + registered.withLock { $0 } }

  /// The models a spec without `models:` compares, in order: the built-in models that say so, whatever else is
  /// registered.
  public static var defaultSet: [ModelDescriptor] { builtIn.filter(\.inDefaultSet) }

  /// Adds a model defined outside Benchbook (a test target's); registering the same descriptor again does nothing.
  ///
  /// Thread-safe. A descriptor whose `problems` are not empty, one that claims a place in the default set, or one
  /// sharing an id or a name with another model stops the program: each is a mistake in the code that registers.
  public static func register(_ descriptor: ModelDescriptor) {
    precondition(descriptor.problems.isEmpty, descriptor.problems.joined(separator: "; "))
    precondition(!descriptor.inDefaultSet, "\(descriptor.id): only built-in models belong to the default set")
    registered.withLock { registered in
      if let same = (builtIn + registered).first(where: { $0.id == descriptor.id }) {
        precondition(
          ObjectIdentifier(same.classifierType) == ObjectIdentifier(descriptor.classifierType),
          "\(descriptor.id) is already registered for another type")
        return
      }
      let taken = (builtIn + registered).flatMap(\.names).filter(descriptor.isNamed)
      precondition(taken.isEmpty, "\(descriptor.id): the names \(taken) already select another model")
      registered.append(descriptor)
    }
  }

  /// The model a spec name selects (its id or an abbreviation, case-insensitively).
  public static func descriptor(named name: String) -> ModelDescriptor? {
    all.first { $0.isNamed(name) }
  }

  /// The model a results file's `algorithm` names.
  public static func descriptor(id: String) -> ModelDescriptor? {
    all.first { $0.id == id }
  }

  /// Every name a spec may use, model by model: for messages that list them.
  public static var names: [String] { all.flatMap(\.names) }
}
