#!/usr/bin/env python3
"""Generated receipts for the receipt field rankers: recognized text with boxes, as PP-OCR's
observations would give it, and the key of each receipt, in several locales and layouts.

    Tools/train-receipt-fields/make_receipts.py OUT_DIR [--count 1000] [--seed 1]

Writes OUT_DIR/docs/gen-NNNNN.json (scanextract Document JSON, `textSource: imported`) and
OUT_DIR/key/gen-NNNNN.json (`company`, `address`, `date` as ISO, `total`), the form train.py reads.

Locales: en-US, en-GB, de, fr, es, it, nl, ms, id (the default, drawn in turn), pt-PT, pt-BR and pl
(`--locales pt-PT,pt-BR,pl`), and xx, a made-up language no locale file knows (`--locales xx`), with
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
largest amount); for the field rankers, off by default with the same guarantee.
Nothing here ships: the files are training data for train.py, made again by this command.

With `--images` each receipt is also drawn, so that real OCR reads it instead of the simulated noise:
OUT/img/gen-NNNNN.png, a flat scan (the page turned by its slope), or .jpg, a photo of it on a table
(`Tools/photo/photograph.py`, the card generator's; share set by `--photo-share`, default 0.5), with
OUT/corners/gen-NNNNN.json giving where the page's corners are in the photo. The text, the docs and
the keys are the same as without `--images` (the drawing draws its own random numbers), so
`scanextract -q -o OUT2 OUT/img` then `score_receipts.py OUT2 OUT/key` measures the whole pipeline on
receipts in nine locales, and the same receipts' docs measure the parser alone. Needs numpy and Pillow.
"""
import argparse
import datetime as dt
import json
import math
import os
import random
import re
import sys

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
}

LEGAL = {"en-US": ["LLC", "Inc.", "INC", "Corp.", "Co."], "en-GB": ["Ltd", "LTD", "Limited", "PLC"],
         "de": ["GmbH", "GmbH & Co. KG", "e.K.", "OHG", "AG"], "fr": ["SARL", "SAS", "EURL", "SA"],
         "es": ["S.L.", "S.A.", "SL"], "it": ["S.r.l.", "S.p.A.", "S.n.c.", "SRL"], "nl": ["B.V.", "BV", "V.O.F."],
         "ms": ["SDN BHD", "SDN. BHD.", "S/B", "ENTERPRISE", "TRADING", "BERHAD"], "id": ["PT", "CV", "Tbk"],
         "pt-PT": ["Lda.", "LDA", "Unipessoal Lda.", "S.A."], "pt-BR": ["Ltda.", "LTDA", "ME", "EIRELI", "S.A."],
         "pl": ["Sp. z o.o.", "SP. Z O.O.", "S.A.", "Sp.j.", "Sp. k."]}

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
}

# What a till prints for a discount under the item it takes off.
DISCOUNTS = {
    "en": ["Discount", "Happy Hour", "Promo", "Coupon", "Member Discount", "Staff Disc", "10% off"],
    "de": ["Rabatt", "Nachlass", "Aktion", "Mitarbeiterrabatt"], "fr": ["Remise", "Réduction", "Promo"],
    "es": ["Descuento", "Promoción", "Dto."], "it": ["Sconto", "Promozione"], "nl": ["Korting", "Actie"],
    "ms": ["DISKAUN", "PROMOSI", "DISC"], "id": ["Diskon", "Potongan", "Promo"], "pt": ["Desconto", "Promoção"],
    "pl": ["Rabat", "Promocja", "Upust"],
}
MODIFIERS["xx"], DISCOUNTS["xx"] = XX_WORDS["modifiers"], XX_WORDS["discounts"]


