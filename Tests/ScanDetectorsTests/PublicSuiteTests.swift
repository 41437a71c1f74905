import Foundation
import XCTest
import ScanModel
@testable import ScanDetectors

/// Strings taken from the test suites of other open-source extractors, to check that the
/// detectors hold on forms we did not write ourselves:
/// - linkify-it, `test/fixtures/links.txt` and `not_links.txt` (MIT License, (c) Vitaly Puzrin,
///   Alex Kocharin), https://github.com/markdown-it/linkify-it
/// - urlextract 1.10.0, `tests/unit/test_find_urls.py` (MIT License, (c) Jan Lipovský),
///   https://github.com/lipoja/URLExtract
/// - dateparser 1.5.0, `tests/test_search.py` (BSD 3-Clause, (c) Scrapinghub),
///   https://github.com/scrapinghub/dateparser
/// Where our choice differs from the suite's, the row says so.
final class PublicSuiteTests: XCTestCase {
    private func found(_ text: String, _ type: EntityType, region: String? = nil) -> [Entity] {
        let d = try! DataDetector(types: [type], region: region, referenceDate: CalendarDay(iso: "2024-06-01"))
        return d.detect(in: text)
    }

    /// Each row: the text, and the exact texts that must be found (empty: nothing).
    private func expect(
        _ rows: [(String, [String])], _ type: EntityType, file: StaticString = #filePath, line: UInt = #line
    ) {
        for (text, want) in rows {
            let got = found(text, type).map(\.text)
            XCTAssertEqual(got, want, "\(type) in \(text.debugDescription)", file: file, line: line)
        }
    }

