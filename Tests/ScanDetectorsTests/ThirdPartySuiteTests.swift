import Foundation
import XCTest
import ScanModel
@testable import ScanDetectors

/// Strings from the test data of three more extractors, for forms our own tests did not have:
/// - Microsoft Recognizers-Text, `Specs/Sequence/English/PhoneNumberModel.json`, `EmailModel.json`,
///   `URLModel.json`, `Specs/NumberWithUnit/English/CurrencyModel.json`,
///   `Specs/DateTime/English/DateParser.json` and `DateTimeModel.json` (MIT License, (c) Microsoft Corporation),
///   https://github.com/microsoft/Recognizers-Text
/// - Duckling, `Duckling/PhoneNumber/Corpus.hs` (BSD License, (c) Facebook, Inc.),
///   https://github.com/facebook/duckling
/// - libphonenumber, the example numbers of `resources/PhoneNumberMetadata.xml` (Apache License 2.0,
///   (c) The Libphonenumber Authors), https://github.com/google/libphonenumber, printed as a national
///   number after `Phone ` with the region given; the negative rows around them are ours.
/// - twitter-text, `conformance/extract.yml` (Apache License 2.0, (c) Twitter, Inc.),
///   https://github.com/twitter/twitter-text: the URL cases.
/// - price-parser, `tests/test_price_parsing.py` (BSD 3-Clause License, (c) Scrapinghub),
///   https://github.com/scrapinghub/price-parser: prices as shops print them, in many currencies.
/// - linkify-it, `test/fixtures/links.txt` (MIT License, (c) Vitaly Puzrin, Alex Kocharin),
///   https://github.com/markdown-it/linkify-it, and Autolinker.js, `tests/autolinker-url.spec.ts`,
///   `tests/autolinker-email.spec.ts`, `tests/matcher/email-matcher.spec.ts` (MIT License, (c) Gregory Jacobs),
///   https://github.com/gregjacobs/Autolinker.js: links and addresses beside brackets, glued schemes, apostrophes.
/// - Dates with the day or the year in words: Recognizers-Text `Specs/DateTime/English/DateExtractor.json`,
///   `MergedExtractor.json`, `MergedParser.json`; Duckling `Duckling/Time/EN/Corpus.hs`; dateparser
///   `tests/test_natural_language_numbers.py` (BSD 3-Clause License, (c) Scrapinghub),
///   https://github.com/scrapinghub/dateparser; chrono `test/en/en_month_name_*_endian.test.ts` (MIT License,
///   (c) Wanasit Tanakitrungruang), https://github.com/wanasit/chrono.
/// - Chinese, Japanese and Korean dates and times: Recognizers-Text `Specs/DateTime/{Chinese,Japanese,Korean}/
///   DateParser.json` and `DateTimeModel.json`; Duckling `Duckling/Time/{ZH,JA,KO}/Corpus.hs`; chrono `test/ja/*`,
///   `test/zh/*`; ja-timex `tests/test_abstime_tagger.py`, `tests/test_timex.py` (MIT License, (c) yagays),
///   https://github.com/yagays/ja-timex.
/// - Ranges of days: Recognizers-Text `Specs/DateTime/English/DatePeriodParser.json` and `DatePeriodExtractor.json`.
/// Where our choice differs from the suite's, the row says so.
final class ThirdPartySuiteTests: XCTestCase {
    private func found(_ text: String, _ type: EntityType, region: String? = nil) -> [Entity] {
        let d = try! DataDetector(types: [type], region: region, referenceDate: CalendarDay(iso: "2024-06-01"))
        return d.detect(in: text)
    }

    /// Each row: the text, and the exact texts that must be found (empty: nothing).
    private func expect(_ rows: [(String, [String])], _ type: EntityType, region: String? = nil,
                        file: StaticString = #filePath, line: UInt = #line) {
        for (text, want) in rows {
            let got = found(text, type, region: region).map(\.text)
            XCTAssertEqual(
                got, want, "\(type) in \(text.debugDescription) (region \(region ?? "none"))", file: file, line: line)
        }
    }

