import Foundation

/// What the parsers know of one language: its label words (total, tax, change, ...),
/// header noise, legal forms and business types, street words, country names, months,
/// number conventions, and the job titles business cards print. One JSON file a language in `Resources/Locales/`; a new
/// language is a new file there, read without a change to the code.
public struct LocaleLexicon: Codable, Sendable, Equatable {
    /// The kinds of label a receipt prints; every locale file has each key (an empty list is fine).
    public enum Label: String, CaseIterable, Codable, Sendable {
        case total, strongTotal, weakTotal, totalAbbreviations, subtotal, tax, taxInclusive, taxSummary, tip, change,
            tender
        /// Words that make a tip line a suggestion, not a tip paid (`Suggested Tip: 15% (3.65)`).
        case tipSuggestion
        case cash, card
        /// Payments by phone (`MobilePay`, `GoPay`, `PayPal`), with a gift card or meal voucher (`Gavekort`, `Buoni
        /// pasto`), and by cheque: a payment's `mobile`, `voucher` and `other` method. Every word of these phrases is a
        /// label word, so they keep to words that name a payment alone (no `APPLE PAY`, no `TICKET RESTAURANT`).
        case mobile, voucher, cheque
        case rounding, discount, quantity, taxId, date, notIssueDate, contact, document
        /// Names of the document whose number follows them (`Rechnung Nr.`, `Facture n°`, `Kvitto`, `Bon-Nr.`).
        case receiptNumber
        /// Words for pieces printed between a count and its price (`2 Stk x 0,89`, `3 PZ x 1,20`).
        case countUnits
        /// Packaging a count may be sold by (`1 CTN`, `2.00 PKT`, `1.00 SET`): words of item names too (`PLASTIC BAG`,
        /// `SET A`), so a unit only right after a number, and no label word.
        case packUnits
        /// Single words of an item table's heading (`Qty  Description  Price`, `Menge  Bezeichnung  Betrag`).
        case columnHeading
        /// The heading words of a price or amount column (`PRICE`, `BETRAG`, `RM`): the right edge of the
        /// rightmost one is where the item amounts end.
        case amountHeading
        /// A service charge added to the bill (`SERVICE CHARGE 10%`, `BIAYA LAYANAN`, `COPERTO`).
        case serviceCharge
        /// A fee added under the subtotal that is no article (`DELIVERY FEE`, `LIEFERGEBÜHR`, `FRAIS DE LIVRAISON`).
        /// Every word of these phrases becomes a label word, so none is a word articles are named by (`BAG`, `SMALL`).
        case fee
    }

    public struct Numbers: Codable, Sendable, Equatable {
        public var decimal: String
        public var grouping: String
    }

