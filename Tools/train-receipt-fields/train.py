#!/usr/bin/env python3
"""Learns the receipt parser's field scores from candidates and ground truth.

    swift run -c release DumpReceiptFields DUMP_DIR DOC_DIR...      # candidates + features
    python3 Tools/train-receipt-fields/train.py DUMP_DIR... --keys KEY_DIR... \\
        [--folds 5 --fold K] [--out Sources/ScanExtraction/Resources/ReceiptFields.json]

Ground truth: one JSON per document, named like the document (`<id>.json`), with any of
"company", "address", "date", "total" as printed (SROIE's key files; CORD's converted keys).
A candidate's relevance: for company and address 3 when it equals the truth (case and spaces
aside), 2 when its letters and digits do, 1 when they are at least 0.85 similar; for date and
total 1 when the value is the same date or amount. Documents where no candidate of a field is
relevant teach that field nothing and are left out of its training.

Each field gets a LightGBM ranker (lambdarank, one query a document). The trees are written as
flat arrays (packed into strings of numbers) that Sources/ScanExtraction/Receipt/FieldModel.swift walks.

With --folds N --fold K, the documents whose position in the sorted list of ids is K modulo N
are left out (cross-validation: score them with a model that never saw them).
Requires: pip install lightgbm numpy.
"""
import argparse
import datetime as dt
import difflib
import json
import os
import re
import sys
from collections import defaultdict
from decimal import Decimal, InvalidOperation

import lightgbm as lgb
import numpy as np

FIELDS = ["company", "address", "date", "total"]


def letters_digits(s):
    return re.sub(r"[^0-9A-Z]", "", (s or "").upper())


def spaced(s):
    return re.sub(r"\s+", " ", (s or "").upper()).strip()


def amount(v):
    if v is None:
        return None
    s = re.sub(r"[^0-9.,-]", "", str(v))
    if re.fullmatch(r"-?\d{1,3}([.,]\d{3})+", s):  # whole units with thousands separators: 60,000 or 60.000
        s = re.sub(r"[.,]", "", s)
    if "," in s and "." not in s:
        s = s.replace(",", ".") if re.search(r",\d{2}$", s) else s.replace(",", "")
    s = s.replace(",", "")
    try:
        return Decimal(s).quantize(Decimal("0.01"))
    except InvalidOperation:
        return None


MONTHS = {m: i + 1 for i, m in enumerate("JAN FEB MAR APR MAY JUN JUL AUG SEP OCT NOV DEC".split())}


def day(s):
    """A printed date as a date: ISO, day first (month first when day first is impossible), or with a month name."""
    s = (s or "").strip().upper()
    m = re.fullmatch(r"(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})", s)
    try:
        if m:
            return dt.date(int(m[1]), int(m[2]), int(m[3]))
        m = re.fullmatch(r"(\d{1,2})[-/. ](\d{1,2})[-/. ](\d{2,4})", s)
        if m:
            a, b, y = int(m[1]), int(m[2]), int(m[3])
            y = y + 2000 if y < 100 else y
            try:
                return dt.date(y, b, a)
            except ValueError:
                return dt.date(y, a, b)
        m = re.fullmatch(r"(\d{1,2})[-/ ]?([A-Z]{3})[A-Z]*[-/ ,]*(\d{2,4})", s)
        if m and m[2] in MONTHS:
            y = int(m[3])
            return dt.date(y + 2000 if y < 100 else y, MONTHS[m[2]], int(m[1]))
    except ValueError:
        return None
    return None


def relevance(field, value, truth):
    if truth in (None, ""):
        return None
    if field in ("company", "address"):
        if spaced(value) == spaced(truth):
            return 3
        a, b = letters_digits(value), letters_digits(truth)
        if a == b:
            return 2
        if a and b:
            m = difflib.SequenceMatcher(None, a, b, autojunk=False)
            if m.real_quick_ratio() >= 0.85 and m.quick_ratio() >= 0.85 and m.ratio() >= 0.85:
                return 1
        return 0
    if field == "date":
        t = day(truth)
        return int(t is not None and day(value) == t)
    t = amount(truth)
    return int(t is not None and amount(value) == t)


def load(dumps, key_dirs):
    names = json.load(open(os.path.join(dumps[0], "features.json")))
    keys = {}
    for d in key_dirs:
        for n in os.listdir(d):
            if n.endswith(".json"):
                keys[n[:-5]] = json.load(open(os.path.join(d, n), encoding="utf-8"))
    rows = defaultdict(lambda: defaultdict(list))  # field -> doc -> [(x, relevance)]
    for dump in dumps:
        assert json.load(open(os.path.join(dump, "features.json"))) == names, f"{dump}: other features"
        with open(os.path.join(dump, "candidates.jsonl"), encoding="utf-8") as f:
            for line in f:
                c = json.loads(line)
                truth = keys.get(c["doc"], {}).get(c["field"])
                rel = relevance(c["field"], c["value"], truth)
                if rel is not None:
                    rows[c["field"]][c["doc"]].append((c["x"], rel))
    first = sorted(n[:-5] for n in os.listdir(key_dirs[0]) if n.endswith(".json"))
    return names, rows, first