    /// Six- and seven-digit national numbers are valid where the region's plan has them.
    func testLibphonenumberShortNationalNumbers() {
        let rows: [(String, String, String)] = [ // region, text, E.164
            ("AD", "Phone 712 345", "+376712345"),
            ("FO", "Phone 201 234", "+298201234"),
            ("GL", "Phone 321 000", "+299321000"),
            ("NC", "Phone 050 012", "+687050012"), // a national number that begins with 0
            ("PM", "Phone 0430 123", "+508430123"), // trunk 0, six-digit NSN
            ("BZ", "Phone 222 1234", "+5012221234"),
            ("SC", "Phone 421 7123", "+2484217123"),
            ("PW", "Phone 277 1234", "+6802771234"),
            ("MU", "Phone 800 1234", "+2308001234"),
            ("QA", "Phone 800 1234", "+9748001234"),
        ]
        for (region, text, e164) in rows {
            let got = found(text, .phone, region: region)
            XCTAssertEqual(got.map(\.text), [String(text.dropFirst(6))], "\(text) in \(region)")
            XCTAssertEqual(got.first?.value.e164, e164, "\(text) in \(region)")
        }
        // Ours: a six-digit number needs a phone keyword, a length its region allows, and a region.
        expect([("Total 712 345", [])], .phone, region: "AD")
        expect([("Phone 712 3456", [])], .phone, region: "NC")
        expect([("Phone 712 345", [])], .phone)
        expect([("Phone 712 345", [])], .phone, region: "FR")
    }

    func testRecognizersTextPhoneNumbers() {
        expect([
            ("OFFICE-1(516)733-3989", ["1(516)733-3989"]),
            ("T005-2333-100731-SW-2 doesn't look like a phone number.", []),
            ("00 10 00 31 46 D9 E9 11 doesn't look like a phone number, it is hexadecimal.", []),
            ("Her credit card is: American Express 3600 0000 0000 009", []),
            ("Form Approved - OMB No. 0560-0155", []),
            ("j_9@[129.126.118.1] is a valid email address", []),
            // Ours, beside them: a hex dump whose letters come first, and a phone word before `No.`,
            // which keeps it a phone number.
            ("dump A1 B2 00 11 22 33 44 55", []),
            ("Tel. No. 0560-0155", ["0560-0155"]),
            ("H/P No. 012-345 6789", ["012-345 6789"]),
        ], .phone)
    }

    /// Recognizers-Text `EmailModel.json`: a mailbox whose domain is an address literal; ours beside it, literals that
    /// are no IPv4 address.
    func testRecognizersTextEmails() {
        expect([
            ("j_9@[129.126.118.1] is a valid email address", ["j_9@[129.126.118.1]"]),
            ("a@[1.2.3.999]", []),
            ("a@[1.2.3]", []),
        ], .email)
    }

    func testDucklingPhoneNumbers() {
        expect([("(+1)   650 - 701  8887", ["(+1)   650 - 701  8887"])], .phone)
    }

    func testRecognizersTextURLs() {
        expect([
            ("May 5th.https://t.co/YCUZfuyyHZ", ["https://t.co/YCUZfuyyHZ"]),
            // A number alone names no host; linkify-it takes `http://999` (PublicSuiteTests), we do not.
            ("http://362", []),
            ("http://kimchi", ["http://kimchi"]),
        ], .url)
    }

