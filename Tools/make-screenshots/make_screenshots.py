#!/usr/bin/env python3
"""Screenshots of e-receipts as shopping and delivery apps show them, with their keys.

    Tools/make-screenshots/make_screenshots.py OUT --kind app --count 60 --seed 3
    Tools/make-screenshots/make_screenshots.py OUT --kind delivery --count 30 --seed 4

Each receipt is an HTML page rendered by Chromium at a phone's width (390 CSS pixels, 2 or 3
device pixels a CSS pixel): `OUT/img/<kind>-S-NNN.png`, the page in `OUT/html/`, and the key in
`OUT/key/` in the form `../shared/eval/score_receipts.py` reads (company, address, date, total,
items; a delivery bill's key adds its subtotal and tax).

- `app`: a supermarket's e-receipt in German, US English, Dutch or French: a title bar, the
  shop, its address, a date (numeric or written out), articles with a weight or a count in
  small type under them or a count before the name, a tax code after some prices, discounts,
  long names, then the sums and the payment; a phone's status bar and the app's tab bar on some.
- `delivery`: a US delivery app's bill: articles with their options, the subtotal, sometimes a
  promotion, the delivery fee (or `Free`), the service fee, the taxes, sometimes a tip, the
  total and the card.

A discount is a line of the key's items, negative, as scanextract lists it. The shops, streets
and articles are made up. Needs `chromium` (Debian's package); nothing here ships or trains a
model.
"""
import argparse
import datetime
import json
import os
import random
import subprocess
from decimal import Decimal as D

