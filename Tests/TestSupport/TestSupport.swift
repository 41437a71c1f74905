import ScanModel
