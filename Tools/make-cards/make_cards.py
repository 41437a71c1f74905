#!/usr/bin/env python3
"""Synthetic business cards with ground truth, for measuring card extraction on cards
the project was never tuned on.

    Tools/make-cards/make_cards.py OUT --count N --seed S

Writes OUT/img/gen-S-NNNN.png (flat scans) or .jpg (photos of the card on a table) and
OUT/gt/gen-S-NNNN.json in the form `score_cards.py` reads: name (full as printed, given,
family), title, department (always null), organization, phones (type, number as printed
without its label, E.164), emails, urls (as printed), address (printed lines joined with
", ", and the printed street, city, region, postal code) or null, country, capture.

Content comes from Faker's locale providers (names, jobs, companies, streets, towns,
postcodes) for US, UK, CA, AU, IE, DE, FR and a few ES, IT, NL, AT, CH cards; phone
numbers are drawn at random and kept only when libphonenumber (the `phonenumbers` port)
says they are valid numbers of the wanted kind for the country. Layouts, fonts, colours,
label words and number formats vary per card. The same seed gives the same cards (for
the same Faker and phonenumbers versions).
"""
import argparse
import json
import os
import random
import re
import sys
import unicodedata

import numpy as np
from PIL import Image, ImageDraw, ImageFont

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "photo"))
from photograph import hsv, photograph  # noqa: E402

try:
    from faker import Faker
except ImportError:  # pragma: no cover
    sys.exit("make_cards.py needs Faker: pip install faker")
try:
    import phonenumbers as pn
    from phonenumbers import PhoneNumberFormat as PNF
    from phonenumbers import PhoneNumberType as PNT
except ImportError:  # pragma: no cover
    sys.exit("make_cards.py needs phonenumbers: pip install phonenumbers")

FONT_DIR = "/usr/share/fonts/truetype"

# ----------------------------------------------------------------------------------------
# Countries

# code printed in the ground truth -> settings. `iso` is the address's country code.
COUNTRIES = {
    "US": dict(locale="en_US", iso="US", lang="en", weight=18, tlds=["com"] * 9 + ["net", "us"],
               names=["USA", "United States", "U.S.A."], eu=False),
    "UK": dict(locale="en_GB", iso="GB", lang="en", weight=14, tlds=["co.uk"] * 6 + ["com", "uk"],
               names=["United Kingdom", "UK", "England"], eu=True),
    "CA": dict(locale="en_CA", iso="CA", lang="en", weight=10, tlds=["ca"] * 3 + ["com"],
               names=["Canada"], eu=False),
    "AU": dict(locale="en_AU", iso="AU", lang="en", weight=10, tlds=["com.au"] * 4 + ["com"],
               names=["Australia"], eu=True),
    "IE": dict(locale="en_IE", iso="IE", lang="en", weight=7, tlds=["ie"] * 3 + ["com"],
               names=["Ireland"], eu=True),
    "DE": dict(locale="de_DE", iso="DE", lang="de", weight=14, tlds=["de"] * 5 + ["com"],
               names=["Deutschland", "Germany"], eu=True),
    "FR": dict(locale="fr_FR", iso="FR", lang="fr", weight=11, tlds=["fr"] * 4 + ["com"],
               names=["France"], eu=True),
    "ES": dict(locale="es_ES", iso="ES", lang="es", weight=3, tlds=["es"] * 3 + ["com"],
               names=["España", "Spain"], eu=True),
    "IT": dict(locale="it_IT", iso="IT", lang="it", weight=3, tlds=["it"] * 3 + ["com"],
               names=["Italia", "Italy"], eu=True),
    "NL": dict(locale="nl_NL", iso="NL", lang="nl", weight=3, tlds=["nl"] * 3 + ["com"],
               names=["Nederland", "The Netherlands"], eu=True),
    "AT": dict(locale="de_AT", iso="AT", lang="de", weight=3, tlds=["at"] * 3 + ["com"],
               names=["Österreich", "Austria"], eu=True),
    "CH": dict(locale="de_CH", iso="CH", lang="de", weight=3, tlds=["ch"] * 3 + ["com"],
               names=["Schweiz", "Switzerland"], eu=True),
}

# Titles people print on cards, mixed with the locale's Faker jobs. "A|B" is a title's
# masculine and feminine forms.
CARD_TITLES = {
    "en": ["CEO", "Founder", "Co-Founder", "Founder & CEO", "Managing Director", "Director", "Sales Manager",
           "Account Manager", "Software Engineer", "Senior Software Engineer", "Senior Consultant", "Partner",
           "Managing Partner", "Owner", "President", "Vice President", "VP of Sales", "Marketing Director",
           "Head of Operations", "Project Manager", "Office Manager", "Financial Advisor", "CTO", "CFO", "COO",
           "Chief Technology Officer", "Business Development Manager", "Principal", "Associate",
           "Real Estate Agent", "Architect", "Attorney at Law", "Customer Success Manager", "Product Designer",
           "Operations Director", "Regional Sales Manager", "General Manager", "Sales Representative",
           "Marketing Coordinator", "Creative Director", "Head of Engineering", "Consultant", "Broker",
           "Chartered Accountant", "Solicitor", "Data Scientist", "UX Designer", "Executive Assistant"],
    "de": ["Geschäftsführer|Geschäftsführerin", "Inhaber|Inhaberin", "Vertriebsleiter|Vertriebsleiterin",
           "Projektleiter|Projektleiterin", "Prokurist|Prokuristin", "Key Account Manager",
           "Leiter Marketing|Leiterin Marketing", "Softwareentwickler|Softwareentwicklerin",
           "Steuerberater|Steuerberaterin", "Rechtsanwalt|Rechtsanwältin", "Architekt|Architektin",
           "Teamleiter Einkauf|Teamleiterin Einkauf", "Vorstand", "Kundenberater|Kundenberaterin",
           "Bereichsleiter Vertrieb|Bereichsleiterin Vertrieb", "Vertriebsingenieur|Vertriebsingenieurin",
           "Sachbearbeiter|Sachbearbeiterin", "Berater|Beraterin", "Gesellschafter|Gesellschafterin",
           "Leiter Personal|Leiterin Personal", "Außendienst", "Managing Director", "Sales Manager",
           "Head of Sales"],
    "fr": ["Directeur commercial|Directrice commerciale", "Directeur général|Directrice générale",
           "Gérant|Gérante", "Chef de projet", "Responsable marketing", "Ingénieur commercial|Ingénieure commerciale",
           "Consultant|Consultante", "Président|Présidente", "Fondateur|Fondatrice",
           "Chargé d'affaires|Chargée d'affaires", "Responsable des ventes", "Expert-comptable", "Avocat|Avocate",
           "Architecte", "Directeur technique|Directrice technique", "Assistant de direction|Assistante de direction",
           "Conseiller clientèle|Conseillère clientèle", "Responsable administratif|Responsable administrative",
           "PDG", "Directeur des opérations|Directrice des opérations"],
    "es": ["Director General|Directora General", "Gerente", "Director Comercial|Directora Comercial",
           "Jefe de Proyecto|Jefa de Proyecto", "Responsable de Marketing", "Consultor|Consultora",
           "Abogado|Abogada", "Socio Fundador|Socia Fundadora", "Ingeniero de Software|Ingeniera de Software",
           "Director de Ventas|Directora de Ventas", "Asesor Financiero|Asesora Financiera",
           "Arquitecto|Arquitecta", "Jefe de Compras|Jefa de Compras"],
    "it": ["Amministratore Delegato", "Direttore Commerciale|Direttrice Commerciale", "Responsabile Marketing",
           "Consulente", "Titolare", "Project Manager", "Ingegnere", "Avvocato", "Responsabile Vendite",
           "Architetto", "Direttore Tecnico|Direttrice Tecnica", "Area Manager", "Commercialista"],
    "nl": ["Directeur", "Eigenaar", "Accountmanager", "Adviseur", "Projectleider", "Manager Verkoop",
           "Oprichter", "Software-ontwikkelaar", "Commercieel Directeur", "Office Manager", "Consultant",
           "Bedrijfsleider", "Senior Adviseur"],
}

