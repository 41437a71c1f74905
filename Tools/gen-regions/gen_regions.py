#!/usr/bin/env python3
"""Writes the "regions" list of each locale file in Sources/ScanExtraction/Resources/Locales/: the names of
the first-level subdivisions (states, provinces, Länder, cantons, regions) of the countries where the
locale's language is written on receipts, from ISO 3166-2 as Debian's iso-codes package ships it
(/usr/share/iso-codes/json/iso_3166-2.json, LGPL-2.1-or-later; used as data).

A first-level subdivision is one without a parent; where a country's only parentless entries are
geographical groupings (Indonesia's islands), their children, the provinces, are taken too, and so are
Ireland's counties, which its addresses print (`Co. Offaly`). Names keep
their spelling and get a copy without diacritics (`Baden-Württemberg`, `BADEN-WURTTEMBERG`), as receipts
print both; bracketed notes go (`Wales [Cymru GB-CYM]`), and an inverted name keeps its head
(`Asturias, Principado de` -> `Asturias`).

Japanese and Korean are not written here: iso-codes names their prefectures and provinces in Latin letters, and their
receipts print them in their own script (`東京都`, `서울특별시`), so ja.json and ko.json keep lists of their own.

    apt-get install iso-codes
    python3 Tools/gen-regions/gen_regions.py [iso_3166-2.json]    # rewrites the locale files in place
"""
import json, os, re, sys, unicodedata

# The countries whose receipts a locale's language reads (ISO 3166-1 alpha-2): the larger ones, whose
# subdivisions are few and named (counties and departments of smaller ones are often common words).
COUNTRIES = {
    "en": ["US", "GB", "CA", "AU", "NZ", "IE", "IN", "PH", "ZA"],
    "ms": ["MY", "BN"],
    "id": ["ID"],
    "de": ["DE", "AT", "CH", "LI"],
    "fr": ["FR", "BE", "CH", "CA", "LU"],
    "es": ["ES", "MX", "AR", "CO", "CL", "PE"],
    "it": ["IT", "CH", "SM"],
    "nl": ["NL", "BE"],
    "pt": ["PT", "BR"],
    "pl": ["PL"],
}
GROUPINGS = {"Geographical unit"}
# Countries whose addresses print a second-level subdivision rather than the first: Ireland's counties
# (`Co. Offaly`, `County Cork`) under its four provinces, which addresses leave out.
SECOND_LEVEL = {"IE"}

def plain(s):
    return "".join(c for c in unicodedata.normalize("NFKD", s) if not unicodedata.combining(c))

def cleaned(name):
    name = re.sub(r"\s*\[.*?\]\s*", " ", name).strip()
    head, _, tail = name.partition(",")
    if tail:
        if not head[:1].isupper():
            return None
        name = head.strip()
    return name if sum(c.isalpha() for c in name) >= 4 else None

def regions(entries, countries):
    by_code = {e["code"]: e for e in entries}
    out = []
    for cc in countries:
        mine = [e for e in entries if e["code"].startswith(cc + "-")]
        top = [e for e in mine if "parent" not in e]
        groups = {e["code"] for e in top if e["type"] in GROUPINGS}
        chosen = [e for e in top if e["code"] not in groups]
        chosen += [e for e in mine if e.get("parent") and f"{cc}-{e['parent']}" in groups]
        if cc in SECOND_LEVEL:
            chosen += [e for e in mine if e.get("parent")]
        for e in chosen:
            n = cleaned(e["name"])
            if n is None:
                continue
            for form in (n, plain(n)):
                form = form.upper()
                if form not in out:
                    out.append(form)
    return out

def formatted(words, indent):
    lines, cur = [], ""
    for w in words:
        item = json.dumps(w, ensure_ascii=False)
        if cur and len(cur) + len(item) + 2 > 110 - indent:
            lines.append(cur + ",")
            cur = item
        else:
            cur = f"{cur}, {item}" if cur else item
    lines.append(cur)
    return ("\n" + " " * indent).join(lines)

def main():
    src = sys.argv[1] if len(sys.argv) > 1 else "/usr/share/iso-codes/json/iso_3166-2.json"
    entries = json.load(open(src, encoding="utf-8"))["3166-2"]
    folder = os.path.join(os.path.dirname(__file__), "../../Sources/ScanExtraction/Resources/Locales")
    for lang, countries in COUNTRIES.items():
        path = os.path.join(folder, lang + ".json")
        text = open(path, encoding="utf-8").read()
        text = re.sub(r'\n  "regions": \[.*?\],', "", text, flags=re.S)
        names = regions(entries, countries)
        block = '\n  "regions": [' + formatted(names, len('  "regions": [')) + "],"
        at = text.index('\n  "countries":')
        text = text[:at] + block + text[at:]
        json.loads(text)
        open(path, "w", encoding="utf-8").write(text)
        print(lang, len(names), file=sys.stderr)

main()
