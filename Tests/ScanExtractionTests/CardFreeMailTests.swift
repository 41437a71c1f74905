import Testing
import ScanModel
@testable import ScanExtraction

/// Small businesses' cards with an address at a free mail service: the local part names the firm, as a domain would.
/// Made after the seventy-ninth session's looked-at cards (`/tmp/h38`), written here with other names.
@Suite struct CardFreeMailTests {
    func card(_ lines: [(Double, Double, [(Double, String)])]) -> BusinessCard { Fixture.card(lines) }

    /// The firm's line over the street, spelled by the local part, is the firm and not the person, whose name is
    /// printed larger at the top; a line of the firm's name shortened (`Bramble Hill Farm` of `bramblehillfarmshop`)
    /// is no name either.
    @Test func theLocalPartNamesTheFirm() {
        let c = card([
            Fixture.line(80, "Rowan Pettigrew", x: 300, h: 60),
            Fixture.line(150, "Owner", x: 300, h: 34),
            Fixture.line(400, "Copper Beech Joinery", x: 300, h: 40),
            Fixture.line(445, "418 Alder Street", x: 300, h: 40),
            Fixture.line(490, "Portland, OR 97205", x: 300, h: 40),
            Fixture.line(600, "copperbeechjoinery@gmail.com", x: 700, h: 36),
        ])
        #expect(c.name?.full == "Rowan Pettigrew")
        #expect(c.organization == "Copper Beech Joinery")
        #expect(c.title == "Owner")
        let farm = card([
            Fixture.line(80, "Isla Marchbank", x: 300, h: 50),
            Fixture.line(140, "Manager", x: 300, h: 34),
            Fixture.line(190, "Bramble Hill Farm Shop", x: 300, h: 32),
            Fixture.line(225, "Bramble Hill Farm", x: 300, h: 30),
            Fixture.line(260, "Cuckoo Lane", x: 300, h: 30),
            Fixture.line(295, "Banbury OX15 6HQ", x: 300, h: 30),
            Fixture.line(600, "bramblehillfarmshop@gmail.com", x: 700, h: 30),
        ])
        #expect(farm.name?.full == "Isla Marchbank")
        #expect(farm.organization == "Bramble Hill Farm Shop")
        #expect(farm.address?.full == "Bramble Hill Farm, Cuckoo Lane, Banbury OX15 6HQ")
    }

    /// A person's own address at a free mail service still names the person.
    @Test func aPersonsOwnFreeMail() {
        let c = card([
            Fixture.line(80, "Copper Beech Joinery", x: 300, h: 40),
            Fixture.line(160, "Rowan Pettigrew", x: 300, h: 40),
            Fixture.line(215, "Owner", x: 300, h: 30),
            Fixture.line(600, "rowan.pettigrew@gmail.com", x: 700, h: 30),
        ])
        #expect(c.name?.full == "Rowan Pettigrew")
        // Nor does a given name alone name the firm.
        let given = card([
            Fixture.line(80, "Sarah Connolly", x: 300, h: 40),
            Fixture.line(140, "Interior Designer", x: 300, h: 30),
            Fixture.line(600, "sarah@gmail.com", x: 700, h: 30),
        ])
        #expect(given.name?.full == "Sarah Connolly")
        #expect(given.organization == nil)
        // Nor does a person's name printed largest, which the local part spells without its middle initial or its
        // second family name.
        for (name, local) in [("Sarah J. Connolly", "sarahconnolly"), ("María García López", "mariagarcia")] {
            let c = card([
                Fixture.line(80, name, x: 300, h: 46),
                Fixture.line(140, "Interior Designer", x: 300, h: 30),
                Fixture.line(600, local + "@gmail.com", x: 700, h: 30),
            ])
            #expect(c.name?.full == name)
            #expect(c.organization == nil)
        }
    }

    /// Opening hours are no firm (`Sa` of Saturday is no `SA`), nor is a line that ends with an Irish county's `Co.`.
    @Test func hoursAndACountyAreNoFirm() {
        let hours = card([
            Fixture.line(80, "Jonas Hofmann", x: 300, h: 46),
            Fixture.line(140, "Inhaber", x: 300, h: 30),
            Fixture.line(200, "Lindenallee 12", x: 300, h: 30),
            Fixture.line(235, "50968 Köln", x: 300, h: 30),
            Fixture.line(270, "Mo–Fr 6:30–18:30 · Sa 7–13 Uhr", x: 300, h: 30),
            Fixture.line(600, "jonas.hofmann@gmail.com", x: 700, h: 30),
        ])
        #expect(hours.organization == nil)
        #expect(CardFreeMailTests.hours("Mon-Fri 9am-5pm") && CardFreeMailTests.hours("Lun–ven 8h-17h"))
        #expect(!CardFreeMailTests.hours("Studio 54") && !CardFreeMailTests.hours("1-800 Flowers"))
        #expect(!CardFreeMailTests.hours("24-7 Locksmiths Ltd") && !CardFreeMailTests.hours("9-5 Recruitment"))
        let county = card([
            Fixture.line(80, "Aoife Brennan", x: 300, h: 46),
            Fixture.line(140, "Veterinary Surgeon", x: 300, h: 30),
            Fixture.line(200, "Branch: Main Street, Adare, Co. Limerick", x: 300, h: 30),
            Fixture.line(600, "aoife.brennan@gmail.com", x: 700, h: 30),
        ])
        #expect(county.organization == nil)
    }

    static func hours(_ s: String) -> Bool { BusinessCardParser.holdsHours(s) }
}
