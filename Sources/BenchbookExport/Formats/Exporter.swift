import BenchbookModels

/// Writes a fitted pipeline in a format: the checks every format shares (the
/// classifier states a form, the format can hold it and the spec's imputation, an updatable file only
/// where the format can update the form, the size limit), then the format's
/// own writer. Nothing is written to disk here; a failure leaves no bytes.
public enum Exporter {
  /// - Parameter maxBytes: a ceiling of the caller's below the format's own limit.
  public static func export(_ request: ExportRequest, as format: any ExportFormat, maxBytes: Int? = nil)
    throws(ExportError) -> ExportedFile
  {
    let form: ExportForm
    do {
      form = try request.classifier.exportForm()
    } catch {
      throw ExportError(error.message)
    }
    guard format.canWrite(form.kind) else {
      throw ExportError("\(format.name) cannot hold a \(request.metadata.algorithmName) (a \(form.name) model)")
    }
    if let imputer = request.imputer, !format.carriesImputation {
      let carrying = ExportFormats.all.filter(\.carriesImputation).map(\.name)
      throw ExportError(
        "\(format.name) cannot carry the fitted imputation of \(ExportMetadata.list(imputer.fills.map(\.name))), "
          + "so the file would not fill a missing value; "
          + (carrying.isEmpty
            ? "export a spec without `impute`"
            : "export to \(carrying.joined(separator: " or ")), or a spec without `impute`"))
    }
    if request.updatable && !format.canUpdate(form) {
      let updatable = ExportFormats.all.filter { $0.canUpdate(form) }.map(\.name)
      throw ExportError(
        "--updatable: a \(request.metadata.algorithmName) cannot learn from an app's examples in \(format.name)"
          + (updatable.isEmpty
            ? "; no format can update a \(form.name) model" : "; it can in \(updatable.joined(separator: " and "))"))
    }
    let limit = min(format.sizeLimit, maxBytes ?? .max)
    return try format.write(request, form: form, limit: limit)
  }
}
