#!/usr/bin/env python3
"""Learns the receipt item-line model (Sources/ScanExtraction/Resources/ItemLines.json).

Each receipt line is labelled O (no part of an item), ITEM (starts an item), CONT (more of
its description), QTY (its quantity or weight line), SUB (a modifier under it: menu.sub_*)
or DISC (a discount under it); the
parser assembles the items from the labels. The labels come from CORD's word labels
(menu.nm, menu.cnt, menu.price, menu.discountprice ... with their group ids).

    Tools/observations/to_document.py cord ../shared/eval/cord-train/json /tmp/cord-docs
    Tools/train-items/train_items.py split /tmp/cord-docs /tmp/cord-split      # fixed 80/20 split by file name hash
    swift run -c release ItemLines /tmp/cord-split/train > /tmp/item-lines-train.jsonl
    Tools/train-items/train_items.py train /tmp/item-lines-train.jsonl ../shared/eval/cord-train/json \\
        [--model gbm|crf|lr] [--cv 5] [--write Sources/ScanExtraction/Resources/ItemLines.json]

`split` puts every CORD file whose md5(name) is divisible by 5 in `test/` (165 of 800), the
rest in `train/` (635), as symlinks, with the ground truth beside them (`gt-test/`, `gt-train/`),
so `Benchmarks/cord_totals.py OUT /tmp/cord-split/gt-test` scores the held-out part.
`train` reports k-fold line scores on the training files for each model kind, then fits
the chosen kind on all of them and writes the model file the parser reads: boosted trees
(one ensemble a label, packed as the receipt field model's), or linear weights with the
CRF's transitions. Needs scikit-learn, sklearn-crfsuite and lightgbm.
"""
import argparse
import hashlib
import json
import re
import subprocess
import os
import sys

import numpy as np

LABELS = ["O", "ITEM", "CONT", "QTY", "SUB", "DISC"]


def split(args):
    names = sorted(f for f in os.listdir(args.docs) if f.endswith(".json"))
    gt = args.gt
    counts = {"train": 0, "test": 0}
    for part in counts:
        for sub in (part, "gt-" + part):
            os.makedirs(os.path.join(args.out, sub), exist_ok=True)
    for f in names:
        part = "test" if int(hashlib.md5(f.encode()).hexdigest()[:8], 16) % 5 == 0 else "train"
        counts[part] += 1
        for src, sub in ((os.path.join(args.docs, f), part), (os.path.join(gt, f), "gt-" + part)):
            dst = os.path.join(args.out, sub, f)
            if not os.path.lexists(dst):
                os.symlink(os.path.abspath(src), dst)
    print(counts)


def inside(box, x, y):
    bx, by, bw, bh = box
    return bx - 1 <= x <= bx + bw + 1 and by - 1 <= y <= by + bh + 1


def cord_labels(doc, gt, shift=0.0):
    """One label per dumped line, from the CORD words whose centres fall on it (moved down by
    `shift`, for a document that augment.py gave a header)."""
    lines = doc["lines"]
    cats = [[] for _ in lines]
    for vl in gt.get("valid_line", []):
        for w in vl["words"]:
            q = w["quad"]
            cx = (q["x1"] + q["x2"] + q["x3"] + q["x4"]) / 4
            cy = (q["y1"] + q["y2"] + q["y3"] + q["y4"]) / 4 + shift
            hit = None
            for i, l in enumerate(lines):
                if any(inside(b, cx, cy) for b in l["words"]):
                    hit = i
                    break
            if hit is None:
                for i, l in enumerate(lines):
                    if inside(l["box"], cx, cy):
                        hit = i
                        break
            if hit is not None:
                cats[hit].append((vl["category"], vl.get("group_id")))
    # Lines of each menu group, in order.
    group_lines = {}
    for i, c in enumerate(cats):
        for cat, g in c:
            if cat.startswith("menu.") and i not in group_lines.setdefault(g, []):
                group_lines[g].append(i)
    labels = []
    for i, c in enumerate(cats):
        names = {cat for cat, _ in c}
        menu = [(cat, g) for cat, g in c if cat.startswith("menu.")]
        if not menu:
            labels.append("O")
            continue
        if "menu.discountprice" in names and "menu.nm" not in names:
            labels.append("DISC")
            continue
        # The line's group: that of its name, else of most of its words.
        gs = [g for cat, g in menu if cat == "menu.nm"] or [g for _, g in menu]
        g = max(set(gs), key=gs.count)
        named = [k for k in group_lines[g] if any(cat == "menu.nm" and gg == g for cat, gg in cats[k])]
        head = named[0] if named else group_lines[g][0]
        if i == head:
            labels.append("ITEM")
        elif "menu.nm" in names:
            labels.append("CONT")
        elif any(n.startswith("menu.sub_") for n in names):
            labels.append("SUB")
        else:
            labels.append("QTY")
    return labels


