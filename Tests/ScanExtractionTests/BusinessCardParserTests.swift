import Foundation
import Testing
import ScanDetectors
import ScanExport
import ScanLayout
import ScanModel
@testable import ScanExtraction

@Suite struct BusinessCardParserTests {
    let extractor = DocumentExtractor(detector: try! DataDetector())

    /// The card read from `lines` on a card of 1004 x 600 pixels.
    func card(_ lines: [(Double, Double, [(Double, String)])]) -> BusinessCard {
        try! extractor.extract(Fixture.document(Fixture.page(width: 1004, height: 600, lines)), as: .businessCard)
            .businessCard!
    }

    func ukCard() -> Document {
        Fixture.document(Fixture.page(width: 1050, height: 600, [
            Fixture.line(60, "Harbourlight Studio Ltd", x: 60, h: 22),
            Fixture.line(200, "Priya Raman", x: 60, h: 40),
            Fixture.line(250, "Head of Product Design", x: 60, h: 20),
            Fixture.line(380, "T +44 20 7946 0958", x: 60, h: 18),
            Fixture.line(405, "M 07700 900123", x: 60, h: 18),
            Fixture.line(430, "priya.raman@harbourlight.co.uk", x: 60, h: 18),
            Fixture.line(455, "www.harbourlight.co.uk", x: 60, h: 18),
            Fixture.line(380, "14 Wharf Road", x: 640, h: 18),
            Fixture.line(405, "London N1 7GR", x: 640, h: 18),
        ]))
    }

    /// A line of title words alone is never the name, even where the name's line could not be read as one (OCR read
    /// a Greek name with a math sign): the card then has no name and says so, and the line is its title.
    @Test func aTitleAloneIsNoName() {
        let doc = Fixture.document(Fixture.page(width: 1050, height: 600, [
            Fixture.line(100, "Zo \u{2206}ημητρíου", x: 60, h: 40),
            Fixture.line(160, "Chief Executive Officer", x: 60, h: 24),
            Fixture.line(210, "Acme Widgets Ltd", x: 60, h: 20),
            Fixture.line(380, "Phone: 020 7946 0958", x: 60, h: 18),
            Fixture.line(405, "zoe@acmewidgets.co.uk", x: 60, h: 18),
        ]))
        let out = try! extractor.extract(doc, as: .businessCard)
        let c = out.businessCard!
        #expect(c.name == nil, "\(String(describing: c.name))")
        #expect(c.title == "Chief Executive Officer")
        #expect(out.warnings.contains { $0.code == "card-no-name" })
        // With a name on the card, the title stays the title.
        let named = try! extractor.extract(ukCard(), as: .businessCard).businessCard!
        #expect(named.title == "Head of Product Design")
    }

    @Test func readsNameTitleOrganization() {
        let c = try! extractor.extract(ukCard(), as: .businessCard).businessCard!
        #expect(c.name?.full == "Priya Raman")
        #expect(c.name?.given == "Priya")
        #expect(c.name?.family == "Raman")
        #expect(c.title == "Head of Product Design")
        #expect(c.organization == "Harbourlight Studio Ltd")
        #expect(c.provenance["name"]?.boundingBox?.minY == 200)
    }

    /// A large name with a column of small contacts beside it, on the same line: the gap is
    /// narrow next to the name's height but wide next to the contacts', so they are two pieces
    /// and the e-mail does not take the name's line with it.
    @Test func aLargeNameBesideSmallContactsIsItsOwnColumn() {
        let doc = Fixture.document(Fixture.page(width: 1050, height: 600, [
            Fixture.line(300, "Dana Whitfield", x: 150, h: 56),
            Fixture.line(310, "dana@northwind-atelier.com", x: 700, h: 30),
            Fixture.line(360, "+1 206 555 0147", x: 700, h: 30),
            Fixture.line(400, "Sales Director", x: 150, h: 34),
            Fixture.line(460, "Northwind Atelier Inc.", x: 150, h: 40),
        ]))
        // The name ends at 150 + 14 × 56 × 0.55 ≈ 581: a 119 px gap (2.1 name heights, 4 e-mail
        // heights), then the e-mail.
        let c = try! extractor.extract(doc, as: .businessCard).businessCard!
        #expect(c.name?.full == "Dana Whitfield")
        #expect(c.emails.first?.address == "dana@northwind-atelier.com")
    }

    /// A column of contacts set close to a large name (less than two of its heights away, in a box of the engine's
    /// own) is still a column when its left edge is the edge the card's other contact lines share; a monogram before
    /// the firm's name is its logo; a title and a firm's name that wrap in their column are read whole.
    @Test func aCloseColumnAMonogramAndWrappedLines() {
        let doc = Fixture.document(Fixture.page(width: 1004, height: 650, [
            Fixture.line(60, "BL Brightline Logistics, Inc.", x: 60, h: 30),
            Fixture.line(160, "Oliver Hargreaves", x: 60, h: 40),
            Fixture.line(160, "T +44 20 7946 0958", x: 467, h: 30),
            Fixture.line(205, "M 07700 900123", x: 467, h: 30),
            Fixture.line(215, "Responsable de", x: 60, h: 30),
            Fixture.line(250, "Exportaciones", x: 60, h: 30),
            Fixture.line(250, "E oliver@brightline.co.uk", x: 467, h: 30),
            Fixture.line(295, "W www.brightline.co.uk", x: 467, h: 30),
        ]))
        let c = try! extractor.extract(doc, as: .businessCard).businessCard!
        #expect(c.name?.full == "Oliver Hargreaves")
        #expect(c.title == "Responsable de Exportaciones")
        #expect(c.organization == "Brightline Logistics, Inc.")
        let firm = Fixture.document(Fixture.page(width: 1004, height: 650, [
            Fixture.line(80, "Marco Bianchi", x: 60, h: 40),
            Fixture.line(140, "Direttore Tecnico", x: 60, h: 26),
            Fixture.line(400, "Bianchi Impianti", x: 60, h: 30),
            Fixture.line(436, "S.p.A.", x: 60, h: 30),
            Fixture.line(400, "M +39 335 123 4567", x: 600, h: 22),
            Fixture.line(436, "m.bianchi@bianchimpianti.it", x: 600, h: 22),
        ]))
        #expect(try! extractor.extract(firm, as: .businessCard).businessCard!.organization == "Bianchi Impianti S.p.A.")
        // Ecuador's `Cía. Ltda.`, Oman's `SAOC`, Egypt's `S.A.E.`.
        for (name, form) in [("Galápagos Travel Partners", "Cía. Ltda."), ("Al-Harthy Marine Services", "SAOC"),
                             ("Nile Delta Power Systems", "S.A.E.")] {
            let wrapped = Fixture.document(Fixture.page(width: 1004, height: 650, [
                Fixture.line(80, "Andrés Jaramillo", x: 60, h: 40),
                Fixture.line(140, "Jefe de Ventas", x: 60, h: 26),
                Fixture.line(400, name, x: 60, h: 30),
                Fixture.line(436, form, x: 60, h: 28),
                Fixture.line(436, "ajaramillo@example.com", x: 600, h: 22),
            ]))
            let org = try! extractor.extract(wrapped, as: .businessCard).businessCard!.organization
            #expect(org == name + " " + form)
        }
    }

    /// A firm's name wrapped in its column is read whole when the two lines together spell the domain that the first
    /// does not (`PT Nusantara` / `Mitra Finansial`, nusantaramitra); a tagline under it spells no more and stays out.
    @Test func aFirmsNameWrappedInItsColumn() {
        func firmCard(_ firm: String, _ second: String, _ email: String) -> BusinessCard {
            card([
                Fixture.line(60, "Budi Santoso", x: 360, h: 40),
                Fixture.line(120, "Kepala Cabang", x: 360, h: 24),
                Fixture.line(270, firm, x: 30, h: 30),
                Fixture.line(310, second, x: 30, h: 30),
                Fixture.line(340, "Telp. (021) 520 7788", x: 360, h: 20),
                Fixture.line(370, email, x: 360, h: 20),
            ])
        }
        let wrapped = firmCard("PT Nusantara", "Mitra Finansial", "budi@nusantaramitra.co.id")
        #expect(wrapped.organization == "PT Nusantara Mitra Finansial")
        #expect(wrapped.title == "Kepala Cabang")
        #expect(firmCard("Acme Group", "Consulting Services", "budi@acme.co.id").organization == "Acme Group")
    }

    /// Two columns of print of one size a text height apart: the edge where the right column's lines start, which no
    /// line runs across, cuts the name from the mobile number beside it.
    @Test func twoColumnsOfOneSizeCloseTogether() {
        let c = card([
            Fixture.line(60, "Fatima Al Hashemi", x: 60, h: 22),
            Fixture.line(60, "M +971 56 789 0123", x: 290, h: 22),
            Fixture.line(100, "Lead Engineer", x: 60, h: 22),
            Fixture.line(100, "T +971 2 657 8800", x: 290, h: 22),
            Fixture.line(140, "Falcon Petroleum", x: 60, h: 22),
            Fixture.line(140, "f.alhashemi@falconpetro.ae", x: 290, h: 22),
            Fixture.line(180, "falconpetro.ae", x: 290, h: 22),
        ])
        #expect(c.name?.full == "Fatima Al Hashemi")
        #expect(c.phones.first { $0.type == .mobile }?.e164 == "+971567890123")
        // One column whose values start at one edge after their labels, a name read as two boxes whose second starts
        // there too: no gutter, the name stays whole.
        let one = card([
            (40, 30, [(40, "Alexandra")]), (40, 30, [(205, "Papadopoulos")]),
            (100, 20, [(40, "Regional"), (139, "Sales"), (205, "Manager")]),
            (130, 20, [(40, "Aegean"), (117, "Freight"), (205, "S.A.")]),
            Fixture.line(200, "Phone", x: 40, h: 20), Fixture.line(200, "+30 210 555 0142", x: 205, h: 20),
            Fixture.line(230, "Email", x: 40, h: 20), Fixture.line(230, "alexandra@aegeanfreight.gr", x: 205, h: 20),
        ])
        #expect(one.name?.full == "Alexandra Papadopoulos")
        #expect(one.title == "Regional Sales Manager")
    }

    /// Titles one after another in small letters before the name (`prof. dr hab. inż.`), and a Malaysian name's
    /// `a/l`: the name stays the name, the title the title. A title's word that is also a name's (`Pan Wei`) stays the
    /// name's.
    @Test func titlesInSmallLettersBeforeTheNameAndMalaysianParticles() {
        func named(_ name: String) -> BusinessCard {
            card([
                Fixture.line(60, "Politechnika Małopolska", x: 60, h: 30),
                Fixture.line(130, name, x: 60, h: 26),
                Fixture.line(170, "Kierownik Katedry Automatyki", x: 60, h: 18),
                Fixture.line(260, "tel. +48 12 555 01 42", x: 60, h: 16),
                Fixture.line(285, "kontakt@pmal.edu.pl", x: 60, h: 16),
            ])
        }
        let pl = named("prof. dr hab. inż. Tomasz Nowak")
        #expect(pl.name?.full == "prof. dr hab. inż. Tomasz Nowak")
        #expect(pl.name?.given == "Tomasz")
        #expect(pl.title == "Kierownik Katedry Automatyki")
        #expect(named("Ir. Rajesh a/l Subramaniam").name?.full == "Ir. Rajesh a/l Subramaniam")
        #expect(named("Pan Wei").name?.full == "Pan Wei")
    }

    /// A number labelled `WhatsApp` is a mobile's.
    @Test func aWhatsAppNumberIsAMobile() {
        let c = card([
            Fixture.line(60, "Mariana Solís", x: 60, h: 34),
            Fixture.line(110, "Brand Ambassador", x: 60, h: 18),
            Fixture.line(200, "WhatsApp +52 33 1987 6543", x: 60, h: 18),
            Fixture.line(230, "mariana@casaagaveazul.mx", x: 60, h: 18),
        ])
        #expect(c.phones.map(\.type) == [.mobile])
    }

