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

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from lightgbm_trees import flatten  # noqa: E402  (shared with Tools/train-items)
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


def read_keys(key_dir):
    keys = {}
    for n in os.listdir(key_dir):
        if n.endswith(".json"):
            keys[n[:-5]] = json.load(open(os.path.join(key_dir, n), encoding="utf-8"))
    return keys


def load(sets):
    """sets: [(name, dump, key_dir, weight)] -> names, rows[field][doc] = [(x, rel, value, lines)], docs by set."""
    names = json.load(open(os.path.join(sets[0][1], "features.json")))
    rows = defaultdict(lambda: defaultdict(list))
    docs = {}
    for name, dump, key_dir, _ in sets:
        assert json.load(open(os.path.join(dump, "features.json"))) == names, f"{dump}: other features"
        keys = read_keys(key_dir)
        docs[name] = sorted(keys)
        with open(os.path.join(dump, "candidates.jsonl"), encoding="utf-8") as f:
            for line in f:
                c = json.loads(line)
                if c["doc"] not in keys:
                    continue
                truth = keys[c["doc"]].get(c["field"])
                rel = relevance(c["field"], c["value"], truth)
                if rel is not None:
                    rows[c["field"]][c["doc"]].append((c["x"], rel, c["value"], tuple(c["lines"])))
    return names, rows, docs


def parse_set(text):
    parts = text.split(":")
    if len(parts) not in (3, 4):
        raise argparse.ArgumentTypeError(f"--set NAME:DUMP:KEYS[:WEIGHT], not {text}")
    return parts[0], parts[1], parts[2], float(parts[3]) if len(parts) == 4 else 1.0


PARAMS = {"objective": "lambdarank", "metric": "ndcg", "ndcg_eval_at": [1], "num_leaves": 15,
          "learning_rate": 0.05, "min_data_in_leaf": 10, "feature_fraction": 0.8, "bagging_fraction": 0.8,
          "bagging_freq": 1, "lambda_l2": 1.0, "seed": 7, "deterministic": True, "num_threads": 2,
          "verbose": -1, "label_gain": [0, 1, 3, 7]}
# TRAIN_PARAMS='{"num_leaves": 7}' overrides some of them, for a cross-validated comparison (kfold.py).
PARAMS.update(json.loads(os.environ.get("TRAIN_PARAMS", "{}")))
# TRAIN_BAG=N trains N rankers a field on the same data, the k-th with bagging and feature-fraction seeds
# PARAMS["seed"] + k, and ships their mean score.
BAG = int(os.environ.get("TRAIN_BAG", "1"))


def fit(field, names, rows, doc_weight, held, rounds, quiet=False):
    """`BAG` rankers for `field` over every document not in `held` that has a relevant candidate (one by default),
    and a summary line."""
    xs, ys, ws, groups, docs = [], [], [], [], 0
    for doc, cands in sorted(rows[field].items()):
        if doc in held or doc not in doc_weight or not any(r > 0 for _, r, _, _ in cands):
            continue
        for x, r, _, _ in cands:
            xs.append(x)
            ys.append(r)
            ws.append(doc_weight[doc])
        groups.append(len(cands))
        docs += 1
    data = lgb.Dataset(np.array(xs, dtype=np.float64), label=np.array(ys), group=groups, weight=np.array(ws),
                       feature_name=[re.sub(r"[^A-Za-z0-9_]", "_", n) for n in names[field]])
    boosters = [lgb.train(PARAMS if k == 0 else dict(PARAMS, bagging_seed=PARAMS["seed"] + k,
                                                      feature_fraction_seed=PARAMS["seed"] + k),
                          data, num_boost_round=rounds) for k in range(BAG)]
    if not quiet:
        gain = boosters[0].feature_importance("gain")
        top = sorted(zip(gain, names[field]), reverse=True)[:8]
        print(f"{field}: {docs} documents, {len(xs)} candidates; top features: "
              + ", ".join(f"{n} {g:.0f}" for g, n in top), file=sys.stderr)
    return boosters, f"{field} {docs} documents {len(xs)} candidates"


def group_key(keys, doc, field):
    """The group a document belongs to for cross-validation: its key's `field` (letters and digits), else itself."""
    value = keys.get(doc, {}).get(field) if field else None
    norm = re.sub(r"[^0-9A-Z]", "", (value or "").upper())
    return "k:" + norm if norm else "d:" + doc


def folds_of(ids, keys, field, count):
    """doc -> fold, with the documents of one group in one fold: groups dealt largest first to the fold with
    the fewest documents so far (ties: the lower fold, then the group's name). Also the fold sizes and group count."""
    groups = {}
    for doc in ids:
        groups.setdefault(group_key(keys, doc, field), []).append(doc)
    sizes = [0] * count
    fold = {}
    for _, members in sorted(groups.items(), key=lambda g: (-len(g[1]), g[0])):
        k = min(range(count), key=lambda n: (sizes[n], n))
        sizes[k] += len(members)
        for doc in members:
            fold[doc] = k
    return fold, sizes, len(groups)


