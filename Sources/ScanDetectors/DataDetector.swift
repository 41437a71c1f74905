import Foundation
import ScanModel

/// A calendar day, used as the reference date for two-digit years.
public struct CalendarDay: Hashable, Sendable {
    public var year: Int
    public var month: Int
    public var day: Int

    /// Nil for a day the calendar does not have (`2025-02-30`, `2025-04-31`, `2025-02-29`).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), CalendarDate.exists(year, month, day) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses `yyyy-mm-dd`.
    public init?(iso: String) {
        let parts = iso.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]) else { return nil }
        self.init(year: y, month: m, day: d)
    }

    /// Today, in UTC.
    public static func today() -> CalendarDay {
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = TimeZone(identifier: "UTC")!
        let c = cal.dateComponents([.year, .month, .day], from: Date())
        return CalendarDay(year: c.year ?? 2025, month: c.month ?? 1, day: c.day ?? 1)!
    }
}

/// What one part of a document tells the detectors about the whole document: the region
/// (for national phone numbers, `$`, `kr`...) and whether numeric dates are written day
/// first. Gather it once over all pages with `DataDetector.context(for:)` and pass it to
/// `detect(in:context:)` for each page, so every page is read the same way.
public struct DetectionContext: Hashable, Sendable {
    /// ISO 3166-1 alpha-2 region, upper case.
    public var region: String?
    /// true: `03/04/2020` is 3 April; false: 4 March; nil: unknown (reported as ambiguous).
    public var dayFirst: Bool?

    public init(region: String? = nil, dayFirst: Bool? = nil) {
        self.region = region
        self.dayFirst = dayFirst
    }
}

/// An invalid option given to a `DataDetector`.
public struct DetectorError: Error, Hashable, Sendable, CustomStringConvertible {
    /// `invalid-region` or `invalid-reference-date`.
    public var code: String
    public var message: String
    public var description: String { message }

    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }
}

/// Finds phone numbers, e-mail addresses, URLs, dates, times, amounts of money,
/// percentages, postal codes, addresses, IBANs and payment card numbers in any text, and
/// normalizes their values. Pure Swift: it needs no engine and no `NSDataDetector`.
///
/// ```swift
/// let detector = try DataDetector(types: [.phone, .date], region: "GB")
/// for e in detector.detect(in: "Tel. 020 7946 0958, 25 DEC 2018") {
///     print(e.type, e.text, e.value)
/// }
/// ```
///
/// Ranges are in Unicode scalars of the input string. The value is immutable and
/// `Sendable`: share one detector across threads.
public struct DataDetector: Sendable {
    public let types: Set<EntityType>
    /// The default region (ISO 3166-1 alpha-2), used when the text itself does not say.
    public let region: String?
    /// Anchors two-digit years (a year more than 20 years after it is read as last century).
    public let referenceDate: CalendarDay

    public init(types: Set<EntityType> = Set(EntityType.allCases), region: String? = nil,
                referenceDate: CalendarDay? = nil) throws {
        // A region must have a numbering plan, as the command line asks: with `UK` or `ZZ` every phone number would
        // lose its E.164 without a word.
        if let r = region, !Self.isValidRegion(r) {
            throw DetectorError(
                code: "invalid-region",
                message: "invalid region '\(r)': expected a two-letter ISO 3166-1 code such as US, GB or DE"
                    + (r.uppercased() == "UK" ? " (the United Kingdom's is GB)" : ""))
        }
        self.types = types
        self.region = region?.uppercased()
        self.referenceDate = referenceDate ?? CalendarDay.today()
    }

