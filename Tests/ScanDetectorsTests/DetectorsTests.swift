import Foundation
import XCTest
import ScanModel
@testable import ScanDetectors

/// Table-driven tests: each row is a real-world style string and what must (or must not)
/// be found in it. The strings are our own, written after formats printed on receipts,
/// business cards and e-mail signatures.
final class DetectorsTests: XCTestCase {
    private func find(_ text: String, _ type: EntityType, region: String? = nil, ref: String = "2024-06-01") -> [Entity]
    {
        let d = try! DataDetector(types: [type], region: region, referenceDate: CalendarDay(iso: ref))
        return d.detect(in: text)
    }

    /// Rows are (text, region, expected text or "" for none, expected value or nil to skip).
    private func check(_ rows: [(String, String?, String, String?)], _ type: EntityType,
                       value: (EntityValue) -> String?, file: StaticString = #filePath, line: UInt = #line) {
        for (text, region, want, wantValue) in rows {
            let got = find(text, type, region: region)
            if want.isEmpty {
                XCTAssertTrue(
                    got.isEmpty, "\(type) in \(text.debugDescription): expected none, got \(got.map(\.text))",
                    file: file, line: line)
                continue
            }
            guard let e = got.first(where: { $0.text == want }) else {
                XCTFail(
                    "\(type) in \(text.debugDescription): expected \(want.debugDescription), got \(got.map(\.text))",
                    file: file, line: line)
                continue
            }
            if let wv = wantValue {
                XCTAssertEqual(value(e.value), wv, "\(type) value of \(want.debugDescription)", file: file, line: line)
            }
        }
    }

    func testPhones() {
        let rows: [(String, String?, String, String?)] = [
            ("Call us: (415) 555-0100", nil, "(415) 555-0100", "+14155550100"),
            // A time's minutes start no number; a label's `l` read as `1` before its colon does not stop one.
            ("12:41 21/03/19", "MY", "", nil),
            ("Te1:(213) 555-0142", nil, "(213) 555-0142", "+12135550142"),
            ("T: +44 20 7946 0958", nil, "+44 20 7946 0958", "+442079460958"),
            ("Tel. 0171 2345678", "DE", "0171 2345678", "+491712345678"),
            ("Zentrale +49 (0)30 1234567", nil, "+49 (0)30 1234567", "+49301234567"),
            ("Tél : 01 23 45 67 89", "FR", "01 23 45 67 89", "+33123456789"),
            ("Tel.: 030/1234567", "DE", "030/1234567", "+49301234567"),
            ("Call 1-800-FLOWERS today", nil, "1-800-FLOWERS", "+18003569377"),
            ("Call 1800-FLOWERS now", nil, "1800-FLOWERS", "+18003569377"),
            ("Help line 800-555-HELP", nil, "800-555-HELP", "+18005554357"),
            ("Mobile 0412 345 678", "AU", "0412 345 678", "+61412345678"),
            ("HP: 012-345 6789", "MY", "012-345 6789", "+60123456789"),
            ("Tel: 03-2145 6789", "MY", "03-2145 6789", "+60321456789"),
            ("Ph 020 7946 0018", "GB", "020 7946 0018", "+442079460018"),
            ("phone 212-555-0147 ext. 12", nil, "212-555-0147 ext. 12", "+12125550147"),
            ("Fax 0044 161 496 0000", nil, "0044 161 496 0000", "+441614960000"),
            ("M +61 412 345 678", nil, "+61 412 345 678", "+61412345678"),
            ("Büro: 089 12345678", "DE", "089 12345678", "+498912345678"),
            ("Tel 06-12345678", "NL", "06-12345678", "+31612345678"),
            ("Telefono 06 6982 1234", "IT", "06 6982 1234", "+390669821234"),
            ("Call 416.555.0199 now", nil, "416.555.0199", "+14165550199"),
            ("Tel: (O3) 2I45 6789", "MY", "(O3) 2I45 6789", "+60321456789"),
            // The label's space lost (as OCR often reads a card): the label still counts.
            ("T536-278-8222", "US", "536-278-8222", "+15362788222"),
            ("Tel.069/5850177", "DE", "069/5850177", "+49695850177"),
            ("M0412 345 678", "AU", "0412 345 678", "+61412345678"),
            ("TEL03-2145 6789", "MY", "03-2145 6789", "+60321456789"),
            // Spanish and Portuguese `Cel.` for a mobile, glued.
            ("Cel.55 4471 2290", "MX", "55 4471 2290", "+525544712290"),
            // A label's number whose first dot OCR lost; without a label, a decimal number.
            ("Tel 512637.4408", "US", "512637.4408", "+15126374408"),
            ("Total 512637.4408", "US", "", nil),
            // India's mobiles are printed without the 0 that its fixed lines keep, labelled or not.
            ("Mob: 98450 12345", "IN", "98450 12345", "+919845012345"),
            ("98201 46638", "IN", "98201 46638", "+919820146638"),
            ("Tel 022 2284 3917", "IN", "022 2284 3917", "+912222843917"),
            // Not phones.
            ("C1234567 x2", nil, "", nil),
            ("P0-001-000016155-9", nil, "", nil),
            ("SKU415-555-0100", nil, "", nil),
            ("AT536-278-8222", nil, "", nil),
            ("Order No. 4512 3345 9981", nil, "", nil),
            ("1245-DESA SRI HARTAMAS", "MY", "", nil),
            // A 1 glued to a code that is not toll-free: a street number before a place name.
            ("SELANGOR 1214-JINJANG UTARA", nil, "", nil),
            ("Date 16-04-2010", nil, "", nil),
            ("Total 1,234,567.89", nil, "", nil),
            ("Account 12345678", nil, "", nil),
            // Firms' tax numbers: Italy's P.IVA, Poland's NIP.
            ("P.IVA 05123480487", "IT", "", nil),
            ("NIP 583-31-22-457", "PL", "", nil),
            ("ABN 61 143 589 207", "AU", "", nil),
            // Such a label names its own number only, not a phone after a word or a percentage.
            ("KvK 12345678 T 020 123 4567", "NL", "020 123 4567", "+31201234567"),
            ("IVA 21% 912 345 678", "ES", "912 345 678", "+34912345678"),
            // India's mobile without its 0 only in the groups it is printed in.
            ("8901 234567", "IN", "", nil),
            ("SSN 123-45-6789", nil, "", nil),
            ("Visa 4111 1111 1111 1111", nil, "", nil),
            ("Invoice #20240511234", nil, "", nil),
            ("GPS -33.8688197", nil, "", nil),
            ("Ref: 1 234 567", nil, "", nil),
            ("3333*2=6666", nil, "", nil),
            ("a short one 555-0100", nil, "", nil),
            // Fifteen digits from a 0: longer than a national number with a trunk 0 anywhere (Germany's
            // and Austria's 13-digit NSNs and the 0 make 14), so a survey code, not a phone.
            ("Surve 0ode:0279-403-2211-1303", nil, "", nil),
        ]
        check(rows, .phone) { $0.e164 }
        // A receipt's number, then its day: the date, and no phone. Labelled, or with its area code in
        // brackets, the same digits are a phone number whose last groups look like a date.
        XCTAssertEqual(find("567455 22-11-17", .date).first?.text, "22-11-17")
        XCTAssertTrue(find("567455 22-11-17", .phone).isEmpty)
        XCTAssertEqual(find("8 (4722) 12-11-17", .phone).first?.text, "8 (4722) 12-11-17")
        XCTAssertEqual(find("Tel 567455 22-11-17", .phone).first?.text, "567455 22-11-17")
        // No year 2345: a number, not a date.
        XCTAssertEqual(find("0711 2345-10-10", .phone, region: "DE").first?.text, "0711 2345-10-10")
        // A road's numbers parted by a slash, then a postal code: no phone without a trunk 0 or a label.
        XCTAssertTrue(find("JALAN PERMAS 10/10 81750 MASAI", .phone).isEmpty)
        XCTAssertTrue(find("JALAN PERMAS 10/10 81750 MASAI", .phone, region: "MY").isEmpty)
        XCTAssertEqual(find("Tel 10/10 81750", .phone).first?.text, "10/10 81750")
        // Amounts side by side in a tax table's row are no phone; a dotted number is.
        XCTAssertTrue(find("Z(07) 0.00 0.00", .phone).isEmpty)
        XCTAssertEqual(find("or call 03-56360199 12.37", .phone).first?.text, "03-56360199")
        XCTAssertTrue(find("1.00 15.90 15.90", .phone).isEmpty)
        XCTAssertTrue(find("2.130 11.20", .phone).isEmpty)
        // A one-letter label glued on after an invoice number's label is the invoice number's own letter.
        XCTAssertTrue(find("INV NO: P0S01/00012379", .phone).isEmpty)
        XCTAssertEqual(find("P0412 345 678", .phone, region: "AU").first?.value.e164, "+61412345678")
        XCTAssertTrue(find("13.50 -13.50", .phone).isEmpty)
        XCTAssertEqual(find("Tel 02.123.45.67", .phone, region: "BE").first?.text, "02.123.45.67")
        XCTAssertEqual(find("06.23.66 .51.98", .phone, region: "FR").first?.value.e164, "+33623665198")
        XCTAssertEqual(find("01.23.45.67.89 12.50", .phone, region: "FR").first?.text, "01.23.45.67.89")
        XCTAssertEqual(find("call 03-56360199 -12.37", .phone).first?.text, "03-56360199")
        // Not a date (no month 34): the phone stays.
        XCTAssertEqual(find("0123 12-34-56", .phone).first?.text, "0123 12-34-56")
        // Where numbers are dialled with a trunk 0, a house number and a postal code are no number of
        // the region; a label, the 0 or a third group still make one.
        XCTAssertTrue(find("Tondestrasse 120 63974 Isalmo", .phone, region: "DE").isEmpty)
        XCTAssertEqual(find("Tel. 120 63974", .phone, region: "DE").first?.value.e164, "+4912063974")
        XCTAssertEqual(find("0120 63974", .phone, region: "DE").first?.value.e164, "+4912063974")
        XCTAssertEqual(find("1300 123 456", .phone, region: "AU").first?.value.e164, "+611300123456")
        XCTAssertEqual(find("1300 123456", .phone, region: "AU").first?.value.e164, "+611300123456")
        // Printed without the region's trunk 0, a number is none of the region's: a number from abroad (a New York
        // number on a card whose e-mail is British) or a local one without its area code. Where libphonenumber's
        // national format leaves the 0 out, the region's numbers are printed so.
        XCTAssertEqual(find("Tel (212) 555-0147", .phone, region: "GB").first?.value.e164, "+12125550147")
        XCTAssertEqual(find("Tel 020 7946 0958", .phone, region: "GB").first?.value.e164, "+442079460958")
        XCTAssertNil(find("Tel 7946 0958", .phone, region: "DE").first?.value.e164)
        XCTAssertEqual(find("Tel 07946 0958", .phone, region: "DE").first?.value.e164, "+4979460958")
        XCTAssertEqual(find("Tel (11) 2345-6789", .phone, region: "BR").first?.value.e164, "+551123456789")
        // Eleven digits from a 1 are North American only when their first group ends where the plan parts: a
        // Hungarian tax number is none (`12345678-2-41`), a toll-free number with its own grouping is one.
        XCTAssertNil(find("Adószám: 12345678-2-41", .phone, region: "HU").first?.value.e164)
        XCTAssertEqual(find("1800 7493 524", .phone, region: "PL").first?.value.e164, "+18007493524")
        XCTAssertEqual(find("1 800 555 1234", .phone).first?.value.e164, "+18005551234")
        XCTAssertEqual(find("Tel (011) 2345-6789", .phone, region: "BR").first?.value.e164, "+551123456789")
        XCTAssertEqual(
            find("call (212) 555-0147 or mail a@example.co.uk", .phone).first?.value.e164, "+12125550147")
        // Italy keeps its 0 and has no trunk: a bare number starts with 0 (fixed) or 3 (mobile), or it is a house
        // number and a postal code; a phone word still reads one.
        XCTAssertTrue(find("Corso Stonmo, 57 85142 Tamsil (MI)", .phone, region: "IT").isEmpty)
        XCTAssertEqual(find("0384/3661135", .phone, region: "IT").first?.value.e164, "+3903843661135")
        XCTAssertEqual(find("347 1234567", .phone, region: "IT").first?.value.e164, "+393471234567")
        XCTAssertEqual(find("Tel. 57 85142", .phone, region: "IT").first?.value.e164, "+395785142")
        // Ten North American digits in two groups part after the area code or the exchange; nine and one are an
        // article's code and its count, in the plan's own region too, unless a label says otherwise.
        XCTAssertTrue(find("598336001 6 Chicken Curry Puff", .phone, region: "MY").isEmpty)
        XCTAssertTrue(find("598336001 6", .phone, region: "US").isEmpty)
        XCTAssertEqual(find("415 5551234", .phone, region: "MY").first?.value.e164, "+14155551234")
        XCTAssertEqual(find("415555 1234", .phone, region: "US").first?.value.e164, "+14155551234")
        XCTAssertEqual(find("Tel 598336001 6", .phone, region: "US").first?.value.e164, "+15983360016")
        // Fourteen digits from a 0 still can be one (a long German extension), with no region to check.
        XCTAssertEqual(find("0228-4711-1234-56", .phone).first?.value.national, "02284711123456")
        // A lone digit after the other groups is no part of a number: an article's EAN and its count, in any region.
        XCTAssertTrue(find("0586394260468 1 0,86 0,86", .phone).isEmpty)
        XCTAssertTrue(find("0586394260468 1", .phone, region: "PT").isEmpty)
        // A number followed by a count is still the number, without the count.
        XCTAssertEqual(find("030 1234567 2", .phone, region: "DE").map(\.text), ["030 1234567"])
    }

