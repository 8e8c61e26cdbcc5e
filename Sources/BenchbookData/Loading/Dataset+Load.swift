extension Dataset {
  /// Reads the definition's CSV (gzip or plain) and builds the design matrix,
  /// labels, feature summaries and provenance.
  ///
  /// Only the columns the definition uses are extracted, but every record's
  /// field count is checked. Rows missing a used value are dropped or
  /// reported according to `definition.missing`. See `DatasetLoader` for the
  /// order of checks and the encoding rules.
  ///
  /// - Throws: `DataError` pointing at the data line or spec entry to fix.
  public static func load(_ definition: DatasetDefinition) throws(DataError) -> Dataset {
    let dataset = try DatasetLoader.load(definition)
    // What the load freed (columns, their kept-row copies) is handed back
    // rather than left resident under the folds' allocations.
    HeapPolicy.releaseFreedMemory()
    return dataset
  }
}
