#!/usr/bin/env python3
"""How far a reader that returns what a receipt prints can go on a SROIE-style set.

    Benchmarks/sroie_ceiling.py ../shared/eval/sroie-dev [../shared/eval/sroie-train ...]
    Benchmarks/sroie_ceiling.py ../shared/eval/sroie-dev --also OCR_JSON_DIR

Each set folder holds `key/<id>.json` (the fields) and `box/<id>.csv` (every printed line as the
annotators transcribed it, after eight corner coordinates). For each key this asks whether some
output made only of printed text could score it, compared the way `score_receipts.py` compares:

- company, address: the key equals, in the scorer's strict sense (upper case, runs of white space
  as one space), a run of one to eight consecutive annotated lines joined by spaces, or a part of
  such a run (a name printed with its registration number after it);
- date: some date printed on the receipt parses, with the scorer's own `parse_date`, to the key's
  date (a key the scorer cannot parse is reachable only by copying its exact text, so it counts
  as unreachable for a reader that writes ISO dates);
- total: some number printed on the receipt equals the key's amount (`parse_amount`).

A key that no printed text gives is lost by any reader, however good its OCR and its parser: the
annotation spelled it otherwise (a space after a comma the receipt does not print, a full stop for
a comma, a name two receipts of one shop spell two ways). The last line is the mean of the four
ceilings, the highest `receipt-fields` figure such a reader can reach on the set.

The annotated lines are a reading too, with its own slips (`KWANSAN PERINDUSTRIAN BLANKONG` where
the key and the print say `KAWASAN PERINDUSTRIAN BALAKONG`). With `--also DIR` (scanextract's JSON of
the same receipts, `<id>.json`; one folder a set, in the order of the sets), a key also counts as
printed when the observation lines of that second reading give it.

The scorer is imported from beside the set (`score_receipts.py` in the set's parent folder), so
the comparison is the scorer's own; nothing is copied from the set.
"""
import argparse
import glob
import json
import os
import re
import sys

DATE_LIKE = re.compile(
    r"\d{4}[-/.]\d{1,2}[-/.]\d{1,2}"
    r"|\d{1,2}[-/. ]\d{1,2}[-/. ]\d{2,4}"
    r"|\d{1,2}[-/ ]?[A-Za-z]{3,9}[-/ ,]*\d{2,4}"
    r"|[A-Za-z]{3,9} +\d{1,2},? +\d{2,4}")
NUMBER_LIKE = re.compile(r"-?\d[\d,]*(?:\.\d+)?")
LONGEST_RUN = 8


def printed_lines(path):
    lines = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for row in f:
            parts = row.rstrip("\n").split(",", 8)
            if len(parts) == 9:
                lines.append(parts[8])
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("sets", nargs="+", help="set folders with key/ and box/")
    ap.add_argument("--scorer", help="score_receipts.py to compare with (default: beside the first set)")
    ap.add_argument("--also", action="append", default=[],
                    help="a folder of scanextract JSON of the set's receipts, read as a second transcription")
    ap.add_argument("--verbose", action="store_true", help="print each unreachable key")
    a = ap.parse_args()
    scorer = a.scorer or os.path.join(os.path.dirname(os.path.abspath(a.sets[0])), "score_receipts.py")
    sys.path.insert(0, os.path.dirname(os.path.abspath(scorer)))
    s = __import__(os.path.splitext(os.path.basename(scorer))[0])

    def runs_of(lines):
        return [s.strict(" ".join(lines[i:j])) for i in range(len(lines))
                for j in range(i + 1, min(len(lines), i + LONGEST_RUN) + 1)]

    for n, folder in enumerate(a.sets):
        also = a.also[n] if n < len(a.also) else None
        counts = {f: [0, 0] for f in ("company", "address", "date", "total")}
        for key_path in sorted(glob.glob(os.path.join(folder, "key", "*.json"))):
            ident = os.path.splitext(os.path.basename(key_path))[0]
            box_path = os.path.join(folder, "box", ident + ".csv")
            if not os.path.exists(box_path):
                continue
            with open(key_path, encoding="utf-8") as f:
                key = json.load(f)
            lines = printed_lines(box_path)
            runs = runs_of(lines)
            if also and os.path.exists(os.path.join(also, ident + ".json")):
                with open(os.path.join(also, ident + ".json"), encoding="utf-8") as f:
                    doc = json.load(f)
                read = [o.get("text", "") for page in doc.get("pages", []) for o in page.get("observations", [])]
                runs += runs_of(read)
                lines = lines + read
            for field in counts:
                value = key.get(field)
                if value in (None, ""):
                    continue
                counts[field][0] += 1
                if field in ("company", "address"):
                    want = s.strict(value)
                    reachable = any(want in run for run in runs)
                elif field == "date":
                    want = s.parse_date(value)
                    reachable = want is not None and any(
                        s.parse_date(m.group(0)) == want for line in lines for m in DATE_LIKE.finditer(line))
                else:
                    want = s.parse_amount(value)
                    reachable = want is not None and any(
                        s.parse_amount(m.group(0)) == want for line in lines for m in NUMBER_LIKE.finditer(line))
                counts[field][1] += reachable
                if not reachable and a.verbose:
                    print(f"  {ident} {field}: {value!r} is printed nowhere as written")
        print(f"== {folder}" + (f" (and the reading in {also})" if also else ""))
        shares = []
        for field, (n, ok) in counts.items():
            share = ok / n if n else 0.0
            shares.append(share)
            print(f"{field:8s} {ok}/{n} keys printed as written: {share:.3f}")
        print(f"ceiling of receipt-fields for a reader of the printed text: {sum(shares) / len(shares):.3f}")


if __name__ == "__main__":
    main()