PREFIXES = {
    "en": ["Dr.", "Dr.", "Prof.", "Dr"],
    "de": ["Dr.", "Dr.", "Prof. Dr.", "Dipl.-Ing.", "Dr.-Ing."],
    "fr": ["Dr", "Dr", "Pr", "Me"],
    "es": ["Dr.|Dra.", "Dr.|Dra.", "Lic."],
    "it": ["Dott.|Dott.ssa", "Ing.", "Avv.", "Arch."],
    "nl": ["Dr.", "Ir.", "Drs.", "mr."],
}
AT_PREFIXES = ["Mag.", "Dr.", "DI", "Ing.", "Mag. Dr."]
SUFFIXES = {
    "en": [", PhD", ", MBA", ", CPA", ", Esq.", ", MD", ", CFA", ", PE", ", Ph.D.", ", MSc", ", FCA"],
    "de": [", MBA", ", LL.M.", ", M.Sc.", ", MBA"],
    "fr": [", MBA", ", PhD"],
    "es": [", MBA", ", PhD"],
    "it": [", MBA", ", PhD"],
    "nl": [", MBA", " MSc", " RA", ", PhD"],
}

# Label sets per language: (work, mobile, fax, email, web). `None` means no label.
LABELS = {
    "en": {
        "letter": (["T", "P", "O"], ["M", "C"], ["F"], ["E"], ["W"]),
        "word": (["Tel", "Tel.", "Phone", "Office", "Direct", "Ph", "Main"], ["Mobile", "Mob", "Cell", "Mob."],
                 ["Fax"], ["Email", "E-mail", "Mail"], ["Web", "Website", "Online"]),
    },
    "de": {
        "letter": (["T", "T."], ["M", "M."], ["F", "F."], ["E"], ["W", "I"]),
        "word": (["Tel.", "Telefon", "Fon", "Tel"], ["Mobil", "Handy", "Mobil.", "Mobiltelefon"], ["Fax", "Telefax"],
                 ["E-Mail", "Mail", "E-mail"], ["Web", "Internet", "Web"]),
    },
    "fr": {
        "letter": (["T", "T."], ["M", "P"], ["F"], ["E"], ["W"]),
        "word": (["Tél.", "Tél", "Tel", "Standard", "Ligne directe"], ["Portable", "Mobile", "Mob.", "Port."],
                 ["Fax", "Télécopie"], ["Email", "E-mail", "Courriel", "Mail"], ["Web", "Site", "Site web"]),
    },
    "es": {
        "letter": (["T", "T."], ["M", "M."], ["F"], ["E"], ["W"]),
        "word": (["Tel.", "Teléfono", "Tlf."], ["Móvil", "Móv.", "Cel."], ["Fax"], ["Email", "Correo", "E-mail"],
                 ["Web"]),
    },
    "it": {
        "letter": (["T", "T."], ["M", "C"], ["F"], ["E"], ["W"]),
        "word": (["Tel.", "Tel", "Telefono", "Uff."], ["Cell.", "Mob.", "Cellulare", "Cell"], ["Fax"],
                 ["E-mail", "Email", "Mail"], ["Web", "Sito"]),
    },
    "nl": {
        "letter": (["T", "T."], ["M", "M."], ["F"], ["E"], ["W", "I"]),
        "word": (["Tel.", "Telefoon", "Tel"], ["Mobiel", "Mob.", "Mob"], ["Fax"], ["E-mail", "Email"],
                 ["Web", "Internet"]),
    },
}

LEGAL_WORDS = {
    "inc", "llc", "ltd", "plc", "limited", "corp", "corporation", "co", "company", "group", "gmbh", "ag", "kg",
    "ohg", "gbr", "eg", "ev", "mbh", "und", "and", "et", "y", "e", "en", "sa", "sarl", "sas", "snc", "sl", "sc",
    "scp", "slne", "scoop", "scom", "sat", "srl", "spa", "bv", "nv", "og", "gesbr", "cie", "sons", "figli", "son",
    "shne", "soehne", "söhne", "pty", "the", "asociados", "de", "van", "der", "den", "le", "la", "koninklijke",
    "royal", "kgaa", "ug", "haftungsbeschrankt",
}

US_STREET_ABBR = {"Street": "St", "Avenue": "Ave", "Drive": "Dr", "Road": "Rd", "Boulevard": "Blvd",
                  "Lane": "Ln", "Court": "Ct", "Place": "Pl", "Parkway": "Pkwy", "Highway": "Hwy",
                  "Terrace": "Ter", "Square": "Sq", "Circle": "Cir", "Expressway": "Expy", "Mountain": "Mtn",
                  "Heights": "Hts", "Point": "Pt", "Trail": "Trl", "Crescent": "Cres"}


# ----------------------------------------------------------------------------------------
# Small text helpers

def fold(s, lang="en"):
    """ASCII letters and digits only, lowercased (umlauts as ae/oe/ue for German)."""
    if lang == "de":
        for a, b in (("ä", "ae"), ("ö", "oe"), ("ü", "ue"), ("Ä", "Ae"), ("Ö", "Oe"), ("Ü", "Ue")):
            s = s.replace(a, b)
    s = s.replace("ß", "ss").replace("æ", "ae").replace("ø", "o").replace("ł", "l").replace("œ", "oe")
    s = unicodedata.normalize("NFKD", s)
    s = "".join(c for c in s if not unicodedata.combining(c))
    return s.encode("ascii", "ignore").decode().lower()


def cap_first(s):
    return s[:1].upper() + s[1:] if s else s


def title_case(s):
    small = {"of", "and", "for", "in", "the", "to", "a", "on", "at"}
    words = s.split(" ")
    out = []
    for i, w in enumerate(words):
        if i > 0 and w.lower() in small:
            out.append(w.lower())
        else:
            out.append(w[:1].upper() + w[1:])
    return " ".join(out)


# ----------------------------------------------------------------------------------------
# Content