    func testRecognizersTextCurrency() {
        expect([
            ("10 $ 30 $", ["10 $", "30 $"]),
            // Ours: a symbol glued to the number after it still belongs to that number.
            ("10 $20 $30", ["$20", "$30"]),
        ], .money)
        // A scale word after the number multiplies it; the suite's amounts in shortened sentences, then ours in other
        // languages.
        let rows: [(String, String, String, String)] = [
            ("montgomery county , md . - - $ 75 million of general obligation", "$ 75 million", "75000000", "USD"),
            ("the bank won a $48.2 million army contract", "$48.2 million", "48200000", "USD"),
            ("raising its stake to hk $ 10.05 billion .", "hk $ 10.05 billion", "10050000000", "HKD"),
            ("Umsatz 2,5 Mrd. € im Jahr", "2,5 Mrd. €", "2500000000", "EUR"),
            ("pinjaman 5 juta rupiah", "5 juta rupiah", "5000000", "IDR"),
        ]
        for (text, span, amount, currency) in rows {
            let m = found(text, .money)
            XCTAssertEqual(m.map(\.text), [span], text)
            XCTAssertEqual(m.first?.value.amount, amount, text)
            XCTAssertEqual(m.first?.value.currency, currency, text)
        }
        // A word that only starts like one scales nothing, and without a currency a scaled number is no money.
        expect([("$ 75 millionaire", ["$ 75"]), ("75 million people", [])], .money)
        // A currency named by its country's adjective and its unit; the suite's amounts (the first two sentences
        // shortened), then ours. A unit alone that may weigh (`pounds`) names none.
        let named: [(String, [String], [String])] = [
            ("the bank was fined 10,000 swiss francs .", ["10,000 swiss francs"], ["CHF"]),
            ("It costs you 10 us dollar and me 100 chinese yuan.", ["10 us dollar", "100 chinese yuan"], ["USD", "CNY"]),
            ("Total 1,250.00 US dollars", ["1,250.00 US dollars"], ["USD"]),
            ("5 pounds sterling", ["5 pounds sterling"], ["GBP"]),
            ("5 pounds of flour", [], []),
            // ISO 4217's names by a place, with the unit's plural and other spelling (`CurrencyNames.swift`).
            ("It costs 42 kuwaiti Dinar", ["42 kuwaiti Dinar"], ["KWD"]),
            ("Paid 42 Lebanese Pounds and 7 qatari riyals", ["42 Lebanese Pounds", "7 qatari riyals"], ["LBP", "QAR"]),
        ]
        for (text, spans, codes) in named {
            let m = found(text, .money)
            XCTAssertEqual(m.map(\.text), spans, text)
            XCTAssertEqual(m.compactMap(\.value.currency), codes, text)
        }
    }

    func testTwitterTextURLs() {
        expect([
            ("test http://sub_domain-dash.twitter.com", ["http://sub_domain-dash.twitter.com"]),
            ("test http://a_b.c-d.com", ["http://a_b.c-d.com"]),
            ("test http://twitter_underscore.com", []),
            ("test http://twitter.c_o_m", []),
            ("test http://_leadingunderscore.twitter.com", []),
            ("test http://trailingunderscore_.twitter.com", []),
            ("test http://-twitter.com", []),
            ("text http://somehost.com:3000", ["http://somehost.com:3000"]),
            ("text http://en.wikipedia.org/wiki/Primer_(film)", ["http://en.wikipedia.org/wiki/Primer_(film)"]),
            ("text http://foo.com?#foo text", ["http://foo.com?#foo"]),
            ("test http://www.foo.com/foo/path-with-period./", ["http://www.foo.com/foo/path-with-period./"]),
            ("test http://www.foo.org.za/foo/bar/688.1", ["http://www.foo.org.za/foo/bar/688.1"]),
            ("test ELPAÍS.com", ["ELPAÍS.com"]),
            ("Test a ton of periods http://example.com/path..........", ["http://example.com/path"]),
            ("According to http://t.co/ulYGBYSo: the internet is cool", ["http://t.co/ulYGBYSo"]),
            ("long.test.tar.bz2 test.tar.bz2 tar.bz2", []),
            ("john.doe.gov@mail.com", []),
            ("test http://foobar.みんな/ http://foobar.中国/", ["http://foobar.みんな/", "http://foobar.中国/"]),
            // Ours, with linkify-it: a label may end with a hyphen after a scheme (`http://a.b-.co`).
            ("test http://twitter-.com", ["http://twitter-.com"]),
        ], .url)
    }