    /// A line of hundreds of numbers (a table, or a hostile upload) gives each of them: a candidate is read from its
    /// first groups, so no start costs more than a few groups however long the line.
    func testALongLineOfNumbersGivesEachNumber() {
        let line = String(repeating: "555-123-4567 ", count: 300)
        let phones = find(line, .phone, region: "US")
        XCTAssertEqual(phones.count, 300)
        XCTAssertEqual(Set(phones.map(\.text)), ["555-123-4567"])
        // A number written in as many groups as that is read whole, never cut short by a digit into another one.
        XCTAssertFalse(find("01 6 1 4 9 6 0 0 0 0", .phone, region: "GB").contains { $0.value.e164 == "+44161496000" })
    }

    /// Month words of one language that are words of another (`MART`, Turkish March, in `QUICK MART`) are not read.
    func testAShopWordIsNoMonth() {
        XCTAssertTrue(find("QUICK MART 15 2024", .date).isEmpty)
        XCTAssertTrue(find("KASIM 12 2024", .date).isEmpty)
        XCTAssertEqual(find("14 Nisan 2025", .date).first?.value.date, "2025-04-14")
    }

    func testPhoneExtensionAndRegionFromContext() {
        let e = find("Head office, United Kingdom. Tel 0161 496 0000 x204", .phone)
        XCTAssertEqual(e.first?.value.e164, "+441614960000")
        XCTAssertEqual(e.first?.value.extension, "204")
        XCTAssertEqual(e.first?.value.region, "GB")
        // The extension's word in other languages.
        for (text, region, ext) in [
            ("Tél. 514 555-0199 poste 204", "CA", "204"), ("Tel. (11) 3456-7890 ramal 12", "BR", "12"),
            ("Tel. 040 1234 5600 DW 17", "DE", "17"), ("Tel. (2) 2345 6789 anexo 305", "CL", "305"),
        ] {
            XCTAssertEqual(find(text, .phone, region: region).first?.value.extension, ext, text)
        }
    }

    /// A number of the North American plan is the region's whose ranges hold it (Trinidad's `868`, the Dominican
    /// Republic's `809`, Jamaica's `876`), with or without `+1`; the US's where the plan's data tells none apart.
    func testTheNorthAmericanPlansRegionByItsRanges() {
        XCTAssertEqual(find("Tel: (868) 623-4417", .phone).first?.value.region, "TT")
        XCTAssertEqual(find("+1 809 221 4455", .phone).first?.value.region, "DO")
        XCTAssertEqual(find("+1 876 952 4418", .phone).first?.value.region, "JM")
        XCTAssertEqual(find("Tel: (212) 555-0100", .phone).first?.value.region, "US")
        XCTAssertEqual(find("Tel. 514 555-0199", .phone, region: "CA").first?.value.region, "CA")
    }

    func testEmails() {
        let rows: [(String, String?, String, String?)] = [
            ("Contact: Jane.Doe@Example.COM", nil, "Jane.Doe@Example.COM", "jane.doe@example.com"),
            ("sales+eu@shop.co.uk.", nil, "sales+eu@shop.co.uk", "sales+eu@shop.co.uk"),
            ("E-Mail: m.mueller@firma-gmbh.de", nil, "m.mueller@firma-gmbh.de", nil),
            ("<jo_brien@mail.example.ie>", nil, "jo_brien@mail.example.ie", nil),
            ("user@localhost", nil, "", nil),
            ("bad..dots@example.com", nil, "", nil),
            ("x@under_score.com", nil, "", nil),
            ("root@10.0.0.1", nil, "", nil),
            ("ftp://anon:s3cret@files.example.net/pub", nil, "", nil),
        ]
        check(rows, .email) { $0.address }
    }