def make_name(fake, code, cfg, rng):
    lang = cfg["lang"]
    female = rng.random() < 0.5
    given = fake.first_name_female() if female else fake.first_name_male()
    family = fake.last_name()
    # a few Faker surnames come in index form ("Dussen van", "Bourgondië, van"): put the particle first
    m = re.fullmatch(r"(.+?),? ((?:van|von|de|der|den|zu)(?: (?:der|den|de))?)", family)
    if m:
        family = f"{m.group(2)} {m.group(1)}"
    middle = ""
    if code in ("US", "CA") and rng.random() < 0.12:
        middle = rng.choice("ABCDEFGHJKLMNPRSTW") + "."
    if code == "FR" and rng.random() < 0.3:
        family = family.upper()
    if rng.random() < 0.08:
        given, family, middle = given.upper(), family.upper(), middle.upper()
    prefix = suffix = ""
    r = rng.random()
    if r < 0.08:
        prefix = gendered(rng.choice(AT_PREFIXES if code == "AT" else PREFIXES[lang]), female)
    elif r < 0.15:
        suffix = rng.choice(SUFFIXES[lang])
    parts = [p for p in (prefix, given, middle, family) if p]
    full = " ".join(parts) + suffix
    return {"full": full, "given": given, "family": family}, female


def gendered(s, female):
    """'A|B' -> B for a woman, A otherwise."""
    if "|" not in s:
        return s
    m, f = s.split("|", 1)
    return f if female else m


def clean_job(job, lang, female, rng):
    job = job.strip()
    job = re.sub(r"\s*\((m/w/d|w/m/d|m/f/d)\)", "", job)
    if "*in" in job or "/in" in job:
        job = re.sub(r"[*/]in\b", "in" if female else "", job)
    if lang == "fr":
        # Faker's French jobs give both forms in a row ("designer industriel industrielle")
        words = job.split(" ")
        out = []
        i = 0
        while i < len(words):
            a = words[i]
            b = words[i + 1] if i + 1 < len(words) else ""
            if b and b != a and len(a) > 3 and b.startswith(a[:max(3, len(a) - 3)]):
                out.append(b if female else a)
                i += 2
            else:
                out.append(a)
                i += 1
        job = " ".join(out)
    elif lang == "de" and female:
        if job.endswith("kaufmann"):
            job = job[:-4] + "frau"
        elif job.endswith("er") and not job.endswith("ter") and " " not in job:
            job += "in"
    if "," in job or "(" in job or "/" in job or len(job) > 40 or len(job) < 3:
        return None
    job = cap_first(job)
    if lang == "en" and rng.random() < 0.5:
        job = title_case(job)
    return job


def make_title(fake, cfg, female, rng):
    if rng.random() < 0.10:
        return None
    lang = cfg["lang"]
    # Faker's it_IT, nl_NL and de_CH jobs are the English list: use them less there.
    p_job = 0.6 if cfg["locale"] in ("en_US", "en_GB", "en_CA", "en_AU", "en_IE", "de_DE", "fr_FR",
                                      "es_ES", "de_AT") else 0.3
    if rng.random() < p_job:
        for _ in range(12):
            t = clean_job(fake.job(), lang, female, rng)
            if t:
                return t
    pool = CARD_TITLES[lang]
    if lang != "en" and rng.random() < 0.2:
        pool = CARD_TITLES["en"]
    return gendered(rng.choice(pool), female)


def make_org(fake, cfg, rng):
    if rng.random() < 0.10:
        return None
    org = fake.company()
    if rng.random() < 0.06:
        org = org.upper()
    return org


def domain_stem(org, name, cfg, rng):
    lang = cfg["lang"]
    if org:
        words = re.split(r"[\s,&\-+]+", org)
        keep = []
        for w in words:
            f = re.sub(r"[^a-z0-9]", "", fold(w, lang))
            if not f or f in LEGAL_WORDS:
                continue
            keep.append(f)
        if not keep:
            keep = [re.sub(r"[^a-z0-9]", "", fold(name["family"], lang))]
        stem = "".join(keep)
        if len(stem) > 18 and len(keep) > 1:
            stem = keep[0] if rng.random() < 0.6 else keep[0] + keep[1][:1]
        if len(stem) < 4 and rng.random() < 0.7:
            stem += rng.choice(["group", "co", "consulting", "partners", "tech", "design"])
        return stem
    fam = re.sub(r"[^a-z0-9]", "", fold(name["family"], lang))
    return fam + rng.choice(["", "consulting", "law", "design", "studio", "advisory", "tech"])


def make_email(name, domain, cfg, rng):
    lang = cfg["lang"]
    g = re.sub(r"[^a-z0-9-]", "", fold(name["given"], lang))
    f = re.sub(r"[^a-z0-9-]", "", fold(name["family"], lang).replace(" ", ""))
    r = rng.random()
    if r < 0.05:
        local = rng.choice({"de": ["info", "kontakt", "office", "mail"], "fr": ["contact", "info"],
                            "es": ["info", "contacto"], "it": ["info", "contatti"],
                            "nl": ["info", "contact"]}.get(lang, ["info", "hello", "office", "contact"]))
    else:
        forms = [f"{g}.{f}", f"{g}.{f}", f"{g[:1]}.{f}", f"{g}", f"{g[:1]}{f}", f"{g}{f}", f"{g}_{f}",
                 f"{f}", f"{g}{f[:1]}"]
        local = rng.choice(forms)
    local = local.strip(".-_") or "info"
    return f"{local}@{domain}"


def make_url(domain, rng):
    return rng.choice([f"www.{domain}"] * 5 + [f"https://{domain}", f"https://www.{domain}", domain,
                                                f"http://www.{domain}", f"www.{domain}/"])


def phone_lengths(code, kind):
    """National significant number lengths usual for the kind, or None for the metadata's."""
    table = {("DE", "fixed"): [10, 11], ("DE", "mobile"): [10, 11], ("AT", "fixed"): [9, 10, 11],
             ("AT", "mobile"): [10, 11], ("IT", "fixed"): [9, 10], ("IT", "mobile"): [10],
             ("IE", "fixed"): [8, 9], ("NL", "mobile"): [9], ("UK", "fixed"): [10]}
    return table.get((code, kind))


def random_phone(code, cfg, kind, rng):
    """A random number valid for the country and of the kind ('fixed' or 'mobile')."""
    region = cfg["iso"]
    md = pn.PhoneMetadata.metadata_for_region(region)
    desc = md.fixed_line if kind == "fixed" else md.mobile
    lengths = phone_lengths(code, kind) or list(desc.possible_length) or list(md.general_desc.possible_length)
    if kind == "fixed":
        wanted = {PNT.FIXED_LINE, PNT.FIXED_LINE_OR_MOBILE}
    else:
        wanted = {PNT.MOBILE, PNT.FIXED_LINE_OR_MOBILE}
    for _ in range(200000):
        n = rng.choice(lengths)
        first = "0" if (region == "IT" and kind == "fixed") else str(rng.randint(1, 9))
        digits = first + "".join(str(rng.randint(0, 9)) for _ in range(n - 1))
        try:
            num = pn.parse(digits, region)
        except pn.NumberParseException:
            continue
        if pn.national_significant_number(num) != digits:
            continue
        if pn.is_valid_number_for_region(num, region) and pn.number_type(num) in wanted:
            return num
    raise RuntimeError(f"no valid {kind} number found for {region}")


