#!/usr/bin/env python3
"""Puts a made-up header and footer around each receipt of a folder of Document JSON:

    Tools/train-items/augment.py IN_DIR OUT_DIR [--seed 1]

CORD's word labels cover only the items and the totals, so its documents start at the
first item. A model trained on them alone has never seen a receipt's head (shop name,
address, phone, date, cashier, table, order number) or its foot (thanks, web site,
survey codes, card slip), and reads them as items. This adds such lines, in several
languages, above and below the original lines (which move down when there is no room
above them: `augment-shifts.txt` says by how much), with boxes sized from
the receipt's own text height; the training tool labels every added line O. Half the
receipts also lose the count before each item's name, and half print their amounts in
units and cents (`75.00` for `75,000`), as tills elsewhere do. Names,
streets and numbers are drawn at random from small generic lists: no real shop.
"""
import json
import os
import random
import re
import sys

SHOPS = ["Warung {n}", "{n} Cafe", "{n} Bakery", "Restoran {n}", "{n} Market", "Bistro {n}", "{n} Kitchen", "Toko {n}",
         "{n} Supermarkt", "Boulangerie {n}", "{n} & Co", "{n} Coffee House", "Trattoria {n}", "{n} Grill", "{n} Burger"]
NAMES = ["Sari", "Maple", "Golden", "Blue Door", "Sunrise", "Kirana", "Lindner", "Bellevue", "Rossi", "Harbor", "Melati",
         "Oak Tree", "Nusantara", "Central", "Corner", "Mercado", "Fischer", "Dupont", "Garcia", "Green Leaf"]
STREETS = ["Jl. {w} No. {d}", "{d} {w} Street", "{w}str. {d}", "{d} rue {w}", "Calle {w} {d}", "Via {w} {d}",
           "{d} {w} Ave Suite {d2}", "Ruko {w} Blok {L} No. {d}", "{d} {w} Rd", "{w}weg {d}"]
WORDS = ["Sudirman", "Main", "Haupt", "Victor Hugo", "Mayor", "Roma", "Pine", "Merdeka", "Garden", "Linden", "Lake", "Station"]
CITIES = ["Jakarta Selatan 12190", "Springfield, IL 62704", "10115 Berlin", "75011 Paris", "28013 Madrid", "20121 Milano",
          "Bandung 40115", "Portland, OR 97205", "1012 AB Amsterdam", "Surabaya", "Leeds LS1 4AP"]
FOOT = ["Thank you", "THANK YOU FOR YOUR VISIT", "Terima kasih", "Vielen Dank fur Ihren Einkauf", "Merci de votre visite",
        "Gracias por su compra", "Grazie e arrivederci", "Please come again", "Follow us @{n}", "www.{n}.com",
        "Survey code: {d}-{d2}-{d3}", "Wifi password: {n}{d2}", "Barang yang sudah dibeli tidak dapat dikembalikan",
        "Customer copy", "Powered by {n} POS", "Keep this receipt for returns", "Kassenbon bitte aufbewahren",
        "Points earned: {d2}", "Member: ****{d4}", "Visa ************{d4}", "Approval code {d3}", "TID {d}  MID {d3}"]
HEAD = ["Tel {p}", "Telp. {p}", "Phone: {p}", "NPWP {d2}.{d3}.{d3}.{d}-{d3}.000", "USt-IdNr DE{d3}{d3}{d3}",
        "{date} {time}", "Date: {date}  Time: {time}", "Cashier: {n}", "Kasir: {n}", "Server: {n}  Table {d2}",
        "Table {d2}  Guests {g}", "Order #{d3}{d2}", "No. {d4}-{d3}", "Bill No: {d3}{d2}", "Receipt {d4}",
        "Kasse {g}  Bon {d4}", "Check #{d2}  {date}", "Dine In", "Take Away", "Meja {d2}  Pax {g}", "Station {g}  Op {d2}",
        "Open {time} - 22:00", "Tisch {d2}", "Caisse {g} Ticket {d4}"]


def fill(t, rnd):
    n = rnd.choice(NAMES)
    d = lambda k: "".join(rnd.choice("0123456789") for _ in range(k))
    return t.format(n=n, w=rnd.choice(WORDS), d=str(rnd.randint(1, 299)), d2=d(2), d3=d(3), d4=d(4), L=rnd.choice("ABCDE"),
                    g=rnd.randint(1, 8), p=rnd.choice(["(0{a}) {b}-{c}", "+{a} {b} {c}", "0{a}-{b}{c}"]).format(
                        a=d(2), b=d(3), c=d(4)),
                    date=rnd.choice(["{a}/{b}/20{c}", "{a}.{b}.20{c}", "20{c}-{b}-{a}"]).format(
                        a=rnd.randint(10, 28), b=rnd.randint(10, 12), c=rnd.randint(15, 25)),
                    time=f"{rnd.randint(7, 22):02d}:{rnd.randint(0, 59):02d}")