    func testURLs() {
        let rows: [(String, String?, String, String?)] = [
            ("Visit www.example.co.uk today", nil, "www.example.co.uk", "http://www.example.co.uk"),
            ("example.com/path?q=1.", nil, "example.com/path?q=1", nil),
            ("See https://shop.example.de/de/kasse#top", nil, "https://shop.example.de/de/kasse#top", nil),
            ("intranet http://wiki:8080/start", nil, "http://wiki:8080/start", nil),
            ("WWW.KEDAI-ABC.COM.MY", nil, "WWW.KEDAI-ABC.COM.MY", nil),
            ("(see docs.example.org)", nil, "docs.example.org", nil),
            ("mail info@example.com", nil, "", nil),
            // A one-letter host is written small; `S.Com.` is a Spanish legal form.
            ("follow x.com/scanextract", nil, "x.com/scanextract", nil),
            ("Fábrica del Noroeste S.Com.", nil, "", nil),
            ("attached receipt_scan.png", nil, "", nil),
            // A card's label glued to the address by a lost space, any letters before `http`; other schemes only
            // after a label (`news://` is no `ws://`).
            ("Whttps://www.leroux.fr", nil, "https://www.leroux.fr", nil),
            ("Sitehttp://murri.it", nil, "http://murri.it", nil),
            ("WEBhttp://murri.it", nil, "http://murri.it", nil),
            ("news://murri.it", nil, "", nil),
            ("version 1.2.3", nil, "", nil),
            ("read notes.txt first", nil, "", nil),
            ("e.g. this", nil, "", nil),
            ("get ftp://anon:s3cret@files.example.net/pub now", nil, "ftp://anon:s3cret@files.example.net/pub",
             "ftp://anon:s3cret@files.example.net/pub"),
            ("https://user@host.example.com", nil, "https://user@host.example.com", nil),
            // Top-level domains come from the Public Suffix List, not a hand list.
            ("links: lero.aws, sound.academy and nyti.ms", nil, "sound.academy", "http://sound.academy"),
            ("mirror at pypi.org/simple", nil, "pypi.org/simple", nil),
            ("ask at ministry.gov.my", nil, "ministry.gov.my", nil),
            ("open beispiel.berlin", nil, "beispiel.berlin", nil),
            ("cafe-luna.kaufen/menu", nil, "cafe-luna.kaufen/menu", nil),
            ("not a domain: notes.abcxyz", nil, "", nil),
            ("SUB.TOTAL 12.00", nil, "", nil),
            // A short label before `No` or `Nr` abbreviates "number"; Norway's hosts are written small.
            ("Ref.No 12345", nil, "", nil),
            ("TEL.NO: 03-1234567", nil, "", nil),
            ("Art.Nr. Menge Preis", nil, "", nil),
            ("news at vg.no today", nil, "vg.no", nil),
            ("Thank you.Now go", nil, "", nil),
            ("That was the end.It was late", nil, "", nil),
            ("Example.Com", nil, "Example.Com", nil),
            ("-bad-.com and bad-.com", nil, "", nil),
            ("twice..dotted.com", nil, "", nil),
            ("http://[2001:db8::1]:8443/status", nil, "http://[2001:db8::1]:8443/status", nil),
            ("ws://10.0.0.5:9000/feed", nil, "ws://10.0.0.5:9000/feed", nil),
            ("printer at 192.168.0.20:631 now", nil, "192.168.0.20:631", nil),
            ("请访问www.example.cn获取发票", nil, "www.example.cn", "http://www.example.cn"),
            ("Weitere Infos: www.bäckerei-müller.de.", nil, "www.bäckerei-müller.de", nil),
            (
                "see https://de.wikipedia.org/wiki/Kassenbon_(Handel), then", nil,
                "https://de.wikipedia.org/wiki/Kassenbon_(Handel)", nil
            ),
            ("archive backup.zip", nil, "", nil),
            ("script build.sh", nil, "", nil),
            // A country's domain that is also a file's extension, alone on its line: a card's web address.
            ("wislatravel.pl", nil, "wislatravel.pl", "http://wislatravel.pl"),
            ("Firma\n  wislatravel.pl  \nul. Floriańska 15", nil, "wislatravel.pl", nil),
            ("README.md", nil, "", nil),
            ("main.rs", nil, "", nil),
            ("run parse.pl", nil, "", nil),
            ("backup.zip", nil, "", nil),
            ("port http://shop.example.com:99999", nil, "", nil),
        ]
        check(rows, .url) { $0.url }
    }

    func testDates() {
        let rows: [(String, String?, String, String?)] = [
            ("DATE: 25 DEC 2018", nil, "25 DEC 2018", "2018-12-25"),
            // A month's O read as a zero by OCR.
            ("22 0ct 2015 Jam: 12:23", nil, "22 0ct 2015", "2015-10-22"),
            ("12 0ktober 2019", nil, "12 0ktober 2019", "2019-10-12"),
            ("Room 0ct", nil, "", nil),
            ("Signed Dec. 31, 1994 in Boston", nil, "Dec. 31, 1994", "1994-12-31"),
            ("Meeting 2018-7-6", nil, "2018-7-6", "2018-07-06"),
            ("Exp Feb23'19", nil, "Feb23'19", "2019-02-23"),
            ("Jun 26, 15 04:55 PM", nil, "Jun 26, 15", "2015-06-26"),
            ("Feb2319 10:23AM", nil, "Feb2319", "2019-02-23"),
            ("Jun 26 15:30", nil, "", nil),
            ("Table 1 Jun 26, 15 04:55 PM", nil, "Jun 26, 15", "2015-06-26"),
            ("1 Jun 26", nil, "1 Jun 26", "2026-06-01"),
            ("order 2319-02-10", nil, "", nil),
            ("05-Aug-2016 10:32", nil, "05-Aug-2016", "2016-08-05"),
            ("Datum: 16.04.2010", nil, "16.04.2010", "2010-04-16"),
            ("le 3 février 2021", nil, "3 février 2021", "2021-02-03"),
            ("am 1. März 2020", nil, "1. März 2020", "2020-03-01"),
            ("el 5 de mayo de 2020", nil, "5 de mayo de 2020", "2020-05-05"),
            ("il 12 settembre 2019", nil, "12 settembre 2019", "2019-09-12"),
            ("op 9 mei 2022", nil, "9 mei 2022", "2022-05-09"),
            ("04/21/2020 12:37", nil, "04/21/2020", "2020-04-21"),
            ("21/04/20", nil, "21/04/20", "2020-04-21"),
            ("03/04/2020", "GB", "03/04/2020", "2020-04-03"),
            ("03/04/2020", "US", "03/04/2020", "2020-03-04"),
            ("the fourth of July, 1995", nil, "fourth of July, 1995", "1995-07-04"),
            ("Bill date 15/01/2023, due 03/02/2023", nil, "03/02/2023", "2023-02-03"),
            ("v1.2.2020", nil, "", nil),
            ("IP 10.12.2020.1", nil, "", nil),
            ("13/13/2020", nil, "", nil),
            ("Tarikh: 12 Mac 2021", nil, "12 Mac 2021", "2021-03-12"),
            ("Jakarta, 17 Agustus 2020", nil, "17 Agustus 2020", "2020-08-17"),
            ("Tarikh 3 Ogos 2019", nil, "3 Ogos 2019", "2019-08-03"),
            ("Tanggal 24 Desember 2022", nil, "24 Desember 2022", "2022-12-24"),
            ("1º de enero de 2020", nil, "1º de enero de 2020", "2020-01-01"),
            ("1° gennaio 2021", nil, "1° gennaio 2021", "2021-01-01"),
            ("le 1er mai 2020", nil, "1er mai 2020", "2020-05-01"),
            ("due 2021-15-Mar", nil, "2021-15-Mar", "2021-03-15"),
            ("signed 06/30,2019", nil, "06/30,2019", "2019-06-30"),
            ("Thursday, the 21st of April 2016", nil, "21st of April 2016", "2016-04-21"),
            ("on the thirty-first of December, 1999", nil, "thirty-first of December, 1999", "1999-12-31"),
            ("2/29/2019", nil, "", nil),
            ("3/4 cup flour, 1/2 tsp salt", nil, "", nil),
            ("build 2.10.2020.1", nil, "", nil),
            ("may be 2 items", nil, "", nil),
            // OCR's joins: a label's colon, a day glued to its month, a time glued to the year.
            ("Date:21/03/2019", nil, "21/03/2019", "2019-03-21"),
            ("12:41 21/03/19", nil, "21/03/19", "2019-03-21"),
            ("Tarikh :21/03/2019 10:02 AM", nil, "21/03/2019", "2019-03-21"),
            ("Issued 9Oct/2020 18.40:11", nil, "9Oct/2020", "2020-10-09"),
            ("Exp 23Feb2019", nil, "23Feb2019", "2019-02-23"),
            ("07/AUG/201911:20:05 Cashier 3", nil, "07/AUG/2019", "2019-08-07"),
            ("21/03/201911:20", nil, "21/03/2019", "2019-03-21"),
            ("Ref 201911:20", nil, "", nil),
            ("Time 10:21/03/2019", nil, "", nil),
            // A mark beyond ASCII glued before the month (an app's `Order #47445 ·Jan 12, 2024`); a letter beyond
            // ASCII before it makes one word, no month.
            ("Order #47445 ·Jan 12, 2024, 12:57 PM", nil, "Jan 12, 2024", "2024-01-12"),
            ("Grünmai 3, 2024", nil, "", nil),
            // A till's stamp whose space OCR lost between its code and the date: a run too long for a date's field,
            // a whole date with a four-digit year after its last two digits, and a time after it. Numbers with a
            // month and a year after them, and shorter years or runs, stay numbers.
            ("#001-001-0934-000131/01/201813:30-R", nil, "31/01/2018", "2018-01-31"),
            ("POS 0934-000131.12.2018 10:02", nil, "31.12.2018", "2018-12-31"),
            ("Faktur No. 00025/11/2019", nil, "", nil),
            ("Order 00123/12/2019 total", nil, "", nil),
            ("Batch 123405.01.2020", nil, "", nil),
            ("Ref 1234531/01/19 10:02", nil, "", nil),
            ("Ref 1234/01/2019 10:02", nil, "", nil),
            ("lot 3kg", nil, "", nil),
        ]
        check(rows, .date) { $0.date }
    }

    /// Every month name in the project's locale files (ScanExtraction's resources) is read
    /// as a date's month, so a locale added there is noticed here.
    func testLocaleMonthNamesAreKnown() throws {
        let locales = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/ScanExtraction/Resources/Locales").standardized
        let files = try FileManager.default.contentsOfDirectory(atPath: locales.path).filter { $0.hasSuffix(".json") }
        XCTAssertGreaterThanOrEqual(files.count, 8)
        for file in files {
            let data = try Data(contentsOf: locales.appendingPathComponent(file))
            let json = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            let months = json?["months"] as? [String] ?? []
            for name in months {
                let text = "15 \(name) 2020"
                let date = find(text, .date).first?.value.date
                XCTAssertEqual(date?.hasPrefix("2020-"), true, "\(file): \(name) is not read as a month")
            }
        }
    }

    func testAmbiguousDateIsReported() {
        let e = find("Due 03/04/2020", .date)
        XCTAssertEqual(e.count, 1)
        XCTAssertEqual(e.first?.ambiguous, true)
        XCTAssertEqual(e.first?.alternatives?.count, 1)
        let ctx = DetectionContext(region: nil, dayFirst: true)
        let d = try! DataDetector(types: [.date])
        XCTAssertEqual(d.detect(in: "Due 03/04/2020", context: ctx).first?.value.date, "2020-04-03")
        XCTAssertNil(d.detect(in: "Due 03/04/2020", context: ctx).first?.ambiguous)
    }