class Maker:
    def __init__(self, rng, modifier_rate=0.0, modifier_rng=None, section_rate=0.0, section_rng=None):
        self.r = rng
        # Options under the items, and summaries in sections, draw from their own generators, so a seed
        # drawn without them is unchanged.
        self.modifier_rate = modifier_rate
        self.mr = modifier_rng
        self.section_rate = section_rate
        self.sr = section_rng

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
        return self.mr.choice(DISCOUNTS[lang]), -off

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
                "it": "IVA incl.", "nl": "incl. btw", "pt": "c/ IVA", "pl": "z VAT"}.get(spec["lang"], s.choice(spec["tax"]))
        excl = {"en": "excl. Tax", "ms": "excl. GST", "id": "tanpa PPN", "de": "ohne MwSt", "fr": "HT", "es": "sin IVA",
                "it": "senza IVA", "nl": "excl. btw", "pt": "s/ IVA", "pl": "bez VAT"}.get(spec["lang"], s.choice(spec["sub"]))
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

    def fill(self, pattern):
        fields = {"n": str(self.r.randint(1, 99999)), "d": str(self.r.randint(1, 9)), "person": self.pick(PERSONS),
                  "web": self.word().lower(), "a": self.digits(3), "b": self.digits(3), "c": self.digits(4),
                  "a2": self.digits(2), "b2": self.digits(2), "c2": self.digits(2), "d2": self.digits(2),
                  "v9": self.digits(9), "v8": self.digits(8), "v6": self.digits(6), "L": self.pick("ABDHKMPTUVWX")}
        return pattern.format(**fields)

    def money(self, loc, cents, symbol="", rng=None):
        spec, rng = LOCALES[loc], rng or self.r
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
        if r.random() < 0.9:
            for _ in range(r.randint(1, 8)):
                qty = r.choice([1, 1, 1, 2, 3])
                unit = r.randint(50, 4000) if spec["cents"] else r.randint(5, 150) * 1000 * 100 // 100
                price = qty * unit if spec["cents"] else qty * unit * 100
                desc = self.pick(ITEMS[spec["lang"]])
                if r.random() < 0.3:
                    desc = desc.upper()
                items.append((qty, desc, price))
            free = self.free_item(spec["lang"])
            if free:
                items.insert(self.mr.randint(0, len(items)), free)
        if items and r.random() < 0.3:
            lines.append((self.pick(["Qty Item\tAmount", "Description\tTotal", "QTY DESCRIPTION\tPRICE", "Artikel\tBetrag"]), "noise"))
        keyed = []  # the key's items in print order: a discount is one of its own, as receipt keys list it
        for qty, desc, price in items:
            text = (f"{qty} " if r.random() < 0.6 else "") + desc
            lines.append((text + "\t" + self.money(loc, price), "item"))
            keyed.append((qty, desc, price))
            if qty > 1 and r.random() < 0.3:
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
        inclusive = spec["lang"] in ("de", "fr", "it", "nl", "es", "pt", "pl") and r.random() < 0.6
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


def layout(m, lines, a4):
    """Boxes for the printed lines: (text, x, y, width, height) observations in page pixels."""
    r = m.r
    scale = r.uniform(0.5, 1.6)
    char = (9 if a4 else 12) * scale
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
            parts.append((left, (width - len(left) * char * h / height) / 2, "centre"))
        else:
            if left.strip():
                parts.append((left, margin + (width * 0.45 if a4 and role in ("subtotal", "tax", "total", "tender", "change", "tip") else 0), "left"))
            if right:
                parts.append((right, width - margin - len(right) * char, "right"))
        for text_part, x, align in parts:
            if role == "indented" and align == "left":  # its leading spaces move it right
                x += (len(text_part) - len(text_part.lstrip(" "))) * char * h / height
            t = text_part.strip()
            if not t:
                continue
            w = len(t) * char * h / height
            obs.append((t, x0 + x + r.uniform(-3, 3), y + drift * x + r.uniform(-2, 2), w, h))
            aligns.append(align)
        y += max(pitch, h * 1.25)
    return obs, width + 2 * x0, y + 200 * scale, aligns, (x0, drift)


def document(m, ident, obs, page_w, page_h, rate, split_rate):
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
            total = max(1, len(piece))
            pw = w * len(piece) / max(1, len(t))
            for tok in piece.split():
                ww = pw * len(tok) / total
                conf = m.r.uniform(0.6, 1.0) if m.r.random() < rate * 10 else m.r.uniform(0.93, 1.0)
                words.append({"text": tok, "confidence": conf, "boundingBox": {"x": round(px, 1), "y": round(y, 1), "width": round(ww, 1), "height": round(h, 1)}})
                px += pw * (len(tok) + 1) / total
            if not words:
                continue
            observations.append({"text": " ".join(x["text"] for x in words), "confidence": min(x["confidence"] for x in words),
                                 "boundingBox": {"x": round(cx, 1), "y": round(y, 1), "width": round(pw, 1), "height": round(h, 1)},
                                 "words": words})
            cx += pw + 2 * w / max(1, len(t))
    return {"schemaVersion": "1.0.0", "source": ident + ".png", "engine": {"name": "generated", "version": "1"},
            "pages": [{"index": 0, "width": round(page_w), "height": round(page_h), "textSource": "imported",
                       "observations": observations}], "warnings": []}


