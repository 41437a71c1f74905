// What a user of ScanKit names along with it: the document model (`Document`, `ScanError`, `Page`...) and the
// writers of its outputs (`DocumentWriter`, `CSVWriter`). `import ScanKit` is enough for both.
@_exported import ScanExport
@_exported import ScanModel