    func testTimes() {
        let rows: [(String, String?, String, String?)] = [
            ("Time 8:13:39 PM", nil, "8:13:39 PM", "20:13:39"),
            ("ab 20h15", nil, "20h15", "20:15"),
            ("ETA 1430 hrs", nil, "1430 hrs", "14:30"),
            ("at 6pm", nil, "6pm", "18:00"),
            ("Back at 10am. Then lunch", nil, "10am", "10:00"),
            ("from 9 a.m. on", nil, "9 a.m.", "09:00"),
            ("12:05 am", nil, "12:05 am", "00:05"),
            ("um 14.30 Uhr", nil, "14.30 Uhr", "14:30"),
            ("13-Jul-2018 8:53:47P", nil, "8:53:47P", "20:53:47"),
            ("09:15a Table 4", nil, "09:15a", "09:15"),
            // OCR's slips on a till's time: a colon read as a full stop where seconds follow, and M read as H or N.
            ("2018-11-18 18.58:34 #37", nil, "18.58:34", "18:58:34"),
            ("08/09/19 4:28 PH Table 21", nil, "4:28 PH", "16:28"),
            ("07/AUG/201911:20:05 Cashier 3", nil, "11:20:05", "11:20:05"),
            ("Ref 201911:20", nil, "", nil),
            ("Open 11:05 AN", nil, "11:05 AN", "11:05"),
            ("Call 10:30 PHONE", nil, "10:30", "10:30"),
            ("Gate 4.28 PH", nil, "", nil),
            ("Item 2P", nil, "", nil),
            ("ratio 25:99", nil, "", nil),
            ("Total 14.30", nil, "", nil),
            // Hour 24 is the day's end, 24:00, and no other time (ISO 8601).
            ("open until 24:00", nil, "24:00", "24:00"),
            ("Printed 24:15", nil, "", nil),
        ]
        check(rows, .time) { $0.time }
    }

    func testMoney() {
        let rows: [(String, String?, String, String?)] = [
            ("TOTAL $12.50", nil, "$12.50", "12.50 USD"),
            ("Total RM 26.50", nil, "RM 26.50", "26.50 MYR"),
            ("Summe 1.234,56 €", nil, "1.234,56 €", "1234.56 EUR"),
            ("EUR 99,90", nil, "EUR 99,90", "99.90 EUR"),
            ("£3.20 Latte", nil, "£3.20", "3.20 GBP"),
            ("Total CHF 1'234.50", nil, "CHF 1'234.50", "1234.50 CHF"),
            ("Rp 25.000", nil, "Rp 25.000", "25000 IDR"),
            ("Summa 149 kr", "SE", "149 kr", "149 SEK"),
            ("Refund -$5.00", nil, "-$5.00", "-5.00 USD"),
            ("Discount ($3.75)", nil, "($3.75)", "-3.75 USD"),
            ("costs 20 dollars", nil, "20 dollars", "20 USD"),
            ("C$15", nil, "C$15", "15 CAD"),
            ("2 x Tea  4.50", nil, "4.50", "4.50 "),
            ("Total 1O.5O", nil, "1O.5O", "10.50 "),
            // Yen, yuan and won as East Asian receipts print them: the full-width sign, and the unit after.
            ("合計 ¥739", nil, "¥739", "739 JPY"),
            ("合計 ￥1,000", nil, "￥1,000", "1000 JPY"),
            ("合計739円です", nil, "739円", "739 JPY"),
            ("合计 58元", nil, "58元", "58 CNY"),
            ("합계 12,000원", nil, "12,000원", "12000 KRW"),
            ("令和元年", nil, "", nil),
            ("3원칙", nil, "", nil),
            ("3元素", nil, "", nil),
            ("Qty 3", nil, "", nil),
            ("Page 12", nil, "", nil),
            ("GPS 3.1415926", nil, "", nil),
        ]
        check(rows, .money) { "\($0.amount ?? "") \($0.currency ?? "")" }
    }

    func testPercentage() {
        check(
            [
                ("SST 6%", nil, "6%", "6"), ("GST (6.000%)", nil, "6.000%", "6.000"),
                ("VAT 1,234%", nil, "1,234%", "1.234"), ("VAT 19.5 percent", nil, "19.5 percent", "19.5"),
                // French and German typography set a space before the sign.
                ("TVA 5,5 %", nil, "5,5 %", "5.5"), ("MwSt 19 % 12,00", nil, "19 %", "19"),
                ("no numbers", nil, "", nil)
            ], .percentage
        ) { $0.percent }
    }

    func testPostalCodes() {
        let rows: [(String, String?, String, String?)] = [
            ("Springfield, IL 62704-1234", nil, "62704-1234", "62704-1234"),
            ("London SW1A 1AA", nil, "SW1A 1AA", "SW1A 1AA"),
            ("Toronto, ON M5V 2T6", nil, "M5V 2T6", "M5V 2T6"),
            ("10115 Berlin", nil, "10115", "10115"),
            ("1012 AB Amsterdam", nil, "1012 AB", "1012 AB"),
            ("Sydney NSW 2000", nil, "2000", "2000"),
            ("55100 Kuala Lumpur", nil, "55100", "55100"),
            ("Qty 55100 units", nil, "", nil),
            ("Galway, H91 Y6H6", nil, "H91 Y6H6", "H91 Y6H6"),
            ("Dublin 2, D02 X285, Ireland", nil, "D02 X285", "D02 X285"),
            // Not Eircodes: an identifier of digits only, or with a letter the code never uses.
            ("Part F10 4000 x2", nil, "", nil),
            ("Code A12 BX45", nil, "", nil),
        ]
        check(rows, .postalCode) { $0.postalCode }
        XCTAssertEqual(find("Galway, H91 Y6H6", .postalCode).first?.value.country, "IE")
    }

    /// Codes as OCR leaves them: a space lost between a state and its code, a letter O for a zero in a UK postcode,
    /// an Eircode whose identifier is all digits or all letters. Each only where the code closes its line or part.
    /// A code after a word that marks it, in the shape of the region's codes; `C.P.` is a post box where Spanish is not
    /// spoken.
    func testPostalCodesAfterTheirMark() {
        let rows: [(String, String?, String, String?)] = [
            ("Col. Insurgentes Mixcoac, C.P. 03920", "MX", "03920", "03920"),
            ("C.P. 66220, San Pedro Garza García, N.L.", "MX", "66220", "66220"),
            ("P.O. Box 1234, P.C. 112, Muscat", "OM", "112", "112"),
            ("Postal Code: 11564", nil, "11564", "11564"),
            ("PLZ 80331 München", "DE", "80331", "80331"),
            // Not a code: a post box in Switzerland and Italy, a code of the wrong shape, a mark that means other
            // things with no country known.
            ("Case postale C.P. 1234", "CH", "", nil),
            ("Casella C.P. 2041", "IT", "", nil),
            ("C.P. 123456", "MX", "", nil),
            ("CAP 20121", nil, "", nil),
            ("Wi-Fi PIN code 5821", nil, "", nil),
            ("ZIP 2000 Portable Drive", nil, "", nil),
            ("CÓDIGO POSTAL 06600", "MX", "06600", "06600"),
            // Russia's code first, a comma before its town.
            ("125009, Moscow,", "RU", "125009", "125009"),
            ("2019, London", nil, "", nil),
            // A dash or a bullet after the house number parts the code's part off (not after a word alone).
            ("Carrer de Pau Claris, 162 • 5º 2ª - 08037 Barcelona", nil, "08037", "08037"),
            ("18, avenue de Messine – 75008 Paris", nil, "75008", "75008"),
            ("Order - 12345 Total", nil, "", nil),
        ]
        check(rows, .postalCode) { $0.postalCode }
        // India's PIN before its state in brackets; Japan's mark read as `T` on a Japanese document only.
        let jaipur = find("E-14, Industrial Area, Sitapura\nJaipur- 302022 (Rajasthan)", .address, region: "IN").first
        XCTAssertEqual(jaipur?.value.postalCode, "302022")
        XCTAssertEqual(jaipur?.value.region, "Rajasthan")
        XCTAssertEqual(find("T604-8005\n2-14 Kawaramachi, Kyoto", .postalCode, region: "JP").first?.text, "604-8005")
        XCTAssertTrue(find("T604-8005", .postalCode, region: "US").isEmpty)
        XCTAssertTrue(find("T090-1234-5678", .postalCode, region: "JP").isEmpty)
        let muscat = find("P.O. Box 1234, P.C. 112, Muscat", .address, region: "OM").first?.value
        XCTAssertEqual(muscat?.city, "Muscat")
        let garza = find("Calzada San Pedro 318, Col. Del Valle\nC.P. 66220, San Pedro Garza García, N.L.", .address,
                         region: "MX").first?.value
        XCTAssertEqual(garza?.city, "San Pedro Garza García")
        // (The part after a marked code is the town only when it reads as one.)
        let phone = find("Av. Juárez 100, Col. Centro, C.P. 06000, Tel. 55 1234 5678", .address, region: "MX").first
        XCTAssertNil(phone?.value.city)
    }