LOCALES = {
    "de": dict(
        cur="€", after=True, dec=",", title=["Mein Kassenbon", "Digitaler Bon", "Einkauf"], sum=["Summe", "SUMME"],
        tax="davon MwSt. 7%", due=["Zu zahlen", "Gesamt", "Total"], pay=["Kartenzahlung", "EC-Karte", "Bar"],
        items=["Vollmilch 3,5%", "Roggenbrot", "Bio Bananen", "Mineralwasser", "Gouda jung", "Butter",
               "Äpfel Elstar", "Kaffee Crema", "Joghurt Natur", "Nudeln Spaghetti", "Tomaten", "Hähnchenbrust"],
        streets=["Lindenallee 17", "Hauptstraße 4", "Bahnhofstraße 21", "Gartenweg 9"],
        towns=["34567 Bergheim", "80331 München", "50667 Köln"], date="%d.%m.%Y", time="%H:%M", disc="Rabatt",
        weight="{q} kg x {p} €/kg", count="{q} x {p} €",
        shops=["Frischmarkt Sonnenfeld", "Nahkauf Weber", "Biomarkt Grünhof"],
        written=lambda d: f"{d.day}. {MONTHS['de'][d.month - 1]} {d.year}, {d:%H:%M} Uhr"),
    "en-US": dict(
        cur="$", after=False, dec=".", title=["Receipt", "Order details", "Your purchase"], sum=["Subtotal"],
        tax="Sales Tax", due=["Total", "Order Total"], pay=["Visa •••• 4242", "Apple Pay", "Mastercard •••• 1881"],
        items=["Organic Whole Milk", "Sourdough Loaf", "Bananas", "Sparkling Water", "Cheddar Cheese",
               "Greek Yogurt", "Baby Spinach", "Coffee Beans", "Eggs Large 12ct", "Orange Juice"],
        streets=["812 Maple Avenue", "45 Elm Street", "1200 Market St"],
        towns=["Springfield, OR 97477", "Austin, TX 78701", "Denver, CO 80202"], date="%m/%d/%Y", time="%I:%M %p",
        disc="Coupon", weight="{q} lb @ ${p}/lb", count="{q} @ ${p}",
        shops=["Green Valley Grocers", "Corner Market", "Fresh Pantry"],
        written=lambda d: f"{MONTHS['en'][d.month - 1]} {d.day}, {d.year} at {d:%I:%M %p}"),
    "nl": dict(
        cur="€", after=False, dec=",", title=["Digitale kassabon", "Bonnetje", "Aankoop"], sum=["Subtotaal"],
        tax="BTW 9%", due=["Totaal", "Te betalen"], pay=["Pinnen", "Contant"],
        items=["Halfvolle melk", "Appels Elstar", "Volkorenbrood", "Kaas jong belegen", "Koffiebonen", "Bananen",
               "Yoghurt", "Pindakaas"],
        streets=["Dorpsstraat 12", "Kerkweg 3", "Molenlaan 88"], towns=["1234 AB Molendam", "3511 LK Utrecht"],
        date="%d-%m-%Y", time="%H:%M", disc="Korting", weight="{q} kg x € {p}/kg", count="{q} x € {p}",
        shops=["Versmarkt Weidehof", "Buurtsuper De Linde"],
        written=lambda d: f"{d.day} {MONTHS['nl'][d.month - 1]} {d.year} om {d:%H:%M}"),
    "fr": dict(
        cur="€", after=True, dec=",", title=["Mon ticket", "Ticket de caisse"], sum=["Sous-total"],
        tax="dont TVA 5,5%", due=["Total", "TOTAL À PAYER"], pay=["Carte bancaire", "Espèces"],
        items=["Lait demi-écrémé", "Baguette tradition", "Pommes Gala", "Eau minérale", "Comté 12 mois",
               "Beurre doux", "Café moulu", "Yaourt nature"],
        streets=["12 rue des Lilas", "5 avenue Foch"], towns=["75011 Paris", "69002 Lyon"], date="%d/%m/%Y",
        time="%H:%M", disc="Remise", weight="{q} kg x {p} €/kg", count="{q} x {p} €",
        shops=["Épicerie du Marché", "Primeur Martin"],
        written=lambda d: f"{d.day} {MONTHS['fr'][d.month - 1]} {d.year} à {d:%H:%M}"),
}
MONTHS = {
    "de": ["Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober", "November",
           "Dezember"],
    "en": ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December"],
    "nl": ["januari", "februari", "maart", "april", "mei", "juni", "juli", "augustus", "september", "oktober",
           "november", "december"],
    "fr": ["janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre",
           "novembre", "décembre"],
}
THEMES = [
    dict(bg="#f2f2f2", fg="#111", bar="#cc071e", card="#fff", muted="#777"),
    dict(bg="#f6f6f6", fg="#222", bar="#0a5cad", card="#fff", muted="#666"),
    dict(bg="#000", fg="#eee", bar="#1f6f3f", card="#1c1c1e", muted="#999"),
]
CSS = """body{margin:0;font-family:'%(font)s',sans-serif;background:%(bg)s;color:%(fg)s}
.st{display:flex;justify-content:space-between;padding:8px 22px;font-size:15px;font-weight:bold}
.bar{background:%(bar)s;color:#fff;padding:14px 18px;font-size:20px;font-weight:bold}
.card{margin:12px;padding:14px;background:%(card)s;border-radius:12px}
.row{display:flex;justify-content:space-between;font-size:16px;margin:7px 0}
.row span:last-child{white-space:nowrap;padding-left:12px}
.sub{font-size:13px;color:%(muted)s;margin:-4px 0 6px 0}
.tot{font-size:20px;font-weight:bold;border-top:1px solid %(muted)s;padding-top:8px}
.nav{position:fixed;bottom:0;left:0;right:0;display:flex;justify-content:space-around;padding:10px;font-size:12px;
background:%(card)s;color:%(muted)s}
.h{font-size:22px;font-weight:bold;text-align:center}.c{text-align:center;font-size:14px;color:%(muted)s}"""
MENU = [("Chicken Burrito", 999, ["Extra guac (+$1.50)", "No onions"]), ("Carnitas Tacos", 1149, ["Corn tortillas"]),
        ("Chips & Salsa", 399, []), ("Horchata", 349, ["Large"]), ("Pad Thai", 1395, ["Spicy level 3"]),
        ("Spring Rolls", 695, []), ("Thai Iced Tea", 450, []), ("Margherita Pizza", 1599, ["Thin crust"]),
        ("Caesar Salad", 1099, ["Add chicken (+$4.00)"]), ("Garlic Knots", 599, [])]


def row(a, b, cls="row"):
    return f'<div class="{cls}"><span>{a}</span><span>{b}</span></div>'


def money(cents, loc):
    s = f"{abs(cents) / 100:.2f}"
    if loc["dec"] == ",":
        s = s.replace(".", ",")
    s = f"{s} {loc['cur']}" if loc["after"] else loc["cur"] + ("" if loc["cur"] == "$" else " ") + s
    return ("-" if cents < 0 else "") + s


