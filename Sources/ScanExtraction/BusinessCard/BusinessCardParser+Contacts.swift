import Foundation
import ScanDetectors
import ScanLayout
import ScanModel

/// The card's contacts: phones typed by their labels or their numbers, social profiles and handles, the card's own
/// sites.
extension BusinessCardParser {
    /// The contacts stage: every phone, e-mail and web address the detectors found, social profiles and handles, with
    /// the lines they stand on (`used`) and, for each e-mail address, the word printed just before it, a space between
    /// (an address OCR read apart, `j smith@...`) or a comma (`h,takahashi@...`, given as `h.`).
    static func contacts(_ lines: [AnalyzedLine]) -> (
        card: BusinessCard, used: Set<Int>, wordBeforeEmail: [String: String]
    ) {
        var card = BusinessCard()
        var used = Set<Int>()
        var wordBeforeEmail: [String: String] = [:]
        for (i, l) in lines.enumerated() {
            // (A line that holds only a run of digits valid as the card's region's number is a phone, its label a
            // drawn icon the recognizer left out: `9766418471`; not under a line that labels another number, `CVR-nr.`
            // over `12345678`.)
            let standing = l.standingPhone.flatMap { i > 0 && labelsANumberBelow(lines[i - 1]) ? nil : $0 }
            for e in l.entities + [standing].compactMap({ $0 }) {
                switch e.type {
                case .email:
                    let a = e.value.address ?? e.text.lowercased()
                    if !card.emails.contains(where: { $0.address == a }) {
                        card.emails.append(.init(address: a, source: l.provenance(of: e)))
                    }
                    let before = String(l.text.unicodeScalars.prefix(e.range.start))
                    if before.hasSuffix(" "), let word = before.split(separator: " ").last {
                        wordBeforeEmail[a] = String(word)
                    } else if before.hasSuffix(","), let word = before.split(separator: " ").last {
                        // A comma glued to the address is its full stop as OCR read it (`h,takahashi@`).
                        wordBeforeEmail[a] = word.dropLast() + "."
                    }
                    used.insert(i)
                case .url:
                    var u = e.text.trimmingCharacters(in: CharacterSet(charactersIn: ".,;"))
                    // `wwww.` is `www.` with a letter doubled by OCR; no address starts so.
                    if let r = u.range(of: #"^[wW]{4,}\."#, options: .regularExpression) {
                        u.replaceSubrange(r, with: "www.")
                    }
                    if let p = profile(u) {
                        card.socialProfiles.append(.init(service: p, value: u, source: l.provenance(of: e)))
                    } else if !card.urls.contains(where: { $0.url == u }) {
                        card.urls.append(.init(url: u, source: l.provenance(of: e)))
                    }
                    used.insert(i)
                case .phone:
                    let type = phoneLabel(l, e) ?? labelApart(lines, i, e) ?? .other
                    let number = e.text
                    let key = e.value.e164 ?? number.filter(\.isNumber)
                    if !card.phones.contains(where: { ($0.e164 ?? $0.number.filter(\.isNumber)) == key }) {
                        card.phones.append(
                            .init(
                                type: type, number: number, e164: e.value.e164, extension: e.value.extension,
                                source: l.provenance(of: e)))
                    }
                    used.insert(i)
                default: break
                }
            }
            // Handles printed without a URL: `@jdoe`, `in/jdoe`.
            if let m = Text.range(l.text, #"(?i)\b(linkedin|twitter|instagram|github|xing)\s*[:/]\s*(\S+)"#),
                card.socialProfiles.isEmpty
            {
                let s = String(l.text[m])
                if let profile = handleProfile(s) {
                    card.socialProfiles.append(
                        .init(service: profile.service, value: profile.url, source: l.line.provenance()))
                }
                used.insert(i)
            }
        }
        ownSites(lines, &card, used: &used)
        linksMissingASlash(lines, &card, used: &used)
        typeUnlabeledPhones(&card.phones)
        return (card, used, wordBeforeEmail)
    }

    /// Whether a line of one or two words without digits labels the number under it as no phone's: it ends with a
    /// colon, or with a number's label of the locale files or a register's acronym, no phone's (`CVR-nr.`, `KvK`,
    /// `Reg. No.`; not `TEL`).
    static func labelsANumberBelow(_ l: AnalyzedLine) -> Bool {
        guard Text.digitCount(l.text) == 0, l.entities.isEmpty, l.line.words.count <= 2,
            let last = l.line.words.last?.text
        else { return false }
        let word = last.trimmingCharacters(in: CharacterSet(charactersIn: ".:"))
        return last.hasSuffix(":") || labelsANumber(l.key)
            || (2...4).contains(word.count) && word.allSatisfy { $0.isUppercase || $0 == "-" }
                && labelType(Text.key(word)) == nil
            || word.lowercased().hasSuffix("-nr") || word.lowercased().hasSuffix("-no")
    }

    /// Types the phones printed without a label (cards often mark them with icons OCR doesn't read). When another
    /// number is labelled mobile, they are office lines; when the numbers themselves tell mobile from fixed, that
    /// decides; otherwise cards list the office line first and the mobile second.
    static func typeUnlabeledPhones(_ phones: inout [BusinessCard.Phone]) {
        let unlabeled = phones.indices.filter { phones[$0].type == .other }
        guard !unlabeled.isEmpty else { return }
        let mobileByNumber = unlabeled.map { isMobileNumber(e164: phones[$0].e164) }
        let labelledMobile = phones.contains { $0.type == .mobile }
        let labelledAny = unlabeled.count < phones.count
        for (n, i) in unlabeled.enumerated() {
            if labelledMobile {
                phones[i].type = .work
            } else if mobileByNumber.contains(true) || labelledAny {
                phones[i].type = mobileByNumber[n] ? .mobile : .work
            } else {
                phones[i].type = n == 1 ? .mobile : .work
            }
        }
    }

    /// The phone's type from the label printed just before it, else from the number.
    static func phoneType(_ l: AnalyzedLine, _ e: Entity) -> BusinessCard.PhoneType {
        phoneLabel(l, e) ?? (isMobileNumber(e) ? .mobile : .work)
    }

    /// The phone's type from the label printed just before it, or nil without one.
    static func phoneLabel(_ l: AnalyzedLine, _ e: Entity) -> BusinessCard.PhoneType? {
        let before = String(l.text.unicodeScalars.prefix(e.range.start))
        // The last label-like word before the number (after any earlier number on the line).
        let words = Text.key(before).split(separator: " ").map(String.init)
        // A label of two letters apart (`H/P`, Malaysia's hand phone) before one of its letters alone.
        if words.count >= 2, words.suffix(2).allSatisfy({ $0.count == 1 }),
            let type = labelType(words.suffix(2).joined(separator: " "))
        {
            return type
        }
        // (A number after another and a bar or a slash shares its label where its own range agrees: `Mob: +91 98250
        // 47163 | +91 93761 20584`; not a fixed line after `Mob:`, nor a mobile after `Tel.`.)
        let tail = before.trimmingCharacters(in: .whitespaces)
        let afterAnother = tail.last.map { "|/".contains($0) } == true
            && tail.dropLast().trimmingCharacters(in: .whitespaces).last?.isNumber == true
        if let w = words.last(where: { !$0.allSatisfy(\.isNumber) }), let type = labelType(w),
            words.last.map({ !$0.allSatisfy(\.isNumber) }) ?? false || words.count <= 2
                || afterAnother && [.mobile, .work].contains(type) && (type == .mobile) == isMobileNumber(e)
        {
            return type
        }
        return words.last.flatMap(labelType)
    }

    /// The type a label word names. The label decides, even over the numbering plan: `T 07984 440907` is the card's
    /// office line though the number is in a mobile range (cards-dev's cards say so).
    static func labelType(_ w: String) -> BusinessCard.PhoneType? {
        if lexicon.mobileLabels.contains(w) { return .mobile }
        if lexicon.faxLabels.contains(w) { return .fax }
        if lexicon.workLabels.contains(w) { return .work }
        return nil
    }

    /// The type a label printed apart from the number names, when nothing is printed before the number on its own
    /// line: a label word on the same row to its left that the layout read as a column of its own (`Fax` ... `030
    /// 804700`), else one on a line of its own right above it (`Fax` over `030 804700`).
    static func labelApart(_ lines: [AnalyzedLine], _ i: Int, _ e: Entity) -> BusinessCard.PhoneType? {
        let l = lines[i].line
        guard l.text.unicodeScalars.prefix(e.range.start).allSatisfy({ $0 == " " }) else { return nil }
        let h = max(1, l.printHeight)
        func oneLabel(_ j: Int) -> BusinessCard.PhoneType? {
            let words = Text.key(lines[j].text).split(separator: " ").map(String.init)
            return words.count == 1 ? labelType(words[0]) : nil
        }
        let others = lines.indices.filter { $0 != i }
        let left = others.filter { j in
            let o = lines[j].line
            return abs(o.level - l.level) < 0.5 * h && o.box.maxX <= l.box.minX + 0.2 * h
                && l.box.minX - o.box.maxX < 4 * h
        }
        if let j = left.max(by: { lines[$0].line.box.maxX < lines[$1].line.box.maxX }) { return oneLabel(j) }
        let above = others.filter { j in
            let o = lines[j].line
            let gap = l.level - o.level
            return gap > 0.5 * h && gap < 2.2 * h && o.box.horizontalOverlap(l.box) > 0
        }
        return above.max(by: { lines[$0].line.level < lines[$1].line.level }).flatMap(oneLabel)
    }

    /// Whether the number is a mobile by its region's numbering plan (libphonenumber's ranges, every region).
    static func isMobileNumber(_ e: Entity) -> Bool { isMobileNumber(e164: e.value.e164) }

    static func isMobileNumber(e164: String?) -> Bool {
        e164.flatMap(PhoneLineKind.of(e164:)) == .mobile
    }

    /// A profile printed as a service's name and a handle (`Twitter: @jonasberg`, `LinkedIn in/anna-kowalska`): its
    /// service as ``profile(_:)`` names it and its address as a printed URL would be (`x.com/jonasberg`,
    /// `linkedin.com/in/anna-kowalska`), so that the vCard and the JSON hold a link, not the label.
    static func handleProfile(_ printed: String) -> (service: String, url: String)? {
        let name = String(printed.prefix { $0.isLetter }).lowercased()
        let handle = printed.dropFirst(name.count).drop { " :/@".contains($0) }
            .trimmingCharacters(in: CharacterSet(charactersIn: ".,;)"))
        guard !handle.isEmpty else { return nil }
        switch name {
        case "twitter": return ("x", "x.com/" + handle)
        case "linkedin":
            let path =
                ["in/", "company/", "pub/"].contains { handle.lowercased().hasPrefix($0) } ? handle : "in/" + handle
            return ("linkedin", "linkedin.com/" + path)
        case "instagram": return ("instagram", "instagram.com/" + handle)
        case "github": return ("github", "github.com/" + handle)
        case "xing": return ("xing", "xing.com/profile/" + handle)
        default: return nil
        }
    }

    static func profile(_ url: String) -> String? {
        let u = url.lowercased()
        for (host, name) in [
            ("linkedin.com", "linkedin"), ("twitter.com", "x"), ("x.com/", "x"), ("instagram.com", "instagram"),
            ("facebook.com", "facebook"), ("github.com", "github"), ("xing.com", "xing"), ("youtube.com", "youtube")
        ] {
            if u.contains(host) && (u.contains("/") || host.hasSuffix("/")) && !u.hasSuffix(host) { return name }
        }
        return nil
    }

    /// Web addresses whose `//` OCR read as one slash (`W: https:/mushilyimo.co.tz`), which no detector takes for a
    /// link: `http` or `https`, one slash, and a host of two labels or more under a registered top-level domain (a
    /// social network's goes to the profiles). The line goes to the contacts when it says no more than a label and the
    /// link.
    static func linksMissingASlash(_ lines: [AnalyzedLine], _ card: inout BusinessCard, used: inout Set<Int>) {
        for (i, l) in lines.enumerated() where !used.contains(i) {
            for (k, word) in l.line.words.enumerated() {
                let token = word.text.trimmingCharacters(in: CharacterSet(charactersIn: ".,;()"))
                guard let m = Text.range(token, #"^(?i)https?:/(?=[a-z0-9])"#) else { continue }
                let rest = token[m.upperBound...]
                let host = rest.prefix { $0 != "/" }.lowercased()
                let labels = host.split(separator: ".", omittingEmptySubsequences: false)
                guard labels.count >= 2, labels.allSatisfy({ !$0.isEmpty }),
                    host.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "." }),
                    let tld = labels.last, DataDetector.isTopLevelDomain(String(tld))
                else { continue }
                let url = String(token[..<m.upperBound]) + "/" + rest
                let source = l.line.provenance(words: k..<k + 1)
                if let p = profile(url) {
                    card.socialProfiles.append(.init(service: p, value: url, source: source))
                } else if !card.urls.contains(where: { $0.url.lowercased() == url.lowercased() }) {
                    card.urls.append(.init(url: url, source: source))
                }
                if l.line.words.count <= 2 { used.insert(i) }
            }
        }
    }

