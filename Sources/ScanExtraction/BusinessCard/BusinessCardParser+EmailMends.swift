import Foundation
import ScanDetectors
import ScanLayout
import ScanModel

/// E-mail addresses mended by the name and the web address printed on the same card.
extension BusinessCardParser {
    /// The card's e-mail addresses mended where OCR misread them and the card proves it: by the person's name (unless
    /// the name was itself mended from the address, `nameCorrected`) or by the web address; a finding for each.
    static func mendEmails(
        _ card: inout BusinessCard, nameCorrected: Bool, wordBeforeEmail: [String: String], region: String? = nil
    ) -> [Finding] {
        var findings: [Finding] = []
        if let name = card.name, !nameCorrected {
            for n in card.emails.indices {
                let printed = card.emails[n].source.text, read = card.emails[n].address
                let mend =
                    Self.localMendedByName(printed: printed, address: read, name)
                    .map { ($0, "a capital I or a 1 in it was taken for an l, as the name spells it") }
                    ?? Self.localWithoutGluedLabel(printed: printed, address: read, name)
                    .map { ($0, "the label before it was glued on, as the name spells the rest") }
                    ?? Self.localJoinedAcrossSpace(wordBefore: wordBeforeEmail[read], address: read, name)
                    .map { ($0, "its first part was read apart, as the name spells the whole") }
                if let (mended, why) = mend {
                    findings.append(
                        Finding(
                            code: "card-email-from-name",
                            message: "the e-mail address was read as '\(read)'; \(why): '\(mended)'",
                            field: "businessCard.emails[\(n)]"))
                    card.emails[n].address = mended
                }
            }
        }
        let webHosts = card.urls.map { Self.host($0.url) }
        for n in card.emails.indices {
            let read = card.emails[n].address
            guard
                let mended = Self.domainWithCapitalIRead(
                    printed: card.emails[n].source.text, address: read, webHosts: webHosts)
            else { continue }
            findings.append(
                Finding(
                    code: "card-email-from-web",
                    message: "the e-mail address was read as '\(read)'; its domain was printed with a capital I where "
                        + "the web address has an l: '\(mended)'",
                    field: "businessCard.emails[\(n)]"))
            card.emails[n].address = mended
        }
        if let org = card.organization {
            for n in card.emails.indices {
                let read = card.emails[n].address
                guard
                    let mended = Self.domainMendedByWeb(address: read, webHosts: webHosts, organization: org)
                else { continue }
                findings.append(
                    Finding(
                        code: "card-email-from-web",
                        message: "the e-mail address was read as '\(read)'; its domain differs from the web "
                            + "address's only by letters OCR mistakes for one another, and the organization spells "
                            + "the web address's: '\(mended)'",
                        field: "businessCard.emails[\(n)]"))
                card.emails[n].address = mended
            }
        }
        // A top-level domain no registry knows, read with a shape OCR mistakes for another (`serendibbank.Ik` for
        // `.lk`), in the e-mail and web addresses alike.
        let hosts = card.emails.compactMap { $0.address.split(separator: "@").last.map(String.init) }
            + card.urls.map { Self.host($0.url) }
        func mended(_ kind: String, _ read: String, _ mended: String, field: String) -> Finding {
            Finding(
                code: "card-\(kind)-domain-mended",
                message: "the \(kind == "email" ? "e-mail" : "web") address was read as '\(read)', whose top-level "
                    + "domain no registry knows or the card's other addresses end otherwise; with letters OCR mistakes "
                    + "for one another it is '\(mended)'",
                field: field)
        }
        for n in card.emails.indices {
            let read = card.emails[n].address
            guard let at = read.lastIndex(of: "@"),
                let host = Self.topLevelDomainMended(
                    String(read[read.index(after: at)...]), region: region, hosts: hosts)
            else { continue }
            card.emails[n].address = String(read[...at]) + host
            findings.append(mended("email", read, card.emails[n].address, field: "businessCard.emails[\(n)]"))
        }
        for n in card.urls.indices {
            let read = card.urls[n].url
            let hostEnd = read.firstIndex(of: "/") ?? read.endIndex
            guard !read.contains("://"),
                let host = Self.topLevelDomainMended(String(read[..<hostEnd]), region: region, hosts: hosts)
            else { continue }
            card.urls[n].url = host + read[hostEnd...]
            findings.append(mended("url", read, card.urls[n].url, field: "businessCard.urls[\(n)]"))
        }
        return findings
    }