    /// Whether `code` is a region code (two ASCII letters, either case) of a region that has a numbering plan: the
    /// ISO 3166-1 codes in use (`GB`, not `UK`; not `ZZ`).
    public static func isValidRegion(_ code: String) -> Bool {
        code.count == 2 && code.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) || ("a"..."z").contains($0) }
            && PhoneMetadata.plans[code.uppercased()] != nil
    }

    /// Whether `code` is the two-letter abbreviation of a US state (`OR`, `IL`, `DC`), as an address writes it before
    /// its ZIP code.
    public static func isUSState(_ code: String) -> Bool { AddressDetector.usStates.contains(code) }

    /// Whether `code` has the shape of `country`'s postal codes (ISO 3166-1 alpha-2; GeoNames' patterns): `01310-200`
    /// for `BR`, `D02 X285` for `IE`.
    public static func postalCodeFits(_ code: String, country: String) -> Bool {
        AddressDetector.postalCodeFits(code, country)
    }

    /// Whether `label` is a top-level domain that IANA delegates (`com`, `lk`, `shop`), in any case.
    public static func isTopLevelDomain(_ label: String) -> Bool {
        WebDetector.topLevelDomainSet.contains(label.lowercased())
    }

    /// Whether `text` is only a word that marks a postal code (`C.P.`, `PLZ`, `Postal Code:`, `Código Postal`), in
    /// any country.
    public static func isPostalMark(_ text: String) -> Bool {
        let squashed = text.lowercased().filter { $0.isLetter }
        return !squashed.isEmpty && AddressDetector.postalMarks[squashed] != nil
    }

    /// The ISO 3166 code of the country that `text` names on its own: a country name the address detector knows
    /// (`Germany`, `Deutschland`, `U.S.A.`), `UK`, or a region code with a numbering plan (`DE`, `ES`); nil otherwise.
    public static func countryCode(named text: String) -> String? {
        var t = text.trimmingCharacters(in: .whitespaces)
        // A bracketed form after the name says the same (`Taiwan (R.O.C.)`).
        if let open = t.firstIndex(of: "("), open > t.startIndex, t.hasSuffix(")") { t = String(t[..<open]) }
        t = t.trimmingCharacters(in: .whitespaces.union(.punctuationCharacters))
        let name = t.lowercased()
        if let code = AddressDetector.addressCountry(name)
            ?? AddressDetector.addressCountry(name.replacingOccurrences(of: ".", with: ""))
        {
            return code
        }
        let upper = t.uppercased()
        return isValidRegion(upper) && PhoneMetadata.plans[upper] != nil ? upper : nil
    }

    /// Detects entities in `text`, taking the document context from `text` itself.
    public func detect(in text: String) -> [Entity] {
        let s = ScanText(text)
        // The date order evidence of a single text is gathered while its dates are read.
        var postal: [Hit] = []
        let region = self.region(of: s, postalCodes: &postal)
        // The postal codes found on the way were read without a region: with one, they are read again in its shapes
        // (Oslo's `0154`).
        let context = DetectionContext(region: region, dayFirst: nil)
        return run(s, context: context, postalCodes: region == nil ? postal : nil)
    }

    /// Detects entities in one part (a page, a line) of a larger document, using the
    /// context gathered over the whole document.
    public func detect(in text: String, context: DetectionContext) -> [Entity] {
        run(ScanText(text), context: context)
    }

    /// `text` read as one phone number standing alone, as a receipt's header prints the shop's under its
    /// address (`7037179740`): as if a phone label came before it, which a bare run of digits needs. Nil
    /// unless one number is the whole of `text` (spaces aside) and is a national number of the context's
    /// region: a run that dials abroad (`002105827328`) is more likely a tax or account number.
    public func phoneStandingAlone(_ text: String, context: DetectionContext) -> Entity? {
        // Cheap first: most lines are no run of 7 to 15 digits.
        let digits = text.filter { $0 != " " }
        guard (7...15).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }),
              let home = context.region ?? region else { return nil }
        let s = ScanText(text)
        var hits: [Hit] = []
        var phones = PhoneDetector(region: home, referenceYear: referenceDate.year)
        phones.labelled = true
        phones.detect(s, into: &hits)
        let printed = (0..<s.bytes.count).filter { s.bytes[$0] != 0x20 }
        guard hits.count == 1, let hit = hits.first, let first = printed.first, let last = printed.last,
              hit.start <= first, hit.end > last, hit.value.e164 != nil, hit.value.region == home else { return nil }
        return entities(s, hits, [0]).first
    }

    /// Gathers document-level context over all the texts of one document: the region
    /// (``region(of:postalCodes:)``: what the text says, else the detector's own) and the day-first evidence of its
    /// numeric dates.
    public func context(for texts: [String]) -> DetectionContext {
        let joined = texts.joined(separator: "\n")
        return context(of: ScanText(joined))
    }

    func context(of s: ScanText) -> DetectionContext {
        var postal: [Hit] = []
        let region = self.region(of: s, postalCodes: &postal)
        var dayFirst: Bool? = nil
        var scratch: [Hit] = []
        let dt = DateTimeDetector(dayFirst: nil, referenceYear: referenceDate.year)
        let ev = dt.detectDates(s, into: &scratch)
        if ev.dayFirst > ev.monthFirst { dayFirst = true } else if ev.monthFirst > ev.dayFirst { dayFirst = false }
        else if let r = region { dayFirst = !DataDetector.monthFirstRegions.contains(r) }
        return DetectionContext(region: region, dayFirst: dayFirst)
    }

    /// `text` with the marks printed between an address's parts (`·`, `•`, a spaced `|`) written as commas, the
    /// address reader's part break.
    public static func addressPartsAsCommas(_ text: String) -> String {
        ScanText.addressPartsAsCommas(Array(text.utf8)).map { String(decoding: $0, as: UTF8.self) } ?? text
    }

    /// Regions that write numeric dates month first.
    public static let monthFirstRegions: Set<String> = ["US", "PH", "FM", "MH", "PW", "GU", "PR", "AS", "VI", "UM"]

    static let countryTable: WordTable = {
        var d: [String: Int] = [:]
        let codes = Array(Set(AddressDetector.countries.values)).sorted()
        for (name, code) in AddressDetector.countries { d[name] = codes.firstIndex(of: code)! }
        return WordTable(d)
    }()
    static let countryCodes: [String] = Array(Set(AddressDetector.countries.values)).sorted()

    /// The region to read `s` in. The detector's own region is a default, for text that does not say where it is
    /// from: the region the text points to (``regionEvidence(_:postalCodes:)``) takes over when its evidence weighs 2
    /// or more (a country named, a currency of one country, two lesser signs) and more than the default's own, so
    /// that a German card read with the default US keeps its `030` numbers German, while one number from abroad on a
    /// US receipt leaves it American. Without a default, the text's region, however little it says; where it says
    /// nothing, a large city it names as an address does (``cityEvidence(_:)``).
    func region(of s: ScanText, postalCodes postal: inout [Hit]) -> String? {
        let evidence = regionEvidence(s, postalCodes: &postal)
        // A large city named where an address names it is a sign only where the text points nowhere else and no
        // region is given: a dish, a given name or a brand may be named so too (`Moscow Mule`, `Sophia`).
        guard let said = Self.strongest(evidence) else { return region ?? Self.strongest(Self.cityEvidence(s)) }
        guard let fallback = region else { return said }
        guard said != fallback, let weight = evidence[said], weight >= 2,
              weight > evidence[fallback, default: 0]
        else { return fallback }
        return said
    }

    /// The region of most evidence; ties go to the alphabetically first region, so the answer never depends on hashing.
    static func strongest(_ evidence: [String: Int]) -> String? {
        evidence.max { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }?.key
    }

    /// The regions the text itself points to, each with the weight of its evidence:
    /// - a country name on its own (2),
    /// - a currency marker that belongs to one country (2): `RM`/`MYR` → MY, `£`/`GBP` → GB,
    ///   `S$`/`SGD` → SG, `A$`/`AUD` → AU, `C$`/`CAD` → CA, `Rp`/`IDR` → ID, `CHF` → CH...;
    ///   `€`, `¥` and a bare `$` say nothing,
    /// - the calling code of an international phone number (1),
    /// - a postal code whose shape belongs to one country (1): `SW1A 1AA`, `M5V 2T6`,
    ///   `IL 62704`, `NSW 2000`, `1012 AB Amsterdam`,
    /// - the name of a taxpayer number one country gives (1; 2 for a name no other country prints: `CUIT`, `GSTIN`),
    ///   also with a stop after each letter (`R.U.T.`).
    /// Large cities are no part of it: `region(of:postalCodes:)` asks `cityEvidence` only where this says nothing.
    /// `postalCodes` receives the postal codes found on the way (without a region).
    func regionEvidence(_ s: ScanText, postalCodes postal: inout [Hit]) -> [String: Int] {
        var counts: [String: Int] = [:]
        let b = s.bytes
        var i = 0
        while i < b.count {
            let c = b[i]
            if c == 0x2B, isDigit(s.at(i + 1)), !isDigit(s.at(i - 1)) {
                // +CC of an international phone number.
                var e = i + 1
                while e < b.count, isDigit(b[e]), e - i <= 3 { e += 1 }
                if let (cc, _) = PhoneMetadata.splitCallingCode(Array(b[(i + 1)..<e]) + [0x30, 0x30, 0x30]),
                   let r = PhoneMetadata.mainRegion[cc] { counts[r, default: 0] += 1 }
                i = e
                continue
            }
            if c == 0x24 { // $ with letters glued before it: S$, A$, C$, NZ$, HK$...
                let ws = s.wordStart(before: i)
                if ws < i, i - ws <= 3, ws == 0 || !isAlnum(b[ws - 1]),
                   let r = DataDetector.dollarRegions[s.string(ws, i).uppercased()] { counts[r, default: 0] += 2 }
                i += 1
                continue
            }
            if c >= 0xC2, let r = DataDetector.symbolRegion(s, i) { counts[r, default: 0] += 2 }
            guard isWordLetter(c), i == 0 || !isWordLetter(b[i - 1]) else { i += 1; continue }
            let e = s.wordEnd(from: i)
            if isUpper(c) || c >= 0xC3 {
                if e - i <= 3, s.at(e) != 0x24, let r = DataDetector.currencyRegion(s, i, e) {
                    counts[r, default: 0] += 2
                }
                else if let k = DataDetector.countryTable.lookup(s, i, e) {
                    counts[DataDetector.countryCodes[k], default: 0] += 2
                }
                else if s.at(e) == 0x20, isUpper(s.at(e + 1)),
                    let k = DataDetector.countryTable.lookup(s, i, s.wordEnd(from: e + 1))
                {
                    counts[DataDetector.countryCodes[k], default: 0] += 2
                }
                else if e - i == 3, s.string(i, e) == "GST", DataDetector.irdNumberFollows(s, e) {
                    counts["NZ", default: 0] += 2
                }
                else if e - i <= 5, let r = DataDetector.taxLabelRegions[s.string(i, e)] {
                    counts[r, default: 0] += DataDetector.oneCountrysTaxLabels.contains(s.string(i, e)) ? 2 : 1
                }
                else if e - i == 1, let (label, end) = DataDetector.dottedLetters(s, from: i),
                    let r = DataDetector.taxLabelRegions[label]
                {
                    // `R.U.T.`, `C.U.I.T.`: the label with a stop after each letter.
                    counts[r, default: 0] += DataDetector.oneCountrysTaxLabels.contains(label) ? 2 : 1
                    i = end
                    continue
                }
            }
            i = e
        }
        for r in DataDetector.domainRegions(s) { counts[r, default: 0] += 1 }
        AddressDetector(region: nil).detectPostalCodes(s.withAddressPartsAsCommas, into: &postal)
        for p in postal {
            if let r = p.value.country, DataDetector.postalShapeRegions.contains(r) { counts[r, default: 0] += 1 }
        }
        return counts
    }

    /// Country-code top-level domains of e-mail addresses and web addresses (`john@maplecedar.ie`,
    /// `www.acme.co.uk`): one piece of evidence each. Only words that are clearly addresses count
    /// (an `@`, or `www.` / `http` at the start), so that `home.it` in running text doesn't.
    static func domainRegions(_ s: ScanText) -> [String] {
        var out: [String] = []
        let b = s.bytes
        var i = 0
        while i < b.count {
            while i < b.count, b[i] == 0x20 || b[i] == 0x0A || b[i] == 0x09 { i += 1 }
            let start = i
            while i < b.count, b[i] != 0x20, b[i] != 0x0A, b[i] != 0x09 { i += 1 }
            guard i - start >= 6 else { continue }
            // Cheap test first: most words are neither e-mail nor web addresses.
            let f = b[start] | 0x20
            guard f == 0x77 || f == 0x68 || b[start..<i].contains(0x40) else { continue }
            var word = Array(b[start..<i])
            while let last = word.last, last == 0x2E || last == 0x2C || last == 0x3B || last == 0x29 || last == 0x2F {
                word.removeLast()
            }
            let lower = word.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 32 : $0 }
            let isAddress =
                lower.contains(0x40) || lower.starts(with: Array("www.".utf8)) || lower.starts(with: Array("http".utf8))
            guard isAddress else { continue }
            // The host part only: stop at a path.
            var host = lower
            if let slash = lower.firstIndex(of: 0x2F), let scheme = lower.firstIndex(of: 0x3A), scheme < slash {
                let rest = lower[(slash + 2)...]
                host = Array(rest.prefix { $0 != 0x2F })
            }
            guard let hostDot = host.lastIndex(of: 0x2E), host.count - hostDot == 3 else { continue }
            let tld = String(decoding: host[(hostDot + 1)...], as: UTF8.self)
            // Any country's domain from an e-mail address or a `www.` host; from a bare link only the domains of the
            // larger countries (`https://bit.do/x`, `lu.ma/x` and other shorteners say nothing of where one is).
            let mailOrWWW = lower.contains(0x40) || host.starts(with: Array("www.".utf8))
            if let r = mailOrWWW ? ccTLDRegions[tld] : commonCCTLDRegions[tld] { out.append(r) }
        }
        return out
    }

    /// Country-code top-level domains and their regions: every region with a numbering plan under its own code
    /// (`.cl`, `.hr`, `.com.tr`), `.uk` for Great Britain, less the codes that firms anywhere take for their sound or
    /// their letters (`.co`, `.io`, `.ai`, `.me`, `.tv`...), which say nothing of where a document is from.
    static let ccTLDRegions: [String: String] = {
        var d: [String: String] = ["uk": "GB"]
        for region in PhoneMetadata.plans.keys where region.count == 2 {
            let tld = region.lowercased()
            if !genericCountryDomains.contains(tld) { d[tld] = region }
        }
        return d
    }()

    /// The domains of the larger countries, which a bare link's host may end with (`https://shop.example.de/...`).
    static let commonCCTLDRegions: [String: String] = [
        "ie": "IE", "uk": "GB", "de": "DE", "fr": "FR", "au": "AU", "ca": "CA", "nz": "NZ", "my": "MY", "sg": "SG",
        "id": "ID", "in": "IN", "nl": "NL", "be": "BE", "ch": "CH", "at": "AT", "it": "IT", "es": "ES", "se": "SE",
        "no": "NO", "dk": "DK", "fi": "FI", "pl": "PL", "jp": "JP", "hk": "HK", "za": "ZA", "br": "BR", "mx": "MX",
        "us": "US", "pt": "PT", "cz": "CZ", "lu": "LU", "ph": "PH", "th": "TH",
    ]

    /// Country-code domains that firms of every country register (`.co`, `.io`, `.ai`, `.me`, `.tv`, `.ly`, `.fm`...).
    static let genericCountryDomains: Set<String> = [
        "co", "io", "ai", "me", "tv", "ly", "fm", "am", "ws", "cc", "to", "gg", "so", "sh", "ac", "la", "tk", "ag", "ms",
        "nu", "vc", "st", "gl", "sx", "bz", "cx", "ps", "vg", "im", "je", "ax", "ad", "md", "gs", "tc", "fo", "dj",
    ]

    /// Postal-code shapes that belong to one country (the 5-digit codes do not).
    static let postalShapeRegions: Set<String> = ["US", "CA", "GB", "AU", "NL", "IE"]

    /// Letters glued before `$`, upper-cased.
    static let dollarRegions: [String: String] = [
        "S": "SG", "SG": "SG", "A": "AU", "AU": "AU", "C": "CA", "CA": "CA", "NZ": "NZ", "HK": "HK",
        "US": "US", "R": "BR", "NT": "TW", "MX": "MX",
    ]

    /// A currency word of two or three letters at `[i, e)` that belongs to one country:
    /// ISO codes in upper case, and local abbreviations as they are printed.
    static func currencyRegion(_ s: ScanText, _ i: Int, _ e: Int) -> String? {
        guard e - i >= 2, e - i <= 3, i == 0 || !isAlnum(s.at(i - 1)) else { return nil }
        var key: UInt32 = 0
        for k in i..<e { key = key << 8 | UInt32(s.bytes[k]) }
        return currencyRegions[key]
    }

    /// The names of taxpayer numbers that one country gives (`CUIT 30-68912345-2`, `RFC`, `GSTIN`): a lesser sign
    /// of the region, as a calling code is. `RUT` and `NIT` are Chile's and Colombia's, though a neighbour uses
    /// the name too.
    static let taxLabelRegions: [String: String] = [
        "CUIT": "AR", "CUIL": "AR", "RUT": "CL", "NIT": "CO", "RFC": "MX", "CNPJ": "BR", "CPF": "BR", "GSTIN": "IN",
        "ABN": "AU", "NZBN": "NZ", "VKN": "TR", "UEN": "SG", "NTN": "PK", "STRN": "PK",
    ]

    /// Whether a number in New Zealand's IRD shape (`49-378-159`, `123-456-789`: two or three digits, then two groups
    /// of three joined by hyphens) follows within a short label after `e` (`GST No: 49-378-159`): the GST number only
    /// New Zealand prints so.
    static func irdNumberFollows(_ s: ScanText, _ e: Int) -> Bool {
        var k = e
        while k < s.count, k - e <= 12, !isDigit(s.at(k)), s.at(k) != 0x0A { k += 1 }
        var groups: [Int] = []
        var run = 0
        while k < s.count {
            let c = s.at(k)
            if isDigit(c) {
                run += 1
            } else if c == 0x2D, run > 0, groups.count < 2 {
                groups.append(run)
                run = 0
            } else {
                break
            }
            k += 1
        }
        groups.append(run)
        return groups.count == 3 && (2...3).contains(groups[0]) && groups[1] == 3 && groups[2] == 3
    }

    /// The taxpayer-number names no other country prints: as strong a sign as the country's name.
    static let oneCountrysTaxLabels: Set<String> = [
        "CUIT", "CUIL", "CNPJ", "GSTIN", "NZBN", "VKN", "UEN", "NTN", "STRN",
    ]

    /// The capitals of a label written with a stop after each (`R.U.T.`) from the single letter at `i`, and where
    /// they end; nil unless there are three letters or more.
    static func dottedLetters(_ s: ScanText, from i: Int) -> (String, Int)? {
        var letters: [UInt8] = [], k = i
        while k + 1 < s.bytes.count, isUpper(s.at(k)), s.at(k + 1) == 0x2E {
            letters.append(s.at(k))
            k += 2
        }
        guard letters.count >= 3 else { return nil }
        return (String(decoding: letters, as: UTF8.self), k)
    }

    /// The large cities (`CityRegions.swift`) the text names as an address does, each region once: a name set
    /// apart by a comma (`Lekki Phase 1, Lagos`), beside a postal code (`Cape Town 8001`, `1000-001 Lisboa`), or
    /// alone on its line (`Makati City`).
    static func cityEvidence(_ s: ScanText) -> [String: Int] {
        var counts: [String: Int] = [:]
        let b = s.bytes
        var i = 0
        while i < b.count {
            guard isWordLetter(b[i]), i == 0 || !isWordLetter(b[i - 1]), isUpper(b[i]) || b[i] >= 0xC3 else {
                i += 1
                continue
            }
            let e = s.wordEnd(from: i)
            guard let (r, end) = cityRegion(s, i, e) else { i = e; continue }
            if addressBeside(s, from: i, to: end) { counts[r] = 1 }
            i = end
        }
        return counts
    }

    /// Whether the words at `[start, end)` stand as an address puts a town: a comma before or after them, digits
    /// (no amount with cents) right before or after them, or nothing else on their line (for one word, under a line
    /// with figures).
    static func addressBeside(_ s: ScanText, from start: Int, to end: Int) -> Bool {
        let b = s.bytes
        var before = start - 1
        while before >= 0, b[before] == 0x20 { before -= 1 }
        var after = end
        while after < b.count, b[after] == 0x20 { after += 1 }
        let lineStart = before < 0 || b[before] == 0x0A, lineEnd = after >= b.count || b[after] == 0x0A
        if lineStart && lineEnd {
            // (A one-word city alone on its line counts under a line with figures, an address's (`P.O. Box 1234` /
            // `Dubai`); not a name set one word a line, `ADELAIDE` / `SMITH`.)
            guard !b[start..<end].contains(0x20) else { return true }
            guard before > 0 else { return false }
            return b[s.lineStart(before - 1)..<before].contains(where: isDigit)
        }
        if before >= 0, b[before] == 0x2C || isDigit(b[before]) { return true }
        guard after < b.count else { return false }
        if b[after] == 0x2C || b[after] == 0x2D && isDigit(s.at(after + 1)) { return true }  // `Dhaka-1215`
        guard isDigit(b[after]) else { return false }
        // A postal code, not a price: no stop or comma then two digits ending the figures.
        var k = after
        while k < b.count, isDigit(b[k]) || b[k] == 0x2D { k += 1 }
        return !((s.at(k) == 0x2E || s.at(k) == 0x2C) && isDigit(s.at(k + 1)) && isDigit(s.at(k + 2)))
    }

    /// The country of a large city (`CityRegions.swift`) that is the whole of `name` (`Dubai`, `Kowloon`, `Abu Dhabi`);
    /// nil for any other text.
    public static func largeCityCountry(_ name: String) -> String? {
        let s = ScanText(name.trimmingCharacters(in: .whitespaces))
        guard s.count > 0, let k = cityTable.lookup(s, 0, s.count) else { return nil }
        return cityCodes[k]
    }

    /// Large cities by name (`CityRegions.swift`), one, two or three words from `i` (the longest that names one), and
    /// where it ends.
    static func cityRegion(_ s: ScanText, _ i: Int, _ e: Int) -> (String, Int)? {
        var ends = [e]
        while ends.count < 4, let last = ends.last, s.at(last) == 0x20, isWordLetter(s.at(last + 1)) {
            ends.append(s.wordEnd(from: last + 1))
        }
        for end in ends.reversed() {
            if let k = cityTable.lookup(s, i, end) { return (cityCodes[k], end) }
        }
        return nil
    }

    /// A generated table's lines (`key|value` each, as `CityRegions.swift` and `CountryNames.swift` write them) read
    /// into a dictionary; the value is what follows the last bar.
    static func barTable(_ lines: String) -> [String: String] {
        var d: [String: String] = [:]
        for line in lines.split(separator: "\n") {
            guard let bar = line.lastIndex(of: "|") else { continue }
            d[String(line[..<bar])] = String(line[line.index(after: bar)...])
        }
        return d
    }

    /// The cities' table and the countries its values index, read from `cityRegionLines` in one pass, once.
    static let (cityTable, cityCodes): (WordTable, [String]) = {
        let names = barTable(cityRegionLines)
        let codes = Array(Set(names.values)).sorted()
        let index = Dictionary(uniqueKeysWithValues: codes.enumerated().map { ($1, $0) })
        return (WordTable(names.mapValues { index[$0]! }), codes)
    }()

    /// Currency words keyed by their bytes as printed (case matters: `RM`, `Rp`, `CHF`).
    private static let currencyRegions: [UInt32: String] = {
        let table: [(String, String)] = [
            ("RM", "MY"), ("Rm", "MY"), ("MYR", "MY"), ("Rp", "ID"), ("RP", "ID"), ("IDR", "ID"),
            ("GBP", "GB"), ("SGD", "SG"), ("AUD", "AU"), ("CAD", "CA"), ("NZD", "NZ"), ("HKD", "HK"),
            ("CHF", "CH"), ("SFr", "CH"), ("INR", "IN"), ("JPY", "JP"), ("CNY", "CN"), ("RMB", "CN"),
            ("THB", "TH"), ("PHP", "PH"), ("SEK", "SE"), ("NOK", "NO"), ("DKK", "DK"), ("PLN", "PL"),
            ("CZK", "CZ"), ("Kč", "CZ"), ("HUF", "HU"), ("ZAR", "ZA"), ("BRL", "BR"), ("MXN", "MX"),
            ("KRW", "KR"), ("USD", "US"), ("ARS", "AR"), ("CLP", "CL"), ("UYU", "UY"), ("VND", "VN"),
            ("KES", "KE"), ("KSh", "KE"), ("Ksh", "KE"), ("NGN", "NG"), ("AED", "AE"), ("EGP", "EG"),
        ]
        var d: [UInt32: String] = [:]
        for (word, region) in table {
            var key: UInt32 = 0
            for c in word.utf8 { key = key << 8 | UInt32(c) }
            d[key] = region
        }
        return d
    }()

    /// A currency symbol starting at `i` that belongs to one country (not `€`, `¥`, `$`).
    static func symbolRegion(_ s: ScanText, _ i: Int) -> String? {
        let c = s.at(i)
        if c == 0xC2 { return s.at(i + 1) == 0xA3 ? "GB" : nil } // £
        if c == 0xE2, s.at(i + 1) == 0x82 {
            switch s.at(i + 2) {
            case 0xB9: return "IN" // ₹
            case 0xB1: return "PH" // ₱
            case 0xA9: return "KR" // ₩
            case 0xAA: return "IL" // ₪
            case 0xAB: return "VN" // ₫
            case 0xA6: return "NG" // ₦
            case 0xA1: return "CR" // ₡
            default: return nil
            }
        }
        if c == 0xE0, s.at(i + 1) == 0xB8, s.at(i + 2) == 0xBF { return "TH" } // ฿
        return nil
    }

    private func run(_ s: ScanText, context: DetectionContext, postalCodes: [Hit]? = nil) -> [Entity] {
        let region = context.region ?? self.region
        var hits: [Hit] = []
        hits.reserveCapacity(64)
        WebDetector().detectEmails(s, into: &hits)
        WebDetector().detectURLs(s, into: &hits)
        FinanceDetector().detectIBANs(s, into: &hits)
        FinanceDetector().detectCards(s, into: &hits)
        PhoneDetector(region: region, referenceYear: referenceDate.year).detect(s, into: &hits)
        var dt = DateTimeDetector(dayFirst: context.dayFirst, referenceYear: referenceDate.year)
        if let r = region { dt.regionDayFirst = !DataDetector.monthFirstRegions.contains(r) }
        dt.detectDates(s, into: &hits)
        dt.detectTimes(s, into: &hits)
        MoneyDetector(region: region).detect(s, into: &hits)
        let atomicCount = hits.count
        // (Postal codes are read for phones too: one of a shape no phone plan has takes its digits from a phone.)
        if types.contains(.address) || types.contains(.postalCode) || types.contains(.phone) {
            AddressDetector(region: region).detect(s.withAddressPartsAsCommas, into: &hits, found: postalCodes)
        }
        // Atomic entities compete for their text; postal codes only among themselves;
        // an address may hold other entities.
        var keep = resolve(hits, 0..<atomicCount)
        let postal = resolve(hits, atomicCount..<hits.count) { $0.type == .postalCode }
        // A postal code of a shape no phone plan groups so (`CEP 01310-100`, `1000-001 Lisboa`) is no phone number.
        let surePostal = postal.filter { hits[$0].priority >= AddressDetector.surePriority }
        if !surePostal.isEmpty {
            keep.removeAll { k in
                hits[k].type == .phone
                    && surePostal.contains { hits[$0].start < hits[k].end && hits[k].start < hits[$0].end }
            }
        }
        keep += postal
        keep += (atomicCount..<hits.count).filter { hits[$0].type == .address }
        keep = keep.filter { types.contains(hits[$0].type) }
        keep.sort { (hits[$0].start, hits[$0].end) < (hits[$1].start, hits[$1].end) }
        return entities(s, hits, keep)
    }

    /// Indices of the best of overlapping candidates: higher priority first, then longer.
    private func resolve(_ hits: [Hit], _ range: Range<Int>, where include: (Hit) -> Bool = { _ in true }) -> [Int] {
        let candidates = range.filter { include(hits[$0]) }
        if candidates.count <= 1 { return candidates }
        let order = candidates.sorted {
            let a = hits[$0], b = hits[$1]
            if a.priority != b.priority { return a.priority > b.priority }
            return (a.end - a.start) > (b.end - b.start)
        }
        var taken: [(Int, Int)] = []
        var out: [Int] = []
        for k in order {
            let (hs, he) = (hits[k].start, hits[k].end)
            if taken.contains(where: { hs < $0.1 && $0.0 < he }) { continue }
            taken.append((hs, he))
            out.append(k)
        }
        return out
    }

    /// Converts byte offsets to Unicode scalar offsets and builds the entities.
    private func entities(_ s: ScanText, _ hits: [Hit], _ keep: [Int]) -> [Entity] {
        let ascii = s.isASCII
        var table: [Int32] = []
        if !ascii && !keep.isEmpty {
            table.reserveCapacity(s.count + 1)
            var n: Int32 = 0
            for c in s.bytes { table.append(n); if c & 0xC0 != 0x80 { n += 1 } }
            table.append(n)
        }
        func scalarOffset(_ byte: Int) -> Int { ascii ? byte : Int(table[byte]) }
        var out: [Entity] = []
        out.reserveCapacity(keep.count)
        for k in keep {
            let h = hits[k]
            out.append(Entity(type: h.type, text: s.string(h.start, h.end),
                              range: EntityRange(start: scalarOffset(h.start), end: scalarOffset(h.end)),
                              value: h.value, ambiguous: h.ambiguous, alternatives: h.alternatives))
        }
        return out
    }
}