    /// A line that holds only a run of digits, valid as a number of the card's region, is a phone whose label was a
    /// drawn icon: an Indian mobile printed without its 0 and without a space.
    @Test func aNumberAloneOnItsLineIsAPhone() {
        let c = card([
            Fixture.line(60, "Ananya Kulkarni", x: 60, h: 34),
            Fixture.line(110, "Site Engineer", x: 60, h: 18),
            Fixture.line(200, "9823047716", x: 90, h: 18),
            Fixture.line(230, "ananya@deccanbuild.in", x: 90, h: 18),
            Fixture.line(300, "14, FC Road, Shivajinagar", x: 60, h: 18),
            Fixture.line(326, "Pune 411005", x: 60, h: 18),
        ])
        #expect(c.phones.map(\.e164) == ["+919823047716"])
        // Not under a line that labels another number.
        let cvr = card([
            Fixture.line(60, "Mette Lund", x: 60, h: 34),
            Fixture.line(110, "Indehaver", x: 60, h: 18),
            Fixture.line(200, "CVR-nr.", x: 90, h: 18),
            Fixture.line(226, "38214719", x: 90, h: 18),
            Fixture.line(260, "mette@lund-design.dk", x: 90, h: 18),
            Fixture.line(300, "Vesterbrogade 12", x: 60, h: 18),
            Fixture.line(326, "1620 København V", x: 60, h: 18),
        ])
        #expect(cvr.phones.isEmpty)
    }

    /// A bare host that is the card's own e-mail domain is its web address, though a bare `.ai` name alone could be a
    /// file's: the line is then a contact's, not the firm's (`Web seorin.ai` beside `Seorin Robotics`).
    @Test func theCardsOwnDomainPrintedBare() {
        let c = card([
            Fixture.line(60, "Park Ji-woo", x: 60, h: 40),
            Fixture.line(120, "Research Engineer", x: 60, h: 22),
            Fixture.line(160, "E-mail jiwoo.park@seorin.ai", x: 560, h: 20),
            Fixture.line(190, "Web seorin.ai", x: 560, h: 20),
            Fixture.line(300, "Seorin Robotics", x: 60, h: 30),
        ])
        #expect(c.urls.map(\.url) == ["seorin.ai"])
        #expect(c.organization == "Seorin Robotics")
        // A line that says more than the host stays free for the firm.
        let named = card([
            Fixture.line(60, "Park Ji-woo", x: 60, h: 40),
            Fixture.line(120, "Research Engineer", x: 60, h: 22),
            Fixture.line(160, "jiwoo.park@seorin.ai", x: 560, h: 20),
            Fixture.line(300, "Seorin Robotics (seorin.ai)", x: 60, h: 30),
        ])
        #expect(named.urls.map(\.url) == ["seorin.ai"])
        #expect(named.organization == "Seorin Robotics (seorin.ai)")
        // A file of that name on a card of another domain stays out.
        let other = card([
            Fixture.line(60, "Park Ji-woo", x: 60, h: 40),
            Fixture.line(160, "jiwoo@hanbit.kr", x: 560, h: 20),
            Fixture.line(190, "Portfolio: seorin.ai", x: 560, h: 20),
        ])
        #expect(other.urls.isEmpty)
    }

    /// A person's own business under the person's name, both spelling the domain (`Camila Soto` over `Camila Soto
    /// Fotografía`, camilasoto.cl): the one that says more is the firm. The country's domain (`.cl`, `.hr`) places the
    /// national numbers where nothing else does.
    @Test func aPersonsOwnBusinessAndTheCountrysDomain() {
        let c = card([
            Fixture.line(60, "Camila Soto", x: 70, h: 60),
            Fixture.line(144, "Fotógrafa", x: 70, h: 30),
            Fixture.line(190, "Camila Soto Fotografía", x: 70, h: 36),
            Fixture.line(400, "2 2345 6789", x: 70, h: 24),
            Fixture.line(447, "hola@camilasoto.cl", x: 70, h: 24),
            Fixture.line(491, "camilasoto.cl", x: 70, h: 24),
        ])
        #expect(c.name?.full == "Camila Soto")
        #expect(c.organization == "Camila Soto Fotografía")
        #expect(c.phones.first?.e164 == "+56223456789")
        // A logo's word over its tagline: the logo stays the firm.
        let logo = card([
            Fixture.line(40, "BRIGHTPATH", x: 70, h: 50),
            Fixture.line(100, "Brightpath Makes Hiring Simple", x: 70, h: 20),
            Fixture.line(200, "Jordan Ellis", x: 70, h: 40),
            Fixture.line(250, "Account Manager", x: 70, h: 22),
            Fixture.line(400, "+1 415 555 0134", x: 70, h: 20),
            Fixture.line(430, "jordan@brightpath.com", x: 70, h: 20),
        ])
        #expect(logo.organization == "BRIGHTPATH")
    }

    /// A card in two languages prints its title twice (`Directeur Commercial` / `Sales Director`): the first is the
    /// title, the second no wrapped part of it; and a name's letter that an e-mail writes in ASCII (`ı` of `Yılmaz`,
    /// ayse.yilmaz@) is no misreading to mend.
    @Test func aTitleInTwoLanguagesAndANameTheEmailWritesInASCII() {
        let c = card([
            Fixture.line(60, "Ayşe Yılmaz", x: 70, h: 44),
            Fixture.line(120, "Directeur Commercial", x: 70, h: 22),
            Fixture.line(146, "Sales Director", x: 70, h: 22),
            Fixture.line(300, "Tel: +90 212 283 45 60", x: 70, h: 20),
            Fixture.line(330, "ayse.yilmaz@anadolutekstil.com.tr", x: 70, h: 20),
        ])
        #expect(c.title == "Directeur Commercial")
        #expect(c.name?.full == "Ayşe Yılmaz")
        // An English title wrapped in two lines is one.
        let wrapped = card([
            Fixture.line(60, "Dana Whitfield", x: 70, h: 44),
            Fixture.line(120, "Chief Technology", x: 70, h: 22),
            Fixture.line(146, "Officer EMEA", x: 70, h: 22),
            Fixture.line(300, "Tel: +44 20 7946 0958", x: 70, h: 20),
        ])
        #expect(wrapped.title == "Chief Technology Officer EMEA")
    }

    /// A code after the town in a column of its own beside the name (`88 The Terrace` over `Wellington 6011`, right of
    /// the name and title): the line is read after the street above it in its column, not after its row's other half.
    @Test func aCodeAfterTheTownInTheRightColumn() {
        let nz = Fixture.document(Fixture.page(width: 1004, height: 600, [
            Fixture.line(60, "Kaitiaki Environmental Trust", x: 60, h: 26),
            Fixture.line(300, "Aroha Te Whata", x: 60, h: 36),
            Fixture.line(300, "88 The Terrace", x: 640, h: 20),
            Fixture.line(340, "Community Liaison Officer", x: 60, h: 20),
            Fixture.line(340, "Wellington 6011", x: 640, h: 20),
            Fixture.line(420, "Ph 04 471 2345", x: 640, h: 20),
            Fixture.line(450, "aroha@kaitiaki.org.nz", x: 640, h: 20),
        ]))
        let a = try! extractor.extract(nz, as: .businessCard).businessCard!.address
        #expect(a?.postalCode == "6011")
        #expect(a?.street == "88 The Terrace")
    }

    /// Codes printed after the town, on a line of their own under the street, where the card's region writes them so
    /// (`Wellington 6011` in New Zealand); Malaysia's `H/P` is a mobile, and `binte` a particle of a Malay name.
    @Test func anAddressWithItsCodeAfterTheTownAndMalayLabels() {
        let nz = Fixture.document(Fixture.page(width: 1004, height: 600, [
            Fixture.line(60, "Kaitiaki Environmental Trust", x: 60, h: 26),
            Fixture.line(140, "Aroha Te Whata", x: 60, h: 40),
            Fixture.line(200, "Community Liaison Officer", x: 60, h: 22),
            Fixture.line(300, "Ph 04 471 2345", x: 60, h: 20),
            Fixture.line(330, "Mob 021 555 0187", x: 60, h: 20),
            Fixture.line(360, "aroha@kaitiaki.org.nz", x: 60, h: 20),
            Fixture.line(420, "88 The Terrace", x: 60, h: 20),
            Fixture.line(450, "Wellington 6011", x: 60, h: 20),
        ]))
        let a = try! extractor.extract(nz, as: .businessCard).businessCard!.address
        #expect(a?.postalCode == "6011")
        #expect(a?.city == "Wellington")
        #expect(a?.street == "88 The Terrace")
        // No code at all, as the Gulf and Hong Kong write addresses: the street's lines over a line that ends with a
        // country or a large city.
        let ae = Fixture.document(Fixture.page(width: 1004, height: 600, [
            Fixture.line(60, "Gulf Horizon Trading LLC", x: 60, h: 26),
            Fixture.line(140, "Ahmed Al Mansoori", x: 60, h: 40),
            Fixture.line(200, "Sales Manager", x: 60, h: 22),
            Fixture.line(300, "T +971 4 123 4567", x: 60, h: 20),
            Fixture.line(330, "ahmed@gulfhorizon.ae", x: 60, h: 20),
            Fixture.line(400, "Office 1204, Al Moosa Tower 2", x: 60, h: 20),
            Fixture.line(430, "Sheikh Zayed Road, P.O. Box 123456", x: 60, h: 20),
            Fixture.line(460, "Dubai, UAE", x: 60, h: 20),
        ]))
        let gulf = try! extractor.extract(ae, as: .businessCard).businessCard!.address
        #expect(gulf?.full == "Office 1204, Al Moosa Tower 2, Sheikh Zayed Road, P.O. Box 123456, Dubai, UAE")
        #expect(gulf?.country == "AE")
        let hk = Fixture.document(Fixture.page(width: 1004, height: 600, [
            Fixture.line(60, "Wing Hing Trading Co., Ltd.", x: 60, h: 26),
            Fixture.line(140, "Chan Tai Man", x: 60, h: 40),
            Fixture.line(300, "T +852 2345 6789", x: 60, h: 20),
            Fixture.line(400, "Flat B, 8/F, Wing Hing Industrial Building", x: 60, h: 20),
            Fixture.line(430, "14 Hing Yip Street, Kwun Tong, Kowloon", x: 60, h: 20),
        ]))
        #expect(try! extractor.extract(hk, as: .businessCard).businessCard!.address?.country == "HK")
        let my = Fixture.document(Fixture.page(width: 1004, height: 600, [
            Fixture.line(60, "Merlion Health Pte Ltd", x: 60, h: 26),
            Fixture.line(140, "Nur Aisyah binte Rahman", x: 60, h: 40),
            Fixture.line(200, "HR Business Partner", x: 60, h: 22),
            Fixture.line(300, "H/P: +6012-345 6789", x: 60, h: 20),
            Fixture.line(330, "aisyah@merlionhealth.com.my", x: 60, h: 20),
        ]))
        let c = try! extractor.extract(my, as: .businessCard).businessCard!
        #expect(c.name?.full == "Nur Aisyah binte Rahman")
        #expect(c.title == "HR Business Partner")
        #expect(c.phones.first?.type == .mobile)
    }

    /// The street, city and region of an address printed over several lines, for the CSV and
    /// the vCard: what the postal code's line holds besides the code, in several countries' orders.
    @Test(arguments: [
        (["5979 Pine Way"], "Chicago, IL 60617", "60617", "IL", "5979 Pine Way", "Chicago", "IL"),
        (["14 Wharf Road"], "London N1 7GR", "N1 7GR", nil, "14 Wharf Road", "London", nil),
        (["Friedrichstraße 12"], "D-10115 Berlin", "10115", nil, "Friedrichstraße 12", "Berlin", nil),
        (["8 Rue de Rivoli", "Bâtiment B"], "75004 Paris", "75004", nil, "8 Rue de Rivoli, Bâtiment B", "Paris", nil),
        (["240 Queen Avenue"], "Melbourne VIC 3000", "3000", "VIC", "240 Queen Avenue", "Melbourne", "VIC"),
        (["100 King St W"], "Toronto, ON M5V 2T6", "M5V 2T6", nil, "100 King St W", "Toronto", "ON"),
        ([], "Seattle, WA 98141, USA", "98141", "WA", nil, "Seattle", "WA"),
        (["Calle Mayor 12"], "28013 Madrid, España", "28013", nil, "Calle Mayor 12", "Madrid", nil),
        (["Herengracht 182"], "NL, 1016 BR Amsterdam", "1016 BR", nil, "Herengracht 182", "Amsterdam", nil),
        ([], "Huberstrasse 97, 3746 Amriswil, Switzerland", "3746", nil, "Huberstrasse 97", "Amriswil", nil),
        ([], "12 High Street, Flat 2, London N1 7GR", "N1 7GR", nil, "12 High Street, Flat 2", "London", nil),
    ] as [([String], String, String, String?, String?, String?, String?)])
    func addressPartsFromItsLines(
        _ streetLines: [String], _ postalLine: String, _ code: String, _ detectedRegion: String?,
        _ street: String?, _ city: String?, _ region: String?
    ) {
        var a = BusinessCard.Address(full: (streetLines + [postalLine]).joined(separator: ", "), region: detectedRegion,
                                     postalCode: code)
        BusinessCardParser.complete(&a, streetLines: streetLines, postalLine: postalLine)
        #expect(a.street == street)
        #expect(a.city == city)
        #expect(a.region == region)
        #expect(a.postalCode == code)
    }

