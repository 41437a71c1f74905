import Testing
import ScanModel
@testable import ScanExtraction

/// Firms' names as logos print them: over two lines of different sizes, a kind of shop, a free mail address that
/// leaves a word out. Made after the eightieth session's looked-at cards (`/tmp/h38`, `/tmp/h41`), written here with
/// other names.
@Suite struct CardWordmarkTests {
    func card(_ lines: [(Double, Double, [(Double, String)])]) -> BusinessCard { Fixture.card(lines) }

    /// A wordmark's name over its kind in smaller print, or its kind under a larger name, is one firm's name.
    @Test func aWordmarksTwoLines() {
        let kind = card([
            Fixture.line(60, "KESTREL", x: 60, h: 44),
            Fixture.line(108, "Analytics", x: 60, h: 26),
            Fixture.line(220, "Maren Holt", x: 60, h: 32),
            Fixture.line(262, "Head of Data", x: 60, h: 22),
            Fixture.line(480, "maren@kestrel.io", x: 60, h: 22),
        ])
        #expect(kind.organization == "KESTREL Analytics")
        #expect(kind.name?.full == "Maren Holt")
        let descriptor = card([
            Fixture.line(50, "ter Horst", x: 700, h: 40),
            Fixture.line(93, "ADVOCATEN", x: 700, h: 19),
            Fixture.line(210, "Lotte Visser", x: 700, h: 30),
            Fixture.line(250, "Partner", x: 700, h: 22),
            Fixture.line(480, "l.visser@terhorstadvocaten.nl", x: 700, h: 22),
        ])
        #expect(descriptor.organization == "ter Horst ADVOCATEN")
        // The domain spelled by the two lines, the second smaller.
        let domain = card([
            Fixture.line(50, "BRACKEN", x: 60, h: 36),
            Fixture.line(90, "MARINE", x: 60, h: 22),
            Fixture.line(200, "Callum Reid", x: 60, h: 30),
            Fixture.line(240, "Operations Manager", x: 60, h: 22),
            Fixture.line(480, "callum@brackenmarine.com.au", x: 60, h: 22),
        ])
        #expect(domain.organization == "BRACKEN MARINE")
        // A legal form of two words under the name.
        let legal = card([
            Fixture.line(50, "Coral Bay Robotics", x: 60, h: 40),
            Fixture.line(94, "Pte Ltd", x: 60, h: 36),
            Fixture.line(200, "Lim Jia Hui", x: 60, h: 44),
            Fixture.line(254, "Account Manager", x: 60, h: 30),
            Fixture.line(480, "jiahui.lim@coralbayrobotics.com.sg", x: 60, h: 24),
        ])
        #expect(legal.organization == "Coral Bay Robotics Pte Ltd")
    }

    /// Lines stacked by the firm's name that are no part of it stay out: a department over it, printed smaller; a
    /// monogram over it; services under a name that already says its kind.
    @Test func notTheFirmsName() {
        let department = card([
            Fixture.line(60, "Nadia Farouk", x: 60, h: 56),
            Fixture.line(132, "Controller", x: 60, h: 30),
            Fixture.line(168, "Finance", x: 60, h: 30),
            Fixture.line(203, "Rookwood Networks", x: 60, h: 36),
            Fixture.line(480, "nadia@rookwoodnetworks.com", x: 700, h: 28),
        ])
        #expect(department.organization == "Rookwood Networks")
        let monogram = card([
            Fixture.line(40, "TK", x: 60, h: 44),
            Fixture.line(88, "Tolland Kerr Associates", x: 60, h: 30),
            Fixture.line(200, "Priya Natarajan", x: 60, h: 34),
            Fixture.line(245, "Senior Associate", x: 60, h: 24),
            Fixture.line(480, "priya@tollandkerr.com", x: 60, h: 24),
        ])
        #expect(monogram.organization == "Tolland Kerr Associates")
        let services = card([
            Fixture.line(50, "Halden Group", x: 60, h: 40),
            Fixture.line(94, "Consulting Services", x: 60, h: 28),
            Fixture.line(200, "Erik Lund", x: 60, h: 34),
            Fixture.line(245, "Director", x: 60, h: 24),
            Fixture.line(480, "erik@haldengroup.com", x: 60, h: 24),
        ])
        #expect(services.organization == "Halden Group")
        // A slogan under the wordmark, with a sentence's stops or a kind's word at its end.
        for slogan in ["Design. Build. Deliver.", "Your Local Bakery"] {
            let c = card([
                Fixture.line(50, "MIRABEL", x: 60, h: 40),
                Fixture.line(94, slogan, x: 60, h: 20),
                Fixture.line(200, "Erik Lund", x: 60, h: 34),
                Fixture.line(245, "Director", x: 60, h: 24),
                Fixture.line(480, "erik@mirabel.com", x: 60, h: 24),
            ])
            #expect(c.organization == "MIRABEL", "\(slogan)")
        }
        // A department over the firm's kind, which the domain does not spell.
        let over = card([
            Fixture.line(50, "Corporate Finance", x: 60, h: 40),
            Fixture.line(94, "SOLICITORS", x: 60, h: 20),
            Fixture.line(200, "Erik Lund", x: 60, h: 34),
            Fixture.line(245, "Partner", x: 60, h: 24),
            Fixture.line(480, "erik@lundholt.co.uk", x: 60, h: 24),
        ])
        #expect(over.organization != "Corporate Finance SOLICITORS")
    }

