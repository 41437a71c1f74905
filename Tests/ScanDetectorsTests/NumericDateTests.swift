import XCTest
@testable import ScanDetectors

/// The lenient numeric date readers the receipt parser uses after the detector.
final class NumericDateTests: XCTestCase {
    func testDatesGluedToALabelOrATime() {
        XCTAssertEqual(NumericDate.anywhere(in: "Date:15/01/2018", monthFirst: false).map(\.iso), ["2018-01-15"])
        XCTAssertEqual(NumericDate.anywhere(in: "9/3/201820:54:50", monthFirst: false).first?.iso, "2018-03-09")
        XCTAssertEqual(NumericDate.anywhere(in: "9/3/201820:54:50", monthFirst: true).first?.iso, "2018-09-03")
        let found = NumericDate.anywhere(in: "Tarikh 2018-07-06 10:00", monthFirst: false)
        XCTAssertEqual(found.map(\.iso), ["2018-07-06"])
        XCTAssertEqual(found.first?.text, "2018-07-06")
        XCTAssertEqual(found.first?.start, 7)
        // A time glued on after a day or a two-digit year.
        XCTAssertEqual(
            NumericDate.anywhere(in: "[Sales]2018-01-0522:55:25", monthFirst: false).map(\.text), ["2018-01-05"])
        XCTAssertEqual(NumericDate.anywhere(in: "2018-01-052:55", monthFirst: false).map(\.iso), ["2018-01-05"])
        XCTAssertEqual(NumericDate.anywhere(in: "06/04/1711:43am", monthFirst: false).map(\.iso), ["2017-04-06"])
        // Not a number that merely goes on.
        XCTAssertTrue(NumericDate.anywhere(in: "2018-01-0522", monthFirst: false).isEmpty)
        XCTAssertTrue(NumericDate.anywhere(in: "2018-01-05229:55", monthFirst: false).isEmpty)
        XCTAssertTrue(NumericDate.anywhere(in: "06/04/1711", monthFirst: false).isEmpty)
        XCTAssertTrue(NumericDate.anywhere(in: "06/04/17115:43", monthFirst: false).isEmpty)
        // A day past 12 decides the order whatever the receipt says.
        XCTAssertEqual(NumericDate.anywhere(in: "04/21/20", monthFirst: false).map(\.iso), ["2020-04-21"])
    }

    func testDaysThatDoNotExistAndYearsOutOfRangeAreNotDates() {
        XCTAssertTrue(NumericDate.anywhere(in: "31/04/2018", monthFirst: false).isEmpty)
        XCTAssertTrue(NumericDate.anywhere(in: "29/02/2019", monthFirst: false).isEmpty)
        XCTAssertEqual(NumericDate.anywhere(in: "29/02/2020", monthFirst: false).map(\.iso), ["2020-02-29"])
        XCTAssertTrue(NumericDate.anywhere(in: "12/05/1890", monthFirst: false).isEmpty)
    }

    /// A two-digit year is read in the detector's window around this year, not always as 20xx: `95` is 1995, and `60`
    /// (a code's digits, `JA01-04-2/60`) is 1960, before any document's date. No date is years ahead of the reference.
    func testTwoDigitYearsAreReadInTheDetectorsWindow() {
        let ref = NumericDate.referenceYear
        XCTAssertEqual(NumericDate.fullYear(95, referenceYear: 2026), 1995)
        XCTAssertEqual(NumericDate.fullYear(46, referenceYear: 2026), 2046)
        XCTAssertEqual(NumericDate.fullYear(47, referenceYear: 2026), 1947)
        XCTAssertEqual(NumericDate.anywhere(in: "12/03/95", monthFirst: false).map(\.iso), ["1995-03-12"])
        XCTAssertEqual(NumericDate.anywhere(in: "28-03-18 18:05", monthFirst: false).map(\.iso), ["2018-03-28"])
        XCTAssertTrue(NumericDate.anywhere(in: "JA01-04-2/60", monthFirst: false).isEmpty)
        XCTAssertEqual(NumericDate.unseparated(in: "0503-95", monthFirst: false)?.iso, "1995-03-05")
        // A four-digit year past next year is a misread (`2081` for `2018`), not a receipt's date.
        XCTAssertTrue(NumericDate.anywhere(in: "05/03/\(ref + 2)", monthFirst: false).isEmpty)
        XCTAssertEqual(NumericDate.anywhere(in: "05/03/\(ref + 1)", monthFirst: false).map(\.iso), ["\(ref + 1)-03-05"])
    }

