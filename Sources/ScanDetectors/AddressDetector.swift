import Foundation
import ScanModel

/// Postal codes and postal addresses.
///
/// Postal codes are found by their national shapes: US ZIP and ZIP+4 after a state
/// abbreviation, UK (`SW1A 1AA`), Canada (`M5V 2T6`), Netherlands (`1012 AB` before a
/// town), Australia (4 digits after a state), and 5-digit codes before a town at the start
/// of a line or after a comma (Germany, France, Malaysia and others; the country comes
/// from the region or a country name nearby).
///
/// An address is built around a postal code: the locality line holding it, the street
/// line(s) just before it (or the comma-separated part before the town on the same
/// line), and a country line just after it.
struct AddressDetector {
    let region: String?

    static let usStates: Set<String> = [
        "AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "FL", "GA", "HI", "ID", "IL", "IN", "IA", "KS", "KY",
        "LA", "ME", "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV", "NH", "NJ", "NM", "NY", "NC", "ND",
        "OH", "OK", "OR", "PA", "RI", "SC", "SD", "TN", "TX", "UT", "VT", "VA", "WA", "WV", "WI", "WY", "DC", "PR"
    ]
    static let caProvinces: Set<String> = ["AB", "BC", "MB", "NB", "NL", "NS", "NT", "NU", "ON", "PE", "QC", "SK", "YT"]
    static let auStates: Set<String> = ["NSW", "VIC", "QLD", "SA", "WA", "TAS", "NT", "ACT"]

    static let countries: [String: String] = [
        "usa": "US", "united states": "US", "united states of america": "US", "u.s.a.": "US",
        "united kingdom": "GB", "uk": "GB", "england": "GB", "scotland": "GB", "wales": "GB", "great britain": "GB",
        "canada": "CA", "australia": "AU", "germany": "DE", "deutschland": "DE", "france": "FR",
        "netherlands": "NL", "the netherlands": "NL", "nederland": "NL", "malaysia": "MY", "ireland": "IE",
        "new zealand": "NZ", "singapore": "SG", "india": "IN", "spain": "ES", "españa": "ES", "italy": "IT",
        "italia": "IT", "switzerland": "CH", "schweiz": "CH", "suisse": "CH", "austria": "AT", "österreich": "AT",
        "belgium": "BE", "belgique": "BE", "belgië": "BE", "sweden": "SE", "sverige": "SE", "norway": "NO",
        "norge": "NO", "denmark": "DK", "danmark": "DK", "finland": "FI", "suomi": "FI", "poland": "PL", "polska": "PL",
        "portugal": "PT", "japan": "JP", "china": "CN", "hong kong": "HK", "indonesia": "ID", "mexico": "MX",
        "méxico": "MX", "brazil": "BR", "brasil": "BR", "south africa": "ZA", "luxembourg": "LU",
        "czech republic": "CZ", "czechia": "CZ", "korea": "KR", "south korea": "KR", "argentina": "AR",
        "united arab emirates": "AE", "uae": "AE", "thailand": "TH", "philippines": "PH", "vietnam": "VN",
        // Names that are also a food, a hat or a given name (Chile, Turkey, Panama, Jordan, Georgia, Israel) are left
        // out: printed on a menu or a card they would move the document abroad.
        "việt nam": "VN", "viet nam": "VN", "colombia": "CO", "uruguay": "UY", "peru": "PE", "perú": "PE",
        "ecuador": "EC", "venezuela": "VE", "bolivia": "BO", "paraguay": "PY", "costa rica": "CR",
        "guatemala": "GT", "dominican republic": "DO", "trinidad": "TT", "república dominicana": "DO", "puerto rico": "PR",
        "egypt": "EG", "morocco": "MA", "maroc": "MA", "kenya": "KE", "nigeria": "NG", "ghana": "GH",
        "saudi arabia": "SA", "qatar": "QA", "kuwait": "KW", "türkiye": "TR", "greece": "GR",
        "hungary": "HU", "magyarország": "HU", "romania": "RO", "românia": "RO", "bulgaria": "BG", "croatia": "HR",
        "hrvatska": "HR", "slovenia": "SI", "slovenija": "SI", "slovakia": "SK", "slovensko": "SK", "serbia": "RS",
        "ukraine": "UA", "estonia": "EE", "eesti": "EE", "latvia": "LV", "lithuania": "LT", "iceland": "IS",
        "ísland": "IS", "taiwan": "TW", "pakistan": "PK", "bangladesh": "BD", "sri lanka": "LK", "nepal": "NP",
        "cambodia": "KH", "česká republika": "CZ", "česko": "CZ", "p.r. china": "CN", "pr china": "CN",
        "republic of korea": "KR", "republic of ireland": "IE", "northern ireland": "GB",
        "hong kong sar": "HK", "macau sar": "MO", "macao sar": "MO", "ksa": "SA", "k.s.a.": "SA", "taiwan r.o.c.": "TW",
        "taiwan roc": "TW",
    ]

    /// The letters an Eircode uses (no B G I J L M O Q S U Z).
    static let eircodeLetters: Set<UInt8> = Set("ACDEFHKNPRTVWXY".utf8)

    static let streetWords: Set<String> = [
        "street", "st", "road", "rd", "avenue", "ave", "av", "blvd", "boulevard", "lane", "ln", "drive", "dr",
        "way", "court", "ct", "place", "pl", "square", "sq", "terrace", "parkway", "pkwy", "highway", "hwy",
        "suite", "ste", "unit", "floor", "building", "box", "po", "crescent", "close", "grove", "row", "hill",
        "straße", "strasse", "str", "weg", "allee", "platz", "gasse", "ring", "damm", "ufer",
        "rue", "chemin", "impasse", "quai", "cours", "allée", "route", "bd",
        "jalan", "jln", "jl", "lorong", "taman", "lot", "no", "persiaran", "lebuh", "kampung", "bandar",
        // South Asia: Hindi and Nepali `Marg`, Tamil `Salai`.
        "marg", "salai",
        "calle", "via", "viale", "piazza", "corso", "laan", "straat", "gracht", "plein", "kade", "dijk",
        "avenida", "avda", "rua", "travessa", "alameda", "paseo", "plaza", "praça", "jirón", "carrera", "calzada",
        // Central and Eastern Europe, Turkey, the Baltics, romanized Cyrillic and Greek.
        "ul", "ulica", "aleja", "aleje", "utca", "út", "körút", "tér", "třída", "náměstí", "námestie", "cesta", "trg",
        "bulevar", "bulevardul", "strada", "vul", "vulytsia", "ulitsa", "prospekt", "prosp", "sokak", "sok", "caddesi",
        "cad", "bulvarı", "iela", "gatve", "tänav", "mnt", "odos", "leoforos", "rruga",
        // Catalan.
        "carrer", "avinguda", "passeig", "rambla", "ronda", "travessera",
    ]

    /// Endings of a one-word street's name (`Hauptstraße`, `Vesterbrogade`, `Storgatan`, `Kirkeveien`).
    static let streetSuffixes = [
        "straße", "strasse", "str", "weg", "straat", "laan", "gatan", "gata", "gade", "gate", "vej", "veien", "vegen",
        "vägen", "torv", "torget", "plads", "plass", "stræde", "strede", "gränd", "allé", "katu", "kuja", "väylä",
    ]

    /// `found`: the postal codes of the same text found without a region (by
    /// `DataDetector.regionEvidence`), reused instead of scanning again.
    func detect(_ s: ScanText, into hits: inout [Hit], found: [Hit]? = nil) {
        var postal: [Hit] = []
        if let found, region != "NL" {  // only the Netherlands accepts a code without its town
            postal = found
            for k in postal.indices where postal[k].value.country == nil && region != nil {
                postal[k].value.country = region
            }
        } else {
            detectPostalCodes(s, into: &postal)
        }
        hits.append(contentsOf: postal)
        var lastEnd = -1
        for p in postal where p.start >= lastEnd {
            if let a = address(s, around: p) {
                hits.append(a)
                lastEnd = a.end
            }
        }
    }

    private func token(_ s: ScanText, _ i: Int) -> (Int, Int) {
        var e = i
        while e < s.count, isAlnum(s.bytes[e]) { e += 1 }
        return (i, e)
    }