    /// A kind of shop names a firm (`Café`, `Bakery`); a free mail address spells umlauts out and still names the firm,
    /// whose line is no one's name.
    @Test func shopsAndFreeMail() {
        let cafe = card([
            Fixture.line(80, "Astrid Berg", x: 300, h: 46),
            Fixture.line(135, "Indehaver", x: 300, h: 28),
            Fixture.line(400, "Café Lindholm", x: 600, h: 28),
            Fixture.line(440, "Nørrebrogade 12", x: 600, h: 28),
            Fixture.line(480, "2200 København N", x: 600, h: 28),
            Fixture.line(560, "cafelindholm@gmail.com", x: 600, h: 28),
        ])
        #expect(cafe.name?.full == "Astrid Berg")
        #expect(cafe.organization == "Café Lindholm")
        let umlaut = card([
            Fixture.line(80, "Jonas Keller", x: 300, h: 46),
            Fixture.line(400, "Schäfer Holzbau Breisgau", x: 300, h: 28),
            Fixture.line(440, "Hauptstraße 4", x: 300, h: 28),
            Fixture.line(480, "79098 Freiburg", x: 300, h: 28),
            Fixture.line(560, "schaeferholzbau@gmx.de", x: 300, h: 28),
        ])
        #expect(umlaut.organization == "Schäfer Holzbau Breisgau")
        // A trade's title (`Mobile Mechanic`) under the name; a person's trade alone is no firm (`Florist`), nor is a
        // line naming kinds in a sentence (`Member of the State Bar of California`).
        let trade = card([
            Fixture.line(40, "Owen Pryce", x: 40, h: 30),
            Fixture.line(76, "Mobile Mechanic", x: 40, h: 18),
            Fixture.line(340, "Florist", x: 40, h: 17),
            Fixture.line(370, "Member of the State Bar of California", x: 40, h: 17),
            Fixture.line(396, "owen.pryce@gmail.com", x: 600, h: 17),
        ])
        #expect(trade.name?.full == "Owen Pryce")
        #expect(trade.title == "Mobile Mechanic")
        #expect(trade.organization == nil)
    }

    /// The firm's name over its street, spelled by the card's domain, is the firm's and no part of the address.
    @Test func theFirmsNameOverItsStreet() {
        let c = card([
            Fixture.line(80, "Leonor Vaz", x: 100, h: 50),
            Fixture.line(135, "Enóloga", x: 100, h: 38),
            Fixture.line(300, "ines@ribeiraalta.pt", x: 800, h: 30),
            Fixture.line(560, "Quinta da Ribeira Alta", x: 100, h: 40),
            Fixture.line(605, "Rua do Cais, 23 - 5050-237 Peso da Régua", x: 100, h: 40),
        ])
        #expect(c.organization == "Quinta da Ribeira Alta")
        #expect(c.address?.full.hasPrefix("Rua do Cais") == true)
    }

