#!/usr/bin/env python3
"""Generated receipts for the receipt field rankers: recognized text with boxes, as PP-OCR's
observations would give it, and the key of each receipt, in several locales and layouts.

    Tools/train-receipt-fields/make_receipts.py OUT_DIR [--count 1000] [--seed 1]

Writes OUT_DIR/docs/gen-NNNNN.json (scanextract Document JSON, `textSource: imported`) and
OUT_DIR/key/gen-NNNNN.json (`company`, `address`, `date` as ISO, `total`), the form train.py reads.

Locales: en-US, en-GB, de, fr, es, it, nl, ms, id (the default, drawn in turn), pt-PT, pt-BR and pl
(`--locales pt-PT,pt-BR,pl`), Swedish, Danish and Norwegian (`--locales sv,da,nb`), xx, a made-up language no locale file knows (`--locales xx`), and ja and ko
(`--locales ja,ko`: Japanese and Korean receipts in whole yen and won, drawn by Maker.receipt_cjk, keyed with
whole-unit totals and amounts, and drawn in Noto Sans CJK), with
their currencies, number and date conventions, label words, street and postcode forms. Layouts: a narrow thermal slip (centred
header, items with prices in a right column) and an A4 invoice (header left, title and date
right, an item table, totals under it), with or without items, header noise (welcome lines,
store numbers, registration and tax numbers, server and table), a second date, footers.
Names, streets and towns are made from syllables and generic words drawn here, never from an
evaluation set. Photo-like variation: scale, offset, slight drift of the lines, uneven text
heights; OCR-like noise: confusable characters (O/0, l/1, S/5, ...), lost or doubled spaces,
a line split into its left and right parts, words cut off, low confidences. `--modifiers RATE` adds
unpriced option lines under that share of the items, discounts under a tenth as many and items at 0
(for the item-line model; off by default, so a seed draws the same receipts as before it existed).
`--sections RATE` prints that share of the summaries in sections, as tills do for goods taxed at two
rates (`Total 0%`, `Total 7% (excl. Tax)`, the tax, `Total 7% (Inc. Tax)`, then the amount due, their
sum), a fifth of them with goods taken back (one section negative, so the amount due is not the
largest amount); for the field rankers, off by default with the same guarantee. `--codes RATE` prints
that share of the receipts as tills that give each article's code, count and unit price over its name
(`4006381 2 1.20  2.40`, then `Mineral Water`), under a heading of none, one or two rows; for the
item-line model, off by default with the same guarantee.
Nothing here ships: the files are training data for train.py, made again by this command.

With `--images` each receipt is also drawn, so that real OCR reads it instead of the simulated noise:
OUT/img/gen-NNNNN.png, a flat scan (the page turned by its slope), or .jpg, a photo of it on a table
(`Tools/photo/photograph.py`, the card generator's; share set by `--photo-share`, default 0.5), with
OUT/corners/gen-NNNNN.json giving where the page's corners are in the photo. The text, the docs and
the keys are the same as without `--images` (the drawing draws its own random numbers), so
`scanextract -q -o OUT2 OUT/img` then `score_receipts.py OUT2 OUT/key` measures the whole pipeline on
receipts in nine locales, and the same receipts' docs measure the parser alone. Needs numpy and Pillow.
`--bend RATE` curls that share of the photos' slips first (`photograph.bend`: each row turned by an angle that
changes down the page, as a slip curling on a table or held in a hand; needs SciPy), without a corners file: a
curled slip has no four corners. Off by default, so a seed draws the same images as before it existed.
"""
import argparse
import datetime as dt
import json
import math
import os
import random
import re
import sys
import unicodedata

import numpy as np

SYLLABLES = ["ka", "ro", "mi", "la", "ten", "bor", "vel", "san", "ti", "mar", "lu", "den", "ha", "zo", "ber", "quin",
             "do", "ra", "fi", "nel", "mo", "ka", "ven", "tor", "al", "bri", "cas", "de", "el", "gor", "is", "jun",
             "kel", "lin", "mer", "nor", "ol", "pet", "ran", "sil", "tam", "ul", "var", "wen", "yor", "zan", "an",
             "har", "ston", "field", "wick", "ley", "berg", "ton", "ham", "dal", "ing", "ville"]

GENERIC = {
    "en": ["Golden", "Corner", "Garden", "Sun", "Blue", "River", "Royal", "Happy", "Green", "Star", "Lucky", "Old",
           "Little", "Urban", "Family", "Harbor", "Maple", "Silver", "Red", "Village", "Express", "Fresh", "Prime",
           "Daily", "Country", "Sunrise", "Ocean", "Lake", "Hill", "Eagle"],
    "de": ["Sonnen", "Garten", "Stadt", "Alte", "Neue", "Gold", "Linden", "Berg", "Rosen", "Markt", "Kleine"],
    "fr": ["Le Petit", "La Belle", "Le Grand", "Les Amis", "Le Jardin", "Soleil", "Le Vieux", "La Maison"],
    "es": ["El Buen", "La Casa", "El Rincon", "Sol", "La Plaza", "El Sabor", "Los Amigos", "La Esquina"],
    "it": ["La Bella", "Il Vecchio", "Buon", "Il Sole", "La Piazza", "Dolce", "Il Giardino", "La Casa"],
    "nl": ["De Gouden", "Het Oude", "De Kleine", "Zon", "De Molen", "Het Hoekje", "Groene"],
    "ms": ["Kedai", "Syarikat", "Restoran", "Perniagaan", "Gerai", "Pasar", "Bintang", "Maju", "Jaya", "Sinar",
           "Murni", "Mega", "Aneka"],
    "id": ["Toko", "Warung", "Rumah Makan", "Kedai", "Sinar", "Jaya", "Makmur", "Abadi", "Sentosa", "Mulia"],
    "pt": ["O Cantinho", "Casa", "Bom Sabor", "Sol Nascente", "A Esquina", "Dona", "Estrela", "Boa Vista", "Jardim",
           "Bela", "Nova"],
    "pl": ["Pod Lipą", "Stara", "Złota", "Zielona", "Mała", "Pod Dębem", "Nasza", "Domowa", "Smaczna", "Słoneczna"],
    "sv": ["Gamla", "Lilla", "Stora", "Södra", "Norra", "Guld", "Sol", "Hörnet", "Björk", "Ek"],
    "da": ["Den Gamle", "Lille", "Store", "Nørre", "Sønder", "Guld", "Sol", "Hjørnet", "Bøge", "Strand"],
    "nb": ["Gamle", "Lille", "Store", "Nordre", "Søndre", "Gull", "Sol", "Hjørnet", "Bjørke", "Fjord"],
}

TYPES = {
    "en": ["Cafe", "Grill", "Diner", "Pizza", "Kitchen", "Bar & Grill", "Bistro", "Tavern", "Market", "Deli",
           "Pharmacy", "Hardware", "Bakery", "Restaurant", "Steakhouse", "Cantina", "Brewery", "Pub", "Store",
           "Supermarket", "Books", "Coffee", "Burgers", "Sushi", "Taqueria", "Noodle House", "Liquors", "Gas"],
    "de": ["Bäckerei", "Metzgerei", "Apotheke", "Gasthaus", "Restaurant", "Café", "Markt", "Getränke", "Imbiss",
           "Buchhandlung", "Drogerie", "Pizzeria"],
    "fr": ["Boulangerie", "Café", "Brasserie", "Pharmacie", "Restaurant", "Épicerie", "Bistrot", "Librairie",
           "Boucherie", "Tabac"],
    "es": ["Cafetería", "Restaurante", "Panadería", "Farmacia", "Bar", "Mercado", "Tapas", "Librería", "Taberna"],
    "it": ["Trattoria", "Pizzeria", "Bar", "Farmacia", "Ristorante", "Panificio", "Osteria", "Gelateria",
           "Alimentari", "Tabacchi"],
    "nl": ["Bakkerij", "Apotheek", "Eetcafé", "Restaurant", "Slagerij", "Supermarkt", "Boekhandel", "Drogisterij"],
    "ms": ["RESTORAN", "KEDAI RUNCIT", "HARDWARE", "STATIONERY", "TRADING", "FARMASI", "BAKERY", "MINI MARKET",
           "ENTERPRISE", "CAFE", "BOOK STORE"],
    "id": ["Resto", "Bakery", "Cafe", "Mart", "Swalayan", "Apotek", "Kopi", "Bakmi", "Sate"],
    "pt": ["Padaria", "Pastelaria", "Restaurante", "Café", "Farmácia", "Mercearia", "Churrascaria", "Lanchonete",
           "Supermercado", "Livraria", "Snack-Bar", "Drogaria"],
    "pl": ["Sklep", "Piekarnia", "Apteka", "Restauracja", "Kawiarnia", "Bar", "Pizzeria", "Delikatesy", "Cukiernia",
           "Drogeria", "Księgarnia", "Bistro"],
    "sv": ["Bageri", "Kafé", "Konditori", "Apotek", "Restaurang", "Pizzeria", "Livs", "Bokhandel", "Järnhandel", "Krog"],
    "da": ["Bageri", "Café", "Konditori", "Apotek", "Restaurant", "Pizzeria", "Købmand", "Boghandel", "Kro", "Slagter"],
    "nb": ["Bakeri", "Kafé", "Konditori", "Apotek", "Restaurant", "Pizzeria", "Dagligvare", "Bokhandel", "Kro",
           "Jernvare"],
}

LEGAL = {"en-US": ["LLC", "Inc.", "INC", "Corp.", "Co."], "en-GB": ["Ltd", "LTD", "Limited", "PLC"],
         "de": ["GmbH", "GmbH & Co. KG", "e.K.", "OHG", "AG"], "fr": ["SARL", "SAS", "EURL", "SA"],
         "es": ["S.L.", "S.A.", "SL"], "it": ["S.r.l.", "S.p.A.", "S.n.c.", "SRL"], "nl": ["B.V.", "BV", "V.O.F."],
         "ms": ["SDN BHD", "SDN. BHD.", "S/B", "ENTERPRISE", "TRADING", "BERHAD"], "id": ["PT", "CV", "Tbk"],
         "pt-PT": ["Lda.", "LDA", "Unipessoal Lda.", "S.A."], "pt-BR": ["Ltda.", "LTDA", "ME", "EIRELI", "S.A."],
         "pl": ["Sp. z o.o.", "SP. Z O.O.", "S.A.", "Sp.j.", "Sp. k."], "sv": ["AB", "HB", "Aktiebolag"],
         "da": ["ApS", "A/S", "I/S"], "nb": ["AS", "ASA", "DA", "ENK"]}

ITEMS = {
    "en": ["Coffee", "Latte", "Burger", "Fries", "Soda", "Iced Tea", "Caesar Salad", "Chicken Wings", "Pancakes",
           "Omelette", "Club Sandwich", "Soup of the Day", "Cheesecake", "Draft Beer", "House Wine", "Nachos",
           "Milk 1 gal", "Bread", "Eggs Dozen", "Bananas", "Paper Towels", "Batteries AA", "Screws 50pk",
           "Notebook A4", "Pen Blue", "Steak", "Salmon", "Pasta", "Water", "Espresso", "Muffin", "Bagel"],
    "de": ["Brötchen", "Kaffee", "Milch 1L", "Butter", "Käse", "Apfelsaft", "Bier 0,5l", "Schnitzel", "Salat",
           "Brezel", "Wasser", "Tomaten", "Kartoffeln", "Zahnpasta", "Kuchen", "Wurst"],
    "fr": ["Baguette", "Croissant", "Café crème", "Pain au chocolat", "Eau minérale", "Vin rouge", "Fromage",
           "Salade", "Steak frites", "Tarte", "Jus d'orange", "Quiche"],
    "es": ["Café con leche", "Tostada", "Agua", "Cerveza", "Tortilla", "Bocadillo", "Pan", "Leche", "Patatas",
           "Paella", "Vino tinto", "Croquetas"],
    "it": ["Caffè", "Cappuccino", "Cornetto", "Acqua", "Pizza Margherita", "Pasta", "Vino", "Tiramisù", "Pane",
           "Gelato", "Panino", "Insalata"],
    "nl": ["Koffie", "Thee", "Appeltaart", "Broodje kaas", "Melk", "Brood", "Bier", "Kroket", "Friet", "Soep"],
    "ms": ["NASI LEMAK", "TEH TARIK", "MEE GORENG", "ROTI CANAI", "AYAM GORENG", "KOPI O", "AIR SUCI",
           "PEN BIRU", "KERTAS A4", "SKRU 2INCH", "CAT DINDING", "GAM", "PITA PELEKAT", "NASI GORENG"],
    "id": ["Nasi Goreng", "Es Teh", "Mie Ayam", "Sate Ayam", "Kopi Susu", "Air Mineral", "Bakso", "Roti Bakar",
           "Es Jeruk", "Ayam Bakar"],
    "pt": ["Café", "Galão", "Pastel de nata", "Água 0,5L", "Tosta mista", "Pão de queijo", "Bife", "Arroz",
           "Feijão", "Sumo de laranja", "Cerveja", "Bacalhau", "Coxinha", "Refrigerante", "Salada", "Bolo"],
    "pl": ["Chleb", "Bułka", "Mleko 2% 1L", "Masło", "Ser żółty", "Jajka 10 szt", "Kawa", "Herbata", "Woda 1,5L",
           "Piwo", "Pierogi ruskie", "Żurek", "Schabowy", "Barszcz", "Sok pomarańczowy", "Jabłka", "Ziemniaki",
           "Kiełbasa", "Pączek", "Szarlotka"],
    "sv": ["Kaffe", "Kanelbulle", "Mjölk 1,5%", "Smör", "Ost", "Bröd", "Köttbullar", "Lax", "Öl 50cl", "Vatten", "Äpplen",
           "Potatis", "Falukorv", "Knäckebröd", "Räksmörgås", "Semla"],
    "da": ["Kaffe", "Wienerbrød", "Mælk 1L", "Smør", "Ost", "Rugbrød", "Frikadeller", "Smørrebrød", "Øl", "Vand", "Æbler",
           "Kartofler", "Leverpostej", "Pølse", "Flæskesteg", "Kage"],
    "nb": ["Kaffe", "Skolebolle", "Melk 1L", "Smør", "Brunost", "Brød", "Kjøttkaker", "Laks", "Øl 0,5L", "Vann", "Epler",
           "Poteter", "Pølse", "Lefse", "Vafler", "Fiskesuppe"],
}

