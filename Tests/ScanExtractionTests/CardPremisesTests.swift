import Testing
import ScanModel
@testable import ScanExtraction

/// The lines of a building, a farm or a floor printed over a card's street and town, known by the block they are
/// printed in (`BusinessCardParser.premisesAbove`), and logos' monograms beside a firm's name. Made after the
/// seventy-eighth session's looked-at cards (`/tmp/h35`), each written here with other names and places.
@Suite struct CardPremisesTests {
    func card(_ lines: [(Double, Double, [(Double, String)])]) -> BusinessCard { Fixture.card(lines) }

    /// A farm's name over its road, village and town, in a column beside the contacts.
    @Test func aFarmOverItsRoad() {
        let c = card([
            Fixture.line(60, "Oakridge Orchard Juices", x: 60, h: 40),
            Fixture.line(160, "Harriet Lowe", x: 60, h: 54),
            Fixture.line(220, "Estate Manager", x: 60, h: 36),
            Fixture.line(420, "Oakridge Farm", x: 800, h: 34),
            Fixture.line(430, "01432 820 551", x: 60, h: 34),
            Fixture.line(455, "Bromyard Road", x: 800, h: 34),
            Fixture.line(470, "harriet@oakridgejuices.co.uk", x: 60, h: 34),
            Fixture.line(490, "Much Cowarne", x: 800, h: 34),
            Fixture.line(525, "Hereford HR7 4JN", x: 800, h: 34),
        ])
        #expect(c.address?.full == "Oakridge Farm, Bromyard Road, Much Cowarne, Hereford HR7 4JN")
        #expect(c.address?.postalCode == "HR7 4JN")
        #expect(c.address?.street == "Oakridge Farm, Bromyard Road, Much Cowarne")
        #expect(c.name?.full == "Harriet Lowe")
        #expect(c.title == "Estate Manager")
    }

    /// A business centre and its floor over the postal code's line, no line of them a street by its words; and a
    /// `c/o` over a street whose number OCR misread.
    @Test func aBusinessCentreAndAFloorOverTheCode() {
        let c = card([
            Fixture.line(80, "Lagunare Impianti S.p.A.", x: 300, h: 40),
            Fixture.line(170, "Chiara Russo", x: 260, h: 56),
            Fixture.line(230, "Direttore Tecnico", x: 260, h: 34),
            Fixture.line(400, "Palazzo Mercanti, Torre 2", x: 780, h: 34),
            Fixture.line(410, "02 8844 1200", x: 260, h: 34),
            Fixture.line(430, "Scala C, 4° piano", x: 780, h: 34),
            Fixture.line(440, "c.russo@lagunare.it", x: 260, h: 34),
            Fixture.line(460, "20121 Milano MI", x: 780, h: 34),
        ])
        #expect(c.address?.full == "Palazzo Mercanti, Torre 2, Scala C, 4° piano, 20121 Milano MI")
        let careOf = card([
            Fixture.line(40, "Nordvik Energi A/S", x: 60, h: 40),
            Fixture.line(130, "Sofie Holm", x: 60, h: 46),
            Fixture.line(185, "Projektleder", x: 60, h: 28),
            Fixture.line(200, "sofie.holm@nordvikenergi.dk", x: 600, h: 27),
            Fixture.line(230, "www.nordvikenergi.dk", x: 600, h: 27),
            Fixture.line(275, "c/o Aarhus Innovationshus", x: 600, h: 26),
            Fixture.line(305, "Vestergade 4ıB, 2. th.", x: 600, h: 26),
            Fixture.line(333, "8000 Aarhus C", x: 600, h: 28),
        ])
        #expect(careOf.address?.full == "c/o Aarhus Innovationshus, Vestergade 4ıB, 2. th., 8000 Aarhus C")
    }

