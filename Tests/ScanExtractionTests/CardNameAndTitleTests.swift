import Testing
import ScanModel
@testable import ScanExtraction

/// A person's name and title as designers set them: on one line after a comma or a bar or a space, a name over two
/// lines, a long name with particles, a firm's name wrapped after a joining word. Made after the eighty-first
/// session's looked-at cards (`/tmp/h46`), written here with other names.
@Suite struct CardNameAndTitleTests {
    func card(_ lines: [(Double, Double, [(Double, String)])]) -> BusinessCard { Fixture.card(lines) }

    /// A name and a title on one line, parted by a comma, a bar or degrees, are two fields when the e-mail's local part
    /// spells the name.
    @Test func aNameAndATitleOnOneLine() {
        let comma = card([
            Fixture.line(40, "FJÄLLVIND FASTIGHETER AB", x: 40, h: 20),
            Fixture.line(90, "Ingrid Sjöberg Holm, Verkställande direktör", x: 40, h: 36),
            Fixture.line(300, "Tel +46 8 612 40 17", x: 40, h: 20),
            Fixture.line(330, "ingrid.holm@fjallvind.se", x: 40, h: 20),
        ])
        #expect(comma.name?.full == "Ingrid Sjöberg Holm")
        #expect(comma.title == "Verkställande direktör")
        let bar = card([
            Fixture.line(40, "AICHBERG LOGISTIK GMBH", x: 40, h: 22),
            Fixture.line(90, "Marlene von Aichberg | Geschäftsführerin", x: 40, h: 36),
            Fixture.line(300, "T 089 4471 2290", x: 40, h: 20),
            Fixture.line(330, "m.aichberg@aichberg-logistik.de", x: 40, h: 20),
        ])
        #expect(bar.name?.full == "Marlene von Aichberg")
        #expect(bar.title == "Geschäftsführerin")
        let degrees = card([
            Fixture.line(40, "Shannonside Skin Clinic", x: 40, h: 20),
            Fixture.line(90, "Dr. Fionn McCarthy, MB BCh, Consultant Dermatologist", x: 40, h: 26),
            Fixture.line(300, "Tel: 061 418 220", x: 40, h: 20),
            Fixture.line(330, "fmccarthy@shannonsideskin.ie", x: 40, h: 20),
        ])
        #expect(degrees.name?.full.hasPrefix("Dr. Fionn McCarthy") == true)
        #expect(degrees.title == "Consultant Dermatologist")
    }

    /// A name and a firm on one line parted by one bar or dash: the firm's part ends with a legal form or spells the
    /// domain, and the person's reads as a name, whatever short form the e-mail gives; a firm named after its person
    /// stays whole where nothing parts the line.
    @Test func aNameAndAFirmPartedByAMark() {
        let bar = card([
            Fixture.line(40, "Valentina Ríos | Cordillera Textil S.A.S.", x: 40, h: 36),
            Fixture.line(90, "Gerente Comercial", x: 40, h: 22),
            Fixture.line(300, "+57 310 442 8819", x: 40, h: 20),
            Fixture.line(330, "vale@cordilleratextil.co", x: 40, h: 20),
        ])
        #expect(bar.name?.full == "Valentina Ríos")
        #expect(bar.organization == "Cordillera Textil S.A.S.")
        #expect(bar.title == "Gerente Comercial")
        let dash = card([
            Fixture.line(40, "drs. Pieter de Groot — De Groot Dijkbouw", x: 40, h: 30),
            Fixture.line(90, "Projectleider", x: 40, h: 22),
            Fixture.line(300, "010 482 7713", x: 40, h: 20),
            Fixture.line(330, "pieter@dgdijkbouw.nl", x: 40, h: 20),
        ])
        #expect(dash.name?.full == "drs. Pieter de Groot")
        #expect(dash.organization == "De Groot Dijkbouw")
        let whole = card([
            Fixture.line(40, "Ruth Adeyemi Consulting", x: 40, h: 30),
            Fixture.line(90, "Principal Consultant", x: 40, h: 22),
            Fixture.line(330, "ruth@ruthadeyemiconsulting.com", x: 40, h: 20),
        ])
        #expect(whole.organization == "Ruth Adeyemi Consulting")
    }

