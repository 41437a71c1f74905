#!/usr/bin/env python3
"""Learn which characters our OCR takes for one another in print, from a set where each
receipt has both our OCR JSON and its annotated text lines (`sroie-train`: `ocr/<id>.json`
and `box/<id>.csv`, eight corner coordinates then the text).

Each annotated line is paired with the OCR line whose box overlaps it most (IoU >= 0.5);
the two texts are aligned, upper-cased, and every one-for-one substitution of a letter or
digit is counted. A pair of characters is a look-alike when it was confused at least
MIN_COUNT times, in either direction, and in at least MIN_RATE of the readings of its two
characters: below that rate the pairs are alignment slips and annotation typos (S for M),
above it they are shapes (I/L, H/M, 0/O, 5/S).

    learn_confusions.py ../shared/eval/sroie-train Sources/ScanExtraction/Resources/OCRConfusions.json
"""
import argparse, collections, difflib, json, os, sys

MIN_COUNT = 5
MIN_RATE = 0.0008


def corners_box(parts):
    xs = [int(v) for v in parts[0:8:2]]
    ys = [int(v) for v in parts[1:8:2]]
    return min(xs), min(ys), max(xs), max(ys)


def iou(a, b):
    iw = max(0, min(a[2], b[2]) - max(a[0], b[0]))
    ih = max(0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = iw * ih
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0


def counted(a):
    return a.isascii() and a.isalnum()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("set", help="folder with ocr/ and box/")
    ap.add_argument("out", help="JSON file to write")
    a = ap.parse_args()

    readings = collections.Counter()      # how often OCR printed each character on a paired line
    confused = collections.Counter()      # (read, meant) -> count
    lines = 0
    for name in sorted(os.listdir(os.path.join(a.set, "box"))):
        stem = os.path.splitext(name)[0]
        try:
            with open(os.path.join(a.set, "ocr", stem + ".json"), encoding="utf-8") as f:
                doc = json.load(f)
        except (OSError, ValueError):
            continue
        observed = []
        for page in doc.get("pages", []):
            for o in page.get("observations", []):
                b = o["boundingBox"]
                observed.append(((b["x"], b["y"], b["x"] + b["width"], b["y"] + b["height"]), o["text"]))
        with open(os.path.join(a.set, "box", name), encoding="utf-8", errors="replace") as f:
            for row in f:
                parts = row.rstrip("\n").split(",", 8)
                if len(parts) < 9:
                    continue
                box = corners_box(parts)
                best = max(observed, key=lambda o: iou(box, o[0]), default=None)
                if best is None or iou(box, best[0]) < 0.5:
                    continue
                lines += 1
                read, meant = best[1].upper(), parts[8].upper()
                for c in read:
                    readings[c] += 1
                ops = difflib.SequenceMatcher(None, read, meant, autojunk=False).get_opcodes()
                for tag, a0, a1, b0, b1 in ops:
                    if tag != "replace" or a1 - a0 != b1 - b0:
                        continue
                    for r, m in zip(read[a0:a1], meant[b0:b1]):
                        if r != m and counted(r) and counted(m):
                            confused[(r, m)] += 1

    pairs = collections.Counter()
    for (r, m), n in confused.items():
        pairs[tuple(sorted((r, m)))] += n
    kept = []
    for (x, y), n in pairs.items():
        rate = n / max(1, readings[x] + readings[y])
        if n >= MIN_COUNT and rate >= MIN_RATE:
            kept.append({"pair": x + y, "count": n, "rate": round(rate, 5),
                         "read": {x + y: confused[(x, y)], y + x: confused[(y, x)]}})
    kept.sort(key=lambda p: -p["rate"])
    out = {
        "about": "Characters our PP-OCR reading takes for one another in print: pairs confused at least "
                 f"{MIN_COUNT} times and in at least {MIN_RATE:.2%} of their readings. `read` counts each direction "
                 "(first character read, second meant).",
        "learnedFrom": f"{os.path.basename(os.path.normpath(a.set))}: {lines} annotated lines paired with our OCR lines",
        "command": "Tools/learn-confusions/learn_confusions.py ../shared/eval/sroie-train "
                   "Sources/ScanExtraction/Resources/OCRConfusions.json",
        "pairs": kept,
    }
    # One pair a line, so that a relearned table reads as a short diff.
    head = json.dumps({k: v for k, v in out.items() if k != "pairs"}, indent=1)[:-2]
    rows = ",\n".join("  " + json.dumps(p) for p in kept)
    with open(a.out, "w", encoding="utf-8") as f:
        f.write(head + ',\n "pairs": [\n' + rows + "\n ]\n}\n")
    print(f"{len(kept)} pairs from {lines} lines -> {a.out}: " + " ".join(p["pair"] for p in kept), file=sys.stderr)


if __name__ == "__main__":
    main()