AMOUNT = re.compile(r"(-?)[$€£]?(\d{1,3}(?:,\d{3})+|\d+)[.,](\d{2})(-?)(?=\W*$)")
QTY = re.compile(r"\d\s*(?:@|[xX×]\s*\$?\d|(?:kg|lb|lbs|oz|Ibs)\b)")


# An amount in whole units at the end of a line (yen, won): `¥2,430`, `4,500`, `13,200원`, `739円`.
WHOLE = re.compile(r"(-?)[¥￥₩$]?(\d{1,3}(?:,\d{3})+|\d+)(?:円|원)?(-?)(?=\W*$)")
EAST_ASIAN = re.compile("[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7a3]")


def line_amount(text, whole=False):
    """The amount a line ends in, in cents; with `whole`, also one printed in whole units."""
    m = AMOUNT.search(text.strip())
    if m:
        v = int(m.group(2).replace(",", "")) * 100 + int(m.group(3))
        return -v if m.group(1) or m.group(4) else v
    m = WHOLE.search(text.strip()) if whole else None
    if not m:
        return None
    v = int(m.group(2).replace(",", "")) * 100
    return -v if m.group(1) or m.group(3) else v


def similar(a, b):
    """How alike two texts are, by their letters and digits (of every script when either holds Chinese, Japanese or
    Korean, else of ASCII only, as the labels of the shipped model were made)."""
    import difflib
    keep = r"[^\w ]|_" if EAST_ASIAN.search(a + b) else r"[^a-z0-9 ]"
    a, b = re.sub(keep, "", a.lower()), re.sub(keep, "", b.lower())
    return difflib.SequenceMatcher(None, a, b).ratio() if a and b else 0


def photo_labels(doc, key):
    """Line labels from a receipt photo's key (items with description and amount): the line
    that prints an item's amount and (most of) its description starts it, a line whose text
    the key's description goes on with continues it; lines between items are quantity lines
    (`2 @ 3.50`, weights) or modifiers; everything else is O. None when fewer than half of
    the key's items are found."""
    texts = [l["text"] for l in doc["lines"]]
    labels = ["O"] * len(texts)
    found, cursor, wanted = 0, 0, 0
    starts = []
    items = [it for it in key.get("items") or [] if it.get("amount") is not None]
    # Amounts in whole units (yen, won) when the key prints none with decimals.
    whole = bool(items) and all("." not in str(it["amount"]) for it in items)
    for it in items:
        wanted += 1
        cents = round(float(it["amount"]) * 100)
        desc = str(it.get("description") or "")
        def named(t):
            return similar(desc, t) >= 0.45 or desc.lower()[:6] in t.lower()
        for i in range(cursor, len(texts)):
            if line_amount(texts[i], whole) != cents:
                continue
            if named(texts[i]):
                labels[i] = "DISC" if cents < 0 and starts else "ITEM"
                starts.append(i)
                cursor = i + 1
                found += 1
                # The description goes on over the next line.
                if i + 1 < len(texts) and line_amount(texts[i + 1], whole) is None and len(texts[i + 1]) > 3 \
                        and similar(texts[i + 1], desc[-len(texts[i + 1]):]) >= 0.7:
                    labels[i + 1] = "CONT"
                    cursor = i + 2
                break
            # The name on its own line above, the amount on its quantity line (`크루아상` / `3,800 x 2  7,600`),
            # as CORD's groups are labelled: the name starts the item, the rest is its quantity.
            if i > cursor and labels[i - 1] == "O" and line_amount(texts[i - 1], whole) is None and named(texts[i - 1]):
                labels[i - 1], labels[i] = "ITEM", "QTY"
                starts.append(i - 1)
                cursor = i + 1
                found += 1
                break
            # The name on its own line below (`4006381 2 1.20  2.40` / `Mineral Water`): a till that prints the
            # article code, count and price first. The line of numbers starts the item and the name goes on under it
            # (so the sequence rule holds: no quantity line right after a line that is no part of an item).
            if i + 1 < len(texts) and line_amount(texts[i + 1], whole) is None and named(texts[i + 1]):
                labels[i], labels[i + 1] = "ITEM", "CONT"
                starts.append(i)
                cursor = i + 2
                found += 1
                break
    if wanted == 0 or found * 2 < wanted:
        return None
    for a, b in zip(starts, starts[1:] + [None]):
        end = b if b is not None else next((k for k in range(a + 1, len(texts))
                                            if labels[k] == "O" and line_amount(texts[k], whole) is not None), a + 1)
        for k in range(a + 1, end):
            if labels[k] == "O":
                a = line_amount(texts[k], whole)
                # A quantity line may end in its unit price (`2 x 3.50`); another amount the key doesn't
                # list is an item it missed, or a free modifier (0.00).
                labels[k] = "QTY" if QTY.search(texts[k]) else ("ITEM" if a else "SUB") if a is not None else "SUB"
    return labels


