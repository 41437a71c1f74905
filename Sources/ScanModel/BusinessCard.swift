/// A business card's fields, after Azure prebuilt-businessCard and vCard (RFC 6350).
/// Where each value was printed is in `provenance` (keyed by the field's path) and
/// in `source` on every phone, e-mail, URL and profile.
public struct BusinessCard: Codable, Hashable, Sendable {
    public struct Name: Codable, Hashable, Sendable {
        public var full: String
        public var given: String?
        public var family: String?
        public var middle: String?
        public var prefix: String?
        public var suffix: String?
        public init(
            full: String, given: String? = nil, family: String? = nil, middle: String? = nil, prefix: String? = nil,
            suffix: String? = nil
        ) {
            self.full = full; self.given = given; self.family = family; self.middle = middle; self.prefix = prefix;
            self.suffix = suffix
        }
    }

    public enum PhoneType: String, Codable, Hashable, Sendable { case work, mobile, fax, other }

    public struct Phone: Codable, Hashable, Sendable {
        public var type: PhoneType
        /// As printed.
        public var number: String
        public var e164: String?
        /// The extension printed after the number (`ext. 42`, `x 305`): the person behind the switchboard.
        public var `extension`: String?
        public var source: Provenance
        public init(type: PhoneType, number: String, e164: String?, extension: String? = nil, source: Provenance) {
            self.type = type; self.number = number; self.e164 = e164; self.extension = `extension`; self.source = source
        }

        /// The number to dial as one value: E.164 (else as printed), with ` ext. N` when it has an extension.
        public var dialled: String {
            guard let e164 else { return number }
            return `extension`.map { "\(e164) ext. \($0)" } ?? e164
        }
    }

    public struct Email: Codable, Hashable, Sendable {
        public var address: String
        public var source: Provenance
        public init(address: String, source: Provenance) { self.address = address; self.source = source }
    }

    public struct Link: Codable, Hashable, Sendable {
        /// As printed (without a scheme when none was printed).
        public var url: String
        public var source: Provenance
        public init(url: String, source: Provenance) { self.url = url; self.source = source }
    }

    public struct Profile: Codable, Hashable, Sendable {
        /// `linkedin`, `x`, `instagram`, `facebook`, `github`, `xing`...
        public var service: String
        public var value: String
        public var source: Provenance
        public init(service: String, value: String, source: Provenance) {
            self.service = service; self.value = value; self.source = source
        }
    }

    public struct Address: Codable, Hashable, Sendable {
        /// The printed address, lines joined with ", ".
        public var full: String
        public var street: String?
        public var city: String?
        public var region: String?
        public var postalCode: String?
        /// ISO 3166-1 alpha-2.
        public var country: String?
        public init(
            full: String, street: String? = nil, city: String? = nil, region: String? = nil, postalCode: String? = nil,
            country: String? = nil
        ) {
            self.full = full; self.street = street; self.city = city; self.region = region;
            self.postalCode = postalCode; self.country = country
        }
    }

    public var name: Name?
    public var title: String?
    public var department: String?
    public var organization: String?
    public var phones: [Phone]
    public var emails: [Email]
    public var urls: [Link]
    public var address: Address?
    public var socialProfiles: [Profile]
    public var provenance: [String: Provenance]

    public init(name: Name? = nil, title: String? = nil, department: String? = nil, organization: String? = nil,
                phones: [Phone] = [], emails: [Email] = [], urls: [Link] = [], address: Address? = nil,
                socialProfiles: [Profile] = [], provenance: [String: Provenance] = [:]) {
        self.name = name; self.title = title; self.department = department; self.organization = organization
        self.phones = phones; self.emails = emails; self.urls = urls; self.address = address
        self.socialProfiles = socialProfiles; self.provenance = provenance
    }
}
