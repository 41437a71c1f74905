#!/usr/bin/env python3
"""How well line grouping survives a photo's perspective, without OCR and without images.

Takes scanextract JSON documents of flat pages (for example ../shared/eval/sroie-train/ocr),
drops their stored layout and parsed fields, and writes a warped copy of each: every observation's
and word's box goes through a random homography (each page corner moved by up to --strength page
widths, the page turned by up to 4 degrees), optionally with a curl (each point lowered by
--curl * u^2 page widths, u the distance from the middle in page widths), and becomes the box
around its four moved corners, with those corners as its `quad`, as a detector reports a slanted line. Both sets are
read by `BIN --format text`; the figure is how many of the flat page's lines come out whole from
the warped one, and how many documents keep every line.

    Benchmarks/layout_warp.py .build/release/scanextract ../shared/eval/sroie-train/ocr --strength 0.06

Needs numpy. The warp is seeded, so two builds compare on the same warped boxes.
"""
import argparse, collections, glob, json, math, os, random, re, subprocess, sys, tempfile

import numpy as np


def homography(rng, w, h, strength):
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], float)
    d = strength * w
    dst = src + np.array([[rng.uniform(-d, d), rng.uniform(-d, d)] for _ in range(4)])
    a = math.radians(rng.uniform(-4, 4))
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    centre = np.array([w / 2, h / 2])
    dst = (dst - centre) @ rot.T + centre
    rows, rhs = [], []
    for (x, y), (X, Y) in zip(src, dst):
        rows += [[x, y, 1, 0, 0, 0, -X * x, -X * y], [0, 0, 0, x, y, 1, -Y * x, -Y * y]]
        rhs += [X, Y]
    return np.append(np.linalg.solve(np.array(rows), np.array(rhs)), 1).reshape(3, 3)


def stripped(doc):
    """`doc` without what a reading derives: its parsed fields, entities and stored layout."""
    doc = {k: v for k, v in doc.items() if k not in ("receipt", "businessCard", "entities")}
    doc["pages"] = [{k: v for k, v in p.items() if k != "layout"} for p in doc.get("pages", [])]
    return doc


def warp_document(doc, rng, strength, curl):
    doc = stripped(doc)
    for page in doc["pages"]:
        w, h = page.get("width") or 1000, page.get("height") or 1000
        m = homography(rng, w, h, strength)
        bend = rng.uniform(-curl, curl)

        def move(x, y):
            v = m @ np.array([x, y, 1.0])
            return v[0] / v[2], v[1] / v[2]

        corners = [move(x, y) for x, y in [(0, 0), (w, 0), (w, h), (0, h)]]
        left, top = min(c[0] for c in corners), min(c[1] for c in corners)
        width = max(c[0] for c in corners) - left
        height = max(c[1] for c in corners) - top
        top -= min(0, bend) * width / 4  # a curl upwards must not leave the page

        def corners(b):
            pts = []
            for x, y in [(b["x"], b["y"]), (b["x"] + b["width"], b["y"]), (b["x"] + b["width"], b["y"] + b["height"]),
                         (b["x"], b["y"] + b["height"])]:
                X, Y = move(x, y)
                X -= left
                u = (X - width / 2) / width
                pts.append((X, Y - top + bend * u * u * width))
            return pts

        def box(pts):
            xs, ys = [p[0] for p in pts], [p[1] for p in pts]
            return {"x": round(min(xs), 1), "y": round(min(ys), 1), "width": round(max(xs) - min(xs), 1),
                    "height": round(max(ys) - min(ys), 1)}

        def quad(pts):
            names = ["topLeft", "topRight", "bottomRight", "bottomLeft"]
            return {n: {"x": round(p[0], 1), "y": round(p[1], 1)} for n, p in zip(names, pts)}

        page["width"], page["height"] = round(width), round(height + abs(bend) * width / 2)
        # Each box becomes the quadrilateral a detector would report for the moved text, and the box around it.
        for o in page.get("observations", []):
            pts = corners(o["boundingBox"])
            o["boundingBox"], o["quad"] = box(pts), quad(pts)
            for word in o.get("words", []):
                pts = corners(word["boundingBox"])
                word["boundingBox"], word["quad"] = box(pts), quad(pts)
    return doc


def lines_of(binary, folder, out):
    subprocess.run([binary, "-q", "--format", "text", "-o", out] + sorted(glob.glob(folder + "/*.json")), check=True)
    norm = lambda s: re.sub(r"\s+", " ", s).strip()
    return {os.path.basename(f): [norm(l) for l in open(f, encoding="utf-8") if norm(l)] for f in glob.glob(out + "/*.txt")}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("binary")
    ap.add_argument("documents", help="folder of scanextract JSON documents of flat pages")
    ap.add_argument("--strength", type=float, default=0.06, help="largest corner move, in page widths")
    ap.add_argument("--curl", type=float, default=0.0, help="largest curl, in page widths")
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    with tempfile.TemporaryDirectory() as tmp:
        flat, warped = os.path.join(tmp, "flat"), os.path.join(tmp, "warped")
        os.makedirs(flat), os.makedirs(warped)
        for f in sorted(glob.glob(a.documents + "/*.json")):
            doc = json.load(open(f, encoding="utf-8"))
            name = os.path.basename(f)
            json.dump(stripped(doc), open(os.path.join(flat, name), "w"))
            json.dump(warp_document(doc, rng, a.strength, a.curl), open(os.path.join(warped, name), "w"))
        reference = lines_of(a.binary, flat, os.path.join(tmp, "flat-text"))
        test = lines_of(a.binary, warped, os.path.join(tmp, "warped-text"))
    total = kept = whole = 0
    for name, lines in reference.items():
        left = collections.Counter(test.get(name, []))
        found = 0
        for l in lines:
            if left[l] > 0:
                left[l] -= 1
                found += 1
        total, kept, whole = total + len(lines), kept + found, whole + (found == len(lines))
    print(f"documents {len(reference)}  strength {a.strength}  curl {a.curl}")
    print(f"lines kept {kept / max(1, total):.4f}  documents whole {whole / max(1, len(reference)):.3f}")


if __name__ == "__main__":
    sys.exit(main())