    /// An e-mail domain that OCR misread in look-alike letters takes the web address's spelling when the organization
    /// spells that one; a real difference, or a domain the organization does not spell, is left alone.
    @Test func anEmailDomainMendedByTheWebAddress() {
        let mend = BusinessCardParser.domainMendedByWeb
        #expect(mend("j_sanders@osbormehopkins.ca", ["www.osbornehopkins.ca"], "Osborne-Hopkins") == "j_sanders@osbornehopkins.ca")
        #expect(mend("anna@wi1son-design.co.uk", ["wilson-design.co.uk"], "Wilson Design Ltd") == "anna@wilson-design.co.uk")
        #expect(mend("j@osbornehopkins.ca", ["www.osbornehopkins.ca"], "Osborne-Hopkins") == nil, "already the same")
        #expect(mend("j@osbornegroup.ca", ["www.osbornehopkins.ca"], "Osborne-Hopkins") == nil, "another domain")
        #expect(mend("j@modern.com", ["www.modern.com"], "Modern Ltd") == nil, "the same")
        #expect(mend("j@rnodern.com", ["www.modern.com"], "Acme Ltd") == nil, "the organization spells neither")
        #expect(mend("j@rnodern-homes.com", ["modern-homes.com"], "Modern Homes Inc") == "j@modern-homes.com", "rn read for m")
        // Any one letter, where the organization spells the web address's stem and not the e-mail's.
        #expect(mend("f@vertieealimentos.com.br", ["verticealimentos.com.br"], "Vértice Alimentos Ltda.")
            == "f@verticealimentos.com.br")
        #expect(mend("f@verticealimentos.com.br", ["vertieealimentos.com.br"], "Vértice Alimentos Ltda.") == nil)
        #expect(mend("f@northgate.de", ["northgate.dk"], "Northgate GmbH") == nil, "both stems spelled")
        // A capital I printed in the domain where the web address has an l, whatever the organization.
        let capital = BusinessCardParser.domainWithCapitalIRead
        #expect(capital("Email: ac@Imsmarine.com.cy", "ac@imsmarine.com.cy", ["www.lmsmarine.com.cy"])
            == "ac@lmsmarine.com.cy")
        #expect(capital("ac@imsmarine.com.cy", "ac@imsmarine.com.cy", ["www.lmsmarine.com.cy"]) == nil)
        #expect(capital("ac@Imsmarine.com.cy", "ac@imsmarine.com.cy", ["www.imsmarine.com.cy"]) == nil)
    }

    /// A country printed after the city, by name or by its two-letter code, fills the country and is no region.
    @Test(arguments: [
        ("10115 Berlin, DE", "10115", "DE", nil, "DE"),
        ("28013 Madrid, Spain", "28013", nil, nil, "ES"),
        ("Toronto, ON M5V 2T6, CA", "M5V 2T6", "CA", "ON", "CA"),
    ] as [(String, String, String?, String?, String?)])
    func countryAfterTheCity(
        _ postalLine: String, _ code: String, _ detectedCountry: String?, _ region: String?, _ country: String?
    ) {
        var a = BusinessCard.Address(full: postalLine, postalCode: code, country: detectedCountry)
        BusinessCardParser.complete(&a, streetLines: [], postalLine: postalLine)
        #expect(a.region == region)
        #expect(a.country == country)
        #expect(a.city == postalLine.split(separator: ",").first.map { $0.replacingOccurrences(of: code, with: "").trimmingCharacters(in: .whitespaces) })
    }

    @Test func typesPhonesFromLabels() {
        let c = try! extractor.extract(ukCard(), as: .businessCard).businessCard!
        #expect(c.phones.count == 2)
        #expect(c.phones.first { $0.type == .work }?.e164 == "+442079460958")
        #expect(c.phones.first { $0.type == .mobile }?.e164 == "+447700900123")
        #expect(c.emails.map(\.address) == ["priya.raman@harbourlight.co.uk"])
        #expect(c.urls.map(\.url) == ["www.harbourlight.co.uk"])
    }

    /// A direct line's label in German, Swedish and Dutch (`Direkt`, `Durchwahl`, `Direct`) names an office's number,
    /// whichever the line before it is.
    @Test func directLinesAreWork() {
        for label in ["Direkt", "Durchwahl", "Direct"] {
            let c = Fixture.card([
                Fixture.line(40, "Dr. Lukas Brunner", x: 60, h: 34),
                Fixture.line(84, "Partner", x: 60, h: 22),
                Fixture.line(200, "+41 44 215 38 60", x: 600, h: 20),
                Fixture.line(226, "\(label) +41 44 215 38 64", x: 600, h: 20),
                Fixture.line(252, "lukas.brunner@brunnerkeller.ch", x: 600, h: 20),
            ])
            #expect(c.phones.map(\.type) == [.work, .work], "\(label)")
        }
    }

    /// A number after a labelled one and a bar or a slash shares its label.
    @Test func aNumberAfterABarSharesItsLabel() {
        for mark in ["|", "/"] {
            let c = Fixture.card([
                Fixture.line(40, "Rajesh Kumar Agarwal", x: 60, h: 34),
                Fixture.line(84, "Director", x: 60, h: 22),
                Fixture.line(200, "Mob: +91 98250 47163 \(mark) +91 93761 20584", x: 60, h: 20),
                Fixture.line(226, "Off: +91 79 2658 3142", x: 60, h: 20),
                Fixture.line(252, "rajesh@shreejitextiles.in", x: 60, h: 20),
            ])
            #expect(c.phones.map(\.type) == [.mobile, .mobile, .work], "\(mark)")
        }
        // (Not where the number's own range says the other kind: a fixed line after `Mob:`.)
        let fixed = Fixture.card([
            Fixture.line(40, "Amit Patel", x: 60, h: 34),
            Fixture.line(84, "Proprietor", x: 60, h: 22),
            Fixture.line(200, "Mob: +91 98250 47163 | +91 79 2658 1234", x: 60, h: 20),
            Fixture.line(252, "amit@shreejitextiles.in", x: 60, h: 20),
        ])
        #expect(fixed.phones.map(\.type) == [.mobile, .work])
    }

    @Test func readsTheAddress() {
        let c = try! extractor.extract(ukCard(), as: .businessCard).businessCard!
        #expect(c.address?.full == "14 Wharf Road, London N1 7GR")
        #expect(c.address?.postalCode == "N1 7GR")
    }

    @Test func frenchLabels() {
        let doc = Fixture.document(Fixture.page(width: 1050, height: 600, [
            Fixture.line(100, "Camille Dubois", x: 60, h: 36),
            Fixture.line(150, "Directrice commerciale", x: 60, h: 18),
            Fixture.line(300, "Tél. +33 1 42 68 53 00", x: 60, h: 18),
            Fixture.line(325, "Fax +33 1 42 68 53 01", x: 60, h: 18),
            Fixture.line(350, "Port. +33 6 12 34 56 78", x: 60, h: 18),
        ]))
        let c = try! extractor.extract(doc, as: .businessCard).businessCard!
        #expect(c.name?.full == "Camille Dubois")
        #expect(c.title == "Directrice commerciale")
        #expect(Set(c.phones.map { "\($0.type.rawValue) \($0.e164 ?? "")" }) ==
                ["work +33142685300", "fax +33142685301", "mobile +33612345678"])
    }

    /// Honorifics one after another are the prefix, and a family name in capitals before the given name is the
    /// family name.
    @Test func honorificsInARowAndAFamilyNameInCapitals() {
        let doctor = BusinessCardParser.splitName("Dr.-Ing. Klaus Hoffmann")
        #expect(doctor.prefix == "Dr.-Ing." && doctor.given == "Klaus" && doctor.family == "Hoffmann")
        let professor = BusinessCardParser.splitName("Prof. Dr. Heike Wagner")
        #expect(professor.prefix == "Prof. Dr." && professor.given == "Heike" && professor.family == "Wagner")
        #expect(BusinessCardParser.splitName("Dr. Wagner").given == "Dr.", "a name is left")
        let japanese = BusinessCardParser.splitName("YAMAMOTO Keiko")
        #expect(japanese.given == "Keiko" && japanese.family == "YAMAMOTO")
        let french = BusinessCardParser.splitName("DUPONT Jean-Marc")
        #expect(french.given == "Jean-Marc" && french.family == "DUPONT")
        #expect(BusinessCardParser.splitName("Jean DUPONT").family == "DUPONT")
        #expect(BusinessCardParser.splitName("ANNA BERG").given == "ANNA", "all in capitals: the order as printed")
        #expect(BusinessCardParser.splitName("J. R. Smith").given == "J.")
        // An initial or a name after the first honorific is no honorific; an honorific in capitals no family name.
        let initial = BusinessCardParser.splitName("Dr. M. Anand Kumar")
        #expect(initial.prefix == "Dr." && initial.given == "M.")
        #expect(BusinessCardParser.splitName("Dr. Don Alan Draper").given == "Don")
        #expect(BusinessCardParser.splitName("MRS Smith").family == "Smith")
        #expect(BusinessCardParser.splitName("DAVID J. Smith").given == "DAVID")
    }

    /// Where people carry two surnames, the name is split so: by the e-mail's local part when it spells where the
    /// surnames start, else one given name of three names and two of four; elsewhere, as before.
    @Test func twoSurnamesWhereTheRegionGivesThem() {
        func split(_ name: String, _ local: String? = nil, twoSurnames: Bool = true) -> [String?] {
            let n = BusinessCardParser.splitName(name, emailLocal: local, twoSurnames: twoSurnames)
            return [n.given, n.middle, n.family]
        }
        #expect(split("María José García López") == ["María José", nil, "García López"])
        #expect(split("Luis Fernández Martín") == ["Luis", nil, "Fernández Martín"])
        #expect(split("Javier Martínez de la Fuente") == ["Javier", nil, "Martínez de la Fuente"])
        #expect(split("João Pedro da Silva Santos") == ["João Pedro", nil, "da Silva Santos"])
        // The e-mail says where the surnames start: a given name of two words before one surname.
        #expect(split("José Luis Rodríguez", "jlrodriguez") == ["José Luis", nil, "Rodríguez"])
        #expect(split("María José García López", "mj.garcia") == ["María José", nil, "García López"])
        #expect(split("Ana Gómez", "ana.gomez") == ["Ana", nil, "Gómez"])
        // A local part that spells given names only says nothing of where three words of surnames would start.
        #expect(split("María José García López", "mariajose") == ["María José", nil, "García López"])
        // Elsewhere a middle name stays one.
        #expect(split("John Fitzgerald Kennedy", "jfkennedy", twoSurnames: false) == ["John", "Fitzgerald", "Kennedy"])
        #expect(BusinessCardParser.familyStart(["José", "Luis", "Rodríguez"], emailLocal: "info") == nil)
    }

    /// A space after the separator of a local part (`charlotte. bowes-lyon@`) is joined when the whole spells the name:
    /// the part after the space alone is another mailbox.
    @Test func aLocalPartReadApartAfterItsSeparatorIsJoined() {
        let name = BusinessCardParser.splitName("Charlotte Bowes-Lyon")
        let join = BusinessCardParser.localJoinedAcrossSpace
        #expect(join("charlotte.", "bowes-lyon@brightwave.co.uk", name) == "charlotte.bowes-lyon@brightwave.co.uk")
        #expect(join("charlotte", ".bowes-lyon@brightwave.co.uk", name) == "charlotte.bowes-lyon@brightwave.co.uk")
        #expect(join("charlotte.", ".bowes-lyon@brightwave.co.uk", name) == nil, "two separators")
        #expect(join("Mail.", "bowes-lyon@brightwave.co.uk", name) == nil, "no part of the name")
    }

    /// A comma glued before the address is the full stop of its local part as OCR read it (`h,takahashi@`): joined
    /// where the whole spells the name.
    @Test func aCommaReadForTheLocalPartsFullStopIsJoined() {
        let c = card([Fixture.line(40, "Haruka Takahashi", h: 26), Fixture.line(80, "Manager", h: 18),
                      Fixture.line(120, "h,takahashi@kisaragi.co.jp")])
        #expect(c.emails.map(\.address) == ["h.takahashi@kisaragi.co.jp"])
        let other = card([Fixture.line(40, "Haruka Takahashi", h: 26), Fixture.line(80, "Manager", h: 18),
                          Fixture.line(120, "Sales,info@kisaragi.co.jp")])
        #expect(other.emails.map(\.address) == ["info@kisaragi.co.jp"])
    }

    @Test func namesWithPrefixSuffixAndParticles() {
        let n = BusinessCardParser.splitName("Dr. Anna van der Berg, PhD")
        #expect(n.prefix == "Dr.")
        #expect(n.given == "Anna")
        #expect(n.family == "van der Berg")
        #expect(n.suffix == "PhD")
        // Particles and e-mail labels come from the locale files (`card.nameParticles`, `card.emailLabels`).
        #expect(BusinessCardParser.splitName("Ahmad bin Ismail").family == "bin Ismail")
        #expect(BusinessCardParser.splitName("Giulia della Rovere").family == "della Rovere")
    }

    /// An e-mail spells a name without its accents: `chloe@` is Chloé's, `chloe.lefevre@` Chloé Lefèvre's.
    @Test func anEmailSpellsANameWithoutItsAccents() {
        #expect(BusinessCardParser.matchesLocal("chloe", ["Chloé", "Dupont"]))
        #expect(BusinessCardParser.spellsPerson("chloe.lefevre", ["Chloé", "Lefèvre"]))
        #expect(!BusinessCardParser.matchesLocal("info", ["Chloé", "Dupont"]))
    }

    @Test func classifierRoutesACardAndAReceipt() {
        let card = try! extractor.extract(ukCard())
        #expect(card.documentType?.label == .businessCard)
        #expect((card.documentType?.confidence ?? 0) > 0.5)
        let receipt = try! extractor.extract(ReceiptParserTests().diner())
        #expect(receipt.documentType?.label == .receipt)
        #expect(receipt.receipt != nil && receipt.businessCard == nil)
    }

    @Test func layoutJoinsASplitLabelAndAmountOnASlantedPage() {
        // Words 0.05 rad off horizontal: label at the left, amount far right, separate observations.
        let slant = 0.05 * 440
        let rows: [(Double, Double, [(Double, String)])] = [
            (100, 16, [(20, "Soup"), (200, "bowl")]), (100 + slant, 16, [(460, "6.50")]),
            (130, 16, [(20, "Bread"), (200, "roll")]), (130 + slant, 16, [(460, "2.00")]),
            (160, 16, [(20, "TOTAL"), (200, "due")]), (160 + slant, 16, [(460, "8.50")]),
        ]
        var p = Fixture.page(rows)
        // Give the label observations their slant too.
        for i in p.observations.indices where p.observations[i].words.count == 2 {
            p.observations[i].words[1].boundingBox.y += 0.05 * 180
        }
        let lines = LayoutAnalyzer.lines(of: p)
        #expect(lines.map { $0.text } == ["Soup bowl 6.50", "Bread roll 2.00", "TOTAL due 8.50"])
    }
}