    /// ISO 639-1 code: `en`, `ms`, `de`, ...
    public var language: String
    public var name: String
    public var labels: [String: [String]]
    public var headerNoise: [String]
    /// Phrases that end a receipt (`THANK YOU`, `PLEASE COME AGAIN`, `VIELEN DANK`): a header printed under one, near
    /// the top of a scan, is the next receipt's, and what stands above it the tail of the slip before. A file may leave
    /// them out.
    public var closings: [String]?
    /// Phrases of an amount no tax is on, or the one a tax is reckoned on, on lines that print a tax's name
    /// (`VAT-Exempt Sales`, `Zero-Rated`, `Base imponible IVA`): no tax. A file may leave them out.
    public var untaxed: [String]?
    /// Words that open an option stated under an article rather than more of its name (`NO` of `NO onion`, `OHNE`,
    /// `SIN`, `TANPA`): what is left out or changed, never a word a product's name goes on with. A file may leave them
    /// out.
    public var optionOpeners: [String]?
    /// Words and abbreviations that stand for "number" between a label and its number (`NR` of `Kvittering nr. 14724`,
    /// `NO` of `TABLE NO 5`). A file may leave them out.
    public var numberSigns: [String]?
    /// Legal forms of a company (`SDN BHD`, `GMBH`, `LTD`).
    public var legalForms: [String]
    /// Words that name a kind of business (`RESTAURANT`, `APOTHEKE`).
    public var businessTypes: [String]
    /// Street words (`STREET`, `JALAN`, `STRASSE`).
    public var thoroughfares: [String]
    /// Other words of an address: units, floors, buildings, districts (`SUITE`, `TAMAN`, `CEDEX`).
    public var addressParts: [String]
    /// Words that name a building, an estate, a farm or a floor on an address's own line over the street (`HALL`,
    /// `FARM`, `IMMEUBLE`, `PALAZZO`); a file may leave them out. Cards only: receipts' ranker reads `addressParts`.
    public var premises: [String]?
    /// Street and building words of four letters or more that an address shortens with a full stop (`BLVD.`,
    /// `AVDA.`, `STRA.`); a file may leave them out.
    public var addressAbbreviations: [String]?
    /// Abbreviations that end a street's name written as one word, with a full stop (`STR` of `Hauptstr.`,
    /// `Kerkstr.`); a file may leave them out.
    public var streetEndingAbbreviations: [String]?
    /// First-level subdivisions (states, provinces, Länder) of the countries that write the language, from
    /// ISO 3166-2 (`Tools/gen-regions`), for the languages that tool lists; the files of the others (Czech, Hungarian,
    /// Finnish...) name their country's largest cities and regions by hand. A file may leave them out.
    public var regions: [String]?
    public var countries: [String]
    /// Words and phrases of job titles printed on business cards (`MANAGER`, `GESCHÄFTSFÜHRER`, `TITOLARE`); a file may
    /// leave them out.
    public var jobTitles: [String]?
    /// Lower-case endings of words for people by what they do (`ist`, `eur`, `erin`), read where a card prints a title
    /// in no list (`Podiatrist`, `Urbaniste`); a file may leave them out.
    public var jobTitleEndings: [String]?
    /// Phrases of invoices, letters and forms (`BILL TO`, `SEHR GEEHRTE`, `FACTURE`): the classifier counts them as
    /// signs of a document that is neither a receipt nor a card. A file may leave them out.
    public var invoiceWords: [String]?
    /// What business cards print in the language besides titles; a file may leave it out.
    public var card: CardWords?
    public var months: [String]
    public var numbers: Numbers
    /// Orders of day, month and year in numeric dates, most common first (`DMY`, `MDY`, `YMD`).
    public var dateOrders: [String]
    /// The currency (ISO 4217) of the one country whose receipts are written in the language (`EUR` for Finnish,
    /// `HUF` for Hungarian): a receipt in it that names no currency is in that one. Left out for a language of
    /// several countries (English, Spanish, French, German...).
    public var currency: String?
    /// The lower-case letters beyond ASCII that the language's alphabet has (`æøå` in Danish), whether or not its
    /// words here print them: what a recognizer may have read as plain letters on its pages. A file may leave it out
    /// (none: English, Malay).
    public var letters: String?

    public func words(_ label: Label) -> [String] { labels[label.rawValue] ?? [] }

