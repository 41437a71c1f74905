import ScanModel

/// Placeholder until the detectors land; replaced by the detectors work.
public enum DataDetectors {}