@Suite struct WriterTests {
    @Test func vcardEscapesAndFolds() {
        let src = Provenance(text: "x", page: 0, boundingBox: nil, confidence: 1)
        let card = BusinessCard(name: .init(full: "Anna Berg, PhD", given: "Anna", family: "Berg", suffix: "PhD"),
                                title: "Head of R&D; Europe", organization: "Nord, Süd & Partner GmbH",
                                phones: [.init(type: .mobile, number: "0170 1234567", e164: "+491701234567", source: src)],
                                emails: [.init(address: "anna@nsp.de", source: src)],
                                address: .init(full: "Lange Straße 12, 10115 Berlin", street: "Lange Straße 12", city: "Berlin", postalCode: "10115", country: "DE"))
        let v = VCardWriter.card(card)
        #expect(v.hasPrefix("BEGIN:VCARD\r\nVERSION:4.0\r\nUID:urn:uuid:"))
        // The same card gives the same UID; another person another one.
        let uid = v.components(separatedBy: "\r\n")[2]
        let shape = #"^UID:urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$"#
        #expect(uid.range(of: shape, options: .regularExpression) != nil, "\(uid)")
        #expect(VCardWriter.card(card).contains(uid + "\r\n"))
        var other = card
        other.emails = []
        #expect(!VCardWriter.card(other).contains(uid + "\r\n"))
        // Cards that name no one and nothing differ by their inputs.
        func uidLine(_ source: String) -> String { VCardWriter.card(BusinessCard(), source: source)
            .components(separatedBy: "\r\n")[2] }
        #expect(uidLine("a.png") != uidLine("b.png"))
        #expect(v.hasSuffix("END:VCARD\r\n"))
        #expect(v.contains("FN:Anna Berg\\, PhD\r\n"))
        #expect(v.contains("TITLE:Head of R&D\\; Europe\r\n"))
        #expect(v.contains("ORG:Nord\\, Süd & Partner GmbH\r\n"))
        #expect(v.contains("TEL;VALUE=uri;TYPE=cell,voice:tel:+491701234567\r\n"))
        let unfolded = v.replacingOccurrences(of: "\r\n ", with: "")
        #expect(unfolded.contains("ADR;TYPE=work;LABEL=\"Lange Straße 12, 10115 Berlin\":;;Lange Straße 12;Berlin;;10115;Germany"))
        for line in v.components(separatedBy: "\r\n") { #expect(line.utf8.count <= 75) }
    }

    /// What a contacts app needs to call and file the card: the extension in the number's URI (RFC 3966) and in the
    /// CSV, a department without an organization, a name (FN is required) for a card that prints none.
    @Test func vcardKeepsExtensionsDepartmentsAndAlwaysAName() {
        let src = Provenance(text: "x", page: 0, boundingBox: nil, confidence: 1)
        let card = BusinessCard(department: "Department of Cardiology",
                                phones: [.init(type: .work, number: "+353 1 234 5678 ext. 42", e164: "+35312345678",
                                               extension: "42", source: src)])
        let v = VCardWriter.card(card)
        #expect(v.contains("TEL;VALUE=uri;TYPE=work,voice:tel:+35312345678;ext=42\r\n"))
        #expect(v.contains("ORG:;Department of Cardiology\r\n"))
        #expect(v.contains("FN:Department of Cardiology\r\n"))
        var doc = Document(source: "c.png", engine: EngineInfo(name: "t", version: "1"), pages: [])
        doc.businessCard = card
        let csv = String(decoding: CSVWriter.csv(doc), as: UTF8.self)
        #expect(csv.contains("+35312345678 ext. 42"))
        let onlyPhone = BusinessCard(phones: [.init(type: .mobile, number: "0170 1234567", e164: nil, source: src)])
        #expect(VCardWriter.card(onlyPhone).contains("FN:0170 1234567\r\n"))
        // A parameter value escaped as RFC 6868 says.
        let mill = BusinessCard(address: .init(full: "Unit ^2, \"The Mill\"\nCork", city: "Cork"))
        #expect(VCardWriter.card(mill).contains("LABEL=\"Unit ^^2, ^'The Mill^'^nCork\""))
    }

    @Test func foldingKeepsCharactersWhole() {
        let long = "NOTE:" + String(repeating: "é", count: 60)
        let folded = VCardWriter.fold(long)
        let parts = folded.components(separatedBy: "\r\n ")
        #expect(parts.count == 2)
        #expect(parts.allSatisfy { $0.utf8.count <= 75 })
        #expect(parts.joined() == long)
    }

    @Test func csvHasStableColumnsAndQuotes() {
        let src = Provenance(text: "x", page: 0, boundingBox: nil, confidence: 1)
        var doc = Document(source: "r.png", engine: EngineInfo(name: "t", version: "1"), pages: [])
        doc.receipt = Receipt(merchant: .init(name: "Joe's \"Best\" Diner, Inc."),
                              items: [.init(description: "Eggs, scrambled", quantity: "2", amount: "9.00", source: src)],
                              total: "9.00")
        let text = String(decoding: CSVWriter.csv(doc), as: UTF8.self)
        let rows = text.components(separatedBy: "\r\n")
        #expect(rows[0] == CSVWriter.receiptColumns.joined(separator: ","))
        #expect(rows[1].hasPrefix("r.png,\"Joe's \"\"Best\"\" Diner, Inc.\","))
        #expect(rows[1].contains(",1,\"Eggs, scrambled\",2,,,9.00,"))
    }
}

@Suite struct CardPhoneAndOrderTests {
    let extractor = DocumentExtractor(
        detector: try! DataDetector(referenceDate: CalendarDay(year: 2024, month: 1, day: 1)))

    func card(_ lines: [(Double, Double, [(Double, String)])]) -> BusinessCard {
        try! extractor.extract(Fixture.document(Fixture.page(width: 900, height: 500, lines)), as: .businessCard)
            .businessCard!
    }

    /// The logo's words over the firm's name with its legal form: the one with the legal form is the organization.
    @Test func theLineWithALegalFormIsTheOrganization() {
        let c = card([(40, 30, [(80, "HUDSON"), (240, "LABS")]),
                      (120, 40, [(80, "Mara"), (200, "Whitfield")]),
                      (180, 22, [(80, "Hudson"), (180, "Labs,"), (260, "Inc.")]),
                      (240, 22, [(80, "mara@hudsonlabs.com")]),
                      (280, 22, [(80, "www.hudsonlabs.com")])])
        #expect(c.organization == "Hudson Labs, Inc.")
    }

    /// A profile printed as a service and a handle is a link, as a printed URL is: not `https://Twitter: @jonasberg`.
    @Test func aHandleIsALinkToItsProfile() {
        let c = card([(60, 40, [(80, "Jonas"), (220, "Berg")]),
                      (140, 24, [(80, "jonas@berg-design.se")]),
                      (180, 24, [(80, "Twitter:"), (200, "@jonasberg")])])
        #expect(c.socialProfiles.map(\.service) == ["x"])
        #expect(c.socialProfiles.map(\.value) == ["x.com/jonasberg"])
        #expect(VCardWriter.card(c).contains("X-SOCIALPROFILE;TYPE=x:https://x.com/jonasberg\r\n"))
        // The CSV has the link too, in its last column.
        var doc = Document(source: "c.png", engine: EngineInfo(name: "t", version: "1"), pages: [])
        doc.businessCard = c
        let rows = String(decoding: CSVWriter.csv(doc), as: UTF8.self).split(separator: "\r\n")
        #expect(rows.first?.hasSuffix(",social_profiles") == true)
        #expect(rows.last?.hasSuffix(",https://x.com/jonasberg") == true)
        #expect(BusinessCardParser.handleProfile("LinkedIn: in/anna-kowalska")?.url == "linkedin.com/in/anna-kowalska")
        #expect(BusinessCardParser.handleProfile("linkedin/annak")?.url == "linkedin.com/in/annak")
        #expect(BusinessCardParser.handleProfile("GitHub: @octo-cat.")?.url == "github.com/octo-cat")
        #expect(BusinessCardParser.handleProfile("Twitter:") == nil)
    }

