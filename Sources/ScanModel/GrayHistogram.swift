/// Counts of the 256 gray levels of an image or a region, and the threshold that splits them.
public enum GrayHistogram {
    /// Otsu's threshold over the levels `start...255` of `h` (256 counts): the level that best
    /// splits them into a dark class (at or below it) and a bright one. `start` when nothing
    /// splits them (one level only).
    public static func otsu(_ h: [Int], from start: Int = 0) -> Int {
        guard start < 255 else { return 255 }
        var total = 0.0, sum = 0.0
        for v in start...255 { total += Double(h[v]); sum += Double(v * h[v]) }
        guard total > 0 else { return 255 }
        var weightBelow = 0.0, sumBelow = 0.0, best = 0.0, level = start
        for v in start..<255 {
            weightBelow += Double(h[v]); sumBelow += Double(v * h[v])
            let weightAbove = total - weightBelow
            guard weightBelow > 0, weightAbove > 0 else { continue }
            let meanBelow = sumBelow / weightBelow, meanAbove = (sum - sumBelow) / weightAbove
            let between = weightBelow * weightAbove * (meanBelow - meanAbove) * (meanBelow - meanAbove)
            if between > best { best = between; level = v }
        }
        return level
    }
}