    func detectPostalCodes(_ s: ScanText, into hits: inout [Hit]) {
        let b = s.bytes
        let n = b.count
        var i = 0
        while i < n {
            let c = b[i]
            guard isAlnum(c), !isAlnum(s.at(i - 1)), s.at(i - 1) != 0x2D || !isAlnum(s.at(i - 2)) else {
                i += 1; continue
            }
            let (_, e) = token(s, i)
            let len = e - i
            // US: ST 12345(-6789); AU: NSW 2000; CA: ON M5V 2T6 is handled by the CA shape.
            if len == 2 || len == 3, (i..<e).allSatisfy({ isUpper(b[$0]) }), s.at(e) == 0x20 {
                let st = s.string(i, e)
                let q = e + 1
                let (_, de) = token(s, q)
                if len == 2, AddressDetector.usStates.contains(st), de - q == 5, (q..<de).allSatisfy({ isDigit(b[$0]) })
                {
                    var end = de
                    if s.at(de) == 0x2D, (de + 1..<de + 5).allSatisfy({ isDigit(s.at($0)) }), !isAlnum(s.at(de + 5)) {
                        end = de + 5
                    }
                    // A ZIP+4 after its state (`DC 00781-8731`) is a shape no phone plan groups so: its digits are no
                    // phone's.
                    hits.append(
                        Hit(
                            type: .postalCode, start: q, end: end,
                            value: EntityValue(region: st, postalCode: s.string(q, end), country: "US"),
                            priority: end > de ? AddressDetector.surePriority : 25))
                    i = end; continue
                }
                if AddressDetector.auStates.contains(st), de - q == 4, (q..<de).allSatisfy({ isDigit(b[$0]) }) {
                    hits.append(
                        Hit(
                            type: .postalCode, start: q, end: de,
                            value: EntityValue(region: st, postalCode: s.string(q, de), country: "AU"), priority: 25))
                    i = de; continue
                }
            }
            // A state glued to its code by a lost space (`Port Leslieton, TAS6007`, `Austin, TX78701`): after a town
            // and a comma on the same line (or with a country after it), and closing the line or its part of the
            // address.
            if len >= 6, len <= 7, isUpper(b[i]), isUpper(b[i + 1]), endsElement(s, e),
                townBeforeOnLine(s, i, comma: true) || townBeforeOnLine(s, i, comma: false) && countryNear(s, e) != nil
            {
                let letters = (i..<e).prefix { isUpper(b[$0]) }.count
                let st = s.string(i, i + letters), digits = len - letters
                if (i + letters..<e).allSatisfy({ isDigit(b[$0]) }),
                    digits == 4 && AddressDetector.auStates.contains(st)
                        || digits == 5 && AddressDetector.usStates.contains(st)
                {
                    let q = i + letters
                    hits.append(
                        Hit(
                            type: .postalCode, start: q, end: e,
                            value: EntityValue(
                                region: st, postalCode: s.string(q, e), country: digits == 4 ? "AU" : "US"),
                            priority: 25))
                    i = e; continue
                }
            }
            // Canada: A1A 1A1
            if len == 3, isUpper(b[i]), isDigit(b[i + 1]), isUpper(b[i + 2]), s.at(e) == 0x20 || s.at(e) == 0x2D {
                let q = e + 1
                let (_, de) = token(s, q)
                if de - q == 3, isDigit(b[q]), isUpper(b[q + 1]), isDigit(b[q + 2]),
                    !"DFIOQU".utf8.contains(b[i]), !"DFIOQU".utf8.contains(b[i + 2]), !"DFIOQU".utf8.contains(b[q + 1])
                {
                    hits.append(
                        Hit(
                            type: .postalCode, start: i, end: de,
                            value: EntityValue(postalCode: s.string(i, de), country: "CA"), priority: 25))
                    i = de; continue
                }
            }
            // UK: outward (A9, A99, AA9, AA99, A9A, AA9A) + inward (9AA)
            if len >= 2, len <= 4, isUpper(b[i]), s.at(e) == 0x20 {
                let q = e + 1
                let (_, de) = token(s, q)
                if de - q == 3,
                    let code = AddressDetector.ukPostcode(
                        outward: Array(b[i..<e]), inward: Array(b[q..<de]),
                        endsElement: endsElement(s, de))
                {
                    hits.append(
                        Hit(
                            type: .postalCode, start: i, end: de, value: EntityValue(postalCode: code, country: "GB"),
                            priority: 25))
                    i = de; continue
                }
            }
            // A UK postcode whose space OCR lost (`BS14GN`), on a British document: closing its line after a town's
            // word (`Bristol BS14GN`; not `Voucher Code SE12XY`), or alone on a line under one, its inward letters of
            // the inward code's own alphabet (no C, I, K, M, O or V).
            if (5...7).contains(len), region == "GB" || countryPrintedNear(s, e) == "GB", isUpper(b[i]),
                endsElement(s, e), (i..<e).allSatisfy({ isUpper(b[$0]) || isDigit(b[$0]) }),
                townWordBefore(s, i) || Self.aloneUnderATown(s, i),
                (e - 2..<e).allSatisfy({ !"CIKMOV".utf8.contains(b[$0]) }),
                let code = AddressDetector.ukPostcode(
                    outward: Array(b[i..<e - 3]), inward: Array(b[e - 3..<e]), endsElement: false)
            {
                hits.append(
                    Hit(
                        type: .postalCode, start: i, end: e, value: EntityValue(postalCode: code, country: "GB"),
                        priority: 25))
                i = e; continue
            }
            // Ireland (Eircode): a routing key (a letter and two digits, or D6W), then four characters of
            // the code's own alphabet, letters and digits mixed (D02 X285, H91 Y6H6).
            if len == 3, s.at(e) == 0x20, AddressDetector.eircodeLetters.contains(b[i]) || b[i] == 0x44,
                isDigit(b[i + 1]), isDigit(b[i + 2]) || s.string(i, e) == "D6W"
            {
                let q = e + 1
                let (_, de) = token(s, q)
                let id = Array(b[q..<de])
                // An identifier of digits only or letters only (`W46 6343`, `K93 ACWF`) is an Eircode too, but also the
                // shape of many codes and counts: it has to close its line or its part of the address, after a town's
                // word (`Connie Ville` / `W46 6343`; not after a date line, `12:00 PM` / `T03 2006`).
                if id.count == 4, id.allSatisfy({ isDigit($0) || AddressDetector.eircodeLetters.contains($0) }),
                    id.contains(where: isDigit) && id.contains(where: isUpper) || endsElement(s, de) && wordBefore(s, i)
                {
                    hits.append(
                        Hit(
                            type: .postalCode, start: i, end: de,
                            value: EntityValue(postalCode: s.string(i, de), country: "IE"), priority: 25))
                    i = de; continue
                }
            }
            // Netherlands: 1234 AB Town
            if len == 4, (i..<e).allSatisfy({ isDigit(b[$0]) }), b[i] != 0x30, s.at(e) == 0x20 {
                let q = e + 1
                let (_, de) = token(s, q)
                if de - q == 2, isUpper(b[q]), isUpper(b[q + 1]), s.at(de) == 0x20 || s.at(de) == 0x0A || de == n,
                    townFollows(s, de) || region == "NL"
                {
                    hits.append(
                        Hit(
                            type: .postalCode, start: i, end: de,
                            value: EntityValue(postalCode: s.string(i, de), country: "NL"), priority: 25))
                    i = de; continue
                }
            }
            // Brazil's CEP (`CEP 01310-100`, `01310-100 São Paulo`), Portugal's code (`1000-001 Lisboa`) and Poland's
            // (`00-950 Warszawa`): five, four or two digits, a hyphen and three more, which no phone plan groups so.
            // After the word `CEP`, or before a town (also after a house number: `Largo Velville, 137 4559-318 Tonzo`);
            // a phone reading of the same digits gives way.
            if len == 5 || len == 4 || len == 2, (i..<e).allSatisfy({ isDigit(b[$0]) }), s.at(e) == 0x2D {
                let q = e + 1
                let (_, de) = token(s, q)
                let (country, placed): (String, () -> Bool)
                switch len {
                // (Also closing the town's line after its state, `São Paulo - SP, 01310-200`.)
                case 5:
                    (country, placed) = (
                        "BR", { afterCEP(s, i) || townFollows(s, de) || brazilianStateBefore(s, i) && endsElement(s, de) }
                    )
                case 4: (country, placed) = ("PT", { b[i] != 0x30 && townFollows(s, de) })
                // (Two digits and three are also a house number in Hawaii and Queens, `92-161 Waipahe Place`: a street
                // word after them says so.)
                default: (country, placed) = ("PL", { townFollows(s, de) && !streetWordFollows(s, de) })
                }
                if de - q == 3, (q..<de).allSatisfy({ isDigit(b[$0]) }), s.at(de) != 0x2D, s.at(de) != 0x2F, placed() {
                    hits.append(
                        Hit(
                            type: .postalCode, start: i, end: de,
                            value: EntityValue(postalCode: s.string(i, de), country: country),
                            priority: AddressDetector.surePriority))
                    i = de; continue
                }
            }
            // A postal code after its country's letters and a hyphen, before a town (`DK-1620 København V`, `SE-114 32
            // Stockholm`, `CH-8001 Zürich`, `N-0154 Oslo`): the code of that country's shape. After one letter (`A-`,
            // `N-`) only where the line or a comma-separated part opens with it, as a unit's number may be written so
            // (`A-1234 Main St`).
            // (Any other country's two letters before a code of its GeoNames shape: `LT-01103 Vilnius`.)
            let prefix = s.string(i, e)
            if (1...3).contains(len), (i..<e).allSatisfy({ isUpper(b[$0]) }), s.at(e) == 0x2D,
                let country = AddressDetector.codePrefixes[prefix]
                    ?? (len == 2 && AddressDetector.postalCodeExpressions[prefix] != nil ? prefix : nil)
            {
                let (q, de) = token(s, e + 1)
                let opensPart = Self.opensPart(s, at: Self.lastBefore(s, i))
                let digits = de - q
                var end: Int?
                if digits == 4, AddressDetector.fourDigitCountries.contains(country) {
                    end = de
                } else if digits == 5, AddressDetector.fiveDigitPrefixCountries.contains(country) {
                    end = de
                } else if digits == 3, ["SE", "CZ", "SK", "GR"].contains(country), s.at(de) == 0x20 {
                    let (q2, de2) = token(s, de + 1)
                    if de2 - q2 == 2, (q2..<de2).allSatisfy({ isDigit(b[$0]) }) { end = de2 }
                } else if AddressDetector.codePrefixes[prefix] == nil,
                    AddressDetector.postalCodeFits(s.string(q, de), country),
                    countryPrintedNear(s, de) == country
                        || DataDetector.cityRegion(s, de + 1, s.wordEnd(from: de + 1))?.0 == country
                {
                    end = de
                }
                if let end, (q..<de).allSatisfy({ isDigit(b[$0]) }), townFollows(s, end), len > 1 || opensPart {
                    hits.append(
                        Hit(
                            type: .postalCode, start: i, end: end,
                            value: EntityValue(postalCode: s.string(q, end), country: country),
                            priority: AddressDetector.surePriority))
                    i = end; continue
                }
            }
            // Three digits, a space and two, before a town (Sweden, Czechia, Slovakia, Greece: `114 32 Stockholm`,
            // `110 00 Praha`): at the start of a line, after a comma, or after a street's house number on the same
            // line (`Storgatan 12 114 32 Stockholm`). A phone's groups (`08-123 45 67`) have no town after them.
            if len == 3, (i..<e).allSatisfy({ isDigit(b[$0]) }), s.at(e) == 0x20 {
                let (q, de) = token(s, e + 1)
                let k = Self.lastBefore(s, i)
                if de - q == 2, (q..<de).allSatisfy({ isDigit(b[$0]) }), townFollows(s, de),
                    Self.opensPart(s, at: k) || k >= 0 && isDigit(b[k]) && afterStreetNumber(s, k)
                {
                    hits.append(
                        Hit(
                            type: .postalCode, start: i, end: de,
                            value: EntityValue(postalCode: s.string(i, de), country: countryNear(s, de) ?? region),
                            priority: AddressDetector.surePriority))
                    i = de; continue
                }
            }
            // Six digits that close a town's line or part, in India (its PIN, never with a leading zero: `Mumbai -
            // 400021, India`, `Bengaluru, Karnataka 560038` over `India`) and Singapore (`Singapore 048616`): the
            // country printed near or `Singapore` just before says which; the document's region India only after
            // a town's words (`Bill No - 123456`, `Auth Code, 654321` are no addresses). (The country is looked for
            // only near a line's end, so that a long line of numbers costs no more than its length.)
            // India's PIN is also printed in two groups of three (`Mumbai 400 051`), and after a town with no comma
            // where a street stands before it (`No. 12, 3rd Cross` over `Bengaluru 560038`).
            var pinEnd = e
            if len == 3, (i..<e).allSatisfy({ isDigit(b[$0]) }), s.at(e) == 0x20 {
                let (q, de) = token(s, e + 1)
                if de - q == 3, (q..<de).allSatisfy({ isDigit(b[$0]) }), townWordBefore(s, i) {
                    pinEnd = de
                }
            }
            if len == 6 || pinEnd > e, (i..<pinEnd).allSatisfy({ isDigit(b[$0]) || $0 == e }), endsElement(s, pinEnd),
                lettersBefore(s, i)
            {
                let e = pinEnd  // the code's end, past its second group
                // (Singapore never groups its code.)
                let named = Self.previousWord(s, i) == "singapore" && len == 6 ? "SG" : nil
                let printed = Self.nearLineEnd(s, e) ? countryNear(s, e) ?? countryEndingNextLine(s, e) : nil
                // (A PIN in two groups only where India is printed: `120 240` after a dish is a count and a price.)
                let byRegion = region == "IN" && len == 6
                    && (Self.townBefore(s, i) || townWordBefore(s, i) && streetBefore(s, i)) ? region : nil
                if let country = named ?? printed ?? byRegion,
                    country == "SG" || country == "IN" && b[i] != 0x30
                {
                    hits.append(
                        Hit(
                            type: .postalCode, start: i, end: e,
                            value: EntityValue(postalCode: s.string(i, e), country: country), priority: 25))
                    i = e; continue
                }
            }
            // Japan's postal mark read as a `T` before its code, at the start of a line on a Japanese document
            // (`T604-8005`).
            // (Alone on its line, so not a mobile's `T090-1234-5678`.)
            if len == 4, b[i] == 0x54, (i + 1..<e).allSatisfy({ isDigit(b[$0]) }), s.at(e) == 0x2D,
                i == 0 || b[i - 1] == 0x0A, region == "JP"
            {
                let (q, de) = token(s, e + 1)
                var k = de
                while k < n, b[k] == 0x20 { k += 1 }
                if de - q == 4, (q..<de).allSatisfy({ isDigit(b[$0]) }), k == n || b[k] == 0x0A {
                    hits.append(
                        Hit(
                            type: .postalCode, start: i + 1, end: de,
                            value: EntityValue(postalCode: s.string(i + 1, de), country: "JP"),
                            priority: AddressDetector.surePriority))
                    i = de; continue
                }
            }
            // Japan: three digits, a hyphen and four, after the postal mark `〒`, or after a town's word and closing
            // its part where `Japan` is printed near (`Osaka 530-0001, Japan`), or where the region is Japan and the
            // line above shows a Japanese address (`1-2-3 Shibuya, Shibuya-ku` over `Tokyo 150-0002`); not by the
            // document's region alone (`Order 123-4567`, `Member 123-4567`).
            if len == 3, (i..<e).allSatisfy({ isDigit(b[$0]) }), s.at(e) == 0x2D {
                let (q, de) = token(s, e + 1)
                if de - q == 4, (q..<de).allSatisfy({ isDigit(b[$0]) }), s.at(de) != 0x2D,
                    Self.afterPostalMark(s, i)
                        || lettersBefore(s, i) && endsElement(s, de) && Self.nearLineEnd(s, de)
                            && (countryNear(s, de) == "JP"
                                || region == "JP" && townWordBefore(s, i) && Self.japaneseBlockBefore(s, i))
                {
                    hits.append(
                        Hit(
                            type: .postalCode, start: i, end: de,
                            value: EntityValue(postalCode: s.string(i, de), country: "JP"),
                            priority: AddressDetector.surePriority))
                    i = de; continue
                }
            }
            // Four digits after a town that close its line or part, where codes follow the town (`Wellington 6011`,
            // `Johannesburg, 2196`, `Makati City 1226`): the country printed near or the document's region says so, and
            // a street stands before the town (`88 The Terrace` above it), so that `Est. 1998` is none.
            if len == 4, (i..<e).allSatisfy({ isDigit(b[$0]) }), endsElement(s, e), townWordBefore(s, i),
                let country = countryPrintedNear(s, e) ?? region,
                AddressDetector.codeAfterTownCountries.contains(country), streetBefore(s, i)
            {
                hits.append(
                    Hit(
                        type: .postalCode, start: i, end: e,
                        value: EntityValue(postalCode: s.string(i, e), country: country), priority: 25))
                i = e; continue
            }
            // Argentina's CPA: a province's letter, four digits and three letters (`C1043AAZ Buenos Aires`), or the
            // letter and the town's four digits alone (`X5000 Córdoba`), before a town or closing its part, where the
            // region or the country printed near is Argentina (`Order A1234BCD` is none).
            if len == 8 || len == 5, isUpper(b[i]), b[i] != 0x49, b[i] != 0x4F,
                (i + 1..<i + 5).allSatisfy({ isDigit(b[$0]) }), (i + 5..<e).allSatisfy({ isUpper(b[$0]) }),
                // (The short form only where it opens its line or part and no number follows on it: `Modelo X5000
                // Pro`, `X5000 Taladro 45.000,00` are none.)
                len == 8 || Self.opensPart(s, at: Self.lastBefore(s, i))
                    && !(e..<lineBounds(s, e).1).contains(where: { isDigit(b[$0]) }),
                townFollows(s, e) || endsElement(s, e) && lettersBefore(s, i),
                region == "AR" || countryPrintedNear(s, e) == "AR"
            {
                hits.append(
                    Hit(
                        type: .postalCode, start: i, end: e,
                        value: EntityValue(postalCode: s.string(i, e), country: "AR"),
                        priority: AddressDetector.surePriority))
                i = e; continue
            }
            // A code after a word that says it is one (`C.P. 06600`, `PLZ 10115`, `Postal Code: 113`, `Código Postal
            // 1000-001`), in the shape of the country printed near or of the document's region; with no country known,
            // four to six digits after a mark that means nothing else.
            if (2...7).contains(len), (i..<e).allSatisfy({ isDigit(b[$0]) }), let mark = Self.postalMarkBefore(s, i) {
                var end = e
                if s.at(e) == 0x2D, isDigit(s.at(e + 1)) { end = token(s, e + 1).1 }
                let code = s.string(i, end)
                let country = countryNear(s, end) ?? region
                let fits = country.map { c in
                    Self.postalCodeFits(code, c) && (mark.countries.map { $0.contains(c) } ?? true)
                } ?? (mark.countries == nil && (4...6).contains(end - i) && end == e)
                if fits {
                    hits.append(
                        Hit(
                            type: .postalCode, start: i, end: end,
                            value: EntityValue(postalCode: code, country: country),
                            priority: AddressDetector.surePriority))
                    i = end; continue
                }
            }
            // Five digits before a town, at the start of a line or after a comma: 10115 Berlin, 75008 Paris, 50450
            // Kuala Lumpur.
            if len == 5, (i..<e).allSatisfy({ isDigit(b[$0]) }), townFollows(s, e) {
                // (`D-10115`, `F-75008`: read after their country's letters, above.)
                if Self.opensPart(s, at: Self.lastBefore(s, i)) {
                    let country = countryNear(s, e) ?? region
                    hits.append(
                        Hit(
                            type: .postalCode, start: i, end: e,
                            value: EntityValue(postalCode: s.string(i, e), country: country), priority: 25))
                    i = e; continue
                }
            }
            // Four digits before a town (Austria, Switzerland, Belgium, Denmark, Norway...: 1010 Wien, 8001 Zürich),
            // at the start of a line, where the line above is a street that ends with its house number
            // (`Bahnhofstrasse 12`) or the region is one of those countries; a bare `1500 Broadway` is a street. On
            // the street's own line after its house number too (`Vesterbrogade 12, 1620 København V`, `Torvet 3 4000
            // Roskilde`), where the street has a street word or one of those countries is the region. Norway's codes
            // of Oslo open with a zero (`0154 Oslo`).
            if len == 4, (i..<e).allSatisfy({ isDigit(b[$0]) }), townFollows(s, e) {
                let k = Self.lastBefore(s, i)
                let country = countryNear(s, e) ?? region
                let fourDigits = country.map(AddressDetector.fourDigitCountries.contains) ?? false
                var afterStreet = false
                if k >= 0, b[k] != 0x0A {
                    var n = k
                    if b[n] == 0x2C { n -= 1 }
                    let (la, _) = lineBounds(s, i)
                    afterStreet =
                        n >= la && isDigit(b[n]) && afterStreetNumber(s, n)
                        && (fourDigits || isNamedStreet(s, la, n + 1))
                }
                if b[i] != 0x30 || country == "NO",
                    (k < 0 || b[k] == 0x0A) && (fourDigits || k >= 0 && streetEndsWithNumber(s, before: k))
                        || afterStreet
                {
                    hits.append(
                        Hit(
                            type: .postalCode, start: i, end: e,
                            value: EntityValue(postalCode: s.string(i, e), country: country), priority: 25))
                    i = e; continue
                }
            }
            // Any other country's code, in the shape GeoNames gives it (`CountryNames.swift`): a number that closes a
            // town's part (`Riyadh 11563, Kingdom of Saudi Arabia`, `Bangkok 10110 Thailand`, `Seoul 06016`) or opens
            // a part before a town (`400604 Cluj-Napoca`), in the country that `anyCountrysCode` reads off the town,
            // the street before it or the country printed after it.
            // (Every length from three to seven digits is some country's: a code of no country named is not checked.)
            if (3...7).contains(len), (i..<e).allSatisfy({ isDigit(b[$0]) }), let place = anyCountrysCode(s, i, e),
                place.country.map { Self.postalCodeFits(s.string(i, e), $0) } ?? true
            {
                hits.append(
                    Hit(
                        type: .postalCode, start: i, end: e,
                        value: EntityValue(postalCode: s.string(i, e), country: place.country), priority: 20))
                i = e; continue
            }
            i = max(e, i + 1)
        }
    }