# Per locale: language, currency forms, number format, date forms, label words, address and phone forms.
LOCALES = {
    "en-US": dict(lang="en", cur=["$", ""], dec=".", grp=",", cents=True, dates=["%m/%d/%Y", "%m/%d/%y", "%b %d, %Y",
                  "%m-%d-%Y", "%a %b %d, %Y"], clock12=True,
                  sub=["Subtotal", "SUB TOTAL", "Sub-Total", "SUBTOTAL"], tax=["Tax", "Sales Tax", "TAX", "State Tax 6%"],
                  total=["Total", "TOTAL", "Amount Due", "Balance Due", "Grand Total", "TOTAL DUE"],
                  tender=["Cash", "Visa", "MasterCard", "AMEX", "Credit Card"], change=["Change", "Change Due"],
                  tip=["Tip", "Gratuity"], datelabel=["Date:", "", "", ""], timelabel=["Time:", ""],
                  noise=["Welcome!", "WELCOME", "Store #{n}", "Server: {person}", "Table {n}", "Check #{n}",
                         "Guests: {d}", "Order #{n}", "Cashier: {person}", "Dine In", "To Go", "Reg {d}"],
                  footer=["THANK YOU!", "Thank you for dining with us", "Please come again", "Customer Copy",
                          "www.{web}.com", "Like us on Facebook", "Tip Guide: 15% 18% 20%"],
                  phone=["({a}) {b}-{c}", "{a}-{b}-{c}", "Tel: ({a}) {b}-{c}", "Phone: {a}.{b}.{c}"],
                  taxid=[]),
    "en-GB": dict(lang="en", cur=["£", ""], dec=".", grp=",", cents=True, dates=["%d/%m/%Y", "%d/%m/%y", "%d %b %Y",
                  "%d-%m-%Y"], clock12=False,
                  sub=["Subtotal", "Sub Total", "SUBTOTAL"], tax=["VAT 20%", "VAT", "Total VAT"],
                  total=["Total", "TOTAL", "Total to pay", "Balance Due", "AMOUNT DUE", "TOTAL GBP"],
                  tender=["Cash", "Card", "Visa Debit", "Contactless"], change=["Change", "Change Due"],
                  tip=["Service Charge 12.5%", "Gratuity"], datelabel=["Date:", "", ""], timelabel=["Time:", ""],
                  noise=["Welcome to", "Till {d}", "Served by: {person}", "Table: {n}", "Covers: {d}",
                         "Receipt No: {n}", "VAT RECEIPT", "Trans: {n}"],
                  footer=["Thank you for your custom", "Please retain your receipt", "www.{web}.co.uk",
                          "Refunds within 28 days with receipt"],
                  phone=["Tel: 0{a}{b} {c}{d}", "0{a}{b} {c}{d}", "Tel 0{a} {b} {c}"], taxid=["VAT No: GB {v9}",
                                                                                        "VAT Reg No. {v9}"]),
    "de": dict(lang="de", cur=["EUR", "€", ""], dec=",", grp=".", cents=True, dates=["%d.%m.%Y", "%d.%m.%y",
               "%d/%m/%Y"], clock12=False,
               sub=["Zwischensumme", "Netto", "Summe netto"], tax=["MwSt 19%", "MwSt. 7%", "USt 19%", "inkl. MwSt"],
               total=["Summe", "SUMME", "Gesamt", "Gesamtbetrag", "zu zahlen", "Total", "Endbetrag"],
               tender=["Bar", "BAR", "EC-Karte", "Girocard", "Kartenzahlung"], change=["Rückgeld", "Zurück"],
               tip=["Trinkgeld"], datelabel=["Datum:", ""], timelabel=["Uhrzeit:", ""],
               noise=["Willkommen", "Filiale {n}", "Kasse {d}", "Bediener: {person}", "Tisch {n}", "Beleg-Nr. {n}",
                      "Bon {n}", "Rechnung"],
               footer=["Vielen Dank für Ihren Einkauf", "Auf Wiedersehen", "www.{web}.de", "Bitte Bon aufbewahren"],
               phone=["Tel. 0{a}{b} {c}{d}", "Tel: 0{a} / {b}{c}", "Telefon 0{a}-{b}{c}"],
               taxid=["USt-IdNr.: DE{v9}", "St.-Nr. {a}/{b}/{c}"]),
    "fr": dict(lang="fr", cur=["EUR", "€", ""], dec=",", grp=" ", cents=True, dates=["%d/%m/%Y", "%d/%m/%y",
               "%d-%m-%Y", "%d.%m.%Y"], clock12=False,
               sub=["Sous-total", "SOUS TOTAL", "Total HT"], tax=["TVA 20%", "TVA 10%", "TVA 5,5%", "dont TVA"],
               total=["TOTAL", "Total TTC", "TOTAL TTC", "Net à payer", "A PAYER", "Montant"],
               tender=["Espèces", "CB", "Carte bancaire", "Chèque"], change=["Rendu", "Monnaie rendue"],
               tip=["Pourboire"], datelabel=["Date :", "Le", ""], timelabel=["Heure :", "à", ""],
               noise=["Bienvenue", "Caisse {d}", "Serveur : {person}", "Table {n}", "Ticket n° {n}", "Couverts: {d}",
                      "Magasin {n}"],
               footer=["Merci de votre visite", "A bientôt", "www.{web}.fr", "Conservez votre ticket"],
               phone=["Tél : 0{d} {a2} {b2} {c2} {d2}", "Tel. 0{d}.{a2}.{b2}.{c2}.{d2}", "0{d} {a2} {b2} {c2} {d2}"],
               taxid=["SIRET {v9}{d}{d}{d}{d}{d}", "TVA Intra: FR{d}{d}{v9}"]),
    "es": dict(lang="es", cur=["EUR", "€", ""], dec=",", grp=".", cents=True, dates=["%d/%m/%Y", "%d-%m-%Y",
               "%d/%m/%y"], clock12=False,
               sub=["Subtotal", "Base imponible", "SUBTOTAL"], tax=["IVA 21%", "IVA 10%", "I.V.A."],
               total=["TOTAL", "Total", "TOTAL A PAGAR", "Importe", "Total (IVA incl.)"],
               tender=["Efectivo", "Tarjeta", "Entregado"], change=["Cambio", "Devolución"], tip=["Propina"],
               datelabel=["Fecha:", ""], timelabel=["Hora:", ""],
               noise=["Bienvenidos", "Caja {d}", "Camarero: {person}", "Mesa {n}", "Ticket {n}", "Factura simplificada",
                      "Comensales: {d}"],
               footer=["Gracias por su visita", "Vuelva pronto", "www.{web}.es"],
               phone=["Tel: 9{a2} {b} {c}", "Tlf. 9{a2}{b}{c}", "Teléfono 6{a2} {b} {c}"],
               taxid=["CIF: B{v8}", "NIF B-{v8}"]),
    "it": dict(lang="it", cur=["EUR", "€", ""], dec=",", grp=".", cents=True, dates=["%d/%m/%Y", "%d-%m-%Y",
               "%d/%m/%y", "%d.%m.%Y"], clock12=False,
               sub=["Subtotale", "SUBTOTALE", "Imponibile"], tax=["IVA 22%", "IVA 10%", "di cui IVA"],
               total=["TOTALE", "Totale", "TOTALE EURO", "Totale complessivo", "IMPORTO PAGATO"],
               tender=["Contanti", "Carta", "Pagamento elettronico", "Bancomat"], change=["Resto"], tip=["Mancia"],
               datelabel=["Data:", ""], timelabel=["Ora:", ""],
               noise=["Benvenuti", "DOCUMENTO COMMERCIALE", "di vendita o prestazione", "Cassa {d}",
                      "Operatore {person}", "Tavolo {n}", "Scontrino n. {n}", "Coperti {d}"],
               footer=["Grazie e arrivederci", "www.{web}.it", "Conservare lo scontrino"],
               phone=["Tel. 0{a2} {b}{c}", "Tel: 0{a}/{b}{c}", "0{a2}-{b}{c}"],
               taxid=["P.IVA {v9}{d}{d}", "Partita IVA IT{v9}{d}{d}", "C.F. {v9}{d}{d}"]),
    "nl": dict(lang="nl", cur=["EUR", "€", ""], dec=",", grp=".", cents=True, dates=["%d-%m-%Y", "%d/%m/%Y",
               "%d-%m-%y"], clock12=False,
               sub=["Subtotaal", "SUBTOTAAL", "Totaal excl. BTW"], tax=["BTW 21%", "BTW 9%", "BTW hoog"],
               total=["TOTAAL", "Totaal", "Te betalen", "TOTAAL EUR", "Totaal incl. BTW"],
               tender=["Contant", "PIN", "Pinbetaling", "Maestro"], change=["Wisselgeld", "Terug"], tip=["Fooi"],
               datelabel=["Datum:", ""], timelabel=["Tijd:", ""],
               noise=["Welkom", "Kassa {d}", "Bediend door: {person}", "Tafel {n}", "Bonnr. {n}", "Filiaal {n}"],
               footer=["Bedankt voor uw bezoek", "Tot ziens", "www.{web}.nl"],
               phone=["Tel: 0{a2}-{b}{c}", "Tel. 0{a} {b} {c}", "0{a2} {b}{c}"],
               taxid=["BTW nr: NL{v9}B01", "KvK {v8}"]),
    "ms": dict(lang="ms", cur=["RM", ""], dec=".", grp=",", cents=True, dates=["%d/%m/%Y", "%d-%m-%Y", "%d/%m/%y",
               "%d-%b-%Y", "%d.%m.%Y"], clock12=False,
               sub=["SUB TOTAL", "SUBTOTAL", "Total Sales (Excluding GST)", "JUMLAH KECIL"],
               tax=["GST 6%", "SST 10%", "GST @6%", "Total GST", "SERVICE TAX"],
               total=["TOTAL", "JUMLAH", "GRAND TOTAL", "TOTAL (RM)", "Total Amount", "ROUNDED TOTAL",
                      "Total Sales (Inclusive GST)", "NETT TOTAL"],
               tender=["CASH", "TUNAI", "VISA", "PAID"], change=["CHANGE", "BAKI"], tip=[],
               datelabel=["DATE:", "Date :", "TARIKH:", ""], timelabel=["TIME:", "Time :", ""],
               noise=["TAX INVOICE", "SIMPLIFIED TAX INVOICE", "CASH BILL", "INVOICE", "Cashier: {person}",
                      "Doc No: CS{n}", "Counter {d}", "TABLE {n}", "OFFICIAL RECEIPT", "Bill No: {n}"],
               footer=["THANK YOU", "TERIMA KASIH", "PLEASE COME AGAIN", "GOODS SOLD ARE NOT RETURNABLE",
                       "www.{web}.com.my"],
               phone=["TEL: 03-{b}{c}", "Tel : 0{a2}-{b}{c}", "TEL NO: 012-{b} {c}", "H/P: 01{d}-{b}{c}"],
               taxid=["GST ID: 000{v9}", "GST REG NO: 00{v9}", "(CO. REG. {v6}-{L})", "({v6}-{L})",
                      "CO. NO: {v6}-{L}", "SST ID: B{d}{d}-{v8}"]),
    "id": dict(lang="id", cur=["Rp", "Rp.", "IDR", ""], dec=",", grp=".", cents=False, dates=["%d/%m/%Y", "%d-%m-%Y",
               "%d/%m/%y", "%d %b %Y"], clock12=False,
               sub=["Subtotal", "SUB TOTAL", "Jumlah"], tax=["PPN 10%", "Pajak", "PB1 10%", "Tax 10%"],
               total=["TOTAL", "Total", "Grand Total", "Total Bayar", "TOTAL BELANJA"],
               tender=["Tunai", "CASH", "Debit", "Bayar"], change=["Kembali", "Kembalian", "CHANGE"],
               tip=["Service 5%"], datelabel=["Tanggal:", "Tgl:", ""], timelabel=["Jam:", ""],
               noise=["Selamat Datang", "Kasir: {person}", "No. Nota: {n}", "Meja {n}", "Struk {n}", "Pelanggan: {d}"],
               footer=["Terima Kasih", "Barang yang sudah dibeli tidak dapat dikembalikan", "www.{web}.co.id"],
               phone=["Telp. (0{a2}) {b}{c}", "Telp: 0{a2}-{b}{c}", "HP 08{a2}{b}{c}"], taxid=["NPWP: {v9}{d}{d}"]),
    # Not among the default locales (--locales): drawn to check that a new locale file is all a language needs.
    "pt-PT": dict(lang="pt", cur=["EUR", "€", ""], dec=",", grp=".", cents=True, dates=["%d/%m/%Y", "%d-%m-%Y",
                  "%d/%m/%y", "%Y-%m-%d"], clock12=False,
                  sub=["Subtotal", "SUBTOTAL", "Total s/ IVA"], tax=["IVA 23%", "IVA 13%", "IVA 6%", "Total IVA"],
                  total=["TOTAL", "Total", "TOTAL A PAGAR", "Total EUR", "A pagar"],
                  tender=["Numerário", "Dinheiro", "Multibanco", "Cartão", "MB WAY"], change=["Troco"], tip=["Gorjeta"],
                  datelabel=["Data:", ""], timelabel=["Hora:", ""],
                  noise=["Bem-vindo", "Fatura Simplificada", "Caixa {d}", "Operador: {person}", "Mesa {n}",
                         "Talão n.º {n}", "Fatura-Recibo FR {n}", "Loja {n}"],
                  footer=["Obrigado pela sua visita", "Volte sempre", "www.{web}.pt", "Processado por programa certificado"],
                  phone=["Tel: 2{a2} {b} {b}", "Telef. 2{a2}{b}{b}", "Tlm: 9{a2} {b} {b}"],
                  taxid=["NIF: {v9}", "Contribuinte n.º {v9}", "NIPC {v9}"]),
    "pt-BR": dict(lang="pt", cur=["R$", ""], dec=",", grp=".", cents=True, dates=["%d/%m/%Y", "%d/%m/%y", "%d-%m-%Y"],
                  clock12=False,
                  sub=["Subtotal", "SUBTOTAL", "Valor dos produtos"], tax=["ICMS", "Impostos", "Tributos aprox."],
                  total=["TOTAL", "Total", "VALOR TOTAL", "TOTAL R$", "Valor a pagar"],
                  tender=["Dinheiro", "Cartão de Crédito", "Cartão de Débito", "PIX", "Valor pago"], change=["Troco"],
                  tip=["Taxa de serviço 10%", "Gorjeta"], datelabel=["Data:", "Emissão:", ""], timelabel=["Hora:", ""],
                  noise=["Seja bem-vindo", "CUPOM FISCAL", "Caixa {d}", "Operador: {person}", "Mesa {n}", "Pedido {n}",
                         "NFC-e n.º {n}", "Garçom: {person}"],
                  footer=["Obrigado pela preferência", "Volte sempre", "www.{web}.com.br"],
                  phone=["Tel: (1{d}) {c}-{c}", "Fone: (2{d}) 9{c}-{c}", "({d}{d}) 3{b}-{c}"],
                  taxid=["CNPJ: {a2}.{b}.{b}/0001-{a2}", "CNPJ {a2}.{b}.{b}/0001-{a2}", "IE: {b}.{b}.{b}"]),
    "pl": dict(lang="pl", cur=["PLN", "zł", ""], dec=",", grp=" ", cents=True, dates=["%Y-%m-%d", "%Y-%m-%d", "%d.%m.%Y",
               "%d-%m-%Y"], clock12=False,
               sub=["Suma częściowa", "Podsuma", "SPRZEDAŻ OPODATKOWANA A"], tax=["PTU A 23%", "PTU A 23,00%", "SUMA PTU",
               "Kwota PTU", "VAT 23%"],
               total=["SUMA PLN", "SUMA", "Suma PLN", "RAZEM", "Do zapłaty", "DO ZAPŁATY"],
               tender=["Gotówka", "GOTÓWKA", "Karta", "Karta płatnicza", "BLIK", "Płatność kartą"], change=["Reszta", "RESZTA"],
               tip=["Napiwek", "Serwis 10%"], datelabel=["", "", "Data:", "Data sprzedaży:"], timelabel=["", "godz."],
               noise=["PARAGON FISKALNY", "Kasa {d}", "Kasjer: {person}", "Nr sys. {n}", "Stolik {n}", "Kelner: {person}",
                      "Nr wydruku {n}", "Sklep nr {n}"],
               footer=["Dziękujemy za zakupy", "Zapraszamy ponownie", "www.{web}.pl", "NIEFISKALNY"],
               phone=["tel. {a2} {a} {b2} {c2}", "tel. +48 {a2} {a} {b2} {c2}", "tel. 5{a2} {b} {a}"],
               taxid=["NIP {a}-{b}-{a2}-{b2}", "NIP: {a}{b}{c}", "NIP PL{a}{b}{c}"]),
    "sv": dict(lang="sv", cur=["kr", "SEK", ""], dec=",", grp=" ", cents=True, dates=["%Y-%m-%d", "%Y-%m-%d", "%Y-%m-%d",
               "%y-%m-%d", "%d/%m/%Y"], clock12=False,
               sub=["Delsumma", "Summa varor", "Mellansumma"], tax=["Moms 25%", "MOMS 12%", "Varav moms", "Moms"],
               total=["Totalt", "TOTALT", "Summa", "ATT BETALA", "Att betala", "Total SEK"],
               tender=["Kontant", "Kort", "Kortbetalning", "Swish", "Betalt"], change=["Växel", "Tillbaka", "Åter"],
               tip=["Dricks"], datelabel=["Datum:", "", ""], timelabel=["Tid:", "Kl.", ""],
               noise=["Välkommen!", "KVITTO", "Kassa {d}", "Kassör: {person}", "Bord {n}", "Kvitto nr {n}",
                      "Servitör: {person}", "Butik {n}"],
               footer=["Tack för ditt köp!", "Välkommen åter", "www.{web}.se", "Spara kvittot"],
               phone=["Tel: 08-{b} {b2}", "Tel 0{a2}-{b} {a2}", "Tfn: 08-{b}{b2}"],
               taxid=["Org.nr: 55{d}{d}{d}{d}-{c}", "Org nr {v6}-{c}", "Momsreg.nr SE{v9}{d}01"]),
    "da": dict(lang="da", cur=["kr.", "DKK", "kr", ""], dec=",", grp=".", cents=True, dates=["%d-%m-%Y", "%d.%m.%Y",
               "%d/%m/%Y", "%d-%m-%y"], clock12=False,
               sub=["Subtotal", "Mellemsum", "I alt ekskl. moms"], tax=["Moms 25%", "MOMS", "Heraf moms", "Moms udgør"],
               total=["I ALT", "I alt", "Total", "TOTAL DKK", "At betale", "SUM"],
               tender=["Kontant", "Dankort", "Kort", "MobilePay", "Betalt"], change=["Retur", "Byttepenge", "Tilbage"],
               tip=["Drikkepenge"], datelabel=["Dato:", ""], timelabel=["Kl.", "Tid:", ""],
               noise=["Velkommen", "KVITTERING", "Kasse {d}", "Ekspedient: {person}", "Bord {n}", "Bon nr. {n}",
                      "Tjener: {person}", "Butik {n}"],
               footer=["Tak for dit køb", "På gensyn", "www.{web}.dk", "Byttes inden 30 dage"],
               phone=["Tlf. {a2} {b2} {c2} {d2}", "Tlf: +45 {a2} {b2} {c2} {d2}", "Telefon {a2}{b2}{c2}{d2}"],
               taxid=["CVR: {v8}", "CVR-nr. {v8}", "SE-nr. {v8}"]),
    "nb": dict(lang="nb", cur=["kr", "NOK", ""], dec=",", grp=" ", cents=True, dates=["%d.%m.%Y", "%d.%m.%y", "%d/%m/%Y",
               "%Y-%m-%d"], clock12=False,
               sub=["Delsum", "Sum varer", "Subtotal"], tax=["MVA 25%", "Mva 15%", "Herav mva", "MVA"],
               total=["TOTALT", "Totalt", "SUM", "Å betale", "Total NOK", "Å BETALE"],
               tender=["Kontant", "Bankkort", "Kort", "Vipps", "Betalt"], change=["Tilbake", "Veksel", "Retur"],
               tip=["Tips"], datelabel=["Dato:", ""], timelabel=["Kl.", "Tid:", ""],
               noise=["Velkommen", "KVITTERING", "Kasse {d}", "Betjent av: {person}", "Bord {n}", "Kvittering nr. {n}",
                      "Selger: {person}", "Butikk {n}"],
               footer=["Takk for handelen!", "Velkommen igjen", "www.{web}.no", "Bytterett 30 dager"],
               phone=["Tlf: {a2} {b2} {c2} {d2}", "Tlf. +47 {a2} {b2} {c2} {d2}", "Telefon {a2}{b2}{c2}{d2}"],
               taxid=["Org.nr: {a} {b} {a}", "Org.nr. {a} {b} {a} MVA", "Foretaksregisteret NO {a} {b} {a} MVA"]),
}