    /// A title in the name's own column comes before a line of another column with a title's word (`Head Office`
    /// labelling the address beside it).
    @Test func theTitleInTheNamesColumn() {
        let c = card([
            Fixture.line(40, "Ashby Lift Services", x: 24, h: 20),
            Fixture.line(108, "Gwen Ashby", x: 24, h: 26),
            Fixture.line(124, "Head Office", x: 500, h: 16),
            Fixture.line(135, "Service Manager", x: 24, h: 18),
            Fixture.line(141, "Unit 7, Calder Trading Estate", x: 500, h: 17),
            Fixture.line(159, "Huddersfield HD5 0RF", x: 500, h: 16),
            Fixture.line(252, "gwen@ashbylifts.co.uk", x: 500, h: 17),
        ])
        #expect(c.title == "Service Manager")
        // A label's line in the name's column is no title: `Office Manager: Lisa Grant` names whom to call.
        let label = card([
            Fixture.line(60, "Dana Whitmore", x: 24, h: 26),
            Fixture.line(66, "Managing Director", x: 500, h: 18),
            Fixture.line(100, "Whitmore Freight Ltd", x: 24, h: 18),
            Fixture.line(140, "Office Manager: Lisa Grant", x: 24, h: 16),
            Fixture.line(252, "dana@whitmorefreight.co.uk", x: 500, h: 17),
        ])
        #expect(label.title == "Managing Director")
        // A title that ends with a comma or a colon goes on under it.
        for (first, second) in [("Principal Architect,", "Healthcare Studio"), ("Senior Manager:", "Stakeholder Relations")] {
            let c = card([
                Fixture.line(20, "Whitmore Partners Ltd", x: 300, h: 24),
                Fixture.line(60, "Dana Whitmore", x: 300, h: 30),
                Fixture.line(100, first, x: 300, h: 20),
                Fixture.line(124, second, x: 300, h: 20),
                Fixture.line(300, "dana@whitmorepartners.com", x: 300, h: 17),
            ])
            #expect(c.title == first + " " + second)
        }
        // A title wrapped twice: its second line left open, its third names the area; a fourth line is the person's
        // office, no part of it.
        let thrice = card([
            Fixture.line(20, "Harbor & Finch Architects", x: 300, h: 24),
            Fixture.line(60, "Trevor Whitcombe", x: 20, h: 30),
            Fixture.line(100, "Regional Sales", x: 20, h: 20),
            Fixture.line(124, "Manager,", x: 20, h: 20),
            Fixture.line(148, "Asia Pacific", x: 20, h: 20),
            Fixture.line(172, "Singapore Office", x: 20, h: 20),
            Fixture.line(300, "trevor@harborfinch.com", x: 300, h: 17),
        ])
        #expect(thrice.title == "Regional Sales Manager, Asia Pacific")
        // (A third line after a comma that names a department is none of it.)
        let group = card([
            Fixture.line(20, "Pacific West Bank", x: 300, h: 24),
            Fixture.line(60, "Linda Park", x: 20, h: 30),
            Fixture.line(100, "Senior Vice President,", x: 20, h: 20),
            Fixture.line(124, "Commercial Banking,", x: 20, h: 20),
            Fixture.line(148, "Business Banking Group", x: 20, h: 20),
            Fixture.line(300, "lpark@pacificwestbank.com", x: 300, h: 17),
        ])
        #expect(group.title == "Senior Vice President, Commercial Banking")
        // A sentence under a title is none of it, though one language's area word spells its preposition (`sur`).
        let sentence = card([
            Fixture.line(20, "Cabinet Dentaire des Tilleuls", x: 20, h: 21),
            Fixture.line(100, "Dr Thomas Lefèvre", x: 20, h: 27),
            Fixture.line(134, "Chirurgien-dentiste", x: 20, h: 20),
            Fixture.line(156, "Consultations sur rendez-vous", x: 20, h: 17),
            Fixture.line(300, "cabinet.tilleuls@orange.fr", x: 300, h: 17),
        ])
        #expect(sentence.title == "Chirurgien-dentiste")
        // A line under the firm's name in another column than the person's is the firm's, not the person's title.
        let tagline = card([
            Fixture.line(36, "Lachlan Whitmore", x: 37, h: 33),
            Fixture.line(35, "Harbourline Property Pty Ltd", x: 600, h: 24),
            Fixture.line(61, "Licensed Real Estate Agent", x: 657, h: 18),
            Fixture.line(74, "Sales Agent", x: 37, h: 22),
            Fixture.line(373, "l.whitmore@harbourline.com.au", x: 37, h: 19),
        ])
        #expect(tagline.title == "Sales Agent")
    }

    /// A wordmark of three lines that ends with its legal form, and a legal form of `Company Limited`, go whole; a list
    /// of services under the firm does not.
    @Test func threeLinesAndLists() {
        let three = card([
            Fixture.line(40, "Brightwater", x: 60, h: 40),
            Fixture.line(86, "Engineering Services", x: 60, h: 26),
            Fixture.line(118, "Limited", x: 60, h: 26),
            Fixture.line(220, "Chinedu Okeke", x: 60, h: 34),
            Fixture.line(262, "Project Engineer", x: 60, h: 22),
            Fixture.line(480, "c.okeke@brightwater.ng", x: 60, h: 22),
        ])
        #expect(three.organization == "Brightwater Engineering Services Limited")
        let company = card([
            Fixture.line(40, "Kowloon Bay Trading", x: 60, h: 40),
            Fixture.line(86, "Company Limited", x: 60, h: 38),
            Fixture.line(220, "Wong Siu Ming", x: 60, h: 44),
            Fixture.line(270, "Director", x: 60, h: 24),
            Fixture.line(480, "siuming@kowloonbaytrading.com.hk", x: 60, h: 22),
        ])
        #expect(company.organization == "Kowloon Bay Trading Company Limited")
        let list = card([
            Fixture.line(40, "Lakeside Diagnostic Centre, Inc.", x: 60, h: 30),
            Fixture.line(76, "Laboratory • X-Ray • Ultrasound", x: 60, h: 28),
            Fixture.line(220, "Ana Reyes", x: 60, h: 34),
            Fixture.line(262, "Radiologic Technologist", x: 60, h: 22),
            Fixture.line(480, "ana.reyes@lakesidediagnostic.ph", x: 60, h: 22),
        ])
        #expect(list.organization == "Lakeside Diagnostic Centre, Inc.")
    }

    /// A kind of firm no legal form says (`Works`, `Joinery`) names the firm printed largest, whose free mail address
    /// spells it; the person's name is the smaller line.
    @Test func aKindOfFirm() {
        let c = card([
            Fixture.line(30, "Efua Mensah", x: 700, h: 22),
            Fixture.line(58, "Sales Executive", x: 700, h: 24),
            Fixture.line(180, "TAMALE TIMBER WORKS", x: 50, h: 32),
            Fixture.line(540, "tamaletimberworks@gmail.com", x: 600, h: 21),
        ])
        #expect(c.name?.full == "Efua Mensah")
        #expect(c.organization == "TAMALE TIMBER WORKS")
    }

