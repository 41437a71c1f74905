#!/usr/bin/env python3
"""Chooses the ink recognizer's test-time ensemble (InkEnsemble.swift) from `TrainInk dump` files.

  TrainInk dump-gen 300 2024 gen.jsonl --mess 1.8     (with INK_VARIANTS: the variants to choose among)
  ensemble.py gen.jsonl [--check dev.jsonl] [--budget 0.5] [--max-extra 2]

Each dump line holds one ink's candidates with their CTC log-probability on every rendering
variant (variant 0 is the default renderer). A candidate's score is its mean log-probability
over the renderings read, plus the word-list bonus (InkWeights, base + per character). The
extra variants are read only when the best candidate leads the second by less than a margin.
The choice maximizes top-1 on the generated inks, with the mean number of extra renderings per
ink at most --budget (time: each costs about one recognizer run), ties to the cheaper.
--check scores a labelled set with the chosen ensemble (nothing is fitted on it).
Approximation: the first pass ranks every candidate any variant proposed, on variant 0 alone."""
import argparse, itertools, json

def cer(a, b):
    d = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        prev, d[0] = d[0], i
        for j, cb in enumerate(b, 1):
            prev, d[j] = d[j], min(d[j] + 1, d[j - 1] + 1, prev + (ca != cb))
    return d[len(b)]

def ranked(row, variants, base, per_char):
    out = []
    for text, listed, lps in row["cands"]:
        values = [lps[i] for i in variants]
        if any(v is None or v == float("-inf") for v in values):
            continue
        score = sum(values) / len(values)
        if listed:
            score += base + per_char * len(text.replace(" ", ""))
        out.append((score, text))
    out.sort(key=lambda x: (-x[0], x[1]))
    seen, res = set(), []
    for score, text in out:
        if text.lower() not in seen:
            seen.add(text.lower()); res.append((text.lower(), score))
    return res

def evaluate(rows, extra, margin, base, per_char):
    top1 = top5 = errors = chars = cost = 0
    for row in rows:
        first = ranked(row, [0], base, per_char)
        got = first
        if extra and len(first) >= 2 and first[0][1] - first[1][1] < margin:
            got = ranked(row, [0] + list(extra), base, per_char); cost += len(extra)
        want = row["text"].lower(); texts = [t for t, _ in got]
        top1 += bool(texts) and texts[0] == want; top5 += want in texts[:5]
        errors += cer(texts[0] if texts else "", want); chars += len(want)
    n = len(rows)
    return top1 / n, top5 / n, errors / max(chars, 1), cost / n

def load(path):
    return [json.loads(l) for l in open(path) if l.strip()]

ap = argparse.ArgumentParser()
ap.add_argument("dump"); ap.add_argument("--check"); ap.add_argument("--budget", type=float, default=0.5)
ap.add_argument("--max-extra", type=int, default=2); ap.add_argument("--base", type=float, default=0.0)
ap.add_argument("--per-char", type=float, default=1.5)
a = ap.parse_args()
rows = load(a.dump)
variants = len(rows[0]["cands"][0][2])
margins = [0.5, 1, 1.5, 2, 3, 4, 6, 8, float("inf")]
single = evaluate(rows, (), 0, a.base, a.per_char)
print(f"{len(rows)} inks, {variants} variants; one rendering: top-1 {single[0]:.3f} top-5 {single[1]:.3f} CER {single[2]:.4f}")
best = (single[0], 0.0, (), 0.0)
for k in range(1, a.max_extra + 1):
    for extra in itertools.combinations(range(1, variants), k):
        for margin in margins:
            t1, t5, c, cost = evaluate(rows, extra, margin, a.base, a.per_char)
            if cost <= a.budget and (t1 > best[0] + 1e-9 or (abs(t1 - best[0]) < 1e-9 and cost < best[1])):
                best = (t1, cost, extra, margin)
t1, cost, extra, margin = best
r = evaluate(rows, extra, margin, a.base, a.per_char)
print(f"chosen: extra variants {list(extra)}, margin {margin}: top-1 {r[0]:.3f} top-5 {r[1]:.3f} CER {r[2]:.4f}, "
      f"{r[3]:.2f} extra renderings per ink")
if extra:
    full = evaluate(rows, extra, float("inf"), a.base, a.per_char)
    print(f"  (always read: top-1 {full[0]:.3f} top-5 {full[1]:.3f})")
if a.check:
    check = load(a.check)
    for name, (e, m) in [("one rendering", ((), 0)), ("chosen", (extra, margin)), ("chosen, always", (extra, float("inf")))]:
        r = evaluate(check, e, m, a.base, a.per_char)
        print(f"check {a.check}: {name}: top-1 {r[0]:.3f} top-5 {r[1]:.3f} CER {r[2]:.4f}, {r[3]:.2f} extra per ink")
