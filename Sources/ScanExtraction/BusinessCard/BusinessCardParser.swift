import Foundation
import ScanDetectors
import ScanLayout
import ScanModel

/// Reads a `BusinessCard` out of analyzed lines. Contacts come from the data
/// detectors; phones are typed from their labels (`T`, `M`, `Mob`, `Fax`, `Tél.`)
/// or, without one, from the number itself; the name is the most prominent
/// name-like line, confirmed by the e-mail's local part; the title sits near it;
/// the organization has a company suffix or matches the e-mail's domain.
public struct BusinessCardParser: Sendable {
    /// The region the card's text points to (`DataDetector.context`) or the user's `--country`: where people carry
    /// two family names, a name is split so (`twoSurnameRegions`).
    public var region: String?

    public init(region: String? = nil) { self.region = region }

    /// Whether the card's region is one where people bear two family names (`twoSurnameRegions`).
    var twoSurnames: Bool { region.map(Self.twoSurnameRegions.contains) ?? false }

    /// The words of every locale file: phone labels, job titles, organization words, honorifics, name suffixes and
    /// particles, departments.
    static let lexicon = Lexicon.shared

    /// The lines each of the person's and the firm's fields was read from, by index into the card's lines, as the
    /// stages take them: a later stage leaves them alone.
    struct FieldLines {
        var name: Int?
        /// The name's second line: a family name under its given name, degrees under a name ending with a comma.
        var nameBelow: Int?
        var organization: Int?
        /// The rest of a wordmark, or the legal form wrapped under the firm's line.
        var organizationPart: Int?
        /// The legal form (or a word of the firm's kind) under a wordmark's second line.
        var organizationLegalForm: Int?
        var title: Int?
        var titleBelow: Int?
        /// The third line of a title wrapped twice (`Regional Sales` / `Manager,` / `Asia Pacific`).
        var titleEnd: Int?
        var department: Int?

        var all: Set<Int> {
            Set([
                name, nameBelow, organization, organizationPart, organizationLegalForm, title, titleBelow, titleEnd,
                department,
            ].compactMap { $0 })
        }
    }

    /// The card's fields, stage by stage: contacts, address, organization, name, the firm's whole name, title,
    /// department, the premises over the street, then e-mail addresses mended by what the card prints elsewhere.
    public func parse(_ read: [AnalyzedLine]) -> (BusinessCard, [Finding]) {
        let email = Self.firstEmail(read)
        let apart = Self.gluedNamesApart(Self.monogramsApart(read, email: email), email: email)
        let lines = Self.namesApartFromTitles(Self.namesApartFromFirms(apart, email: email), email: email)
        var (card, used, wordBeforeEmail) = Self.contacts(lines)
        // What the e-mail and web addresses say of the firm and the person: the domain's stem, the local part.
        let emailLocal = card.emails.first.map { String($0.address.prefix { $0 != "@" }).lowercased() }
        let webDomain = card.urls.first.flatMap { Self.domainStem(Self.host($0.url)) }
        let emailHost = card.emails.first.map { String($0.address.split(separator: "@").last ?? "") }
        let freeMail = emailHost.map { Self.domainStem($0) == nil } ?? false
        var domain = emailHost.flatMap(Self.domainStem) ?? webDomain
        // The address (its lines join `used`).
        let addr = address(lines, used: &used, firmDomain: domain.flatMap { $0.count >= 4 ? $0 : nil })
        card.address = addr?.address
        if let p = addr?.provenance { card.provenance["address"] = p }
        // (A postal code alone on its line that the address took is no phone: `01310-200`.)
        if let addr, let code = addr.address.postalCode {
            let alone = addr.lines.contains { lines[$0].text.trimmingCharacters(in: .whitespaces) == code }
            if alone { card.phones.removeAll { $0.source.text == code } }
        }

        // --- Name, title, organization, department among the remaining lines.
        // An address at a free mail service (`hollowoakjoinery@gmail.com`, `cafestjernen@gmail.com`) names the firm,
        // if anything, in its local part, as a domain would: the card's own site's name first, else the local part's
        // letters. (A person's own, `darnell.whitaker@gmail.com`, is their name's: see `organizationLine`.)
        var localIsDomain = false
        if freeMail, domain == nil, let local = emailLocal {
            domain = String(local.filter(\.isLetter))
            localIsDomain = true
        }
        let free: [Int] = lines.indices.filter { !used.contains($0) }

        var (orgIndex, orgBest) = Self.organizationLine(
            lines, among: free, domain: domain, localIsDomain: localIsDomain, emailLocal: emailLocal)

        // (A local part that named the firm, `greystonesfarmshop@gmail.com`, says nothing of the person.)
        let personLocal = localIsDomain && orgIndex != nil && orgBest >= 2 ? nil : emailLocal
        let (nameIndex, nameBelow) = Self.nameLines(
            lines, among: free, personLocal: personLocal, organization: &orgIndex, organizationScore: orgBest,
            twoSurnames: twoSurnames)
        let nameCorrection = nameIndex.flatMap {
            readName(lines, $0, below: nameBelow, emailLocal: emailLocal, into: &card)
        }
        var fields = FieldLines(name: nameIndex, nameBelow: nameBelow, organization: orgIndex)
        if let oi = orgIndex {
            Self.readOrganization(lines, oi, among: free, domain: domain, fields: &fields, into: &card)
        }
        Self.readTitle(lines, among: free, used: used, fields: &fields, into: &card)
        let taken = fields.all
        if card.department == nil, let di = free.first(where: {
            !taken.contains($0) && Text.hasAny(lines[$0].key, Self.lexicon.departmentWords)
                && Text.digitCount(lines[$0].text) == 0
        }) {
            card.department = Text.clean(lines[di].text)
            card.provenance["department"] = lines[di].line.provenance()
            fields.department = di
        }
        // The premises over the street, in the address's block, once every other field has taken its lines.
        if let addr { Self.addPremises(lines, to: addr, used: used, fields: fields, into: &card) }
        var findings: [Finding] = []
        if let c = nameCorrection {
            findings.append(
                Finding(
                    code: "card-name-from-email",
                    message:
                        "the name was read as '\(c.from)'; one letter was taken from the e-mail address: '\(c.to)'",
                    field: "businessCard.name"))
        }
        findings += Self.mendEmails(
            &card, nameCorrected: nameCorrection != nil, wordBeforeEmail: wordBeforeEmail, region: region)
        if card.name == nil {
            findings.append(
                Finding(code: "card-no-name", message: "no name was found on the card", field: "businessCard.name"))
        }
        return (card, findings)
    }

    /// A line made of `words` cut from line `l`, on its row, with no label, amounts or detector hits of its own.
    static func piece(of l: AnalyzedLine, _ words: [LayoutWord]) -> AnalyzedLine {
        AnalyzedLine(
            line: LayoutLine(page: l.line.page, words: words, level: l.line.level, ordered: true),
            labelWordCount: words.count, trailing: [], entities: [])
    }
}