    /// `host` with its last label mended where no registry knows it: as another of the card's `hosts` with the same
    /// name ends (`murphylaw.ic` beside `www.murphylaw.ie`; also a registered ending one shape OCR mistakes away from
    /// the one more of them bear, `.It` beside two `.lt`), or where one shape OCR mistakes for another (`i` or `1`
    /// read for `l`, `0` for `o`, `rn` for `m`) makes it the card's `region`'s country code or a generic domain:
    /// `serendibbank.ik` -> `serendibbank.lk` on a Sri Lankan card, `example.corn` -> `example.com`. Nil otherwise.
    static func topLevelDomainMended(_ host: String, region: String? = nil, hosts: [String] = []) -> String? {
        guard let dot = host.lastIndex(of: "."), case let tld = host[host.index(after: dot)...].lowercased(),
            tld.count >= 2
        else { return nil }
        let registered = DataDetector.isTopLevelDomain(tld)
        let name = host[..<dot].lowercased()
        // The endings the card's hosts of this name bear, each as often as it is printed.
        let endings = hosts.compactMap { other -> String? in
            let o = bareHost(other)
            guard let od = o.lastIndex(of: "."), o[..<od] == name else { return nil }
            return String(o[o.index(after: od)...])
        }
        for known in endings where known != tld && DataDetector.isTopLevelDomain(known) {
            // A registered ending yields only to one a shape apart that more of the card's hosts bear (`vejosodai.It`
            // beside `info@vejosodai.lt` and `www.vejosodai.lt`).
            guard !registered
                || OCRConfusions.shipped.lookAlike(known, tld)
                    && endings.filter({ $0 == known }).count > endings.filter({ $0 == tld }).count
            else { continue }
            return String(host[...dot]) + known
        }
        guard !registered else { return nil }
        let likely = Set(["com", "net", "org", "edu", "gov", "info", "biz"] + (region.map { [$0.lowercased()] } ?? []))
        let swaps = [("i", "l"), ("1", "l"), ("0", "o"), ("rn", "m"), ("vv", "w"), ("cl", "d")]
        for (seen, meant) in swaps where tld.contains(seen) {
            let mended = tld.replacingOccurrences(of: seen, with: meant)
            if likely.contains(mended), DataDetector.isTopLevelDomain(mended) { return String(host[...dot]) + mended }
        }
        return nil
    }

    /// The address with the card's web domain for its own, when the two differ only by shapes OCR takes for one another
    /// (`osbormehopkins.ca` read for `osbornehopkins.ca`: rn as m; cl as d, vv as w, 1 or I as l, 0 as o) or by one
    /// letter, and the organization's name spells the web domain's stem but not the e-mail's. Nil otherwise.
    static func domainMendedByWeb(address: String, webHosts: [String], organization: String) -> String? {
        guard let at = address.lastIndex(of: "@") else { return nil }
        let domain = address[address.index(after: at)...].lowercased()
        let orgKey = Text.key(organization)
        for h in webHosts {
            let web = bareHost(h)
            guard web != domain, OCRConfusions.shipped.lookAlike(web, domain) || Text.oneLetterApart(web, domain),
                spells(domainStem(web) ?? "", orgKey), !spells(domainStem(domain) ?? "", orgKey)
            else { continue }
            return address[...at] + web
        }
        return nil
    }

    /// The address with the card's web domain for its own, where the e-mail's domain as printed holds a capital `I`
    /// (no domain is printed so between small letters) and reading each as `l` gives the web's (`Imsmarine.com.cy`
    /// beside `www.lmsmarine.com.cy`). Nil otherwise.
    static func domainWithCapitalIRead(printed: String, address: String, webHosts: [String]) -> String? {
        guard let at = address.lastIndex(of: "@"), let printedAt = printed.lastIndex(of: "@") else { return nil }
        let domain = printed[printed.index(after: printedAt)...].prefix { !$0.isWhitespace }
        guard domain.contains("I") else { return nil }
        let mended = String(domain.map { $0 == "I" ? "l" : $0 }).lowercased()
        guard mended != address[address.index(after: at)...].lowercased(),
            webHosts.contains(where: { bareHost($0) == mended })
        else { return nil }
        return address[...at] + mended
    }