    func testLinkifyItLinks() {
        expect([
            ("My http://example.com site", ["http://example.com"]),
            ("My http://example.com/ site", ["http://example.com/"]),
            ("http://example.com/foo_bar/", ["http://example.com/foo_bar/"]),
            ("http://user:pass@example.com:8080", ["http://user:pass@example.com:8080"]),
            ("http://user@example.com", ["http://user@example.com"]),
            ("http://user@example.com:8080", ["http://user@example.com:8080"]),
            ("http://example.com:8080", ["http://example.com:8080"]),
            ("http://example.com/?foo=bar", ["http://example.com/?foo=bar"]),
            ("http://example.com?foo=bar", ["http://example.com?foo=bar"]),
            ("http://example.com/#foo=bar", ["http://example.com/#foo=bar"]),
            ("http://example.com#foo=bar", ["http://example.com#foo=bar"]),
            ("http://a.in", ["http://a.in"]),
            ("HTTP://GOOGLE.COM", ["HTTP://GOOGLE.COM"]),
            ("http://example.invalid", ["http://example.invalid"]),
            ("http://inrgess2", ["http://inrgess2"]),
            // Ours: a number alone names no host, as Recognizers-Text has it (ThirdPartySuiteTests).
            ("http://999", []),
            ("http://host-name", ["http://host-name"]),
            (">>example.com", ["example.com"]),
            (">>http://example.com", ["http://example.com"]),
            ("http://lyricstranslate.com/en/someone-you-നിന്നെ-പോലൊരാള്.html",
             ["http://lyricstranslate.com/en/someone-you-നിന്നെ-പോലൊരാള്.html"]),
            ("http://localhost:8000?", ["http://localhost:8000"]),
            ("My ssl https://example.com site", ["https://example.com"]),
            ("My ftp://example.com site", ["ftp://example.com"]),
            ("192.168.1.1/abc", ["192.168.1.1/abc"]),
            ("test.example@http://vk.com", ["http://vk.com"]),
            ("text:http://example.com/", ["http://example.com/"]),
            ("google.com", ["google.com"]),
            ("google.com: // no port", ["google.com"]),
            ("s.l.o.w.io", ["s.l.o.w.io"]),
            ("a-b.com", ["a-b.com"]),
            ("GOOGLE.COM.", ["GOOGLE.COM"]),
            ("google.xxx", ["google.xxx"]),
            ("(Scoped http://example.com/foo_bar)", ["http://example.com/foo_bar"]),
            ("http://example.com/foo_bar_(wiki)", ["http://example.com/foo_bar_(wiki)"]),
            ("http://foo.com/blah_blah_[other]", ["http://foo.com/blah_blah_[other]"]),
            ("http://foo.com/blah_blah_{I'm_king}", ["http://foo.com/blah_blah_{I'm_king}"]),
            ("http://foo.com/blah_blah_I'm_king", ["http://foo.com/blah_blah_I'm_king"]),
            ("http://www.kmart.com/bestway-10'-x-30inch-steel-pro-frame-pool/p-004W007538417001P",
             ["http://www.kmart.com/bestway-10'-x-30inch-steel-pro-frame-pool/p-004W007538417001P"]),
            ("[Scoped like http://example.com/foo_bar]", ["http://example.com/foo_bar"]),
            ("{Scoped like http://example.com/foo_bar}", ["http://example.com/foo_bar"]),
            ("\"Quoted like http://example.com/foo_bar\"", ["http://example.com/foo_bar"]),
            ("'Quoted like http://example.com/foo_bar'", ["http://example.com/foo_bar"]),
            ("[example.com/foo_bar.jpg)]", ["example.com/foo_bar.jpg"]),
            ("http://example.com/foo_bar.jpg.", ["http://example.com/foo_bar.jpg"]),
            ("http://example.com/foo_bar/.", ["http://example.com/foo_bar/"]),
            ("http://example.com/foo_bar,", ["http://example.com/foo_bar"]),
            ("http://example.com/foo_bar...", ["http://example.com/foo_bar"]),
            ("http://172.26.142.48/viewerjs/#../0529/slides.pdf", ["http://172.26.142.48/viewerjs/#../0529/slides.pdf"]),
            ("http://example.com/foo_bar?p=10.", ["http://example.com/foo_bar?p=10"]),
            ("https://www.google.ru/maps/@59.9393895,30.3165389,15z?hl=ru", ["https://www.google.ru/maps/@59.9393895,30.3165389,15z?hl=ru"]),
            ("http://business.timesonline.co.uk/article/0,,9065-2473189,00.html",
             ["http://business.timesonline.co.uk/article/0,,9065-2473189,00.html"]),
            ("http://example.com/123!", ["http://example.com/123"]),
            ("http://example.com/foo--bar", ["http://example.com/foo--bar"]),
            ("http://example.com/foo-with-trailing-dash-dot-.", ["http://example.com/foo-with-trailing-dash-dot-"]),
            ("<http://domain.com>.", ["http://domain.com"]),
            ("<http://domain.com/foo>.", ["http://domain.com/foo"]),
            ("<domain.com>.", ["domain.com"]),
            ("<domain.com/foo>", ["domain.com/foo"]),
            ("<user@domain.com>", []),
            ("http://✪df.ws/123", ["http://✪df.ws/123"]),
            ("http://xn--df-oiy.ws/123", ["http://xn--df-oiy.ws/123"]),
            ("a.ws", ["a.ws"]),
            ("➡.ws/䨹", ["➡.ws/䨹"]),
            ("example.com/䨹", ["example.com/䨹"]),
            ("президент.рф", ["президент.рф"]),
            ("http://www.bürgerentscheid-krankenhäuser.de", ["http://www.bürgerentscheid-krankenhäuser.de"]),
            ("http://bündnis-für-krankenhäuser.de/wp-content/uploads/2011/11/cropped-logohp.jpg",
             ["http://bündnis-für-krankenhäuser.de/wp-content/uploads/2011/11/cropped-logohp.jpg"]),
            ("http://xn--4gbrim.xn----ymcbaaajlc6dj7bxne2c.xn--wgbh1c/", ["http://xn--4gbrim.xn----ymcbaaajlc6dj7bxne2c.xn--wgbh1c/"]),
            ("http://example.com/foo-(with-nested-(parens)).", ["http://example.com/foo-(with-nested-(parens))"]),
            ("http://example.com/(foo) (bar)", ["http://example.com/(foo)"]),
            ("｜www.google.com/www.google.com/foo｜bar", ["www.google.com/www.google.com/foo"]),
            ("｜http://google.com｜bar", ["http://google.com"]),
            // linkify-it takes `4.4.4.4` alone; we leave a bare IPv4 without port or path (versions).
            ("4.4.4.4", []),
        ], .url)
    }

    func testLinkifyItNotLinks() {
        expect([
            ("example.invalid", []), ("example.invalid/", []), ("http://.example.com", []),
            ("http://-example.com", []), ("example.coma", []), ("-example.coma", []), ("foo.123", []),
            ("_http://example.com", []), ("_example.com", []), ("http://example.com_", []),
            ("http://", []), ("http://.", []), ("http://..", []), ("http://#", []), ("http://##", []),
            ("http://?", []), ("http://??", []), ("google.com:500000 // invalid port", []),
            ("show image.jpg", []), ("path:to:file.pm", []), ("/path/to/file.pl", []),
            ("1.2.3.4.5", []), ("1.2.3", []), ("1.2.3.400", []), ("1000.2.3.4", []), ("a1.2.3.4", []), ("1.2.3.4a", []),
        ], .url)
        // `foo@bar`: an e-mail needs a second-level domain with a real top-level domain.
        expect([("foo@bar", []), ("name@example.com", ["name@example.com"]), ("foo+bar@gmail.com", ["foo+bar@gmail.com"]),
                ("(foobar email@example.com)", ["email@example.com"]), ("｜test@google.com｜bar", ["test@google.com"]),
                ("MAILTO:NAME@EXAMPLE.COM", ["NAME@EXAMPLE.COM"])], .email)
    }

