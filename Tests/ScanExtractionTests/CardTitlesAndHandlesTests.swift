import Testing
import ScanModel
@testable import ScanExtraction

/// Titles of the Scandinavian and Portuguese locale files, and a social handle that spells the domain. Made after the
/// seventy-ninth session's looked-at cards (`/tmp/h39`), written here with other names.
@Suite struct CardTitlesAndHandlesTests {
    func card(_ lines: [(Double, Double, [(Double, String)])]) -> BusinessCard { Fixture.card(lines) }

    /// `Advokat` over `Partner` is one title; a Swedish `Försäljningschef` and a Danish `Indehaver` are titles.
    @Test func scandinavianTitles() {
        let no = card([
            Fixture.line(80, "Sigrid Haugen", x: 60, h: 50),
            Fixture.line(140, "Advokat", x: 60, h: 34),
            Fixture.line(176, "Partner", x: 60, h: 34),
            Fixture.line(100, "Haugen & Lie Advokatfirma AS", x: 700, h: 40),
            Fixture.line(420, "sh@haugenlie.no", x: 60, h: 28),
        ])
        #expect(no.title == "Advokat Partner")
        for (title, mail) in [("Försäljningschef", "anna@norrlandstra.se"), ("Indehaver", "anna@norrlandstra.dk")] {
            let c = card([
                Fixture.line(80, "Anna Lindgren", x: 60, h: 50),
                Fixture.line(140, title, x: 60, h: 34),
                Fixture.line(300, "Norrlands Trä AB", x: 60, h: 30),
                Fixture.line(420, mail, x: 60, h: 28),
            ])
            #expect(c.title == title)
            #expect(c.name?.full == "Anna Lindgren")
        }
    }

    /// A social handle that spells the domain is no firm: the firm's own line is.
    @Test func aHandleIsNoFirm() {
        let c = card([
            Fixture.line(80, "Beatriz Moura", x: 60, h: 46),
            Fixture.line(135, "Arquiteta", x: 60, h: 26),
            Fixture.line(220, "@mouraaraujo.arq", x: 700, h: 22),
            Fixture.line(420, "Moura & Araújo Arquitetura", x: 60, h: 26),
            Fixture.line(200, "bia@mouraaraujo.arq.br", x: 700, h: 22),
        ])
        #expect(c.organization == "Moura & Araújo Arquitetura")
        #expect(c.title == "Arquiteta")
    }

    /// A given name over its family name, one word a line, is the name when the e-mail spells the two; without that
    /// the lines stay apart.
    @Test func aNameStackedOnTwoLines() {
        func card(mail: String) -> BusinessCard {
            self.card([
                Fixture.line(40, "Gurpreet", x: 40, h: 48),
                Fixture.line(90, "Dhillon", x: 40, h: 44),
                Fixture.line(140, "Mortgage Specialist", x: 40, h: 26),
                Fixture.line(300, mail, x: 600, h: 20),
                Fixture.line(420, "Prairie Sky Credit Union", x: 40, h: 26),
            ])
        }
        let c = card(mail: "gdhillon@prairiesky.example")
        #expect(c.name?.full == "Gurpreet Dhillon")
        #expect(c.title == "Mortgage Specialist")
        #expect(card(mail: "info@prairiesky.example").name?.full != "Gurpreet Dhillon")
    }
}