def phone_styles(code):
    """Ways a country prints its numbers; each name is handled by format_phone."""
    if code in ("US", "CA"):
        return ["national", "national", "dashes", "dashes", "dots", "intl", "intl_spaces", "one_dashes",
                "intl_dots"]
    if code == "FR":
        return ["national", "national", "dots", "intl", "intl0"]
    if code == "DE":
        return ["national", "national", "slash", "hyphen", "intl", "intl", "intl0"]
    if code in ("AT", "CH"):
        return ["national", "intl", "intl", "intl0"]
    if code == "NL":
        return ["national", "hyphen", "intl", "intl0"]
    if code == "AU":
        return ["national", "no_parens", "no_parens", "intl", "intl0"]
    if code == "IE":
        return ["national", "no_parens", "intl", "intl0"]
    if code == "UK":
        return ["national", "national", "intl", "intl0"]
    return ["national", "intl", "intl"]


def format_phone(num, style, code):
    nat = pn.format_number(num, PNF.NATIONAL)
    intl = pn.format_number(num, PNF.INTERNATIONAL)
    groups = re.findall(r"\d+", nat)
    cc, rest = intl.split(" ", 1)
    if style == "national":
        out = nat
    elif style == "no_parens":
        out = nat.replace("(", "").replace(")", "")
    elif style == "dashes":
        out = "-".join(groups)
    elif style == "dots":
        out = ".".join(groups) if code != "FR" else ".".join(re.findall(r"\d+", nat))
    elif style == "one_dashes":
        out = "1-" + "-".join(groups)
    elif style == "intl":
        out = intl
    elif style == "intl_spaces":
        out = cc + " " + " ".join(re.findall(r"\d+", rest))
    elif style == "intl_dots":
        out = cc + "." + ".".join(re.findall(r"\d+", rest))
    elif style == "intl0":
        out = f"{cc} (0){rest}" if not rest.startswith("0") else intl
    elif style == "slash":
        out = groups[0] + "/" + " ".join(groups[1:]) if len(groups) > 1 else nat
    elif style == "hyphen":
        out = groups[0] + "-" + "".join(groups[1:]) if len(groups) > 1 else nat
    else:
        out = nat
    # The printed form must read back as the same number; fall back to the national form.
    try:
        back = pn.parse(out, COUNTRIES[code]["iso"])
        if back.national_number != num.national_number or back.country_code != num.country_code:
            out = nat
    except pn.NumberParseException:
        out = nat
    return out


def make_phones(code, cfg, rng):
    combos = [(["work"], 25), (["mobile"], 13), (["work", "mobile"], 30), (["work", "fax"], 10),
              (["work", "mobile", "fax"], 15), (["mobile", "work"], 7)]
    types = rng.choices([c for c, _ in combos], weights=[w for _, w in combos])[0]
    styles = phone_styles(code)
    style = rng.choice(styles)
    phones = []
    work_num = None
    for t in types:
        if style != "intl" and rng.random() < 0.1:
            st = rng.choice(styles)  # a card now and then mixes two forms
        else:
            st = style
        num = random_phone(code, cfg, "mobile" if t == "mobile" else "fixed", rng)
        if t == "fax" and work_num is not None and rng.random() < 0.5:
            # a fax often shares the office number's prefix
            nsn = pn.national_significant_number(work_num)
            for _ in range(200):
                cand = nsn[:-2] + f"{rng.randint(0, 99):02d}"
                try:
                    c = pn.parse(cand, cfg["iso"])
                except pn.NumberParseException:
                    continue
                if (cand != nsn and pn.national_significant_number(c) == cand and pn.is_valid_number(c)
                        and pn.number_type(c) in (PNT.FIXED_LINE, PNT.FIXED_LINE_OR_MOBILE)):
                    num = c
                    break
        if t == "work" and work_num is None:
            work_num = num
        printed = format_phone(num, st, code)
        phones.append({"type": t, "number": printed, "e164": pn.format_number(num, PNF.E164)})
    return phones


def street_num(rng, lo=1, hi=250):
    # small numbers are more common than large ones
    return str(int(lo + (hi - lo) * rng.random() ** 2.2))


def city_of(fake):
    """fake.city(), except where Faker draws from a list built from a set (it_IT), whose order
    changes from run to run: there, draw from the sorted list so that a seed stays a seed."""
    for prov in fake.providers:
        cities = getattr(prov, "cities", None)
        if type(prov).__module__ == "faker.providers.address.it_IT" and isinstance(cities, list):
            pool = getattr(prov, "_sorted_cities", None)
            if pool is None:
                pool = prov._sorted_cities = sorted(set(cities))
            return fake.random_element(pool)
    return fake.city()


def make_address(fake, code, cfg, rng):
    """Printed lines and the pieces: (lines, street, city, region, postal)."""
    country_line = rng.choice(cfg["names"]) if rng.random() < 0.22 else None
    region = None
    if code in ("US", "CA"):
        name = fake.street_name()
        if rng.random() < 0.5:
            words = name.split(" ")
            if words[-1] in US_STREET_ABBR:
                words[-1] = US_STREET_ABBR[words[-1]] + ("." if rng.random() < 0.2 else "")
            name = " ".join(words)
        num = str(rng.randint(1, 99999)) if rng.random() < 0.3 else street_num(rng, 1, 9999)
        street = f"{num} {name}"
        sec = None
        if rng.random() < 0.3:
            sec = rng.choice(["Suite", "Ste", "Ste.", "Floor", "Unit", "#", "Suite"])
            n = rng.randint(1, 40) * (100 if sec in ("Suite", "Ste", "Ste.") and rng.random() < 0.5 else 1)
            sec = f"# {n}" if sec == "#" else f"{sec} {n}"
        city = city_of(fake)
        if code == "US":
            region = fake.state_abbr(include_territories=False, include_freely_associated_states=False)
            postal = fake.zipcode_plus4() if rng.random() < 0.1 else fake.zipcode()
        else:
            region = fake.province_abbr()
            pc = re.sub(r"\s", "", fake.postcode().upper())
            postal = pc[:3] + " " + pc[3:]
        line2 = f"{city}, {region} {postal}" if rng.random() < 0.85 else f"{city} {region} {postal}"
        if sec and rng.random() < 0.5:
            lines = [street, sec, line2]
            street_gt = f"{street}, {sec}"
        elif sec:
            street_gt = f"{street}, {sec}"
            lines = [street_gt, line2]
        else:
            street_gt = street
            lines = [street, line2]
        if rng.random() < 0.15:
            lines = [", ".join(lines)]
        street = street_gt
    elif code == "UK":
        street = f"{street_num(rng, 1, 300)} {fake.street_name()}"
        city = city_of(fake)
        postal = fake.postcode()
        if rng.random() < 0.15:
            street = rng.choice(["Unit", "Suite", "Flat"]) + f" {rng.randint(1, 30)}, " + street
        r = rng.random()
        if r < 0.5:
            lines = [street, f"{city} {postal}"]
        elif r < 0.8:
            lines = [street, city, postal]
        else:
            lines = [street, f"{city}, {postal}"]
    elif code == "AU":
        street = f"{street_num(rng, 1, 400)} {fake.street_name()}"
        if rng.random() < 0.2:
            street = rng.choice(["Level", "Suite", "Unit"]) + f" {rng.randint(1, 30)}, " + street
        city = city_of(fake)
        region = fake.state_abbr()
        postal = fake.postcode()
        lines = [street, f"{city} {region} {postal}" if rng.random() < 0.8 else f"{city}, {region} {postal}"]
    elif code == "IE":
        street = f"{street_num(rng, 1, 200)} {fake.street_name()}"
        city = city_of(fake)
        pc = re.sub(r"\s", "", fake.postcode().upper())
        postal = pc[:3] + " " + pc[3:]
        r = rng.random()
        if r < 0.4:
            lines = [street, f"{city}, {postal}"]
        elif r < 0.7:
            lines = [street, city, postal]
        else:
            region = "Co. " + fake.administrative_unit()
            lines = [street, city, f"{region}, {postal}" if rng.random() < 0.5 else region]
            if not lines[-1].endswith(postal):
                lines.append(postal)
    elif code in ("DE", "AT", "CH"):
        num = street_num(rng, 1, 160)
        if rng.random() < 0.12:
            num += rng.choice("abc")
        street = f"{fake.street_name()} {num}"
        city = city_of(fake)
        postal = fake.postcode()
        lines = [street, f"{postal} {city}"]
        if rng.random() < 0.2:
            lines = [", ".join(lines)]
    elif code == "FR":
        num = street_num(rng, 1, 180)
        if rng.random() < 0.08:
            num += rng.choice([" bis", " ter"])
        name = fake.street_name()
        if rng.random() < 0.3:
            name = cap_first(name)
        street = f"{num}{rng.choice([' ', ', '])}{name}"
        city = city_of(fake)
        if rng.random() < 0.25:
            city = city.upper()
        postal = fake.postcode()
        lines = [street, f"{postal} {city}"]
    elif code == "ES":
        street = f"{fake.street_name()}, {street_num(rng, 1, 150)}"
        if rng.random() < 0.3:
            street += f", {rng.randint(1, 9)}º {rng.choice('ABCD')}"
        city = city_of(fake)
        postal = fake.postcode()
        lines = [street, f"{postal} {city}"]
    elif code == "IT":
        street = f"{fake.street_name()}{rng.choice([', ', ' '])}{street_num(rng, 1, 200)}"
        city = city_of(fake)
        postal = fake.postcode()
        region = fake.state_abbr()
        lines = [street, f"{postal} {city} ({region})" if rng.random() < 0.6 else f"{postal} {city} {region}"]
    elif code == "NL":
        street = f"{fake.street_name()} {street_num(rng, 1, 300)}"
        city = city_of(fake)
        pc = re.sub(r"\s", "", fake.postcode().upper())
        postal = pc[:4] + " " + pc[4:]
        lines = [street, f"{postal} {city}" if rng.random() < 0.8 else f"{postal}  {city}".replace("  ", " ")]
    else:
        raise ValueError(code)
    if country_line:
        if len(lines) == 1 and rng.random() < 0.5:
            lines = [lines[0] + ", " + country_line]
        else:
            lines.append(country_line)
    return lines, street, city, region, postal