    /// The country whose code the digits from `i` to `e` may be, by where they stand (see the rule that asks): after a
    /// town, closing its part or before its country (`Bangkok 10110 Thailand`, `Lima 15074 - Perú`), or opening a part
    /// before a town. The town must be a large city's name alone (`Seoul`, `Tel Aviv`, whose `Tel` labels a phone
    /// elsewhere), or a named street must stand before, or a country of the short list read anywhere be printed after
    /// it (`Bangkok 10110 Thailand`); a country's other names after a number are a dish's or a tour's (`Club Sandwich
    /// 12500 Turkey`, `Tour 1250` over `Georgia`). A year (`Vienna 2024`, `Malbec 2020` over `Argentina`) needs the
    /// street. Where a named street and a town stand before the code and nothing names the country (`159/3
    /// Nimmanhaemin Rd., Suthep,` over `Chiang Mai 50200`), the code is one of no country named: `.unnamed`.
    private func anyCountrysCode(_ s: ScanText, _ i: Int, _ e: Int) -> CodePlace? {
        let ends = endsElement(s, e)
        let countryAfter = ends || !Self.nearLineEnd(s, e, limit: 40) ? nil : countryIn(s, e, lineBounds(s, e).1)
        let year = e - i == 4 && (1900...2099).contains(readInt(s, i, e))
        // The town's part: from the comma or the line's start before the code.
        var p = i
        while p > 0, s.bytes[p - 1] != 0x2C, s.bytes[p - 1] != 0x0A { p -= 1 }
        // (A code alone in the line's last part closes the part before it: `Cali, Valle del Cauca, 760045`.)
        if ends, p > 1, s.bytes[p - 1] == 0x2C, (p..<i).allSatisfy({ s.bytes[$0] == 0x20 }) {
            p -= 1
            while p > 0, s.bytes[p - 1] != 0x2C, s.bytes[p - 1] != 0x0A { p -= 1 }
        }
        while p < i, s.bytes[p] == 0x20 { p += 1 }
        // (A code that opens its part and a comma after it is read below: `125009, Moscow`.)
        if ends || countryAfter != nil, p < i {
            let city = DataDetector.cityRegion(s, p, s.wordEnd(from: p))
            let cityAlone = !year && city.map { c in (c.1..<i).allSatisfy { s.bytes[$0] == 0x20 } } ?? false
            // (Or a country of the short list printed after it: `Bangkok 10110 Thailand`.) Cheaper checks first.
            if !cityAlone {
                guard townWordBefore(s, i) else { return nil }
                let listed = !year
                    && (countryIn(s, e, lineBounds(s, e).1, listed: true) ?? countryPrintedNear(s, e, listed: true))
                        != nil
                guard listed || streetBefore(s, i) else { return nil }
            }
            let country = countryAfter ?? countryPrintedNear(s, e) ?? (cityAlone ? city?.0 : nil) ?? region
            guard country != nil || !year && townOfWords(s, p, i) && streetLeadsOn(s, i) else { return nil }
            return CodePlace(country)
        }
        // (Or with a comma between the code and its town, as Russia writes it: `125009, Moscow`.)
        let e = s.at(e) == 0x2C ? e + 1 : e
        if Self.opensPart(s, at: Self.lastBefore(s, i)), townFollows(s, e) {
            let city = DataDetector.cityRegion(s, e + 1, s.wordEnd(from: e + 1))
            let cityAlone = !year && city.map { c in c.1 >= s.count || [0x2C, 0x0A].contains(s.bytes[c.1]) } ?? false
            // (Or the country named in the line's last part, after the town: `600 Akureyri, Iceland`.)
            let lineEnd = lineBounds(s, e).1
            var lastPart = lineEnd
            while lastPart > e + 1, s.bytes[lastPart - 1] != 0x2C { lastPart -= 1 }
            let named = !year && lastPart > e + 1 ? countryIn(s, lastPart, lineEnd) : nil
            guard cityAlone || named != nil || streetBefore(s, i) else { return nil }
            let country = countryPrintedNear(s, e) ?? named ?? (cityAlone ? city?.0 : nil) ?? region
            var townEnd = e + 1
            while townEnd < s.count, s.bytes[townEnd] != 0x2C, s.bytes[townEnd] != 0x0A { townEnd += 1 }
            guard country != nil || !year && townOfWords(s, e + 1, townEnd) && streetLeadsOn(s, i) else { return nil }
            return CodePlace(country)
        }
        return nil
    }

