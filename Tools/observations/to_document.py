#!/usr/bin/env python3
"""Turn word- or line-level annotations into scanextract Document JSON, so that the
later stages (layout, classifier, parsers) can run on them without OCR:

    to_document.py cord  CORD_JSON_DIR  OUT_DIR   # CORD v0 words with quads
    to_document.py sroie SROIE_BOX_DIR  OUT_DIR   # SROIE line boxes (x1,y1,...,x4,y4,text)
    to_document.py text  TEXT_DIR       OUT_DIR   # plain text files set as A4 pages ("other" documents)

Each output keeps the input's base name, so scorers match it to its ground truth.
Boxes become axis-aligned rectangles in page pixels (top-left origin). Nothing here
is shipped: the files are read at run time from wherever the data lives.
"""
import json, os, sys


def rect(xs, ys):
    x0, y0 = min(xs), min(ys)
    return {"x": x0, "y": y0, "width": max(xs) - x0, "height": max(ys) - y0}


def doc(source, width, height, observations):
    return {"schemaVersion": "1.0.0", "source": source,
            "engine": {"name": "annotation", "version": "1"},
            "pages": [{"index": 0, "width": width, "height": height, "textSource": "imported",
                       "observations": observations}], "warnings": []}


def cord(path):
    d = json.load(open(path, encoding="utf-8"))
    rows = {}
    for line in d.get("valid_line", []):
        for w in line["words"]:
            q = w["quad"]
            b = rect([q["x1"], q["x2"], q["x3"], q["x4"]], [q["y1"], q["y2"], q["y3"], q["y4"]])
            rows.setdefault(w.get("row_id", id(w)), []).append({"text": w["text"], "confidence": 1.0, "boundingBox": b})
    obs = []
    for words in rows.values():
        words.sort(key=lambda w: w["boundingBox"]["x"])
        xs = [w["boundingBox"]["x"] for w in words] + [w["boundingBox"]["x"] + w["boundingBox"]["width"] for w in words]
        ys = [w["boundingBox"]["y"] for w in words] + [w["boundingBox"]["y"] + w["boundingBox"]["height"] for w in words]
        obs.append({"text": " ".join(w["text"] for w in words), "confidence": 1.0, "boundingBox": rect(xs, ys), "words": words})
    obs.sort(key=lambda o: o["boundingBox"]["y"])
    meta = d.get("meta", {}).get("image_size", {})
    w = meta.get("width") or max((o["boundingBox"]["x"] + o["boundingBox"]["width"] for o in obs), default=1)
    h = meta.get("height") or max((o["boundingBox"]["y"] + o["boundingBox"]["height"] for o in obs), default=1)
    return w, h, obs


def sroie(path):
    obs = []
    for line in open(path, encoding="utf-8", errors="replace"):
        parts = line.rstrip("\n").split(",", 8)
        if len(parts) < 9:
            continue
        v = list(map(int, parts[:8]))
        b = rect(v[0::2], v[1::2])
        text = parts[8]
        # Spread the line's width over its words by character count.
        words, x = [], b["x"]
        toks = text.split()
        total = max(1, sum(len(t) + 1 for t in toks) - 1)
        for t in toks:
            wd = b["width"] * len(t) / total
            words.append({"text": t, "confidence": 1.0, "boundingBox": {"x": x, "y": b["y"], "width": wd, "height": b["height"]}})
            x += b["width"] * (len(t) + 1) / total
        obs.append({"text": text, "confidence": 1.0, "boundingBox": b, "words": words})
    w = max((o["boundingBox"]["x"] + o["boundingBox"]["width"] for o in obs), default=1)
    h = max((o["boundingBox"]["y"] + o["boundingBox"]["height"] for o in obs), default=1)
    return w, h, obs


def text(path):
    """A plain-text file set as the first page of an A4 document at 150 dpi: 16 px text on a
    26 px pitch, 9 px per character, wrapped at 95 characters. How much of the page is filled
    (8 to 55 lines) is drawn from the file name, so that short notes and full pages both occur."""
    import hashlib, textwrap
    raw = open(path, encoding="utf-8", errors="replace").read().expandtabs(8).splitlines()
    lines = []
    for r in raw:
        lines += textwrap.wrap(r, 95) or [""]
    keep = 8 + int(hashlib.sha1(os.path.basename(path).encode()).hexdigest(), 16) % 48
    obs, y = [], 110
    for line in lines:
        if len(obs) >= keep or y > 1650:
            break
        if line.strip():
            words, col = [], 0
            for tok in line.split(" "):
                if tok:
                    words.append({"text": tok, "confidence": 1.0,
                                  "boundingBox": {"x": 100 + 9 * col, "y": y, "width": 9 * len(tok), "height": 16}})
                col += len(tok) + 1
            b = rect([w["boundingBox"]["x"] for w in words] + [w["boundingBox"]["x"] + w["boundingBox"]["width"] for w in words], [y, y + 16])
            obs.append({"text": " ".join(w["text"] for w in words), "confidence": 1.0, "boundingBox": b, "words": words})
        y += 26
    return 1240, 1754, obs


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("cord", "sroie", "text"):
        print(__doc__); return 2
    kind, src, out = sys.argv[1:]
    os.makedirs(out, exist_ok=True)
    for name in sorted(os.listdir(src)):
        base, ext = os.path.splitext(name)
        if ext not in (".json", ".txt", ".csv"):
            continue
        w, h, obs = {"cord": cord, "sroie": sroie, "text": text}[kind](os.path.join(src, name))
        if not obs:
            continue
        with open(os.path.join(out, base + ".json"), "w", encoding="utf-8") as f:
            json.dump(doc(base + {"cord": ".png", "sroie": ".jpg", "text": ".txt"}[kind], w, h, obs), f)


if __name__ == "__main__":
    sys.exit(main())