    func testDatesWithALostSeparator() {
        XCTAssertEqual(NumericDate.unseparated(in: "2703/2018", monthFirst: false)?.iso, "2018-03-27")
        XCTAssertEqual(NumericDate.unseparated(in: "27032018", monthFirst: false)?.iso, "2018-03-27")
        XCTAssertEqual(NumericDate.unseparated(in: "05 02-18", monthFirst: false)?.iso, "2018-02-05")
        XCTAssertEqual(NumericDate.unseparated(in: "05 02-18", monthFirst: true)?.iso, "2018-05-02")
        XCTAssertNil(NumericDate.unseparated(in: "3102/2018", monthFirst: false), "31 February")
        XCTAssertNil(NumericDate.unseparated(in: "052018", monthFirst: false), "a two-digit year needs its separator")
    }

    func testADateWithOneDigitMisreadIsTheDayOneLookAlikeMakes() {
        XCTAssertEqual(NumericDate.misread(in: "2016-84-24", monthFirst: false, referenceYear: 2024)?.iso, "2016-04-24")
        XCTAssertEqual(NumericDate.misread(in: "Date 08/64/2018", monthFirst: false, referenceYear: 2024)?.iso, "2018-04-08")
        XCTAssertEqual(NumericDate.misread(in: "09-12-2915 18:04", monthFirst: false, referenceYear: 2024)?.iso, "2015-12-09")
        // A date that reads already, several readings (month `00`: 08, 06 or 09), a two-digit year or a code: none.
        XCTAssertNil(NumericDate.misread(in: "2016-04-24", monthFirst: false, referenceYear: 2024))
        XCTAssertNil(NumericDate.misread(in: "2016-00-24", monthFirst: false, referenceYear: 2024))
        XCTAssertNil(NumericDate.misread(in: "08/64/18", monthFirst: false, referenceYear: 2024))
        XCTAssertNil(NumericDate.misread(in: "SKU2016-84-24", monthFirst: false, referenceYear: 2024))
        // One digit glued after the date; a longer number is none.
        XCTAssertEqual(NumericDate.misread(in: "2024-02-141", monthFirst: false, referenceYear: 2024)?.iso, "2024-02-14")
        XCTAssertEqual(NumericDate.misread(in: "14.02.20241", monthFirst: false, referenceYear: 2024)?.iso, "2024-02-14")
        XCTAssertNil(NumericDate.misread(in: "2024-02-1412", monthFirst: false, referenceYear: 2024))
        // A month's name with a letter read as a digit; a word that spells no month so is none.
        XCTAssertEqual(NumericDate.misread(in: "Date: 28 Ju1 2022", monthFirst: false, referenceYear: 2024)?.iso,
                       "2022-07-28")
        XCTAssertEqual(NumericDate.misread(in: "0ct 5, 2019", monthFirst: false, referenceYear: 2024)?.iso, "2019-10-05")
        XCTAssertNil(NumericDate.misread(in: "Tab1 12 2024", monthFirst: false, referenceYear: 2024))
        XCTAssertNil(NumericDate.misread(in: "28 Jul 2022", monthFirst: false, referenceYear: 2024))
    }