    /// A language's words of business cards. Every list may be left out.
    public struct CardWords: Codable, Sendable, Equatable {
        /// Labels printed before a mobile, fax or office number (`Mob.`, `Handy`, `Télécopie`, `Büro`).
        public var mobileLabels: [String]?
        public var faxLabels: [String]?
        public var workLabels: [String]?
        /// Words that mark a line as an organization's name besides the legal forms (`GROUP`, `VERLAG`, `CABINET`).
        public var organizationWords: [String]?
        /// Kinds of firm that a card's firm's name says besides those (`WORKS`, `JOINERY`, `KANZLEI`, `ESTUDIO`). The
        /// card parser reads them with `organizationWords`; the document classifier does not, as its shipped weights
        /// were learned without them.
        public var firmKinds: [String]?
        /// Titles printed before a person's name (`DR`, `FRAU`, `MME`).
        public var honorifics: [String]?
        /// Degrees and generational suffixes printed after it (`JR`, `PHD`).
        public var nameSuffixes: [String]?
        /// Words of a department's name (`DIVISION`, `ABTEILUNG`).
        public var departmentWords: [String]?
        /// Words that name the area a title covers, printed on the line under it (`REGION`, `EMEA`, `NORTHWEST`).
        public var areaWords: [String]?
        /// Words printed before a title that are no part of a person's name (`SENIOR`, `REGIONAL`, `DEPUTY`).
        public var titleModifiers: [String]?
        /// Words before a number that is no postal code, as a card prints them beside one (`ESTABLISHED` 1987, `SINCE`,
        /// `LICENCE`, `MEMBER`).
        public var numberLabels: [String]?
        /// Lower-case words that join a family name (`van`, `de`, `bin`), kept as printed.
        public var nameParticles: [String]?
        /// Lower-case labels printed before an e-mail address (`e-mail`, `courriel`), kept as printed.
        public var emailLabels: [String]?
        /// Lower-case labels printed before a web address (`web`, `sitio`), kept as printed.
        public var webLabels: [String]?
        /// Lower-case words for "and" between partners' names in a firm's name (`and`, `&`, `und`, `og`).
        public var nameJoiners: [String]?
    }
}

/// A locale file that can't be used.
public struct LexiconError: Error, CustomStringConvertible, Sendable {
    public var description: String
}

/// Every locale's words together: a receipt's language is not known before it is read, so the
/// parser asks all languages at once. Words are kept as `Text.key` makes them (upper case, other
/// characters as single spaces), without duplicates, in file order.
public struct Lexicon: Sendable {
    public let locales: [LocaleLexicon]
    private let merged: [LocaleLexicon.Label: PhraseSet]
    public let headerNoise: PhraseSet
    /// Every locale's `closings`.
    public let closings: PhraseSet
    /// Every locale's `untaxed` phrases.
    public let untaxed: PhraseSet
    /// Every locale's `optionOpeners`, as `Text.key` makes them.
    public let optionOpeners: Set<String>
    /// Every locale's `numberSigns`, as `Text.key` makes them.
    public let numberSigns: Set<String>
    public let legalForms: PhraseSet
    /// The legal forms' phrases as characters, longest first (`SDN BHD` before `BHD`), for `mendingLegalForm`.
    let legalFormsLongestFirst: [LegalFormSpelling]
    public let businessTypes: PhraseSet
    public let thoroughfares: PhraseSet
    public let addressParts: PhraseSet
    /// Every locale's `premises`.
    public let premises: PhraseSet
    /// Every locale's `addressAbbreviations`, as `Text.key` makes them.
    public let addressAbbreviations: Set<String>
    /// Every locale's `streetEndingAbbreviations`, as `Text.key` makes them.
    public let streetEndingAbbreviations: [String]
    public let regions: PhraseSet
    public let countries: PhraseSet
    public let months: PhraseSet
    public let jobTitles: PhraseSet
    /// Every locale's `jobTitleEndings`, without duplicates.
    public let jobTitleEndings: [String]
    /// Every locale's `invoiceWords`.
    public let invoiceWords: PhraseSet
    /// Every locale's card phone labels, as `Text.key` makes them.
    public let mobileLabels: Set<String>
    public let faxLabels: Set<String>
    public let workLabels: Set<String>
    /// Every locale's `organizationWords` and legal forms: what marks an organization's name on a card.
    public let organizationWords: PhraseSet
    /// Every locale's card `firmKinds`.
    public let firmKinds: PhraseSet
    public let honorifics: Set<String>
    public let nameSuffixes: Set<String>
    public let departmentWords: PhraseSet
    /// Every locale's card `areaWords`.
    public let areaWords: PhraseSet
    /// Every locale's card `titleModifiers`.
    public let titleModifiers: PhraseSet
    /// Every locale's card `numberLabels`.
    public let numberLabels: PhraseSet
    /// Every locale's `nameParticles` and `emailLabels` (these longest first), in lower case as printed (not as
    /// `Text.key` makes them).
    public let nameParticles: Set<String>
    public let emailLabels: [String]
    /// Every locale's card `webLabels`, in lower case as printed.
    public let webLabels: Set<String>
    /// Every locale's `nameJoiners`, in lower case, once each, in file order.
    public let nameJoiners: [String]
    /// Every label word, for mending OCR's one-letter slips in a line's label.
    public let labelSpelling: LabelSpelling
    /// The single words of every label phrase.
    private let labelWords: Set<Substring>
    /// The label words that name something alone: a label of one word, and the words of three letters or more of a
    /// longer one. The short words a phrase is built with (`A` of `A PAGAR`, `DE` of `FRAIS DE SERVICE`, `TO`, `I`, `C`
    /// of `C F`) are any line's words too.
    private let distinctiveLabelWords: Set<Substring>
    /// Every region and country name, for `isPlaceOnly`.
    private let places: Set<Substring>
    /// Every phrase set: the labels', then the other lists.
    private let phraseSets: [PhraseSet]
    /// Every word of `vocabulary`, and the words of the locales whose language is written without accents (those
    /// whose own words, place names left out, carry none: English, Malay, Indonesian), for `withoutStrayAccents`.
    private let known: Set<Substring>
    private let unaccented: Set<Substring>
    /// Each locale's own receipt words (its labels, header noise and closings), in the order of `locales`, for
    /// `leadingLocale(of:)`.
    private let receiptWordsByLocale: [PhraseSet]