def line(text, x, y, h, cw):
    words, obs_x = [], x
    for w in text.split():
        width = len(w) * cw
        words.append({"text": w, "confidence": 1.0, "boundingBox": {"x": obs_x, "y": y, "width": width, "height": h}})
        obs_x += width + cw
    return {"text": text, "confidence": 1.0, "words": words,
            "boundingBox": {"x": x, "y": y, "width": obs_x - cw - x, "height": h}}


COUNT = re.compile(r"^(?:\d{1,2}[xX]?|[xX]\d{1,2})$")
GROUPED = re.compile(r"^(-?)(\d{1,3}(?:[.,]\d{3})+)$")


def restyle(o, strip_counts, decimals):
    """The same line as another till prints it: without the count before the name (`1 x Nasi`
    becomes `Nasi`), or with amounts in units and cents (`75,000` becomes `75.00`)."""
    words = o.get("words") or []
    if strip_counts and len(words) >= 3 and COUNT.match(words[0]["text"]) and any(c.isalpha() for c in o["text"]):
        words = words[1:]
        if words and words[0]["text"] in ("x", "X", "@"):
            words = words[1:]
    if decimals:
        for w in words:
            m = GROUPED.match(w["text"])
            if m:
                digits = int(re.sub(r"\D", "", m.group(2)))
                w["text"] = f"{m.group(1)}{digits // 1000:,}.{digits % 1000 // 10:02d}"
    if words:
        o["words"] = words
        o["text"] = " ".join(w["text"] for w in words)
        x0 = min(w["boundingBox"]["x"] for w in words)
        x1 = max(w["boundingBox"]["x"] + w["boundingBox"]["width"] for w in words)
        o["boundingBox"]["x"], o["boundingBox"]["width"] = x0, x1 - x0


def augment(doc, rnd):
    page = doc["pages"][0]
    obs = page["observations"]
    if not obs:
        return doc
    strip_counts, decimals = rnd.random() < 0.5, rnd.random() < 0.5
    for o in obs:
        restyle(o, strip_counts, decimals)
    hs = sorted(o["boundingBox"]["height"] for o in obs)
    h = hs[len(hs) // 2]
    cw = 0.55 * h
    left = min(o["boundingBox"]["x"] for o in obs)
    right = max(o["boundingBox"]["x"] + o["boundingBox"]["width"] for o in obs)
    mid = (left + right) / 2
    top = min(o["boundingBox"]["y"] for o in obs)
    pitch = 1.6 * h
    head = [(fill(rnd.choice(SHOPS), rnd), 1.5)]
    head += [(fill(rnd.choice(STREETS), rnd), 1.0), (rnd.choice(CITIES), 1.0)][: rnd.randint(0, 2)]
    head += [(fill(t, rnd), 1.0) for t in rnd.sample(HEAD, rnd.randint(1, 5))]
    foot = [(fill(t, rnd), 1.0) for t in rnd.sample(FOOT, rnd.randint(0, 4))]
    centred = rnd.random() < 0.6
    added_h = sum(pitch * s for _, s in head) + pitch
    new = []
    y = max(0, top - added_h) if top > added_h else top
    shift = 0 if top > added_h else added_h
    for text, scale in head:
        hh = h * scale
        width = len(text) * cw * scale
        x = mid - width / 2 if centred else left
        new.append(line(text, x, y, hh, cw * scale))
        y += pitch * scale
    for o in obs:
        o["boundingBox"]["y"] += shift
        for w in o.get("words", []):
            w["boundingBox"]["y"] += shift
    bottom = max(o["boundingBox"]["y"] + o["boundingBox"]["height"] for o in obs) + pitch
    for text, _ in foot:
        width = len(text) * cw
        new.append(line(text, mid - width / 2 if centred else left, bottom, h, cw))
        bottom += pitch
    doc["_shift"] = shift
    page["observations"] = new + obs
    page["height"] = max(page.get("height", 0), bottom + pitch)
    page["observations"].sort(key=lambda o: o["boundingBox"]["y"])
    return doc


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    src, dst = sys.argv[1], sys.argv[2]
    seed = int(sys.argv[4]) if len(sys.argv) > 4 and sys.argv[3] == "--seed" else 1
    os.makedirs(dst, exist_ok=True)
    shifts = {}
    for f in sorted(os.listdir(src)):
        if not f.endswith(".json"):
            continue
        rnd = random.Random(f"{seed}:{f}")
        doc = json.load(open(os.path.join(src, f), encoding="utf-8"))
        doc = augment(doc, rnd)
        shifts[f] = doc.pop("_shift", 0)
        json.dump(doc, open(os.path.join(dst, f), "w", encoding="utf-8"))
    # How far the original lines moved down, for the labels' boxes (train_items.py reads it).
    with open(os.path.join(dst, "augment-shifts.txt"), "w") as out:
        for f, v in shifts.items():
            out.write(f"{f} {v}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