    /// Labels printed in a column of their own beside the numbers (`Fax` ... `030 804700`): each number takes the label
    /// on its row.
    @Test func labelsInAColumnBesideTheNumbers() {
        let c = card([(346, 29, [(669, "Piazza"), (766, "Pascarella,"), (880, "107")]),
                      (380, 29, [(707, "20048"), (790, "Trassilico")]),
                      (423, 30, [(668, "Uff.")]), (424, 29, [(780, "030"), (835, "804737")]),
                      (464, 42, [(81, "Germana"), (240, "Gaiatto")]),
                      (458, 29, [(649, "Cellulare"), (770, "373"), (825, "846"), (880, "4933")]),
                      (493, 31, [(669, "Fax")]), (493, 29, [(780, "030"), (835, "804700")]),
                      (520, 48, [(78, "Area"), (160, "Manager")]),
                      (538, 29, [(589, "germana@gaiattostudio.com")])])
        #expect(c.phones.map(\.number) == ["030 804737", "373 846 4933", "030 804700"])
        #expect(c.phones.map(\.type) == [.work, .mobile, .fax])
    }

    /// Look-alike letters of a sans-serif face: a name's capital `I` read as `l`, an e-mail's `l` read as `1` or `I`;
    /// and a German name whose e-mail writes its umlauts out (`Hänel` as `haenel`), which makes the line its owner's
    /// name, not a company named by the domain.
    @Test func lookAlikeLettersAndUmlautsWrittenOut() {
        let iain = card([Fixture.line(40, "Walters and Sons", h: 16), Fixture.line(80, "Prof. lain Lyons", h: 24),
                         Fixture.line(110, "Operations Director"), Fixture.line(150, "iain_lyons@walters.co.uk")])
        #expect(iain.name?.full == "Prof. Iain Lyons")
        #expect(iain.title == "Operations Director")
        #expect(BusinessCardParser.capitalIRead("la") == "la" && BusinessCardParser.capitalIRead("lrene") == "Irene")
        #expect(BusinessCardParser.capitalIRead("le") == "le" && BusinessCardParser.capitalIRead("Lena") == "Lena")

        let hasler = card([Fixture.line(40, "Meister AG", h: 16), Fixture.line(80, "Lio Hasler", h: 24),
                           Fixture.line(150, "E-mail: 1.hasler@meister.ch")])
        #expect(hasler.emails.map(\.address) == ["l.hasler@meister.ch"])
        let keeps = card([Fixture.line(80, "Lio Hasler", h: 24), Fixture.line(150, "E-mail: team1.sales@meister.ch")])
        #expect(keeps.emails.map(\.address) == ["team1.sales@meister.ch"], "no name is spelled by the mend")

        let haenel = card([Fixture.line(80, "Hüseyin Hänel", h: 24), Fixture.line(110, "Executive Assistant"),
                           Fixture.line(150, "E-Mail: hhaenel@haenel.de")])
        #expect(haenel.name?.full == "Hüseyin Hänel")
        #expect(haenel.organization == nil)
        #expect(BusinessCardParser.spellsPerson("lhoermann", ["Laura", "Hörmann"]))
        #expect(BusinessCardParser.matchesLocal("jmueller", ["Jana", "Müller"]) && BusinessCardParser.matchesLocal("jmuller", ["Jana", "Müller"]))
    }

    /// A person's own domain and no other line that can be a name: the line is the name, not the company.
    @Test func aNameThatOnlyTheDomainMadeACompany() {
        let c = card([Fixture.line(80, "Melissa Chase", h: 24), Fixture.line(110, "Herpetologist"),
                      Fixture.line(150, "1-217-739-5677"), Fixture.line(170, "www.chase.com")])
        #expect(c.name?.full == "Melissa Chase")
        #expect(c.organization == nil)
        #expect(c.title == "Herpetologist")
    }

    /// E-mail and web addresses as OCR breaks them: a label glued on before a family name alone, a space read inside
    /// the local part, a `w` doubled.
    @Test func addressesMendedFromTheName() {
        let payne = card([Fixture.line(80, "Tracy Payne", h: 24), Fixture.line(110, "Director"),
                          Fixture.line(150, "Epayne@singleton.com"), Fixture.line(170, "Wwww.singleton.com")])
        #expect(payne.emails.map(\.address) == ["payne@singleton.com"])
        #expect(payne.urls.map(\.url) == ["www.singleton.com"])
        let james = card([Fixture.line(80, "James Johnson", h: 24), Fixture.line(150, "james _johnson@brownrosalessmith.com")])
        #expect(james.emails.map(\.address) == ["james_johnson@brownrosalessmith.com"])
        let other = card([Fixture.line(80, "James Johnson", h: 24), Fixture.line(150, "mail _sales@brownrosalessmith.com")])
        #expect(other.emails.map(\.address) == ["_sales@brownrosalessmith.com"], "the joined address spells no name")
        // An initial and its stop read apart after a label: the line is not cut before the address.
        let initial = card([
            Fixture.line(80, "Dott. Bianca Marchetti", h: 24), Fixture.line(110, "Responsabile Export"),
            Fixture.line(150, "E· b. marchetti@oleificiovalle.it", x: 300),
        ])
        #expect(initial.emails.map(\.address) == ["b.marchetti@oleificiovalle.it"])
    }

    /// An Eircode says the card is Irish, so its national numbers get their +353.
    @Test func anEircodeMakesTheNumbersIrish() {
        let c = card([Fixture.line(80, "Lana Long", h: 24), Fixture.line(110, "56 Comyn Street"),
                      Fixture.line(130, "Seana Ville, X05 N3YH"), Fixture.line(150, "(01) 112 4334")])
        #expect(c.phones.map(\.e164) == ["+35311124334"])
    }

    /// A firm of partners' names printed in capitals is such a firm too.
    @Test func partnersNamesInCapitals() {
        #expect(BusinessCardParser.joinedSurnames("OCONNOR, RAMIREZ AND PRICE"))
        #expect(BusinessCardParser.joinedSurnames("Shaw, Gaines and Martin"))
        #expect(BusinessCardParser.joinedSurnames("Shaw, Gaines, and Martin"))
        #expect(BusinessCardParser.joinedSurnames("Berg, Lund og Dahl"))
        #expect(BusinessCardParser.joinedSurnames("Dupont et Fils") && BusinessCardParser.joinedSurnames("Marshall-Dawson"))
        #expect(!BusinessCardParser.joinedSurnames("NORTH WEST TRADING"), "no joiner")
        #expect(!BusinessCardParser.joinedSurnames("JOHN SMITH"))
        // The joiners come from the locale files, Swedish and Polish included; a one-letter joiner needs a comma, since
        // it also joins one person's family names.
        #expect(BusinessCardParser.joinedSurnames("Lindqvist och Berg") && BusinessCardParser.joinedSurnames("Nowak, Wójcik i Zając"))
        #expect(!BusinessCardParser.joinedSurnames("Ortega y Gasset") && !BusinessCardParser.joinedSurnames("Silva e Santos"))
    }

    /// A job title in no word list, printed as large as the name right under it: the title when the organization is
    /// found on a line of its own; without one, such a line may be the company and is left alone.
    @Test func aTitleAsLargeAsTheNameUnderIt() {
        let c = card([Fixture.line(40, "Klemt e.V.", h: 22), Fixture.line(80, "Leon Barkholz", h: 22),
                      Fixture.line(110, "Vertriebsingenieur", h: 22), Fixture.line(150, "Handy: +49 174 27720732"),
                      Fixture.line(170, "leon@klemt.de")])
        #expect(c.name?.full == "Leon Barkholz")
        #expect(c.organization == "Klemt e.V.")
        #expect(c.title == "Vertriebsingenieur")
        // A little larger than the name, and long.
        let long = card([Fixture.line(40, "Schultz Inc", h: 16), Fixture.line(80, "Dr Susan Anderson", h: 22),
                         Fixture.line(110, "English as a second language teacher", h: 24), Fixture.line(150, "susan.anderson@schultz.com.au")])
        #expect(long.title == "English as a second language teacher")
        // With no organization: a word for someone by what they do, not a surname's ending.
        let agent = card([Fixture.line(80, "Alastair O'Togher", h: 22), Fixture.line(110, "Podiatrist", h: 22),
                          Fixture.line(150, "F (01) 361 6803")])
        #expect(agent.title == "Podiatrist")
        #expect(agent.organization == nil)
        let firm = card([Fixture.line(80, "Alastair O'Togher", h: 22), Fixture.line(110, "Miller", h: 22),
                         Fixture.line(150, "F (01) 361 6803")])
        #expect(firm.title == nil)
    }

    /// A line under the organization that is printed under the name is the firm's tagline, not the person's title; the
    /// same line right under the name is the title.
    @Test func aTaglineUnderTheOrganizationIsNoTitle() {
        let tagline = card([Fixture.line(60, "Christina Young", h: 30), Fixture.line(100, "Lawrence Group", h: 22),
                            Fixture.line(130, "Digitized discrete projection", h: 14), Fixture.line(170, "Tel. (302) 412-3305"),
                            Fixture.line(190, "christina.young@lawrence.com")])
        #expect(tagline.organization == "Lawrence Group")
        #expect(tagline.title == nil)
        let title = card([Fixture.line(60, "Christina Young", h: 30), Fixture.line(95, "Hydrographic surveyor", h: 14),
                          Fixture.line(130, "Lawrence Group", h: 22), Fixture.line(170, "Tel. (302) 412-3305"),
                          Fixture.line(190, "christina.young@lawrence.com")])
        #expect(title.title == "Hydrographic surveyor")
        // A rule read as signs between the name and the title hides nothing.
        let rule = card([Fixture.line(60, "Christina Young", h: 30), Fixture.line(82, "———", h: 6),
                         Fixture.line(95, "Hydrographic surveyor", h: 14), Fixture.line(130, "Lawrence Group", h: 22),
                         Fixture.line(170, "Tel. (302) 412-3305")])
        #expect(rule.title == "Hydrographic surveyor")
    }

    /// Job titles come from the locale files, in each of their languages; on these cards the title is as large as the
    /// name, with no organization, so only the word list can tell it.
    @Test(arguments: [("Giulia Ferri", "Titolare"), ("Marta López", "Gerente de ventas"), ("Joost de Vries", "Eigenaar"),
                      ("Anna Nowak", "Kierownik sprzedaży"), ("João Silva", "Diretor comercial")])
    func jobTitlesOfEveryLocaleFile(name: String, title: String) {
        let c = card([Fixture.line(80, name, h: 22), Fixture.line(110, title, h: 22), Fixture.line(150, "+39 06 1234 5678")])
        #expect(c.name?.full == name)
        #expect(c.title == title)
        #expect(Text.hasAny(Text.key(title), Lexicon.shared.jobTitles))
    }

    /// The firm's domain under any country's top-level domain, and a legal form OCR misread in a look-alike letter.
    @Test func aCountrysDomainAndAMisreadLegalFormMarkTheCompany() {
        #expect(BusinessCardParser.domainStem("samsung.nl") == "samsung")
        #expect(BusinessCardParser.domainStem("www.evergreen-design.co.uk") == "evergreendesign")
        #expect(BusinessCardParser.domainStem("mail.kolar.gv.at") == "kolar")
        // A free mail service's name is no firm's.
        #expect(BusinessCardParser.domainStem("gmail.com") == nil)
        #expect(BusinessCardParser.domainStem("web.de") == nil)
        let samsung = card([Fixture.line(40, "Joëlle Bourgeois", h: 26), Fixture.line(80, "Samsung Electronics Benelux", h: 22),
                            Fixture.line(120, "joelle.bourgeois@samsung.nl")])
        #expect(samsung.organization == "Samsung Electronics Benelux")
        #expect(samsung.title == nil)
        let srl = card([Fixture.line(40, "Ernesto Bianchini", h: 26), Fixture.line(80, "Financial Advisor", h: 18),
                        Fixture.line(110, "Lerner, Casale e Contarini s.r.I.", h: 18), Fixture.line(150, "+39 070 513999")])
        #expect(srl.organization == "Lerner, Casale e Contarini s.r.l.")
    }