    /// - Parameters:
    ///   - confusions: the letters OCR takes for one another, which the label spellings are mended by.
    public init(locales: [LocaleLexicon], confusions: OCRConfusions = .shipped) {
        self.locales = locales
        func union(_ lists: [[String]]) -> PhraseSet {
            var seen = Set<String>(), out: [String] = []
            for w in lists.joined() {
                let k = Text.key(w)
                if !k.isEmpty, seen.insert(k).inserted { out.append(k) }
            }
            return PhraseSet(out)
        }
        var merged: [LocaleLexicon.Label: PhraseSet] = [:]
        for label in LocaleLexicon.Label.allCases { merged[label] = union(locales.map { $0.words(label) }) }
        self.merged = merged
        // Packaging words (`BAG`, `SET`) are no labels: they name what an item is sold by, and items are named with
        // them.
        let labelPhrases = merged.filter { $0.key != .packUnits }.values.flatMap(\.phrases)
        labelSpelling = LabelSpelling(phrases: labelPhrases, confusions: confusions)
        labelWords = Set(labelPhrases.flatMap { $0.split(separator: " ") })
        distinctiveLabelWords = Set(labelPhrases.flatMap { phrase -> [Substring] in
            let words = phrase.split(separator: " ")
            return words.count == 1 ? words : words.filter { $0.count >= 3 }
        })
        headerNoise = union(locales.map(\.headerNoise))
        closings = union(locales.map { $0.closings ?? [] })
        untaxed = union(locales.map { $0.untaxed ?? [] })
        optionOpeners = Set(union(locales.map { $0.optionOpeners ?? [] }).phrases)
        numberSigns = Set(union(locales.map { $0.numberSigns ?? [] }).phrases)
        legalForms = union(locales.map(\.legalForms))
        legalFormsLongestFirst = legalForms.phrases.sorted { $0.count > $1.count }.map(LegalFormSpelling.init)
        businessTypes = union(locales.map(\.businessTypes))
        thoroughfares = union(locales.map(\.thoroughfares))
        addressParts = union(locales.map(\.addressParts))
        premises = union(locales.map { $0.premises ?? [] })
        addressAbbreviations = Set(union(locales.map { $0.addressAbbreviations ?? [] }))
        streetEndingAbbreviations = union(locales.map { $0.streetEndingAbbreviations ?? [] }).phrases
        regions = union(locales.map { $0.regions ?? [] })
        countries = union(locales.map(\.countries))
        places = Set((regions.phrases + countries.phrases).map { Substring($0) })
        months = union(locales.map(\.months))
        jobTitles = union(locales.map { $0.jobTitles ?? [] })
        /// Lower-cased, each once, in the files' order.
        func lowercasedOnce(_ words: [String]) -> [String] {
            var out: [String] = []
            for w in words.map({ $0.lowercased() }) where !out.contains(w) { out.append(w) }
            return out
        }
        jobTitleEndings = lowercasedOnce(locales.flatMap { $0.jobTitleEndings ?? [] })
        invoiceWords = union(locales.map { $0.invoiceWords ?? [] })
        func cardWords(_ list: KeyPath<LocaleLexicon.CardWords, [String]?>) -> PhraseSet {
            union(locales.map { $0.card?[keyPath: list] ?? [] })
        }
        mobileLabels = Set(cardWords(\.mobileLabels))
        faxLabels = Set(cardWords(\.faxLabels))
        workLabels = Set(cardWords(\.workLabels))
        organizationWords = cardWords(\.organizationWords) + legalForms
        firmKinds = cardWords(\.firmKinds)
        honorifics = Set(cardWords(\.honorifics))
        nameSuffixes = Set(cardWords(\.nameSuffixes))
        departmentWords = cardWords(\.departmentWords)
        areaWords = cardWords(\.areaWords)
        titleModifiers = cardWords(\.titleModifiers)
        numberLabels = cardWords(\.numberLabels)
        nameParticles = Set(locales.flatMap { $0.card?.nameParticles ?? [] }.map { $0.lowercased() })
        emailLabels = lowercasedOnce(locales.flatMap { $0.card?.emailLabels ?? [] }).sorted { $0.count > $1.count }
        webLabels = Set(lowercasedOnce(locales.flatMap { $0.card?.webLabels ?? [] }))
        nameJoiners = lowercasedOnce(locales.flatMap { $0.card?.nameJoiners ?? [] })
        phraseSets =
            Array(merged.values) + [
                headerNoise, legalForms, businessTypes, thoroughfares, addressParts, regions, countries, months
            ]
        known = Set(phraseSets.flatMap(\.phrases).flatMap { $0.split(separator: " ") })
        let ownWords = locales.map { l in
            (l.labels.values.joined() + l.headerNoise + l.legalForms + l.businessTypes + l.thoroughfares
                + l.addressParts + l.months)
                .flatMap { Text.key($0).split(separator: " ") }
        }
        unaccented = Set(
            ownWords.filter { $0.allSatisfy { w in w.unicodeScalars.allSatisfy { $0.value < 0xC0 } } }.joined())
        receiptWordsByLocale = locales.map { l in
            union([l.labels.filter { $0.key != LocaleLexicon.Label.packUnits.rawValue }.values.joined()
                + l.headerNoise + (l.closings ?? [])])
        }
    }