    /// A link closed by a bracket and an address right after it; a scheme glued to a word by a lost space; an
    /// apostrophe in a name.
    func testLinkifyAndAutolinkerLinksAndAddresses() {
        let d = try! DataDetector(types: [.url, .email], referenceDate: CalendarDay(iso: "2024-06-01"))
        let rows: [(String, [String])] = [
            (
                "[https](https://www.ibm.com)[mailto](mailto:someone@ibm.com)",
                ["https://www.ibm.com", "someone@ibm.com"]
            ),
            ("link this: xxxhttp://example.com", ["http://example.com"]),
            ("link this: abchttps://www.example.com", ["https://www.example.com"]),
            ("Joe's email is (joe'roe@joe.com)", ["joe'roe@joe.com"]),
            ("o'donnel@asdf.com", ["o'donnel@asdf.com"]),
            // A protocol-relative link as printed (linkify-it; kevva/url-regex's `test.js`, MIT License, (c) Kevin
            // Martensson).
            ("My ssl //example.com site", ["//example.com"]),
            ("//google.com", ["//google.com"]),
            // Ours: brackets close a link before its user information; an address inside a link's path is the link's.
            ("(https://www.ibm.com)(someone@ibm.com)", ["https://www.ibm.com", "someone@ibm.com"]),
            ("See https://lore.kernel.org/git/20160419091055.GF2345@dinwoodie.org/ here",
             ["https://lore.kernel.org/git/20160419091055.GF2345@dinwoodie.org/"]),
            ("ftp://anon:secret@host.com/x", ["ftp://anon:secret@host.com/x"]),
            // Ours: brackets that stay balanced keep an address in the link's query; a sign glued after a domain
            // ends it; an apostrophe between letters of any script.
            ("https://x.org/?q=(a)&u=ann@x.org", ["https://x.org/?q=(a)&u=ann@x.org"]),
            ("ann@example.com¹ and ann@example.com\u{200B}", ["ann@example.com", "ann@example.com"]),
            ("d'Étienne@x.fr", ["d'Étienne@x.fr"]),
            // Ours, with Recognizers-Text: a dot at the start of the local part makes no address.
            ("Hello .asdf@asdf.com", []),
            // Addresses in other scripts (python-email-validator's `tests/test_syntax.py`, The Unlicense, and
            // Autolinker); ours: the local part stops at a script written without spaces.
            ("Joe's email is mañana@mañana.com", ["mañana@mañana.com"]),
            ("Joe's email is Кириллица@Кириллица.com", ["Кириллица@Кириллица.com"]),
            ("jeff@臺網中心.tw", ["jeff@臺網中心.tw"]),
            ("邮箱abc@example.cn获取", ["abc@example.cn"]),
        ]
        for (text, want) in rows {
            XCTAssertEqual(d.detect(in: text).map(\.text), want, "links in \(text.debugDescription)")
        }
    }

    /// Each row: the text, and the amount and currency of the first amount found.
    func testPriceParserPrices() {
        let rows: [(String, String, String)] = [
            ("Běžná cena 9 800 Kč", "9800", "CZK"),
            (": 3 250 000 €", "3250000", "EUR"),
            ("171900 руб.", "171900", "RUB"),
            ("419 руб.", "419", "RUB"),
            ("1 030 р.", "1030", "RUB"),
            ("17 940,00 руб", "17940.00", "RUB"),
            ("6,000.00 руб. 5,500.00 руб.", "6000.00", "RUB"),
            ("2 285,81 грн.", "2285.81", "UAH"),
            ("45,00 zł", "45.00", "PLN"),
            ("R$260,00", "260.00", "BRL"),
            ("Rp 31.500", "31500", "IDR"),
            ("880,000 ₫", "880000", "VND"),
            ("$ 1.144.000", "1144000", "USD"),
            ("AED 8000 (USD 2179)", "8000", "AED"),
            ("9.990,00 €", "9990.00", "EUR"),
            ("166,81 € iva inclusa", "166.81", "EUR"),
        ]
        for (text, amount, currency) in rows {
            let first = found(text, .money).first
            XCTAssertEqual(first?.value.amount, amount, "amount in \(text.debugDescription)")
            XCTAssertEqual(first?.value.currency, currency, "currency in \(text.debugDescription)")
        }
        // Ours: spaces group thousands only beside a currency; bare, `2 500` may be a count and a price.
        expect([("Tisch 12 345", []), ("2 500 x 3", []), ("2 500,00", ["2 500,00"]), ("₴ 1 200", ["₴ 1 200"])], .money)
        // The suite reads these; we do not: four decimals (`฿ 3.3900`), the lira sign, obsolete codes.
        expect([("฿ 3.3900", []), ("₤1700.", []), ("DEM 170 000", [])], .money)
    }