    /// The local part of an e-mail address as printed (`Imeadows` in `E. Imeadows@davidson.com`), in its printed case.
    static func printedLocalPart(_ printed: String) -> String? {
        printed.split(separator: "@").first.map { String($0.split(separator: " ").last ?? $0) }
    }

    /// The e-mail address with the capital `I`s and the `1`s of its local part read as `l`, or one `i` of it, when only
    /// then does the local part spell the card's name (`Imeadows@...` printed for Lori Meadows, `I.hansen@...` or
    /// `1.hansen@...` for Lisa Hansen, `ifernandez@...` for Lucía Fernández Ortega): in a sans-serif face the four are
    /// nearly one shape. Nil when the address spells the name as read, or does not with the mend either.
    static func localMendedByName(printed: String, address: String, _ name: BusinessCard.Name) -> String? {
        guard let at = address.firstIndex(of: "@"), let printedLocal = printedLocalPart(printed),
            printedLocal.contains(where: { "I1i".contains($0) }), printedLocal.lowercased() == String(address[..<at]),
            !spellsPersonNamed(String(address[..<at]), name)
        else { return nil }
        let local = Array(printedLocal)
        // Every capital I and 1 at once, as a face prints them alike, else any one of the three.
        var readings = [String(local.map { $0 == "I" || $0 == "1" ? "l" : $0 }).lowercased()]
        for k in local.indices where "I1i".contains(local[k]) {
            var one = local
            one[k] = "l"
            readings.append(String(one).lowercased())
        }
        return readings.first { spellsPersonNamed($0, name) }.map { $0 + address[at...] }
    }

    /// Whether the local part spells the person: `spellsPerson` with the first given name and the last family name,
    /// or the first family name where two are borne (`lfernandez` for Lucía Fernández Ortega), or the parts whole.
    static func spellsPersonNamed(_ local: String, _ name: BusinessCard.Name) -> Bool {
        guard let given = name.given, let family = name.family else { return false }
        let givens = given.split(separator: " ").map(String.init), families = family.split(separator: " ").map(String.init)
        var pairs = [[given, family]]
        if let g = givens.first, let first = families.first, let last = families.last {
            pairs += [[g, first], [g, last]]
        }
        return pairs.contains { spellsPerson(local, $0) }
    }

    /// The e-mail address without a label glued to it by a lost space (`Mailg.cadorna@...`, `E.j.mercado@...`), when
    /// the rest of the local part spells the card's name and the address as read does not. Nil otherwise.
    static func localWithoutGluedLabel(printed: String, address: String, _ name: BusinessCard.Name) -> String? {
        guard let at = address.firstIndex(of: "@"), let given = name.given, let family = name.family,
            printedLocalPart(printed)?.first?.isUppercase == true
        else { return nil }
        let local = String(address[..<at])
        guard !spellsPersonNamed(local, name) else { return nil }
        for label in Self.lexicon.emailLabels where local.hasPrefix(label) && local.count > label.count + 2 {
            // (The label's own full stop or colon goes with it: `E.j.mercado@...`.)
            let rest = String(local.dropFirst(label.count).drop { ".:-_".contains($0) })
            // The rest may be the whole name, or its family or given name alone (`payne@`, `tracy@`).
            let plain = plainLetters(rest)
            if rest.count >= 2,
                spellsPersonNamed(rest, name) || spellings(family).contains(plain)
                    || plain.count >= 3 && spellings(given).contains(plain)
            {
                return rest + address[at...]
            }
        }
        return nil
    }

    /// The e-mail address with the word before it joined on, when OCR read a space inside the local part (`james
    /// _johnson@`, `anna .berg@`, `charlotte. bowes-lyon@`) or a comma for its full stop (`h,takahashi@`, given here as
    /// `h.`): one separator at the space, letters before it, and the joined local part spells the card's name. Nil
    /// otherwise.
    static func localJoinedAcrossSpace(wordBefore before: String?, address: String, _ name: BusinessCard.Name)
        -> String?
    {
        guard let at = address.firstIndex(of: "@"), let first = address.first, let before, let last = before.last
        else { return nil }
        // The separator ends the word before or starts the address, not both.
        guard "._-".contains(first) != "._-".contains(last) else { return nil }
        let letters = "._-".contains(last) ? before.dropLast() : before[...]
        guard !letters.isEmpty, letters.allSatisfy(\.isLetter) else { return nil }
        let joined = before.lowercased() + address[..<at]
        return spellsPersonNamed(joined, name) ? joined + address[at...] : nil
    }
}