    func testDatesWithASpaceReadIntoThem() {
        XCTAssertEqual(NumericDate.spaced(in: "Data: 27/04/ 2021 Ora: 20:51", monthFirst: false)?.iso, "2021-04-27")
        XCTAssertEqual(NumericDate.spaced(in: "18/07/202 2", monthFirst: false)?.iso, "2022-07-18")
        XCTAssertEqual(NumericDate.spaced(in: "23/03/2 019", monthFirst: false)?.iso, "2019-03-23")
        XCTAssertEqual(NumericDate.spaced(in: "16/1 0/2024 17;35:00", monthFirst: false)?.iso, "2024-10-16")
        XCTAssertEqual(NumericDate.spaced(in: "Datum: 14-09~2021", monthFirst: false)?.iso, "2021-09-14")
        XCTAssertNil(NumericDate.spaced(in: "1 6/1 0/2024", monthFirst: false), "two spaces")
        XCTAssertNil(NumericDate.spaced(in: "Printed04/09/2019", monthFirst: false), "glued to a word")
        XCTAssertNil(NumericDate.spaced(in: "31/02/ 2021", monthFirst: false), "31 February")
        // Year first, as ISO 8601 and Swedish tills print it.
        XCTAssertEqual(NumericDate.spaced(in: "2020-05- 03 21:18", monthFirst: false)?.iso, "2020-05-03")
        XCTAssertNil(NumericDate.spaced(in: "2020-13- 03", monthFirst: false), "no thirteenth month")
    }

    func testYearFirstBasicForm() {
        XCTAssertEqual(NumericDate.basic(in: "20190321/102200")?.iso, "2019-03-21")
        XCTAssertEqual(NumericDate.basic(in: "Date 20190321")?.text, "20190321")
        XCTAssertNil(NumericDate.basic(in: "20191321"), "no thirteenth month")
        XCTAssertNil(NumericDate.basic(in: "120190321"), "part of a longer number")
        XCTAssertNil(NumericDate.basic(in: "21032019"), "day first is `unseparated`'s")
    }

    func testCalendar() {
        XCTAssertTrue(CalendarDate.exists(2000, 2, 29))
        XCTAssertFalse(CalendarDate.exists(1900, 2, 29))
        XCTAssertFalse(CalendarDate.exists(2024, 13, 1))
        XCTAssertEqual(CalendarDate.iso(987, 3, 4), "0987-03-04")
    }

    /// `yy-mm-dd` read year first when a caller knows the document's language writes it so.
    func testShortDatesYearFirst() {
        XCTAssertEqual(NumericDate.shortYearFirst("23-01-13", referenceYear: 2024), "2023-01-13")
        XCTAssertEqual(NumericDate.shortYearFirst("95-12-31", referenceYear: 2024), "1995-12-31")
        XCTAssertNil(NumericDate.shortYearFirst("23-13-01", referenceYear: 2024))
        XCTAssertNil(NumericDate.shortYearFirst("23/01/13", referenceYear: 2024))
        XCTAssertNil(NumericDate.shortYearFirst("2023-01-13", referenceYear: 2024))
        XCTAssertEqual(
            NumericDate.shortYearFirstDates(in: "Kvitto 20-10-28   13:30:00", referenceYear: 2024).map(\.iso),
            ["2020-10-28"])
        XCTAssertEqual(NumericDate.shortYearFirstDates(in: "Datum:23-01-13", referenceYear: 2024).first?.start, 6)
        // Glued to a time by OCR, it is still read; part of a longer run of numbers, it is no date of this form.
        XCTAssertEqual(
            NumericDate.shortYearFirstDates(in: "24-12-0518:27", referenceYear: 2024).map(\.iso), ["2024-12-05"])
        for text in ["Org 0520-10-28", "23-01-1318", "23-01-131:27", "12-23-01-13", "23-01-13-5"] {
            XCTAssertTrue(NumericDate.shortYearFirstDates(in: text, referenceYear: 2024).isEmpty, text)
        }
    }
}
