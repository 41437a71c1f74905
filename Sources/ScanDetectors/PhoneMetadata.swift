import ScanModel

/// Numbering facts for the regions we validate: calling code, national (trunk) prefix,
/// and the possible lengths of the national significant number (NSN). Lengths follow the
/// national numbering plans as published by the regulators and summarised in
/// libphonenumber's metadata; they are kept a little generous where a plan has odd
/// service numbers.
struct RegionPlan: Sendable {
    let region: String
    let callingCode: String
    /// Dialled before the NSN in national format ("0" in most of Europe, "1" in NANP).
    let trunk: String
    /// Italy (and San Marino) keep the leading 0 inside the NSN.
    let keepsLeadingZero: Bool
    let minLength: Int
    let maxLength: Int
    /// The international call prefix dialled from this region.
    let idd: String
    /// The NSN lengths the plan allows: every length from `minLength` to `maxLength` for the
    /// regions written by hand, the plan's own list (which may have gaps, as Belize's 7 and 11)
    /// for the generated ones.
    let lengths: Set<Int>
    /// The digits a national number printed without a phone word may start with, where the plan says so
    /// (nil: any). Italy's subscriber numbers start with 0 (fixed lines, the 0 kept) or 3 (mobiles); its
    /// other ranges are services that a till prints with a label, so a house number and a postal code
    /// (`Corso Stonmo, 57 85142`) are no number there.
    var bareFirstDigits: Set<UInt8>? = nil
    /// Whether a national number is printed after the trunk 0 at home (`020 7946 0958`): the trunk is 0, kept apart
    /// from the number, and libphonenumber's national format prints it (not Brazil's `(11) 2345-6789`).
    var printsTrunkZero = false
    /// The first digits of the mobile numbers that are printed without the trunk 0 where fixed lines keep it, and
    /// their length: India's `98765 43210` beside `080 2345 6789` (libphonenumber's national format puts a 0 before
    /// both, no card or letterhead does).
    var mobilesWithoutTrunk: (first: Set<UInt8>, length: Int)? = nil

    /// Whether `nsn` is one of the region's mobile numbers printed without the trunk 0 (see ``mobilesWithoutTrunk``).
    func isMobileWithoutTrunk(_ nsn: [UInt8]) -> Bool {
        guard let m = mobilesWithoutTrunk, let first = nsn.first else { return false }
        return nsn.count == m.length && m.first.contains(first)
    }
}

enum PhoneMetadata {
    /// The most digits a national number written with a leading 0 has in any plan: a trunk "0" and
    /// the plan's longest NSN (13 in Germany and Austria, so 14), or an Italian-style NSN that keeps
    /// its 0. A longer run that starts with 0 is no phone number anywhere (a survey code, an ID).
    static let longestWithLeadingZero: Int = plans.values.map { plan in
        plan.keepsLeadingZero ? plan.maxLength : plan.trunk == "0" ? plan.maxLength + 1 : 0
    }.max() ?? 15