    func testPostalCodesAsOCRReadsThem() {
        let rows: [(String, String?, String, String?)] = [
            ("116 Kimberly Circuit\nPort Leslieton, TAS6007\nAustralia", nil, "6007", "6007"),
            ("Austin, TX78701", nil, "78701", "78701"),
            ("North Gerald WoU 0FR\nUK", nil, "WoU 0FR", "W0U 0FR"),
            ("26 Clare Manors\nSouth Damien\nBO 0LP", nil, "BO 0LP", "B0 0LP"),
            ("Connie Ville\nW46 6343", nil, "W46 6343", "W46 6343"),
            ("Jemma Ville, K93 ACWF, Ireland", nil, "K93 ACWF", "K93 ACWF"),
            // No code: a model number at the start of a line or without a comma, a shop's hours, an ordinal, a
            // count after a code-like word inside a line.
            ("SA5000 charger", nil, "", nil),
            ("Printer WA6000", nil, "", nil),
            ("Open 9AM TO 5PM", nil, "", nil),
            ("Lot 12, NO 2ND", nil, "", nil),
            ("Bin W46 6343 x2", nil, "", nil),
            ("C02102772\n9/2/2017 12:00 PM\nT03 2006", nil, "", nil),
            // York's `YO1` with its O read as a zero; an article's code no postcode area opens (`A19`, `Q12`).
            ("14 Stonegate\nYork Y01 8AS", nil, "Y01 8AS", "YO1 8AS"),
            ("LED BULB A19 4PK 9.97", nil, "", nil),
            ("Filter Q12 5TX", nil, "", nil),
        ]
        check(rows, .postalCode) { $0.postalCode }
        XCTAssertEqual(find("Port Leslieton, TAS6007", .postalCode).first?.value.region, "TAS")
        XCTAssertEqual(find("Connie Ville\nW46 6343", .postalCode).first?.value.country, "IE")
    }

    /// Four-digit codes before a town (Austria, Switzerland, Belgium, Denmark...) under a street
    /// that ends with its house number, or with a country name near; not a US street's number.
    func testFourDigitPostalCodes() {
        XCTAssertEqual(find("Bahnhofstrasse 12\n8001 Zürich", .postalCode).first?.value.postalCode, "8001")
        XCTAssertEqual(find("Rue Neuve 4b\n1000 Bruxelles", .postalCode).first?.value.postalCode, "1000")
        let wien = find("Kärntner Ring 5\n1010 Wien\nÖsterreich", .postalCode).first?.value
        XCTAssertEqual(wien?.postalCode, "1010")
        XCTAssertEqual(wien?.country, "AT")
        XCTAssertEqual(find("8636 Laa an der Thaya, Austria", .postalCode).first?.value.postalCode, "8636")
        XCTAssertTrue(
            find("Jane Doe\n1500 Broadway\nNew York, NY 10036", .postalCode).allSatisfy {
                $0.value.postalCode != "1500"
            })
        XCTAssertTrue(find("Invoice 2019 Summary", .postalCode).isEmpty)
    }

    /// Codes printed last on the town's line: Singapore's and India's six digits, Japan's three and four after `〒`
    /// or in Japan, Brazil's CEP after the state; six digits with no such country are left alone.
    func testCodesThatCloseTheTownsLine() {
        let sg = find("1 Raffles Place, #20-01, Singapore 048616", .address).first?.value
        XCTAssertEqual(sg?.postalCode, "048616")
        XCTAssertEqual(sg?.city, "Singapore")
        XCTAssertEqual(find("Bengaluru, Karnataka 560038, India", .postalCode).first?.value.country, "IN")
        XCTAssertEqual(find("Mumbai - 400021\nMaharashtra, India", .postalCode).first?.value.postalCode, "400021")
        // With the region India, after a town's words only: a labelled number is none.
        XCTAssertEqual(find("Mumbai - 400021", .postalCode, region: "IN").first?.value.postalCode, "400021")
        XCTAssertEqual(find("Bengaluru, Karnataka 560038", .postalCode, region: "IN").first?.value.country, "IN")
        XCTAssertTrue(find("Mumbai - 400021", .postalCode, region: "US").isEmpty)
        // After an en or em dash as after a hyphen.
        XCTAssertEqual(find("Bengaluru – 560025, Karnataka", .postalCode, region: "IN").first?.value.postalCode, "560025")
        XCTAssertEqual(find("Bengaluru — 560025", .postalCode, region: "IN").first?.value.postalCode, "560025")
        for text in ["Invoice 123456, paid", "Bill No - 123456", "Auth Code, 654321", "Token - 204518",
                     "Table, Server 123456", "Bill No – 123456"] {
            XCTAssertTrue(find(text, .postalCode, region: "IN").isEmpty, text)
        }
        XCTAssertTrue(find("Order 123-4567", .postalCode, region: "JP").isEmpty)
        XCTAssertEqual(find("〒100-0005 Tokyo", .postalCode).first?.value.country, "JP")
        XCTAssertEqual(find("3-5-7 Umeda, Kita-ku, Osaka 530-0001, Japan", .address).first?.value.city, "Osaka")
        let br = find("Av. Paulista, 1578 - Bela Vista, São Paulo - SP, 01310-200", .address).first?.value
        XCTAssertEqual(br?.postalCode, "01310-200")
        XCTAssertEqual(br?.city, "São Paulo")
        XCTAssertEqual(br?.region, "SP")
        XCTAssertEqual(find("Rio de Janeiro/RJ 20011-000", .postalCode).first?.value.country, "BR")
    }

    /// Sweden's (and Czechia's, Slovakia's, Greece's) three digits and two before a town: at a line's start, after a
    /// comma, or after the street's house number on the same line; a phone's groups have no town after them.
    func testThreeAndTwoDigitPostalCodes() {
        for text in ["Storgatan 12\n114 32 Stockholm", "Drottninggatan 5, 111 51 Stockholm"] {
            XCTAssertEqual(find(text, .postalCode).first?.value.postalCode?.count, 6, text)
            XCTAssertEqual(find(text, .address).first?.text, text, text)
        }
        XCTAssertEqual(find("Fieldsangränd 223 711 71 Yorcasol", .postalCode).first?.value.postalCode, "711 71")
        XCTAssertEqual(find("Vinohradská 12\n120 00 Praha 2\nCzech Republic", .postalCode).first?.value.country, "CZ")
        // Taiwan's three digits after its city, beside the five and six that GeoNames alone gives.
        let taipei = find("9F, No. 35, Sec. 2, Minsheng E. Rd.\nZhongshan Dist., Taipei City 104", .address, region: "TW")
        XCTAssertEqual(taipei.first?.value.postalCode, "104")
        for text in ["Tel 08-123 45 67", "Tfn: 08-736 37\nKvitto 12", "Bord 123 45 Gäster", "Qty 123 45"] {
            XCTAssertTrue(find(text, .postalCode).isEmpty, text)
        }
    }

    /// A street, its code and its town on one line: four digits after the street's house number (Denmark, Norway,
    /// Austria...), with a comma or without, where the street has a street word or ending or the region writes four
    /// digits; a code of three and two after a street with no comma. A unit's number (`Suite 12`) is no street.
    func testOneLineAddressesWithTheStreetFirst() {
        for (text, code, street, region) in [
            ("Vesterbrogade 12, 1620 København V", "1620", "Vesterbrogade 12", nil as String?),
            ("Fistonyortorv 29 3029 Velmarwen", "3029", "Fistonyortorv 29", nil),
            ("Drottninggatan 5 411 14 Göteborg", "411 14", "Drottninggatan 5", nil),
            ("Karl Johans gate 1, 0154 Oslo", "0154", "Karl Johans gate 1", "NO"),
            ("Marktplatz 3, 4051 Basel", "4051", "Marktplatz 3", "CH"),
            // Capitals: a marked ending is found in any case.
            ("KUNGSVÄGEN 12 114 32 STOCKHOLM", "114 32", "KUNGSVÄGEN 12", nil),
            ("LILLE STRÆDE 4, 1620 KØBENHAVN V", "1620", "LILLE STRÆDE 4", nil)
        ] {
            let address = find(text, .address, region: region).first
            XCTAssertEqual(address?.text, text, text)
            XCTAssertEqual(address?.value.postalCode, code, text)
            XCTAssertEqual(address?.value.street, street, text)
        }
        // Parts set apart by a middle dot, a bullet or a spaced bar, as centred cards print them, are parts.
        for (text, code, street, region) in [
            ("24 quai Saint-Antoine · 69002 Lyon", "69002", "24 quai Saint-Antoine", nil as String?),
            ("Marktplatz 3 • 4051 Basel", "4051", "Marktplatz 3", "CH"),
            ("Vesterbrogade 12 | 1620 København V", "1620", "Vesterbrogade 12", nil),
            ("Ballindamm 17·20095 Hamburg", "20095", "Ballindamm 17", nil),
        ] {
            let address = find(text, .address, region: region).first
            XCTAssertEqual(address?.text, text, text)
            XCTAssertEqual(address?.value.postalCode, code, text)
            XCTAssertEqual(address?.value.street, street, text)
        }
        XCTAssertEqual(DataDetector.addressPartsAsCommas("Rua Augusta 10 · Lisboa"), "Rua Augusta 10,   Lisboa")
        XCTAssertEqual(DataDetector.addressPartsAsCommas("A|B"), "A|B", "a bar glued to letters may be an l")
        XCTAssertEqual(DataDetector.addressPartsAsCommas("Av. del Paral·lel 106"), "Av. del Paral·lel 106", "Catalan")
        // Oslo's codes open with a zero only where the region is Norway (or the text names Norway's capital, a sign of
        // the region); a unit's number starts no address.
        XCTAssertTrue(find("Karl Johans gate 1, 0154 Sentrum", .postalCode).isEmpty)
        XCTAssertEqual(find("Karl Johans gate 1, 0154 Oslo", .postalCode).first?.text, "0154")
        for text in ["Suite 12, 1500 Broadway", "Table 12 2019 Total", "PO Box 12 114 32 Stockholm"] {
            XCTAssertTrue(find(text, .address).isEmpty, text)
        }
    }