    /// Degrees wrapped under a name that ends with a comma go with the name; a street's word wrapped onto a line of its
    /// own goes on its street.
    @Test func wrappedDegreesAndStreetWords() {
        let c = card([
            Fixture.line(60, "Dr. Wanjiku Njeri,", x: 60, h: 40),
            Fixture.line(106, "MBChB, MMed", x: 60, h: 40),
            Fixture.line(150, "Consultant Paediatrician", x: 60, h: 30),
            Fixture.line(300, "Lakeside Plaza, 3rd Floor, Oginga Odinga", x: 700, h: 30),
            Fixture.line(334, "Street", x: 700, h: 30),
            Fixture.line(368, "P.O. Box 4120-40100, Kisumu", x: 700, h: 30),
            Fixture.line(500, "info@lakesidekids.co.ke", x: 60, h: 30),
        ])
        #expect(c.name?.full == "Dr. Wanjiku Njeri, MBChB, MMed")
        #expect(c.name?.family == "Njeri")
        #expect(c.name?.suffix == "MBChB, MMed")
        #expect(c.title == "Consultant Paediatrician")
        #expect(c.address?.full == "Lakeside Plaza, 3rd Floor, Oginga Odinga Street, P.O. Box 4120-40100, Kisumu")
    }

    /// People whose names hold a word that names a kind of shop on receipts (`Mercado`, `Mart`, `Bar`) keep their
    /// names; a title beside the name comes before a line with a title's word lower in the name's column.
    @Test func shopWordsInPeoplesNames() {
        let mercado = card([
            Fixture.line(60, "Carlos Mercado", x: 60, h: 40),
            Fixture.line(110, "Software Developer", x: 60, h: 24),
            Fixture.line(480, "carlos.mercado@gmail.com", x: 60, h: 22),
        ])
        #expect(mercado.name?.full == "Carlos Mercado")
        #expect(mercado.organization == nil)
        let mart = card([
            Fixture.line(60, "Mart Tamm", x: 60, h: 40),
            Fixture.line(110, "Product Manager", x: 60, h: 24),
            Fixture.line(480, "mart@tamm.ee", x: 60, h: 22),
        ])
        #expect(mart.name?.full == "Mart Tamm")
        let beside = card([
            Fixture.line(60, "Priya Raman", x: 60, h: 40),
            Fixture.line(104, "Managing Director", x: 600, h: 24),
            Fixture.line(160, "Your Trusted Property Advisor", x: 60, h: 22),
            Fixture.line(480, "priya@ramanhomes.in", x: 600, h: 22),
        ])
        #expect(beside.title == "Managing Director")
    }

    /// A wordmark's third line that names the firm's kind goes with it (`Ashgrove` / `Timber` / `Works`), and so does
    /// a second line that ends with Vietnam's `JSC`.
    @Test func aThirdLineOfKindAndAJointStockCompany() {
        let works = card([
            Fixture.line(50, "Ashgrove", x: 60, h: 34),
            Fixture.line(88, "Timber", x: 60, h: 30),
            Fixture.line(122, "Works", x: 60, h: 30),
            Fixture.line(60, "Kofi Mensah", x: 600, h: 40),
            Fixture.line(108, "Workshop Manager", x: 600, h: 24),
            Fixture.line(480, "kofi@ashgrovetimber.com.gh", x: 600, h: 22),
        ])
        #expect(works.organization == "Ashgrove Timber Works")
        let department = card([
            Fixture.line(50, "Ashgrove", x: 60, h: 34),
            Fixture.line(88, "Timber", x: 60, h: 30),
            Fixture.line(122, "Legal", x: 60, h: 30),
            Fixture.line(60, "Kofi Mensah", x: 600, h: 40),
            Fixture.line(108, "Company Secretary", x: 600, h: 24),
            Fixture.line(480, "kofi@ashgrovetimber.com.gh", x: 600, h: 22),
        ])
        #expect(department.organization == "Ashgrove Timber")
        let jsc = card([
            Fixture.line(40, "Hanoi Lantern", x: 20, h: 24),
            Fixture.line(66, "Investment JSC", x: 20, h: 22),
            Fixture.line(40, "Tran Minh Chau", x: 400, h: 40),
            Fixture.line(90, "Investment Director", x: 400, h: 22),
            Fixture.line(300, "minhchau.tran@hanoilantern.vn", x: 400, h: 20),
        ])
        #expect(jsc.organization == "Hanoi Lantern Investment JSC")
    }

