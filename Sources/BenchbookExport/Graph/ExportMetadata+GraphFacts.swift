import BenchbookModels

extension ExportMetadata {
  /// The facts of a graph file (TensorFlow Lite, ONNX): the metadata's own, plus the form the model was lowered
  /// from and, for a tree, the layout it was written in, so both formats name them alike.
  func graphFacts(scaled: Bool, form: ExportForm, treeLayout: GraphDialect.TreeLayout) -> [String: String] {
    var values = facts(scaled: scaled)
    values["benchbook.form"] = form.name
    switch form {
    case .tree: values["benchbook.tree_form"] = treeLayout.rawValue
    case .treeEnsemble(let ensemble):
      values["benchbook.tree_form"] = treeLayout == .ensemble ? "ensemble" : "traversal"
      values["benchbook.trees"] = String(ensemble.trees.count)
    default: break
    }
    return values
  }
}