    /// The locale whose receipt words (labels, header noise, closings) most of `keys` hold, the lines of one document
    /// as `Text.key` makes them: its language, when that locale's lines outnumber every other locale's by two or
    /// more. A word that several locales share counts for each of them (`MOMS` for Swedish and Danish, `TOTAL` for
    /// most), so only the words a language alone prints tell it apart. Nil when no locale leads so.
    public func leadingLocale(of keys: [String]) -> LocaleLexicon? {
        let counts = receiptWordLines(keys)
        guard let best = counts.indices.max(by: { counts[$0] < counts[$1] }),
            counts.indices.allSatisfy({ $0 == best || counts[$0] + 2 <= counts[best] })
        else { return nil }
        return locales[best]
    }

    /// The locales whose receipt words the most lines of a page hold, two lines at least, all of them where several
    /// tie (Danish and Norwegian both print `KONTANT`, `I ALT` and `MOMS`); none on a page with fewer such lines.
    /// `lines` are the page's lines as read.
    public func localesLeading(onThePageOf lines: [String]) -> [LocaleLexicon] {
        let counts = receiptWordLines(lines.map(Text.key))
        guard let best = counts.max(), best >= 2 else { return [] }
        return counts.indices.filter { counts[$0] == best }.map { locales[$0] }
    }

