#!/usr/bin/env python3
"""Cross-validation of the receipt field scores through scanextract itself: for each fold, train
on every set's documents outside the fold, run scanextract with that model on the fold's documents
of the sets that have documents to read, and score every such set with the eval scorer at the end.

    Tools/train-receipt-fields/kfold.py OUT_DIR --folds 5 \\
        --set sroie:DUMP:KEYS:1:DOC_DIR --set photos:DUMP:KEYS:3:DOC_DIR --set cord:DUMP:KEYS:0.3 ...

A set is NAME:DUMP_DIR:KEY_DIR[:WEIGHT[:DOC_DIR]] (train.py's --set, plus the folder of Document JSON
named <id>.json to read and score; a set without one only trains). Folds are taken in each set
separately (position in the sorted ids modulo FOLDS), so every scored document is read by a model that
never saw it. OUT_DIR/pred-NAME gets the outputs. Needs `swift build -c release --product scanextract`,
and the scorer (SCORER, default ../shared/eval/score_receipts.py).
"""
import argparse
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
ap.add_argument("out")
ap.add_argument("--folds", type=int, default=5)
ap.add_argument("--set", action="append", required=True)
ap.add_argument("--bin", default=os.environ.get("SCANEXTRACT", ".build/release/scanextract"))
ap.add_argument("--scorer", default=os.environ.get("SCORER", "../shared/eval/score_receipts.py"))
a = ap.parse_args()

sets = [s.split(":") for s in a.set]
train_sets = [":".join(s[:4]) for s in sets]
scored = [(s[0], s[4], s[2]) for s in sets if len(s) >= 5]
os.makedirs(a.out, exist_ok=True)
for name, _, _ in scored:
    pred = os.path.join(a.out, "pred-" + name)
    subprocess.run(["rm", "-rf", pred], check=True)
    os.makedirs(pred)
for k in range(a.folds):
    model, ids = os.path.join(a.out, f"model-{k}.json"), os.path.join(a.out, f"fold-{k}.txt")
    cmd = [sys.executable, os.path.join(here, "train.py"), "--folds", str(a.folds), "--fold", str(k),
           "--fold-ids", ids, "--out", model] + [x for s in train_sets for x in ("--set", s)]
    with open(os.path.join(a.out, f"train-{k}.log"), "w") as log:
        subprocess.run(cmd, check=True, stdout=log, stderr=log)
    held = set(open(ids).read().split())
    env = dict(os.environ, SCANEXTRACT_RECEIPT_MODEL=model)
    for name, docs, _ in scored:
        files = [os.path.join(docs, f) for f in sorted(os.listdir(docs)) if f.endswith(".json") and f[:-5] in held]
        if files:
            subprocess.run([a.bin, "-q", "-o", os.path.join(a.out, "pred-" + name)] + files, env=env)
    print(f"fold {k} done", flush=True)
for name, _, keys in scored:
    print(f"== {name} ({a.folds}-fold, each document read by a model that never saw it)")
    out = subprocess.run([sys.executable, a.scorer, os.path.join(a.out, "pred-" + name), keys],
                         capture_output=True, text=True).stdout
    print(out.rstrip())
