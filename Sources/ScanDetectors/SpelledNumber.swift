/// English numbers written in words, as a date spells its day (`twenty-first`, `May twenty one`) or its
/// year (`nineteen eighty-six`, `two thousand and eighteen`, `twenty twenty`). Words are joined by one
/// space or a hyphen, in any case. Pure reading: whether the words make a date is the date detector's call.
enum SpelledNumber {
    static let cardinals: [String: Int] = [
        "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
        "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
        "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50,
        "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
    ]
    static let ordinals: [String: Int] = [
        "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
        "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13, "fourteenth": 14,
        "fifteenth": 15, "sixteenth": 16, "seventeenth": 17, "eighteenth": 18, "nineteenth": 19,
        "twentieth": 20, "thirtieth": 30,
    ]
    /// Words a spelled year from 1800 to 2099 can begin with. Earlier centuries only with their hundreds and years
    /// (`year`): `June 3, eleven thirty` is a time, `Dec 3 fifteen hundred troops` a count.
    static let yearStarts: Set<String> = ["two", "eighteen", "nineteen", "twenty"]
    /// Words that may follow a year said in round hundreds or thousands; before any other word it reads as a count
    /// (`May 1 two thousand workers`).
    static let afterRoundYear: Set<String> = ["at", "in", "on", "by", "and", "or", "to", "for", "from", "until", "till"]

    static let cardinalTable = WordTable(cardinals)
    static let ordinalTable = WordTable(ordinals)
    static let yearStartTable = WordTable(yearStarts)
    /// Every cardinal and ordinal: one lookup tells the date reader whether a word can begin a number at all.
    static let numberWordTable = WordTable(cardinals.merging(ordinals) { a, _ in a })
    static let afterRoundYearTable = WordTable(afterRoundYear)

    /// The start of the word after a word ending at `e`, when one space or a hyphen joins them.
    private static func nextWord(_ s: ScanText, _ e: Int) -> Int? {
        guard s.at(e) == 0x20 || s.at(e) == 0x2D, isAlpha(s.at(e + 1)) else { return nil }
        return e + 1
    }

    /// The word at `i` when it is the lower-case `word` as a whole word; its end.
    private static func word(_ s: ScanText, _ i: Int, _ word: StaticString) -> Int? {
        let e = i + word.utf8CodeUnitCount
        return s.matches(word, at: i) && !isWordLetter(s.at(e)) ? e : nil
    }

    /// A day of the month at `i`: an ordinal (`first` ... `thirty-first`) or a cardinal (`one` ... `thirty one`).
    static func day(_ s: ScanText, _ i: Int) -> (value: Int, end: Int, ordinal: Bool)? {
        let e = s.wordEnd(from: i)
        if let v = ordinalTable.lookup(s, i, e) { return (v, e, true) }
        guard let v = cardinalTable.lookup(s, i, e), v <= 20 || v == 30 else { return nil }
        // `twenty-first`: an ordinal unit after the tens; `twenty one` is `belowHundred`'s.
        if v == 20 || v == 30, let j = nextWord(s, e), case let e2 = s.wordEnd(from: j),
           let u = ordinalTable.lookup(s, j, e2), u < 10, v + u <= 31 { return (v + u, e2, true) }
        guard let (n, end) = belowHundred(s, i), n <= 31 else { return (v, e, false) }
        return (n, end, false)
    }

    /// A number from one to ninety-nine at `i` (`seven`, `twelve`, `eighty six`, `ninety-nine`).
    static func belowHundred(_ s: ScanText, _ i: Int) -> (value: Int, end: Int)? {
        let e = s.wordEnd(from: i)
        guard let v = cardinalTable.lookup(s, i, e) else { return nil }
        if v >= 20, let j = nextWord(s, e) {
            let e2 = s.wordEnd(from: j)
            if let u = cardinalTable.lookup(s, j, e2), u < 10 { return (v + u, e2) }
        }
        return (v, e)
    }

