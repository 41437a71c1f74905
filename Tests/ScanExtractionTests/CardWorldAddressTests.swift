import Testing
import ScanModel
@testable import ScanExtraction

/// Addresses as countries without a code the detectors know write them: post boxes, towns no list holds, the town
/// first, a building's line with a title's word. Made after the eightieth session's looked-at cards (`/tmp/h42`),
/// written here with other names.
@Suite struct CardWorldAddressTests {
    /// A card with a name, a title and an e-mail on the left, and `address` in a column on the right.
    func address(_ address: [String], email: String = "a.mwangi@example.com") -> BusinessCard.Address? {
        var lines = [
            Fixture.line(40, "Amani Mwangi", x: 40, h: 34),
            Fixture.line(84, "Operations Manager", x: 40, h: 22),
            Fixture.line(420, email, x: 40, h: 20),
        ]
        for (n, text) in address.enumerated() {
            lines.append(Fixture.line(300 + 26 * Double(n), text, x: 620, h: 20))
        }
        return Fixture.card(lines).address
    }

    /// A South Asian street with no house number over its town and code (`Marg`), and a city that a larger one
    /// elsewhere goes by too (`Islamabad`).
    @Test func southAsianStreetsAndCities() {
        #expect(
            address(["Chaksibari Marg, Thamel", "Kathmandu 44600, Nepal"])?.full
                == "Chaksibari Marg, Thamel, Kathmandu 44600, Nepal")
        #expect(
            address(["Office 9, 2nd Floor, Emaar Business Centre", "Blue Area, Islamabad 44000"])?.full
                == "Office 9, 2nd Floor, Emaar Business Centre, Blue Area, Islamabad 44000")
        // (A country after a full stop read for its comma ends an address with no code.)
        let vn = address(["Floor 6, 72 Le Thanh Ton Street", "Ben Nghe Ward, District 1", "Ho Chi Minh City. Vietnam"])
        #expect(vn?.full.hasPrefix("Floor 6, 72 Le Thanh Ton Street, Ben Nghe Ward") == true)
        #expect(vn?.country == "VN")
    }

    @Test func postBoxesAndTownsNoCodeNames() {
        #expect(
            address(["Baraka House, Block 4", "Kenyatta Avenue", "P.O. Box 30512-00100, Nairobi"])?.full
                == "Baraka House, Block 4, Kenyatta Avenue, P.O. Box 30512-00100, Nairobi")
        #expect(address(["P.O. Box 27731, Abu Dhabi, U.A.E."])?.full == "P.O. Box 27731, Abu Dhabi, U.A.E.")
        // Towns no list of large cities holds, under a street with its number and its street's word.
        #expect(
            address(["Av. Providencia 1760, Oficina 502", "Providencia, Santiago"])?.full
                == "Av. Providencia 1760, Oficina 502, Providencia, Santiago")
        #expect(
            address(["Plot 88, Adeola Odeku Street", "Victoria Island, Lagos"])?.full
                == "Plot 88, Adeola Odeku Street, Victoria Island, Lagos")
        // Such towns closing the street's own line.
        #expect(
            address(["Av. Kennedy 5600, Of. 304, Vitacura, Santiago"])?.full
                == "Av. Kennedy 5600, Of. 304, Vitacura, Santiago")
        // A building's line over the street, though a word of it is a title's (`Commercial`).
        #expect(
            address(["Room 1203, 12/F, Wing On Commercial Building", "88 Connaught Road Central", "Sheung Wan, Hong Kong"])?
                .full == "Room 1203, 12/F, Wing On Commercial Building, 88 Connaught Road Central, Sheung Wan, Hong Kong")
    }

    /// A business park's or an estate's line over the street (the locale files' `premises`), and a house number with a
    /// letter after a hyphen.
    @Test func premisesAndDoors() {
        let park = Fixture.card([
            Fixture.line(40, "Jonas Weber", x: 40, h: 34),
            Fixture.line(84, "Werkstattleiter", x: 40, h: 22),
            Fixture.line(140, "Rheinblick Metallbau GmbH", x: 40, h: 22),
            Fixture.line(300, "Gewerbepark Ost", x: 620, h: 20),
            Fixture.line(326, "Am Kalkofen 9", x: 620, h: 20),
            Fixture.line(352, "55129 Mainz", x: 620, h: 20),
            Fixture.line(420, "j.weber@rheinblick-metallbau.de", x: 40, h: 20),
        ])
        #expect(park.address?.full == "Gewerbepark Ost, Am Kalkofen 9, 55129 Mainz")
        #expect(address(["Keizersgracht 212-B", "1016 DX Amsterdam"])?.full == "Keizersgracht 212-B, 1016 DX Amsterdam")
        // A Catalan street, its number closed by a stop, and a university's name in Catalan.
        let catalan = Fixture.card([
            Fixture.line(288, "Universitat de la Costa Brava", x: 437, h: 40),
            Fixture.line(345, "Dra. Núria Vila i Soler", x: 437, h: 54),
            Fixture.line(409, "Professora Titular", x: 445, h: 36),
            Fixture.line(505, "Tel. +34 972 41 88 20", x: 453, h: 28),
            Fixture.line(539, "nuria.vila@ucb-exemple.cat", x: 454, h: 28),
            Fixture.line(601, "Carrer de la Universitat, 12. Edifici C", x: 458, h: 28),
            Fixture.line(641, "17003 Girona", x: 461, h: 28),
        ], width: 1400, height: 800)
        #expect(catalan.address?.full == "Carrer de la Universitat, 12. Edifici C, 17003 Girona")
        #expect(catalan.organization == "Universitat de la Costa Brava")
        // A French business zone's line (`ZA`, `ZI`, `ZAC`) over the street.
        let zone = Fixture.card([
            Fixture.line(39, "Élodie Marchand", x: 24, h: 20),
            Fixture.line(59, "Gérante", x: 23, h: 18),
            Fixture.line(62, "emarchand@tanneries-vitre.fr", x: 444, h: 17),
            Fixture.line(171, "ZA des Quatre Vents", x: 24, h: 16),
            Fixture.line(189, "14 rue des Tanneurs", x: 24, h: 16),
            Fixture.line(205, "35500 Vitré", x: 23, h: 18),
            Fixture.line(223, "France", x: 23, h: 17),
            Fixture.line(339, "Tanneries de Vitré", x: 23, h: 22),
        ], width: 700, height: 400)
        #expect(zone.address?.full == "ZA des Quatre Vents, 14 rue des Tanneurs, 35500 Vitré, France")
        // Austria's stair, floor and door after slashes, in digits or Roman numerals, beside the phone's line.
        for street in ["Rennweg 31/IV", "Lerchenfelder Gürtel 43/2/14"] {
            let at = Fixture.card([
                Fixture.line(40, "Tischlerei Aigner", x: 40, h: 26),
                Fixture.line(200, "Katharina Aigner", x: 40, h: 32),
                Fixture.line(240, "Tischlermeisterin", x: 40, h: 22),
                Fixture.line(420, "Tel. +43 1 712 40 88", x: 40, h: 20),
                Fixture.line(420, street, x: 700, h: 22),
                Fixture.line(446, "k.aigner@tischlerei-aigner.at", x: 40, h: 20),
                Fixture.line(446, "1030 Wien", x: 700, h: 22),
            ])
            #expect(at.address?.full == street + ", 1030 Wien")
        }
    }

    /// Mexico's address: the street, the colonia's line without a number, the code after `C.P.`, and the town under
    /// the line the code closes.
    @Test func coloniasAndCodesAfterTheirMark() {
        let mx = "m.olvera@tlaloc-logistica.com.mx"
        #expect(
            address(["Av. Reforma 2210, Piso 3", "Col. Lomas Altas, Alc. Miguel Hidalgo", "C.P. 11950, Ciudad de México"],
                    email: mx)?.full
                == "Av. Reforma 2210, Piso 3, Col. Lomas Altas, Alc. Miguel Hidalgo, C.P. 11950, Ciudad de México")
        #expect(
            address(["Av. Vallarta 3040, Piso 2", "Col. Vallarta Poniente, C.P. 44110", "Zapopan, Jal."], email: mx)?.full
                == "Av. Vallarta 3040, Piso 2, Col. Vallarta Poniente, C.P. 44110, Zapopan, Jal.")
    }

    /// Two columns set close together, read by OCR as one line: the e-mail on the left, the address's town on the
    /// right (or the address first and the e-mail after its label). Each part is a line of its own.
    @Test func contactsReadIntoAnAddressLine() {
        let town = Fixture.card([
            Fixture.line(40, "Avv. Chiara Rossetti", x: 40, h: 34),
            Fixture.line(84, "Partner", x: 40, h: 22),
            Fixture.line(274, "Via Solferino, 18", x: 350, h: 20),
            (300, 20, [(40, "c.rossetti@studiorossetti.it"), (362, "20124"), (428, "Milano"), (505, "(MI)")]),
        ])
        #expect(town.address?.full == "Via Solferino, 18, 20124 Milano (MI)")
        #expect(town.emails.map(\.address) == ["c.rossetti@studiorossetti.it"])
        let street = Fixture.card([
            Fixture.line(40, "Gabriel Lavoie", x: 40, h: 34),
            Fixture.line(84, "Directeur des ventes", x: 40, h: 22),
            Fixture.line(300, "845, rue Sherbrooke Ouest, bureau 410 Courriel : g.lavoie@lavoie-conseil.ca", x: 40, h: 20),
            Fixture.line(326, "Montréal (Québec) H3A 0G4", x: 40, h: 20),
        ])
        #expect(street.address?.full == "845, rue Sherbrooke Ouest, bureau 410, Montréal (Québec) H3A 0G4")
        #expect(street.emails.map(\.address) == ["g.lavoie@lavoie-conseil.ca"])
    }

    /// On a photo taken askew the tall box of a contact in the column beside rises into the address's rows: it is
    /// passed over.
    @Test func contactsBesideAnAskewAddress() {
        let askew = Fixture.card([
            Fixture.line(40, "Marcia Whyte", x: 40, h: 34),
            Fixture.line(84, "Operations Manager", x: 40, h: 22),
            Fixture.line(250, "Tel: (876) 952-4418", x: 620, h: 20),
            Fixture.line(300, "22 Gloucester Avenue", x: 620, h: 20),
            (292, 56, [(430, "Web"), (470, "www.seagrapetours.com.jm")]),
            Fixture.line(326, "Montego Bay, Jamaica", x: 620, h: 20),
        ])
        #expect(askew.address?.full == "22 Gloucester Avenue, Montego Bay, Jamaica")
    }

    /// A code that only the country printed under it shows to be one, and Trinidad named without Tobago.
    @Test func codesByTheCountryUnderThem() {
        #expect(
            address(["Edificio Los Yoses, Torre 2, Piso 4", "San Pedro, San José 11501", "Costa Rica"])?.full
                == "Edificio Los Yoses, Torre 2, Piso 4, San Pedro, San José 11501, Costa Rica")
        #expect(
            address(["12 Frederick Street", "Port of Spain", "Trinidad, W.I."])?.full
                == "12 Frederick Street, Port of Spain, Trinidad, W.I.")
    }

    /// Capitals of small countries name their place as large cities do (`Manama`, `101 Reykjavík`), in the right
    /// column beside the contacts.
    @Test func capitalsOfSmallCountries() {
        let bh = Fixture.card([
            Fixture.line(33, "PEARL COAST CATERING", x: 36, h: 24),
            Fixture.line(121, "Mohammed Bukhammas", x: 36, h: 30),
            Fixture.line(156, "Chief Technology Officer", x: 37, h: 19),
            Fixture.line(375, "Office: 17 99 1948", x: 37, h: 16),
            Fixture.line(394, "bukhammas.m@pearlcoast.com.bh", x: 36, h: 16),
            Fixture.line(397, "Office 1545, Bahrain Financial Harbour, West Tower", x: 491, h: 14),
            Fixture.line(414, "pearlcoast.com.bh", x: 37, h: 16),
            Fixture.line(412, "P.O. Box 9992, Manama", x: 632, h: 15),
        ])
        #expect(bh.address?.full == "Office 1545, Bahrain Financial Harbour, West Tower, P.O. Box 9992, Manama")
        #expect(address(["Laugavegur 46", "101 Reykjavík"])?.full == "Laugavegur 46, 101 Reykjavík")
    }

    /// India's state in brackets after the PIN is no part of the town.
    @Test func aStateInBracketsAfterThePIN() {
        let jaipur = address(["E-14, Industrial Area, Sitapura", "Jaipur - 302022 (Rajasthan)"], email: "v.rathore@tharstone.in")
        #expect(jaipur?.full == "E-14, Industrial Area, Sitapura, Jaipur - 302022 (Rajasthan)")
        #expect(jaipur?.city == "Jaipur")
    }

    /// A slogan of capitalized words under a code alone is no town.
    @Test func noSloganUnderACode() {
        let mx = "a.torres@tarsis.mx"
        #expect(
            address(["Av. Reforma 250, Col. Juárez", "C.P. 06600", "Calidad, Servicio, Garantía"], email: mx)?.full
                == "Av. Reforma 250, Col. Juárez, C.P. 06600")
    }

    @Test func codesAndOrders() {
        // Iceland's three digits on the street's line.
        #expect(address(["Strandgata 14, 600 Akureyri"])?.full == "Strandgata 14, 600 Akureyri")
        // The town first and the street under it.
        let budapest = address(["1061 Budapest", "Andrássy út 12."])
        #expect(budapest?.full == "1061 Budapest, Andrássy út 12.")
        #expect(budapest?.street == "Andrássy út 12.")
        #expect(budapest?.city == "Budapest")
        // A country no locale file names, and a town's line with its code under the colonia.
        #expect(address(["Tartu mnt 18", "10115 Tallinn", "Estonia"])?.full == "Tartu mnt 18, 10115 Tallinn, Estonia")
        #expect(
            address(["Av. Álvaro Obregón 110, Piso 3", "Col. Roma Norte, Cuauhtémoc", "C.P. 06700, Ciudad de México"])?
                .full == "Av. Álvaro Obregón 110, Piso 3, Col. Roma Norte, Cuauhtémoc, C.P. 06700, Ciudad de México")
    }

    /// A second address under the first, a firm's name with its legal form over the street, a list of offices, a
    /// slogan with a number under a town that comes first, and a tagline under a street stay out; a house number after
    /// a unit's is no code.
    @Test func whatStaysOut() {
        #expect(address(["1061 Budapest", "24/7 Emergency Callouts"])?.full == "1061 Budapest")
        #expect(address(["Level 3, 88 Queen Street, Auckland 1010", "24/7 Emergency Callouts"])?.full
            == "Level 3, 88 Queen Street, Auckland 1010")
        #expect(address(["Unit 5, 128 Queen's Road Central, Hong Kong"])?.postalCode == nil)
        #expect(
            address(["Office 1204, Boulevard Plaza Tower 1", "Sheikh Mohammed bin Rashid Blvd", "Dubai, UAE",
                     "Riyadh, Doha, Muscat"])?.full
                == "Office 1204, Boulevard Plaza Tower 1, Sheikh Mohammed bin Rashid Blvd, Dubai, UAE")
        #expect(address(["14 Quay Street", "Fresh Fish Daily"]) == nil)
        // A slogan with a number over the address does not stand for it; hours and a label's line are no address.
        #expect(
            address(["Open 7 Days – Dubai", "Office 1203, Al Moosa Tower 2", "Sheikh Zayed Road, Dubai, UAE"])?.full
                == "Office 1203, Al Moosa Tower 2, Sheikh Zayed Road, Dubai, UAE")
        #expect(
            address(["Office 1203, Al Moosa Tower 2", "Sheikh Zayed Road, Dubai, UAE", "Sat-Thu 9-6, Dubai"])?.full
                == "Office 1203, Al Moosa Tower 2, Sheikh Zayed Road, Dubai, UAE")
        #expect(address(["P.O. Box 48217", "Head office: Dubai | Branches: Abu Dhabi, Sharjah"]) == nil)
        #expect(address(["Level 12, 100 Cyberport Tower", "Hong Kong"])?.postalCode == nil)
        #expect(
            address(["2nd Floor, Loop House", "41 Bree Street, Cape Town, 8001", "Branch: 14 Smith Street, Durban, 4001"])?
                .full == "2nd Floor, Loop House, 41 Bree Street, Cape Town, 8001")
        #expect(
            address(["Kwame Print House Ltd.", "No. 9 Liberation Road, Airport Residential Area, Accra", "Ghana"])?
                .full == "No. 9 Liberation Road, Airport Residential Area, Accra, Ghana")
    }

    /// A postal code alone on the line under the address, in its country's shape, ends it, and a phone's reading of
    /// its digits gives way (`01310-200` under `São Paulo - SP`; `2196` under `Sandton, Johannesburg`).
    @Test func aPostalCodeAloneUnderTheAddress() {
        let brazil = Fixture.card([
            Fixture.line(40, "Dra. Helena Macedo", x: 40, h: 34),
            Fixture.line(84, "Diretora Comercial", x: 40, h: 22),
            Fixture.line(300, "Rua Haddock Lobo, 595 - 4º andar", x: 40, h: 20),
            Fixture.line(326, "Cerqueira César, São Paulo - SP", x: 40, h: 20),
            Fixture.line(352, "01414-001", x: 40, h: 20),
            Fixture.line(380, "Tel.: +55 11 3061-4820", x: 40, h: 20),
            Fixture.line(406, "helena.macedo@lobotextil.com.br", x: 40, h: 20),
        ])
        #expect(brazil.address?.full == "Rua Haddock Lobo, 595 - 4º andar, Cerqueira César, São Paulo - SP, 01414-001")
        #expect(brazil.address?.postalCode == "01414-001")
        #expect(!brazil.phones.contains { $0.number == "01414-001" })
        #expect(
            address(["Block C, 3rd Floor", "18 Fricker Road, Illovo, Johannesburg", "2196"], email: "t.mokoena@example.co.za")?
                .full == "Block C, 3rd Floor, 18 Fricker Road, Illovo, Johannesburg, 2196")
    }

    /// A street's abbreviation whose `l` OCR read as `I` still names a street (`JI.` for Indonesia's `Jl.`, `CI.` for
    /// Colombia's `Cl.`), and a town and its code under the lines of the address's parts under it end the address.
    @Test func abbreviationsReadWithIAndPartsBetweenStreetAndTown() {
        #expect(
            address(["JI. Kemang Raya No. 27", "Kel. Bangka, Kec. Mampang Prapatan", "Jakarta Selatan 12730"],
                    email: "dewi.sari@example.co.id")?.full
                == "Jl. Kemang Raya No. 27, Kel. Bangka, Kec. Mampang Prapatan, Jakarta Selatan 12730")
        #expect(
            address(["CI. 10 Sur # 43A-28, Of. 905", "El Poblado, Medellín, Antioquia"], email: "d.restrepo@example.co")?
                .full == "Cl. 10 Sur # 43A-28, Of. 905, El Poblado, Medellín, Antioquia")
        // (Only an address's line is mended: a firm's name that opens so stays as read.)
        let firm = Fixture.card([
            Fixture.line(40, "CI. Flores de la Sabana S.A.S.", x: 40, h: 26),
            Fixture.line(90, "Daniela Restrepo", x: 40, h: 34),
            Fixture.line(330, "d.restrepo@floresdelasabana.co", x: 40, h: 20),
        ])
        #expect(firm.organization == "CI. Flores de la Sabana S.A.S.")
    }

    /// Where the code comes first on its own line, the lines right under it are the street and the building (Japan's
    /// `〒` line, Hungary's town first); a year or a slogan under it is not.
    @Test func theCodeFirstAndTheStreetUnderIt() {
        #expect(
            address(["〒150-0002", "Shibuya-ku Shibuya 2-21-1", "Hikarie Tower 18F"], email: "k.sato@example.jp")?.full
                == "〒150-0002, Shibuya-ku Shibuya 2-21-1, Hikarie Tower 18F")
        #expect(
            address(["1052 Budapest", "Váci utca 14, 3. emelet"], email: "k.nagy@example.hu")?.full
                == "1052 Budapest, Váci utca 14, 3. emelet")
        #expect(address(["1054 Budapest", "Since 1987"], email: "info@example.hu")?.full == "1054 Budapest")
    }
}