    /// For each locale, in the order of `locales`, how many of `keys` hold its receipt words.
    private func receiptWordLines(_ keys: [String]) -> [Int] {
        receiptWordsByLocale.map { words in keys.filter { !$0.isEmpty && Text.hasAny($0, words) }.count }
    }

    /// `text` with the accents that OCR put on plain words taken off. A multilingual recognizer now and then reads
    /// a mark over a capital of an English or Malay word (`HARDWARÉ`, `JÁLAN`, `TÂMAN`). A word loses its marks
    /// when, without them, it is a word of a language written without accents (or such a word and a plural `S`),
    /// and no locale spells it with them. Accented words a locale knows (`CAFÉ`, `GENÈVE`), words of languages that
    /// write accents (`EETCAFÉ`, `CAFETERÍA`) and words no locale knows (`MÜLLER`) stay as read.
    public func withoutStrayAccents(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.value >= 0xC0 }) else { return text }
        var out = "", word = ""
        func either(_ set: Set<Substring>, _ w: Substring) -> Bool {
            set.contains(w) || (w.count > 3 && w.hasSuffix("S") && set.contains(w.dropLast()))
        }
        func flush() {
            defer { word = "" }
            guard word.unicodeScalars.contains(where: { $0.value >= 0xC0 }) else { return out += word }
            let plain = Self.withoutMarks(word)
            let strip =
                plain != word && either(unaccented, Substring(plain.uppercased()))
                && !either(known, Substring(word.uppercased()))
            out += strip ? plain : word
        }
        for c in text {
            if c.isLetter { word.append(c) } else { flush(); out.append(c) }
        }
        flush()
        return out
    }

    /// `word` without its combining marks (`É` -> `E`); letters that are no letter and a mark (`ß`, `Ø`) stay.
    static func withoutMarks(_ word: String) -> String {
        var scalars = String.UnicodeScalarView()
        for u in word.decomposedStringWithCanonicalMapping.unicodeScalars
        where u.properties.generalCategory != .nonspacingMark {
            scalars.append(u)
        }
        return String(scalars).precomposedStringWithCanonicalMapping
    }

    public func words(_ label: LocaleLexicon.Label) -> PhraseSet { merged[label] ?? PhraseSet([]) }

    /// Every single word of every locale's phrases (label words, legal forms, business types, street,
    /// place and month names), as `Text.key` spells them, once each: the receipt vocabulary a word list
    /// of a language's dictionary lacks (`SDN`, `BHD`, `JALAN`, `MWST`).
    public var vocabulary: [String] {
        var seen = Set<Substring>(), out: [String] = []
        for phrase in phraseSets.flatMap(\.phrases) {
            for w in phrase.split(separator: " ") where w.contains(where: \.isLetter) && seen.insert(w).inserted {
                out.append(String(w))
            }
        }
        return out
    }

    /// Whether `word`, as `Text.key` spells it, is a word of some locale's label phrases (packaging words aside).
    public func isLabelWord(_ word: Substring) -> Bool { labelWords.contains(word) }

    /// Whether a line's `key` is label words and nothing else (`TAX INVOICE`, `TAXINVOICE`, `CASHIER`, `TOTAL`), one
    /// of at least three letters among them.
    public func isLabelOnly(_ key: String) -> Bool {
        let words = key.split(separator: " ")
        return !words.isEmpty && words.allSatisfy { labelWords.contains($0) || isTwoLabelWords($0) }
            && words.contains { $0.count >= 3 }
    }

    /// Whether any word of a line's `key` is a label word of some locale that names something alone (`SALES` of `TOTAL
    /// SALES`, `RM`, `QTY`; not `DE` of `FRAIS DE SERVICE`, so `PIZZA DE CASA` has none).
    public func hasLabelWord(_ key: String) -> Bool {
        key.split(separator: " ").contains { distinctiveLabelWords.contains($0) }
    }

    /// Whether a line's `key` names regions or countries and nothing else but one- or two-letter marks
    /// (`SELANGOR`, `JOHOR`, `MALAYSIA`, `SELANGOR D E`, `BAYERN DEUTSCHLAND`): the last lines of a postal address.
    public func isPlaceOnly(_ key: String) -> Bool {
        let words = key.split(separator: " ")
        guard !words.isEmpty, words.count <= 6 else { return false }
        // reach[i]: the first i words are place names and marks.
        var reach = [Bool](repeating: false, count: words.count + 1)
        reach[0] = true
        var named = false
        for i in 0..<words.count where reach[i] {
            if words[i].count <= 2, words[i].allSatisfy(\.isLetter) { reach[i + 1] = true }
            for n in 1...min(4, words.count - i)
            where places.contains(Substring(words[i..<(i + n)].joined(separator: " "))) {
                reach[i + n] = true
                named = true
            }
        }
        return reach[words.count] && named
    }

    /// Two label words of three letters or more run together, as OCR reads them when the gap is narrow (`TAXINVOICE`).
    func isTwoLabelWords(_ word: Substring) -> Bool {
        guard word.count >= 6 else { return false }
        return (3...(word.count - 3)).contains { n in
            labelWords.contains(word.prefix(n)) && labelWords.contains(word.dropFirst(n))
        }
    }

    /// Reads one locale file; every label key must be there.
    public static func decode(_ data: Data, file: String) throws -> LocaleLexicon {
        let locale: LocaleLexicon
        do {
            locale = try JSONDecoder().decode(LocaleLexicon.self, from: data)
        } catch {
            throw LexiconError(description: "locale file \(file) is not valid: \(error)")
        }
        let missing = LocaleLexicon.Label.allCases.map(\.rawValue).filter { locale.labels[$0] == nil }
        if !missing.isEmpty {
            throw LexiconError(description: "locale file \(file) lacks the labels \(missing.joined(separator: ", "))")
        }
        let unknown = locale.labels.keys.filter { LocaleLexicon.Label(rawValue: $0) == nil }.sorted()
        if !unknown.isEmpty {
            throw LexiconError(description: "locale file \(file) has unknown labels \(unknown.joined(separator: ", "))")
        }
        return locale
    }

    /// Every `*.json` file of a folder, in name order.
    public static func load(directory: URL, confusions: OCRConfusions = .shipped) throws -> Lexicon {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".json") }
                .sorted()
        } catch {
            throw LexiconError(
                description: "cannot read the locale folder \(directory.path): \(error.localizedDescription)")
        }
        guard !names.isEmpty else { throw LexiconError(description: "no locale files (*.json) in \(directory.path)") }
        return Lexicon(locales: try names.map { name in
            try decode(ResourceFiles.data(directory.appendingPathComponent(name), what: "locale file"), file: name)
        }, confusions: confusions)
    }

    /// The environment variable that names another locale folder (to try a new locale without a rebuild).
    public static let directoryVariable = "SCANEXTRACT_LOCALES"

    /// All shipped locales (the folder `Locales` of the resource bundle beside the executable, or of the build tree;
    /// or the folder `$SCANEXTRACT_LOCALES` names), read once, with the shipped OCR confusion table; or why either
    /// could not be read. Reading this never stops the program: the extractor asks it first and gives the document
    /// its error (`DocumentExtractor.extract`).
    public static let loaded: Result<Lexicon, LexiconError> = OCRConfusions.loaded.flatMap { confusions in
        ResourceFiles.load("Locales", overriddenBy: directoryVariable) {
            try load(directory: $0, confusions: confusions)
        }
    }

    /// All shipped locales. Only for code that runs after `loaded` was checked: a broken folder stops the program here.
    public static let shared = ResourceFiles.required(loaded)
}

