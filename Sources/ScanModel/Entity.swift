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
/// | `phone` | `e164` (when the country is known), `national` (national significant number, digits), `region` (ISO 3166
/// alpha-2), `extension` | | `email` | `address` (lowercased) |
/// | `url` | `url` (with a scheme; `http://` added when none was printed) |
/// | `date` | `date` (ISO `yyyy-mm-dd`); for a range of days (`May 3-5, 2020`), its first day, and `endDate` its last |
/// | `time` | `time` (`HH:MM` or `HH:MM:SS`, 24-hour) |
/// | `money` | `amount` (decimal string, `.` as separator, `-` when negative), `currency` (ISO 4217, absent when none
/// was printed) | | `percentage` | `percent` (decimal string) |
/// | `postalCode` | `postalCode`, `country`, `region` (the US or AU state printed before it) |
/// | `address` | `street`, `city`, `region` (state or province), `postalCode`, `country` |
/// | `iban` | `iban` (compact, upper case), `country` |
/// | `paymentCard` | `brand`, `last4`, `masked` |
///
/// The fields live in one shared, immutable box, so copying a value (as the detectors do
/// for every candidate) costs one reference count instead of nineteen optional strings.
/// Setting a field makes a new box. The JSON is the same as a plain struct's: absent
/// fields are left out.
public struct EntityValue: Codable, Hashable, Sendable {
    typealias Box = EntityValueBox
    typealias Fields = EntityValueFields

    private var box: Box

    private init(fields: Fields) { box = Box(fields) }

    public var e164: String? {
        get { box.fields.e164 }
        set { var f = box.fields; f.e164 = newValue; box = Box(f) }
    }
    public var national: String? {
        get { box.fields.national }
        set { var f = box.fields; f.national = newValue; box = Box(f) }
    }
    public var region: String? {
        get { box.fields.region }
        set { var f = box.fields; f.region = newValue; box = Box(f) }
    }
    public var `extension`: String? {
        get { box.fields.`extension` }
        set { var f = box.fields; f.`extension` = newValue; box = Box(f) }
    }
    public var address: String? {
        get { box.fields.address }
        set { var f = box.fields; f.address = newValue; box = Box(f) }
    }
    public var url: String? {
        get { box.fields.url }
        set { var f = box.fields; f.url = newValue; box = Box(f) }
    }
    public var date: String? {
        get { box.fields.date }
        set { var f = box.fields; f.date = newValue; box = Box(f) }
    }
    /// The last day, inclusive, of a range of days (`May 3-5, 2020`); `date` is then the first.
    public var endDate: String? {
        get { box.fields.endDate }
        set { var f = box.fields; f.endDate = newValue; box = Box(f) }
    }
    public var time: String? {
        get { box.fields.time }
        set { var f = box.fields; f.time = newValue; box = Box(f) }
    }
    public var amount: String? {
        get { box.fields.amount }
        set { var f = box.fields; f.amount = newValue; box = Box(f) }
    }
    public var currency: String? {
        get { box.fields.currency }
        set { var f = box.fields; f.currency = newValue; box = Box(f) }
    }
    public var percent: String? {
        get { box.fields.percent }
        set { var f = box.fields; f.percent = newValue; box = Box(f) }
    }
    public var postalCode: String? {
        get { box.fields.postalCode }
        set { var f = box.fields; f.postalCode = newValue; box = Box(f) }
    }
    public var street: String? {
        get { box.fields.street }
        set { var f = box.fields; f.street = newValue; box = Box(f) }
    }
    public var city: String? {
        get { box.fields.city }
        set { var f = box.fields; f.city = newValue; box = Box(f) }
    }
    public var country: String? {
        get { box.fields.country }
        set { var f = box.fields; f.country = newValue; box = Box(f) }
    }
    public var iban: String? {
        get { box.fields.iban }
        set { var f = box.fields; f.iban = newValue; box = Box(f) }
    }
    public var brand: String? {
        get { box.fields.brand }
        set { var f = box.fields; f.brand = newValue; box = Box(f) }
    }
    public var last4: String? {
        get { box.fields.last4 }
        set { var f = box.fields; f.last4 = newValue; box = Box(f) }
    }
    public var masked: Bool? {
        get { box.fields.masked }
        set { var f = box.fields; f.masked = newValue; box = Box(f) }
    }

    public init(
        e164: String? = nil, national: String? = nil, region: String? = nil, extension: String? = nil,
        address: String? = nil, url: String? = nil, date: String? = nil, endDate: String? = nil, time: String? = nil,
        amount: String? = nil, currency: String? = nil, percent: String? = nil, postalCode: String? = nil,
        street: String? = nil, city: String? = nil, country: String? = nil, iban: String? = nil, brand: String? = nil,
        last4: String? = nil, masked: Bool? = nil
    ) {
        box = Box(
            Fields(
                e164: e164, national: national, region: region, extension: `extension`, address: address, url: url,
                date: date, endDate: endDate, time: time, amount: amount, currency: currency, percent: percent,
                postalCode: postalCode, street: street, city: city, country: country, iban: iban, brand: brand,
                last4: last4, masked: masked))
    }

    public init(from decoder: any Decoder) throws {
        self.init(fields: try Fields(from: decoder))
    }

    public func encode(to encoder: any Encoder) throws {
        try box.fields.encode(to: encoder)
    }

    public static func == (a: EntityValue, b: EntityValue) -> Bool {
        a.box === b.box || a.box.fields == b.box.fields
    }

    public func hash(into hasher: inout Hasher) {
        box.fields.hash(into: &hasher)
    }
}

/// The shared storage of an `EntityValue`.
final class EntityValueBox: Sendable {
    let fields: EntityValueFields
    init(_ fields: EntityValueFields) { self.fields = fields }
}

/// The plain fields of an `EntityValue`; encoded and compared as they are.
struct EntityValueFields: Codable, Hashable, Sendable {
    var e164: String?
    var national: String?
    var region: String?
    var `extension`: String?
    var address: String?
    var url: String?
    var date: String?
    var endDate: String?
    var time: String?
    var amount: String?
    var currency: String?
    var percent: String?
    var postalCode: String?
    var street: String?
    var city: String?
    var country: String?
    var iban: String?
    var brand: String?
    var last4: String?
    var masked: Bool?
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