    /// A given name over the family name on a photo taken askew, where the longer word's box measures a quarter
    /// taller: one name, as the e-mail spells it.
    @Test func aGivenNameOverALongFamilyName() {
        let askew = card([
            Fixture.line(40, "Joris", x: 40, h: 30),
            Fixture.line(74, "Verhaeghebrugge", x: 36, h: 38),
            Fixture.line(120, "Key Account Manager", x: 40, h: 22),
            Fixture.line(300, "T +32 9 224 18 30", x: 500, h: 20),
            Fixture.line(330, "joris.verhaeghebrugge@scheldecargo.be", x: 500, h: 20),
        ])
        #expect(askew.name?.full == "Joris Verhaeghebrugge")
        #expect(askew.title == "Key Account Manager")
    }

    /// Swiss and German doctors' titles in small letters before the name (`Dr. sc. techn.`, `Dr. rer. nat.`).
    @Test func aChainOfDoctorsTitles() {
        let doctor = card([
            Fixture.line(40, "Glarner Optik AG", x: 40, h: 24),
            Fixture.line(84, "Dr. sc. techn. Reto Schwander", x: 40, h: 36),
            Fixture.line(130, "Leiter Entwicklung", x: 40, h: 22),
            Fixture.line(330, "reto.schwander@glarner-optik.ch", x: 500, h: 20),
        ])
        #expect(doctor.name?.full == "Dr. sc. techn. Reto Schwander")
        #expect(doctor.title == "Leiter Entwicklung")
    }

    /// A name of five words with an initial and degrees after its comma, which the e-mail spells by its family name.
    @Test func aLongNameWithDegreesAfterItsComma() {
        let cpa = card([
            Fixture.line(40, "Lualhati Santos & Co.", x: 40, h: 22),
            Fixture.line(84, "Ana Patricia L. De Guzman, CPA", x: 40, h: 36),
            Fixture.line(130, "Tax Senior Manager", x: 40, h: 22),
            Fixture.line(330, "apdeguzman@lualhatisantos.com.ph", x: 500, h: 20),
        ])
        #expect(cpa.name?.full == "Ana Patricia L. De Guzman, CPA")
        #expect(cpa.title == "Tax Senior Manager")
    }

    /// A family name wrapped under the name's line in its print: after a hyphen, or a second family name on a card of
    /// a country whose people bear two; a title's word under a name stays the title.
    @Test func aFamilyNameWrappedUnderTheName() {
        let hyphen = card([
            Fixture.line(40, "Maison Carrel & Fils", x: 40, h: 22),
            Fixture.line(90, "Élodie Marchand-", x: 40, h: 40),
            Fixture.line(136, "Rousseau", x: 40, h: 40),
            Fixture.line(190, "Responsable export", x: 40, h: 20),
            Fixture.line(330, "e.marchand@maisoncarrel.fr", x: 500, h: 20),
        ])
        #expect(hyphen.name?.full == "Élodie Marchand-Rousseau")
        let second = card([
            Fixture.line(40, "Tostadora del Quindío S.A.S.", x: 40, h: 22),
            Fixture.line(90, "Camila Betancur", x: 40, h: 40),
            Fixture.line(136, "Zuluaga", x: 40, h: 40),
            Fixture.line(190, "Jefe de Compras", x: 40, h: 20),
            Fixture.line(300, "Cel +57 310 552 4471", x: 500, h: 20),
            Fixture.line(330, "cbetancur@tostadoraquindio.co", x: 500, h: 20),
        ])
        #expect(second.name?.full == "Camila Betancur Zuluaga")
        // With degrees after its comma.
        let degrees = card([
            Fixture.line(90, "Adriana Solano", x: 40, h: 40),
            Fixture.line(136, "Mora, CPA", x: 40, h: 40),
            Fixture.line(190, "Odontóloga", x: 40, h: 20),
            Fixture.line(300, "Cel. +506 8396-3371", x: 500, h: 20),
            Fixture.line(330, "adriana.solano54@gmail.com", x: 500, h: 20),
        ])
        #expect(degrees.name?.full == "Adriana Solano Mora, CPA")
        #expect(degrees.title == "Odontóloga")
        // (A profession with its degrees is no family name: `Odontóloga, DDS`.)
        let profession = card([
            Fixture.line(60, "Clínica Dental Sonrisa", x: 80, h: 50),
            Fixture.line(150, "Adriana Solano", x: 80, h: 40),
            Fixture.line(200, "Odontóloga, DDS", x: 80, h: 40),
            Fixture.line(510, "Tel. +506 8555 0142", x: 80, h: 26),
            Fixture.line(560, "adriana@sonrisa.cr", x: 80, h: 26),
        ])
        #expect(profession.name?.full == "Adriana Solano")
        #expect(profession.title == "Odontóloga, DDS")
        let title = card([
            Fixture.line(40, "Bufete Larraín", x: 40, h: 22),
            Fixture.line(90, "Camila Betancur", x: 40, h: 40),
            Fixture.line(136, "Abogada", x: 40, h: 40),
            Fixture.line(300, "Cel +57 310 552 4471", x: 500, h: 20),
            Fixture.line(330, "cbetancur@larrain.co", x: 500, h: 20),
        ])
        #expect(title.name?.full == "Camila Betancur")
    }