    /// A firm's name wrapped before a joining word in small letters goes on under it (`Kerala Institute` / `of
    /// Fisheries`).
    @Test func aNameWrappedBeforeAJoiningWord() {
        let institute = card([
            Fixture.line(40, "Kerala Institute", x: 40, h: 26),
            Fixture.line(70, "of Fisheries", x: 40, h: 26),
            Fixture.line(40, "Dr. Meera Nair", x: 600, h: 36),
            Fixture.line(84, "Senior Scientist", x: 600, h: 22),
            Fixture.line(330, "meera.nair@kif.ac.in", x: 600, h: 20),
        ])
        #expect(institute.organization == "Kerala Institute of Fisheries")
        // (A kind of firm of travel and of Norway's advisers: `Annapurna Base` / `Expeditions`.)
        let kind = card([
            Fixture.line(40, "Annapurna Base", x: 40, h: 40),
            Fixture.line(86, "Expeditions", x: 40, h: 34),
            Fixture.line(40, "Dawa Sherpa", x: 600, h: 36),
            Fixture.line(84, "Trek Leader", x: 600, h: 22),
            Fixture.line(330, "dawa@annapurnabase.com.np", x: 600, h: 20),
        ])
        #expect(kind.organization == "Annapurna Base Expeditions")
    }

    /// A logo's monogram that the recognizer read on its own, set on the row of the firm's name or of the person's, is
    /// no part of either; a degree after a name is no monogram.
    @Test func monogramsOnTheRowOfAName() {
        let firm = card([
            Fixture.line(40, "Tomasz Wrona", x: 40, h: 34),
            Fixture.line(84, "Head of Product", x: 40, h: 22),
            Fixture.line(300, "t.wrona@kestrelmarine.pl", x: 40, h: 20),
            Fixture.line(420, "Kestrel Marine Sp. z o.o.", x: 480, h: 40),
            Fixture.line(436, "KM", x: 1090, h: 24),
        ])
        #expect(firm.organization == "Kestrel Marine Sp. z o.o.")
        let person = card([
            Fixture.line(40, "DG", x: 40, h: 30),
            Fixture.line(40, "Amaia Etxeberria Goñi", x: 110, h: 34),
            Fixture.line(84, "Senior Counsel", x: 110, h: 22),
            Fixture.line(300, "a.etxeberria@duranagoiti.es", x: 110, h: 20),
            Fixture.line(420, "Durana Goiti Abogados", x: 110, h: 26),
        ])
        #expect(person.name?.full == "Amaia Etxeberria Goñi")
        let degree = card([
            Fixture.line(40, "Julia Dunmore", x: 40, h: 34),
            Fixture.line(40, "JD", x: 330, h: 34),
            Fixture.line(84, "Attorney at Law", x: 40, h: 22),
            Fixture.line(300, "julia@dunmorelaw.com", x: 40, h: 20),
        ])
        #expect(degree.name?.full.hasPrefix("Julia Dunmore") == true)
    }

    /// A firm's legal form in letters with stops wrapped onto its own line (`L.L.C.`), and a kind of organization
    /// (`Initiative`) under a name that spells the domain.
    @Test func dottedLegalFormsAndInitiatives() {
        let llc = card([
            Fixture.line(40, "FALCON RIDGE GENERAL TRADING", x: 40, h: 36),
            Fixture.line(84, "L.L.C.", x: 40, h: 22),
            Fixture.line(160, "Rashid Al Mansoori", x: 40, h: 30),
            Fixture.line(200, "Sales Manager", x: 40, h: 22),
            Fixture.line(330, "rashid@falconridge.ae", x: 40, h: 20),
        ])
        #expect(llc.organization == "FALCON RIDGE GENERAL TRADING L.L.C.")
        let initiative = card([
            Fixture.line(40, "Achieng Otieno", x: 40, h: 34),
            Fixture.line(84, "Programme Officer", x: 40, h: 22),
            Fixture.line(300, "aotieno@kibowater.or.ke", x: 40, h: 20),
            Fixture.line(420, "KIBO WATER", x: 40, h: 30),
            Fixture.line(456, "INITIATIVE", x: 40, h: 26),
        ])
        #expect(initiative.organization == "KIBO WATER INITIATIVE")
    }

    /// A title's word in a firm's name that spells the whole domain (`& Partner`) is the firm's, and the person's
    /// family name alone, which spells only a part of it, is not the firm; Brazil's domains of the professions
    /// (`.adv.br`) are no firm's name.
    @Test func partnersFirmsAndProfessionalDomains() {
        let partner = card([
            Fixture.line(40, "Brandstätter & Partner Steuerberatung", x: 40, h: 30),
            Fixture.line(80, "GmbH", x: 40, h: 18),
            Fixture.line(140, "Mag. Lukas", x: 40, h: 30),
            Fixture.line(176, "Brandstätter", x: 40, h: 30),
            Fixture.line(220, "Steuerberater", x: 40, h: 20),
            Fixture.line(330, "l.brandstaetter@brandstaetter-partner.at", x: 500, h: 20),
        ])
        #expect(partner.organization == "Brandstätter & Partner Steuerberatung GmbH")
        #expect(partner.title == "Steuerberater")
        #expect(BusinessCardParser.domainStem("costalima.adv.br") == "costalima")
        #expect(BusinessCardParser.domainStem("estudio.arq.br") == "estudio")
    }