    /// Where a postal code of any country stands: in a country read off the town, the street or the print near it, or
    /// in one that nothing on the document names (its shape then goes unchecked).
    enum CodePlace {
        case country(String)
        case unnamed

        init(_ country: String?) { self = country.map(CodePlace.country) ?? .unnamed }

        var country: String? {
            if case .country(let c) = self { return c }
            return nil
        }
    }

    /// Whether `code` has the shape of `country`'s postal codes (GeoNames' patterns, compiled once).
    static func postalCodeFits(_ code: String, _ country: String) -> Bool {
        guard let pattern = postalCodeExpressions[country] else { return false }
        return pattern.firstMatch(in: code, range: NSRange(code.startIndex..., in: code)) != nil
    }

    /// `postalCodePatternLines` read into a table (`CC|pattern`: the pattern after the first bar), compiled, with
    /// `postalCodePatternsBeyondGeoNames` over it.
    static let postalCodeExpressions: [String: NSRegularExpression] = {
        var d: [String: NSRegularExpression] = [:]
        for line in postalCodePatternLines.split(separator: "\n") {
            guard let bar = line.firstIndex(of: "|") else { continue }
            d[String(line[..<bar])] = try? NSRegularExpression(pattern: String(line[line.index(after: bar)...]))
        }
        for (country, pattern) in postalCodePatternsBeyondGeoNames {
            d[country] = try? NSRegularExpression(pattern: pattern)
        }
        return d
    }()