def load_photos(path, key_dir):
    docs = []
    for line in open(path, encoding="utf-8"):
        d = json.loads(line)
        base = os.path.basename(d["file"])
        key = json.load(open(os.path.join(key_dir, base), encoding="utf-8"))
        labels = photo_labels(d, key)
        if labels is None:
            print("  no labels for", base, file=sys.stderr)
            continue
        X = np.array([l["f"] for l in d["lines"]], dtype=float).reshape(len(d["lines"]), -1)
        docs.append((d["file"], X, labels, [l["text"] for l in d["lines"]]))
    return docs


def load_generated(args):
    """The generated receipts of `--generated` (files joined by commas), each labelled from the key folder at the same
    place in `--generated-keys`."""
    if not args.generated:
        return []
    files, keys = args.generated.split(","), args.generated_keys.split(",")
    if len(files) != len(keys):
        sys.exit("--generated and --generated-keys need as many entries each")
    return [d for f, k in zip(files, keys) for d in load_photos(f, k)]


def load(paths, gt_dir):
    docs, names = [], None
    shifts = {}
    for path in paths:
        for line in open(path, encoding="utf-8"):
            d = json.loads(line)
            names = d.get("features", names)
            folder, base = os.path.split(d["file"])
            if folder not in shifts:
                sf = os.path.join(folder, "augment-shifts.txt")
                shifts[folder] = dict((k, float(v)) for k, v in (l.split() for l in open(sf))) if os.path.exists(sf) else {}
            g = json.load(open(os.path.join(gt_dir, base), encoding="utf-8"))
            X = np.array([l["f"] for l in d["lines"]], dtype=float).reshape(len(d["lines"]), -1)
            docs.append((d["file"], X, cord_labels(d, g, shifts[folder].get(base, 0.0)), [l["text"] for l in d["lines"]]))
    return names, docs


def crf_features(X, names):
    return [{n: float(v) for n, v in zip(names, row) if v != 0} for row in X]


def fit(kind, docs, names, params):
    if kind == "crf":
        import sklearn_crfsuite
        m = sklearn_crfsuite.CRF(algorithm="lbfgs", c1=params.get("c1", 0.05), c2=params.get("c2", 0.05),
                                 max_iterations=300, all_possible_transitions=True)
        m.fit([crf_features(X, names) for _, X, _, _ in docs], [y for _, _, y, _ in docs])
        return m
    X = np.vstack([X for _, X, _, _ in docs])
    y = np.concatenate([[LABELS.index(v) for v in yy] for _, _, yy, _ in docs])
    if kind == "lr":
        from sklearn.linear_model import LogisticRegression
        m = LogisticRegression(C=params.get("C", 1.0), max_iter=3000)
        m.fit(X, y)
        return m
    if kind == "gbm":
        import lightgbm
        m = lightgbm.LGBMClassifier(n_estimators=200, learning_rate=0.05, num_leaves=15, verbose=-1)
        m.fit(X, y)
        return m
    raise SystemExit("unknown model " + kind)


def predict(kind, m, X, names):
    if kind == "crf":
        return m.predict_single(crf_features(X, names))
    return [LABELS[int(k)] for k in m.predict(X)]


def scores(gold, pred):
    """Line accuracy, and F1 of ITEM lines (the items' starts) and of each other item label."""
    flat_g = [v for g in gold for v in g]
    flat_p = [v for p in pred for v in p]
    acc = sum(a == b for a, b in zip(flat_g, flat_p)) / len(flat_g)
    out = {"acc": acc}
    for lab in LABELS[1:]:
        tp = sum(a == b == lab for a, b in zip(flat_g, flat_p))
        np_ = sum(b == lab for b in flat_p)
        ng = sum(a == lab for a in flat_g)
        p, r = tp / max(1, np_), tp / max(1, ng)
        out[lab] = 2 * p * r / max(1e-9, p + r)
    return out


