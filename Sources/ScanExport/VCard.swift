import Foundation
import ScanModel

/// vCard 4.0 (RFC 6350) for a business card: CRLF line ends, text values escaped
/// (`\\`, `\,`, `\;`, `\n`), lines folded at 75 octets without splitting a UTF-8
/// character, phones as `tel:` URIs when their E.164 form is known.
/// Documents without a business card give no data.
public enum VCardWriter {
    public static func vcard(_ doc: Document) -> Data {
        guard let c = doc.businessCard else { return Data() }
        return Data(card(c, source: doc.source).utf8)
    }

    /// `source` (the input's name) makes the UID of a card that names no one and nothing, so two such cards differ.
    public static func card(_ c: BusinessCard, source: String = "") -> String {
        var lines = ["BEGIN:VCARD", "VERSION:4.0", "UID:" + uid(c, source: source)]
        // FN is required: the person, else what the card names (its organization, department, e-mail, number).
        let fn = c.name?.full ?? c.organization ?? c.department ?? c.emails.first?.address ?? c.phones.first?.number ?? ""
        lines.append("FN:" + escape(fn))
        if let n = c.name {
            let parts = [n.family, n.given, n.middle, n.prefix, n.suffix].map { escape($0 ?? "") }
            lines.append("N:" + parts.joined(separator: ";"))
        }
        // A department is a unit of the organization, also when the card names none (`ORG:;Cardiology`).
        if c.organization != nil || c.department != nil {
            var org = escape(c.organization ?? "")
            if let d = c.department { org += ";" + escape(d) }
            lines.append("ORG:" + org)
        }
        if let t = c.title { lines.append("TITLE:" + escape(t)) }
        for p in c.phones {
            let type: String
            switch p.type {
            case .work: type = "work,voice"
            case .mobile: type = "cell,voice"
            case .fax: type = "work,fax"
            case .other: type = "voice"
            }
            // TYPE's values as a comma list without quotes (RFC 6350's ABNF allows both; readers such as vobject take a
            // quoted list for one value). An extension goes in the URI (RFC 3966).
            if let e = p.e164 {
                lines.append("TEL;VALUE=uri;TYPE=\(type):tel:\(e)" + (p.extension.map { ";ext=\($0)" } ?? ""))
            } else {
                lines.append("TEL;VALUE=text;TYPE=\(type):" + escape(p.number))
            }
        }
        for e in c.emails { lines.append("EMAIL;TYPE=work:" + escape(e.address)) }
        for u in c.urls {
            let url = u.url.contains("://") ? u.url : "https://" + u.url
            lines.append("URL;TYPE=work:" + url)
        }
        for p in c.socialProfiles {
            let v = p.value.contains("://") ? p.value : "https://" + p.value
            lines.append("X-SOCIALPROFILE;TYPE=\(p.service):" + v)
        }
        if let a = c.address {
            let country = a.country.map(countryName) ?? ""
            let parts = ["", "", a.street ?? "", a.city ?? "", a.region ?? "", a.postalCode ?? "", country].map(escape)
            lines.append("ADR;TYPE=work;LABEL=\"\(paramValue(a.full))\":" + parts.joined(separator: ";"))
        }
        lines.append("END:VCARD")
        return lines.map(fold).joined(separator: "\r\n") + "\r\n"
    }

    /// The card's UID (RFC 6350 §6.7.6; a CardDAV server stores a contact by it): a UUID made from what names the
    /// person (name, organization, e-mails, phones), so that the same card scanned again gives the same UID and an
    /// import updates the contact rather than adding it twice. RFC 9562's version 8 (custom), from two 64-bit
    /// FNV-1a hashes of those values.
    static func uid(_ c: BusinessCard, source: String = "") -> String {
        let names = ([c.name?.full, c.organization] + c.emails.map(\.address) + c.phones.map { $0.e164 ?? $0.number })
            .map { $0 ?? "" }
        let key = (names.allSatisfy(\.isEmpty) ? names + [source] : names).joined(separator: "\u{1F}")
        func fnv(_ basis: UInt64) -> UInt64 {
            key.utf8.reduce(basis) { ($0 ^ UInt64($1)) &* 0x100_0000_01B3 }
        }
        var bytes = (0..<8).map { UInt8(truncatingIfNeeded: fnv(0xCBF2_9CE4_8422_2325) >> (56 - 8 * $0)) }
            + (0..<8).map { UInt8(truncatingIfNeeded: fnv(0x6C62_272E_07BB_0142) >> (56 - 8 * $0)) }
        bytes[6] = bytes[6] & 0x0F | 0x80  // version 8
        bytes[8] = bytes[8] & 0x3F | 0x80  // RFC 9562 variant
        let hex = bytes.map { String(format: "%02x", $0) }.joined()
        let digits = Array(hex)
        let groups = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(digits[$0]) }
        return "urn:uuid:" + groups.joined(separator: "-")
    }

    /// ADR's country is the country's name (RFC 6350 §6.3.1): the English name of an ISO 3166 code (`DE` is
    /// `Germany`), as contacts apps show and match it; anything else as it is.
    static func countryName(_ code: String) -> String {
        guard code.count == 2, code.allSatisfy({ $0.isASCII && $0.isUppercase }),
            let name = Locale(identifier: "en_US").localizedString(forRegionCode: code), name != "Unknown Region"
        else { return code }
        return name
    }

    /// Escapes a text value (RFC 6350 §3.4).
    public static func escape(_ s: String) -> String {
        var out = ""
        for ch in s {
            switch ch {
            case "\\": out += "\\\\"
            case ",": out += "\\,"
            case ";": out += "\\;"
            case "\n", "\r\n": out += "\\n"
            case "\r": break
            default: out.append(ch)
            }
        }
        return out
    }

    /// A quoted parameter value, escaped as RFC 6868 writes what it may not hold: `^` as `^^`, a line break as `^n`,
    /// a double quote as `^'`.
    static func paramValue(_ s: String) -> String {
        var out = ""
        for ch in s {
            switch ch {
            case "^": out += "^^"
            case "\n", "\r\n": out += "^n"
            case "\r": break
            case "\"": out += "^'"
            default: out.append(ch)
            }
        }
        return out
    }

    /// Folds a content line into lines of at most 75 octets, continuation lines starting with a space.
    public static func fold(_ line: String) -> String {
        var out = ""
        var current = 0
        var limit = 75
        for ch in line {
            let n = String(ch).utf8.count
            if current + n > limit {
                out += "\r\n "
                current = 1
                limit = 75
            }
            out.append(ch)
            current += n
        }
        return out
    }
}
