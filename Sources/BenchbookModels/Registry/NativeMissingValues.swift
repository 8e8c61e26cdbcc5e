/// A classifier whose fit takes missing values (NaN) in its features as scikit-learn's estimator of it does,
/// instead of rejecting them: histogram gradient boosting bins them on their own and learns where they go. Such a
/// model also takes infinities, as scikit-learn's does. The conformance suite checks it fits them and predicts
/// distributions, where it checks every other model throws.
public protocol NativeMissingValues: Classifier {}