    /// What OCR and design do to a card's lines: a title before the name in small letters, a label glued to the e-mail
    /// address, an Irish county in Northern Ireland between the town and the code, an Austrian legal form.
    @Test func aSmallTitleBeforeTheNameAGluedLabelACountyAndAnAustrianForm() {
        let c = card([Fixture.line(40, "mr. Faye Hendriks", h: 26), Fixture.line(80, "Senior Adviseur", h: 18),
                      Fixture.line(110, "Reinisch Metzler GesbR", h: 18), Fixture.line(150, "Mailf.hendriks@reinisch.at"),
                      Fixture.line(180, "73 MacArt Street"), Fixture.line(200, "Amanda Ville"), Fixture.line(220, "Co. Down"),
                      Fixture.line(240, "F55 E4E0")])
        #expect(c.name?.full == "mr. Faye Hendriks")
        #expect(c.title == "Senior Adviseur")
        #expect(c.organization == "Reinisch Metzler GesbR")
        #expect(c.emails.map(\.address) == ["f.hendriks@reinisch.at"])
        #expect(c.address?.full == "73 MacArt Street, Amanda Ville, Co. Down, F55 E4E0")
    }

    /// A lower-case l read as a capital I at the start of the e-mail's local part is mended where the name spells it
    /// so, and only there.
    @Test func anLReadAsACapitalIInTheEmailIsMendedByTheName() {
        func email(_ name: String, _ printed: String) -> (String?, [String]) {
            let out = try! extractor.extract(Fixture.document(Fixture.page(width: 900, height: 500, [
                Fixture.line(40, name, h: 26), Fixture.line(80, "Account manager", h: 16), Fixture.line(120, printed)])), as: .businessCard)
            return (out.businessCard?.emails.first?.address, out.warnings.map(\.code))
        }
        #expect(email("Lori Meadows", "Imeadows@davidson.com").0 == "lmeadows@davidson.com")
        #expect(email("Lisa Hansen", "E. I.hansen@gmail.com").0 == "l.hansen@gmail.com")
        #expect(email("Lisa Hansen", "E. I.hansen@gmail.com").1.contains("card-email-from-name"))
        #expect(email("Ian Meadows", "Imeadows@davidson.com").0 == "imeadows@davidson.com")
        #expect(email("Lori Meadows", "Info@davidson.com").0 == "info@davidson.com")
        // A lower-case i read for the l, one of them, and a first family name of two.
        #expect(email("Lucía Fernández Ortega", "ifernandez@alcazar.es").0 == "lfernandez@alcazar.es")
        #expect(email("Luis Alberto Quispe", "iquispe@andina.pe").0 == "lquispe@andina.pe")
        #expect(email("Lena Marie Pillai", "iena.pillai@kochi.in").0 == "lena.pillai@kochi.in")
        #expect(email("Ivan Quispe", "iquispe@andina.pe").0 == "iquispe@andina.pe")
        #expect(email("Lucía Fernández Ortega", "info@alcazar.es").0 == "info@alcazar.es")
    }

    /// A person's own domain: `sara.barber@barber.com` points at the name line, which is still the name and no company.
    @Test(arguments: ["sara.barber", "sbarber", "sarab", "sara"])
    func aDomainOfThePersonsOwnNameIsNoCompany(local: String) {
        let c = card([Fixture.line(40, "Sara Barber", h: 26), Fixture.line(80, "Licensed conveyancer", h: 18),
                      Fixture.line(120, "07 9437 3580"), Fixture.line(140, "\(local)@barber.com")])
        #expect(c.name?.full == "Sara Barber")
        #expect(c.organization == nil)
        #expect(c.title == "Licensed conveyancer")
        // The firm a domain names is still the company when the local part is not the person's name.
        let firm = card([Fixture.line(40, "Sara Barber", h: 26), Fixture.line(80, "Barber Hall", h: 18),
                         Fixture.line(120, "07 9437 3580"), Fixture.line(140, "info@barberhall.com")])
        #expect(firm.organization == "Barber Hall")
    }

    @Test func unlabeledUSNumbersAreOfficeThenMobile() {
        let c = card([
            Fixture.line(40, "Dana Whitfield", h: 30),
            Fixture.line(80, "Chief Financial Officer"),
            Fixture.line(120, "+1 312 555 0182"),
            Fixture.line(140, "312-555-0199"),
            Fixture.line(160, "dana@whitfieldco.com"),
        ])
        #expect(c.phones.map(\.type) == [.work, .mobile])
    }

    @Test func aLabelledMobileMakesTheOthersOfficeLines() {
        let c = card([
            Fixture.line(40, "Aisha Lee", h: 30),
            Fixture.line(120, "07977 875301"),
            Fixture.line(140, "M +44 20 7789 0939"),
        ])
        #expect(c.phones.map(\.type) == [.work, .mobile])
    }

    /// Mobile labels of the card's languages win over a number that reads as a fixed line.
    @Test(arguments: ["Cellulare", "Cel.", "Móvil", "Mobiel", "Natel"])
    func mobileLabelsOfSeveralLanguages(label: String) {
        let c = card([Fixture.line(40, "Giulia Ferri", h: 30), Fixture.line(120, "Tel. +39 035 701 1811"),
                      Fixture.line(140, "\(label) +39 035 722 7778")])
        #expect(c.phones.map(\.type) == [.work, .mobile])
    }

    @Test func wordsKeepTheEngineOrderWhenBoxesRunBackwards() {
        // An upside-down card: the engine read `Noah Campbell`, but the word boxes run right to left.
        let ws = [RecognizedWord(text: "Noah", confidence: 0.9, boundingBox: BoundingBox(x: 300, y: 40, width: 80, height: 30)),
                  RecognizedWord(text: "Campbell", confidence: 0.9, boundingBox: BoundingBox(x: 150, y: 40, width: 140, height: 30))]
        let page = Page(index: 0, width: 600, height: 300, textSource: .imported, observations: [
            TextObservation(text: "Noah Campbell", confidence: 0.9, boundingBox: BoundingBox(x: 150, y: 40, width: 230, height: 30), words: ws),
        ])
        #expect(LayoutAnalyzer.lines(of: page).map(\.text) == ["Noah Campbell"])
    }