def crossval(kind, docs, names, params, k):
    gold, pred = [], []
    for fold in range(k):
        train = [d for i, d in enumerate(docs) if i % k != fold]
        test = [d for i, d in enumerate(docs) if i % k == fold]
        m = fit(kind, train, names, params)
        for _, X, y, _ in test:
            gold.append(y)
            pred.append(predict(kind, m, X, names))
    return scores(gold, pred)


def weights(kind, m, names):
    W = np.zeros((len(LABELS), len(names)))
    T = np.zeros((len(LABELS), len(LABELS)))
    if kind == "crf":
        for (attr, lab), w in m.state_features_.items():
            W[LABELS.index(lab), names.index(attr)] += w
        for (a, b), w in m.transition_features_.items():
            T[LABELS.index(a), LABELS.index(b)] = w
    else:
        W[[int(c) for c in m.classes_]] = m.coef_
        W[[int(c) for c in m.classes_], names.index("bias")] += m.intercept_
    return W, T


def class_trees(m, names):
    """A LightGBM classifier's trees, one ensemble a label (tree i scores class i mod classes), flat
    and packed as the receipt field model's; checked against LightGBM's own raw scores."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    from lightgbm_trees import flatten
    booster = m.booster_
    flat = flatten(booster)
    k = len(m.classes_)
    per = [[] for _ in LABELS]
    for i, t in enumerate(flat):
        per[int(m.classes_[i % k])].append(t)
    # The same sums in Python as Swift's TreeEnsemble.score makes, on random rows.
    rng = np.random.default_rng(0)
    X = rng.random((50, len(names))) * 2 - 0.5
    raw = booster.predict(X, raw_score=True)

    def score(tree, x):
        f = [int(v) for v in tree["feature"].split()]
        if not f:
            return float(tree["leaf"].split()[0])
        th = [float(v) for v in tree["threshold"].split()]
        le = [int(v) for v in tree["left"].split()]
        ri = [int(v) for v in tree["right"].split()]
        lf = [float(v) for v in tree["leaf"].split()]
        n = 0
        while True:
            nxt = le[n] if x[f[n]] <= th[n] else ri[n]
            if nxt < 0:
                return lf[-nxt - 1]
            n = nxt
    for r, x in enumerate(X):
        for c in range(k):
            mine = sum(score(t, x) for t in per[int(m.classes_[c])])
            assert abs(mine - raw[r][c]) < 1e-6, (mine, raw[r][c])
    return per


def model_json(kind, m, names, trained_on=""):
    out = {"trainedOn": trained_on, "labels": LABELS, "features": names}
    if kind == "gbm":
        out["trees"] = class_trees(m, names)
    else:
        W, T = weights(kind, m, names)
        out["weights"] = np.round(W, 4).tolist()
        out["transitions"] = np.round(T, 4).tolist()
    return json.dumps(out, separators=(",", ":"))


def train(args):
    names, docs = load(args.lines.split(","), args.gt)
    photos = load_photos(args.photos, args.photo_keys) if args.photos else []
    if args.kfold_photos:
        generated = load_generated(args)
        return kfold_photos(args, names, docs, photos, list(generated))
    ncord = len(docs)
    docs += photos * args.photo_weight
    generated = load_generated(args)
    docs += generated
    for name in (args.drop.split(",") if args.drop else []):
        for _, X, _, _ in docs:
            X[:, names.index(name)] = 0
    counts = {lab: sum(y.count(lab) for _, _, y, _ in docs) for lab in LABELS}
    print(f"{len(docs)} receipts, {sum(len(y) for _, _, y, _ in docs)} lines: {counts}")
    grid = {"crf": [{"c1": c1, "c2": c2} for c1 in (0.0, 0.05, 0.2) for c2 in (0.01, 0.1, 1.0)],
            "lr": [{"C": c} for c in (1.0, 0.1, 10.0)], "gbm": [{}]}
    kinds = [] if args.cv < 2 else [args.model] if args.only else ["crf", "lr", "gbm"]
    best = {}
    for kind in kinds:
        for params in grid[kind] if args.grid else grid[kind][:1] if kind != "crf" else [{"c1": 0.05, "c2": 0.1}]:
            s = crossval(kind, docs, names, params, args.cv)
            print(f"{kind:4} {json.dumps(params):28} {args.cv}-fold  acc {s['acc']:.4f}  " +
                  "  ".join(f"{k} {s[k]:.3f}" for k in LABELS[1:]), flush=True)
            if kind == args.model and (not best or s["acc"] > best["s"]["acc"]):
                best = {"params": params, "s": s}
    if args.write:
        params = best.get("params", {"c1": 0.05, "c2": 0.1} if args.model == "crf" else {})
        m = fit(args.model, docs, names, params)
        trained_on = (f"{args.model} {json.dumps(params, sort_keys=True)}, by Tools/train-items/train_items.py, on the line labels "
                      f"of {ncord} CORD documents (the train part of CORD's fixed split, md5 of the file name not divisible "
                      f"by 5, each also twice with a made-up header and footer by augment.py) and of {len(photos)} receipt "
                      f"photos (labels from their keys), each counted {args.photo_weight} times"
                      + (f", and of {len(generated)} generated receipts (Tools/train-receipt-fields/make_receipts.py, "
                         f"labels from their keys)" if generated else "") + ". Lines per label: "
                      + ", ".join(f"{k} {v}" for k, v in counts.items()))
        open(args.write, "w").write(model_json(args.model, m, names, trained_on))
        print("wrote", args.write, "with", args.model, params)


def kfold_photos(args, names, cord, photos, generated=()):
    """k-fold over the photos: each fold's model learns from CORD and the other photos, then
    the Swift parser (ItemLines --model) reads the fold's photos with it; the scorer then
    sees every photo read by a model that never saw it."""
    k = args.cv if args.cv > 1 else 5
    out = args.kfold_photos
    os.makedirs(out, exist_ok=True)
    # Each fold's model and its photos live beside the reads, never in a shared folder.
    work = os.path.join(out, "folds")
    docs_dir = os.path.dirname(photos[0][0]) if photos else None
    all_files = sorted(f for f in os.listdir(docs_dir) if f.endswith(".json"))
    for fold in range(k):
        held = [f for i, f in enumerate(all_files) if i % k == fold]
        train = cord + [p for p in photos if os.path.basename(p[0]) not in held] * args.photo_weight + generated
        m = fit(args.model, train, names, {"c1": 0.05, "c2": 0.1} if args.model == "crf" else {})
        fold_dir = os.path.join(work, f"photos-{fold}")
        path = os.path.join(work, f"model-{fold}.json")
        os.makedirs(fold_dir, exist_ok=True)
        open(path, "w").write(model_json(args.model, m, names))
        for f in os.listdir(fold_dir):
            os.remove(os.path.join(fold_dir, f))
        for f in held:
            os.symlink(os.path.join(docs_dir, f), os.path.join(fold_dir, f))
        subprocess.run([args.tool, "--model", path, "--out", out, fold_dir], check=True)
        print(f"fold {fold}: {len(held)} photos held out, trained on {len(train)} receipts", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("split")
    s.add_argument("docs")
    s.add_argument("out")
    s.add_argument("--gt", default=os.path.join(os.path.dirname(__file__), "../../../shared/eval/cord-train/json"))
    t = sub.add_parser("train")
    t.add_argument("lines", help="ItemLines output, several joined by commas")
    t.add_argument("gt")
    t.add_argument("--model", default="gbm", choices=["gbm", "crf", "lr"])
    t.add_argument("--only", action="store_true", help="measure only --model")
    t.add_argument("--grid", action="store_true", help="measure a small grid of regularization settings")
    t.add_argument("--cv", type=int, default=5, help="folds; 0 skips the cross-validation")
    t.add_argument("--write")
    t.add_argument("--photos", help="ItemLines output for receipt photos, labelled from --photo-keys")
    t.add_argument("--photo-keys")
    t.add_argument("--kfold-photos", metavar="OUT", help="k-fold check over the photos: write each photo, read by a "
                   "model that never saw it, to OUT (then score OUT with score_receipts.py)")
    t.add_argument("--photo-weight", type=int, default=1, help="how many times each photo counts")
    t.add_argument("--generated", help="ItemLines output for generated receipts (make_receipts.py), several joined by "
                   "commas, labelled from the key folders of --generated-keys (as many, joined by commas) as the photos "
                   "are; they train every fold of --kfold-photos")
    t.add_argument("--generated-keys")
    t.add_argument("--tool", default=".build/release/ItemLines")
    t.add_argument("--drop", help="features to leave out (their weights stay 0), joined by commas")
    a = ap.parse_args()
    {"split": split, "train": train}[a.cmd](a)


if __name__ == "__main__":
    sys.exit(main())