def number(v, loc, places=2):
    s = f"{v:.{places}f}"
    return s.replace(".", ",") if loc["dec"] == "," else s


def status_bar(rng):
    return f'<div class="st"><span>{rng.randint(8, 11)}:{rng.randint(10, 59)}</span><span>5G {rng.randint(20, 99)}%</span></div>'


def app_receipt(rng):
    code = rng.choice(list(LOCALES))
    loc = LOCALES[code]
    theme = dict(rng.choice(THEMES), font=rng.choice(["Liberation Sans", "DejaVu Sans", "Liberation Serif"]))
    when = datetime.datetime(2024, rng.randint(1, 12), rng.randint(1, 28), rng.randint(7, 21), rng.randint(0, 59))
    html, items, total = [], [], 0
    if rng.random() < 0.7:
        html.append(status_bar(rng))
    shop, street, town = rng.choice(loc["shops"]), rng.choice(loc["streets"]), rng.choice(loc["towns"])
    printed_date = loc["written"](when) if rng.random() < 0.4 else when.strftime(loc["date"] + " " + loc["time"])
    html.append(f'<div class="bar">{rng.choice(loc["title"])}</div><div class="card"><div class="h">{shop}</div>')
    html.append(f'<div class="c">{street}</div><div class="c">{town}</div><div class="c">{printed_date}</div>')
    html.append('</div><div class="card">')
    tax_codes = code == "de" and rng.random() < 0.5
    for name in rng.sample(loc["items"], rng.randint(3, 7)):
        r = rng.random()
        if r < 0.15:  # weighed, the weight and its price a unit in small type under the name
            places = 2 if code == "en-US" else 3
            q = (D(rng.randint(300, 2500)) / 1000).quantize(D(1).scaleb(-places))
            p = D(rng.randint(99, 1299)) / 100
            amount = int((q * p * 100).quantize(D(1)))
            html += [row(name, money(amount, loc)),
                     f'<div class="sub">{loc["weight"].format(q=number(q, loc, places), p=number(p, loc))}</div>']
            items.append(dict(description=name, amount=f"{amount / 100:.2f}", quantity=str(q)))
        elif r < 0.35:  # counted, the count and its price under the name
            q, p = rng.randint(2, 6), rng.randint(49, 499)
            amount = q * p
            html += [row(name, money(amount, loc)),
                     f'<div class="sub">{loc["count"].format(q=q, p=number(p / 100, loc))}</div>']
            items.append(dict(description=name, amount=f"{amount / 100:.2f}", quantity=q))
        elif r < 0.5:  # the count before the name
            q, p = rng.randint(2, 4), rng.randint(99, 699)
            amount = q * p
            html.append(row(f'{q}{rng.choice(["x ", " x ", "× "])}{name}', money(amount, loc)))
            items.append(dict(description=name, amount=f"{amount / 100:.2f}", quantity=q))
        else:
            amount = rng.randint(59, 1599)
            if rng.random() < 0.2:
                name += " " + rng.choice(["Premium Qualität", "extra fein 500 g", "family pack 6 x 330 ml"])
            html.append(row(name, money(amount, loc) + ((" " + rng.choice("AB")) if tax_codes else "")))
            items.append(dict(description=name, amount=f"{amount / 100:.2f}", quantity=1))
        total += amount
        if rng.random() < 0.1:
            off = -rng.randint(10, min(100, amount - 1))
            html.append(row(loc["disc"], money(off, loc)))
            items.append(dict(description=loc["disc"], amount=f"{off / 100:.2f}"))
            total += off
    tax = int(round(total * 0.07))
    summary = [(rng.choice(loc["sum"]), money(total, loc)), (loc["tax"], money(tax, loc)),
               (rng.choice(loc["due"]), money(total, loc))]
    html.append('</div><div class="card">')
    html += [row(a, b, "row tot" if i == len(summary) - 1 else "row") for i, (a, b) in enumerate(summary)]
    html.append('</div><div class="card">' + row(rng.choice(loc["pay"]), money(total, loc)) + "</div>")
    if rng.random() < 0.5:
        html.append('<div class="nav"><span>Home</span><span>Scan</span><span>Bons</span><span>Profil</span></div>')
    key = dict(company=shop, address=f"{street} {town}", date=when.strftime("%Y-%m-%d"), total=f"{total / 100:.2f}",
               items=items)
    return CSS % theme, "".join(html), key, rng.choice([844, 926, 1000])