    /// Lines that are not the block's stay out: the title right over the street at its size and spacing, a firm's
    /// name at the block's size where no line was found to be the firm's, a line in larger print, and a line set
    /// further apart than the block's own lines.
    @Test func linesOfOtherFieldsStayOut() {
        let title = card([
            Fixture.line(100, "Harriet Lowe", x: 60, h: 54),
            Fixture.line(170, "Estate Manager", x: 60, h: 34),
            Fixture.line(205, "Bromyard Road", x: 60, h: 34),
            Fixture.line(240, "Hereford HR7 4JN", x: 60, h: 34),
            Fixture.line(420, "harriet@oakridgejuices.co.uk", x: 60, h: 30),
        ])
        #expect(title.address?.full == "Bromyard Road, Hereford HR7 4JN")
        #expect(title.title == "Estate Manager")
        let firm = card([
            Fixture.line(100, "Harriet Lowe", x: 60, h: 54),
            Fixture.line(205, "Bluebell Pottery", x: 60, h: 34),
            Fixture.line(240, "Bromyard Road", x: 60, h: 34),
            Fixture.line(275, "Hereford HR7 4JN", x: 60, h: 34),
            Fixture.line(420, "harrietlowe1962@gmail.com", x: 60, h: 30),
        ])
        #expect(firm.address?.full == "Bromyard Road, Hereford HR7 4JN")
        let larger = card([
            Fixture.line(60, "Oakridge Orchard Juices Ltd", x: 60, h: 30),
            Fixture.line(160, "Harriet Lowe", x: 60, h: 54),
            Fixture.line(225, "Bromyard Road", x: 60, h: 34),
            Fixture.line(260, "Hereford HR7 4JN", x: 60, h: 34),
            Fixture.line(420, "harriet@oakridgejuices.co.uk", x: 60, h: 30),
        ])
        #expect(larger.address?.full == "Bromyard Road, Hereford HR7 4JN")
        #expect(larger.name?.full == "Harriet Lowe")
        let apart = card([
            Fixture.line(60, "Oakridge Orchard Juices Ltd", x: 60, h: 40),
            Fixture.line(160, "Harriet Lowe", x: 60, h: 54),
            Fixture.line(300, "Open daily 9-5", x: 800, h: 34),
            Fixture.line(400, "Bromyard Road", x: 800, h: 34),
            Fixture.line(435, "Hereford HR7 4JN", x: 800, h: 34),
            Fixture.line(420, "harriet@oakridgejuices.co.uk", x: 60, h: 30),
        ])
        #expect(apart.address?.full == "Bromyard Road, Hereford HR7 4JN")
    }

