#!/usr/bin/env python3
"""Scores scanextract's receipt fields of PDF invoices against the values their embedded XML states
(`expected_summary.json` of ../shared/eval/invoices-pdf-dev, made from each file's own ZUGFeRD/Factur-X XML).

    python3 Benchmarks/invoice_fields.py OUT_DIR EXPECTED_SUMMARY_JSON

OUT_DIR holds scanextract's JSON, one file per PDF (`scanextract -q -o OUT_DIR pdf/*.pdf`). A field counts when the
expected value is stated; amounts are compared as decimals, their sign aside (a credit note's amounts are the
receipt's negative ones), names after case and white space are folded."""
import json
import os
import sys
from decimal import Decimal, InvalidOperation


def dec(v):
    try:
        return abs(Decimal(str(v).strip()))
    except (InvalidOperation, ValueError, TypeError):
        return None


def fold(s):
    return " ".join(str(s or "").lower().split())


def main(out_dir, expected_path):
    expected = json.load(open(expected_path))
    right, total = {}, {}
    item_hits = item_truth = item_found = 0

    def score(field, ok):
        total[field] = total.get(field, 0) + 1
        right[field] = right.get(field, 0) + (1 if ok else 0)

    for name, want in sorted(expected.items()):
        path = os.path.join(out_dir, os.path.splitext(name)[0] + ".json")
        doc = json.load(open(path)) if os.path.exists(path) else {}
        r = doc.get("receipt") or {}
        merchant = r.get("merchant") or {}
        if want.get("seller_name"):
            seller = fold(want["seller_name"].splitlines()[-1])
            score("seller", seller and seller in fold(merchant.get("name")))
        if want.get("invoice_number"):
            score("number", fold(r.get("receiptNumber")) == fold(want["invoice_number"]))
        d = want.get("issue_date") or ""
        if len(d) == 8:
            score("date", r.get("date") == f"{d[:4]}-{d[4:6]}-{d[6:]}")
        if want.get("GrandTotalAmount"):
            score("total", dec(r.get("total")) == dec(want["GrandTotalAmount"]))
        if want.get("TaxTotalAmount"):
            taxes = sum((dec(t.get("amount")) or 0) for t in r.get("tax") or [])
            score("tax", taxes == dec(want["TaxTotalAmount"]))
        if want.get("currency"):
            score("currency", r.get("currency") == want["currency"])
        truth = [dec(i.get("line_total")) for i in want.get("line_items") or [] if dec(i.get("line_total")) is not None]
        found = [dec(i.get("amount")) for i in r.get("items") or [] if i.get("kind") != "discount"]
        item_truth += len(truth)
        item_found += len(found)
        pool = list(found)
        for t in truth:
            if t in pool:
                pool.remove(t)
                item_hits += 1
    for field in total:
        print(f"{field}: {right[field]}/{total[field]} = {right[field] / total[field]:.3f}")
    p = item_hits / item_found if item_found else 0
    rec = item_hits / item_truth if item_truth else 0
    f1 = 2 * p * rec / (p + rec) if p + rec else 0
    print(f"items precision {p:.3f} recall {rec:.3f} F1 {f1:.3f}")
    fields = sum(right.values()) / sum(total.values())
    print(f"invoice-fields: {fields:.3f}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