def make_content(fake, code, rng):
    cfg = COUNTRIES[code]
    name, female = make_name(fake, code, cfg, rng)
    title = make_title(fake, cfg, female, rng)
    org = make_org(fake, cfg, rng)
    phones = make_phones(code, cfg, rng)
    tld = rng.choice(cfg["tlds"])
    free_mail = org is None and rng.random() < 0.5
    if free_mail:
        domain = fake.free_email_domain()
    else:
        domain = domain_stem(org, name, cfg, rng) + "." + tld
    emails = [make_email(name, domain, cfg, rng)] if rng.random() < 0.8 else []
    urls = [make_url(domain, rng)] if (not free_mail and rng.random() < 0.7) else []
    address = None
    addr_lines = []
    if rng.random() < 0.75:
        addr_lines, street, city, region, postal = make_address(fake, code, cfg, rng)
        address = {"full": ", ".join(addr_lines), "street": street, "city": city, "region": region,
                   "postalCode": postal, "country": cfg["iso"]}
    tagline = None
    if cfg["lang"] == "en" and org and rng.random() < 0.12:
        tagline = cap_first(fake.catch_phrase())
    gt = {"name": name, "title": title, "department": None, "organization": org, "phones": phones,
          "emails": emails, "urls": urls, "address": address, "country": code, "capture": None}
    return gt, addr_lines, tagline


# ----------------------------------------------------------------------------------------
# Fonts and drawing

FAMILIES = {
    "dejavu-sans": ("dejavu/DejaVuSans.ttf", "dejavu/DejaVuSans-Bold.ttf", "dejavu/DejaVuSans-Oblique.ttf"),
    "dejavu-cond": ("dejavu/DejaVuSansCondensed.ttf", "dejavu/DejaVuSansCondensed-Bold.ttf",
                    "dejavu/DejaVuSansCondensed-Oblique.ttf"),
    "dejavu-serif": ("dejavu/DejaVuSerif.ttf", "dejavu/DejaVuSerif-Bold.ttf", "dejavu/DejaVuSerif-Italic.ttf"),
    "dejavu-serif-cond": ("dejavu/DejaVuSerifCondensed.ttf", "dejavu/DejaVuSerifCondensed-Bold.ttf",
                          "dejavu/DejaVuSerifCondensed-Italic.ttf"),
    "lib-sans": ("liberation/LiberationSans-Regular.ttf", "liberation/LiberationSans-Bold.ttf",
                 "liberation/LiberationSans-Italic.ttf"),
    "lib-narrow": ("liberation/LiberationSansNarrow-Regular.ttf", "liberation/LiberationSansNarrow-Bold.ttf",
                   "liberation/LiberationSansNarrow-Italic.ttf"),
    "lib-serif": ("liberation/LiberationSerif-Regular.ttf", "liberation/LiberationSerif-Bold.ttf",
                  "liberation/LiberationSerif-Italic.ttf"),
}
LIGHT_FONT = "dejavu/DejaVuSans-ExtraLight.ttf"

MIN_PX = 22  # smallest text size (px at 300 dpi, about 5 pt) a card may use

_font_cache = {}


def font(path, size):
    key = (path, size)
    f = _font_cache.get(key)
    if f is None:
        f = ImageFont.truetype(os.path.join(FONT_DIR, path), size)
        _font_cache[key] = f
    return f


class Line:
    """One printed line: segments (text, font path, colour) at one size.
    `tab` is the number of leading segments that form a label column (or 0)."""

    def __init__(self, segs, size, gap=0.0, tab=0, role=""):
        self.segs = [s for s in segs if s[0]]
        self.size = size
        self.gap = gap
        self.tab = tab
        self.role = role


def seg_width(segs, size):
    return sum(font(p, size).getlength(t) for t, p, _ in segs)


def layout_block(lines, scale, line_scales):
    """Sizes and positions (relative) of a block's lines; returns (w, h, rows)."""
    rows = []
    y = 0.0
    tab_w = 0.0
    for ln, ls in zip(lines, line_scales):
        sz = max(9, int(round(ln.size * scale * ls)))
        if ln.tab:
            tab_w = max(tab_w, seg_width(ln.segs[:ln.tab], sz) + 0.45 * sz)
    w = 0.0
    for i, (ln, ls) in enumerate(zip(lines, line_scales)):
        sz = max(9, int(round(ln.size * scale * ls)))
        asc = max(font(p, sz).getmetrics()[0] for _, p, _ in ln.segs)
        desc = max(font(p, sz).getmetrics()[1] for _, p, _ in ln.segs)
        if i > 0:
            y += ln.gap * sz + 0.18 * sz
        if ln.tab:
            lw = tab_w + seg_width(ln.segs[ln.tab:], sz)
        else:
            lw = seg_width(ln.segs, sz)
        rows.append((ln, sz, y, asc, desc, lw))
        y += asc + desc
        w = max(w, lw)
    return w, y, rows, tab_w