    /// A postal code after its country's letters and a hyphen (`DK-1620`, `SE-114 32`, `CH-8001`, `N-0154`): the
    /// country named, the code of its shape; after one letter only where the line or a part of it opens so.
    func testPostalCodesAfterTheirCountrysLetters() {
        for (text, code, country) in [
            ("Vesterbrogade 12\nDK-1620 København V", "1620", "DK"), ("Storgatan 12\nSE-114 32 Stockholm", "114 32", "SE"),
            ("Karl Johans gate 1, N-0154 Oslo", "0154", "NO"), ("Bahnhofstrasse 12\nCH-8001 Zürich", "8001", "CH"),
            ("Rue Neuve 4, F-75008 Paris", "75008", "FR"), ("Vesterbrogade 12, DK-1620 København V", "1620", "DK")
        ] {
            let found = find(text, .postalCode).first
            XCTAssertEqual(found?.value.postalCode, code, text)
            XCTAssertEqual(found?.value.country, country, text)
            XCTAssertEqual(find(text, .address).first?.value.postalCode, code, text)
        }
        for text in ["Unit A-1234 Main St", "DK-12345 Town", "SE-1234 Stockholm"] {
            XCTAssertTrue(find(text, .postalCode).isEmpty, text)
        }
    }

    /// Brazil's CEP, Portugal's and Poland's codes: digits, a hyphen and three more, a grouping no phone plan uses, so
    /// the phone reading of the same digits gives way; after `CEP`, or before a town.
    func testHyphenedPostalCodesAreNoPhones() {
        for (text, code, country) in [
            ("CEP 05517-454", "05517-454", "BR"), ("CEP: 01310-100", "01310-100", "BR"),
            ("01310-100 São Paulo - SP", "01310-100", "BR"), ("1000-001 Lisboa", "1000-001", "PT"),
            ("Largo Velville, 137 4559-318 Tonzo", "4559-318", "PT"),
            ("00-950 Warszawa", "00-950", "PL"), ("ul. Piotrkowska 12, 90-406 Łódź", "90-406", "PL")
        ] {
            let found = find(text, .postalCode).first?.value
            XCTAssertEqual(found?.postalCode, code, text)
            XCTAssertEqual(found?.country, country, text)
            XCTAssertTrue(find(text, .phone).isEmpty, text)
        }
        // A reference of the same shape with no town after it, and a Brazilian phone (4 and 4), are no postal codes.
        XCTAssertTrue(find("Ref 12345-678", .postalCode).isEmpty)
        XCTAssertTrue(find("Nr 12-345 z dnia", .postalCode).isEmpty)
        // Two digits and three before a street are a house number, as Hawaii and Queens print them.
        XCTAssertTrue(
            find("92-161 Waipahe Place\nKapolei, HI 96707", .postalCode).allSatisfy { $0.value.country != "PL" })
        XCTAssertTrue(find("37-12 Main St", .postalCode).isEmpty)
        XCTAssertTrue(find("Tel 3456-7890", .postalCode).isEmpty)
        XCTAssertEqual(find("Tel 3456-7890", .phone).count, 1)
        // A US ZIP+4 after its state, whatever its first digits, is no phone; a phone beside it still is one.
        for text in ["88 Orchard Lane, Fairhaven, DC 00614-2207", "Fairhaven, NY 12345-6789 · 212-555-0142"] {
            XCTAssertEqual(find(text, .postalCode).first?.value.country, "US", text)
            XCTAssertTrue(find(text, .phone).allSatisfy { $0.text == "212-555-0142" }, text)
        }
        XCTAssertEqual(find("Fairhaven, NY 12345-6789 · 212-555-0142", .phone).count, 1)
    }

    func testAddress() {
        let text = "ACME Ltd\n221B Baker Street\nLondon NW1 6XE\nUnited Kingdom\nTel 020 7946 0000"
        let a = find(text, .address)
        XCTAssertEqual(a.count, 1)
        XCTAssertEqual(a.first?.text, "221B Baker Street\nLondon NW1 6XE\nUnited Kingdom")
        XCTAssertEqual(a.first?.value.street, "221B Baker Street")
        XCTAssertEqual(a.first?.value.city, "London")
        XCTAssertEqual(a.first?.value.postalCode, "NW1 6XE")
        XCTAssertEqual(a.first?.value.country, "GB")
        let us = find("Ship to: 1600 Main St, Springfield, IL 62704", .address)
        XCTAssertEqual(us.first?.value.city, "Springfield")
        XCTAssertEqual(us.first?.value.region, "IL")
        XCTAssertEqual(us.first?.value.street, "1600 Main St")
        // Street words of Central and Eastern Europe and romanized Cyrillic name the street a town's code follows.
        for (text, region) in [
            ("vul. Sumska 12\nKharkiv, 61002", "UA"), ("Bajcsy-Zsilinszky út 14\nBudapest, 1065", "HU"),
            ("Brīvības iela 88\nRīga, 1001", "LV"), ("Jl. Dago No. 21\nBandung 40135", "ID"),
        ] {
            XCTAssertEqual(find(text, .address, region: region).first?.text, text, text)
        }
        let ie = find("388 George Way, Suite 208\nGalway, H91 Y6H6", .address)
        XCTAssertEqual(ie.first?.value.street, "388 George Way, Suite 208")
        XCTAssertEqual(ie.first?.value.city, "Galway")
        XCTAssertEqual(ie.first?.value.country, "IE")
        XCTAssertTrue(find("Thank you for shopping", .address).isEmpty)
    }

    /// A day, `de` and a month after a street's word are the street's name (`Av. 9 de Julio 1120`, `Calle 5 de Mayo
    /// 23`, `Rua 25 de Março 1200`), whose number is the house's; a date after its label or after a street in English
    /// stays a date.
    func testStreetsNamedAfterADate() {
        XCTAssertTrue(find("Av. 9 de Julio 1120", .date).isEmpty)
        XCTAssertTrue(find("Calle 5 de Mayo 23", .date).isEmpty)
        XCTAssertTrue(find("Rua 25 de Março 1200", .date).isEmpty)
        XCTAssertEqual(find("Fecha: 9 de julio de 2021", .date).first?.value.date, "2021-07-09")
        XCTAssertEqual(find("Main St 5 May 2021", .date).first?.value.date, "2021-05-05")
    }

    /// Any country's code in the shape GeoNames gives it, where the country is printed after it in any of its names
    /// (`Kingdom of Saudi Arabia`, `Thailand` with no comma, `- Perú`), or the town before it is one of that country's
    /// large cities (`Seoul 06016`, `Lviv 79000`), or a named street stands before and the region is the country.
    func testAnyCountrysCodeByItsShape() {
        func code(_ text: String, region: String? = nil) -> (String?, String?) {
            let c = find(text, .postalCode, region: region).first?.value
            return (c?.postalCode, c?.country)
        }
        XCTAssertTrue(code("P.O. Box 52312, Riyadh 11563, Kingdom of Saudi Arabia") == ("11563", "SA"))
        XCTAssertTrue(code("Watthana\nBangkok 10110 Thailand") == ("10110", "TH"))
        XCTAssertTrue(code("Av. José Larco 1232, Of. 801, Miraflores, Lima 15074 - Perú") == ("15074", "PE"))
        XCTAssertTrue(code("2F, 45 Dosan-daero 45-gil, Gangnam-gu, Seoul 06016") == ("06016", "KR"))
        XCTAssertTrue(code("12 Yad Harutzim St., Talpiot, Jerusalem 9342148") == ("9342148", "IL"))
        XCTAssertTrue(code("26 Road 9, Maadi, Cairo 11431", region: "EG") == ("11431", "EG"))
        // A large city's name that holds a label's word; any country's two letters before its code.
        XCTAssertTrue(code("132 Menachem Begin Rd., Tel Aviv 6701101, Israel") == ("6701101", "IL"))
        XCTAssertTrue(code("Gedimino pr. 20, LT-01103 Vilnius, Lietuva") == ("01103", "LT"))
        XCTAssertNil(code("Tel 6701101").0)
        XCTAssertNil(code("LT-1234 Main").0)
        // A code before its town, the country named in the line's last part (and in the country's shape).
        XCTAssertTrue(code("600 Akureyri, Iceland") == ("600", "IS"))
        XCTAssertNil(code("500 Main Office, Canada").0)
        XCTAssertNil(code("1200 Tacos, Mexico").0)
        // A city that opens a shop's name or a dish's, a year after a city, a country's other names after a number, a
        // post box under a street, and two letters that are no country printed or city after them: none.
        XCTAssertNil(code("Seoul Chicken 18000", region: "KR").0)
        XCTAssertNil(code("Vienna 2024").0)
        XCTAssertNil(code("Club Sandwich 12500 Turkey").0)
        XCTAssertNil(code("Malbec 2020\nArgentina").0)
        XCTAssertNil(code("SN-12345 Samsung Galaxy").0)
        XCTAssertTrue(code("Bahnhofstrasse 12\nPostfach 1234\n8021 Zürich", region: "CH") == ("8021", "CH"))
        // Of another shape than the country's, printed in no address's place, or after no town: none.
        XCTAssertNil(code("Seoul 0601").0)
        XCTAssertNil(code("Roast Turkey 12345").0)
        XCTAssertNil(code("Grilled Chile 12345").0)
        XCTAssertNil(code("Table 12345, Thailand").0)
        // A country's name that is also a dish's or a given name counts only in an address's place.
        XCTAssertEqual(DataDetector.countryCode(named: "Chile"), "CL")
        XCTAssertEqual(DataDetector.countryCode(named: "Taiwan (R.O.C.)"), "TW")
        XCTAssertEqual(DataDetector.countryCode(named: "Lietuva"), "LT")
        let detector = try! DataDetector(types: [.address], referenceDate: CalendarDay(iso: "2024-06-01"))
        XCTAssertNil(detector.context(for: ["Chile con carne 8.50"]).region)
    }

