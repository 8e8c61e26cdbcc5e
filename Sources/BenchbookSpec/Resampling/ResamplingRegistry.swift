/// The resampling methods a spec may name, in the order messages list them.
public enum ResamplingRegistry {
  public static let methods: [any ResamplingMethod.Type] = [
    KFold.self,
    StratifiedKFold.self,
    RepeatedKFold.self,
    TimeSeriesSplit.self,
    Holdout.self,
    GroupKFold.self,
    StratifiedGroupKFold.self,
    LeaveOneGroupOut.self,
    GroupHoldout.self,
  ]

  /// What a spec without `resampling:` (or without its `method`) uses.
  public static let defaultMethod: any ResamplingMethod.Type = KFold.self

  /// The method a spec's name selects (any case, `_` for `-`).
  public static func method(named name: String) -> (any ResamplingMethod.Type)? {
    let wanted = name.lowercased().replacingOccurrences(of: "_", with: "-")
    return methods.first { $0.id == wanted }
  }

  /// The inner folds tuning uses when the spec names none: time-ordered inside time-ordered outer folds, grouped
  /// (`GridSearchCV(cv=GroupKFold(k))` given the groups) inside grouped ones, else scikit-learn's `cv=5` for a
  /// classifier (stratified, unshuffled).
  public static func defaultInner(forOuter outer: any ResamplingMethod) -> any InnerResampling.Type {
    if type(of: outer).ordersByTime { return TimeSeriesSplit.self }
    return outer.groups == nil ? StratifiedKFold.self : GroupKFold.self
  }

  /// The methods that can split a training set for tuning.
  public static var innerMethods: [any InnerResampling.Type] { methods.compactMap { $0 as? any InnerResampling.Type } }

  /// Every key some method reads, in registry order.
  static var keys: [String] {
    var keys: [String] = []
    for method in methods { for key in method.keys where !keys.contains(key) { keys.append(key) } }
    return keys
  }
}
