import Foundation

/// What a phone number is by its numbering plan: a mobile or a fixed line, as libphonenumber tells them apart.
public enum PhoneLineKind: String, Sendable {
    case mobile, fixedLine

    /// The kind of an E.164 number (`+41791234567`), from its region's mobile and fixed-line ranges
    /// (`PhoneTypes.swift`). Nil when the plan cannot tell (the US and Canada give both the same ranges), when the
    /// number falls in both or in neither, or when regions sharing the calling code disagree.
    public static func of(e164: String) -> PhoneLineKind? {
        guard let (regions, national) = plansAndNational(e164) else { return nil }
        let kinds = Set(regions.compactMap { plan -> PhoneLineKind? in
            let mobile = whole(plan.mobile, national), fixed = plan.fixed.map { whole($0, national) } ?? false
            return mobile == fixed ? nil : mobile ? .mobile : .fixedLine
        })
        return kinds.count == 1 ? kinds.first : nil
    }

    /// The one region whose mobile or fixed-line ranges hold an E.164 number among those sharing its calling code
    /// (`+18687681234` is Trinidad's, `+18762221234` Jamaica's); nil when none or several do, and for the US, Canada
    /// and Puerto Rico, which the shipped ranges do not hold (their plans give mobiles and fixed lines alike).
    public static func region(of e164: String) -> String? {
        guard let (regions, national) = plansAndNational(e164) else { return nil }
        let holding = Set(regions.filter { plan in
            whole(plan.mobile, national) || plan.fixed.map { whole($0, national) } ?? false
        }.map(\.region))
        return holding.count == 1 ? holding.first : nil
    }

    /// The plans of the regions that share an E.164 number's calling code, and its national number; nil for no number.
    private static func plansAndNational(_ e164: String) -> ([Plan], String)? {
        let digits = Array((e164.hasPrefix("+") ? e164.dropFirst() : Substring(e164)).utf8)
        guard digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            let (code, rest) = PhoneMetadata.splitCallingCode(digits),
            let regions = plans[code]
        else { return nil }
        return (regions, String(decoding: rest, as: UTF8.self))
    }

    private struct Plan: @unchecked Sendable {
        let region: String
        let mobile: NSRegularExpression
        let fixed: NSRegularExpression?
    }

    /// The patterns by calling code, compiled once, anchored at both ends.
    private static let plans: [String: [Plan]] = {
        func compiled(_ pattern: String) -> NSRegularExpression? {
            pattern.isEmpty ? nil : try? NSRegularExpression(pattern: "^(?:" + pattern + ")$")
        }
        var out: [String: [Plan]] = [:]
        for (region, code, mobile, fixed) in PhoneMetadata.typeRows {
            guard let m = compiled(mobile) else { continue }
            out[code, default: []].append(Plan(region: region, mobile: m, fixed: compiled(fixed)))
        }
        return out
    }()

    private static func whole(_ pattern: NSRegularExpression, _ s: String) -> Bool {
        pattern.firstMatch(in: s, range: NSRange(s.startIndex..., in: s)) != nil
    }
}