/// Label words that OCR read with one letter swapped for a look-alike (`TOTEL`, `CHENGE`, `AMCUNT`, `TOTAI`) spelled
/// as the label again, so that a line's role does not hang on one glyph. A word is mended only when it is no label
/// word itself, has at least five letters, and exactly one label word of its length differs from it in one place,
/// by a pair of letters that OCR confuses (`OCRConfusions`: `CHARGE` is no `CHANGE`, OCR did not take R for N).
public struct LabelSpelling: Sendable {
    private let byLength: [Int: [[UInt8]]]
    private let known: Set<[UInt8]>

    private let confusions: OCRConfusions

    /// - Parameters:
    ///   - phrases: label phrases as `Text.key` makes them; their words of five or more capitals are the spellings
    ///     kept.
    ///   - confusions: the pairs of letters that count as misread for one another.
    public init<S: Sequence>(phrases: S, confusions: OCRConfusions = .shipped) where S.Element == String {
        var byLength: [Int: [[UInt8]]] = [:]
        var known = Set<[UInt8]>()
        for phrase in phrases {
            for word in phrase.split(separator: " ") {
                let b = Array(word.utf8)
                guard b.count >= 5, b.allSatisfy({ $0 >= 0x41 && $0 <= 0x5A }), known.insert(b).inserted else {
                    continue
                }
                byLength[b.count, default: []].append(b)
            }
        }
        self.byLength = byLength
        self.known = known
        self.confusions = confusions
    }