    @Test func aLogoReadAsALetterIsNotPartOfTheOrganization() {
        func line(_ words: [(String, Double, Double, Double)]) -> LayoutLine {
            LayoutLine(page: 0, words: words.map { w in
                let box = BoundingBox(x: w.1, y: 470, width: 10 * Double(w.0.count), height: w.2)
                return LayoutWord(text: w.0, box: box, confidence: w.3)
            }, level: 470)
        }
        // Much taller than the print, or read with little confidence: a mark, not a word.
        #expect(BusinessCardParser.withoutMarks(line([("a", 100, 82, 0.95), ("Horizonsummit", 200, 25, 0.99), ("Ltd.", 400, 25, 0.99)]))
                == "Horizonsummit Ltd.")
        #expect(BusinessCardParser.withoutMarks(line([("口", 100, 40, 0.62), ("Novaquantum", 200, 40, 0.99)])) == "Novaquantum")
        // Letters of the print's size read with confidence, digits and `&` stay.
        #expect(BusinessCardParser.withoutMarks(line([("A", 100, 25, 0.95), ("Plus", 200, 25, 0.99), ("Dental", 300, 25, 0.99)]))
                == "A Plus Dental")
        #expect(BusinessCardParser.withoutMarks(line([("Smith", 100, 25, 0.95), ("&", 200, 40, 0.5), ("Jones", 300, 25, 0.99)]))
                == "Smith & Jones")
        #expect(BusinessCardParser.withoutMarks(line([("Studio", 100, 25, 0.95), ("7", 200, 60, 0.6)])) == "Studio 7")
        // A round logo read as `0`: as wide as it is tall, and taller than the words.
        let logo = LayoutLine(page: 0, words: [LayoutWord(text: "0", box: BoundingBox(x: 72, y: 72, width: 98, height: 97), confidence: 0.9),
                                               LayoutWord(text: "Davis-Weber", box: BoundingBox(x: 180, y: 87, width: 405, height: 65), confidence: 1)],
                              level: 100)
        #expect(BusinessCardParser.withoutMarks(logo) == "Davis-Weber")
    }

    @Test func oneMisreadLetterOfTheNameIsMendedFromTheEmail() {
        #expect(BusinessCardParser.agreeWithLocal("Dilliam Hernandez", "williamh") == "William Hernandez")
        #expect(BusinessCardParser.agreeWithLocal("Maria Hernamdez", "maria.hernandez") == "Maria Hernandez")
        // Accents are not misreadings; a name the address already holds needs nothing.
        #expect(BusinessCardParser.agreeWithLocal("Dr. Chloé Durand", "chloe.durand") == nil)
        #expect(BusinessCardParser.agreeWithLocal("William Hernandez", "williamh") == nil)
        // Short words, two letters apart, or more than one way to mend: left as printed.
        #expect(BusinessCardParser.agreeWithLocal("Mark Lee", "marc.lee") == nil)
        #expect(BusinessCardParser.agreeWithLocal("Dillian Hernandez", "williamh") == nil)
        #expect(BusinessCardParser.agreeWithLocal("Baker Smith", "bakes.bakir") == nil)
        // A piece of the address that is another of the name's words as printed mends none of the others.
        #expect(BusinessCardParser.agreeWithLocal("Ahmad Faizal bin Rahman", "faizal.rahman") == nil)
        let c = card([
            Fixture.line(40, "Dilliam Hernandez", h: 30),
            Fixture.line(120, "williamh@copperstone.com"),
        ])
        #expect(c.name?.full == "William Hernandez")
    }

    @Test func aGapOfMoreThanTwoSmallTextHeightsSplitsAColumnOff() {
        // A tall name beside a smaller e-mail, 2.4 e-mail heights apart (a two-column card),
        // and a name whose words are half a height apart.
        #expect(Self.columnPieces([("Ada Byron", 100, 100, 300, 72), ("ada@example.com", 489, 110, 250, 37),
                                   ("Grace", 100, 250, 150, 40), ("Hopper", 270, 250, 170, 40)])
                == ["Ada Byron", "ada@example.com", "Grace Hopper"])
    }

    /// The organization's domain spelled by some of its words, whole or by their first letters.
    @Test func aDomainSpelledByTheOrganizationsWords() {
        #expect(BusinessCardParser.spells("wilsonkellyhobbs", "WILSON KELLY AND HOBBS"))
        #expect(BusinessCardParser.spells("juanb", "JUAN BAUTISTA LUQUE MACIAS S COOP"))
        #expect(BusinessCardParser.spells("muellerbau", "MUELLER BAU GMBH"))
        #expect(BusinessCardParser.spells("lefevre", "LÉFÈVRE ET FILS"))
        // Initials alone, a stem the words do not give, or one too short: no.
        #expect(!BusinessCardParser.spells("wkah", "WILSON KELLY AND HOBBS"))
        #expect(!BusinessCardParser.spells("kallengroep", "KAYLEIGH VAN DE WIEL"))
        #expect(!BusinessCardParser.spells("jb", "JUAN BAUTISTA"))
        let c = card([
            Fixture.line(40, "Carl Davis", h: 34),
            Fixture.line(100, "Wilson, Kelly and Hobbs", h: 22),
            Fixture.line(200, "T: 01439 628217"),
            Fixture.line(230, "carld@wilsonkellyhobbs.co.uk"),
        ])
        #expect(c.organization == "Wilson, Kelly and Hobbs")
    }

    /// Legal forms come from the locale files, dotted or not (`S.Com.`, `e.V.`, `s.r.l.`).
    @Test func legalFormsOfTheLocaleFilesMarkTheOrganization() {
        for org in ["Fábrica del Noroeste S.Com.", "Plank e.V.", "Spadafora e Dallapé s.r.l.", "Grondin Lévêque S.A.S."] {
            let c = card([
                Fixture.line(40, "Ana Ruiz", h: 34),
                Fixture.line(100, org, h: 22),
                Fixture.line(200, "+34 912 345 678"),
                Fixture.line(230, "ana.ruiz@gmail.com"),
            ])
            #expect(c.organization == org)
        }
    }

    /// A title with no title word is the line right under the name in its column, even when the
    /// columns were read across (the address beside the name comes first in reading order).
    @Test func aTitleWithoutATitleWordIsTheLineUnderTheName() {
        let c = card([
            Fixture.line(80, "Richard Alexander", x: 40, h: 36),
            Fixture.line(82, "4 Garcia Frontage", x: 520, h: 24),
            Fixture.line(115, "Port Melbourne VIC 3207", x: 520, h: 24),
            Fixture.line(130, "Seismic Interpreter", x: 40, h: 26),
            Fixture.line(150, "Office: +61 3 9123 4567", x: 520, h: 22),
            Fixture.line(188, "Gray-Gilmore", x: 40, h: 30),
            Fixture.line(190, "r.alexander@graygilmore.com.au", x: 520, h: 22),
        ])
        #expect(c.name?.full == "Richard Alexander")
        #expect(c.title == "Seismic Interpreter")
        #expect(c.address?.full == "4 Garcia Frontage, Port Melbourne VIC 3207")
    }

    /// Street lines that end with the house number, and a town on a line of its own between the
    /// street and the postal code.
    @Test(arguments: [
        (["Seifertstr. 62", "66418 Eberswalde", "silja@mende.de"], "Seifertstr. 62, 66418 Eberswalde", "66418"),
        (["276 Whitehouse Drive", "Bristol", "BS1 4DJ", "noah@campbell.co.uk"], "276 Whitehouse Drive, Bristol, BS1 4DJ", "BS1 4DJ"),
        // Four digits before the town under a street that ends with its number; the phone says Switzerland.
        (["Furrerstrasse 13", "9069 Carouge", "+41 22 345 67 89"], "Furrerstrasse 13, 9069 Carouge", "9069"),
        // ... and with nothing that tells the country.
        (["Bahnhofstrasse 12", "8001 Zürich", "info@example.com"], "Bahnhofstrasse 12, 8001 Zürich", "8001"),
        (["Acceso Paula Barrio, 51, 9º D", "15348 Ávila", "España"], "Acceso Paula Barrio, 51, 9º D, 15348 Ávila, España", "15348"),
        (["Liamsingel 279", "2299 TY Ter Heijde", "The Netherlands"], "Liamsingel 279, 2299 TY Ter Heijde, The Netherlands", "2299 TY"),
        // A five-digit house number that reads as a postal code, over the line with the real one.
        (["48213 Quarry Hollow", "Lake Idaville, MT 59047"], "48213 Quarry Hollow, Lake Idaville, MT 59047", "59047"),
        (["60311 Birch Crossing", "Port Elsie, ON K2P 1L4"], "60311 Birch Crossing, Port Elsie, ON K2P 1L4", "K2P 1L4"),
        // Street and town on one line, after a comma.
        (["Seeweg 17, 6004 Luzern", "info@example.com"], "Seeweg 17, 6004 Luzern", "6004"),
        (["Talstrasse 3, 8400 Winterthur, Schweiz"], "Talstrasse 3, 8400 Winterthur, Schweiz", "8400"),
    ])
    func streetLinesOfOtherCountriesJoinTheAddress(printed: [String], full: String, postalCode: String) {
        let c = card([Fixture.line(40, "Lea Furrer", h: 34)] + printed.enumerated().map { Fixture.line(200 + 25 * Double($0.offset), $0.element) })
        #expect(c.address?.full == full)
        #expect(c.address?.postalCode == postalCode)
    }

    /// The lines of a second column between an address's lines are passed over: the town under its
    /// street, the country under the postal code, and a street over a code that is its own line's.
    @Test func anAddressReadsOverLinesOfTheOtherColumn() {
        let c = card([
            Fixture.line(60, "Ilse Brandt", x: 40, h: 36),
            Fixture.line(190, "232 Rowan Avenue", x: 520, h: 22),
            Fixture.line(218, "Account Director", x: 40, h: 26),
            Fixture.line(222, "North Hatley", x: 520, h: 22),
            Fixture.line(254, "SO23 9DP", x: 520, h: 22),
            Fixture.line(300, "ilse@brandt.co.uk", x: 40, h: 22),
        ])
        #expect(c.address?.full == "232 Rowan Avenue, North Hatley, SO23 9DP")
        let d = card([
            Fixture.line(60, "Ilse Brandt", x: 40, h: 36),
            Fixture.line(190, "70418 Maple Landing, Suite 30", x: 520, h: 22),
            Fixture.line(210, "Hale-Morgan", x: 40, h: 26),
            Fixture.line(222, "Eastbrook, NB E3B 5H1", x: 520, h: 22),
            Fixture.line(254, "Canada", x: 620, h: 22),
            Fixture.line(300, "ilse@brandt.ca", x: 40, h: 22),
        ])
        #expect(d.address?.full == "70418 Maple Landing, Suite 30, Eastbrook, NB E3B 5H1, Canada")
    }

    /// An Irish address names its town and its county on lines of their own between the street and the Eircode; `Co.`
    /// there is a county's (a region of the locale files), not a company's.
    @Test func aTownAndACountyBetweenTheStreetAndThePostalCode() {
        let c = card([
            Fixture.line(60, "Orla Keane", x: 40, h: 36),
            Fixture.line(110, "Site engineer", x: 40, h: 22),
            Fixture.line(150, "orla.keane@brackenmoor.ie", x: 40, h: 20),
            Fixture.line(200, "17 Quarry Road", x: 40, h: 20),
            Fixture.line(226, "Ballintober", x: 40, h: 20),
            Fixture.line(252, "Co. Roscommon", x: 40, h: 20),
            Fixture.line(278, "F42 T6X8", x: 40, h: 20),
            Fixture.line(304, "Ireland", x: 40, h: 20),
        ])
        #expect(c.address?.full == "17 Quarry Road, Ballintober, Co. Roscommon, F42 T6X8, Ireland")
        #expect(c.organization != "Co. Roscommon")
        // A company's name with `Co.` above a street stays out of the address.
        let d = card([
            Fixture.line(60, "Orla Keane", x: 40, h: 36),
            Fixture.line(110, "Bracken & Moor Co.", x: 40, h: 22),
            Fixture.line(150, "orla.keane@brackenmoor.ie", x: 40, h: 20),
            Fixture.line(200, "17 Quarry Road", x: 40, h: 20),
            Fixture.line(226, "Ballintober", x: 40, h: 20),
            Fixture.line(252, "F42 T6X8", x: 40, h: 20),
        ])
        #expect(d.address?.full == "17 Quarry Road, Ballintober, F42 T6X8")
        #expect(d.organization == "Bracken & Moor Co.")
    }

    /// A unit printed on a line of its own between the street and the town (`# 5`, `Unit 7`) is part of the address,
    /// also when the street's house number reads as a ZIP code; a line that names only a country is no title.
    @Test func aUnitLineInsideTheAddressAndNoCountryForATitle() {
        let c = card([
            Fixture.line(60, "Wren Halvorsen", x: 40, h: 36),
            Fixture.line(150, "wren@halvorsen.ca", x: 40, h: 20),
            Fixture.line(200, "505 Larch Key", x: 40, h: 20),
            Fixture.line(226, "# 5", x: 40, h: 20),
            Fixture.line(252, "Port Ellis, NU X0A 1H0", x: 40, h: 20),
        ])
        #expect(c.address?.full == "505 Larch Key, # 5, Port Ellis, NU X0A 1H0")
        let d = card([
            Fixture.line(60, "Wren Halvorsen", x: 40, h: 36),
            Fixture.line(150, "wren@halvorsen.com", x: 40, h: 20),
            Fixture.line(200, "60592 Birch Mount", x: 40, h: 20),
            Fixture.line(226, "Unit 7", x: 40, h: 20),
            Fixture.line(252, "Northfield, ME 04912", x: 40, h: 20),
        ])
        #expect(d.address?.full == "60592 Birch Mount, Unit 7, Northfield, ME 04912")
        #expect(d.address?.postalCode == "04912")
        // A postal code glued to its state is not read; the country line under it is then left over, and no title.
        let e = card([
            Fixture.line(40, "Halvorsen-Reid", x: 40, h: 24),
            Fixture.line(90, "Wren Halvorsen", x: 40, h: 36),
            Fixture.line(140, "88 Wattle Circuit", x: 40, h: 20),
            Fixture.line(166, "Port Ellis, TAS7004", x: 40, h: 20),
            Fixture.line(192, "Australia", x: 40, h: 20),
            Fixture.line(240, "E: wren@halvorsenreid.com.au", x: 40, h: 20),
        ])
        #expect(e.title == nil)
    }

    /// A title word beside one company word (`Co-`, `Design`, `Marketing`) is a title, not the company.
    @Test func aTitleWithACompanyWordIsNoCompany() {
        let c = card([
            Fixture.line(80, "Conor Knight", x: 40, h: 40),
            Fixture.line(130, "Co-Founder", x: 40, h: 24),
            Fixture.line(300, "conor.knight@gmail.com", x: 40, h: 20),
        ])
        #expect(c.organization == nil)
        #expect(c.title == "Co-Founder")
        let d = card([
            Fixture.line(40, "Northwind Atelier Ltd", x: 40, h: 26),
            Fixture.line(100, "Dana Whitfield", x: 40, h: 40),
            Fixture.line(150, "Head of Design", x: 40, h: 24),
            Fixture.line(300, "dana@northwind-atelier.com", x: 40, h: 20),
        ])
        #expect(d.organization == "Northwind Atelier Ltd")
        #expect(d.title == "Head of Design")
    }

    /// A firm named after its partners, with no legal form and no domain to confirm it; a domain that writes an
    /// umlaut out (`ue` for `ü`).
    @Test(arguments: [
        ("Pryce, Holloway and Quint", "Pryce, Holloway and Quint"),
        ("Okafor-Lindqvist", "Okafor-Lindqvist"),
        ("Brouwer & Schenk", "Brouwer & Schenk"),
    ])
    func aFirmNamedAfterItsPartners(line: String, organization: String) {
        let c = card([
            Fixture.line(60, "Imogen Tate", x: 40, h: 40),
            Fixture.line(110, "Senior Counsel", x: 40, h: 24),
            Fixture.line(150, line, x: 40, h: 26),
            Fixture.line(300, "T 020 7946 0321", x: 40, h: 20),
        ])
        #expect(c.organization == organization)
        #expect(c.name?.full == "Imogen Tate")
    }

    @Test func aDomainThatWritesTheUmlautOut() {
        let c = card([
            Fixture.line(60, "Rosa Keller", x: 40, h: 40),
            Fixture.line(110, "Operations Director", x: 40, h: 24),
            Fixture.line(150, "Grünwald Atelier", x: 40, h: 26),
            Fixture.line(300, "rosa.keller@gruenwald-atelier.de", x: 40, h: 20),
        ])
        #expect(c.organization == "Grünwald Atelier")
    }

    /// On a card photographed askew the boxes of the name and the line under it overlap; the title is found
    /// with the slant taken out.
    @Test func theTitleUnderTheNameOfASlantedCard() {
        let slope = 0.13
        func slanted(_ x: Double, _ y: Double, _ h: Double, _ words: [String]) -> TextObservation {
            var cx = x
            let ws = words.map { t -> RecognizedWord in
                let w = Double(t.count) * h * 0.55
                let box = BoundingBox(x: cx, y: y + slope * (cx - x), width: w, height: h + slope * w)
                cx += w + h * 0.55
                return RecognizedWord(text: t, confidence: 0.95, boundingBox: box)
            }
            return TextObservation(text: words.joined(separator: " "), confidence: 0.95,
                                   boundingBox: BoundingBox.enclosing(ws.map(\.boundingBox))!, words: ws)
        }
        let page = Page(index: 0, width: 1200, height: 800, textSource: .imported, observations: [
            slanted(120, 150, 70, ["Barbara", "Jones"]),
            slanted(120, 232, 40, ["Osteopath"]),
            slanted(110, 290, 40, ["Nash", "Ltd"]),
            slanted(105, 350, 36, ["b.jones@nash.com"]),
        ])
        let c = try! extractor.extract(Fixture.document(page), as: .businessCard).businessCard!
        #expect(c.name?.full == "Barbara Jones")
        #expect(c.title == "Osteopath")
    }

    /// A card photographed turned by seven degrees, read as it is (PP-OCR needs no flattening): the boxes on the page
    /// of a long line of small print are taller than the name's, and the gap between the columns is narrow next to
    /// them. In the frame of the card the camera found, the name is larger, the title under it smaller, and the columns
    /// apart.
    @Test func columnsAndPrintSizesOfATurnedCardAreMeasuredInItsFrame() {
        let (c, s) = (cos(0.12), sin(0.12))
        func turned(_ x: Double, _ y: Double) -> Point { Point(x: 200 + x * c - y * s, y: 60 + x * s + y * c) }
        func quad(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> Quad {
            Quad(
                topLeft: turned(x, y), topRight: turned(x + w, y), bottomRight: turned(x + w, y + h),
                bottomLeft: turned(x, y + h))
        }
        // Text lines in the card's own upright coordinates: (words, x, y, text height).
        func observation(_ words: [String], _ x: Double, _ y: Double, _ h: Double) -> TextObservation {
            var cx = x
            let ws = words.map { t -> RecognizedWord in
                let w = Double(t.count) * h * 0.55
                let q = quad(cx, y, w, h)
                cx += w + h * 0.4
                return RecognizedWord(text: t, confidence: 0.95, boundingBox: q.boundingBox, quad: q)
            }
            let q = quad(x, y, cx - h * 0.4 - x, h)
            return TextObservation(text: words.joined(separator: " "), confidence: 0.95, boundingBox: q.boundingBox, words: ws, quad: q)
        }
        var page = Page(index: 0, width: 1300, height: 900, textSource: .imported, observations: [
            observation(["Keeva", "Canning"], 40, 200, 56),
            observation(["Online", "http://www.canningconsulting.ie"], 475, 215, 30),
            observation(["Estate", "Agent"], 40, 290, 36),
            observation(["122", "Mulqueeny", "Street,", "Christian", "Ville"], 475, 290, 30),
            observation(["Cell", "+353", "86", "158", "3665"], 475, 330, 30),
        ])
        page.layout = LayoutAnalyzer.layout(of: page, frame: quad(0, 0, 1000, 560))
        let card = try! extractor.extract(Fixture.document(page), as: .businessCard).businessCard!
        #expect(card.name?.full == "Keeva Canning")
        #expect(card.title == "Estate Agent")
        #expect(card.urls.map(\.url) == ["http://www.canningconsulting.ie"])
    }

    /// Two text lines the recognizer read apart, 1.4 heights apart on one row: two columns. A label
    /// set apart from its number stays with it, and one that ends with a colon even more than two heights off.
    @Test func separateTextLinesOnOneRowAreColumns() {
        #expect(Self.columnPieces([("Richard Alexander", 80, 82, 349, 37), ("4 Garcia Frontage", 482, 82, 239, 33),
                                   ("Tel.", 80, 200, 60, 30), ("+61 3 9123 4567", 180, 200, 250, 30),
                                   ("Fax", 80, 260, 45, 30), (":", 130, 260, 8, 30), ("03 21 09 25 18", 210, 260, 210, 30)])
                == ["Richard Alexander", "4 Garcia Frontage", "Tel. +61 3 9123 4567", "Fax : 03 21 09 25 18"])
        // A dash read as a box three pixels high, apart from the words around it: its height sets no scale.
        #expect(Self.columnPieces([("General Manager", 80, 100, 250, 30), ("-", 344, 113, 10, 3),
                                   ("Exports", 368, 100, 120, 30)])
                == ["General Manager - Exports"])
    }

    /// The column pieces of the lines of a page of observations `(text, x, y, width, height)`, each read
    /// by the recognizer as one word.
    static func columnPieces(_ observations: [(String, Double, Double, Double, Double)]) -> [String] {
        let page = Page(
            index: 0, width: 900, height: 400, textSource: .imported,
            observations: observations.map { t, x, y, w, h in
            let box = BoundingBox(x: x, y: y, width: w, height: h)
            let word = RecognizedWord(text: t, confidence: 0.9, boundingBox: box)
            return TextObservation(text: t, confidence: 0.9, boundingBox: box, words: [word])
        })
        return LayoutAnalyzer.lines(of: page).flatMap { LayoutAnalyzer.columns(of: $0) }.map(\.text)
    }
}