    /// What a monogram's and a domain's rules must leave alone (a reviewer's probes): the owner's initials the domain
    /// spells (`JD Landscaping`), a title's acronym that a person's initials match (`HR` of Helen Ross), and a title's
    /// line that names the firm after a comma.
    @Test func initialsAndTitlesThatStay() {
        let owner = card([
            (80, 50, [(80, "JD"), (200, "Landscaping"), (455, "Services")]),
            Fixture.line(200, "John Doe", x: 80, h: 40),
            Fixture.line(250, "Owner", x: 80, h: 28),
            Fixture.line(460, "Mobile 0412 345 678", x: 80, h: 26),
            Fixture.line(510, "john@jdlandscaping.com.au", x: 80, h: 26),
        ])
        #expect(owner.organization == "JD Landscaping Services")
        let hr = card([
            Fixture.line(80, "Helen Ross", x: 80, h: 50),
            (150, 30, [(80, "HR"), (153, "Business"), (318, "Partner")]),
            Fixture.line(220, "Northfield Foods Ltd", x: 80, h: 34),
            Fixture.line(510, "helen.ross@northfieldfoods.co.uk", x: 80, h: 26),
        ])
        #expect(hr.title == "HR Business Partner")
        let head = card([
            Fixture.line(60, "NORTHFIELD", x: 80, h: 60),
            Fixture.line(180, "Helen Ross", x: 80, h: 44),
            Fixture.line(240, "Head of Sales, Northfield Foods", x: 80, h: 28),
            Fixture.line(510, "helen.ross@northfieldfoods.co.uk", x: 80, h: 26),
        ])
        #expect(head.title == "Head of Sales, Northfield Foods")
    }

    /// A top-level domain no registry knows, read with a shape OCR mistakes for another, is mended in the e-mail and
    /// web addresses alike; a known one stays.
    /// A social handle after its label spells the domain but names no firm; a link whose `//` OCR read as one slash is
    /// the card's web address and no firm either.
    @Test func handlesAndLinksMissingASlashAreNoFirm() {
        let c = card([
            Fixture.line(40, "COPPERBELT MINING SUPPLIES LTD", x: 40, h: 20),
            Fixture.line(80, "Mwila Phiri", x: 40, h: 30),
            Fixture.line(120, "Head of Compliance", x: 40, h: 20),
            Fixture.line(200, "mwila.phiri@cbmsupplies.co.zm", x: 40, h: 18),
            Fixture.line(230, "IG @cbmsupplies", x: 40, h: 18),
        ])
        #expect(c.organization == "COPPERBELT MINING SUPPLIES LTD")
        let w = card([
            Fixture.line(40, "MUSHI & LYIMO ADVOCATES", x: 40, h: 22),
            Fixture.line(90, "Juma Lyimo", x: 40, h: 30),
            Fixture.line(130, "Logistics Officer", x: 40, h: 20),
            Fixture.line(200, "Email: juma.lyimo@mushilyimo.co.tz", x: 40, h: 18),
            Fixture.line(230, "W: https:/mushilyimo.co.tz", x: 40, h: 18),
        ])
        #expect(w.organization == "MUSHI & LYIMO ADVOCATES")
        #expect(w.urls.map(\.url) == ["https://mushilyimo.co.tz"])
        let social = card([
            Fixture.line(40, "MUSHI & LYIMO ADVOCATES", x: 40, h: 22),
            Fixture.line(90, "Juma Lyimo", x: 40, h: 30),
            Fixture.line(200, "juma.lyimo@mushilyimo.co.tz", x: 40, h: 18),
            Fixture.line(230, "https:/twitter.com/mushilyimo", x: 40, h: 18),
        ])
        #expect(social.urls.isEmpty)
        #expect(social.socialProfiles.map(\.service) == ["x"])
        #expect(BusinessCardParser.isHandleLine(["Instagram:", "@vigc"]))
        #expect(!BusinessCardParser.isHandleLine(["Meet", "us", "@", "Booth", "12"]))
        #expect(BusinessCardParser.isHandleLine(["@costamoura.arq", "on", "every", "network"]))
    }

    /// A logo of bars that OCR read as `III` beside the firm's name, taller than its letters, is no part of it; a
    /// numeral printed as the name's words are stays.
    @Test func aLogoOfBarsBesideTheFirm() {
        func firm(_ mark: String, h: Double) -> String? {
            card([
                Fixture.line(51, mark, x: 63, h: h),
                Fixture.line(58, "Carmelix Technologies Ltd.", x: 124 + h - 48, h: 39),
                Fixture.line(191, "Noa Ben-David", x: 62, h: 57),
                Fixture.line(258, "VP Product", x: 62, h: 30),
                Fixture.line(444, "noa@carmelix.io", x: 63, h: 29),
            ]).organization
        }
        #expect(firm("III", h: 48) == "Carmelix Technologies Ltd.")
        #expect(firm("III", h: 39) == "III Carmelix Technologies Ltd.")
        // An article or a number opening the name, whatever the space after it.
        #expect(firm("Il", h: 48) == "Il Carmelix Technologies Ltd.")
        #expect(firm("11", h: 48) == "11 Carmelix Technologies Ltd.")
    }