    /// With only a space between them, the title begins with a title's words (after a modifier such as `Regional`),
    /// and the name ends where the local part stops spelling it.
    @Test func aNameAndATitlePartedBySpaceOnly() {
        let modifier = card([
            Fixture.line(40, "Mesquite Grid Storage", x: 40, h: 22),
            Fixture.line(90, "Tomás Ignacio de la Vega Regional Sales Manager", x: 40, h: 30),
            Fixture.line(300, "Mobile (512) 555-0148", x: 40, h: 20),
            Fixture.line(330, "tdelavega@mesquitegrid.com", x: 40, h: 20),
        ])
        #expect(modifier.name?.full == "Tomás Ignacio de la Vega")
        #expect(modifier.title == "Regional Sales Manager")
        let familyFirst = card([
            Fixture.line(40, "NINGBO HAIYUN VALVES CO., LTD.", x: 40, h: 22),
            Fixture.line(90, "WANG Lihua General Manager", x: 40, h: 34),
            Fixture.line(300, "Tel +86 574 8765 4321", x: 40, h: 20),
            Fixture.line(330, "wanglh@haiyunvalves.cn", x: 40, h: 20),
        ])
        #expect(familyFirst.name?.full == "WANG Lihua")
        #expect(familyFirst.title == "General Manager")
        let lastFamily = card([
            Fixture.line(40, "Adega Serra do Marão, Lda.", x: 40, h: 22),
            Fixture.line(90, "Rui Miguel dos Santos Carvalho Diretor Comercial", x: 40, h: 28),
            Fixture.line(300, "Tel. +351 259 340 118", x: 40, h: 20),
            Fixture.line(330, "rmsantos@serradomarao.pt", x: 40, h: 20),
        ])
        #expect(lastFamily.name?.full == "Rui Miguel dos Santos Carvalho")
        #expect(lastFamily.title == "Diretor Comercial")
    }

    /// A firm's line with a title's word is no person's, and a line the local part does not spell is not cut.
    @Test func notANameAndATitle() {
        let firm = card([
            Fixture.line(40, "Kerrigan Doyle, Chartered Accountants", x: 40, h: 30),
            Fixture.line(90, "Aoife Brennan", x: 40, h: 26),
            Fixture.line(125, "Audit Senior", x: 40, h: 20),
            Fixture.line(300, "Tel: 01 662 0481", x: 40, h: 20),
            Fixture.line(330, "info@kerrigandoyle.ie", x: 40, h: 20),
        ])
        #expect(firm.name?.full == "Aoife Brennan")
        #expect(firm.organization?.hasPrefix("Kerrigan Doyle") == true)
        // A firm named after its founder, whose domain it spells, stays whole; a family name that is a title's word
        // (`Coach`) is no title after a space; two names stacked are two people.
        let founder = card([
            Fixture.line(40, "Hollis Crane | Executive Search", x: 40, h: 26),
            Fixture.line(90, "Edward Hollis", x: 40, h: 30),
            Fixture.line(300, "T 020 7946 0311", x: 40, h: 20),
            Fixture.line(330, "edward@holliscrane.co.uk", x: 40, h: 20),
        ])
        #expect(founder.organization == "Hollis Crane | Executive Search")
        #expect(founder.title == nil)
        let surname = card([
            Fixture.line(40, "Bellwether Wellness", x: 40, h: 22),
            Fixture.line(90, "Mary Ellen Coach", x: 40, h: 34),
            Fixture.line(135, "Nutritionist", x: 40, h: 20),
            Fixture.line(330, "maryellen@bellwetherwellness.com", x: 40, h: 20),
        ])
        #expect(surname.name?.full == "Mary Ellen Coach")
        let couple = card([
            Fixture.line(40, "Harbourside Realty", x: 40, h: 22),
            Fixture.line(90, "Liam Walsh", x: 40, h: 32),
            Fixture.line(128, "Nora Walsh", x: 40, h: 32),
            Fixture.line(330, "liam.walsh@harboursiderealty.ie", x: 40, h: 20),
        ])
        #expect(couple.name?.full == "Liam Walsh")
    }