    /// A bare host printed on the card that is its own e-mail's domain is the card's web address, where the detector
    /// alone doubts it: `Web seorin.ai` beside `jiwoo.park@seorin.ai` (a bare `.ai` name is as often a file).
    static func ownSites(_ lines: [AnalyzedLine], _ card: inout BusinessCard, used: inout Set<Int>) {
        let domains = Set(card.emails.compactMap { $0.address.split(separator: "@").last.map { $0.lowercased() } })
        guard !domains.isEmpty else { return }
        var known = Set(card.urls.map { bareHost(host($0.url)) })
        for (i, l) in lines.enumerated() {
            for (k, word) in l.line.words.enumerated() {
                let token = word.text.trimmingCharacters(in: CharacterSet(charactersIn: ".,;:()"))
                let site = bareHost(token)
                guard domains.contains(site), !known.contains(site) else { continue }
                card.urls.append(.init(url: token, source: l.line.provenance(words: k..<k + 1)))
                known.insert(site)
                // (A line that says more, `Seorin Robotics (seorin.ai)`, may still be the firm's.)
                if l.line.words.count <= 2 { used.insert(i) }
            }
        }
    }

    /// A host in lower case without its `www.` (`www.Example.com` -> `example.com`).
    static func bareHost(_ host: String) -> String {
        let h = host.lowercased()
        return h.hasPrefix("www.") ? String(h.dropFirst(4)) : h
    }

    static func host(_ url: String) -> String {
        var u = url.lowercased()
        if let r = u.range(of: "://") { u = String(u[r.upperBound...]) }
        return String(u.prefix { $0 != "/" })
    }
}