def flatten(booster):
    """LightGBM's trees as flat arrays: inner nodes first (feature, threshold, children), then leaves."""
    out = []
    for info in booster.dump_model()["tree_info"]:
        feature, threshold, left, right, leaf = [], [], [], [], []

        def walk(node):
            if "leaf_value" in node:
                leaf.append(node["leaf_value"])
                return -len(leaf)
            assert node.get("decision_type", "<=") == "<=", node.get("decision_type")
            i = len(feature)
            feature.append(node["split_feature"])
            threshold.append(node["threshold"])
            left.append(0)
            right.append(0)
            left[i] = walk(node["left_child"])
            right[i] = walk(node["right_child"])
            return i

        root = info["tree_structure"]
        if "leaf_value" in root:
            leaf.append(root["leaf_value"])
        else:
            walk(root)
        # Packed as strings of numbers: Swift reads one string a tree array much faster than thousands of JSON numbers.
        out.append({k: " ".join(repr(float(v)) if k in ("threshold", "leaf") else str(v) for v in vals)
                    for k, vals in (("feature", feature), ("threshold", threshold), ("left", left), ("right", right),
                                    ("leaf", leaf))})
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dumps", nargs="+", help="folders DumpReceiptFields wrote")
    ap.add_argument("--keys", nargs="+", required=True, help="key folders; folds are made of the first one's documents")
    ap.add_argument("--fold-ids", help="write the ids of the documents left out to this file")
    ap.add_argument("--folds", type=int, default=0)
    ap.add_argument("--fold", type=int, default=-1)
    ap.add_argument("--rounds", type=int, default=300)
    ap.add_argument("--out", default="Sources/ScanExtraction/Resources/ReceiptFields.json")
    ap.add_argument("--note", default="", help="what the model was trained on, for the file's trainedOn")
    a = ap.parse_args()

    names, rows, ids = load(a.dumps, a.keys)
    held = set()
    if a.folds:
        held = {i for n, i in enumerate(ids) if n % a.folds == a.fold}
        if a.fold_ids:
            open(a.fold_ids, "w").write("".join(i + "\n" for i in sorted(held)))
    model = {"trainedOn": "", "fields": {}}
    summary = []
    for field in FIELDS:
        xs, ys, groups, docs = [], [], [], 0
        for doc, cands in sorted(rows[field].items()):
            if doc in held or not any(r > 0 for _, r in cands):
                continue
            for x, r in cands:
                xs.append(x)
                ys.append(r)
            groups.append(len(cands))
            docs += 1
        params = {"objective": "lambdarank", "metric": "ndcg", "ndcg_eval_at": [1], "num_leaves": 15,
                  "learning_rate": 0.05, "min_data_in_leaf": 10, "feature_fraction": 0.8, "bagging_fraction": 0.8,
                  "bagging_freq": 1, "lambda_l2": 1.0, "seed": 7, "deterministic": True, "num_threads": 2,
                  "verbose": -1, "label_gain": [0, 1, 3, 7]}
        data = lgb.Dataset(np.array(xs, dtype=np.float64), label=np.array(ys), group=groups,
                           feature_name=[re.sub(r"[^A-Za-z0-9_]", "_", n) for n in names[field]])
        booster = lgb.train(params, data, num_boost_round=a.rounds)
        model["fields"][field] = {"features": names[field], "trees": flatten(booster)}
        summary.append(f"{field} {docs} documents {len(xs)} candidates")
        gain = booster.feature_importance("gain")
        top = sorted(zip(gain, names[field]), reverse=True)[:8]
        print(f"{field}: {docs} documents, {len(xs)} candidates; top features: "
              + ", ".join(f"{n} {g:.0f}" for g, n in top), file=sys.stderr)
    note = a.note or ", ".join(a.keys)
    model["trainedOn"] = (f"{note} ({'; '.join(summary)})"
                          + (f", fold {a.fold} of {a.folds} left out" if a.folds else "")
                          + ": Tools/train-receipt-fields/train.py")
    with open(a.out, "w") as f:
        json.dump(model, f, separators=(",", ":"))
    print(f"wrote {a.out}")


if __name__ == "__main__":
    main()
