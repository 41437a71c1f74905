#!/usr/bin/env python3
"""How often a folder of scanextract receipts reads items that add up, for receipts whose keys list no items.

    item_sums.py OUT_DIR [OUT_DIR ...]

SROIE's keys give the company, address, date and total but no items, so a change to the item reader cannot be
scored there. The receipts' own arithmetic can check it: for each receipt with items, the items' amounts (with the
discounts, hung under them or taken off the bill) should make the subtotal, the total, the total less the tax, or the total less its
rounding. The count of receipts where they do is a lower bound on those read right (a receipt may print no sum the
items make, and a wrong reading may add up by chance), so it compares two builds or models on the same OCR JSON; it
is no accuracy. Prints one line per folder.
"""
import json
import os
import sys
from decimal import Decimal, InvalidOperation


def amount(v):
    if v is None:
        return None
    if isinstance(v, dict):
        v = v.get("amount")
    try:
        return Decimal(str(v))
    except (InvalidOperation, ValueError):
        return None


def targets(r):
    """The sums printed on the receipt that its items may make."""
    total, subtotal = amount(r.get("total")), amount(r.get("subtotal"))
    out = {x for x in (total, subtotal) if x is not None}
    tax = r.get("tax")
    taxes = [amount(t) for t in tax] if isinstance(tax, list) else [amount(tax)]
    if total is not None and tax is not None and None not in taxes:
        out.add(total - sum(taxes))
    rounding = amount(r.get("rounding"))
    if total is not None and rounding is not None:
        out.add(total - rounding)
    return out


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for folder in sys.argv[1:]:
        read = with_items = adding_up = 0
        for name in sorted(os.listdir(folder)):
            if not name.endswith(".json"):
                continue
            try:
                with open(os.path.join(folder, name), encoding="utf-8") as f:
                    doc = json.load(f)
            except (OSError, json.JSONDecodeError):
                continue  # a manifest or a file that is no document
            r = doc.get("receipt") if isinstance(doc, dict) else None
            if not isinstance(r, dict):
                continue
            read += 1
            items = r.get("items") or []
            if not items:
                continue
            with_items += 1
            # Schema 3 lists the discount lines among the items (`kind: discount`), so the amounts add up as they
            # stand; before it, the receipt's `discounts` (or the items' own) were added to the articles.
            listed = any(i.get("kind") == "discount" for i in items)
            off = 0 if listed else amount(r.get("discounts"))
            if off is None:
                off = sum((amount(i.get("discount")) or 0) for i in items)
            if sum((amount(i.get("amount")) or 0) for i in items) + off in targets(r):
                adding_up += 1
        print(f"{folder}: {read} receipts, {with_items} with items, {adding_up} whose items make a printed sum")


if __name__ == "__main__":
    main()