def fit_block(lines, box_w, box_h):
    """Shrink lines that are too wide, then the whole block until it fits the box."""
    line_scales = []
    for ln in lines:
        s = 1.0
        # a long name, title or organization line gets smaller on its own; contact lines keep one size
        while s > 0.3 and ln.role in ("name", "title", "org", "tagline"):
            sz = max(9, int(round(ln.size * s)))
            if seg_width(ln.segs, sz) <= box_w:
                break
            s *= 0.95
        line_scales.append(s)
    scale = 1.0
    while True:
        w, h, rows, tab_w = layout_block(lines, scale, line_scales)
        if w <= box_w and h <= box_h:
            if min(r[1] for r in rows) < MIN_PX:
                raise RuntimeError("text would be too small")
            return w, h, rows, tab_w
        if scale < 0.3:
            raise RuntimeError("block does not fit")
        scale *= 0.95


class Canvas:
    def __init__(self, img):
        self.img = img
        self.draw = ImageDraw.Draw(img)
        self.boxes = []  # every drawn text box, checked against the card's edges at the end
        self.texts = []  # every drawn text segment, checked against the ground truth

    def block(self, lines, box, halign="left", valign="top"):
        """Draws the lines inside box (x0, y0, x1, y1); returns the drawn rectangle."""
        lines = [ln for ln in lines if ln.segs]
        if not lines:
            return None
        x0, y0, x1, y1 = box
        w, h, rows, tab_w = fit_block(lines, x1 - x0, y1 - y0)
        if valign == "top":
            top = y0
        elif valign == "bottom":
            top = y1 - h
        else:
            top = y0 + (y1 - y0 - h) / 2
        for ln, sz, y, asc, desc, lw in rows:
            if halign == "left":
                x = x0
            elif halign == "right":
                x = x1 - lw
            else:
                x = x0 + (x1 - x0 - lw) / 2
            base = top + y + asc
            start = x
            for k, (t, p, col) in enumerate(ln.segs):
                if ln.tab and k == ln.tab:
                    x = start + tab_w  # values line up in a column after the labels
                f = font(p, sz)
                self.draw.text((x, base), t, font=f, fill=col, anchor="ls")
                self.boxes.append(self.draw.textbbox((x, base), t, font=f, anchor="ls"))
                self.texts.append(t)
                x += f.getlength(t)
        return (x0, top, x1, top + h)


# ----------------------------------------------------------------------------------------
# Card styles and layouts

def make_style(rng, eu):
    W, H = (1004, 650) if eu and rng.random() < 0.8 else (1050, 600)
    body_fam = rng.choice(list(FAMILIES))
    head_fam = body_fam if rng.random() < 0.55 else rng.choice(list(FAMILIES))
    hue = rng.random()
    r = rng.random()
    if r < 0.45:
        bg = (255, 255, 255)
    elif r < 0.7:
        g = rng.randint(238, 252)
        bg = (g + rng.randint(0, 3), g + rng.randint(-2, 2), g - rng.randint(0, 8))
    else:
        bg = hsv(rng.random(), rng.uniform(0.04, 0.14), rng.uniform(0.93, 0.99))
    ink = rng.choice([(20, 20, 20), (35, 35, 40), (0, 0, 0), (25, 35, 70), (50, 50, 55), (40, 30, 30)])
    accent = hsv(hue, rng.uniform(0.45, 0.9), rng.uniform(0.35, 0.62))
    muted = rng.choice([ink, accent, (90, 90, 95), (80, 80, 80)])
    name_bold = rng.random() < 0.7
    name_light = (not name_bold) and rng.random() < 0.25
    return {
        "W": W, "H": H, "bg": bg, "ink": ink, "accent": accent, "muted": muted,
        "body": FAMILIES[body_fam], "head": FAMILIES[head_fam],
        "name_font": LIGHT_FONT if name_light else FAMILIES[head_fam][1 if name_bold else 0],
        "name_color": accent if rng.random() < 0.25 else ink,
        "title_font": FAMILIES[body_fam][2] if rng.random() < 0.2 else FAMILIES[body_fam][0],
        "org_font": FAMILIES[head_fam][1] if rng.random() < 0.7 else FAMILIES[head_fam][0],
        "org_color": accent if rng.random() < 0.5 else ink,
        "label_font": FAMILIES[body_fam][1] if rng.random() < 0.35 else FAMILIES[body_fam][0],
        "label_color": accent if rng.random() < 0.4 else ink,
        "name_px": rng.randint(50, 78),
        "title_px": rng.randint(30, 42),
        "org_px": rng.randint(32, 48),
        "body_px": rng.randint(27, 36),
        "margin": rng.uniform(0.055, 0.09),
    }


def label_scheme(lang, rng):
    """Per-card labels: dict kind -> label text or None, and the separator after a label."""
    if lang != "en" and rng.random() < 0.25:
        lang = "en"
    kind = rng.choice(["letter", "word", "word"])
    work, mobile, fax, email, web = LABELS[lang][kind]
    sep = rng.choice([" ", ": ", ": ", "  "] if kind == "word" else [" ", "  ", ": ", " | ", ". "])
    if lang == "fr" and sep == ": " and rng.random() < 0.5:
        sep = " : "
    labels = {"work": rng.choice(work), "mobile": rng.choice(mobile), "fax": rng.choice(fax),
              "email": rng.choice(email), "web": rng.choice(web)}
    if labels["work"].endswith(".") and sep == ". ":
        sep = " "
    r = rng.random()
    if r < 0.45:
        labels["email"] = labels["web"] = None
    elif r < 0.6:
        labels["web"] = None
    bare_first_work = rng.random() < 0.15
    no_labels = rng.random() < 0.06  # only a single-phone card may go fully unlabelled
    return labels, sep, bare_first_work, no_labels