    func testURLExtractSuite() {
        expect([
            ("Let's have URL http://janlipovsky.cz", ["http://janlipovsky.cz"]),
            ("Let's have text without URLs.", []),
            ("Dot after TLD: http://janlipovsky.cz.", ["http://janlipovsky.cz"]),
            ("URL https://example.com/@eon01/asdsd-dummy", ["https://example.com/@eon01/asdsd-dummy"]),
            ("ukrainian news pravda.com.ua", ["pravda.com.ua"]),
            ("<a href=\"https://www.example.com/\">example</a>", ["https://www.example.com/"]),
            ("https://bladomain.com/bla/?cid=74530889&h=bladomain.com", ["https://bladomain.com/bla/?cid=74530889&h=bladomain.com"]),
            ("Hey hou we have URL containing https://example.com/what.com another URL", ["https://example.com/what.com"]),
            ("* test link -https://www.example.com", ["https://www.example.com"]),
            ("https://www.test.org/paper/apostrophe'in-url", ["https://www.test.org/paper/apostrophe'in-url"]),
            ("http://aa.com/b.html https://aa.com/bb.html", ["http://aa.com/b.html", "https://aa.com/bb.html"]),
            ("http://0.0.0.0/a.io", ["http://0.0.0.0/a.io"]),
            ("http://123.56.234.210/struts_action.do", ["http://123.56.234.210/struts_action.do"]),
            // Ours, with linkify-it and url-regex: a protocol-relative link keeps its slashes (urlextract drops them).
            ("<script src='//www.example.com/somejsfile.js'>", ["//www.example.com/somejsfile.js"]),
            // urlextract finds nothing in this shell line; we read the URL after the regex's `^`.
            ("[[ \"$(giturl)\" =~ ^https://gitlab.com ]] echo \"found\" || echo \"didnt", ["https://gitlab.com"]),
            ("[https://example.com/page|https://example.com/page|smart-link]", ["https://example.com/page", "https://example.com/page"]),
            ("[http://example.com|Example]", ["http://example.com"]),
            ("see example.com|other", ["example.com"]),
            ("http://caseInsensitive.cOM", ["http://caseInsensitive.cOM"]),
            ("Get unique URL from: in.v_alid.cz", []),
            ("multiple protocols, job:https://example.co", ["https://example.co"]),
            ("more multiple protocols, link:job:https://example.com/r", ["https://example.com/r"]),
            ("svn+ssh://example.com", ["svn+ssh://example.com"]),
        ], .url)
    }

    func testDateparserSearchSuite() {
        let rows: [(String, [String])] = [
            ("Sep 03 2014", ["2014-09-03"]),
            ("friday, 03 september 2014", ["2014-09-03"]),
            ("Aug 06, 2018 05:05 PM CDT", ["2018-08-06"]),
            ("2014-12-12T12:33:39-08:00", ["2014-12-12"]),
            ("2014-10-15T16:12:20+00:00", ["2014-10-15"]),
            ("28 Oct 2014 16:39:01 +0000", ["2014-10-28"]),
            ("25th march 2015 , i need this report today.", ["2015-03-25"]),
            ("July 12th, 2014. July 13th, July 14th", ["2014-07-12"]),
            ("July 13th 2014 July 14th 2014", ["2014-07-13", "2014-07-14"]),
            ("July 13th, 2014 July 14th, 2014", ["2014-07-13", "2014-07-14"]),
            ("May 5, 2020 (10:30 am)", ["2020-05-05"]),
            ("Thu (12 Feb 2016)", ["2016-02-12"]),
            ("Ordered 25/12/2020, shipped 02/01/2021, delivered 05/01/2021.", ["2020-12-25", "2021-01-02", "2021-01-05"]),
            ("Ordered 12/25/2020, shipped 01/02/2021, delivered 01/05/2021.", ["2020-12-25", "2021-01-02", "2021-01-05"]),
            ("January 3, 2017 - February 1st", ["2017-01-03"]),
            ("I will meet you tomorrow at noon", []),
            ("2007", []),
        ]
        for (text, want) in rows {
            XCTAssertEqual(found(text, .date).compactMap(\.value.date), want, "dates in \(text.debugDescription)")
        }
    }
}