    /// A name set over two lines, the given name over the family names or the family name under the given one, is
    /// one name when the local part spells both lines (or the given name's initial and the family name).
    @Test func aNameOverTwoLines() {
        let givenOver = card([
            Fixture.line(40, "Goikoetxea Abogados", x: 40, h: 30),
            Fixture.line(100, "Álvaro", x: 40, h: 26),
            Fixture.line(132, "Martínez de Alba Goikoetxea", x: 40, h: 44),
            Fixture.line(190, "SOCIO", x: 40, h: 22),
            Fixture.line(300, "T 944 180 233", x: 40, h: 20),
            Fixture.line(330, "amartinezdealba@goikoetxea-abogados.es", x: 40, h: 20),
        ])
        #expect(givenOver.name?.full == "Álvaro Martínez de Alba Goikoetxea")
        let familyUnder = card([
            Fixture.line(40, "MAINTAL ANLAGENBAU AG", x: 40, h: 20),
            Fixture.line(90, "Dipl.-Ing. Jörg", x: 40, h: 40),
            Fixture.line(136, "Weißhaupt", x: 40, h: 40),
            Fixture.line(200, "Prokurist", x: 40, h: 22),
            Fixture.line(300, "Telefon +49 69 4471 318", x: 40, h: 20),
            Fixture.line(330, "j.weisshaupt@maintal-anlagenbau.de", x: 40, h: 20),
        ])
        #expect(familyUnder.name?.full == "Dipl.-Ing. Jörg Weißhaupt")
        #expect(familyUnder.title == "Prokurist")
    }

    /// A name of four words and two particles is a name where the e-mail spells it (`LIC. MARÍA FERNANDA DE LA ROSA
    /// QUINTERO`), a slogan of as many capitalized words is not, and a firm's name that ends with a joining word goes
    /// on under it.
    @Test func aLongNameAndAFirmWrappedAfterAJoiningWord() {
        let long = card([
            Fixture.line(40, "LIC. MARÍA FERNANDA DE LA ROSA QUINTERO", x: 500, h: 40),
            Fixture.line(110, "Directora de Ventas", x: 500, h: 22),
            Fixture.line(300, "Oficina 33 3614 7702", x: 500, h: 20),
            Fixture.line(330, "maria.delarosa@talavera-jalisco.com.mx", x: 500, h: 20),
        ])
        #expect(long.name?.full == "LIC. MARÍA FERNANDA DE LA ROSA QUINTERO")
        #expect(long.title == "Directora de Ventas")
        let slogan = card([
            Fixture.line(40, "COMPRA Y VENTA DE AUTOS SEMINUEVOS", x: 500, h: 40),
            Fixture.line(110, "Julián Pérez Soto", x: 500, h: 30),
            Fixture.line(300, "Tel. 33 3614 7702", x: 500, h: 20),
            Fixture.line(330, "ventas@autosjalisco.com.mx", x: 500, h: 20),
        ])
        #expect(slogan.name?.full == "Julián Pérez Soto")
        let joined = card([
            Fixture.line(40, "Forjados Sierra del", x: 40, h: 22),
            Fixture.line(68, "Sur S.A. de C.V.", x: 40, h: 22),
            Fixture.line(40, "Ing. Octavio Lozano Garza", x: 500, h: 30),
            Fixture.line(80, "Gerente General", x: 500, h: 20),
            Fixture.line(300, "Tel.: +52 81 8340 1177", x: 500, h: 20),
            Fixture.line(330, "olozano@forjadossierra.mx", x: 500, h: 20),
        ])
        #expect(joined.organization == "Forjados Sierra del Sur S.A. de C.V.")
        #expect(joined.name?.full == "Ing. Octavio Lozano Garza")
    }