def made_up_language(seed=7):
    """`xx`: a language no locale file knows. Its label, street and item words are made of the syllables, so a model
    trained on its receipts learns what a receipt looks like when none of its words is known (the classifier), and a
    run over them shows how the parser does on a language without a file."""
    r = random.Random(seed)
    def w(lo=2, hi=3, n=1):
        return " ".join("".join(r.choice(SYLLABLES) for _ in range(r.randint(lo, hi))).capitalize() for _ in range(n))
    def ws(k, n=1):
        return [w(n=n) for _ in range(k)]
    spec = dict(lang="xx", cur=["KR", "€", "$", ""], dec=r.choice([",", "."]), grp=" ", cents=True,
                dates=["%d.%m.%Y", "%Y-%m-%d", "%d/%m/%Y", "%d-%m-%y"], clock12=False,
                sub=ws(2), tax=[t + " " + p for t in ws(2) for p in ("10%", "")], total=ws(3) + [w().upper()],
                tender=ws(3), change=ws(2), tip=ws(1), datelabel=[w() + ":", ""], timelabel=[w() + ":", ""],
                noise=[w() + " {n}", w() + ": {person}", w(n=2), w() + " {d}"], footer=[w(n=3), w(n=2) + "!", "www.{web}.xx"],
                phone=[w() + " {a2} {a} {b2}", "+99 {a} {b} {a2}"], taxid=[w().upper() + " {v9}"])
    words = dict(items=ws(16), generic=ws(6), types=ws(6), legal=[w(1, 1).upper() for _ in range(3)],
                 streets=[w(1, 2).lower() for _ in range(4)], modifiers=ws(5, 2), discounts=ws(2))
    return spec, words


XX, XX_WORDS = made_up_language()
LOCALES["xx"] = XX
ITEMS["xx"], GENERIC["xx"], TYPES["xx"] = XX_WORDS["items"], XX_WORDS["generic"], XX_WORDS["types"]
LEGAL["xx"] = XX_WORDS["legal"]

# The locales drawn unless --locales names others; their order fixes which receipt of a seed gets which locale.
DEFAULT_LOCALES = ["en-US", "en-GB", "de", "fr", "es", "it", "nl", "ms", "id"]

STREET = {
    "en-US": (["St", "Street", "Ave", "Avenue", "Blvd", "Rd", "Road", "Dr", "Drive", "Hwy", "Pkwy", "Ln", "Way",
               "Ct", "Pl"], "{num} {dir}{name} {type}"),
    "en-GB": (["Street", "Road", "Lane", "High Street", "Way", "Close", "Avenue", "Square", "Terrace", "Crescent"],
              "{num} {name} {type}"),
    "de": (["straße", "str.", "weg", "platz", "allee", "gasse", "ring"], "{name}{type} {num}"),
    "fr": (["rue", "avenue", "boulevard", "place", "chemin", "allée", "bd", "av."], "{num} {type} {de}{name}"),
    "es": (["Calle", "Avenida", "Avda.", "Plaza", "Paseo", "C/", "Camino"], "{type} {name}, {num}"),
    "it": (["Via", "Viale", "Piazza", "Corso", "Vicolo", "P.zza"], "{type} {name}, {num}"),
    "nl": (["straat", "weg", "laan", "plein", "gracht", "kade", "singel"], "{name}{type} {num}"),
    "ms": (["JALAN", "JLN", "LORONG", "PERSIARAN", "LEBUH"], "NO {num}, {type} {NAME} {d},"),
    "id": (["Jl.", "Jalan", "Jln."], "{type} {name} No. {num}"),
    "pt-PT": (["Rua", "Avenida", "Av.", "Travessa", "Largo", "Praça", "Estrada", "R."], "{type} {de}{name}, {num}"),
    "pt-BR": (["Rua", "Av.", "Avenida", "Alameda", "Travessa", "Estrada", "R."], "{type} {de}{name}, {num}"),
    "pl": (["ul.", "ul.", "al.", "pl.", "os.", "ulica", "Aleja"], "{type} {name} {num}"),
    "sv": (["gatan", "vägen", "gränd", "torget", "allén", "stigen"], "{name}{type} {num}"),
    "da": (["gade", "vej", "allé", "torv", "stræde", "plads"], "{name}{type} {num}"),
    "nb": (["gata", "veien", "gate", "vei", "torget", "allé"], "{name}{type} {num}"),
}

# The word between a street's type and its name, where a language has one.
STREET["xx"] = (XX_WORDS["streets"], "{name}{type} {num}")

NAME_LINKS = {"pt-PT": ["de ", "do ", "da ", "dos ", ""], "pt-BR": ["", "", "do ", "da ", "dos "]}
BR_STATES = ["SP", "RJ", "MG", "RS", "PR", "SC", "BA", "PE", "CE", "GO", "DF"]

STATES = ["CA", "NY", "TX", "FL", "IL", "WA", "MA", "NJ", "PA", "OH", "GA", "NC", "MI", "AZ", "CO", "OR", "NV", "MN",
          "VA", "NH"]
PERSONS = ["Ana", "Ben", "Carla", "Dev", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jin", "Kai", "Lea", "Max", "Nia", "Oli",
           "Pia", "Raj", "Sam", "Tia", "Uma", "Vic", "Wes", "Yan", "Zoe"]
CONFUSIONS = {"O": "0", "0": "O", "l": "1", "1": "l", "I": "1", "S": "5", "5": "S", "B": "8", "8": "B", ".": ",",
              ",": ".", "e": "c", "a": "o", "rn": "m", "G": "6", "Z": "2", ":": ";", "-": "~"}


# Notes a till prints under a dish or a drink, with no price of their own (an order's options).
MODIFIERS = {
    "en": ["No onion", "Extra cheese", "Medium rare", "Well done", "Side salad", "No ice", "Gluten free",
           "Add bacon", "Shredded beef", "Oat milk", "Large", "Dressing on side", "Sub fries", "Light ice"],
    "de": ["Ohne Zwiebeln", "Extra Käse", "Medium", "Groß", "Ohne Eis", "Mit Sahne", "Hafermilch"],
    "fr": ["Sans oignon", "Supplément fromage", "Saignant", "À point", "Sans glace", "Sauce à part"],
    "es": ["Sin cebolla", "Extra queso", "Al punto", "Sin hielo", "Poco hecho", "Salsa aparte"],
    "it": ["Senza cipolla", "Extra formaggio", "Al sangue", "Senza ghiaccio", "Ben cotto", "Latte di soia"],
    "nl": ["Zonder ui", "Extra kaas", "Medium", "Zonder ijs", "Met mayo", "Havermelk"],
    "ms": ["KURANG MANIS", "TANPA BAWANG", "TAMBAH TELUR", "PEDAS", "AIS", "BUNGKUS"],
    "id": ["Tanpa bawang", "Pedas", "Tambah telur", "Kurang gula", "Es", "Bungkus"],
    "pt": ["Sem cebola", "Extra queijo", "Mal passado", "Sem gelo", "Bem passado", "Molho à parte"],
    "pl": ["Bez cebuli", "Extra ser", "Średnio wysmażony", "Bez lodu", "Sos osobno", "Duża"],
    "sv": ["Utan lök", "Extra ost", "Medium", "Utan is", "Havremjölk", "Sås vid sidan"],
    "da": ["Uden løg", "Ekstra ost", "Medium", "Uden is", "Havremælk", "Dressing ved siden"],
    "nb": ["Uten løk", "Ekstra ost", "Medium", "Uten is", "Havremelk", "Saus ved siden"],
}

