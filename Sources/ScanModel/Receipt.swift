/// A receipt's fields, after Azure prebuilt-receipt, AWS AnalyzeExpense and Mindee.
///
/// Values are plain (strings, decimal strings for amounts, ISO dates) so that a
/// consumer reads `receipt.total` directly; where each value was printed is in
/// `provenance`, keyed by the field's path (`merchant.name`, `total`, `tax.0.amount`),
/// and in `source` on every line item. Nothing is filled in that was not printed.
public struct Receipt: Codable, Hashable, Sendable {
    public struct Merchant: Codable, Hashable, Sendable {
        public var name: String?
        /// The printed address, lines joined with a space.
        public var address: String?
        /// The printed phone number.
        public var phone: String?
        /// Its E.164 form, when the country is known.
        public var phoneE164: String?
        /// A VAT, GST, SST, ABN or company registration number.
        public var taxId: String?
        public init(
            name: String? = nil, address: String? = nil, phone: String? = nil, phoneE164: String? = nil,
            taxId: String? = nil
        ) {
            self.name = name; self.address = address; self.phone = phone; self.phoneE164 = phoneE164; self.taxId = taxId
        }
    }

    public struct Item: Codable, Hashable, Sendable {
        /// What a line of the item list is when it is no article.
        public enum Kind: String, Codable, Hashable, Sendable {
            /// A discount line (`Rabatt -3.88`, `Member Discount -1.58`): its amount is negative. It follows the
            /// article it takes off, whose `discount` repeats its amount, or stands after the articles when it
            /// is the bill's.
            case discount
        }
        /// Nil for an article; `.discount` for a discount line.
        public var kind: Kind?
        public var description: String
        /// A count or a weight, as a decimal string.
        public var quantity: String?
        /// The unit of a weighed quantity (`kg`, `lb`), when printed.
        public var unit: String?
        public var unitPrice: String?
        /// The line total, as a decimal string (negative for a discount line or a returned article).
        public var amount: String?
        /// A discount printed under the item, as a negative decimal string. The discount line itself follows
        /// the item in the list, so the items' amounts add up to what they cost after their discounts.
        public var discount: String?
        /// Lines printed under the item that change it and are no item of their own (`Medium Well`, `No onions`), in
        /// order.
        public var modifiers: [String]?
        /// The article number printed with the item: an EAN or UPC code of 8 to 14 digits on its line, or the code that
        /// opens a table's row of numbers over or under its name (a PLU or till number of 4 digits or more, `BEN02`).
        public var code: String?
        public var source: Provenance
        public init(description: String, quantity: String? = nil, unit: String? = nil, unitPrice: String? = nil,
                    amount: String? = nil, discount: String? = nil, modifiers: [String]? = nil, code: String? = nil,
                    kind: Kind? = nil, source: Provenance) {
            self.kind = kind
            self.description = description; self.quantity = quantity; self.unit = unit
            self.unitPrice = unitPrice; self.amount = amount; self.discount = discount; self.modifiers = modifiers
            self.code = code
            self.source = source
        }
    }

    public struct Tax: Codable, Hashable, Sendable {
        /// The rate in percent, as a decimal string, when printed.
        public var rate: String?
        public var amount: String
        public var source: Provenance
        public init(rate: String? = nil, amount: String, source: Provenance) {
            self.rate = rate; self.amount = amount; self.source = source
        }
    }

    /// A charge added to the bill under its subtotal that is no article, tax or tip: a delivery or service fee
    /// (`Delivery Fee $3.99`, `Service Fee $3.52`, `Liefergebühr 2,90`).
    public struct Fee: Codable, Hashable, Sendable {
        /// The label as printed.
        public var description: String
        public var amount: String
        public var source: Provenance
        public init(description: String, amount: String, source: Provenance) {
            self.description = description; self.amount = amount; self.source = source
        }
    }

    /// The total printed again in another currency (a tourist's receipt: `TOTAL EUR 26.10`
    /// under `TOTAL CHF 25.00`).
    public struct OtherCurrencyTotal: Codable, Hashable, Sendable {
        public var amount: String
        /// ISO 4217.
        public var currency: String
        public var source: Provenance
        public init(amount: String, currency: String, source: Provenance) {
            self.amount = amount; self.currency = currency; self.source = source
        }
    }

    public struct Payment: Codable, Hashable, Sendable {
        /// `cash`, `card`, `mobile`, `voucher` or `other`.
        public var method: String?
        public var cardBrand: String?
        public var cardLast4: String?
        public var tendered: String?
        public var change: String?
        public init(
            method: String? = nil, cardBrand: String? = nil, cardLast4: String? = nil, tendered: String? = nil,
            change: String? = nil
        ) {
            self.method = method; self.cardBrand = cardBrand; self.cardLast4 = cardLast4; self.tendered = tendered;
            self.change = change
        }
    }

    public var merchant: Merchant
    /// ISO `yyyy-mm-dd`.
    public var date: String?
    /// `HH:MM` or `HH:MM:SS`, 24-hour.
    public var time: String?
    /// ISO 4217, when printed or implied by a printed symbol.
    public var currency: String?
    public var receiptNumber: String?
    public var items: [Item]
    public var subtotal: String?
    public var tax: [Tax]
    public var tip: String?
    /// The fees added under the subtotal, in print order; absent when the receipt prints none.
    public var fees: [Fee]?
    /// The sum of the printed discounts, as a negative decimal string.
    public var discounts: String?
    /// The cash rounding printed on the way to the total (`Rounding Adj 0.01` from 14.64 to 14.65; `-0.02` from 112.47
    /// to 112.45), as a signed decimal string.
    public var rounding: String?
    public var total: String?
    /// The total in other currencies, when the receipt prints it so; `total` is in `currency`.
    public var otherCurrencyTotals: [OtherCurrencyTotal]?
    public var payment: Payment?
    /// Where each single-valued field was printed, keyed by its path.
    public var provenance: [String: Provenance]

    public init(merchant: Merchant = Merchant(), date: String? = nil, time: String? = nil, currency: String? = nil,
                receiptNumber: String? = nil, items: [Item] = [], subtotal: String? = nil, tax: [Tax] = [],
                tip: String? = nil, discounts: String? = nil, total: String? = nil, payment: Payment? = nil,
                provenance: [String: Provenance] = [:]) {
        self.merchant = merchant; self.date = date; self.time = time; self.currency = currency
        self.receiptNumber = receiptNumber; self.items = items; self.subtotal = subtotal; self.tax = tax
        self.tip = tip; self.discounts = discounts; self.total = total; self.payment = payment
        self.provenance = provenance
    }
}
