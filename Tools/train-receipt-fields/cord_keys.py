#!/usr/bin/env python3
"""Key files for CORD receipts, in the form train.py reads (`{"total": ...}` per document):

    Tools/train-receipt-fields/cord_keys.py CORD_JSON_DIR OUT_DIR

The total is the words CORD labels `total.total_price` (its key words left out). Receipts
without one get no key file.
"""
import json
import os
import sys

src, out = sys.argv[1:3]
os.makedirs(out, exist_ok=True)
n = 0
for name in sorted(os.listdir(src)):
    if not name.endswith(".json"):
        continue
    g = json.load(open(os.path.join(src, name), encoding="utf-8"))
    words = [w["text"] for l in g.get("valid_line", []) if l["category"] == "total.total_price"
             for w in l["words"] if not w.get("is_key")]
    if words:
        json.dump({"total": "".join(words)}, open(os.path.join(out, name), "w"))
        n += 1
print(f"{n} key files -> {out}")