MONO_FONTS = ["dejavu/DejaVuSansMono.ttf", "dejavu/DejaVuSansMono-Bold.ttf", "liberation/LiberationMono-Regular.ttf",
              "liberation/LiberationMono-Bold.ttf"]


def render(obs, aligns, slope, page_w, page_h, rng, nrng):
    """The receipt as printed: each line's text drawn in a monospaced font where the layout put it
    (left, centred or right-aligned as laid out), on thermal or office paper, sometimes faded, then
    turned by the layout's slope (its lines' drift, taken out of each line and given back to the
    page as a whole, glyphs included), blurred and grained a little as a scanner or a lens would.
    Lines are drawn at least 12 pixels high."""
    x0, drift = slope
    heights = sorted(o[4] for o in obs) or [20]
    k = max(1.0, 12 / heights[len(heights) // 2])
    size = (int(page_w * k), int(page_h * k))
    paper = rng.uniform(235, 255)
    img = Image.new("L", size, int(paper))
    draw = ImageDraw.Draw(img)
    path = os.path.join("/usr/share/fonts/truetype", rng.choice(MONO_FONTS))
    ink = int(rng.choice([rng.uniform(0, 40), rng.uniform(0, 40), rng.uniform(60, 130)]))  # some thermal prints fade
    fonts = {}
    for (text, x, y, w, h), align in zip(obs, aligns):
        px = max(8, round(h * k))
        font = fonts.get(px) or fonts.setdefault(px, ImageFont.truetype(path, px))
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


def write_image(out, ident, obs, aligns, slope, page_w, page_h, seed, n, photo_share):
    """OUT/img/IDENT.png (a flat scan) or .jpg (a photo on a table); for a photo, the page's corners in
    it (top left, top right, bottom right, bottom left) as OUT/corners/IDENT.json."""
    rng = random.Random(f"receipt-image/{seed}/{n}")
    nrng = np.random.default_rng([seed, n])
    page = render(obs, aligns, slope, page_w, page_h, rng, nrng)
    if rng.random() < photo_share:
        img, corners = photograph_with_corners(page, rng, nrng)
        img.save(os.path.join(out, "img", ident + ".jpg"), quality=rng.randint(80, 92))
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
    a = ap.parse_args()
    if a.images:
        # Pillow and the shared photo step, read once: only drawing needs them.
        global Image, ImageDraw, ImageFilter, ImageFont, photograph_with_corners
        from PIL import Image, ImageDraw, ImageFilter, ImageFont
        sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "photo"))
        from photograph import photograph_with_corners
        os.makedirs(os.path.join(a.out, "img"), exist_ok=True)
    m = Maker(random.Random(a.seed), a.modifiers, random.Random(a.seed * 1000003 + 7),
              a.sections, random.Random(a.seed * 1000003 + 11))
    os.makedirs(os.path.join(a.out, "docs"), exist_ok=True)
    os.makedirs(os.path.join(a.out, "key"), exist_ok=True)
    locales = a.locales.split(",")
    unknown = [l for l in locales if l not in LOCALES]
    if unknown:
        ap.error(f"unknown locale {', '.join(unknown)}; known: {', '.join(LOCALES)}")
    for n in range(a.count):
        loc = locales[n % len(locales)]
        ident = f"gen-{a.seed}-{n:05d}"
        lines, key = m.receipt(loc)
        a4 = m.r.random() < 0.2
        obs, w, h, aligns, slope = layout(m, lines, a4)
        rate = m.pick([0.0, 0.005, 0.01, 0.02, 0.04])
        doc = document(m, ident, obs, w, h, rate, 0.3)
        json.dump(doc, open(os.path.join(a.out, "docs", ident + ".json"), "w", encoding="utf-8"), ensure_ascii=False)
        json.dump(key, open(os.path.join(a.out, "key", ident + ".json"), "w", encoding="utf-8"), ensure_ascii=False)
        if a.images:
            write_image(a.out, ident, obs, aligns, slope, w, h, a.seed, n, a.photo_share)
    print(f"{a.count} receipts -> {a.out}")


if __name__ == "__main__":
    main()