    /// `key` (as `Text.key` makes it) with its misread label words spelled right, and a label word that OCR cut
    /// with a space (`SUBT OTAL`, `SOUS TO TAL`) joined again: two or three neighbouring words that together spell a
    /// label word of five letters or more, not all of them such label words already (`GRAND TOTAL` stays apart;
    /// `SUB TOTAL` becomes `SUBTOTAL`, the same label).
    public func mended(_ key: String) -> String {
        var changed = false
        var words = key.split(separator: " ", omittingEmptySubsequences: false)
        var i = 0
        while i + 1 < words.count {
            var joined = false
            for n in [3, 2] where i + n <= words.count {
                let parts = words[i..<(i + n)]
                let glued = Array(parts.joined().utf8)
                guard glued.count >= 5, known.contains(glued), !parts.allSatisfy({ known.contains(Array($0.utf8)) })
                else { continue }
                words.replaceSubrange(i..<(i + n), with: [Substring(String(decoding: glued, as: UTF8.self))])
                changed = true
                joined = true
                break
            }
            if !joined { i += 1 }
        }
        words = words.map { word -> Substring in
            guard let fixed = mend(Array(word.utf8)) else { return word }
            changed = true
            return Substring(fixed)
        }
        return changed ? words.joined(separator: " ") : key
    }

    private func mend(_ w: [UInt8]) -> String? {
        guard w.count >= 5, let candidates = byLength[w.count], !known.contains(w),
              w.allSatisfy({ $0 >= 0x41 && $0 <= 0x5A }) else { return nil }
        var found: [UInt8]?
        for c in candidates where confusions.oneSlipApart(w, c) {
            if found != nil { return nil }
            found = c
        }
        return found.map { String(decoding: $0, as: UTF8.self) }
    }
}