    /// Postal codes that countries print in more shapes than GeoNames' one: Taiwan's three digits, still the most
    /// printed, beside the five (3+2) and six (3+3) of Chunghwa Post (`Taipei City 106`, `Taipei 10617`).
    static let postalCodePatternsBeyondGeoNames: [String: String] = ["TW": #"^\d{3}(?:\d{2,3})?$"#]

    /// The canonical UK postcode of an outward and an inward code as read (`SW1A` `1AA`), or nil when they have no
    /// postcode's shape. A letter O read for a zero (`WoU 0FR`, `BO 0LP`) is mended once, where the code closes its
    /// line or its part of the address (`endsElement`) and its inward letters are of the inward code's own alphabet
    /// (no C, I, K, M, O or V, so never `TO 5PM`), and it is no ordinal (`NO 2ND`).
    static func ukPostcode(outward: [UInt8], inward: [UInt8], endsElement: Bool) -> String? {
        func shaped(_ out: [UInt8], _ inw: [UInt8]) -> Bool {
            let letters = out.prefix { isUpper($0) }.count
            guard letters == 1 || letters == 2,
                ukPostcodeAreas.contains(String(decoding: out.prefix(letters), as: UTF8.self))
            else { return false }
            let rest = out.dropFirst(letters)
            guard let f = rest.first, isDigit(f) else { return false }
            let tail = rest.dropFirst()
            return tail.count <= 1 && tail.allSatisfy { isDigit($0) || isUpper($0) }
                && inw.count == 3 && isDigit(inw[0]) && isUpper(inw[1]) && isUpper(inw[2])
        }
        func text(_ out: [UInt8], _ inw: [UInt8]) -> String { String(decoding: out + [0x20] + inw, as: UTF8.self) }
        if shaped(outward, inward) { return text(outward, inward) }
        let inwardLetters = inward.dropFirst().map { $0 & 0xDF }
        guard endsElement, inwardLetters.allSatisfy({ !"CIKMOV".utf8.contains($0) }),
            !["ST", "ND", "RD", "TH"].contains(String(decoding: inwardLetters, as: UTF8.self))
        else { return nil }
        let both = outward + [0x20] + inward
        for k in both.indices where both[k] == 0x4F || both[k] == 0x6F {  // O, o
            var mended = both
            mended[k] = 0x30
            let out = Array(mended[..<outward.count]), inw = Array(mended[(outward.count + 1)...])
            if shaped(out, inw) { return text(out, inw) }
        }
        // The area's second letter O read as a zero (`Y01 8AS` for York's `YO1 8AS`): the one letter before it is no
        // area of its own.
        if outward.count >= 3, isUpper(outward[0]), outward[1] == 0x30, isDigit(outward[2]) {
            var out = outward
            out[1] = 0x4F
            if shaped(out, inward) { return text(out, inward) }
        }
        return nil
    }

    /// The postcode areas of the United Kingdom and the Crown Dependencies (Royal Mail): the letters that open every
    /// postcode (`SW` of `SW1A 1AA`, `B` of `B1 1AA`). An item's code of the same shape (`A19 4PK`) opens with none.
    static let ukPostcodeAreas: Set<String> = [
        "AB", "AL", "B", "BA", "BB", "BD", "BF", "BH", "BL", "BN", "BR", "BS", "BT", "CA", "CB", "CF", "CH", "CM", "CO",
        "CR", "CT", "CV", "CW", "DA", "DD", "DE", "DG", "DH", "DL", "DN", "DT", "DY", "E", "EC", "EH", "EN", "EX", "FK",
        "FY", "G", "GL", "GU", "GY", "HA", "HD", "HG", "HP", "HR", "HS", "HU", "HX", "IG", "IM", "IP", "IV", "JE", "KA",
        "KT", "KW", "KY", "L", "LA", "LD", "LE", "LL", "LN", "LS", "LU", "M", "ME", "MK", "ML", "N", "NE", "NG", "NN",
        "NP", "NR", "NW", "OL", "OX", "PA", "PE", "PH", "PL", "PO", "PR", "RG", "RH", "RM", "S", "SA", "SE", "SG", "SK",
        "SL", "SM", "SN", "SO", "SP", "SR", "SS", "ST", "SW", "SY", "TA", "TD", "TF", "TN", "TQ", "TR", "TS", "TW", "UB",
        "W", "WA", "WC", "WD", "WF", "WN", "WR", "WS", "WV", "YO", "ZE",
        // Non-geographic areas: HMRC's and the Royal Mail's own.
        "BX", "XM",
    ]

    /// Whether the number that ends at `k` (inclusive) is a house number: it follows a word of letters on its line
    /// (`Storgatan 12`), itself after nothing but the line's start or other words.
    private func afterStreetNumber(_ s: ScanText, _ k: Int) -> Bool {
        var j = k
        while j >= 0, isAlnum(s.bytes[j]) { j -= 1 }
        guard j >= 0, s.bytes[j] == 0x20 else { return false }
        while j >= 0, s.bytes[j] == 0x20 { j -= 1 }
        guard j >= 0, isAlpha(s.bytes[j]) || s.bytes[j] >= 0x80 else { return false }
        return true
    }

    /// Whether the text after `e` closes the line or a comma-separated part of it (spaces and a full stop allowed).
    private func endsElement(_ s: ScanText, _ e: Int) -> Bool {
        var k = e
        while k < s.count, s.bytes[k] == 0x20 || s.bytes[k] == 0x2E { k += 1 }
        // (A state's or a province's name in brackets after the code closes it too: `Jaipur - 302022 (Rajasthan)`.)
        if k < s.count, s.bytes[k] == 0x28,
            let close = (k + 1..<min(s.count, k + 32)).first(where: { s.bytes[$0] == 0x29 }), close > k + 2,
            (k + 1..<close).allSatisfy({ isAlpha(s.bytes[$0]) || s.bytes[$0] == 0x20 || s.bytes[$0] >= 0x80 })
        {
            k = close + 1
            while k < s.count, s.bytes[k] == 0x20 { k += 1 }
        }
        return k >= s.count || s.bytes[k] == 0x0A || s.bytes[k] == 0x2C
    }

    /// Whether the word before `i`, past spaces, a comma and one line break, is of three letters or more and no digit
    /// (a town's), or nothing is before `i`: a line read on its own (a card's lines are), which its reader places.
    private func wordBefore(_ s: ScanText, _ i: Int) -> Bool {
        var k = i - 1
        while k >= 0, s.bytes[k] == 0x20 || s.bytes[k] == 0x2C { k -= 1 }
        if k < 0 { return true }
        if s.bytes[k] == 0x0A { k -= 1 }
        while k >= 0, s.bytes[k] == 0x20 || s.bytes[k] == 0x2C { k -= 1 }
        var letters = 0
        while k >= 0, !isSpace(s.bytes[k]), s.bytes[k] != 0x2C {
            guard isAlpha(s.bytes[k]) || s.bytes[k] >= 0x80 || s.bytes[k] == 0x2E || s.bytes[k] == 0x2D else {
                return false
            }
            if s.bytes[k] != 0x2E && s.bytes[k] != 0x2D { letters += 1 }
            k -= 1
        }
        return letters >= 3
    }

    /// Where the last byte before `i` that is no space is, or -1 at the text's start.
    private static func lastBefore(_ s: ScanText, _ i: Int) -> Int {
        var k = i - 1
        while k >= 0, s.bytes[k] == 0x20 { k -= 1 }
        return k
    }

    /// Whether the byte at `k` (from `lastBefore`) opens a line or a comma-separated part after it: the text's start,
    /// a line break or a comma.
    private static func opensPart(_ s: ScanText, at k: Int) -> Bool {
        k < 0 || s.bytes[k] == 0x0A || s.bytes[k] == 0x2C
            // (Or a dash after a space, a bar, a bullet or a middle dot after a house number or a floor on its line,
            // parting a card's line: `Carrer de Pau Claris, 162 • 5º 2ª - 08037 Barcelona`; not `Order - 12345 Total`.)
            || (s.bytes[k] == 0x2D && s.at(k - 1) == 0x20 || s.bytes[k] == 0x7C
                || s.at(k - 2) == 0xE2 && s.at(k - 1) == 0x80 && [0x93, 0x94, 0xA2].contains(s.bytes[k])
                || s.at(k - 1) == 0xC2 && s.bytes[k] == 0xB7) && numberBefore(s, k)
    }

    /// Whether a digit stands before the mark at `k` on its line: a house number or a floor's (`18, avenue de
    /// Messine – 75008 Paris`, `162 • 5º 2ª - 08037`).
    private static func numberBefore(_ s: ScanText, _ k: Int) -> Bool {
        var j = k - 1
        while j >= 0, s.bytes[j] != 0x0A {
            if isDigit(s.bytes[j]) { return true }
            j -= 1
        }
        return false
    }

    /// Whether a word of letters stands before `i` on its line (a town before a code), past spaces and, if `comma`,
    /// a comma that has to be there.
    private func townBeforeOnLine(_ s: ScanText, _ i: Int, comma: Bool) -> Bool {
        var k = i - 1
        while k >= 0, s.bytes[k] == 0x20 { k -= 1 }
        if comma {
            guard k >= 0, s.bytes[k] == 0x2C else { return false }
            k -= 1
        }
        return k >= 0 && k < i - 1 && (isAlpha(s.bytes[k]) || s.bytes[k] >= 0x80)
    }

    /// The priority of a postal code whose shape no phone plan has: a phone read from the same digits gives way to it.
    static let surePriority = 60

    /// The letters a European address may put before its postal code, by country (`DK-1620`, `CH-8001`, `D-10115`).
    static let codePrefixes: [String: String] = [
        "DK": "DK", "N": "NO", "NO": "NO", "CH": "CH", "A": "AT", "AT": "AT", "B": "BE", "BE": "BE", "L": "LU",
        "LU": "LU", "H": "HU", "HU": "HU", "SI": "SI", "SLO": "SI", "S": "SE", "SE": "SE", "CZ": "CZ", "CS": "CZ",
        "SK": "SK", "GR": "GR", "D": "DE", "DE": "DE", "F": "FR", "FR": "FR", "I": "IT", "IT": "IT", "E": "ES",
        "ES": "ES", "FI": "FI", "FIN": "FI"
    ]
    /// The countries of `codePrefixes` whose codes have five digits.
    static let fiveDigitPrefixCountries: Set<String> = ["DE", "FR", "IT", "ES", "FI"]

    static let fourDigitCountries: Set<String> = [
        "AT", "CH", "BE", "DK", "NO", "LU", "LI", "HU", "SI", "BG", "CY", "GE", "AM", "TN", "ZA", "PH"
    ]

    /// Whether the line that ends at the newline `nl` is a street with its house number last
    /// (`Bahnhofstrasse 12`, `Rue Neuve 4b`): letters first, then a number of one to four digits.
    private func streetEndsWithNumber(_ s: ScanText, before nl: Int) -> Bool {
        let a = s.lineStart(nl)
        var e = nl
        while e > a, isSpace(s.bytes[e - 1]) || s.bytes[e - 1] == 0x2C { e -= 1 }
        guard e > a, isAlpha(s.bytes[a]) || s.bytes[a] >= 0xC3 else { return false }
        var d = e
        if d > a, isAlpha(s.bytes[d - 1]) { d -= 1 }  // 4b
        var digits = 0
        while d > a, isDigit(s.bytes[d - 1]) { d -= 1; digits += 1 }
        return (1...4).contains(digits) && d > a && (s.bytes[d - 1] == 0x20 || s.bytes[d - 1] == 0x2C)
    }

    /// Whether letters stand before `i` on its line, past spaces, a comma or a dash (`Mumbai - 400021`).
    private func lettersBefore(_ s: ScanText, _ i: Int) -> Bool {
        var k = i - 1
        while k >= 0 {
            if s.bytes[k] == 0x20 || s.bytes[k] == 0x2C || s.bytes[k] == 0x2D {
                k -= 1
            } else if case let d = Self.dashLength(s, endingAt: k + 1), d == 3 {
                k -= 3
            } else {
                break
            }
        }
        return k >= 0 && (isAlpha(s.bytes[k]) || s.bytes[k] >= 0x80)
    }

    /// The length in bytes of a dash that ends at `e`: 1 for a hyphen, 3 for an en or em dash (`Bengaluru – 560025`),
    /// 0 for none.
    private static func dashLength(_ s: ScanText, endingAt e: Int) -> Int {
        if e > 0, s.bytes[e - 1] == 0x2D { return 1 }
        if e >= 3, s.bytes[e - 3] == 0xE2, s.bytes[e - 2] == 0x80, s.bytes[e - 1] == 0x93 || s.bytes[e - 1] == 0x94 {
            return 3
        }
        return 0
    }

    /// The bytes of the word right before `i` (past spaces and commas), `start == end` when there is none.
    private static func wordBefore(_ s: ScanText, _ i: Int) -> (start: Int, end: Int) {
        var k = i
        while k > 0, s.bytes[k - 1] == 0x20 || s.bytes[k - 1] == 0x2C { k -= 1 }
        return (s.wordStart(before: k), k)
    }

    /// The word right before `i` on its line (past spaces and a comma), lower-cased; empty when there is none.
    private static func previousWord(_ s: ScanText, _ i: Int) -> String {
        let (a, k) = wordBefore(s, i)
        return a < k ? s.lower(a, k) : ""
    }

    /// Whether the words before `i` in its comma-separated part (past a dash) are a town's: one to three words of
    /// letters, each capitalized, no label among them (`Mumbai - 400021`, `Bengaluru, Karnataka 560038`; not `Bill No
    /// - 123456`, `Token - 204518`), and a comma before the part or a dash after it.
    private static func townBefore(_ s: ScanText, _ i: Int) -> Bool {
        var e = i
        while e > 0, s.bytes[e - 1] == 0x20 { e -= 1 }
        let dash = dashLength(s, endingAt: e)
        let dashed = dash > 0
        e -= dash
        var a = e
        while a > 0, s.bytes[a - 1] != 0x2C, s.bytes[a - 1] != 0x0A, e - a < 60 { a -= 1 }
        let comma = a > 0 && s.bytes[a - 1] == 0x2C
        let words = s.string(a, e).split(separator: " ")
        guard dashed || comma, (1...3).contains(words.count) else { return false }
        return words.allSatisfy { w in
            w.first.map { $0.isUppercase } == true && w.allSatisfy { $0.isLetter || $0 == "." }
                && !townLabels.contains(w.lowercased().filter(\.isLetter))
        }
    }

    /// Whether the line before `i`'s, or its own text before `i`, holds a Japanese address's marks: a block and house
    /// number (`1-2-3`) or a ward's, city's or town's suffix (`Shibuya-ku`, `-shi`, `-cho`, `-machi`, `-gun`).
    private static func japaneseBlockBefore(_ s: ScanText, _ i: Int) -> Bool {
        var a = s.lineStart(i)
        if a > 0 { a = s.lineStart(a - 1) }
        let text = s.lower(a, i)
        return ["-ku", "-shi", "-cho", "-machi", "-gun", "-chome"].contains { text.contains($0) }
            || text.range(of: #"\d+-\d+-\d+"#, options: .regularExpression) != nil
    }

    /// The country printed after the code that ends at `e`, on its line's last part or the next line, looked for only
    /// when the line ends near (so that a long line of numbers costs no more than its length).
    private func countryPrintedNear(_ s: ScanText, _ e: Int, listed: Bool = false) -> String? {
        Self.nearLineEnd(s, e) ? countryNear(s, e, listed: listed) : nil
    }

    /// The countries whose postal code follows the town (`Wellington 6011`), four digits.
    static let codeAfterTownCountries: Set<String> = ["NZ", "ZA", "AU", "PH", "BD"]

    /// Whether a town's word stands right before `i` on its line, past spaces and a comma: capitalized, three letters
    /// or more, no label of a number (`Wellington 6011`, `Tokyo 150-0002`; not `Order 123-4567`, `Tel 1234`).
    private func townWordBefore(_ s: ScanText, _ i: Int) -> Bool {
        var (a, k) = Self.wordBefore(s, i)
        // (A region's abbreviation with its stop counts: `León, Gto. 37530`.)
        if k > 1, s.bytes[k - 1] == 0x2E, isAlpha(s.bytes[k - 2]) {
            k -= 1
            a = s.wordStart(before: k)
        }
        let word = a < k ? s.lower(a, k) : ""
        guard a < k, isUpper(s.bytes[a]) || s.bytes[a] >= 0xC3,
            word.count >= 3, word.allSatisfy(\.isLetter), !PhoneDetector.phoneWords.contains(word)
        else { return false }
        // Every word of the town's part is a town's: letters, capitalized, no label (`Points Balance 2500`); small
        // joining words between them as places are named (`Valle del Cauca 760045`, `Frankfurt am Main`).
        var p = a
        while p > 0, s.bytes[p - 1] != 0x2C, s.bytes[p - 1] != 0x0A { p -= 1 }
        let words = s.string(p, k).split(separator: " ")
        return words.indices.allSatisfy { n in
            let w = words[n]
            return (Self.isTownWord(w) || n > 0 && Self.placeJoiners.contains(String(w)))
                && w.allSatisfy { $0.isLetter || $0 == "-" || $0 == "'" }
        }
    }

    /// Whether the token at `i` opens its line and the line above ends with a capitalized word of letters (`Bristol`
    /// over `BS14GN`).
    private static func aloneUnderATown(_ s: ScanText, _ i: Int) -> Bool {
        guard i > 0, s.bytes[i - 1] == 0x0A else { return false }
        let (a, k) = wordBefore(s, i - 1)
        let word = a < k ? s.string(a, k) : ""
        return word.count >= 3 && isTownWord(word) && word.allSatisfy { $0.isLetter || $0 == "-" }
    }

    /// The small words that join the words of a place's name (`Valle del Cauca`, `Frankfurt am Main`, `Villeneuve
    /// sur Lot`), in lower case.
    static let placeJoiners: Set<String> = [
        "de", "del", "la", "las", "los", "do", "da", "dos", "das", "di", "du", "des", "von", "van", "der", "den", "el",
        "y", "sur", "am", "an", "im", "upon",
    ]

    /// Whether a street stands before the town that ends before `i`: an earlier comma-separated part of its line, or
    /// the line above, named by a street word or ending (`15 Alice Lane, Sandton` over `Johannesburg, 2196`; not an
    /// article's line, `COKE 600ML` over `PEPSI 1500`).
    private func streetBefore(_ s: ScanText, _ i: Int) -> Bool {
        let (la, _) = lineBounds(s, i)
        // The comma-separated parts before the code's; the town's is the last of them when the code stands alone.
        var parts = Self.commaParts(s, la, i)
        let k = parts.last.map { $0.1 + 1 } ?? la
        if !(k..<i).contains(where: { isAlpha(s.bytes[$0]) || s.bytes[$0] >= 0x80 }), !parts.isEmpty {
            parts.removeLast()
        }
        if parts.contains(where: { isNamedStreet(s, $0.0, $0.1) || Self.isPostBox(s.string($0.0, $0.1)) }) {
            return true
        }
        guard la > 0 else { return false }
        let (pa, pe) = lineBounds(s, la - 1)
        return isNamedStreet(s, pa, pe) || Self.isPostBox(s.string(pa, pe))
    }

    /// Whether `part` is a post office box or a private bag with its number (`PO Box 412`, `P.O. Box 1123`, `Private
    /// Bag 4`): an address's delivery line where a street would stand (`PO Box 412, Paraparaumu 5254`).
    static func isPostBox(_ part: String) -> Bool {
        part.range(
            of: #"^\s*(?:p\.?\s?o\.?\s?|post\s+office\s+)box\s*\d+\s*$|^\s*private\s+bag\s+\d+\s*$"#,
            options: [.regularExpression, .caseInsensitive]) != nil
    }

    /// Whether the town's part from `a` to `e` is two words or more, none a label's (`Chiang Mai`, `Pathum Wan`; not
    /// `Member`, `Customer Number`): where nothing names the country, a one-word part is as often a label.
    private func townOfWords(_ s: ScanText, _ a: Int, _ e: Int) -> Bool {
        let words = s.string(a, e).split(separator: " ").map { $0.trimmingCharacters(in: .punctuationCharacters) }
            .filter { !$0.isEmpty }
        return words.count >= 2
            && words.allSatisfy { Self.isTownWord($0) && !PhoneDetector.phoneWords.contains($0.lowercased()) }
    }

    /// Whether the address runs on from a named street to the code at `i`, where nothing names its country: the parts
    /// before the town's, on the code's line and on the line above when that ends with a comma, are two or more (a
    /// street and a district) and one names a street (`159/3 Nimmanhaemin Rd., Suthep,` over `Chiang Mai 50200`; not
    /// `14 Bridge Road,` over `Customer Number 45678`).
    private func streetLeadsOn(_ s: ScanText, _ i: Int) -> Bool {
        let (la, _) = lineBounds(s, i)
        var found = Self.commaParts(s, la, i)
        var end = la - 1
        while end > 0, s.bytes[end - 1] == 0x20 { end -= 1 }
        if end > 0, s.bytes[end - 1] == 0x2C { found = Self.commaParts(s, lineBounds(s, la - 1).0, end) + found }
        return found.count >= 2 && found.contains { isNamedStreet(s, $0.0, $0.1) }
    }

    /// The parts from `a` up to `e` that a comma ends, as byte ranges without their comma (`14 Main St,` `Suthep,`).
    private static func commaParts(_ s: ScanText, _ a: Int, _ e: Int) -> [(Int, Int)] {
        var out: [(Int, Int)] = [], k = a
        for q in a..<e where s.bytes[q] == 0x2C {
            out.append((k, q))
            k = q + 1
        }
        return out
    }

    /// Whether `word` may be a town's: capitalized, and no word that labels a number (`Member`, `Store`).
    private static func isTownWord<S: StringProtocol>(_ word: S) -> Bool {
        word.first?.isUppercase == true && !townLabels.contains(word.lowercased())
    }

    /// Words that label a number rather than name a town.
    static let townLabels: Set<String> = [
        "no", "nr", "id", "code", "ref", "bill", "invoice", "inv", "order", "token", "txn", "auth", "table", "server",
        "receipt", "ticket", "account", "acct", "card", "gst", "gstin", "phone", "tel", "mobile", "fax", "pin", "otp",
        // A till's or a counter's number, or a sum's: `Store 6011`, `Lane 0003`, `Total 2500`, `Points Balance 2500`.
        "total", "subtotal", "qty", "amount", "balance", "points", "check", "sum", "due", "paid", "change", "cash",
        "store", "shop", "till", "pos", "pump", "lane", "register", "reg", "terminal", "term", "cashier", "branch",
        "station", "outlet", "gate", "room", "level", "floor", "unit", "suite", "plu", "sku", "staff", "voucher",
        "promo",
        // A post box's or an extension's word in any language: `Postfach 1234`, `Case Postale 56`, `Apartado 12`.
        "postfach", "postale", "apartado", "casilla", "caixa", "postbus", "postboks", "boks", "box", "bus", "durchwahl",
        "ext", "extension", "interno", "kasse", "klappe", "poste",
        // A year's words: `Since 2004`, `Est. 1998`.
        "since", "est", "established", "founded", "copyright", "seit", "depuis", "desde", "dal", "sinds", "siden", "sedan",
    ]

    /// The country the line after the one holding `e` ends with (`Maharashtra, India`).
    private func countryEndingNextLine(_ s: ScanText, _ e: Int) -> String? {
        let (_, le) = lineBounds(s, e)
        guard le < s.count else { return nil }
        let (na, ne) = lineBounds(s, le + 1)
        var k = ne
        while k > na, s.bytes[k - 1] != 0x2C { k -= 1 }
        return countryIn(s, k, ne)
    }

    /// Whether the line ends within `limit` bytes after `e` (the text's end counts).
    private static func nearLineEnd(_ s: ScanText, _ e: Int, limit: Int = 80) -> Bool {
        var k = e
        while k < s.count, k - e < limit { if s.bytes[k] == 0x0A { return true }; k += 1 }
        return k >= s.count
    }

    /// Whether Japan's postal mark `〒` stands right before `i`, a space between or not.
    private static func afterPostalMark(_ s: ScanText, _ i: Int) -> Bool {
        var k = i
        while k > 0, s.bytes[k - 1] == 0x20 { k -= 1 }
        return k >= 3 && s.bytes[k - 3] == 0xE3 && s.bytes[k - 2] == 0x80 && s.bytes[k - 1] == 0x92
    }

    /// The words that mark a postal code, dots and spaces left out, each with the countries where it means one (nil:
    /// everywhere). `C.P.` is Spanish's `código postal` but a post box in Italy, Switzerland and Quebec (`casella`,
    /// `case postale`); `CAP` is Italy's and `T.K.` Greece's; `P.C.` is how Oman and the Gulf write it. (Brazil's `CEP`
    /// and Japan's `〒` have rules of their own.)
    static let postalMarks: [String: Set<String>?] = [
        "postalcode": nil, "postcode": nil, "plz": nil, "códigopostal": nil,
        "codigopostal": nil, "codepostal": nil, "codpostal": nil, "codpoștal": nil, "kodepos": nil,
        "postnummer": nil, "postinumero": nil, "irányítószám": nil, "poštanskibroj": nil,
        // (A PIN or a ZIP names other numbers too: `Wi-Fi PIN code 5821`, `ZIP 2000` a product.)
        "pincode": ["IN"], "zip": ["US", "PR", "PH"], "zipcode": ["US", "PR", "PH"],
        "cp": ["ES", "MX", "AR", "CO", "CL", "PE", "VE", "EC", "BO", "UY", "PY", "GT", "HN", "SV", "NI", "CR", "PA", "DO", "CU"],
        "cap": ["IT", "SM"], "tk": ["GR", "CY"], "pc": ["OM", "JO", "SA", "KW", "BH", "QA", "AE"],
    ]

    /// The postal mark right before `i` on its line (see ``postalMarks``), past spaces and a colon, a full stop, a
    /// dash or `#`: one or two words, the first of the line or after a comma, or after other words.
    private static func postalMarkBefore(_ s: ScanText, _ i: Int) -> (word: String, countries: Set<String>?)? {
        var k = i
        while k > 0, [0x20, 0x3A, 0x2D, 0x23].contains(s.bytes[k - 1]) { k -= 1 }
        guard k < i else { return nil }
        var a = k
        while a > 0, k - a < 24, ![0x0A, 0x2C, 0x28].contains(s.bytes[a - 1]) { a -= 1 }
        let words = s.string(a, k).lowercased().split(separator: " ").map { $0.filter { $0 != "." } }
        for n in [2, 1] where words.count >= n {
            let mark = words.suffix(n).joined()
            if let countries = postalMarks[mark] { return (mark, countries) }
        }
        return nil
    }

    /// Whether one of Brazil's states' two letters stands before `i` on its line, past spaces, a comma, a dash or a
    /// slash (`São Paulo - SP, 01310-200`, `Rio de Janeiro/RJ 20040-002`).
    private func brazilianStateBefore(_ s: ScanText, _ i: Int) -> Bool {
        var k = i - 1
        while k >= 0, [0x20, 0x2C, 0x2D, 0x2F].contains(s.bytes[k]) { k -= 1 }
        guard k >= 1, isUpper(s.bytes[k]), isUpper(s.bytes[k - 1]), !isAlnum(s.at(k - 2)) else { return false }
        return AddressDetector.brazilianStates.contains(s.string(k - 1, k + 1))
    }

    static let brazilianStates: Set<String> = [
        "AC", "AL", "AP", "AM", "BA", "CE", "DF", "ES", "GO", "MA", "MT", "MS", "MG", "PA", "PB", "PR", "PE", "PI", "RJ",
        "RN", "RS", "RO", "RR", "SC", "SP", "SE", "TO"
    ]

    /// Whether the word before `i` (past spaces, a colon or a full stop) is `CEP`, Brazil's word for its postal code.
    private func afterCEP(_ s: ScanText, _ i: Int) -> Bool {
        var k = i - 1
        while k >= 0, s.bytes[k] == 0x20 || s.bytes[k] == 0x3A || s.bytes[k] == 0x2E { k -= 1 }
        guard k >= 2, !isAlnum(s.at(k - 3)) else { return false }
        return (s.bytes[k - 2] | 0x20) == 0x63 && (s.bytes[k - 1] | 0x20) == 0x65 && (s.bytes[k] | 0x20) == 0x70
    }

    /// Whether a street word (`Place`, `St`, `Hwy`) is on the rest of the line after `e`.
    private func streetWordFollows(_ s: ScanText, _ e: Int) -> Bool {
        var end = e
        while end < s.count, s.bytes[end] != 0x0A { end += 1 }
        return s.words(from: e, to: end).contains { AddressDetector.streetWords.contains($0) }
    }

    /// A capitalized word follows after one space.
    private func townFollows(_ s: ScanText, _ e: Int) -> Bool {
        guard s.at(e) == 0x20 else { return false }
        let c = s.at(e + 1)
        guard isUpper(c) || c >= 0xC3 else { return false }
        let we = s.wordEnd(from: e + 1)
        return we - (e + 1) >= 2
    }

    private func lineBounds(_ s: ScanText, _ i: Int) -> (Int, Int) {
        let a = s.lineStart(i)
        var e = i
        while e < s.count, s.bytes[e] != 0x0A { e += 1 }
        return (a, e)
    }

    private func trimmed(_ s: ScanText, _ a: Int, _ e: Int) -> (Int, Int) {
        var a = a, e = e
        while a < e, isSpace(s.bytes[a]) || s.bytes[a] == 0x2C { a += 1 }
        while e > a, isSpace(s.bytes[e - 1]) || s.bytes[e - 1] == 0x2C { e -= 1 }
        return (a, e)
    }

    /// The country the text from `a` to `e` names; with `listed`, only by a name of the short list read anywhere
    /// (`countries`: `Thailand`, not `Turkey`).
    private func countryIn(_ s: ScanText, _ a: Int, _ e: Int, listed: Bool = false) -> String? {
        let (ta, te) = trimmed(s, a, e)
        guard te > ta, te - ta <= 30 else { return nil }
        var w = s.lower(ta, te)
        if w.utf8.contains(where: { $0 >= 0x80 }) { w = w.lowercased() }
        // (A dash may set the country off: `Lima 15074 - Perú`.)
        if w.hasPrefix("- ") || w.hasPrefix("– ") { w = String(w.dropFirst(2)) }
        return listed ? AddressDetector.countries[w] : AddressDetector.addressCountry(w)
    }

    /// The country an address's place names, `name` in lower case: the short list read anywhere (`countries`), then
    /// every country's names in English and its own languages (`CountryNames.swift`: `Chile`, `Lietuva`, `Kingdom of
    /// Saudi Arabia`), which only an address's place may hold.
    static func addressCountry(_ name: String) -> String? {
        countries[name] ?? countryNames[name]
    }

    /// `countryNameLines` read into a table.
    static let countryNames = DataDetector.barTable(countryNameLines)

    private func countryNear(_ s: ScanText, _ i: Int, listed: Bool = false) -> String? {
        let (_, le) = lineBounds(s, i)
        // Last comma-separated part of the line, or the next line.
        var k = le
        while k > i, s.bytes[k - 1] != 0x2C { k -= 1 }
        if k > i, let c = countryIn(s, k, le, listed: listed) { return c }
        // No comma after the code: the words after it (`Bangkok 10110 Thailand`).
        if k == i, let c = countryIn(s, i, le, listed: listed) { return c }
        if le < s.count {
            let (na, ne) = lineBounds(s, le + 1)
            return countryIn(s, na, ne, listed: listed)
        }
        return nil
    }

    /// Whether a street word or a street's ending is among `words`; with `unitsToo` false, a word that names a part
    /// of a building or a box (`Suite 12`, `PO Box 4`) counts for none.
    static func holdsStreetWord(_ words: [String], unitsToo: Bool) -> Bool {
        words.contains { w in
            (streetWords.contains(w) && (unitsToo || !unitWords.contains(w)))
                || streetSuffixes.contains { w.hasSuffix($0) }
        }
    }

    /// Whether the text from `a` to `e` is a street named by a street word or ending, not by a unit's (`Vesterbrogade
    /// 12`, not `Suite 12`): a street that a postal code and town may follow on its own line.
    private func isNamedStreet(_ s: ScanText, _ a: Int, _ e: Int) -> Bool {
        looksLikeStreet(s, a, e, named: true)
    }

    /// Words that name a street only beside a house number (`86 Lambton Quay`, `3 Victoria Parade`): alone they as
    /// often name a firm, a hotel or a shop (`Quay Partners`, `Esplanade Hotel`, `Canary Wharf Cafe`).
    static let numberedStreetWords: Set<String> = ["quay", "wharf", "parade", "esplanade", "mews"]

    /// The street words that name a part of a building, a box or a plot, not a street.
    static let unitWords: Set<String> = ["suite", "ste", "unit", "floor", "building", "box", "po", "no", "lot"]

    /// Whether the text from `a` to `e` may be a street: a street word, or a short line with a digit; with `named`,
    /// only a street word that is no unit's (`isNamedStreet`).
    private func looksLikeStreet(_ s: ScanText, _ a: Int, _ e: Int, named: Bool = false) -> Bool {
        let (ta, te) = trimmed(s, a, e)
        guard te > ta, te - ta <= 70 else { return false }
        let words = s.words(from: ta, to: te)
        guard !words.isEmpty else { return false }
        let hasDigit = (ta..<te).contains { isDigit(s.bytes[$0]) }
        // Phone, e-mail or web lines are not streets.
        if (ta..<te).contains(where: { s.bytes[$0] == 0x40 }) { return false }
        if words.contains(where: { Self.opensContact($0) }) { return false }
        if named {
            return Self.holdsStreetWord(words, unitsToo: false)
                || hasDigit && words.contains { Self.numberedStreetWords.contains($0) }
        }
        return Self.holdsStreetWord(words, unitsToo: true) || (hasDigit && words.count <= 7)
    }

    /// Where the place after a postal code ends, before `e`: at a sentence's end (a stop and a space after the code or
    /// after a word of four letters or more, then running text: `94105. We open at 9`; not `St. Gallen`, nor
    /// `Puchong. Selangor`), at a semicolon, or
    /// before a word that opens a phone number, an e-mail or a web address (`Berlin Tel 030 1234567`). `e` when none.
    private func localityEnd(_ s: ScanText, from a: Int, to e: Int) -> Int {
        let b = s.bytes
        var k = a
        while k < e {
            let c = b[k]
            if c == 0x3B { return k }
            if c == 0x2E, k + 1 < e, isSpace(b[k + 1]) {
                var w = k
                while w > 0, isAlpha(b[w - 1]) || isDigit(b[w - 1]) { w -= 1 }
                let word = b[w..<k]
                if !word.isEmpty, word.allSatisfy(isDigit) || word.count >= 4, holdsProse(s, k + 1, e) { return k }
            }
            if isWordLetter(c), k == 0 || !isWordLetter(b[k - 1]) {
                let we = s.wordEnd(from: k)
                let word = s.lower(k, we)
                if Self.opensContact(word, mail: true) || b[we..<min(e, we + 1)].first == 0x40 {
                    return k
                }
                k = we
                continue
            }
            k += 1
        }
        return e
    }

    /// Whether a word of running text (lower case, two letters or more, neither a street word nor a name's particle)
    /// is between `a` and `e`: a sentence, not a region after a stop that OCR read for a comma (`Puchong. Selangor`).
    private func holdsProse(_ s: ScanText, _ a: Int, _ e: Int) -> Bool {
        let b = s.bytes
        var k = a
        while k < e {
            guard isWordLetter(b[k]), k == 0 || !isWordLetter(b[k - 1]) else { k += 1; continue }
            let we = min(s.wordEnd(from: k), e)
            if Self.isProse(b[k..<we]) { return true }
            k = we
        }
        return false
    }

    /// A word of running text: lower case, two letters or more, neither a street word nor a name's particle.
    static func isProse(_ word: ArraySlice<UInt8>) -> Bool {
        guard word.count >= 2, word.allSatisfy(isLower) else { return false }
        let w = String(decoding: word, as: UTF8.self)
        return !streetWords.contains(w) && !nameParticles.contains(w)
    }

    /// A word (lower case) that opens a phone number or a web address (`tel`, `www`); with `mail`, an e-mail address
    /// too (`email`, `mail`).
    static func opensContact(_ word: String, mail: Bool = false) -> Bool {
        PhoneDetector.phoneWords.contains(word) || ["www", "http", "https"].contains(word)
            || mail && (word == "email" || word == "mail")
    }

    /// Where a street that a sentence leads into begins (`Visit us at 500 Market St` gives `500 Market St`): at its
    /// house number, when a word before the number is lower case (two letters or more) and neither a street word nor
    /// a name's particle (`de`, `van`, `an der`); `a` otherwise. The number must have a word after it.
    private func streetStart(_ s: ScanText, _ a: Int, _ e: Int) -> Int {
        let b = s.bytes
        var tokens: [(Int, Int)] = []
        var k = a
        while k < e {
            while k < e, isSpace(b[k]) { k += 1 }
            let t = k
            while k < e, !isSpace(b[k]) { k += 1 }
            if k > t { tokens.append((t, k)) }
        }
        func isHouseNumber(_ t: (Int, Int)) -> Bool {
            let digits = b[t.0..<t.1].prefix(while: isDigit).count
            return digits > 0 && t.1 - t.0 - digits <= 1 && (t.1 - t.0 == digits || isAlpha(b[t.1 - 1]))
        }
        guard let n = tokens.indices.first(where: { isHouseNumber(tokens[$0]) }), n > 0, n + 1 < tokens.count else {
            return a
        }
        return tokens[..<n].contains { Self.isProse(b[$0.0..<$0.1]) } ? tokens[n].0 : a
    }

    /// Lower-case words inside street names (`rue de la Paix`, `van Baerlestraat`, `an der Alster`).
    static let nameParticles: Set<String> = [
        "de", "la", "le", "les", "du", "des", "del", "della", "di", "da", "do", "dos", "das", "van", "von", "der", "den",
        "am", "an", "im", "auf", "zum", "zur", "het", "y", "e", "of", "the", "rue", "via", "calle", "avenida", "rua",
    ]

    private func address(_ s: ScanText, around p: Hit) -> Hit? {
        let (la, le) = lineBounds(s, p.start)
        var value = EntityValue(region: p.value.region, postalCode: p.value.postalCode, country: p.value.country)
        var start = la
        var end = le
        // The locality line, split by commas.
        var parts: [(Int, Int)] = []
        var k = la
        for q in la...le where q == le || s.bytes[q] == 0x2C {
            let t = trimmed(s, k, q)
            if t.1 > t.0 { parts.append(t) }
            k = q + 1
        }
        guard let pi = parts.firstIndex(where: { $0.0 <= p.start && p.start < $0.1 }) else { return nil }
        // The address ends with the place after its code where a sentence or a contact begins on the same line
        // (`94105. Tel (415) 555-0100`, `10117 Berlin Fax 030 1234567`): what follows is no part of it.
        let cut = localityEnd(s, from: p.end, to: parts[pi].1)
        let endsMidLine = cut < parts[pi].1
        if endsMidLine {
            // Without the stop or the comma that closed it.
            var closed = cut
            while closed > parts[pi].0, [0x20, 0x09, 0x2C, 0x2E, 0x3B].contains(s.bytes[closed - 1]) { closed -= 1 }
            parts[pi].1 = closed
            parts.removeSubrange((pi + 1)...)
        }
        // City: words after the code (10115 Berlin), or before it (London SW1A 1AA, Springfield, IL 62704).
        let (pa, pe) = parts[pi]
        let afterCode = trimmed(s, p.end, pe)
        var beforeCode = trimmed(s, pa, p.start)
        if p.value.country == "US" || p.value.country == "AU" {
            // Drop the state abbreviation before the code.
            var k2 = beforeCode.1
            while k2 > beforeCode.0, isAlpha(s.bytes[k2 - 1]) { k2 -= 1 }
            beforeCode = trimmed(s, beforeCode.0, k2)
        }
        // A dash between the town and the code (`Mumbai - 400021`, `São Paulo - SP, 01310-200`) is no part of the town.
        while beforeCode.1 > beforeCode.0, [0x20, 0x2D].contains(s.bytes[beforeCode.1 - 1]) { beforeCode.1 -= 1 }
        // (A postal mark before the code is no town: the town is the part after it, `C.P. 66220, San Pedro Garza
        // García`, `P.C. 112, Muscat`.)
        let marked = Self.postalMarkBefore(s, p.start) != nil
        if marked { beforeCode.1 = beforeCode.0 }
        // (A bracketed name after the code is the state's: `Jaipur - 302022 (Rajasthan)`.)
        let after = s.string(afterCode.0, afterCode.1)
        let bracketed = after.hasPrefix("(") && after.hasSuffix(")") && after.count > 2
        if bracketed, value.region == nil { value.region = String(after.dropFirst().dropLast()) }
        var cityPart = pi
        let cityAfterCode = afterCode.1 > afterCode.0 && !bracketed && countryIn(s, afterCode.0, afterCode.1) == nil
        if cityAfterCode {
            value.city = s.string(afterCode.0, afterCode.1)
        } else if marked {
            // (A part of letters only, no label's: not `Tel. 55 1234 5678`, `Piso 3`, a country.)
            let next = pi + 1 < parts.count ? s.string(parts[pi + 1].0, parts[pi + 1].1) : ""
            if !next.isEmpty, !next.contains(where: { $0.isNumber || $0 == ":" }),
                countryIn(s, parts[pi + 1].0, parts[pi + 1].1) == nil
            {
                value.city = next
            }
        } else if beforeCode.1 > beforeCode.0 {
            value.city = s.string(beforeCode.0, beforeCode.1)
        } else if pi > 0 {
            cityPart = pi - 1
            value.city = s.string(parts[pi - 1].0, parts[pi - 1].1)
        }
        // A Brazilian town with its state after a dash or a slash (`São Paulo - SP`, `Rio de Janeiro/RJ`).
        if p.value.country == "BR", let city = value.city, AddressDetector.brazilianStates.contains(String(city.suffix(2))) {
            let town = city.dropLast(2).reversed().drop { $0 == " " }
            if let mark = town.first, mark == "-" || mark == "/" {
                value.region = String(city.suffix(2))
                value.city = String(String(town.dropFirst().drop { $0 == " " }).reversed())
            }
        }
        // Country after the code on the same line.
        if pi + 1 < parts.count, let c = countryIn(s, parts[pi + 1].0, parts[pi + 1].1) { value.country = c }
        // Street: earlier parts of the same line.
        var streetParts: [(Int, Int)] = []
        if cityPart > 0 {
            let cand = parts[0..<cityPart].filter { looksLikeStreet(s, $0.0, $0.1) }
            if cand.count == cityPart {
                streetParts = Array(cand)
            } else if let last = cand.last {
                streetParts = [last]; start = last.0
            }
            if !streetParts.isEmpty { start = streetParts.first!.0 }
        }
        // A street before the code in the same part, the town after it (`Drottninggatan 5 411 14 Göteborg`).
        if streetParts.isEmpty, cityAfterCode, beforeCode.1 > beforeCode.0,
            p.value.country != "US", p.value.country != "AU", isNamedStreet(s, beforeCode.0, beforeCode.1)
        {
            streetParts = [beforeCode]
            start = beforeCode.0
        }
        if streetParts.isEmpty {
            start = cityPart > 0 ? parts[cityPart].0 : la
            // Street lines just above.
            var lineStart = la
            var lines = 0
            while lineStart > 0, lines < 2 {
                let (pa2, pe2) = lineBounds(s, lineStart - 1)
                guard looksLikeStreet(s, pa2, pe2) else { break }
                let t = trimmed(s, pa2, pe2)
                streetParts.insert(t, at: 0)
                start = t.0
                lineStart = pa2
                lines += 1
            }
        }
        guard !streetParts.isEmpty else { return nil }
        // Prose before the street on its line (`Visit us at 500 Market St`) is not part of the address.
        let streetBegins = streetStart(s, streetParts[0].0, streetParts[0].1)
        if streetBegins > streetParts[0].0 {
            streetParts[0].0 = streetBegins
            start = max(start, streetBegins)
        }
        // A label before the street ("Ship to: 1600 Main St") is not part of the address.
        if let first = streetParts.first, let colon = (first.0..<first.1).last(where: { s.bytes[$0] == 0x3A }),
            !isDigit(s.at(colon + 1))
        {
            let t = trimmed(s, colon + 1, first.1)
            if t.1 > t.0 { streetParts[0] = t; start = max(start, t.0) }
        }
        value.street = streetParts.map { s.string($0.0, $0.1) }.joined(separator: ", ")
        // To the line's end (a region after the town: `41150 KLANG, SELANGOR`), or to the locality where the address
        // ended mid-line; then a country on the next line.
        end = endsMidLine ? parts[pi].1 : trimmed(s, start, le).1
        if !endsMidLine, le < s.count {
            let (na, ne) = lineBounds(s, le + 1)
            if let c = countryIn(s, na, ne) { value.country = c; end = trimmed(s, na, ne).1 }
        }
        if value.country == nil { value.country = region }
        return Hit(type: .address, start: start, end: end, value: value, priority: 10)
    }
}