    func testRecognizersTextDateParser() {
        let rows: [(String, [String])] = [
            ("Monday, Jan twenty two, 2018", ["2018-01-22"]),
            ("I'll go back 08/12,15", ["2015-08-12"]),
            // Recognizers-Text `DateTimeModel.json`: ISO 8601's basic form, alone.
            ("-20200701-", ["2020-07-01"]),
            ("I'll go back 20161016.", ["2016-10-16"]),
            // Ours: eight digits inside a longer number, a code or a path stay numbers.
            ("Inv 12-20200701", []),
            ("20200701-9", []),
            ("v1.20200701", []),
            ("20201301", []),
            ("12201610161", []),
            // Ours: a list after a comma is no year.
            ("items 8/12, 15", []),
        ]
        for (text, want) in rows {
            XCTAssertEqual(found(text, .date).compactMap(\.value.date), want, "dates in \(text.debugDescription)")
        }
    }

    /// A whole date whose day or year is in words; a day or month without a year is no date here.
    func testDatesInWords() {
        let rows: [(String, [String])] = [
            ("on Sunday Jan twenty one two thousand and eighteen", ["2018-01-21"]),
            ("on September the twenty-first nineteen seventy eight", ["1978-09-21"]),
            ("on September 10, nineteen zero one", ["1901-09-10"]),
            ("on the tenth of September, two thousand", ["2000-09-10"]),
            ("march third 2015", ["2015-03-03"]),
            ("May eighth, 2010", ["2010-05-08"]),
            ("November Nineteen, Two thousand and fourteen at noon", ["2014-11-19"]),
            ("December thirteen two thousand at midnight", ["2000-12-13"]),
            ("The first of January 2020.", ["2020-01-01"]),
            // The hour after the year is no day of `January 1997`.
            ("Twenty three January 1997 11:08", ["1997-01-23"]),
            // Recognizers-Text `DateTimeModel.json`: a year said with its hundreds, also before 1800.
            ("On fifteen August nineteen hundred ninety three, the plant started operations.", ["1993-08-15"]),
            ("The ship set sails on 6 April seventeen hundred thirty three", ["1733-04-06"]),
            ("on 3 May nineteen hundred and five", ["1905-05-03"]),
            ("the first prize", []),
            ("I'll go back May twenty one", []),
            ("I'll go back twenty second of June", []),
            ("a baseball on may the eleventh", []),
            ("I'll change the ten am appointment to twenty four.", []),
            ("put make cable's wedding in my calendar for tuesday the thirty first", []),
            ("this is the one", []),
            ("three twenty", []),
            ("nineteen hundred", []),
            ("twenty seventh of June", []),
            // Ours: a count before the month, and an ordinal after a month and year.
            ("buy one May 2020 ticket", []),
            ("In May 2020 second place went to her", []),
            // Ours: number words go with English months only, a cardinal with a capitalised month, a year in words
            // from 1800 on and not as a count, and a day in words with no two-digit year.
            ("Check out ten 2023 models", []),
            ("you may two 2019 tickets buy", []),
            ("Meeting on June 3, eleven thirty", []),
            ("Dec 3 fifteen hundred troops", []),
            ("May 1 nineteen hundred ninety three thousand", []),
            ("On May 1 two thousand workers marched", []),
            ("March 5 two thousand one hundred people", []),
            ("On March two, 15 people died", []),
            // Ours: a date printed year first with spaces is a date, not a phone number; with a phone word, a phone.
            ("2018 06 18", ["2018-06-18"]),
            ("Date 2016 10 16 10:30:00", ["2016-10-16"]),
        ]
        for (text, want) in rows {
            XCTAssertEqual(found(text, .date).compactMap(\.value.date), want, "dates in \(text.debugDescription)")
        }
        let d = try! DataDetector(types: [.date, .phone], referenceDate: CalendarDay(iso: "2024-06-01"))
        XCTAssertEqual(d.detect(in: "printed 2018 06 18").map(\.type), [.date])
        XCTAssertEqual(d.detect(in: "Tel: 2018 06 18").map(\.type), [.phone])
        XCTAssertEqual(d.detect(in: "2018 06 18 45").map(\.type), [.phone])
    }

