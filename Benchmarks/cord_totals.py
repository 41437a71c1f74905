#!/usr/bin/env python3
"""Checks receipt totals and item amounts on CORD (../shared/eval/cord-train), which has
no scorer of its own.

    Tools/observations/to_document.py cord ../shared/eval/cord-train/json /tmp/cord-docs
    scanextract -q -o /tmp/cord-out /tmp/cord-docs/*.json
    Benchmarks/cord_totals.py /tmp/cord-out ../shared/eval/cord-train/json

Prints the share of receipts routed to `receipt`, of totals equal to `total.total_price`,
and the precision and recall of item amounts against the `menu.price` of each item group.
Discount lines (`kind: discount`) are left out: CORD labels a discount apart from its menu
line (`menu.discountprice`, `sub_total.discount_price`). Amounts are compared as whole rupiah (separators and a trailing `.00` ignored).
"""
import json
import os
import re
import sys


def rupiah(v):
    """A printed amount as an integer number of rupiah, or None."""
    if v is None:
        return None
    s = re.sub(r"[^0-9.,]", "", str(v))
    if not s:
        return None
    m = re.match(r"^(.*?)[.,](\d{2})$", s)
    if m and not re.search(r"[.,]\d{3}$", s):
        s = m.group(1)
    digits = re.sub(r"\D", "", s)
    return int(digits) if digits else None


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    pred, gt = sys.argv[1:]
    docs = routed = right = 0
    hit = n_gt = n_pred = 0
    for name in sorted(os.listdir(gt)):
        g = json.load(open(os.path.join(gt, name), encoding="utf-8"))
        words = [w["text"] for l in g["valid_line"] if l["category"] == "total.total_price"
                 for w in l["words"] if not w.get("is_key")]
        path = os.path.join(pred, name)
        if not words or not os.path.exists(path):
            continue
        d = json.load(open(path, encoding="utf-8"))
        docs += 1
        routed += (d.get("documentType") or {}).get("label") == "receipt"
        r = d.get("receipt") or {}
        right += rupiah(r.get("total")) == rupiah("".join(words))
        groups = {}
        for l in g["valid_line"]:
            if l["category"] == "menu.price":
                groups.setdefault(l["group_id"], []).extend(w["text"] for w in l["words"])
        want = [rupiah("".join(v)) for v in groups.values()]
        got = [rupiah(i.get("amount")) for i in r.get("items", []) if i.get("kind") != "discount"]
        n_gt += len(want)
        n_pred += len(got)
        pool = list(got)
        for a in want:
            if a in pool:
                pool.remove(a)
                hit += 1
    print(f"documents {docs}  routed to receipt {routed / docs:.3f}  total right {right / docs:.3f}  "
          f"item amounts P {hit / max(1, n_pred):.3f} R {hit / max(1, n_gt):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