    /// A logo's monogram read beside the firm's name: one that is a legal form (`SL` beside `Solano Llorente`) when
    /// read apart from the name in smaller print, and one whose last letter after `&` OCR lost (`K&` for `K&B`). A
    /// legal form read with the name as one line stays (`PT Pratama Teknik`), and so does a firm named with an
    /// ampersand (`J&K Kitchens`, `A&B Ashby & Bell Ltd`).
    @Test func monogramsBesideTheFirm() {
        func org(_ words: [(Double, String)], apartAt: Int? = nil) -> String? {
            var rows: [(Double, Double, [(Double, String)])] = []
            if let n = apartAt {
                rows = [(64, 22, Array(words.prefix(n))), (60, 30, Array(words.dropFirst(n)))]
            } else {
                rows = [(60, 30, words)]
            }
            return card(rows + [
                Fixture.line(160, "Lucía Ortega", x: 60, h: 54),
                Fixture.line(220, "Arquitecta", x: 60, h: 34),
                Fixture.line(420, "lucia@solanollorente.es", x: 60, h: 30),
            ]).organization
        }
        #expect(org([(60, "SL"), (120, "Solano"), (240, "Llorente")], apartAt: 1) == "Solano Llorente")
        #expect(org([(60, "K&"), (120, "Kessler"), (260, "&"), (290, "Brandt"), (410, "GmbH")], apartAt: 1)
            == "Kessler & Brandt GmbH")
        #expect(org([(60, "PT"), (120, "Pratama"), (260, "Teknik")]) == "PT Pratama Teknik")
        #expect(
            org([(60, "A&B"), (140, "Ashby"), (260, "&"), (290, "Bell"), (380, "Ltd")]) == "A&B Ashby & Bell Ltd")
        #expect(org([(60, "J&K"), (140, "Kitchens"), (300, "Ltd")]) == "J&K Kitchens Ltd")
        // Read apart in the same print: a monogram that is some country's legal form (`HF`) is the logo's when set
        // wider apart than words are; at a space's width it stays (`PT Pratama Teknik`).
        func sameSize(_ first: String, _ x: Double, _ rest: [(Double, String)]) -> String? {
            card([
                (60, 30, [(60, first)]), (60, 30, rest.map { ($0.0 + x, $0.1) }),
                Fixture.line(160, "Lucía Ortega", x: 60, h: 54),
                Fixture.line(220, "Arquitecta", x: 60, h: 34),
                Fixture.line(420, "lucia@solanollorente.es", x: 60, h: 30),
            ]).organization
        }
        #expect(sameSize("HF", 110, [(0, "Harrow"), (110, "&"), (135, "Finch")]) == "Harrow & Finch")
        #expect(sameSize("PT", 100, [(0, "Pratama"), (130, "Teknik")]) == "PT Pratama Teknik")
        // (Nor at half the print's height, where the line's words stand as far apart.)
        #expect(sameSize("PT", 108, [(0, "Pratama"), (138, "Teknik")]) == "PT Pratama Teknik")
    }

    /// A label, a tagline or a firm's name printed over the address in its style and spacing is no part of it: a
    /// line goes with the address only when it says something of a place.
    @Test func labelsAndTaglinesOverTheAddressStayOut() {
        for over in ["Head Office", "Bezoekadres", "Physiotherapy · Osteopathy · Sport"] {
            let c = card([
                Fixture.line(60, "Oakridge Orchard Juices Ltd", x: 60, h: 40),
                Fixture.line(160, "Harriet Lowe", x: 60, h: 54),
                Fixture.line(220, "Estate Manager", x: 60, h: 36),
                Fixture.line(420, over, x: 800, h: 34),
                Fixture.line(455, "Level 3, Albion House", x: 800, h: 34),
                Fixture.line(490, "Bromyard Road", x: 800, h: 34),
                Fixture.line(525, "Hereford HR7 4JN", x: 800, h: 34),
                Fixture.line(470, "harriet@oakridgejuices.co.uk", x: 60, h: 34),
            ])
            #expect(c.address?.full == "Level 3, Albion House, Bromyard Road, Hereford HR7 4JN", "\(over)")
        }
    }

    /// A town and a code the detectors cannot place, on a card that names no country, under a named street: the
    /// address; not a suite's number under it.
    @Test func aTownAndACodeUnderANamedStreet() {
        func address(_ street: String, _ town: String) -> String? {
            card([
                Fixture.line(80, "Tama Rangi", x: 300, h: 46),
                Fixture.line(140, "Builder", x: 300, h: 30),
                Fixture.line(200, "Kowhai Coast Builders", x: 300, h: 30),
                Fixture.line(235, street, x: 300, h: 30),
                Fixture.line(270, town, x: 300, h: 30),
                Fixture.line(600, "tama@kowhaicoast.example", x: 700, h: 30),
            ]).address?.full
        }
        #expect(address("14 Totara Street", "Kaikohe 0405") == "14 Totara Street, Kaikohe 0405")
        #expect(address("14 Totara Street", "0405 Kaikohe") == "14 Totara Street, 0405 Kaikohe")
        #expect(address("Kowhai Building", "Suite 405") == nil)
        #expect(address("14 Mill Lane", "Established 1987") == nil)
        #expect(address("The Smart Way To Build", "Since 1987") == nil)
        // In the card's language too (the locale files' `numberLabels`).
        #expect(address("Lange Straße 12", "Seit 1987") == nil)
        #expect(address("12 Rue du Port", "Depuis 1987") == nil)
    }

    /// A label before a colon on the address's first line is no part of it; `No:` of a Malaysian house number is.
    @Test func aLabelBeforeTheStreet() {
        func address(_ street: String, _ town: String) -> String? {
            card([
                Fixture.line(60, "Banksia Outdoor Furniture Pty Ltd", x: 60, h: 40),
                Fixture.line(160, "Kane Hartley", x: 60, h: 54),
                Fixture.line(220, "Sales Manager", x: 60, h: 36),
                Fixture.line(420, street, x: 60, h: 30),
                Fixture.line(455, town, x: 60, h: 30),
                Fixture.line(600, "kane@banksiaoutdoor.com.au", x: 60, h: 30),
            ]).address?.full
        }
        #expect(address("Showroom: Unit 3, 18 Parramatta Road", "Annandale NSW 2038")
            == "Unit 3, 18 Parramatta Road, Annandale NSW 2038")
        #expect(address("No: G3, Blk G, Jln PJU 1A/3", "47301 Petaling Jaya, Selangor")
            == "No: G3, Blk G, Jln PJU 1A/3, 47301 Petaling Jaya, Selangor")
    }

    /// The line under a title that names the area it covers goes on with it; a slogan, a department, a firm's trade
    /// (`Energie- und Gebäudetechnik`) or a street under it does not.
    @Test func aTitlesAreaOnTheLineUnder() {
        func title(_ under: String) -> String? {
            card([
                Fixture.line(60, "Halvorsen Marine Supply Co.", x: 60, h: 40),
                Fixture.line(160, "Trevor Nakamura", x: 60, h: 54),
                Fixture.line(222, "Director of Business Development", x: 60, h: 32),
                Fixture.line(258, under, x: 60, h: 32),
                Fixture.line(420, "trevor@halvorsenmarine.com", x: 60, h: 30),
            ]).title
        }
        #expect(title("Pacific Northwest Region") == "Director of Business Development Pacific Northwest Region")
        #expect(title("EMEA") == "Director of Business Development EMEA")
        #expect(title("Energie- und Gebäudetechnik") == "Director of Business Development")
        #expect(title("North West Sales Team") == "Director of Business Development")
        #expect(title("Light Made Simple") == "Director of Business Development")
        #expect(title("Customer Support") == "Director of Business Development")
        #expect(title("North Street") == "Director of Business Development")
    }

    /// Made after `/tmp/h39` (looked at): a street whose house number has its door after a slash, a region and its
    /// country under the town, a town and an Indian PIN after a dash, a monogram over a firm named with `&`.
    @Test func slashNumbersRegionLinesDashedCodesAndMonograms() {
        func address(_ rows: [String]) -> String? {
            card([
                Fixture.line(60, "Kestrel Logistik GmbH", x: 60, h: 40),
                Fixture.line(160, "Anna Berger", x: 60, h: 54),
                Fixture.line(220, "Prokuristin", x: 60, h: 34),
                Fixture.line(300, "anna.berger@kestrel-logistik.example", x: 60, h: 28),
            ] + rows.enumerated().map { n, t in Fixture.line(400 + 35 * Double(n), t, x: 60, h: 28) }).address?.full
        }
        #expect(address(["Praterstraße 38/12", "1020 Wien"]) == "Praterstraße 38/12, 1020 Wien")
        #expect(address(["Lot 7, Jalan Kelab Golf 13/6", "40100 Shah Alam", "Selangor, Malaysia"])
            == "Lot 7, Jalan Kelab Golf 13/6, 40100 Shah Alam, Selangor, Malaysia")
        #expect(address(["C-14, Sector 18 Place", "Noida – 201301"]) == "C-14, Sector 18 Place, Noida – 201301")
        let c = card([
            (60, 30, [(60, "KT"), (130, "Kestrel"), (270, "&"), (300, "Tern"), (400, "Consulting"), (560, "LLP")]),
            Fixture.line(160, "Anna Berger", x: 60, h: 54),
            Fixture.line(220, "Partner", x: 60, h: 34),
            Fixture.line(300, "anna@kestreltern.example", x: 60, h: 28),
        ])
        #expect(c.organization == "Kestrel & Tern Consulting LLP")
    }

    /// A firm's name that ends with `&` goes on under it; a short legal form under it joins though its print measures
    /// smaller.
    @Test func aFirmsNameWrappedAfterAnAmpersandOrBeforeItsLegalForm() {
        func org(_ upper: String, _ lower: String, lowerHeight: Double = 30) -> String? {
            card([
                Fixture.line(60, upper, x: 60, h: 30),
                (96, lowerHeight, [(60, lower)].flatMap { x, t in
                    t.split(separator: " ").enumerated().map { (x + Double($0.offset) * 90, String($0.element)) }
                }),
                Fixture.line(200, "Rajesh Mehta", x: 60, h: 54),
                Fixture.line(260, "Managing Director", x: 60, h: 34),
                Fixture.line(420, "rajesh@mehtatextiles.example", x: 60, h: 28),
            ]).organization
        }
        #expect(org("MEHTA TEXTILES &", "EXPORTS") == "MEHTA TEXTILES & EXPORTS")
        #expect(org("Mehta Marine Supplies Pte.", "Ltd.", lowerHeight: 19) == "Mehta Marine Supplies Pte. Ltd.")
    }
}