    /// Dates with the Chinese, Japanese and Korean signs of year, month and day, in digits of both widths, in
    /// numerals, and in the Japanese eras; and what is no date there.
    func testEastAsianDates() {
        let rows: [(String, [String])] = [
            ("私は2016年2月22日に戻ります。", ["2016-02-22"]),
            ("平成２２年１月２９日", ["2010-01-29"]),
            ("二〇〇九年十月十二日、月曜日", ["2009-10-12"]),
            ("主な株主（令和元年5月1日）", ["2019-05-01"]),
            ("令和3年7月18日", ["2021-07-18"]),
            ("R3年7月18日", ["2021-07-18"]),
            ("１９０１年の９月１０日に", ["1901-09-10"]),
            ("2016年09月03号", ["2016-09-03"]),
            ("二零一五年三月三", ["2015-03-03"]),
            ("两千零四年八月十五", ["2004-08-15"]),
            // Ours: a year by place up to seven numerals long.
            ("二千零二十一年三月五日", ["2021-03-05"]),
            ("一千九百九十九年十二月三十一日", ["1999-12-31"]),
            ("雞2016年9月3號全部都係雞", ["2016-09-03"]),
            ("我二零一六年，九月三号要打游戏", ["2016-09-03"]),
            ("1987年1月11日八点", ["1987-01-11"]),
            ("2021／3／25に", ["2021-03-25"]),
            ("2021・7・18", ["2021-07-18"]),
            ("74/10/31に", ["1974-10-31"]),
            // Ours: in those scripts a short date puts its year first, and a Japanese address's block, lot and house
            // numbers are no date.
            ("日付 19/10/23", ["2019-10-23"]),
            ("발행일 19.10.23", ["2019-10-23"]),
            ("日付19-10-23", ["2019-10-23"]),
            ("福岡県福岡市中央区北町3-16-19", []),
            ("埼玉県さいたま市大宮区本丘4-4-22", []),
            ("東京都港区北坂2-10-15", []),
            ("12/25/19 日付", []),
            ("25.12.2019 日付", ["2019-12-25"]),
            // Ours: in Latin text such a run is a code (`Lot 95-12-01`, `Mix 40/10/30 blend`).
            ("74/10/31", []),
            ("Lot 95-12-01", []),
            ("2015년 9월 18일에 돌아갈 거야.", ["2015-09-18"]),
            ("1월 12일, 2016년에 돌아갈게요", ["2016-01-12"]),
            ("9월 21일 1978에", ["1978-09-21"]),
            // No year, a relative day, a duration, a year or a month alone: no date.
            ("私は10月2日に戻ります", []),
            ("10月12号，星期一", []),
            ("去年8月19日", []),
            ("私は2年1か月21日前にここを立ち去りました", []),
            ("나는 2년 1개월 21일 전에 여기를 떠났습니다.", []),
            ("令和3年", []),
            ("2015年3月は不在にします。", []),
            ("2014년 10월", []),
            ("2021年度", []),
            ("2021回目の7月18日", []),
            // Ours: a month and then a number that goes on as a time or an amount is no date; nor is a Korean date
            // without a year before a price.
            ("2020年3月 5,000円", []),
            ("2024年4月 12:00", []),
            ("3월 5일 1500원", []),
            // Ours: a day that is not in the calendar is no date; a B that OCR read for an 8 beside digits is the 8.
            ("2019年2月29日", []),
            ("2018年5月1B日", ["2018-05-18"]),
            ("S64年1月7日", ["1989-01-07"]),
        ]
        for (text, want) in rows {
            XCTAssertEqual(found(text, .date).compactMap(\.value.date), want, "dates in \(text.debugDescription)")
        }
    }