    /// A department after a bar on the title's line is the department, not part of the title.
    @Test func aTitleAndItsDepartmentOnOneLine() {
        let c = card([
            Fixture.line(40, "Harwell Quay Foods plc", x: 40, h: 22),
            Fixture.line(90, "Priya Raman", x: 40, h: 36),
            Fixture.line(135, "Category Manager | Strategic Sourcing Team", x: 40, h: 20),
            Fixture.line(300, "Tel +44 20 7946 0118", x: 40, h: 20),
            Fixture.line(330, "priya.raman@harwellquay.co.uk", x: 40, h: 20),
        ])
        #expect(c.title == "Category Manager")
        #expect(c.department == "Strategic Sourcing Team")
    }

    /// A name in letter-spaced capitals that the recognizer read as one word is parted where the local part shows the
    /// family name to begin; a firm's wordmark the local part does not spell stays whole.
    @Test func aNameReadAsOneWord() {
        let glued = card([
            Fixture.line(40, "SOLVEIGHAUGEN-BERG", x: 40, h: 40),
            Fixture.line(100, "Daglig leder", x: 40, h: 22),
            Fixture.line(140, "FJORDLYS ARKITEKTER AS", x: 40, h: 22),
            Fixture.line(300, "Tlf. +47 22 41 63 90", x: 40, h: 20),
            Fixture.line(330, "s.haugenberg@fjordlys.no", x: 40, h: 20),
        ])
        #expect(glued.name?.full == "SOLVEIG HAUGEN-BERG")
        #expect(glued.title == "Daglig leder")
        let pieces = card([
            Fixture.line(40, "ERIKLINDGREN", x: 40, h: 40),
            Fixture.line(100, "Säljchef", x: 40, h: 22),
            Fixture.line(140, "NORRVIK MASKIN AB", x: 40, h: 22),
            Fixture.line(330, "erik.lindgren@norrvikmaskin.se", x: 40, h: 20),
        ])
        #expect(pieces.name?.full == "ERIK LINDGREN")
        let wordmark = card([
            Fixture.line(40, "NORDLYSARKITEKTER", x: 40, h: 40),
            Fixture.line(100, "Ingrid Lunde", x: 40, h: 30),
            Fixture.line(140, "Arkitekt", x: 40, h: 22),
            Fixture.line(330, "post@nordlysark.no", x: 40, h: 20),
        ])
        #expect(wordmark.name?.full == "Ingrid Lunde")
        // A word that the local part only begins is not cut (`admin@`, `chris@`), nor one it spells whole.
        let department = card([
            Fixture.line(40, "ADMINISTRACIÓN", x: 40, h: 40),
            Fixture.line(100, "Lucía Romero Gil", x: 40, h: 30),
            Fixture.line(330, "admin@ferreteriasol.es", x: 40, h: 20),
        ])
        #expect(department.name?.full == "Lucía Romero Gil")
        let surname = card([
            Fixture.line(40, "Erik", x: 40, h: 40),
            Fixture.line(90, "ERIKSSON", x: 40, h: 40),
            Fixture.line(140, "Säljchef", x: 40, h: 22),
            Fixture.line(330, "erik.eriksson@norrvik.se", x: 40, h: 20),
        ])
        #expect(surname.name?.full.contains("ERIK SSON") == false)
    }

