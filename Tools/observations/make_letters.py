#!/usr/bin/env python3
"""Writes business letters as plain text, "other" documents for the classifier: a sender's
letterhead (name or firm, street, town, phone, e-mail, web), a date, the addressee's block,
a salutation, paragraphs of running text, a closing and a signature with a title. Letters
carry the same contacts as a business card, so without them the classifier learns that
contacts alone make a card.

    Tools/observations/make_letters.py OUT_DIR --count 120 --seed 5
    Tools/observations/to_document.py text OUT_DIR OUT_DOCS

Names, addresses and text come from Faker (MIT) in English, German, French, Spanish,
Italian and Dutch; nothing generated here is committed.
"""
import argparse, os, random

from faker import Faker

LOCALES = {
    "en_US": ("Dear {},", "Sincerely,", "Re:"), "en_GB": ("Dear {},", "Yours sincerely,", "Re:"),
    "de_DE": ("Sehr geehrte Damen und Herren,", "Mit freundlichen Grüßen", "Betreff:"),
    "fr_FR": ("Madame, Monsieur,", "Veuillez agréer mes salutations distinguées.", "Objet :"),
    "es_ES": ("Estimado/a {}:", "Atentamente,", "Asunto:"),
    "it_IT": ("Gentile {},", "Cordiali saluti,", "Oggetto:"),
    "nl_NL": ("Geachte heer/mevrouw,", "Met vriendelijke groet,", "Betreft:"),
}


def letter(fake, rng, greet, close, subject):
    out = []
    firm = fake.company()
    out += [firm, fake.street_address(), f"{fake.postcode()} {fake.city()}"]
    contacts = [f"Tel. {fake.phone_number()}", f"{fake.user_name()}@{fake.domain_name()}", f"www.{fake.domain_name()}"]
    rng.shuffle(contacts)
    out += contacts[: rng.randint(1, 3)]
    out += ["", fake.date(pattern=rng.choice(["%d.%m.%Y", "%B %d, %Y", "%d/%m/%Y"])), ""]
    who = fake.name()
    out += [who, fake.street_address(), f"{fake.postcode()} {fake.city()}", ""]
    if rng.random() < 0.7:
        out += [f"{subject} {fake.sentence(nb_words=5).rstrip('.')}", ""]
    out += [greet.format(who) if "{}" in greet else greet, ""]
    for _ in range(rng.randint(2, 5)):
        words = fake.paragraph(nb_sentences=rng.randint(3, 7))
        line = ""
        for w in words.split():
            if len(line) + len(w) + 1 > 80:
                out.append(line)
                line = w
            else:
                line = (line + " " + w).strip()
        out += [line, ""]
    out += [close, "", fake.name(), fake.job()]
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("--count", type=int, default=120)
    ap.add_argument("--seed", type=int, default=5)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    rng = random.Random(a.seed)
    fakers = {loc: Faker(loc) for loc in LOCALES}
    for i, loc in enumerate(sorted(fakers)):
        fakers[loc].seed_instance(a.seed * 100 + i)
    names = sorted(LOCALES)
    for n in range(a.count):
        loc = names[n % len(names)]
        text = letter(fakers[loc], rng, *LOCALES[loc])
        with open(os.path.join(a.out, f"letter-{a.seed}-{n:04d}.txt"), "w", encoding="utf-8") as f:
            f.write(text)
    print(f"{a.count} letters -> {a.out}")


if __name__ == "__main__":
    main()