    /// Times with the signs of hour and minute, and a half of the day before them.
    func testEastAsianTimes() {
        let rows: [(String, [String])] = [
            ("私は午前6時13分に起きた", ["06:13"]),
            ("今晚8点", ["20:00"]),
            ("8点", []), // ours: an hour alone is a time only after a part of the day
            ("下午2点30分", ["14:30"]),
            ("9월 20일 저녁 7시 30분", ["19:30"]),
            ("朝7時", ["07:00"]),
            ("深夜1時", ["01:00"]),
            ("夜12時", ["00:00"]),
            ("오후 2시 30분", ["14:30"]),
            ("12時34分56秒", ["12:34:56"]),
            ("3時間", []),
        ]
        for (text, want) in rows {
            XCTAssertEqual(found(text, .time).compactMap(\.value.time), want, "times in \(text.debugDescription)")
        }
    }

    /// A range of days in one year is one date from its first day to its last; a range over two years is two dates.
    func testRangesOfDays() {
        let rows: [(String, [String])] = [
            ("I'll be out from 4 to 22 January, 1995", ["1995-01-04..1995-01-22"]),
            ("I'll be out between 4-22 January, 1995", ["1995-01-04..1995-01-22"]),
            ("I'll be out from 2 to 7 Feb, two thousand and eighteen", ["2018-02-02..2018-02-07"]),
            ("I'll be out between 2 and 7 Feb two thousand and eighteen", ["2018-02-02..2018-02-07"]),
            ("I'll be out between January 1st 2015 and Feb 5th 2018", ["2015-01-01", "2018-02-05"]),
            // Ours.
            ("May 3-5, 2020", ["2020-05-03..2020-05-05"]),
            ("from March 3 to March 5, 2020", ["2020-03-03..2020-03-05"]),
            ("May 30 - June 2, 2020", ["2020-05-30..2020-06-02"]),
            ("3 May – 5 June 2020", ["2020-05-03..2020-06-05"]),
            ("vom 10. bis 12. Mai 2020", ["2020-05-10..2020-05-12"]),
            ("del 3 al 5 de mayo de 2020", ["2020-05-03..2020-05-05"]),
            ("10-12-2020", ["2020-10-12"]),
            ("May 5-3, 2020", []),
            ("30 May - 20 June", []),
            ("6 -7 Jan 30", ["2030-01-07"]),
            // Ours: a number after another word is that word's (`Windows 10`), and a two-digit year stays a year
            // when no range's joiner comes before the day.
            ("Windows 10 - 11 May 2020", ["2020-05-11"]),
            ("Qty 2 - 3 Dec 2020", ["2020-12-03"]),
            ("Stay: 10-12 May 2020", ["2020-05-10..2020-05-12"]),
            ("Issued 15 Jan 21 may be late", ["2021-01-15"]),
        ]
        for (text, want) in rows {
            let got = found(text, .date).map { e in e.value.endDate.map { "\(e.value.date!)..\($0)" } ?? e.value.date! }
            XCTAssertEqual(got, want, "ranges in \(text.debugDescription)")
        }
    }
}