    func testACodeAfterAStreetAndATownOfNoCountryNamed() {
        // The address runs on from a named street: on the code's line, or on the line above ending with a comma.
        let thai = find("159/3 Nimmanhaemin Rd., Suthep, Mueang,\nChiang Mai 50200", .address).first?.value
        XCTAssertEqual(thai?.postalCode, "50200")
        XCTAssertNil(thai?.country)
        XCTAssertEqual(find("88 Wireless Road, Lumphini, Pathum Wan 10330", .postalCode).first?.value.postalCode, "10330")
        // A street over a line of labels and a number is no address, also where the street's line ends with a comma:
        // one part before the label's, a one-word label, a year.
        for text in ["123 Main Street\nCustomer Number 45678", "12 Oak Avenue\nThank You 20450",
                     "Av. Central 45\nMesa Cinco 12345", "14 Bridge Road,\nCustomer Number 45678",
                     "88 Harbour Road, Wanchai,\nTrans 45112", "9 Elm Street, Mayfair,\nOpened 2019",
                     "14 Bridge Road,\nMember 20451"] {
            XCTAssertTrue(find(text, .postalCode).isEmpty, text)
        }
    }

    func testAPostBoxWhereTheStreetWouldStand() {
        // A post box stands where the street would before a town and its code (`PO Box 412, Paraparaumu 5254`).
        let nz = find("PO Box 412, Paraparaumu 5254", .address, region: "NZ").first?.value
        XCTAssertEqual(nz?.postalCode, "5254")
        XCTAssertEqual(nz?.city, "Paraparaumu")
        XCTAssertEqual(find("PO Box 1123\nDurban, 4000", .postalCode, region: "ZA").first?.value.postalCode, "4000")
        XCTAssertTrue(find("P.O. Box 12, Est. 1998", .postalCode, region: "NZ").isEmpty)
        XCTAssertTrue(AddressDetector.isPostBox("P.O. Box 1123"))
        XCTAssertFalse(AddressDetector.isPostBox("Boxing Day 2024"))
    }

    func testLargeCitiesThatTheWordListsAndLocalesNameToo() {
        // Capitals the locales list as regions (`BUDAPEST`, `İSTANBUL`) or a dictionary holds in lower case
        // (`bangkok`, `beijing` in `hunspell-id`) are cities still; a word that inflects there (`surat`) is not.
        func code(_ text: String) -> String? { find(text, .postalCode).first?.value.country }
        XCTAssertEqual(code("Budapest 1051"), "HU")
        XCTAssertEqual(code("Istanbul 34394"), "TR")
        XCTAssertEqual(code("Jakarta 10220"), "ID")
        XCTAssertEqual(code("Beijing 100020"), "CN")
        func city(_ name: String) -> String? {
            let s = ScanText(name)
            return DataDetector.cityRegion(s, 0, s.count)?.0
        }
        XCTAssertEqual(city("bangkok"), "TH")
        XCTAssertNil(city("surat"))
        // A country's name is no city of another (`Benin City` is Nigeria's).
        XCTAssertNil(city("benin"))
    }

    /// Codes printed after the town: four digits in New Zealand and South Africa (`Wellington 6011`, `Johannesburg,
    /// 2196`), India's PIN in two groups or after a town with no comma, Japan's by the region alone, and Argentina's
    /// CPA before the town. A year after its word (`Since 2004`) is none.
    func testCodesAfterTheTownAndArgentinasCPA() {
        let nz = find("88 The Terrace\nWellington 6011", .address, region: "NZ")
        XCTAssertEqual(nz.first?.value.city, "Wellington")
        XCTAssertEqual(nz.first?.value.postalCode, "6011")
        XCTAssertEqual(nz.first?.value.street, "88 The Terrace")
        // The country printed under it says so without a region.
        XCTAssertEqual(find("Level 3, 120 Albert Street\nAuckland 1010\nNew Zealand", .address).first?.value.country, "NZ")
        let za = find("15 Alice Lane, Sandton\nJohannesburg, 2196", .address, region: "ZA")
        XCTAssertEqual(za.first?.value.city, "Johannesburg")
        XCTAssertEqual(
            find("12 Dorp Street, Stellenbosch, 7600", .address, region: "ZA").first?.value.street, "12 Dorp Street")
        let mumbai = find("401, Trade Centre, Bandra Kurla Complex\nMumbai 400 051, Maharashtra, India", .address)
        XCTAssertEqual(mumbai.first?.value.postalCode, "400 051")
        XCTAssertEqual(mumbai.first?.value.city, "Mumbai")
        XCTAssertEqual(
            find("No. 12, 3rd Cross, Indiranagar\nBengaluru 560038", .address, region: "IN").first?.value.city,
            "Bengaluru")
        XCTAssertEqual(
            find("1-2-3 Shibuya, Shibuya-ku\nTokyo 150-0002", .address, region: "JP").first?.value.postalCode,
            "150-0002")
        let ar = find("Av. Corrientes 1234, Piso 8\nC1043AAZ Buenos Aires", .address, region: "AR")
        XCTAssertEqual(ar.first?.value.postalCode, "C1043AAZ")
        XCTAssertEqual(ar.first?.value.city, "Buenos Aires")
        XCTAssertEqual(ar.first?.value.country, "AR")
        // The CPA's short form, the province's letter and the town's four digits, where it opens its line.
        XCTAssertEqual(
            find("Bv. San Juan 456\nX5000 Córdoba", .address, region: "AR").first?.value.postalCode, "X5000")
        XCTAssertTrue(find("Modelo X5000 Pro", .postalCode, region: "AR").isEmpty)
        XCTAssertTrue(find("X5000 Taladro 45.000,00", .postalCode, region: "AR").isEmpty)
        // A code alone in the line's last part, after a town and its region, whose name has small joining words.
        XCTAssertEqual(
            find("Carrera 7 # 71-21\nBogotá, Distrito Capital, 110231", .address, region: "CO").first?.value.postalCode,
            "110231")
        XCTAssertEqual(
            find("Carrera 7 # 71-21\nPopayán, Valle del Cauca 190003", .address, region: "CO").first?.value.postalCode,
            "190003")
        // A region's abbreviation with its stop between the town and the code.
        XCTAssertEqual(
            find("Av. Insurgentes 1450\nIrapuato, Gto. 36500", .address, region: "MX").first?.value.postalCode, "36500")
        // A UK postcode whose space OCR lost, on a British document.
        XCTAssertEqual(find("Leeds LS11UR", .postalCode, region: "GB").first?.value.postalCode, "LS1 1UR")
        XCTAssertTrue(find("Leeds LS11UR", .postalCode, region: "US").isEmpty)
        for text in ["VOUCHER CODE SE12XY", "Staff NE12AB", "PLU BS14GN"] {
            XCTAssertTrue(find(text, .postalCode, region: "GB").isEmpty, text)
        }
        // Not a year, not a till's number, not a code where the region writes none after the town.
        XCTAssertTrue(find("Main Road 12\nSince 2004", .address, region: "NZ").isEmpty)
        XCTAssertTrue(find("88 The Terrace\nStore 6011", .address, region: "NZ").isEmpty)
        XCTAssertTrue(find("88 The Terrace\nWellington 6011", .address, region: "US").isEmpty)
        XCTAssertTrue(find("Order 150-0002", .postalCode, region: "JP").isEmpty)
        XCTAssertTrue(find("Member 123-4567", .postalCode, region: "JP").isEmpty)
        XCTAssertTrue(find("Order A1234BCD", .postalCode).isEmpty)
        // An article's line under another is no street and town (`COKE 600ML` over `PEPSI 1500`), nor a sum's label.
        XCTAssertTrue(find("COKE 600ML\nPEPSI 1500", .postalCode, region: "AU").isEmpty)
        XCTAssertTrue(find("12 George Street\nPoints Balance 2500", .postalCode, region: "AU").isEmpty)
        XCTAssertTrue(find("MG Road\nButter Naan 120 240", .postalCode, region: "IN").isEmpty)
    }

    /// An address inside a sentence, or followed by a contact on its line, is only the address.
    func testAnAddressEndsWhereASentenceOrAContactBegins() {
        let prose = find("Visit us at 500 Market St, San Francisco, CA 94105. We open at 9.", .address).first
        XCTAssertEqual(prose?.text, "500 Market St, San Francisco, CA 94105")
        XCTAssertEqual(prose?.value.street, "500 Market St")
        XCTAssertEqual(prose?.value.city, "San Francisco")
        XCTAssertEqual(find("500 Market St, San Francisco, CA 94105. Tel (415) 555-0100", .address).first?.text,
                       "500 Market St, San Francisco, CA 94105")
        let berlin = find("Friedrichstraße 68, 10117 Berlin Tel 030 1234567", .address).first
        XCTAssertEqual(berlin?.text, "Friedrichstraße 68, 10117 Berlin")
        XCTAssertEqual(berlin?.value.city, "Berlin")
        XCTAssertEqual(find("Friedrichstraße 68, 10117 Berlin. Fax 030 1234567", .address).first?.value.city, "Berlin")
        // A stop after a short word is an abbreviation's; lower-case words of a street's name are no sentence.
        XCTAssertEqual(find("Rue du Marché 4, 9000 St. Gallen", .address).first?.value.city, "St. Gallen")
        let paris = find("Come and see us at 12 rue de la Paix, 75002 Paris", .address).first
        XCTAssertEqual(paris?.value.street, "12 rue de la Paix")
        XCTAssertEqual(find("388 George Way, Suite 208\nGalway, H91 Y6H6", .address).first?.value.street,
                       "388 George Way, Suite 208")
    }

