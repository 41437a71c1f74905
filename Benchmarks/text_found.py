#!/usr/bin/env python3
"""How often a recognizer's text holds the ground truth's key values verbatim
(case and white space ignored) -- an OCR-only figure for the sets whose ground
truth is fields, not lines (receipts-photo-dev, cards-dev).

usage: text_found.py PRED_DIR GT_DIR   (GT_DIR: receipts-photo-dev/key or cards-dev/gt)
Receipts: total (as 0.00), subtotal, tax, phone digits. Cards: full name,
e-mails, phone numbers (digits), urls. Last line: 'values found: <fraction>'.
"""
import json, os, re, sys


def norm(s):
    return re.sub(r"\s+", "", s).upper()


def digits(s):
    return re.sub(r"\D", "", s)


def doc_text(d):
    return "\n".join(o.get("text", "") for p in d.get("pages", []) for o in p.get("observations", []))


def values(gt):
    out = []
    if "total" in gt:  # receipt
        for k in ("total", "subtotal", "tax"):
            if isinstance(gt.get(k), (int, float)):
                out.append((k, "%.2f" % gt[k], norm))
        if gt.get("phone"):
            out.append(("phone", digits(gt["phone"]), digits))
    else:  # card
        if (gt.get("name") or {}).get("full"):
            out.append(("name", gt["name"]["full"], norm))
        for e in gt.get("emails") or []:
            out.append(("email", e, norm))
        for p in gt.get("phones") or []:
            out.append(("phone", digits(p["number"]), digits))
        for u in gt.get("urls") or []:
            out.append(("url", u, norm))
    return out


def main():
    pred, gtdir = sys.argv[1], sys.argv[2]
    per, found, total = {}, 0, 0
    for n in sorted(os.listdir(gtdir)):
        if not n.endswith(".json"):
            continue
        gt = json.load(open(os.path.join(gtdir, n)))
        p = os.path.join(pred, n)
        text = doc_text(json.load(open(p))) if os.path.exists(p) else ""
        for kind, v, f in values(gt):
            ok = norm(v) in norm(text) if f is norm else v in digits(text)
            a = per.setdefault(kind, [0, 0]); a[0] += ok; a[1] += 1
            found += ok; total += 1
    for k, (a, b) in sorted(per.items()):
        print(f"{k}: {a}/{b}")
    print(f"values found: {found / max(1, total):.3f}")


if __name__ == "__main__":
    main()
