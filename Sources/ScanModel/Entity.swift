/// The kinds of thing the data detectors find.
public enum EntityType: String, Codable, Hashable, Sendable, CaseIterable {
    case phone, email, url, date, time, money, percentage, postalCode, address, iban, paymentCard
}

/// A half-open range `[start, end)` in the input text, counted in **Unicode scalars**
/// (not UTF-16 code units, not grapheme clusters). For ASCII text this equals the
/// byte offset. `String.unicodeScalars` indexes it directly.
public struct EntityRange: Codable, Hashable, Sendable {
    public var start: Int
    public var end: Int

    public init(start: Int, end: Int) {
        self.start = start
        self.end = end
    }

    public var length: Int { end - start }
}

/// The normalized value of an entity. Which fields are set depends on the entity's type;
/// the others stay nil and are left out of the JSON:
///
/// | type | fields |
/// |---|---|
/// | `phone` | `e164` (when the country is known), `national` (national significant number, digits), `region` (ISO 3166 alpha-2), `extension` |
/// | `email` | `address` (lowercased) |
/// | `url` | `url` (with a scheme; `http://` added when none was printed) |
/// | `date` | `date` (ISO `yyyy-mm-dd`) |
/// | `time` | `time` (`HH:MM` or `HH:MM:SS`, 24-hour) |
/// | `money` | `amount` (decimal string, `.` as separator, `-` when negative), `currency` (ISO 4217, absent when none was printed) |
/// | `percentage` | `percent` (decimal string) |
/// | `postalCode` | `postalCode`, `country` |
/// | `address` | `street`, `city`, `region` (state or province), `postalCode`, `country` |
/// | `iban` | `iban` (compact, upper case), `country` |
/// | `paymentCard` | `brand`, `last4`, `masked` |
public struct EntityValue: Codable, Hashable, Sendable {
    public var e164: String?
    public var national: String?
    public var region: String?
    public var `extension`: String?
    public var address: String?
    public var url: String?
    public var date: String?
    public var time: String?
    public var amount: String?
    public var currency: String?
    public var percent: String?
    public var postalCode: String?
    public var street: String?
    public var city: String?
    public var country: String?
    public var iban: String?
    public var brand: String?
    public var last4: String?
    public var masked: Bool?

    public init(e164: String? = nil, national: String? = nil, region: String? = nil, extension: String? = nil,
                address: String? = nil, url: String? = nil, date: String? = nil, time: String? = nil,
                amount: String? = nil, currency: String? = nil, percent: String? = nil,
                postalCode: String? = nil, street: String? = nil, city: String? = nil, country: String? = nil,
                iban: String? = nil, brand: String? = nil, last4: String? = nil, masked: Bool? = nil) {
        self.e164 = e164
        self.national = national
        self.region = region
        self.extension = `extension`
        self.address = address
        self.url = url
        self.date = date
        self.time = time
        self.amount = amount
        self.currency = currency
        self.percent = percent
        self.postalCode = postalCode
        self.street = street
        self.city = city
        self.country = country
        self.iban = iban
        self.brand = brand
        self.last4 = last4
        self.masked = masked
    }
}

/// A data-detector hit: a phone number, e-mail, URL, date, amount... found in text.
///
/// JSON example:
/// `{"type": "phone", "text": "(415) 555-0100", "range": {"start": 4, "end": 18},
///   "value": {"e164": "+14155550100", "national": "4155550100", "region": "US"}}`
public struct Entity: Codable, Hashable, Sendable {
    public var type: EntityType
    /// The text exactly as it appears in the input.
    public var text: String
    /// Where `text` sits in the input string, in Unicode scalars.
    public var range: EntityRange
    public var value: EntityValue
    /// Set (true) when the value could be read in more than one way, e.g. `03/04/2020`
    /// with no evidence of day-first or month-first order.
    public var ambiguous: Bool?
    /// The other readings of an ambiguous value (for dates, ISO dates).
    public var alternatives: [String]?
    /// The page the entity was found on (0-based), when it comes from a document.
    public var page: Int?
    /// The union of the boxes of the words it covers, in page pixels.
    public var boundingBox: BoundingBox?

    public init(type: EntityType, text: String, range: EntityRange, value: EntityValue = EntityValue(),
                ambiguous: Bool? = nil, alternatives: [String]? = nil,
                page: Int? = nil, boundingBox: BoundingBox? = nil) {
        self.type = type
        self.text = text
        self.range = range
        self.value = value
        self.ambiguous = ambiguous
        self.alternatives = alternatives
        self.page = page
        self.boundingBox = boundingBox
    }
}