def contact_lines(gt, addr_lines, style, rng, allow_tab=True):
    """Lines for phones, e-mail, web and address, grouped; returns list of (group, [Line])."""
    lang = COUNTRIES[gt["country"]]["lang"]
    labels, sep, bare_first_work, no_labels = label_scheme(lang, rng)
    body = style["body"][0]
    lab_font = style["label_font"]
    ink = style["ink"]
    lcol = style["label_color"]
    px = style["body_px"]
    use_tab = allow_tab and sep.strip() in ("", ":") and rng.random() < 0.35

    phone_items = []
    seen_work = False
    for ph in gt["phones"]:
        lab = labels[ph["type"]]
        if no_labels and len(gt["phones"]) == 1 and ph["type"] == "work":
            lab = None
        if ph["type"] == "work" and not seen_work and bare_first_work:
            lab = None
        if ph["type"] == "work":
            seen_work = True
        phone_items.append((lab, ph["number"]))

    def labelled(lab, value, role):
        if lab is None:
            return Line([(value, body, ink)], px, role=role)
        lab_txt = lab + sep.rstrip() if use_tab else lab + sep
        return Line([(lab_txt, lab_font, lcol), (value, body, ink)], px, tab=1 if use_tab else 0, role=role)

    groups = []
    phones = []
    if len(phone_items) >= 2 and rng.random() < 0.18:
        joiner = rng.choice(["   ", "   |   ", "  ·  ", "    "])
        segs = []
        for k, (lab, num) in enumerate(phone_items[:2]):
            if k:
                segs.append((joiner, body, ink))
            if lab:
                segs.append((lab + sep, lab_font, lcol))
            segs.append((num, body, ink))
        phones.append(Line(segs, px, role="phone"))
        for lab, num in phone_items[2:]:
            phones.append(labelled(lab, num, "phone"))
    else:
        phones = [labelled(lab, num, "phone") for lab, num in phone_items]
    groups.append(("phones", phones))
    web = []
    if gt["emails"] and gt["urls"] and rng.random() < 0.12:
        segs = []
        if labels["email"]:
            segs.append((labels["email"] + sep, lab_font, lcol))
        segs.append((gt["emails"][0], body, ink))
        segs.append((rng.choice(["   ", "  |  ", "  ·  "]), body, ink))
        if labels["web"]:
            segs.append((labels["web"] + sep, lab_font, lcol))
        segs.append((gt["urls"][0], body, ink))
        web.append(Line(segs, px, role="web"))
    else:
        for e in gt["emails"]:
            web.append(labelled(labels["email"], e, "email"))
        for u in gt["urls"]:
            web.append(labelled(labels["web"], u, "url"))
    groups.append(("web", web))
    if addr_lines:
        acol = style["muted"] if rng.random() < 0.3 else ink
        groups.append(("address", [Line([(a, body, acol)], px, role="address") for a in addr_lines]))
    order = rng.choice([["phones", "web", "address"], ["phones", "web", "address"], ["address", "phones", "web"],
                        ["web", "phones", "address"], ["phones", "address", "web"]])
    groups.sort(key=lambda g: order.index(g[0]))
    gap = rng.choice([0.0, 0.0, 0.35, 0.6])
    out = []
    for name, lines in groups:
        if lines:
            lines[0].gap = gap if out else 0.0
            out.extend(lines)
    return out


def head_lines(gt, style, rng, with_org=True, tagline=None, color=None):
    lines = [Line([(gt["name"]["full"], style["name_font"], color or style["name_color"])], style["name_px"],
                  role="name")]
    if gt["title"]:
        lines.append(Line([(gt["title"], style["title_font"], color or style["muted"])], style["title_px"],
                          gap=0.05, role="title"))
    if with_org and gt["organization"]:
        org = Line([(gt["organization"], style["org_font"], color or style["org_color"])], style["org_px"],
                   gap=0.25, role="org")
        if rng.random() < 0.3:
            lines.insert(0, org)
            lines[1].gap = 0.3
        else:
            lines.append(org)
        if tagline:
            lines.insert(lines.index(org) + 1,
                         Line([(tagline, style["title_font"], color or style["muted"])], int(style["body_px"] * 0.85),
                              gap=0.05, role="tagline"))
    return lines


def draw_logo(draw, x, y, s, col, rng):
    kind = rng.choice(["circle", "square", "diamond", "triangle", "rings", "bars"])
    if kind == "circle":
        draw.ellipse([x, y, x + s, y + s], fill=col)
    elif kind == "square":
        draw.rounded_rectangle([x, y, x + s, y + s], radius=s * 0.18, fill=col)
    elif kind == "diamond":
        draw.polygon([(x + s / 2, y), (x + s, y + s / 2), (x + s / 2, y + s), (x, y + s / 2)], fill=col)
    elif kind == "triangle":
        draw.polygon([(x + s / 2, y), (x + s, y + s), (x, y + s)], fill=col)
    elif kind == "rings":
        w = max(3, int(s * 0.12))
        draw.ellipse([x, y + s * 0.15, x + s * 0.7, y + s * 0.85], outline=col, width=w)
        draw.ellipse([x + s * 0.3, y + s * 0.15, x + s, y + s * 0.85], outline=col, width=w)
    else:
        for k in range(3):
            h = s * (0.45 + 0.25 * k)
            draw.rectangle([x + k * s * 0.36, y + s - h, x + k * s * 0.36 + s * 0.26, y + s], fill=col)