    /// A slogan in large print is no name: words ended by stops, or a line the e-mail does not spell over a name it
    /// spells by the first of two family names (`jmorales` of `Julián Morales Vega`).
    @Test func aSloganInLargePrintIsNoName() {
        let stops = card([
            Fixture.line(40, "Harbourline IT Ltd", x: 40, h: 26),
            Fixture.line(100, "Priya Natarajan", x: 40, h: 34),
            Fixture.line(140, "IT Consultant", x: 40, h: 22),
            Fixture.line(300, "BACKUP. NETWORKS. SUPPORT.", x: 40, h: 70),
            Fixture.line(420, "pn@harbourline-it.co.uk", x: 600, h: 20),
        ])
        #expect(stops.name?.full == "Priya Natarajan")
        let surnames = card([
            Fixture.line(20, "ACEITE DE OLIVA", x: 500, h: 90),
            Fixture.line(130, "Almazaras del Genil S.L.", x: 40, h: 22),
            Fixture.line(170, "Julián Morales Vega", x: 40, h: 36),
            Fixture.line(215, "Director Comercial", x: 40, h: 22),
            Fixture.line(330, "jmorales@almazarasgenil.es", x: 40, h: 20),
        ])
        #expect(surnames.name?.full == "Julián Morales Vega")
        // A name's stops that end its honorifics, and a name in the largest print where the e-mail spells none.
        let honorifics = card([
            Fixture.line(40, "TU Graz", x: 40, h: 26),
            Fixture.line(90, "Univ.-Prof. Dipl.-Ing. Dr.techn. Johann Huber", x: 40, h: 32),
            Fixture.line(135, "Institutsvorstand", x: 40, h: 20),
            Fixture.line(330, "office@tugraz.at", x: 40, h: 20),
        ])
        #expect(honorifics.name?.full.hasSuffix("Johann Huber") == true)
        let largest = card([
            Fixture.line(30, "Fresh Ideas", x: 40, h: 60),
            Fixture.line(110, "Lena Ortiz", x: 40, h: 110),
            Fixture.line(240, "Art Director", x: 40, h: 20),
            Fixture.line(300, "Tel 0161 496 0820", x: 40, h: 20),
            Fixture.line(330, "studio@ortizdesign.co.uk", x: 40, h: 20),
        ])
        #expect(largest.name?.full == "Lena Ortiz")
    }

    /// A university's faculty or chair, printed larger than the person's name under it, is a department, not the
    /// name, whatever language names the unit (`Fakultät`, `Faculté`, `Wydział`).
    @Test func aFacultyOverTheNameIsADepartment() {
        for unit in ["Fakultät Bauingenieurwesen", "Faculté des Sciences", "Wydział Chemiczny"] {
            let c = card([
                Fixture.line(40, "OSTRAVSKÁ UNIVERZITA", x: 40, h: 44),
                Fixture.line(110, unit, x: 40, h: 34),
                Fixture.line(240, "Miroslav Kadlec", x: 40, h: 30),
                Fixture.line(280, "Research Associate", x: 40, h: 22),
                Fixture.line(560, "Tel. +420 597 091 234", x: 40, h: 20),
                Fixture.line(590, "sekretariat@osu-example.cz", x: 40, h: 20),
            ])
            #expect(c.name?.full == "Miroslav Kadlec", "\(unit)")
            #expect(c.department == unit)
        }
    }

    /// A title wrapped in its column whose first line holds no title's word: the upper line ends with a joining word,
    /// or the lower goes on in small letters, or the lower is a title's word in the upper line's print.
    @Test func aTitleWhoseFirstLineHoldsNoTitleWord() {
        for (upper, lower) in [
            ("Savjetnica za", "odnose s javnošću"), ("Administrerende", "direktør"), ("Licensed Real Estate", "Agent"),
        ] {
            let c = card([
                Fixture.line(40, "Fjordhus Eiendom AS", x: 40, h: 24),
                Fixture.line(120, "Sigrid Halvorsen", x: 40, h: 40),
                Fixture.line(170, upper, x: 40, h: 24),
                Fixture.line(198, lower, x: 40, h: 24),
                Fixture.line(420, "Tel. +47 22 41 87 30", x: 600, h: 20),
                Fixture.line(450, "sigrid@fjordhus.no", x: 600, h: 20),
            ])
            #expect(c.title == upper + " " + lower)
        }
        // A department over the title stays the department's.
        let department = card([
            Fixture.line(40, "Fjordhus Eiendom AS", x: 40, h: 24),
            Fixture.line(120, "Sigrid Halvorsen", x: 40, h: 40),
            Fixture.line(170, "Avdeling Utleie", x: 40, h: 24),
            Fixture.line(198, "Manager", x: 40, h: 24),
            Fixture.line(450, "sigrid@fjordhus.no", x: 600, h: 20),
        ])
        #expect(department.title == "Manager")
        // A title's line ended by a comma over one more: the comma is no part of the title.
        let comma = card([
            Fixture.line(40, "Harwell Freight Ltd", x: 40, h: 24),
            Fixture.line(120, "Owen Pritchard", x: 40, h: 40),
            Fixture.line(170, "Regional Sales", x: 40, h: 24),
            Fixture.line(198, "Manager,", x: 40, h: 24),
            Fixture.line(450, "owen@harwellfreight.co.uk", x: 600, h: 20),
        ])
        #expect(comma.title == "Regional Sales Manager")
    }