# What a till prints for a discount under the item it takes off.
DISCOUNTS = {
    "en": ["Discount", "Happy Hour", "Promo", "Coupon", "Member Discount", "Staff Disc", "10% off"],
    "de": ["Rabatt", "Nachlass", "Aktion", "Mitarbeiterrabatt"], "fr": ["Remise", "Réduction", "Promo"],
    "es": ["Descuento", "Promoción", "Dto."], "it": ["Sconto", "Promozione"], "nl": ["Korting", "Actie"],
    "ms": ["DISKAUN", "PROMOSI", "DISC"], "id": ["Diskon", "Potongan", "Promo"], "pt": ["Desconto", "Promoção"],
    "pl": ["Rabat", "Promocja", "Upust"], "sv": ["Rabatt", "Erbjudande", "Kampanj"], "da": ["Rabat", "Tilbud", "Kampagne"],
    "nb": ["Rabatt", "Tilbud", "Kampanje"],
}
MODIFIERS["xx"], DISCOUNTS["xx"] = XX_WORDS["modifiers"], XX_WORDS["discounts"]


# Japanese and Korean (`--locales ja,ko`; never among the default locales, so a seed's default receipts are
# unchanged): their receipts are drawn by Maker.receipt_cjk from the words below, in whole yen and won
# (`cents` False: amounts are kept in hundredths like the others' and printed, and keyed, in whole units).
# Names, streets and towns are made from kana, hangul syllables and common words, as the others' are.
LOCALES["ja"] = dict(lang="ja", cjk="ja", cur=["¥", "円"], dec=".", grp=",", cents=False, dates=[], clock12=False,
                     forms=["¥{}", "¥{}", "¥{}", "￥{}", "{}", "{}円"],
                     sub=["小計", "小 計", "お買上計"], tax=["消費税等 10%", "消費税等 8%", "外税 10%", "消費税(10%)", "消費税等"],
                     total=["合計", "合 計", "合計金額", "お会計", "ご請求額", "お買上合計"],
                     tender=["お預り", "お預かり", "現金", "お預り金額"], card=["クレジット", "電子マネー", "QR決済", "交通系IC"],
                     change=["お釣り", "おつり", "お釣", "釣銭"], tip=[],
                     datelabel=["", "", "", "日付", "発行日:"], timelabel=[""],
                     noise=["領収書", "いらっしゃいませ", "毎度ありがとうございます", "領収証", "レシート", "レジ{d} 責No.{n}",
                            "担当: {person}", "伝票番号 {n}", "テーブル {d}", "{d}名様", "No.{n}", "取引番号 {n}", "[領収書]",
                            "上様"],
                     footer=["ありがとうございました", "またのご来店をお待ちしております", "※印は軽減税率(8%)適用商品",
                             "返品の際はレシートをお持ちください", "www.{web}.co.jp", "ポイントカードはお持ちですか",
                             "またお越しくださいませ"],
                     phone=["電話 {num}", "TEL {num}", "TEL:{num}", "電話:{num}", "Tel.{num}", "TEL ({area}){rest}"],
                     taxid=["登録番号 T{v13}", "登録番号:T{v13}", "適格請求書発行事業者 T{v13}", "登録番号 T{v13}"])
LOCALES["ko"] = dict(lang="ko", cjk="ko", cur=["원", "₩"], dec=".", grp=",", cents=False, dates=[], clock12=False,
                     forms=["{}", "{}", "{}", "{}원", "{}원"],
                     sub=["과세물품가액", "공급가액", "과세매출", "과세 물품"], tax=["부가세", "부가가치세", "부가세(VAT)", "부 가 세"],
                     total=["합계", "합 계", "합계금액", "총액", "결제금액", "받을금액", "총 합계"],
                     tender=["받은금액", "현금", "받은돈", "현금 받음"], card=["신용카드", "카드결제", "카드", "삼성페이"],
                     change=["거스름돈", "거스름", "잔돈"], tip=[],
                     datelabel=["", "", "거래일시:", "판매일:", "일시 :"], timelabel=[""],
                     noise=["영수증", "[고객용]", "어서오세요", "POS:{d} No:{n}", "계산원: {person}", "담당자 {person}",
                            "주문번호 {n}", "테이블 {d}", "인원 {d}명", "카드영수증", "[재발행]", "포스번호 {d}"],
                     footer=["감사합니다", "또 오세요", "교환/환불은 영수증 지참 시 7일 이내 가능합니다", "www.{web}.co.kr",
                             "이용해 주셔서 감사합니다", "멤버십 적립 완료"],
                     phone=["{num}", "TEL: {num}", "전화: {num}", "Tel {num}", "T. {num}", "전화번호 {num}"],
                     taxid=["사업자번호 {biz}", "사업자등록번호: {biz}", "사업자 No. {biz}", "사업자번호:{biz}"])

JA_KANA = ["サ", "ク", "ラ", "マ", "ル", "カ", "ミ", "ド", "リ", "ハ", "ナ", "ト", "ヤ", "コ", "ス", "タ", "ノ", "フ", "キ",
           "ア", "イ", "エ", "オ", "レ", "ロ", "ソ", "テ", "モ", "ヒ", "ユ", "ベ", "グ", "ジ", "パ", "ビ"]
JA_SURNAMES = ["山田", "佐藤", "鈴木", "高橋", "田中", "伊藤", "渡辺", "中村", "小林", "加藤", "吉田", "山本", "松本", "井上",
               "木村", "林", "清水", "山口", "森", "池田", "石川", "前田", "藤田", "岡本"]
JA_PLACES = ["渋谷", "新宿", "池袋", "梅田", "難波", "天神", "栄", "札幌", "横浜", "品川", "上野", "吉祥寺", "三宮", "博多",
             "仙台", "川崎", "大宮", "千葉", "町田", "京橋", "金山", "桜木町", "中野", "錦糸町"]
JA_BRANCH = ["{p}店", "{p}駅前店", "{p}駅東口店", "{p}中央店", "{p}{d}丁目店", "{p}本店", "{p}南口店"]
JA_CHAINS = ["ローソン", "ミニストップ", "デイリーストア", "スーパー{k}", "ドラッグ{k}", "{k}マート", "{k}ストア", "フレッシュ{k}",
             "{k}書店", "{k}珈琲", "カフェ{k}"]
GENERIC["ja"] = ["さくら", "ひまわり", "あおば", "みどり", "富士", "大和", "ひかり", "若葉", "日の出", "朝日", "こだま", "はなまる"]
TYPES["ja"] = ["商店", "食堂", "薬局", "書店", "酒店", "精肉店", "ベーカリー", "珈琲店", "寿司", "ラーメン", "居酒屋", "青果店",
               "文具店", "電器", "そば処", "洋菓子店"]
LEGAL["ja"] = ["株式会社", "株式会社", "有限会社", "(株)", "合同会社"]
JA_PREFS = {"東京都": ["渋谷区", "新宿区", "港区", "世田谷区", "中央区", "豊島区", "台東区", "武蔵野市", "八王子市"],
            "大阪府": ["大阪市北区", "大阪市中央区", "大阪市浪速区", "堺市堺区", "豊中市"],
            "神奈川県": ["横浜市中区", "横浜市西区", "川崎市川崎区", "相模原市中央区"], "愛知県": ["名古屋市中区", "名古屋市中村区", "豊田市"],
            "福岡県": ["福岡市博多区", "福岡市中央区", "北九州市小倉北区"], "北海道": ["札幌市中央区", "札幌市北区", "旭川市"],
            "京都府": ["京都市下京区", "京都市中京区"], "兵庫県": ["神戸市中央区", "西宮市"], "宮城県": ["仙台市青葉区"],
            "埼玉県": ["さいたま市大宮区", "川口市"], "千葉県": ["千葉市中央区", "船橋市"]}
JA_AREAS = {"東京都": "03", "大阪府": "06", "神奈川県": "045", "愛知県": "052", "福岡県": "092", "北海道": "011",
            "京都府": "075", "兵庫県": "078", "宮城県": "022", "埼玉県": "048", "千葉県": "043"}
JA_DISTRICT = (["道玄", "神", "本", "中", "栄", "緑", "桜", "東", "西", "南", "北", "大", "新", "宮", "松", "竹", "梅", "若",
                "富士見", "旭", "日吉", "青葉"], ["坂", "町", "丘", "台", "原", "野", "橋", "通", "が丘", "田", "川"])
JA_WEEKDAYS = "月火水木金土日"
# Items as a till names them, with a usual price in yen; a sixth of the receipts print them in half-width kana.
JA_ITEMS = [("おにぎり ツナマヨ", 140), ("おにぎり 鮭", 160), ("緑茶 525ml", 151), ("烏龍茶 600ml", 140), ("天然水 550ml", 108),
            ("牛乳 1000ml", 238), ("食パン 6枚", 178), ("カップ麺 しょうゆ", 198), ("唐揚げ 5個", 238), ("ホットコーヒー S", 120),
            ("カフェラテ M", 190), ("ミックスサンド", 298), ("幕の内弁当", 550), ("メロンパン", 130), ("ポテトチップス", 158),
            ("チョコレート", 128), ("ボールペン 黒", 110), ("ノート B5", 150), ("単三電池 4本", 398), ("レジ袋 L", 5),
            ("卵 10個", 248), ("バナナ", 198), ("絹豆腐", 88), ("納豆 3P", 98), ("醤油 1L", 298), ("トイレットペーパー", 398),
            ("ラーメン", 850), ("餃子 6個", 350), ("生ビール 中", 550), ("ハイボール", 450), ("焼き鳥盛り合わせ", 980),
            ("枝豆", 380), ("日替わり定食", 950), ("カレーライス", 780), ("天ぷらうどん", 880), ("ざるそば", 700),
            ("ケーキセット", 900), ("アイスティー", 450), ("シャンプー 詰替", 498), ("歯ブラシ", 198), ("マスク 7枚", 298)]
KO_SYL = ["한", "빛", "새", "솔", "다", "온", "누", "리", "미", "소", "가", "람", "해", "별", "나", "무", "하", "늘", "초", "록",
          "은", "금", "봄", "들", "마", "루", "아", "라", "서", "진"]
KO_SURNAMES = ["김", "이", "박", "최", "정", "강", "조", "윤", "장", "임", "한", "오"]
KO_GIVEN = ["민수", "서연", "지훈", "하은", "도윤", "수빈", "예준", "지우", "현우", "유진", "성민", "영희"]
KO_PLACES = ["강남", "역삼", "홍대", "신촌", "잠실", "종로", "명동", "서면", "해운대", "분당", "일산", "수원역", "판교", "여의도",
             "건대입구", "노원", "부평", "동성로", "광안리", "신림"]
KO_BRANCH = ["{p}점", "{p}역점", "{p}본점", "{p}{d}호점", "{p}중앙점"]
KO_CHAINS = ["GS25", "CU", "세븐일레븐", "이마트24", "{w}마트", "{w}편의점", "{w}커피", "카페 {w}", "{w}베이커리", "{w}약국",
             "{w}식당", "{w}치킨", "{w}분식", "{w}문구", "{w}정육점"]
GENERIC["ko"] = ["한빛", "새솔", "푸른", "행복한", "우리", "좋은", "하늘", "별빛", "햇살", "다온"]
TYPES["ko"] = ["마트", "식당", "분식", "약국", "카페", "베이커리", "치킨", "문구", "상회", "정육점", "한식당", "김밥"]
LEGAL["ko"] = ["주식회사", "주식회사", "(주)", "유한회사"]
KO_SIDO = {"서울특별시": ["강남구", "서초구", "마포구", "종로구", "송파구", "영등포구", "관악구", "노원구"],
           "부산광역시": ["해운대구", "부산진구", "수영구"], "인천광역시": ["남동구", "부평구"], "대구광역시": ["중구", "수성구"],
           "경기도": ["성남시 분당구", "수원시 팔달구", "고양시 일산동구", "용인시 수지구"], "대전광역시": ["유성구", "서구"],
           "광주광역시": ["서구", "북구"]}
KO_SIDO_SHORT = {"서울특별시": "서울", "부산광역시": "부산", "인천광역시": "인천", "대구광역시": "대구", "경기도": "경기",
                 "대전광역시": "대전", "광주광역시": "광주"}
KO_AREAS = {"서울특별시": "02", "부산광역시": "051", "인천광역시": "032", "대구광역시": "053", "경기도": "031", "대전광역시": "042",
            "광주광역시": "062"}
KO_WEEKDAYS = "월화수목금토일"
KO_ITEMS = [("삼각김밥", 1200), ("바나나우유", 1700), ("생수 500ml", 900), ("컵라면", 1500), ("아메리카노", 4500),
            ("카페라떼", 5000), ("샌드위치", 3500), ("도시락", 4900), ("초코파이", 4800), ("새우과자", 1500), ("맥주 500ml", 2800),
            ("소주", 1900), ("김치찌개", 9000), ("된장찌개", 8000), ("비빔밥", 9500), ("불고기 정식", 12000), ("떡볶이", 4500),
            ("순대", 5000), ("김밥", 3500), ("라면", 4000), ("후라이드치킨", 19000), ("콜라 1.5L", 3200), ("우유 1L", 2900),
            ("계란 10구", 3980), ("건전지 AA 4입", 4500), ("볼펜", 1000), ("종량제봉투 20L", 490), ("아이스크림", 1500),
            ("냉면", 10000), ("공기밥", 1000), ("녹차라떼", 5500), ("크루아상", 3800)]
ITEMS["ja"], ITEMS["ko"] = [n for n, _ in JA_ITEMS], [n for n, _ in KO_ITEMS]
MODIFIERS["ja"] = ["大盛り", "ネギ抜き", "氷なし", "ホット", "アイス", "辛さ普通", "ご飯少なめ", "Lサイズ", "温め"]
MODIFIERS["ko"] = ["곱빼기", "덜 맵게", "얼음 적게", "샷 추가", "포장", "아이스", "핫", "사이즈업"]
DISCOUNTS["ja"] = ["値引", "割引", "クーポン値引", "タイムセール", "会員割引"]
DISCOUNTS["ko"] = ["할인", "쿠폰할인", "멤버십 할인", "행사할인", "2+1 할인"]

# Half-width katakana, as many Japanese tills print item names (ｵﾆｷﾞﾘ): the full-width letter to its half-width form.
HALF_KANA = {}
for _cp in range(0xFF66, 0xFF9E):
    HALF_KANA[unicodedata.normalize("NFKC", chr(_cp))] = chr(_cp)
for _cp in range(0x30A1, 0x30FB):
    _d = unicodedata.normalize("NFD", chr(_cp))
    if len(_d) == 2 and _d[0] in HALF_KANA and _d[1] in "\u3099\u309a":
        HALF_KANA[chr(_cp)] = HALF_KANA[_d[0]] + ("ﾞ" if _d[1] == "\u3099" else "ﾟ")