def cross_validate(a, names, rows, docs, doc_weight, scorer):
    """Grouped k-fold over every set at once: a document is scored by the model of the fold that left it out
    (with --group-by, the documents of one merchant stay in one fold).
    The pick is the parser's (best score; the address shares no line with the chosen name), the verdict the scorer's."""
    fold_of = {}
    for name, _, key_dir, _ in a.set:
        fold_of.update(folds_of(docs[name], read_keys(key_dir), a.group_by, a.cv)[0])
    picks = defaultdict(dict)  # doc -> field -> (value, lines)
    for k in range(a.cv):
        held = {d for d, f in fold_of.items() if f == k}
        for field in FIELDS:
            boosters, _ = fit(field, names, rows, doc_weight, held, a.rounds, quiet=True)
            for doc in held:
                cands = rows[field].get(doc)
                if not cands:
                    continue
                x = np.array([c[0] for c in cands], dtype=np.float64)
                scores = sum(b.predict(x) for b in boosters) / len(boosters)
                order = sorted(range(len(cands)), key=lambda n: (-scores[n], n))
                picks[doc][field] = [(cands[n][2], cands[n][3]) for n in order]
    keys = {name: read_keys(dump_keys) for name, _, dump_keys, _ in a.set}
    for name, _, _, _ in a.set:
        ok, present = defaultdict(int), defaultdict(int)
        for doc in docs[name]:
            gt = keys[name][doc]
            p = picks.get(doc, {})
            company = p.get("company", [(None, None)])[0]
            chosen = {"company": company[0], "date": p.get("date", [(None, None)])[0][0],
                      "total": p.get("total", [(None, None)])[0][0], "address": None}
            for value, lines in p.get("address", []):
                if company[1] is None or lines[1] <= company[1][0] or lines[0] >= company[1][1]:
                    chosen["address"] = value
                    break
            for field in FIELDS:
                g = gt.get(field)
                if g in (None, "", []):
                    continue
                present[field] += 1
                v = chosen[field]
                if field == "date":
                    gd = scorer.parse_date(g)
                    good = gd is not None and gd == (scorer.parse_date(v) if isinstance(v, str) else None)
                elif field == "total":
                    good = scorer.parse_amount(g) is not None and scorer.parse_amount(g) == scorer.parse_amount(v)
                else:
                    good = scorer.strict(g) == scorer.strict(v)
                ok[field] += bool(good)
        fields = [f for f in FIELDS if present[f]]
        mean = sum(ok[f] / present[f] for f in fields) / max(1, len(fields))
        print(f"{name}: " + "  ".join(f"{f} {ok[f] / present[f]:.3f}" for f in fields) + f"  mean {mean:.3f}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--set", action="append", type=parse_set, required=True,
                    help="NAME:DUMP_DIR:KEY_DIR[:WEIGHT]: a DumpReceiptFields folder, its key files and the weight of each "
                         "of its documents (default 1); repeat for each set")
    ap.add_argument("--fold-ids", help="write the ids of the documents left out to this file")
    ap.add_argument("--folds", type=int, default=0)
    ap.add_argument("--fold", type=int, default=-1)
    ap.add_argument("--cv", type=int, default=0,
                    help="only report: grouped K-fold accuracy of the four fields for each set (needs --scorer)")
    ap.add_argument("--scorer", default="../shared/eval/score_receipts.py", help="score_receipts.py, for --cv")
    ap.add_argument("--group-by", default="", help="with --cv: a key field (company) whose equal values keep documents in one fold")
    ap.add_argument("--rounds", type=int, default=300)
    ap.add_argument("--out", default="Sources/ScanExtraction/Resources/ReceiptFields.json")
    ap.add_argument("--note", default="", help="what the model was trained on, for the file's trainedOn")
    a = ap.parse_args()

    names, rows, docs = load(a.set)
    doc_weight = {d: w for name, _, _, w in a.set for d in docs[name] if w > 0}
    if a.cv:
        import importlib.util
        spec = importlib.util.spec_from_file_location("score_receipts", a.scorer)
        scorer = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(scorer)
        cross_validate(a, names, rows, docs, doc_weight, scorer)
        return
    held = set()
    if a.folds:
        held = {d for ids in docs.values() for n, d in enumerate(ids) if n % a.folds == a.fold}
        if a.fold_ids:
            open(a.fold_ids, "w").write("".join(i + "\n" for i in sorted(held)))
    model = {"trainedOn": "", "fields": {}}
    summary = []
    for field in FIELDS:
        boosters, line = fit(field, names, rows, doc_weight, held, a.rounds)
        model["fields"][field] = {"features": names[field], "trees": flatten(boosters)}
        summary.append(line)
    note = a.note or ", ".join(f"{name} (weight {w:g})" for name, _, _, w in a.set)
    model["trainedOn"] = (f"{note} ({'; '.join(summary)})"
                          + (f", fold {a.fold} of {a.folds} left out" if a.folds else "")
                          + ": Tools/train-receipt-fields/train.py")
    with open(a.out, "w") as f:
        json.dump(model, f, separators=(",", ":"))
    print(f"wrote {a.out}")


if __name__ == "__main__":
    main()