/// Cards of the seventy-eighth session's looked-at set (`/tmp/h31`), each written here with other names.
@Suite struct CardJoinsAndSplitsTests {
    let extractor = DocumentExtractor(detector: try! DataDetector())

    func card(_ lines: [(Double, Double, [(Double, String)])]) -> BusinessCard {
        try! extractor.extract(Fixture.document(Fixture.page(width: 880, height: 570, lines)), as: .businessCard)
            .businessCard!
    }

    /// A title wrapped after its `&` goes on under it, and `Co-Founder`'s `Co` is no legal form there.
    @Test func aTitleEndingWithAnAmpersandGoesOn() {
        let c = card([
            Fixture.line(36, "Whitmore Analytics DAC", x: 52, h: 36),
            Fixture.line(135, "Niamh O. Brennan", x: 52, h: 46),
            Fixture.line(184, "Chief Operating Officer &", x: 52, h: 33),
            Fixture.line(219, "Co-Founder", x: 52, h: 27),
            Fixture.line(380, "+353 1 482 7716", x: 52, h: 25),
            Fixture.line(410, "niamh@whitmore.ie", x: 52, h: 25),
        ])
        #expect(c.title == "Chief Operating Officer & Co-Founder")
        let plain = card([
            Fixture.line(135, "Niamh O. Brennan", x: 52, h: 46),
            Fixture.line(184, "Managing Director", x: 52, h: 33),
            Fixture.line(219, "Co-Founder", x: 52, h: 33),
            Fixture.line(410, "niamh@whitmore.ie", x: 52, h: 25),
        ])
        #expect(plain.title == "Managing Director Co-Founder")
        // The line under goes on from a joining word in small letters.
        let goesOn = card([
            Fixture.line(135, "Priya Raman", x: 52, h: 46),
            Fixture.line(184, "Head of Clinical Operations", x: 52, h: 30),
            Fixture.line(219, "and Patient Safety", x: 52, h: 30),
            Fixture.line(410, "priya@medline-labs.co.uk", x: 52, h: 25),
        ])
        #expect(goesOn.title == "Head of Clinical Operations and Patient Safety")
    }

    /// Catalan and Portuguese join a person's two family names with `i` and `e`: the line is still a name.
    @Test func familyNamesJoinedByIOrE() {
        let c = card([
            Fixture.line(60, "Marès Consulting S.L.", x: 52, h: 28),
            Fixture.line(130, "Núria Vidal i Ferrer", x: 52, h: 48),
            Fixture.line(190, "Project Lead", x: 52, h: 26),
            Fixture.line(380, "nuria@maresconsulting.es", x: 52, h: 24),
        ])
        #expect(c.name?.full == "Núria Vidal i Ferrer")
        #expect(c.title == "Project Lead")
    }

    /// A firm's name without a legal form is the firm's when the domain spells it with `and` for its `&`, or when a
    /// word names a firm of solicitors.
    @Test func firmsByTheirDomainsAndByTheirTrade() {
        let c = card([
            Fixture.line(60, "Tom Ashby", x: 52, h: 48),
            Fixture.line(120, "Brand Strategist", x: 52, h: 26),
            Fixture.line(200, "Wren & Fern Creative", x: 52, h: 30),
            Fixture.line(380, "tom@wrenandfern.com.au", x: 52, h: 24),
        ])
        #expect(c.organization == "Wren & Fern Creative")
        let s = card([
            Fixture.line(60, "Ciarán Moloney", x: 52, h: 48),
            Fixture.line(120, "Associate", x: 52, h: 26),
            Fixture.line(200, "Kilbride Moloney Solicitors", x: 52, h: 30),
            Fixture.line(380, "cm@kmlaw.ie", x: 52, h: 24),
        ])
        #expect(s.organization == "Kilbride Moloney Solicitors")
        // A Danish domain writes Ø as `oe`.
        let dk = card([
            Fixture.line(60, "Mette Holm", x: 52, h: 48),
            Fixture.line(120, "Indehaver", x: 52, h: 26),
            Fixture.line(200, "Søndergaard Tømrer & Snedker", x: 52, h: 30),
            Fixture.line(380, "mette@soendergaard-toemrer.dk", x: 52, h: 24),
        ])
        #expect(dk.organization == "Søndergaard Tømrer & Snedker")
    }

    /// A person's name and the firm's set on one baseline and read as one line are cut apart, the e-mail naming the
    /// person and a legal form or the domain the firm; a firm named after a person stays whole.
    @Test func aNameAndAFirmReadAsOneLineAreCutApart() {
        let c = card([
            Fixture.line(100, "HANNA LINDQVIST-BERG Northlight Studios Ltd.", x: 52, h: 48),
            Fixture.line(170, "Creative Director", x: 52, h: 28),
            Fixture.line(380, "604.688.4107", x: 52, h: 24),
            Fixture.line(410, "hanna@northlightstudios.com", x: 52, h: 24),
        ])
        #expect(c.name?.full == "HANNA LINDQVIST-BERG")
        #expect(c.organization == "Northlight Studios Ltd.")
        #expect(c.title == "Creative Director")
        let phd = card([
            Fixture.line(100, "Chiara Benedetti, PhD Brera Analytics S.r.l.", x: 52, h: 40),
            Fixture.line(160, "Lead Data Scientist", x: 52, h: 28),
            Fixture.line(410, "chiara@brera-analytics.com", x: 52, h: 24),
        ])
        #expect(phd.name?.full == "Chiara Benedetti, PhD")
        #expect(phd.organization == "Brera Analytics S.r.l.")
        let whole = card([
            Fixture.line(60, "Cabinet Girard & Fils inc.", x: 52, h: 30),
            Fixture.line(130, "Luc Girard", x: 52, h: 48),
            Fixture.line(190, "Notaire", x: 52, h: 26),
            Fixture.line(410, "girard@cabinetgirard.ca", x: 52, h: 24),
        ])
        #expect(whole.organization == "Cabinet Girard & Fils inc.")
        // A firm named after the person, its domain spelling the whole line, stays whole; so does one on a card that
        // prints the person's name on a line of its own.
        let eponymous = card([
            Fixture.line(100, "Sarah Mitchell Design Ltd", x: 52, h: 30),
            Fixture.line(160, "Creative Director", x: 52, h: 26),
            Fixture.line(410, "sarah@sarahmitchelldesign.co.uk", x: 52, h: 24),
        ])
        #expect(eponymous.organization == "Sarah Mitchell Design Ltd")
        let apart = card([
            Fixture.line(60, "Sarah Mitchell", x: 52, h: 44),
            Fixture.line(120, "Sarah Mitchell Architects Ltd", x: 52, h: 26),
            Fixture.line(410, "sarah@smarchitects.co.uk", x: 52, h: 24),
        ])
        #expect(apart.organization == "Sarah Mitchell Architects Ltd")
    }

    /// A French rural place's line (`Lieu-dit`) and a street named a quay are lines of the address.
    @Test func placesWithoutAHouseNumber() {
        let c = card([
            Fixture.line(60, "Domaine Rivière SAS", x: 52, h: 28),
            Fixture.line(120, "Paul Rivière", x: 52, h: 44),
            Fixture.line(300, "paul@domaine-riviere.fr", x: 52, h: 24),
            Fixture.line(340, "Lieu-dit Les Sables", x: 52, h: 24),
            Fixture.line(370, "33420 Branne", x: 52, h: 24),
        ])
        #expect(c.address?.full.hasPrefix("Lieu-dit Les Sables") == true)
        let nz = card([
            Fixture.line(60, "Kōwhai Policy Trust", x: 52, h: 28),
            Fixture.line(120, "Aroha Wilson", x: 52, h: 44),
            Fixture.line(300, "aroha@kowhai.org.nz", x: 52, h: 24),
            Fixture.line(340, "Level 5, 86 Lambton Quay", x: 52, h: 24),
            Fixture.line(370, "Wellington 6011", x: 52, h: 24),
        ])
        #expect(nz.address?.postalCode == "6011")
        // Without a house number the word names a firm: `Quay Partners` stays the organization.
        let firm = card([
            Fixture.line(60, "Quay Partners", x: 52, h: 28),
            Fixture.line(120, "Anna Lee", x: 52, h: 44),
            Fixture.line(300, "anna@quaypartners.com.au", x: 52, h: 24),
            Fixture.line(340, "Level 3, 1 Macquarie Place", x: 52, h: 24),
            Fixture.line(370, "Sydney NSW 2000", x: 52, h: 24),
        ])
        #expect(firm.organization == "Quay Partners")
    }
}