    func testIBANAndCards() {
        check([
            ("IBAN: DE89 3704 0044 0532 0130 00", nil, "DE89 3704 0044 0532 0130 00", "DE89370400440532013000"),
            ("GB29NWBK60161331926819", nil, "GB29NWBK60161331926819", "GB29NWBK60161331926819"),
            ("IBAN DE89 3704 0044 0532 0130 01", nil, "", nil), // bad checksum
        ], .iban) { $0.iban }
        check([
            ("VISA 4111 1111 1111 1111", nil, "4111 1111 1111 1111", "visa 1111"),
            ("Amex 3782 822463 10005", nil, "3782 822463 10005", "amex 0005"),
            ("MASTERCARD **** **** **** 4444", nil, "**** **** **** 4444", "mastercard 4444"),
            ("Card XXXX-XXXX-XXXX-1234", nil, "XXXX-XXXX-XXXX-1234", nil),
            ("4111 1111 1111 1112", nil, "", nil), // Luhn fails
        ], .paymentCard) { "\($0.brand ?? "") \($0.last4 ?? "")" }
    }

    func testRangesAreUnicodeScalarOffsets() {
        let text = "Café ☕️ — 電話 +33 1 42 68 53 00, €4,50"
        let d = try! DataDetector()
        let scalars = Array(text.unicodeScalars)
        let found = d.detect(in: text)
        for e in found {
            var view = String.UnicodeScalarView()
            view.append(contentsOf: scalars[e.range.start..<e.range.end])
            XCTAssertEqual(String(view), e.text)
        }
        XCTAssertTrue(found.contains { $0.type == .money && $0.value.amount == "4.50" && $0.value.currency == "EUR" })
        XCTAssertTrue(found.contains { $0.type == .phone && $0.value.e164 == "+33142685300" })
    }

    func testOCRConfusionsNeverChangeWords() {
        let d = try! DataDetector()
        let e = d.detect(in: "BOSS Lobby, email SOLO@BISTRO.COM, total $1O.5O")
        XCTAssertTrue(e.contains { $0.type == .email && $0.value.address == "solo@bistro.com" })
        XCTAssertTrue(e.contains { $0.type == .money && $0.value.amount == "10.50" })
        XCTAssertFalse(e.contains { $0.text.contains("BOSS") || $0.text.contains("Lobby") })
    }

    func testInvalidOptions() {
        XCTAssertThrowsError(try DataDetector(region: "USA"))
        XCTAssertNil(CalendarDay(iso: "2024-13-01"))
        XCTAssertNil(CalendarDay(iso: "20240101"))
    }

    func testEntityJSONShape() throws {
        let d = try DataDetector(types: [.phone], region: "US")
        let e = d.detect(in: "Tel (415) 555-0100")
        let enc = JSONEncoder()
        enc.outputFormatting = [.sortedKeys]
        let json = String(decoding: try enc.encode(e), as: UTF8.self)
        XCTAssertEqual(
            json,
            #"[{"range":{"end":18,"start":4},"text":"(415) 555-0100","type":"phone","value":{"e164":"+14155550100","national":"4155550100","region":"US"}}]"#
        )
        let back = try JSONDecoder().decode([Entity].self, from: Data(json.utf8))
        XCTAssertEqual(back, e)
    }

    func testDocumentContextAcrossPages() {
        let d = try! DataDetector(types: [.date, .phone])
        let pages = ["Rechnung vom 28/02/2023", "Lieferung 03/04/2023\nTel 030 1234567\nDeutschland"]
        let ctx = d.context(for: pages)
        XCTAssertEqual(ctx.region, "DE")
        XCTAssertEqual(ctx.dayFirst, true)
        let second = d.detect(in: pages[1], context: ctx)
        XCTAssertEqual(second.first { $0.type == .date }?.value.date, "2023-04-03")
        XCTAssertEqual(second.first { $0.type == .phone }?.value.e164, "+49301234567")
    }

    /// Codes that are also words on receipts name a currency only beside an amount with decimals, and not where another
    /// region is known; other codes are unchanged.
    func testCodesThatAreAlsoWords() {
        func money(_ text: String, region: String? = nil) -> [String] {
            find(text, .money, region: region).map { "\($0.text)=\($0.value.currency ?? "-")" }
        }
        XCTAssertEqual(money("3 PEN"), [])
        XCTAssertEqual(money("RON 95 PETROL"), [])
        XCTAssertEqual(money("KEDAI ABC SDN BHD 50118"), [])
        XCTAssertEqual(money("CNY 2016 PROMOTION"), [])
        XCTAssertEqual(money("BALL PEN 7.50", region: "MY"), ["7.50=-"])
        XCTAssertEqual(money("BALL PEN 7.50"), ["7.50=-"])
        XCTAssertEqual(money("PEN 7.50"), ["PEN 7.50=PEN"])
        XCTAssertEqual(money("Amount: PEN 7.50"), ["PEN 7.50=PEN"])
        XCTAssertEqual(money("Total PEN 7.50", region: "PE"), ["PEN 7.50=PEN"])
        XCTAssertEqual(money("Total 20.50 PEN"), ["20.50 PEN=PEN"])
        XCTAssertEqual(money("Paid 20 USD, 10 CHF"), ["20 USD=USD", "10 CHF=CHF"])
    }

    /// A country named on its own, by name in several languages or by a code with a numbering plan.
    func testCountryNamedOnItsOwn() {
        let rows: [(String, String?)] = [
            ("Deutschland", "DE"), ("GERMANY", "DE"), ("U.S.A.", "US"), ("USA", "US"), ("UK", "GB"), ("España", "ES"),
            ("ES", "ES"), ("nl", "NL"), (" FR. ", "FR"),
            // Official and local forms printed under an address.
            ("Republic of Korea", "KR"), ("Hong Kong SAR", "HK"), ("K.S.A.", "SA"), ("Northern Ireland", "GB"),
            // (Not a surname that names a country elsewhere: `Tom Holland`.)
            ("Holland", nil),
            ("Berlin", nil), ("XX", nil), ("ZZ", nil), ("", nil), ("United", nil), ("GERMANY 2", nil),
        ]
        for (text, code) in rows { XCTAssertEqual(DataDetector.countryCode(named: text), code, text) }
    }

    /// Ones that OCR read as `I` or `l` in an international number's words of their own (old-style figures, thin
    /// fonts) are ones; the same letters elsewhere stay letters.
    func testOnesReadAsLettersInInternationalNumbers() {
        let rows: [(String, String)] = [
            ("T +94 II 243 7815", "+94112437815"), ("+55 I I 3045-2817", "+551130452817"),
            ("Mobile: +I 502 282 2432", "+15022822432"), ("Tel +91 II 3500 8999", "+911135008999"),
        ]
        for (text, e164) in rows { XCTAssertEqual(find(text, .phone).first?.value.e164, e164, text) }
        XCTAssertEqual(ScanText("Phase II 25 + 3 Road").num, ScanText("Phase II 25 + 3 Road").bytes)
        XCTAssertEqual(ScanText("+44 20 II").num, ScanText("+44 20 II").bytes)
        // (Not after a `+` inside a receipt's line, nor after a country code with a decimal point.)
        XCTAssertTrue(find("Diesel +45.2 l 1.899", .phone).isEmpty)
    }

    /// A large city's own name tells its country though another, larger city lists it among its other names
    /// (GeoNames gives Mashhad `Alexandria`, Chattogram `Islamabad`): a code after it is that country's.
    func testCitiesThatOthersAlsoGoBy() {
        XCTAssertEqual(DataDetector.largeCityCountry("alexandria"), "EG")
        XCTAssertEqual(DataDetector.largeCityCountry("islamabad"), "PK")
        // (Not a smaller city's name that people bear too.)
        XCTAssertNil(DataDetector.largeCityCountry("vladimir"))
        XCTAssertNil(DataDetector.largeCityCountry("stockton"))
        let a = find("27 Fouad Street, 3rd Floor\nRaml Station, Alexandria 21519", .address).first
        XCTAssertEqual(a?.value.country, "EG")
        XCTAssertEqual(find("Blue Area, Islamabad 44000", .postalCode).first?.value.country, "PK")
    }

    /// A one-word large city alone on its line tells the country under a line with figures (an address's), not in a
    /// name set one word a line (`ADELAIDE` / `SMITH`).
    func testACityAloneOnItsLineUnderAnAddress() {
        XCTAssertEqual(find("P.O. Box 1234\nDubai\nTel 04 123 4567", .phone).first?.value.e164, "+97141234567")
        XCTAssertNil(find("ADELAIDE\nSMITH\nMobile 0412 345 678", .phone).first?.value.e164)
    }

    /// Two numbers printed side by side with no mark between them are two, where the run is no number of the plan and
    /// each half is one; a long run no plan knows, whose rest is none, stays whole.
    func testTwoNumbersSideBySide() {
        let two = find("0733 582 106 0711 249 870", .phone, region: "KE")
        XCTAssertEqual(two.map(\.value.e164), ["+254733582106", "+254711249870"])
        XCTAssertEqual(find("0733 582 106 07", .phone, region: "KE").count, 1)
    }

    /// South Asia's street words name a street with no house number over the town (`Marg`, `Salai`).
    func testSouthAsianStreetWords() {
        let a = find("Chaksibari Marg, Thamel\nKathmandu 44600, Nepal", .address).first
        XCTAssertEqual(a?.value.street, "Chaksibari Marg, Thamel")
        XCTAssertEqual(find("Anna Salai, Teynampet\nChennai 600018", .address, region: "IN").first?.value.street,
                       "Anna Salai, Teynampet")
    }
}