    /// A legal form alone is the firm's only where no name stands over it (a logo's `Enterprises`); a word one OCR
    /// slip from a legal form that is a word of its own stays (`See`, not Egypt's `SAE`).
    @Test func legalFormsAloneAndWordsLikeThem() {
        let logo = card([
            Fixture.line(40, "Enterprises", x: 40, h: 30),
            Fixture.line(120, "Ravi Menon", x: 40, h: 30),
            Fixture.line(160, "Sales Manager", x: 40, h: 20),
            Fixture.line(300, "ravi@gmail.com", x: 40, h: 18),
        ])
        #expect(logo.organization == "Enterprises")
        let lake = card([
            Fixture.line(60, "Hotel am See", x: 80, h: 50),
            Fixture.line(150, "Julia Brandt", x: 80, h: 40),
            Fixture.line(210, "Rezeption", x: 80, h: 28),
            Fixture.line(510, "T +43 6542 555 012", x: 80, h: 26),
            Fixture.line(560, "julia@hotel-amsee.at", x: 80, h: 26),
        ])
        #expect(lake.organization == "Hotel am See")
    }

    @Test func topLevelDomainsOCRMisread() {
        let lk = card([
            Fixture.line(40, "Dilani Perera", x: 40, h: 34),
            Fixture.line(84, "Relationship Manager", x: 40, h: 22),
            Fixture.line(270, "+94 11 243 7781", x: 500, h: 20),
            Fixture.line(300, "dilani.perera@serendibtrust.Ik", x: 500, h: 20),
            Fixture.line(330, "www.serendibtrust.Ik", x: 500, h: 20),
        ])
        #expect(lk.emails.map(\.address) == ["dilani.perera@serendibtrust.lk"])
        #expect(lk.urls.map(\.url) == ["www.serendibtrust.lk"])
        #expect(BusinessCardParser.topLevelDomainMended("example.corn") == "example.com")
        #expect(BusinessCardParser.topLevelDomainMended("example.it") == nil)
        #expect(BusinessCardParser.topLevelDomainMended("example.qq") == nil)
        // Only to the card's country's code, a generic domain, or the ending its other address shows.
        #expect(BusinessCardParser.topLevelDomainMended("murphylaw.ic") == nil)
        #expect(BusinessCardParser.topLevelDomainMended("murphylaw.ic", hosts: ["www.murphylaw.ie"]) == "murphylaw.ie")
        // A registered ending yields to one a shape apart that more of the card's hosts bear, and only then.
        let mend = { (host: String, hosts: [String]) in BusinessCardParser.topLevelDomainMended(host, hosts: hosts) }
        #expect(mend("vejosodai.it", ["vejosodai.it", "vejosodai.lt", "www.vejosodai.lt"]) == "vejosodai.lt")
        #expect(mend("vejosodai.lt", ["vejosodai.it", "vejosodai.lt", "www.vejosodai.lt"]) == nil)
        #expect(mend("vejosodai.it", ["vejosodai.it", "www.vejosodai.lt"]) == nil, "one against one")
        #expect(mend("vejosodai.de", ["vejosodai.de", "vejosodai.at", "www.vejosodai.at"]) == nil, "no shape apart")
    }

    /// A firm named by its trade's plural (`Outsourcing`, `Textiles`, `Exporters`), in capitals at the card's foot, is
    /// the organization though the domain spells it only in part.
    @Test func aFirmNamedByItsTradeAtTheFoot() {
        let c = card([
            Fixture.line(43, "Jose Miguel Santos", x: 50, h: 60),
            Fixture.line(119, "Operations Lead", x: 56, h: 30),
            Fixture.line(221, "+63 2 8651 2290", x: 92, h: 25),
            Fixture.line(255, "jm.santos@malayabpo.ph", x: 87, h: 28),
            Fixture.line(494, "MALAYA OUTSOURCING", x: 58, h: 26),
        ])
        #expect(c.organization == "MALAYA OUTSOURCING")
    }