# What OCR takes Japanese letters for (none of them is printed by the other locales).
CONFUSIONS.update({"ー": "一", "口": "ロ", "ロ": "口", "力": "カ", "カ": "力", "工": "エ", "エ": "工", "二": "ニ", "ニ": "二",
                   "夕": "タ", "ト": "卜", "へ": "ヘ"})


def cols(text, cjk=None):
    """The text's width in a monospaced print's columns: its length, except in the Japanese and Korean locales,
    where wide letters (kana, kanji, hangul, and the symbols a CJK font draws wide) take two."""
    if not cjk:
        return len(text)
    return sum(2 if unicodedata.east_asian_width(c) in "WFA" else 1 for c in text)


class Maker:
    def __init__(self, rng, modifier_rate=0.0, modifier_rng=None, section_rate=0.0, section_rng=None, tail_rate=0.0,
                 tail_rng=None, code_rate=0.0, code_rng=None, dear_rate=0.0, dear_rng=None):
        self.r = rng
        self.dear_rate = dear_rate
        self.dr = dear_rng
        self.code_rate = code_rate
        self.cr = code_rng
        self.tail_rate = tail_rate
        self.tr = tail_rng
        # Options under the items, and summaries in sections, draw from their own generators, so a seed
        # drawn without them is unchanged.
        self.modifier_rate = modifier_rate
        self.mr = modifier_rng
        self.section_rate = section_rate
        self.sr = section_rng

    def tail(self, loc):
        """The end of the slip before, caught above this one's header by a scan or a photo: a few of its summary
        lines, its closing words, and now and then a line or two of the locale's header words (`Server: Tom`,
        `Kasse 2`). Lines of role `noise`; the key stays this receipt's. Its own generator draws the tail's text, but
        its lines are laid out with the main one, so the receipts after it differ from a draw without tails;
        `--tails 0` draws the same receipts as before."""
        spec = LOCALES[loc]
        if not self.tail_rate or spec.get("cjk") or self.tr.random() >= self.tail_rate:
            return []
        t = self.tr
        out = []
        due = t.randint(100, 20000) if spec["cents"] else t.randint(10, 500) * 100000
        rows = [(t.choice(spec["total"]), due)]
        if t.random() < 0.6:
            step = 500 if spec["cents"] else 1000000
            paid = (due // step + 1) * step
            rows += [(t.choice(spec["tender"]), paid), (t.choice(spec["change"]), paid - due)]
        for label, cents in rows[t.randint(0, len(rows) - 1):]:
            out.append(((label if t.random() < 0.7 else "") + "\t" + self.money(loc, cents, rng=t), "noise"))
        if t.random() < 0.3:
            out.append(("-" * t.randint(12, 32), "noise"))
        for phrase in t.sample(spec["footer"], min(len(spec["footer"]), t.choice([1, 1, 2]))):
            out.append((self.fill(phrase, t), "noise"))
        for _ in range(t.choice([0, 0, 1, 2])):
            out.append((self.fill(t.choice(spec["noise"]), t), "noise"))
        return out

    def coded(self, items):
        """Now and then a till that prints each item's article code, count and unit price over its name
        (`4006381 2 1.20  2.40`, then `Mineral Water`), under a heading of none, one or two rows: a list whose first entry
        is the heading's lines, then an (article code, the name's indent) for each item; [] for the usual layout."""
        if not self.code_rate or not items or self.cr.random() >= self.code_rate:
            return []
        c = self.cr
        heading = c.choice([[], [], [("Item Qty Price\tTotal", "noise"), ("Description", "noise")],
                            [("Code Qty Price\tAmount", "noise")], [("Art.Nr. Menge Preis\tBetrag", "noise"), ("Bezeichnung", "noise")],
                            [("Code Qte PU\tMontant", "noise"), ("Designation", "noise")], [("SKU QTY PRICE\tAMT", "noise")]])
        width, indent = c.choice([4, 6, 8, 13]), c.choice(["", "", "  ", "    "])
        return [heading] + [("".join(str(c.randint(0, 9)) for _ in range(width)), indent) for _ in items]

    def modifiers(self, lang):
        """Zero to two unpriced option lines for one item, as a restaurant's till prints them."""
        if not self.modifier_rate or self.mr.random() >= self.modifier_rate:
            return []
        lead = self.mr.choice(["", "  ", "  ", "   ", "- ", "+ ", "* ", ">> "] + (["w/ ", "NO "] if lang == "en" else []))
        out = []
        for _ in range(self.mr.choice([1, 1, 1, 2])):
            text = self.mr.choice(MODIFIERS[lang])
            if lead == "NO ":
                text = text.split()[-1]
            if self.mr.random() < 0.35:
                text = text.upper()
            out.append(lead + text)
        return out

    def discount(self, lang, price):
        """Now and then a discount printed under an item: (label, negative cents), or None."""
        if not self.modifier_rate or price <= 0 or self.mr.random() >= self.modifier_rate / 10:
            return None
        off = max(1, price * self.mr.choice([5, 10, 15, 20, 25, 50]) // 100)
        label = self.mr.choice(DISCOUNTS[lang])
        # A label that states its rate (`10% off`) takes that share, as a till does; no other draw changes.
        if "%" in label:
            off = max(1, (price * int(label.split("%")[0]) + 50) // 100)
        return label, -off

    def free_item(self, lang):
        """Now and then an item given away, printed at 0: (1, name, 0), or None."""
        if not self.modifier_rate or self.mr.random() >= self.modifier_rate / 6:
            return None
        return 1, self.mr.choice(ITEMS[lang]), 0

    def sections(self, loc, sym, subtotal):
        """Now and then a summary in sections, as tills print goods taxed at two rates: the goods
        without tax and their sum, the taxed goods' sum before tax, the tax, their sum with it, and
        under them the amount due, the sum of the two sections (`Total 0% supplies` + `Total 6%
        supplies (Inc. GST)` = `Total Payable`). The section sums agree with a subtotal plus a tax
        and look like totals; only the amount under them is the receipt's. (summary lines, total),
        or None; drawn from the sections' own random numbers."""
        if not self.section_rate or self.sr.random() >= self.section_rate:
            return None
        spec, s = LOCALES[loc], self.sr
        if subtotal < 200:
            return None
        free = max(1, subtotal * s.randint(15, 70) // 100) if spec["cents"] else subtotal * s.randint(15, 70) // 10000 * 100
        rated = subtotal - free
        rate = s.choice([5, 6, 7, 8, 10, 16, 19, 20, 21, 22, 23])
        tax = rated * rate // 100 if spec["cents"] else rated * rate // 10000 * 100
        if s.random() < 0.2:  # goods taken back in the same sale (an exchange, an adjustment note): the due is no longer the largest
            if s.random() < 0.5:
                free = -free
            else:
                rated, tax = -rated, -tax
        due = free + rated + tax
        total_words = spec["total"]
        section_word = s.choice(total_words[:2])
        incl = {"en": "Inc. Tax", "ms": "Inc. GST", "id": "termasuk PPN", "de": "inkl. MwSt", "fr": "TTC", "es": "IVA incl.",
                "it": "IVA incl.", "nl": "incl. btw", "pt": "c/ IVA", "pl": "z VAT", "sv": "inkl. moms",
                "da": "inkl. moms", "nb": "inkl. mva", "ja": "税込", "ko": "부가세 포함"}.get(spec["lang"], s.choice(spec["tax"]))
        excl = {"en": "excl. Tax", "ms": "excl. GST", "id": "tanpa PPN", "de": "ohne MwSt", "fr": "HT", "es": "sin IVA",
                "it": "senza IVA", "nl": "excl. btw", "pt": "s/ IVA", "pl": "bez VAT", "sv": "exkl. moms",
                "da": "ekskl. moms", "nb": "ekskl. mva", "ja": "税抜", "ko": "부가세 별도"}.get(spec["lang"], s.choice(spec["sub"]))
        due_words = [w for w in total_words if w.upper() != section_word.upper()] or total_words

        def row(label, cents, symbol=""):
            return label + s.choice([":", "", " :"]) + "\t" + self.money(loc, cents, symbol, s)

        zero = (row(f"{section_word} 0%", free), "noise")
        tax_word = re.sub(r"\s*@?\s*\d+([.,]\d+)?\s*%", "", s.choice(spec["tax"])).strip() or "Tax"
        tax_label = tax_word + (f" {rate}%" if s.random() < 0.5 else "")
        taxed = [(row(f"{section_word} {rate}% ({excl})", rated), "noise"), (row(tax_label, tax), "tax"),
                 (row(f"{section_word} {rate}% ({incl})", rated + tax), "noise")]
        out = [zero] + taxed if s.random() < 0.5 else taxed + [zero]
        if s.random() < 0.3:  # the tax-free section's sum again beside the taxed one's
            out.append(zero)
        out.append((row(s.choice(due_words), due, sym if s.random() < 0.4 else ""), "total"))
        if s.random() < 0.6:
            step = 500 if spec["cents"] else 1000000
            paid = due if s.random() < 0.4 else (due // step + 1) * step
            out.append((s.choice(spec["tender"]) + "\t" + self.money(loc, paid, "", s), "tender"))
            if paid != due:
                out.append((s.choice(spec["change"]) + "\t" + self.money(loc, paid - due, "", s), "change"))
        return out, due

    def pick(self, xs):
        return self.r.choice(xs)

    def word(self, lo=2, hi=3):
        while True:
            w = "".join(self.pick(SYLLABLES) for _ in range(self.r.randint(lo, hi)))
            if "anal" not in w:
                return w.capitalize()

    def digits(self, n):
        return "".join(str(self.r.randint(0, 9)) for _ in range(n))

    def fill(self, pattern, rng=None):
        if rng is not None:  # another generator's draw: this one's stays as it was
            main, self.r = self.r, rng
            try:
                return self.fill(pattern)
            finally:
                self.r = main
        fields = {"n": str(self.r.randint(1, 99999)), "d": str(self.r.randint(1, 9)), "person": self.pick(PERSONS),
                  "web": self.word().lower(), "a": self.digits(3), "b": self.digits(3), "c": self.digits(4),
                  "a2": self.digits(2), "b2": self.digits(2), "c2": self.digits(2), "d2": self.digits(2),
                  "v9": self.digits(9), "v8": self.digits(8), "v6": self.digits(6), "L": self.pick("ABDHKMPTUVWX")}
        return pattern.format(**fields)

    def money(self, loc, cents, symbol="", rng=None):
        spec, rng = LOCALES[loc], rng or self.r
        if spec.get("cjk"):  # whole yen or won, in the receipt's forms (receipt_cjk sets them)
            return self.cjk_money(cents, self.cjk_forms[1 if symbol else 0])
        if not spec["cents"]:
            units = cents // 100
            s = f"{units:,}".replace(",", spec["grp"])
        else:
            units, rest = divmod(abs(cents), 100)
            s = f"{units:,}".replace(",", spec["grp"] if rng.random() < 0.5 or units >= 1000 else "")
            s = ("-" if cents < 0 else "") + s + spec["dec"] + f"{rest:02d}"
        if symbol:
            return (symbol + s) if symbol in ("$", "£", "RM", "Rp", "Rp.", "R$") and rng.random() < 0.8 else s + " " + symbol
        return s

    def name(self, loc):
        lang = LOCALES[loc]["lang"]
        r = self.r.random()
        base = []
        if r < 0.3:
            base = [self.pick(GENERIC[lang]), self.word()]
        elif r < 0.5:
            base = [self.word() + ("'s" if lang == "en" else ""), self.pick(TYPES[lang])]
        elif r < 0.75:
            base = [self.pick(GENERIC[lang]), self.pick(TYPES[lang])]
        else:
            base = [self.word(), self.word(1, 2)]
            if self.r.random() < 0.5:
                base.append(self.pick(TYPES[lang]))
        legal = self.pick(LEGAL[loc]) if self.r.random() < (0.75 if loc == "ms" else 0.3) else None
        upper = self.r.random() < (0.8 if loc in ("ms", "id") else 0.45)
        text = " ".join(base)
        if upper:
            text = text.upper()
        if legal:
            legal = legal.upper() if upper else legal
        return text, legal

    def address(self, loc):
        types, pattern = STREET[loc]
        name = self.word()
        line1 = pattern.format(num=self.r.randint(1, 9999 if loc == "en-US" else 250), dir=self.pick(["", "", "N ", "S ", "E ", "W "]),
                               name=name, NAME=name.upper(), type=self.pick(types), de=self.pick(NAME_LINKS.get(loc, ["de ", "des ", "du ", ""])),
                               d=self.r.randint(1, 30))
        town = self.word()
        lines = [line1]
        if self.r.random() < 0.2:
            lines.append(self.pick({"en-US": ["Suite {d}0{d}", "Unit {d}", "STE {d}{d}"], "en-GB": ["Unit {d}", "{w} Centre"],
                                    "ms": ["TAMAN {W}", "BANDAR {W}", "LOT {n}, {W} PLAZA"], "id": ["Ruko {W} Blok {d}"]}
                                   .get(loc, ["{w} Center"])).replace("{w}", self.word()).replace("{W}", self.word().upper()))
            lines[-1] = self.fill(lines[-1])
        if loc == "en-US":
            lines.append(f"{town}, {self.pick(STATES)} {self.digits(5)}")
        elif loc == "en-GB":
            lines.append(f"{town} {self.pick('ABCDEGHKLMNPRS')}{self.pick('ABCDEGHKLMNPRS')}{self.r.randint(1, 29)} "
                         f"{self.r.randint(1, 9)}{self.pick('ABDEFGHJLNPQRSTUWXYZ')}{self.pick('ABDEFGHJLNPQRSTUWXYZ')}")
        elif loc == "nl":
            lines.append(f"{self.r.randint(1000, 9999)} {self.pick('ABCDEFGHJKLMNPRSTVWXZ')}{self.pick('ABCDEFGHJKLMNPRSTVWXZ')} {town}")
        elif loc == "it":
            lines.append(f"{self.digits(5)} {town} ({self.pick(['RM', 'MI', 'TO', 'NA', 'FI', 'BO'])})")
        elif loc == "ms":
            lines.append(f"{self.digits(5)} {town.upper()}, {self.pick(['SELANGOR', 'JOHOR', 'PERAK', 'KEDAH', 'PAHANG', 'MELAKA'])}")
        elif loc == "id":
            lines.append(f"{town} {self.digits(5)}")
        elif loc == "pt-PT":
            lines.append(f"{self.r.randint(1000, 9999)}-{self.digits(3)} {town}")
        elif loc == "pt-BR":
            lines.append(f"{town} - {self.pick(BR_STATES)}")
            lines.append(f"CEP {self.digits(5)}-{self.digits(3)}")
        elif loc == "pl":
            lines.append(f"{self.digits(2)}-{self.digits(3)} {town}")
        elif loc == "sv":
            lines.append(f"{self.r.randint(100, 984)} {self.digits(2)} {town}")
        elif loc in ("da", "nb"):
            lines.append(f"{self.r.randint(1000, 9990) if loc == 'da' else self.digits(4)} "
                         f"{town.upper() if loc == 'nb' else town}")
        else:
            lines.append(f"{self.digits(5)} {town}")
        upper = self.r.random() < (0.85 if loc in ("ms",) else 0.3)
        if upper:
            lines = [l.upper() for l in lines]
        if self.r.random() < 0.25 and len(lines) >= 2:  # printed on one line
            lines = [(", " if self.r.random() < 0.5 else " ").join(lines)]
        return lines

    def receipt(self, loc):
        """Printed lines: (text, role, key) where text may hold a right part after '\\t'."""
        if LOCALES[loc].get("cjk"):
            return self.receipt_cjk(loc)
        r, spec = self.r, LOCALES[loc]
        lines = []
        when = dt.datetime(2015, 1, 1) + dt.timedelta(days=r.randint(0, 3650), minutes=r.randint(420, 1380))
        sym = self.pick(spec["cur"])
        if r.random() < 0.25:
            lines.append((self.fill(self.pick(spec["noise"][:3])), "noise"))
        name, legal = self.name(loc)
        name_lines = [name]
        if legal:
            if r.random() < 0.35:
                name_lines.append(legal)
            else:
                name_lines[0] = name + " " + legal
        for n in name_lines:
            lines.append((n, "name"))
        if loc == "ms" and r.random() < 0.5:
            lines.append((self.fill(self.pick(["({v6}-{L})", "CO. REG: {v6}-{L}", "(ROC {v6}-{L})"])), "noise"))
        if r.random() < 0.15:
            lines.append((self.fill(self.pick(spec["noise"])), "noise"))
        address = self.address(loc)
        phone = self.fill(self.pick(spec["phone"]))
        phone_first = r.random() < 0.1
        if phone_first:
            lines.append((phone, "phone"))
        for a in address:
            lines.append((a, "address"))
        if not phone_first and r.random() < 0.8:
            lines.append((phone, "phone"))
        if spec["taxid"] and r.random() < 0.5:
            lines.append((self.fill(self.pick(spec["taxid"])), "noise"))
        for _ in range(r.randint(0, 3)):
            lines.append((self.fill(self.pick(spec["noise"])), "noise"))
        fmt = self.pick(spec["dates"])
        date_text = when.strftime(fmt)
        time_text = when.strftime("%I:%M %p" if spec["clock12"] and r.random() < 0.7 else "%H:%M" + (":%S" if r.random() < 0.4 else ""))
        label = self.pick(spec["datelabel"])
        tlabel = self.pick(spec["timelabel"])
        style = r.random()
        if style < 0.4:
            lines.append(((label + " " if label else "") + date_text + "  " + (tlabel + " " if tlabel else "") + time_text, "date"))
        elif style < 0.7:
            lines.append(((label + " " if label else "") + date_text + "\t" + (tlabel + " " if tlabel else "") + time_text, "date"))
        else:
            lines.append(((label + " " if label else "") + date_text, "date"))
            lines.append(((tlabel + " " if tlabel else "") + time_text, "noise"))
        items = []
        # A dear receipt (furniture, tools, a phone) prices its items ten to a hundred times higher, so amounts
        # of four digits and more, with the locale's thousands separator, come up in its items and summary.
        dear = self.dr.choice([10, 25, 50, 100]) if self.dear_rate and self.dr.random() < self.dear_rate else 1
        if r.random() < 0.9:
            for _ in range(r.randint(1, 8)):
                qty = r.choice([1, 1, 1, 2, 3])
                unit = (r.randint(50, 4000) if spec["cents"] else r.randint(5, 150) * 1000 * 100 // 100) * dear
                price = qty * unit if spec["cents"] else qty * unit * 100
                desc = self.pick(ITEMS[spec["lang"]])
                if r.random() < 0.3:
                    desc = desc.upper()
                items.append((qty, desc, price))
            free = self.free_item(spec["lang"])
            if free:
                items.insert(self.mr.randint(0, len(items)), free)
        coded = self.coded(items)
        by_code = bool(coded)
        if items and not by_code and r.random() < 0.3:
            lines.append((self.pick(["Qty Item\tAmount", "Description\tTotal", "QTY DESCRIPTION\tPRICE", "Artikel\tBetrag"]), "noise"))
        if coded:
            lines += coded.pop(0)
        keyed = []  # the key's items in print order: a discount is one of its own, as receipt keys list it
        for qty, desc, price in items:
            if by_code:
                code, indent = coded.pop(0)
                lines.append((f"{code} {qty} {self.money(loc, price // qty)}\t{self.money(loc, price)}", "item"))
                lines.append((indent + desc, "indented"))
            else:
                text = (f"{qty} " if r.random() < 0.6 else "") + desc
                lines.append((text + "\t" + self.money(loc, price), "item"))
            keyed.append((qty, desc, price))
            if qty > 1 and not by_code and r.random() < 0.3:
                lines.append((f"  {qty} x {self.money(loc, price // qty)}", "item"))
            for note in self.modifiers(spec["lang"]):
                lines.append((note, "indented"))
            off = self.discount(spec["lang"], price)
            if off:
                amount = self.money(loc, off[1])
                if self.mr.random() < 0.3:  # the minus sign after the amount
                    amount = amount[1:] + "-"
                lines.append((self.mr.choice(["", "  "]) + off[0] + "\t" + amount, "indented"))
                keyed.append((1, off[0], off[1]))
        subtotal = sum(p for _, _, p in keyed) or (r.randint(100, 30000) if spec["cents"] else r.randint(10, 500) * 100000)
        rate = self.pick([0.0, 0.05, 0.06, 0.07, 0.0825, 0.1, 0.19, 0.2, 0.21, 0.22])
        tax = int(round(subtotal * rate))
        if not spec["cents"]:
            tax = tax // 100 * 100
        inclusive = spec["lang"] in ("de", "fr", "it", "nl", "es", "pt", "pl", "sv", "da", "nb") and r.random() < 0.6
        total = subtotal if inclusive else subtotal + tax
        tip = 0
        if spec["tip"] and r.random() < 0.15:
            tip = int(round(subtotal * 0.15)) // 100 * 100 if not spec["cents"] else int(round(subtotal * 0.15))
            total += tip
        summary = []
        if items and r.random() < 0.7 and not inclusive:
            summary.append((self.pick(spec["sub"]) + "\t" + self.money(loc, subtotal, sym if r.random() < 0.3 else ""), "subtotal"))
        if not inclusive and tax:
            summary.append((self.pick(spec["tax"]) + "\t" + self.money(loc, tax), "tax"))
        if tip:
            summary.append((self.pick(spec["tip"]) + "\t" + self.money(loc, tip), "tip"))
        total_label = self.pick(spec["total"])
        if r.random() < 0.15:  # the amount under its label
            summary.append((total_label, "noise"))
            summary.append(("\t" + self.money(loc, total, sym), "total"))
        else:
            summary.append((total_label + "\t" + self.money(loc, total, sym if r.random() < 0.6 else ""), "total"))
        if inclusive and tax:
            summary.append((self.pick(spec["tax"]) + "\t" + self.money(loc, int(round(total * rate / (1 + rate)))), "tax"))
        if r.random() < 0.7:
            step = 500 if spec["cents"] else 1000000
            paid = total if r.random() < 0.4 else (total // step + 1) * step
            summary.append((self.pick(spec["tender"]) + "\t" + self.money(loc, paid), "tender"))
            if paid != total:
                summary.append((self.pick(spec["change"]) + "\t" + self.money(loc, paid - total), "change"))
        sectioned = self.sections(loc, sym, subtotal)
        if sectioned:
            summary, total = sectioned
        lines += summary
        if r.random() < 0.15:  # a second date: printed, valid until, reprint
            other = when + dt.timedelta(days=r.randint(1, 400))
            lines.append((self.pick(["Printed", "Valid until", "Exp", "Reprint", "Best before"]) + " " + other.strftime(fmt), "noise"))
        for _ in range(r.randint(0, 3)):
            lines.append((self.fill(self.pick(spec["footer"])), "noise"))
        key = {"company": " ".join(name_lines), "address": " ".join(address), "date": when.strftime("%Y-%m-%d"),
               "total": f"{total / 100:.2f}"}
        if items:  # for the item-line model (Tools/train-items); the field rankers ignore them
            key["items"] = [{"description": desc, "quantity": qty, "amount": f"{price / 100:.2f}"} for qty, desc, price in keyed]
        return lines, key

    # Japanese and Korean receipts (`--locales ja,ko`): their own draw, so the other locales' are unchanged.

    def cjk_money(self, cents, form):
        """Whole yen or won (the hundredths dropped) in the receipt's form: `¥1,234`, `1,234円`, `1,234원`, `1,234`."""
        units = cents // 100
        return ("-" if units < 0 else "") + form.replace("{}", f"{abs(units):,}")

    def cjk_person(self, loc):
        if loc == "ja":
            return self.pick(JA_SURNAMES)
        return self.pick(KO_SURNAMES) + self.pick(KO_GIVEN)

    def cjk_fill(self, pattern, loc):
        return self.fill(pattern.replace("{person}", self.cjk_person(loc)))

    def cjk_word(self, loc):
        if loc == "ja":
            w = "".join(self.pick(JA_KANA) for _ in range(self.r.randint(2, 4)))
            return w[:2] + "ー" + w[2:] if len(w) > 2 and self.r.random() < 0.3 else w
        return "".join(self.pick(KO_SYL) for _ in range(2))

    def cjk_name(self, loc):
        """The shop's name lines: a chain and its branch (`ローソン 渋谷駅前店`, `GS25 강남점`), a company
        (`株式会社 山田商店`, `주식회사 한빛`) or a small shop (`カフェ さくら`)."""
        r = self.r
        if loc == "ja":
            family = self.pick(JA_SURNAMES)
            branch = self.pick(JA_BRANCH).format(p=self.pick(JA_PLACES), d=r.randint(1, 9))
            chain = self.pick(JA_CHAINS).format(k=self.cjk_word(loc))
            small = self.pick(["カフェ {g}", "喫茶 {g}", "{g}{t}", "{f}{t}", "レストラン {k}", "{k} {t}", "{t} {g}"]).format(
                g=self.pick(GENERIC["ja"]), t=self.pick(TYPES["ja"]), f=family, k=self.cjk_word(loc))
            company = self.pick(["{f}商店", "{f}{t}", "{k}", "{g}{t}"]).format(
                f=family, t=self.pick(TYPES["ja"]), k=self.cjk_word(loc), g=self.pick(GENERIC["ja"]))
        else:
            branch = self.pick(KO_BRANCH).format(p=self.pick(KO_PLACES), d=r.randint(1, 9))
            chain = self.pick(KO_CHAINS).format(w=self.cjk_word(loc))
            small = self.pick(["{g} {t}", "{g}{t}", "{f}네 {t}", "카페 {w}", "{w}{t}"]).format(
                g=self.pick(GENERIC["ko"]), t=self.pick(TYPES["ko"]), f=self.pick(KO_SURNAMES) + self.pick(KO_GIVEN)[:1],
                w=self.cjk_word(loc))
            company = self.pick(["{w}", "{w}상사", "{g}{t}", "{w}유통"]).format(
                w=self.cjk_word(loc), g=self.pick(GENERIC["ko"]), t=self.pick(TYPES["ko"]))
        kind = r.random()
        if kind < 0.4:  # a chain's branch, on its line or under it
            return [chain, branch] if r.random() < 0.4 else [chain + " " + branch]
        if kind < 0.7:  # a company: its legal form before or after the name, with or without a space
            legal = self.pick(LEGAL[loc])
            sep = "" if legal.startswith("(") or r.random() < 0.3 else " "
            text = legal + sep + company if r.random() < 0.7 else company + sep + legal
            if r.random() < 0.3:
                return [text, branch]
            return [text]
        return [small]

    def cjk_address(self, loc):
        """`東京都渋谷区道玄坂2-6-1` (prefecture, ward or city, district, block numbers; a postcode and a
        building now and then) or `서울특별시 강남구 테헤란로 123`; returns (lines, the phone's area code)."""
        r = self.r
        lines = []
        if loc == "ja":
            pref = self.pick(list(JA_PREFS))
            city = self.pick(JA_PREFS[pref])
            district = self.pick(JA_DISTRICT[0]) + self.pick(JA_DISTRICT[1])
            a, b, c = r.randint(1, 9), r.randint(1, 30), r.randint(1, 25)
            nums = self.pick([f"{a}-{b}-{c}", f"{a}-{b}-{c}", f"{a}丁目{b}-{c}", f"{a}丁目{b}番{c}号", f"{b}-{c}"])
            sep = " " if r.random() < 0.25 else ""
            street = (pref if r.random() < 0.85 else "") + sep + city + district + nums
            postcode = f"〒{self.digits(3)}-{self.digits(4)}"
            if r.random() < 0.4:
                if r.random() < 0.5:
                    lines.append(postcode)
                else:
                    street = postcode + " " + street
            lines.append(street)
            if r.random() < 0.3:
                lines.append(self.pick(["{k}ビル{n}F", "{f}ビル {n}階", "{k}プラザ {n}F", "{p}駅ビル{n}F"]).format(
                    k=self.cjk_word(loc), f=self.pick(JA_SURNAMES), p=self.pick(JA_PLACES), n=r.randint(1, 9)))
            return lines, JA_AREAS[pref]
        sido = self.pick(list(KO_SIDO))
        gu = self.pick(KO_SIDO[sido])
        top = sido if r.random() < 0.75 else KO_SIDO_SHORT[sido]
        if r.random() < 0.8:  # a road address
            road = self.pick(["{w}로", "{w}대로", "{w}로{n}길", "{w}길", "중앙로", "테헤란로", "세종대로"]).format(
                w=self.cjk_word(loc), n=r.randint(1, 60))
            num = self.pick([str(r.randint(1, 500)), f"{r.randint(1, 300)}-{r.randint(1, 30)}"])
            street = f"{top} {gu} {road} {num}"
            if r.random() < 0.3:
                street += f" ({self.cjk_word(loc)}동)"
        else:  # a lot-number one
            street = f"{top} {gu} {self.cjk_word(loc)}동 {r.randint(1, 999)}-{r.randint(1, 99)}"
        if r.random() < 0.15:
            street = f"({self.digits(5)}) " + street
        lines.append(street)
        if r.random() < 0.3:
            building = self.pick(["{w}빌딩 {n}층", "{n}층", "{w}타워 {n}층 {n}0{d}호", "{w}프라자 1층"]).format(
                w=self.cjk_word(loc), n=r.randint(1, 12), d=r.randint(1, 9))
            if r.random() < 0.5:
                lines[-1] += " " + building
            else:
                lines.append(building)
        return lines, KO_AREAS[sido]

    def cjk_phone(self, loc, area):
        if loc == "ja":
            if len(area) == 2:
                rest = f"{self.digits(4)}-{self.digits(4)}"
            else:
                rest = f"{self.digits(3)}-{self.digits(4)}"
            pattern = self.pick(LOCALES[loc]["phone"])
            return pattern.replace("{num}", f"{area}-{rest}").replace("{area}", area).replace("{rest}", rest)
        if self.r.random() < 0.15:
            area = self.pick(["070", "1588", "1544"])
        mid = self.digits(self.r.choice([3, 4])) if len(area) < 4 else ""
        number = f"{area}-{mid}-{self.digits(4)}" if mid else f"{area}-{self.digits(4)}"
        return self.pick(LOCALES[loc]["phone"]).replace("{num}", number)

    def cjk_date(self, loc, when):
        """The printed date and time: `2024年11月08日(金) 18:42`, `2024年11月8日 18時42分`, `2024/11/08(金) 18:42`;
        `2024년 11월 08일 18:42`, `2024-11-08 18:42`, `2024.11.08 (금) 18:42:10`. (date, time)."""
        r, y, mo, d = self.r, when.year, when.month, when.day
        wd = (JA_WEEKDAYS if loc == "ja" else KO_WEEKDAYS)[when.weekday()]
        day = f"({wd})" if r.random() < 0.5 else ""
        if loc == "ja":
            date = self.pick([f"{y}年{mo:02d}月{d:02d}日", f"{y}年{mo}月{d}日", f"{y}/{mo:02d}/{d:02d}", f"{y}/{mo}/{d}",
                              f"{y}-{mo:02d}-{d:02d}", f"{y}年 {mo:2d}月{d:2d}日"]) + day
            time = self.pick([f"{when:%H:%M}", f"{when:%H:%M}", f"{when.hour}時{when.minute:02d}分", f"{when:%H:%M}:{r.randint(0, 59):02d}"])
        else:
            date = self.pick([f"{y}년 {mo:02d}월 {d:02d}일", f"{y}년 {mo}월 {d}일", f"{y}-{mo:02d}-{d:02d}", f"{y}.{mo:02d}.{d:02d}",
                              f"{y}/{mo:02d}/{d:02d}"]) + (" " + day if day and r.random() < 0.5 else day)
            h12 = when.hour % 12 or 12
            time = self.pick([f"{when:%H:%M}", f"{when:%H:%M}", f"{when:%H:%M}:{r.randint(0, 59):02d}",
                              ("오후" if when.hour >= 12 else "오전") + f" {h12:02d}:{when.minute:02d}"])
        return date, time

    def cjk_items(self, loc, form):
        """Item lines and the key's items: `おにぎり ツナマヨ  ¥140`, with `2個 x 単110  ¥220` under an item bought twice
        (the amount there or on the item's line); `삼각김밥  1,200원`, or a table of name, unit price, quantity and amount."""
        r, ja = self.r, loc == "ja"
        table = JA_ITEMS if ja else KO_ITEMS
        half = ja and r.random() < 0.17
        ko_table = not ja and r.random() < 0.35
        lines, keyed = [], []
        if ko_table:
            lines.append((self.pick(["상품명  단가  수량\t금액", "상 품 명   단 가  수 량\t금 액", "품명  단가  수량\t금액"]), "noise"))
        elif r.random() < 0.15:
            lines.append((self.pick(["品名\t金額", "商品名  数量\t金額"] if ja else ["상품명  수량\t금액", "품목\t금액"]), "noise"))
        reduced = ja and r.random() < 0.4  # the reduced rate's mark after the food (`※`, `*`, `軽`)
        mark = self.pick(["※", "*", "軽", "＊"])
        picked = []
        for _ in range(r.randint(1, 8)):
            desc, base = self.pick(table)
            if r.random() < 0.4:  # prices move: yen end in 0 or 8, won in 00
                base = max(10, round(base * r.uniform(0.8, 1.3) / 10) * 10 - (2 if ja and r.random() < 0.3 else 0)) if ja \
                    else max(100, round(base * r.uniform(0.8, 1.3) / 100) * 100)
            if half:
                desc = "".join(HALF_KANA.get(c, c) for c in desc)
            picked.append((r.choice([1, 1, 1, 1, 2, 3]), desc, base * 100))
        free = self.free_item(LOCALES[loc]["lang"])
        if free:
            picked.insert(self.mr.randint(0, len(picked)), free)
        for qty, desc, unit in picked:
            price = qty * unit
            shown = desc + (" " + mark if reduced and r.random() < 0.5 else "")
            if ko_table:
                lines.append((f"{shown}  {self.cjk_money(unit, '{}')}  {qty}\t{self.cjk_money(price, form)}", "item"))
            elif qty > 1 and r.random() < 0.6:
                lines.append((shown, "item"))
                under = self.pick(["{q}個 x 単{u}", "{q}個 X 単{u}", "@{u} x {q}個", "{q}点 × @{u}", "単{u} x {q}"] if ja
                                  else ["{u} x {q}", "{u} X {q}개", "@{u} x {q}", "{q}개 x {u}"]).format(q=qty, u=self.cjk_money(unit, "{}"))
                lines.append(("  " + under + "\t" + self.cjk_money(price, form), "item"))
            else:
                lines.append((shown + "\t" + self.cjk_money(price, form), "item"))
                if qty > 1 and r.random() < 0.5:
                    lines.append(("  " + self.pick(["({q}個 x @{u})", "{q}個 x 単{u}"] if ja else ["({u} x {q})", "{q}개 x {u}"])
                                  .format(q=qty, u=self.cjk_money(unit, "{}")), "noise"))
            keyed.append((qty, desc, price))
            for note in self.modifiers(LOCALES[loc]["lang"]):
                lines.append((note, "indented"))
            off = self.discount(LOCALES[loc]["lang"], price)
            if off and off[1] // 100:
                amount = -(-off[1] // 100 * 100)
                text = self.cjk_money(amount, form)
                if ja and self.mr.random() < 0.5:  # the discount's triangle: `値引 ▲50`
                    text = "▲" + self.cjk_money(-amount, form)
                lines.append((self.mr.choice(["", "  "]) + off[0] + "\t" + text, "indented"))
                keyed.append((1, off[0], -amount))
        return lines, keyed, reduced, mark

    def receipt_cjk(self, loc):
        """A Japanese or Korean receipt: printed lines (text, role) and its key, as receipt() gives them; amounts in
        whole yen or won, the tax in the price (内消費税, 부가세) or added to it (消費税等 外税), as tills print them."""
        r, spec, ja = self.r, LOCALES[loc], loc == "ja"
        lines = []
        when = dt.datetime(2015, 1, 1) + dt.timedelta(days=r.randint(0, 3650), minutes=r.randint(420, 1380))
        form = self.pick(spec["forms"])
        total_form = form if r.random() < 0.7 else self.pick(spec["forms"])
        self.cjk_forms = (form, total_form)  # for money(), which sections() calls
        if r.random() < 0.35:
            lines.append((self.cjk_fill(self.pick(spec["noise"][:3]), loc), "noise"))
        name_lines = self.cjk_name(loc)
        for n in name_lines:
            lines.append((n, "name"))
        address, area = self.cjk_address(loc)
        phone = self.cjk_phone(loc, area)
        phone_first = r.random() < 0.1
        if phone_first:
            lines.append((phone, "phone"))
        for a in address:
            lines.append((a, "address"))
        if not phone_first and r.random() < 0.85:
            lines.append((phone, "phone"))
        if r.random() < (0.5 if ja else 0.75):
            taxid = self.pick(spec["taxid"]).replace("{v13}", self.digits(13)).replace(
                "{biz}", f"{self.digits(3)}-{self.digits(2)}-{self.digits(5)}")
            lines.append((taxid, "noise"))
        if not ja and r.random() < 0.4:
            lines.append((self.pick(["대표자: ", "대표 ", "대표자 "]) + self.cjk_person(loc), "noise"))
        for _ in range(r.randint(0, 2)):
            lines.append((self.cjk_fill(self.pick(spec["noise"]), loc), "noise"))
        date_text, time_text = self.cjk_date(loc, when)
        label = self.pick(spec["datelabel"])
        label = label + (" " if label and not label.endswith(" ") else "")
        style = r.random()
        if style < 0.5:
            date_lines = [(label + date_text + " " + time_text, "date")]
        elif style < 0.75:
            date_lines = [(label + date_text + "\t" + time_text, "date")]
        elif style < 0.85:  # the till's number on the date's line
            date_lines = [(label + date_text + " " + time_text + "\t" + self.cjk_fill(self.pick(
                ["No.{n}", "レジ{d}", "責{d}{d}"] if ja else ["POS {d}", "No.{n}"]), loc), "date")]
        else:
            date_lines = [(label + date_text, "date"), (time_text, "noise")]
        date_last = r.random() < 0.2
        if not date_last:
            lines += date_lines
        if r.random() < 0.3:
            lines.append((self.cjk_fill(self.pick(spec["noise"][:2] + ["[領収書]", "領 収 証"] if ja else ["[고객용]", "영수증"]), loc), "noise"))
        item_lines, keyed, reduced, mark = self.cjk_items(loc, form)
        lines += item_lines
        count = sum(q for q, _, p in keyed if p >= 0)
        subtotal = sum(p for _, _, p in keyed)
        summary = []
        counted = r.random() < 0.4
        count_line = (self.pick(["合計点数\t{}点", "お買上点数\t{}点", "買上点数 {}点", "点数 {}点"] if ja
                                else ["총 수량\t{}", "수량 합계\t{}", "품목수량 {}개"]).format(count), "noise")
        if ja:
            rate = self.pick([8, 8, 10, 10, 10])
            inclusive = r.random() < 0.65
            units = subtotal // 100
            if inclusive:
                total = subtotal
                tax = units * rate // (100 + rate) * 100
            else:
                tax = units * rate // 100 * 100
                total = subtotal + tax
            if counted and r.random() < 0.5:
                summary.append(count_line)
            if not inclusive or r.random() < 0.6:
                summary.append((self.pick(spec["sub"]) + "\t" + self.cjk_money(subtotal, form), "subtotal"))
            if not inclusive:
                summary.append((self.pick([f"消費税等 {rate}%", f"外税 {rate}%", f"消費税({rate}%)", "消費税等", "外税"]) + "\t"
                                + self.cjk_money(tax, form), "tax"))
            total_line = (self.pick(spec["total"]) + "\t" + self.cjk_money(total, total_form), "total")
            tax_lines = []
            if inclusive:
                amount = self.cjk_money(tax, form)
                tax_lines = self.pick([[(f"(内消費税等 {rate}%\t{amount})", "tax")], [("(内消費税等\t" + amount + ")", "tax")],
                                       [(f"内税 {rate}%\t{amount}", "tax")],
                                       [(f"({rate}%対象\t{self.cjk_money(total, form)})", "noise"), ("(内消費税等\t" + amount + ")", "tax")],
                                       [(f"{rate}%対象\t{self.cjk_money(total, form)}", "noise"), ("内消費税\t" + amount, "tax")]])
        else:
            total = subtotal
            units = subtotal // 100
            supply = round(units / 1.1)
            vat = units - supply
            total_line = (self.pick(spec["total"]) + "\t" + self.cjk_money(total, total_form), "total")
            tax_lines = [(self.pick(spec["sub"]) + "\t" + self.cjk_money(supply * 100, form), "subtotal"),
                         (self.pick(spec["tax"]) + "\t" + self.cjk_money(vat * 100, form), "tax")]
            if r.random() < 0.2:
                tax_lines.insert(1, ("면세물품가액\t0", "noise"))
            if counted and r.random() < 0.5:
                summary.append(count_line)
            if r.random() < 0.5:  # the tax's lines before the total, or after it
                summary += tax_lines
                tax_lines = []
        summary.append(total_line)
        if counted and count_line not in summary:
            summary.append(count_line)
        tax_after_tender = ja and r.random() < 0.5
        if not tax_after_tender:
            summary += tax_lines
        if r.random() < 0.8:
            if r.random() < 0.3:  # by card or phone: the amount again, no change
                summary.append((self.pick(spec["card"]) + "\t" + self.cjk_money(total, form), "tender"))
                if not ja and r.random() < 0.7:
                    summary.append((f"카드번호: {self.digits(4)}-{self.digits(2)}**-****-{self.digits(4)}", "noise"))
                    summary.append((f"승인번호: {self.digits(8)}", "noise"))
                    summary.append((self.pick(["할부: 일시불", "일시불"]), "noise"))
            else:
                step = self.pick([1000, 1000, 5000, 10000]) * 100
                paid = total if r.random() < 0.2 else (total // step + 1) * step
                summary.append((self.pick(spec["tender"]) + "\t" + self.cjk_money(paid, form), "tender"))
                if paid != total or r.random() < 0.5:
                    summary.append((self.pick(spec["change"]) + "\t" + self.cjk_money(paid - total, form), "change"))
        if tax_after_tender:
            summary += tax_lines
        sectioned = self.sections(loc, "¥" if ja else "원", subtotal)
        if sectioned:
            summary, total = sectioned
        lines += summary
        if date_last:
            lines += date_lines
        if ja and r.random() < 0.3:
            lines.append((self.cjk_fill(self.pick(["レジ{d} 責No.{n}", "No.{n}", "取引番号 {n}"]), loc), "noise"))
        if r.random() < 0.1:  # a second date: a coupon's last day
            other = when + dt.timedelta(days=r.randint(7, 120))
            lines.append(((f"有効期限 {other.year}/{other.month:02d}/{other.day:02d}" if ja else
                           f"유효기간 {other:%Y-%m-%d}"), "noise"))
        if reduced and r.random() < 0.7:
            lines.append((f"{mark}は軽減税率(8%)対象商品", "noise"))
        for _ in range(r.randint(0, 3)):
            lines.append((self.cjk_fill(self.pick(spec["footer"]), loc), "noise"))
        key = {"company": " ".join(name_lines), "address": " ".join(address), "date": when.strftime("%Y-%m-%d"),
               "total": str(total // 100)}
        key["items"] = [{"description": desc, "quantity": qty, "amount": str(price // 100)} for qty, desc, price in keyed]
        return lines, key


def noisy(m, text, rate):
    out, i = [], 0
    while i < len(text):
        c = text[i]
        if m.r.random() < rate:
            kind = m.r.random()
            if text[i:i + 2] in CONFUSIONS and kind < 0.3:
                out.append(CONFUSIONS[text[i:i + 2]])
                i += 2
                continue
            if c in CONFUSIONS and kind < 0.7:
                out.append(CONFUSIONS[c])
            elif c == " " and kind < 0.85:
                pass  # a lost space
            elif kind < 0.92:
                out.append(c + " " if c != " " else c)
            else:
                pass  # a lost character
        else:
            out.append(c)
        i += 1
    return "".join(out)


def layout(m, lines, a4, cjk=None):
    """Boxes for the printed lines: (text, x, y, width, height) observations in page pixels. With `cjk` (ja, ko)
    widths are counted in half-width columns (a CJK monospaced font's: half an em, its wide letters one)."""
    r = m.r
    scale = r.uniform(0.5, 1.6)
    char = ((8 if a4 else 10) if cjk else (9 if a4 else 12)) * scale
    height = (16 if a4 else 20) * scale
    pitch = height * r.uniform(1.3, 1.8)
    width = (1240 if a4 else 576) * scale
    margin = (100 if a4 else 24) * scale
    x0, y = r.uniform(0, 200) * scale, r.uniform(40, 200) * scale
    drift = r.uniform(-0.012, 0.012)  # a photo's slight slope and bending, per line
    obs, aligns = [], []
    for n, (text, role) in enumerate(lines):
        h = height * (r.uniform(1.3, 2.2) if role == "name" and r.random() < 0.6 else 1) * r.uniform(0.9, 1.1)
        left, _, right = text.partition("\t")
        parts = []
        if a4 and role in ("name", "address", "phone"):
            parts.append((left, margin, "left"))
        elif role in ("name", "address", "phone", "noise") and not right and (not a4 or r.random() < 0.5):
            parts.append((left, (width - cols(left, cjk) * char * h / height) / 2, "centre"))
        else:
            if left.strip():
                parts.append((left, margin + (width * 0.45 if a4 and role in ("subtotal", "tax", "total", "tender", "change", "tip") else 0), "left"))
            if right:
                parts.append((right, width - margin - cols(right, cjk) * char, "right"))
        for text_part, x, align in parts:
            if (role == "indented" or cjk) and align == "left":  # its leading spaces move it right
                x += (len(text_part) - len(text_part.lstrip(" "))) * char * h / height
            t = text_part.strip()
            if not t:
                continue
            w = cols(t, cjk) * char * h / height
            if cjk and align == "right":  # the amounts' right edges in one column, whatever their heights
                x = width - margin - w
            obs.append((t, x0 + x + r.uniform(-3, 3), y + drift * x + r.uniform(-2, 2), w, h))
            aligns.append(align)
        y += max(pitch, h * 1.25)
    return obs, width + 2 * x0, y + 200 * scale, aligns, (x0, drift)


def document(m, ident, obs, page_w, page_h, rate, split_rate, cjk=None):
    observations = []
    for text, x, y, w, h in obs:
        t = noisy(m, text, rate)
        pieces = [t]
        # A line cut in two where it has a wide gap (PP-OCR's boxes), or two words run together.
        if m.r.random() < split_rate and "  " in t:
            pieces = [p for p in t.split("  ") if p.strip()]
        cx = x
        for piece in pieces:
            words, px = [], cx
            total = max(1, cols(piece, cjk))
            pw = w * cols(piece, cjk) / max(1, cols(t, cjk))
            for tok in piece.split():
                ww = pw * cols(tok, cjk) / total
                conf = m.r.uniform(0.6, 1.0) if m.r.random() < rate * 10 else m.r.uniform(0.93, 1.0)
                words.append({"text": tok, "confidence": conf, "boundingBox": {"x": round(px, 1), "y": round(y, 1), "width": round(ww, 1), "height": round(h, 1)}})
                px += pw * (cols(tok, cjk) + 1) / total
            if not words:
                continue
            observations.append({"text": " ".join(x["text"] for x in words), "confidence": min(x["confidence"] for x in words),
                                 "boundingBox": {"x": round(cx, 1), "y": round(y, 1), "width": round(pw, 1), "height": round(h, 1)},
                                 "words": words})
            cx += pw + 2 * w / max(1, cols(t, cjk))
    return {"schemaVersion": "1.0.0", "source": ident + ".png", "engine": {"name": "generated", "version": "1"},
            "pages": [{"index": 0, "width": round(page_w), "height": round(page_h), "textSource": "imported",
                       "observations": observations}], "warnings": []}


MONO_FONTS = ["dejavu/DejaVuSansMono.ttf", "dejavu/DejaVuSansMono-Bold.ttf", "liberation/LiberationMono-Regular.ttf",
              "liberation/LiberationMono-Bold.ttf"]
# Japanese and Korean receipts: Noto Sans CJK (Debian's fonts-noto-cjk), (file, face in the collection): mostly its
# monospaced faces (half-width Latin and kana, full-width kanji and hangul, as thermal printers print them).
CJK_FONT_DIR = "/usr/share/fonts/opentype/noto"
CJK_FONTS = {"ja": [("NotoSansCJK-Regular.ttc", 5), ("NotoSansCJK-Regular.ttc", 5), ("NotoSansCJK-Bold.ttc", 5),
                    ("NotoSansCJK-Regular.ttc", 0)],
             "ko": [("NotoSansCJK-Regular.ttc", 6), ("NotoSansCJK-Regular.ttc", 6), ("NotoSansCJK-Bold.ttc", 6),
                    ("NotoSansCJK-Regular.ttc", 1)]}


def render(obs, aligns, slope, page_w, page_h, rng, nrng, cjk=None):
    """The receipt as printed: each line's text drawn in a monospaced font where the layout put it
    (left, centred or right-aligned as laid out), on thermal or office paper, sometimes faded, then
    turned by the layout's slope (its lines' drift, taken out of each line and given back to the
    page as a whole, glyphs included), blurred and grained a little as a scanner or a lens would.
    Lines are drawn at least 12 pixels high. Japanese and Korean (`cjk`) in a face of Noto Sans CJK."""
    x0, drift = slope
    heights = sorted(o[4] for o in obs) or [20]
    k = max(1.0, 12 / heights[len(heights) // 2])
    size = (int(page_w * k), int(page_h * k))
    paper = rng.uniform(235, 255)
    img = Image.new("L", size, int(paper))
    draw = ImageDraw.Draw(img)
    if cjk:
        name, face = rng.choice(CJK_FONTS[cjk])
        path = os.path.join(CJK_FONT_DIR, name)
    else:
        path, face = os.path.join("/usr/share/fonts/truetype", rng.choice(MONO_FONTS)), 0
    ink = int(rng.choice([rng.uniform(0, 40), rng.uniform(0, 40), rng.uniform(60, 130)]))  # some thermal prints fade
    fonts = {}
    for (text, x, y, w, h), align in zip(obs, aligns):
        px = max(8, round(h * k))
        font = fonts.get(px) or fonts.setdefault(px, ImageFont.truetype(path, px, index=face))
        y -= drift * (x - x0)
        if align == "right":
            draw.text(((x + w) * k, y * k), text, font=font, fill=ink, anchor="ra")
        elif align == "centre":
            draw.text(((x + w / 2) * k, y * k), text, font=font, fill=ink, anchor="ma")
        else:
            draw.text((x * k, y * k), text, font=font, fill=ink, anchor="la")
    img = img.rotate(-math.degrees(math.atan(drift)), resample=Image.Resampling.BICUBIC, expand=True, fillcolor=int(paper))
    arr = np.asarray(img, np.float32) + nrng.normal(0, rng.uniform(1, 5), (img.size[1], img.size[0])).astype(np.float32)
    img = Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8)).filter(ImageFilter.GaussianBlur(rng.uniform(0.2, 0.8)))
    return img.convert("RGB")


def write_image(out, ident, obs, aligns, slope, page_w, page_h, seed, n, photo_share, cjk=None, bend_share=0.0):
    """OUT/img/IDENT.png (a flat scan) or .jpg (a photo on a table); for a photo, the page's corners in
    it (top left, top right, bottom right, bottom left) as OUT/corners/IDENT.json. `bend_share` of the photos
    are of a curled page (`photograph.bend`, its own random numbers, so 0 draws the same images as before)."""
    rng = random.Random(f"receipt-image/{seed}/{n}")
    nrng = np.random.default_rng([seed, n])
    page = render(obs, aligns, slope, page_w, page_h, rng, nrng, cjk)
    if rng.random() < photo_share:
        bent = False
        if bend_share > 0:
            brng = random.Random(f"receipt-bend/{seed}/{n}")
            if brng.random() < bend_share:
                page, bent = bend(page, brng), True
        img, corners = photograph_with_corners(page, rng, nrng)
        img.save(os.path.join(out, "img", ident + ".jpg"), quality=rng.randint(80, 92))
        if bent:
            # A curled slip has no four corners to judge a page finder by.
            return
        os.makedirs(os.path.join(out, "corners"), exist_ok=True)
        json.dump({"width": img.size[0], "height": img.size[1], "corners": [[round(x, 1), round(y, 1)] for x, y in corners]},
                  open(os.path.join(out, "corners", ident + ".json"), "w"))
    else:
        page.save(os.path.join(out, "img", ident + ".png"))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("--count", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--images", action="store_true", help="also draw each receipt as an image (OUT/img/), for reading "
                    "with real OCR; the generated text and its key stay the same as without")
    ap.add_argument("--photo-share", type=float, default=0.5, help="with --images: the share of photos on a table")
    ap.add_argument("--bend", type=float, default=0.0, help="with --images: the share of the photos whose slip curls "
                    "(rows turned by angles that change down the page); 0, the default, draws the same images as before")
    ap.add_argument("--locales", default=",".join(DEFAULT_LOCALES),
                    help=f"the locales drawn in turn, of {', '.join(LOCALES)} (default: {', '.join(DEFAULT_LOCALES)})")
    ap.add_argument("--modifiers", type=float, default=0.0,
                    help="the share of items printed with one or two unpriced option lines under them "
                         "(`No onion`, `+ Extra cheese`); a tenth as many get a discount under them, and a "
                         "sixth as many receipts an item at 0; 0, the default, draws the same receipts as before")
    ap.add_argument("--sections", type=float, default=0.0,
                    help="the share of receipts whose summary is in sections: goods taxed at two rates, each "
                         "section's sum, and the amount due under them (their sum); 0, the default, draws the "
                         "same receipts as before")
    ap.add_argument("--codes", type=float, default=0.0,
                    help="the share of receipts whose till prints each item's article code, count and unit price "
                         "over its name; 0, the default, draws the same receipts as before")
    ap.add_argument("--tails", type=float, default=0.0,
                    help="the share of receipts printed under the tail of the slip before (its last amounts, closing "
                         "words and till lines: a scan that caught two slips); 0, the default, draws the same "
                         "receipts as before")
    ap.add_argument("--dear", type=float, default=0.0,
                    help="the share of receipts whose items cost ten to a hundred times more, so that amounts with "
                         "thousands separators come up (`1 249,00`); 0, the default, draws the same receipts as before")
    a = ap.parse_args()
    if a.images:
        # Pillow and the shared photo step, read once: only drawing needs them.
        global Image, ImageDraw, ImageFilter, ImageFont, photograph_with_corners, bend
        from PIL import Image, ImageDraw, ImageFilter, ImageFont
        sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "photo"))
        from photograph import bend, photograph_with_corners
        os.makedirs(os.path.join(a.out, "img"), exist_ok=True)
    m = Maker(random.Random(a.seed), a.modifiers, random.Random(a.seed * 1000003 + 7),
              a.sections, random.Random(a.seed * 1000003 + 11), a.tails, random.Random(a.seed * 1000003 + 13),
              a.codes, random.Random(a.seed * 1000003 + 17), a.dear, random.Random(a.seed * 1000003 + 19))
    os.makedirs(os.path.join(a.out, "docs"), exist_ok=True)
    os.makedirs(os.path.join(a.out, "key"), exist_ok=True)
    locales = a.locales.split(",")
    unknown = [l for l in locales if l not in LOCALES]
    if unknown:
        ap.error(f"unknown locale {', '.join(unknown)}; known: {', '.join(LOCALES)}")
    if a.images and any(LOCALES[l].get("cjk") for l in locales):
        missing = sorted({f for l in locales for f, _ in CJK_FONTS.get(LOCALES[l].get("cjk"), [])
                          if not os.path.exists(os.path.join(CJK_FONT_DIR, f))})
        if missing:
            ap.error(f"drawing ja or ko needs Noto Sans CJK ({', '.join(missing)} in {CJK_FONT_DIR}: apt-get install fonts-noto-cjk)")
    for n in range(a.count):
        loc = locales[n % len(locales)]
        ident = f"gen-{a.seed}-{n:05d}"
        cjk = LOCALES[loc].get("cjk")
        lines, key = m.receipt(loc)
        lines = m.tail(loc) + lines
        a4 = m.r.random() < 0.2
        obs, w, h, aligns, slope = layout(m, lines, a4, cjk)
        rate = m.pick([0.0, 0.005, 0.01, 0.02, 0.04])
        doc = document(m, ident, obs, w, h, rate, 0.3, cjk)
        json.dump(doc, open(os.path.join(a.out, "docs", ident + ".json"), "w", encoding="utf-8"), ensure_ascii=False)
        json.dump(key, open(os.path.join(a.out, "key", ident + ".json"), "w", encoding="utf-8"), ensure_ascii=False)
        if a.images:
            write_image(a.out, ident, obs, aligns, slope, w, h, a.seed, n, a.photo_share, cjk, a.bend)
    print(f"{a.count} receipts -> {a.out}")


if __name__ == "__main__":
    main()
