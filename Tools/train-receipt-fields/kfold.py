#!/usr/bin/env python3
"""Grouped cross-validation of the receipt field scores through scanextract itself, optionally over a
small grid of set weights: for each weight choice and each fold, train on every document outside the
fold, run scanextract with that model on the fold's documents of the scored sets, and score each scored
set with the eval scorer over all its folds (each document read by a model that never saw it).

    Tools/train-receipt-fields/kfold.py OUT_DIR --folds 5 --group-by company \\
        --set sroie:DUMP:KEYS:1:DOC_DIR --set photos:DUMP:KEYS:3:DOC_DIR \\
        --set cord:DUMP:KEYS:0.3 --set gen:DUMP:KEYS:0.3 \\
        [--grid photos=1,3,10 --grid cord+gen=0,0.3,1] [--no-read]

A set is NAME:DUMP_DIR:KEY_DIR[:WEIGHT[:DOC_DIR]] (train.py's --set, plus the folder of Document JSON
named <id>.json to read and score). A set without DOC_DIR is never scored and so never held out: it
trains every fold's model. A scored set is cut into folds by groups: with --group-by company, the
documents whose key `company` is the same (letters and digits, case aside) form one group, so that
receipts of one merchant never straddle folds (SROIE has 45 receipts of one bakery among 300); without
it, or for a document without that key, a document is its own group. Groups are dealt, largest first,
to the fold with the fewest documents so far.

--grid NAME=W1,W2,... tries each weight for that set (NAME+NAME2=... ties two sets to one weight); the
grid is the product of all --grid options, the --set weights being the rest. Models are kept
(OUT_DIR/<choice>/model-K.json) and not retrained when present, so a run can be resumed; --no-read
only trains. The results go to OUT_DIR/results.tsv, one line per choice and scored set.
Needs `swift build -c release --product scanextract`, and the scorer (SCORER, default
../shared/eval/score_receipts.py). LightGBM and numpy (train.py).
"""
import argparse
import itertools
import json
import os
import re
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import train  # noqa: E402  (the same data loading, ranker fitting and tree export as the shipped model's)


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--set", action="append", required=True)
    ap.add_argument("--group-by", default="", help="a key field whose equal values keep documents in one fold")
    ap.add_argument("--grid", action="append", default=[], help="NAME[+NAME...]=W1,W2,...")
    ap.add_argument("--rounds", type=int, default=300)
    ap.add_argument("--no-read", action="store_true", help="train the fold models only")
    ap.add_argument("--bin", default=os.environ.get("SCANEXTRACT", ".build/release/scanextract"))
    ap.add_argument("--scorer", default=os.environ.get("SCORER", "../shared/eval/score_receipts.py"))
    return ap.parse_args()


def choices(sets, grids):
    axes = []
    for g in grids:
        names, values = g.split("=")
        axes.append([(names.split("+"), float(v)) for v in values.split(",")])
    base = {s["name"]: s["weight"] for s in sets}
    for combo in itertools.product(*axes) if axes else [()]:
        w = dict(base)
        for names, v in combo:
            for n in names:
                w[n] = v
        yield "-".join(f"{n}{w[n]:g}" for n in sorted(w)), w


def write_model(path, names, boosters, note):
    model = {"trainedOn": note + ": Tools/train-receipt-fields/kfold.py", "fields": {}}
    for field in train.FIELDS:
        model["fields"][field] = {"features": names[field], "trees": train.flatten(boosters[field])}
    with open(path + ".tmp", "w") as f:
        json.dump(model, f, separators=(",", ":"))
    os.replace(path + ".tmp", path)


def main():
    a = parse_args()
    sets = []
    for text in a.set:
        p = text.split(":")
        sets.append({"name": p[0], "dump": p[1], "keys": p[2], "weight": float(p[3]) if len(p) > 3 else 1.0,
                     "docs": p[4] if len(p) > 4 else None})
    keys = {s["name"]: train.read_keys(s["keys"]) for s in sets}
    docs = {name: sorted(k) for name, k in keys.items()}
    loaded = []  # the candidates, read only when a fold model is missing

    def data():
        if not loaded:
            loaded.append(train.load([(s["name"], s["dump"], s["keys"], s["weight"]) for s in sets])[:2])
        return loaded[0]
    fold = {}
    for s in sets:
        if s["docs"]:
            f, sizes, groups = train.folds_of(docs[s["name"]], keys[s["name"]], a.group_by, a.folds)
            fold.update(f)
            print(f"{s['name']}: {len(f)} documents in {groups} groups, folds of {sizes}", flush=True)
    os.makedirs(a.out, exist_ok=True)
    results = open(os.path.join(a.out, "results.tsv"), "a")
    for tag, weights in choices(sets, a.grid):
        cdir = os.path.join(a.out, tag)
        os.makedirs(cdir, exist_ok=True)
        doc_weight = {d: weights[s["name"]] for s in sets for d in docs[s["name"]] if weights[s["name"]] > 0}
        for k in range(a.folds):
            model = os.path.join(cdir, f"model-{k}.json")
            if os.path.exists(model):
                continue
            held = {d for d, f in fold.items() if f == k}
            names, rows = data()
            boosters = {field: train.fit(field, names, rows, doc_weight, held, a.rounds, quiet=True)[0]
                        for field in train.FIELDS}
            write_model(model, names, boosters, f"{tag}, fold {k} of {a.folds} left out")
            print(f"{tag}: fold {k} trained", flush=True)
        if a.no_read:
            continue
        for s in (s for s in sets if s["docs"]):
            pred = os.path.join(cdir, "pred-" + s["name"])
            subprocess.run(["rm", "-rf", pred], check=True)
            os.makedirs(pred)
            for k in range(a.folds):
                files = [os.path.join(s["docs"], d + ".json") for d in docs[s["name"]] if fold.get(d) == k]
                env = dict(os.environ, SCANEXTRACT_RECEIPT_MODEL=os.path.join(cdir, f"model-{k}.json"))
                subprocess.run([a.bin, "-q", "-j", "2", "-o", pred] + files, env=env, check=True)
            out = subprocess.run([sys.executable, a.scorer, pred, s["keys"]], capture_output=True, text=True).stdout
            open(os.path.join(cdir, f"score-{s['name']}.txt"), "w").write(out)
            last = out.strip().splitlines()[-1] if out.strip() else "no output"
            figure = re.search(r"receipt-fields:\s*([0-9.]+)", out)
            print(f"== {tag} {s['name']} ({a.folds}-fold): {last}", flush=True)
            results.write(f"{tag}\t{s['name']}\t{figure[1] if figure else ''}\n")
            results.flush()


if __name__ == "__main__":
    main()