    /// A year from 1800 to 2099 at `i`: `two thousand`, `two thousand [and] eighteen`, or a century and two digits
    /// (`nineteen eighty-six`, `twenty twenty`, `nineteen oh five`, `nineteen zero one`, `nineteen hundred`,
    /// `nineteen hundred and ninety three`); an earlier one only said with its hundreds and years (`seventeen hundred
    /// thirty three`, 1733).
    /// Words that go on as a larger number (`two thousand one hundred people`) are no year.
    static func year(_ s: ScanText, _ i: Int) -> (value: Int, end: Int)? {
        let e = s.wordEnd(from: i)
        guard let first = cardinalTable.lookup(s, i, e), let j = nextWord(s, e) else { return nil }
        guard yearStartTable.contains(s, i, e) else {
            // An earlier century said whole, its hundreds and then its years (`seventeen hundred thirty three`).
            guard (11...17).contains(first), let h = word(s, j, "hundred"), let (r, re) = yearsOfCentury(s, after: h)
            else { return nil }
            return largerNumberFollows(s, re) ? nil : (first * 100 + r, re)
        }
        var found: (value: Int, end: Int, round: Bool)?
        if first == 2 {
            guard let t = word(s, j, "thousand") else { return nil }
            let rest = nextWord(s, t).map { k in word(s, k, "and").flatMap { nextWord(s, $0) } ?? k }
            if let rest, let (r, re) = belowHundred(s, rest) {
                found = (2000 + r, re, false)
            } else {
                found = (2000, t, true)
            }
        } else if let h = word(s, j, "hundred") {
            // `nineteen hundred ninety three`, `nineteen hundred and five`, or the round `nineteen hundred`.
            if let (r, re) = yearsOfCentury(s, after: h) { found = (first * 100 + r, re, false) }
            else { found = (first * 100, h, true) }
        } else if let o = word(s, j, "oh") ?? word(s, j, "o") ?? word(s, j, "zero"), let k = nextWord(s, o) {
            // `nineteen oh five`: the zero of the decade said as a letter.
            let e2 = s.wordEnd(from: k)
            if let u = cardinalTable.lookup(s, k, e2), u < 10 { found = (first * 100 + u, e2, false) }
        } else if let (r, re) = belowHundred(s, j), r >= 10 {
            found = (first * 100 + r, re, false)
        }
        guard let (value, end, round) = found else { return nil }
        // What follows: a larger number's next word, or a noun after a round year (a count), makes it none.
        if largerNumberFollows(s, end) { return nil }
        if round, s.at(end) == 0x20, isAlpha(s.at(end + 1)) {
            let k = end + 1
            if !afterRoundYearTable.contains(s, k, s.wordEnd(from: k)) { return nil }
        }
        return (value, end)
    }

    /// The years after a century's `hundred` ending at `h`: one to ninety-nine, `and` before them or not.
    private static func yearsOfCentury(_ s: ScanText, after h: Int) -> (value: Int, end: Int)? {
        guard let k = nextWord(s, h) else { return nil }
        let start = word(s, k, "and").flatMap { nextWord(s, $0) } ?? k
        return belowHundred(s, start)
    }

    /// Whether the word after `end` goes on as a larger number (`two thousand one hundred people`).
    private static func largerNumberFollows(_ s: ScanText, _ end: Int) -> Bool {
        guard s.at(end) == 0x20, isAlpha(s.at(end + 1)) else { return false }
        let k = end + 1
        return ["hundred", "thousand", "million"].contains { (larger: StaticString) in word(s, k, larger) != nil }
    }

    /// Whether the text holds a spelled year (so a date without a digit may be there).
    static func mayHoldYear(_ s: ScanText) -> Bool {
        var i = 0
        let n = s.count
        while i < n {
            guard isAlpha(s.bytes[i]), !isWordLetter(s.at(i - 1)) else { i += 1; continue }
            let e = s.wordEnd(from: i)
            if year(s, i) != nil { return true }
            i = e
        }
        return false
    }
}