    /// A name whose family names begin the firm's, printed whole on a line of its own, keeps them: the firm's domain
    /// spells the family names, but they are the person's on the name's line.
    @Test func familyNamesThatBeginTheFirmsNameStayTheName() {
        let c = card([
            Fixture.line(40, "Quiroga Benavides Abogados, S.C.", x: 40, h: 26),
            Fixture.line(140, "Lic. Mariana Quiroga Benavides", x: 40, h: 34),
            Fixture.line(185, "Socia Directora", x: 40, h: 20),
            Fixture.line(420, "T 55 4120 7781", x: 40, h: 20),
            Fixture.line(450, "mariana@quirogabenavides.mx", x: 40, h: 20),
        ])
        #expect(c.name?.full == "Lic. Mariana Quiroga Benavides")
        #expect(c.organization == "Quiroga Benavides Abogados, S.C.")
    }

    /// The name again in its own script under its Latin letters is no title, and stands between no name and title.
    @Test func theNameInItsOwnScriptIsNoTitle() {
        let c = card([
            Fixture.line(140, "MORIMOTO Aoi", x: 74, h: 68),
            Fixture.line(210, "森本葵", x: 77, h: 50),
            Fixture.line(266, "potter", x: 74, h: 38),
            Fixture.line(348, "080-4417-2093", x: 116, h: 34),
            Fixture.line(394, "aoi@morimoto-kobo.jp", x: 82, h: 35),
        ])
        #expect(c.name?.full == "MORIMOTO Aoi")
        #expect(c.title == "potter")
        // Nor does it start a title of one word under it.
        let florist = card([
            Fixture.line(140, "MORIMOTO Aoi", x: 74, h: 68),
            Fixture.line(210, "森本葵", x: 77, h: 50),
            Fixture.line(266, "Florist", x: 74, h: 50),
            Fixture.line(394, "aoi@morimoto-hana.jp", x: 82, h: 35),
        ])
        #expect(florist.title == "Florist")
        // A title in another script under a Latin name stays the title.
        for title in ["总经理", "営業部長", "영업팀장"] {
            let c = card([
                Fixture.line(140, "David Wang", x: 74, h: 68),
                Fixture.line(210, title, x: 77, h: 50),
                Fixture.line(394, "david.wang@example-trading.cn", x: 82, h: 35),
            ])
            #expect(c.title == title)
        }
    }

    /// A line that lists what the firm does, parted by dots, is no title though a word of it is one in some language
    /// (French `Commercial`): the line under the name is.
    @Test func aListOfServicesIsNoTitle() {
        let c = card([
            Fixture.line(36, "CLEARVIEW GLASS PTY LTD", x: 166, h: 18),
            Fixture.line(73, "Declan Murphy", x: 165, h: 37),
            Fixture.line(117, "Master Glazier", x: 165, h: 23),
            Fixture.line(155, "Mob 0412 657 903", x: 165, h: 20),
            Fixture.line(206, "declan@clearviewglass.com.au", x: 164, h: 24),
            Fixture.line(310, "Windows · Commercial · Doors", x: 166, h: 19),
        ])
        #expect(c.title == "Master Glazier")
    }