    static let plans: [String: RegionPlan] = {
        let rows: [(String, String, String, Bool, Int, Int, String)] = [
            ("US", "1", "1", false, 10, 10, "011"), ("CA", "1", "1", false, 10, 10, "011"),
            ("GB", "44", "0", false, 9, 10, "00"), ("DE", "49", "0", false, 6, 13, "00"),
            ("FR", "33", "0", false, 9, 9, "00"), ("NL", "31", "0", false, 7, 10, "00"),
            ("BE", "32", "0", false, 8, 9, "00"), ("CH", "41", "0", false, 9, 9, "00"),
            ("AT", "43", "0", false, 7, 13, "00"), ("IT", "39", "", true, 6, 11, "00"),
            ("ES", "34", "", false, 9, 9, "00"), ("PT", "351", "", false, 9, 9, "00"),
            ("IE", "353", "0", false, 7, 10, "00"), ("DK", "45", "", false, 8, 8, "00"),
            ("NO", "47", "", false, 8, 8, "00"), ("SE", "46", "0", false, 7, 10, "00"),
            ("FI", "358", "0", false, 6, 11, "00"), ("PL", "48", "", false, 9, 9, "00"),
            ("CZ", "420", "", false, 9, 9, "00"), ("SK", "421", "0", false, 9, 9, "00"),
            ("LU", "352", "", false, 6, 11, "00"), ("AU", "61", "0", false, 9, 10, "0011"),
            ("NZ", "64", "0", false, 8, 10, "00"), ("JP", "81", "0", false, 9, 10, "010"),
            ("KR", "82", "0", false, 8, 10, "001"), ("CN", "86", "0", false, 9, 12, "00"),
            ("HK", "852", "", false, 8, 9, "001"), ("SG", "65", "", false, 8, 11, "000"),
            ("MY", "60", "0", false, 8, 10, "00"), ("IN", "91", "0", false, 10, 11, "00"),
            ("AE", "971", "0", false, 8, 9, "00"), ("AR", "54", "0", false, 10, 11, "00"),
            ("BR", "55", "0", false, 9, 11, "00"), ("MX", "52", "", false, 10, 10, "00"),
            ("ZA", "27", "0", false, 9, 9, "00"), ("RU", "7", "8", false, 10, 10, "810"),
            ("TR", "90", "0", false, 10, 10, "00"), ("GR", "30", "", false, 10, 10, "00"),
            ("HU", "36", "06", false, 8, 9, "00"), ("RO", "40", "0", false, 9, 9, "00"),
            ("IL", "972", "0", false, 8, 9, "00"), ("SA", "966", "0", false, 8, 9, "00"),
            ("ID", "62", "0", false, 8, 12, "001"), ("TH", "66", "0", false, 8, 9, "001"),
            ("PH", "63", "0", false, 8, 10, "00"), ("VN", "84", "0", false, 9, 10, "00"),
            ("TW", "886", "0", false, 8, 9, "002"), ("MA", "212", "0", false, 9, 9, "00"),
            ("EG", "20", "0", false, 8, 10, "00"), ("NG", "234", "0", false, 8, 10, "009"),
            ("KE", "254", "0", false, 9, 9, "000"), ("CL", "56", "", false, 9, 9, "00"),
            ("CO", "57", "", false, 10, 10, "00"), ("PE", "51", "0", false, 8, 9, "00"),
            ("IS", "354", "", false, 7, 9, "00"), ("PK", "92", "0", false, 9, 10, "00"),
            ("UA", "380", "0", false, 9, 9, "00"), ("BG", "359", "0", false, 8, 9, "00"),
            ("HR", "385", "0", false, 8, 9, "00"), ("SI", "386", "0", false, 8, 8, "00"),
            ("EE", "372", "", false, 7, 8, "00"), ("LV", "371", "", false, 8, 8, "00"),
            ("LT", "370", "8", false, 8, 8, "00"), ("KZ", "7", "8", false, 10, 10, "810"),
        ]
        var d: [String: RegionPlan] = [:]
        for r in rows {
            d[r.0] = RegionPlan(region: r.0, callingCode: r.1, trunk: r.2, keepsLeadingZero: r.3,
                                minLength: r.4, maxLength: r.5, idd: r.6, lengths: Set(r.4...r.5))
        }
        d["IT"]?.bareFirstDigits = [0x30, 0x33]
        d["IN"]?.mobilesWithoutTrunk = ([0x36, 0x37, 0x38, 0x39], 10)
        // Every other region, from libphonenumber's metadata (PhonePlans.swift), so that a region
        // the caller names is checked against its own lengths rather than a worldwide guess.
        for r in generatedRows where d[r.0] == nil {
            d[r.0] = RegionPlan(region: r.0, callingCode: r.1, trunk: r.2, keepsLeadingZero: r.3,
                                minLength: r.4.min()!, maxLength: r.4.max()!, idd: r.5, lengths: Set(r.4))
        }
        for (r, plan) in d {
            d[r]?.printsTrunkZero = plan.trunk == "0" && !plan.keepsLeadingZero && !printedWithoutTrunk.contains(r)
        }
        return d
    }()

    /// The main region of each calling code we know a plan for: for a code shared by several
    /// regions (+1, +7, +44, +262...), the one libphonenumber names main.
    static let mainRegion: [String: String] = {
        var d: [String: String] = [:]
        // The regions written by hand first, as before; then the generated main regions of the other codes.
        let generated = Set(generatedRows.map(\.0))
        for (r, p) in plans where !generated.contains(r) && (d[p.callingCode] == nil || r == "US" || r == "RU") {
            d[p.callingCode] = r
        }
        for r in generatedRows where r.6 && d[r.1] == nil { d[r.1] = r.0 }
        return d
    }()

    /// Two-digit calling codes (ITU zones 2 to 9); any other code starting with 2–9 has
    /// three digits, and zones 1 and 7 have one.
    static let twoDigitCodes: Set<String> = [
        "20", "27", "30", "31", "32", "33", "34", "36", "39", "40", "41", "43", "44", "45", "46", "47",
        "48", "49", "51", "52", "53", "54", "55", "56", "57", "58", "60", "61", "62", "63", "64", "65",
        "66", "81", "82", "84", "86", "90", "91", "92", "93", "94", "95", "98",
    ]

    /// Splits a calling code off the front of `digits` (which follow a `+` or an international prefix).
    static func splitCallingCode(_ digits: [UInt8]) -> (cc: String, rest: [UInt8])? {
        guard let f = digits.first, f != 0x30 else { return nil }
        let len: Int
        if f == 0x31 || f == 0x37 { len = 1 }
        else if digits.count >= 2, twoDigitCodes.contains(String(decoding: digits[0..<2], as: UTF8.self)) { len = 2 }
        else { len = 3 }
        guard digits.count > len else { return nil }
        return (String(decoding: digits[0..<len], as: UTF8.self), Array(digits[len...]))
    }

    /// NANP: area code and exchange both start with 2–9.
    static func isNANP(_ nsn: [UInt8]) -> Bool {
        nsn.count == 10 && nsn[0] >= 0x32 && nsn[3] >= 0x32
    }

    /// A NANP toll-free area code (three ASCII digits): 800, or 8 and a repeated digit from 3 up
    /// (833 to 888 in service, 899 kept for the plan's next ones).
    static func isTollFreeNANP<C: Collection<UInt8>>(areaCode code: C) -> Bool {
        let d = Array(code)
        return d.count == 3 && d[0] == 0x38 && d[1] == d[2] && (d[1] == 0x30 || d[1] >= 0x33)
    }
}
