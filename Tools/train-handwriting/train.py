#!/usr/bin/env python3
"""Trains the handwriting judge (a logistic regression over HandwritingDetector's line features)
and writes Sources/ScanInk/Resources/HandwritingDetector.json. See README.md beside this file.

    train.py --train A.jsonl B.jsonl ... [--test C.jsonl ...] [--out FILE] [--fp-rate 0.002]

Each input line is one recognized line: {"label": 0|1, "features": [...], "kind", "source", "text"}.
The threshold is learned on the training lines, not set by hand: the lowest probability at which
at most --fp-rate of the printed training lines (label 0) would be judged handwritten, on their
out-of-fold probabilities (grouped 5-fold, pages never split).
"""
import argparse, json, sys
import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GroupKFold

FEATURES = None  # taken from the Swift side's names, passed with --names


def load(paths):
    rows = []
    for p in paths:
        with open(p) as f:
            for line in f:
                if line.strip():
                    rows.append(json.loads(line))
    return rows


def arrays(rows):
    X = np.array([r["features"] for r in rows], dtype=float)
    y = np.array([r["label"] for r in rows], dtype=int)
    g = np.array([r["source"] + "#" + str(r.get("page", 0)) for r in rows])
    return X, y, g


def fit(X, y, C):
    mean = X.mean(axis=0)
    scale = X.std(axis=0)
    scale[scale == 0] = 1
    model = LogisticRegression(C=C, max_iter=5000, class_weight="balanced")
    model.fit((X - mean) / scale, y)
    return mean, scale, model


def proba(mean, scale, model, X):
    return model.predict_proba((X - mean) / scale)[:, 1]


def threshold_for(p_printed, fp_rate):
    """The lowest threshold that flags at most fp_rate of the printed lines."""
    s = np.sort(p_printed)[::-1]
    k = int(np.floor(fp_rate * len(s)))
    # flag only p >= t; at t just above s[k], at most k printed lines are flagged
    return float(min(0.999, max(0.5, s[k] + 1e-6)))


def report(name, p, y, t, groups=None):
    hw, pr = p[y == 1], p[y == 0]
    line = f"{name}: handwritten lines {len(hw)}, recall {np.mean(hw >= t) if len(hw) else float('nan'):.3f}; " \
           f"printed lines {len(pr)}, flagged {int(np.sum(pr >= t))} ({np.mean(pr >= t) if len(pr) else float('nan'):.4f}" \
           f"{f', highest p {pr.max():.3f}' if len(pr) else ''})"
    if groups is not None:
        pages = {}
        for gi, pi, yi in zip(groups, p, y):
            pages.setdefault(gi, [yi, 0, 0])
            pages[gi][1] += 1
            pages[gi][2] += int(pi >= t)
        hp = [v for v in pages.values() if v[0] == 1]
        pp = [v for v in pages.values() if v[0] == 0]
        line += f"; pages: handwritten {len(hp)} with any line flagged {sum(1 for v in hp if v[2] > 0)}, " \
                f"mean share of lines flagged {np.mean([v[2] / v[1] for v in hp]) if hp else float('nan'):.3f}; " \
                f"printed {len(pp)} with any line flagged {sum(1 for v in pp if v[2] > 0)}"
    print(line)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--train", nargs="+", required=True)
    ap.add_argument("--test", nargs="*", default=[])
    ap.add_argument("--names", required=True, help="JSON list of the feature names (HandwritingDetector.featureNames)")
    ap.add_argument("--out")
    ap.add_argument("--fp-rate", type=float, default=0.002)
    ap.add_argument("--C", type=float, default=1.0)
    ap.add_argument("--drop", nargs="*", default=[], help="features the dumps hold but the model leaves out")
    ap.add_argument("--note", default="", help="what the training data was (stored as trainedOn)")
    args = ap.parse_args()

    dumped = json.loads(open(args.names).read())
    keep = [i for i, n in enumerate(dumped) if n not in args.drop]
    names = [dumped[i] for i in keep]
    train = load(args.train)
    X, y, g = arrays(train)
    assert X.shape[1] == len(dumped), (X.shape, len(dumped))
    X = X[:, keep]
    print(f"training lines: {len(y)} ({int(y.sum())} handwritten, {int((1 - y).sum())} printed) from {len(set(g))} pages")

    # Grouped 5-fold check (pages never split) for the choice of C. The shipped threshold is
    # the one found on the out-of-fold probabilities for --C: in-sample probabilities of the
    # printed lines are lower than unseen print's, and would set it too low.
    shipped_t = None
    for C in sorted({0.1, 1.0, 10.0, args.C}):
        p = np.zeros(len(y))
        for tr, te in GroupKFold(n_splits=5).split(X, y, g):
            m, s, model = fit(X[tr], y[tr], C)
            p[te] = proba(m, s, model, X[te])
        t = threshold_for(p[y == 0], args.fp_rate)
        report(f"5-fold C={C} t={t:.3f}", p, y, t, g)
        if C == args.C:
            shipped_t = t

    mean, scale, model = fit(X, y, args.C)
    p_train = proba(mean, scale, model, X)
    t = shipped_t
    report(f"train (in-sample) C={args.C} t={t:.3f}", p_train, y, t, g)
    order = np.argsort(-np.abs(model.coef_[0]))
    print("largest weights:", ", ".join(f"{names[i]} {model.coef_[0][i]:+.2f}" for i in order[:10]))

    for path in args.test:
        rows = load([path])
        if not rows:
            continue
        Xt, yt, gt = arrays(rows)
        Xt = Xt[:, keep]
        report(f"test {path}", proba(mean, scale, model, Xt), yt, t, gt)

    if args.out:
        weights = {
            "features": names,
            "mean": [round(float(v), 6) for v in mean],
            "scale": [round(float(v), 6) for v in scale],
            "coefficients": [round(float(v), 6) for v in model.coef_[0]],
            "intercept": round(float(model.intercept_[0]), 6),
            "threshold": round(t, 4),
            "trainedOn": (args.note + "; " if args.note else "") + f"{len(y)} lines ({int(y.sum())} handwritten) "
                         f"from {len(set(g))} pages; C={args.C}, fp-rate={args.fp_rate}",
        }
        with open(args.out, "w") as f:
            json.dump(weights, f, indent=1)
            f.write("\n")
        print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