    /// South Asian and Middle Eastern honorifics open a name (`CA`, `Adv.`, `Eng.`); a name that ends with its degree
    /// is the person's, though its family name spells the firm's domain (`rohit@deshpande.co.in`).
    @Test func professionalHonorificsAndAFamilyNameTheDomainSpells() {
        let ca = card([
            Fixture.line(63, "Deshpande & Kulkarni Associates", x: 138, h: 29),
            Fixture.line(137, "CA Rohit Deshpande, FCA", x: 44, h: 31),
            Fixture.line(174, "Chartered Accountant", x: 45, h: 21),
            Fixture.line(413, "Mobile +91 97303 27404", x: 44, h: 23),
            Fixture.line(438, "rohit@deshpande.co.in", x: 44, h: 21),
        ])
        #expect(ca.name?.full == "CA Rohit Deshpande, FCA")
        #expect(ca.name?.prefix == "CA")
        #expect(ca.name?.given == "Rohit")
        #expect(ca.name?.family == "Deshpande")
        let adv = card([
            Fixture.line(40, "Adv. Meenakshi Iyer", x: 44, h: 40),
            Fixture.line(90, "Advocate, High Court of Madras", x: 44, h: 28),
            Fixture.line(300, "meenakshi.iyer@kaverilegal.com", x: 44, h: 22),
        ])
        #expect(adv.name?.given == "Meenakshi")
        #expect(adv.name?.prefix == "Adv.")
    }

    /// A capital `I` read as `l` before the comma of degrees is mended as elsewhere in a name (`Dr. Kavya lyer, MD`).
    @Test func aCapitalIReadBeforeDegrees() {
        let c = card([
            Fixture.line(43, "Dr. Kavya lyer, MD", x: 45, h: 51),
            Fixture.line(45, "Sanjeevani Multispeciality Hospital", x: 640, h: 30),
            Fixture.line(98, "Consultant Physician", x: 48, h: 24),
            Fixture.line(436, "Mobile +91 88936 66191", x: 48, h: 20),
            Fixture.line(462, "kavya.iyer@sanjeevani.in", x: 48, h: 21),
            Fixture.line(486, "Unit 704, Raheja Chambers | 108, M.G. Road | Chennai - 600086", x: 47, h: 21),
        ])
        #expect(c.name?.full == "Dr. Kavya Iyer, MD")
    }

    /// German lawyers' and other professions' titles (`Rechtsanwältin`, `Fachanwalt`), and a firm of partners with
    /// limited professional liability (`PartG mbB`, `mbB`).
    @Test func germanProfessionsAndPartnerships() {
        let c = card([
            Fixture.line(38, "Dr. Lena Hoffbauer", x: 511, h: 30),
            Fixture.line(73, "Rechtsanwältin", x: 654, h: 21),
            Fixture.line(110, "T +49 221 8025390", x: 631, h: 20),
            Fixture.line(155, "lena.hoffbauer@hoffbauer.de", x: 543, h: 22),
            Fixture.line(209, "Hohe Straße 77", x: 658, h: 21),
            Fixture.line(230, "50667 Köln", x: 693, h: 23),
            Fixture.line(267, "Hoffbauer & Partner Rechtsanwälte mbB", x: 241, h: 23),
        ])
        #expect(c.title == "Rechtsanwältin")
        #expect(c.organization == "Hoffbauer & Partner Rechtsanwälte mbB")
    }

    /// A person's own domain names the person past an honorific (`Lic. Mariana Ibarra` of `mariana@ibarra.com.mx`):
    /// the firm is the line that spells the domain with more words (`Ibarra Montes` / `Abogados, S.C.`).
    @Test func aPersonsOwnDomainPastAnHonorific() {
        let c = card([
            Fixture.line(36, "Lic. Mariana Ibarra", x: 288, h: 39),
            Fixture.line(86, "Abogada Asociada", x: 289, h: 25),
            Fixture.line(170, "Oficina +52 55 9073 5060", x: 290, h: 24),
            Fixture.line(260, "Ibarra Montes", x: 58, h: 22),
            Fixture.line(287, "Abogados, S.C.", x: 55, h: 23),
            Fixture.line(279, "mariana@ibarra.com.mx", x: 290, h: 21),
        ])
        #expect(c.name?.full == "Lic. Mariana Ibarra")
        #expect(c.organization?.hasPrefix("Ibarra Montes") == true)
    }
}