def render_card(gt, addr_lines, tagline, rng):
    cfg = COUNTRIES[gt["country"]]
    st = make_style(rng, cfg["eu"])
    W, H = st["W"], st["H"]
    img = Image.new("RGB", (W, H), st["bg"])
    cv = Canvas(img)
    d = cv.draw
    m = int(st["margin"] * W)
    area = [m, m, W - m, H - m]

    # decorations that take room from the content
    deco = rng.random()
    if deco < 0.12:  # thin bar along the left edge
        bw = int(W * rng.uniform(0.012, 0.03))
        d.rectangle([0, 0, bw, H], fill=st["accent"])
        area[0] = bw + m
    elif deco < 0.2:  # wide side panel with a mark
        bw = int(W * rng.uniform(0.2, 0.28))
        right = rng.random() < 0.3
        x0 = W - bw if right else 0
        d.rectangle([x0, 0, x0 + bw, H], fill=st["accent"])
        s = int(bw * 0.45)
        draw_logo(d, x0 + (bw - s) // 2, (H - s) // 2, s, (250, 250, 250), rng)
        if right:
            area[2] = W - bw - m
        else:
            area[0] = bw + m
    elif deco < 0.28:  # thin bar at the bottom
        bh = int(H * rng.uniform(0.025, 0.06))
        d.rectangle([0, H - bh, W, H], fill=st["accent"])
        area[3] = H - bh - int(m * 0.6)

    layouts = ["stack", "split", "center", "columns", "org_first", "band"]
    weights = [22, 20, 14, 20, 14, 10]
    if area[2] - area[0] < W * 0.75:
        weights[3] = 5
        weights[5] = 0
    layout = rng.choices(layouts, weights)[0]
    x0, y0, x1, y1 = area

    if layout == "stack":
        head = head_lines(gt, st, rng, tagline=tagline)
        contacts = contact_lines(gt, addr_lines, st, rng)
        if contacts:
            contacts[0].gap = rng.uniform(0.6, 1.3)
        valign = rng.choice(["top", "center"])
        cv.block(head + contacts, (x0, y0, x1, y1), "left", valign)
    elif layout == "split":
        head = head_lines(gt, st, rng, tagline=tagline)
        r = cv.block(head, (x0, y0, x1, y0 + (y1 - y0) * 0.5), "left", "top")
        top = r[3] + 0.06 * H
        contacts = contact_lines(gt, addr_lines, st, rng, allow_tab=False)
        cv.block(contacts, (x0 + (x1 - x0) * 0.25, top, x1, y1), "right", "bottom")
    elif layout == "center":
        head = head_lines(gt, st, rng, tagline=tagline)
        contacts = contact_lines(gt, addr_lines, st, rng, allow_tab=False)
        if contacts:
            contacts[0].gap = rng.uniform(0.6, 1.2)
        cv.block(head + contacts, (x0, y0, x1, y1), "center", "center")
    elif layout == "columns":
        split = x0 + (x1 - x0) * rng.uniform(0.42, 0.5)
        gutter = 0.03 * W
        head = head_lines(gt, st, rng, tagline=tagline)
        cv.block(head, (x0, y0, split - gutter, y1), "left", rng.choice(["top", "center"]))
        if rng.random() < 0.4:
            d.line([(split, y0 + 0.1 * H), (split, y1 - 0.1 * H)], fill=st["accent"], width=rng.randint(2, 5))
        contacts = contact_lines(gt, addr_lines, st, rng)
        cv.block(contacts, (split + gutter, y0, x1, y1), rng.choice(["left", "left", "right"]),
                 rng.choice(["center", "bottom", "top"]))
    elif layout == "org_first":
        org = gt["organization"]
        top = y0
        if org:
            big = int(st["org_px"] * rng.uniform(1.3, 1.8))
            col = st["accent"] if rng.random() < 0.7 else st["ink"]
            fnt = st["head"][1] if rng.random() < 0.8 else st["head"][0]
            lx = x0
            if rng.random() < 0.5:
                s = int(big * 1.25)
                draw_logo(d, x0, y0, s, st["accent"], rng)
                lx = x0 + s + int(0.025 * W)
                hb = (lx, y0, x1, y0 + s)
                valign = "center"
            else:
                hb = (x0, y0, x1, y0 + big * 2)
                valign = "top"
            org_lines = [Line([(org, fnt, col)], big, role="org")]
            if tagline:
                org_lines.append(Line([(tagline, st["title_font"], st["muted"])], int(st["body_px"] * 0.8),
                                      gap=0.1, role="tagline"))
            r = cv.block(org_lines, hb, "left", valign)
            top = max(r[3], hb[3] if valign == "center" else r[3]) + 0.05 * H
            if rng.random() < 0.4:
                d.line([(x0, top - 0.02 * H), (x1, top - 0.02 * H)], fill=st["accent"], width=2)
        head = head_lines(gt, st, rng, with_org=False)
        contacts = contact_lines(gt, addr_lines, st, rng, allow_tab=rng.random() < 0.5)
        if rng.random() < 0.5:
            cv.block(head + [Line(c.segs, c.size, c.gap if i else 0.7, c.tab) for i, c in enumerate(contacts)],
                     (x0, top, x1, y1), "left", "top")
        else:
            split = x0 + (x1 - x0) * 0.45
            cv.block(head, (x0, top, split - 0.02 * W, y1), "left", "bottom")
            cv.block(contacts, (split + 0.02 * W, top, x1, y1), "right", "bottom")
    else:  # band across the top with the organization (or the name) in light text
        bh = int(H * rng.uniform(0.22, 0.3))
        d.rectangle([0, 0, W, bh], fill=st["accent"])
        light = (255, 255, 255) if rng.random() < 0.7 else (245, 240, 225)
        align = rng.choice(["left", "center"])
        if gt["organization"]:
            band_lines = [Line([(gt["organization"], st["org_font"], light)], int(st["org_px"] * 1.2), role="org")]
            if tagline:
                band_lines.append(Line([(tagline, st["title_font"], light)], int(st["body_px"] * 0.8), gap=0.1))
            head = head_lines(gt, st, rng, with_org=False)
        else:
            band_lines = head_lines(gt, st, rng, with_org=False, color=light)
            head = []
        cv.block(band_lines, (x0, int(bh * 0.12), x1, int(bh * 0.88)), align, "center")
        contacts = contact_lines(gt, addr_lines, st, rng, allow_tab=align == "left")
        body_box = (x0, bh + int(0.06 * H), x1, y1)
        if head and rng.random() < 0.5:
            split = x0 + (x1 - x0) * 0.45
            cv.block(head, (x0, body_box[1], split - 0.02 * W, y1), "left", "top")
            cv.block(contacts, (split + 0.02 * W, body_box[1], x1, y1), "right", "bottom")
        else:
            if head and contacts:
                contacts[0].gap = 0.6
            cv.block(head + contacts, body_box, align, "top")

    # every glyph box must lie inside the card
    for bx0, by0, bx1, by1 in cv.boxes:
        if bx0 < 2 or by0 < 2 or bx1 > W - 2 or by1 > H - 2:
            raise RuntimeError(f"text outside the card: {(bx0, by0, bx1, by1)} in {W}x{H} ({layout})")
    # and every ground-truth value must have been printed as it stands
    want = [gt["name"]["full"], gt["title"], gt["organization"]] + [p["number"] for p in gt["phones"]]
    want += gt["emails"] + gt["urls"] + list(addr_lines)
    drawn = set(cv.texts)
    missing = [v for v in want if v and v not in drawn]
    if missing:
        raise AssertionError(f"ground truth not printed: {missing}")
    return img, layout


# ----------------------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", help="output folder (img/ and gt/ are made in it)")
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--start", type=int, default=0, help="first card number (to extend a set)")
    ap.add_argument("--photo-share", type=float, default=0.5, help="share of photos (the rest are scans)")
    ap.add_argument("--countries", default="", help="comma-separated codes to restrict to, e.g. US,DE")
    a = ap.parse_args()

    codes = [c for c in COUNTRIES if not a.countries or c in a.countries.upper().split(",")]
    if not codes:
        sys.exit("no country left: use codes from " + ",".join(COUNTRIES))
    os.makedirs(os.path.join(a.out, "img"), exist_ok=True)
    os.makedirs(os.path.join(a.out, "gt"), exist_ok=True)
    fakers = {}
    stats = {}
    for i in range(a.start, a.start + a.count):
        cid = f"gen-{a.seed}-{i:04d}"
        rng = random.Random(f"cards/{a.seed}/{i}")
        nrng = np.random.default_rng([a.seed, i])
        code = rng.choices(codes, [COUNTRIES[c]["weight"] for c in codes])[0]
        loc = COUNTRIES[code]["locale"]
        fake = fakers.get(loc)
        if fake is None:
            fake = fakers[loc] = Faker(loc)
        fake.seed_instance(rng.getrandbits(48))
        gt, addr_lines, tagline = make_content(fake, code, rng)
        for attempt in range(20):
            try:
                card, layout = render_card(gt, addr_lines, tagline, rng)
                break
            except RuntimeError:
                if attempt == 19:
                    raise
        photo = rng.random() < a.photo_share
        gt["capture"] = "photo" if photo else "scan"
        if photo:
            img = photograph(card, rng, nrng)
            img.save(os.path.join(a.out, "img", cid + ".jpg"), quality=rng.randint(80, 92))
        else:
            card.save(os.path.join(a.out, "img", cid + ".png"))
        with open(os.path.join(a.out, "gt", cid + ".json"), "w", encoding="utf-8") as f:
            json.dump(gt, f, ensure_ascii=False, indent=1)
            f.write("\n")
        stats[(code, layout, gt["capture"])] = stats.get((code, layout, gt["capture"]), 0) + 1
    by = {}
    for (code, layout, cap), n in stats.items():
        by.setdefault("country " + code, 0)
        by["country " + code] += n
        by.setdefault("layout " + layout, 0)
        by["layout " + layout] += n
        by.setdefault(cap, 0)
        by[cap] += n
    print(f"{a.count} cards in {a.out}: " + ", ".join(f"{k} {v}" for k, v in sorted(by.items())))


if __name__ == "__main__":
    main()