def delivery_bill(rng):
    loc = LOCALES["en-US"]
    theme = dict(THEMES[0], font=rng.choice(["Liberation Sans", "DejaVu Sans"]), bar="#fff", card="#fff")
    shop = rng.choice(["Casa Verde Taqueria", "Bangkok Garden", "Nonna Rosa Pizzeria"])
    when = datetime.datetime(2024, rng.randint(1, 12), rng.randint(1, 28), rng.randint(11, 21), rng.randint(0, 59))
    html, items, subtotal = [], [], 0
    if rng.random() < 0.7:
        html.append(status_bar(rng))
    html.append(f'<div class="card"><div class="h">{shop}</div><div class="c">Order #{rng.randint(10000, 99999)} · '
                f'{when:%b} {when.day}, {when.year}, {when:%I:%M %p}</div></div><div class="card">')
    for name, price, options in rng.sample(MENU, rng.randint(2, 5)):
        q = rng.choice([1, 1, 1, 2])
        extra = sum(150 if "+$1.50" in o else 400 if "+$4.00" in o else 0 for o in options)
        amount = q * (price + extra)
        subtotal += amount
        html.append(row(f"{q}x {name}" if rng.random() < 0.5 else f"{q} × {name}", money(amount, loc)))
        html += [f'<div class="sub">{o}</div>' for o in options]
        items.append(dict(description=name, quantity=q, amount=f"{amount / 100:.2f}"))
    fee = rng.choice([0, 199, 299, 399])
    service, tax = int(round(subtotal * 0.15)), int(round(subtotal * 0.0875))
    tip, promo = rng.choice([0, 200, int(subtotal * 0.18)]), rng.choice([0, 0, -500])
    total = subtotal + fee + service + tax + tip + promo
    html.append('</div><div class="card">' + row("Subtotal", money(subtotal, loc)))
    if promo:
        html.append(row("Promotion", money(promo, loc)))
        items.append(dict(description="Promotion", amount=f"{promo / 100:.2f}"))
    html += [row("Delivery Fee", money(fee, loc) if fee else "Free"), row("Service Fee", money(service, loc)),
             row("Taxes", money(tax, loc))]
    if tip:
        html.append(row(rng.choice(["Dasher Tip", "Tip"]), money(tip, loc)))
    html.append(row("Total", money(total, loc), "row tot") + "</div>")
    html.append('<div class="card">' + row(f"Visa •••• {rng.randint(1000, 9999)}", money(total, loc)) + "</div>")
    key = dict(company=shop, date=when.strftime("%Y-%m-%d"), total=f"{total / 100:.2f}",
               subtotal=f"{subtotal / 100:.2f}", tax=f"{tax / 100:.2f}", items=items)
    return CSS % theme, "".join(html), key, 1000


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("--kind", choices=["app", "delivery"], default="app")
    ap.add_argument("--count", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--chromium", default="chromium")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    out = os.path.abspath(args.out)
    for d in ("img", "html", "key"):
        os.makedirs(os.path.join(out, d), exist_ok=True)
    make = app_receipt if args.kind == "app" else delivery_bill
    for k in range(args.count):
        css, body, key, height = make(rng)
        name = f"{args.kind}-{args.seed}-{k:03d}"
        page = os.path.join(out, "html", name + ".html")
        with open(page, "w") as f:
            f.write(f'<html><head><meta charset="utf-8"><style>{css}</style></head><body>{body}</body></html>')
        scale = rng.choice([2, 3])
        subprocess.run([args.chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                        f"--screenshot={os.path.join(out, 'img', name + '.png')}", f"--window-size=390,{height}",
                        f"--force-device-scale-factor={scale}", "file://" + page], capture_output=True, check=True)
        with open(os.path.join(out, "key", name + ".json"), "w") as f:
            json.dump(key, f, ensure_ascii=False)
    print(f"{args.count} {args.kind} screenshots -> {out}")


if __name__ == "__main__":
    main()