    /// A firm's name set over two lines beside its logo: a bare name over a kind in the plural, over a kind with a
    /// legal form, over `&` and a legal form, over one kind's word, or over one or two more words of its print; not
    /// over a town, nor over the premises of an address.
    @Test func wordmarksOverTwoLines() {
        func firm(_ upper: String, _ lower: String, h: Double = 30, lowerH: Double = 30) -> String? {
            var lines = [
                Fixture.line(40, "Grace Nakato", x: 600, h: 34),
                Fixture.line(84, "Branch Manager", x: 600, h: 22),
                Fixture.line(200, upper, x: 60, h: h),
                Fixture.line(200 + h * 1.3, lower, x: 60, h: lowerH),
            ]
            lines.append(Fixture.line(420, "Tel: +256 414 237 859", x: 600, h: 20))
            let stem = upper.lowercased().filter(\.isLetter)
            lines.append(Fixture.line(450, "grace@\(stem).ug", x: 600, h: 20))
            return card(lines).organization
        }
        #expect(firm("Red Sea Pearl", "Dental Clinics") == "Red Sea Pearl Dental Clinics")
        #expect(firm("Marina Gate", "Analytics Pte. Ltd.") == "Marina Gate Analytics Pte. Ltd.")
        #expect(firm("Kowloon Bay", "Print & Pack Co.") == "Kowloon Bay Print & Pack Co.")
        #expect(firm("Kaveri Legal", "Associates") == "Kaveri Legal Associates")
        #expect(firm("Wildrose Pediatric", "Dentistry", h: 23, lowerH: 26) == "Wildrose Pediatric Dentistry")
        #expect(firm("Northwind Pediatric", "Nairobi") == "Northwind Pediatric")
        #expect(firm("Evergreen", "Growing Together") == "Evergreen")
        #expect(firm("Harbor Light", "Nantucket") == "Harbor Light")
        // (Kinds of firm in hospitality, `Hospitality`, `Guest House`, where the domain spells only a part.)
        for (firm, email) in [
            ("Pearl Bay Hospitality", "anjali.menon@pearlbayhotels.qa"),
            ("Riad Zitoune Guest House", "contact@riadzitoune-marrakech.com"),
        ] {
            let c = card([
                Fixture.line(31, "Anjali Menon", x: 34, h: 56),
                Fixture.line(95, "Guest Relations Executive", x: 40, h: 28),
                Fixture.line(292, email, x: 569, h: 25),
                Fixture.line(425, firm, x: 39, h: 32),
            ])
            #expect(c.organization == firm)
        }
        #expect(firm("Northwind Pediatric", "your child's smile", lowerH: 20) == "Northwind Pediatric")
        let farm = card([
            Fixture.line(40, "Harriet Cole", x: 60, h: 34),
            Fixture.line(84, "Manager", x: 60, h: 22),
            Fixture.line(150, "Greystones Farm Shop", x: 60, h: 20),
            Fixture.line(174, "Greystones Farm", x: 60, h: 20),
            Fixture.line(198, "Burford Road", x: 60, h: 20),
            Fixture.line(222, "Witney", x: 60, h: 20),
            Fixture.line(246, "Oxfordshire OX29 7QE", x: 60, h: 20),
            Fixture.line(300, "Tel 01993 704826 · greystonesfarmshop@gmail.com", x: 60, h: 20),
        ])
        #expect(farm.organization == "Greystones Farm Shop")
        #expect(farm.address?.full.hasPrefix("Greystones Farm, Burford Road") == true)
    }

    /// A logo's monogram read on the firm's row is left out: in small letters that its own line's words begin with,
    /// and whatever the e-mail holds by chance (`ka` of kavya@); it joins no address either.
    @Test func monogramsOnTheFirmsRow() {
        let small = card([
            Fixture.line(40, "Rajesh Kumar Iyer", x: 600, h: 34),
            Fixture.line(84, "Chief Technology Officer", x: 600, h: 22),
            Fixture.line(200, "rajesh.iyer@example.in", x: 600, h: 20),
            (360, 22, [(40, "Vs"), (100, "Vistara"), (190, "Softech"), (278, "Pvt."), (330, "Ltd.")]),
        ])
        #expect(small.organization == "Vistara Softech Pvt. Ltd.")
        let chance = card([
            Fixture.line(38, "Kaveri Agro", x: 480, h: 36),
            (72, 36, [(405, "KA"), (481, "Exports"), (640, "LLP")]),
            Fixture.line(160, "Kavya Deshpande", x: 30, h: 50),
            Fixture.line(400, "kavya.deshpande@kaveriagro.com", x: 400, h: 26),
        ])
        #expect(chance.organization == "Kaveri Agro Exports LLP")
        let address = card([
            Fixture.line(52, "Lukas Bachmann", x: 36, h: 42),
            Fixture.line(101, "Vermögensverwalter", x: 38, h: 18),
            Fixture.line(130, "T +41 44 215 38 60", x: 37, h: 18),
            Fixture.line(169, "lukas@bachmann-treuhand.ch", x: 38, h: 16),
            Fixture.line(211, "Talacker 35", x: 37, h: 18),
            Fixture.line(231, "Postfach", x: 36, h: 17),
            Fixture.line(250, "8001 Zürich", x: 37, h: 17),
            (293, 24, [(49, "BT"), (105, "Bachmann"), (215, "Treuhand"), (315, "AG")]),
        ])
        #expect(address.organization == "Bachmann Treuhand AG")
        // (A street's word or a name's particle read apart is no monogram: `St Stephens Trust`.)
        let saint = card([
            (60, 40, [(80, "St"), (185, "Stephens"), (370, "Trust")]),
            Fixture.line(200, "Margaret Byrne", x: 80, h: 34),
            Fixture.line(245, "Fundraising Manager", x: 80, h: 24),
            Fixture.line(510, "m.byrne@saintstephens.org.uk", x: 80, h: 24),
        ])
        #expect(saint.organization == "St Stephens Trust")
        #expect(address.address?.full == "Talacker 35, Postfach, 8001 Zürich")
    }
}
